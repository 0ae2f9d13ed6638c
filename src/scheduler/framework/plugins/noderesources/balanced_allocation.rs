//! NodeResourcesBalancedAllocation (`balanced_allocation.go`): fractions capped at 1; with two
//! resources `std = |f_cpu - f_mem| / 2`; score `int64((1 - std) * 100)`. Uses real requests (no
//! defaults); PreScore skips a pod requesting no cpu and no memory (PR #130260, v1.33).

use crate::scheduler::framework::interface::MAX_NODE_SCORE;
use crate::scheduler::framework::types::{NodeInfo, PodInfo};

pub const NAME: &str = "NodeResourcesBalancedAllocation";

pub fn pre_score(pod: &PodInfo) -> bool {
    pod.balanced_request != (0, 0)
}

pub fn score(pod: &PodInfo, ni: &NodeInfo) -> i64 {
    let (pod_cpu, pod_mem) = pod.balanced_request;
    let alloc = &ni.allocatable;
    let used = &ni.requested;
    let mut fractions = [0f64; 2];
    let mut n = 0;
    for (req, cap) in [(used.milli_cpu.saturating_add(pod_cpu), alloc.milli_cpu), (used.memory.saturating_add(pod_mem), alloc.memory)] {
        if cap == 0 {
            continue;
        }
        fractions[n] = (req as f64 / cap as f64).min(1.0);
        n += 1;
    }
    let std = if n == 2 { ((fractions[0] - fractions[1]) / 2.0).abs() } else { 0.0 };
    ((1.0 - std) * MAX_NODE_SCORE as f64) as i64
}
