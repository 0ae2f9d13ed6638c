//! `pkg/controller/deployment/progress.go`: `syncRolloutStatus` (the Progressing condition,
//! `ProgressDeadlineExceeded`) and `requeueStuckDeployment`; `checkPausedConditions` (sync.go).

use super::*;

impl DeploymentController {
    /// `checkPausedConditions` (sync.go): `Progressing=Unknown` with `DeploymentPaused` while
    /// paused, `DeploymentResumed` once resumed, so a long pause is never reported as a lack of
    /// progress. Only with a progress deadline, and never over `ProgressDeadlineExceeded`.
    /// Writes into `d` (upstream's copy) and keeps `d`'s resourceVersion, as upstream does.
    pub(super) fn check_paused_conditions(&mut self, ctx: &mut Ctx, d: &mut Value) -> SyncResult {
        if !du::has_progress_deadline(d) {
            return Ok(());
        }
        let cond = du::get_deployment_condition(d.get("status").unwrap_or(&json!({})), du::DEPLOYMENT_PROGRESSING);
        let reason = cond.as_ref().map(|c| meta::get_str(c, &["reason"]).to_string());
        if reason.as_deref() == Some(du::TIMED_OUT_REASON) {
            return Ok(());
        }
        let paused_cond_exists = reason.as_deref() == Some(du::PAUSED_DEPLOY_REASON);
        let paused = du::is_paused(d);
        let now = time::rfc3339(ctx.now);
        let condition = if paused && !paused_cond_exists {
            du::new_deployment_condition(du::DEPLOYMENT_PROGRESSING, du::CONDITION_UNKNOWN, du::PAUSED_DEPLOY_REASON, du::PAUSED_DEPLOY_MESSAGE, &now)
        } else if !paused && paused_cond_exists {
            du::new_deployment_condition(du::DEPLOYMENT_PROGRESSING, du::CONDITION_UNKNOWN, du::RESUMED_DEPLOY_REASON, du::RESUMED_DEPLOY_MESSAGE, &now)
        } else {
            return Ok(());
        };
        du::set_deployment_condition(meta::entry(d, &["status"]), condition);
        let path = format!("/apis/apps/v1/namespaces/{}/deployments/{}/status", meta::namespace(d), meta::name(d));
        if ctx.request(Method::Put, &path, Some(d.clone())).ok() {
            Ok(())
        } else {
            Err(SyncError)
        }
    }

    /// `syncRolloutStatus`: compute status and the Progressing condition (progress.go).
    pub(super) fn sync_rollout_status(&mut self, ctx: &mut Ctx, all: &[Value], new_rs: Option<&Value>, d: &Value) -> SyncResult {
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
            return Ok(());
        }
        let mut nd = d.clone();
        nd["status"] = new_status.clone();
        self.update_status(ctx, &nd).ok_or(SyncError)?;
        self.requeue_stuck_deployment(ctx, &nd, &new_status);
        Ok(())
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
