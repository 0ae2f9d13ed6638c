//! One scheduling cycle for one pod: PreFilter, Filter over the nodes from a round-robin start
//! until enough fit, PostFilter (preemption) when none does, PreScore/Score, and `selectHost`.
//!
//! Real counterpart: `pkg/scheduler/schedule_one.go` (`schedulePod`, `findNodesThatFitPod`,
//! `evaluateNominatedNode`, `findNodesThatPassFilters`, `numFeasibleNodesToFind`,
//! `prioritizeNodes`, `selectHost`) and `framework/types.go` (`FitError.Error`). What kubesim
//! simplifies: filtering is sequential, so "stop after N feasible nodes" is exact rather than
//! racy; nominated pods of other pending pods are not added during filtering; randomness
//! (`selectHost`'s reservoir sampling) is the caller's number.

use super::framework::cycle_state::CycleState;
use super::framework::interface::{Code, Diagnosis, NodeScore, Status};
use super::framework::listers::{Listers, PdbInfo};
use super::framework::preemption::{default_preemption, post_filter_message, PreemptionCandidate, PreemptionOutcome};
use super::framework::runtime::{run_filter_plugins, run_pre_filter_plugins, run_pre_score_plugins_at, run_score_plugins};
use super::framework::types::{NodeInfo, PodInfo};
use super::internal::cache::Snapshot;
use crate::sim::sort::CompactSort;
use std::collections::{BTreeMap, BTreeSet};

/// `schedule_one.go`: never search fewer nodes than this (unless the cluster is smaller).
pub const MIN_FEASIBLE_NODES_TO_FIND: i32 = 100;
/// `schedule_one.go`: the adaptive percentage never drops below 5%.
pub const MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND: i32 = 5;
/// `ErrNoNodesAvailable`: the scheduling error when the cluster has no nodes at all.
pub const NO_NODES_AVAILABLE_MSG: &str = "no nodes available to schedule pods";

/// Result of [`find_nodes_that_fit`].
#[derive(Clone, Debug)]
pub struct FindResult {
    /// Indices (into the snapshot's node list) of feasible nodes, in search order.
    pub feasible: Vec<usize>,
    pub diagnosis: Diagnosis,
    /// `sched.nextStartNodeIndex` for the next attempt.
    pub next_start_node_index: usize,
    /// The rejections of the nodes the search evaluated, by their index in the snapshot, in
    /// search order (the page's table filters again only the nodes that passed or were not
    /// reached).
    pub verdicts: Vec<(usize, Status)>,
}

/// `numFeasibleNodesToFind`: clusters under 100 nodes are searched fully; otherwise the
/// percentage (0 = adaptive `50 - N/125`, floor 5%) of N, but at least 100.
pub fn num_feasible_nodes_to_find(percentage_of_nodes_to_score: i32, num_all_nodes: i32) -> i32 {
    if num_all_nodes < MIN_FEASIBLE_NODES_TO_FIND {
        return num_all_nodes;
    }
    let mut percentage = percentage_of_nodes_to_score;
    if percentage == 0 {
        percentage = (50 - num_all_nodes / 125).max(MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND);
    }
    let num = (num_all_nodes as i64 * percentage as i64 / 100) as i32;
    num.max(MIN_FEASIBLE_NODES_TO_FIND)
}

fn rejected_at_pre_filter(st: Status, next_start_node_index: usize) -> FindResult {
    let mut diagnosis = Diagnosis { pre_filter_msg: Some(st.message()), ..Diagnosis::default() };
    diagnosis.unschedulable_plugins.insert(st.plugin);
    diagnosis.absent_status = Some(st);
    FindResult { feasible: Vec::new(), diagnosis, next_start_node_index, verdicts: Vec::new() }
}

/// `findNodesThatFitPod`: PreFilter, the nominated node first (if the pod has one and it fits),
/// then the filters over the candidates starting at `next_start_node_index`, stopping once
/// `numFeasibleNodesToFind` feasible nodes were found.
pub fn find_nodes_that_fit(state: &mut CycleState, pod: &PodInfo, snapshot: &Snapshot, listers: &Listers, next_start_node_index: usize, percentage_of_nodes_to_score: i32) -> FindResult {
    let mut diagnosis = Diagnosis::default();
    let nodes = snapshot.node_info_list();
    let n_all = nodes.len();
    let names = match run_pre_filter_plugins(state, pod, snapshot, listers) {
        Err(st) => return rejected_at_pre_filter(st, next_start_node_index),
        Ok(n) => n,
    };

    // A pod nominated by an earlier preemption tries its nominated node first.
    if !pod.nominated_node_name.is_empty() {
        if let Some(i) = snapshot.index_of(&pod.nominated_node_name) {
            let st = run_filter_plugins(state, pod, &nodes[i]);
            if st.is_success() {
                return FindResult { feasible: vec![i], diagnosis, next_start_node_index, verdicts: vec![(i, st)] };
            }
        }
    }

    // the candidates: every node, or the ones NodeAffinity's PreFilter named
    let named: Option<Vec<usize>> = names.as_ref().map(|set| {
        diagnosis.absent_status = Some(Status::new(Code::UnschedulableAndUnresolvable, "", &["node(s) didn't satisfy plugin(s) [NodeAffinity]"]));
        diagnosis.unschedulable_plugins.insert("NodeAffinity");
        (0..n_all).filter(|&i| set.contains(nodes[i].name())).collect()
    });
    let n_candidates = named.as_ref().map(Vec::len).unwrap_or(n_all);
    let to_find = num_feasible_nodes_to_find(percentage_of_nodes_to_score, n_candidates as i32).max(0) as usize;
    let mut feasible = Vec::with_capacity(to_find.min(n_candidates));
    let mut verdicts = Vec::new();
    if n_candidates > 0 {
        let start = next_start_node_index % n_candidates;
        for k in 0..n_candidates {
            if feasible.len() >= to_find {
                break;
            }
            let j = if start + k >= n_candidates { start + k - n_candidates } else { start + k };
            let i = match &named {
                Some(c) => c[j],
                None => j,
            };
            let st = run_filter_plugins(state, pod, &nodes[i]);
            if st.is_success() {
                feasible.push(i);
            } else {
                diagnosis.unschedulable_plugins.insert(st.plugin);
                diagnosis.node_statuses.push((nodes[i].name().to_string(), st.clone()));
                verdicts.push((i, st));
            }
        }
    }
    let processed = feasible.len() + diagnosis.node_statuses.len();
    let next = if n_all == 0 { 0 } else { (next_start_node_index % n_all + processed) % n_all };
    FindResult { feasible, diagnosis, next_start_node_index: next, verdicts }
}

/// `FitError.Error()` from a full diagnosis: `0/N nodes are available:` then either the PreFilter
/// message or the reason histogram (each `"<count> <reason>"`, sorted as whole strings, so
/// `10 ...` sorts before `2 ...`), then the PostFilter message.
pub fn fit_error_message_from_diagnosis(num_all_nodes: usize, diagnosis: &Diagnosis, post_filter_msg: Option<&str>) -> String {
    let mut msg = format!("0/{num_all_nodes} nodes are available:");
    match diagnosis.pre_filter_msg.as_deref() {
        Some(pf) if !pf.is_empty() => msg.push_str(&format!(" {pf}.")),
        _ => {
            let mut reasons: BTreeMap<String, usize> = BTreeMap::new();
            for (_, st) in &diagnosis.node_statuses {
                for r in &st.reasons {
                    *reasons.entry(r.clone()).or_insert(0) += 1;
                }
            }
            let explicit = diagnosis.node_statuses.len();
            if explicit < num_all_nodes {
                if let Some(abs) = &diagnosis.absent_status {
                    for r in &abs.reasons {
                        *reasons.entry(r.clone()).or_insert(0) += num_all_nodes - explicit;
                    }
                }
            }
            let mut hist: Vec<String> = reasons.iter().map(|(r, n)| format!("{n} {r}")).collect();
            hist.csort();
            if !hist.is_empty() {
                msg.push_str(&format!(" {}.", hist.join(", ")));
            }
        }
    }
    if let Some(pf) = post_filter_msg {
        if !pf.is_empty() {
            msg.push(' ');
            msg.push_str(pf);
        }
    }
    msg
}

/// `FitError.Error()` for node statuses from Filter, followed by `" " + post_filter_msg`.
pub fn fit_error_message(num_all_nodes: usize, node_statuses: &[(String, Status)], post_filter_msg: Option<&str>) -> String {
    let d = Diagnosis { node_statuses: node_statuses.to_vec(), ..Diagnosis::default() };
    fit_error_message_from_diagnosis(num_all_nodes, &d, post_filter_msg)
}

/// `selectHost`: the highest total wins; ties are broken uniformly at random upstream (reservoir
/// sampling). kubesim takes the randomness from the caller: the `tie_breaker`-th (modulo) of the
/// tied nodes, in `scores` order.
pub fn select_host(scores: &[NodeScore], tie_breaker: u64) -> Option<String> {
    let max = scores.iter().map(|s| s.total).max()?;
    let tied: Vec<&NodeScore> = scores.iter().filter(|s| s.total == max).collect();
    let pick = (tie_breaker % tied.len() as u64) as usize;
    tied.get(pick).map(|s| s.node.to_string())
}

/// Outcome of [`schedule_pod`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ScheduleOutcome {
    /// Bind the pod to `node`. `scores` is empty when a single node was feasible (no scoring).
    Scheduled { node: String, evaluated_nodes: usize, feasible_nodes: usize, scores: Vec<NodeScore> },
    /// FailedScheduling with `message` (also the PodScheduled=False condition message, reason
    /// `Unschedulable`). With `preemption: Some(..)` the pod should be nominated to that node and
    /// the victims deleted.
    Unschedulable { message: String, unschedulable_plugins: BTreeSet<&'static str>, preemption: Option<PreemptionCandidate> },
    /// The cluster has no nodes: `no nodes available to schedule pods`.
    NoNodes,
}

/// What one cycle did, for the page: the outcome, the next round-robin index, each evaluated
/// node's filter verdict, and the cycle state (which plugins ran).
pub struct Cycle {
    pub outcome: ScheduleOutcome,
    pub next_start_node_index: usize,
    pub verdicts: Vec<(usize, Status)>,
    pub state: CycleState,
}

/// `schedulePod` + PostFilter for one pod against the snapshot. `tie_breaker` is the caller's
/// random number for `selectHost`.
pub fn schedule_pod(pod: &PodInfo, snapshot: &Snapshot, listers: &Listers, next_start_node_index: usize, percentage_of_nodes_to_score: i32, tie_breaker: u64) -> Cycle {
    let mut state = CycleState::default();
    if snapshot.num_nodes() == 0 {
        return Cycle { outcome: ScheduleOutcome::NoNodes, next_start_node_index, verdicts: Vec::new(), state };
    }
    let found = find_nodes_that_fit(&mut state, pod, snapshot, listers, next_start_node_index, percentage_of_nodes_to_score);
    let next = found.next_start_node_index;
    let evaluated = found.feasible.len() + found.diagnosis.node_statuses.len();
    let nodes = snapshot.node_info_list();
    let outcome = match found.feasible.len() {
        0 => {
            let pdbs: Vec<&PdbInfo> = listers.pdbs.values().collect();
            let pre = default_preemption(&state, pod, snapshot, &found.diagnosis, &pdbs);
            let post = post_filter_message(&pre);
            let message = fit_error_message_from_diagnosis(snapshot.num_nodes(), &found.diagnosis, Some(&post));
            let preemption = match pre {
                PreemptionOutcome::Nominated(c) => Some(c),
                PreemptionOutcome::Unschedulable(_) => None,
            };
            ScheduleOutcome::Unschedulable { message, unschedulable_plugins: found.diagnosis.unschedulable_plugins.clone(), preemption }
        }
        1 => ScheduleOutcome::Scheduled { node: nodes[found.feasible[0]].name().to_string(), evaluated_nodes: evaluated, feasible_nodes: 1, scores: Vec::new() },
        n => {
            let feasible: Vec<&NodeInfo> = found.feasible.iter().map(|&i| &*nodes[i]).collect();
            run_pre_score_plugins_at(&mut state, pod, &feasible, &found.feasible, snapshot, listers);
            let scores = run_score_plugins(&state, pod, &feasible, snapshot);
            let node = select_host(&scores, tie_breaker).unwrap_or_default();
            ScheduleOutcome::Scheduled { node, evaluated_nodes: evaluated, feasible_nodes: n, scores }
        }
    };
    Cycle { outcome, next_start_node_index: next, verdicts: found.verdicts, state }
}

/// Test tables (cases from upstream's tests and hand-checked examples), with the shared
/// fixtures of [`crate::scheduler::framework::testing`].
#[cfg(test)]
mod tests {
    use crate::scheduler::framework::testing::*;

    #[test]
    fn fit_error_message_table() {
        let st = |code, plugin: &'static str, r: &[&str]| Status::new(code, plugin, r);
        let taint = "node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }";
        struct C {
            name: &'static str,
            n: usize,
            statuses: Vec<(String, Status)>,
            post: Option<&'static str>,
            want: &'static str,
        }
        let cases = [
            C {
                name: "kind cluster, sorted histogram",
                n: 3,
                statuses: vec![
                    ("w1".into(), st(U, "NodeResourcesFit", &["Insufficient cpu"])),
                    ("cp".into(), st(UU, "TaintToleration", &[taint])),
                    ("w2".into(), st(U, "NodeResourcesFit", &["Insufficient cpu"])),
                ],
                post: Some("preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod."),
                want: "0/3 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 2 Insufficient cpu. preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.",
            },
            C {
                name: "several reasons on one node count separately",
                n: 2,
                statuses: vec![
                    ("a".into(), st(U, "NodeResourcesFit", &["Insufficient cpu", "Insufficient memory"])),
                    ("b".into(), st(U, "NodeResourcesFit", &["Insufficient memory"])),
                ],
                post: None,
                want: "0/2 nodes are available: 1 Insufficient cpu, 2 Insufficient memory.",
            },
            C {
                name: "whole-string sort puts 10 before 2",
                n: 12,
                statuses: (0..12)
                    .map(|i| if i < 10 { (format!("n{i}"), st(U, "NodeResourcesFit", &["Insufficient cpu"])) } else { (format!("n{i}"), st(UU, "NodeAffinity", &["node(s) didn't match Pod's node affinity/selector"])) })
                    .collect(),
                post: None,
                want: "0/12 nodes are available: 10 Insufficient cpu, 2 node(s) didn't match Pod's node affinity/selector.",
            },
            C { name: "no statuses", n: 0, statuses: vec![], post: None, want: "0/0 nodes are available:" },
        ];
        for c in &cases {
            assert_eq!(fit_error_message(c.n, &c.statuses, c.post), c.want, "{}", c.name);
        }
        // absent nodes (PreFilterResult) and PreFilter rejections
        let d = Diagnosis {
            node_statuses: vec![("n1".into(), st(U, "NodeResourcesFit", &["Too many pods"]))],
            absent_status: Some(st(UU, "", &["node(s) didn't satisfy plugin(s) [NodeAffinity]"])),
            ..Diagnosis::default()
        };
        assert_eq!(
            fit_error_message_from_diagnosis(46, &d, None),
            "0/46 nodes are available: 1 Too many pods, 45 node(s) didn't satisfy plugin(s) [NodeAffinity].",
            "absent nodes"
        );
        let d = Diagnosis { pre_filter_msg: Some("pod affinity terms conflict".into()), ..Diagnosis::default() };
        assert_eq!(
            fit_error_message_from_diagnosis(3, &d, Some("preemption: x.")),
            "0/3 nodes are available: pod affinity terms conflict. preemption: x.",
            "prefilter message"
        );
    }

    #[test]
    fn num_feasible_nodes_to_find_table() {
        struct C {
            name: &'static str,
            pct: i32,
            n: i32,
            want: i32,
        }
        let cases = [
            C { name: "50 nodes: all", pct: 0, n: 50, want: 50 },
            C { name: "100 nodes: 50% but floor 100", pct: 0, n: 100, want: 100 },
            C { name: "1000 nodes: 42%", pct: 0, n: 1000, want: 420 },
            C { name: "5000 nodes: 10%", pct: 0, n: 5000, want: 500 },
            C { name: "10000 nodes: floor 5%", pct: 0, n: 10000, want: 500 },
            C { name: "explicit 100%", pct: 100, n: 1000, want: 1000 },
            C { name: "explicit 1% floors at 100", pct: 1, n: 1000, want: 100 },
        ];
        for c in &cases {
            assert_eq!(num_feasible_nodes_to_find(c.pct, c.n), c.want, "{}", c.name);
        }
    }

    #[test]
    fn schedule_pod_table() {
        struct C {
            name: &'static str,
            pod: Value,
            nodes: Vec<NodeInfo>,
            start: usize,
            want: ScheduleOutcome,
            next: usize,
        }
        let ds_pod = with(
            pod("ds", None, None),
            "spec/affinity",
            json!({"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
                {"matchFields": [{"key": "metadata.name", "operator": "In", "values": ["kind-worker"]}]}
            ]}}}),
        );
        let mut full_ds_cluster = kind_cluster();
        let mut full_node = full_ds_cluster[1].node.as_ref().clone();
        full_node["status"]["allocatable"]["pods"] = json!("1");
        full_ds_cluster[1] = ni(full_node, vec![pod("w1", Some("7500m"), None)]);
        let conflict_pod = with(
            pod("c", None, None),
            "spec/affinity",
            json!({"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
                {"matchFields": [
                    {"key": "metadata.name", "operator": "In", "values": ["a"]},
                    {"key": "metadata.name", "operator": "In", "values": ["b"]}
                ]}
            ]}}}),
        );
        let plugins = |v: &[&'static str]| v.iter().copied().collect::<BTreeSet<&'static str>>();
        let cases = [
            C {
                name: "kind cluster full: FailedScheduling message",
                pod: pod("p", Some("1"), None),
                nodes: kind_cluster(),
                start: 0,
                want: ScheduleOutcome::Unschedulable {
                    message: "0/3 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 2 Insufficient cpu. no new claims to deallocate, preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.".into(),
                    unschedulable_plugins: plugins(&["NodeResourcesFit", "TaintToleration"]),
                    preemption: None,
                },
                next: 0,
            },
            C {
                name: "single feasible node is not scored",
                pod: pod("p", Some("100m"), None),
                nodes: kind_cluster()[..2].to_vec(),
                start: 0,
                want: ScheduleOutcome::Scheduled { node: "kind-worker".into(), evaluated_nodes: 2, feasible_nodes: 1, scores: vec![] },
                next: 0,
            },
            C {
                name: "DaemonSet-style pin on a full node",
                pod: ds_pod,
                nodes: full_ds_cluster,
                start: 0,
                want: ScheduleOutcome::Unschedulable {
                    message: "0/3 nodes are available: 1 Too many pods, 2 node(s) didn't satisfy plugin(s) [NodeAffinity]. no new claims to deallocate, preemption: 0/3 nodes are available: 1 No preemption victims found for incoming pod, 2 Preemption is not helpful for scheduling.".into(),
                    unschedulable_plugins: plugins(&["NodeAffinity", "NodeResourcesFit"]),
                    preemption: None,
                },
                next: 1,
            },
            C {
                name: "PreFilter conflict",
                pod: conflict_pod,
                nodes: kind_cluster(),
                start: 2,
                want: ScheduleOutcome::Unschedulable {
                    message: "0/3 nodes are available: pod affinity terms conflict. no new claims to deallocate, preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.".into(),
                    unschedulable_plugins: plugins(&["NodeAffinity"]),
                    preemption: None,
                },
                next: 2,
            },
            C { name: "no nodes", pod: pod("p", None, None), nodes: vec![], start: 0, want: ScheduleOutcome::NoNodes, next: 0 },
        ];
        for c in &cases {
            let (got, next) = schedule_pod(&c.pod, &c.nodes, c.start, 0, 0);
            assert_eq!(got, c.want, "{}", c.name);
            assert_eq!(next, c.next, "{}: next start index", c.name);
        }
        // Two feasible workers: scored, and the tie breaker picks among equal totals.
        let mut nodes = kind_cluster();
        nodes[1] = ni(nodes[1].node.as_ref().clone(), vec![]);
        nodes[2] = ni(nodes[2].node.as_ref().clone(), vec![]);
        for (tb, want) in [(0u64, "kind-worker"), (1, "kind-worker2")] {
            match schedule_pod(&pod("p", Some("1"), None), &nodes, 0, 0, tb).0 {
                ScheduleOutcome::Scheduled { node, feasible_nodes, evaluated_nodes, scores } => {
                    assert_eq!(node, want, "tie breaker {tb}");
                    assert_eq!((feasible_nodes, evaluated_nodes, scores.len()), (2, 3, 2), "tie breaker {tb}: counts");
                }
                other => panic!("tie breaker {tb}: {other:?}"),
            }
        }
        // A nominated pod goes straight to its nominated node when it fits.
        let mut nominated = pod("p", Some("1"), None);
        nominated["status"] = json!({"nominatedNodeName": "kind-worker2"});
        match schedule_pod(&nominated, &nodes, 0, 0, 0).0 {
            ScheduleOutcome::Scheduled { node, .. } => assert_eq!(node, "kind-worker2", "nominated node"),
            other => panic!("nominated node: {other:?}"),
        }
    }
}
