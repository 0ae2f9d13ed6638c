//! PodTopologySpread's PreFilter and Filter (`filtering.go`).

use super::{constraints_for, count_pods_match_selector, node_labels_match_spread_constraints, Constraint, ERR_REASON_CONSTRAINTS_NOT_MATCH, ERR_REASON_NODE_LABEL_NOT_MATCH, NAME};
use crate::scheduler::framework::interface::{Code, Status};
use crate::scheduler::framework::listers::Listers;
use crate::scheduler::framework::types::{NodeInfo, PodInfo};
use crate::scheduler::internal::cache::{MatchKey, Snapshot};
use std::collections::BTreeMap;

/// `preFilterState`: the DoNotSchedule constraints and, per constraint, the matching pods in each
/// topology domain (`TpValueToMatchNum`); the global minimum is read from it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PreFilterState {
    pub constraints: Vec<Constraint>,
    pub tp_value_to_match_num: Vec<BTreeMap<String, i64>>,
}

impl PreFilterState {
    /// `minMatchNum`: the smallest count over the eligible domains; 0 when there are fewer
    /// domains than `minDomains`.
    pub fn min_match_num(&self, i: usize, min_domains: i64) -> i64 {
        let counts = &self.tp_value_to_match_num[i];
        if (counts.len() as i64) < min_domains {
            return 0;
        }
        counts.values().copied().min().unwrap_or(i32::MAX as i64)
    }

    /// `updateWithPod` (the AddPod/RemovePod extensions preemption uses): `delta` ±1 for a pod
    /// added to or removed from `node`.
    pub fn update_with_pod(&mut self, existing: &PodInfo, preemptor: &PodInfo, node: &NodeInfo, delta: i64) {
        if self.constraints.is_empty() || existing.namespace != preemptor.namespace || !node_labels_match_spread_constraints(&node.labels, &self.constraints) {
            return;
        }
        for (i, c) in self.constraints.iter().enumerate() {
            if !c.match_node_inclusion_policies(preemptor, node, &preemptor.required_node_affinity) {
                continue;
            }
            if c.selector.matches(&existing.labels) {
                let v = node.labels.get(&c.topology_key).cloned().unwrap_or_default();
                *self.tp_value_to_match_num[i].entry(v).or_insert(0) += delta;
            }
        }
    }
}

/// `calPreFilterState`; `None` (Skip) when the pod has no DoNotSchedule constraint.
pub fn pre_filter(pod: &PodInfo, snapshot: &Snapshot, listers: &Listers) -> Option<PreFilterState> {
    let constraints = constraints_for(pod, listers, true);
    if constraints.is_empty() {
        return None;
    }
    let mut s = PreFilterState { tp_value_to_match_num: vec![BTreeMap::new(); constraints.len()], constraints };
    let nodes = snapshot.node_info_list();
    for (i, c) in s.constraints.iter().enumerate() {
        let key = MatchKey::Spread { namespace: pod.namespace.clone(), selector: c.selector.clone() };
        let counts = snapshot.count_per_node(&key, |ni| count_pods_match_selector(&ni.pods, &c.selector, &pod.namespace));
        let mut by_value: BTreeMap<&str, i64> = BTreeMap::new();
        for (n, ni) in nodes.iter().enumerate() {
            if !node_labels_match_spread_constraints(&ni.labels, &s.constraints) || !c.match_node_inclusion_policies(pod, ni, &pod.required_node_affinity) {
                continue;
            }
            let value = ni.labels.get(&c.topology_key).map(String::as_str).unwrap_or("");
            *by_value.entry(value).or_insert(0) += counts[n];
        }
        s.tp_value_to_match_num[i] = by_value.into_iter().map(|(v, n)| (v.to_string(), n)).collect();
    }
    Some(s)
}

/// `Filter`: for each constraint, the node must have the topology key, and
/// `matching pods in its domain + (1 if the pod matches its own selector) − global minimum` must
/// not exceed maxSkew.
pub fn filter(s: &PreFilterState, pod: &PodInfo, ni: &NodeInfo) -> Status {
    for (i, c) in s.constraints.iter().enumerate() {
        let Some(value) = ni.labels.get(&c.topology_key) else {
            return Status::new(Code::UnschedulableAndUnresolvable, NAME, &[ERR_REASON_NODE_LABEL_NOT_MATCH]);
        };
        let min = s.min_match_num(i, c.min_domains);
        let self_match = i64::from(c.selector.matches(&pod.labels));
        let match_num = s.tp_value_to_match_num[i].get(value).copied().unwrap_or(0);
        if match_num + self_match - min > c.max_skew {
            return Status::new(Code::Unschedulable, NAME, &[ERR_REASON_CONSTRAINTS_NOT_MATCH]);
        }
    }
    Status::success()
}
