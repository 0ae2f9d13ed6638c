//! ingress-nginx v1.13.0, the Ingress controller minikube's `ingress` addon installs: the
//! `ingress-nginx` namespace, its ServiceAccount and RBAC, the `ingress-nginx-controller`
//! Deployment (ports 80 and 443 as host ports of its node) and NodePort Service, and the
//! IngressClass `nginx` marked as the cluster's default class.
//!
//! Real counterparts: minikube's `deploy/addons/ingress/ingress-deploy.yaml.tmpl` (the manifests
//! below) and ingress-nginx's `internal/ingress/controller/store/store.go` (informers on
//! Ingresses, IngressClasses, Services and EndpointSlices; the `Sync` / `Scheduled for sync`
//! Event on every Ingress it adds or sees change; the class check of `--controller-class`,
//! `--ingress-class` and `--watch-ingress-without-class`), `controller/controller.go` and
//! `nginx.go` (`syncIngress` behind a 0.3/s rate limiter; a changed configuration is a reload and
//! a `RELOAD` Event on the controller's Pod, endpoint changes go to the Lua balancer without one)
//! and `internal/ingress/status/status.go` (at start and every 60 s: the node addresses of the
//! Running and Ready controller Pods, written to every Ingress whose
//! `status.loadBalancer.ingress` differs, with a GET and an `UpdateStatus`). The routing itself
//! is [`controller`]; the request path through nginx is in `cluster/network.rs`.
//!
//! What kubesim simplifies: the admission webhook (its certgen Jobs, Service and
//! ValidatingWebhookConfiguration) is not installed, since kubesim calls no webhooks; the
//! Deployment's `minikube.k8s.io/primary` node selector is dropped (kubesim's nodes are all
//! workers); the process is the component, and runs while a controller Pod is Running (it
//! learns that from a watch on its own Pods); no leader election (one replica writes status);
//! TLS Secrets and the ConfigMaps are not read.

pub mod controller;

use crate::api::meta::{self, Resource};
use crate::api::request::{EventType, Identity, Method};
use crate::client::{Recorder, Store};
use crate::cluster::{self, Component};
use crate::trace::Actor;
use serde_json::{json, Value};

pub const VERSION: &str = "v1.13.0";
pub const NAMESPACE: &str = "ingress-nginx";
/// `--controller-class`.
pub const CONTROLLER_CLASS: &str = "k8s.io/ingress-nginx";
/// `--ingress-class` (the legacy annotation's value it accepts).
pub const INGRESS_CLASS: &str = "nginx";
/// `status.UpdateInterval`.
pub const STATUS_INTERVAL_MS: i64 = 60_000;
/// `--sync-rate-limit` 0.3: one configuration sync every 3.33 s at most.
pub const SYNC_PERIOD_MS: i64 = 3_334;
/// The controller Pods' labels (`k8s.IngressPodDetails`, without `pod-template-hash`).
pub const POD_SELECTOR: &str = "app.kubernetes.io/component=controller,app.kubernetes.io/instance=ingress-nginx,app.kubernetes.io/name=ingress-nginx,gcp-auth-skip-secret=true";

/// minikube's addon manifests (the admission webhook left out: see the module doc).
pub const MANIFESTS: &str = r#"apiVersion: v1
kind: Namespace
metadata:
  labels:
    app.kubernetes.io/instance: ingress-nginx
    app.kubernetes.io/name: ingress-nginx
  name: ingress-nginx
---
apiVersion: v1
automountServiceAccountToken: true
kind: ServiceAccount
metadata:
  labels:
    app.kubernetes.io/component: controller
    app.kubernetes.io/instance: ingress-nginx
    app.kubernetes.io/name: ingress-nginx
  name: ingress-nginx
  namespace: ingress-nginx
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata:
  labels:
    app.kubernetes.io/component: controller
    app.kubernetes.io/instance: ingress-nginx
    app.kubernetes.io/name: ingress-nginx
  name: ingress-nginx
  namespace: ingress-nginx
rules:
- apiGroups:
  - ""
  resources:
  - namespaces
  verbs:
  - get
- apiGroups:
  - ""
  resources:
  - configmaps
  - pods
  - secrets
  - endpoints
  verbs:
  - get
  - list
  - watch
- apiGroups:
  - ""
  resources:
  - services
  verbs:
  - get
  - list
  - watch
- apiGroups:
  - networking.k8s.io
  resources:
  - ingresses
  verbs:
  - get
  - list
  - watch
- apiGroups:
  - networking.k8s.io
  resources:
  - ingresses/status
  verbs:
  - update
- apiGroups:
  - networking.k8s.io
  resources:
  - ingressclasses
  verbs:
  - get
  - list
  - watch
- apiGroups:
  - ""
  resourceNames:
  - ingress-nginx-leader
  resources:
  - configmaps
  verbs:
  - get
  - update
- apiGroups:
  - ""
  resources:
  - configmaps
  verbs:
  - create
- apiGroups:
  - coordination.k8s.io
  resourceNames:
  - ingress-nginx-leader
  resources:
  - leases
  verbs:
  - get
  - update
- apiGroups:
  - coordination.k8s.io
  resources:
  - leases
  verbs:
  - create
- apiGroups:
  - ""
  resources:
  - events
  verbs:
  - create
  - patch
- apiGroups:
  - discovery.k8s.io
  resources:
  - endpointslices
  verbs:
  - list
  - watch
  - get
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  labels:
    app.kubernetes.io/instance: ingress-nginx
    app.kubernetes.io/name: ingress-nginx
  name: ingress-nginx
rules:
- apiGroups:
  - ""
  resources:
  - configmaps
  - endpoints
  - nodes
  - pods
  - secrets
  - namespaces
  verbs:
  - list
  - watch
- apiGroups:
  - coordination.k8s.io
  resources:
  - leases
  verbs:
  - list
  - watch
- apiGroups:
  - ""
  resources:
  - nodes
  verbs:
  - get
- apiGroups:
  - ""
  resources:
  - services
  verbs:
  - get
  - list
  - watch
- apiGroups:
  - networking.k8s.io
  resources:
  - ingresses
  verbs:
  - get
  - list
  - watch
- apiGroups:
  - ""
  resources:
  - events
  verbs:
  - create
  - patch
- apiGroups:
  - networking.k8s.io
  resources:
  - ingresses/status
  verbs:
  - update
- apiGroups:
  - networking.k8s.io
  resources:
  - ingressclasses
  verbs:
  - get
  - list
  - watch
- apiGroups:
  - discovery.k8s.io
  resources:
  - endpointslices
  verbs:
  - list
  - watch
  - get
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata:
  labels:
    app.kubernetes.io/component: controller
    app.kubernetes.io/instance: ingress-nginx
    app.kubernetes.io/name: ingress-nginx
  name: ingress-nginx
  namespace: ingress-nginx
roleRef:
  apiGroup: rbac.authorization.k8s.io
  kind: Role
  name: ingress-nginx
subjects:
- kind: ServiceAccount
  name: ingress-nginx
  namespace: ingress-nginx
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata:
  labels:
    app.kubernetes.io/instance: ingress-nginx
    app.kubernetes.io/name: ingress-nginx
  name: ingress-nginx
roleRef:
  apiGroup: rbac.authorization.k8s.io
  kind: ClusterRole
  name: ingress-nginx
subjects:
- kind: ServiceAccount
  name: ingress-nginx
  namespace: ingress-nginx
---
apiVersion: v1
data:
  hsts: "false"
kind: ConfigMap
metadata:
  labels:
    app.kubernetes.io/component: controller
    app.kubernetes.io/instance: ingress-nginx
    app.kubernetes.io/name: ingress-nginx
  name: ingress-nginx-controller
  namespace: ingress-nginx
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: tcp-services
  namespace: ingress-nginx
  labels:
    app.kubernetes.io/name: ingress-nginx
    app.kubernetes.io/instance: ingress-nginx
    app.kubernetes.io/component: controller
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: udp-services
  namespace: ingress-nginx
  labels:
    app.kubernetes.io/name: ingress-nginx
    app.kubernetes.io/instance: ingress-nginx
    app.kubernetes.io/component: controller
---
apiVersion: v1
kind: Service
metadata:
  labels:
    app.kubernetes.io/component: controller
    app.kubernetes.io/instance: ingress-nginx
    app.kubernetes.io/name: ingress-nginx
  name: ingress-nginx-controller
  namespace: ingress-nginx
spec:
  ipFamilies:
  - IPv4
  ipFamilyPolicy: SingleStack
  ports:
  - name: http
    port: 80
    protocol: TCP
    targetPort: http
    appProtocol: http
  - name: https
    port: 443
    protocol: TCP
    targetPort: https
    appProtocol: https
  selector:
    app.kubernetes.io/component: controller
    app.kubernetes.io/instance: ingress-nginx
    app.kubernetes.io/name: ingress-nginx
  type: NodePort
---
apiVersion: apps/v1
kind: Deployment
metadata:
  labels:
    app.kubernetes.io/component: controller
    app.kubernetes.io/instance: ingress-nginx
    app.kubernetes.io/name: ingress-nginx
  name: ingress-nginx-controller
  namespace: ingress-nginx
spec:
  minReadySeconds: 0
  revisionHistoryLimit: 10
  selector:
    matchLabels:
      app.kubernetes.io/component: controller
      app.kubernetes.io/instance: ingress-nginx
      app.kubernetes.io/name: ingress-nginx
  strategy:
    rollingUpdate:
      maxUnavailable: 1
    type: RollingUpdate
  template:
    metadata:
      labels:
        app.kubernetes.io/component: controller
        app.kubernetes.io/instance: ingress-nginx
        app.kubernetes.io/name: ingress-nginx
        gcp-auth-skip-secret: "true"
    spec:
      containers:
      - args:
        - /nginx-ingress-controller
        - --election-id=ingress-nginx-leader
        - --controller-class=k8s.io/ingress-nginx
        - --watch-ingress-without-class=true
        - --configmap=$(POD_NAMESPACE)/ingress-nginx-controller
        - --tcp-services-configmap=$(POD_NAMESPACE)/tcp-services
        - --udp-services-configmap=$(POD_NAMESPACE)/udp-services
        env:
        - name: POD_NAME
          valueFrom:
            fieldRef:
              fieldPath: metadata.name
        - name: POD_NAMESPACE
          valueFrom:
            fieldRef:
              fieldPath: metadata.namespace
        - name: LD_PRELOAD
          value: /usr/local/lib/libmimalloc.so
        image: registry.k8s.io/ingress-nginx/controller:v1.13.0
        imagePullPolicy: IfNotPresent
        lifecycle:
          preStop:
            exec:
              command:
              - /wait-shutdown
        livenessProbe:
          failureThreshold: 5
          httpGet:
            path: /healthz
            port: 10254
            scheme: HTTP
          initialDelaySeconds: 10
          periodSeconds: 10
          successThreshold: 1
          timeoutSeconds: 1
        name: controller
        ports:
        - containerPort: 80
          hostPort: 80
          name: http
          protocol: TCP
        - containerPort: 443
          hostPort: 443
          name: https
          protocol: TCP
        readinessProbe:
          failureThreshold: 3
          httpGet:
            path: /healthz
            port: 10254
            scheme: HTTP
          initialDelaySeconds: 10
          periodSeconds: 10
          successThreshold: 1
          timeoutSeconds: 1
        resources:
          requests:
            cpu: 100m
            memory: 90Mi
        securityContext:
          allowPrivilegeEscalation: true
          capabilities:
            add:
            - NET_BIND_SERVICE
            drop:
            - ALL
          runAsUser: 101
      dnsPolicy: ClusterFirst
      nodeSelector:
        kubernetes.io/os: linux
      serviceAccountName: ingress-nginx
      terminationGracePeriodSeconds: 0
      tolerations:
      - effect: NoSchedule
        key: node-role.kubernetes.io/master
        operator: Equal
---
apiVersion: networking.k8s.io/v1
kind: IngressClass
metadata:
  annotations:
    ingressclass.kubernetes.io/is-default-class: "true"
  labels:
    app.kubernetes.io/component: controller
    app.kubernetes.io/instance: ingress-nginx
    app.kubernetes.io/name: ingress-nginx
  name: nginx
spec:
  controller: k8s.io/ingress-nginx
"#;

/// The controller's timers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Timer {
    /// `syncIngress`, behind the rate limiter.
    Sync,
    /// The status loop's tick, for the process started `n`-th (a restarted process drops the
    /// old one's ticks).
    Status(u64),
}

impl std::fmt::Display for Timer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Timer::Sync => f.write_str("sync ingress"),
            Timer::Status(_) => f.write_str("sync status"),
        }
    }
}

type Ctx<'a> = cluster::Ctx<'a, Timer>;
type Input = cluster::Input<Timer>;

/// The controller: its informers, what nginx runs, and its status loop.
pub struct IngressNginx {
    ingresses: Store,
    classes: Store,
    services: Store,
    slices: Store,
    /// Secrets (all but Helm's releases): the TLS certificates Ingresses name.
    secrets: Store,
    /// Its own Pods (namespace `ingress-nginx`).
    pods: Store,
    recorder: Recorder,
    /// The configuration nginx runs: None until the first sync of a running process.
    config: Option<controller::Config>,
    running: bool,
    /// Which start of the process the status ticks belong to.
    generation: u64,
    sync_armed: bool,
    last_sync: Option<i64>,
}

impl Default for IngressNginx {
    fn default() -> Self {
        IngressNginx {
            ingresses: Store::default(),
            classes: Store::default(),
            services: Store::default(),
            slices: Store::default(),
            secrets: Store::default(),
            pods: Store::default(),
            recorder: Recorder::new("nginx-ingress-controller", ""),
            config: None,
            running: false,
            generation: 0,
            sync_armed: false,
            last_sync: None,
        }
    }
}

fn is_controller_pod(p: &Value) -> bool {
    meta::get_str(p, &["metadata", "labels", "app.kubernetes.io/component"]) == "controller" && meta::get_str(p, &["metadata", "labels", "app.kubernetes.io/name"]) == "ingress-nginx"
}

fn pod_ready(p: &Value) -> bool {
    meta::get_array(p, &["status", "conditions"]).iter().any(|c| meta::get_str(c, &["type"]) == "Ready" && meta::get_str(c, &["status"]) == "True")
}

impl IngressNginx {
    /// What nginx runs now (None: no controller process, or none synced yet).
    pub fn config(&self) -> Option<&controller::Config> {
        self.config.as_ref()
    }

    /// The Running controller Pod (the process), if any.
    fn process_pod(&self) -> Option<&Value> {
        self.pods.in_namespace(NAMESPACE).find(|p| is_controller_pod(p) && meta::get_str(p, &["status", "phase"]) == "Running" && !meta::is_deleting(p))
    }

    /// The class check (`store.go`): an `ingressClassName` whose IngressClass names this
    /// controller, the legacy annotation `nginx`, or no class at all
    /// (`--watch-ingress-without-class=true`).
    pub fn handles(&self, ing: &Value) -> bool {
        match meta::get(ing, &["spec", "ingressClassName"]).and_then(Value::as_str) {
            Some(class) => self.classes.get(class).map(|c| meta::get_str(c, &["spec", "controller"]) == CONTROLLER_CLASS).unwrap_or(false),
            None => match meta::annotation(ing, "kubernetes.io/ingress.class") {
                Some(c) => c == INGRESS_CLASS,
                None => true,
            },
        }
    }

    fn handled(&self) -> Vec<&Value> {
        let mut ings: Vec<&Value> = self.ingresses.values().filter(|i| self.handles(i)).collect();
        controller::sort_ingresses(&mut ings);
        ings
    }

    /// The store's update channel: a configuration sync, no sooner than the rate limiter allows.
    fn enqueue_sync(&mut self, ctx: &mut Ctx) {
        if !self.running || self.sync_armed {
            return;
        }
        self.sync_armed = true;
        let at = self.last_sync.map(|t| t + SYNC_PERIOD_MS).unwrap_or(ctx.now).max(ctx.now);
        ctx.after(at - ctx.now, Timer::Sync, false);
    }

    /// `syncIngress`: the configuration from the stores; a changed shape is a reload.
    fn sync(&mut self, ctx: &mut Ctx) {
        self.sync_armed = false;
        if !self.running {
            return;
        }
        self.last_sync = Some(ctx.now);
        let next = controller::build(&self.handled(), &self.services, &self.slices, &self.secrets);
        let reload = self.config.as_ref().map(|c| controller::shape(c) != controller::shape(&next)).unwrap_or(true);
        self.config = Some(next);
        if reload {
            if let Some(pod) = self.process_pod().cloned() {
                self.recorder.event(ctx, &pod, None, "Normal", "RELOAD", "NGINX reload triggered due to a change in configuration");
            }
        }
    }

    /// The process starts (its Pod is Running): the store's initial adds, a sync, the status loop.
    fn start_process(&mut self, ctx: &mut Ctx) {
        self.running = true;
        self.generation += 1;
        let ings: Vec<Value> = self.handled().into_iter().cloned().collect();
        for ing in &ings {
            self.recorder.event(ctx, ing, None, "Normal", "Sync", "Scheduled for sync");
        }
        self.enqueue_sync(ctx);
        ctx.after_background(0, Timer::Status(self.generation));
    }

    fn stop_process(&mut self) {
        self.running = false;
        self.config = None;
        self.sync_armed = false;
        self.last_sync = None;
    }

    /// `statusSync.sync`: the addresses of the Running, Ready controller Pods' nodes, written
    /// to every handled Ingress whose status differs.
    fn sync_status(&mut self, ctx: &mut Ctx) {
        let path = format!("/api/v1/namespaces/{}/pods?labelSelector={}", NAMESPACE, crate::api::request::encode_selector(POD_SELECTOR));
        let resp = ctx.request(Method::Get, &path, None);
        if !resp.ok() {
            return;
        }
        let mut addrs: Vec<String> = Vec::new();
        for p in meta::get_array(&resp.body, &["items"]) {
            if meta::get_str(p, &["status", "phase"]) != "Running" || !pod_ready(p) {
                continue;
            }
            // `GetNodeIPOrName`: the node's ExternalIP, else its InternalIP
            let node = ctx.request(Method::Get, &format!("/api/v1/nodes/{}", meta::get_str(p, &["spec", "nodeName"])), None);
            if !node.ok() {
                continue;
            }
            let of = |t: &str| meta::get_array(&node.body, &["status", "addresses"]).iter().find(|a| meta::get_str(a, &["type"]) == t).map(|a| meta::get_str(a, &["address"]).to_string());
            if let Some(ip) = of("ExternalIP").or_else(|| of("InternalIP")) {
                if !addrs.contains(&ip) {
                    addrs.push(ip);
                }
            }
        }
        addrs.sort();
        let want: Vec<Value> = addrs.iter().map(|ip| json!({"ip": ip})).collect();
        let stale: Vec<(String, String)> = self
            .handled()
            .into_iter()
            .filter(|i| meta::get_array(i, &["status", "loadBalancer", "ingress"]) != want.as_slice())
            .map(|i| (meta::namespace(i).to_string(), meta::name(i).to_string()))
            .collect();
        for (ns, name) in stale {
            let path = format!("/apis/networking.k8s.io/v1/namespaces/{}/ingresses/{}", ns, name);
            let cur = ctx.request(Method::Get, &path, None);
            if !cur.ok() {
                continue;
            }
            let mut ing = cur.body;
            meta::set(&mut ing, &["status", "loadBalancer"], if want.is_empty() { json!({}) } else { json!({"ingress": want}) });
            ctx.request(Method::Put, &format!("{}/status", path), Some(ing));
        }
    }
}

impl Component for IngressNginx {
    type Timer = Timer;

    fn restarted(&self) -> Option<Self> {
        Some(Self::default())
    }

    fn actor(&self) -> Actor {
        Actor::IngressNginx
    }

    fn identity(&self) -> Identity {
        Identity {
            username: "system:serviceaccount:ingress-nginx:ingress-nginx".into(),
            uid: String::new(),
            groups: vec!["system:serviceaccounts".into(), "system:serviceaccounts:ingress-nginx".into(), "system:authenticated".into()],
            user_agent: format!("nginx-ingress-controller/{} (linux/amd64) ingress-nginx", VERSION),
            source_ip: String::new(),
            impersonate: None,
        }
    }

    fn start(&mut self, ctx: &mut Ctx) {
        let items = ctx.list_and_watch(Resource::IngressClasses.info(), "", "", "");
        self.classes.replace(items);
        let items = ctx.list_and_watch(Resource::Ingresses.info(), "", "", "");
        self.ingresses.replace(items);
        let items = ctx.list_and_watch(Resource::Services.info(), "", "", "");
        self.services.replace(items);
        let items = ctx.list_and_watch(Resource::EndpointSlices.info(), "", "", "");
        self.slices.replace(items);
        // store.go's secret informer leaves Helm v3's release Secrets out
        let items = ctx.list_and_watch(Resource::Secrets.info(), "", "", "type!=helm.sh/release.v1");
        self.secrets.replace(items);
        let items = ctx.list_and_watch(Resource::Pods.info(), NAMESPACE, "app.kubernetes.io/component=controller", "");
        self.pods.replace(items);
        if self.process_pod().is_some() {
            self.start_process(ctx);
        }
    }

    fn handle(&mut self, ctx: &mut Ctx, input: Input) {
        match input {
            Input::Watch { resource: Resource::Pods, event_type, object } => {
                self.pods.apply_shared(event_type, object);
                match (self.running, self.process_pod().is_some()) {
                    (false, true) => self.start_process(ctx),
                    (true, false) => self.stop_process(),
                    _ => {}
                }
            }
            Input::Watch { resource: Resource::Ingresses, event_type, object } => {
                let old = self.ingresses.apply_shared(event_type, object.clone());
                if !self.running {
                    return;
                }
                let now_valid = event_type != EventType::Deleted && self.handles(&object);
                let was_valid = old.as_deref().map(|o| self.handles(o)).unwrap_or(false);
                if now_valid && (event_type == EventType::Added || old.as_deref() != Some(&*object)) {
                    self.recorder.event(ctx, &object, None, "Normal", "Sync", "Scheduled for sync");
                }
                if now_valid || was_valid {
                    self.enqueue_sync(ctx);
                }
            }
            Input::Watch { resource: Resource::IngressClasses, event_type, object } => {
                self.classes.apply_shared(event_type, object);
                self.enqueue_sync(ctx);
            }
            Input::Watch { resource: Resource::Services, event_type, object } => {
                self.services.apply_shared(event_type, object);
                self.enqueue_sync(ctx);
            }
            Input::Watch { resource: Resource::EndpointSlices, event_type, object } => {
                let old = self.slices.apply_shared(event_type, object.clone());
                if old.as_deref().map(|o| meta::get(o, &["endpoints"]) != meta::get(&object, &["endpoints"])).unwrap_or(true) {
                    self.enqueue_sync(ctx);
                }
            }
            Input::Watch { resource: Resource::Secrets, event_type, object } => {
                // a Secret an Ingress's TLS section names: `syncSecrets`, then a sync
                let key = format!("{}/{}", meta::namespace(&object), meta::name(&object));
                self.secrets.apply_shared(event_type, object);
                let referenced = self.handled().iter().any(|ing| {
                    meta::get_array(ing, &["spec", "tls"]).iter().any(|t| format!("{}/{}", meta::namespace(ing), meta::get_str(t, &["secretName"])) == key)
                });
                if referenced {
                    self.enqueue_sync(ctx);
                }
            }
            Input::Watch { .. } => {}
            Input::Timer(Timer::Sync) => self.sync(ctx),
            Input::Timer(Timer::Status(g)) => {
                if g != self.generation || !self.running {
                    return;
                }
                self.sync_status(ctx);
                ctx.after_background(STATUS_INTERVAL_MS, Timer::Status(g));
            }
        }
    }
}
