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

/// Test tables (cases from upstream's tests and hand-checked examples), with the shared
/// fixtures of [`crate::scheduler::framework::testing`].
#[cfg(test)]
mod tests {
    use crate::scheduler::framework::testing::*;

    #[test]
    fn taint_toleration_table() {
        let cp = with(
            node("cp", "4", "8Gi", 110),
            "spec/taints",
            json!([{"key": "node-role.kubernetes.io/control-plane", "effect": "NoSchedule"}]),
        );
        let kv = with(
            node("n", "4", "8Gi", 110),
            "spec/taints",
            json!([{"key": "dedicated", "value": "gpu", "effect": "NoSchedule"}]),
        );
        let exec = with(
            node("n", "4", "8Gi", 110),
            "spec/taints",
            json!([{"key": "node.kubernetes.io/unreachable", "effect": "NoExecute"}]),
        );
        let soft = with(
            node("n", "4", "8Gi", 110),
            "spec/taints",
            json!([{"key": "a", "value": "b", "effect": "PreferNoSchedule"}]),
        );
        let two = with(
            node("n", "4", "8Gi", 110),
            "spec/taints",
            json!([
                {"key": "first", "value": "1", "effect": "NoSchedule"},
                {"key": "second", "value": "2", "effect": "NoSchedule"}
            ]),
        );
        let tol = |t: Value| with(pod("p", None, None), "spec/tolerations", t);
        run_cases(vec![
            FilterCase {
                name: "control-plane taint, empty value",
                pod: pod("p", None, None),
                node: ni(cp.clone(), vec![]),
                want: fail(
                    UU,
                    "TaintToleration",
                    &["node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }"],
                ),
            },
            FilterCase {
                name: "key/value taint",
                pod: pod("p", None, None),
                node: ni(kv.clone(), vec![]),
                want: fail(UU, "TaintToleration", &["node(s) had untolerated taint {dedicated: gpu}"]),
            },
            FilterCase {
                name: "Equal toleration",
                pod: tol(json!([{"key": "dedicated", "operator": "Equal", "value": "gpu", "effect": "NoSchedule"}])),
                node: ni(kv.clone(), vec![]),
                want: ok(),
            },
            FilterCase {
                name: "empty operator means Equal",
                pod: tol(json!([{"key": "dedicated", "value": "gpu"}])),
                node: ni(kv.clone(), vec![]),
                want: ok(),
            },
            FilterCase {
                name: "Equal with other value",
                pod: tol(json!([{"key": "dedicated", "operator": "Equal", "value": "cpu", "effect": "NoSchedule"}])),
                node: ni(kv.clone(), vec![]),
                want: fail(UU, "TaintToleration", &["node(s) had untolerated taint {dedicated: gpu}"]),
            },
            FilterCase {
                name: "Exists on key, empty effect",
                pod: tol(json!([{"key": "dedicated", "operator": "Exists"}])),
                node: ni(kv.clone(), vec![]),
                want: ok(),
            },
            FilterCase {
                name: "effect mismatch",
                pod: tol(json!([{"key": "dedicated", "operator": "Exists", "effect": "NoExecute"}])),
                node: ni(kv.clone(), vec![]),
                want: fail(UU, "TaintToleration", &["node(s) had untolerated taint {dedicated: gpu}"]),
            },
            FilterCase {
                name: "empty key Exists tolerates all",
                pod: tol(json!([{"operator": "Exists"}])),
                node: ni(kv.clone(), vec![]),
                want: ok(),
            },
            FilterCase {
                name: "unknown operator tolerates nothing",
                pod: tol(json!([{"key": "dedicated", "operator": "Gt", "value": "1"}])),
                node: ni(kv, vec![]),
                want: fail(UU, "TaintToleration", &["node(s) had untolerated taint {dedicated: gpu}"]),
            },
            FilterCase {
                name: "NoExecute taint rejects",
                pod: pod("p", None, None),
                node: ni(exec.clone(), vec![]),
                want: fail(
                    UU,
                    "TaintToleration",
                    &["node(s) had untolerated taint {node.kubernetes.io/unreachable: }"],
                ),
            },
            FilterCase {
                name: "default unreachable toleration",
                pod: tol(
                    json!([{"key": "node.kubernetes.io/unreachable", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 300}]),
                ),
                node: ni(exec, vec![]),
                want: ok(),
            },
            FilterCase {
                name: "PreferNoSchedule does not filter",
                pod: pod("p", None, None),
                node: ni(soft, vec![]),
                want: ok(),
            },
            FilterCase {
                name: "first untolerated taint is reported",
                pod: tol(json!([{"key": "second", "operator": "Exists"}])),
                node: ni(two.clone(), vec![]),
                want: fail(UU, "TaintToleration", &["node(s) had untolerated taint {first: 1}"]),
            },
            FilterCase {
                name: "second taint when the first is tolerated",
                pod: tol(json!([{"key": "first", "operator": "Exists"}])),
                node: ni(two, vec![]),
                want: fail(UU, "TaintToleration", &["node(s) had untolerated taint {second: 2}"]),
            },
        ]);
        assert_eq!(
            untolerated_taint_reason("k", "v", true),
            "node(s) had untolerated taint(s)",
            "redacted reason (1.34.2+)"
        );
    }
}
