//! The PersistentVolume controller (`persistentvolume-binder-controller` in
//! kube-controller-manager, running as the `persistent-volume-binder` service account; its
//! events say `persistentvolume-controller`).
//!
//! Real counterpart: `pkg/controller/volume/persistentvolume/pv_controller.go` (`syncClaim`,
//! `syncUnboundClaim`, `syncBoundClaim`, `syncVolume`, `bind`, `bindVolumeToClaim`,
//! `updateVolumePhase`, `bindClaimToVolume`, `updateClaimStatus`, `provisionClaim` →
//! `provisionClaimOperationExternal`) with `pv_controller_base.go` (informers, the claim and
//! volume queues, `setClaimProvisioner`) and `index.go` (`findBestMatchForClaim`).
//!
//! A claim without a volume first looks for one: a PersistentVolume already pointing at it
//! (`claimRef`), else the smallest Available volume of its class that is big enough and offers its
//! access modes. None, and the claim has a class: the controller does not make storage itself —
//! it marks the claim for the class's provisioner (the `storage-provisioner` annotations) and says
//! so (`ExternalProvisioning`); the provisioner ([`crate::provisioner`]) creates the volume with a
//! `claimRef`, and the next sync binds them, writing in upstream's order: the volume (only if its
//! `claimRef` must change), the volume's phase `Bound`, the claim's `volumeName` with
//! `bind-completed`, the claim's phase `Bound` with its capacity. A volume whose claim is gone is
//! `Released`; with the `Delete` policy its provisioner deletes it.
//!
//! `resync` (`--pvclaimbinder-sync-period`, 15 s) queues every claim and volume again, so a claim
//! waiting for something that appears later (its StorageClass, a volume) is bound on the next
//! resync, and a claim whose class does not exist says `ProvisioningFailed` again each time (a
//! real cluster's `x41 over 10m`). The resync is background work: it never keeps `settle` running.
//!
//! What kubesim simplifies: in-tree provisioners, recycling and volume expansion are not
//! modelled; the retroactive default class assignment is not done.

use crate::api::meta::Resource;
use crate::api::quantity;
use crate::api::request::{EventType, Identity, Method};
use crate::api::meta;
use crate::client::{Recorder, Store, WorkQueue};
use crate::cluster::{self, Component};
use crate::controllers::deployment::controller_identity;
use crate::trace::Actor;
use serde_json::{json, Value};

/// `AnnBindCompleted`.
pub const ANN_BIND_COMPLETED: &str = "pv.kubernetes.io/bind-completed";
/// `AnnBoundByController`.
pub const ANN_BOUND_BY_CONTROLLER: &str = "pv.kubernetes.io/bound-by-controller";
/// `AnnStorageProvisioner` and `AnnBetaStorageProvisioner`.
pub const ANN_STORAGE_PROVISIONER: &str = "volume.kubernetes.io/storage-provisioner";
pub const ANN_BETA_STORAGE_PROVISIONER: &str = "volume.beta.kubernetes.io/storage-provisioner";
/// `AnnDynamicallyProvisioned`.
pub const ANN_DYNAMICALLY_PROVISIONED: &str = "pv.kubernetes.io/provisioned-by";

/// The controller's timers: a worker of each queue.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Timer {
    ClaimWorker,
    VolumeWorker,
    /// `resync`: every claim and volume queued again.
    Resync,
}

/// `--pvclaimbinder-sync-period`'s default: how often `resync` runs.
pub const RESYNC_PERIOD_MS: i64 = 15_000;

impl std::fmt::Display for Timer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Timer::ClaimWorker => "workqueue:claims",
            Timer::VolumeWorker => "workqueue:volumes",
            Timer::Resync => "resync",
        })
    }
}

type Ctx<'a> = cluster::Ctx<'a, Timer>;
type Input = cluster::Input<Timer>;

pub struct PersistentVolumeController {
    claims: Store,
    volumes: Store,
    classes: Store,
    claim_queue: WorkQueue,
    volume_queue: WorkQueue,
    recorder: Recorder,
}

impl Default for PersistentVolumeController {
    fn default() -> Self {
        PersistentVolumeController {
            claims: Store::default(),
            volumes: Store::default(),
            classes: Store::default(),
            claim_queue: WorkQueue::default(),
            volume_queue: WorkQueue::default(),
            recorder: Recorder::new("persistentvolume-controller", ""),
        }
    }
}

fn storage_of(v: &Value, path: &[&str]) -> i128 {
    meta::get(v, path).and_then(quantity::parse_quantity).map(|q| q.nanos()).unwrap_or(0)
}

fn claim_ref_matches(pv: &Value, claim: &Value) -> bool {
    let Some(r) = meta::get(pv, &["spec", "claimRef"]).filter(|r| !r.is_null()) else { return false };
    meta::get_str(r, &["name"]) == meta::name(claim)
        && meta::get_str(r, &["namespace"]) == meta::namespace(claim)
        && (meta::get_str(r, &["uid"]).is_empty() || meta::get_str(r, &["uid"]) == meta::uid(claim))
}

impl PersistentVolumeController {
    /// `findBestMatchForClaim`: a volume pre-bound to the claim, else the smallest Available one
    /// of its class with enough capacity and every access mode the claim asks for.
    fn find_best_match(&self, claim: &Value) -> Option<Value> {
        if let Some(v) = self.volumes.values().find(|v| claim_ref_matches(v, claim)) {
            return Some(v.clone());
        }
        let want = storage_of(claim, &["spec", "resources", "requests", "storage"]);
        let modes: Vec<&str> = meta::get_array(claim, &["spec", "accessModes"]).iter().filter_map(Value::as_str).collect();
        let class = meta::storage_class_of(claim);
        self.volumes
            .values()
            .filter(|v| meta::get(v, &["spec", "claimRef"]).map_or(true, Value::is_null) && !meta::is_deleting(v))
            .filter(|v| meta::storage_class_of(v) == class)
            .filter(|v| meta::get_str(v, &["spec", "volumeMode"]) == meta::get_str(claim, &["spec", "volumeMode"]))
            .filter(|v| {
                let have: Vec<&str> = meta::get_array(v, &["spec", "accessModes"]).iter().filter_map(Value::as_str).collect();
                modes.iter().all(|m| have.contains(m))
            })
            .filter(|v| storage_of(v, &["spec", "capacity", "storage"]) >= want)
            .min_by_key(|v| storage_of(v, &["spec", "capacity", "storage"]))
            .cloned()
    }

    /// `resync`: every claim and volume the informers hold is queued again.
    fn resync(&mut self, ctx: &mut Ctx) {
        let keys: Vec<String> = self.claims.items.keys().cloned().collect();
        for k in keys {
            self.claim_queue.enqueue(ctx, &k, Timer::ClaimWorker);
        }
        let keys: Vec<String> = self.volumes.items.keys().cloned().collect();
        for k in keys {
            self.volume_queue.enqueue(ctx, &k, Timer::VolumeWorker);
        }
    }

    /// `syncClaim`.
    fn sync_claim(&mut self, ctx: &mut Ctx, key: &str) {
        let Some(claim) = self.claims.get(key).cloned() else { return };
        if meta::annotation(&claim, ANN_BIND_COMPLETED).is_none() {
            self.sync_unbound_claim(ctx, &claim);
        } else {
            self.sync_bound_claim(ctx, &claim);
        }
    }

    /// `syncUnboundClaim`.
    fn sync_unbound_claim(&mut self, ctx: &mut Ctx, claim: &Value) {
        let volume_name = meta::get_str(claim, &["spec", "volumeName"]);
        if volume_name.is_empty() {
            match self.find_best_match(claim) {
                Some(volume) => self.bind(ctx, &volume, claim),
                None => {
                    let class = meta::storage_class_of(claim).to_string();
                    if !class.is_empty() {
                        self.provision_claim(ctx, claim, &class);
                        return;
                    }
                    self.recorder.event(ctx, claim, None, "Normal", "FailedBinding", "no persistent volumes available for this claim and no storage class is set");
                    self.update_claim_status(ctx, claim, "Pending", None);
                }
            }
            return;
        }
        // the user asked for this volume by name
        match self.volumes.get(volume_name).cloned() {
            None => self.update_claim_status(ctx, claim, "Pending", None),
            Some(v) if meta::get(&v, &["spec", "claimRef"]).map_or(true, Value::is_null) || claim_ref_matches(&v, claim) => self.bind(ctx, &v, claim),
            Some(_) => {
                self.recorder.event(ctx, claim, None, "Warning", "FailedBinding", "volume already bound to a different claim.");
                self.update_claim_status(ctx, claim, "Pending", None);
            }
        }
    }

    /// `syncBoundClaim`.
    fn sync_bound_claim(&mut self, ctx: &mut Ctx, claim: &Value) {
        let volume_name = meta::get_str(claim, &["spec", "volumeName"]).to_string();
        if volume_name.is_empty() {
            self.update_claim_status(ctx, claim, "Lost", None);
            self.recorder.event(ctx, claim, None, "Warning", "ClaimLost", "Bound claim has lost reference to PersistentVolume. Data on the volume is lost!");
            return;
        }
        match self.volumes.get(&volume_name).cloned() {
            None => {
                self.update_claim_status(ctx, claim, "Lost", None);
                self.recorder.event(ctx, claim, None, "Warning", "ClaimLost", "Bound claim has lost its PersistentVolume. Data on the volume is lost!");
            }
            Some(v) if claim_ref_matches(&v, claim) || meta::get(&v, &["spec", "claimRef"]).map_or(true, Value::is_null) => self.bind(ctx, &v, claim),
            Some(_) => {
                self.update_claim_status(ctx, claim, "Lost", None);
                self.recorder.event(ctx, claim, None, "Warning", "ClaimMisbound", "Two claims are bound to the same volume, this one is bound incorrectly");
            }
        }
    }

    /// `provisionClaim` for an external provisioner: `setClaimProvisioner` (one update setting
    /// both annotations), then the `ExternalProvisioning` event.
    fn provision_claim(&mut self, ctx: &mut Ctx, claim: &Value, class: &str) {
        let Some(sc) = self.classes.get(class).cloned() else {
            let msg = format!("storageclass.storage.k8s.io \"{}\" not found", class);
            self.recorder.event(ctx, claim, None, "Warning", "ProvisioningFailed", &msg);
            return;
        };
        let provisioner = meta::get_str(&sc, &["provisioner"]).to_string();
        let mut claim = claim.clone();
        if meta::annotation(&claim, ANN_STORAGE_PROVISIONER) != Some(provisioner.as_str()) {
            let mut updated = claim.clone();
            meta::set(&mut updated, &["metadata", "annotations", ANN_BETA_STORAGE_PROVISIONER], json!(provisioner));
            meta::set(&mut updated, &["metadata", "annotations", ANN_STORAGE_PROVISIONER], json!(provisioner));
            let path = format!("/api/v1/namespaces/{}/persistentvolumeclaims/{}", meta::namespace(&claim), meta::name(&claim));
            let resp = ctx.request(Method::Put, &path, Some(updated));
            if !resp.ok() {
                let msg = format!("Error saving claim: {}", resp.message());
                self.recorder.event(ctx, &claim, None, "Warning", "ProvisioningFailed", &msg);
                return;
            }
            self.claims.apply(EventType::Modified, &resp.body);
            claim = resp.body;
        }
        let msg = format!(
            "Waiting for a volume to be created either by the external provisioner '{}' or manually by the system administrator. If volume creation is delayed, please verify that the provisioner is running and correctly registered.",
            provisioner
        );
        self.recorder.event(ctx, &claim, None, "Normal", "ExternalProvisioning", &msg);
    }

    /// `bind`: volume (claimRef, only if it must change), volume phase, claim (volumeName and
    /// annotations), claim phase — stopping at the first failure.
    fn bind(&mut self, ctx: &mut Ctx, volume: &Value, claim: &Value) {
        let mut volume = volume.clone();
        // bindVolumeToClaim
        if !claim_ref_matches(&volume, claim) || meta::get_str(&volume, &["spec", "claimRef", "uid"]).is_empty() {
            let mut v = volume.clone();
            v["spec"]["claimRef"] = json!({
                "apiVersion": "v1",
                "kind": "PersistentVolumeClaim",
                "name": meta::name(claim),
                "namespace": meta::namespace(claim),
                "resourceVersion": meta::resource_version(claim),
                "uid": meta::uid(claim),
            });
            meta::set(&mut v, &["metadata", "annotations", ANN_BOUND_BY_CONTROLLER], json!("yes"));
            let resp = ctx.request(Method::Put, &format!("/api/v1/persistentvolumes/{}", meta::name(&v)), Some(v));
            if !resp.ok() {
                return;
            }
            self.volumes.apply(EventType::Modified, &resp.body);
            volume = resp.body;
        }
        // updateVolumePhase
        if meta::get_str(&volume, &["status", "phase"]) != "Bound" {
            match self.update_volume_phase(ctx, &volume, "Bound") {
                Some(v) => volume = v,
                None => return,
            }
        }
        // bindClaimToVolume
        let mut claim = claim.clone();
        if meta::get_str(&claim, &["spec", "volumeName"]) != meta::name(&volume) || meta::annotation(&claim, ANN_BIND_COMPLETED).is_none() {
            let mut c = claim.clone();
            if meta::get_str(&c, &["spec", "volumeName"]) != meta::name(&volume) {
                c["spec"]["volumeName"] = json!(meta::name(&volume));
                if meta::annotation(&c, ANN_BOUND_BY_CONTROLLER).is_none() {
                    meta::set(&mut c, &["metadata", "annotations", ANN_BOUND_BY_CONTROLLER], json!("yes"));
                }
            }
            if meta::annotation(&c, ANN_BIND_COMPLETED).is_none() {
                meta::set(&mut c, &["metadata", "annotations", ANN_BIND_COMPLETED], json!("yes"));
            }
            let path = format!("/api/v1/namespaces/{}/persistentvolumeclaims/{}", meta::namespace(&c), meta::name(&c));
            let resp = ctx.request(Method::Put, &path, Some(c));
            if !resp.ok() {
                return;
            }
            self.claims.apply(EventType::Modified, &resp.body);
            claim = resp.body;
        }
        // updateClaimStatus
        self.update_claim_status(ctx, &claim, "Bound", Some(&volume));
    }

    /// `updateVolumePhase`: the status subresource, with the phase transition time.
    fn update_volume_phase(&mut self, ctx: &mut Ctx, volume: &Value, phase: &str) -> Option<Value> {
        let mut v = volume.clone();
        v["status"] = json!({"phase": phase, "lastPhaseTransitionTime": crate::api::time::rfc3339(ctx.now)});
        let resp = ctx.request(Method::Put, &format!("/api/v1/persistentvolumes/{}/status", meta::name(volume)), Some(v));
        if !resp.ok() {
            return None;
        }
        self.volumes.apply(EventType::Modified, &resp.body);
        Some(resp.body)
    }

    /// `updateClaimStatus`: phase, and once bound the volume's access modes and capacity; only
    /// when something changes.
    fn update_claim_status(&mut self, ctx: &mut Ctx, claim: &Value, phase: &str, volume: Option<&Value>) {
        let mut status = claim.get("status").cloned().filter(Value::is_object).unwrap_or(json!({}));
        status["phase"] = json!(phase);
        if let Some(v) = volume {
            if phase == "Bound" {
                status["accessModes"] = meta::get(v, &["spec", "accessModes"]).cloned().unwrap_or(json!([]));
                status["capacity"] = meta::get(v, &["spec", "capacity"]).cloned().unwrap_or(json!({}));
            }
        }
        if claim.get("status") == Some(&status) {
            return;
        }
        let mut c = claim.clone();
        c["status"] = status;
        let path = format!("/api/v1/namespaces/{}/persistentvolumeclaims/{}/status", meta::namespace(claim), meta::name(claim));
        let resp = ctx.request(Method::Put, &path, Some(c));
        if resp.ok() {
            self.claims.apply(EventType::Modified, &resp.body);
        }
    }

    /// `syncVolume`: Available without a claim, Released once its claim is gone, Bound when the
    /// claim names it; an unbound claim it points at is queued.
    fn sync_volume(&mut self, ctx: &mut Ctx, name: &str) {
        let Some(volume) = self.volumes.get(name).cloned() else { return };
        let phase = meta::get_str(&volume, &["status", "phase"]).to_string();
        let Some(r) = meta::get(&volume, &["spec", "claimRef"]).filter(|r| !r.is_null()).cloned() else {
            if phase != "Available" {
                self.update_volume_phase(ctx, &volume, "Available");
            }
            return;
        };
        if meta::get_str(&r, &["uid"]).is_empty() {
            if phase != "Available" {
                self.update_volume_phase(ctx, &volume, "Available");
            }
            return;
        }
        let claim_key = format!("{}/{}", meta::get_str(&r, &["namespace"]), meta::get_str(&r, &["name"]));
        match self.claims.get(&claim_key).filter(|c| meta::uid(c) == meta::get_str(&r, &["uid"])).cloned() {
            None => {
                if phase != "Released" && phase != "Failed" {
                    // reclaimVolume: Retain keeps it; Delete is the external provisioner's to do
                    self.update_volume_phase(ctx, &volume, "Released");
                }
            }
            Some(c) if meta::get_str(&c, &["spec", "volumeName"]) == name => {
                if phase != "Bound" {
                    self.update_volume_phase(ctx, &volume, "Bound");
                }
            }
            Some(c) => {
                // the volume points at a claim that is not bound yet: let the claim sync bind them
                self.claim_queue.enqueue(ctx, &meta::key(&c), Timer::ClaimWorker);
            }
        }
    }
}

impl Component for PersistentVolumeController {
    type Timer = Timer;

    fn restarted(&self) -> Option<Self> {
        Some(Self::default())
    }

    fn actor(&self) -> Actor {
        Actor::PersistentVolumeController
    }

    fn identity(&self) -> Identity {
        controller_identity("persistent-volume-binder", "persistent-volume-binder")
    }

    fn start(&mut self, ctx: &mut Ctx) {
        let volumes = ctx.list_and_watch(meta::lookup("persistentvolumes").expect("pv"), "", "", "");
        self.volumes.replace(volumes);
        let claims = ctx.list_and_watch(meta::lookup("persistentvolumeclaims").expect("pvc"), "", "", "");
        self.claims.replace(claims);
        let classes = ctx.list_and_watch(meta::lookup("storageclasses").expect("sc"), "", "", "");
        self.classes.replace(classes);
        self.resync(ctx);
        ctx.after_background(RESYNC_PERIOD_MS, Timer::Resync);
    }

    fn handle(&mut self, ctx: &mut Ctx, input: Input) {
        match input {
            Input::Watch { resource: Resource::PersistentVolumeClaims, event_type, object } => {
                self.claims.apply_shared(event_type, object.clone());
                if event_type == EventType::Deleted {
                    // the volume it was bound to is released
                    let name = meta::get_str(&object, &["spec", "volumeName"]).to_string();
                    if !name.is_empty() {
                        self.volume_queue.enqueue(ctx, &name, Timer::VolumeWorker);
                    }
                } else {
                    self.claim_queue.enqueue(ctx, &meta::key(&object), Timer::ClaimWorker);
                }
            }
            Input::Watch { resource: Resource::PersistentVolumes, event_type, object } => {
                self.volumes.apply_shared(event_type, object.clone());
                if event_type != EventType::Deleted {
                    self.volume_queue.enqueue(ctx, meta::name(&object), Timer::VolumeWorker);
                }
            }
            Input::Watch { resource: Resource::StorageClasses, event_type, object } => {
                self.classes.apply_shared(event_type, object);
            }
            Input::Watch { .. } => {}
            Input::Timer(Timer::ClaimWorker) => {
                if let Some(k) = self.claim_queue.start_work() {
                    self.sync_claim(ctx, &k);
                }
                self.claim_queue.done(ctx, Timer::ClaimWorker);
            }
            Input::Timer(Timer::Resync) => {
                self.resync(ctx);
                ctx.after_background(RESYNC_PERIOD_MS, Timer::Resync);
            }
            Input::Timer(Timer::VolumeWorker) => {
                if let Some(k) = self.volume_queue.start_work() {
                    self.sync_volume(ctx, &k);
                }
                self.volume_queue.done(ctx, Timer::VolumeWorker);
            }
        }
    }
}
