//! `CycleState`: what PreFilter and PreScore computed for the pod of one scheduling cycle, read
//! by Filter and Score on every node.
//!
//! Real counterpart: `pkg/scheduler/framework/cycle_state.go` (a map from state keys to
//! `StateData`, cloned for preemption's dry runs). kubesim types it: one field per plugin that
//! keeps state, and the set of plugins whose PreFilter/PreScore said Skip.

use super::plugins::{interpodaffinity, nodeaffinity, podtopologyspread};
use super::runtime::PluginSet;

#[derive(Clone, Debug, Default)]
pub struct CycleState {
    /// Filter plugins whose PreFilter returned Skip (their Filter does not run).
    pub skip_filter_plugins: PluginSet,
    /// Score plugins whose PreScore returned Skip (their Score does not run).
    pub skip_score_plugins: PluginSet,
    pub node_affinity: Option<nodeaffinity::PreFilterState>,
    pub pod_topology_spread: Option<podtopologyspread::PreFilterState>,
    pub pod_topology_spread_score: Option<podtopologyspread::PreScoreState>,
    pub inter_pod_affinity: Option<interpodaffinity::PreFilterState>,
    pub inter_pod_affinity_score: Option<interpodaffinity::PreScoreState>,
}
