//! InterPodAffinity's PreScore, Score and NormalizeScore (`scoring.go`).

use super::{merge_namespaces, HARD_POD_AFFINITY_WEIGHT};
use crate::scheduler::framework::interface::MAX_NODE_SCORE;
use crate::scheduler::framework::listers::Listers;
use crate::scheduler::framework::types::{AffinityTerm, Labels, NodeInfo, PodInfo, WeightedAffinityTerm};
use crate::scheduler::internal::cache::{ScoreKey, Snapshot};
use std::collections::BTreeMap;

/// `preScoreState`: topology key -> value -> score.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PreScoreState {
    pub topology_score: BTreeMap<String, BTreeMap<String, i64>>,
}

/// `processTerm` for one node: `weight × multiplier` on the node's value of the term's key.
fn process_term(deltas: &mut Vec<(String, i64)>, term: &AffinityTerm, weight: i64, pod: &PodInfo, ns_labels: Option<&Labels>, node: &NodeInfo, multiplier: i64) {
    if term.matches(pod, ns_labels) && node.labels.contains_key(&term.topology_key) {
        match deltas.iter_mut().find(|(k, _)| *k == term.topology_key) {
            Some((_, d)) => *d += weight * multiplier,
            None => deltas.push((term.topology_key.clone(), weight * multiplier)),
        }
    }
}

fn process_terms(deltas: &mut Vec<(String, i64)>, terms: &[WeightedAffinityTerm], pod: &PodInfo, ns_labels: Option<&Labels>, node: &NodeInfo, multiplier: i64) {
    for t in terms {
        process_term(deltas, &t.term, t.weight, pod, ns_labels, node, multiplier);
    }
}

/// `PreScore`: `None` (Skip) when no existing pod or preferred term gives any topology a score.
/// Unless the pod has preferred terms, only nodes with pods with affinity are read.
pub fn pre_score(pod: &PodInfo, feasible: &[&NodeInfo], snapshot: &Snapshot, listers: &Listers) -> Option<PreScoreState> {
    if feasible.is_empty() {
        return None;
    }
    let has_constraints = !pod.preferred_affinity_terms.is_empty() || !pod.preferred_anti_affinity_terms.is_empty();
    let mut preferred = pod.preferred_affinity_terms.clone();
    let mut anti = pod.preferred_anti_affinity_terms.clone();
    for t in preferred.iter_mut().chain(anti.iter_mut()) {
        merge_namespaces(&mut t.term, listers);
    }
    let key = ScoreKey {
        namespace: pod.namespace.clone(),
        labels: pod.labels.clone(),
        namespace_labels: listers.namespace_labels(&pod.namespace),
        preferred_affinity: preferred,
        preferred_anti_affinity: anti,
    };
    // processExistingPod, summed over the pods of one node
    let node_deltas = |ni: &NodeInfo| -> Vec<(String, i64)> {
        let mut d = Vec::new();
        if ni.labels.is_empty() {
            return d;
        }
        let pods = if has_constraints { &ni.pods } else { &ni.pods_with_affinity };
        let ns_labels = Some(&key.namespace_labels);
        for existing in pods {
            process_terms(&mut d, &key.preferred_affinity, existing, None, ni, 1);
            process_terms(&mut d, &key.preferred_anti_affinity, existing, None, ni, -1);
            if HARD_POD_AFFINITY_WEIGHT > 0 {
                for t in &existing.required_affinity_terms {
                    process_term(&mut d, t, HARD_POD_AFFINITY_WEIGHT, pod, ns_labels, ni, 1);
                }
            }
            process_terms(&mut d, &existing.preferred_affinity_terms, pod, ns_labels, ni, 1);
            process_terms(&mut d, &existing.preferred_anti_affinity_terms, pod, ns_labels, ni, -1);
        }
        d
    };
    let nodes = snapshot.node_info_list();
    let mut m: BTreeMap<&str, BTreeMap<&str, i64>> = BTreeMap::new();
    for (i, deltas) in snapshot.deltas_per_node(&key, has_constraints, node_deltas) {
        let ni = &nodes[i];
        for (k, d) in deltas.iter() {
            if let Some((k, v)) = ni.labels.get_key_value(k) {
                *m.entry(k.as_str()).or_default().entry(v.as_str()).or_insert(0) += d;
            }
        }
    }
    if m.is_empty() {
        return None;
    }
    let topology_score = m.into_iter().map(|(k, vs)| (k.to_string(), vs.into_iter().map(|(v, n)| (v.to_string(), n)).collect())).collect();
    Some(PreScoreState { topology_score })
}

/// `Score`: the sum over the node's labels of the topology scores.
pub fn score(s: &PreScoreState, ni: &NodeInfo) -> i64 {
    s.topology_score.iter().filter_map(|(k, values)| ni.labels.get(k).and_then(|v| values.get(v))).sum()
}

/// `NormalizeScore`: `int64(100 × (s − min) / (max − min))`, all 0 when max == min.
pub fn normalize_score(scores: &mut [i64]) {
    let (Some(min), Some(max)) = (scores.iter().copied().min(), scores.iter().copied().max()) else { return };
    let diff = max - min;
    for sc in scores.iter_mut() {
        let f = if diff > 0 { MAX_NODE_SCORE as f64 * ((*sc - min) as f64 / diff as f64) } else { 0.0 };
        *sc = f as i64;
    }
}
