//! NodeUnschedulable: a cordoned node (`spec.unschedulable`) only accepts pods tolerating
//! `node.kubernetes.io/unschedulable:NoSchedule`.
//!
//! Real counterpart: `pkg/scheduler/framework/plugins/nodeunschedulable/node_unschedulable.go`.

use crate::scheduler::framework::interface::{Code, Status};
use crate::scheduler::framework::types::{tolerations_tolerate_taint, Effect, NodeInfo, PodInfo, Taint};

pub const NAME: &str = "NodeUnschedulable";
pub const ERR_REASON_UNSCHEDULABLE: &str = "node(s) were unschedulable";

pub fn filter(pod: &PodInfo, ni: &NodeInfo) -> Status {
    if !ni.unschedulable {
        return Status::success();
    }
    let taint = Taint { key: "node.kubernetes.io/unschedulable".into(), value: String::new(), effect: Effect::NoSchedule };
    if tolerations_tolerate_taint(&pod.tolerations, &taint) {
        return Status::success();
    }
    Status::new(Code::UnschedulableAndUnresolvable, NAME, &[ERR_REASON_UNSCHEDULABLE])
}

/// Test tables (cases from upstream's tests and hand-checked examples), with the shared
/// fixtures of [`crate::scheduler::framework::testing`].
#[cfg(test)]
mod tests {
    use crate::scheduler::framework::testing::*;

    #[test]
    fn node_unschedulable_table() {
        let cordoned = with(node("n1", "4", "8Gi", 110), "spec/unschedulable", json!(true));
        run_cases(vec![
            FilterCase {
                name: "schedulable node",
                pod: pod("p", None, None),
                node: ni(node("n1", "4", "8Gi", 110), vec![]),
                want: ok(),
            },
            FilterCase {
                name: "cordoned node rejects",
                pod: pod("p", None, None),
                node: ni(cordoned.clone(), vec![]),
                want: fail(UU, "NodeUnschedulable", &["node(s) were unschedulable"]),
            },
            FilterCase {
                name: "toleration of the unschedulable taint",
                pod: with(
                    pod("p", None, None),
                    "spec/tolerations",
                    json!([{"key": "node.kubernetes.io/unschedulable", "operator": "Exists", "effect": "NoSchedule"}]),
                ),
                node: ni(cordoned.clone(), vec![]),
                want: ok(),
            },
            FilterCase {
                name: "tolerate-everything toleration",
                pod: with(pod("p", None, None), "spec/tolerations", json!([{"operator": "Exists"}])),
                node: ni(cordoned, vec![]),
                want: ok(),
            },
        ]);
    }
}
