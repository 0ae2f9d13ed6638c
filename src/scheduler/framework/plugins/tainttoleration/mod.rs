//! TaintToleration: a NoSchedule/NoExecute taint the pod does not tolerate rejects the node;
//! untolerated PreferNoSchedule taints lower its score.
//!
//! Real counterpart: `pkg/scheduler/framework/plugins/tainttoleration/taint_toleration.go`
//! (`Filter`, `PreScore` keeping the PreferNoSchedule tolerations, `Score`, `NormalizeScore`
//! reversed).

use crate::scheduler::framework::interface::{Code, Status, MAX_NODE_SCORE};
use crate::scheduler::framework::plugins::helper::default_normalize_score;
use crate::scheduler::framework::types::{find_untolerated_do_not_schedule_taint, tolerations_tolerate_taint, Effect, NodeInfo, PodInfo, Toleration};

pub const NAME: &str = "TaintToleration";

/// Whether the filter hides the taint in its reason.
///
/// v1.34.0 prints `node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }`.
/// PR #134740 ("remove taint values from unschedulable messages in pod status", v1.35) was
/// cherry-picked to release-1.34 (PR #135023, November 2025), so later 1.34 patch releases print
/// `node(s) had untolerated taint(s)` instead. kubesim emulates the v1.34.0 wording.
pub const REDACT_UNTOLERATED_TAINT: bool = false;

/// The filter's reason for a taint (see [`REDACT_UNTOLERATED_TAINT`]).
pub fn untolerated_taint_reason(key: &str, value: &str, redact: bool) -> String {
    if redact {
        "node(s) had untolerated taint(s)".to_string()
    } else {
        format!("node(s) had untolerated taint {{{key}: {value}}}")
    }
}

/// The first NoSchedule/NoExecute taint (in node order) that no toleration tolerates rejects
/// the node.
pub fn filter(pod: &PodInfo, ni: &NodeInfo) -> Status {
    match find_untolerated_do_not_schedule_taint(&ni.taints, &pod.tolerations) {
        None => Status::success(),
        Some(t) => {
            let reason = untolerated_taint_reason(&t.key, &t.value, REDACT_UNTOLERATED_TAINT);
            Status { code: Code::UnschedulableAndUnresolvable, reasons: vec![reason], plugin: NAME }
        }
    }
}

/// The tolerations PreScore keeps: effect PreferNoSchedule or empty.
pub fn prefer_no_schedule_tolerations(pod: &PodInfo) -> Vec<Toleration> {
    pod.tolerations.iter().filter(|t| matches!(t.effect, Effect::Any | Effect::PreferNoSchedule)).cloned().collect()
}

/// Score: the number of PreferNoSchedule taints not tolerated.
pub fn score(tolerations: &[Toleration], ni: &NodeInfo) -> i64 {
    ni.taints.iter().filter(|t| t.effect == Effect::PreferNoSchedule && !tolerations_tolerate_taint(tolerations, t)).count() as i64
}

pub fn normalize_score(scores: &mut [i64]) {
    default_normalize_score(MAX_NODE_SCORE, true, scores)
}
