//! InterPodAffinity: required pod affinity and anti-affinity filter nodes (the incoming pod's
//! terms, and existing pods' required anti-affinity against the incoming pod); preferred terms —
//! both the incoming pod's and existing pods', and existing pods' required affinity with
//! `hardPodAffinityWeight` — score them.
//!
//! Real counterpart: `pkg/scheduler/framework/plugins/interpodaffinity/` — `plugin.go`
//! (`mergeAffinityTermNamespacesIfNotEmpty`, `GetNamespaceLabelsSnapshot`), `filtering.go`
//! (`PreFilter`, `getExistingAntiAffinityCounts`, `getIncomingAffinityAntiAffinityCounts`,
//! `satisfyPodAffinity`, `satisfyPodAntiAffinity`, `satisfyExistingPodsAntiAffinity`,
//! `AddPod`/`RemovePod`) and `scoring.go` (`PreScore`, `processExistingPod`, `Score`,
//! `NormalizeScore`). Args: `hardPodAffinityWeight` 1, `ignorePreferredTermsOfExistingPods` false.

pub mod filtering;
pub mod scoring;

pub use filtering::PreFilterState;
pub use scoring::PreScoreState;

use crate::scheduler::framework::listers::Listers;
use crate::scheduler::framework::types::{AffinityTerm, Labels, PodInfo, Selector};
use std::collections::BTreeMap;

pub const NAME: &str = "InterPodAffinity";
pub const ERR_REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH: &str = "node(s) didn't satisfy existing pods anti-affinity rules";
pub const ERR_REASON_AFFINITY_RULES_NOT_MATCH: &str = "node(s) didn't match pod affinity rules";
pub const ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH: &str = "node(s) didn't match pod anti-affinity rules";

/// `InterPodAffinityArgs.HardPodAffinityWeight`'s default.
pub const HARD_POD_AFFINITY_WEIGHT: i64 = 1;

/// `topologyToMatchedTermCount`: topology key -> value -> matched terms.
pub type TopologyCounts = BTreeMap<String, BTreeMap<String, i64>>;

/// The count of a (key, value) pair (0 when absent).
pub fn count_of(m: &TopologyCounts, key: &str, value: &str) -> i64 {
    m.get(key).and_then(|vs| vs.get(value)).copied().unwrap_or(0)
}

/// `topologyToMatchedTermCount.update`: only for nodes that carry the key; an entry down to
/// zero is removed.
pub fn update(m: &mut TopologyCounts, node_labels: &Labels, key: &str, value: i64) {
    let Some(v) = node_labels.get(key) else { return };
    // look up before inserting: most updates find their pair (no key copied)
    let values = match m.get_mut(key) {
        Some(values) => values,
        None => m.entry(key.to_string()).or_default(),
    };
    let now = match values.get_mut(v.as_str()) {
        Some(e) => {
            *e += value;
            *e
        }
        None => {
            values.insert(v.clone(), value);
            value
        }
    };
    if now == 0 {
        values.remove(v.as_str());
        if values.is_empty() {
            m.remove(key);
        }
    }
}

/// `podMatchesAllAffinityTerms`: false for no terms.
pub fn pod_matches_all_affinity_terms(terms: &[AffinityTerm], pod: &PodInfo) -> bool {
    !terms.is_empty() && terms.iter().all(|t| t.matches(pod, None))
}

/// `mergeAffinityTermNamespacesIfNotEmpty`: a namespace selector becomes the list of the
/// namespaces it matches now, added to the term's namespaces.
pub fn merge_namespaces(term: &mut AffinityTerm, listers: &Listers) {
    // an empty selector (all namespaces) stays as it is (`NamespaceSelector.Empty()`)
    if term.namespace_selector == Selector::Nothing || term.namespace_selector.is_empty() {
        return;
    }
    for ns in listers.namespaces_matching(&term.namespace_selector) {
        if !term.namespaces.contains(&ns) {
            term.namespaces.push(ns);
        }
    }
    term.namespace_selector = Selector::Nothing;
}

/// Upstream's own plugin tests (`filtering_test.go`, `scoring_test.go`), case by case: each Pod
/// and Node written as the JSON upstream's tests build, the Filter statuses and the normalized
/// scores as upstream expects them. Upstream's pods without a namespace (and the "" namespace
/// its terms name) are in "default" here; `hardPodAffinityWeight` is kubesim's fixed 1.
#[cfg(test)]
mod tests {
    use super::{filtering, scoring, ERR_REASON_AFFINITY_RULES_NOT_MATCH, ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH, ERR_REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH};
    use crate::scheduler::framework::interface::{Code, Status};
    use crate::scheduler::framework::listers::Listers;
    use crate::scheduler::framework::types::{Labels, NodeInfo, PodInfo};
    use crate::scheduler::internal::cache::Snapshot;
    use serde_json::{json, Map, Value};

    const D: &str = "default";
    const AFF: &str = "podAffinity";
    const ANTI: &str = "podAntiAffinity";
    /// `podLabel` and `podLabel2` of the single-node test, `podLabelSecurityS1`/`S2` of the score test.
    const SERVICE_SCAN: &[(&str, &str)] = &[("service", "securityscan")];
    const SECURITY_S1: &[(&str, &str)] = &[("security", "S1")];
    const SECURITY_S2: &[(&str, &str)] = &[("security", "S2")];

    fn labels(l: &[(&str, &str)]) -> Value {
        Value::Object(l.iter().map(|(k, v)| (k.to_string(), json!(v))).collect::<Map<_, _>>())
    }

    fn node(name: &str, l: &[(&str, &str)]) -> Value {
        json!({"metadata": {"name": name, "labels": labels(l)}, "spec": {}})
    }

    fn pod(ns: &str, name: &str, l: &[(&str, &str)]) -> Value {
        json!({"metadata": {"name": name, "namespace": ns, "labels": labels(l)}, "spec": {}})
    }

    /// `.Node(node)`.
    fn on(mut p: Value, node: &str) -> Value {
        p["spec"]["nodeName"] = json!(node);
        p
    }

    /// A `matchExpressions` requirement (no `values` for Exists/DoesNotExist).
    fn expr(key: &str, op: &str, vals: &[&str]) -> Value {
        if vals.is_empty() {
            json!({"key": key, "operator": op})
        } else {
            json!({"key": key, "operator": op, "values": vals})
        }
    }

    /// A `PodAffinityTerm` with a `matchExpressions` label selector.
    fn term(exprs: Vec<Value>, topology_key: &str) -> Value {
        json!({"labelSelector": {"matchExpressions": exprs}, "topologyKey": topology_key})
    }

    /// `PodAffinityIn(key, topologyKey, vals, ..)` and friends: a one-requirement term.
    fn t_in(key: &str, tk: &str, vals: &[&str]) -> Value {
        term(vec![expr(key, "In", vals)], tk)
    }
    fn t_not_in(key: &str, tk: &str, vals: &[&str]) -> Value {
        term(vec![expr(key, "NotIn", vals)], tk)
    }
    fn t_exists(key: &str, tk: &str) -> Value {
        term(vec![expr(key, "Exists", &[])], tk)
    }

    /// A term's `namespaces` and `namespaceSelector`.
    fn namespaces(mut t: Value, names: &[&str]) -> Value {
        t["namespaces"] = json!(names);
        t
    }
    fn ns_selector(mut t: Value, sel: Value) -> Value {
        t["namespaceSelector"] = sel;
        t
    }
    fn team_in(team: &str) -> Value {
        json!({"matchExpressions": [{"key": "team", "operator": "In", "values": [team]}]})
    }

    /// Appends required terms to `spec.affinity.<kind>`.
    fn required(mut p: Value, kind: &str, terms: Vec<Value>) -> Value {
        let list = &mut p["spec"]["affinity"][kind]["requiredDuringSchedulingIgnoredDuringExecution"];
        if list.is_null() {
            *list = json!([]);
        }
        list.as_array_mut().unwrap().extend(terms);
        p
    }

    /// Appends weighted terms to `spec.affinity.<kind>`.
    fn preferred(mut p: Value, kind: &str, terms: Vec<(i64, Value)>) -> Value {
        let list = &mut p["spec"]["affinity"][kind]["preferredDuringSchedulingIgnoredDuringExecution"];
        if list.is_null() {
            *list = json!([]);
        }
        list.as_array_mut().unwrap().extend(terms.into_iter().map(|(w, t)| json!({"weight": w, "podAffinityTerm": t})));
        p
    }

    /// `cache.NewSnapshot(pods, nodes)`: the nodes with their pods; a pod bound to a node not in
    /// the list gets a node of its own without labels (upstream keeps a NodeInfo for it too).
    fn node_infos(nodes: &[Value], pods: &[Value]) -> Vec<NodeInfo> {
        let mut nodes = nodes.to_vec();
        for p in pods {
            let n = p["spec"]["nodeName"].as_str().unwrap_or("");
            if !n.is_empty() && !nodes.iter().any(|x| x["metadata"]["name"].as_str() == Some(n)) {
                nodes.push(node(n, &[]));
            }
        }
        crate::scheduler::framework::testing::node_infos_of(&nodes, pods)
    }

    fn ns_labels(l: &[(&str, &str)]) -> Labels {
        l.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
    }

    /// Upstream's `namespaces` fixture: two team1 and two team2 namespaces.
    fn team_namespaces() -> Listers {
        let mut l = Listers::default();
        for (ns, team) in [("subteam1.team1", "team1"), ("subteam2.team1", "team1"), ("subteam1.team2", "team2"), ("subteam2.team2", "team2")] {
            l.namespaces.insert(ns.into(), ns_labels(&[("team", team)]));
        }
        l
    }

    /// What upstream expects of a node: PreFilter's Skip, Filter's success, or one of the three
    /// failures (code and reason).
    #[derive(Clone, Debug, PartialEq, Eq)]
    enum W {
        Skip,
        Ok,
        /// UnschedulableAndUnresolvable, ErrReasonAffinityRulesNotMatch.
        Aff,
        /// Unschedulable, ErrReasonAntiAffinityRulesNotMatch.
        Anti,
        /// Unschedulable, ErrReasonExistingAntiAffinityRulesNotMatch.
        Existing,
        Other(String),
    }

    fn verdict(st: &Status) -> W {
        let reasons: Vec<&str> = st.reasons.iter().map(String::as_str).collect();
        match (st.code, reasons.as_slice()) {
            (Code::Success, _) => W::Ok,
            (Code::UnschedulableAndUnresolvable, [ERR_REASON_AFFINITY_RULES_NOT_MATCH]) => W::Aff,
            (Code::Unschedulable, [ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH]) => W::Anti,
            (Code::Unschedulable, [ERR_REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH]) => W::Existing,
            _ => W::Other(format!("{st:?}")),
        }
    }

    struct FilterCase {
        name: &'static str,
        pod: Value,
        existing: Vec<Value>,
        nodes: Vec<Value>,
        /// Per node of `nodes`, in order; all `Skip` when PreFilter is expected to skip.
        want: Vec<W>,
    }

    fn run_filter_cases(cases: Vec<FilterCase>, listers: &Listers) {
        let mut failures = Vec::new();
        for c in cases {
            let pod = PodInfo::from_value(c.pod);
            let snapshot = Snapshot::new(node_infos(&c.nodes, &c.existing));
            let state = filtering::pre_filter(&pod, &snapshot, listers);
            let got: Vec<W> = c
                .nodes
                .iter()
                .map(|n| {
                    let ni = snapshot.get(n["metadata"]["name"].as_str().unwrap()).unwrap();
                    match &state {
                        None => W::Skip,
                        Some(s) => verdict(&filtering::filter(s, &pod, ni)),
                    }
                })
                .collect();
            if got != c.want {
                failures.push(format!("{}:\n  want {:?}\n  got  {:?}", c.name, c.want, got));
            }
        }
        assert!(failures.is_empty(), "{} case(s) failed:\n{}", failures.len(), failures.join("\n"));
    }

    struct ScoreCase {
        name: &'static str,
        pod: Value,
        existing: Vec<Value>,
        nodes: Vec<Value>,
        /// The normalized scores per node of `nodes`; None when PreScore is expected to skip.
        want: Option<Vec<i64>>,
    }

    /// PreScore over all nodes (all feasible), Score each, NormalizeScore.
    fn run_score_cases(cases: Vec<ScoreCase>, listers: &Listers) {
        let mut failures = Vec::new();
        for c in cases {
            let pod = PodInfo::from_value(c.pod);
            let snapshot = Snapshot::new(node_infos(&c.nodes, &c.existing));
            let feasible: Vec<&NodeInfo> = c.nodes.iter().map(|n| snapshot.get(n["metadata"]["name"].as_str().unwrap()).unwrap()).collect();
            let got = scoring::pre_score(&pod, &feasible, &snapshot, listers).map(|state| {
                let mut scores: Vec<i64> = feasible.iter().map(|ni| scoring::score(&state, ni)).collect();
                scoring::normalize_score(&mut scores);
                scores
            });
            if got != c.want {
                failures.push(format!("{}:\n  want {:?}\n  got  {:?}", c.name, c.want, got));
            }
        }
        assert!(failures.is_empty(), "{} case(s) failed:\n{}", failures.len(), failures.join("\n"));
    }

    // upstream: TestRequiredAffinitySingleNode
    #[test]
    fn required_affinity_single_node_table() {
        use W::*;
        let node1 = || vec![node("node1", &[("region", "r1"), ("zone", "z11")])];
        // upstream's `pod`: st.MakePod().Labels(podLabel).Node("node1")
        let scan_on_node1 = || on(pod(D, "existing", SERVICE_SCAN), "node1");
        let aff_region_scan = |p: Value| required(p, AFF, vec![t_in("service", "region", &["securityscan", "value2"])]);
        let cases = vec![
            FilterCase {
                name: "A pod that has no required pod affinity scheduling rules can schedule onto a node with no existing pods",
                pod: pod(D, "p", &[]),
                existing: vec![],
                nodes: node1(),
                want: vec![Skip],
            },
            FilterCase {
                name: "satisfies with requiredDuringSchedulingIgnoredDuringExecution in PodAffinity using In operator that matches the existing pod",
                pod: aff_region_scan(pod(D, "p", SECURITY_S1)),
                existing: vec![scan_on_node1()],
                nodes: node1(),
                want: vec![Ok],
            },
            FilterCase {
                name: "satisfies the pod with requiredDuringSchedulingIgnoredDuringExecution in PodAffinity using not in operator in labelSelector that matches the existing pod",
                pod: required(pod(D, "p", SECURITY_S1), AFF, vec![t_not_in("service", "region", &["securityscan3", "value3"])]),
                existing: vec![scan_on_node1()],
                nodes: node1(),
                want: vec![Ok],
            },
            FilterCase {
                name: "Does not satisfy the PodAffinity with labelSelector because of diff Namespace",
                pod: required(pod(D, "p", SECURITY_S1), AFF, vec![namespaces(t_in("service", "", &["securityscan", "value2"]), &["DiffNameSpace"])]),
                existing: vec![on(pod("ns", "existing", SERVICE_SCAN), "node1")],
                nodes: node1(),
                want: vec![Aff],
            },
            FilterCase {
                name: "Doesn't satisfy the PodAffinity because of unmatching labelSelector with the existing pod",
                pod: required(pod(D, "p", SERVICE_SCAN), AFF, vec![t_in("service", "", &["antivirusscan", "value2"])]),
                existing: vec![scan_on_node1()],
                nodes: node1(),
                want: vec![Aff],
            },
            FilterCase {
                name: "satisfies the PodAffinity with different label Operators in multiple RequiredDuringSchedulingIgnoredDuringExecution ",
                pod: required(
                    pod(D, "p", SECURITY_S1),
                    AFF,
                    vec![
                        term(vec![expr("service", "Exists", &[]), expr("wrongkey", "DoesNotExist", &[])], "region"),
                        term(vec![expr("service", "In", &["securityscan"]), expr("service", "NotIn", &["WrongValue"])], "region"),
                    ],
                ),
                existing: vec![scan_on_node1()],
                nodes: node1(),
                want: vec![Ok],
            },
            FilterCase {
                name: "The labelSelector requirements(items of matchExpressions) are ANDed, the pod cannot schedule onto the node because one of the matchExpression item don't match.",
                pod: required(
                    pod(D, "p", SECURITY_S1),
                    AFF,
                    vec![
                        term(vec![expr("service", "Exists", &[]), expr("wrongkey", "DoesNotExist", &[])], "region"),
                        term(vec![expr("service", "In", &["securityscan2"]), expr("service", "NotIn", &["WrongValue"])], "region"),
                    ],
                ),
                existing: vec![scan_on_node1()],
                nodes: node1(),
                want: vec![Aff],
            },
            FilterCase {
                name: "satisfies the PodAffinity and PodAntiAffinity with the existing pod",
                pod: required(aff_region_scan(pod(D, "p", SECURITY_S1)), ANTI, vec![t_in("service", "node", &["antivirusscan", "value2"])]),
                existing: vec![scan_on_node1()],
                nodes: node1(),
                want: vec![Ok],
            },
            FilterCase {
                name: "satisfies the PodAffinity and PodAntiAffinity and PodAntiAffinity symmetry with the existing pod",
                pod: required(aff_region_scan(pod(D, "p", SECURITY_S1)), ANTI, vec![t_in("service", "node", &["antivirusscan", "value2"])]),
                existing: vec![required(scan_on_node1(), ANTI, vec![t_in("service", "node", &["antivirusscan", "value2"])])],
                nodes: node1(),
                want: vec![Ok],
            },
            FilterCase {
                name: "satisfies the PodAffinity but doesn't satisfy the PodAntiAffinity with the existing pod",
                pod: required(aff_region_scan(pod(D, "p", SECURITY_S1)), ANTI, vec![t_in("service", "zone", &["securityscan", "value2"])]),
                existing: vec![scan_on_node1()],
                nodes: node1(),
                want: vec![Anti],
            },
            FilterCase {
                name: "satisfies the PodAffinity and PodAntiAffinity but doesn't satisfy PodAntiAffinity symmetry with the existing pod",
                pod: required(aff_region_scan(pod(D, "p", SERVICE_SCAN)), ANTI, vec![t_in("service", "node", &["antivirusscan", "value2"])]),
                existing: vec![required(scan_on_node1(), ANTI, vec![t_in("service", "zone", &["securityscan", "value2"])])],
                nodes: node1(),
                want: vec![Existing],
            },
            FilterCase {
                // the existing pod is on node2, which has no Node object (no labels) here
                name: "pod matches its own Label in PodAffinity and that matches the existing pod Labels",
                pod: required(pod(D, "p", SERVICE_SCAN), AFF, vec![t_not_in("service", "region", &["securityscan", "value2"])]),
                existing: vec![on(pod(D, "existing", SERVICE_SCAN), "node2")],
                nodes: node1(),
                want: vec![Aff],
            },
            FilterCase {
                name: "verify that PodAntiAffinity from existing pod is respected when pod has no AntiAffinity constraints. doesn't satisfy PodAntiAffinity symmetry with the existing pod",
                pod: pod(D, "p", SERVICE_SCAN),
                existing: vec![required(scan_on_node1(), ANTI, vec![t_in("service", "zone", &["securityscan", "value2"])])],
                nodes: node1(),
                want: vec![Existing],
            },
            FilterCase {
                name: "verify that PodAntiAffinity from existing pod is respected when pod has no AntiAffinity constraints. satisfy PodAntiAffinity symmetry with the existing pod",
                pod: pod(D, "p", SERVICE_SCAN),
                existing: vec![required(scan_on_node1(), ANTI, vec![t_not_in("service", "zone", &["securityscan", "value2"])])],
                nodes: node1(),
                want: vec![Skip],
            },
            FilterCase {
                name: "satisfies the PodAntiAffinity with existing pod but doesn't satisfy PodAntiAffinity symmetry with incoming pod",
                pod: required(pod(D, "p", SERVICE_SCAN), ANTI, vec![t_exists("service", "region"), t_exists("security", "region")]),
                existing: vec![required(on(pod(D, "existing", SECURITY_S1), "node1"), ANTI, vec![t_exists("security", "zone")])],
                nodes: node1(),
                want: vec![Anti],
            },
            FilterCase {
                name: "PodAntiAffinity symmetry check a1: incoming pod and existing pod partially match each other on AffinityTerms",
                pod: required(pod(D, "p", SERVICE_SCAN), ANTI, vec![t_exists("service", "zone"), t_exists("security", "zone")]),
                existing: vec![required(on(pod(D, "existing", SECURITY_S1), "node1"), ANTI, vec![t_exists("security", "zone")])],
                nodes: node1(),
                want: vec![Anti],
            },
            FilterCase {
                name: "PodAntiAffinity symmetry check a2: incoming pod and existing pod partially match each other on AffinityTerms",
                pod: required(pod(D, "p", SECURITY_S1), ANTI, vec![t_exists("security", "zone")]),
                existing: vec![required(scan_on_node1(), ANTI, vec![t_exists("service", "zone"), t_exists("security", "zone")])],
                nodes: node1(),
                want: vec![Existing],
            },
            FilterCase {
                name: "PodAntiAffinity symmetry check b1: incoming pod and existing pod partially match each other on AffinityTerms",
                pod: required(pod(D, "p", &[("abc", ""), ("xyz", "")]), ANTI, vec![t_exists("abc", "zone"), t_exists("def", "zone")]),
                existing: vec![required(on(pod(D, "existing", &[("def", ""), ("xyz", "")]), "node1"), ANTI, vec![t_exists("abc", "zone"), t_exists("def", "zone")])],
                nodes: node1(),
                want: vec![Anti],
            },
            FilterCase {
                name: "PodAntiAffinity symmetry check b2: incoming pod and existing pod partially match each other on AffinityTerms",
                pod: required(pod(D, "p", &[("def", ""), ("xyz", "")]), ANTI, vec![t_exists("abc", "zone"), t_exists("def", "zone")]),
                existing: vec![required(on(pod(D, "existing", &[("abc", ""), ("xyz", "")]), "node1"), ANTI, vec![t_exists("abc", "zone"), t_exists("def", "zone")])],
                nodes: node1(),
                want: vec![Anti],
            },
            FilterCase {
                name: "affinity with NamespaceSelector",
                pod: required(pod(D, "p", SECURITY_S1), AFF, vec![ns_selector(t_in("service", "region", &["securityscan", "value2"]), team_in("team1"))]),
                existing: vec![on(pod("subteam1.team1", "existing", SERVICE_SCAN), "node1")],
                nodes: node1(),
                want: vec![Ok],
            },
            FilterCase {
                name: "affinity with non-matching NamespaceSelector",
                pod: required(pod(D, "p", SECURITY_S1), AFF, vec![ns_selector(t_in("service", "region", &["securityscan", "value2"]), team_in("team1"))]),
                existing: vec![on(pod("subteam1.team2", "existing", SERVICE_SCAN), "node1")],
                nodes: node1(),
                want: vec![Aff],
            },
            FilterCase {
                name: "anti-affinity with matching NamespaceSelector",
                pod: required(pod("subteam1.team1", "p", SECURITY_S1), ANTI, vec![ns_selector(t_in("service", "zone", &["securityscan", "value2"]), team_in("team1"))]),
                existing: vec![on(pod("subteam2.team1", "existing", SERVICE_SCAN), "node1")],
                nodes: node1(),
                want: vec![Anti],
            },
            FilterCase {
                name: "anti-affinity with matching all NamespaceSelector",
                pod: required(pod("subteam1.team1", "p", SECURITY_S1), ANTI, vec![ns_selector(t_in("service", "zone", &["securityscan", "value2"]), json!({}))]),
                existing: vec![on(pod("subteam2.team1", "existing", SERVICE_SCAN), "node1")],
                nodes: node1(),
                want: vec![Anti],
            },
            FilterCase {
                name: "anti-affinity with non-matching NamespaceSelector",
                pod: required(pod("subteam1.team1", "p", SECURITY_S1), ANTI, vec![ns_selector(t_in("service", "zone", &["securityscan", "value2"]), team_in("team1"))]),
                existing: vec![on(pod("subteam1.team2", "existing", SERVICE_SCAN), "node1")],
                nodes: node1(),
                want: vec![Ok],
            },
        ];
        run_filter_cases(cases, &team_namespaces());
    }

    // upstream: TestRequiredAffinityMultipleNodes
    #[test]
    fn required_affinity_multiple_nodes_table() {
        use W::*;
        let china = |n: &str| node(n, &[("region", "China")]);
        let china_az1 = |n: &str| node(n, &[("region", "China"), ("az", "az1")]);
        let india = |n: &str| node(n, &[("region", "India")]);
        let rzh = |n: &str, zone: &str| node(n, &[("region", "r1"), ("zone", zone), ("hostname", n)]);
        let foo_bar = |name: &str, n: &str| on(pod(D, name, &[("foo", "bar")]), n);
        let cases = vec![
            FilterCase {
                name: "A pod can be scheduled onto all the nodes that have the same topology key & label value with one of them has an existing pod that matches the affinity rules",
                pod: required(pod(D, "p", &[]), AFF, vec![t_in("foo", "region", &["bar"])]),
                existing: vec![foo_bar("p1", "node1")],
                nodes: vec![china("node1"), china_az1("node2"), india("node3")],
                want: vec![Ok, Ok, Aff],
            },
            FilterCase {
                name: "The affinity rule is to schedule all of the pods of this collection to the same zone. The first pod of the collection should not be blocked from being scheduled onto any node, even there's no existing pod that matches the rule anywhere.",
                pod: required(pod(D, "p", &[("foo", "bar"), ("service", "securityscan")]), AFF, vec![t_in("foo", "zone", &["bar"]), t_in("service", "zone", &["securityscan"])]),
                existing: vec![foo_bar("p1", "nodeA")],
                nodes: vec![node("nodeA", &[("zone", "az1"), ("hostname", "h1")]), node("nodeB", &[("zone", "az2"), ("hostname", "h2")])],
                want: vec![Ok, Ok],
            },
            FilterCase {
                name: "The first pod of the collection can only be scheduled on nodes labelled with the requested topology keys",
                pod: required(pod(D, "p", &[("foo", "bar"), ("service", "securityscan")]), AFF, vec![t_in("foo", "zone", &["bar"]), t_in("service", "zone", &["securityscan"])]),
                existing: vec![foo_bar("p1", "nodeA")],
                nodes: vec![node("nodeA", &[("zoneLabel", "az1"), ("hostname", "h1")]), node("nodeB", &[("zoneLabel", "az2"), ("hostname", "h2")])],
                want: vec![Aff, Aff],
            },
            FilterCase {
                name: "NodeA and nodeB have same topologyKey and label value. NodeA has an existing pod that matches the inter pod affinity rule. The pod can not be scheduled onto nodeA and nodeB.",
                pod: required(pod(D, "p", &[]), ANTI, vec![t_in("foo", "region", &["abc"])]),
                existing: vec![on(pod(D, "e1", &[("foo", "abc")]), "nodeA")],
                nodes: vec![node("nodeA", &[("region", "r1"), ("hostname", "nodeA")]), node("nodeB", &[("region", "r1"), ("hostname", "nodeB")])],
                want: vec![Anti, Anti],
            },
            FilterCase {
                name: "This test ensures that anti-affinity matches a pod when any term of the anti-affinity rule matches a pod.",
                pod: required(pod(D, "p", &[]), ANTI, vec![t_in("foo", "region", &["abc"]), t_in("service", "zone", &["securityscan"])]),
                existing: vec![on(pod(D, "e1", &[("foo", "abc"), ("service", "securityscan")]), "nodeA")],
                nodes: vec![rzh("nodeA", "z1"), rzh("nodeB", "z2")],
                want: vec![Anti, Anti],
            },
            FilterCase {
                name: "NodeA and nodeB have same topologyKey and label value. NodeA has an existing pod that matches the inter pod affinity rule. The pod can not be scheduled onto nodeA and nodeB but can be scheduled onto nodeC",
                pod: required(pod(D, "p", &[]), ANTI, vec![t_in("foo", "region", &["abc"])]),
                existing: vec![on(pod(D, "e1", &[("foo", "abc")]), "nodeA")],
                nodes: vec![china("nodeA"), china_az1("nodeB"), india("nodeC")],
                want: vec![Anti, Anti, Ok],
            },
            FilterCase {
                name: "NodeA and nodeB have same topologyKey and label value. NodeA has an existing pod that matches the inter pod affinity rule. The pod can not be scheduled onto nodeA, nodeB, but can be scheduled onto nodeC (NodeC has an existing pod that match the inter pod affinity rule but in different namespace)",
                pod: required(pod("NS1", "p", &[("foo", "123")]), ANTI, vec![t_in("foo", "region", &["bar"])]),
                existing: vec![on(pod("NS1", "e1", &[("foo", "bar")]), "nodeA"), required(on(pod("NS2", "e2", &[]), "nodeC"), ANTI, vec![t_in("foo", "region", &["123"])])],
                nodes: vec![china("nodeA"), china_az1("nodeB"), india("nodeC")],
                want: vec![Anti, Anti, Ok],
            },
            FilterCase {
                name: "Test existing pod's anti-affinity: if an existing pod has a term with invalid topologyKey, labelSelector of the term is firstly checked, and then topologyKey of the term is also checked",
                pod: pod(D, "p", &[("foo", "")]),
                existing: vec![required(on(pod(D, "e1", &[]), "nodeA"), ANTI, vec![t_exists("foo", "invalid-node-label")])],
                nodes: vec![rzh("nodeA", "z1"), rzh("nodeB", "z1")],
                want: vec![Skip, Skip],
            },
            FilterCase {
                name: "Test incoming pod's anti-affinity: even if labelSelector matches, we still check if topologyKey matches",
                pod: required(on(pod(D, "p", &[]), "nodeA"), ANTI, vec![t_exists("foo", "invalid-node-label")]),
                existing: vec![on(pod(D, "e1", &[("foo", "")]), "nodeA")],
                nodes: vec![rzh("nodeA", "z1"), rzh("nodeB", "z1")],
                want: vec![Ok, Ok],
            },
            FilterCase {
                name: "Test existing pod's anti-affinity: incoming pod wouldn't considered as a fit as it violates each existingPod's terms on all nodes",
                pod: pod(D, "p", &[("foo", ""), ("bar", "")]),
                existing: vec![
                    required(on(pod(D, "e1", &[]), "nodeA"), ANTI, vec![t_exists("foo", "zone")]),
                    required(on(pod(D, "e2", &[]), "nodeA"), ANTI, vec![t_exists("bar", "region")]),
                ],
                nodes: vec![rzh("nodeA", "z1"), rzh("nodeB", "z2")],
                want: vec![Existing, Existing],
            },
            FilterCase {
                name: "Test incoming pod's anti-affinity: incoming pod wouldn't considered as a fit as it at least violates one anti-affinity rule of existingPod",
                pod: required(pod(D, "p", &[]), ANTI, vec![t_exists("foo", "zone"), t_exists("bar", "region")]),
                existing: vec![on(pod(D, "e1", &[("foo", "")]), "nodeA"), on(pod(D, "e2", &[("bar", "")]), "nodeB")],
                nodes: vec![rzh("nodeA", "z1"), rzh("nodeB", "z2")],
                want: vec![Anti, Anti],
            },
            FilterCase {
                name: "Test existing pod's anti-affinity: only when labelSelector and topologyKey both match, it's counted as a single term match - case when one term has invalid topologyKey",
                pod: pod(D, "p", &[("foo", ""), ("bar", "")]),
                existing: vec![required(on(pod(D, "e1", &[]), "nodeA"), ANTI, vec![t_exists("foo", "invalid-node-label"), t_exists("bar", "zone")])],
                nodes: vec![rzh("nodeA", "z1"), rzh("nodeB", "z2")],
                want: vec![Existing, Ok],
            },
            FilterCase {
                name: "Test incoming pod's anti-affinity: only when labelSelector and topologyKey both match, it's counted as a single term match - case when one term has invalid topologyKey",
                pod: required(pod(D, "p", &[]), ANTI, vec![t_exists("foo", "invalid-node-label"), t_exists("bar", "zone")]),
                existing: vec![on(pod(D, "podA", &[("foo", ""), ("bar", "")]), "nodeA")],
                nodes: vec![rzh("nodeA", "z1"), rzh("nodeB", "z2")],
                want: vec![Anti, Ok],
            },
            FilterCase {
                name: "Test existing pod's anti-affinity: only when labelSelector and topologyKey both match, it's counted as a single term match - case when all terms have valid topologyKey",
                pod: pod(D, "p", &[("foo", ""), ("bar", "")]),
                existing: vec![required(on(pod(D, "e1", &[]), "nodeA"), ANTI, vec![t_exists("foo", "region"), t_exists("bar", "zone")])],
                nodes: vec![rzh("nodeA", "z1"), rzh("nodeB", "z2")],
                want: vec![Existing, Existing],
            },
            FilterCase {
                name: "Test incoming pod's anti-affinity: only when labelSelector and topologyKey both match, it's counted as a single term match - case when all terms have valid topologyKey",
                pod: required(pod(D, "p", &[]), ANTI, vec![t_exists("foo", "region"), t_exists("bar", "zone")]),
                existing: vec![on(pod(D, "e1", &[("foo", ""), ("bar", "")]), "nodeA")],
                nodes: vec![rzh("nodeA", "z1"), rzh("nodeB", "z2")],
                want: vec![Anti, Anti],
            },
            FilterCase {
                name: "Test existing pod's anti-affinity: existingPod on nodeA and nodeB has at least one anti-affinity term matches incoming pod, so incoming pod can only be scheduled to nodeC",
                pod: pod(D, "p", &[("foo", ""), ("bar", "")]),
                existing: vec![
                    required(on(pod(D, "e1", &[]), "nodeA"), ANTI, vec![t_exists("foo", "zone"), t_exists("labelA", "zone")]),
                    required(on(pod(D, "e2", &[]), "nodeB"), ANTI, vec![t_exists("bar", "zone"), t_exists("labelB", "zone")]),
                ],
                nodes: vec![rzh("nodeA", "z1"), rzh("nodeB", "z2"), rzh("nodeC", "z3")],
                want: vec![Existing, Existing, Ok],
            },
            FilterCase {
                name: "Test incoming pod's affinity: firstly check if all affinityTerms match, and then check if all topologyKeys match",
                pod: required(pod(D, "p", &[]), AFF, vec![t_exists("foo", "region"), t_exists("bar", "zone")]),
                existing: vec![on(pod(D, "pod1", &[("foo", ""), ("bar", "")]), "nodeA")],
                nodes: vec![rzh("nodeA", "z1"), rzh("nodeB", "z1")],
                want: vec![Ok, Ok],
            },
            FilterCase {
                name: "Test incoming pod's affinity: firstly check if all affinityTerms match, and then check if all topologyKeys match, and the match logic should be satisfied on the same pod",
                pod: required(pod(D, "p", &[]), AFF, vec![t_exists("foo", "region"), t_exists("bar", "zone")]),
                existing: vec![on(pod(D, "pod1", &[("foo", "")]), "nodeA"), on(pod(D, "pod2", &[("bar", "")]), "nodeB")],
                nodes: vec![rzh("nodeA", "z1"), rzh("nodeB", "z2")],
                want: vec![Aff, Aff],
            },
        ];
        let mut listers = Listers::default();
        listers.namespaces.insert("NS1".into(), Labels::new());
        run_filter_cases(cases, &listers);
    }

    fn stay_with_s1_in_region(p: Value) -> Value {
        preferred(p, AFF, vec![(5, t_in("security", "region", &["S1"]))])
    }
    fn stay_with_s2_in_region(p: Value) -> Value {
        preferred(p, AFF, vec![(6, t_in("security", "region", &["S2"]))])
    }
    fn affinity3(p: Value) -> Value {
        preferred(
            p,
            AFF,
            vec![
                (8, term(vec![expr("security", "NotIn", &["S1"]), expr("security", "In", &["S2"])], "region")),
                (2, term(vec![expr("security", "Exists", &[]), expr("wrongkey", "DoesNotExist", &[])], "region")),
            ],
        )
    }
    fn hard_affinity(p: Value) -> Value {
        required(
            p,
            AFF,
            vec![t_in("security", "region", &["S1", "value2"]), term(vec![expr("security", "Exists", &[]), expr("wrongkey", "DoesNotExist", &[])], "region")],
        )
    }
    fn away_from_s1_in_az(p: Value) -> Value {
        preferred(p, ANTI, vec![(5, t_in("security", "az", &["S1"]))])
    }
    fn away_from_s2_in_az(p: Value) -> Value {
        preferred(p, ANTI, vec![(5, t_in("security", "az", &["S2"]))])
    }
    fn stay_with_s1_in_region_away_from_s2_in_az(p: Value) -> Value {
        preferred(preferred(p, AFF, vec![(8, t_in("security", "region", &["S1"]))]), ANTI, vec![(5, t_in("security", "az", &["S2"]))])
    }
    fn ns_selector_term() -> Value {
        ns_selector(namespaces(t_in("security", "region", &["S1"]), &["subteam2.team2"]), team_in("team1"))
    }
    fn affinity_namespace_selector(p: Value) -> Value {
        preferred(p, AFF, vec![(5, ns_selector_term())])
    }
    fn anti_affinity_namespace_selector(p: Value) -> Value {
        preferred(p, ANTI, vec![(5, ns_selector_term())])
    }

    // upstream: TestPreferredAffinity
    #[test]
    fn preferred_affinity_score_table() {
        let china = |n: &str| node(n, &[("region", "China")]);
        let india = |n: &str| node(n, &[("region", "India")]);
        let az = |n: &str, z: &str| node(n, &[("az", z)]);
        let china_az1 = |n: &str| node(n, &[("region", "China"), ("az", "az1")]);
        // an existing pod in the default namespace
        let ex = |name: &str, n: &str, l: &[(&str, &str)]| on(pod(D, name, l), n);
        let three = || vec![china("node1"), india("node2"), az("node3", "az1")];
        let ns_pods = |third_ns: &str| {
            vec![
                on(pod("subteam1.team1", "e1", SECURITY_S1), "node1"),
                on(pod("subteam1.team1", "e2", SECURITY_S1), "node1"),
                on(pod(third_ns, "e3", SECURITY_S1), "node1"),
                on(pod("subteam2.team1", "e4", SECURITY_S1), "node2"),
            ]
        };
        let cases = vec![
            ScoreCase {
                name: "all nodes are same priority as Affinity is nil",
                pod: pod(D, "p", SECURITY_S1),
                existing: vec![],
                nodes: three(),
                want: None,
            },
            ScoreCase {
                name: "Affinity: pod that matches topology key & pods in nodes will get high score comparing to otherswhich doesn't match either pods in nodes or in topology key",
                pod: stay_with_s1_in_region(pod(D, "p", SECURITY_S1)),
                existing: vec![ex("e1", "node1", SECURITY_S1), ex("e2", "node2", SECURITY_S2), ex("e3", "node3", SECURITY_S1)],
                nodes: three(),
                want: Some(vec![100, 0, 0]),
            },
            ScoreCase {
                name: "All the nodes that have the same topology key & label value with one of them has an existing pod that match the affinity rules, have the same score",
                pod: stay_with_s1_in_region(pod(D, "p", &[])),
                existing: vec![ex("e1", "node1", SECURITY_S1)],
                nodes: vec![china("node1"), china_az1("node2"), india("node3")],
                want: Some(vec![100, 100, 0]),
            },
            ScoreCase {
                name: "Affinity: nodes in one region has more matching pods comparing to other region, so the region which has more matches will get high score",
                pod: stay_with_s2_in_region(pod(D, "p", SECURITY_S1)),
                existing: vec![
                    ex("e1", "node1", SECURITY_S2),
                    ex("e2", "node1", SECURITY_S2),
                    ex("e3", "node2", SECURITY_S2),
                    ex("e4", "node3", SECURITY_S2),
                    ex("e5", "node4", SECURITY_S2),
                    ex("e6", "node5", SECURITY_S2),
                ],
                nodes: vec![china("node1"), india("node2"), china("node3"), china("node4"), india("node5")],
                want: Some(vec![100, 0, 100, 100, 0]),
            },
            ScoreCase {
                name: "Affinity: different Label operators and values for pod affinity scheduling preference, including some match failures ",
                pod: affinity3(pod(D, "p", SECURITY_S1)),
                existing: vec![ex("e1", "node1", SECURITY_S1), ex("e2", "node2", SECURITY_S2), ex("e3", "node3", SECURITY_S1)],
                nodes: three(),
                want: Some(vec![20, 100, 0]),
            },
            ScoreCase {
                name: "Affinity symmetry: considered only the preferredDuringSchedulingIgnoredDuringExecution in pod affinity symmetry",
                pod: pod(D, "p", SECURITY_S2),
                existing: vec![stay_with_s1_in_region(ex("e1", "node1", SECURITY_S1)), stay_with_s2_in_region(ex("e2", "node2", SECURITY_S2))],
                nodes: three(),
                want: Some(vec![0, 100, 0]),
            },
            ScoreCase {
                name: "Affinity symmetry with namespace selector",
                pod: pod("subteam1.team1", "p", SECURITY_S1),
                existing: vec![affinity_namespace_selector(ex("e1", "node1", SECURITY_S1)), stay_with_s2_in_region(ex("e2", "node2", SECURITY_S2))],
                nodes: three(),
                want: Some(vec![100, 0, 0]),
            },
            ScoreCase {
                name: "AntiAffinity symmetry with namespace selector",
                pod: pod("subteam1.team1", "p", SECURITY_S1),
                existing: vec![anti_affinity_namespace_selector(ex("e1", "node1", SECURITY_S1)), stay_with_s2_in_region(ex("e2", "node2", SECURITY_S2))],
                nodes: three(),
                want: Some(vec![0, 100, 100]),
            },
            ScoreCase {
                name: "Affinity symmetry: considered RequiredDuringSchedulingIgnoredDuringExecution in pod affinity symmetry",
                pod: pod(D, "p", SECURITY_S1),
                existing: vec![hard_affinity(ex("e1", "node1", SECURITY_S1)), hard_affinity(ex("e2", "node2", SECURITY_S2))],
                nodes: three(),
                want: Some(vec![100, 100, 0]),
            },
            ScoreCase {
                name: "Anti Affinity: pod that does not match existing pods in node will get high score ",
                pod: away_from_s1_in_az(pod(D, "p", SECURITY_S1)),
                existing: vec![ex("e1", "node1", SECURITY_S1), ex("e2", "node2", SECURITY_S2)],
                nodes: vec![az("node1", "az1"), china("node2")],
                want: Some(vec![0, 100]),
            },
            ScoreCase {
                name: "Anti Affinity: pod that does not match topology key & match the pods in nodes will get higher score comparing to others ",
                pod: away_from_s1_in_az(pod(D, "p", SECURITY_S1)),
                existing: vec![ex("e1", "node1", SECURITY_S1), ex("e2", "node2", SECURITY_S1)],
                nodes: vec![az("node1", "az1"), china("node2")],
                want: Some(vec![0, 100]),
            },
            ScoreCase {
                name: "Anti Affinity: one node has more matching pods comparing to other node, so the node which has more unmatches will get high score",
                pod: away_from_s1_in_az(pod(D, "p", SECURITY_S1)),
                existing: vec![ex("e1", "node1", SECURITY_S1), ex("e2", "node1", SECURITY_S1), ex("e3", "node2", SECURITY_S2)],
                nodes: vec![az("node1", "az1"), india("node2")],
                want: Some(vec![0, 100]),
            },
            ScoreCase {
                name: "Anti Affinity symmetry: the existing pods in node which has anti affinity match will get high score",
                pod: pod(D, "p", SECURITY_S2),
                existing: vec![away_from_s2_in_az(ex("e1", "node1", SECURITY_S1)), away_from_s1_in_az(ex("e2", "node2", SECURITY_S2))],
                nodes: vec![az("node1", "az1"), az("node2", "az2")],
                want: Some(vec![0, 100]),
            },
            ScoreCase {
                name: "Affinity and Anti Affinity: considered only preferredDuringSchedulingIgnoredDuringExecution in both pod affinity & anti affinity",
                pod: stay_with_s1_in_region_away_from_s2_in_az(pod(D, "p", SECURITY_S1)),
                existing: vec![ex("e1", "node1", SECURITY_S1), ex("e2", "node2", SECURITY_S1)],
                nodes: vec![china("node1"), az("node2", "az1")],
                want: Some(vec![100, 0]),
            },
            ScoreCase {
                name: "Affinity and Anti Affinity: considering both affinity and anti-affinity, the pod to schedule and existing pods have the same labels",
                pod: stay_with_s1_in_region_away_from_s2_in_az(pod(D, "p", SECURITY_S1)),
                existing: vec![
                    ex("e1", "node1", SECURITY_S1),
                    ex("e2", "node1", SECURITY_S1),
                    ex("e3", "node2", SECURITY_S1),
                    ex("e4", "node3", SECURITY_S1),
                    ex("e5", "node3", SECURITY_S1),
                    ex("e6", "node4", SECURITY_S1),
                    ex("e7", "node5", SECURITY_S1),
                ],
                nodes: vec![china_az1("node1"), india("node2"), china("node3"), china("node4"), india("node5")],
                want: Some(vec![100, 0, 100, 100, 0]),
            },
            ScoreCase {
                name: "Affinity and Anti Affinity and symmetry: considered only preferredDuringSchedulingIgnoredDuringExecution in both pod affinity & anti affinity & symmetry",
                pod: stay_with_s1_in_region_away_from_s2_in_az(pod(D, "p", SECURITY_S1)),
                existing: vec![
                    ex("e1", "node1", SECURITY_S1),
                    ex("e2", "node2", SECURITY_S2),
                    stay_with_s1_in_region_away_from_s2_in_az(ex("e3", "node3", &[])),
                    away_from_s1_in_az(ex("e4", "node4", &[])),
                ],
                nodes: vec![china("node1"), az("node2", "az1"), india("node3"), az("node4", "az2")],
                want: Some(vec![100, 0, 100, 0]),
            },
            ScoreCase {
                name: "Avoid panic when partial nodes in a topology don't have pods with affinity",
                pod: pod(D, "p", SECURITY_S1),
                existing: vec![ex("e1", "node1", SECURITY_S1), stay_with_s1_in_region_away_from_s2_in_az(ex("e2", "node2", &[]))],
                nodes: vec![china("node1"), china("node2")],
                want: Some(vec![0, 0]),
            },
            ScoreCase {
                name: "Affinity with pods matching NamespaceSelector",
                pod: affinity_namespace_selector(pod("subteam1.team1", "p", SECURITY_S1)),
                existing: ns_pods("subteam1.team2"),
                nodes: vec![china("node1"), india("node2")],
                want: Some(vec![100, 0]),
            },
            ScoreCase {
                name: "Affinity with pods matching both NamespaceSelector and Namespaces fields",
                pod: affinity_namespace_selector(pod("subteam1.team1", "p", SECURITY_S1)),
                existing: ns_pods("subteam2.team2"),
                nodes: vec![china("node1"), india("node2")],
                want: Some(vec![100, 0]),
            },
            ScoreCase {
                // upstream reuses the affinity case's name for this anti-affinity case
                name: "Affinity with pods matching NamespaceSelector",
                pod: anti_affinity_namespace_selector(pod("subteam1.team1", "p", SECURITY_S1)),
                existing: ns_pods("subteam1.team2"),
                nodes: vec![china("node1"), india("node2")],
                want: Some(vec![0, 100]),
            },
            ScoreCase {
                // upstream reuses the affinity case's name for this anti-affinity case
                name: "Affinity with pods matching both NamespaceSelector and Namespaces fields",
                pod: anti_affinity_namespace_selector(pod("subteam1.team1", "p", SECURITY_S1)),
                existing: ns_pods("subteam2.team2"),
                nodes: vec![china("node1"), india("node2")],
                want: Some(vec![0, 100]),
            },
            ScoreCase {
                name: "Do not ignore preferred terms of existing pods",
                pod: pod(D, "p", SECURITY_S2),
                existing: vec![stay_with_s1_in_region_away_from_s2_in_az(ex("e1", "node1", SECURITY_S1)), stay_with_s2_in_region(ex("e2", "node2", SECURITY_S2))],
                nodes: vec![china("node1"), india("node2")],
                want: Some(vec![0, 100]),
            },
            ScoreCase {
                name: "No nodes to score",
                pod: pod(D, "p", SECURITY_S2),
                existing: vec![],
                nodes: vec![],
                want: None,
            },
        ];
        run_score_cases(cases, &team_namespaces());
    }

    // upstream: TestPreferredAffinityWithHardPodAffinitySymmetricWeight
    #[test]
    fn hard_pod_affinity_symmetric_weight_table() {
        // upstream's term names the "" namespace, its pods' own: "default" here
        let hard = |p: Value| {
            required(p, AFF, vec![ns_selector(namespaces(t_in("service", "region", &["S1"]), &[D, "subteam2.team2"]), team_in("team1"))])
        };
        let existing = || vec![hard(on(pod(D, "e1", &[]), "node1")), hard(on(pod(D, "e2", &[]), "node2"))];
        let nodes = || vec![node("node1", &[("region", "China")]), node("node2", &[("region", "India")]), node("node3", &[("az", "az1")])];
        let service_s1 = &[("service", "S1")];
        let cases = vec![
            ScoreCase {
                name: "with default weight",
                pod: pod(D, "p", service_s1),
                existing: existing(),
                nodes: nodes(),
                want: Some(vec![100, 100, 0]),
            },
            ScoreCase {
                name: "with no matching namespace",
                pod: pod("subteam1.team2", "p", service_s1),
                existing: existing(),
                nodes: nodes(),
                want: None,
            },
            ScoreCase {
                name: "with matching NamespaceSelector",
                pod: pod("subteam1.team1", "p", service_s1),
                existing: existing(),
                nodes: nodes(),
                want: Some(vec![100, 100, 0]),
            },
            ScoreCase {
                name: "with matching Namespaces",
                pod: pod("subteam2.team2", "p", service_s1),
                existing: existing(),
                nodes: nodes(),
                want: Some(vec![100, 100, 0]),
            },
        ];
        run_score_cases(cases, &team_namespaces());
    }
}
