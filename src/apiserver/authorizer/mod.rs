//! Authorization: the step between authentication and admission in every request.
//!
//! Real counterparts: `staging/src/k8s.io/apiserver/pkg/authorization/authorizer` (`Attributes`,
//! `Decision`), `pkg/authorization/union/union.go` (the first Allow or Deny wins; the reasons of
//! the NoOpinions are joined), `pkg/kubeapiserver/authorizer/reload.go` (the chain: members of
//! `system:masters` first, then kubeadm's `--authorization-mode=Node,RBAC`),
//! `pkg/endpoints/filters/authorization.go` (the audit annotations, the 403) and
//! `pkg/endpoints/handlers/responsewriters/errors.go` (`forbiddenMessage`).
//!
//! The decision is not a message of its own in the trace: it travels with the request's
//! response (the audit annotations, the narration's stage on kube-apiserver's box).
//!
//! What kubesim simplifies: no webhook or ABAC modes; no authorizer errors (a resolution error of
//! RBAC is a reason, as upstream's is).

pub mod bootstrappolicy;
pub mod node;
pub mod rbac;

use crate::api::request::RequestInfo;

/// `authorizer.Attributes`: who asks to do what.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Attributes {
    pub user: String,
    pub groups: Vec<String>,
    pub verb: String,
    pub namespace: String,
    pub api_group: String,
    pub resource: String,
    pub subresource: String,
    pub name: String,
    /// The path of a non-resource request (`/healthz`).
    pub path: String,
    pub resource_request: bool,
}

impl Attributes {
    /// The attributes of a parsed request made by `user` in `groups`.
    pub fn of_request(ri: &RequestInfo, user: &str, groups: &[String]) -> Attributes {
        let namespace = request_namespace(ri).to_string();
        Attributes {
            user: user.to_string(),
            groups: groups.to_vec(),
            verb: ri.verb.to_string(),
            namespace,
            api_group: ri.api_group.clone(),
            resource: ri.resource.clone(),
            subresource: ri.subresource.clone(),
            name: ri.name.clone(),
            // RBAC reads the path of non-resource requests only
            path: if ri.is_resource_request { String::new() } else { ri.path.clone() },
            resource_request: ri.is_resource_request,
        }
    }

    /// Whether these are the attributes [`Attributes::of_request`] would make (no allocation).
    pub fn is_request(&self, ri: &RequestInfo, user: &str, groups: &[String]) -> bool {
        self.user == user
            && self.groups == groups
            && self.verb == ri.verb
            && self.namespace == request_namespace(ri)
            && self.api_group == ri.api_group
            && self.resource == ri.resource
            && self.subresource == ri.subresource
            && self.name == ri.name
            && self.resource_request == ri.is_resource_request
            && (ri.is_resource_request || self.path == ri.path)
    }

    /// The decision cache's key (deterministic: SipHash with fixed keys).
    pub fn cache_key(&self) -> u64 {
        key_of(&self.user, &self.groups, &self.verb, &self.namespace, &self.api_group, &self.resource, &self.subresource, &self.name, &self.path)
    }

    /// [`Attributes::cache_key`] of a request's attributes, without making them.
    pub fn request_cache_key(ri: &RequestInfo, user: &str, groups: &[String]) -> u64 {
        let path = if ri.is_resource_request { "" } else { ri.path.as_str() };
        key_of(user, groups, ri.verb, request_namespace(ri), &ri.api_group, &ri.resource, &ri.subresource, &ri.name, path)
    }
}

/// The request info treats a namespace as living in itself (`/api/v1/namespaces/NAME`).
fn request_namespace(ri: &RequestInfo) -> &str {
    if ri.resource == "namespaces" && !ri.name.is_empty() && ri.is_resource_request {
        &ri.name
    } else {
        &ri.namespace
    }
}

#[allow(clippy::too_many_arguments)]
fn key_of(user: &str, groups: &[String], verb: &str, ns: &str, group: &str, resource: &str, sub: &str, name: &str, path: &str) -> u64 {
    use std::hash::{Hash, Hasher};
    #[allow(deprecated)]
    let mut h = std::hash::SipHasher::new();
    for part in [user, verb, ns, group, resource, sub, name, path] {
        part.hash(&mut h);
    }
    groups.hash(&mut h);
    h.finish()
}

/// `authorizer.Decision`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    Deny,
    Allow,
    NoOpinion,
}

/// An authorizer's answer: its decision and its reason (the audit annotation
/// `authorization.k8s.io/reason`; for RBAC the binding and role that allowed).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Authorized {
    pub decision: Decision,
    pub reason: String,
    /// Who was asking (the narration names them); empty in an authorizer's own answer.
    pub user: String,
}

impl Authorized {
    pub fn allowed(&self) -> bool {
        self.decision == Decision::Allow
    }
}

/// `user.SystemPrivilegedGroup`: allowed everything before any mode is asked.
pub const SYSTEM_PRIVILEGED_GROUP: &str = "system:masters";

/// The authorizer chain of a kubeadm cluster: `system:masters`, then Node, then RBAC (a union).
/// The policy is asked for only when `system:masters` has not decided (the bootstrap writes the
/// whole policy as `system:masters`, one object at a time).
pub fn authorize(attrs: &Attributes, policy: &mut dyn FnMut() -> std::rc::Rc<rbac::Policy>) -> Authorized {
    if attrs.groups.iter().any(|g| g == SYSTEM_PRIVILEGED_GROUP) {
        return Authorized { decision: Decision::Allow, reason: String::new(), user: String::new() };
    }
    let policy = policy();
    let mut reasons: Vec<String> = Vec::new();
    for answer in [node::authorize(attrs, &policy), policy.authorize(attrs)] {
        match answer.decision {
            Decision::NoOpinion => {
                if !answer.reason.is_empty() {
                    reasons.push(answer.reason);
                }
            }
            _ => return answer,
        }
    }
    Authorized { decision: Decision::NoOpinion, reason: reasons.join("\n"), user: String::new() }
}

/// `forbiddenMessage` + `NewForbidden`: the 403's message.
pub fn forbidden_message(attrs: &Attributes, reason: &str) -> String {
    let q = crate::api::field::go_quote;
    let resource = if attrs.subresource.is_empty() { attrs.resource.clone() } else { format!("{}/{}", attrs.resource, attrs.subresource) };
    let mut msg = if !attrs.resource_request {
        format!("User {} cannot {} path {}", q(&attrs.user), attrs.verb, q(&attrs.path))
    } else if attrs.namespace.is_empty() {
        format!("User {} cannot {} resource {} in API group {} at the cluster scope", q(&attrs.user), attrs.verb, q(&resource), q(&attrs.api_group))
    } else {
        format!("User {} cannot {} resource {} in API group {} in the namespace {}", q(&attrs.user), attrs.verb, q(&resource), q(&attrs.api_group), q(&attrs.namespace))
    };
    if !reason.is_empty() {
        msg.push_str(": ");
        msg.push_str(&reason.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;"));
    }
    if !attrs.resource_request {
        return format!("forbidden: {}", msg);
    }
    let qualified = if attrs.api_group.is_empty() { attrs.resource.clone() } else { format!("{}.{}", attrs.resource, attrs.api_group) };
    if attrs.name.is_empty() {
        format!("{} is forbidden: {}", qualified, msg)
    } else {
        format!("{} {} is forbidden: {}", qualified, q(&attrs.name), msg)
    }
}

impl Authorized {
    /// A short name of what decided, for kube-apiserver's box on the diagram: the RBAC role
    /// (`RBAC cluster-admin`), `Node`, `system:masters`, or `403` for a refusal.
    pub fn short(&self) -> String {
        if !self.allowed() {
            return "403".into();
        }
        if let Some(rest) = self.reason.strip_prefix("RBAC: allowed by ") {
            // `… of ClusterRole "name" to …`
            let role = rest.split(" of ").nth(1).and_then(|r| r.split('"').nth(1)).unwrap_or("");
            return format!("RBAC {}", role);
        }
        if self.user.starts_with("system:node:") {
            "Node".into()
        } else {
            SYSTEM_PRIVILEGED_GROUP.into()
        }
    }
}
