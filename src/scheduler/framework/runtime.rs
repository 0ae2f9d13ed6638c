//! The default profile: which plugin runs at which extension point, in which order, with which
//! weight, and the loops that run them.
//!
//! Real counterpart: `pkg/scheduler/apis/config/v1/default_plugins.go` (v1.34's MultiPoint set)
//! and `pkg/scheduler/framework/runtime/framework.go` (`RunPreFilterPlugins`,
//! `RunFilterPlugins`, `RunPreScorePlugins`, `RunScorePlugins` with `NormalizeScore` and the
//! weights). What kubesim simplifies: VolumeRestrictions, VolumeBinding run at PreFilter only,
//! NodeVolumeLimits and VolumeZone are not run (no CSI drivers, no zonal volumes), and
//! DynamicResources only contributes its PostFilter reason (no DRA); plugins run one node after
//! another instead of 16 goroutines (so "stop after N feasible nodes" is exact).

use super::cycle_state::CycleState;
use super::interface::{Code, NodeScore, PluginScore, Status};
use super::listers::Listers;
use super::plugins::{imagelocality, interpodaffinity, nodeaffinity, nodename, nodeports, noderesources, nodeunschedulable, podtopologyspread, tainttoleration, volumebinding};
use super::types::{NodeInfo, PodInfo};
use crate::scheduler::internal::cache::Snapshot;
use std::collections::BTreeSet;

/// The plugins the runtime dispatches on (no string compare on the hot path).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Plugin {
    NodeUnschedulable,
    NodeName,
    TaintToleration,
    NodeAffinity,
    NodePorts,
    NodeResourcesFit,
    PodTopologySpread,
    InterPodAffinity,
    NodeResourcesBalancedAllocation,
    ImageLocality,
}

impl Plugin {
    pub const fn name(self) -> &'static str {
        match self {
            Plugin::NodeUnschedulable => nodeunschedulable::NAME,
            Plugin::NodeName => nodename::NAME,
            Plugin::TaintToleration => tainttoleration::NAME,
            Plugin::NodeAffinity => nodeaffinity::NAME,
            Plugin::NodePorts => nodeports::NAME,
            Plugin::NodeResourcesFit => noderesources::fit::NAME,
            Plugin::PodTopologySpread => podtopologyspread::NAME,
            Plugin::InterPodAffinity => interpodaffinity::NAME,
            Plugin::NodeResourcesBalancedAllocation => noderesources::balanced_allocation::NAME,
            Plugin::ImageLocality => imagelocality::NAME,
        }
    }
}

/// A set of plugins (those a PreFilter or PreScore said Skip to), as bits.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PluginSet(u32);

impl PluginSet {
    pub fn insert(&mut self, p: Plugin) {
        self.0 |= 1 << p as u32;
    }
    pub fn contains(&self, p: Plugin) -> bool {
        self.0 & (1 << p as u32) != 0
    }
    pub fn clear(&mut self) {
        self.0 = 0;
    }
}

impl FromIterator<Plugin> for PluginSet {
    fn from_iter<I: IntoIterator<Item = Plugin>>(it: I) -> Self {
        let mut s = PluginSet::default();
        for p in it {
            s.insert(p);
        }
        s
    }
}

/// The filter plugins modelled, in the order of the v1.34 default profile.
pub const FILTERS: [Plugin; 8] = [
    Plugin::NodeUnschedulable,
    Plugin::NodeName,
    Plugin::TaintToleration,
    Plugin::NodeAffinity,
    Plugin::NodePorts,
    Plugin::NodeResourcesFit,
    Plugin::PodTopologySpread,
    Plugin::InterPodAffinity,
];

/// The score plugins modelled with their default weights, in profile order.
pub const SCORES: [(Plugin, i64); 7] = [
    (Plugin::TaintToleration, 3),
    (Plugin::NodeAffinity, 2),
    (Plugin::NodeResourcesFit, 1),
    (Plugin::PodTopologySpread, 2),
    (Plugin::InterPodAffinity, 2),
    (Plugin::NodeResourcesBalancedAllocation, 1),
    (Plugin::ImageLocality, 1),
];

/// Filter plugins modelled, in the order of the v1.34 default profile (their names).
pub const FILTER_PLUGINS: &[&str] = &[
    nodeunschedulable::NAME,
    nodename::NAME,
    tainttoleration::NAME,
    nodeaffinity::NAME,
    nodeports::NAME,
    noderesources::fit::NAME,
    podtopologyspread::NAME,
    interpodaffinity::NAME,
];

/// Score plugins modelled with their default weights, in profile order.
pub const SCORE_PLUGINS: &[(&str, i64)] = &[
    (tainttoleration::NAME, 3),
    (nodeaffinity::NAME, 2),
    (noderesources::fit::NAME, 1),
    (podtopologyspread::NAME, 2),
    (interpodaffinity::NAME, 2),
    (noderesources::balanced_allocation::NAME, 1),
    (imagelocality::NAME, 1),
];

/// DynamicResourceAllocation is GA and on by default in v1.34, so the DynamicResources plugin runs
/// at PostFilter (before DefaultPreemption) and, for pods without ResourceClaims, contributes
/// `no new claims to deallocate` to every FailedScheduling message.
pub const DYNAMIC_RESOURCES_ENABLED: bool = true;

/// `RunPreFilterPlugins`: the volume plugins, NodeAffinity (which may narrow the nodes),
/// PodTopologySpread and InterPodAffinity (which record their counts or Skip). `Err` rejects the
/// pod before any node is tried.
pub fn run_pre_filter_plugins(state: &mut CycleState, pod: &PodInfo, snapshot: &Snapshot, listers: &Listers) -> Result<Option<BTreeSet<String>>, Status> {
    *state = CycleState::default();
    let names = nodeaffinity::pre_filter(pod)?;
    state.node_affinity = Some(nodeaffinity::PreFilterState { node_names: names.clone() });
    if let Some(st) = volumebinding::pre_filter(pod, &listers.claims, &listers.classes) {
        return Err(st);
    }
    match podtopologyspread::filtering::pre_filter(pod, snapshot, listers) {
        Some(s) => state.pod_topology_spread = Some(s),
        None => {
            state.skip_filter_plugins.insert(Plugin::PodTopologySpread);
        }
    }
    match interpodaffinity::filtering::pre_filter(pod, snapshot, listers) {
        Some(s) => state.inter_pod_affinity = Some(s),
        None => {
            state.skip_filter_plugins.insert(Plugin::InterPodAffinity);
        }
    }
    Ok(names)
}

/// One filter plugin on one node (Success for a plugin skipped at PreFilter).
pub fn run_filter(plugin: Plugin, state: &CycleState, pod: &PodInfo, ni: &NodeInfo) -> Status {
    match plugin {
        Plugin::NodeUnschedulable => nodeunschedulable::filter(pod, ni),
        Plugin::NodeName => nodename::filter(pod, ni),
        Plugin::TaintToleration => tainttoleration::filter(pod, ni),
        Plugin::NodeAffinity => nodeaffinity::filter(pod, ni),
        Plugin::NodePorts => nodeports::filter(pod, ni),
        Plugin::NodeResourcesFit => noderesources::fit::filter(pod, ni),
        Plugin::PodTopologySpread => match &state.pod_topology_spread {
            Some(s) => podtopologyspread::filtering::filter(s, pod, ni),
            None => Status::success(),
        },
        Plugin::InterPodAffinity => match &state.inter_pod_affinity {
            Some(s) => interpodaffinity::filtering::filter(s, pod, ni),
            None => Status::success(),
        },
        Plugin::NodeResourcesBalancedAllocation | Plugin::ImageLocality => Status::success(),
    }
}

/// `RunFilterPlugins`: the plugins in order, stopping at the first failure; the node's verdict.
pub fn run_filter_plugins(state: &CycleState, pod: &PodInfo, ni: &NodeInfo) -> Status {
    for &p in FILTERS.iter() {
        if state.skip_filter_plugins.contains(p) {
            continue;
        }
        let st = run_filter(p, state, pod, ni);
        if !st.is_success() {
            return st;
        }
    }
    Status::success()
}

/// The plugins [`run_filter_plugins`] ran for a node whose verdict is `st`, with each one's
/// rejection: it stops at the first failure, so every plugin before it passed; plugins skipped at
/// PreFilter did not run.
pub fn filter_trail(state: &CycleState, st: &Status) -> Vec<(&'static str, Option<String>)> {
    let mut out = Vec::new();
    for p in FILTERS {
        if state.skip_filter_plugins.contains(p) {
            continue;
        }
        let failed = !st.is_success() && st.plugin == p.name();
        out.push((p.name(), failed.then(|| st.message())));
        if failed {
            break;
        }
    }
    out
}

/// `RunPreScorePlugins`: each score plugin decides whether it runs for this pod.
pub fn run_pre_score_plugins(state: &mut CycleState, pod: &PodInfo, feasible: &[&NodeInfo], snapshot: &Snapshot, listers: &Listers) {
    let idx: Vec<usize> = feasible.iter().map(|n| snapshot.index_of(n.name()).unwrap_or(usize::MAX)).collect();
    run_pre_score_plugins_at(state, pod, feasible, &idx, snapshot, listers)
}

/// [`run_pre_score_plugins`] with the feasible nodes' indices in the snapshot (the cycle has them).
pub fn run_pre_score_plugins_at(state: &mut CycleState, pod: &PodInfo, feasible: &[&NodeInfo], feasible_idx: &[usize], snapshot: &Snapshot, listers: &Listers) {
    state.skip_score_plugins.clear();
    if !nodeaffinity::pre_score(pod) {
        state.skip_score_plugins.insert(Plugin::NodeAffinity);
    }
    match podtopologyspread::scoring::pre_score_at(pod, feasible, feasible_idx, snapshot, listers) {
        Some(s) => state.pod_topology_spread_score = Some(s),
        None => {
            state.skip_score_plugins.insert(Plugin::PodTopologySpread);
        }
    }
    match interpodaffinity::scoring::pre_score(pod, feasible, snapshot, listers) {
        Some(s) => state.inter_pod_affinity_score = Some(s),
        None => {
            state.skip_score_plugins.insert(Plugin::InterPodAffinity);
        }
    }
    if !noderesources::balanced_allocation::pre_score(pod) {
        state.skip_score_plugins.insert(Plugin::NodeResourcesBalancedAllocation);
    }
}

/// `RunScorePlugins`: each plugin that was not skipped scores every feasible node, normalises
/// across them, and its scores are multiplied by its weight.
pub fn run_score_plugins(state: &CycleState, pod: &PodInfo, feasible: &[&NodeInfo], snapshot: &Snapshot) -> Vec<NodeScore> {
    let mut out: Vec<NodeScore> = feasible.iter().map(|n| NodeScore { node: n.name_rc(), per_plugin: Default::default(), total: 0 }).collect();
    let mut norm: Vec<i64> = Vec::with_capacity(feasible.len());
    let prefer_no_schedule = tainttoleration::prefer_no_schedule_tolerations(pod);
    let mut raw: Vec<i64> = Vec::with_capacity(feasible.len());
    for (plugin, weight) in SCORES {
        if state.skip_score_plugins.contains(plugin) {
            continue;
        }
        raw.clear();
        match plugin {
            Plugin::TaintToleration => raw.extend(feasible.iter().map(|ni| tainttoleration::score(&prefer_no_schedule, ni))),
            Plugin::NodeAffinity => raw.extend(feasible.iter().map(|ni| nodeaffinity::score(pod, ni))),
            Plugin::NodeResourcesFit => raw.extend(feasible.iter().map(|ni| noderesources::least_allocated::score(pod, ni))),
            Plugin::PodTopologySpread => match &state.pod_topology_spread_score {
                Some(s) => raw.extend(feasible.iter().enumerate().map(|(k, ni)| podtopologyspread::scoring::score_at(s, pod, ni, Some(k)))),
                None => raw.resize(feasible.len(), 0),
            },
            Plugin::InterPodAffinity => match &state.inter_pod_affinity_score {
                Some(s) => raw.extend(feasible.iter().map(|ni| interpodaffinity::scoring::score(s, ni))),
                None => raw.resize(feasible.len(), 0),
            },
            Plugin::NodeResourcesBalancedAllocation => raw.extend(feasible.iter().map(|ni| noderesources::balanced_allocation::score(pod, ni))),
            Plugin::ImageLocality => raw.extend(feasible.iter().map(|ni| imagelocality::score(pod, ni, snapshot))),
            _ => raw.resize(feasible.len(), 0),
        }
        norm.clear();
        norm.extend_from_slice(&raw);
        match plugin {
            Plugin::TaintToleration => tainttoleration::normalize_score(&mut norm),
            Plugin::NodeAffinity => nodeaffinity::normalize_score(&mut norm),
            Plugin::PodTopologySpread => {
                if let Some(s) = &state.pod_topology_spread_score {
                    let names: Vec<&str> = feasible.iter().map(|n| n.name()).collect();
                    podtopologyspread::scoring::normalize_score(s, &names, &mut norm)
                }
            }
            Plugin::InterPodAffinity => interpodaffinity::scoring::normalize_score(&mut norm),
            _ => {}
        }
        for (i, ns) in out.iter_mut().enumerate() {
            let weighted = norm[i].saturating_mul(weight);
            ns.per_plugin.push(PluginScore { plugin: plugin.name(), raw: raw[i], normalized: norm[i], weighted });
            ns.total = ns.total.saturating_add(weighted);
        }
    }
    out
}

/// Whether a status is a rejection preemption cannot help with.
pub fn is_unresolvable(st: &Status) -> bool {
    st.code == Code::UnschedulableAndUnresolvable
}
