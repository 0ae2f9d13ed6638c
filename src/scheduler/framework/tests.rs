//! Tests of the whole default profile: the filter order, the score formulas and which score
//! plugins run, robustness on garbage, whole-cycle placements and the winner's reason. Each
//! plugin's own table is in its folder.

use super::testing::*;

#[test]
fn filter_order_table() {
    // A node failing several plugins reports only the first in profile order.
    let bad = with(
        with(node("n1", "1", "1Gi", 110), "spec/unschedulable", json!(true)),
        "spec/taints",
        json!([{"key": "x", "effect": "NoSchedule"}]),
    );
    struct C {
        name: &'static str,
        pod: Value,
        node: NodeInfo,
        ran: Vec<&'static str>,
    }
    let cases = [
        C {
            name: "unschedulable first",
            pod: pod("p", Some("4"), None),
            node: ni(bad.clone(), vec![]),
            ran: vec!["NodeUnschedulable"],
        },
        C {
            name: "taint before resources",
            pod: with(
                pod("p", Some("4"), None),
                "spec/tolerations",
                json!([{"key": "node.kubernetes.io/unschedulable", "operator": "Exists"}]),
            ),
            node: ni(bad, vec![]),
            ran: vec!["NodeUnschedulable", "NodeName", "TaintToleration"],
        },
        C {
            name: "all pass",
            pod: pod("p", None, None),
            node: ni(node("n1", "1", "1Gi", 110), vec![]),
            ran: FILTER_PLUGINS[..6].to_vec(),
        },
    ];
    for c in &cases {
        let got: Vec<String> = run_filter_plugins(&c.pod, &c.node).into_iter().map(|(p, _)| p).collect();
        assert_eq!(got, c.ran, "{}", c.name);
    }
}



#[test]
fn score_formula_table() {
    let (p, nodes) = score_fixture();
    let feasible: Vec<&NodeInfo> = nodes[..2].iter().collect();
    let scores = score_nodes(&p, &feasible, &nodes);
    struct C {
        name: &'static str,
        node: usize,
        plugin: &'static str,
        want: (i64, i64, i64),
    }
    let cases = [
        // one untolerated PreferNoSchedule taint on A: raw 1 -> 100 -> reversed 0, x3
        C { name: "taint A", node: 0, plugin: "TaintToleration", want: (1, 0, 0) },
        C { name: "taint B", node: 1, plugin: "TaintToleration", want: (0, 100, 300) },
        // preferred weights: A matches zone (10), B matches disk (5); max 10
        C { name: "affinity A", node: 0, plugin: "NodeAffinity", want: (10, 100, 200) },
        C { name: "affinity B", node: 1, plugin: "NodeAffinity", want: (5, 50, 100) },
        // A: cpu (4000-1500)*100/4000 = 62, mem (8Gi-3Gi)*100/8Gi = 62 -> 62
        C { name: "least allocated A", node: 0, plugin: "NodeResourcesFit", want: (62, 62, 62) },
        // B: cpu (2000-(100+500))*100/2000 = 70; mem (2Gi-(200Mi+1Gi))*100/2Gi = 40 -> 55
        C { name: "least allocated B", node: 1, plugin: "NodeResourcesFit", want: (55, 55, 55) },
        // A: 1500/4000 = 0.375, 3Gi/8Gi = 0.375 -> std 0 -> 100
        C { name: "balanced A", node: 0, plugin: "NodeResourcesBalancedAllocation", want: (100, 100, 100) },
        // B (real requests): 500/2000 = 0.25, 1Gi/2Gi = 0.5 -> std 0.125 -> 87
        C { name: "balanced B", node: 1, plugin: "NodeResourcesBalancedAllocation", want: (87, 87, 87) },
        // A: 500Mi * 2/3 = 349525333; (349525333-23Mi)*100/(1000Mi-23Mi) = 31
        C { name: "image A", node: 0, plugin: "ImageLocality", want: (31, 31, 31) },
        C { name: "image B", node: 1, plugin: "ImageLocality", want: (0, 0, 0) },
    ];
    for c in &cases {
        let got = scores[c.node].per_plugin.iter().find(|p| p.plugin == c.plugin).map(|p| (p.raw, p.normalized, p.weighted));
        assert_eq!(got, Some(c.want), "{}", c.name);
    }
    assert_eq!(scores[0].total, 393, "total A");
    assert_eq!(scores[1].total, 542, "total B");
    assert_eq!(select_host(&scores, 0).as_deref(), Some("b"), "best node");
}

#[test]
fn score_skip_table() {
    struct C {
        name: &'static str,
        pod: Value,
        plugins: Vec<&'static str>,
    }
    let cases = [
        C {
            name: "best-effort pod without preferences",
            pod: pod("p", None, None),
            plugins: vec!["TaintToleration", "NodeResourcesFit", "ImageLocality"],
        },
        C {
            name: "requests, no preferences",
            pod: pod("p", Some("100m"), None),
            plugins: vec![
                "TaintToleration",
                "NodeResourcesFit",
                "NodeResourcesBalancedAllocation",
                "ImageLocality",
            ],
        },
    ];
    let (_, nodes) = score_fixture();
    let feasible: Vec<&NodeInfo> = nodes.iter().collect();
    for c in &cases {
        let scores = score_nodes(&c.pod, &feasible, &nodes);
        let got: Vec<&str> = scores[0].per_plugin.iter().map(|p| p.plugin).collect();
        assert_eq!(got, c.plugins, "{}", c.name);
    }
}








#[test]
fn never_panics_on_garbage() {
    let garbage = [
        json!(null),
        json!(1),
        json!("x"),
        json!({"spec": 5, "metadata": []}),
        json!({"spec": {"containers": [1, {"resources": {"requests": {"cpu": "bogus"}}}]}}),
        // extreme numbers everywhere: priorities, weights, quantities, image sizes
        json!({
            "metadata": {"name": "x", "labels": {"a": "b"}},
            "spec": {
                "priority": i64::MAX,
                "containers": [{"name": "c", "image": "i", "resources": {"requests": {"cpu": "99999999999999E", "memory": "9Ei", "x.io/y": "1e300"}}}],
                "affinity": {"nodeAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [
                    {"weight": i64::MAX, "preference": {}}, {"weight": i64::MAX, "preference": {}}
                ]}},
                "taints": [{"key": "k", "effect": "PreferNoSchedule"}]
            },
            "status": {
                "allocatable": {"cpu": "9223372036854775807", "memory": "1e300", "pods": "9e18", "x.io/y": "-5"},
                "images": [{"names": ["i:latest"], "sizeBytes": i64::MAX}]
            }
        }),
    ];
    for g in &garbage {
        let n = NodeInfo::new(g.clone(), vec![g.clone(), g.clone()]);
        let _ = run_filter_plugins(g, &n);
        let _ = score_nodes(g, &[&n, &n], &[n.clone(), n.clone()]);
        let _ = schedule_pod(g, &[n.clone(), n.clone()], usize::MAX, 0, u64::MAX);
        let _ = default_preemption(g, std::slice::from_ref(&n), &Diagnosis::default());
    }
    let big = parse_quantity(&json!("1e300")).unwrap();
    let _ = (big.add(&big).canonical(), big.sub(&big).add(&big).milli_value());
}

#[test]
fn filter_trail_matches_run_filter_plugins() {
    let busy = with(node("busy", "1", "1Gi", 110), "spec/unschedulable", json!(false));
    let tainted = with(node("tainted", "4", "8Gi", 110), "spec/taints", json!([{"key": "k", "value": "v", "effect": "NoSchedule"}]));
    let cordoned = with(node("cordoned", "4", "8Gi", 110), "spec/unschedulable", json!(true));
    let nodes = [NodeInfo::new(busy, vec![]), NodeInfo::new(tainted, vec![]), NodeInfo::new(cordoned, vec![]), NodeInfo::new(node("ok", "4", "8Gi", 110), vec![])];
    let pods = [pod("small", Some("100m"), None), pod("big", Some("2"), None)];
    for p in &pods {
        for ni in &nodes {
            let ran: Vec<(&str, Option<String>)> = run_filter_plugins(p, ni)
                .into_iter()
                .map(|(name, st)| (FILTER_PLUGINS.iter().copied().find(|f| *f == name).unwrap(), (!st.is_success()).then(|| st.message())))
                .collect();
            assert_eq!(filter_trail(&filter(p, ni)), ran, "{} on {}", meta_name(p), ni.name());
        }
    }
}



/// Whole cycles of the default profile: the node chosen for each pod of a sequence, each pod
/// assumed on its node before the next (as the binding cycle does), ties drawn from the seeded
/// RNG. Nodes: three 4-CPU nodes, one per zone of ap-northeast-2.
mod placements {
    use super::*;
    use crate::scheduler::internal::cache::Cache;
    use crate::sim::Rng;
    use std::rc::Rc;

    fn zoned(name: &str, zone: &str) -> Value {
        json!({"metadata": {"name": name, "labels": {"kubernetes.io/hostname": name, "topology.kubernetes.io/region": "ap-northeast-2", "topology.kubernetes.io/zone": zone}},
               "spec": {}, "status": {"allocatable": {"cpu": "4", "memory": "8Gi", "pods": "110"}}})
    }

    fn rs_pod(name: &str, app: &str, extra: Value) -> Value {
        let mut p = json!({"metadata": {"name": name, "namespace": "default", "uid": format!("uid-{name}"), "labels": {"app": app},
                           "ownerReferences": [{"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": format!("{app}-rs"), "controller": true}]},
                           "spec": {"containers": [{"name": "c", "image": "nginx:1.27", "resources": {"requests": {"cpu": "100m"}}}]}});
        if let Value::Object(m) = extra {
            for (k, v) in m {
                p["spec"][k] = v;
            }
        }
        p
    }

    /// Runs the pods through the cycle in order; returns the chosen node (or the message).
    fn place(pods: &[Value], extra_nodes: &[(&str, &str)], seed: u64) -> Vec<String> {
        let mut cache = Cache::default();
        for (n, z) in [("node-1", "ap-northeast-2a"), ("node-2", "ap-northeast-2b"), ("node-3", "ap-northeast-2c")].iter().chain(extra_nodes) {
            cache.add_or_update_node(Rc::new(zoned(n, z)));
        }
        let mut listers = Listers::default();
        for app in ["web", "cache"] {
            listers.set_replicaset(&json!({"metadata": {"name": format!("{app}-rs"), "namespace": "default"}, "spec": {"selector": {"matchLabels": {"app": app}}}}), false);
        }
        let mut snap = Snapshot::default();
        let mut rng = Rng::new(seed);
        let mut next = 0;
        let mut out = Vec::new();
        for p in pods {
            cache.update_snapshot(&mut snap);
            let info = Rc::new(PodInfo::from_value(p.clone()));
            let c = schedule_one::schedule_pod(&info, &snap, &listers, next, 0, rng.next_u64());
            next = c.next_start_node_index;
            match c.outcome {
                ScheduleOutcome::Scheduled { node, .. } => {
                    cache.assume_pod(info, &node);
                    out.push(node);
                }
                ScheduleOutcome::Unschedulable { message, .. } => out.push(message),
                ScheduleOutcome::NoNodes => out.push("no nodes".into()),
            }
        }
        out
    }

    #[test]
    fn default_profile_placement_table() {
        let web = |i: usize, extra: Value| rs_pod(&format!("web-{i}"), "web", extra);
        let anti = json!({"affinity": {"podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
            {"labelSelector": {"matchLabels": {"app": "web"}}, "topologyKey": "kubernetes.io/hostname"}]}}});
        let zone_spread = json!({"topologySpreadConstraints": [{"maxSkew": 1, "topologyKey": "topology.kubernetes.io/zone",
            "whenUnsatisfiable": "DoNotSchedule", "labelSelector": {"matchLabels": {"app": "web"}}}]});
        let near_web = json!({"affinity": {"podAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [
            {"weight": 100, "podAffinityTerm": {"labelSelector": {"matchLabels": {"app": "web"}}, "topologyKey": "kubernetes.io/hostname"}}]}}});
        struct C {
            name: &'static str,
            pods: Vec<Value>,
            extra_nodes: Vec<(&'static str, &'static str)>,
            /// Nodes chosen, in order; a count per node where ties make the order the RNG's.
            want: Vec<&'static str>,
        }
        let anti_msg = "0/3 nodes are available: 3 node(s) didn't match pod anti-affinity rules. no new claims to deallocate, preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.";
        let cases = vec![
            C {
                name: "a ReplicaSet's six pods spread two per node (system default spreading, then LeastAllocated)",
                pods: (0..6).map(|i| web(i, json!({}))).collect(),
                extra_nodes: vec![],
                want: vec!["node-1:2", "node-2:2", "node-3:2"],
            },
            C {
                name: "required anti-affinity on the hostname: the fourth replica does not fit",
                pods: (0..4).map(|i| web(i, anti.clone())).collect(),
                extra_nodes: vec![],
                want: vec!["node-1:1", "node-2:1", "node-3:1", anti_msg],
            },
            C {
                name: "zone spread, maxSkew 1, two nodes in zone a: seven replicas 3/2/2 by zone",
                pods: (0..7).map(|i| web(i, zone_spread.clone())).collect(),
                extra_nodes: vec![("node-4", "ap-northeast-2a")],
                want: vec!["zone-a:3", "zone-b:2", "zone-c:2"],
            },
            C {
                name: "a cache preferring a web pod's node goes where web runs",
                pods: vec![web(0, json!({})), rs_pod("cache-0", "cache", near_web.clone())],
                extra_nodes: vec![],
                want: vec!["same-node"],
            },
        ];
        for c in &cases {
            let got = place(&c.pods, &c.extra_nodes, 7);
            let count = |pred: &dyn Fn(&str) -> bool| got.iter().filter(|n| pred(n)).count();
            for w in &c.want {
                match *w {
                    "same-node" => assert_eq!(got[0], got[1], "{}: {:?}", c.name, got),
                    w if w.starts_with("zone-") => {
                        let (z, n) = w.split_once(':').unwrap();
                        let nodes: &[&str] = match z {
                            "zone-a" => &["node-1", "node-4"],
                            "zone-b" => &["node-2"],
                            _ => &["node-3"],
                        };
                        assert_eq!(count(&|x| nodes.contains(&x)), n.parse::<usize>().unwrap(), "{}: {:?}", c.name, got);
                    }
                    w if w.starts_with("node-") => {
                        let (node, n) = w.split_once(':').unwrap();
                        assert_eq!(count(&|x| x == node), n.parse::<usize>().unwrap(), "{}: {:?}", c.name, got);
                    }
                    msg => assert!(got.iter().any(|g| g == msg), "{}: no {:?} in {:?}", c.name, msg, got),
                }
            }
        }
    }

    /// The same pods and seed give the same nodes, in the same order (ties from the RNG).
    #[test]
    fn placements_are_deterministic_per_seed() {
        let pods: Vec<Value> = (0..9).map(|i| rs_pod(&format!("web-{i}"), "web", json!({}))).collect();
        assert_eq!(place(&pods, &[], 3), place(&pods, &[], 3));
        assert_eq!(place(&pods, &[], 3), ["node-2", "node-1", "node-3", "node-1", "node-2", "node-3", "node-1", "node-2", "node-3"], "seed 3");
    }
}

/// The Scheduler panel's "why the winner won".
#[test]
fn winner_reason_table() {
    use crate::scheduler::{Attempt, NodeVerdict, WinnerReason};
    let score = |plugin: &'static str, weighted: i64| PluginScore { plugin, raw: 0, normalized: 0, weighted };
    let node = |n: &str, scores: Vec<PluginScore>| NodeVerdict { node: n.into(), filters: vec![], total: scores.iter().map(|s| s.weighted).sum(), scores };
    let attempt = |result: &str, nodes: Vec<NodeVerdict>| Attempt { pod: "default/p".into(), time_ms: 0, result: result.into(), nodes };
    let cases = [
        ("one feasible node", attempt("Scheduled to node-2", vec![node("node-1", vec![]), node("node-2", vec![])]), Some(WinnerReason::Only { node: "node-2".into() })),
        (
            "a tie",
            attempt("Scheduled to node-3", vec![node("node-1", vec![score("NodeResourcesFit", 90)]), node("node-3", vec![score("NodeResourcesFit", 90)])]),
            Some(WinnerReason::Tie { node: "node-3".into(), tied: vec!["node-1".into(), "node-3".into()], total: 90 }),
        ),
        (
            "the default spreading decides",
            attempt(
                "Scheduled to node-2",
                vec![
                    node("node-1", vec![score("NodeResourcesFit", 88), score("PodTopologySpread", 100)]),
                    node("node-2", vec![score("NodeResourcesFit", 90), score("PodTopologySpread", 200)]),
                ],
            ),
            Some(WinnerReason::Ahead { node: "node-2".into(), total: 290, runner_up: "node-1".into(), runner_up_total: 188, margins: vec![("PodTopologySpread", 100), ("NodeResourcesFit", 2)] }),
        ),
        ("a failed attempt", attempt("0/3 nodes are available: …", vec![]), None),
    ];
    for (name, a, want) in cases {
        assert_eq!(a.winner_reason(), want, "{name}");
    }
}
