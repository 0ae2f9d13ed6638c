//! NodeResourcesFit's score with the LeastAllocated strategy (`least_allocated.go`).

use crate::scheduler::framework::interface::MAX_NODE_SCORE;
use crate::scheduler::framework::types::{NodeInfo, PodInfo};

/// `leastRequestedScore`: free fraction of capacity ×100, integer division; 0 when overcommitted.
pub fn least_requested_score(requested: i64, capacity: i64) -> i64 {
    if capacity == 0 || requested > capacity {
        return 0;
    }
    if (0..i64::MAX / MAX_NODE_SCORE).contains(&capacity) && requested >= 0 {
        return (capacity - requested) * MAX_NODE_SCORE / capacity;
    }
    ((capacity as i128 - requested as i128) * MAX_NODE_SCORE as i128 / capacity as i128) as i64
}

/// cpu and memory weight 1: node NonZeroRequested plus the pod's request (missing requests count
/// as 100m / 200Mi); resources with zero allocatable are skipped; integer weighted mean.
pub fn score(pod: &PodInfo, ni: &NodeInfo) -> i64 {
    let (pod_cpu, pod_mem) = pod.score_request;
    let (nz_cpu, nz_mem) = ni.non_zero_requested;
    let mut score = 0;
    let mut weight_sum = 0;
    for (req, cap) in [(nz_cpu.saturating_add(pod_cpu), ni.allocatable.milli_cpu), (nz_mem.saturating_add(pod_mem), ni.allocatable.memory)] {
        if cap == 0 {
            continue;
        }
        score += least_requested_score(req, cap);
        weight_sum += 1;
    }
    if weight_sum == 0 {
        0
    } else {
        score / weight_sum
    }
}
