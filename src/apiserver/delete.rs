//! Delete: graceful deletion of pods, preconditions, finalizers for foreground and orphan
//! deletion, and the namespace's contents.
//!
//! Real counterparts: `staging/src/k8s.io/apiserver/pkg/endpoints/handlers/delete.go`,
//! `registry/generic/registry/store.go` (`Delete`, `updateForGracefulDeletionAndFinalizers`),
//! `pkg/registry/core/pod/strategy.go` (`CheckGracefulDelete`).
//!
//! A namespace is deleted in two steps, as `pkg/registry/core/namespace/storage` does it: the
//! first DELETE marks it `Terminating`; the namespace controller empties it and removes the
//! `kubernetes` finalizer through the `finalize` subresource, which removes it.
//! `delete_collection` is `DeleteCollection` (each object deleted as a DELETE would).

use super::*;

impl ApiServer {
    pub(super) fn delete(&mut self, req: &Request, t: &Target, now_ms: i64, changes: &mut Vec<Change>) -> Result<Response, Response> {
        let info = t.info;
        if info.kind == "Namespace" && (t.ri.name == "default" || t.ri.name == "kube-system" || t.ri.name == "kube-public" || t.ri.name == "kube-node-lease") {
            return Err(err(
                403,
                "Forbidden",
                format!("namespaces \"{}\" is forbidden: this namespace may not be deleted", t.ri.name),
                Some(json!({"name": t.ri.name, "kind": "namespaces"})),
            ));
        }
        let (mut obj, rev) = self.read(info, &t.ri.namespace, &t.ri.name).ok_or_else(|| not_found(info, &t.ri.name))?;
        if info.id == meta::Resource::CustomResourceDefinitions && !meta::is_deleting(&obj) {
            // the CRD registry's Delete: the cleanup finalizer and Terminating; the finalizer
            // controller deletes the custom resources, then the CRD goes
            let mut fins = finalizers(&obj);
            if !fins.iter().any(|f| f == crate::apiextensions::controllers::CLEANUP_FINALIZER) {
                fins.push(crate::apiextensions::controllers::CLEANUP_FINALIZER.to_string());
            }
            meta::set(&mut obj, &["metadata", "finalizers"], json!(fins));
            meta::set(&mut obj, &["metadata", "deletionTimestamp"], json!(time::rfc3339(now_ms)));
            meta::set(&mut obj, &["metadata", "deletionGracePeriodSeconds"], json!(0));
            let cond = json!({"type": "Terminating", "status": "True", "lastTransitionTime": time::rfc3339(now_ms), "reason": "InstanceDeletionPending", "message": "CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon"});
            let conds = meta::entry(&mut obj, &["status", "conditions"]);
            if !conds.is_array() {
                *conds = json!([]);
            }
            if let Some(list) = conds.as_array_mut() {
                list.retain(|c| meta::get_str(c, &["type"]) != "Terminating");
                list.push(cond);
            }
            let change = self.store(info, &mut obj, rev)?;
            changes.push(change);
            return Ok(Response { code: 200, body: obj });
        }
        if info.kind == "Namespace" {
            // the namespace registry's Delete: the first DELETE marks it Terminating; the
            // namespace controller empties it and removes the `kubernetes` finalizer
            if !meta::is_deleting(&obj) {
                meta::set(&mut obj, &["metadata", "deletionTimestamp"], json!(time::rfc3339(now_ms)));
                meta::set(&mut obj, &["metadata", "deletionGracePeriodSeconds"], json!(0));
                meta::set(&mut obj, &["status", "phase"], json!("Terminating"));
                let change = self.store(info, &mut obj, rev)?;
                changes.push(change);
                return Ok(Response { code: 200, body: obj });
            }
            if !meta::get_array(&obj, &["spec", "finalizers"]).is_empty() || !finalizers(&obj).is_empty() {
                return Ok(Response { code: 200, body: obj });
            }
        }
        let opts = req.body.clone().unwrap_or(json!({}));
        let policy = opts
            .get("propagationPolicy")
            .and_then(|p| p.as_str())
            .or_else(|| t.q("propagationPolicy"))
            .unwrap_or("")
            .to_string();
        let grace_q = t.q("gracePeriodSeconds").and_then(|g| g.parse::<i64>().ok());
        let grace = opts.get("gracePeriodSeconds").and_then(|g| g.as_i64()).or(grace_q);
        // preconditions (the kubelet's final delete sends the pod's uid)
        if let Some(uid) = meta::get(&opts, &["preconditions", "uid"]).and_then(|u| u.as_str()) {
            if uid != meta::uid(&obj) {
                return Err(conflict_msg(
                    info,
                    &t.ri.name,
                    format!("Precondition failed: UID in precondition: {}, UID in object meta: {}", uid, meta::uid(&obj)),
                ));
            }
        }
        // Graceful deletion for pods bound to a node (pod strategy CheckGracefulDelete).
        if info.kind == "Pod" {
            let bound = !meta::get_str(&obj, &["spec", "nodeName"]).is_empty();
            let phase = meta::get_str(&obj, &["status", "phase"]);
            let terminal = phase == "Succeeded" || phase == "Failed";
            let default_grace = meta::get_i64(&obj, &["spec", "terminationGracePeriodSeconds"]).unwrap_or(30);
            let g = if !bound || terminal { 0 } else { grace.unwrap_or(default_grace).max(0) };
            if g > 0 || !finalizers(&obj).is_empty() {
                if !meta::is_deleting(&obj) {
                    let g = if g == 0 { 0 } else { g };
                    meta::set(&mut obj, &["metadata", "deletionTimestamp"], json!(time::rfc3339(now_ms + g * 1000)));
                    meta::set(&mut obj, &["metadata", "deletionGracePeriodSeconds"], json!(g));
                    let change = self.store(info, &mut obj, rev)?;
                    changes.push(change);
                } else if g == 0 && finalizers(&obj).is_empty() {
                    let change = self.remove(info, &obj, rev)?;
                    changes.push(change);
                    return Ok(Response { code: 200, body: obj });
                }
                return Ok(Response { code: 200, body: obj });
            }
        }
        // Foreground / Orphan: set the finalizer and deletionTimestamp; the garbage collector finishes.
        let default_policy = "Background";
        let policy = if policy.is_empty() { default_policy.to_string() } else { policy };
        let fin = match policy.as_str() {
            "Foreground" => Some("foregroundDeletion"),
            "Orphan" => Some("orphan"),
            "Background" => None,
            other => {
                return Err(invalid(
                    info,
                    &t.ri.name,
                    &[field::FieldError::not_supported("propagationPolicy", json!(other), &["Foreground", "Background", "Orphan"])],
                ))
            }
        };
        let mut fins = finalizers(&obj);
        if let Some(f) = fin {
            if !fins.iter().any(|x| x == f) {
                fins.push(f.to_string());
            }
        }
        if !fins.is_empty() {
            if meta::is_deleting(&obj) && fin.is_none() {
                return Ok(Response { code: 202, body: obj });
            }
            meta::set(&mut obj, &["metadata", "finalizers"], json!(fins));
            if !meta::is_deleting(&obj) {
                meta::set(&mut obj, &["metadata", "deletionTimestamp"], json!(time::rfc3339(now_ms)));
                meta::set(&mut obj, &["metadata", "deletionGracePeriodSeconds"], json!(0));
            }
            let change = self.store(info, &mut obj, rev)?;
            changes.push(change);
            return Ok(Response { code: 202, body: obj });
        }
        let change = self.remove(info, &obj, rev)?;
        changes.push(change);
        // the stores with ReturnDeletedObject answer with the object, the others with a Status
        let returns_object = matches!(info.resource, "pods" | "services" | "resourcequotas" | "persistentvolumes" | "persistentvolumeclaims" | "storageclasses");
        let body = if returns_object { obj } else {
            json!({"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Success", "details": {"name": t.ri.name, "group": info.group, "kind": info.resource, "uid": meta::uid(&obj)}})
        };
        Ok(Response { code: 200, body })
    }
}

impl ApiServer {
    /// `DeleteCollection`: every object of the collection (with the request's label selector)
    /// deleted as one DELETE with the request's options would; the deleted objects are listed.
    pub(super) fn delete_collection(&mut self, req: &Request, t: &Target, now_ms: i64, changes: &mut Vec<Change>) -> Result<Response, Response> {
        let labels = meta::parse_label_selector(t.q("labelSelector").unwrap_or("")).map_err(bad_request)?;
        let mut items = Vec::new();
        for o in self.list_objects(t.info, &t.ri.namespace, None) {
            if !meta::label_selector_matches(&labels, &meta::labels(&o)) {
                continue;
            }
            let mut ri = t.ri.clone();
            ri.name = meta::name(&o).to_string();
            let one = Target { info: t.info, ri: &ri };
            if let Ok(r) = self.delete(req, &one, now_ms, changes) {
                items.push(if meta::kind(&r.body) == "Status" { o } else { r.body });
            }
        }
        Ok(Response { code: 200, body: json!({"apiVersion": t.info.api_version(), "kind": format!("{}List", t.info.kind), "metadata": {}, "items": items}) })
    }
}

pub(super) fn finalizers(o: &Value) -> Vec<String> {
    meta::get(o, &["metadata", "finalizers"])
        .and_then(|f| f.as_array())
        .map(|a| a.iter().filter_map(|x| x.as_str().map(String::from)).collect())
        .unwrap_or_default()
}

/// A pod being gracefully deleted stays until its kubelet confirms (the final DELETE with grace 0).
pub(super) fn pod_awaits_kubelet(p: &Value) -> bool {
    !meta::get_str(p, &["spec", "nodeName"]).is_empty() && meta::get_i64(p, &["metadata", "deletionGracePeriodSeconds"]).unwrap_or(0) > 0
}

#[cfg(test)]
mod tests {
    use crate::api::request::{Method, Request};
    use serde_json::json;

    /// The registries with `ReturnDeletedObject: true` (pod, service, resourcequota,
    /// persistentvolume(claim), storageclass storage) answer a DELETE with the deleted object,
    /// which is what the generated clients decode it as; the others with a `Status` Success.
    #[test]
    fn delete_answers_with_the_object_where_upstream_does() {
        let mut c = crate::sandbox::default_cluster(1);
        let id = crate::cluster::kubectl_identity();
        let mut req = |m: Method, p: &str, b: Option<serde_json::Value>| c.client_request(&id, Request::new(m, p.to_string(), b));
        let cases = [
            ("/api/v1/namespaces/default/services", json!({"apiVersion": "v1", "kind": "Service", "metadata": {"name": "s"}, "spec": {"ports": [{"port": 80}]}}), "Service"),
            ("/api/v1/namespaces/default/resourcequotas", json!({"apiVersion": "v1", "kind": "ResourceQuota", "metadata": {"name": "q"}, "spec": {"hard": {"pods": "5"}}}), "ResourceQuota"),
            ("/apis/storage.k8s.io/v1/storageclasses", json!({"apiVersion": "storage.k8s.io/v1", "kind": "StorageClass", "metadata": {"name": "sc"}, "provisioner": "x"}), "StorageClass"),
            ("/apis/coordination.k8s.io/v1/namespaces/default/leases", json!({"apiVersion": "coordination.k8s.io/v1", "kind": "Lease", "metadata": {"name": "l"}}), "Status"),
        ];
        for (collection, obj, want) in cases {
            let name = obj["metadata"]["name"].as_str().unwrap().to_string();
            let r = req(Method::Post, collection, Some(obj));
            assert_eq!(r.code, 201, "{}", r.body);
            let r = req(Method::Delete, &format!("{}/{}", collection, name), None);
            assert_eq!(r.code, 200, "{}", r.body);
            assert_eq!(r.body["kind"], want, "{}", r.body);
            if want == "Status" {
                assert_eq!((r.body["status"].as_str(), r.body["details"]["name"].as_str()), (Some("Success"), Some(name.as_str())));
            }
        }
    }
}
