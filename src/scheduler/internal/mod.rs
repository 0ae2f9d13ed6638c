//! The scheduler's internal state: the cache of `NodeInfo`s and the snapshot each cycle reads.
//!
//! Real counterpart: `pkg/scheduler/backend/cache` (formerly `internal/cache`).

pub mod cache;
