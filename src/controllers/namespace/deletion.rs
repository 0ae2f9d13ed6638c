//! Emptying a terminating namespace.
//!
//! Real counterpart: `pkg/controller/namespace/deletion/namespaced_resources_deleter.go`
//! (`Delete`, `deleteAllContent` with `OrderedNamespaceDeletion`: Pods first,
//! `deleteAllContentForGroupVersionResource`, `deleteCollection`, `estimateGracefulTermination`,
//! `finalizeNamespace`) and `status_condition_utils.go` (the conditions and their messages).

use super::Ctx;
use crate::api::meta::{self, ResourceInfo};
use crate::api::request::Method;
use crate::api::time;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use crate::sim::sort::CompactSort;

/// `finalizerEstimateSeconds`: how long to wait for objects held by finalizers.
pub const FINALIZER_ESTIMATE_SECONDS: i64 = 15;
/// `v1.FinalizerKubernetes`.
pub const FINALIZER_KUBERNETES: &str = "kubernetes";

/// Why a namespace is not gone yet.
#[derive(Debug, PartialEq, Eq)]
pub enum DeleteError {
    /// `ResourcesRemainingError`: content remains; look again in about this many seconds.
    Remaining(i64),
    /// A request failed.
    Failed(String),
}

/// What one pass over the namespace's content found.
#[derive(Default)]
struct Totals {
    estimate: i64,
    /// `pods.` / `deployments.apps` → instances left
    remaining: BTreeMap<String, i64>,
    /// finalizer → instances holding it
    finalizers: BTreeMap<String, i64>,
    errors: Vec<String>,
}

fn gvr_name(info: &ResourceInfo) -> String {
    format!("{}.{}", info.resource, info.group)
}

fn list(ctx: &mut Ctx, info: &ResourceInfo, ns: &str) -> Result<Vec<Value>, String> {
    let resp = ctx.request(Method::Get, &info.collection_path(ns), None);
    if !resp.ok() {
        return Err(resp.message().to_string());
    }
    Ok(meta::get_array(&resp.body, &["items"]).to_vec())
}

/// `estimateGracefulTermination` (Pods only): the longest grace period among Pods not yet
/// terminal, or 0 once that long has passed since the namespace began terminating.
fn estimate_graceful_termination(ctx: &mut Ctx, info: &ResourceInfo, ns: &Value) -> Result<i64, String> {
    let pods = list(ctx, info, meta::name(ns))?;
    let est = pods
        .iter()
        .filter(|p| !matches!(meta::get_str(p, &["status", "phase"]), "Succeeded" | "Failed"))
        .map(|p| meta::get_i64(p, &["spec", "terminationGracePeriodSeconds"]).unwrap_or(30))
        .max()
        .unwrap_or(0);
    let since = time::parse_rfc3339(meta::get_str(ns, &["metadata", "deletionTimestamp"])).map(|t| ctx.now - t).unwrap_or(0);
    Ok(if since >= est * 1000 { 0 } else { est })
}

/// `deleteAllContentForGroupVersionResource`: DELETE the collection, LIST again, count what is
/// left and the finalizers holding it.
fn delete_all_content_for(ctx: &mut Ctx, info: &ResourceInfo, ns: &Value, totals: &mut Totals) {
    let name = meta::name(ns).to_string();
    let mut estimate = 0;
    if info.resource == "pods" {
        match estimate_graceful_termination(ctx, info, ns) {
            Ok(e) => estimate = e,
            Err(e) => {
                totals.errors.push(e);
                return;
            }
        }
    }
    let resp = ctx.request(Method::Delete, &info.collection_path(&name), Some(json!({"kind": "DeleteOptions", "apiVersion": "v1", "propagationPolicy": "Background"})));
    if !resp.ok() {
        totals.errors.push(resp.message().to_string());
        return;
    }
    let left = match list(ctx, info, &name) {
        Ok(l) => l,
        Err(e) => {
            totals.errors.push(e);
            return;
        }
    };
    if left.is_empty() {
        return;
    }
    totals.remaining.insert(gvr_name(info), left.len() as i64);
    let mut with_finalizers = false;
    for o in &left {
        for f in meta::get_array(o, &["metadata", "finalizers"]).iter().filter_map(Value::as_str) {
            *totals.finalizers.entry(f.to_string()).or_default() += 1;
            with_finalizers = true;
        }
    }
    let e = if estimate > 0 {
        estimate
    } else if with_finalizers {
        FINALIZER_ESTIMATE_SECONDS
    } else {
        // graceful deletion in progress (a Pod waiting for its kubelet)
        1
    };
    totals.estimate = totals.estimate.max(e);
}

/// `updateConditions` with `ProcessContentTotals`: the five conditions, in upstream's order,
/// false (all well) unless this pass found otherwise.
fn conditions(totals: &Totals, old: &[Value], now: &str) -> Vec<Value> {
    let join = |m: &BTreeMap<String, i64>, f: &dyn Fn(&String, &i64) -> String| m.iter().map(|(k, v)| f(k, v)).collect::<Vec<_>>().join(", ");
    let content_failure = if totals.errors.is_empty() {
        ("False", "ContentDeleted", "All content successfully deleted, may be waiting on finalization".to_string())
    } else {
        let mut e = totals.errors.clone();
        e.csort();
        ("True", "ContentDeletionFailed", format!("Failed to delete all resource types, {} remaining: {}", e.len(), e.join(", ")))
    };
    let remaining = if totals.remaining.is_empty() {
        ("False", "ContentRemoved", "All content successfully removed".to_string())
    } else {
        ("True", "SomeResourcesRemain", format!("Some resources are remaining: {}", join(&totals.remaining, &|k, v| format!("{} has {} resource instances", k, v))))
    };
    let finalizers = if totals.finalizers.is_empty() {
        ("False", "ContentHasNoFinalizers", "All content-preserving finalizers finished".to_string())
    } else {
        ("True", "SomeFinalizersRemain", format!("Some content in the namespace has finalizers remaining: {}", join(&totals.finalizers, &|k, v| format!("{} in {} resource instances", k, v))))
    };
    let wanted = [
        ("NamespaceDeletionDiscoveryFailure", "False", "ResourcesDiscovered", "All resources successfully discovered".to_string()),
        ("NamespaceDeletionGroupVersionParsingFailure", "False", "ParsedGroupVersions", "All legacy kube types successfully parsed".to_string()),
        ("NamespaceDeletionContentFailure", content_failure.0, content_failure.1, content_failure.2),
        ("NamespaceContentRemaining", remaining.0, remaining.1, remaining.2),
        ("NamespaceFinalizersRemaining", finalizers.0, finalizers.1, finalizers.2),
    ];
    wanted
        .iter()
        .map(|(t, status, reason, message)| {
            let prev = old.iter().find(|c| meta::get_str(c, &["type"]) == *t);
            let transition = match prev {
                Some(p) if meta::get_str(p, &["status"]) == *status => meta::get_str(p, &["lastTransitionTime"]).to_string(),
                _ => now.to_string(),
            };
            json!({"type": t, "status": status, "lastTransitionTime": transition, "reason": reason, "message": message})
        })
        .collect()
}

/// Writes the conditions if they changed.
fn update_conditions(ctx: &mut Ctx, ns: &Value, totals: &Totals) -> Result<(), String> {
    let now = time::rfc3339(ctx.now);
    let conds = conditions(totals, meta::get_array(ns, &["status", "conditions"]), &now);
    if meta::get_array(ns, &["status", "conditions"]) == conds.as_slice() {
        return Ok(());
    }
    let mut copy = ns.clone();
    copy["status"]["conditions"] = json!(conds);
    let resp = ctx.request(Method::Put, &format!("/api/v1/namespaces/{}/status", meta::name(ns)), Some(copy));
    if resp.ok() {
        Ok(())
    } else {
        Err(resp.message().to_string())
    }
}

/// `deleteAllContent`: Pods first, and nothing else while Pods remain; then every other kind.
fn delete_all_content(ctx: &mut Ctx, ns: &Value) -> Result<i64, String> {
    let mut totals = Totals::default();
    let pods = meta::lookup("pods").expect("pods");
    delete_all_content_for(ctx, pods, ns, &mut totals);
    if totals.remaining.is_empty() && totals.errors.is_empty() {
        for info in meta::RESOURCES.iter().filter(|r| r.namespaced && r.resource != "pods") {
            delete_all_content_for(ctx, info, ns, &mut totals);
        }
    }
    update_conditions(ctx, ns, &totals)?;
    if !totals.errors.is_empty() {
        return Err(totals.errors.join(", "));
    }
    Ok(if totals.remaining.is_empty() { 0 } else { totals.estimate.max(1) })
}

/// `namespacedResourcesDeleter.Delete`.
pub fn delete(ctx: &mut Ctx, ns: &Value) -> Result<(), DeleteError> {
    if !meta::is_deleting(ns) {
        return Ok(());
    }
    if meta::get_str(ns, &["status", "phase"]) != "Terminating" {
        let mut copy = ns.clone();
        copy["status"]["phase"] = json!("Terminating");
        let resp = ctx.request(Method::Put, &format!("/api/v1/namespaces/{}/status", meta::name(ns)), Some(copy));
        if !resp.ok() {
            return Err(DeleteError::Failed(resp.message().to_string()));
        }
    }
    let finalizers: Vec<Value> = meta::get_array(ns, &["spec", "finalizers"]).to_vec();
    if !finalizers.iter().any(|f| f.as_str() == Some(FINALIZER_KUBERNETES)) {
        return Ok(());
    }
    let estimate = delete_all_content(ctx, ns).map_err(DeleteError::Failed)?;
    if estimate > 0 {
        return Err(DeleteError::Remaining(estimate));
    }
    // finalizeNamespace
    let mut copy = ns.clone();
    let mut left: Vec<String> = finalizers.iter().filter_map(Value::as_str).filter(|f| *f != FINALIZER_KUBERNETES).map(String::from).collect();
    left.csort();
    copy["spec"]["finalizers"] = json!(left);
    let resp = ctx.request(Method::Put, &format!("/api/v1/namespaces/{}/finalize", meta::name(ns)), Some(copy));
    if !resp.ok() && resp.code != 404 {
        return Err(DeleteError::Failed(resp.message().to_string()));
    }
    Ok(())
}
