//! `kubectl auth can-i` and `kubectl auth whoami` (`staging/src/k8s.io/kubectl/pkg/cmd/auth/cani.go`,
//! `whoami.go`): a SelfSubjectAccessReview (or, with `--list`, a SelfSubjectRulesReview) and a
//! SelfSubjectReview, answered by kube-apiserver's authorizer and authenticator.

use super::*;

/// `kubectl auth SUBCOMMAND`.
pub(super) fn auth(cluster: &mut Cluster, f: &Flags, ns: &str, out: &mut Output) {
    match f.positional.first().map(String::as_str) {
        Some("can-i") => can_i(cluster, f, ns, out),
        Some("whoami") => whoami(cluster, f, out),
        Some(other) => out.err(&format!("error: unknown command \"{}\" for \"kubectl auth\"", other)),
        None => out.out("Inspect authorization\n\nAvailable Commands:\n  can-i         Check whether an action is allowed\n  reconcile     Reconciles rules for RBAC role, role binding, cluster role, and cluster role binding objects\n  whoami        Experimental: Check self subject attributes\n\nUsage:\n  kubectl auth [flags] [options]"),
    }
}

/// `authorizationv1` verbs kubectl knows (`knownResourceVerbs`), for its warning.
const KNOWN_VERBS: &[&str] = &["get", "list", "watch", "create", "update", "patch", "delete", "deletecollection", "use", "bind", "impersonate", "*", "approve", "sign", "escalate", "attest"];

fn can_i(cluster: &mut Cluster, f: &Flags, ns: &str, out: &mut Output) {
    let args = &f.positional[1..];
    let namespace = if f.all_namespaces { "" } else { ns };
    if f.list {
        return can_i_list(cluster, namespace, f.quiet, out);
    }
    if args.len() != 2 {
        return out.err("error: you must specify two arguments: verb resource or verb resource/resourceName.\nSee 'kubectl auth can-i -h' for help and examples.");
    }
    let (verb, target) = (&args[0], &args[1]);
    let mut warnings = Vec::new();
    let spec = if target.starts_with('/') {
        json!({"nonResourceAttributes": {"path": target, "verb": verb}})
    } else {
        if !KNOWN_VERBS.contains(&verb.as_str()) {
            warnings.push(format!("Warning: verb '{}' is not a known verb", verb));
        }
        let (res, name) = target.split_once('/').unwrap_or((target.as_str(), ""));
        let (resource, group, namespaced) = if res == "*" {
            ("*".to_string(), "*".to_string(), true)
        } else {
            match meta::lookup(res) {
                Some(info) => (info.resource.to_string(), info.group.to_string(), info.namespaced),
                None => {
                    warnings.push(format!("Warning: the server doesn't have a resource type '{}'", res));
                    let (r, g) = res.split_once('.').unwrap_or((res, ""));
                    (r.to_string(), g.to_string(), true)
                }
            }
        };
        if !namespaced && !ns.is_empty() && f.namespace.is_some() {
            warnings.push(format!("Warning: resource '{}' is not namespace scoped", resource));
        }
        let mut attrs = json!({"namespace": if namespaced { namespace } else { "" }, "verb": verb, "group": group, "resource": resource});
        if let Some(s) = &f.subresource {
            attrs["subresource"] = json!(s);
        }
        if !name.is_empty() {
            attrs["name"] = json!(name);
        }
        json!({"resourceAttributes": attrs})
    };
    if !f.quiet {
        for w in warnings {
            out.note(&w);
        }
    }
    let body = json!({"kind": "SelfSubjectAccessReview", "apiVersion": "authorization.k8s.io/v1", "metadata": {"creationTimestamp": null}, "spec": spec, "status": {"allowed": false}});
    let resp = kubectl(cluster, Method::Post, "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews", Some(body));
    if !resp.ok() {
        return out.err(&server_error(&resp, None));
    }
    if meta::get(&resp.body, &["status", "allowed"]).and_then(Value::as_bool) == Some(true) {
        if !f.quiet {
            out.out("yes");
        }
        return;
    }
    if !f.quiet {
        let mut line = "no".to_string();
        for key in ["reason", "evaluationError"] {
            let v = meta::get_str(&resp.body, &["status", key]);
            if !v.is_empty() {
                line.push_str(&format!(" - {}", v));
            }
        }
        out.out(&line);
    }
    out.code = 1;
}

/// `--list`: the rules kubectl is told it has, broken down, compacted and sorted as cani.go does.
fn can_i_list(cluster: &mut Cluster, namespace: &str, quiet: bool, out: &mut Output) {
    let body = json!({"kind": "SelfSubjectRulesReview", "apiVersion": "authorization.k8s.io/v1", "metadata": {"creationTimestamp": null}, "spec": {"namespace": namespace}, "status": {"resourceRules": null, "nonResourceRules": null, "incomplete": false}});
    let resp = kubectl(cluster, Method::Post, "/apis/authorization.k8s.io/v1/selfsubjectrulesreviews", Some(body));
    if !resp.ok() {
        return out.err(&server_error(&resp, None));
    }
    let st = resp.body.get("status").cloned().unwrap_or(json!({}));
    if st.get("incomplete").and_then(Value::as_bool) == Some(true) {
        out.note(&format!("warning: the list may be incomplete: {}", meta::get_str(&st, &["evaluationError"])));
    }
    use crate::apiserver::authorizer::rbac::PolicyRule;
    let strings = |v: &Value, k: &str| -> Vec<String> { meta::get_array(v, &[k]).iter().filter_map(Value::as_str).map(str::to_string).collect() };
    let mut given: Vec<PolicyRule> = Vec::new();
    for r in meta::get_array(&st, &["resourceRules"]) {
        given.push(PolicyRule { verbs: strings(r, "verbs"), api_groups: strings(r, "apiGroups"), resources: strings(r, "resources"), resource_names: strings(r, "resourceNames"), ..Default::default() });
    }
    for r in meta::get_array(&st, &["nonResourceRules"]) {
        given.push(PolicyRule { verbs: strings(r, "verbs"), non_resource_urls: strings(r, "nonResourceURLs"), ..Default::default() });
    }
    let rules = crate::apiserver::authorizer::rbac::rules_as_shown(&given);
    let go_list = |v: &Vec<String>| format!("[{}]", v.join(" "));
    if quiet {
        return;
    }
    let mut rows = vec![vec!["Resources".to_string(), "Non-Resource URLs".into(), "Resource Names".into(), "Verbs".into()]];
    for r in &rules {
        let described: Vec<String> = r.resources.iter().flat_map(|res| r.api_groups.iter().map(move |g| if g.is_empty() { res.clone() } else { format!("{}.{}", res, g) })).collect();
        rows.push(vec![described.join(" "), go_list(&r.non_resource_urls), go_list(&r.resource_names), go_list(&r.verbs)]);
    }
    out.out(&tabwrite(&rows));
}

/// kubectl's tabwriter (`printers.GetNewTabWriter`: min width 6, padding 3).
fn tabwrite(rows: &[Vec<String>]) -> String {
    let cols = rows.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..cols).map(|c| rows.iter().filter_map(|r| r.get(c)).map(|s| s.chars().count()).max().unwrap_or(0)).collect();
    let mut s = String::new();
    for r in rows {
        let mut line = String::new();
        for (i, cell) in r.iter().enumerate() {
            if i + 1 < r.len() {
                let w = (widths[i] + 3).max(6);
                line.push_str(&format!("{:<w$}", cell, w = w));
            } else {
                line.push_str(cell);
            }
        }
        s.push_str(line.trim_end());
        s.push('\n');
    }
    s
}

fn whoami(cluster: &mut Cluster, f: &Flags, out: &mut Output) {
    let body = json!({"kind": "SelfSubjectReview", "apiVersion": "authentication.k8s.io/v1", "metadata": {"creationTimestamp": null}, "status": {"userInfo": {}}});
    let resp = kubectl(cluster, Method::Post, "/apis/authentication.k8s.io/v1/selfsubjectreviews", Some(body));
    if resp.code == 403 {
        return out.err("error: the selfsubjectreviews API is not enabled in the cluster or you do not have permission to call it");
    }
    if !resp.ok() {
        return out.err(&server_error(&resp, None));
    }
    match f.output.as_str() {
        "yaml" => return out.out(printers::to_yaml(&resp.body).trim_end()),
        "json" => return out.out(&printers::to_json(&resp.body)),
        _ => {}
    }
    let info = meta::get(&resp.body, &["status", "userInfo"]).cloned().unwrap_or(json!({}));
    let mut rows = vec![vec!["ATTRIBUTE".to_string(), "VALUE".into()], vec!["Username".into(), meta::get_str(&info, &["username"]).into()]];
    let uid = meta::get_str(&info, &["uid"]);
    if !uid.is_empty() {
        rows.push(vec!["UID".into(), uid.into()]);
    }
    let groups: Vec<&str> = meta::get_array(&info, &["groups"]).iter().filter_map(Value::as_str).collect();
    if !groups.is_empty() {
        rows.push(vec!["Groups".into(), format!("[{}]", groups.join(" "))]);
    }
    if let Some(extra) = info.get("extra").and_then(Value::as_object) {
        for (k, v) in extra {
            let vals: Vec<&str> = v.as_array().map(|a| a.iter().filter_map(Value::as_str).collect()).unwrap_or_default();
            rows.push(vec![format!("Extra: {}", k), format!("[{}]", vals.join(" "))]);
        }
    }
    out.out(&tabwrite(&rows));
}
