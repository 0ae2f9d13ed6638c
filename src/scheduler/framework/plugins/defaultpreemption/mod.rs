//! DefaultPreemption: the PostFilter plugin that nominates a node and evicts victims when no
//! node fits.
//!
//! Real counterpart: `pkg/scheduler/framework/plugins/defaultpreemption/default_preemption.go`;
//! the evaluator it drives is [`crate::scheduler::framework::preemption`].

pub use crate::scheduler::framework::preemption::{default_preemption, post_filter_message, PreemptionCandidate, PreemptionOutcome, NAME};
