//! The pod `binding` subresource: the scheduler's decision written to `spec.nodeName`.
//!
//! Real counterpart: `pkg/registry/core/pod/storage/storage.go` (`BindingREST.Create`,
//! `assignPod`, `setPodHostAndAnnotations`).

use super::*;

impl ApiServer {
    pub(super) fn bind(&mut self, req: &Request, t: &Target, now_ms: i64, changes: &mut Vec<Change>) -> Result<Response, Response> {
        let pods = t.info;
        let node = req.body.as_ref().map(|b| meta::get_str(b, &["target", "name"]).to_string()).unwrap_or_default();
        let (mut pod, rev) = self.read(pods, &t.ri.namespace, &t.ri.name).ok_or_else(|| not_found(pods, &t.ri.name))?;
        if meta::is_deleting(&pod) {
            return Err(conflict_msg(pods, &t.ri.name, format!("pod {} is being deleted, cannot be assigned to a host", t.ri.name)));
        }
        let existing = meta::get_str(&pod, &["spec", "nodeName"]).to_string();
        if !existing.is_empty() {
            return Err(conflict_msg(pods, &t.ri.name, format!("pod {} is already assigned to node \"{}\"", t.ri.name, existing)));
        }
        meta::set(&mut pod, &["spec", "nodeName"], json!(node));
        let cond = json!({"type": "PodScheduled", "status": "True", "lastProbeTime": null, "lastTransitionTime": time::rfc3339(now_ms), "observedGeneration": meta::get_i64(&pod, &["metadata","generation"]).unwrap_or(1)});
        let conds = meta::entry(&mut pod, &["status", "conditions"]);
        if !conds.is_array() {
            *conds = json!([]);
        }
        if let Some(a) = conds.as_array_mut() {
            a.retain(|c| meta::get_str(c, &["type"]) != "PodScheduled");
            a.push(cond);
        }
        let change = self.store(pods, &mut pod, rev)?;
        changes.push(change);
        Ok(Response { code: 201, body: json!({"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Success", "code": 201}) })
    }
}
