//! Upstream RBAC test tables (see the header below), run against kubesim's authorizer.

// Upstream RBAC authorizer test tables, transcribed into kubesim's API.
//
// Source read: Kubernetes v1.34 as carried by the OpenShift fork, vendored in openshift/microshift
// branch `release-4.21` (commit 473c3de15d9aeeb399aa95250672c07655554015) under
// `deps/github.com/openshift/kubernetes/` (its hyperkube image labels it kubernetes=1.34.9; the
// four files below were last touched there by 94f180d641, 2025-06-04):
//   - plugin/pkg/auth/authorizer/rbac/rbac_test.go                           TestAuthorizer, TestRuleMatches
//   - pkg/registry/rbac/validation/rule_test.go                               TestAppliesTo, TestDefaultRuleResolver
//   - staging/src/k8s.io/component-helpers/auth/rbac/validation/policy_comparator_test.go
//                                                                             TestCovers*, TestNonResourceURLCovers
// The tables are the same as those in kubernetes/kubernetes rbac_test.go @90d6cfcf171c and
// policy_comparator_test.go @d7ce957d8a87. (Those copies differ only in the Go plumbing:
// ParseFieldSelector vs GetFieldSelector stubs, and []requestToTest vs []*requestToTest.)
//
// How the cases map onto kubesim:
//   - TestAuthorizer: each of upstream's 4 unnamed cases ("case 0".."case 3") is one #[test] here.
//     Objects go through Policy::from_objects, and checks use Policy::authorize (shouldPass means
//     Allow; shouldFail means anything other than Allow). newRule/newRoleBinding/...
//     build the same objects as upstream's helpers. That includes the strings.Split
//     quirk: "" becomes [""]. The bindings have no name, as upstream's do.
//   - TestRuleMatches: rule_allows on the same rules and AttributesRecords.
//   - TestAppliesTo: upstream tests the private `appliesTo(user, subjects, namespace)`. Here each
//     case's subjects go into a binding of a ClusterRole that allows everything. A namespace of ""
//     becomes a ClusterRoleBinding, which is how upstream calls appliesTo with "". Any other
//     namespace becomes a RoleBinding in that namespace, and the request is made there.
//     appliesTo=true means Allow. Upstream's `index` (which subject matched) is checked through
//     the allow reason, which ends in upstream's describeSubject of that subject.
//   - TestDefaultRuleResolver: uses Policy::rules_for (RulesFor). The rules are compared as a
//     sorted multiset, as upstream sorts by hash, and no resolution errors are expected.
//   - TestCovers*: one #[test] each. uncovered() is empty iff covered. The uncovered rules are
//     compared order-insensitively, like upstream's rulesMatch.
//   - TestNonResourceURLCovers: upstream tests the private nonResourceURLCovers(owner, requested).
//     Here each case runs through uncovered() with owner {NonResourceURLs:[owner], Verbs:[get]} and
//     requested {NonResourceURLs:[requested], Verbs:[get]}. For such rules, upstream's Covers reduces to
//     exactly nonResourceURLCovers, because verbs, groups, resources and names all trivially match.
//
// Left out (nothing that is a test table):
//   - BenchmarkAuthorize (rbac_test.go): a benchmark over the bootstrap policy, not a table.
//   - defaultAttributes.GetFieldSelector/GetLabelSelector: upstream stubs them to panic ("not
//     supported for RBAC"), and no RBAC case uses selectors. No v1.34 RBAC table tests
//     field/label selector attributes or AuthorizeWithSelectors.
//   - Attributes that kubesim lacks (IsReadOnly, GetAPIVersion) are never looked at by RBAC.

use super::super::{Attributes, Decision};
use super::*;
use serde_json::json;

// ---------------------------------------------------------------------------------------------
// helpers (mirroring upstream's test helpers)
// ---------------------------------------------------------------------------------------------

/// Go's `strings.Split(s, ",")`: "" gives [""].
fn split(s: &str) -> Vec<String> {
    s.split(',').map(str::to_string).collect()
}

fn strs(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

/// rbac_test.go `newRule(verbs, apiGroups, resources, nonResourceURLs string)`.
fn new_rule(verbs: &str, api_groups: &str, resources: &str, non_resource_urls: &str) -> Value {
    json!({
        "verbs": split(verbs),
        "apiGroups": split(api_groups),
        "resources": split(resources),
        "nonResourceURLs": split(non_resource_urls),
    })
}

/// rbac_test.go `newClusterRole(name, rules...)`.
fn new_cluster_role(name: &str, rules: Vec<Value>) -> Value {
    json!({"kind": "ClusterRole", "metadata": {"name": name}, "rules": rules})
}

/// rbac_test.go `bindToClusterRole` (upstream's only other choice, bindToRole, is unused by its tables).
const BIND_TO_CLUSTER_ROLE: &str = "ClusterRole";

/// The subject parsing shared by `newClusterRoleBinding` / `newRoleBinding`: "Kind:name", with
/// apiGroup "" for ServiceAccount and rbac.authorization.k8s.io for User/Group.
fn subjects_of(subjects: &[&str]) -> Vec<Value> {
    subjects
        .iter()
        .map(|s| {
            let (kind, name) = s.split_once(':').expect("Kind:name");
            let api_group = match kind {
                "ServiceAccount" => "",
                "User" | "Group" => "rbac.authorization.k8s.io",
                k => panic!("invalid kind {k}"),
            };
            json!({"kind": kind, "name": name, "apiGroup": api_group})
        })
        .collect()
}

/// rbac_test.go `newClusterRoleBinding(roleName, subjects...)` (no name, as upstream).
fn new_cluster_role_binding(role_name: &str, subjects: &[&str]) -> Value {
    json!({
        "kind": "ClusterRoleBinding",
        "metadata": {},
        "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": role_name},
        "subjects": subjects_of(subjects),
    })
}

/// rbac_test.go `newRoleBinding(namespace, roleName, bindType, subjects...)` (no name, as upstream).
fn new_role_binding(namespace: &str, role_name: &str, bind_type: &str, subjects: &[&str]) -> Value {
    json!({
        "kind": "RoleBinding",
        "metadata": {"namespace": namespace},
        "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": bind_type, "name": role_name},
        "subjects": subjects_of(subjects),
    })
}

/// rbac_test.go `&defaultAttributes{user, groups, verb, resource, subresource, namespace, apiGroup}`:
/// groups comma-separated (strings.Split, so "" is [""]), name "", a resource request.
fn default_attributes(user: &str, groups: &str, verb: &str, resource: &str, subresource: &str, namespace: &str, api_group: &str) -> Attributes {
    Attributes {
        user: user.into(),
        groups: split(groups),
        verb: verb.into(),
        resource: resource.into(),
        subresource: subresource.into(),
        namespace: namespace.into(),
        api_group: api_group.into(),
        name: String::new(),
        path: String::new(),
        resource_request: true,
    }
}

/// `authorizer.AttributesRecord{User: &user.DefaultInfo{Name: name}, Verb: verb, Path: path}`.
fn nonresource_user(name: &str, verb: &str, path: &str) -> Attributes {
    Attributes { user: name.into(), verb: verb.into(), path: path.into(), resource_request: false, ..Default::default() }
}

/// `authorizer.AttributesRecord{User: &user.DefaultInfo{Groups: []string{group}}, Verb: verb, Path: path}`.
fn nonresource_group(group: &str, verb: &str, path: &str) -> Attributes {
    Attributes { groups: strs(&[group]), verb: verb.into(), path: path.into(), resource_request: false, ..Default::default() }
}

/// TestAuthorizer's loop: every shouldPass must be Allow, every shouldFail must not be.
fn check_authorizer(case: &str, objects: Vec<Value>, should_pass: Vec<Attributes>, should_fail: Vec<Attributes>) {
    let policy = Policy::from_objects(objects.iter());
    let mut errors = Vec::new();
    for attr in &should_pass {
        let got = policy.authorize(attr);
        if got.decision != Decision::Allow {
            errors.push(format!("{case}: incorrectly restricted {attr:?} (reason {:?})", got.reason));
        }
    }
    for attr in &should_fail {
        let got = policy.authorize(attr);
        if got.decision == Decision::Allow {
            errors.push(format!("{case}: incorrectly passed {attr:?} (reason {:?})", got.reason));
        }
    }
    assert!(errors.is_empty(), "{}", errors.join("\n"));
}

// ---------------------------------------------------------------------------------------------
// rbac_test.go TestAuthorizer
// ---------------------------------------------------------------------------------------------

/// TestAuthorizer case 0: ClusterRole admin (*,*,*,*) bound in ns1 to User:admin, Group:admins.
#[test]
fn upstream_test_authorizer_case_0_admin_rolebinding() {
    check_authorizer(
        "TestAuthorizer case 0",
        vec![
            new_cluster_role("admin", vec![new_rule("*", "*", "*", "*")]),
            new_role_binding("ns1", "admin", BIND_TO_CLUSTER_ROLE, &["User:admin", "Group:admins"]),
        ],
        vec![
            default_attributes("admin", "", "get", "Pods", "", "ns1", ""),
            default_attributes("admin", "", "watch", "Pods", "", "ns1", ""),
            default_attributes("admin", "group1", "watch", "Foobar", "", "ns1", ""),
            default_attributes("joe", "admins", "watch", "Foobar", "", "ns1", ""),
            default_attributes("joe", "group1,admins", "watch", "Foobar", "", "ns1", ""),
        ],
        vec![
            default_attributes("admin", "", "GET", "Pods", "", "ns2", ""),
            default_attributes("admin", "", "GET", "Nodes", "", "", ""),
            default_attributes("admin", "admins", "GET", "Pods", "", "ns2", ""),
            default_attributes("admin", "admins", "GET", "Nodes", "", "", ""),
        ],
    );
}

/// TestAuthorizer case 1: "Non-resource-url tests".
#[test]
fn upstream_test_authorizer_case_1_non_resource_urls() {
    check_authorizer(
        "TestAuthorizer case 1 (Non-resource-url tests)",
        vec![
            new_cluster_role("non-resource-url-getter", vec![new_rule("get", "", "", "/apis")]),
            new_cluster_role("non-resource-url", vec![new_rule("*", "", "", "/apis")]),
            new_cluster_role("non-resource-url-prefix", vec![new_rule("get", "", "", "/apis/*")]),
            new_cluster_role_binding("non-resource-url-getter", &["User:foo", "Group:bar"]),
            new_cluster_role_binding("non-resource-url", &["User:admin", "Group:admin"]),
            new_cluster_role_binding("non-resource-url-prefix", &["User:prefixed", "Group:prefixed"]),
        ],
        vec![
            nonresource_user("foo", "get", "/apis"),
            nonresource_group("bar", "get", "/apis"),
            nonresource_user("admin", "get", "/apis"),
            nonresource_group("admin", "get", "/apis"),
            nonresource_user("admin", "watch", "/apis"),
            nonresource_group("admin", "watch", "/apis"),
            //
            nonresource_user("prefixed", "get", "/apis/v1"),
            nonresource_group("prefixed", "get", "/apis/v1"),
            nonresource_user("prefixed", "get", "/apis/v1/foobar"),
            nonresource_group("prefixed", "get", "/apis/v1/foorbar"),
        ],
        vec![
            // wrong verb
            nonresource_user("foo", "watch", "/apis"),
            nonresource_group("bar", "watch", "/apis"),
            // wrong path
            nonresource_user("foo", "get", "/api/v1"),
            nonresource_group("bar", "get", "/api/v1"),
            nonresource_user("admin", "get", "/api/v1"),
            nonresource_group("admin", "get", "/api/v1"),
            // not covered by prefix
            nonresource_user("prefixed", "get", "/api/v1"),
            nonresource_group("prefixed", "get", "/api/v1"),
        ],
    );
}

/// TestAuthorizer case 2: "test subresource resolution" (rule on `pods` only).
#[test]
fn upstream_test_authorizer_case_2_subresource_resolution_pods() {
    check_authorizer(
        "TestAuthorizer case 2 (test subresource resolution: pods)",
        vec![
            new_cluster_role("admin", vec![new_rule("*", "*", "pods", "*")]),
            new_role_binding("ns1", "admin", BIND_TO_CLUSTER_ROLE, &["User:admin", "Group:admins"]),
        ],
        vec![default_attributes("admin", "", "get", "pods", "", "ns1", "")],
        vec![default_attributes("admin", "", "get", "pods", "status", "ns1", "")],
    );
}

/// TestAuthorizer case 3: "test subresource resolution" (rules on `pods/status` and `*/scale`).
#[test]
fn upstream_test_authorizer_case_3_subresource_resolution_status_and_star_scale() {
    check_authorizer(
        "TestAuthorizer case 3 (test subresource resolution: pods/status, */scale)",
        vec![
            new_cluster_role("admin", vec![new_rule("*", "*", "pods/status", "*"), new_rule("*", "*", "*/scale", "*")]),
            new_role_binding("ns1", "admin", BIND_TO_CLUSTER_ROLE, &["User:admin", "Group:admins"]),
        ],
        vec![
            default_attributes("admin", "", "get", "pods", "status", "ns1", ""),
            default_attributes("admin", "", "get", "pods", "scale", "ns1", ""),
            default_attributes("admin", "", "get", "deployments", "scale", "ns1", ""),
            default_attributes("admin", "", "get", "anything", "scale", "ns1", ""),
        ],
        vec![default_attributes("admin", "", "get", "pods", "", "ns1", "")],
    );
}

// ---------------------------------------------------------------------------------------------
// rbac_test.go TestRuleMatches
// ---------------------------------------------------------------------------------------------

/// `rbacv1helpers.NewRule(verbs...).Groups(groups...).Resources(resources...).RuleOrDie()`.
fn new_rule_vgr(verbs: &[&str], groups: &[&str], resources: &[&str]) -> PolicyRule {
    PolicyRule { verbs: strs(verbs), api_groups: strs(groups), resources: strs(resources), ..Default::default() }
}

/// `rbacv1helpers.NewRule(verbs...).URLs(urls...).RuleOrDie()`.
fn new_rule_urls(verbs: &[&str], urls: &[&str]) -> PolicyRule {
    PolicyRule { verbs: strs(verbs), non_resource_urls: strs(urls), ..Default::default() }
}

/// `resourceRequest(verb).Group(group).Resource(resource).New()`.
fn resource_request(verb: &str, group: &str, resource: &str) -> Attributes {
    Attributes { resource_request: true, verb: verb.into(), api_group: group.into(), resource: resource.into(), ..Default::default() }
}

/// `resourceRequest(verb).Group(group).Resource(resource).Subresource(subresource).New()`.
fn resource_request_sub(verb: &str, group: &str, resource: &str, subresource: &str) -> Attributes {
    Attributes { subresource: subresource.into(), ..resource_request(verb, group, resource) }
}

/// `nonresourceRequest(verb).URL(url).New()`.
fn nonresource_request(verb: &str, url: &str) -> Attributes {
    Attributes { resource_request: false, verb: verb.into(), path: url.into(), ..Default::default() }
}

#[test]
fn upstream_test_rule_matches() {
    let tests: Vec<(&str, PolicyRule, Vec<(Attributes, bool)>)> = vec![
        (
            "star verb, exact match other",
            new_rule_vgr(&["*"], &["group1"], &["resource1"]),
            vec![
                (resource_request("verb1", "group1", "resource1"), true),
                (resource_request("verb1", "group2", "resource1"), false),
                (resource_request("verb1", "group1", "resource2"), false),
                (resource_request("verb1", "group2", "resource2"), false),
                (resource_request("verb2", "group1", "resource1"), true),
                (resource_request("verb2", "group2", "resource1"), false),
                (resource_request("verb2", "group1", "resource2"), false),
                (resource_request("verb2", "group2", "resource2"), false),
            ],
        ),
        (
            "star group, exact match other",
            new_rule_vgr(&["verb1"], &["*"], &["resource1"]),
            vec![
                (resource_request("verb1", "group1", "resource1"), true),
                (resource_request("verb1", "group2", "resource1"), true),
                (resource_request("verb1", "group1", "resource2"), false),
                (resource_request("verb1", "group2", "resource2"), false),
                (resource_request("verb2", "group1", "resource1"), false),
                (resource_request("verb2", "group2", "resource1"), false),
                (resource_request("verb2", "group1", "resource2"), false),
                (resource_request("verb2", "group2", "resource2"), false),
            ],
        ),
        (
            "star resource, exact match other",
            new_rule_vgr(&["verb1"], &["group1"], &["*"]),
            vec![
                (resource_request("verb1", "group1", "resource1"), true),
                (resource_request("verb1", "group2", "resource1"), false),
                (resource_request("verb1", "group1", "resource2"), true),
                (resource_request("verb1", "group2", "resource2"), false),
                (resource_request("verb2", "group1", "resource1"), false),
                (resource_request("verb2", "group2", "resource1"), false),
                (resource_request("verb2", "group1", "resource2"), false),
                (resource_request("verb2", "group2", "resource2"), false),
            ],
        ),
        (
            "tuple expansion",
            new_rule_vgr(&["verb1", "verb2"], &["group1", "group2"], &["resource1", "resource2"]),
            vec![
                (resource_request("verb1", "group1", "resource1"), true),
                (resource_request("verb1", "group2", "resource1"), true),
                (resource_request("verb1", "group1", "resource2"), true),
                (resource_request("verb1", "group2", "resource2"), true),
                (resource_request("verb2", "group1", "resource1"), true),
                (resource_request("verb2", "group2", "resource1"), true),
                (resource_request("verb2", "group1", "resource2"), true),
                (resource_request("verb2", "group2", "resource2"), true),
            ],
        ),
        (
            "subresource expansion",
            new_rule_vgr(&["*"], &["*"], &["resource1/subresource1"]),
            vec![
                (resource_request_sub("verb1", "group1", "resource1", "subresource1"), true),
                (resource_request_sub("verb1", "group2", "resource1", "subresource2"), false),
                (resource_request_sub("verb1", "group1", "resource2", "subresource1"), false),
                (resource_request_sub("verb1", "group2", "resource2", "subresource1"), false),
                (resource_request_sub("verb2", "group1", "resource1", "subresource1"), true),
                (resource_request_sub("verb2", "group2", "resource1", "subresource2"), false),
                (resource_request_sub("verb2", "group1", "resource2", "subresource1"), false),
                (resource_request_sub("verb2", "group2", "resource2", "subresource1"), false),
            ],
        ),
        (
            "star nonresource, exact match other",
            new_rule_urls(&["verb1"], &["*"]),
            vec![
                (nonresource_request("verb1", "/foo"), true),
                (nonresource_request("verb1", "/foo/bar"), true),
                (nonresource_request("verb1", "/foo/baz"), true),
                (nonresource_request("verb1", "/foo/bar/one"), true),
                (nonresource_request("verb1", "/foo/baz/one"), true),
                (nonresource_request("verb2", "/foo"), false),
                (nonresource_request("verb2", "/foo/bar"), false),
                (nonresource_request("verb2", "/foo/baz"), false),
                (nonresource_request("verb2", "/foo/bar/one"), false),
                (nonresource_request("verb2", "/foo/baz/one"), false),
            ],
        ),
        (
            "star nonresource subpath",
            new_rule_urls(&["verb1"], &["/foo/*"]),
            vec![
                (nonresource_request("verb1", "/foo"), false),
                (nonresource_request("verb1", "/foo/bar"), true),
                (nonresource_request("verb1", "/foo/baz"), true),
                (nonresource_request("verb1", "/foo/bar/one"), true),
                (nonresource_request("verb1", "/foo/baz/one"), true),
                (nonresource_request("verb1", "/notfoo"), false),
                (nonresource_request("verb1", "/notfoo/bar"), false),
                (nonresource_request("verb1", "/notfoo/baz"), false),
                (nonresource_request("verb1", "/notfoo/bar/one"), false),
                (nonresource_request("verb1", "/notfoo/baz/one"), false),
            ],
        ),
        (
            "star verb, exact nonresource",
            new_rule_urls(&["*"], &["/foo", "/foo/bar/one"]),
            vec![
                (nonresource_request("verb1", "/foo"), true),
                (nonresource_request("verb1", "/foo/bar"), false),
                (nonresource_request("verb1", "/foo/baz"), false),
                (nonresource_request("verb1", "/foo/bar/one"), true),
                (nonresource_request("verb1", "/foo/baz/one"), false),
                (nonresource_request("verb2", "/foo"), true),
                (nonresource_request("verb2", "/foo/bar"), false),
                (nonresource_request("verb2", "/foo/baz"), false),
                (nonresource_request("verb2", "/foo/bar/one"), true),
                (nonresource_request("verb2", "/foo/baz/one"), false),
            ],
        ),
    ];
    let mut errors = Vec::new();
    for (name, rule, requests) in &tests {
        for (request, expected) in requests {
            let got = rule_allows(request, rule);
            if got != *expected {
                errors.push(format!("TestRuleMatches {name:?}: expected {expected}, got {got} for {request:?}"));
            }
        }
    }
    assert!(errors.is_empty(), "{}", errors.join("\n"));
}

// ---------------------------------------------------------------------------------------------
// rule_test.go TestAppliesTo
// ---------------------------------------------------------------------------------------------

/// A `rbacv1.Subject{Kind, Name, Namespace}` (upstream's table sets no APIGroup).
fn subject(kind: &str, name: &str, namespace: &str) -> Value {
    json!({"kind": kind, "name": name, "namespace": namespace})
}

#[test]
fn upstream_test_applies_to() {
    const ALL_AUTHENTICATED: &str = "system:authenticated"; // user.AllAuthenticated
    const ALL_UNAUTHENTICATED: &str = "system:unauthenticated"; // user.AllUnauthenticated
    // (testCase, subjects, user name, user groups, namespace, appliesTo, describeSubject of subjects[index])
    let tests: Vec<(&str, Vec<Value>, &str, Vec<&str>, &str, bool, Option<&str>)> = vec![
        (
            "single subject that matches username",
            vec![subject("User", "foobar", "")],
            "foobar",
            vec![],
            "",
            true,
            Some(r#"User "foobar""#), // index 0
        ),
        (
            "multiple subjects, one that matches username",
            vec![subject("User", "barfoo", ""), subject("User", "foobar", "")],
            "foobar",
            vec![],
            "",
            true,
            Some(r#"User "foobar""#), // index 1
        ),
        (
            "multiple subjects, none that match username",
            vec![subject("User", "barfoo", ""), subject("User", "foobar", "")],
            "zimzam",
            vec![],
            "",
            false,
            None,
        ),
        (
            "multiple subjects, one that match group",
            vec![subject("User", "barfoo", ""), subject("Group", "foobar", "")],
            "zimzam",
            vec!["foobar"],
            "",
            true,
            Some(r#"Group "foobar""#), // index 1
        ),
        (
            "multiple subjects, one that match group, should ignore namespace",
            vec![subject("User", "barfoo", ""), subject("Group", "foobar", "")],
            "zimzam",
            vec!["foobar"],
            "namespace1",
            true,
            Some(r#"Group "foobar""#), // index 1
        ),
        (
            "multiple subjects with a service account that matches",
            vec![subject("User", "barfoo", ""), subject("Group", "foobar", ""), subject("ServiceAccount", "default", "kube-system")],
            "system:serviceaccount:kube-system:default",
            vec![],
            "default",
            true,
            Some(r#"ServiceAccount "default/kube-system""#), // index 2
        ),
        (
            "* user subject name doesn't match all users",
            vec![subject("User", "*", "")],
            "foobar",
            vec![],
            "default",
            false,
            None,
        ),
        (
            "binding to all authenticated and unauthenticated subjects matches authenticated user",
            vec![subject("Group", ALL_AUTHENTICATED, ""), subject("Group", ALL_UNAUTHENTICATED, "")],
            "foobar",
            vec![ALL_AUTHENTICATED],
            "default",
            true,
            Some(r#"Group "system:authenticated""#), // index 0
        ),
        (
            "binding to all authenticated and unauthenticated subjects matches anonymous user",
            vec![subject("Group", ALL_AUTHENTICATED, ""), subject("Group", ALL_UNAUTHENTICATED, "")],
            "system:anonymous",
            vec![ALL_UNAUTHENTICATED],
            "default",
            true,
            Some(r#"Group "system:unauthenticated""#), // index 1
        ),
    ];
    let mut errors = Vec::new();
    for (test_case, subjects, user, groups, namespace, applies_to, described) in tests {
        let role = new_cluster_role("applies-to", vec![json!({"verbs": ["*"], "apiGroups": ["*"], "resources": ["*"]})]);
        let role_ref = json!({"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": "applies-to"});
        // upstream calls appliesTo with "" for ClusterRoleBindings and with the binding's namespace for RoleBindings
        let binding = if namespace.is_empty() {
            json!({"kind": "ClusterRoleBinding", "metadata": {"name": "applies-to"}, "roleRef": role_ref, "subjects": subjects})
        } else {
            json!({"kind": "RoleBinding", "metadata": {"name": "applies-to", "namespace": namespace}, "roleRef": role_ref, "subjects": subjects})
        };
        let objects = [role, binding];
        let policy = Policy::from_objects(objects.iter());
        let attrs = Attributes {
            user: user.into(),
            groups: strs(&groups),
            verb: "get".into(),
            namespace: namespace.into(),
            resource: "pods".into(),
            resource_request: true,
            ..Default::default()
        };
        let got = policy.authorize(&attrs);
        let got_applies = got.decision == Decision::Allow;
        if got_applies != applies_to {
            errors.push(format!("case {test_case:?} want appliesTo={applies_to}, got appliesTo={got_applies} (reason {:?})", got.reason));
            continue;
        }
        if let Some(described) = described {
            if !got.reason.ends_with(&format!(" to {described}")) {
                errors.push(format!("case {test_case:?} want index of subject {described}, got reason {:?}", got.reason));
            }
        }
    }
    assert!(errors.is_empty(), "{}", errors.join("\n"));
}

// ---------------------------------------------------------------------------------------------
// rule_test.go TestDefaultRuleResolver
// ---------------------------------------------------------------------------------------------

#[test]
fn upstream_test_default_rule_resolver() {
    let rule_read_pods = PolicyRule { verbs: strs(&["GET", "WATCH"]), api_groups: strs(&["v1"]), resources: strs(&["pods"]), ..Default::default() };
    let rule_read_services = PolicyRule { verbs: strs(&["GET", "WATCH"]), api_groups: strs(&["v1"]), resources: strs(&["services"]), ..Default::default() };
    let rule_write_nodes = PolicyRule { verbs: strs(&["PUT", "CREATE", "UPDATE"]), api_groups: strs(&["v1"]), resources: strs(&["nodes"]), ..Default::default() };
    let rule_admin = PolicyRule { verbs: strs(&["*"]), api_groups: strs(&["*"]), resources: strs(&["*"]), ..Default::default() };
    let rule_json = |r: &PolicyRule| {
        json!({"verbs": r.verbs, "apiGroups": r.api_groups, "resources": r.resources, "resourceNames": r.resource_names, "nonResourceURLs": r.non_resource_urls})
    };

    // staticRoles1
    let static_roles_1 = vec![
        json!({"kind": "Role", "metadata": {"namespace": "namespace1", "name": "readthings"}, "rules": [rule_json(&rule_read_pods), rule_json(&rule_read_services)]}),
        json!({"kind": "ClusterRole", "metadata": {"name": "cluster-admin"}, "rules": [rule_json(&rule_admin)]}),
        json!({"kind": "ClusterRole", "metadata": {"name": "write-nodes"}, "rules": [rule_json(&rule_write_nodes)]}),
        json!({
            "kind": "RoleBinding",
            "metadata": {"namespace": "namespace1"},
            "subjects": [{"kind": "User", "name": "foobar"}, {"kind": "Group", "name": "group1"}],
            "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "Role", "name": "readthings"},
        }),
        json!({
            "kind": "ClusterRoleBinding",
            "metadata": {},
            "subjects": [{"kind": "User", "name": "admin"}, {"kind": "Group", "name": "admin"}],
            "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": "cluster-admin"},
        }),
    ];
    let policy = Policy::from_objects(static_roles_1.iter());

    // (case, user name, user groups, namespace, effectiveRules)
    let tests: Vec<(&str, &str, Vec<&str>, &str, Vec<PolicyRule>)> = vec![
        ("case 0", "foobar", vec![], "namespace1", vec![rule_read_pods.clone(), rule_read_services.clone()]),
        ("case 1", "foobar", vec![], "namespace2", vec![]),
        // Same as above but without a namespace. Only cluster rules should apply.
        ("case 2", "foobar", vec!["admin"], "", vec![rule_admin.clone()]),
        ("case 3 (empty user)", "", vec![], "", vec![]),
    ];
    let mut errors = Vec::new();
    for (case, user, groups, namespace, effective_rules) in tests {
        let (mut rules, errs) = policy.rules_for(user, &strs(&groups), namespace);
        if !errs.is_empty() {
            errors.push(format!("TestDefaultRuleResolver {case}: GetEffectivePolicyRules(context)={errs:?}"));
            continue;
        }
        let mut want = effective_rules;
        rules.sort();
        want.sort();
        if rules != want {
            errors.push(format!("TestDefaultRuleResolver {case}: got {rules:?}, want {want:?}"));
        }
    }
    assert!(errors.is_empty(), "{}", errors.join("\n"));
}

// ---------------------------------------------------------------------------------------------
// policy_comparator_test.go TestCovers*
// ---------------------------------------------------------------------------------------------

/// `{APIGroups: groups, Verbs: verbs, Resources: resources}` (the field order of upstream's tables).
fn gvr(groups: &[&str], verbs: &[&str], resources: &[&str]) -> PolicyRule {
    PolicyRule { api_groups: strs(groups), verbs: strs(verbs), resources: strs(resources), ..Default::default() }
}

/// `{APIGroups, Verbs, Resources, ResourceNames}`.
fn gvrn(groups: &[&str], verbs: &[&str], resources: &[&str], resource_names: &[&str]) -> PolicyRule {
    PolicyRule { resource_names: strs(resource_names), ..gvr(groups, verbs, resources) }
}

/// `{NonResourceURLs: urls, Verbs: verbs}`.
fn urls(non_resource_urls: &[&str], verbs: &[&str]) -> PolicyRule {
    PolicyRule { non_resource_urls: strs(non_resource_urls), verbs: strs(verbs), ..Default::default() }
}

/// `escalationTest.test`: Covers(owner, servant) == (expectedCovered, expectedUncoveredRules),
/// the rules compared order-insensitively (upstream's rulesMatch).
fn escalation_test(name: &str, owner_rules: Vec<PolicyRule>, servant_rules: Vec<PolicyRule>, expected_covered: bool, expected_uncovered_rules: Vec<PolicyRule>) {
    let mut actual = uncovered(&owner_rules, &servant_rules);
    let actual_covered = actual.is_empty();
    let mut expected = expected_uncovered_rules;
    actual.sort();
    expected.sort();
    assert_eq!(actual_covered, expected_covered, "{name}: expected covered={expected_covered}, but got {actual_covered} (uncovered {actual:?})");
    assert_eq!(actual, expected, "{name}: uncovered rules");
}

#[test]
fn upstream_test_covers_exact_match() {
    escalation_test(
        "TestCoversExactMatch",
        vec![gvr(&["v1"], &["get"], &["builds"])],
        vec![gvr(&["v1"], &["get"], &["builds"])],
        true,
        vec![],
    );
}

#[test]
fn upstream_test_covers_subresource_wildcard() {
    escalation_test(
        "TestCoversSubresourceWildcard",
        vec![gvr(&["v1"], &["get"], &["*/scale"])],
        vec![gvr(&["v1"], &["get"], &["foo/scale"])],
        true,
        vec![],
    );
}

#[test]
fn upstream_test_covers_multiple_rules_covering_single_rule() {
    escalation_test(
        "TestCoversMultipleRulesCoveringSingleRule",
        vec![
            gvr(&["v1"], &["delete"], &["deployments"]),
            gvr(&["v1"], &["delete"], &["builds"]),
            gvr(&["v1"], &["update"], &["builds", "deployments"]),
        ],
        vec![gvr(&["v1"], &["delete", "update"], &["builds", "deployments"])],
        true,
        vec![],
    );
}

#[test]
fn upstream_test_covers_multiple_api_groups_covering_single_rule() {
    escalation_test(
        "TestCoversMultipleAPIGroupsCoveringSingleRule",
        vec![
            gvr(&["group1"], &["delete"], &["deployments"]),
            gvr(&["group1"], &["delete"], &["builds"]),
            gvr(&["group1"], &["update"], &["builds", "deployments"]),
            gvr(&["group2"], &["delete"], &["deployments"]),
            gvr(&["group2"], &["delete"], &["builds"]),
            gvr(&["group2"], &["update"], &["builds", "deployments"]),
        ],
        vec![gvr(&["group1", "group2"], &["delete", "update"], &["builds", "deployments"])],
        true,
        vec![],
    );
}

#[test]
fn upstream_test_covers_single_api_groups_covering_multiple() {
    escalation_test(
        "TestCoversSingleAPIGroupsCoveringMultiple",
        vec![gvr(&["group1", "group2"], &["delete", "update"], &["builds", "deployments"])],
        vec![
            gvr(&["group1"], &["delete"], &["deployments"]),
            gvr(&["group1"], &["delete"], &["builds"]),
            gvr(&["group1"], &["update"], &["builds", "deployments"]),
            gvr(&["group2"], &["delete"], &["deployments"]),
            gvr(&["group2"], &["delete"], &["builds"]),
            gvr(&["group2"], &["update"], &["builds", "deployments"]),
        ],
        true,
        vec![],
    );
}

#[test]
fn upstream_test_covers_multiple_rules_missing_single_verb_resource_combination() {
    escalation_test(
        "TestCoversMultipleRulesMissingSingleVerbResourceCombination",
        vec![gvr(&["v1"], &["delete", "update"], &["builds", "deployments"]), gvr(&["v1"], &["delete"], &["pods"])],
        vec![gvr(&["v1"], &["delete", "update"], &["builds", "deployments", "pods"])],
        false,
        vec![gvr(&["v1"], &["update"], &["pods"])],
    );
}

#[test]
fn upstream_test_covers_api_group_star_covering_multiple() {
    escalation_test(
        "TestCoversAPIGroupStarCoveringMultiple",
        vec![gvr(&["*"], &["get"], &["roles"])],
        vec![gvr(&["group1", "group2"], &["get"], &["roles"])],
        true,
        vec![],
    );
}

#[test]
fn upstream_test_covers_enumeration_not_covering_api_group_star() {
    escalation_test(
        "TestCoversEnumerationNotCoveringAPIGroupStar",
        vec![gvr(&["dummy-group"], &["get"], &["roles"])],
        vec![gvr(&["*"], &["get"], &["roles"])],
        false,
        vec![gvr(&["*"], &["get"], &["roles"])],
    );
}

#[test]
fn upstream_test_covers_api_group_star_covering_star() {
    escalation_test(
        "TestCoversAPIGroupStarCoveringStar",
        vec![gvr(&["*"], &["get"], &["roles"])],
        vec![gvr(&["*"], &["get"], &["roles"])],
        true,
        vec![],
    );
}

#[test]
fn upstream_test_covers_verb_star_covering_multiple() {
    escalation_test(
        "TestCoversVerbStarCoveringMultiple",
        vec![gvr(&["v1"], &["*"], &["roles"])],
        vec![gvr(&["v1"], &["watch", "list"], &["roles"])],
        true,
        vec![],
    );
}

#[test]
fn upstream_test_covers_enumeration_not_covering_verb_star() {
    escalation_test(
        "TestCoversEnumerationNotCoveringVerbStar",
        vec![gvr(&["v1"], &["get", "list", "watch", "create", "update", "delete", "exec"], &["roles"])],
        vec![gvr(&["v1"], &["*"], &["roles"])],
        false,
        vec![gvr(&["v1"], &["*"], &["roles"])],
    );
}

#[test]
fn upstream_test_covers_verb_star_covering_star() {
    escalation_test(
        "TestCoversVerbStarCoveringStar",
        vec![gvr(&["v1"], &["*"], &["roles"])],
        vec![gvr(&["v1"], &["*"], &["roles"])],
        true,
        vec![],
    );
}

#[test]
fn upstream_test_covers_resource_star_covering_multiple() {
    escalation_test(
        "TestCoversResourceStarCoveringMultiple",
        vec![gvr(&["v1"], &["get"], &["*"])],
        vec![gvr(&["v1"], &["get"], &["resourcegroup:deployments"])],
        true,
        vec![],
    );
}

#[test]
fn upstream_test_covers_enumeration_not_covering_resource_star() {
    escalation_test(
        "TestCoversEnumerationNotCoveringResourceStar",
        vec![gvr(&["v1"], &["get"], &["roles", "resourcegroup:deployments"])],
        vec![gvr(&["v1"], &["get"], &["*"])],
        false,
        vec![gvr(&["v1"], &["get"], &["*"])],
    );
}

#[test]
fn upstream_test_covers_resource_star_covering_star() {
    escalation_test(
        "TestCoversResourceStarCoveringStar",
        vec![gvr(&["v1"], &["get"], &["*"])],
        vec![gvr(&["v1"], &["get"], &["*"])],
        true,
        vec![],
    );
}

#[test]
fn upstream_test_covers_resource_name_empty_covering_multiple() {
    escalation_test(
        "TestCoversResourceNameEmptyCoveringMultiple",
        vec![gvrn(&["v1"], &["get"], &["pods"], &[])],
        vec![gvrn(&["v1"], &["get"], &["pods"], &["foo", "bar"])],
        true,
        vec![],
    );
}

#[test]
fn upstream_test_covers_enumeration_not_covering_resource_name_empty() {
    escalation_test(
        "TestCoversEnumerationNotCoveringResourceNameEmpty",
        vec![gvrn(&["v1"], &["get"], &["pods"], &["foo", "bar"])],
        vec![gvrn(&["v1"], &["get"], &["pods"], &[])],
        false,
        vec![gvr(&["v1"], &["get"], &["pods"])],
    );
}

#[test]
fn upstream_test_covers_non_resource_urls() {
    escalation_test(
        "TestCoversNonResourceURLs",
        vec![urls(&["/apis"], &["*"])],
        vec![urls(&["/apis"], &["*"])],
        true,
        vec![],
    );
}

#[test]
fn upstream_test_covers_non_resource_urls_star() {
    escalation_test(
        "TestCoversNonResourceURLsStar",
        vec![urls(&["*"], &["*"])],
        vec![urls(&["/apis", "/apis/v1", "/"], &["*"])],
        true,
        vec![],
    );
}

#[test]
fn upstream_test_covers_non_resource_urls_star_after_prefix_doesnt_cover() {
    escalation_test(
        "TestCoversNonResourceURLsStarAfterPrefixDoesntCover",
        vec![urls(&["/apis/*"], &["*"])],
        vec![urls(&["/apis", "/apis/v1"], &["get"])],
        false,
        vec![urls(&["/apis"], &["get"])],
    );
}

#[test]
fn upstream_test_covers_non_resource_urls_star_after_prefix() {
    escalation_test(
        "TestCoversNonResourceURLsStarAfterPrefix",
        vec![urls(&["/apis/*"], &["*"])],
        vec![urls(&["/apis/v1/foo", "/apis/v1"], &["get"])],
        true,
        vec![],
    );
}

#[test]
fn upstream_test_covers_non_resource_urls_with_other_fields() {
    escalation_test(
        "TestCoversNonResourceURLsWithOtherFields",
        vec![PolicyRule { non_resource_urls: strs(&["/apis"]), ..gvr(&["v1"], &["get"], &["builds"]) }],
        vec![PolicyRule { non_resource_urls: strs(&["/apis"]), ..gvr(&["v1"], &["get"], &["builds"]) }],
        true,
        vec![],
    );
}

#[test]
fn upstream_test_covers_non_resource_urls_with_other_fields_failure() {
    escalation_test(
        "TestCoversNonResourceURLsWithOtherFieldsFailure",
        vec![gvr(&["v1"], &["get"], &["builds"])],
        vec![PolicyRule { non_resource_urls: strs(&["/apis"]), ..gvr(&["v1"], &["get"], &["builds"]) }],
        false,
        vec![urls(&["/apis"], &["get"])],
    );
}

// ---------------------------------------------------------------------------------------------
// policy_comparator_test.go TestNonResourceURLCovers (through uncovered(); see the header)
// ---------------------------------------------------------------------------------------------

#[test]
fn upstream_test_non_resource_url_covers() {
    // (owner, requested, want)
    let tests: [(&str, &str, bool); 14] = [
        ("*", "", true),
        ("*", "/", true),
        ("*", "/api", true),
        ("/*", "", false),
        ("/*", "/", true),
        ("/*", "/foo", true),
        ("/api", "/api", true),
        ("/apis", "/api", false),
        ("/api/v1", "/api", false),
        ("/api/v1", "/api/v1", true),
        ("/api/*", "/api/v1", true),
        ("/api/*", "/api", false),
        ("/api/*/*", "/api/v1", false),
        ("/*/v1/*", "/api/v1", false),
    ];
    let mut errors = Vec::new();
    for (owner, requested, want) in tests {
        let got = uncovered(&[urls(&[owner], &["get"])], &[urls(&[requested], &["get"])]).is_empty();
        if got != want {
            errors.push(format!("nonResourceURLCovers({owner:?}, {requested:?}): want=({want}), got=({got})"));
        }
    }
    assert!(errors.is_empty(), "{}", errors.join("\n"));
}
