//! PrioritySort: the active queue pops the highest `spec.priority` first, then the pod that
//! entered the queue first.
//!
//! Real counterpart: `pkg/scheduler/framework/plugins/queuesort/priority_sort.go` (`Less`).

pub const NAME: &str = "PrioritySort";

/// The active queue's ordering key: (−priority, enqueue time, key), smallest first.
pub fn key(priority: i64, enqueued_ms: i64, pod_key: &str) -> (i64, i64, String) {
    (-priority, enqueued_ms, pod_key.to_string())
}
