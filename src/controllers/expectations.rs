//! What the workload controllers share: expectations, the owner index of their Pods, and the
//! work-queue timers.
//!
//! Real counterpart: `pkg/controller/controller_utils.go` (`ControllerExpectations`:
//! `SetExpectations`, `CreationObserved`, `DeletionObserved`, `SatisfiedExpectations` with
//! `ExpectationsTimeout`). A controller that has sent creates or deletes does not act on the same
//! object again until its informer has seen them come back, or five minutes have passed.
//!
//! kubesim's owner index stands in for the label-selector list upstream's `claimPods` does: the
//! Pods a controller owns, by the owner's uid (orphans are not adopted).

use crate::api::meta;
use crate::api::request::EventType;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

/// Upstream `ExpectationsTimeout`: expectations older than this are considered satisfied.
pub const EXPECTATIONS_TIMEOUT_MS: i64 = 5 * 60 * 1000;

#[derive(Clone, Debug, Default)]
struct Expectation {
    adds: i64,
    dels: i64,
    set_at: i64,
}

/// `ControllerExpectations`, keyed by the controller object's `namespace/name`.
#[derive(Clone, Debug, Default)]
pub struct Expectations {
    map: BTreeMap<String, Expectation>,
}

impl Expectations {
    /// `SatisfiedExpectations`: nothing pending, or set too long ago.
    pub fn satisfied(&self, key: &str, now: i64) -> bool {
        match self.map.get(key) {
            None => true,
            Some(e) => (e.adds <= 0 && e.dels <= 0) || now - e.set_at > EXPECTATIONS_TIMEOUT_MS,
        }
    }

    /// `SetExpectations`.
    pub fn set(&mut self, key: &str, adds: i64, dels: i64, now: i64) {
        self.map.insert(key.to_string(), Expectation { adds, dels, set_at: now });
    }

    /// `LowerExpectations`: creates or deletes that will not happen (failed, skipped).
    pub fn lower(&mut self, key: &str, adds: i64, dels: i64) {
        if let Some(e) = self.map.get_mut(key) {
            e.adds -= adds;
            e.dels -= dels;
        }
    }

    /// `DeleteExpectations`.
    pub fn delete(&mut self, key: &str) {
        self.map.remove(key);
    }

    /// What a Pod watch event observes for its owner `key`: ADDED a creation, DELETED a deletion,
    /// and a Pod that starts graceful deletion counts as deleted too.
    pub fn observe_pod(&mut self, key: &str, event_type: EventType, pod: &Value, old: Option<&Value>) {
        let Some(e) = self.map.get_mut(key) else { return };
        match event_type {
            EventType::Added => e.adds -= 1,
            EventType::Deleted => e.dels -= 1,
            _ => {
                if meta::is_deleting(pod) && !old.map(meta::is_deleting).unwrap_or(false) {
                    e.dels -= 1;
                }
            }
        }
    }
}

/// The uid of the object's controller (its ownerReference with `controller: true`).
pub fn controller_uid(obj: &Value) -> Option<String> {
    meta::controller_of(obj).map(|r| meta::get_str(r, &["uid"]).to_string())
}

/// The Pods each owner controls: owner uid -> Pod keys.
#[derive(Clone, Debug, Default)]
pub struct OwnerIndex {
    by_owner: BTreeMap<String, BTreeSet<String>>,
}

impl OwnerIndex {
    /// Moves the Pod between owners as a watch event says.
    pub fn index(&mut self, event_type: EventType, pod: &Value, old: Option<&Value>) {
        let key = meta::key(pod);
        if let Some(o) = old.and_then(controller_uid) {
            if let Some(set) = self.by_owner.get_mut(&o) {
                set.remove(&key);
                if set.is_empty() {
                    self.by_owner.remove(&o);
                }
            }
        }
        if event_type != EventType::Deleted {
            if let Some(o) = controller_uid(pod) {
                self.by_owner.entry(o).or_default().insert(key);
            }
        }
    }

    /// The keys of the Pods `owner_uid` controls.
    pub fn keys(&self, owner_uid: &str) -> impl Iterator<Item = &String> {
        self.by_owner.get(owner_uid).into_iter().flatten()
    }
}

/// The timers of a controller with a work queue.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SyncTimer {
    /// A work-queue worker wakes up.
    Worker,
    /// Sync an object again later (a delay passed, or after an error).
    Requeue(String),
}

impl std::fmt::Display for SyncTimer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SyncTimer::Worker => f.write_str("workqueue"),
            SyncTimer::Requeue(key) => write!(f, "requeue:{}", key),
        }
    }
}
