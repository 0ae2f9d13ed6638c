//! The pod `eviction` subresource: a voluntary disruption that honours PodDisruptionBudgets.
//!
//! Real counterpart: `pkg/registry/core/pod/storage/eviction.go` (`EvictionREST.Create`,
//! `canIgnorePDB`, `checkAndDecrement`, `createTooManyRequestsError`, `addConditionAndDeletePod`).
//! A Pod that is Pending, terminal or already being deleted is deleted without a budget; one
//! budget selecting it must allow a disruption, which the handler takes (status
//! `disruptionsAllowed` − 1 and the Pod in `disruptedPods`) before it marks the Pod
//! `DisruptionTarget` (`EvictionByEvictionAPI`) and deletes it with the Eviction's
//! DeleteOptions. What kubesim simplifies: no retries on conflict (one request is served at a
//! time, so none can happen); policy/v1beta1 Evictions are read as policy/v1.

use super::*;
use crate::api::meta::Resource;
use crate::api::poddisruptionbudget as pdbhelper;

impl ApiServer {
    pub(super) fn evict(&mut self, req: &Request, t: &Target, now_ms: i64, changes: &mut Vec<Change>) -> Result<Response, Response> {
        let pods = t.info;
        let eviction = req.body.clone().unwrap_or(json!({}));
        if meta::name(&eviction) != t.ri.name {
            return Err(bad_request("name in URL does not match name in Eviction object".into()));
        }
        let delete_options = eviction.get("deleteOptions").cloned().unwrap_or(json!({}));
        // propagateDryRun: the Eviction's DeleteOptions may ask for a dry run too; the storage's
        // dry-run mode (set for `?dryRun=All` before dispatch) then covers every write below
        if meta::get_array(&delete_options, &["dryRun"]).iter().any(|d| d.as_str() == Some("All")) {
            self.dry_run = true;
        }
        let (pod, _) = self.read_shared(pods, &t.ri.namespace, &t.ri.name).ok_or_else(|| not_found(pods, &t.ri.name))?;
        let phase = meta::get_str(&pod, &["status", "phase"]);
        let ignore_pdb = matches!(phase, "Succeeded" | "Failed" | "Pending") || meta::is_deleting(&pod);
        if !ignore_pdb {
            let pdb_info = Resource::PodDisruptionBudgets.info();
            let budgets: Vec<Rc<Value>> = self.list_objects_shared(pdb_info, &t.ri.namespace).into_iter().filter(|b| pdbhelper::selects(b, &pod)).collect();
            if budgets.len() > 1 {
                return Ok(Response { code: 500, body: json!({"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure", "message": "This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.", "code": 500}) });
            }
            if let Some(budget) = budgets.first() {
                let ready = meta::find_condition(meta::get_array(&pod, &["status", "conditions"]), "Ready").map(|c| meta::get_str(c, &["status"]) == "True").unwrap_or(false);
                let current = meta::get_i64(budget, &["status", "currentHealthy"]).unwrap_or(0);
                let desired = meta::get_i64(budget, &["status", "desiredHealthy"]).unwrap_or(0);
                let always = meta::get_str(budget, &["spec", "unhealthyPodEvictionPolicy"]) == "AlwaysAllow";
                // an unready Pod does not count as healthy: evicting it takes nothing from the budget
                let unready_skip = !ready && (always || (current >= desired && desired > 0));
                if !unready_skip {
                    self.check_and_decrement(budget, &t.ri.name, now_ms, changes)?;
                }
            }
        }
        drop(pod);
        // addConditionAndDeletePod: the DisruptionTarget condition, then the delete
        if !ignore_pdb {
            let (mut p, rev) = self.read(pods, &t.ri.namespace, &t.ri.name).ok_or_else(|| not_found(pods, &t.ri.name))?;
            let generation = meta::get_i64(&p, &["metadata", "generation"]).unwrap_or(1);
            let cond = json!({"type": "DisruptionTarget", "observedGeneration": generation, "status": "True", "lastProbeTime": null, "lastTransitionTime": time::rfc3339(now_ms), "reason": "EvictionByEvictionAPI", "message": "Eviction API: evicting"});
            let conds = meta::entry(&mut p, &["status", "conditions"]);
            if !conds.is_array() {
                *conds = json!([]);
            }
            if let Some(a) = conds.as_array_mut() {
                a.retain(|c| meta::get_str(c, &["type"]) != "DisruptionTarget");
                a.push(cond);
            }
            changes.push(self.store(pods, &mut p, rev)?);
        }
        let delete = Request { method: Method::Delete, path: req.path.clone(), body: Some(delete_options), patch_type: PatchType::Strategic };
        self.delete(&delete, t, now_ms, changes)?;
        Ok(Response { code: 201, body: json!({"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Success", "code": 201}) })
    }

    /// `checkAndDecrement`: the budget must have seen its latest spec and allow a disruption;
    /// the handler takes one and records the Pod as disrupted.
    fn check_and_decrement(&mut self, budget: &Value, pod: &str, now_ms: i64, changes: &mut Vec<Change>) -> Result<(), Response> {
        let name = meta::name(budget).to_string();
        let too_many = |msg: String| err(429, "TooManyRequests", "Cannot evict pod as it would violate the pod's disruption budget.".into(), Some(json!({"causes": [{"reason": "DisruptionBudget", "message": msg}]})));
        let observed = meta::get_i64(budget, &["status", "observedGeneration"]).unwrap_or(0);
        if observed < meta::get_i64(budget, &["metadata", "generation"]).unwrap_or(0) {
            return Err(too_many(format!("The disruption budget {} is still being processed by the server.", name)));
        }
        let allowed = meta::get_i64(budget, &["status", "disruptionsAllowed"]).unwrap_or(0);
        if allowed == 0 {
            let desired = meta::get_i64(budget, &["status", "desiredHealthy"]).unwrap_or(0);
            let current = meta::get_i64(budget, &["status", "currentHealthy"]).unwrap_or(0);
            return Err(too_many(format!("The disruption budget {} needs {} healthy pods and has {} currently", name, desired, current)));
        }
        let info = Resource::PodDisruptionBudgets.info();
        let (mut b, rev) = self.read(info, meta::namespace(budget), &name).ok_or_else(|| not_found(info, &name))?;
        meta::set(&mut b, &["status", "disruptionsAllowed"], json!(allowed - 1));
        if allowed - 1 == 0 {
            pdbhelper::update_disruption_allowed_condition(&mut b, now_ms);
        }
        meta::set(&mut b, &["status", "disruptedPods", pod], json!(time::rfc3339(now_ms)));
        changes.push(self.store(info, &mut b, rev)?);
        Ok(())
    }
}
