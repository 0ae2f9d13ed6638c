//! The resource quota controller (`resourcequota-controller` in kube-controller-manager, running
//! as the `resourcequota-controller` service account).
//!
//! Real counterpart: `pkg/controller/resourcequota/resource_quota_controller.go` (`syncResourceQuota`:
//! `status.hard` from `spec.hard`, `status.used` recalculated from the namespace's objects) and
//! `resource_quota_monitor.go` (replenishment: a deleted Pod, Service or claim, or a Pod that
//! turned terminal, queues its namespace's quotas again).
//!
//! The API server's `ResourceQuota` admission plugin charges each new object against
//! `status.used` as it is created; this controller is what gives a new quota its `status.hard`
//! and first `status.used`, and what gives back the usage of objects that are gone.
//!
//! What kubesim simplifies: Pods, Services and claims are counted from informers, other kinds
//! (`count/deployments.apps`) from a LIST at sync time; there is no 5-minute full resync.

use crate::api::meta::{self, Resource};
use crate::api::quota;
use crate::api::request::{EventType, Identity, Method};
use crate::client::{Store, WorkQueue};
use crate::cluster::{self, Component};
use crate::controllers::deployment::controller_identity;
use crate::controllers::expectations::SyncTimer;
use crate::trace::Actor;
use serde_json::{json, Value};

/// The controller's timers.
pub type Timer = SyncTimer;

type Ctx<'a> = cluster::Ctx<'a, Timer>;
type Input = cluster::Input<Timer>;

#[derive(Default)]
pub struct ResourceQuotaController {
    quotas: Store,
    pods: Store,
    services: Store,
    claims: Store,
    queue: WorkQueue,
}

impl ResourceQuotaController {
    fn enqueue_namespace(&mut self, ctx: &mut Ctx, ns: &str) {
        let keys: Vec<String> = self.quotas.in_namespace(ns).map(meta::key).collect();
        for k in keys {
            self.queue.enqueue(ctx, &k, Timer::Worker);
        }
    }

    /// `syncResourceQuota`.
    fn sync(&mut self, ctx: &mut Ctx, key: &str) {
        let Some(q) = self.quotas.get(key).cloned() else { return };
        let ns = meta::namespace(&q).to_string();
        let hard = quota::list_of(meta::get(&q, &["spec", "hard"]));
        let mut used = quota::ResourceList::new();
        let mut charge = |info: &'static meta::ResourceInfo, objs: Vec<Value>| {
            let matching = quota::matching_resources(info, &hard);
            for o in objs {
                let u = quota::mask(&quota::usage(info, &o), &matching);
                used = quota::add(&used, &u);
            }
            for r in matching {
                used.entry(r).or_insert_with(|| crate::api::quantity::Quantity::zero(crate::api::quantity::Format::DecimalSI));
            }
        };
        let in_ns = |s: &Store| s.in_namespace(&ns).cloned().collect::<Vec<Value>>();
        charge(meta::lookup("pods").expect("pods"), in_ns(&self.pods));
        charge(meta::lookup("services").expect("svc"), in_ns(&self.services));
        charge(meta::lookup("persistentvolumeclaims").expect("pvc"), in_ns(&self.claims));
        // other object counts: listed now
        for info in meta::RESOURCES.iter().filter(|r| r.namespaced && !matches!(r.kind, "Pod" | "Service" | "PersistentVolumeClaim")) {
            if hard.contains_key(&quota::object_count_name(info)) {
                let resp = ctx.request(Method::Get, &info.collection_path(&ns), None);
                if !resp.ok() {
                    ctx.after_background(1000, Timer::Requeue(key.to_string()));
                    return;
                }
                charge(info, meta::get_array(&resp.body, &["items"]).to_vec());
            }
        }
        for k in hard.keys() {
            used.entry(k.clone()).or_insert_with(|| crate::api::quantity::Quantity::zero(crate::api::quantity::Format::DecimalSI));
        }
        let status = json!({"hard": quota::to_json(&hard), "used": quota::to_json(&used)});
        if q.get("status") == Some(&status) {
            return;
        }
        let mut copy = q.clone();
        copy["status"] = status;
        let resp = ctx.request(Method::Put, &format!("/api/v1/namespaces/{}/resourcequotas/{}/status", ns, meta::name(&q)), Some(copy));
        if resp.ok() {
            self.quotas.apply(EventType::Modified, &resp.body);
        } else {
            ctx.after_background(1000, Timer::Requeue(key.to_string()));
        }
    }
}

impl Component for ResourceQuotaController {
    type Timer = Timer;

    fn restarted(&self) -> Option<Self> {
        Some(Self::default())
    }

    fn actor(&self) -> Actor {
        Actor::ResourceQuotaController
    }

    fn identity(&self) -> Identity {
        controller_identity("resourcequota-controller", "resourcequota-controller")
    }

    fn start(&mut self, ctx: &mut Ctx) {
        let quotas = ctx.list_and_watch(meta::lookup("resourcequotas").expect("quota"), "", "", "");
        self.quotas.replace(quotas);
        let pods = ctx.list_and_watch(meta::lookup("pods").expect("pods"), "", "", "");
        self.pods.replace(pods);
        let svcs = ctx.list_and_watch(meta::lookup("services").expect("svc"), "", "", "");
        self.services.replace(svcs);
        let claims = ctx.list_and_watch(meta::lookup("persistentvolumeclaims").expect("pvc"), "", "", "");
        self.claims.replace(claims);
        let keys: Vec<String> = self.quotas.items.keys().cloned().collect();
        for k in keys {
            self.queue.enqueue(ctx, &k, Timer::Worker);
        }
    }

    fn handle(&mut self, ctx: &mut Ctx, input: Input) {
        match input {
            Input::Watch { resource: Resource::ResourceQuotas, event_type, object } => {
                let old = self.quotas.apply_shared(event_type, object.clone());
                // a new quota, or a changed spec.hard (not our own status writes)
                let changed = old.map(|o| o.get("spec") != object.get("spec")).unwrap_or(true);
                if event_type != EventType::Deleted && changed {
                    self.queue.enqueue(ctx, &meta::key(&object), Timer::Worker);
                }
            }
            Input::Watch { resource: Resource::Pods, event_type, object } => {
                let old = self.pods.apply_shared(event_type, object.clone());
                // replenishment: a Pod gone, or no longer counted
                let released = event_type == EventType::Deleted || (old.map(|o| quota::pod_counts(&o)).unwrap_or(false) && !quota::pod_counts(&object));
                if released {
                    self.enqueue_namespace(ctx, meta::namespace(&object));
                }
            }
            Input::Watch { resource: Resource::Services, event_type, object } => {
                self.services.apply_shared(event_type, object.clone());
                if event_type == EventType::Deleted {
                    self.enqueue_namespace(ctx, meta::namespace(&object));
                }
            }
            Input::Watch { resource: Resource::PersistentVolumeClaims, event_type, object } => {
                self.claims.apply_shared(event_type, object.clone());
                if event_type == EventType::Deleted {
                    self.enqueue_namespace(ctx, meta::namespace(&object));
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
                if self.quotas.get(&k).is_some() {
                    self.queue.enqueue(ctx, &k, Timer::Worker);
                }
            }
        }
    }
}
