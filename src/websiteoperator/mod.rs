//! A teaching operator for the `Website` custom resource (`websites.example.com`): the reconcile
//! loop an operator author writes, so the lesson "a custom resource is only data in etcd until a
//! controller acts on it" can be played in the page.
//!
//! Real counterpart: no upstream component — it follows the pattern of kopf's handlers and
//! controller-runtime's reconcilers (sigs.k8s.io/controller-runtime, the kubebuilder book's
//! CronJob tutorial): an informer on its custom resource and on what it owns; for each Website,
//! get-or-create a Deployment and a Service named after it with an ownerReference to the Website
//! (so the garbage collector deletes them with it), update them when the spec changes, write the
//! Website's `status` through its status subresource, and record Events. It waits, as kopf does,
//! until the API server serves its resource (the CRD Established) before it lists and watches.
//!
//! What kubesim simplifies: the operator's process is not a Pod of its own (installed by `sim
//! addon website-operator`: its CRD, namespace, ServiceAccount and RBAC are applied, and the
//! process runs beside the control plane as the other add-ons do); one worker, no resync period,
//! no leader election.

use crate::api::meta::{self, Resource, ResourceInfo};
use crate::api::request::{EventType, Identity, Method, Request};
use crate::client::{Recorder, Store};
use crate::cluster::{self, Component};
use crate::trace::Actor;
use serde_json::{json, Value};

/// The operator's namespace (its ServiceAccount).
pub const NAMESPACE: &str = "website-operator";

/// The add-on's install manifest: the CRD, the namespace, the ServiceAccount and its RBAC.
pub const MANIFESTS: &str = r#"apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: websites.example.com
spec:
  group: example.com
  scope: Namespaced
  names:
    plural: websites
    singular: website
    kind: Website
    shortNames:
    - ws
  versions:
  - name: v1
    served: true
    storage: true
    subresources:
      status: {}
    additionalPrinterColumns:
    - name: Image
      type: string
      jsonPath: .spec.image
    - name: Replicas
      type: integer
      jsonPath: .spec.replicas
    - name: Ready
      type: integer
      jsonPath: .status.readyReplicas
    - name: Age
      type: date
      jsonPath: .metadata.creationTimestamp
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              image:
                type: string
                default: nginx:1.27
              replicas:
                type: integer
                minimum: 0
                maximum: 10
                default: 1
              port:
                type: integer
                default: 80
          status:
            type: object
            properties:
              readyReplicas:
                type: integer
              deployment:
                type: string
---
apiVersion: v1
kind: Namespace
metadata:
  name: website-operator
---
apiVersion: v1
kind: ServiceAccount
metadata:
  name: website-operator
  namespace: website-operator
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: website-operator
rules:
- apiGroups: ["example.com"]
  resources: ["websites"]
  verbs: ["get", "list", "watch"]
- apiGroups: ["example.com"]
  resources: ["websites/status"]
  verbs: ["get", "update", "patch"]
- apiGroups: ["apps"]
  resources: ["deployments"]
  verbs: ["get", "list", "watch", "create", "update", "patch"]
- apiGroups: [""]
  resources: ["services"]
  verbs: ["get", "list", "watch", "create"]
- apiGroups: ["", "events.k8s.io"]
  resources: ["events"]
  verbs: ["create", "patch", "update"]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata:
  name: website-operator
roleRef:
  apiGroup: rbac.authorization.k8s.io
  kind: ClusterRole
  name: website-operator
subjects:
- kind: ServiceAccount
  name: website-operator
  namespace: website-operator
"#;

/// How often the operator looks whether its resource is served yet.
const PROBE_MS: i64 = 1_000;
/// Probes that keep `sim settle` going (then the operator waits in the background).
const FOREGROUND_PROBES: u32 = 10;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Timer {
    /// Is `websites.example.com` served yet?
    Probe,
}

impl std::fmt::Display for Timer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("website-operator: wait for the Website resource")
    }
}

type Ctx<'a> = cluster::Ctx<'a, Timer>;

/// The operator: its informers and its event recorder.
pub struct WebsiteOperator {
    websites: Store,
    deployments: Store,
    info: Option<&'static ResourceInfo>,
    recorder: Recorder,
    /// Probes made while waiting for the resource.
    probes: u32,
}

impl Default for WebsiteOperator {
    fn default() -> Self {
        WebsiteOperator { websites: Store::default(), deployments: Store::default(), info: None, recorder: Recorder::new("website-operator", ""), probes: 0 }
    }
}

/// The resource's facts (the same interned row the API server serves it with).
fn website_info() -> Option<&'static ResourceInfo> {
    meta::custom_info("example.com", "v1", "websites", "website", "Website", true, &["ws".to_string()])
}

fn owned_by(o: &Value, site: &Value) -> bool {
    meta::get_array(o, &["metadata", "ownerReferences"]).iter().any(|r| meta::get_str(r, &["uid"]) == meta::uid(site))
}

impl WebsiteOperator {
    /// The objects a Website owns: a Deployment and a Service named after it.
    fn desired(site: &Value) -> (Value, Value) {
        let (ns, name) = (meta::namespace(site), meta::name(site));
        let image = meta::get_str(site, &["spec", "image"]);
        let replicas = meta::get_i64(site, &["spec", "replicas"]).unwrap_or(1);
        let port = meta::get_i64(site, &["spec", "port"]).unwrap_or(80);
        let owner = json!([{"apiVersion": "example.com/v1", "kind": "Website", "name": name, "uid": meta::uid(site), "controller": true, "blockOwnerDeletion": true}]);
        let labels = json!({"app.kubernetes.io/name": "website", "app.kubernetes.io/instance": name});
        let deployment = json!({
            "apiVersion": "apps/v1", "kind": "Deployment",
            "metadata": {"name": name, "namespace": ns, "labels": labels, "ownerReferences": owner},
            "spec": {"replicas": replicas, "selector": {"matchLabels": labels}, "template": {"metadata": {"labels": labels}, "spec": {"containers": [{"name": "web", "image": image, "ports": [{"containerPort": port}]}]}}}
        });
        let service = json!({
            "apiVersion": "v1", "kind": "Service",
            "metadata": {"name": name, "namespace": ns, "labels": labels, "ownerReferences": owner},
            "spec": {"selector": labels, "ports": [{"port": port, "targetPort": port}]}
        });
        (deployment, service)
    }

    /// The reconcile of one Website: its Deployment and Service as the spec says, then its status.
    fn reconcile(&mut self, ctx: &mut Ctx, key: &str) {
        let Some(site) = self.websites.get(key).map(|v| Value::clone(v)) else { return };
        if meta::is_deleting(&site) {
            return;
        }
        let Some(info) = self.info else { return };
        let (ns, name) = (meta::namespace(&site).to_string(), meta::name(&site).to_string());
        let (deployment, service) = Self::desired(&site);
        let deployments = Resource::Deployments.info();
        match self.deployments.get(key).map(|v| Value::clone(v)) {
            None => {
                let resp = ctx.request_with(Request::new(Method::Post, &deployments.collection_path(&ns), Some(deployment)));
                if resp.ok() {
                    self.recorder.event(ctx, &site, None, "Normal", "Created", &format!("Created Deployment {}", name));
                    let svc = ctx.request_with(Request::new(Method::Post, &Resource::Services.info().collection_path(&ns), Some(service)));
                    if svc.ok() {
                        self.recorder.event(ctx, &site, None, "Normal", "Created", &format!("Created Service {}", name));
                    }
                } else {
                    self.recorder.event(ctx, &site, None, "Warning", "Failed", &format!("Failed to create Deployment {}: {}", name, meta::get_str(&resp.body, &["message"])));
                }
                return;
            }
            Some(current) if owned_by(&current, &site) => {
                // the spec drifted from the Website's: update it
                let want_spec = deployment.get("spec").cloned().unwrap_or(Value::Null);
                let same = meta::get(&current, &["spec", "replicas"]) == want_spec.get("replicas") && meta::get(&current, &["spec", "template", "spec", "containers"]).and_then(|c| c.get(0)).map(|c| meta::get_str(c, &["image"])) == Some(meta::get_str(&site, &["spec", "image"]));
                if !same {
                    let patch = json!({"spec": {"replicas": want_spec["replicas"], "template": want_spec["template"]}});
                    let resp = ctx.request_with(Request { method: Method::Patch, path: deployments.object_path(&ns, &name), body: Some(patch), patch_type: crate::api::request::PatchType::Merge });
                    if resp.ok() {
                        self.recorder.event(ctx, &site, None, "Normal", "Updated", &format!("Updated Deployment {}", name));
                    }
                }
                // status: the Deployment's ready replicas
                let ready = meta::get_i64(&current, &["status", "readyReplicas"]).unwrap_or(0);
                if meta::get_i64(&site, &["status", "readyReplicas"]) != Some(ready) {
                    let mut obj = site.clone();
                    obj["status"] = json!({"readyReplicas": ready, "deployment": name});
                    ctx.request_with(Request::new(Method::Put, &format!("{}/status", info.object_path(&ns, &name)), Some(obj)));
                }
            }
            Some(_) => {
                self.recorder.event(ctx, &site, None, "Warning", "Conflict", &format!("Deployment {} exists and is not owned by this Website", name));
            }
        }
    }

    /// The resource is served: list and watch it, and what it owns, then reconcile everything.
    fn begin(&mut self, ctx: &mut Ctx, info: &'static ResourceInfo) {
        self.info = Some(info);
        let items = ctx.list_and_watch(info, "", "", "");
        self.websites.replace(items);
        let items = ctx.list_and_watch(Resource::Deployments.info(), "", "app.kubernetes.io/name=website", "");
        self.deployments.replace(items);
        let keys: Vec<String> = self.websites.values().map(|w| format!("{}/{}", meta::namespace(w), meta::name(w))).collect();
        for k in keys {
            self.reconcile(ctx, &k);
        }
    }

    fn probe(&mut self, ctx: &mut Ctx) {
        let Some(info) = website_info() else { return };
        // kopf looks the resource up in discovery; kubesim asks for the (empty) list
        let resp = ctx.request_with(Request::get(&format!("{}?limit=1", info.collection_path(""))));
        if resp.ok() {
            self.begin(ctx, info);
            return;
        }
        // the CRD was just applied: its Established condition is a moment away, so the first
        // probes keep the simulation going; later ones wait in the background
        self.probes += 1;
        if self.probes <= FOREGROUND_PROBES {
            ctx.after(PROBE_MS, Timer::Probe, true);
        } else {
            ctx.after_background(PROBE_MS, Timer::Probe);
        }
    }
}

impl Component for WebsiteOperator {
    type Timer = Timer;

    fn actor(&self) -> Actor {
        Actor::WebsiteOperator
    }

    fn identity(&self) -> Identity {
        Identity {
            username: format!("system:serviceaccount:{}:website-operator", NAMESPACE),
            uid: String::new(),
            groups: vec!["system:serviceaccounts".into(), format!("system:serviceaccounts:{}", NAMESPACE), "system:authenticated".into()],
            user_agent: "website-operator/v0.1.0 (linux/amd64) kopf/1.38".into(),
            source_ip: String::new(),
            impersonate: None,
        }
    }

    fn restarted(&self) -> Option<Self> {
        Some(Self::default())
    }

    fn start(&mut self, ctx: &mut Ctx) {
        self.probe(ctx);
    }

    fn handle(&mut self, ctx: &mut Ctx, input: cluster::Input<Timer>) {
        match input {
            cluster::Input::Timer(Timer::Probe) => self.probe(ctx),
            cluster::Input::Watch { resource: Resource::Deployments, event_type, object } => {
                let key = format!("{}/{}", meta::namespace(&object), meta::name(&object));
                self.deployments.apply_shared(event_type, object);
                if self.websites.get(&key).is_some() {
                    self.reconcile(ctx, &key);
                }
            }
            cluster::Input::Watch { resource: Resource::Custom(_), event_type, object } => {
                let key = format!("{}/{}", meta::namespace(&object), meta::name(&object));
                let old = self.websites.apply_shared(event_type, object.clone());
                // a status write of its own needs no reconcile
                let spec_changed = old.as_deref().map(|o| o.get("spec") != object.get("spec")).unwrap_or(true);
                if event_type != EventType::Deleted && spec_changed {
                    self.reconcile(ctx, &key);
                }
            }
            cluster::Input::Watch { .. } => {}
        }
    }
}
