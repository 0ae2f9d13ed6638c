//! The RBAC storages' escalation check: nobody grants permissions they do not hold.
//!
//! Real counterparts: `pkg/registry/rbac/escalation_check.go` (`EscalationAllowed`,
//! `RoleEscalationAuthorized`, `BindingAuthorized`), the `policybased` storages of roles,
//! clusterroles, rolebindings and clusterrolebindings (their Create and Update), and
//! `pkg/registry/rbac/validation/rule.go` (`ConfirmNoEscalation`, `CompactRules`).
//!
//! What kubesim simplifies: a PATCH is not checked (a PUT and a POST are).

use super::authorizer::rbac::{compact_rules, uncovered, PolicyRule};
use super::authorizer::{Attributes, SYSTEM_PRIVILEGED_GROUP};
use super::{err, ApiServer, ResourceInfo};
use crate::api::field::go_quote;
use crate::api::meta;
use crate::api::request::{Identity, Method, Request, RequestInfo, Response};
use crate::sim::Rng;
use serde_json::{json, Value};

impl ApiServer {
    /// The `rbac/bootstrap-roles` post-start hook: the bootstrap policy's ClusterRoles,
    /// ClusterRoleBindings, Roles and RoleBindings (with kubeadm's and minikube's bindings), written
    /// by kube-apiserver's loopback client (`system:apiserver`, in `system:masters`).
    pub fn ensure_bootstrap_policy(&mut self, rng: &mut Rng) {
        let me = Identity {
            username: "system:apiserver".into(),
            uid: String::new(),
            groups: vec!["system:authenticated".into(), SYSTEM_PRIVILEGED_GROUP.into()],
            user_agent: format!("kube-apiserver/{} (linux/amd64) kubernetes/{}", crate::KUBE_VERSION, crate::KUBE_COMMIT),
            source_ip: "::1".into(),
            impersonate: None,
        };
        for o in super::authorizer::bootstrappolicy::objects() {
            let Some(info) = meta::by_kind("rbac.authorization.k8s.io/v1", meta::get_str(&o, &["kind"])) else { continue };
            let req = Request::new(Method::Post, info.collection_path(meta::namespace(&o)), Some(o));
            let ri = RequestInfo::parse(req.method, &req.path);
            self.handle(&req, &ri, &me, 0, rng);
        }
    }

    /// The check a write of an RBAC object must pass before it is stored.
    pub(super) fn confirm_no_escalation(&mut self, info: &ResourceInfo, obj: &Value, who: &Identity) -> Result<(), Response> {
        // only the RBAC storages check; EscalationAllowed
        if info.group != super::authorizer::rbac::GROUP || who.groups.iter().any(|g| g == SYSTEM_PRIVILEGED_GROUP) {
            return Ok(());
        }
        let ns = meta::namespace(obj).to_string();
        let name = meta::name(obj).to_string();
        let forbidden = |msg: String| err(403, "Forbidden", format!("{}.rbac.authorization.k8s.io {} is forbidden: {}", info.resource, go_quote(&name), msg), Some(json!({"name": name, "group": info.group, "kind": info.resource})));
        let ask = |verb: &str, resource: &str, rname: &str| Attributes {
            user: who.username.clone(),
            groups: who.groups.clone(),
            verb: verb.into(),
            namespace: ns.clone(),
            api_group: info.group.into(),
            resource: resource.into(),
            name: rname.into(),
            resource_request: true,
            ..Attributes::default()
        };
        let requested: Vec<PolicyRule> = match info.kind {
            "Role" | "ClusterRole" => {
                // RoleEscalationAuthorized: the `escalate` verb on the kind
                if self.authorize(&ask("escalate", info.resource, "")).allowed() {
                    return Ok(());
                }
                meta::get_array(obj, &["rules"]).iter().map(PolicyRule::from_json).collect()
            }
            "RoleBinding" | "ClusterRoleBinding" => {
                let (kind, role) = (meta::get_str(obj, &["roleRef", "kind"]), meta::get_str(obj, &["roleRef", "name"]));
                let resource = if kind == "Role" { "roles" } else { "clusterroles" };
                // BindingAuthorized: the `bind` verb on the referenced role
                if self.authorize(&ask("bind", resource, role)).allowed() {
                    return Ok(());
                }
                let policy = self.rbac_policy();
                let found = if kind == "Role" { policy.roles.get(&(ns.clone(), role.to_string())) } else { policy.cluster_roles.get(role) };
                match found {
                    Some(r) => r.clone(),
                    None => {
                        let singular = if kind == "Role" { "role" } else { "clusterrole" };
                        return Err(forbidden(format!("{}.rbac.authorization.k8s.io {} not found", singular, go_quote(role))));
                    }
                }
            }
            _ => return Ok(()),
        };
        // ConfirmNoEscalation
        let policy = self.rbac_policy();
        let (owner, errors) = policy.rules_for(&who.username, &who.groups, &ns);
        let missing = uncovered(&owner, &requested);
        if missing.is_empty() {
            return Ok(());
        }
        let mut lines: Vec<String> = compact_rules(&missing).iter().map(PolicyRule::compact_string).collect();
        lines.sort();
        lines.dedup();
        let groups: Vec<String> = who.groups.iter().map(|g| go_quote(g)).collect();
        let mut msg = format!("user {} (groups=[{}]) is attempting to grant RBAC permissions not currently held:\n{}", go_quote(&who.username), groups.join(" "), lines.join("\n"));
        if !errors.is_empty() {
            msg.push_str(&format!("; resolution errors: [{}]", errors.join(" ")));
        }
        Err(forbidden(msg))
    }
}
