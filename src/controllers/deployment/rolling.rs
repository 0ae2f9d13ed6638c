//! `pkg/controller/deployment/rolling.go`: `rolloutRolling`, `reconcileNewReplicaSet`,
//! `reconcileOldReplicaSets` (with `cleanupUnhealthyReplicas` and
//! `scaleDownOldReplicaSetsForRollingUpdate`) — maxSurge up, maxUnavailable down.
//!
//! As upstream, the status written after a scale is computed from the ReplicaSets as the sync
//! found them (the informer's copies), not from the scaled ones: the next sync corrects it.

use super::*;
use crate::sim::sort::CompactSort;

impl DeploymentController {
    /// `rolloutRolling`.
    pub(super) fn rollout_rolling(&mut self, ctx: &mut Ctx, d: &Value, rs_list: Vec<Value>) -> SyncResult {
        let mut d = d.clone();
        let (new_rs, old_rss) = self.get_all_replica_sets_and_sync_revision(ctx, &mut d, &rs_list, true)?;
        let Some(new_rs) = new_rs else { return Ok(()) };
        let mut all = old_rss.clone();
        all.push(new_rs.clone());
        // Scale up, if we can.
        if self.reconcile_new_replica_set(ctx, &all, &new_rs, &d)? {
            return self.sync_rollout_status(ctx, &all, Some(&new_rs), &d);
        }
        // Scale down, if we can.
        let active_old = du::filter_active_replica_sets(&old_rss);
        if self.reconcile_old_replica_sets(ctx, &all, active_old, &new_rs, &d) {
            return self.sync_rollout_status(ctx, &all, Some(&new_rs), &d);
        }
        if du::deployment_complete(&d, d.get("status").unwrap_or(&json!({}))) {
            self.cleanup_deployment(ctx, &old_rss, &d)?;
        }
        self.sync_rollout_status(ctx, &all, Some(&new_rs), &d)
    }

    /// `reconcileNewReplicaSet`: scale the new ReplicaSet up within maxSurge (or down to spec).
    pub(super) fn reconcile_new_replica_set(&mut self, ctx: &mut Ctx, all: &[Value], new_rs: &Value, d: &Value) -> SyncResult<bool> {
        let replicas = du::spec_replicas(d);
        let current = du::spec_replicas(new_rs);
        if current == replicas {
            return Ok(false);
        }
        if current > replicas {
            return Ok(self.scale_replica_set_and_record_event(ctx, new_rs, replicas, d)?.0);
        }
        let n = du::new_rs_new_replicas(d, all, new_rs).map_err(|_| SyncError)?;
        Ok(self.scale_replica_set_and_record_event(ctx, new_rs, n, d)?.0)
    }

    /// `reconcileOldReplicaSets`: clean up unhealthy old replicas first, then scale old
    /// ReplicaSets down within maxUnavailable. As upstream, an error in either step is
    /// swallowed here (the rollout's status is still synced).
    pub(super) fn reconcile_old_replica_sets(&mut self, ctx: &mut Ctx, all: &[Value], old_rss: Vec<Value>, new_rs: &Value, d: &Value) -> bool {
        let old_pods = du::get_replica_count_for_replica_sets(&old_rss);
        if old_pods == 0 {
            return false; // can't scale down further
        }
        let all_pods = du::get_replica_count_for_replica_sets(all);
        let min_available = du::spec_replicas(d) - du::max_unavailable(d);
        let new_unavailable = du::spec_replicas(new_rs) - du::status_available(new_rs);
        let max_scaled_down = all_pods - min_available - new_unavailable;
        if max_scaled_down <= 0 {
            return false;
        }
        let Ok((old_rss, cleanup_count)) = self.cleanup_unhealthy_replicas(ctx, old_rss, d, max_scaled_down) else {
            return false;
        };
        let mut all = old_rss.clone();
        all.push(new_rs.clone());
        let Ok(scaled_down) = self.scale_down_old_replica_sets_for_rolling_update(ctx, &all, old_rss, d) else {
            return false;
        };
        cleanup_count + scaled_down > 0
    }

    /// `cleanupUnhealthyReplicas`: scale down old ReplicaSets' unavailable replicas first, so
    /// that they do not block the rollout. A computed scale above the current one is an error.
    fn cleanup_unhealthy_replicas(&mut self, ctx: &mut Ctx, mut old_rss: Vec<Value>, d: &Value, max_cleanup: i32) -> SyncResult<(Vec<Value>, i32)> {
        old_rss.csort_by(du::replica_sets_by_creation_timestamp);
        let mut total = 0;
        for i in 0..old_rss.len() {
            if total >= max_cleanup {
                break;
            }
            let spec = du::spec_replicas(&old_rss[i]);
            let avail = du::status_available(&old_rss[i]);
            if spec == 0 || spec == avail {
                continue;
            }
            let scaled = (max_cleanup - total).min(spec - avail);
            let new_count = spec - scaled;
            if new_count > spec {
                // "when cleaning up unhealthy replicas, got invalid request to scale down ns/name spec -> new_count"
                return Err(SyncError);
            }
            let (_, updated) = self.scale_replica_set_and_record_event(ctx, &old_rss[i], new_count, d)?;
            total += scaled;
            old_rss[i] = updated;
        }
        Ok((old_rss, total))
    }

    /// `scaleDownOldReplicaSetsForRollingUpdate`: scale old ReplicaSets down, oldest first,
    /// while more than `replicas - maxUnavailable` pods stay available.
    fn scale_down_old_replica_sets_for_rolling_update(&mut self, ctx: &mut Ctx, all: &[Value], mut old_rss: Vec<Value>, d: &Value) -> SyncResult<i32> {
        let min_available = du::spec_replicas(d) - du::max_unavailable(d);
        let available = du::get_available_replica_count_for_replica_sets(all);
        if available <= min_available {
            return Ok(0);
        }
        old_rss.csort_by(du::replica_sets_by_creation_timestamp);
        let total_to_scale = available - min_available;
        let mut total = 0;
        for rs in &old_rss {
            if total >= total_to_scale {
                break;
            }
            let spec = du::spec_replicas(rs);
            if spec == 0 {
                continue;
            }
            let n = spec.min(total_to_scale - total);
            let new_count = spec - n;
            if new_count > spec {
                // "when scaling down old replica set, got invalid request to scale down ns/name spec -> new_count"
                return Err(SyncError);
            }
            self.scale_replica_set_and_record_event(ctx, rs, new_count, d)?;
            total += n;
        }
        Ok(total)
    }
}
