//! NodeResourcesFit (filter: `fitsRequest`; score: the LeastAllocated strategy) and
//! NodeResourcesBalancedAllocation.
//!
//! Real counterpart: `pkg/scheduler/framework/plugins/noderesources/` — `fit.go`,
//! `least_allocated.go`, `balanced_allocation.go`, `resource_allocation.go`. What kubesim
//! simplifies: the scoring resources are cpu and memory with weight 1 (the default args).

pub mod balanced_allocation;
pub mod fit;
pub mod least_allocated;
