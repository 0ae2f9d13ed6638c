//! The bootstrap RBAC policy: the ClusterRoles, ClusterRoleBindings, Roles and RoleBindings that
//! kube-apiserver's `rbac/bootstrap-roles` post-start hook keeps in every cluster, plus the few
//! that kubeadm and minikube add (`kubeadm:cluster-admins`, `kubeadm:node-proxier`,
//! `storage-provisioner`) and the NetworkPolicy agent's (`kube-network-policies`, as its
//! `install.yaml` grants it).
//!
//! Real counterparts: `plugin/pkg/auth/authorizer/rbac/bootstrappolicy/policy.go`,
//! `controller_policy.go` and `namespace_policy.go`, whose golden files
//! (`testdata/*.yaml`, v1.34 default feature gates) `bootstrappolicy.txt` transcribes in a compact
//! form (its header gives the grammar); `NodeRules()` is the `system:node` role's rules.
//!
//! What kubesim simplifies: the aggregated roles (`admin`, `edit`, `view`) are written with their
//! aggregated rules at bootstrap, as the clusterrole-aggregation controller leaves them.

use super::rbac::{aggregate_rules, PolicyRule};
use serde_json::{json, Value};

const POLICY: &str = include_str!("bootstrappolicy.txt");

/// The objects kubeadm (and minikube's addons) create next to the bootstrap policy.
const DISTRIBUTION: &str = "ClusterRoleBinding kubeadm:cluster-admins cluster-admin
  subject Group kubeadm:cluster-admins
ClusterRoleBinding kubeadm:node-proxier system:node-proxier
  subject ServiceAccount kube-proxy kube-system
ClusterRoleBinding storage-provisioner system:persistent-volume-provisioner
  subject ServiceAccount storage-provisioner kube-system
ClusterRole kube-network-policies
  rule list,watch ; \"\" ; pods,namespaces,nodes ; - ; -
  rule list,watch ; networking.k8s.io ; networkpolicies ; - ; -
ClusterRoleBinding kube-network-policies kube-network-policies
  subject ServiceAccount kube-network-policies kube-system
";

fn list(field: &str) -> Vec<String> {
    match field.trim() {
        "-" | "" => vec![],
        f => f.split(',').map(|s| if s == "\"\"" { String::new() } else { s.to_string() }).collect(),
    }
}

fn rule(line: &str) -> PolicyRule {
    let f: Vec<&str> = line.split(" ; ").collect();
    let at = |i: usize| list(f.get(i).copied().unwrap_or("-"));
    PolicyRule { verbs: at(0), api_groups: at(1), resources: at(2), resource_names: at(3), non_resource_urls: at(4) }
}

/// Parses the compact policy text into API objects (in file order).
fn parse(text: &str, bootstrap: bool) -> Vec<Value> {
    let mut out: Vec<Value> = Vec::new();
    for line in text.lines() {
        if line.trim_start().starts_with('#') || line.trim().is_empty() {
            continue;
        }
        if let Some(rest) = line.strip_prefix("  ") {
            let Some(cur) = out.last_mut() else { continue };
            let (word, rest) = rest.split_once(' ').unwrap_or((rest, ""));
            match word {
                "rule" => {
                    let r = rule(rest).to_json();
                    cur["rules"].as_array_mut().map(|a| a.push(r));
                }
                "label" | "annotation" => {
                    let (k, v) = rest.split_once('=').unwrap_or((rest, ""));
                    cur["metadata"][if word == "label" { "labels" } else { "annotations" }][k] = json!(v);
                }
                "aggregate" => {
                    let (k, v) = rest.split_once('=').unwrap_or((rest, ""));
                    let sel = json!({"matchLabels": {k: v}});
                    match cur.get_mut("aggregationRule") {
                        Some(a) => {
                            a["clusterRoleSelectors"].as_array_mut().map(|s| s.push(sel));
                        }
                        None => cur["aggregationRule"] = json!({"clusterRoleSelectors": [sel]}),
                    }
                }
                "subject" => {
                    let p: Vec<&str> = rest.split(' ').collect();
                    let mut s = json!({"kind": p.first().copied().unwrap_or(""), "name": p.get(1).copied().unwrap_or("")});
                    if p[0] == "ServiceAccount" {
                        s["namespace"] = json!(p.get(2).copied().unwrap_or(""));
                    } else {
                        s["apiGroup"] = json!("rbac.authorization.k8s.io");
                    }
                    if cur.get("subjects").is_none() {
                        cur["subjects"] = json!([]);
                    }
                    cur["subjects"].as_array_mut().map(|a| a.push(s));
                }
                _ => {}
            }
            continue;
        }
        let p: Vec<&str> = line.split(' ').collect();
        let mut metadata = json!({});
        if bootstrap {
            metadata = json!({"labels": {"kubernetes.io/bootstrapping": "rbac-defaults"}, "annotations": {"rbac.authorization.kubernetes.io/autoupdate": "true"}});
        }
        let obj = match p.as_slice() {
            ["ClusterRole", name] => {
                metadata["name"] = json!(name);
                json!({"kind": "ClusterRole", "metadata": metadata, "rules": []})
            }
            ["ClusterRoleBinding", name, role] => {
                metadata["name"] = json!(name);
                json!({"kind": "ClusterRoleBinding", "metadata": metadata, "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": role}})
            }
            ["Role", ns, name] => {
                metadata["name"] = json!(name);
                metadata["namespace"] = json!(ns);
                json!({"kind": "Role", "metadata": metadata, "rules": []})
            }
            ["RoleBinding", ns, name, kind, role] => {
                metadata["name"] = json!(name);
                metadata["namespace"] = json!(ns);
                json!({"kind": "RoleBinding", "metadata": metadata, "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": kind, "name": role}})
            }
            _ => continue,
        };
        let mut obj = obj;
        obj["apiVersion"] = json!("rbac.authorization.k8s.io/v1");
        out.push(obj);
    }
    out
}

/// The bootstrap objects, aggregated roles filled in, then the distribution's.
pub fn objects() -> Vec<Value> {
    let mut objs = parse(POLICY, true);
    let roles: Vec<Value> = objs.iter().filter(|o| o["kind"] == "ClusterRole").cloned().collect();
    // `admin` aggregates `edit`, which aggregates `view`: fill the inner ones first
    for name in ["view", "edit", "admin"] {
        let mut current = roles.clone();
        for o in objs.iter().filter(|o| o["kind"] == "ClusterRole") {
            if let Some(c) = current.iter_mut().find(|c| c["metadata"]["name"] == o["metadata"]["name"]) {
                *c = o.clone();
            }
        }
        if let Some(o) = objs.iter_mut().find(|o| o["kind"] == "ClusterRole" && o["metadata"]["name"] == name) {
            let sels = o["aggregationRule"]["clusterRoleSelectors"].as_array().cloned().unwrap_or_default();
            let rules: Vec<Value> = aggregate_rules(&sels, &current, name).iter().map(PolicyRule::to_json).collect();
            o["rules"] = Value::Array(rules);
        }
    }
    objs.extend(parse(DISTRIBUTION, false));
    objs
}

/// `NodeRules()`: the `system:node` role's rules.
pub fn node_rules() -> Vec<PolicyRule> {
    let mut in_node = false;
    let mut out = Vec::new();
    for line in POLICY.lines() {
        if !line.starts_with("  ") {
            in_node = line == "ClusterRole system:node";
            continue;
        }
        if in_node {
            if let Some(r) = line.trim_start().strip_prefix("rule ") {
                out.push(rule(r));
            }
        }
    }
    out
}

/// The ServiceAccounts of kube-system that the distribution's components authenticate as.
pub const SYSTEM_SERVICE_ACCOUNTS: &[&str] = &["kube-proxy", "storage-provisioner"];
