//! `pkg/controller/deployment/rolling.go`: `rolloutRolling`, `reconcileNewReplicaSet`,
//! `reconcileOldReplicaSets` (with `cleanupUnhealthyReplicas` and
//! `scaleDownOldReplicaSetsForRollingUpdate` folded in) — maxSurge up, maxUnavailable down.

use super::*;

impl DeploymentController {
    /// `rolloutRolling`.
    pub(super) fn rollout_rolling(&mut self, ctx: &mut Ctx, d: &Value, rs_list: Vec<Value>) {
        let mut d = d.clone();
        let (new_rs, old_rss) = self.get_all_replica_sets_and_sync_revision(ctx, &mut d, &rs_list, true);
        let Some(new_rs) = new_rs else { return };
        let mut all = old_rss.clone();
        all.push(new_rs.clone());
        // Scale up, if we can.
        let (scaled_up, new_rs) = self.reconcile_new_replica_set(ctx, &all, &new_rs, &d);
        if scaled_up {
            let mut all = old_rss.clone();
            all.push(new_rs.clone());
            return self.sync_rollout_status(ctx, &all, Some(&new_rs), &d);
        }
        // Scale down, if we can.
        let mut all = old_rss.clone();
        all.push(new_rs.clone());
        let active_old = du::filter_active_replica_sets(&old_rss);
        let scaled_down = self.reconcile_old_replica_sets(ctx, &all, &active_old, &new_rs, &d);
        let old_rss: Vec<Value> = old_rss.iter().map(|o| self.replica_sets.get(&meta::key(o)).cloned().unwrap_or_else(|| o.clone())).collect();
        let mut all = old_rss.clone();
        all.push(new_rs.clone());
        if scaled_down {
            return self.sync_rollout_status(ctx, &all, Some(&new_rs), &d);
        }
        let status = du::calculate_status(&d, &all, Some(&new_rs), &time::rfc3339(ctx.now));
        if du::deployment_complete(&d, &status) {
            self.cleanup_deployment(ctx, &old_rss, &d);
        }
        self.sync_rollout_status(ctx, &all, Some(&new_rs), &d);
    }

    pub(super) fn reconcile_new_replica_set(&mut self, ctx: &mut Ctx, all: &[Value], new_rs: &Value, d: &Value) -> (bool, Value) {
        let replicas = du::spec_replicas(d);
        let current = du::spec_replicas(new_rs);
        if current == replicas {
            return (false, new_rs.clone());
        }
        if current > replicas {
            return self.scale_replica_set(ctx, new_rs, replicas, d);
        }
        match du::new_rs_new_replicas(d, all, new_rs) {
            Ok(n) => self.scale_replica_set(ctx, new_rs, n, d),
            Err(_) => (false, new_rs.clone()),
        }
    }

    pub(super) fn reconcile_old_replica_sets(&mut self, ctx: &mut Ctx, all: &[Value], old_rss: &[Value], new_rs: &Value, d: &Value) -> bool {
        let old_pods = du::get_replica_count_for_replica_sets(old_rss);
        if old_pods == 0 {
            return false;
        }
        let all_pods = du::get_replica_count_for_replica_sets(all);
        let min_available = du::spec_replicas(d) - du::max_unavailable(d);
        let new_unavailable = du::spec_replicas(new_rs) - meta::get_i64(new_rs, &["status", "availableReplicas"]).unwrap_or(0) as i32;
        let max_scaled_down = all_pods - min_available - new_unavailable;
        if max_scaled_down <= 0 {
            return false;
        }
        // Clean up unhealthy replicas first, oldest first.
        let mut olds = old_rss.to_vec();
        olds.sort_by(du::replica_sets_by_creation_timestamp);
        let mut cleaned = 0;
        let mut updated_olds = Vec::new();
        for rs in olds {
            if cleaned >= max_scaled_down {
                updated_olds.push(rs);
                continue;
            }
            let spec = du::spec_replicas(&rs);
            let avail = meta::get_i64(&rs, &["status", "availableReplicas"]).unwrap_or(0) as i32;
            if spec == 0 || spec == avail {
                updated_olds.push(rs);
                continue;
            }
            let scaled = (max_scaled_down - cleaned).min(spec - avail);
            let new_count = spec - scaled;
            let (_, nrs) = self.scale_replica_set(ctx, &rs, new_count, d);
            cleaned += scaled;
            updated_olds.push(nrs);
        }
        // Then scale down old replica sets while keeping minAvailable.
        let mut all2 = updated_olds.clone();
        all2.push(new_rs.clone());
        let available = du::get_available_replica_count_for_replica_sets(&all2);
        let mut scaled_down = 0;
        if available > min_available {
            let total = available - min_available;
            let mut olds = updated_olds.clone();
            olds.sort_by(du::replica_sets_by_creation_timestamp);
            for rs in olds {
                if scaled_down >= total {
                    break;
                }
                let spec = du::spec_replicas(&rs);
                if spec == 0 {
                    continue;
                }
                let n = spec.min(total - scaled_down);
                self.scale_replica_set(ctx, &rs, spec - n, d);
                scaled_down += n;
            }
        }
        cleaned + scaled_down > 0
    }

}
