//! The storage provisioner: minikube's `storage-provisioner` (provisioner name
//! `k8s.io/minikube-hostpath`), the one that makes the volumes of the default `standard`
//! StorageClass.
//!
//! Real counterpart: minikube's `pkg/storage/storage_provisioner.go` (a hostPath provisioner)
//! driven by `sigs.k8s.io/sig-storage-lib-external-provisioner` (`controller/controller.go`:
//! `shouldProvision`, `provisionClaimOperation`, `shouldDelete`, `deleteVolumeOperation`;
//! `volume_store.go`). It watches claims through the API server like any other client.
//!
//! For a claim the PersistentVolume controller has marked for it
//! (`volume.kubernetes.io/storage-provisioner: k8s.io/minikube-hostpath`) and that has no
//! volume yet, it says `Provisioning`, creates the PersistentVolume `pvc-<claim uid>` — a
//! hostPath under `/tmp/hostpath-provisioner/<namespace>/<claim>`, with the claim's size and
//! access modes, the class's reclaim policy, and a `claimRef` to the claim, so that the
//! PersistentVolume controller binds the two — and says `ProvisioningSucceeded`. A volume of
//! its own that is `Released` with the `Delete` policy is deleted.
//!
//! What kubesim simplifies: it is a component of the control plane rather than a Pod in
//! kube-system; its event source's instance id is fixed rather than a fresh UUID; no directory
//! is made on any node (Pods do not read or write files).

use crate::api::meta;
use crate::api::meta::Resource;
use crate::api::request::{EventType, Identity, Method};
use crate::client::{Recorder, Store, WorkQueue};
use crate::cluster::{self, Component};
use crate::controllers::persistentvolume::{ANN_BETA_STORAGE_PROVISIONER, ANN_DYNAMICALLY_PROVISIONED, ANN_STORAGE_PROVISIONER};
use crate::trace::Actor;
use serde_json::{json, Value};

/// The provisioner's name (`provisionerName`).
pub const PROVISIONER_NAME: &str = "k8s.io/minikube-hostpath";
/// Its instance identity (`hostPathProvisionerIdentity`; a UUID in minikube).
pub const IDENTITY: &str = "3a9bc3e3-1c5f-4b1e-9d49-8f4a8b2f2c71";
/// Where its volumes live on the host.
pub const PV_DIR: &str = "/tmp/hostpath-provisioner";

/// minikube's default StorageClass (`deploy/addons/storageclass/storageclass.yaml`), created at
/// bootstrap; its reclaim policy (Delete) and binding mode (Immediate) are the API's defaults.
pub fn default_storage_class() -> Value {
    json!({
        "apiVersion": "storage.k8s.io/v1",
        "kind": "StorageClass",
        "metadata": {
            "name": "standard",
            "annotations": {"storageclass.kubernetes.io/is-default-class": "true"},
            "labels": {"addonmanager.kubernetes.io/mode": "EnsureExists"},
        },
        "provisioner": PROVISIONER_NAME,
    })
}

/// The provisioner's timers: its work-queue worker.
pub type Timer = crate::controllers::expectations::SyncTimer;

type Ctx<'a> = cluster::Ctx<'a, Timer>;
type Input = cluster::Input<Timer>;

pub struct HostPathProvisioner {
    claims: Store,
    volumes: Store,
    classes: Store,
    /// keys `claim:<ns>/<name>` or `volume:<name>`
    queue: WorkQueue,
    recorder: Recorder,
}

impl Default for HostPathProvisioner {
    fn default() -> Self {
        HostPathProvisioner {
            claims: Store::default(),
            volumes: Store::default(),
            classes: Store::default(),
            queue: WorkQueue::default(),
            // the library's event source: <provisioner>_<hostname>_<instance>
            recorder: Recorder::new(&format!("{}_storage-provisioner_{}", PROVISIONER_NAME, IDENTITY), ""),
        }
    }
}

impl HostPathProvisioner {
    /// `shouldProvision`: no volume yet, marked for this provisioner, its class ours.
    fn should_provision(&self, claim: &Value) -> bool {
        if !meta::get_str(claim, &["spec", "volumeName"]).is_empty() || meta::is_deleting(claim) {
            return false;
        }
        let marked = meta::annotation(claim, ANN_STORAGE_PROVISIONER).or_else(|| meta::annotation(claim, ANN_BETA_STORAGE_PROVISIONER));
        if marked != Some(PROVISIONER_NAME) {
            return false;
        }
        let class = meta::storage_class_of(claim);
        self.classes.get(class).map(|c| meta::get_str(c, &["provisioner"]) == PROVISIONER_NAME).unwrap_or(false)
    }

    /// `provisionClaimOperation`.
    fn provision(&mut self, ctx: &mut Ctx, claim: &Value) {
        let pv_name = format!("pvc-{}", meta::uid(claim));
        if self.volumes.get(&pv_name).is_some() {
            return;
        }
        let msg = format!("External provisioner is provisioning volume for claim \"{}\"", meta::key(claim));
        self.recorder.event(ctx, claim, None, "Normal", "Provisioning", &msg);
        let class_name = meta::storage_class_of(claim).to_string();
        let reclaim = self.classes.get(&class_name).map(|c| meta::get_str(c, &["reclaimPolicy"]).to_string()).filter(|s| !s.is_empty()).unwrap_or_else(|| "Delete".into());
        let mut pv = json!({
            "apiVersion": "v1",
            "kind": "PersistentVolume",
            "metadata": {
                "name": pv_name,
                "annotations": {"hostPathProvisionerIdentity": IDENTITY, ANN_DYNAMICALLY_PROVISIONED: PROVISIONER_NAME},
            },
            "spec": {
                "accessModes": meta::get(claim, &["spec", "accessModes"]).cloned().unwrap_or(json!([])),
                "capacity": {"storage": meta::get(claim, &["spec", "resources", "requests", "storage"]).cloned().unwrap_or(json!("0"))},
                "claimRef": {
                    "apiVersion": "v1",
                    "kind": "PersistentVolumeClaim",
                    "name": meta::name(claim),
                    "namespace": meta::namespace(claim),
                    "resourceVersion": meta::resource_version(claim),
                    "uid": meta::uid(claim),
                },
                "hostPath": {"path": format!("{}/{}/{}", PV_DIR, meta::namespace(claim), meta::name(claim)), "type": ""},
                "persistentVolumeReclaimPolicy": reclaim,
                "storageClassName": class_name,
                "volumeMode": meta::get(claim, &["spec", "volumeMode"]).cloned().unwrap_or(json!("Filesystem")),
            },
        });
        if pv["spec"]["volumeMode"].is_null() {
            pv["spec"]["volumeMode"] = json!("Filesystem");
        }
        let resp = ctx.request(Method::Post, "/api/v1/persistentvolumes", Some(pv));
        if resp.ok() || resp.code == 409 {
            if resp.ok() {
                self.volumes.apply(EventType::Added, &resp.body);
            }
            let msg = format!("Successfully provisioned volume {}", pv_name);
            self.recorder.event(ctx, claim, None, "Normal", "ProvisioningSucceeded", &msg);
        } else {
            let msg = format!("failed to provision volume with StorageClass \"{}\": {}", class_name, resp.message());
            self.recorder.event(ctx, claim, None, "Warning", "ProvisioningFailed", &msg);
        }
    }

    /// `shouldDelete` + `deleteVolumeOperation`: a Released volume of ours with the Delete policy.
    fn maybe_delete(&mut self, ctx: &mut Ctx, pv: &Value) {
        let ours = meta::annotation(pv, ANN_DYNAMICALLY_PROVISIONED) == Some(PROVISIONER_NAME);
        if !ours || meta::is_deleting(pv) || meta::get_str(pv, &["status", "phase"]) != "Released" || meta::get_str(pv, &["spec", "persistentVolumeReclaimPolicy"]) != "Delete" {
            return;
        }
        let resp = ctx.request(Method::Delete, &format!("/api/v1/persistentvolumes/{}", meta::name(pv)), None);
        if !resp.ok() && resp.code != 404 {
            let msg = format!("Error deleting volume {}: {}", meta::name(pv), resp.message());
            self.recorder.event(ctx, pv, None, "Warning", "VolumeFailedDelete", &msg);
        }
    }
}

impl Component for HostPathProvisioner {
    type Timer = Timer;

    fn restarted(&self) -> Option<Self> {
        Some(Self::default())
    }

    fn actor(&self) -> Actor {
        Actor::StorageProvisioner
    }

    fn identity(&self) -> Identity {
        Identity {
            username: "system:serviceaccount:kube-system:storage-provisioner".into(),
            uid: String::new(),
            groups: vec!["system:serviceaccounts".into(), "system:serviceaccounts:kube-system".into(), "system:authenticated".into()],
            user_agent: "storage-provisioner/v0.0.0 (linux/amd64) kubernetes/$Format".into(),
            source_ip: "192.168.49.2".into(),
            impersonate: None,
        }
    }

    fn start(&mut self, ctx: &mut Ctx) {
        let classes = ctx.list_and_watch(meta::lookup("storageclasses").expect("sc"), "", "", "");
        self.classes.replace(classes);
        let volumes = ctx.list_and_watch(meta::lookup("persistentvolumes").expect("pv"), "", "", "");
        self.volumes.replace(volumes);
        let claims = ctx.list_and_watch(meta::lookup("persistentvolumeclaims").expect("pvc"), "", "", "");
        self.claims.replace(claims);
        let keys: Vec<String> = self.claims.items.keys().map(|k| format!("claim:{}", k)).chain(self.volumes.items.keys().map(|k| format!("volume:{}", k))).collect();
        for k in keys {
            self.queue.enqueue(ctx, &k, Timer::Worker);
        }
    }

    fn handle(&mut self, ctx: &mut Ctx, input: Input) {
        match input {
            Input::Watch { resource: Resource::PersistentVolumeClaims, event_type, object } => {
                self.claims.apply_shared(event_type, object.clone());
                if event_type != EventType::Deleted {
                    self.queue.enqueue(ctx, &format!("claim:{}", meta::key(&object)), Timer::Worker);
                }
            }
            Input::Watch { resource: Resource::PersistentVolumes, event_type, object } => {
                self.volumes.apply_shared(event_type, object.clone());
                if event_type != EventType::Deleted {
                    self.queue.enqueue(ctx, &format!("volume:{}", meta::name(&object)), Timer::Worker);
                }
            }
            Input::Watch { resource: Resource::StorageClasses, event_type, object } => {
                self.classes.apply_shared(event_type, object);
            }
            Input::Watch { .. } => {}
            Input::Timer(Timer::Worker) => {
                if let Some(k) = self.queue.start_work() {
                    if let Some(key) = k.strip_prefix("claim:") {
                        if let Some(c) = self.claims.get(key).cloned() {
                            if self.should_provision(&c) {
                                self.provision(ctx, &c);
                            }
                        }
                    } else if let Some(name) = k.strip_prefix("volume:") {
                        if let Some(v) = self.volumes.get(name).cloned() {
                            self.maybe_delete(ctx, &v);
                        }
                    }
                }
                self.queue.done(ctx, Timer::Worker);
            }
            Input::Timer(Timer::Requeue(k)) => self.queue.enqueue(ctx, &k, Timer::Worker),
        }
    }
}
