//! The legacy order kubectl's kustomize prints a build in.
//!
//! Upstream: kustomize `api/internal/builtins/SortOrderTransformer.go` (`legacyIDSorter`,
//! `gvkLessThan`, `legacyGVKSortString`, `legacyResIDSortString`, `defaultOrderFirst`,
//! `defaultOrderLast`); kubectl builds with `DoLegacyResourceSort`. `sortOptions: {order: fifo}`
//! keeps the accumulation order instead.

use super::Resource;

const ORDER_FIRST: &[&str] = &[
    "Namespace", "ResourceQuota", "StorageClass", "CustomResourceDefinition", "ServiceAccount", "PodSecurityPolicy", "Role", "ClusterRole", "RoleBinding", "ClusterRoleBinding", "ConfigMap", "Secret", "Endpoints", "Service", "LimitRange", "PriorityClass", "PersistentVolume", "PersistentVolumeClaim", "Deployment", "StatefulSet", "CronJob", "PodDisruptionBudget",
];
const ORDER_LAST: &[&str] = &["MutatingWebhookConfiguration", "ValidatingWebhookConfiguration"];

fn type_order(kind: &str) -> i64 {
    if let Some(i) = ORDER_FIRST.iter().position(|k| *k == kind) {
        return i as i64 - ORDER_FIRST.len() as i64;
    }
    ORDER_LAST.iter().position(|k| *k == kind).map(|i| 1 + i as i64).unwrap_or(0)
}

/// `legacyGVKSortString`: `group_version_kind` with `~G`/`~V`/`~K` for what is empty.
fn gvk_string(r: &Resource) -> String {
    let (g, v) = r.group_version();
    let or = |s: &str, d: &str| if s.is_empty() { d.to_string() } else { s.to_string() };
    format!("{}_{}_{}", or(g, "~G"), or(v, "~V"), or(r.kind(), "~K"))
}

/// `legacyResIDSortString` past the GVK: `namespace|name`, `~X` and `~N` for what is empty.
fn id_string(r: &Resource) -> String {
    let ns = if r.namespace().is_empty() { "~X" } else { r.namespace() };
    let name = if r.name().is_empty() { "~N" } else { r.name() };
    format!("{}|{}", ns, name)
}

pub(super) fn legacy(rs: &mut [Resource]) {
    rs.sort_by(|a, b| {
        let (ga, gb) = (gvk_string(a), gvk_string(b));
        if ga != gb {
            let (ta, tb) = (type_order(a.kind()), type_order(b.kind()));
            if ta != tb {
                return ta.cmp(&tb);
            }
            // two Namespaces, one without a group, sort in reverse
            if a.kind() == "Namespace" && b.kind() == "Namespace" && (a.group_version().0.is_empty() || b.group_version().0.is_empty()) {
                return gb.cmp(&ga);
            }
            return ga.cmp(&gb);
        }
        id_string(a).cmp(&id_string(b))
    });
}
