//! `pkg/controller/deployment/recreate.go`: `rolloutRecreate` — scale every old ReplicaSet to
//! zero, wait until none of their pods run, then scale the new one up.
//!
//! The wait is upstream's `oldPodsRunning`: an old ReplicaSet's `status.replicas`, or any Pod of
//! an old ReplicaSet in the pod informer that has not reached `Succeeded` or `Failed` (a
//! terminating Pod still counts: its containers may still run).

use super::*;

impl DeploymentController {
    /// `rolloutRecreate`: scale old down to zero, wait, then scale the new one up.
    pub(super) fn rollout_recreate(&mut self, ctx: &mut Ctx, d: &Value, rs_list: Vec<Value>) -> SyncResult {
        let mut d = d.clone();
        // Don't create a new RS if not already existed, so that we avoid scaling up before scaling down.
        let (mut new_rs, mut old_rss) = self.get_all_replica_sets_and_sync_revision(ctx, &mut d, &rs_list, false)?;
        let mut all = old_rss.clone();
        all.extend(new_rs.clone());
        // scaleDownOldReplicaSetsForRecreate
        let mut scaled = false;
        for rs in du::filter_active_replica_sets(&old_rss) {
            if du::spec_replicas(&rs) != 0 && self.scale_replica_set_and_record_event(ctx, &rs, 0, &d)?.0 {
                scaled = true;
            }
        }
        if scaled {
            return self.sync_rollout_status(ctx, &all, new_rs.as_ref(), &d);
        }
        // Do not process a deployment when it has old pods running.
        let pod_map = self.get_pod_map_for_deployment(&d, &rs_list);
        if old_pods_running(new_rs.as_ref(), &old_rss, &pod_map) {
            return self.sync_rollout_status(ctx, &all, new_rs.as_ref(), &d);
        }
        if new_rs.is_none() {
            let (n, o) = self.get_all_replica_sets_and_sync_revision(ctx, &mut d, &rs_list, true)?;
            new_rs = n;
            old_rss = o;
            all = old_rss.clone();
            all.extend(new_rs.clone());
        }
        let Some(new_rs) = new_rs else { return Ok(()) };
        // scaleUpNewReplicaSetForRecreate
        self.scale_replica_set_and_record_event(ctx, &new_rs, du::spec_replicas(&d), &d)?;
        if du::deployment_complete(&d, d.get("status").unwrap_or(&json!({}))) {
            self.cleanup_deployment(ctx, &old_rss, &d)?;
        }
        self.sync_rollout_status(ctx, &all, Some(&new_rs), &d)
    }
}

/// `oldPodsRunning`.
fn old_pods_running(new_rs: Option<&Value>, old_rss: &[Value], pod_map: &[(String, Vec<Value>)]) -> bool {
    if du::get_actual_replica_count_for_replica_sets(old_rss) > 0 {
        return true;
    }
    pod_map
        .iter()
        .filter(|(uid, _)| new_rs.is_none_or(|n| meta::uid(n) != uid))
        .flat_map(|(_, pods)| pods)
        // Pods in a terminal phase do not count; everything else (Unknown included) does.
        .any(|p| !matches!(meta::get_str(p, &["status", "phase"]), "Succeeded" | "Failed"))
}
