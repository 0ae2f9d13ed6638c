//! NodeResourcesFit's filter (`fit.go`: `fitsRequest`).

use crate::scheduler::framework::interface::{Code, Status};
use crate::scheduler::framework::types::{NodeInfo, PodInfo};

pub const NAME: &str = "NodeResourcesFit";

/// One entry of `fitsRequest`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InsufficientResource {
    pub resource_name: String,
    pub reason: String,
    pub requested: i64,
    pub used: i64,
    pub capacity: i64,
    /// The pod asks for more than the node's whole allocatable: preemption cannot help (PR #131345).
    pub unresolvable: bool,
}

/// `fitsRequest`: pod count, then cpu, memory, ephemeral-storage, then scalar resources (sorted
/// by name; Go iterates a map). A pod requesting nothing only checks the pod count.
pub fn fits_request(pod: &PodInfo, ni: &NodeInfo) -> Vec<InsufficientResource> {
    let mut out = Vec::new();
    let alloc = &ni.allocatable;
    let used = &ni.requested;
    let n_pods = ni.pods.len() as i64;
    if n_pods + 1 > alloc.allowed_pod_number {
        out.push(InsufficientResource {
            resource_name: "pods".into(),
            reason: "Too many pods".into(),
            requested: 1,
            used: n_pods,
            capacity: alloc.allowed_pod_number,
            unresolvable: false,
        });
    }
    let req = &pod.fit_request;
    if req.is_zero_request() {
        return out;
    }
    let mut check = |name: &str, want: i64, used: i64, cap: i64| {
        if want > 0 && want > cap.saturating_sub(used) {
            out.push(InsufficientResource {
                resource_name: name.into(),
                reason: format!("Insufficient {name}"),
                requested: want,
                used,
                capacity: cap,
                unresolvable: want > cap,
            });
        }
    };
    check("cpu", req.milli_cpu, used.milli_cpu, alloc.milli_cpu);
    check("memory", req.memory, used.memory, alloc.memory);
    check("ephemeral-storage", req.ephemeral_storage, used.ephemeral_storage, alloc.ephemeral_storage);
    for (name, want) in &req.scalar {
        let cap = alloc.scalar.get(name).copied().unwrap_or(0);
        let u = used.scalar.get(name).copied().unwrap_or(0);
        check(name, *want, u, cap);
    }
    out
}

/// All insufficient resources are reported (several reasons per node); UnschedulableAndUnresolvable
/// if any request exceeds the node's total allocatable.
pub fn filter(pod: &PodInfo, ni: &NodeInfo) -> Status {
    let insufficient = fits_request(pod, ni);
    if insufficient.is_empty() {
        return Status::success();
    }
    let code = if insufficient.iter().any(|r| r.unresolvable) { Code::UnschedulableAndUnresolvable } else { Code::Unschedulable };
    Status { code, reasons: insufficient.into_iter().map(|r| r.reason).collect(), plugin: NAME }
}
