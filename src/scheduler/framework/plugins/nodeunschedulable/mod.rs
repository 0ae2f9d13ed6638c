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
