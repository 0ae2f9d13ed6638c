//! `pkg/controller/deployment/recreate.go`: `rolloutRecreate` — scale every old ReplicaSet to
//! zero, wait until none of their pods run, then scale the new one up.
//!
//! What kubesim simplifies: the wait reads the old ReplicaSets' status instead of a pod informer.

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
        // oldPodsRunning, read from the old ReplicaSets' status (see the module docs)
        if old_rss.iter().any(|rs| meta::get_i64(rs, &["status", "replicas"]).unwrap_or(0) > 0) {
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
