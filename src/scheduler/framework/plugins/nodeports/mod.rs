//! NodePorts: every wanted (hostIP, protocol, hostPort) must be free on the node.
//!
//! Real counterpart: `pkg/scheduler/framework/plugins/nodeports/node_ports.go` and
//! `framework/types.go` (`HostPortInfo.CheckConflict`): a 0.0.0.0 request conflicts with that
//! protocol/port on any IP; a specific IP conflicts with the same IP or 0.0.0.0.

use crate::scheduler::framework::interface::{Code, Status};
use crate::scheduler::framework::types::{NodeInfo, PodInfo};

pub const NAME: &str = "NodePorts";
pub const ERR_REASON: &str = "node(s) didn't have free ports for the requested pod ports";

pub fn filter(pod: &PodInfo, ni: &NodeInfo) -> Status {
    if pod.host_ports.is_empty() {
        return Status::success();
    }
    let conflict = pod.host_ports.iter().any(|want| {
        ni.used_ports.iter().any(|u| {
            u.protocol == want.protocol && u.port == want.port && (want.ip == "0.0.0.0" || u.ip == "0.0.0.0" || u.ip == want.ip)
        })
    });
    if conflict {
        return Status::new(Code::Unschedulable, NAME, &[ERR_REASON]);
    }
    Status::success()
}
