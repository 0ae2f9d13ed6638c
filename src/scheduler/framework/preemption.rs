//! DefaultPreemption's PostFilter: find a node where evicting lower-priority pods lets the pod
//! fit, and the fewest, least important victims there.
//!
//! Real counterpart: `pkg/scheduler/framework/preemption/preemption.go` (`Evaluator.Preempt`,
//! `findCandidates`, `DryRunPreemption`, `SelectCandidate`, `pickOneNodeForPreemption`) and
//! `plugins/defaultpreemption/default_preemption.go` (`PodEligibleToPreemptOthers`,
//! `SelectVictimsOnNode` with the PreFilter extensions `RemovePod`/`AddPod` updating
//! PodTopologySpread's and InterPodAffinity's cycle state, so that victims are also chosen for
//! spread and affinity), with `filterPodsWithPDBViolation`: victims whose eviction would
//! break a PodDisruptionBudget are reprieved first, and the node with the fewest such
//! violations wins. What kubesim simplifies: every node is a candidate (no
//! `minCandidateNodesPercentage` sampling).

use super::cycle_state::CycleState;
use super::interface::{Code, Diagnosis, Status};
use super::runtime::{run_filter_plugins, DYNAMIC_RESOURCES_ENABLED};
use super::listers::PdbInfo;
use super::types::{NodeInfo, PodInfo};
use crate::scheduler::internal::cache::Snapshot;
use crate::scheduler::schedule_one::fit_error_message_from_diagnosis;
use crate::sim::sort::CompactSort;
use std::rc::Rc;

pub const NAME: &str = "DefaultPreemption";

/// A node where evicting `victims` lets the pod fit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PreemptionCandidate {
    pub node: String,
    /// (namespace, name) of the pods to evict, most important first.
    pub victims: Vec<(String, String)>,
}

/// Outcome of DefaultPreemption's PostFilter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PreemptionOutcome {
    /// Preemption cannot help; the message starts with `preemption: `.
    Unschedulable(String),
    /// The chosen node; the pod gets `status.nominatedNodeName` and the victims are deleted.
    /// The FailedScheduling message then carries no PostFilter part.
    Nominated(PreemptionCandidate),
}

/// `MoreImportantPod`: higher priority, then the earlier `status.startTime` (a pod that has not
/// started counts as "now", i.e. latest).
fn more_important(a: &PodInfo, b: &PodInfo) -> bool {
    if a.priority != b.priority {
        return a.priority > b.priority;
    }
    start_time_key(a) < start_time_key(b)
}

fn start_time_key(p: &PodInfo) -> &str {
    p.start_time.as_deref().unwrap_or("\u{10FFFF}")
}

/// `SelectVictimsOnNode`: remove every lower-priority pod; if the pod still does not fit, the
/// filter status explains why; otherwise reprieve victims from the most important down while the
/// pod keeps fitting.
/// `filterPodsWithPDBViolation`: (violating, non-violating) in the given order. Each budget's
/// allowance is spent by the Pods it selects (not those already in its disruptedPods); a Pod
/// whose budget goes below zero violates it. A Pod without labels matches no budget, and a
/// budget with an empty selector matches nothing.
fn filter_pods_with_pdb_violation(pods: Vec<Rc<PodInfo>>, pdbs: &[&PdbInfo]) -> (Vec<Rc<PodInfo>>, Vec<Rc<PodInfo>>) {
    let mut allowed: Vec<i64> = pdbs.iter().map(|p| p.disruptions_allowed).collect();
    let (mut violating, mut ok) = (Vec::new(), Vec::new());
    for p in pods {
        let mut violated = false;
        if !p.labels.is_empty() {
            for (i, pdb) in pdbs.iter().enumerate() {
                if pdb.namespace != p.namespace || pdb.selector.is_empty() || !pdb.selector.matches(&p.labels) || pdb.disrupted_pods.contains(&p.name) {
                    continue;
                }
                allowed[i] -= 1;
                if allowed[i] < 0 {
                    violated = true;
                }
            }
        }
        if violated {
            violating.push(p);
        } else {
            ok.push(p);
        }
    }
    (violating, ok)
}

fn select_victims_on_node(state: &CycleState, pod: &PodInfo, ni: &NodeInfo, pdbs: &[&PdbInfo]) -> Result<(Vec<Rc<PodInfo>>, usize), Status> {
    let mut potential: Vec<Rc<PodInfo>> = ni.pods.iter().filter(|p| p.priority < pod.priority).cloned().collect();
    if potential.is_empty() {
        return Err(Status::new(Code::UnschedulableAndUnresolvable, NAME, &["No preemption victims found for incoming pod"]));
    }
    let mut trial = ni.clone();
    let mut st = state.clone();
    for p in &potential {
        trial.remove_pod(&p.key);
        update_state(&mut st, p, pod, &trial, -1);
    }
    let verdict = run_filter_plugins(&st, pod, &trial);
    if !verdict.is_success() {
        return Err(verdict);
    }
    potential.csort_by(|a, b| {
        if more_important(a, b) {
            std::cmp::Ordering::Less
        } else if more_important(b, a) {
            std::cmp::Ordering::Greater
        } else {
            std::cmp::Ordering::Equal
        }
    });
    let (violating, non_violating) = filter_pods_with_pdb_violation(potential, pdbs);
    let mut victims = Vec::new();
    let mut violations = 0;
    // the violating ones are reprieved first, then the rest
    for (p, violates) in violating.into_iter().map(|p| (p, true)).chain(non_violating.into_iter().map(|p| (p, false))) {
        trial.add_pod(p.clone());
        update_state(&mut st, &p, pod, &trial, 1);
        if !run_filter_plugins(&st, pod, &trial).is_success() {
            trial.remove_pod(&p.key);
            update_state(&mut st, &p, pod, &trial, -1);
            victims.push(p);
            if violates {
                violations += 1;
            }
        }
    }
    Ok((victims, violations))
}

/// The PreFilter extensions (`AddPod`/`RemovePod`) of the plugins that keep cycle state.
fn update_state(state: &mut CycleState, existing: &PodInfo, preemptor: &PodInfo, node: &NodeInfo, delta: i64) {
    if let Some(s) = state.pod_topology_spread.as_mut() {
        s.update_with_pod(existing, preemptor, node, delta);
    }
    if let Some(s) = state.inter_pod_affinity.as_mut() {
        s.update_with_pod(existing, preemptor, node, delta);
    }
}

/// `pickOneNodeForPreemption`: fewest PodDisruptionBudget violations, then lowest
/// highest-victim priority, then lowest sum of victim priorities, then fewest victims, then the
/// latest start among the highest-priority victims, then the first candidate.
fn pick_one_node_for_preemption(cands: &[(String, Vec<Rc<PodInfo>>, usize)]) -> Option<usize> {
    if cands.is_empty() {
        return None;
    }
    // A node that needs no eviction at all wins outright.
    if let Some(i) = cands.iter().position(|(_, v, _)| v.is_empty()) {
        return Some(i);
    }
    let mut best: Vec<usize> = (0..cands.len()).collect();
    let keep_min = |best: &mut Vec<usize>, key: &dyn Fn(usize) -> i64| {
        let m = best.iter().map(|&i| key(i)).min().unwrap_or(0);
        best.retain(|&i| key(i) == m);
    };
    keep_min(&mut best, &|i: usize| cands[i].2 as i64);
    let highest = |i: usize| cands[i].1.iter().map(|p| p.priority).max().unwrap_or(i64::MIN);
    keep_min(&mut best, &highest);
    keep_min(&mut best, &|i: usize| cands[i].1.iter().map(|p| p.priority + (i32::MAX as i64 + 1)).sum());
    keep_min(&mut best, &|i: usize| cands[i].1.len() as i64);
    if best.len() > 1 {
        // earliest start time among the highest-priority victims; the latest such node wins
        let earliest = |i: usize| -> String {
            let h = highest(i);
            cands[i].1.iter().filter(|p| p.priority == h).map(|p| start_time_key(p).to_string()).min().unwrap_or_default()
        };
        let latest = best.iter().map(|&i| earliest(i)).max().unwrap_or_default();
        best.retain(|&i| earliest(i) == latest);
    }
    best.first().copied()
}

/// DefaultPreemption's PostFilter (`Evaluator.Preempt`). `diagnosis` is the filter diagnosis of
/// the failed attempt over every node of the snapshot.
pub fn default_preemption(state: &CycleState, pod: &PodInfo, snapshot: &Snapshot, diagnosis: &Diagnosis, pdbs: &[&PdbInfo]) -> PreemptionOutcome {
    // PodEligibleToPreemptOthers
    if pod.preemption_never {
        return PreemptionOutcome::Unschedulable("preemption: not eligible due to preemptionPolicy=Never.".into());
    }
    let nominated = pod.nominated_node_name.as_str();
    if !nominated.is_empty() && diagnosis.status_of(nominated).code != Code::UnschedulableAndUnresolvable {
        if let Some(ni) = snapshot.get(nominated) {
            if ni.pods.iter().any(|p| p.priority < pod.priority && p.terminating_by_preemption) {
                return PreemptionOutcome::Unschedulable("preemption: not eligible due to a terminating pod on the nominated node.".into());
            }
        }
    }

    // nodesWherePreemptionMightHelp + DryRunPreemption
    let mut statuses: Vec<(String, Status)> = Vec::new();
    let mut cands: Vec<(String, Vec<Rc<PodInfo>>, usize)> = Vec::new();
    for ni in snapshot.node_info_list() {
        let name = ni.name().to_string();
        if diagnosis.status_of(&name).code == Code::UnschedulableAndUnresolvable {
            statuses.push((name, Status::new(Code::UnschedulableAndUnresolvable, NAME, &["Preemption is not helpful for scheduling"])));
            continue;
        }
        match select_victims_on_node(state, pod, ni, pdbs) {
            Ok((v, violations)) => cands.push((name, v, violations)),
            Err(st) => statuses.push((name, st)),
        }
    }
    if let Some(i) = pick_one_node_for_preemption(&cands) {
        let (node, victims, _) = &cands[i];
        return PreemptionOutcome::Nominated(PreemptionCandidate {
            node: node.clone(),
            victims: victims.iter().map(|p| (p.namespace.clone(), p.name.clone())).collect(),
        });
    }
    let d = Diagnosis {
        node_statuses: statuses,
        absent_status: Some(Status::new(Code::UnschedulableAndUnresolvable, "", &["Preemption is not helpful for scheduling"])),
        ..Diagnosis::default()
    };
    PreemptionOutcome::Unschedulable(format!("preemption: {}", fit_error_message_from_diagnosis(snapshot.num_nodes(), &d, None)))
}

/// `RunPostFilterPlugins`' message: the DynamicResources reason (v1.34, pods without claims), then
/// DefaultPreemption's, joined by ", "; empty when preemption nominated a node.
pub fn post_filter_message(preemption: &PreemptionOutcome) -> String {
    match preemption {
        PreemptionOutcome::Nominated(_) => String::new(),
        PreemptionOutcome::Unschedulable(m) => {
            if DYNAMIC_RESOURCES_ENABLED {
                format!("no new claims to deallocate, {m}")
            } else {
                m.clone()
            }
        }
    }
}

/// Test tables (cases from upstream's tests and hand-checked examples), with the shared
/// fixtures of [`crate::scheduler::framework::testing`].
#[cfg(test)]
mod tests {
    use crate::scheduler::framework::testing::*;

    #[test]
    fn preemption_table() {
        struct C {
            name: &'static str,
            pod: Value,
            nodes: Vec<NodeInfo>,
            want: PreemptionOutcome,
        }
        let big = pod("p", Some("1"), None);
        let mut low = pod("low", Some("7500m"), None);
        low["spec"]["priority"] = json!(-10);
        let mut low2 = pod("low2", Some("500m"), None);
        low2["spec"]["priority"] = json!(-10);
        let mut never = big.clone();
        never["spec"]["preemptionPolicy"] = json!("Never");
        let mut huge = pod("p", Some("9"), None);
        huge["spec"]["priority"] = json!(100);
        let mut one_node = kind_cluster();
        one_node[1] = ni(one_node[1].node.as_ref().clone(), vec![low.clone(), low2.clone()]);
        let mut still_full = kind_cluster();
        still_full[1] = ni(still_full[1].node.as_ref().clone(), vec![pod("w1", Some("7600m"), None), low2]);
        let cases = [
            C {
                name: "kind cluster, equal priorities",
                pod: big.clone(),
                nodes: kind_cluster(),
                want: PreemptionOutcome::Unschedulable(
                    "preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.".into(),
                ),
            },
            C {
                name: "preemptionPolicy Never",
                pod: never,
                nodes: kind_cluster(),
                want: PreemptionOutcome::Unschedulable("preemption: not eligible due to preemptionPolicy=Never.".into()),
            },
            C {
                name: "pod larger than any node",
                pod: huge,
                nodes: kind_cluster(),
                want: PreemptionOutcome::Unschedulable("preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.".into()),
            },
            C {
                name: "low-priority victim makes room; the small one is reprieved",
                pod: big.clone(),
                nodes: one_node,
                want: PreemptionOutcome::Nominated(PreemptionCandidate {
                    node: "kind-worker".into(),
                    victims: vec![("default".into(), "low".into())],
                }),
            },
            C {
                name: "evicting the only low-priority pod is not enough",
                pod: big,
                nodes: still_full,
                want: PreemptionOutcome::Unschedulable(
                    "preemption: 0/3 nodes are available: 1 Insufficient cpu, 1 No preemption victims found for incoming pod, 1 Preemption is not helpful for scheduling.".into(),
                ),
            },
        ];
        for c in &cases {
            let found = find_nodes_that_fit(&c.pod, &c.nodes, 0, 0);
            assert!(found.feasible.is_empty(), "{}: expected no feasible node", c.name);
            assert_eq!(default_preemption(&c.pod, &c.nodes, &found.diagnosis), c.want, "{}", c.name);
        }
        // the brief's helper
        let nodes = kind_cluster();
        let found = find_nodes_that_fit(&pod("p", Some("1"), None), &nodes, 0, 0);
        let d = Diagnosis { node_statuses: found.diagnosis.node_statuses.clone(), ..Diagnosis::default() };
        let msg = match default_preemption(&pod("p", Some("1"), None), &nodes, &d) {
            PreemptionOutcome::Unschedulable(m) => Some(m),
            PreemptionOutcome::Nominated(_) => None,
        };
        assert_eq!(
            msg.as_deref(),
            Some("preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod."),
            "preemption_message"
        );
    }

    /// PodDisruptionBudgets in preemption, after upstream's `TestSelectNodesForPreemption` PDB
    /// cases: a victim whose eviction would break a budget is reprieved first, the node with the
    /// fewest violations wins, and a Pod already in the budget's disruptedPods costs nothing.
    #[test]
    fn preemption_respects_pod_disruption_budgets() {
        let victim = |name: &str, app: &str| {
            let mut p = pod(name, Some("4"), None);
            p["spec"]["priority"] = json!(-10);
            p["metadata"]["labels"] = json!({"app": app});
            p
        };
        let nodes = || {
            vec![
                ni(node("node-a", "8", "16Gi", 110), vec![victim("a1", "a"), victim("a2", "a")]),
                ni(node("node-b", "8", "16Gi", 110), vec![victim("b1", "b"), victim("b2", "b")]),
            ]
        };
        let pdb = |app: &str, allowed: i64, disrupted: &[&str]| {
            let d: serde_json::Map<String, Value> = disrupted.iter().map(|n| (n.to_string(), json!("2026-01-01T00:00:00Z"))).collect();
            json!({"metadata": {"name": format!("pdb-{app}"), "namespace": "default"}, "spec": {"selector": {"matchLabels": {"app": app}}}, "status": {"disruptionsAllowed": allowed, "disruptedPods": d}})
        };
        let incoming = pod("p", Some("4"), None);
        let found = find_nodes_that_fit(&incoming, &nodes(), 0, 0);
        let nominated = |node: &str, victim: &str| PreemptionOutcome::Nominated(PreemptionCandidate { node: node.into(), victims: vec![("default".into(), victim.into())] });
        let cases: [(&str, Vec<Value>, PreemptionOutcome); 5] = [
            ("no budget: the first node", vec![], nominated("node-a", "a2")),
            ("a budget that allows no disruption: the node without violations wins", vec![pdb("a", 0, &[])], nominated("node-b", "b2")),
            // a2 would spend the budget below zero, so a2 is reprieved first and a1 goes
            ("a budget that allows one: the Pod that would break it is reprieved, the other goes", vec![pdb("a", 1, &[])], nominated("node-a", "a1")),
            ("the victim's eviction was already processed (disruptedPods): no violation", vec![pdb("a", 0, &["a1", "a2"])], nominated("node-a", "a2")),
            ("budgets on both nodes: a violation either way, the first node", vec![pdb("a", 0, &[]), pdb("b", 0, &[])], nominated("node-a", "a2")),
        ];
        for (name, pdbs, want) in cases {
            assert_eq!(default_preemption_with_pdbs(&incoming, &nodes(), &found.diagnosis, &pdbs), want, "{}", name);
        }
    }
}
