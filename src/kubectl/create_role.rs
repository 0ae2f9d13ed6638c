//! `kubectl create role|clusterrole|rolebinding|clusterrolebinding`
//! (`staging/src/k8s.io/kubectl/pkg/cmd/create/create_role.go`, `create_clusterrole.go`,
//! `create_rolebinding.go`, `create_clusterrolebinding.go`).

use super::create_configmap::{create_or_print, create_or_print_as};
use super::*;

const GROUP: &str = "rbac.authorization.k8s.io";

/// `validResourceVerbs` of create_role.go.
const VALID_VERBS: &[&str] = &["*", "get", "delete", "list", "create", "update", "patch", "watch", "proxy", "deletecollection", "use", "bind", "escalate", "impersonate"];

/// `specialVerbs`: the verbs that only apply to some resources.
const SPECIAL_VERBS: &[(&str, &[(&str, &str)])] = &[
    ("use", &[("policy", "podsecuritypolicies"), ("extensions", "podsecuritypolicies")]),
    ("bind", &[(GROUP, "roles"), (GROUP, "clusterroles")]),
    ("escalate", &[(GROUP, "roles"), (GROUP, "clusterroles")]),
    ("impersonate", &[("", "users"), ("", "serviceaccounts"), ("", "groups"), ("authentication.k8s.io", "userextras")]),
];

fn split_list(values: &[String]) -> Vec<String> {
    values.iter().flat_map(|v| v.split(',')).filter(|s| !s.is_empty()).map(str::to_string).collect()
}

/// The rules of `--verb`, `--resource`, `--resource-name` (and `--non-resource-url`):
/// `generateResourcePolicyRules`, one rule per API group in group order.
fn policy_rules(f: &Flags, cluster_scoped: bool, warnings: &mut Vec<String>) -> Result<Vec<Value>, String> {
    let verbs = split_list(&f.verb);
    let resources = split_list(&f.resource);
    let urls = split_list(&f.non_resource_url);
    if verbs.is_empty() {
        return Err("at least one verb must be specified".into());
    }
    if resources.is_empty() && (!cluster_scoped || urls.is_empty()) {
        return Err(if cluster_scoped { "one of resource or nonResourceURL must be specified".into() } else { "at least one resource must be specified".into() });
    }
    for v in &verbs {
        if !VALID_VERBS.contains(&v.as_str()) {
            warnings.push(format!("Warning: '{}' is not a standard resource verb", v));
        }
    }
    let mut groups: Vec<(String, Vec<String>)> = Vec::new();
    for r in &resources {
        // RESOURCE[.GROUP][/SUBRESOURCE], mapped as the REST mapper does
        let (base, sub) = r.split_once('/').map(|(b, s)| (b, Some(s))).unwrap_or((r.as_str(), None));
        let (name, group) = if base == "*" {
            ("*".to_string(), String::new())
        } else {
            match meta::lookup(base) {
                Some(info) => (info.resource.to_string(), info.group.to_string()),
                // cmdutil.CheckErr prints a no-match error without the `error: ` prefix
                None => return Err(format!("\u{0}the server doesn't have a resource type \"{}\"", base.split('.').next().unwrap_or(base))),
            }
        };
        for v in &verbs {
            if let Some((_, allowed)) = SPECIAL_VERBS.iter().find(|(sv, _)| sv == v) {
                if !allowed.iter().any(|(g, res)| *g == group && *res == name) {
                    return Err(format!("can not perform '{}' on '{}' in group '{}'", v, name, group));
                }
            }
        }
        let full = match sub {
            Some(s) => format!("{}/{}", name, s),
            None => name,
        };
        match groups.iter_mut().find(|(g, _)| *g == group) {
            Some((_, list)) if !list.contains(&full) => list.push(full),
            Some(_) => {}
            None => groups.push((group, vec![full])),
        }
    }
    groups.sort_by(|a, b| a.0.cmp(&b.0));
    let names = split_list(&f.resource_name);
    let mut rules: Vec<Value> = groups
        .into_iter()
        .map(|(g, res)| {
            let mut r = json!({"verbs": verbs, "apiGroups": [g], "resources": res});
            if !names.is_empty() {
                r["resourceNames"] = json!(names);
            }
            r
        })
        .collect();
    if !urls.is_empty() {
        rules.push(json!({"verbs": verbs, "nonResourceURLs": urls}));
    }
    Ok(rules)
}

/// `kubectl create role NAME --verb=… --resource=… [--resource-name=…]`.
pub(super) fn create_role(cluster: &mut Cluster, f: &Flags, ns: &str, cluster_scoped: bool, out: &mut Output) {
    let what = if cluster_scoped { "clusterrole" } else { "role" };
    let Some(name) = f.positional.get(1) else {
        return out.err(&format!("error: exactly one NAME is required, got 0\nSee 'kubectl create {} -h' for help and examples", what));
    };
    if cluster_scoped && !f.aggregation_rule.is_empty() {
        if !f.verb.is_empty() || !f.resource.is_empty() || !f.non_resource_url.is_empty() {
            return out.err("error: aggregation rule must be specified without nonResourceURLs, resources, verbs or resourceNames");
        }
        let mut labels = serde_json::Map::new();
        for kv in split_list(&f.aggregation_rule) {
            let Some((k, v)) = kv.split_once('=') else {
                return out.err(&format!("error: invalid argument \"{}\" for \"--aggregation-rule\" flag: {} must be formatted as key=value", kv, kv));
            };
            labels.insert(k.into(), json!(v));
        }
        let obj = json!({"apiVersion": format!("{}/v1", GROUP), "kind": "ClusterRole", "metadata": {"name": name}, "aggregationRule": {"clusterRoleSelectors": [{"matchLabels": labels}]}, "rules": []});
        return create_or_print(cluster, f, ns, obj, out);
    }
    let mut warnings = Vec::new();
    let rules = policy_rules(f, cluster_scoped, &mut warnings);
    for w in warnings {
        out.note(&w);
    }
    let rules = match rules {
        Ok(r) => r,
        Err(e) => return out.err(&e.strip_prefix('\u{0}').map(str::to_string).unwrap_or_else(|| format!("error: {}", e))),
    };
    let kind = if cluster_scoped { "ClusterRole" } else { "Role" };
    let obj = json!({"apiVersion": format!("{}/v1", GROUP), "kind": kind, "metadata": {"name": name}, "rules": rules});
    create_or_print(cluster, f, ns, obj, out)
}

/// `kubectl create rolebinding|clusterrolebinding NAME --clusterrole=…|--role=… [--user=…]
/// [--group=…] [--serviceaccount=NAMESPACE:NAME]`.
pub(super) fn create_binding(cluster: &mut Cluster, f: &Flags, ns: &str, cluster_scoped: bool, out: &mut Output) {
    let what = if cluster_scoped { "clusterrolebinding" } else { "rolebinding" };
    let Some(name) = f.positional.get(1) else {
        return out.err(&format!("error: exactly one NAME is required, got 0\nSee 'kubectl create {} -h' for help and examples", what));
    };
    let role_ref = match (&f.clusterrole, &f.role) {
        (Some(c), None) => json!({"apiGroup": GROUP, "kind": "ClusterRole", "name": c}),
        (None, Some(r)) if !cluster_scoped => json!({"apiGroup": GROUP, "kind": "Role", "name": r}),
        (None, None) if cluster_scoped => return out.err("error: required flag(s) \"clusterrole\" not set"),
        _ if cluster_scoped => return out.err("error: unknown flag: --role"),
        _ => return out.err("error: exactly one of clusterrole or role must be specified"),
    };
    let mut subjects: Vec<Value> = Vec::new();
    for u in &f.user {
        subjects.push(json!({"kind": "User", "apiGroup": GROUP, "name": u}));
    }
    for g in &f.group {
        subjects.push(json!({"kind": "Group", "apiGroup": GROUP, "name": g}));
    }
    for sa in &f.serviceaccount {
        match sa.split_once(':') {
            Some((n, s)) if !n.is_empty() && !s.is_empty() && !s.contains(':') => subjects.push(json!({"kind": "ServiceAccount", "namespace": n, "name": s})),
            _ => return out.err("error: serviceaccount must be <namespace>:<name>"),
        }
    }
    let kind = if cluster_scoped { "ClusterRoleBinding" } else { "RoleBinding" };
    let mut obj = json!({"apiVersion": format!("{}/v1", GROUP), "kind": kind, "metadata": {"name": name}, "roleRef": role_ref});
    if !subjects.is_empty() {
        obj["subjects"] = Value::Array(subjects);
    }
    // create_rolebinding.go and create_clusterrolebinding.go wrap the server's error
    create_or_print_as(cluster, f, ns, obj, Some(what), out)
}
