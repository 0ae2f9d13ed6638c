//! The kubelet's ConfigMap and Secret managers: `pkg/kubelet/configmap/configmap_manager.go` and
//! `pkg/kubelet/secret/secret_manager.go` on `pkg/kubelet/util/manager/watch_based_manager.go`
//! (`configMapAndSecretChangeDetectionStrategy: Watch`, the kubelet's default).
//!
//! When a Pod is registered (`RegisterPod`, on every add or update the kubelet sees) each
//! ConfigMap or Secret it names gets a reference; the first reference to an object starts a
//! reflector on that one object (LIST then WATCH with `fieldSelector=metadata.name=NAME` in its
//! namespace, through the API server as every component's watches); the last reference going
//! (`UnregisterPod`) stops it. `get` answers from what the reflector holds, so a missing object is
//! `configmap "x" not found` — the singular the watch-based manager's NotFound uses.
//!
//! What kubesim simplifies: a watch stops as soon as no Pod needs the object (upstream keeps an
//! idle one for a while), and an immutable object's watch is not stopped.

use crate::api::meta::{self, ResourceInfo};
use crate::cluster;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;

type Ctx<'a> = cluster::Ctx<'a, super::Timer>;

/// One watched object.
#[derive(Clone, Debug, Default)]
struct Item {
    /// The Pods (by uid) that reference it.
    refs: BTreeSet<String>,
    /// What the reflector holds: None while the object does not exist.
    object: Option<Rc<Value>>,
}

/// A watch-based manager of one resource (ConfigMaps or Secrets).
#[derive(Clone, Debug)]
pub struct Manager {
    info: &'static ResourceInfo,
    items: BTreeMap<(String, String), Item>,
    /// What each registered Pod references: (namespace, names).
    registered: BTreeMap<String, (String, BTreeSet<String>)>,
}

fn selector(name: &str) -> String {
    format!("metadata.name={}", name)
}

impl Manager {
    pub fn new(resource: &str) -> Manager {
        Manager { info: meta::lookup(resource).expect("a served resource"), items: BTreeMap::new(), registered: BTreeMap::new() }
    }

    /// `RegisterPod`: references for the names the Pod uses now, released for those it no
    /// longer uses.
    pub fn register_pod(&mut self, ctx: &mut Ctx, uid: &str, namespace: &str, names: BTreeSet<String>) {
        let before = self.registered.get(uid).map(|(_, n)| n.clone()).unwrap_or_default();
        for name in names.difference(&before) {
            let key = (namespace.to_string(), name.clone());
            let start = !self.items.contains_key(&key);
            let item = self.items.entry(key.clone()).or_default();
            item.refs.insert(uid.to_string());
            if start {
                let listed = ctx.list_and_watch(self.info, namespace, "", &selector(name));
                if let Some(item) = self.items.get_mut(&key) {
                    item.object = listed.into_iter().next().map(Rc::new);
                }
            }
        }
        for name in before.difference(&names) {
            self.release(ctx, uid, namespace, name);
        }
        if names.is_empty() {
            self.registered.remove(uid);
        } else {
            self.registered.insert(uid.to_string(), (namespace.to_string(), names));
        }
    }

    /// Whether the Pod is registered (its references taken).
    pub fn has_pod(&self, uid: &str) -> bool {
        self.registered.contains_key(uid)
    }

    /// `UnregisterPod`.
    pub fn unregister_pod(&mut self, ctx: &mut Ctx, uid: &str) {
        if let Some((ns, names)) = self.registered.remove(uid) {
            for name in names {
                self.release(ctx, uid, &ns, &name);
            }
        }
    }

    fn release(&mut self, ctx: &mut Ctx, uid: &str, namespace: &str, name: &str) {
        let key = (namespace.to_string(), name.to_string());
        let Some(item) = self.items.get_mut(&key) else { return };
        item.refs.remove(uid);
        if item.refs.is_empty() {
            self.items.remove(&key);
            ctx.stop_watch(self.info, namespace, &selector(name));
        }
    }

    /// A watch event of one of the reflectors. Returns whether an object a Pod uses changed.
    pub fn on_watch(&mut self, deleted: bool, object: Rc<Value>) -> bool {
        let key = (meta::namespace(&object).to_string(), meta::name(&object).to_string());
        let Some(item) = self.items.get_mut(&key) else { return false };
        item.object = if deleted { None } else { Some(object) };
        true
    }

    /// `GetConfigMap` / `GetSecret`: the object, or the watch-based manager's NotFound.
    pub fn get(&self, namespace: &str, name: &str) -> Result<Rc<Value>, String> {
        match self.items.get(&(namespace.to_string(), name.to_string())).and_then(|i| i.object.clone()) {
            Some(o) => Ok(o),
            None => Err(format!("{} \"{}\" not found", self.info.singular, name)),
        }
    }

    /// The Pods (uids) that use the object.
    pub fn users(&self, namespace: &str, name: &str) -> Vec<String> {
        self.items.get(&(namespace.to_string(), name.to_string())).map(|i| i.refs.iter().cloned().collect()).unwrap_or_default()
    }
}

/// Every container of the Pod, init containers first (`podutil.VisitContainers`).
fn containers(pod: &Value) -> Vec<&Value> {
    ["initContainers", "containers", "ephemeralContainers"].iter().flat_map(|f| meta::get_array(pod, &["spec", f]).iter()).collect()
}

/// `VisitPodConfigmapNames`: volumes (and projected sources), `envFrom` and `env`.
pub fn pod_configmap_names(pod: &Value) -> BTreeSet<String> {
    pod_names(pod, "configMap", "configMapRef", "configMapKeyRef", "name")
}

/// `VisitPodSecretNames`: image pull secrets, volumes (and projected sources), `envFrom`, `env`.
pub fn pod_secret_names(pod: &Value) -> BTreeSet<String> {
    let mut names = pod_names(pod, "secret", "secretRef", "secretKeyRef", "secretName");
    for r in meta::get_array(pod, &["spec", "imagePullSecrets"]) {
        let n = meta::get_str(r, &["name"]);
        if !n.is_empty() {
            names.insert(n.to_string());
        }
    }
    names
}

fn pod_names(pod: &Value, volume: &str, env_from: &str, key_ref: &str, volume_name_field: &str) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    let mut add = |n: &str| {
        if !n.is_empty() {
            names.insert(n.to_string());
        }
    };
    for v in meta::get_array(pod, &["spec", "volumes"]) {
        if let Some(src) = v.get(volume) {
            add(meta::get_str(src, &[volume_name_field]));
        }
        for s in meta::get_array(v, &["projected", "sources"]) {
            if let Some(src) = s.get(volume) {
                add(meta::get_str(src, &["name"]));
            }
        }
    }
    for c in containers(pod) {
        for e in meta::get_array(c, &["envFrom"]) {
            if let Some(r) = e.get(env_from) {
                add(meta::get_str(r, &["name"]));
            }
        }
        for e in meta::get_array(c, &["env"]) {
            if let Some(r) = meta::get(e, &["valueFrom", key_ref]) {
                add(meta::get_str(r, &["name"]));
            }
        }
    }
    names
}
