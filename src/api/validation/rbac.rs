//! `pkg/apis/rbac/validation/validation.go`: Roles, ClusterRoles (with `aggregationRule`),
//! RoleBindings and ClusterRoleBindings (`ValidateRole`, `ValidateClusterRole`,
//! `ValidatePolicyRule`, `ValidateRoleBinding`, `ValidateClusterRoleBinding`,
//! `ValidateRoleBindingSubject`, the bindings' immutable `roleRef`).
//!
//! What the API does not check (as upstream): that a binding's role exists, or that a rule's
//! verbs and resources are known.

use super::*;

const GROUP: &str = "rbac.authorization.k8s.io";

/// `ValidateRBACName` (= `path.ValidatePathSegmentName`).
fn rbac_name(name: &str, prefix: bool) -> Vec<String> {
    let mut errs = Vec::new();
    if !prefix && (name == "." || name == "..") {
        errs.push(format!("may not be '{}'", name));
    }
    for bad in ["/", "%"] {
        if name.contains(bad) {
            errs.push(format!("may not contain '{}'", bad));
        }
    }
    errs
}

fn strings(v: &Value, key: &str) -> Vec<Value> {
    v.get(key).and_then(Value::as_array).cloned().unwrap_or_default()
}

/// `ValidatePolicyRule`.
fn validate_policy_rule(rule: &Value, namespaced: bool, path: &Path) -> Errs {
    let mut errs = Vec::new();
    if strings(rule, "verbs").is_empty() {
        errs.push(FieldError::required(path.child("verbs").as_str(), "verbs must contain at least one value"));
    }
    let urls = strings(rule, "nonResourceURLs");
    if !urls.is_empty() {
        if namespaced {
            errs.push(FieldError::invalid(path.child("nonResourceURLs").as_str(), Value::Array(urls.clone()), "namespaced rules cannot apply to non-resource URLs"));
        }
        if !strings(rule, "apiGroups").is_empty() || !strings(rule, "resources").is_empty() || !strings(rule, "resourceNames").is_empty() {
            errs.push(FieldError::invalid(path.child("nonResourceURLs").as_str(), Value::Array(urls), "rules cannot apply to both regular resources and non-resource URLs"));
        }
        return errs;
    }
    if strings(rule, "apiGroups").is_empty() {
        errs.push(FieldError::required(path.child("apiGroups").as_str(), "resource rules must supply at least one api group"));
    }
    if strings(rule, "resources").is_empty() {
        errs.push(FieldError::required(path.child("resources").as_str(), "resource rules must supply at least one resource"));
    }
    errs
}

fn validate_rules(obj: &Value, namespaced: bool) -> Errs {
    let path = Path::new("rules");
    strings(obj, "rules").iter().enumerate().flat_map(|(i, r)| validate_policy_rule(r, namespaced, &path.index(i))).collect()
}

/// `ValidateRole`.
pub fn validate_role(obj: &Value) -> Errs {
    let mut errs = validate_object_meta(obj, true, rbac_name);
    errs.extend(validate_rules(obj, true));
    errs
}

/// `ValidateClusterRole`: rules, and an `aggregationRule` with at least one valid selector.
pub fn validate_cluster_role(obj: &Value) -> Errs {
    let mut errs = validate_object_meta(obj, false, rbac_name);
    errs.extend(validate_rules(obj, false));
    if let Some(agg) = obj.get("aggregationRule").filter(|a| !a.is_null()) {
        if strings(agg, "clusterRoleSelectors").is_empty() {
            errs.push(FieldError::required("aggregationRule.clusterRoleSelectors", "at least one clusterRoleSelector required if aggregationRule is non-nil"));
        }
        for (i, sel) in strings(agg, "clusterRoleSelectors").iter().enumerate() {
            errs.extend(validate_label_selector(Some(sel), &Path::new("aggregationRule").child("clusterRoleSelectors").index(i)));
        }
    }
    errs
}

/// `ValidateRoleBindingSubject`.
fn validate_subject(s: &Value, namespaced: bool, path: &Path) -> Errs {
    let mut errs = Vec::new();
    let name = get_str(Some(s), "name");
    let group = get_str(Some(s), "apiGroup");
    if name.is_empty() {
        errs.push(FieldError::required(path.child("name").as_str(), ""));
    }
    match get_str(Some(s), "kind") {
        "ServiceAccount" => {
            if !name.is_empty() {
                for m in name_is_dns_subdomain(name, false) {
                    errs.push(FieldError::invalid(path.child("name").as_str(), json!(name), &m));
                }
            }
            if !group.is_empty() {
                errs.push(FieldError::not_supported(path.child("apiGroup").as_str(), json!(group), &[""]));
            }
            if !namespaced && get_str(Some(s), "namespace").is_empty() {
                errs.push(FieldError::required(path.child("namespace").as_str(), ""));
            }
        }
        "User" | "Group" => {
            if group != GROUP {
                errs.push(FieldError::not_supported(path.child("apiGroup").as_str(), json!(group), &[GROUP]));
            }
        }
        kind => errs.push(FieldError::not_supported(path.child("kind").as_str(), json!(kind), &["ServiceAccount", "User", "Group"])),
    }
    errs
}

fn validate_binding(obj: &Value, namespaced: bool) -> Errs {
    let mut errs = validate_object_meta(obj, namespaced, rbac_name);
    let role_ref = obj.get("roleRef");
    let group = get_str(role_ref, "apiGroup");
    if group != GROUP {
        errs.push(FieldError::not_supported("roleRef.apiGroup", json!(group), &[GROUP]));
    }
    let kind = get_str(role_ref, "kind");
    let kinds: &[&str] = if namespaced { &["Role", "ClusterRole"] } else { &["ClusterRole"] };
    if !kinds.contains(&kind) {
        errs.push(FieldError::not_supported("roleRef.kind", json!(kind), kinds));
    }
    let name = get_str(role_ref, "name");
    if name.is_empty() {
        errs.push(FieldError::required("roleRef.name", ""));
    } else {
        for m in rbac_name(name, false) {
            errs.push(FieldError::invalid("roleRef.name", json!(name), &m));
        }
    }
    let path = Path::new("subjects");
    for (i, s) in strings(obj, "subjects").iter().enumerate() {
        errs.extend(validate_subject(s, namespaced, &path.index(i)));
    }
    errs
}

/// `ValidateRoleBinding`.
pub fn validate_role_binding(obj: &Value) -> Errs {
    validate_binding(obj, true)
}

/// `ValidateClusterRoleBinding`.
pub fn validate_cluster_role_binding(obj: &Value) -> Errs {
    validate_binding(obj, false)
}

/// `ValidateRoleBindingUpdate` / `ValidateClusterRoleBindingUpdate`: the binding, and a
/// `roleRef` that never changes.
pub fn validate_binding_update(new: &Value, old: &Value, namespaced: bool) -> Errs {
    let mut errs = validate_binding(new, namespaced);
    if new.get("roleRef") != old.get("roleRef") {
        let r = new.get("roleRef").cloned().unwrap_or(Value::Null);
        let rendered = format!(
            "rbac.RoleRef{{APIGroup:{}, Kind:{}, Name:{}}}",
            go_quote(get_str(Some(&r), "apiGroup")),
            go_quote(get_str(Some(&r), "kind")),
            go_quote(get_str(Some(&r), "name"))
        );
        errs.push(FieldError::invalid("roleRef", r, "cannot change roleRef").with_raw_value(rendered));
    }
    errs
}
