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

/// Test tables (cases from upstream's tests and hand-checked examples), with the shared
/// fixtures of [`crate::scheduler::framework::testing`].
#[cfg(test)]
mod tests {
    use crate::scheduler::framework::testing::*;

    #[test]
    fn node_ports_table() {
        let port_pod = |name: &str, port: i64, proto: Option<&str>, ip: Option<&str>| {
            let mut p = json!({"containerPort": 80, "hostPort": port});
            if let Some(pr) = proto {
                p["protocol"] = json!(pr);
            }
            if let Some(i) = ip {
                p["hostIP"] = json!(i);
            }
            with(pod(name, None, None), "spec/containers/0/ports", json!([p]))
        };
        let conflict = || fail(U, "NodePorts", &["node(s) didn't have free ports for the requested pod ports"]);
        let n = |pods: Vec<Value>| ni(node("n1", "4", "8Gi", 110), pods);
        run_cases(vec![
            FilterCase {
                name: "free port",
                pod: port_pod("p", 8080, None, None),
                node: n(vec![port_pod("q", 9090, None, None)]),
                want: ok(),
            },
            FilterCase {
                name: "same port",
                pod: port_pod("p", 8080, None, None),
                node: n(vec![port_pod("q", 8080, Some("TCP"), None)]),
                want: conflict(),
            },
            FilterCase {
                name: "same port, other protocol",
                pod: port_pod("p", 8080, Some("UDP"), None),
                node: n(vec![port_pod("q", 8080, None, None)]),
                want: ok(),
            },
            FilterCase {
                name: "wildcard vs specific IP",
                pod: port_pod("p", 8080, None, None),
                node: n(vec![port_pod("q", 8080, None, Some("10.0.0.1"))]),
                want: conflict(),
            },
            FilterCase {
                name: "specific IP vs wildcard",
                pod: port_pod("p", 8080, None, Some("10.0.0.2")),
                node: n(vec![port_pod("q", 8080, None, None)]),
                want: conflict(),
            },
            FilterCase {
                name: "different specific IPs",
                pod: port_pod("p", 8080, None, Some("10.0.0.2")),
                node: n(vec![port_pod("q", 8080, None, Some("10.0.0.1"))]),
                want: ok(),
            },
            FilterCase {
                name: "containerPort only is not a host port",
                pod: pod("p", None, None),
                node: n(vec![port_pod("q", 8080, None, None)]),
                want: ok(),
            },
        ]);
    }
}
