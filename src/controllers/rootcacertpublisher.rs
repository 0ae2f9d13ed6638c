//! The root CA certificate publisher (`root-ca-cert-publisher` in kube-controller-manager).
//!
//! Real counterpart: `pkg/controller/certificates/rootcacertpublisher/publisher.go`
//! (`syncNamespace`): every namespace gets the ConfigMap `kube-root-ca.crt` holding the cluster's
//! CA bundle (`--root-ca-file`) under `ca.crt`, with the `kubernetes.io/description` annotation;
//! a namespace added, or that ConfigMap changed or deleted, syncs its namespace again. Pods read
//! it through their `kube-api-access-*` projected volume, so a Pod cannot start before it exists.
//!
//! What kubesim simplifies: no work queue (a namespace is synced when its event arrives); the CA
//! is a fixed PEM-shaped text, not a real certificate.

use crate::api::meta::Resource;
use crate::api::request::{EventType, Identity, Method};
use crate::api::meta;
use crate::client::Store;
use crate::cluster::{self, Component};
use crate::controllers::deployment::controller_identity;
use crate::controllers::expectations::SyncTimer;
use crate::trace::Actor;
use serde_json::json;

type Ctx<'a> = cluster::Ctx<'a, SyncTimer>;
type Input = cluster::Input<SyncTimer>;

/// `RootCACertConfigMapName`.
pub const ROOT_CA_CONFIG_MAP: &str = "kube-root-ca.crt";
/// `DescriptionAnnotation` and `Description`.
pub const DESCRIPTION_ANNOTATION: &str = "kubernetes.io/description";
pub const DESCRIPTION: &str = "Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. No other usage is guaranteed across distributions of Kubernetes clusters.";

/// The cluster CA (minikube's `minikubeCA`) as a PEM block: 1,066 bytes of deterministic base64
/// in 64-column lines, the size of a real 2048-bit CA certificate's PEM.
pub fn root_ca_pem() -> String {
    let mut rng = crate::sim::Rng::new(0x6d696e696b756265);
    let der: Vec<u8> = (0..798).map(|_| rng.below(256) as u8).collect();
    let b64 = crate::api::base64::encode(&der);
    let mut pem = String::from("-----BEGIN CERTIFICATE-----\n");
    for chunk in b64.as_bytes().chunks(64) {
        pem.push_str(std::str::from_utf8(chunk).unwrap_or(""));
        pem.push('\n');
    }
    pem.push_str("-----END CERTIFICATE-----\n");
    pem
}

#[derive(Default)]
pub struct RootCaCertPublisher {
    namespaces: Store,
    configmaps: Store,
    /// `--root-ca-file`'s content, read once when the controller starts.
    root_ca: String,
}

impl RootCaCertPublisher {
    /// `syncNamespace`.
    fn sync_namespace(&mut self, ctx: &mut Ctx, ns: &str) {
        let Some(n) = self.namespaces.get(ns) else { return };
        if meta::is_deleting(n) || meta::get_str(n, &["status", "phase"]) == "Terminating" {
            return;
        }
        let data = json!({"ca.crt": self.root_ca});
        let path = format!("/api/v1/namespaces/{}/configmaps", ns);
        match self.configmaps.get(&format!("{}/{}", ns, ROOT_CA_CONFIG_MAP)) {
            None => {
                let cm = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": ROOT_CA_CONFIG_MAP, "annotations": {DESCRIPTION_ANNOTATION: DESCRIPTION}}, "data": data});
                // NotFound or a terminating namespace is not retried; kubesim retries nothing
                let _ = ctx.request(Method::Post, &path, Some(cm));
            }
            Some(cm) => {
                if cm.get("data") == Some(&data) && !meta::get_str(cm, &["metadata", "annotations", DESCRIPTION_ANNOTATION]).is_empty() {
                    return;
                }
                let mut cm = cm.clone();
                cm["data"] = data;
                meta::set(&mut cm, &["metadata", "annotations", DESCRIPTION_ANNOTATION], json!(DESCRIPTION));
                let _ = ctx.request(Method::Put, &format!("{}/{}", path, ROOT_CA_CONFIG_MAP), Some(cm));
            }
        }
    }
}

impl Component for RootCaCertPublisher {
    type Timer = SyncTimer;

    fn restarted(&self) -> Option<Self> {
        Some(Self::default())
    }

    fn actor(&self) -> Actor {
        Actor::RootCaCertPublisher
    }

    fn identity(&self) -> Identity {
        controller_identity("root-ca-cert-publisher", "root-ca-cert-publisher")
    }

    fn start(&mut self, ctx: &mut Ctx) {
        self.root_ca = root_ca_pem();
        let cms = ctx.list_and_watch(meta::lookup("configmaps").expect("configmaps"), "", "", &format!("metadata.name={}", ROOT_CA_CONFIG_MAP));
        self.configmaps.replace(cms);
        let nss = ctx.list_and_watch(meta::lookup("namespaces").expect("namespaces"), "", "", "");
        self.namespaces.replace(nss);
        let names: Vec<String> = self.namespaces.items.values().map(|n| meta::name(n).to_string()).collect();
        for ns in names {
            self.sync_namespace(ctx, &ns);
        }
    }

    fn handle(&mut self, ctx: &mut Ctx, input: Input) {
        match input {
            Input::Watch { resource: Resource::Namespaces, event_type, object } => {
                self.namespaces.apply_shared(event_type, object.clone());
                if event_type == EventType::Added {
                    self.sync_namespace(ctx, meta::name(&object));
                }
            }
            Input::Watch { resource: Resource::ConfigMaps, event_type, object } => {
                self.configmaps.apply_shared(event_type, object.clone());
                if meta::name(&object) == ROOT_CA_CONFIG_MAP {
                    self.sync_namespace(ctx, meta::namespace(&object));
                }
            }
            Input::Watch { .. } | Input::Timer(_) => {}
        }
    }
}
