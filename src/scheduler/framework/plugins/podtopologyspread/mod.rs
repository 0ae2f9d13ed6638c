//! PodTopologySpread: the pod's `topologySpreadConstraints` — `DoNotSchedule` ones filter nodes
//! by skew, `ScheduleAnyway` ones score them — and, for a pod with none that a Service,
//! ReplicaSet or StatefulSet selects, the **system default** constraints (hostname maxSkew 3,
//! zone maxSkew 5, `ScheduleAnyway`), which every Deployment's Pods are scored by.
//!
//! Real counterpart: `pkg/scheduler/framework/plugins/podtopologyspread/` — `plugin.go`
//! (`systemDefaultConstraints`, `DefaultingType: System`), `common.go`
//! (`filterTopologySpreadConstraints`, `buildDefaultConstraints`,
//! `nodeLabelsMatchSpreadConstraints`, `countPodsMatchSelector`, `matchNodeInclusionPolicies`),
//! `filtering.go` (`calPreFilterState`, `Filter`, `minMatchNum`, `AddPod`/`RemovePod`) and
//! `scoring.go` (`initPreScoreState`, `PreScore`, `Score`, `NormalizeScore`,
//! `topologyNormalizingWeight`, `scoreForCount`). v1.34's gates: NodeInclusionPolicy (GA),
//! matchLabelKeys (the API server merges them into the selector at creation; kubesim merges them
//! here, with the same effect on placement).

pub mod filtering;
pub mod scoring;

use crate::scheduler::framework::listers::Listers;
use crate::scheduler::framework::types::{find_untolerated_do_not_schedule_taint, Labels, NodeInfo, Op, PodInfo, Requirement, RequiredNodeAffinity, Selector};
pub use filtering::PreFilterState;
pub use scoring::PreScoreState;

pub const NAME: &str = "PodTopologySpread";
pub const ERR_REASON_CONSTRAINTS_NOT_MATCH: &str = "node(s) didn't match pod topology spread constraints";
pub const ERR_REASON_NODE_LABEL_NOT_MATCH: &str = "node(s) didn't match pod topology spread constraints (missing required label)";

pub const LABEL_HOSTNAME: &str = "kubernetes.io/hostname";
pub const LABEL_TOPOLOGY_ZONE: &str = "topology.kubernetes.io/zone";

/// The plugin's internal form of a constraint (`topologySpreadConstraint`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Constraint {
    pub max_skew: i64,
    pub topology_key: String,
    pub selector: Selector,
    pub min_domains: i64,
    pub honor_node_affinity: bool,
    pub honor_node_taints: bool,
}

impl Constraint {
    /// `matchNodeInclusionPolicies`.
    pub fn match_node_inclusion_policies(&self, pod: &PodInfo, node: &NodeInfo, required: &RequiredNodeAffinity) -> bool {
        if self.honor_node_affinity && !required.matches(&node.labels, node.name()) {
            return false;
        }
        if self.honor_node_taints && find_untolerated_do_not_schedule_taint(&node.taints, &pod.tolerations).is_some() {
            return false;
        }
        true
    }
}

/// `systemDefaultConstraints`.
fn system_default_constraints() -> [(&'static str, i64); 2] {
    [(LABEL_HOSTNAME, 3), (LABEL_TOPOLOGY_ZONE, 5)]
}

/// `filterTopologySpreadConstraints`: the pod's constraints with this `whenUnsatisfiable`, their
/// selectors parsed, `matchLabelKeys` merged.
pub fn filter_constraints(pod: &PodInfo, do_not_schedule: bool) -> Vec<Constraint> {
    pod.topology_spread_constraints
        .iter()
        .filter(|c| c.do_not_schedule == do_not_schedule)
        .map(|c| {
            let mut selector = c.selector.clone();
            let merged: Vec<Requirement> = c
                .match_label_keys
                .iter()
                .filter_map(|k| pod.labels.get(k).map(|v| Requirement { key: k.clone(), op: Op::In, values: vec![v.clone()] }))
                .collect();
            selector.add(&merged);
            Constraint {
                max_skew: c.max_skew,
                topology_key: c.topology_key.clone(),
                selector,
                min_domains: c.min_domains.unwrap_or(1),
                honor_node_affinity: c.honor_node_affinity,
                honor_node_taints: c.honor_node_taints,
            }
        })
        .collect()
}

/// `buildDefaultConstraints`: the system defaults (all `ScheduleAnyway`) with the pod's
/// `DefaultSelector`; none when that selector is empty.
pub fn build_default_constraints(pod: &PodInfo, listers: &Listers, do_not_schedule: bool) -> Vec<Constraint> {
    if do_not_schedule {
        return Vec::new();
    }
    let selector = listers.default_selector(pod);
    if selector.is_empty() {
        return Vec::new();
    }
    system_default_constraints()
        .iter()
        .map(|(key, skew)| Constraint {
            max_skew: *skew,
            topology_key: key.to_string(),
            selector: selector.clone(),
            min_domains: 1,
            honor_node_affinity: true,
            honor_node_taints: false,
        })
        .collect()
}

/// The constraints a phase uses: the pod's own when it has any, the system defaults otherwise.
pub fn constraints_for(pod: &PodInfo, listers: &Listers, do_not_schedule: bool) -> Vec<Constraint> {
    if !pod.topology_spread_constraints.is_empty() {
        filter_constraints(pod, do_not_schedule)
    } else {
        build_default_constraints(pod, listers, do_not_schedule)
    }
}

/// `nodeLabelsMatchSpreadConstraints`: the node has every constraint's topology key.
pub fn node_labels_match_spread_constraints(labels: &Labels, constraints: &[Constraint]) -> bool {
    constraints.iter().all(|c| labels.contains_key(&c.topology_key))
}

/// `countPodsMatchSelector`: pods of the namespace the selector matches, terminating ones left out;
/// an empty selector counts nothing.
pub fn count_pods_match_selector(pods: &[std::rc::Rc<PodInfo>], selector: &Selector, ns: &str) -> i64 {
    if selector.is_empty() {
        return 0;
    }
    pods.iter().filter(|p| !p.deleting && p.namespace == ns && selector.matches(&p.labels)).count() as i64
}

/// Upstream's own plugin tests (`filtering_test.go`, `scoring_test.go`), case by case: each Pod
/// and Node written as the JSON that `st.MakePod()`/`st.MakeNode()` build, the verdicts and the
/// normalized scores as upstream expects them. Upstream's pods without a namespace are in
/// "default" here; NodeInclusionPolicy and matchLabelKeys are always on (v1.34).
#[cfg(test)]
mod tests {
    use super::{filtering, scoring, LABEL_HOSTNAME as HOST};
    use crate::scheduler::framework::interface::Code::{self, Success as S, Unschedulable as U, UnschedulableAndUnresolvable as UU};
    use crate::scheduler::framework::listers::Listers;
    use crate::scheduler::framework::types::{NodeInfo, PodInfo};
    use crate::scheduler::internal::cache::Snapshot;
    use serde_json::{json, Map, Value};

    const FOO: &[(&str, &str)] = &[("foo", "")];
    const BAR: &[(&str, &str)] = &[("bar", "")];
    const FOO_BAR: &[(&str, &str)] = &[("foo", ""), ("bar", "")];

    fn labels(l: &[(&str, &str)]) -> Value {
        Value::Object(l.iter().map(|(k, v)| (k.to_string(), json!(v))).collect::<Map<_, _>>())
    }

    /// `st.MakeNode().Name(name).Label(k, v)...`
    fn node(name: &str, l: &[(&str, &str)]) -> Value {
        json!({"metadata": {"name": name, "labels": labels(l)}, "spec": {}})
    }

    /// A node with labels `zone` and `node` (the usual four-node fixture).
    fn zn(name: &str, zone: &str) -> Value {
        node(name, &[("zone", zone), ("node", name)])
    }

    /// `.Taints(taints)`: `node.kubernetes.io/unschedulable:NoSchedule`.
    fn tainted(mut n: Value) -> Value {
        n["spec"]["taints"] = json!([{"key": "node.kubernetes.io/unschedulable", "effect": "NoSchedule"}]);
        n
    }

    /// `st.MakePod().Name(name).Label(k, v)...` (namespace "default").
    fn pod(name: &str, l: &[(&str, &str)]) -> Value {
        json!({"metadata": {"name": name, "namespace": "default", "labels": labels(l)}, "spec": {}})
    }

    /// An existing pod: `st.MakePod().Name(name).Node(node).Label(..)`.
    fn on(node: &str, name: &str, l: &[(&str, &str)]) -> Value {
        let mut p = pod(name, l);
        p["spec"]["nodeName"] = json!(node);
        p
    }

    /// `.Namespace(ns)`.
    fn in_ns(mut p: Value, ns: &str) -> Value {
        p["metadata"]["namespace"] = json!(ns);
        p
    }

    /// `.Terminating()`.
    fn terminating(mut p: Value) -> Value {
        p["metadata"]["deletionTimestamp"] = json!("2025-01-01T00:00:00Z");
        p
    }

    /// `.NodeSelector(map[string]string{k: v})`.
    fn node_selector(mut p: Value, k: &str, v: &str) -> Value {
        p["spec"]["nodeSelector"] = json!({ k: v });
        p
    }

    /// `.NodeAffinityIn(key, vals, MatchExpressions)` / `.NodeAffinityNotIn(key, vals)`.
    fn node_affinity(mut p: Value, key: &str, op: &str, vals: &[&str]) -> Value {
        p["spec"]["affinity"] = json!({"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {
            "nodeSelectorTerms": [{"matchExpressions": [{"key": key, "operator": op, "values": vals}]}]}}});
        p
    }

    /// `st.MakeLabelSelector().Exists(key).Obj()` (fooSelector, barSelector).
    fn exists(key: &str) -> Value {
        json!({"matchExpressions": [{"key": key, "operator": "Exists"}]})
    }

    /// `SpreadConstraint(maxSkew, key, action, selector, nil, nil, nil, nil)`; a `Value::Null`
    /// selector is a nil one.
    fn tsc(max_skew: i64, key: &str, action: &str, selector: Value) -> Value {
        let mut c = json!({"maxSkew": max_skew, "topologyKey": key, "whenUnsatisfiable": action});
        if !selector.is_null() {
            c["labelSelector"] = selector;
        }
        c
    }

    /// One more field of a constraint (minDomains, nodeAffinityPolicy, nodeTaintsPolicy, matchLabelKeys).
    fn with(mut c: Value, field: &str, v: Value) -> Value {
        c[field] = v;
        c
    }

    fn spread(mut p: Value, constraints: Vec<Value>) -> Value {
        p["spec"]["topologySpreadConstraints"] = Value::Array(constraints);
        p
    }

    const DNS: &str = "DoNotSchedule";
    const SA: &str = "ScheduleAnyway";

    /// `cache.NewSnapshot(existingPods, nodes)`: each node with the pods bound to it.
    fn node_infos(nodes: &[Value], pods: &[Value]) -> Vec<NodeInfo> {
        crate::scheduler::framework::testing::node_infos_of(nodes, pods)
    }

    struct FilterCase {
        name: &'static str,
        pod: Value,
        nodes: Vec<Value>,
        existing: Vec<Value>,
        want: Vec<(&'static str, Code)>,
    }

    /// PreFilter over all nodes, then Filter on each; upstream compares the status codes.
    fn run_filter_cases(cases: Vec<FilterCase>) {
        let mut failures = Vec::new();
        for c in cases {
            let pod = PodInfo::from_value(c.pod);
            let snapshot = Snapshot::new(node_infos(&c.nodes, &c.existing));
            let state = filtering::pre_filter(&pod, &snapshot, &Listers::default());
            let got: Vec<(String, Code)> = snapshot
                .node_info_list()
                .iter()
                .map(|ni| {
                    let code = match &state {
                        None => S,
                        Some(s) => filtering::filter(s, &pod, ni).code,
                    };
                    (ni.name().to_string(), code)
                })
                .collect();
            let want: Vec<(String, Code)> = c.want.iter().map(|(n, code)| (n.to_string(), *code)).collect();
            if got != want {
                failures.push(format!("{}:\n  want {:?}\n  got  {:?}", c.name, want, got));
            }
        }
        assert!(failures.is_empty(), "{} case(s) failed:\n{}", failures.len(), failures.join("\n"));
    }

    #[derive(Default)]
    struct ScoreCase {
        name: &'static str,
        pod: Value,
        existing: Vec<Value>,
        /// The feasible nodes, scored in this order.
        nodes: Vec<Value>,
        /// Nodes in the snapshot that did not pass the filters.
        failed: Vec<Value>,
        listers: Listers,
        want: Vec<(&'static str, i64)>,
    }

    /// PreScore over the feasible nodes, Score each, NormalizeScore; upstream compares the
    /// normalized scores.
    fn run_score_cases(cases: Vec<ScoreCase>) {
        let mut failures = Vec::new();
        for c in cases {
            let pod = PodInfo::from_value(c.pod);
            let all: Vec<Value> = c.nodes.iter().chain(c.failed.iter()).cloned().collect();
            let snapshot = Snapshot::new(node_infos(&all, &c.existing));
            let feasible: Vec<&NodeInfo> = c.nodes.iter().map(|n| snapshot.get(n["metadata"]["name"].as_str().unwrap()).unwrap()).collect();
            let Some(state) = scoring::pre_score(&pod, &feasible, &snapshot, &c.listers) else {
                failures.push(format!("{}: PreScore skipped", c.name));
                continue;
            };
            let mut scores: Vec<i64> = feasible.iter().map(|ni| scoring::score(&state, &pod, ni)).collect();
            let names: Vec<&str> = feasible.iter().map(|ni| ni.name()).collect();
            scoring::normalize_score(&state, &names, &mut scores);
            let got: Vec<(String, i64)> = names.iter().map(|n| n.to_string()).zip(scores).collect();
            let want: Vec<(String, i64)> = c.want.iter().map(|(n, s)| (n.to_string(), *s)).collect();
            if got != want {
                failures.push(format!("{}:\n  want {:?}\n  got  {:?}", c.name, want, got));
            }
        }
        assert!(failures.is_empty(), "{} case(s) failed:\n{}", failures.len(), failures.join("\n"));
    }

    fn abxy() -> Vec<Value> {
        vec![zn("node-a", "zone1"), zn("node-b", "zone1"), zn("node-x", "zone2"), zn("node-y", "zone2")]
    }

    /// The "2/1/0/3" spread on the `node` key.
    fn pods_2_1_0_3() -> Vec<Value> {
        vec![
            on("node-a", "p-a1", FOO),
            on("node-a", "p-a2", FOO),
            on("node-b", "p-b1", FOO),
            on("node-y", "p-y1", FOO),
            on("node-y", "p-y2", FOO),
            on("node-y", "p-y3", FOO),
        ]
    }

    /// The "1/1/0/1" fixture of the node inclusion policy cases: nodes a, b, x labelled
    /// `foo` (x without pods), y not.
    fn inclusion_nodes(taint_y: bool) -> Vec<Value> {
        let y = node("node-y", &[("node", "node-y")]);
        vec![
            node("node-a", &[("node", "node-a"), ("foo", "")]),
            node("node-b", &[("node", "node-b"), ("foo", "")]),
            node("node-x", &[("node", "node-x"), ("foo", "")]),
            if taint_y { tainted(y) } else { y },
        ]
    }

    fn inclusion_pods() -> Vec<Value> {
        vec![on("node-a", "p-b1", FOO), on("node-b", "p-b2", FOO), on("node-y", "p-y1", FOO)]
    }

    // upstream: TestSingleConstraint
    #[test]
    fn single_constraint_filter_table() {
        let p = || pod("p", FOO);
        run_filter_cases(vec![
            FilterCase {
                name: "no existing pods",
                pod: spread(p(), vec![tsc(1, "zone", DNS, exists("foo"))]),
                nodes: abxy(),
                existing: vec![],
                want: vec![("node-a", S), ("node-b", S), ("node-x", S), ("node-y", S)],
            },
            FilterCase {
                name: "no existing pods, incoming pod doesn't match itself",
                pod: spread(p(), vec![tsc(1, "zone", DNS, exists("bar"))]),
                nodes: abxy(),
                existing: vec![],
                want: vec![("node-a", S), ("node-b", S), ("node-x", S), ("node-y", S)],
            },
            FilterCase {
                name: "existing pods in a different namespace do not count",
                pod: spread(p(), vec![tsc(1, "zone", DNS, exists("foo"))]),
                nodes: abxy(),
                existing: vec![
                    in_ns(on("node-a", "p-a1", FOO), "ns1"),
                    in_ns(on("node-a", "p-b1", FOO), "ns2"),
                    on("node-x", "p-x1", FOO),
                    on("node-y", "p-y1", FOO),
                ],
                want: vec![("node-a", S), ("node-b", S), ("node-x", U), ("node-y", U)],
            },
            FilterCase {
                name: "existing pods do not match null selector",
                pod: spread(p(), vec![tsc(1, "zone", DNS, Value::Null)]),
                nodes: abxy(),
                existing: vec![on("node-x", "p-x1", FOO), on("node-y", "p-y1", FOO)],
                want: vec![("node-a", S), ("node-b", S), ("node-x", S), ("node-y", S)],
            },
            FilterCase {
                name: "pods spread across zones as 3/3, all nodes fit",
                pod: spread(p(), vec![tsc(1, "zone", DNS, exists("foo"))]),
                nodes: abxy(),
                existing: pods_2_1_0_3(),
                want: vec![("node-a", S), ("node-b", S), ("node-x", S), ("node-y", S)],
            },
            FilterCase {
                name: "pods spread across zones as 1/2 due to absence of label 'zone' on node-b",
                pod: spread(p(), vec![tsc(1, "zone", DNS, exists("foo"))]),
                nodes: vec![zn("node-a", "zone1"), node("node-b", &[("zon", "zone1"), ("node", "node-b")]), zn("node-x", "zone2"), zn("node-y", "zone2")],
                existing: vec![on("node-a", "p-a1", FOO), on("node-b", "p-b1", FOO), on("node-x", "p-x1", FOO), on("node-y", "p-y1", FOO)],
                want: vec![("node-a", S), ("node-b", UU), ("node-x", U), ("node-y", U)],
            },
            FilterCase {
                name: "pod cannot be scheduled as all nodes don't have label 'rack'",
                pod: spread(p(), vec![tsc(1, "rack", DNS, exists("foo"))]),
                nodes: vec![zn("node-a", "zone1"), zn("node-x", "zone2")],
                existing: vec![],
                want: vec![("node-a", UU), ("node-x", UU)],
            },
            FilterCase {
                name: "pods spread across nodes as 2/1/0/3, only node-x fits",
                pod: spread(p(), vec![tsc(1, "node", DNS, exists("foo"))]),
                nodes: abxy(),
                existing: pods_2_1_0_3(),
                want: vec![("node-a", U), ("node-b", U), ("node-x", S), ("node-y", U)],
            },
            FilterCase {
                name: "pods spread across nodes as 2/1/0/3, maxSkew is 2, node-b and node-x fit",
                pod: spread(p(), vec![tsc(2, "node", DNS, exists("foo"))]),
                nodes: abxy(),
                existing: pods_2_1_0_3(),
                want: vec![("node-a", U), ("node-b", S), ("node-x", S), ("node-y", U)],
            },
            FilterCase {
                name: "pods spread across nodes as 2/1/0/3, but pod doesn't match itself",
                pod: spread(pod("p", BAR), vec![tsc(1, "node", DNS, exists("foo"))]),
                nodes: abxy(),
                existing: pods_2_1_0_3(),
                want: vec![("node-a", U), ("node-b", S), ("node-x", S), ("node-y", U)],
            },
            FilterCase {
                // node-b and node-x fit only because NodeAffinity's own filter is not run here
                name: "incoming pod has nodeAffinity, pods spread as 2/~1~/~0~/3, hence node-a fits",
                pod: spread(node_affinity(p(), "node", "In", &["node-a", "node-y"]), vec![tsc(1, "node", DNS, exists("foo"))]),
                nodes: abxy(),
                existing: pods_2_1_0_3(),
                want: vec![("node-a", S), ("node-b", S), ("node-x", S), ("node-y", U)],
            },
            FilterCase {
                name: "terminating Pods should be excluded",
                pod: spread(p(), vec![tsc(1, "node", DNS, exists("foo"))]),
                nodes: vec![node("node-a", &[("node", "node-a")]), node("node-b", &[("node", "node-b")])],
                existing: vec![terminating(on("node-a", "p-a", FOO)), on("node-b", "p-b", FOO)],
                want: vec![("node-a", S), ("node-b", U)],
            },
            FilterCase {
                name: "incoming pod has nodeAffinity, pods spread as 0/~2~/0/1, hence node-a fits",
                pod: spread(node_affinity(p(), "node", "NotIn", &["node-b"]), vec![tsc(1, "zone", DNS, exists("foo"))]),
                nodes: abxy(),
                existing: vec![on("node-b", "p-b1", FOO), on("node-b", "p-b2", FOO), on("node-y", "p-y1", FOO)],
                want: vec![("node-a", S), ("node-b", S), ("node-x", U), ("node-y", U)],
            },
            FilterCase {
                name: "pods spread across nodes as 2/2/1, maxSkew is 2, and the number of domains < minDomains, then the third node fits",
                pod: spread(p(), vec![with(tsc(2, "node", DNS, exists("foo")), "minDomains", json!(4))]),
                nodes: vec![node("node-a", &[("node", "node-a")]), node("node-b", &[("node", "node-b")]), node("node-c", &[("node", "node-c")])],
                existing: vec![
                    on("node-a", "p-a1", FOO),
                    on("node-a", "p-a2", FOO),
                    on("node-b", "p-b1", FOO),
                    on("node-b", "p-b2", FOO),
                    on("node-c", "p-c1", FOO),
                ],
                want: vec![("node-a", U), ("node-b", U), ("node-c", S)],
            },
            FilterCase {
                name: "pods spread across nodes as 2/2/1, maxSkew is 2, and the number of domains > minDomains, then the all nodes fit",
                pod: spread(p(), vec![with(tsc(2, "node", DNS, exists("foo")), "minDomains", json!(2))]),
                nodes: vec![node("node-a", &[("node", "node-a")]), node("node-b", &[("node", "node-b")]), node("node-c", &[("node", "node-c")])],
                existing: vec![
                    on("node-a", "p-a1", FOO),
                    on("node-a", "p-a2", FOO),
                    on("node-b", "p-b1", FOO),
                    on("node-b", "p-b2", FOO),
                    on("node-c", "p-c1", FOO),
                ],
                want: vec![("node-a", S), ("node-b", S), ("node-c", S)],
            },
            FilterCase {
                name: "pods spread across zone as 2/1, maxSkew is 2 and the number of domains < minDomains, then the third and fourth nodes fit",
                pod: spread(p(), vec![with(tsc(2, "zone", DNS, exists("foo")), "minDomains", json!(3))]),
                nodes: abxy(),
                existing: vec![on("node-a", "p-b1", FOO), on("node-b", "p-b2", FOO), on("node-y", "p-y1", FOO)],
                want: vec![("node-a", U), ("node-b", U), ("node-x", S), ("node-y", S)],
            },
            FilterCase {
                name: "pods spread across zone as 2/1, maxSkew is 2 and the number of domains > minDomains, then the all nodes fit",
                pod: spread(p(), vec![with(tsc(2, "zone", DNS, exists("foo")), "minDomains", json!(1))]),
                nodes: abxy(),
                existing: vec![on("node-a", "p-b1", FOO), on("node-b", "p-b2", FOO), on("node-y", "p-y1", FOO)],
                want: vec![("node-a", S), ("node-b", S), ("node-x", S), ("node-y", S)],
            },
            FilterCase {
                // node-y fits only because NodeAffinity's own filter is not run here
                name: "NodeAffinityPolicy honored with labelSelectors",
                pod: spread(node_selector(p(), "foo", ""), vec![tsc(1, "node", DNS, exists("foo"))]),
                nodes: inclusion_nodes(false),
                existing: inclusion_pods(),
                want: vec![("node-a", U), ("node-b", U), ("node-x", S), ("node-y", S)],
            },
            FilterCase {
                name: "NodeAffinityPolicy ignored with labelSelectors",
                pod: spread(node_selector(p(), "foo", ""), vec![with(tsc(1, "node", DNS, exists("foo")), "nodeAffinityPolicy", json!("Ignore"))]),
                nodes: inclusion_nodes(false),
                existing: inclusion_pods(),
                want: vec![("node-a", U), ("node-b", U), ("node-x", S), ("node-y", U)],
            },
            FilterCase {
                name: "NodeAffinityPolicy honored with nodeAffinity",
                pod: spread(node_affinity(p(), "foo", "In", &[""]), vec![tsc(1, "node", DNS, exists("foo"))]),
                nodes: inclusion_nodes(false),
                existing: inclusion_pods(),
                want: vec![("node-a", U), ("node-b", U), ("node-x", S), ("node-y", S)],
            },
            FilterCase {
                // upstream reuses the name of the labelSelectors case; this one is the nodeAffinity variant
                name: "NodeAffinityPolicy ignored with labelSelectors",
                pod: spread(node_affinity(p(), "foo", "In", &[""]), vec![with(tsc(1, "node", DNS, exists("foo")), "nodeAffinityPolicy", json!("Ignore"))]),
                nodes: inclusion_nodes(false),
                existing: inclusion_pods(),
                want: vec![("node-a", U), ("node-b", U), ("node-x", S), ("node-y", U)],
            },
            FilterCase {
                // node-y fits only because TaintToleration's own filter is not run here
                name: "NodeTaintsPolicy honored",
                pod: spread(p(), vec![with(tsc(1, "node", DNS, exists("foo")), "nodeTaintsPolicy", json!("Honor"))]),
                nodes: inclusion_nodes(true),
                existing: inclusion_pods(),
                want: vec![("node-a", U), ("node-b", U), ("node-x", S), ("node-y", S)],
            },
            FilterCase {
                name: "NodeTaintsPolicy ignored",
                pod: spread(p(), vec![tsc(1, "node", DNS, exists("foo"))]),
                nodes: inclusion_nodes(true),
                existing: inclusion_pods(),
                want: vec![("node-a", U), ("node-b", U), ("node-x", S), ("node-y", U)],
            },
        ]);
    }

    // upstream: TestMultipleConstraints
    #[test]
    fn multiple_constraints_filter_table() {
        let zone_node_foo = || spread(pod("p", FOO), vec![tsc(1, "zone", DNS, exists("foo")), tsc(1, "node", DNS, exists("foo"))]);
        let zone_foo_node_bar = |l: &[(&str, &str)]| spread(pod("p", l), vec![tsc(1, "zone", DNS, exists("foo")), tsc(1, "node", DNS, exists("bar"))]);
        let zone_bar_zone_foo = || spread(pod("p", FOO_BAR), vec![tsc(1, "zone", DNS, exists("bar")), tsc(1, "zone", DNS, exists("foo"))]);
        let foo_nodes = |b_foo: bool, y_foo: bool, y_taint: bool| {
            let mut b: Vec<(&str, &str)> = vec![("zone", "zone1"), ("node", "node-b")];
            if b_foo {
                b.push(("foo", ""));
            }
            let mut y: Vec<(&str, &str)> = vec![("zone", "zone2"), ("node", "node-y")];
            if y_foo {
                y.push(("foo", ""));
            }
            let y = node("node-y", &y);
            vec![
                node("node-a", &[("zone", "zone1"), ("node", "node-a"), ("foo", "")]),
                node("node-b", &b),
                node("node-x", &[("zone", "zone2"), ("node", "node-x"), ("foo", "")]),
                if y_taint { tainted(y) } else { y },
            ]
        };
        let a1_b1_y1 = || vec![on("node-a", "p-a1", FOO), on("node-b", "p-b1", FOO), on("node-y", "p-y1", FOO)];
        run_filter_cases(vec![
            FilterCase {
                name: "two Constraints on zone and node, spreads = [3/3, 2/1/0/3]",
                pod: zone_node_foo(),
                nodes: abxy(),
                existing: pods_2_1_0_3(),
                want: vec![("node-a", U), ("node-b", U), ("node-x", S), ("node-y", U)],
            },
            FilterCase {
                name: "two Constraints on zone and node, spreads = [3/4, 2/1/0/4]",
                pod: zone_node_foo(),
                nodes: abxy(),
                existing: {
                    let mut v = pods_2_1_0_3();
                    v.push(on("node-y", "p-y4", FOO));
                    v
                },
                want: vec![("node-a", U), ("node-b", U), ("node-x", U), ("node-y", U)],
            },
            FilterCase {
                name: "Constraints hold different labelSelectors, spreads = [1/0, 1/0/0/1]",
                pod: zone_foo_node_bar(FOO_BAR),
                nodes: abxy(),
                existing: vec![on("node-a", "p-a1", FOO), on("node-y", "p-y1", BAR)],
                want: vec![("node-a", U), ("node-b", U), ("node-x", S), ("node-y", U)],
            },
            FilterCase {
                name: "Constraints hold different labelSelectors, spreads = [1/0, 0/0/1/1]",
                pod: zone_foo_node_bar(FOO_BAR),
                nodes: abxy(),
                existing: vec![on("node-a", "p-a1", FOO), on("node-x", "p-x1", BAR), on("node-y", "p-y1", BAR)],
                want: vec![("node-a", U), ("node-b", U), ("node-x", U), ("node-y", U)],
            },
            FilterCase {
                name: "Constraints hold different labelSelectors, spreads = [2/3, 1/0/0/1]",
                pod: zone_foo_node_bar(FOO_BAR),
                nodes: abxy(),
                existing: vec![
                    on("node-a", "p-a1", FOO),
                    on("node-a", "p-a2", FOO_BAR),
                    on("node-y", "p-y1", FOO),
                    on("node-y", "p-y2", FOO_BAR),
                    on("node-y", "p-y3", FOO),
                ],
                want: vec![("node-a", U), ("node-b", S), ("node-x", U), ("node-y", U)],
            },
            FilterCase {
                name: "Constraints hold different labelSelectors but pod doesn't match itself on 'zone' constraint",
                pod: zone_foo_node_bar(BAR),
                nodes: abxy(),
                existing: vec![on("node-a", "p-a1", FOO), on("node-x", "p-x1", BAR), on("node-y", "p-y1", BAR)],
                want: vec![("node-a", S), ("node-b", S), ("node-x", U), ("node-y", U)],
            },
            FilterCase {
                name: "two Constraints on zone and node, absence of label 'node' on node-x, spreads = [1/1, 1/0/0/1]",
                pod: zone_node_foo(),
                nodes: vec![zn("node-a", "zone1"), zn("node-b", "zone1"), node("node-x", &[("zone", "zone2")]), zn("node-y", "zone2")],
                existing: vec![on("node-a", "p-a1", FOO), on("node-y", "p-y3", FOO)],
                want: vec![("node-a", U), ("node-b", S), ("node-x", UU), ("node-y", U)],
            },
            FilterCase {
                name: "two node inclusion Constraints, zone: honor/ignore, node: ignore/ignore",
                pod: spread(
                    node_selector(pod("p", FOO), "foo", ""),
                    vec![tsc(1, "zone", DNS, exists("foo")), with(tsc(1, "node", DNS, exists("foo")), "nodeAffinityPolicy", json!("Ignore"))],
                ),
                nodes: foo_nodes(true, false, false),
                existing: a1_b1_y1(),
                want: vec![("node-a", U), ("node-b", U), ("node-x", S), ("node-y", U)],
            },
            FilterCase {
                name: "two node inclusion Constraints, zone: honor/honor, node: honor/ignore",
                pod: spread(pod("p", FOO), vec![with(tsc(1, "zone", DNS, exists("foo")), "nodeTaintsPolicy", json!("Honor")), tsc(1, "node", DNS, exists("foo"))]),
                nodes: foo_nodes(true, false, true),
                existing: a1_b1_y1(),
                want: vec![("node-a", U), ("node-b", U), ("node-x", S), ("node-y", U)],
            },
            FilterCase {
                name: "two node inclusion Constraints, zone: honor/ignore, node: honor/ignore",
                pod: spread(node_selector(pod("p", FOO), "foo", ""), vec![tsc(1, "zone", DNS, exists("foo")), tsc(1, "node", DNS, exists("foo"))]),
                nodes: foo_nodes(false, true, true),
                existing: a1_b1_y1(),
                want: vec![("node-a", U), ("node-b", S), ("node-x", S), ("node-y", U)],
            },
            FilterCase {
                name: "two node inclusion Constraints, zone: honor/honor, node: ignore/ignore",
                pod: spread(
                    node_selector(pod("p", FOO), "foo", ""),
                    vec![
                        with(tsc(1, "zone", DNS, exists("foo")), "nodeTaintsPolicy", json!("Honor")),
                        with(tsc(1, "node", DNS, exists("foo")), "nodeAffinityPolicy", json!("Ignore")),
                    ],
                ),
                nodes: foo_nodes(false, true, true),
                existing: a1_b1_y1(),
                want: vec![("node-a", U), ("node-b", U), ("node-x", S), ("node-y", U)],
            },
            FilterCase {
                name: "two Constraints on zone, spreads = [3/3, 2/1]",
                pod: zone_bar_zone_foo(),
                nodes: abxy(),
                existing: vec![
                    on("node-a", "p-a1", FOO_BAR),
                    on("node-a", "p-a2", FOO),
                    on("node-b", "p-b1", FOO_BAR),
                    on("node-y", "p-y1", FOO),
                    on("node-y", "p-y2", FOO_BAR),
                    on("node-y", "p-y3", FOO),
                ],
                want: vec![("node-a", U), ("node-b", U), ("node-x", S), ("node-y", S)],
            },
            FilterCase {
                name: "two Constraints on zone, spreads = [3/4, 2/1]",
                pod: zone_bar_zone_foo(),
                nodes: abxy(),
                existing: vec![
                    on("node-a", "p-a1", FOO_BAR),
                    on("node-a", "p-a2", FOO),
                    on("node-b", "p-b1", FOO_BAR),
                    on("node-y", "p-y1", FOO),
                    on("node-y", "p-y2", FOO_BAR),
                    on("node-y", "p-y3", FOO),
                    on("node-y", "p-y4", FOO),
                ],
                want: vec![("node-a", U), ("node-b", U), ("node-x", U), ("node-y", U)],
            },
        ]);
    }

    fn hosts(names: &[&str]) -> Vec<Value> {
        names.iter().map(|n| node(n, &[(HOST, n)])).collect()
    }

    fn nodes_abc_key(key: &str) -> Vec<Value> {
        ["node-a", "node-b", "node-c"].iter().map(|n| node(n, &[(key, n)])).collect()
    }

    /// The "4/3/2/1" spread on nodes a..d.
    fn pods_4_3_2_1() -> Vec<Value> {
        vec![
            on("node-a", "p-a1", FOO),
            on("node-a", "p-a2", FOO),
            on("node-a", "p-a3", FOO),
            on("node-a", "p-a4", FOO),
            on("node-b", "p-b1", FOO),
            on("node-b", "p-b2", FOO),
            on("node-b", "p-b3", FOO),
            on("node-c", "p-c1", FOO),
            on("node-c", "p-c2", FOO),
            on("node-d", "p-d1", FOO),
        ]
    }

    /// The "4/2/1/3" spread on nodes a, b, x, y.
    fn pods_4_2_1_3() -> Vec<Value> {
        vec![
            on("node-a", "p-a1", FOO),
            on("node-a", "p-a2", FOO),
            on("node-a", "p-a3", FOO),
            on("node-a", "p-a4", FOO),
            on("node-b", "p-b1", FOO),
            on("node-b", "p-b2", FOO),
            on("node-x", "p-x1", FOO),
            on("node-y", "p-y1", FOO),
            on("node-y", "p-y2", FOO),
            on("node-y", "p-y3", FOO),
        ]
    }

    /// The "2/1/0/3" spread on nodes a..d.
    fn pods_2_1_0_3_abcd() -> Vec<Value> {
        vec![
            on("node-a", "p-a1", FOO),
            on("node-a", "p-a2", FOO),
            on("node-b", "p-b1", FOO),
            on("node-d", "p-d1", FOO),
            on("node-d", "p-d2", FOO),
            on("node-d", "p-d3", FOO),
        ]
    }

    fn zh(name: &str, zone: &str) -> Value {
        node(name, &[("zone", zone), (HOST, name)])
    }

    /// The "2/1/1" spread of the node inclusion policy score cases.
    fn pods_2_1_1() -> Vec<Value> {
        vec![on("node-a", "p-a1", FOO), on("node-a", "p-a2", FOO), on("node-b", "p-b1", FOO), on("node-c", "p-c1", FOO)]
    }

    fn inclusion_score_nodes() -> Vec<Value> {
        vec![
            node("node-a", &[("node", "node-a"), ("foo", "")]),
            node("node-b", &[("node", "node-b"), ("foo", "")]),
            node("node-c", &[("node", "node-c")]),
        ]
    }

    /// The pods of the different-labelSelectors and matchLabelKeys cases (P{foo} on a,
    /// P{foo,bar} on b, P{foo} P{bar} on the fourth node).
    fn pods_mixed(last: &str) -> Vec<Value> {
        vec![on("node-a", "p-a1", FOO), on("node-b", "p-b1", FOO_BAR), on(last, "p-y1", FOO), on(last, "p-y2", BAR)]
    }

    // upstream: TestPodTopologySpreadScore
    #[test]
    fn pod_topology_spread_score_table() {
        let host_foo = |skew: i64| spread(pod("p", FOO), vec![tsc(skew, HOST, SA, exists("foo"))]);
        let zone_foo_host_bar = || spread(pod("p", FOO_BAR), vec![tsc(1, "zone", SA, exists("foo")), tsc(1, HOST, SA, exists("bar"))]);
        let mut service_listers = Listers::default();
        service_listers.services.insert("default/svc".into(), [("foo".to_string(), String::new())].into_iter().collect());
        run_score_cases(vec![
            ScoreCase {
                name: "one constraint on node, no existing pods",
                pod: host_foo(1),
                nodes: hosts(&["node-a", "node-b"]),
                want: vec![("node-a", 100), ("node-b", 100)],
                ..Default::default()
            },
            ScoreCase {
                name: "one constraint on node, only one node is candidate",
                pod: host_foo(1),
                existing: vec![on("node-a", "p-a1", FOO), on("node-a", "p-a2", FOO), on("node-b", "p-b1", FOO)],
                nodes: hosts(&["node-a"]),
                failed: hosts(&["node-b"]),
                want: vec![("node-a", 100)],
                ..Default::default()
            },
            ScoreCase {
                name: "one constraint on node, all nodes have the same number of matching pods",
                pod: host_foo(1),
                existing: vec![on("node-a", "p-a1", FOO), on("node-b", "p-b1", FOO)],
                nodes: hosts(&["node-a", "node-b"]),
                want: vec![("node-a", 100), ("node-b", 100)],
                ..Default::default()
            },
            ScoreCase {
                name: "one constraint on node, all 4 nodes are candidates",
                pod: host_foo(1),
                existing: pods_2_1_0_3_abcd(),
                nodes: hosts(&["node-a", "node-b", "node-c", "node-d"]),
                want: vec![("node-a", 20), ("node-b", 60), ("node-c", 100), ("node-d", 0)],
                ..Default::default()
            },
            ScoreCase {
                name: "one constraint on node, null selector",
                pod: spread(pod("p", FOO), vec![tsc(1, HOST, SA, Value::Null)]),
                existing: pods_2_1_0_3_abcd(),
                nodes: hosts(&["node-a", "node-b", "node-c", "node-d"]),
                want: vec![("node-a", 100), ("node-b", 100), ("node-c", 100), ("node-d", 100)],
                ..Default::default()
            },
            ScoreCase {
                name: "one constraint on node, all 4 nodes are candidates, maxSkew=2",
                pod: host_foo(2),
                existing: pods_2_1_0_3_abcd(),
                nodes: hosts(&["node-a", "node-b", "node-c", "node-d"]),
                want: vec![("node-a", 33), ("node-b", 66), ("node-c", 100), ("node-d", 16)],
                ..Default::default()
            },
            ScoreCase {
                name: "one constraint on node, all 4 nodes are candidates, maxSkew=3",
                pod: host_foo(3),
                existing: pods_4_3_2_1(),
                nodes: hosts(&["node-a", "node-b", "node-c", "node-d"]),
                want: vec![("node-a", 44), ("node-b", 66), ("node-c", 77), ("node-d", 100)],
                ..Default::default()
            },
            ScoreCase {
                // the system default constraints (hostname maxSkew 3, zone maxSkew 5) with the
                // selector of the Service that selects the pod
                name: "system defaulting, nodes don't have zone, pods match service",
                pod: pod("p", FOO),
                existing: pods_4_3_2_1(),
                nodes: hosts(&["node-a", "node-b", "node-c", "node-d"]),
                listers: service_listers,
                want: vec![("node-a", 44), ("node-b", 66), ("node-c", 77), ("node-d", 100)],
                ..Default::default()
            },
            ScoreCase {
                name: "one constraint on node, 3 out of 4 nodes are candidates",
                pod: host_foo(1),
                existing: pods_4_2_1_3(),
                nodes: hosts(&["node-a", "node-b", "node-x"]),
                failed: hosts(&["node-y"]),
                want: vec![("node-a", 33), ("node-b", 83), ("node-x", 100)],
                ..Default::default()
            },
            ScoreCase {
                name: "one constraint on node, 3 out of 4 nodes are candidates, one node doesn't match topology key",
                pod: host_foo(1),
                existing: pods_4_2_1_3(),
                nodes: vec![node("node-a", &[(HOST, "node-a")]), node("node-b", &[("n", "node-b")]), node("node-x", &[(HOST, "node-x")])],
                failed: hosts(&["node-y"]),
                want: vec![("node-a", 16), ("node-b", 0), ("node-x", 100)],
                ..Default::default()
            },
            ScoreCase {
                name: "one constraint on zone, 3 out of 4 nodes are candidates",
                pod: spread(pod("p", FOO), vec![tsc(1, "zone", SA, exists("foo"))]),
                existing: pods_4_2_1_3(),
                nodes: vec![zh("node-a", "zone1"), zh("node-b", "zone1"), zh("node-x", "zone2")],
                failed: vec![zh("node-y", "zone2")],
                want: vec![("node-a", 75), ("node-b", 75), ("node-x", 100)],
                ..Default::default()
            },
            ScoreCase {
                name: "two Constraints on zone and node, 2 out of 4 nodes are candidates",
                pod: spread(pod("p", FOO), vec![tsc(1, "zone", SA, exists("foo")), tsc(1, HOST, SA, exists("foo"))]),
                existing: vec![
                    on("node-a", "p-a1", FOO),
                    on("node-a", "p-a2", FOO),
                    on("node-b", "p-b1", FOO),
                    on("node-x", "p-x1", FOO),
                    on("node-x", "p-x2", FOO),
                    on("node-y", "p-y1", FOO),
                    on("node-y", "p-y2", FOO),
                    on("node-y", "p-y3", FOO),
                    on("node-y", "p-y4", FOO),
                ],
                nodes: vec![zh("node-a", "zone1"), zh("node-x", "zone2")],
                failed: vec![zh("node-b", "zone1"), zh("node-y", "zone2")],
                want: vec![("node-a", 100), ("node-x", 63)],
                ..Default::default()
            },
            ScoreCase {
                name: "two Constraints on zone, 2 out of 4 nodes are candidates",
                pod: spread(pod("p", FOO_BAR), vec![tsc(1, "zone", SA, exists("foo")), tsc(1, "zone", SA, exists("bar"))]),
                existing: vec![
                    on("node-a", "p-a1", FOO_BAR),
                    on("node-a", "p-a2", FOO),
                    on("node-b", "p-b1", FOO_BAR),
                    on("node-y", "p-y1", FOO),
                    on("node-y", "p-y2", FOO_BAR),
                    on("node-y", "p-y3", FOO),
                ],
                nodes: vec![node("node-a", &[("zone", "zone1")]), node("node-x", &[("zone", "zone2")])],
                failed: vec![node("node-b", &[("zone", "zone1")]), node("node-y", &[("zone", "zone2")])],
                want: vec![("node-a", 85), ("node-x", 100)],
                ..Default::default()
            },
            ScoreCase {
                name: "two Constraints on zone and node, with different labelSelectors",
                pod: zone_foo_host_bar(),
                existing: pods_mixed("node-y"),
                nodes: vec![zh("node-a", "zone1"), zh("node-b", "zone1"), zh("node-x", "zone2"), zh("node-y", "zone2")],
                want: vec![("node-a", 60), ("node-b", 20), ("node-x", 100), ("node-y", 60)],
                ..Default::default()
            },
            ScoreCase {
                name: "two Constraints on zone and node, with different labelSelectors, some nodes have 0 pods",
                pod: zone_foo_host_bar(),
                existing: vec![on("node-b", "p-b1", BAR), on("node-x", "p-x1", FOO), on("node-y", "p-y1", FOO_BAR)],
                nodes: vec![zh("node-a", "zone1"), zh("node-b", "zone1"), zh("node-x", "zone2"), zh("node-y", "zone2")],
                want: vec![("node-a", 100), ("node-b", 60), ("node-x", 40), ("node-y", 0)],
                ..Default::default()
            },
            ScoreCase {
                name: "two Constraints on zone and node, with different labelSelectors, 3 out of 4 nodes are candidates",
                pod: zone_foo_host_bar(),
                existing: pods_mixed("node-y"),
                nodes: vec![zh("node-a", "zone1"), zh("node-b", "zone1"), zh("node-x", "zone2")],
                failed: vec![zh("node-y", "zone2")],
                want: vec![("node-a", 50), ("node-b", 25), ("node-x", 100)],
                ..Default::default()
            },
            ScoreCase {
                name: "existing pods in a different namespace do not count",
                pod: host_foo(1),
                existing: vec![in_ns(on("node-a", "p-a1", FOO), "ns1"), on("node-a", "p-a2", FOO), on("node-b", "p-b1", FOO), on("node-b", "p-b2", FOO)],
                nodes: hosts(&["node-a", "node-b"]),
                want: vec![("node-a", 100), ("node-b", 33)],
                ..Default::default()
            },
            ScoreCase {
                name: "terminating Pods should be excluded",
                pod: host_foo(1),
                existing: vec![terminating(on("node-a", "p-a", FOO)), on("node-b", "p-b", FOO)],
                nodes: hosts(&["node-a", "node-b"]),
                want: vec![("node-a", 100), ("node-b", 0)],
                ..Default::default()
            },
            ScoreCase {
                name: "minDomains has no effect when ScheduleAnyway",
                pod: spread(pod("p", FOO), vec![with(tsc(2, "node", SA, exists("foo")), "minDomains", json!(10))]),
                existing: vec![
                    on("node-a", "p-a1", FOO),
                    on("node-a", "p-a2", FOO),
                    on("node-b", "p-b1", FOO),
                    on("node-b", "p-b2", FOO),
                    on("node-c", "p-c1", FOO),
                ],
                nodes: nodes_abc_key("node"),
                want: vec![("node-a", 75), ("node-b", 75), ("node-c", 100)],
                ..Default::default()
            },
            ScoreCase {
                name: "NodeAffinityPolicy honoed with labelSelectors",
                pod: spread(node_selector(pod("p", FOO), "foo", ""), vec![tsc(1, "node", SA, exists("foo"))]),
                existing: pods_2_1_1(),
                nodes: inclusion_score_nodes(),
                want: vec![("node-a", 0), ("node-b", 33), ("node-c", 100)],
                ..Default::default()
            },
            ScoreCase {
                name: "NodeAffinityPolicy ignored with labelSelectors",
                pod: spread(node_selector(pod("p", FOO), "foo", ""), vec![with(tsc(1, "node", SA, exists("foo")), "nodeAffinityPolicy", json!("Ignore"))]),
                existing: pods_2_1_1(),
                nodes: inclusion_score_nodes(),
                want: vec![("node-a", 66), ("node-b", 100), ("node-c", 100)],
                ..Default::default()
            },
            ScoreCase {
                name: "NodeAffinityPolicy honoed with nodeAffinity",
                pod: spread(node_affinity(pod("p", FOO), "foo", "In", &[""]), vec![tsc(1, "node", SA, exists("foo"))]),
                existing: pods_2_1_1(),
                nodes: inclusion_score_nodes(),
                want: vec![("node-a", 0), ("node-b", 33), ("node-c", 100)],
                ..Default::default()
            },
            ScoreCase {
                name: "NodeAffinityPolicy ignored with nodeAffinity",
                pod: spread(node_affinity(pod("p", FOO), "foo", "In", &[""]), vec![with(tsc(1, "node", SA, exists("foo")), "nodeAffinityPolicy", json!("Ignore"))]),
                existing: pods_2_1_1(),
                nodes: inclusion_score_nodes(),
                want: vec![("node-a", 66), ("node-b", 100), ("node-c", 100)],
                ..Default::default()
            },
            ScoreCase {
                name: "NodeTaintsPolicy honored",
                pod: spread(pod("p", FOO), vec![with(tsc(1, "node", SA, exists("foo")), "nodeTaintsPolicy", json!("Honor"))]),
                existing: pods_2_1_1(),
                nodes: vec![node("node-a", &[("node", "node-a")]), node("node-b", &[("node", "node-b")]), tainted(node("node-c", &[("node", "node-c")]))],
                want: vec![("node-a", 0), ("node-b", 33), ("node-c", 100)],
                ..Default::default()
            },
            ScoreCase {
                name: "NodeTaintsPolicy ignored",
                pod: spread(pod("p", FOO), vec![tsc(1, "node", SA, exists("foo"))]),
                existing: pods_2_1_1(),
                nodes: vec![node("node-a", &[("node", "node-a")]), node("node-b", &[("node", "node-b")]), tainted(node("node-c", &[("node", "node-c")]))],
                want: vec![("node-a", 66), ("node-b", 100), ("node-c", 100)],
                ..Default::default()
            },
            ScoreCase {
                name: "matchLabelKeys ANDed with LabelSelector when LabelSelector is empty",
                pod: spread(
                    pod("p", FOO_BAR),
                    vec![with(tsc(1, "zone", SA, json!({})), "matchLabelKeys", json!(["foo"])), with(tsc(1, HOST, SA, json!({})), "matchLabelKeys", json!(["bar"]))],
                ),
                existing: pods_mixed("node-c"),
                nodes: vec![zh("node-a", "zone1"), zh("node-b", "zone1"), zh("node-c", "zone2"), zh("node-d", "zone2")],
                want: vec![("node-a", 60), ("node-b", 20), ("node-c", 60), ("node-d", 100)],
                ..Default::default()
            },
            ScoreCase {
                name: "matchLabelKeys ANDed with LabelSelector when LabelSelector isn't empty",
                pod: spread(
                    pod("p", &[("foo", ""), ("bar", ""), ("baz", "")]),
                    vec![tsc(1, "zone", SA, exists("foo")), with(tsc(1, HOST, SA, exists("bar")), "matchLabelKeys", json!(["baz"]))],
                ),
                existing: vec![
                    on("node-a", "p-a1", FOO),
                    on("node-b", "p-b1", &[("foo", ""), ("bar", ""), ("baz", "")]),
                    on("node-c", "p-c1", FOO),
                    on("node-c", "p-c2", BAR),
                    on("node-c", "p-d3", &[("bar", ""), ("baz", "")]),
                ],
                nodes: vec![zh("node-a", "zone1"), zh("node-b", "zone1"), zh("node-c", "zone2"), zh("node-d", "zone2")],
                want: vec![("node-a", 60), ("node-b", 20), ("node-c", 60), ("node-d", 100)],
                ..Default::default()
            },
        ]);
    }
}
