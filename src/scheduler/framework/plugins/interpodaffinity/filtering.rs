//! InterPodAffinity's PreFilter and Filter (`filtering.go`).

use super::{count_of, merge_namespaces, pod_matches_all_affinity_terms, update, TopologyCounts, ERR_REASON_AFFINITY_RULES_NOT_MATCH, ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH, ERR_REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH, NAME};
use crate::scheduler::framework::interface::{Code, Status};
use crate::scheduler::framework::listers::Listers;
use crate::scheduler::framework::types::{AffinityTerm, Labels, NodeInfo, PodInfo};
use crate::scheduler::internal::cache::{MatchKey, Snapshot};

/// `preFilterState`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PreFilterState {
    /// Topology pairs of existing pods whose required anti-affinity matches the incoming pod.
    pub existing_anti_affinity_counts: TopologyCounts,
    /// Topology pairs of existing pods matching all of the incoming pod's required affinity terms.
    pub affinity_counts: TopologyCounts,
    /// Topology pairs of existing pods matching one of its required anti-affinity terms.
    pub anti_affinity_counts: TopologyCounts,
    /// The incoming pod's required terms, namespace selectors merged.
    pub required_affinity_terms: Vec<AffinityTerm>,
    pub required_anti_affinity_terms: Vec<AffinityTerm>,
    pub namespace_labels: Labels,
}

impl PreFilterState {
    /// `updateWithPod` (AddPod/RemovePod for preemption's dry run): `delta` ±1.
    pub fn update_with_pod(&mut self, existing: &PodInfo, preemptor: &PodInfo, node: &NodeInfo, delta: i64) {
        for t in &existing.required_anti_affinity_terms {
            if t.matches(preemptor, Some(&self.namespace_labels)) {
                update(&mut self.existing_anti_affinity_counts, &node.labels, &t.topology_key, delta);
            }
        }
        if pod_matches_all_affinity_terms(&self.required_affinity_terms, existing) {
            for t in &self.required_affinity_terms {
                update(&mut self.affinity_counts, &node.labels, &t.topology_key, delta);
            }
        }
        for t in &self.required_anti_affinity_terms {
            if t.matches(existing, None) {
                update(&mut self.anti_affinity_counts, &node.labels, &t.topology_key, delta);
            }
        }
    }
}

/// `PreFilter`: `None` (Skip) when the pod has no required terms and no existing pod's required
/// anti-affinity matches it.
pub fn pre_filter(pod: &PodInfo, snapshot: &Snapshot, listers: &Listers) -> Option<PreFilterState> {
    let mut s = PreFilterState {
        required_affinity_terms: pod.required_affinity_terms.clone(),
        required_anti_affinity_terms: pod.required_anti_affinity_terms.clone(),
        namespace_labels: listers.namespace_labels(&pod.namespace),
        ..PreFilterState::default()
    };
    for t in s.required_affinity_terms.iter_mut().chain(s.required_anti_affinity_terms.iter_mut()) {
        merge_namespaces(t, listers);
    }
    // getExistingAntiAffinityCounts: nodes with pods with required anti-affinity
    for ni in snapshot.have_pods_with_required_anti_affinity() {
        for existing in &ni.pods_with_required_anti_affinity {
            for t in &existing.required_anti_affinity_terms {
                if t.matches(pod, Some(&s.namespace_labels)) {
                    update(&mut s.existing_anti_affinity_counts, &ni.labels, &t.topology_key, 1);
                }
            }
        }
    }
    // getIncomingAffinityAntiAffinityCounts (counted per node, then added per topology pair)
    let nodes = snapshot.node_info_list();
    if !s.required_affinity_terms.is_empty() {
        let key = MatchKey::AllTerms(s.required_affinity_terms.clone());
        let terms = &s.required_affinity_terms;
        let counts = snapshot.count_per_node(&key, |ni| ni.pods.iter().filter(|p| pod_matches_all_affinity_terms(terms, p)).count() as i64);
        for (n, ni) in nodes.iter().enumerate() {
            if counts[n] > 0 {
                for t in terms {
                    update(&mut s.affinity_counts, &ni.labels, &t.topology_key, counts[n]);
                }
            }
        }
    }
    for t in &s.required_anti_affinity_terms {
        let key = MatchKey::Term(t.clone());
        let counts = snapshot.count_per_node(&key, |ni| ni.pods.iter().filter(|p| t.matches(p, None)).count() as i64);
        for (n, ni) in nodes.iter().enumerate() {
            if counts[n] > 0 {
                update(&mut s.anti_affinity_counts, &ni.labels, &t.topology_key, counts[n]);
            }
        }
    }
    if s.existing_anti_affinity_counts.is_empty() && s.required_affinity_terms.is_empty() && s.required_anti_affinity_terms.is_empty() {
        return None;
    }
    Some(s)
}

/// `satisfyPodAffinity`: every term's topology key on the node, and a matching pod in each
/// domain — unless no pod matches anywhere and the pod matches its own terms (the first of a
/// group that wants to be together).
fn satisfy_pod_affinity(s: &PreFilterState, pod: &PodInfo, ni: &NodeInfo) -> bool {
    let mut pods_exist = true;
    for t in &s.required_affinity_terms {
        let Some(v) = ni.labels.get(&t.topology_key) else { return false };
        if count_of(&s.affinity_counts, &t.topology_key, v) <= 0 {
            pods_exist = false;
        }
    }
    pods_exist || (s.affinity_counts.is_empty() && pod_matches_all_affinity_terms(&s.required_affinity_terms, pod))
}

fn satisfy_pod_anti_affinity(s: &PreFilterState, ni: &NodeInfo) -> bool {
    if s.anti_affinity_counts.is_empty() {
        return true;
    }
    !s.required_anti_affinity_terms.iter().any(|t| {
        ni.labels.get(&t.topology_key).map(|v| count_of(&s.anti_affinity_counts, &t.topology_key, v) > 0).unwrap_or(false)
    })
}

fn satisfy_existing_pods_anti_affinity(s: &PreFilterState, ni: &NodeInfo) -> bool {
    if s.existing_anti_affinity_counts.is_empty() {
        return true;
    }
    !ni.labels.iter().any(|(k, v)| count_of(&s.existing_anti_affinity_counts, k, v) > 0)
}

/// `Filter`: the first failure, with one reason.
pub fn filter(s: &PreFilterState, pod: &PodInfo, ni: &NodeInfo) -> Status {
    if !satisfy_pod_affinity(s, pod, ni) {
        return Status::new(Code::UnschedulableAndUnresolvable, NAME, &[ERR_REASON_AFFINITY_RULES_NOT_MATCH]);
    }
    if !satisfy_pod_anti_affinity(s, ni) {
        return Status::new(Code::Unschedulable, NAME, &[ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH]);
    }
    if !satisfy_existing_pods_anti_affinity(s, ni) {
        return Status::new(Code::Unschedulable, NAME, &[ERR_REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH]);
    }
    Status::success()
}
