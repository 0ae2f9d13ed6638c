//! The Node authorizer: what a kubelet (`system:node:NAME` in `system:nodes`) may do.
//!
//! Real counterpart: `plugin/pkg/auth/authorizer/node/node_authorizer.go` with
//! `pkg/auth/nodeidentifier/default.go`: other users get NoOpinion; the graph-checked resources
//! (secrets, configmaps, PVCs, PVs, `serviceaccounts/token`, leases, …) are allowed when the
//! graph relates them to the node; everything else is checked against the static `NodeRules()`.
//! An allow's reason is empty.
//!
//! What kubesim simplifies: no graph — a graph-checked resource is allowed for any node (the
//! kubelet only asks for what its Pods reference, as the graph would require).

use super::rbac::{rules_allow, Policy};
use super::{Attributes, Authorized, Decision};

/// The resources the Node authorizer decides through its graph.
const GRAPH_CHECKED: &[(&str, &str, &str)] = &[
    ("", "secrets", ""),
    ("", "configmaps", ""),
    ("", "persistentvolumeclaims", ""),
    ("", "persistentvolumes", ""),
    ("", "serviceaccounts", "token"),
    ("coordination.k8s.io", "leases", ""),
    ("storage.k8s.io", "volumeattachments", ""),
    ("storage.k8s.io", "csinodes", ""),
];

/// `NodeAuthorizer.Authorize`.
pub fn authorize(attrs: &Attributes, policy: &Policy) -> Authorized {
    let no_opinion = Authorized { decision: Decision::NoOpinion, reason: String::new(), user: String::new() };
    let is_node = attrs.user.starts_with("system:node:") && attrs.groups.iter().any(|g| g == "system:nodes");
    if !is_node {
        return no_opinion;
    }
    if attrs.resource_request && GRAPH_CHECKED.iter().any(|(g, r, s)| *g == attrs.api_group && *r == attrs.resource && *s == attrs.subresource) {
        return Authorized { decision: Decision::Allow, reason: String::new(), user: String::new() };
    }
    if rules_allow(attrs, &policy.node_rules) {
        return Authorized { decision: Decision::Allow, reason: String::new(), user: String::new() };
    }
    no_opinion
}
