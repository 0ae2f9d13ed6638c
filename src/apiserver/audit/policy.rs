//! The audit policy: a typed `audit.k8s.io/v1` `Policy` and its first-match evaluation.
//!
//! Real counterparts: `staging/src/k8s.io/apiserver/pkg/apis/audit/v1/types.go` (`Policy`,
//! `PolicyRule`, `GroupResources`, `Level`, `Stage`) and `pkg/audit/policy/checker.go`:
//! `NewPolicyRuleEvaluator` unions the policy's `omitStages` into every rule's,
//! `EvaluatePolicyRule` answers with the first rule that matches (no match: level `None`), and
//! `ruleMatches` checks users, then user groups, then verbs, then either the resource fields
//! (namespaces, group, `resource/subresource`, `*`, `*/subresource`, `resource/*`, resource
//! names) or the non-resource URLs (exact, `*`, or a trailing-`*` prefix).
//!
//! The policy kube-apiserver runs here is [`Policy::eks`], EKS's published audit policy (see its
//! doc). What kubesim simplifies: the policy is built in (there is no `--audit-policy-file` to
//! read); `omitManagedFields` is evaluated and applied, but kubesim's objects rarely carry
//! managedFields.

use std::fmt::Write;

/// How much of a request is recorded (`audit.Level`), in increasing order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    /// Not logged at all.
    None,
    /// User, timestamps, resource, verb, response status; no bodies.
    Metadata,
    /// Metadata and the request body (`requestObject`).
    Request,
    /// Request and the response body (`responseObject`).
    RequestResponse,
}

impl Level {
    pub fn as_str(self) -> &'static str {
        match self {
            Level::None => "None",
            Level::Metadata => "Metadata",
            Level::Request => "Request",
            Level::RequestResponse => "RequestResponse",
        }
    }
}

/// The stages an event is emitted at (`audit.Stage`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Stage {
    /// As soon as the handler chain receives the request.
    RequestReceived,
    /// Long-running requests (watch): once the response headers are sent.
    ResponseStarted,
    /// The response body is complete.
    ResponseComplete,
    /// A panic in the handler.
    Panic,
}

impl Stage {
    pub fn as_str(self) -> &'static str {
        match self {
            Stage::RequestReceived => "RequestReceived",
            Stage::ResponseStarted => "ResponseStarted",
            Stage::ResponseComplete => "ResponseComplete",
            Stage::Panic => "Panic",
        }
    }
}

/// `GroupResources`: an API group, some of its resources (empty: all, subresources included) and
/// optionally object names.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct GroupResources {
    pub group: String,
    pub resources: Vec<String>,
    pub resource_names: Vec<String>,
}

/// One `PolicyRule`; an empty list matches everything.
#[derive(Clone, Debug, PartialEq)]
pub struct PolicyRule {
    pub level: Level,
    pub users: Vec<String>,
    pub user_groups: Vec<String>,
    pub verbs: Vec<String>,
    pub resources: Vec<GroupResources>,
    pub namespaces: Vec<String>,
    pub non_resource_urls: Vec<String>,
    pub omit_stages: Vec<Stage>,
    pub omit_managed_fields: Option<bool>,
    /// Where the rule comes from, printed as a YAML comment above it (not part of the API type).
    pub comment: &'static str,
}

impl PolicyRule {
    fn new(level: Level, comment: &'static str) -> PolicyRule {
        PolicyRule {
            level,
            users: vec![],
            user_groups: vec![],
            verbs: vec![],
            resources: vec![],
            namespaces: vec![],
            non_resource_urls: vec![],
            omit_stages: vec![],
            omit_managed_fields: None,
            comment,
        }
    }
}

/// `audit.k8s.io/v1` `Policy`.
#[derive(Clone, Debug, PartialEq)]
pub struct Policy {
    pub rules: Vec<PolicyRule>,
    pub omit_stages: Vec<Stage>,
    pub omit_managed_fields: bool,
}

/// What the request is, as the authorizer's `Attributes` give it to the policy checker.
#[derive(Clone, Copy, Debug)]
pub struct Attributes<'a> {
    pub user: &'a str,
    pub groups: &'a [String],
    pub verb: &'a str,
    pub resource_request: bool,
    /// Non-namespaced resources have "". For `namespaces/NAME` it is NAME (the request info
    /// treats a namespace as living in itself).
    pub namespace: &'a str,
    pub api_group: &'a str,
    pub resource: &'a str,
    pub subresource: &'a str,
    pub name: &'a str,
    /// The URL path (non-resource requests).
    pub path: &'a str,
}

/// `RequestAuditConfig`: what the first matching rule decided for one request.
#[derive(Clone, Debug, PartialEq)]
pub struct RequestAuditConfig {
    pub level: Level,
    pub omit_stages: Vec<Stage>,
    pub omit_managed_fields: bool,
}

impl RequestAuditConfig {
    pub fn omits(&self, stage: Stage) -> bool {
        self.omit_stages.contains(&stage)
    }
}

fn strs(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

fn core(resources: &[&str]) -> GroupResources {
    GroupResources { group: String::new(), resources: strs(resources), resource_names: vec![] }
}

/// The API groups EKS's policy calls "known APIs" that kubesim serves (EKS lists eighteen:
/// kubesim has no admissionregistration, apiextensions, apiregistration, authentication,
/// authorization, autoscaling, certificates, extensions, metrics, networking, policy, rbac or
/// settings API). `coordination.k8s.io` (Leases), `discovery.k8s.io` (EndpointSlices) and
/// `events.k8s.io` are not in EKS's list, so they fall to the last rule, Metadata.
const KNOWN_GROUPS: &[&str] = &["", "apps", "batch", "scheduling.k8s.io", "storage.k8s.io"];

fn known_groups() -> Vec<GroupResources> {
    KNOWN_GROUPS.iter().map(|g| GroupResources { group: g.to_string(), ..GroupResources::default() }).collect()
}

impl Policy {
    /// EKS's audit policy, as published in the EKS Best Practices Guide ("Auditing and logging",
    /// <https://docs.aws.amazon.com/eks/latest/best-practices/auditing-and-logging.html>): the
    /// reference policy of GCE's `cluster/gce/gci/configure-helper.sh` plus a rule for the
    /// `aws-auth` ConfigMap. Each rule below keeps EKS's order and says where it comes from.
    /// Left out, because nothing in kubesim sends such requests: `aws-auth` changes
    /// (RequestResponse; kubesim has no `aws-auth`), `system:kube-proxy`'s watches (kubesim's
    /// kube-proxy authenticates as its service account, as kubeadm's does), the legacy `kubelet`
    /// user's node reads, leader-election Endpoints of kube-controller-manager and the
    /// scheduler, `system:apiserver`'s namespace reads, `metrics.k8s.io` reads,
    /// node-problem-detector's status writes, TokenReviews and `serviceaccounts/token`.
    ///
    /// What it means for a Deployment: kubectl's create, the controllers' creates and updates,
    /// the scheduler's binding and every delete of a Deployment, ReplicaSet, Pod, Job or
    /// CronJob are logged at RequestResponse (request and response bodies); reads at Request
    /// (there is no request body to log); the kubelets' status patches at Request; Leases and
    /// EndpointSlices at Metadata; core Events and the kubelets' node reads not at all.
    pub fn eks() -> Policy {
        let rr = vec![Stage::RequestReceived];
        let mut rules = Vec::new();
        let mut r = PolicyRule::new(Level::None, "EKS (from GCE's reference policy): the nodes' reads of their Node are high-volume and low-risk, so drop them");
        r.user_groups = strs(&["system:nodes"]);
        r.verbs = strs(&["get"]);
        r.resources = vec![core(&["nodes", "nodes/status"])];
        rules.push(r);
        let mut r = PolicyRule::new(Level::None, "EKS: don't log these read-only URLs");
        r.non_resource_urls = strs(&["/healthz*", "/version", "/swagger*"]);
        rules.push(r);
        let mut r = PolicyRule::new(Level::None, "EKS: don't log events requests (core/v1 Events)");
        r.resources = vec![core(&["events"])];
        rules.push(r);
        let mut r = PolicyRule::new(Level::Request, "EKS: node and pod status calls from nodes are high-volume and can be large; don't log their responses");
        r.user_groups = strs(&["system:nodes"]);
        r.verbs = strs(&["update", "patch"]);
        r.resources = vec![core(&["nodes/status", "pods/status"])];
        r.omit_stages = rr.clone();
        rules.push(r);
        let mut r = PolicyRule::new(Level::Request, "EKS: deletecollection calls can be large; don't log responses for expected namespace deletions");
        r.users = strs(&["system:serviceaccount:kube-system:namespace-controller"]);
        r.verbs = strs(&["deletecollection"]);
        r.omit_stages = rr.clone();
        rules.push(r);
        let mut r = PolicyRule::new(Level::Metadata, "EKS: Secrets and ConfigMaps can contain sensitive and binary data, so only log at the Metadata level");
        r.resources = vec![core(&["secrets", "configmaps"])];
        r.omit_stages = rr.clone();
        rules.push(r);
        let mut r = PolicyRule::new(Level::Request, "EKS: get responses can be large; skip them");
        r.verbs = strs(&["get", "list", "watch"]);
        r.resources = known_groups();
        r.omit_stages = rr.clone();
        rules.push(r);
        let mut r = PolicyRule::new(Level::RequestResponse, "EKS: default level for known APIs (every write to a Deployment, ReplicaSet, Pod and its binding, Job...)");
        r.resources = known_groups();
        r.omit_stages = rr.clone();
        rules.push(r);
        let mut r = PolicyRule::new(Level::Metadata, "EKS: default level for all other requests");
        r.omit_stages = rr;
        rules.push(r);
        Policy { rules, omit_stages: vec![], omit_managed_fields: false }
    }

    /// `EvaluatePolicyRule`: the first matching rule's level, stages (the policy's unioned in)
    /// and managed-fields setting; `None` when no rule matches.
    pub fn evaluate(&self, a: &Attributes) -> RequestAuditConfig {
        for rule in &self.rules {
            if rule_matches(rule, a) {
                let mut omit = self.omit_stages.clone();
                for s in &rule.omit_stages {
                    if !omit.contains(s) {
                        omit.push(*s);
                    }
                }
                omit.sort();
                return RequestAuditConfig { level: rule.level, omit_stages: omit, omit_managed_fields: rule.omit_managed_fields.unwrap_or(self.omit_managed_fields) };
            }
        }
        RequestAuditConfig { level: Level::None, omit_stages: self.omit_stages.clone(), omit_managed_fields: self.omit_managed_fields }
    }

    /// The policy as a YAML document (block style, fields in the Go struct's order), each rule
    /// under a comment saying where it comes from.
    pub fn to_yaml(&self) -> String {
        let mut s = String::from("apiVersion: audit.k8s.io/v1\nkind: Policy\n");
        fn list(s: &mut String, indent: &str, key: &str, items: &[String]) {
            if items.is_empty() {
                return;
            }
            let _ = writeln!(s, "{indent}{key}:");
            for i in items {
                let _ = writeln!(s, "{indent}- {}", yaml_scalar(i));
            }
        }
        s.push_str("rules:\n");
        for r in &self.rules {
            if !r.comment.is_empty() {
                let _ = writeln!(s, "# {}", r.comment);
            }
            let _ = writeln!(s, "- level: {}", r.level.as_str());
            list(&mut s, "  ", "users", &r.users);
            list(&mut s, "  ", "userGroups", &r.user_groups);
            list(&mut s, "  ", "verbs", &r.verbs);
            if !r.resources.is_empty() {
                s.push_str("  resources:\n");
                for g in &r.resources {
                    let _ = writeln!(s, "  - group: {}", yaml_scalar(&g.group));
                    list(&mut s, "    ", "resources", &g.resources);
                    list(&mut s, "    ", "resourceNames", &g.resource_names);
                }
            }
            list(&mut s, "  ", "namespaces", &r.namespaces);
            list(&mut s, "  ", "nonResourceURLs", &r.non_resource_urls);
            let stages: Vec<String> = r.omit_stages.iter().map(|st| st.as_str().to_string()).collect();
            list(&mut s, "  ", "omitStages", &stages);
            if let Some(b) = r.omit_managed_fields {
                let _ = writeln!(s, "  omitManagedFields: {}", b);
            }
        }
        let stages: Vec<String> = self.omit_stages.iter().map(|st| st.as_str().to_string()).collect();
        list(&mut s, "", "omitStages", &stages);
        if self.omit_managed_fields {
            s.push_str("omitManagedFields: true\n");
        }
        s
    }
}

/// A YAML plain scalar when that reads back as the same string, else double-quoted.
fn yaml_scalar(v: &str) -> String {
    let plain = !v.is_empty()
        && !v.starts_with(['*', '&', '!', '|', '>', '\'', '"', '%', '@', '`', '-', '?', ':', '[', ']', '{', '}', '#', ',', ' '])
        && !v.contains(": ")
        && !v.contains(" #")
        && !v.ends_with([' ', ':'])
        && !matches!(v, "true" | "false" | "null" | "~" | "yes" | "no" | "on" | "off")
        && v.parse::<f64>().is_err();
    if plain {
        v.to_string()
    } else {
        serde_json::to_string(v).unwrap_or_default()
    }
}

/// `ruleMatches`.
fn rule_matches(r: &PolicyRule, a: &Attributes) -> bool {
    if !r.users.is_empty() && !r.users.iter().any(|u| u == a.user) {
        return false;
    }
    if !r.user_groups.is_empty() && !a.groups.iter().any(|g| r.user_groups.contains(g)) {
        return false;
    }
    if !r.verbs.is_empty() && !r.verbs.iter().any(|v| v == a.verb) {
        return false;
    }
    if !r.namespaces.is_empty() || !r.resources.is_empty() {
        return rule_matches_resource(r, a);
    }
    if !r.non_resource_urls.is_empty() {
        return !a.resource_request && r.non_resource_urls.iter().any(|spec| path_matches(a.path, spec));
    }
    true
}

/// `pathMatches`: `*`, an exact path, or a prefix ending in `*`.
fn path_matches(path: &str, spec: &str) -> bool {
    spec == "*" || spec == path || spec.strip_suffix('*').is_some_and(|p| path.starts_with(p.trim_end_matches('*')))
}

/// `ruleMatchesResource`.
fn rule_matches_resource(r: &PolicyRule, a: &Attributes) -> bool {
    if !a.resource_request {
        return false;
    }
    if !r.namespaces.is_empty() && !r.namespaces.iter().any(|n| n == a.namespace) {
        return false;
    }
    if r.resources.is_empty() {
        return true;
    }
    let combined = if a.subresource.is_empty() { a.resource.to_string() } else { format!("{}/{}", a.resource, a.subresource) };
    for gr in &r.resources {
        if gr.group != a.api_group && gr.group != "*" {
            continue;
        }
        if gr.resources.is_empty() {
            return true;
        }
        for res in &gr.resources {
            if !gr.resource_names.is_empty() && !gr.resource_names.iter().any(|n| n == a.name) {
                continue;
            }
            if *res == combined || res == "*" {
                return true;
            }
            if !a.subresource.is_empty() && res.strip_prefix("*/") == Some(a.subresource) {
                return true;
            }
            if res.strip_suffix("/*") == Some(a.resource) {
                return true;
            }
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn attrs<'a>(user: &'a str, groups: &'a [String], verb: &'a str, group: &'a str, resource: &'a str, sub: &'a str, ns: &'a str) -> Attributes<'a> {
        Attributes { user, groups, verb, resource_request: true, namespace: ns, api_group: group, resource, subresource: sub, name: "x", path: "/" }
    }

    /// (case, user, groups, verb, group, resource, subresource, namespace, level the EKS policy gives)
    const EKS_TABLE: &[(&str, &str, &[&str], &str, &str, &str, &str, &str, Level)] = &[
        ("kubectl creates a Deployment", "kubernetes-admin", &["kubeadm:cluster-admins", "system:authenticated"], "create", "apps", "deployments", "", "default", Level::RequestResponse),
        ("the deployment controller creates a ReplicaSet", "system:serviceaccount:kube-system:deployment-controller", &["system:serviceaccounts"], "create", "apps", "replicasets", "", "default", Level::RequestResponse),
        ("the replicaset controller creates a Pod", "system:serviceaccount:kube-system:replicaset-controller", &["system:serviceaccounts"], "create", "", "pods", "", "default", Level::RequestResponse),
        ("the scheduler binds a Pod (pods/binding is under core's known API)", "system:kube-scheduler", &["system:authenticated"], "create", "", "pods", "binding", "default", Level::RequestResponse),
        ("a Job update", "system:serviceaccount:kube-system:job-controller", &[], "update", "batch", "jobs", "status", "default", Level::RequestResponse),
        ("a list of Pods: Request (reads)", "kubernetes-admin", &[], "list", "", "pods", "", "default", Level::Request),
        ("a watch of ReplicaSets", "system:serviceaccount:kube-system:deployment-controller", &[], "watch", "apps", "replicasets", "", "", Level::Request),
        ("the kubelet patches a Pod's status", "system:node:node-1", &["system:nodes", "system:authenticated"], "patch", "", "pods", "status", "default", Level::Request),
        ("the kubelet reads its Node: dropped", "system:node:node-1", &["system:nodes", "system:authenticated"], "get", "", "nodes", "", "", Level::None),
        ("the kubelet renews its Lease: not a known API", "system:node:node-1", &["system:nodes"], "update", "coordination.k8s.io", "leases", "", "kube-node-lease", Level::Metadata),
        ("a core Event: dropped", "system:serviceaccount:kube-system:replicaset-controller", &[], "create", "", "events", "", "default", Level::None),
        ("an events.k8s.io Event: Metadata", "system:kube-scheduler", &[], "create", "events.k8s.io", "events", "", "default", Level::Metadata),
        ("a Secret: Metadata even for writes", "kubernetes-admin", &[], "create", "", "secrets", "", "default", Level::Metadata),
        ("namespace deletion's deletecollection", "system:serviceaccount:kube-system:namespace-controller", &[], "deletecollection", "apps", "deployments", "", "shop", Level::Request),
        ("EndpointSlices: Metadata", "system:serviceaccount:kube-system:endpointslice-controller", &[], "create", "discovery.k8s.io", "endpointslices", "", "default", Level::Metadata),
    ];

    #[test]
    fn eks_policy_table() {
        let p = Policy::eks();
        for (case, user, groups, verb, group, resource, sub, ns, want) in EKS_TABLE {
            let groups: Vec<String> = groups.iter().map(|s| s.to_string()).collect();
            let got = p.evaluate(&attrs(user, &groups, verb, group, resource, sub, ns));
            assert_eq!(got.level, *want, "{}", case);
            if got.level != Level::None {
                assert!(got.omits(Stage::RequestReceived), "{}", case);
            }
        }
        let nr = Attributes { resource_request: false, path: "/healthz/ready", ..attrs("u", &[], "get", "", "", "", "") };
        assert_eq!(p.evaluate(&nr).level, Level::None);
        let nr = Attributes { resource_request: false, path: "/metrics", ..attrs("u", &[], "get", "", "", "", "") };
        assert_eq!(p.evaluate(&nr).level, Level::Metadata);
    }

    #[test]
    fn checker_matching_rules() {
        let mut r = PolicyRule::new(Level::Request, "");
        r.resources = vec![GroupResources { group: "".into(), resources: strs(&["pods"]), resource_names: vec![] }];
        let p = Policy { rules: vec![r.clone()], omit_stages: vec![Stage::RequestReceived], omit_managed_fields: false };
        let g: Vec<String> = vec![];
        // "pods" does not match a subresource; no match is level None with the policy's stages
        assert_eq!(p.evaluate(&attrs("u", &g, "create", "", "pods", "binding", "d")).level, Level::None);
        assert_eq!(p.evaluate(&attrs("u", &g, "create", "", "pods", "", "d")).omit_stages, vec![Stage::RequestReceived]);
        for (res, sub, want) in [("*/binding", "binding", true), ("pods/*", "status", true), ("pods/*", "", true), ("*", "log", true), ("*/status", "binding", false)] {
            let mut r = r.clone();
            r.resources[0].resources = strs(&[res]);
            let p = Policy { rules: vec![r], omit_stages: vec![], omit_managed_fields: false };
            assert_eq!(p.evaluate(&attrs("u", &g, "get", "", "pods", sub, "d")).level == Level::Request, want, "{} vs pods/{}", res, sub);
        }
        // resource names and namespaces
        let mut r = r.clone();
        r.resources[0].resource_names = strs(&["y"]);
        r.namespaces = strs(&["kube-system"]);
        let p = Policy { rules: vec![r], omit_stages: vec![], omit_managed_fields: true };
        assert_eq!(p.evaluate(&attrs("u", &g, "get", "", "pods", "", "kube-system")).level, Level::None);
        let a = Attributes { name: "y", ..attrs("u", &g, "get", "", "pods", "", "kube-system") };
        let got = p.evaluate(&a);
        assert_eq!((got.level, got.omit_managed_fields), (Level::Request, true));
        assert_eq!(p.evaluate(&Attributes { namespace: "default", ..a }).level, Level::None);
        assert!(path_matches("/healthz", "/healthz*") && path_matches("/x", "*") && !path_matches("/versions", "/version"));
    }

    #[test]
    fn policy_prints_as_yaml_that_reads_back() {
        let y = Policy::eks().to_yaml();
        assert!(y.starts_with("apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n# EKS"), "{}", y);
        let v: serde_json::Value = serde_yaml::from_str(&y).expect("yaml");
        assert_eq!(v["rules"].as_array().map(|a| a.len()), Some(9));
        assert_eq!(v["rules"][2]["resources"][0]["group"], "");
        assert_eq!(v["rules"][1]["nonResourceURLs"][0], "/healthz*");
        assert_eq!(v["rules"][7]["level"], "RequestResponse");
        assert_eq!(yaml_scalar("system:nodes"), "system:nodes");
        assert_eq!(yaml_scalar("*"), "\"*\"");
    }
}
