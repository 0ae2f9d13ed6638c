//! `pkg/controller/deployment/progress.go`: `syncRolloutStatus` (the Progressing condition,
//! `ProgressDeadlineExceeded`) and `requeueStuckDeployment`.

use super::*;

impl DeploymentController {
    /// `syncRolloutStatus`: compute status and the Progressing condition (progress.go).
    pub(super) fn sync_rollout_status(&mut self, ctx: &mut Ctx, all: &[Value], new_rs: Option<&Value>, d: &Value) {
        let now = time::rfc3339(ctx.now);
        let mut new_status = du::calculate_status(d, all, new_rs, &now);
        if !du::has_progress_deadline(d) {
            du::remove_deployment_condition(&mut new_status, du::DEPLOYMENT_PROGRESSING);
        }
        let current = du::get_deployment_condition(d.get("status").unwrap_or(&json!({})), du::DEPLOYMENT_PROGRESSING);
        let is_complete = meta::get_i64(&new_status, &["replicas"]) == meta::get_i64(&new_status, &["updatedReplicas"])
            && current.as_ref().map(|c| meta::get_str(c, &["reason"]) == du::NEW_RS_AVAILABLE_REASON).unwrap_or(false);
        let rs_name = new_rs.map(|r| meta::name(r).to_string());
        if du::has_progress_deadline(d) && !is_complete {
            if du::deployment_complete(d, &new_status) {
                let msg = du::successfully_progressed_message(meta::name(d), rs_name.as_deref());
                let cond = du::new_deployment_condition(du::DEPLOYMENT_PROGRESSING, du::CONDITION_TRUE, du::NEW_RS_AVAILABLE_REASON, &msg, &now);
                du::set_deployment_condition(&mut new_status, cond);
            } else if du::deployment_progressing(d, &new_status) {
                let msg = du::progressing_message(meta::name(d), rs_name.as_deref());
                let mut cond = du::new_deployment_condition(du::DEPLOYMENT_PROGRESSING, du::CONDITION_TRUE, du::REPLICA_SET_UPDATED_REASON, &msg, &now);
                if let Some(c) = &current {
                    if meta::get_str(c, &["status"]) == du::CONDITION_TRUE {
                        cond["lastTransitionTime"] = c["lastTransitionTime"].clone();
                    }
                }
                du::remove_deployment_condition(&mut new_status, du::DEPLOYMENT_PROGRESSING);
                du::set_deployment_condition(&mut new_status, cond);
            } else if du::deployment_timed_out(d, &new_status, wall(ctx)) {
                let msg = du::timed_out_message(meta::name(d), rs_name.as_deref());
                let cond = du::new_deployment_condition(du::DEPLOYMENT_PROGRESSING, du::CONDITION_FALSE, du::TIMED_OUT_REASON, &msg, &now);
                du::set_deployment_condition(&mut new_status, cond);
            }
        }
        // ReplicaFailure is copied from the first ReplicaSet that has one.
        let failure = all.iter().find_map(|rs| {
            meta::get(rs, &["status", "conditions"])?.as_array()?.iter().find(|c| meta::get_str(c, &["type"]) == "ReplicaFailure").cloned()
        });
        match failure {
            Some(c) => du::set_deployment_condition(&mut new_status, du::replica_set_to_deployment_condition(&c)),
            None => du::remove_deployment_condition(&mut new_status, du::DEPLOYMENT_REPLICA_FAILURE),
        }
        if d.get("status") == Some(&new_status) {
            self.requeue_stuck_deployment(ctx, d, &new_status);
            return;
        }
        let mut nd = d.clone();
        nd["status"] = new_status.clone();
        if self.update_status(ctx, &nd).is_some() {
            self.requeue_stuck_deployment(ctx, &nd, &new_status);
        }
    }

    /// `requeueStuckDeployment`: check again when the progress deadline would pass.
    pub(super) fn requeue_stuck_deployment(&mut self, ctx: &mut Ctx, d: &Value, new_status: &Value) {
        let Some(cond) = du::get_deployment_condition(new_status, du::DEPLOYMENT_PROGRESSING) else { return };
        if !du::has_progress_deadline(d) || meta::get_str(&cond, &["reason"]) == du::NEW_RS_AVAILABLE_REASON || meta::get_str(&cond, &["reason"]) == du::TIMED_OUT_REASON {
            return;
        }
        if du::deployment_complete(d, new_status) {
            return;
        }
        let last = meta::get(&cond, &["lastUpdateTime"]).and_then(|t| t.as_str()).and_then(time::parse_rfc3339).unwrap_or(ctx.now);
        let deadline = meta::get_i64(d, &["spec", "progressDeadlineSeconds"]).unwrap_or(600) * 1000;
        let after = (last + deadline - ctx.now + 1000).max(1000);
        // Background: a stuck rollout must not keep `sim settle` busy for ten virtual minutes.
        ctx.after_background(after, Timer::Resync(meta::key(d)));
    }
}
