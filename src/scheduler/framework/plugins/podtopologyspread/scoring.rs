//! PodTopologySpread's PreScore, Score and NormalizeScore (`scoring.go`).

use super::{constraints_for, count_pods_match_selector, node_labels_match_spread_constraints, Constraint, LABEL_HOSTNAME};
use crate::scheduler::framework::interface::MAX_NODE_SCORE;
use crate::scheduler::framework::listers::Listers;
use crate::scheduler::framework::types::{NodeInfo, PodInfo};
use crate::scheduler::internal::cache::{Domains, MatchKey, Snapshot};
use std::rc::Rc;
use std::collections::{BTreeMap, BTreeSet};

/// `preScoreState`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PreScoreState {
    pub constraints: Vec<Constraint>,
    /// Nodes missing a constraint's topology key (scored 0 after normalisation).
    pub ignored_nodes: BTreeSet<String>,
    /// Per constraint (hostname aside): matching pods per topology value of the feasible nodes.
    pub topology_value_to_pod_counts: Vec<BTreeMap<String, i64>>,
    pub topology_normalizing_weight: Vec<f64>,
    /// Per hostname constraint: the feasible nodes' matching pods in feasible order, counted
    /// once through the snapshot's per-node memo (Score reads them instead of counting again).
    pub hostname_counts: Vec<Vec<i64>>,
}

/// `topologyNormalizingWeight`: log(size + 2).
pub fn topology_normalizing_weight(size: usize) -> f64 {
    ((size + 2) as f64).ln()
}

/// `scoreForCount`.
pub fn score_for_count(cnt: i64, max_skew: i64, weight: f64) -> f64 {
    cnt as f64 * weight + (max_skew - 1) as f64
}

/// `PreScore`: `None` (Skip) when the pod has no ScheduleAnyway constraint and no default applies.
pub fn pre_score(pod: &PodInfo, feasible: &[&NodeInfo], snapshot: &Snapshot, listers: &Listers) -> Option<PreScoreState> {
    let idx: Vec<usize> = feasible.iter().map(|n| snapshot.index_of(n.name()).unwrap_or(usize::MAX)).collect();
    pre_score_at(pod, feasible, &idx, snapshot, listers)
}

/// [`pre_score`] with the feasible nodes' indices in the snapshot.
pub fn pre_score_at(pod: &PodInfo, feasible: &[&NodeInfo], feasible_idx: &[usize], snapshot: &Snapshot, listers: &Listers) -> Option<PreScoreState> {
    if snapshot.num_nodes() == 0 {
        return None;
    }
    // only non-default constraints require every topology label
    let require_all_topologies = !pod.topology_spread_constraints.is_empty();
    let constraints = constraints_for(pod, listers, false);
    if constraints.is_empty() {
        return None;
    }
    let mut s = PreScoreState { topology_value_to_pod_counts: vec![BTreeMap::new(); constraints.len()], constraints, ..PreScoreState::default() };
    let mut topo_size = vec![0usize; s.constraints.len()];
    // each constraint's domains (the node's value of its key, "" without it), read by index
    let domains: Vec<Option<Rc<Domains>>> = s.constraints.iter().map(|c| (c.topology_key != LABEL_HOSTNAME).then(|| snapshot.domains(&c.topology_key))).collect();
    let mut seen: Vec<Vec<bool>> = domains.iter().map(|d| vec![false; d.as_ref().map(|d| d.values.len()).unwrap_or(0)]).collect();
    for (k, ni) in feasible.iter().enumerate() {
        if require_all_topologies && !node_labels_match_spread_constraints(&ni.labels, &s.constraints) {
            s.ignored_nodes.insert(ni.name().to_string());
            continue;
        }
        for i in 0..s.constraints.len() {
            let Some(d) = &domains[i] else { continue };
            let dom = match feasible_idx.get(k).and_then(|&n| d.of_node.get(n)) {
                Some(&x) => x as usize,
                None => d.index_of(ni.labels.get(&s.constraints[i].topology_key).map(String::as_str).unwrap_or("")).unwrap_or(usize::MAX),
            };
            match seen[i].get_mut(dom) {
                Some(seen) if !*seen => {
                    *seen = true;
                    topo_size[i] += 1;
                }
                Some(_) => {}
                None => {
                    // a node the snapshot does not hold (tests): keyed by its value
                    let v = ni.labels.get(&s.constraints[i].topology_key).cloned().unwrap_or_default();
                    if !s.topology_value_to_pod_counts[i].contains_key(&v) {
                        s.topology_value_to_pod_counts[i].insert(v, 0);
                        topo_size[i] += 1;
                    }
                }
            }
        }
    }
    for (i, d) in domains.iter().enumerate() {
        if let Some(d) = d {
            for (x, v) in d.values.iter().enumerate() {
                if seen[i][x] {
                    s.topology_value_to_pod_counts[i].insert(v.clone(), 0);
                }
            }
        }
    }
    s.topology_normalizing_weight = s
        .constraints
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let size = if c.topology_key == LABEL_HOSTNAME { feasible.len() - s.ignored_nodes.len() } else { topo_size[i] };
            topology_normalizing_weight(size)
        })
        .collect();
    let nodes = snapshot.node_info_list();
    s.hostname_counts = vec![Vec::new(); s.constraints.len()];
    // the inclusion policies hold for every node when the pod selects no nodes and taints are ignored
    let no_node_affinity = pod.required_node_affinity.node_selector.is_empty() && pod.required_node_affinity.terms.is_none();
    for (i, c) in s.constraints.iter().enumerate() {
        let key = MatchKey::Spread { namespace: pod.namespace.clone(), selector: c.selector.clone() };
        let counts = snapshot.count_per_node(&key, |ni| count_pods_match_selector(&ni.pods, &c.selector, &pod.namespace));
        if c.topology_key == LABEL_HOSTNAME {
            // counted on the node itself at Score
            s.hostname_counts[i] = feasible_idx.iter().zip(feasible).map(|(&n, ni)| counts.get(n).copied().unwrap_or_else(|| count_pods_match_selector(&ni.pods, &c.selector, &pod.namespace))).collect();
            continue;
        }
        let every_node = no_node_affinity && !c.honor_node_taints;
        let Some(d) = &domains[i] else { continue };
        let mut sums = vec![0i64; d.values.len()];
        for (n, ni) in nodes.iter().enumerate() {
            if require_all_topologies && !node_labels_match_spread_constraints(&ni.labels, &s.constraints) {
                continue;
            }
            if !every_node && !c.match_node_inclusion_policies(pod, ni, &pod.required_node_affinity) {
                continue;
            }
            sums[d.of_node[n] as usize] += counts[n];
        }
        for (v, count) in s.topology_value_to_pod_counts[i].iter_mut() {
            if let Some(x) = d.index_of(v) {
                *count += sums[x];
            }
        }
    }
    Some(s)
}

/// `Score`: the sum over constraints of `scoreForCount` of the matching pods in the node's
/// domain (on the node itself for hostname), rounded.
pub fn score(s: &PreScoreState, pod: &PodInfo, ni: &NodeInfo) -> i64 {
    score_at(s, pod, ni, None)
}

/// [`score`] for the `k`-th feasible node of PreScore (its hostname counts are read, not counted).
pub fn score_at(s: &PreScoreState, pod: &PodInfo, ni: &NodeInfo, k: Option<usize>) -> i64 {
    if s.ignored_nodes.contains(ni.name()) {
        return 0;
    }
    let mut score = 0f64;
    for (i, c) in s.constraints.iter().enumerate() {
        let Some(value) = ni.labels.get(&c.topology_key) else { continue };
        let cnt = if c.topology_key == LABEL_HOSTNAME {
            match k.and_then(|k| s.hostname_counts.get(i).and_then(|v| v.get(k))) {
                Some(n) => *n,
                None => count_pods_match_selector(&ni.pods, &c.selector, &pod.namespace),
            }
        } else {
            s.topology_value_to_pod_counts[i].get(value).copied().unwrap_or(0)
        };
        score += score_for_count(cnt, c.max_skew, s.topology_normalizing_weight[i]);
    }
    score.round() as i64
}

/// `NormalizeScore`: fewer matching pods score higher: `100 × (max + min − s) / max`; ignored
/// nodes 0; all 100 when every score is 0.
pub fn normalize_score(s: &PreScoreState, nodes: &[&str], scores: &mut [i64]) {
    let mut min = i64::MAX;
    let mut max = 0i64;
    for (i, sc) in scores.iter().enumerate() {
        if s.ignored_nodes.contains(nodes[i]) {
            continue;
        }
        min = min.min(*sc);
        max = max.max(*sc);
    }
    for (i, sc) in scores.iter_mut().enumerate() {
        if s.ignored_nodes.contains(nodes[i]) {
            *sc = 0;
        } else if max == 0 {
            *sc = MAX_NODE_SCORE;
        } else {
            *sc = MAX_NODE_SCORE * (max + min - *sc) / max;
        }
    }
}
