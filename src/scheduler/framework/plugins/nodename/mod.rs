//! NodeName: `spec.nodeName`, when set, must be this node.
//!
//! Real counterpart: `pkg/scheduler/framework/plugins/nodename/node_name.go`.

use crate::scheduler::framework::interface::{Code, Status};
use crate::scheduler::framework::types::{NodeInfo, PodInfo};

pub const NAME: &str = "NodeName";
pub const ERR_REASON: &str = "node(s) didn't match the requested node name";

pub fn filter(pod: &PodInfo, ni: &NodeInfo) -> Status {
    if pod.node_name.is_empty() || pod.node_name == ni.name() {
        return Status::success();
    }
    Status::new(Code::UnschedulableAndUnresolvable, NAME, &[ERR_REASON])
}
