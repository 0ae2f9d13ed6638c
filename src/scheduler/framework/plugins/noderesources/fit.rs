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

/// Test tables (cases from upstream's tests and hand-checked examples), with the shared
/// fixtures of [`crate::scheduler::framework::testing`].
#[cfg(test)]
mod tests {
    use crate::scheduler::framework::testing::*;

    #[test]
    fn node_resources_fit_table() {
        let full = |cpu: &str, mem: &str| ni(node("n1", "2", "4Gi", 110), vec![pod("q", Some(cpu), Some(mem))]);
        let init_pod = json!({
            "metadata": {"name": "p", "namespace": "default"},
            "spec": {
                "initContainers": [{"name": "i", "image": "busybox", "resources": {"requests": {"cpu": "1500m"}}}],
                "containers": [{"name": "c", "image": "nginx", "resources": {"requests": {"cpu": "500m"}}}]
            }
        });
        let sidecar_pod = json!({
            "metadata": {"name": "p", "namespace": "default"},
            "spec": {
                "initContainers": [
                    {"name": "s", "image": "envoy", "restartPolicy": "Always", "resources": {"requests": {"cpu": "600m"}}},
                    {"name": "i", "image": "busybox", "resources": {"requests": {"cpu": "1"}}}
                ],
                "containers": [{"name": "c", "image": "nginx", "resources": {"requests": {"cpu": "500m"}}}]
            }
        });
        let gpu_pod =
            with(pod("p", None, None), "spec/containers/0/resources/requests", json!({"nvidia.com/gpu": "1"}));
        run_cases(vec![
            FilterCase { name: "fits", pod: pod("p", Some("500m"), Some("1Gi")), node: full("1", "1Gi"), want: ok() },
            FilterCase {
                name: "exactly fits",
                pod: pod("p", Some("1"), Some("3Gi")),
                node: full("1", "1Gi"),
                want: ok(),
            },
            FilterCase {
                name: "insufficient cpu",
                pod: pod("p", Some("1500m"), None),
                node: full("1", "1Gi"),
                want: fail(U, "NodeResourcesFit", &["Insufficient cpu"]),
            },
            FilterCase {
                name: "insufficient memory",
                pod: pod("p", None, Some("4Gi")),
                node: full("1", "1Gi"),
                want: fail(U, "NodeResourcesFit", &["Insufficient memory"]),
            },
            FilterCase {
                name: "both insufficient",
                pod: pod("p", Some("1500m"), Some("3500Mi")),
                node: full("1", "1Gi"),
                want: fail(U, "NodeResourcesFit", &["Insufficient cpu", "Insufficient memory"]),
            },
            FilterCase {
                name: "larger than the node is unresolvable",
                pod: pod("p", Some("3"), None),
                node: full("1", "1Gi"),
                want: fail(UU, "NodeResourcesFit", &["Insufficient cpu"]),
            },
            FilterCase {
                name: "no requests fits a full node",
                pod: pod("p", None, None),
                node: full("2", "4Gi"),
                want: ok(),
            },
            FilterCase {
                name: "too many pods",
                pod: pod("p", None, None),
                node: ni(node("n1", "2", "4Gi", 1), vec![pod("q", None, None)]),
                want: fail(U, "NodeResourcesFit", &["Too many pods"]),
            },
            FilterCase {
                name: "too many pods and insufficient cpu",
                pod: pod("p", Some("1500m"), None),
                node: ni(node("n1", "2", "4Gi", 1), vec![pod("q", Some("1"), None)]),
                want: fail(U, "NodeResourcesFit", &["Too many pods", "Insufficient cpu"]),
            },
            FilterCase {
                name: "init container max: 1500m fits 2 cores minus 500m",
                pod: init_pod.clone(),
                node: full("500m", "0"),
                want: ok(),
            },
            FilterCase {
                name: "init container max: 1500m does not fit 1 free core",
                pod: init_pod,
                node: full("1", "0"),
                want: fail(U, "NodeResourcesFit", &["Insufficient cpu"]),
            },
            FilterCase {
                name: "sidecar adds to the total: 1.6 cores needed",
                pod: sidecar_pod.clone(),
                node: full("400m", "0"),
                want: ok(),
            },
            FilterCase {
                name: "sidecar adds to the total: 1.6 > 1.5 free",
                pod: sidecar_pod,
                node: full("500m", "0"),
                want: fail(U, "NodeResourcesFit", &["Insufficient cpu"]),
            },
            FilterCase {
                name: "extended resource absent",
                pod: gpu_pod.clone(),
                node: full("0", "0"),
                want: fail(UU, "NodeResourcesFit", &["Insufficient nvidia.com/gpu"]),
            },
            FilterCase {
                name: "ephemeral storage",
                pod: with(
                    pod("p", None, None),
                    "spec/containers/0/resources/requests",
                    json!({"ephemeral-storage": "200Gi"}),
                ),
                node: full("0", "0"),
                want: fail(UU, "NodeResourcesFit", &["Insufficient ephemeral-storage"]),
            },
        ]);
        // A GPU node, via a properly built allocatable map.
        let mut gpu_node = node("g", "2", "4Gi", 110);
        gpu_node["status"]["allocatable"]["nvidia.com/gpu"] = json!("2");
        let gpu = with(pod("p", None, None), "spec/containers/0/resources/requests", json!({"nvidia.com/gpu": "1"}));
        assert_eq!(filter(&gpu, &ni(gpu_node.clone(), vec![])), ok(), "gpu fits");
        assert_eq!(
            filter(&gpu, &ni(gpu_node, vec![gpu.clone(), gpu.clone()])),
            fail(U, "NodeResourcesFit", &["Insufficient nvidia.com/gpu"]),
            "gpus used up"
        );
    }
}
