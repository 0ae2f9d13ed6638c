//! The framework's vocabulary: status codes, `Status`, node scores and the `Diagnosis` of a
//! failed cycle.
//!
//! Real counterpart: `pkg/scheduler/framework/interface.go` (`Code`, `Status`, `NodeScore`,
//! `MaxNodeScore`), `types.go` (`Diagnosis`, `NodeToStatus`, `FitError`). What kubesim
//! simplifies: a status names its plugin by a static string; there is no `Error` or `Wait` code
//! (no plugin here fails internally or waits at Permit).

use std::collections::BTreeSet;
use std::rc::Rc;

/// `framework.MaxNodeScore`: every score plugin returns 0..=100 after normalisation.
pub const MAX_NODE_SCORE: i64 = 100;

/// `fwk.Code`, restricted to the codes these plugins produce.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Code {
    Success,
    /// The node might fit if pods were removed from it: preemption is attempted.
    Unschedulable,
    /// Removing pods would not help (taint, affinity, node name, node too small).
    UnschedulableAndUnresolvable,
    /// PreFilter/PreScore: the plugin has nothing to do for this pod; its Filter/Score is skipped.
    Skip,
}

/// `fwk.Status`: a code, reasons (each counted separately in the FitError histogram) and the
/// plugin that produced it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Status {
    pub code: Code,
    pub reasons: Vec<String>,
    pub plugin: &'static str,
}

impl Status {
    pub fn success() -> Status {
        Status { code: Code::Success, reasons: Vec::new(), plugin: "" }
    }
    pub fn new(code: Code, plugin: &'static str, reasons: &[&str]) -> Status {
        Status { code, reasons: reasons.iter().map(|r| r.to_string()).collect(), plugin }
    }
    pub fn is_success(&self) -> bool {
        self.code == Code::Success
    }
    /// `Status.Message()`: reasons joined by ", ".
    pub fn message(&self) -> String {
        self.reasons.join(", ")
    }
}

/// Per-node scores: `(plugin, raw, normalized, weighted)` for each plugin that ran (plugins whose
/// PreScore returned Skip are absent) and the weighted total.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeScore {
    /// The node's name, shared with its NodeInfo.
    pub node: Rc<str>,
    pub per_plugin: PluginScores,
    pub total: i64,
}

/// The score plugins' verdicts on one node, kept inline (at most one per score plugin of the
/// profile): a cycle scores hundreds of nodes and allocates nothing per node.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PluginScores {
    items: [Option<PluginScore>; MAX_SCORE_PLUGINS],
    len: usize,
}

/// Score plugins in the default profile.
pub const MAX_SCORE_PLUGINS: usize = 8;

impl PluginScores {
    pub fn push(&mut self, s: PluginScore) {
        if self.len < MAX_SCORE_PLUGINS {
            self.items[self.len] = Some(s);
            self.len += 1;
        }
    }
    pub fn iter(&self) -> impl Iterator<Item = &PluginScore> {
        self.items[..self.len].iter().flatten()
    }
    pub fn to_vec(&self) -> Vec<PluginScore> {
        self.iter().cloned().collect()
    }
    pub fn len(&self) -> usize {
        self.len
    }
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// One score plugin's verdict on one node: its raw score, normalized to 0..100, and weighted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PluginScore {
    pub plugin: &'static str,
    pub raw: i64,
    pub normalized: i64,
    pub weighted: i64,
}

/// `framework.Diagnosis`: why nodes were rejected.
#[derive(Clone, Debug, Default)]
pub struct Diagnosis {
    /// Explicit statuses of nodes that failed a filter (`NodeToStatus`), in search order.
    pub node_statuses: Vec<(String, Status)>,
    /// Status of every node absent from `node_statuses` (`AbsentNodesStatus`); `None` is the
    /// default UnschedulableAndUnresolvable without reasons.
    pub absent_status: Option<Status>,
    /// Set when PreFilter rejected the pod: the histogram is then replaced by this message.
    pub pre_filter_msg: Option<String>,
    /// Plugins that rejected at least one node (the queueing hints read them).
    pub unschedulable_plugins: BTreeSet<&'static str>,
}

impl Diagnosis {
    /// `NodeToStatus.Get`: explicit status, or the absent-nodes status.
    pub fn status_of(&self, node: &str) -> Status {
        if let Some((_, st)) = self.node_statuses.iter().find(|(n, _)| n == node) {
            return st.clone();
        }
        self.absent_status.clone().unwrap_or(Status { code: Code::UnschedulableAndUnresolvable, reasons: Vec::new(), plugin: "" })
    }
}
