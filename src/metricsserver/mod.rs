//! metrics-server v0.8.0, the cluster's resource metrics pipeline: it scrapes each kubelet's
//! `/metrics/resource` every 15 s and serves `metrics.k8s.io/v1beta1` (NodeMetrics, PodMetrics)
//! through kube-apiserver's aggregation layer, which `kubectl top` and the HPA controller read.
//!
//! Real counterparts: `sigs.k8s.io/metrics-server` — `pkg/scraper` (one scrape of every node per
//! `--metric-resolution`, the node's address from `--kubelet-preferred-address-types` and its
//! port from `--kubelet-use-node-status-port`), `pkg/storage` (`nodeStorage`/`podStorage`: the
//! last two points of each node and container; CPU is the rate between them, so nothing is
//! served before a second scrape; a restarted container starts over), `pkg/api` (`nodeMetrics`,
//! `podMetrics`: `get`/`list` with label selectors, NotFound texts) and `manifests/` (the
//! `components.yaml` of the release, which minikube's `metrics-server` addon also deploys, with
//! its `--kubelet-insecure-tls`).
//!
//! What kubesim simplifies: the scrapes are traced as one GET per node (the samples travel typed,
//! see `kubelet::stats`); the component is the process of the addon's Pod and scrapes only
//! while a `metrics-server` Pod is Running; its storage is not replicated (one replica).

use crate::api::meta::{self, Resource};
use crate::api::quantity::{Format, Quantity};
use crate::api::request::{EventType, Identity, Response};
use crate::api::time;
use crate::client::Store;
use crate::cluster::{self, Component};
use crate::kubelet::stats::ResourceMetrics;
use crate::trace::Actor;
use serde_json::{json, Map, Value};
use std::collections::BTreeMap;

pub const VERSION: &str = "v0.8.0";
/// `--metric-resolution=15s` (the manifest's; the binary's default is 60 s).
pub const RESOLUTION_MS: i64 = 15_000;
pub const GROUP_VERSION: &str = "metrics.k8s.io/v1beta1";

/// The release's `components.yaml` (as minikube's addon deploys it, with `--kubelet-insecure-tls`).
pub const MANIFESTS: &str = r#"apiVersion: v1
kind: ServiceAccount
metadata:
  labels:
    k8s-app: metrics-server
  name: metrics-server
  namespace: kube-system
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  labels:
    k8s-app: metrics-server
    rbac.authorization.k8s.io/aggregate-to-admin: "true"
    rbac.authorization.k8s.io/aggregate-to-edit: "true"
    rbac.authorization.k8s.io/aggregate-to-view: "true"
  name: system:aggregated-metrics-reader
rules:
- apiGroups:
  - metrics.k8s.io
  resources:
  - pods
  - nodes
  verbs:
  - get
  - list
  - watch
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  labels:
    k8s-app: metrics-server
  name: system:metrics-server
rules:
- apiGroups:
  - ""
  resources:
  - nodes/metrics
  verbs:
  - get
- apiGroups:
  - ""
  resources:
  - pods
  - nodes
  verbs:
  - get
  - list
  - watch
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata:
  labels:
    k8s-app: metrics-server
  name: metrics-server-auth-reader
  namespace: kube-system
roleRef:
  apiGroup: rbac.authorization.k8s.io
  kind: Role
  name: extension-apiserver-authentication-reader
subjects:
- kind: ServiceAccount
  name: metrics-server
  namespace: kube-system
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata:
  labels:
    k8s-app: metrics-server
  name: metrics-server:system:auth-delegator
roleRef:
  apiGroup: rbac.authorization.k8s.io
  kind: ClusterRole
  name: system:auth-delegator
subjects:
- kind: ServiceAccount
  name: metrics-server
  namespace: kube-system
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata:
  labels:
    k8s-app: metrics-server
  name: system:metrics-server
roleRef:
  apiGroup: rbac.authorization.k8s.io
  kind: ClusterRole
  name: system:metrics-server
subjects:
- kind: ServiceAccount
  name: metrics-server
  namespace: kube-system
---
apiVersion: v1
kind: Service
metadata:
  labels:
    k8s-app: metrics-server
  name: metrics-server
  namespace: kube-system
spec:
  ports:
  - name: https
    port: 443
    protocol: TCP
    targetPort: https
  selector:
    k8s-app: metrics-server
---
apiVersion: apps/v1
kind: Deployment
metadata:
  labels:
    k8s-app: metrics-server
  name: metrics-server
  namespace: kube-system
spec:
  selector:
    matchLabels:
      k8s-app: metrics-server
  strategy:
    rollingUpdate:
      maxUnavailable: 0
  template:
    metadata:
      labels:
        k8s-app: metrics-server
    spec:
      containers:
      - args:
        - --cert-dir=/tmp
        - --secure-port=10250
        - --kubelet-preferred-address-types=InternalIP,ExternalIP,Hostname
        - --kubelet-use-node-status-port
        - --metric-resolution=15s
        - --kubelet-insecure-tls
        image: registry.k8s.io/metrics-server/metrics-server:v0.8.0
        imagePullPolicy: IfNotPresent
        livenessProbe:
          failureThreshold: 3
          httpGet:
            path: /livez
            port: https
            scheme: HTTPS
          periodSeconds: 10
        name: metrics-server
        ports:
        - containerPort: 10250
          name: https
          protocol: TCP
        readinessProbe:
          failureThreshold: 3
          httpGet:
            path: /readyz
            port: https
            scheme: HTTPS
          initialDelaySeconds: 20
          periodSeconds: 10
        resources:
          requests:
            cpu: 100m
            memory: 200Mi
        securityContext:
          allowPrivilegeEscalation: false
          capabilities:
            drop:
            - ALL
          readOnlyRootFilesystem: true
          runAsNonRoot: true
          runAsUser: 1000
          seccompProfile:
            type: RuntimeDefault
        volumeMounts:
        - mountPath: /tmp
          name: tmp-dir
      nodeSelector:
        kubernetes.io/os: linux
      priorityClassName: system-cluster-critical
      serviceAccountName: metrics-server
      volumes:
      - emptyDir: {}
        name: tmp-dir
---
apiVersion: apiregistration.k8s.io/v1
kind: APIService
metadata:
  labels:
    k8s-app: metrics-server
  name: v1beta1.metrics.k8s.io
spec:
  group: metrics.k8s.io
  groupPriorityMinimum: 100
  insecureSkipTLSVerify: true
  service:
    name: metrics-server
    namespace: kube-system
  version: v1beta1
  versionPriority: 100
"#;

/// metrics-server's timer: the scrape loop's tick.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Timer {
    Scrape,
}

impl std::fmt::Display for Timer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("scrape")
    }
}

type Ctx<'a> = cluster::Ctx<'a, Timer>;
type Input = cluster::Input<Timer>;

/// A point of a counter: when, CPU nanoseconds, working-set bytes (and a container's start).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Point {
    at_ms: i64,
    cpu_ns: u64,
    memory: i64,
    start_ms: i64,
}

/// The last two points of a series (`prev`, `last`).
#[derive(Clone, Debug, Default)]
struct Series {
    prev: Option<Point>,
    last: Option<Point>,
}

impl Series {
    fn push(&mut self, p: Point) {
        // a restarted container is a new series
        if self.last.map(|l| l.start_ms != p.start_ms || l.cpu_ns > p.cpu_ns).unwrap_or(false) {
            self.prev = None;
        } else {
            self.prev = self.last;
        }
        self.last = Some(p);
    }

    /// (nanocores, bytes, timestamp, window) once two points exist.
    fn rate(&self) -> Option<(i64, i64, i64, i64)> {
        let (p, l) = (self.prev?, self.last?);
        let window = l.at_ms - p.at_ms;
        if window <= 0 {
            return None;
        }
        let nanocores = ((l.cpu_ns - p.cpu_ns) as f64 * 1000.0 / window as f64) as i64;
        Some((nanocores, l.memory, l.at_ms, window))
    }
}

#[derive(Default)]
pub struct MetricsServer {
    nodes: Store,
    pods: Store,
    node_series: BTreeMap<String, Series>,
    /// (namespace, pod) → container → series
    pod_series: BTreeMap<(String, String), BTreeMap<String, Series>>,
}

/// `resource.NewScaledQuantity(nanocores, -9)` and `resource.NewQuantity(bytes, BinarySI)` as
/// metrics-server encodes usage.
fn usage(nanocores: i64, bytes: i64) -> Value {
    json!({"cpu": Quantity::new_nano(nanocores, Format::DecimalSI).canonical(), "memory": Quantity::new(bytes, Format::BinarySI).canonical()})
}

/// A Go `time.Duration` as metav1.Duration prints it (`15s`, `15.001s`).
fn duration(ms: i64) -> String {
    if ms % 1000 == 0 {
        format!("{}s", ms / 1000)
    } else {
        format!("{}.{:03}s", ms / 1000, ms % 1000).trim_end_matches('0').to_string()
    }
}

fn not_found(resource: &str, name: &str) -> Response {
    Response {
        code: 404,
        body: json!({"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure", "message": format!("{}.metrics.k8s.io \"{}\" not found", resource, name), "reason": "NotFound", "details": {"name": name, "group": "metrics.k8s.io", "kind": resource}, "code": 404}),
    }
}

impl MetricsServer {
    /// The addon's process runs: a `metrics-server` Pod of kube-system is Running.
    fn running(&self) -> bool {
        self.pods.in_namespace("kube-system").any(|p| meta::get_str(p, &["metadata", "labels", "k8s-app"]) == "metrics-server" && meta::get_str(p, &["status", "phase"]) == "Running" && !meta::is_deleting(p))
    }

    /// `--kubelet-preferred-address-types=InternalIP,…` and `--kubelet-use-node-status-port`:
    /// `IP:PORT`.
    fn kubelet_address(node: &Value) -> String {
        let addrs = meta::get_array(node, &["status", "addresses"]);
        let ip = ["InternalIP", "ExternalIP", "Hostname"].iter().find_map(|t| addrs.iter().find(|a| meta::get_str(a, &["type"]) == *t).map(|a| meta::get_str(a, &["address"]).to_string())).unwrap_or_default();
        let port = meta::get_i64(node, &["status", "daemonEndpoints", "kubeletEndpoint", "Port"]).unwrap_or(10250);
        format!("{}:{}", ip, port)
    }

    /// One tick of the scrape loop: every node, then the storage.
    fn scrape(&mut self, ctx: &mut Ctx) {
        if !self.running() {
            // no process: nothing scraped, nothing kept
            self.node_series.clear();
            self.pod_series.clear();
            return;
        }
        let nodes: Vec<(String, String)> = self.nodes.items.values().map(|n| (meta::name(n).to_string(), Self::kubelet_address(n))).collect();
        let mut got: Vec<ResourceMetrics> = Vec::new();
        for (name, endpoint) in nodes {
            if let Ok(m) = ctx.scrape_kubelet(&name, &endpoint) {
                got.push(m);
            }
        }
        let mut seen = std::collections::BTreeSet::new();
        for m in got {
            self.node_series.entry(m.node.clone()).or_default().push(Point { at_ms: m.at_ms, cpu_ns: m.node_cpu_ns, memory: m.node_memory_bytes, start_ms: 0 });
            for p in m.pods {
                let key = (p.namespace.clone(), p.name.clone());
                let entry = self.pod_series.entry(key.clone()).or_default();
                entry.retain(|c, _| p.containers.iter().any(|x| &x.name == c));
                for c in &p.containers {
                    entry.entry(c.name.clone()).or_default().push(Point { at_ms: m.at_ms, cpu_ns: c.cpu_ns, memory: c.memory_bytes, start_ms: c.start_ms });
                }
                seen.insert(key);
            }
        }
        // pods no longer reported are dropped
        self.pod_series.retain(|k, _| seen.contains(k));
    }

    fn node_metrics(&self, node: &Value, now: i64) -> Option<Value> {
        let (cpu, mem, at, window) = self.node_series.get(meta::name(node))?.rate()?;
        Some(json!({
            "metadata": {"name": meta::name(node), "creationTimestamp": time::rfc3339(now), "labels": meta::get(node, &["metadata", "labels"]).cloned().unwrap_or(json!({}))},
            "timestamp": time::rfc3339(at),
            "window": duration(window),
            "usage": usage(cpu, mem),
        }))
    }

    /// A Pod's metrics: only when every container it reported has two points.
    fn pod_metrics(&self, pod: &Value, now: i64) -> Option<Value> {
        let series = self.pod_series.get(&(meta::namespace(pod).to_string(), meta::name(pod).to_string()))?;
        let mut containers = Vec::new();
        let (mut at, mut window) = (0, 0);
        for (name, s) in series {
            let (cpu, mem, t, w) = s.rate()?;
            at = at.max(t);
            window = window.max(w);
            containers.push(json!({"name": name, "usage": usage(cpu, mem)}));
        }
        if containers.is_empty() {
            return None;
        }
        Some(json!({
            "metadata": {"name": meta::name(pod), "namespace": meta::namespace(pod), "creationTimestamp": time::rfc3339(now), "labels": meta::get(pod, &["metadata", "labels"]).cloned().unwrap_or(json!({}))},
            "timestamp": time::rfc3339(at),
            "window": duration(window),
            "containers": containers,
        }))
    }

    fn list(kind: &str, items: Vec<Value>) -> Response {
        Response { code: 200, body: json!({"kind": format!("{}List", kind), "apiVersion": GROUP_VERSION, "metadata": {}, "items": items}) }
    }
}

/// A parsed label selector: (key, operator, value) requirements.
type Requirements = Vec<(String, String, String)>;

/// The query's `labelSelector`, parsed (a bad one: a 400 as the generic registry answers).
fn label_selector(query: &str) -> Result<Option<Requirements>, Response> {
    let Some(raw) = query.split('&').find_map(|kv| kv.strip_prefix("labelSelector=")) else { return Ok(None) };
    let raw = crate::api::request::percent_decode(raw);
    meta::parse_label_selector(&raw).map(Some).map_err(|e| Response { code: 400, body: json!({"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure", "message": e, "reason": "BadRequest", "code": 400}) })
}

impl Component for MetricsServer {
    type Timer = Timer;

    fn restarted(&self) -> Option<Self> {
        Some(Self::default())
    }

    fn actor(&self) -> Actor {
        Actor::MetricsServer
    }

    fn identity(&self) -> Identity {
        Identity {
            username: "system:serviceaccount:kube-system:metrics-server".into(),
            uid: String::new(),
            groups: vec!["system:serviceaccounts".into(), "system:serviceaccounts:kube-system".into(), "system:authenticated".into()],
            user_agent: format!("metrics-server/{} (linux/amd64) kubernetes/$Format", VERSION),
            source_ip: String::new(),
            impersonate: None,
        }
    }

    fn start(&mut self, ctx: &mut Ctx) {
        let nodes = ctx.list_and_watch(Resource::Nodes.info(), "", "", "");
        self.nodes.replace(nodes);
        let pods = ctx.list_and_watch(Resource::Pods.info(), "", "", "");
        self.pods.replace(pods);
        ctx.after_background(RESOLUTION_MS, Timer::Scrape);
    }

    fn handle(&mut self, ctx: &mut Ctx, input: Input) {
        match input {
            Input::Watch { resource: Resource::Nodes, event_type, object } => {
                if event_type == EventType::Deleted {
                    self.node_series.remove(meta::name(&object));
                }
                self.nodes.apply_shared(event_type, object);
            }
            Input::Watch { resource: Resource::Pods, event_type, object } => {
                if event_type == EventType::Deleted {
                    self.pod_series.remove(&(meta::namespace(&object).to_string(), meta::name(&object).to_string()));
                }
                self.pods.apply_shared(event_type, object);
            }
            Input::Watch { .. } => {}
            Input::Timer(Timer::Scrape) => {
                self.scrape(ctx);
                ctx.after_background(RESOLUTION_MS, Timer::Scrape);
            }
        }
    }

    /// `metrics.k8s.io/v1beta1`: discovery, `nodes`, `pods` (all namespaces or one), by name.
    fn aggregated(&self, path: &str, now: i64) -> Option<Response> {
        let (path, query) = path.split_once('?').unwrap_or((path, ""));
        let rest = path.strip_prefix("/apis/metrics.k8s.io/v1beta1")?;
        if !self.running() {
            return None;
        }
        let sel = match label_selector(query) {
            Ok(s) => s,
            Err(r) => return Some(r),
        };
        let empty = Map::new();
        let matches = |o: &Value| sel.as_ref().map(|s| meta::label_selector_matches(s, meta::get(o, &["metadata", "labels"]).and_then(Value::as_object).unwrap_or(&empty))).unwrap_or(true);
        let parts: Vec<&str> = rest.trim_matches('/').split('/').filter(|p| !p.is_empty()).collect();
        let resp = match parts.as_slice() {
            [] => Response {
                code: 200,
                body: json!({"kind": "APIResourceList", "apiVersion": "v1", "groupVersion": GROUP_VERSION, "resources": [
                    {"name": "nodes", "singularName": "", "namespaced": false, "kind": "NodeMetrics", "verbs": ["get", "list"]},
                    {"name": "pods", "singularName": "", "namespaced": true, "kind": "PodMetrics", "verbs": ["get", "list"]}
                ]}),
            },
            ["nodes"] => Self::list("NodeMetrics", self.nodes.items.values().filter(|n| matches(n)).filter_map(|n| self.node_metrics(n, now)).collect()),
            ["nodes", name] => match self.nodes.items.values().find(|n| meta::name(n) == *name).and_then(|n| self.node_metrics(n, now)) {
                Some(m) => Response { code: 200, body: with_kind(m, "NodeMetrics") },
                None => not_found("nodes", name),
            },
            ["pods"] => Self::list("PodMetrics", self.pods.items.values().filter(|p| matches(p)).filter_map(|p| self.pod_metrics(p, now)).collect()),
            ["namespaces", ns, "pods"] => Self::list("PodMetrics", self.pods.in_namespace(ns).filter(|p| matches(p)).filter_map(|p| self.pod_metrics(p, now)).collect()),
            ["namespaces", ns, "pods", name] => match self.pods.get(&format!("{}/{}", ns, name)).and_then(|p| self.pod_metrics(p, now)) {
                Some(m) => Response { code: 200, body: with_kind(m, "PodMetrics") },
                None => not_found("pods", &format!("{}/{}", ns, name)),
            },
            _ => Response { code: 404, body: json!({"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure", "message": "the server could not find the requested resource", "reason": "NotFound", "details": {}, "code": 404}) },
        };
        Some(resp)
    }
}

fn with_kind(mut m: Value, kind: &str) -> Value {
    let mut out = Map::new();
    out.insert("kind".into(), json!(kind));
    out.insert("apiVersion".into(), json!(GROUP_VERSION));
    if let Value::Object(o) = &mut m {
        for (k, v) in std::mem::take(o) {
            out.insert(k, v);
        }
    }
    Value::Object(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// CPU is a rate between the last two points; a restart starts a new series.
    #[test]
    fn series_rates() {
        let mut s = Series::default();
        s.push(Point { at_ms: 0, cpu_ns: 0, memory: 10, start_ms: 0 });
        assert_eq!(s.rate(), None);
        // 15 s at 200 millicores: 3e9 ns
        s.push(Point { at_ms: 15_000, cpu_ns: 3_000_000_000, memory: 12, start_ms: 0 });
        assert_eq!(s.rate(), Some((200_000_000, 12, 15_000, 15_000)));
        s.push(Point { at_ms: 30_000, cpu_ns: 1_000, memory: 5, start_ms: 29_000 });
        assert_eq!(s.rate(), None);
        assert_eq!(usage(200_000_000, 12 * 1024 * 1024), json!({"cpu": "200m", "memory": "12Mi"}));
        assert_eq!(usage(51_234_567, 3_000_000), json!({"cpu": "51234567n", "memory": "3000000"}));
        assert_eq!((duration(15_000), duration(15_002)), ("15s".to_string(), "15.002s".to_string()));
    }
}
