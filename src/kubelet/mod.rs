//! kubelet: the node agent. One per node, identity `system:node:NAME`.
//!
//! Real counterpart: `pkg/kubelet` — `kubelet_node_status.go` (registerWithAPIServer, initialNode,
//! setNodeStatus), `kubelet.go` (syncPod), `status/status_manager.go` (pod status patches),
//! `images/image_manager.go` (EnsureImageExists), `kuberuntime/` (the CRI calls).
//!
//! A restart (`sim fault restart kubelet@NODE`) keeps what containerd runs: the new process
//! records its startup events, registers (the Node exists: 409, then a GET), lists its Pods,
//! finds their containers running and writes only the statuses that differ (readiness is
//! re-probed). A cut-off node (`sim node partition`) keeps running its Pods; its failed requests
//! are traced, and once the Lease can be renewed again it reports the node's status and resyncs
//! its Pods' statuses.
//!
//! What kubesim simplifies: the node registers Ready at once; status is reported on the virtual
//! clock every 5 minutes (`nodeStatusReportFrequency`) and the Lease renewed every 10 s; a
//! restart resets only the readiness probes (upstream also re-runs startup probes).

pub mod dns;
pub mod lifecycle;
pub mod envvars;
pub mod manager;
pub mod pods;
pub mod volumes;
pub mod prober;
pub mod stats;

use crate::api::meta::Resource;
use crate::api::request::EventType;
use crate::api::{meta, net, quantity, time};
use crate::api::request::{Identity, Method};
use crate::cluster::{self, Component};
use crate::trace::Actor;
use std::rc::Rc;
use serde_json::{json, Value};

/// How a node looks (what kubelet flags and the machine would decide).
#[derive(Clone, Debug)]
pub struct NodeConfig {
    pub name: String,
    pub cpu: String,
    pub memory: String,
    pub pods: i64,
    pub labels: Vec<(String, String)>,
    pub taints: Vec<(String, String, String)>,
}

impl NodeConfig {
    pub fn new(name: &str) -> NodeConfig {
        NodeConfig { name: name.to_string(), cpu: "4".into(), memory: "8Gi".into(), pods: 110, labels: vec![], taints: vec![] }
    }
}

/// Upstream default `nodeStatusReportFrequency`.
pub const NODE_STATUS_REPORT_MS: i64 = 300_000;
/// The node Lease is renewed every 10 s (`nodeLeaseDurationSeconds` 40 × 0.25).
pub const LEASE_RENEW_MS: i64 = 10_000;
pub const LEASE_DURATION_SECONDS: i64 = 40;
/// Upstream default `evictionHard: memory.available<100Mi`: subtracted from allocatable memory.
pub const EVICTION_HARD_MEMORY_BYTES: i64 = 100 * 1024 * 1024;

/// The kubelet's timers: its two heartbeats and the pod workers' CRI steps.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Timer {
    /// `nodeStatusReportFrequency`: PATCH the Node's status.
    NodeStatus,
    /// `nodeLeaseRenewInterval`: renew the Lease in kube-node-lease.
    Lease,
    Pod(pods::PodTimer),
}

impl std::fmt::Display for Timer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Timer::NodeStatus => f.write_str("node-status"),
            Timer::Lease => f.write_str("lease"),
            Timer::Pod(t) => t.fmt(f),
        }
    }
}

type Ctx<'a> = cluster::Ctx<'a, Timer>;
type Input = cluster::Input<Timer>;

pub struct Kubelet {
    pub cfg: NodeConfig,
    pub index: usize,
    pub running: bool,
    pub pods: pods::PodWorkers,
    /// Set when the kubelet comes back: report node status at the next tick.
    needs_status_report: bool,
    lease_rv: String,
    /// Watch events that arrived while the kubelet was down (its watch re-lists on restart).
    missed: Vec<(EventType, Rc<Value>)>,
    /// How many times this kubelet's process restarted (`sim fault restart kubelet@NODE`).
    restarts: u32,
    /// The node events' recorder (`kl.recorder` with the nodeRef).
    recorder: crate::client::Recorder,
    /// When the node came up (its own processes' CPU counter starts here).
    booted_at: Option<i64>,
}

impl Kubelet {
    pub fn new(cfg: NodeConfig, index: usize) -> Kubelet {
        let recorder = crate::client::Recorder::new("kubelet", &cfg.name);
        let mut pods = pods::PodWorkers::default();
        let q = |s: &str| quantity::parse_quantity_str(s);
        pods.allocatable = (q(&cfg.cpu).map(|q| q.milli_value()).unwrap_or(0), q(&cfg.memory).map(|q| q.value()).unwrap_or(0));
        Kubelet { cfg, index, running: true, pods, needs_status_report: false, lease_rv: String::new(), missed: Vec::new(), restarts: 0, recorder, booted_at: None }
    }

    pub fn node_name(&self) -> &str {
        &self.cfg.name
    }

    pub fn node_ip(&self) -> String {
        format!("192.168.49.{}", self.index + 3)
    }

    /// `initialNode` + the first `setNodeStatus`.
    pub fn initial_node(&self, now_ms: i64) -> Value {
        let name = &self.cfg.name;
        let mut labels = json!({
            "beta.kubernetes.io/arch": "amd64",
            "beta.kubernetes.io/os": "linux",
            "kubernetes.io/arch": "amd64",
            "kubernetes.io/hostname": name,
            "kubernetes.io/os": "linux",
        });
        for (k, v) in &self.cfg.labels {
            labels[k] = json!(v);
        }
        let taints: Vec<Value> = self
            .cfg
            .taints
            .iter()
            .map(|(k, v, e)| if v.is_empty() { json!({"key": k, "effect": e}) } else { json!({"key": k, "value": v, "effect": e}) })
            .collect();
        let mem_bytes = quantity::parse_quantity(&json!(self.cfg.memory)).map(|q| q.value()).unwrap_or(0);
        let cap_mem = format!("{}Ki", mem_bytes / 1024);
        let alloc_mem = format!("{}Ki", (mem_bytes - EVICTION_HARD_MEMORY_BYTES).max(0) / 1024);
        let cpu = self.cfg.cpu.clone();
        let pods = self.cfg.pods.to_string();
        let ts = time::rfc3339(now_ms);
        let cond = |t: &str, s: &str, r: &str, m: &str| {
            json!({"type": t, "status": s, "reason": r, "message": m, "lastHeartbeatTime": ts, "lastTransitionTime": ts})
        };
        // no podCIDR: node IPAM in kube-controller-manager sets it
        let mut spec = json!({});
        if !taints.is_empty() {
            spec["taints"] = json!(taints);
        }
        json!({
            "apiVersion": "v1",
            "kind": "Node",
            "metadata": {
                "name": name,
                "labels": labels,
                "annotations": {
                    "node.alpha.kubernetes.io/ttl": "0",
                    "volumes.kubernetes.io/controller-managed-attach-detach": "true",
                },
            },
            "spec": spec,
            "status": {
                "capacity": {"cpu": cpu, "ephemeral-storage": "102625208Ki", "hugepages-1Gi": "0", "hugepages-2Mi": "0", "memory": cap_mem, "pods": pods},
                "allocatable": {"cpu": cpu, "ephemeral-storage": "94580335255", "hugepages-1Gi": "0", "hugepages-2Mi": "0", "memory": alloc_mem, "pods": pods},
                "conditions": [
                    cond("MemoryPressure", "False", "KubeletHasSufficientMemory", "kubelet has sufficient memory available"),
                    cond("DiskPressure", "False", "KubeletHasNoDiskPressure", "kubelet has no disk pressure"),
                    cond("PIDPressure", "False", "KubeletHasSufficientPID", "kubelet has sufficient PID available"),
                    cond("Ready", "True", "KubeletReady", "kubelet is posting ready status"),
                ],
                "addresses": [{"type": "InternalIP", "address": self.node_ip()}, {"type": "Hostname", "address": name}],
                "daemonEndpoints": {"kubeletEndpoint": {"Port": 10250}},
                "nodeInfo": {
                    "architecture": "amd64",
                    "bootID": format!("{:08x}-0000-4000-8000-{:012x}", self.index + 1, self.index + 1),
                    "containerRuntimeVersion": "containerd://2.1.4",
                    "kernelVersion": "6.8.0-84-generic",
                    "kubeProxyVersion": "",
                    "kubeletVersion": crate::KUBE_VERSION,
                    "machineID": format!("{:032x}", self.index + 1),
                    "operatingSystem": "linux",
                    "osImage": "Ubuntu 24.04.3 LTS",
                    "systemUUID": format!("{:08x}-0000-4000-8000-{:012x}", self.index + 1, 0x5eed),
                },
            },
        })
    }

    /// The node heartbeat: create or renew the Lease in `kube-node-lease` (`pkg/kubelet/nodelease`).
    /// True when the Lease was written; a request that cannot reach kube-apiserver (a
    /// partitioned node) marks the node for a status report once it can again.
    fn renew_lease(&mut self, ctx: &mut Ctx, node_uid: Option<&str>) -> bool {
        let name = self.cfg.name.clone();
        let path = format!("/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/{}", name);
        let mut lease = json!({
            "apiVersion": "coordination.k8s.io/v1",
            "kind": "Lease",
            "metadata": {"name": name, "namespace": "kube-node-lease"},
            "spec": {"holderIdentity": name, "leaseDurationSeconds": LEASE_DURATION_SECONDS, "renewTime": time::rfc3339_micro(ctx.now)},
        });
        if let Some(uid) = node_uid {
            lease["metadata"]["ownerReferences"] = json!([{"apiVersion": "v1", "kind": "Node", "name": name, "uid": uid}]);
            let resp = ctx.request(Method::Post, "/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases", Some(lease));
            self.lease_rv = meta::resource_version(&resp.body).to_string();
            return resp.ok();
        }
        if self.lease_rv.is_empty() {
            let got = ctx.request(Method::Get, &path, None);
            if !got.ok() {
                if got.unreachable() {
                    self.needs_status_report = true;
                }
                return false;
            }
            lease = got.body;
            lease["spec"]["renewTime"] = json!(time::rfc3339_micro(ctx.now));
        } else {
            lease["metadata"]["resourceVersion"] = json!(self.lease_rv);
        }
        let resp = ctx.request(Method::Put, &path, Some(lease));
        self.lease_rv = if resp.ok() { meta::resource_version(&resp.body).to_string() } else { String::new() };
        if resp.unreachable() {
            self.needs_status_report = true;
        }
        resp.ok()
    }

    fn register(&mut self, ctx: &mut Ctx) {
        let node = self.initial_node(ctx.now);
        let resp = ctx.request(Method::Post, "/api/v1/nodes", Some(node));
        if resp.ok() {
            let uid = meta::uid(&resp.body).to_string();
            self.renew_lease(ctx, Some(&uid));
        }
        if resp.code == 409 {
            // "Node was previously registered": read it; kubesim's node needs no reconciling
            // (labels, annotations and resources are as the kubelet would set them)
            ctx.request(Method::Get, &format!("/api/v1/nodes/{}", self.cfg.name), None);
        }
    }

    /// The node events a kubelet records as it starts: `BirthCry`, the container manager's
    /// allocatable enforcement, and `initialNode`'s `setNodeStatus` on a fresh Node object, whose
    /// pressure conditions go from nothing to False (kubesim records them on a restart; a new
    /// cluster's first start is not narrated with them).
    fn startup_events(&mut self, ctx: &mut Ctx) {
        let name = self.cfg.name.clone();
        // `kl.nodeRef`: kind Node, the node's name as its uid, no namespace
        let node_ref = json!({"kind": "Node", "metadata": {"name": name, "uid": name}});
        self.recorder.event(ctx, &node_ref, None, "Normal", "Starting", "Starting kubelet.");
        self.recorder.event(ctx, &node_ref, None, "Normal", "NodeAllocatableEnforced", "Updated Node Allocatable limit across pods");
        for reason in ["NodeHasSufficientMemory", "NodeHasNoDiskPressure", "NodeHasSufficientPID"] {
            self.recorder.event(ctx, &node_ref, None, "Normal", reason, &format!("Node {} status is now: {}", name, reason));
        }
    }

    /// `updatePodCIDR`: a new pod CIDR goes to the runtime (`UpdateRuntimeConfig`), whose CNI
    /// plugin gives Pods their addresses from it. True when it changed.
    fn update_pod_cidr(&mut self, ctx: &mut Ctx, node: &Value) -> bool {
        let cidr = meta::get_array(node, &["spec", "podCIDRs"]).first().and_then(|c| c.as_str()).and_then(net::Cidr::parse);
        let Some(cidr) = cidr else { return false };
        if self.pods.runtime.cni.range() == Some(cidr) {
            return false;
        }
        ctx.runtime_call(&self.cfg.name, "UpdateRuntimeConfig", &format!("podCIDR={}", cidr));
        self.pods.runtime.cni.set_range(cidr);
        ctx.runtime_reply(&self.cfg.name, "UpdateRuntimeConfig", "");
        true
    }

    fn report_status(&mut self, ctx: &mut Ctx) {
        let ts = time::rfc3339(ctx.now);
        let path = format!("/api/v1/nodes/{}/status", self.cfg.name);
        let got = ctx.request(Method::Get, &format!("/api/v1/nodes/{}", self.cfg.name), None);
        if !got.ok() {
            if got.unreachable() {
                self.needs_status_report = true;
            }
            return;
        }
        let mut conds = meta::get(&got.body, &["status", "conditions"]).and_then(|c| c.as_array()).cloned().unwrap_or_default();
        let initial = self.initial_node(ctx.now);
        let fresh = initial["status"]["conditions"].as_array().cloned().unwrap_or_default();
        for c in conds.iter_mut() {
            let t = meta::get_str(c, &["type"]).to_string();
            if let Some(f) = fresh.iter().find(|f| meta::get_str(f, &["type"]) == t) {
                if meta::get_str(c, &["status"]) != meta::get_str(f, &["status"]) {
                    *c = f.clone();
                } else {
                    c["lastHeartbeatTime"] = json!(ts);
                    c["reason"] = f["reason"].clone();
                    c["message"] = f["message"].clone();
                }
            }
        }
        let images = self.pods.node_images();
        ctx.merge_patch(&path, json!({"status": {"conditions": conds, "images": images}}));
    }
}

impl Component for Kubelet {
    type Timer = Timer;

    fn actor(&self) -> Actor {
        Actor::Kubelet(self.cfg.name.clone())
    }

    fn identity(&self) -> Identity {
        Identity {
            username: format!("system:node:{}", self.cfg.name),
            uid: String::new(),
            groups: vec!["system:nodes".into(), "system:authenticated".into()],
            user_agent: format!("kubelet/{} (linux/amd64) kubernetes/{}", crate::KUBE_VERSION, crate::KUBE_COMMIT),
            source_ip: self.node_ip(),
            impersonate: None,
        }
    }

    fn start(&mut self, ctx: &mut Ctx) {
        self.booted_at.get_or_insert(ctx.now);
        if self.restarts > 0 {
            self.startup_events(ctx);
        }
        self.register(ctx);
        let field = format!("spec.nodeName={}", self.cfg.name);
        // the node informer (its own Node only): how the kubelet learns spec.podCIDR
        let me = ctx.list_and_watch(meta::lookup("nodes").expect("nodes"), "", "", &format!("metadata.name={}", self.cfg.name));
        if let Some(n) = me.into_iter().next() {
            self.update_pod_cidr(ctx, &n);
        }
        let pods = ctx.list_and_watch(meta::lookup("pods").expect("pods"), "", "", &field);
        // a restarted kubelet: Pods it runs that are gone from the API are cleaned up
        // (`HandlePodCleanups`); the others it finds running
        let listed: std::collections::BTreeSet<String> = pods.iter().map(|p| meta::uid(p).to_string()).collect();
        for uid in self.pods.uids().into_iter().filter(|u| !listed.contains(u)) {
            let gone = Rc::new(json!({"metadata": {"uid": uid}}));
            self.pods.on_pod(ctx, &self.cfg.name.clone(), &self.node_ip(), EventType::Deleted, gone);
        }
        for p in pods {
            self.pods.on_pod(ctx, &self.cfg.name.clone(), &self.node_ip(), EventType::Added, Rc::new(p));
        }
        if self.restarts > 0 {
            // the status manager's first sync: only what differs from the API is written
            let ip = self.node_ip();
            self.pods.resync_statuses(ctx, &ip);
        }
        // the heartbeats' timers outlive a restart (see `restart_keeps_timers`): arm them once
        if self.restarts == 0 {
            ctx.after_background(NODE_STATUS_REPORT_MS, Timer::NodeStatus);
            ctx.after_background(LEASE_RENEW_MS, Timer::Lease);
        }
    }

    fn handle(&mut self, ctx: &mut Ctx, input: Input) {
        if !self.running {
            // A failed node does nothing; its timers keep ticking (re-armed) so it can recover.
            if let Input::Watch { resource: Resource::Pods, event_type, object } = &input {
                self.missed.push((*event_type, object.clone()));
            }
            match input {
                Input::Timer(Timer::NodeStatus) => ctx.after_background(NODE_STATUS_REPORT_MS, Timer::NodeStatus),
                Input::Timer(Timer::Lease) => ctx.after_background(LEASE_RENEW_MS, Timer::Lease),
                Input::Timer(Timer::Pod(t)) => self.pods.deferred.push(t),
                Input::Watch { .. } => {}
            }
            return;
        }
        let name = self.cfg.name.clone();
        let ip = self.node_ip();
        match input {
            Input::Watch { resource: Resource::Pods, event_type, object } => self.pods.on_pod(ctx, &name, &ip, event_type, object),
            Input::Watch { resource: Resource::Nodes, event_type: EventType::Added | EventType::Modified, object } => {
                if self.update_pod_cidr(ctx, &object) {
                    self.pods.network_ready(ctx, &name);
                }
            }
            Input::Watch { resource: r @ (Resource::ConfigMaps | Resource::Secrets), event_type, object } => self.pods.on_object(ctx, r, event_type, object),
            Input::Watch { .. } => {}
            Input::Timer(Timer::NodeStatus) => {
                self.report_status(ctx);
                ctx.after_background(NODE_STATUS_REPORT_MS, Timer::NodeStatus);
            }
            Input::Timer(Timer::Lease) => {
                let renewed = self.renew_lease(ctx, None);
                // back after a failure or a cut (a status write that found no server)
                let unsent = renewed && std::mem::take(&mut self.pods.unsent);
                if renewed && (self.needs_status_report || unsent) {
                    // back after a failure: the node's conditions changed, report at once
                    self.needs_status_report = false;
                    self.report_status(ctx);
                    for (event_type, pod) in std::mem::take(&mut self.missed) {
                        self.pods.on_pod(ctx, &name, &ip, event_type, pod);
                    }
                    for t in std::mem::take(&mut self.pods.deferred) {
                        self.pods.on_timer(ctx, &name, &ip, t);
                    }
                    // statuses it could not write while cut off or down
                    self.pods.resync_statuses(ctx, &ip);
                }
                ctx.after_background(LEASE_RENEW_MS, Timer::Lease);
            }
            Input::Timer(Timer::Pod(t)) => self.pods.on_timer(ctx, &name, &ip, t),
        }
    }

    /// A new kubelet process on the same node, with what containerd still runs (see
    /// [`pods::PodWorkers::after_restart`]).
    fn restarted(&self) -> Option<Self> {
        // a stopped node's kubelet does not run to be restarted (`sim node recover` first)
        if !self.running {
            return None;
        }
        let mut k = Kubelet::new(self.cfg.clone(), self.index);
        k.pods = self.pods.after_restart();
        k.restarts = self.restarts + 1;
        // the machine did not reboot
        k.booted_at = self.booted_at;
        Some(k)
    }

    /// The runtime's work goes on across a kubelet restart: CRI calls in flight complete and
    /// containers exit on their own, so the kubelet's timers are kept (watch events are lost).
    fn restart_keeps_timers(&self) -> bool {
        true
    }

    fn container_logs(&self, namespace: &str, pod: &str, container: &str, previous: bool, now: i64) -> Option<Result<String, String>> {
        Some(self.pods.container_logs(namespace, pod, container, previous, now))
    }

    fn copy_into_container(&mut self, namespace: &str, pod: &str, container: Option<&str>, path: &str, content: &str) -> Option<Result<(), String>> {
        Some(self.pods.write_file(namespace, pod, container, path, content))
    }

    fn resource_metrics(&mut self, now: i64, rps_of: &dyn Fn(&str) -> f64) -> Option<stats::ResourceMetrics> {
        if !self.running {
            return None;
        }
        let pods = self.pods.resource_metrics(now, rps_of);
        Some(stats::ResourceMetrics::new(&self.cfg.name, now, self.booted_at.unwrap_or(now), pods))
    }

    fn set_running(&mut self, running: bool) {
        if running && !self.running {
            self.needs_status_report = true;
            self.lease_rv.clear();
        }
        self.running = running;
    }
}
