//! The RBAC authorizer and the rule resolution it shares with escalation checks and the
//! SelfSubjectRulesReview.
//!
//! Real counterparts: `plugin/pkg/auth/authorizer/rbac/rbac.go` (`Authorize`: the first rule that
//! allows wins, its source is the reason; a denial's reason lists the resolution errors),
//! `pkg/registry/rbac/validation/rule.go` (`VisitRulesFor`: ClusterRoleBindings, then the
//! namespace's RoleBindings; `appliesTo`; the describers; `ConfirmNoEscalation`) and
//! `staging/src/k8s.io/component-helpers/auth/rbac/validation` + `pkg/apis/rbac/v1/evaluation_helpers.go`
//! (`RuleAllows`, `VerbMatches`, `ResourceMatches` with `*/subresource`, `NonResourceURLMatches`
//! with a trailing `*`).
//!
//! The policy is kube-apiserver's own view of the RBAC objects (upstream: its informers; here:
//! built from the watch cache after an RBAC object changes) and is typed: no JSON is read while a
//! request is authorized.
//!
//! What kubesim simplifies: bindings are visited in name order (upstream's listers return them in
//! map order, so which of several allowing bindings is named can differ between servers).

use super::{Attributes, Authorized, Decision};
use crate::api::field::go_quote;
use crate::api::meta;
use serde_json::Value;
use std::collections::BTreeMap;

pub const GROUP: &str = "rbac.authorization.k8s.io";

/// `rbacv1.PolicyRule`.
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct PolicyRule {
    pub verbs: Vec<String>,
    pub api_groups: Vec<String>,
    pub resources: Vec<String>,
    pub resource_names: Vec<String>,
    pub non_resource_urls: Vec<String>,
}

fn strings(v: &Value, key: &str) -> Vec<String> {
    meta::get_array(v, &[key]).iter().filter_map(Value::as_str).map(str::to_string).collect()
}

impl PolicyRule {
    pub fn from_json(v: &Value) -> PolicyRule {
        PolicyRule {
            verbs: strings(v, "verbs"),
            api_groups: strings(v, "apiGroups"),
            resources: strings(v, "resources"),
            resource_names: strings(v, "resourceNames"),
            non_resource_urls: strings(v, "nonResourceURLs"),
        }
    }

    pub fn to_json(&self) -> Value {
        let mut m = serde_json::Map::new();
        for (k, v) in [("verbs", &self.verbs), ("apiGroups", &self.api_groups), ("resources", &self.resources), ("resourceNames", &self.resource_names), ("nonResourceURLs", &self.non_resource_urls)] {
            if !v.is_empty() || k == "verbs" {
                m.insert(k.into(), Value::from(v.clone()));
            }
        }
        Value::Object(m)
    }

    /// `CompactString`: `{APIGroups:["apps"], Resources:["deployments"], Verbs:["get" "list"]}`.
    pub fn compact_string(&self) -> String {
        let q = |v: &Vec<String>| v.iter().map(|s| go_quote(s)).collect::<Vec<_>>().join(" ");
        let mut parts = Vec::new();
        for (label, v) in [("APIGroups", &self.api_groups), ("Resources", &self.resources), ("NonResourceURLs", &self.non_resource_urls), ("ResourceNames", &self.resource_names), ("Verbs", &self.verbs)] {
            if !v.is_empty() {
                parts.push(format!("{}:[{}]", label, q(v)));
            }
        }
        format!("{{{}}}", parts.join(", "))
    }
}

fn has_all_or(list: &[String], want: &str) -> bool {
    list.iter().any(|x| x == "*" || x == want)
}

/// `VerbMatches`.
pub fn verb_matches(rule: &PolicyRule, verb: &str) -> bool {
    has_all_or(&rule.verbs, verb)
}

/// `APIGroupMatches`.
pub fn api_group_matches(rule: &PolicyRule, group: &str) -> bool {
    has_all_or(&rule.api_groups, group)
}

/// `ResourceMatches`: `*`, the combined `resource/subresource`, or `*/subresource`.
pub fn resource_matches(rule: &PolicyRule, combined: &str, subresource: &str) -> bool {
    rule.resources.iter().any(|r| {
        r == "*" || r == combined || (!subresource.is_empty() && r.len() == subresource.len() + 2 && r.starts_with("*/") && r.ends_with(subresource))
    })
}

/// `ResourceNameMatches`: no names means every name.
pub fn resource_name_matches(rule: &PolicyRule, name: &str) -> bool {
    rule.resource_names.is_empty() || rule.resource_names.iter().any(|n| n == name)
}

/// `NonResourceURLMatches`: `*`, the path, or a prefix ending in `*`.
pub fn non_resource_url_matches(rule: &PolicyRule, path: &str) -> bool {
    rule.non_resource_urls.iter().any(|u| u == "*" || u == path || (u.ends_with('*') && path.starts_with(&u[..u.len() - 1])))
}

/// `RuleAllows`.
pub fn rule_allows(attrs: &Attributes, rule: &PolicyRule) -> bool {
    if attrs.resource_request {
        let combined = if attrs.subresource.is_empty() { attrs.resource.clone() } else { format!("{}/{}", attrs.resource, attrs.subresource) };
        verb_matches(rule, &attrs.verb) && api_group_matches(rule, &attrs.api_group) && resource_matches(rule, &combined, &attrs.subresource) && resource_name_matches(rule, &attrs.name)
    } else {
        verb_matches(rule, &attrs.verb) && non_resource_url_matches(rule, &attrs.path)
    }
}

/// `RulesAllow`.
pub fn rules_allow(attrs: &Attributes, rules: &[PolicyRule]) -> bool {
    rules.iter().any(|r| rule_allows(attrs, r))
}

/// `rbacv1.Subject`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Subject {
    pub kind: String,
    pub name: String,
    pub namespace: String,
}

impl Subject {
    /// `describeSubject`: `Group "x"`, `ServiceAccount "name/namespace"`.
    fn describe(&self) -> String {
        if self.kind == "ServiceAccount" {
            format!("{} {}", self.kind, go_quote(&format!("{}/{}", self.name, self.namespace)))
        } else {
            format!("{} {}", self.kind, go_quote(&self.name))
        }
    }

    /// `appliesToUser`; a ServiceAccount subject of a RoleBinding defaults to its namespace.
    fn applies_to(&self, user: &str, groups: &[String], binding_ns: &str) -> bool {
        match self.kind.as_str() {
            "User" => user == self.name,
            "Group" => groups.iter().any(|g| *g == self.name),
            "ServiceAccount" => {
                let ns = if self.namespace.is_empty() { binding_ns } else { &self.namespace };
                !ns.is_empty() && user == format!("system:serviceaccount:{}:{}", ns, self.name)
            }
            _ => false,
        }
    }
}

/// A RoleBinding or ClusterRoleBinding (namespace empty).
#[derive(Clone, Debug)]
pub struct Binding {
    pub name: String,
    pub namespace: String,
    pub role_kind: String,
    pub role_name: String,
    pub subjects: Vec<Subject>,
}

impl Binding {
    pub fn from_json(v: &Value) -> Binding {
        Binding {
            name: meta::name(v).to_string(),
            namespace: meta::namespace(v).to_string(),
            role_kind: meta::get_str(v, &["roleRef", "kind"]).to_string(),
            role_name: meta::get_str(v, &["roleRef", "name"]).to_string(),
            subjects: meta::get_array(v, &["subjects"])
                .iter()
                .map(|s| Subject { kind: meta::get_str(s, &["kind"]).to_string(), name: meta::get_str(s, &["name"]).to_string(), namespace: meta::get_str(s, &["namespace"]).to_string() })
                .collect(),
        }
    }

    /// The clusterRoleBindingDescriber / roleBindingDescriber source of an allow.
    fn describe(&self, subject: &Subject) -> String {
        if self.namespace.is_empty() {
            format!("ClusterRoleBinding {} of {} {} to {}", go_quote(&self.name), self.role_kind, go_quote(&self.role_name), subject.describe())
        } else {
            format!("RoleBinding {} of {} {} to {}", go_quote(&format!("{}/{}", self.name, self.namespace)), self.role_kind, go_quote(&self.role_name), subject.describe())
        }
    }
}

/// kube-apiserver's view of the RBAC objects, typed.
#[derive(Clone, Debug, Default)]
pub struct Policy {
    pub cluster_roles: BTreeMap<String, Vec<PolicyRule>>,
    /// (namespace, name)
    pub roles: BTreeMap<(String, String), Vec<PolicyRule>>,
    /// in name order
    pub cluster_role_bindings: Vec<Binding>,
    /// by namespace, in name order
    pub role_bindings: BTreeMap<String, Vec<Binding>>,
    /// `bootstrappolicy.NodeRules()`: what the Node authorizer allows outside its graph.
    pub node_rules: Vec<PolicyRule>,
}

impl Policy {
    /// The policy of these RBAC objects (any order).
    pub fn from_objects<'a>(objects: impl Iterator<Item = &'a Value>) -> Policy {
        let mut p = Policy { node_rules: super::bootstrappolicy::node_rules(), ..Policy::default() };
        for o in objects {
            let rules = || meta::get_array(o, &["rules"]).iter().map(PolicyRule::from_json).collect::<Vec<_>>();
            match meta::get_str(o, &["kind"]) {
                "ClusterRole" => {
                    p.cluster_roles.insert(meta::name(o).to_string(), rules());
                }
                "Role" => {
                    p.roles.insert((meta::namespace(o).to_string(), meta::name(o).to_string()), rules());
                }
                "ClusterRoleBinding" => p.cluster_role_bindings.push(Binding::from_json(o)),
                "RoleBinding" => p.role_bindings.entry(meta::namespace(o).to_string()).or_default().push(Binding::from_json(o)),
                _ => {}
            }
        }
        p.cluster_role_bindings.sort_by(|a, b| a.name.cmp(&b.name));
        for v in p.role_bindings.values_mut() {
            v.sort_by(|a, b| a.name.cmp(&b.name));
        }
        p
    }

    /// `GetRoleReferenceRules`.
    fn role_rules(&self, b: &Binding) -> Result<&[PolicyRule], String> {
        match b.role_kind.as_str() {
            "ClusterRole" => self.cluster_roles.get(&b.role_name).map(Vec::as_slice).ok_or_else(|| format!("clusterrole.rbac.authorization.k8s.io {} not found", go_quote(&b.role_name))),
            "Role" => self.roles.get(&(b.namespace.clone(), b.role_name.clone())).map(Vec::as_slice).ok_or_else(|| format!("role.rbac.authorization.k8s.io {} not found", go_quote(&b.role_name))),
            k => Err(format!("unsupported role reference kind: {}", go_quote(k))),
        }
    }

    /// `VisitRulesFor`: each rule that applies to the user in `namespace` with its source, or a
    /// resolution error; the visitor returns false to stop.
    pub fn visit_rules_for(&self, user: &str, groups: &[String], namespace: &str, visitor: &mut dyn FnMut(Option<(&Binding, &Subject)>, Option<&PolicyRule>, Option<String>) -> bool) {
        let namespaced = if namespace.is_empty() { None } else { self.role_bindings.get(namespace) };
        for b in self.cluster_role_bindings.iter().chain(namespaced.into_iter().flatten()) {
            let Some(subject) = b.subjects.iter().find(|s| s.applies_to(user, groups, &b.namespace)) else { continue };
            match self.role_rules(b) {
                Err(e) => {
                    if !visitor(None, None, Some(e)) {
                        return;
                    }
                }
                Ok(rules) => {
                    for r in rules {
                        if !visitor(Some((b, subject)), Some(r), None) {
                            return;
                        }
                    }
                }
            }
        }
    }

    /// `RulesFor`: every rule that applies, and the resolution errors.
    pub fn rules_for(&self, user: &str, groups: &[String], namespace: &str) -> (Vec<PolicyRule>, Vec<String>) {
        let (mut rules, mut errors) = (Vec::new(), Vec::new());
        self.visit_rules_for(user, groups, namespace, &mut |_, r, e| {
            if let Some(r) = r {
                rules.push(r.clone());
            }
            if let Some(e) = e {
                errors.push(e);
            }
            true
        });
        (rules, errors)
    }

    /// `RBACAuthorizer.Authorize`.
    pub fn authorize(&self, attrs: &Attributes) -> Authorized {
        let mut reason = None;
        let mut errors: Vec<String> = Vec::new();
        self.visit_rules_for(&attrs.user, &attrs.groups, &attrs.namespace, &mut |source, rule, err| {
            if let (Some((b, s)), Some(r)) = (source, rule) {
                if rule_allows(attrs, r) {
                    reason = Some(format!("RBAC: allowed by {}", b.describe(s)));
                    return false;
                }
            }
            if let Some(e) = err {
                if !errors.contains(&e) {
                    errors.push(e);
                }
            }
            true
        });
        match reason {
            Some(r) => Authorized { decision: Decision::Allow, reason: r, user: String::new() },
            None => Authorized { decision: Decision::NoOpinion, reason: if errors.is_empty() { String::new() } else { format!("RBAC: {}", aggregate(&errors)) }, user: String::new() },
        }
    }
}

/// `utilerrors.NewAggregate(errs).Error()`.
pub fn aggregate(errors: &[String]) -> String {
    match errors {
        [one] => one.clone(),
        many => format!("[{}]", many.join(", ")),
    }
}

/// `Covers` (component-helpers `validation.Covers`): the requested rules the owner's rules do
/// not cover, each broken into one verb × group × resource × name (`BreakdownRule`).
pub fn uncovered(owner: &[PolicyRule], requested: &[PolicyRule]) -> Vec<PolicyRule> {
    let mut missing = Vec::new();
    for r in requested {
        for sub in breakdown(r) {
            if !owner.iter().any(|o| rule_covers(o, &sub)) {
                missing.push(sub);
            }
        }
    }
    missing
}

/// `BreakdownRule`: one rule per verb × (group × resource × name | URL).
pub fn breakdown(rule: &PolicyRule) -> Vec<PolicyRule> {
    let mut out = Vec::new();
    let one = |s: &String| vec![s.clone()];
    for g in &rule.api_groups {
        for res in &rule.resources {
            for v in &rule.verbs {
                if rule.resource_names.is_empty() {
                    out.push(PolicyRule { verbs: one(v), api_groups: one(g), resources: one(res), ..Default::default() });
                }
                for n in &rule.resource_names {
                    out.push(PolicyRule { verbs: one(v), api_groups: one(g), resources: one(res), resource_names: one(n), ..Default::default() });
                }
            }
        }
    }
    for u in &rule.non_resource_urls {
        for v in &rule.verbs {
            out.push(PolicyRule { verbs: one(v), non_resource_urls: one(u), ..Default::default() });
        }
    }
    out
}

/// `ruleCovers`: the owner rule grants everything the (broken-down) sub-rule asks. A request
/// without resource names is covered only by a rule without names.
fn rule_covers(owner: &PolicyRule, sub: &PolicyRule) -> bool {
    let has = |list: &[String], x: &str| list.iter().any(|l| l == x);
    let has_all = |list: &[String], want: &[String]| want.iter().all(|w| has(list, w));
    let verbs = has(&owner.verbs, "*") || has_all(&owner.verbs, &sub.verbs);
    let groups = has(&owner.api_groups, "*") || has_all(&owner.api_groups, &sub.api_groups);
    // resourceCoversAll: `*`, exact, or `*/subresource`
    let resources = has(&owner.resources, "*")
        || has_all(&owner.resources, &sub.resources)
        || sub.resources.iter().all(|p| has(&owner.resources, p) || p.split_once('/').map(|(_, rest)| has(&owner.resources, &format!("*/{}", rest))).unwrap_or(false));
    // nonResourceURLsCoversAll
    let urls = sub.non_resource_urls.iter().all(|p| owner.non_resource_urls.iter().any(|o| o == p || (o.ends_with('*') && p.starts_with(o.trim_end_matches('*')))));
    let names = if sub.resource_names.is_empty() { owner.resource_names.is_empty() } else { owner.resource_names.is_empty() || has_all(&owner.resource_names, &sub.resource_names) };
    verbs && groups && resources && names && urls
}

/// The rules of the ClusterRoles whose labels match an `aggregationRule`'s selectors (the
/// clusterrole-aggregation controller's union, without duplicates, in role-name order).
pub fn aggregate_rules(selectors: &[Value], roles: &[Value], self_name: &str) -> Vec<PolicyRule> {
    let mut out: Vec<PolicyRule> = Vec::new();
    let mut roles: Vec<&Value> = roles.iter().filter(|r| meta::name(r) != self_name).collect();
    roles.sort_by(|a, b| meta::name(a).cmp(meta::name(b)));
    for sel in selectors {
        for r in &roles {
            if meta::selector_matches(Some(sel), &meta::labels(r)) {
                for rule in meta::get_array(r, &["rules"]).iter().map(PolicyRule::from_json) {
                    if !out.contains(&rule) {
                        out.push(rule);
                    }
                }
            }
        }
    }
    out
}

/// `CompactRules`: rules with one group and one resource that differ only by verb become one.
pub fn compact_rules(rules: &[PolicyRule]) -> Vec<PolicyRule> {
    let mut out: Vec<PolicyRule> = Vec::new();
    for r in rules {
        let simple = r.api_groups.len() == 1 && r.resources.len() == 1 && r.resource_names.is_empty() && r.non_resource_urls.is_empty();
        if simple {
            if let Some(e) = out.iter_mut().find(|e| e.resource_names.is_empty() && e.non_resource_urls.is_empty() && e.api_groups == r.api_groups && e.resources == r.resources) {
                for v in &r.verbs {
                    if !e.verbs.contains(v) {
                        e.verbs.push(v.clone());
                    }
                }
                continue;
            }
        }
        out.push(r.clone());
    }
    out
}

/// What kubectl shows of a set of rules (`describe role`, `auth can-i --list`): broken down,
/// compacted, and sorted as `SortableRuleSlice` sorts (by each rule's generated `String()`).
pub fn rules_as_shown(rules: &[PolicyRule]) -> Vec<PolicyRule> {
    let broken: Vec<PolicyRule> = rules.iter().flat_map(breakdown).collect();
    let mut c = compact_rules(&broken);
    let go_list = |v: &Vec<String>| format!("[{}]", v.join(" "));
    let key = |r: &PolicyRule| format!("&PolicyRule{{Verbs:{},APIGroups:{},Resources:{},ResourceNames:{},NonResourceURLs:{},}}", go_list(&r.verbs), go_list(&r.api_groups), go_list(&r.resources), go_list(&r.resource_names), go_list(&r.non_resource_urls));
    c.sort_by_cached_key(key);
    c
}

#[cfg(test)]
#[path = "rbac_tests.rs"]
mod tests;
