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

/// Test tables (cases from upstream's tests and hand-checked examples), with the shared
/// fixtures of [`crate::scheduler::framework::testing`].
#[cfg(test)]
mod tests {
    use crate::scheduler::framework::testing::*;

    #[test]
    fn node_name_table() {
        run_cases(vec![
            FilterCase {
                name: "no nodeName",
                pod: pod("p", None, None),
                node: ni(node("n1", "4", "8Gi", 110), vec![]),
                want: ok(),
            },
            FilterCase {
                name: "matching nodeName",
                pod: with(pod("p", None, None), "spec/nodeName", json!("n1")),
                node: ni(node("n1", "4", "8Gi", 110), vec![]),
                want: ok(),
            },
            FilterCase {
                name: "other nodeName",
                pod: with(pod("p", None, None), "spec/nodeName", json!("n2")),
                node: ni(node("n1", "4", "8Gi", 110), vec![]),
                want: fail(UU, "NodeName", &["node(s) didn't match the requested node name"]),
            },
        ]);
    }
}
