//! The StatefulSet controller (`statefulset-controller` in kube-controller-manager, running as
//! the `statefulset-controller` service account).
//!
//! Real counterpart: `pkg/controller/statefulset/stateful_set.go` (the informers, `sync`,
//! `syncStatefulSet`), `stateful_set_control.go` (here [`control`]: `UpdateStatefulSet`,
//! `getStatefulSetRevisions`, `updateStatefulSet`, `processReplica`, `processCondemned`,
//! `truncateHistory`, status), `stateful_pod_control.go` (here [`pod_control`]: creating claims
//! and Pods, deleting Pods, the events, the claims' owner references) and
//! `stateful_set_utils.go` (here [`utils`]).
//!
//! A StatefulSet gives each Pod an identity: `web-0`, `web-1`, … each with its own claims
//! (`data-web-0`) made from `volumeClaimTemplates` before the Pod, a `hostname` and the
//! `subdomain` of its headless Service. With `OrderedReady` (the default) one thing happens per
//! sync: the lowest missing Pod is created and the next waits until it is Running and Ready;
//! scaling down deletes the highest ordinal first, one at a time. `Parallel` creates and deletes
//! them all at once. A RollingUpdate replaces Pods from the highest ordinal down to `partition`,
//! one at a time, each waiting for the one before to be healthy again; OnDelete waits for you.
//! The template is recorded as ControllerRevisions (`<set>-<hash>`), and the Pods carry their
//! revision's name in `controller-revision-hash`.
//!
//! What kubesim simplifies: orphaned Pods and revisions are not adopted (only those the set
//! controls are seen); a Pod whose identity or storage no longer matches is not patched
//! (`UpdateStatefulSetPod`); `MaxUnavailableStatefulSet` (alpha in v1.34) is not modelled;
//! the work queue's rate-limited retries are a fixed 1 s.

pub mod control;
pub mod pod_control;
pub mod utils;

use crate::api::meta;
use crate::api::meta::Resource;
use crate::api::request::{EventType, Identity};
use crate::client::{Recorder, Store, WorkQueue};
use crate::cluster::{self, Component};
use crate::controllers::deployment::controller_identity;
use crate::controllers::expectations::{OwnerIndex, SyncTimer};
use crate::trace::Actor;
use serde_json::Value;

/// The StatefulSet controller's timers.
pub type Timer = SyncTimer;

type Ctx<'a> = cluster::Ctx<'a, Timer>;
type Input = cluster::Input<Timer>;

pub struct StatefulSetController {
    sets: Store,
    pods: Store,
    claims: Store,
    revisions: Store,
    queue: WorkQueue,
    recorder: Recorder,
    by_owner: OwnerIndex,
}

impl Default for StatefulSetController {
    fn default() -> Self {
        StatefulSetController {
            sets: Store::default(),
            pods: Store::default(),
            claims: Store::default(),
            revisions: Store::default(),
            queue: WorkQueue::default(),
            recorder: Recorder::new("statefulset-controller", ""),
            by_owner: OwnerIndex::default(),
        }
    }
}

fn owner_set_key(obj: &Value) -> Option<String> {
    let r = meta::controller_of(obj)?;
    if meta::get_str(r, &["kind"]) != "StatefulSet" {
        return None;
    }
    Some(format!("{}/{}", meta::namespace(obj), meta::get_str(r, &["name"])))
}

impl StatefulSetController {
    /// `getPodsForStatefulSet`: the Pods this set controls that match its selector and are
    /// named as its members.
    fn pods_for(&self, set: &Value) -> Vec<Value> {
        let sel = meta::get(set, &["spec", "selector"]);
        self.by_owner
            .keys(meta::uid(set))
            .filter_map(|k| self.pods.get(k))
            .filter(|p| meta::selector_matches(sel, &meta::labels(p)) && utils::is_member_of(set, p))
            .cloned()
            .collect()
    }

    /// `sync`: the set from the informer, its Pods, then `UpdateStatefulSet`; with
    /// minReadySeconds, look again once the Pods may have become available (`enqueueSSAfter`).
    fn sync(&mut self, ctx: &mut Ctx, key: &str) {
        let Some(set) = self.sets.get(key).cloned() else {
            return;
        };
        let pods = self.pods_for(&set);
        match self.update_stateful_set(ctx, &set, &pods) {
            Ok(status) => {
                // upstream requeues while any replica is not available, for as long as that
                // lasts: foreground only while a Ready Pod waits out minReadySeconds (time alone
                // makes it available); a Pod that is not Ready (Pending, crash-looping) leaves
                // a periodic check, background work that does not keep `settle` running
                let min_ready = meta::get_i64(&set, &["spec", "minReadySeconds"]).unwrap_or(0);
                let available = meta::get_i64(&status, &["availableReplicas"]).unwrap_or(0);
                let ready = meta::get_i64(&status, &["readyReplicas"]).unwrap_or(0);
                if min_ready > 0 && available != utils::replicas(&set) {
                    let timer = Timer::Requeue(key.to_string());
                    if ready > available {
                        ctx.after(min_ready * 1000, timer, false);
                    } else {
                        ctx.after_background(min_ready * 1000, timer);
                    }
                }
            }
            Err(_) => ctx.after_background(1000, Timer::Requeue(key.to_string())),
        }
    }
}

impl Component for StatefulSetController {
    type Timer = Timer;

    fn restarted(&self) -> Option<Self> {
        Some(Self::default())
    }

    fn actor(&self) -> Actor {
        Actor::StatefulSetController
    }

    fn identity(&self) -> Identity {
        controller_identity("statefulset-controller", "statefulset-controller")
    }

    fn start(&mut self, ctx: &mut Ctx) {
        let sets = ctx.list_and_watch(meta::lookup("statefulsets").expect("sts"), "", "", "");
        self.sets.replace(sets);
        let pods = ctx.list_and_watch(meta::lookup("pods").expect("pods"), "", "", "");
        for p in &pods {
            self.by_owner.index(EventType::Added, p, None);
        }
        self.pods.replace(pods);
        let claims = ctx.list_and_watch(meta::lookup("persistentvolumeclaims").expect("pvc"), "", "", "");
        self.claims.replace(claims);
        let revs = ctx.list_and_watch(meta::lookup("controllerrevisions").expect("cr"), "", "", "");
        self.revisions.replace(revs);
        let keys: Vec<String> = self.sets.items.keys().cloned().collect();
        for k in keys {
            self.queue.enqueue(ctx, &k, Timer::Worker);
        }
    }

    fn handle(&mut self, ctx: &mut Ctx, input: Input) {
        match input {
            Input::Watch { resource: Resource::StatefulSets, event_type, object } => {
                self.sets.apply_shared(event_type, object.clone());
                self.queue.enqueue(ctx, &meta::key(&object), Timer::Worker);
            }
            Input::Watch { resource: Resource::Pods, event_type, object } => {
                let old = self.pods.apply_shared(event_type, object.clone());
                self.by_owner.index(event_type, &object, old.as_deref());
                if let Some(k) = owner_set_key(&object) {
                    if self.sets.get(&k).is_some() {
                        self.queue.enqueue(ctx, &k, Timer::Worker);
                    }
                }
            }
            // the claim and revision informers only feed listers, as upstream
            Input::Watch { resource: Resource::PersistentVolumeClaims, event_type, object } => {
                self.claims.apply_shared(event_type, object);
            }
            Input::Watch { resource: Resource::ControllerRevisions, event_type, object } => {
                self.revisions.apply_shared(event_type, object);
            }
            Input::Watch { .. } => {}
            Input::Timer(Timer::Worker) => {
                if let Some(k) = self.queue.start_work() {
                    self.sync(ctx, &k);
                }
                self.queue.done(ctx, Timer::Worker);
            }
            Input::Timer(Timer::Requeue(k)) => {
                if self.sets.get(&k).is_some() {
                    self.queue.enqueue(ctx, &k, Timer::Worker);
                }
            }
        }
    }
}
