//! The node lifecycle controller (`node-controller`) and taint-based eviction.
//!
//! Real counterparts: `pkg/controller/nodelifecycle/node_lifecycle_controller.go`
//! (`monitorNodeHealth`, `tryUpdateNodeHealth`, `MarkPodsNotReady`, the `NoSchedule`/`NoExecute`
//! taints for unreachable nodes) and `pkg/controller/tainteviction/taint_eviction.go` (deleting
//! pods whose toleration of a `NoExecute` taint has run out).
//!
//! Every `nodeMonitorPeriod` (5 s) the controller looks at each node's last heartbeat: the Lease
//! that the kubelet renews every 10 s in `kube-node-lease`, or the Ready condition's
//! `lastHeartbeatTime`. Silent for more than `nodeMonitorGracePeriod` (50 s since v1.32): all
//! node conditions become `Unknown` ("Kubelet stopped posting node status."), the node gets the
//! `node.kubernetes.io/unreachable` taints, its pods are marked not Ready. Pods tolerate the
//! `NoExecute` taint for 300 s (the toleration admission added), then they are evicted — and,
//! because their kubelet is gone, stay `Terminating` while their ReplicaSet creates replacements.
//!
//! What kubesim simplifies: no zone-based rate limiting of evictions; no `NotReady` (False) path,
//! only unreachable (Unknown); the taint-eviction controller runs inside this component.

use crate::api::meta::Resource;
use crate::api::{meta, time};
use crate::api::request::{Identity, Method};
use crate::client::{Recorder, Store};
use crate::cluster::{self, Component};

/// The node lifecycle controller's one timer: `monitorNodeHealth` every `--node-monitor-period`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Timer {
    Monitor,
}

impl std::fmt::Display for Timer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("monitor")
    }
}

type Ctx<'a> = cluster::Ctx<'a, Timer>;
type Input = cluster::Input<Timer>;
use crate::controllers::deployment::controller_identity;
use crate::trace::Actor;
use serde_json::{json, Value};

pub const NODE_MONITOR_PERIOD_MS: i64 = 5_000;
pub const NODE_MONITOR_GRACE_PERIOD_MS: i64 = 50_000;
pub const UNREACHABLE_TAINT: &str = "node.kubernetes.io/unreachable";

pub struct NodeLifecycleController {
    nodes: Store,
    leases: Store,
    pods: Store,
    recorder: Recorder,
    eviction_recorder: Recorder,
}

impl Default for NodeLifecycleController {
    fn default() -> Self {
        NodeLifecycleController {
            nodes: Store::default(),
            leases: Store::default(),
            pods: Store::default(),
            recorder: Recorder::new("node-controller", ""),
            eviction_recorder: Recorder::new("taint-eviction-controller", ""),
        }
    }
}

fn ready_condition(node: &Value) -> Option<&Value> {
    meta::find_condition(meta::get_array(node, &["status", "conditions"]), "Ready")
}

fn has_taint(node: &Value, key: &str, effect: &str) -> Option<Value> {
    meta::get(node, &["spec", "taints"])?
        .as_array()?
        .iter()
        .find(|t| meta::get_str(t, &["key"]) == key && meta::get_str(t, &["effect"]) == effect)
        .cloned()
}

/// How long a pod tolerates a NoExecute taint: None = forever, Some(0) = not at all.
fn toleration_seconds(pod: &Value, key: &str) -> Option<i64> {
    let tols = meta::get(pod, &["spec", "tolerations"]).and_then(|t| t.as_array()).cloned().unwrap_or_default();
    let mut best: Option<Option<i64>> = None;
    for t in tols {
        let k = meta::get_str(&t, &["key"]);
        let op = meta::get_str(&t, &["operator"]);
        let effect = meta::get_str(&t, &["effect"]);
        let key_ok = (k.is_empty() && op == "Exists") || k == key;
        let effect_ok = effect.is_empty() || effect == "NoExecute";
        if key_ok && effect_ok {
            let secs = meta::get_i64(&t, &["tolerationSeconds"]);
            best = Some(match (best.flatten(), secs) {
                (_, None) => None,
                (Some(a), Some(b)) => Some(a.min(b)),
                (None, Some(b)) => Some(b),
            });
            if best == Some(None) {
                return None;
            }
        }
    }
    match best {
        Some(v) => v,
        None => Some(0),
    }
}

impl NodeLifecycleController {
    fn last_heartbeat_ms(&self, node: &Value) -> Option<i64> {
        let name = meta::name(node);
        let lease = self
            .leases
            .get(&format!("kube-node-lease/{}", name))
            .and_then(|l| meta::get(l, &["spec", "renewTime"]))
            .and_then(|t| t.as_str())
            .and_then(time::parse_rfc3339);
        let ready = ready_condition(node).and_then(|c| c.get("lastHeartbeatTime")).and_then(|t| t.as_str()).and_then(time::parse_rfc3339);
        match (lease, ready) {
            (Some(a), Some(b)) => Some(a.max(b)),
            (a, b) => a.or(b),
        }
    }

    fn pods_on(&self, node: &str) -> Vec<Value> {
        self.pods.values().filter(|p| meta::get_str(p, &["spec", "nodeName"]) == node).cloned().collect()
    }

    /// `monitorNodeHealth`.
    fn monitor_node_health(&mut self, ctx: &mut Ctx) {
        let nodes: Vec<std::rc::Rc<Value>> = self.nodes.items.values().cloned().collect();
        for node in nodes {
            let name = meta::name(&node).to_string();
            let ready = ready_condition(&node).map(|c| meta::get_str(c, &["status"]).to_string()).unwrap_or_default();
            let silent_for = self.last_heartbeat_ms(&node).map(|t| ctx.now - t).unwrap_or(0);
            if silent_for > NODE_MONITOR_GRACE_PERIOD_MS && ready != "Unknown" {
                self.mark_unknown(ctx, &node);
            } else if ready == "True" && has_taint(&node, UNREACHABLE_TAINT, "NoExecute").is_some() {
                self.mark_ready(ctx, &node);
            }
            self.evict_expired(ctx, &name);
        }
    }

    fn mark_unknown(&mut self, ctx: &mut Ctx, node: &Value) {
        let name = meta::name(node).to_string();
        let now = time::rfc3339(ctx.now);
        let mut n = node.clone();
        if let Some(conds) = n.pointer_mut("/status/conditions").and_then(|c| c.as_array_mut()) {
            for c in conds.iter_mut() {
                c["status"] = json!("Unknown");
                c["reason"] = json!("NodeStatusUnknown");
                c["message"] = json!("Kubelet stopped posting node status.");
                c["lastTransitionTime"] = json!(now);
            }
        }
        let resp = ctx.request(Method::Put, &format!("/api/v1/nodes/{}/status", name), Some(n));
        if !resp.ok() {
            return;
        }
        self.recorder.event(ctx, node, None, "Normal", "NodeNotReady", &format!("Node {} status is now: NodeNotReady", name));
        // taints: NoSchedule (TaintNodesByCondition) and NoExecute with timeAdded (taint-based eviction)
        let mut taints = meta::get(&resp.body, &["spec", "taints"]).and_then(|t| t.as_array()).cloned().unwrap_or_default();
        taints.retain(|t| meta::get_str(t, &["key"]) != UNREACHABLE_TAINT);
        taints.push(json!({"key": UNREACHABLE_TAINT, "effect": "NoSchedule", "timeAdded": now}));
        taints.push(json!({"key": UNREACHABLE_TAINT, "effect": "NoExecute", "timeAdded": now}));
        ctx.merge_patch(&format!("/api/v1/nodes/{}", name), json!({"spec": {"taints": taints}}));
        // MarkPodsNotReady
        for pod in self.pods_on(&name) {
            let mut p = pod.clone();
            let mut changed = false;
            if let Some(conds) = p.pointer_mut("/status/conditions").and_then(|c| c.as_array_mut()) {
                for c in conds.iter_mut() {
                    if meta::get_str(c, &["type"]) == "Ready" && meta::get_str(c, &["status"]) != "False" {
                        c["status"] = json!("False");
                        c["lastTransitionTime"] = json!(now);
                        changed = true;
                    }
                }
            }
            if changed {
                let path = format!("/api/v1/namespaces/{}/pods/{}/status", meta::namespace(&pod), meta::name(&pod));
                ctx.request(Method::Put, &path, Some(p));
                self.recorder.event(ctx, &pod, None, "Warning", "NodeNotReady", "Node is not ready");
            }
        }
    }

    fn mark_ready(&mut self, ctx: &mut Ctx, node: &Value) {
        let name = meta::name(node).to_string();
        let mut taints = meta::get(node, &["spec", "taints"]).and_then(|t| t.as_array()).cloned().unwrap_or_default();
        taints.retain(|t| meta::get_str(t, &["key"]) != UNREACHABLE_TAINT);
        let body = if taints.is_empty() { json!({"spec": {"taints": null}}) } else { json!({"spec": {"taints": taints}}) };
        ctx.merge_patch(&format!("/api/v1/nodes/{}", name), body);
        self.recorder.event(ctx, node, None, "Normal", "NodeReady", &format!("Node {} status is now: NodeReady", name));
    }

    /// The taint-eviction controller: delete pods whose NoExecute toleration has run out.
    fn evict_expired(&mut self, ctx: &mut Ctx, node_name: &str) {
        let Some(node) = self.nodes.get_shared(node_name).cloned() else { return };
        let Some(taint) = has_taint(&node, UNREACHABLE_TAINT, "NoExecute") else { return };
        let added = meta::get(&taint, &["timeAdded"]).and_then(|t| t.as_str()).and_then(time::parse_rfc3339).unwrap_or(ctx.now);
        for pod in self.pods_on(node_name) {
            if meta::is_deleting(&pod) {
                continue;
            }
            let Some(secs) = toleration_seconds(&pod, UNREACHABLE_TAINT) else { continue };
            if ctx.now >= added + secs * 1000 {
                let ns = meta::namespace(&pod).to_string();
                let name = meta::name(&pod).to_string();
                self.eviction_recorder.event(ctx, &pod, None, "Normal", "TaintManagerEviction", &format!("Marking for deletion Pod {}/{}", ns, name));
                ctx.request(Method::Delete, &format!("/api/v1/namespaces/{}/pods/{}", ns, name), None);
            }
        }
    }
}

impl Component for NodeLifecycleController {
    type Timer = Timer;

    fn restarted(&self) -> Option<Self> {
        Some(Self::default())
    }

    fn actor(&self) -> Actor {
        Actor::NodeController
    }

    fn identity(&self) -> Identity {
        controller_identity("node-controller", "node-controller")
    }

    fn start(&mut self, ctx: &mut Ctx) {
        let n = ctx.list_and_watch(meta::lookup("nodes").expect("nodes"), "", "", "");
        self.nodes.replace(n);
        let l = ctx.list_and_watch(meta::lookup("leases").expect("leases"), "kube-node-lease", "", "");
        self.leases.replace(l);
        let p = ctx.list_and_watch(meta::lookup("pods").expect("pods"), "", "", "");
        self.pods.replace(p);
        ctx.after_background(NODE_MONITOR_PERIOD_MS, Timer::Monitor);
    }

    fn handle(&mut self, ctx: &mut Ctx, input: Input) {
        match input {
            Input::Watch { resource: Resource::Nodes, event_type, object } => {
                self.nodes.apply_shared(event_type, object);
            }
            Input::Watch { resource: Resource::Leases, event_type, object } => {
                self.leases.apply_shared(event_type, object);
            }
            Input::Watch { resource: Resource::Pods, event_type, object } => {
                self.pods.apply_shared(event_type, object);
            }
            Input::Watch { .. } => {}
            Input::Timer(Timer::Monitor) => {
                self.monitor_node_health(ctx);
                ctx.after_background(NODE_MONITOR_PERIOD_MS, Timer::Monitor);
            }
        }
    }
}
