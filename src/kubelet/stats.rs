//! The kubelet's resource metrics endpoint, `/metrics/resource` on port 10250, which
//! metrics-server scrapes.
//!
//! Real counterpart: `pkg/kubelet/metrics/collectors/resource_metrics.go` (the
//! `node_cpu_usage_seconds_total`, `node_memory_working_set_bytes`,
//! `container_cpu_usage_seconds_total`, `container_memory_working_set_bytes` and
//! `container_start_time_seconds` series, from the stats provider's CRI and cAdvisor stats).
//!
//! What kubesim simplifies: the samples travel typed (the Prometheus text is only drawn in the
//! trace: [`ResourceMetrics::exposition`]); the counters come from `runtime::usage` profiles; no
//! pod-level or swap series.

use crate::runtime::usage;

/// One container's samples.
#[derive(Clone, Debug, PartialEq)]
pub struct ContainerSample {
    pub name: String,
    /// `container_cpu_usage_seconds_total`, in nanoseconds
    pub cpu_ns: u64,
    /// `container_memory_working_set_bytes`
    pub memory_bytes: i64,
    /// `container_start_time_seconds`, as the virtual clock's milliseconds
    pub start_ms: i64,
}

#[derive(Clone, Debug, PartialEq)]
pub struct PodSample {
    pub namespace: String,
    pub name: String,
    pub containers: Vec<ContainerSample>,
}

/// One scrape of a node.
#[derive(Clone, Debug, PartialEq)]
pub struct ResourceMetrics {
    pub node: String,
    /// when the samples were taken
    pub at_ms: i64,
    /// `node_cpu_usage_seconds_total`, in nanoseconds
    pub node_cpu_ns: u64,
    /// `node_memory_working_set_bytes`
    pub node_memory_bytes: i64,
    pub pods: Vec<PodSample>,
}

impl ResourceMetrics {
    /// The node's counters: its Pods' plus what the node's own processes use since it booted
    /// (`boot_ms`).
    pub fn new(node: &str, at_ms: i64, boot_ms: i64, pods: Vec<PodSample>) -> ResourceMetrics {
        let pod_cpu: u64 = pods.iter().flat_map(|p| &p.containers).map(|c| c.cpu_ns).sum();
        let pod_mem: i64 = pods.iter().flat_map(|p| &p.containers).map(|c| c.memory_bytes).sum();
        let own = (usage::NODE_OVERHEAD_MILLI * 1000.0 * (at_ms - boot_ms).max(0) as f64) as u64;
        ResourceMetrics { node: node.to_string(), at_ms, node_cpu_ns: own + pod_cpu, node_memory_bytes: usage::NODE_OVERHEAD_BYTES + pod_mem, pods }
    }

    /// A short Prometheus-style summary for the trace (series counts and the node's values).
    pub fn exposition(&self) -> String {
        let n: usize = self.pods.iter().map(|p| p.containers.len()).sum();
        format!(
            "node_cpu_usage_seconds_total {:.3} node_memory_working_set_bytes {} ({} containers in {} pods)",
            self.node_cpu_ns as f64 / 1e9,
            self.node_memory_bytes,
            n,
            self.pods.len()
        )
    }
}
