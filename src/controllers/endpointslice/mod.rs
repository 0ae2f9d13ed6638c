//! The EndpointSlice controller (`endpointslice-controller` in kube-controller-manager).
//!
//! Real counterpart: `pkg/controller/endpointslice/endpointslice_controller.go` (`syncService`,
//! the Service, Pod and EndpointSlice handlers) over the shared reconciler of
//! `staging/src/k8s.io/endpointslice` ([`reconciler`]).
//!
//! It watches Services, Pods and EndpointSlices. A Service with a selector gets EndpointSlices
//! (`discovery.k8s.io/v1`, named `<service>-<5 random characters>`, owned by the Service)
//! listing every Pod it selects that has an address, with `ready`/`serving`/`terminating`
//! conditions that follow the Pod's readiness and deletion; a Service whose selector matches
//! nothing keeps one empty placeholder slice. A Pod change enqueues the Services that select it
//! (before and after the change).
//!
//! What kubesim simplifies: no batching of Pod updates (`--endpoint-updates-batch-period` is 0
//! by default anyway), no topology hints; see [`reconciler`] for the slice packing.

pub mod reconciler;

use crate::api::meta::{self, Resource};
use crate::api::request::{EventType, Identity, Method, Request};
use crate::client::{Recorder, Store, WorkQueue};
use crate::cluster::{self, Component};
use crate::controllers::deployment::controller_identity;
use crate::controllers::endpointutil as eu;
use crate::trace::Actor;
use serde_json::Value;

/// The EndpointSlice controller's timers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Timer {
    Worker,
    /// Sync a Service again after a failed request.
    Requeue(String),
}

impl std::fmt::Display for Timer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Timer::Worker => f.write_str("workqueue"),
            Timer::Requeue(k) => write!(f, "requeue:{}", k),
        }
    }
}

type Ctx<'a> = cluster::Ctx<'a, Timer>;
type Input = cluster::Input<Timer>;

pub struct EndpointSliceController {
    services: Store,
    pods: Store,
    slices: Store,
    queue: WorkQueue,
    recorder: Recorder,
}

impl Default for EndpointSliceController {
    fn default() -> Self {
        EndpointSliceController {
            services: Store::default(),
            pods: Store::default(),
            slices: Store::default(),
            queue: WorkQueue::default(),
            recorder: Recorder::new("endpoint-slice-controller", ""),
        }
    }
}

impl EndpointSliceController {
    /// `syncService`.
    fn sync_service(&mut self, ctx: &mut Ctx, key: &str) {
        let Some(svc) = self.services.get(key).cloned() else {
            // the garbage collector deletes the slices the Service owned
            return;
        };
        if eu::service_selector(&svc).is_none() || meta::get_str(&svc, &["spec", "type"]) == "ExternalName" || meta::is_deleting(&svc) {
            return;
        }
        let (ns, name) = (meta::namespace(&svc).to_string(), meta::name(&svc).to_string());
        let plan = {
            let pods = eu::pods_for_service(&svc, &self.pods);
            let existing: Vec<&Value> = self.slices.values().filter(|s| reconciler::owned_slice(s, &ns, &name)).collect();
            let trigger = eu::last_change_trigger_time(&svc, &pods);
            reconciler::reconcile(&svc, &pods, &existing, &trigger)
        };
        let base = format!("/apis/discovery.k8s.io/v1/namespaces/{}/endpointslices", ns);
        let mut failed = None;
        for s in plan.create {
            let resp = ctx.request_with(Request::new(Method::Post, base.clone(), Some(s)));
            if resp.ok() {
                self.slices.apply(EventType::Added, &resp.body);
            } else {
                failed = Some(resp.message().to_string());
            }
        }
        for s in plan.update {
            let path = format!("{}/{}", base, meta::name(&s));
            let resp = ctx.request(Method::Put, &path, Some(s));
            if resp.ok() {
                self.slices.apply(EventType::Modified, &resp.body);
            } else {
                failed = Some(resp.message().to_string());
            }
        }
        for s in plan.delete {
            let path = format!("{}/{}", base, meta::name(&s));
            let resp = ctx.request(Method::Delete, &path, None);
            if resp.ok() || resp.code == 404 {
                self.slices.apply(EventType::Deleted, &s);
            } else {
                failed = Some(resp.message().to_string());
            }
        }
        if let Some(msg) = failed {
            let text = format!("Error updating Endpoint Slices for Service {}/{}: {}", ns, name, msg);
            self.recorder.event(ctx, &svc, None, "Warning", "FailedToUpdateEndpointSlices", &text);
            ctx.after_background(1000, Timer::Requeue(key.to_string()));
        }
    }
}

impl Component for EndpointSliceController {
    type Timer = Timer;

    fn restarted(&self) -> Option<Self> {
        Some(Self::default())
    }

    fn actor(&self) -> Actor {
        Actor::EndpointSliceController
    }

    fn identity(&self) -> Identity {
        controller_identity("endpointslice-controller", "endpointslice-controller")
    }

    fn start(&mut self, ctx: &mut Ctx) {
        let svcs = ctx.list_and_watch(meta::lookup("services").expect("services"), "", "", "");
        self.services.replace(svcs);
        let pods = ctx.list_and_watch(meta::lookup("pods").expect("pods"), "", "", "");
        self.pods.replace(pods);
        let slices = ctx.list_and_watch(meta::lookup("endpointslices").expect("endpointslices"), "", "", "");
        self.slices.replace(slices);
        let keys: Vec<String> = self.services.items.keys().cloned().collect();
        for k in keys {
            self.queue.enqueue(ctx, &k, Timer::Worker);
        }
    }

    fn handle(&mut self, ctx: &mut Ctx, input: Input) {
        match input {
            Input::Watch { resource: Resource::Services, event_type, object } => {
                self.services.apply_shared(event_type, object.clone());
                self.queue.enqueue(ctx, &meta::key(&object), Timer::Worker);
            }
            Input::Watch { resource: Resource::Pods, event_type, object } => {
                let old = self.pods.apply_shared(event_type, object.clone());
                for k in eu::services_to_sync(&object, old.as_deref(), &self.services) {
                    self.queue.enqueue(ctx, &k, Timer::Worker);
                }
            }
            Input::Watch { resource: Resource::EndpointSlices, event_type, object } => {
                self.slices.apply_shared(event_type, object.clone());
                // a managed slice changed or deleted by someone else: sync its Service again
                let labels = meta::labels(&object);
                if labels.get(reconciler::LABEL_MANAGED_BY).and_then(|v| v.as_str()) == Some(reconciler::CONTROLLER_NAME) {
                    if let Some(svc) = labels.get(reconciler::LABEL_SERVICE_NAME).and_then(|v| v.as_str()) {
                        let k = format!("{}/{}", meta::namespace(&object), svc);
                        if self.services.get(&k).is_some() && event_type == EventType::Deleted {
                            self.queue.enqueue(ctx, &k, Timer::Worker);
                        }
                    }
                }
            }
            Input::Watch { .. } => {}
            Input::Timer(Timer::Worker) => {
                if let Some(k) = self.queue.start_work() {
                    self.sync_service(ctx, &k);
                }
                self.queue.done(ctx, Timer::Worker);
            }
            Input::Timer(Timer::Requeue(k)) => {
                if self.services.get(&k).is_some() {
                    self.queue.enqueue(ctx, &k, Timer::Worker);
                }
            }
        }
    }
}
