//! A DaemonSet's history (ControllerRevisions) and its rolling update.
//!
//! Real counterpart: `pkg/controller/daemon/update.go` (`constructHistory`, `snapshot`,
//! `getPatch`, `Match`, `cleanupHistory`, `rollingUpdate`, `findUpdatedPodsOnNode`,
//! `updatedDesiredNodeCounts`).
//!
//! A revision's `data` is the strategic-merge patch that restores the template:
//! `{"spec":{"template":{…,"$patch":"replace"}}}`, keys sorted as Go marshals a map; its name is
//! `<daemonset>-<hash>` with the hash a Deployment's pod-template-hash would have, and the hash is
//! also the Pods' `controller-revision-hash` label.

use super::util;
use crate::api::meta;
use crate::api::request::Method;
use crate::client::Store;
use crate::controllers::deployment::util::fenceposts::get_scaled_value_from_int_or_percent;
use crate::controllers::deployment::util::hash::compute_hash;
use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet};
use crate::sim::sort::CompactSort;

/// `getPatch`: the template as a replace patch. The template's metadata keeps the
/// `creationTimestamp: null` Go's zero `metav1.Time` marshals to.
pub fn get_patch(ds: &Value) -> Value {
    let mut tpl = meta::get(ds, &["spec", "template"]).cloned().unwrap_or(json!({}));
    if tpl.get("metadata").map(|m| !m.is_object()).unwrap_or(true) {
        tpl["metadata"] = json!({});
    }
    if tpl["metadata"].get("creationTimestamp").is_none() {
        tpl["metadata"]["creationTimestamp"] = Value::Null;
    }
    tpl["$patch"] = json!("replace");
    json!({"spec": {"template": tpl}})
}

/// The revisions this DaemonSet controls.
fn owned<'a>(ds: &'a Value, revisions: &'a Store) -> Vec<&'a Value> {
    revisions
        .in_namespace(meta::namespace(ds))
        .filter(|r| meta::controller_of(r).map(|o| meta::get_str(o, &["uid"]) == meta::uid(ds)).unwrap_or(false))
        .collect()
}

/// `constructHistory`: the current revision (created, or renumbered to the newest when an old
/// template comes back) and the old ones. Returns the current hash and the old revisions.
pub fn construct_history<T: std::fmt::Display + 'static>(ctx: &mut crate::cluster::Ctx<T>, ds: &Value, revisions: &Store) -> Result<(String, Vec<Value>), String> {
    let patch = get_patch(ds);
    let histories = owned(ds, revisions);
    let max_revision = histories.iter().filter_map(|h| meta::get_i64(h, &["revision"])).max().unwrap_or(0);
    let mut current: Vec<&Value> = histories.iter().copied().filter(|h| h.get("data") == Some(&patch)).collect();
    current.csort_by_key(|h| std::cmp::Reverse(meta::get_i64(h, &["revision"]).unwrap_or(0)));
    let old: Vec<Value> = histories.iter().filter(|h| h.get("data") != Some(&patch)).map(|h| (*h).clone()).collect();
    let ns = meta::namespace(ds);
    let cur = match current.first() {
        Some(c) => {
            let mut c = (*c).clone();
            if meta::get_i64(&c, &["revision"]).unwrap_or(0) < max_revision {
                // an old template is back (rollback): it becomes the newest revision
                c["revision"] = json!(max_revision + 1);
                let path = format!("/apis/apps/v1/namespaces/{}/controllerrevisions/{}", ns, meta::name(&c));
                let resp = ctx.request(Method::Put, &path, Some(c.clone()));
                if !resp.ok() {
                    return Err(resp.message().to_string());
                }
                c = resp.body;
            }
            c
        }
        None => {
            // snapshot
            let collision = meta::get_i64(ds, &["status", "collisionCount"]).map(|c| c as i32);
            let hash = compute_hash(meta::get(ds, &["spec", "template"]).unwrap_or(&Value::Null), collision);
            let mut labels = meta::get(ds, &["spec", "template", "metadata", "labels"]).cloned().unwrap_or(json!({}));
            labels[util::REVISION_HASH_LABEL] = json!(hash);
            let body = json!({
                "apiVersion": "apps/v1",
                "kind": "ControllerRevision",
                "metadata": {
                    "name": format!("{}-{}", meta::name(ds), hash),
                    "namespace": ns,
                    "labels": labels,
                    "annotations": meta::get(ds, &["metadata", "annotations"]).cloned().unwrap_or(json!({})),
                    "ownerReferences": [meta::new_controller_ref(ds, "apps/v1", "DaemonSet")],
                },
                "data": patch,
                "revision": max_revision + 1,
            });
            let resp = ctx.request(Method::Post, &format!("/apis/apps/v1/namespaces/{}/controllerrevisions", ns), Some(body));
            if !resp.ok() {
                return Err(resp.message().to_string());
            }
            resp.body
        }
    };
    let hash = meta::get_str(&cur, &["metadata", "labels", util::REVISION_HASH_LABEL]).to_string();
    Ok((hash, old))
}

/// `cleanupHistory`: keep `revisionHistoryLimit` old revisions; delete the oldest others that no
/// live Pod still carries.
pub fn cleanup_history<T: std::fmt::Display + 'static>(ctx: &mut crate::cluster::Ctx<T>, ds: &Value, old: &[Value], live_hashes: &BTreeSet<String>) {
    let limit = meta::get_i64(ds, &["spec", "revisionHistoryLimit"]).unwrap_or(10).max(0) as usize;
    if old.len() <= limit {
        return;
    }
    let mut to_kill = old.len() - limit;
    let mut sorted: Vec<&Value> = old.iter().collect();
    sorted.csort_by_key(|h| meta::get_i64(h, &["revision"]).unwrap_or(0));
    for h in sorted {
        if to_kill == 0 {
            break;
        }
        if live_hashes.contains(meta::get_str(h, &["metadata", "labels", util::REVISION_HASH_LABEL])) {
            continue;
        }
        let path = format!("/apis/apps/v1/namespaces/{}/controllerrevisions/{}", meta::namespace(h), meta::name(h));
        let _ = ctx.request(Method::Delete, &path, None);
        to_kill -= 1;
    }
}

/// `updatedDesiredNodeCounts`: (maxSurge, maxUnavailable) scaled to the desired number of nodes,
/// both rounded up; both zero makes maxUnavailable 1.
pub fn updated_desired_node_counts(ds: &Value, desired: i32) -> (i32, i32) {
    let ru = meta::get(ds, &["spec", "updateStrategy", "rollingUpdate"]);
    let scaled = |k: &str| ru.and_then(|r| r.get(k)).map(|v| get_scaled_value_from_int_or_percent(v, desired, true).unwrap_or(0)).unwrap_or(0);
    let mut max_unavailable = scaled("maxUnavailable");
    let max_surge = scaled("maxSurge");
    if max_unavailable == 0 && max_surge == 0 {
        max_unavailable = 1;
    }
    (max_surge, max_unavailable)
}

/// What one rolling-update step does: Pods to delete, nodes to create a Pod on.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RollingPlan {
    pub delete: Vec<String>,
    pub create: Vec<String>,
}

/// `findUpdatedPodsOnNode`: the node's new and old Pod (ignoring terminating ones); `None`
/// when it has two of either kind (the manage loop cleans that up first).
fn find_updated_pods_on_node<'a>(pods: &[&'a Value], hash: &str, generation: Option<i64>) -> Option<(Option<&'a Value>, Option<&'a Value>)> {
    let (mut new, mut old) = (None, None);
    for p in pods.iter().copied().filter(|p| !meta::is_deleting(p)) {
        if util::is_pod_updated(p, hash, generation) {
            if new.is_some() {
                return None;
            }
            new = Some(p);
        } else {
            if old.is_some() {
                return None;
            }
            old = Some(p);
        }
    }
    Some((new, old))
}

/// `rollingUpdate`'s two strategies over the nodes' daemon Pods. Without surge: delete old Pods
/// while fewer than maxUnavailable nodes are unavailable (an old Pod that is not available may
/// always go). With surge: create the new Pod beside the old one on at most maxSurge nodes, and
/// delete the old one once the new is available.
pub fn plan_rolling_update(nodes_to_pods: &BTreeMap<String, Vec<&Value>>, hash: &str, generation: Option<i64>, max_surge: i32, max_unavailable: i32, available: &dyn Fn(&Value) -> bool) -> RollingPlan {
    let mut plan = RollingPlan::default();
    if max_surge == 0 {
        let mut num_unavailable = 0;
        let mut allowed = Vec::new();
        let mut candidates = Vec::new();
        for pods in nodes_to_pods.values() {
            let Some((new, old)) = find_updated_pods_on_node(pods, hash, generation) else {
                num_unavailable += 1;
                continue;
            };
            match (new, old) {
                (None, None) | (Some(_), Some(_)) => num_unavailable += 1,
                (Some(n), None) => {
                    if !available(n) {
                        num_unavailable += 1;
                    }
                }
                (None, Some(o)) => {
                    if !available(o) {
                        allowed.push(meta::name(o).to_string());
                    } else if num_unavailable < max_unavailable {
                        candidates.push(meta::name(o).to_string());
                    }
                }
            }
        }
        let remaining = ((max_unavailable - num_unavailable).max(0) as usize).min(candidates.len());
        plan.delete = allowed;
        plan.delete.extend(candidates.into_iter().take(remaining));
        return plan;
    }
    let mut num_surge = 0;
    for (node, pods) in nodes_to_pods {
        let Some((new, old)) = find_updated_pods_on_node(pods, hash, generation) else {
            num_surge += 1;
            continue;
        };
        match (new, old) {
            (_, None) => {}
            (None, Some(o)) => {
                if !available(o) {
                    plan.create.push(node.clone());
                } else if num_surge < max_surge {
                    num_surge += 1;
                    plan.create.push(node.clone());
                }
            }
            (Some(n), Some(o)) => {
                if !available(n) {
                    num_surge += 1;
                } else {
                    plan.delete.push(meta::name(o).to_string());
                }
            }
        }
    }
    plan
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pod(name: &str, hash: &str) -> Value {
        json!({"metadata": {"name": name, "labels": {"controller-revision-hash": hash}}})
    }

    /// Named table: the rolling update's arithmetic — maxUnavailable/maxSurge scaled to the
    /// desired nodes (rounded up), and which Pods one step replaces.
    #[test]
    fn rolling_update_arithmetic_table() {
        let ds = |ru: Value| json!({"spec": {"updateStrategy": {"type": "RollingUpdate", "rollingUpdate": ru}}});
        let counts = [
            ("the default: one node at a time", json!({"maxUnavailable": 1, "maxSurge": 0}), 3, (0, 1)),
            ("10% of 3 nodes rounds up to 1", json!({"maxUnavailable": "10%", "maxSurge": 0}), 3, (0, 1)),
            ("50% of 3 nodes rounds up to 2", json!({"maxUnavailable": "50%", "maxSurge": 0}), 3, (0, 2)),
            ("surge 1", json!({"maxUnavailable": 0, "maxSurge": 1}), 3, (1, 0)),
            ("both zero: one unavailable", json!({"maxUnavailable": 0, "maxSurge": 0}), 3, (0, 1)),
        ];
        for (name, ru, desired, want) in counts {
            assert_eq!(updated_desired_node_counts(&ds(ru), desired), want, "{}", name);
        }

        let (a, b, c) = (pod("a", "old"), pod("b", "old"), pod("c", "old"));
        let all_old: BTreeMap<String, Vec<&Value>> = [("node-1", &a), ("node-2", &b), ("node-3", &c)].into_iter().map(|(n, p)| (n.to_string(), vec![p])).collect();
        let yes = |_: &Value| true;
        let p = plan_rolling_update(&all_old, "new", None, 0, 1, &yes);
        assert_eq!(p, RollingPlan { delete: vec!["a".into()], create: vec![] }, "maxUnavailable 1: the first old Pod");
        let p = plan_rolling_update(&all_old, "new", None, 0, 2, &yes);
        assert_eq!(p.delete, vec!["a".to_string(), "b".to_string()], "maxUnavailable 2: two at once");
        // node-1 already has its new Pod, not yet available: no room for another
        let n1 = pod("a2", "new");
        let mut mid = all_old.clone();
        mid.insert("node-1".into(), vec![&n1]);
        let not_a2 = |p: &Value| meta::name(p) != "a2";
        assert_eq!(plan_rolling_update(&mid, "new", None, 0, 1, &not_a2), RollingPlan::default(), "wait for node-1's new Pod");
        // an old Pod that is not available may be replaced at once
        let not_b = |p: &Value| meta::name(p) != "b";
        assert_eq!(plan_rolling_update(&all_old, "new", None, 0, 1, &not_b).delete, vec!["b".to_string(), "a".to_string()]);
        // surge: create beside the old Pod, then delete the old once the new is available
        assert_eq!(plan_rolling_update(&all_old, "new", None, 1, 0, &yes), RollingPlan { delete: vec![], create: vec!["node-1".into()] });
        let mut surged = all_old.clone();
        surged.insert("node-1".into(), vec![&a, &n1]);
        assert_eq!(plan_rolling_update(&surged, "new", None, 1, 0, &yes), RollingPlan { delete: vec!["a".into()], create: vec!["node-2".into()] });
    }

    #[test]
    fn patch_replaces_the_template() {
        let ds = json!({"spec": {"template": {"metadata": {"labels": {"app": "x"}}, "spec": {"containers": []}}}});
        assert_eq!(serde_json::to_string(&get_patch(&ds)).unwrap(), r#"{"spec":{"template":{"$patch":"replace","metadata":{"creationTimestamp":null,"labels":{"app":"x"}},"spec":{"containers":[]}}}}"#);
    }
}
