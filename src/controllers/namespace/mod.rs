//! The namespace controller (`namespace-controller` in kube-controller-manager, running as the
//! `namespace-controller` service account).
//!
//! Real counterpart: `pkg/controller/namespace/namespace_controller.go` (the queue, `syncNamespaceFromKey`,
//! the requeue after `estimate/2 + 1` seconds) and `pkg/controller/namespace/deletion/`
//! (here [`deletion`]: `namespacedResourcesDeleter.Delete`, `deleteAllContent`,
//! `deleteAllContentForGroupVersionResource`, `estimateGracefulTermination`, `finalizeNamespace`,
//! and `status_condition_utils.go`'s five conditions).
//!
//! `kubectl delete namespace` only marks a namespace `Terminating` (the API server's namespace
//! registry). This controller then empties it through the API like any client: the Pods first
//! (`OrderedNamespaceDeletion`), waiting for their grace periods, then every other kind with one
//! DELETE of the collection each, listing again to see what is left; it writes the namespace's
//! conditions, and once nothing is left removes the `kubernetes` finalizer with
//! `PUT …/finalize`, which removes the namespace.
//!
//! What kubesim simplifies: discovery is kubesim's own resource table (kinds kubesim does not
//! serve cannot be left behind); failures are retried after 1 s rather than rate-limited.

pub mod deletion;

use crate::api::meta;
use crate::api::meta::Resource;
use crate::api::request::{EventType, Identity};
use crate::client::{Store, WorkQueue};
use crate::cluster::{self, Component};
use crate::controllers::deployment::controller_identity;
use crate::controllers::expectations::SyncTimer;
use crate::trace::Actor;

/// The namespace controller's timers.
pub type Timer = SyncTimer;

type Ctx<'a> = cluster::Ctx<'a, Timer>;
type Input = cluster::Input<Timer>;

#[derive(Default)]
pub struct NamespaceController {
    namespaces: Store,
    queue: WorkQueue,
}

impl NamespaceController {
    /// `syncNamespaceFromKey`: delete the namespace's content; requeue while some remains.
    fn sync(&mut self, ctx: &mut Ctx, name: &str) {
        let Some(ns) = self.namespaces.get(name).cloned() else { return };
        match deletion::delete(ctx, &ns) {
            Ok(()) => {}
            Err(deletion::DeleteError::Remaining(estimate_s)) => {
                ctx.after(((estimate_s / 2) + 1) * 1000, Timer::Requeue(name.to_string()), true);
            }
            Err(deletion::DeleteError::Failed(_)) => ctx.after_background(1000, Timer::Requeue(name.to_string())),
        }
    }
}

impl Component for NamespaceController {
    type Timer = Timer;

    fn restarted(&self) -> Option<Self> {
        Some(Self::default())
    }

    fn actor(&self) -> Actor {
        Actor::NamespaceController
    }

    fn identity(&self) -> Identity {
        controller_identity("namespace-controller", "namespace-controller")
    }

    fn start(&mut self, ctx: &mut Ctx) {
        let nss = ctx.list_and_watch(meta::lookup("namespaces").expect("ns"), "", "", "");
        self.namespaces.replace(nss);
        let keys: Vec<String> = self.namespaces.values().filter(|n| meta::is_deleting(n)).map(|n| meta::name(n).to_string()).collect();
        for k in keys {
            self.queue.enqueue(ctx, &k, Timer::Worker);
        }
    }

    fn handle(&mut self, ctx: &mut Ctx, input: Input) {
        match input {
            Input::Watch { resource: Resource::Namespaces, event_type, object } => {
                self.namespaces.apply_shared(event_type, object.clone());
                // only namespaces being deleted have work
                if event_type != EventType::Deleted && meta::is_deleting(&object) {
                    self.queue.enqueue(ctx, meta::name(&object), Timer::Worker);
                }
            }
            Input::Watch { .. } => {}
            Input::Timer(Timer::Worker) => {
                if let Some(k) = self.queue.start_work() {
                    self.sync(ctx, &k);
                }
                self.queue.done(ctx, Timer::Worker);
            }
            Input::Timer(Timer::Requeue(k)) => {
                if self.namespaces.get(&k).is_some() {
                    self.queue.enqueue(ctx, &k, Timer::Worker);
                }
            }
        }
    }
}
