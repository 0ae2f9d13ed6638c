//! `pkg/controller/deployment/recreate.go`: `rolloutRecreate` — scale every old ReplicaSet to
//! zero, wait until none of their pods run, then scale the new one up.
//!
//! What kubesim simplifies: the wait reads the old ReplicaSets' status instead of a pod informer.

use super::*;

impl DeploymentController {
    /// `rolloutRecreate`: scale old down to zero, wait, then scale the new one up.
    pub(super) fn rollout_recreate(&mut self, ctx: &mut Ctx, d: &Value, rs_list: Vec<Value>) {
        let mut d = d.clone();
        let (new_rs, old_rss) = self.get_all_replica_sets_and_sync_revision(ctx, &mut d, &rs_list, false);
        let active_old = du::filter_active_replica_sets(&old_rss);
        let mut scaled = false;
        for rs in &active_old {
            if du::spec_replicas(rs) != 0 {
                self.scale_replica_set(ctx, rs, 0, &d);
                scaled = true;
            }
        }
        let olds: Vec<Value> = old_rss.iter().map(|o| self.replica_sets.get(&meta::key(o)).cloned().unwrap_or_else(|| o.clone())).collect();
        let mut all = olds.clone();
        if let Some(n) = &new_rs {
            all.push(n.clone());
        }
        if scaled {
            return self.sync_rollout_status(ctx, &all, new_rs.as_ref(), &d);
        }
        // oldPodsRunning (simplified to ReplicaSet status)
        if olds.iter().any(|rs| meta::get_i64(rs, &["status", "replicas"]).unwrap_or(0) > 0) {
            return self.sync_rollout_status(ctx, &all, new_rs.as_ref(), &d);
        }
        let new_rs = match new_rs {
            Some(n) => Some(n),
            None => self.get_new_replica_set(ctx, &mut d, &rs_list, &olds, true),
        };
        let Some(new_rs) = new_rs else { return };
        let mut all = olds.clone();
        all.push(new_rs.clone());
        let (_, new_rs) = self.scale_replica_set(ctx, &new_rs, du::spec_replicas(&d), &d);
        let mut all2 = olds.clone();
        all2.push(new_rs.clone());
        if du::deployment_complete(&d, &du::calculate_status(&d, &all2, Some(&new_rs), &time::rfc3339(ctx.now))) {
            self.cleanup_deployment(ctx, &olds, &d);
        }
        self.sync_rollout_status(ctx, &all2, Some(&new_rs), &d);
    }

}
