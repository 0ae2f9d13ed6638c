//! Storage object in-use protection: a claim is not removed while a Pod uses it, and a volume is
//! not removed while it is bound.
//!
//! Real counterparts: the `StorageObjectInUseProtection` admission plugin
//! (`plugin/pkg/admission/storage/storageobjectinuseprotection`: the `kubernetes.io/pvc-protection`
//! and `kubernetes.io/pv-protection` finalizers added on create, here in the API server's create
//! path), `pkg/controller/volume/pvcprotection/pvc_protection_controller.go`
//! (`persistentvolumeclaim-protection-controller`, service account `pvc-protection-controller`:
//! once a claim is being deleted and no Pod that is not terminated uses it, its finalizer is
//! removed) and `pkg/controller/volume/pvprotection/pv_protection_controller.go`
//! (`persistentvolume-protection-controller`, service account `pv-protection-controller`: a
//! volume being deleted loses its finalizer once it is not `Bound`).
//!
//! What kubesim simplifies: the claim controller decides from its Pod informer alone (upstream
//! also asks the API server with a live LIST before it lets a claim go).

use crate::api::meta::{self, Resource};
use crate::api::request::{EventType, Identity, Method};
use crate::client::{Store, WorkQueue};
use crate::cluster::{self, Component};
use crate::controllers::deployment::controller_identity;
use crate::controllers::expectations::SyncTimer;
use crate::trace::Actor;
use serde_json::{json, Value};

/// `volumeutil.PVCProtectionFinalizer`.
pub const PVC_PROTECTION_FINALIZER: &str = "kubernetes.io/pvc-protection";
/// `volumeutil.PVProtectionFinalizer`.
pub const PV_PROTECTION_FINALIZER: &str = "kubernetes.io/pv-protection";

pub type Timer = SyncTimer;
type Ctx<'a> = cluster::Ctx<'a, Timer>;
type Input = cluster::Input<Timer>;

fn has_finalizer(o: &Value, f: &str) -> bool {
    meta::get_array(o, &["metadata", "finalizers"]).iter().any(|x| x.as_str() == Some(f))
}

/// `removeFinalizer`: an update without the finalizer (the API server removes an object being
/// deleted once its last finalizer is gone).
fn remove_finalizer(ctx: &mut Ctx, path: &str, o: &Value, f: &str) -> bool {
    let mut copy = o.clone();
    let left: Vec<Value> = meta::get_array(o, &["metadata", "finalizers"]).iter().filter(|x| x.as_str() != Some(f)).cloned().collect();
    copy["metadata"]["finalizers"] = json!(left);
    ctx.request(Method::Put, path, Some(copy)).ok()
}

/// The claims a Pod's volumes name.
fn claims_of(pod: &Value) -> Vec<String> {
    meta::get_array(pod, &["spec", "volumes"]).iter().filter_map(|v| meta::str_at(v, &["persistentVolumeClaim", "claimName"]).map(String::from)).collect()
}

/// The PVC protection controller.
#[derive(Default)]
pub struct PvcProtectionController {
    claims: Store,
    pods: Store,
    queue: WorkQueue,
}

impl PvcProtectionController {
    /// `processPVC`: a claim being deleted that no running Pod uses loses its finalizer.
    fn process(&mut self, ctx: &mut Ctx, key: &str) {
        let Some(claim) = self.claims.get(key).cloned() else { return };
        if !meta::is_deleting(&claim) || !has_finalizer(&claim, PVC_PROTECTION_FINALIZER) {
            return;
        }
        let ns = meta::namespace(&claim);
        let in_use = self
            .pods
            .in_namespace(ns)
            .filter(|p| !matches!(meta::get_str(p, &["status", "phase"]), "Succeeded" | "Failed"))
            .any(|p| claims_of(p).iter().any(|c| c == meta::name(&claim)));
        if in_use {
            return;
        }
        let path = format!("/api/v1/namespaces/{}/persistentvolumeclaims/{}", ns, meta::name(&claim));
        if !remove_finalizer(ctx, &path, &claim, PVC_PROTECTION_FINALIZER) {
            ctx.after_background(1000, Timer::Requeue(key.to_string()));
        }
    }
}

impl Component for PvcProtectionController {
    type Timer = Timer;

    fn restarted(&self) -> Option<Self> {
        Some(Self::default())
    }

    fn actor(&self) -> Actor {
        Actor::PvcProtectionController
    }

    fn identity(&self) -> Identity {
        controller_identity("pvc-protection-controller", "pvc-protection-controller")
    }

    fn start(&mut self, ctx: &mut Ctx) {
        let claims = ctx.list_and_watch(meta::lookup("persistentvolumeclaims").expect("pvc"), "", "", "");
        self.claims.replace(claims);
        let pods = ctx.list_and_watch(meta::lookup("pods").expect("pods"), "", "", "");
        self.pods.replace(pods);
        let keys: Vec<String> = self.claims.values().filter(|c| meta::is_deleting(c)).map(meta::key).collect();
        for k in keys {
            self.queue.enqueue(ctx, &k, Timer::Worker);
        }
    }

    fn handle(&mut self, ctx: &mut Ctx, input: Input) {
        match input {
            Input::Watch { resource: Resource::PersistentVolumeClaims, event_type, object } => {
                self.claims.apply_shared(event_type, object.clone());
                if event_type != EventType::Deleted && meta::is_deleting(&object) {
                    self.queue.enqueue(ctx, &meta::key(&object), Timer::Worker);
                }
            }
            Input::Watch { resource: Resource::Pods, event_type, object } => {
                self.pods.apply_shared(event_type, object.clone());
                // a Pod gone or finished may free the claims it used
                if event_type == EventType::Deleted || matches!(meta::get_str(&object, &["status", "phase"]), "Succeeded" | "Failed") {
                    let ns = meta::namespace(&object).to_string();
                    for c in claims_of(&object) {
                        let key = format!("{}/{}", ns, c);
                        if self.claims.get(&key).map(meta::is_deleting).unwrap_or(false) {
                            self.queue.enqueue(ctx, &key, Timer::Worker);
                        }
                    }
                }
            }
            Input::Watch { .. } => {}
            Input::Timer(Timer::Worker) => {
                if let Some(k) = self.queue.start_work() {
                    self.process(ctx, &k);
                }
                self.queue.done(ctx, Timer::Worker);
            }
            Input::Timer(Timer::Requeue(k)) => self.queue.enqueue(ctx, &k, Timer::Worker),
        }
    }
}

/// The PV protection controller.
#[derive(Default)]
pub struct PvProtectionController {
    volumes: Store,
    queue: WorkQueue,
}

impl Component for PvProtectionController {
    type Timer = Timer;

    fn restarted(&self) -> Option<Self> {
        Some(Self::default())
    }

    fn actor(&self) -> Actor {
        Actor::PvProtectionController
    }

    fn identity(&self) -> Identity {
        controller_identity("pv-protection-controller", "pv-protection-controller")
    }

    fn start(&mut self, ctx: &mut Ctx) {
        let volumes = ctx.list_and_watch(meta::lookup("persistentvolumes").expect("pv"), "", "", "");
        self.volumes.replace(volumes);
        let keys: Vec<String> = self.volumes.values().filter(|v| meta::is_deleting(v)).map(meta::key).collect();
        for k in keys {
            self.queue.enqueue(ctx, &k, Timer::Worker);
        }
    }

    fn handle(&mut self, ctx: &mut Ctx, input: Input) {
        match input {
            Input::Watch { resource: Resource::PersistentVolumes, event_type, object } => {
                self.volumes.apply_shared(event_type, object.clone());
                if event_type != EventType::Deleted && meta::is_deleting(&object) {
                    self.queue.enqueue(ctx, &meta::key(&object), Timer::Worker);
                }
            }
            Input::Watch { .. } => {}
            Input::Timer(Timer::Worker) => {
                if let Some(k) = self.queue.start_work() {
                    // processPV: a volume being deleted that is not Bound loses its finalizer
                    if let Some(pv) = self.volumes.get(&k).cloned() {
                        if meta::is_deleting(&pv) && has_finalizer(&pv, PV_PROTECTION_FINALIZER) && meta::get_str(&pv, &["status", "phase"]) != "Bound" {
                            let path = format!("/api/v1/persistentvolumes/{}", meta::name(&pv));
                            if !remove_finalizer(ctx, &path, &pv, PV_PROTECTION_FINALIZER) {
                                ctx.after_background(1000, Timer::Requeue(k.clone()));
                            }
                        }
                    }
                }
                self.queue.done(ctx, Timer::Worker);
            }
            Input::Timer(Timer::Requeue(k)) => self.queue.enqueue(ctx, &k, Timer::Worker),
        }
    }
}
