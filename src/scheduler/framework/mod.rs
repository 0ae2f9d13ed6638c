//! The scheduling framework: typed pod and node facts, the extension points' vocabulary, the
//! cycle state, the default profile's runtime, preemption, and one folder per plugin.
//!
//! Real counterpart: `pkg/scheduler/framework/` (`types.go`, `interface.go`, `cycle_state.go`,
//! `runtime/framework.go`, `preemption/`, `plugins/<name>/`).

pub mod cycle_state;
pub mod interface;
pub mod listers;
pub mod plugins;
pub mod preemption;
pub mod runtime;
pub mod types;

#[cfg(test)]
mod tests;
#[cfg(test)]
pub(crate) mod testing;
