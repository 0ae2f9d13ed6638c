//! kube-scheduler (`default-scheduler`).
//!
//! Real counterpart: `pkg/scheduler/` — `scheduler.go` and `eventhandlers.go` (informers, the
//! scheduler cache), `internal/queue/scheduling_queue.go` (activeQ ordered by PrioritySort,
//! backoffQ, unschedulable pods), `schedule_one.go` (`scheduleOne`, `schedulePod`,
//! `findNodesThatFitPod`, `prioritizeNodes`, `selectHost`, `handleSchedulingFailure`, the binding
//! cycle), and the plugins in [`plugins`].
//!
//! One pod at a time: pop the highest-priority pod, filter every node, score the feasible ones,
//! pick the best (ties broken by the seeded RNG), "assume" it in the cache and POST the `binding`
//! subresource. On failure: the `FailedScheduling` event, the `PodScheduled=False` condition, and
//! the pod waits until a cluster event (node added or changed, pod deleted) could make it fit.
//! Every attempt keeps its per-node, per-plugin verdicts and scores for the page.
//!
//! Preemption: when no node fits and DefaultPreemption finds a node where evicting
//! lower-priority Pods would make room, the victims get `DisruptionTarget`, are deleted and
//! record `Preempted`; the pod's status gets `nominatedNodeName` with its PodScheduled=False
//! condition, and it is tried again (nominated node first) once the victims are gone.
//!
//! What kubesim simplifies: victims are evicted synchronously before the preemptor's status
//! update (v1.34 evicts them asynchronously); PodDisruptionBudgets are not served, so none is
//! respected;
//! of the volume plugins only the pre-filters ([`volumebinding`]); no topology-spread or
//! inter-pod-affinity plugins; the queueing hints are "any node or pod
//! change may help" with upstream's 1 s → 10 s back-off, except that a Node update moves Pods
//! only when one of its scheduling properties changed (`NodeSchedulingPropertiesChange`: a
//! heartbeat is no event).

pub mod plugins;
pub mod volumebinding;

use crate::api::meta::Resource;
use crate::api::request::EventType;
use crate::api::{meta, time};
use crate::api::request::{Identity, Method};
use crate::client::leaderelection::{Election, Step};
use crate::client::{Recorder, Store};
use crate::cluster::{self, Component};
use crate::trace::Actor;
use plugins::{NodeInfo, ScheduleOutcome};
use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;
use crate::sim::sort::CompactSort;

/// Upstream `podInitialBackoffSeconds` / `podMaxBackoffSeconds`.
pub const POD_INITIAL_BACKOFF_MS: i64 = 1_000;
pub const POD_MAX_BACKOFF_MS: i64 = 10_000;
/// Attempts kept for the page (oldest dropped first).
pub const MAX_ATTEMPTS_KEPT: usize = 2_000;
/// Above this many nodes the per-node table of an attempt keeps only the failed nodes and the scores.
pub const FULL_TABLE_MAX_NODES: usize = 100;
/// Scheduling cycle duration on the virtual clock.
pub const SCHEDULING_CYCLE_MS: i64 = 1;

/// The scheduler's timers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Timer {
    /// The scheduling loop takes the next pod from the active queue (`scheduleOne`).
    ScheduleOne,
    /// An unschedulable pod's back-off has passed (`flushBackoffQCompleted`).
    Backoff(String),
    /// An unschedulable pod has waited `podMaxInUnschedulablePodsDuration` (`flushUnschedulablePodsLeftover`).
    Flush(String),
    /// The next try to acquire the Lease `kube-system/kube-scheduler`.
    Acquire,
    /// The next renewal of that Lease.
    Renew,
}

impl std::fmt::Display for Timer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Timer::ScheduleOne => f.write_str("schedule"),
            Timer::Backoff(key) => write!(f, "backoff:{}", key),
            Timer::Flush(key) => write!(f, "flush:{}", key),
            Timer::Acquire => f.write_str("leader-election:acquire"),
            Timer::Renew => f.write_str("leader-election:renew"),
        }
    }
}

type Ctx<'a> = cluster::Ctx<'a, Timer>;
type Input = cluster::Input<Timer>;

/// One scheduling attempt, as kube-scheduler-simulator shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct Attempt {
    /// `namespace/name` of the pod.
    pub pod: String,
    pub time_ms: i64,
    /// `Scheduled to NODE`, or the FailedScheduling message.
    pub result: String,
    pub nodes: Vec<NodeVerdict>,
}

/// What one attempt found on one node.
#[derive(Clone, Debug, PartialEq)]
pub struct NodeVerdict {
    pub node: String,
    /// The filter plugins that ran, in order, up to the first that rejected the node.
    pub filters: Vec<FilterVerdict>,
    /// The score plugins' scores (empty when the node was filtered out).
    pub scores: Vec<plugins::PluginScore>,
    pub total: i64,
}

/// One filter plugin's verdict on one node.
#[derive(Clone, Debug, PartialEq)]
pub struct FilterVerdict {
    pub plugin: String,
    /// `None` when the node passed; the plugin's reason when it did not.
    pub rejected: Option<String>,
}

pub struct Scheduler {
    pods: Store,
    /// PersistentVolumeClaims and StorageClasses, for the volume pre-filters
    claims: Store,
    classes: Store,
    nodes: BTreeMap<String, usize>,
    infos: Vec<NodeInfo>,
    /// pod key -> node it is assumed/bound to
    assigned: BTreeMap<String, String>,
    /// (priority desc, enqueue time, key)
    active: BTreeSet<(i64, i64, String)>,
    /// key -> its entry in `active`
    active_keys: BTreeMap<String, (i64, i64, String)>,
    /// key -> (attempts, time it became unschedulable)
    unschedulable: BTreeMap<String, (u32, i64)>,
    attempts_by_pod: BTreeMap<String, u32>,
    next_start_node_index: usize,
    armed: bool,
    recorder: Recorder,
    attempts: Vec<Attempt>,
    /// `--leader-elect`: the scheduling loop runs only while this process leads.
    election: Option<Election>,
}

impl Default for Scheduler {
    fn default() -> Self {
        Scheduler {
            pods: Store::default(),
            claims: Store::default(),
            classes: Store::default(),
            nodes: BTreeMap::new(),
            infos: Vec::new(),
            assigned: BTreeMap::new(),
            active: BTreeSet::new(),
            active_keys: BTreeMap::new(),
            unschedulable: BTreeMap::new(),
            attempts_by_pod: BTreeMap::new(),
            next_start_node_index: 0,
            armed: false,
            recorder: Recorder::new("default-scheduler", "default-scheduler-control-plane"),
            attempts: Vec::new(),
            election: None,
        }
    }
}

fn is_terminal(p: &Value) -> bool {
    let ph = meta::get_str(p, &["status", "phase"]);
    ph == "Succeeded" || ph == "Failed"
}

fn responsible(p: &Value) -> bool {
    let s = meta::get_str(p, &["spec", "schedulerName"]);
    s.is_empty() || s == "default-scheduler"
}

/// `framework.NodeSchedulingPropertiesChange`, as `updateNodeInCache` uses it: whether a Node
/// update is an event the scheduling queue hears at all — `spec.unschedulable`, allocatable,
/// labels, taints, the conditions' statuses (not their heartbeat times) or annotations changed.
/// A heartbeat-only update moves no unschedulable Pod.
fn node_scheduling_properties_change(old: &Value, new: &Value) -> bool {
    let conditions = |n: &Value| -> BTreeMap<String, String> {
        meta::get_array(n, &["status", "conditions"])
            .iter()
            .map(|c| (meta::get_str(c, &["type"]).to_string(), meta::get_str(c, &["status"]).to_string()))
            .collect()
    };
    let differs = |path: &[&str]| meta::get(old, path) != meta::get(new, path);
    meta::get(old, &["spec", "unschedulable"]).and_then(Value::as_bool).unwrap_or(false) != meta::get(new, &["spec", "unschedulable"]).and_then(Value::as_bool).unwrap_or(false)
        || differs(&["status", "allocatable"])
        || differs(&["metadata", "labels"])
        || differs(&["spec", "taints"])
        || differs(&["metadata", "annotations"])
        || conditions(old) != conditions(new)
}

impl Scheduler {
    /// The attempts kept for the page, oldest first.
    pub fn attempts(&self) -> &[Attempt] {
        &self.attempts
    }

    /// One try of the acquire loop; on winning, the scheduling loop starts.
    fn try_acquire(&mut self, ctx: &mut Ctx) {
        let now = ctx.now;
        let e = self.election.get_or_insert_with(|| Election::new("kube-scheduler", "default-scheduler", now, ctx.cause.unwrap_or(0)));
        if e.acquire(ctx, Timer::Acquire, Timer::Renew) == Step::StartedLeading {
            self.arm(ctx);
        }
    }

    fn leading(&self) -> bool {
        self.election.as_ref().map(|e| e.elector.is_leader()).unwrap_or(false)
    }

    fn arm(&mut self, ctx: &mut Ctx) {
        if !self.armed && self.leading() && !self.active.is_empty() {
            self.armed = true;
            ctx.after(SCHEDULING_CYCLE_MS, Timer::ScheduleOne, false);
        }
    }

    fn enqueue(&mut self, pod: &Value, now: i64) {
        let key = meta::key(pod);
        if self.active_keys.contains_key(&key) {
            return;
        }
        let prio = meta::get_i64(pod, &["spec", "priority"]).unwrap_or(0);
        self.unschedulable.remove(&key);
        let entry = (-prio, now, key.clone());
        self.active.insert(entry.clone());
        self.active_keys.insert(key, entry);
    }

    fn remove_from_queues(&mut self, key: &str) {
        if let Some(e) = self.active_keys.remove(key) {
            self.active.remove(&e);
        }
        self.unschedulable.remove(key);
    }

    fn node_info_mut(&mut self, node: &str) -> Option<&mut NodeInfo> {
        let i = *self.nodes.get(node)?;
        self.infos.get_mut(i)
    }

    fn cache_add_pod(&mut self, pod: &Rc<Value>, node: &str) {
        let key = meta::key(pod);
        if self.assigned.get(&key).map(|n| n == node).unwrap_or(false) {
            // an update of a pod already on this node (status): its requests did not change
            let uid = meta::uid(pod);
            if let Some(ni) = self.node_info_mut(node) {
                if let Some(p) = ni.pods.iter_mut().find(|p| meta::uid(p) == uid) {
                    *p = pod.clone();
                }
            }
            return;
        }
        if let Some(old) = self.assigned.get(&key).cloned() {
            if let Some(ni) = self.node_info_mut(&old) {
                ni.pods.retain(|p| meta::key(p) != key);
                ni.refresh();
            }
        }
        if let Some(ni) = self.node_info_mut(node) {
            ni.pods.push(pod.clone());
            ni.refresh();
            self.assigned.insert(key, node.to_string());
        }
    }

    fn cache_remove_pod(&mut self, key: &str) {
        if let Some(node) = self.assigned.remove(key) {
            if let Some(ni) = self.node_info_mut(&node) {
                ni.pods.retain(|p| meta::key(p) != key);
                ni.refresh();
            }
        }
    }

    /// A cluster event that may make unschedulable pods fit: move them to the active queue, or to
    /// the back-off queue until their back-off (1 s doubling to 10 s, counted from the last
    /// attempt) has passed (`MoveAllToActiveOrBackoffQueue`).
    fn move_all_to_active(&mut self, ctx: &mut Ctx) {
        let entries: Vec<(String, u32, i64)> = self.unschedulable.iter().map(|(k, (n, t))| (k.clone(), *n, *t)).collect();
        for (k, n, last) in entries {
            let backoff = (POD_INITIAL_BACKOFF_MS << (n.saturating_sub(1)).min(4)).min(POD_MAX_BACKOFF_MS);
            let remaining = last + backoff - ctx.now;
            if remaining <= 0 {
                if let Some(p) = self.pods.get(&k).cloned() {
                    if meta::get_str(&p, &["spec", "nodeName"]).is_empty() {
                        self.enqueue(&p, ctx.now);
                    }
                }
            } else {
                ctx.after(remaining, Timer::Backoff(k), false);
            }
        }
    }

    fn on_pod(&mut self, ctx: &mut Ctx, event_type: EventType, pod: Rc<Value>) {
        let key = meta::key(&pod);
        let old = self.pods.apply_shared(event_type, pod.clone());
        let node = meta::get_str(&pod, &["spec", "nodeName"]).to_string();
        if event_type == EventType::Deleted || is_terminal(&pod) {
            self.remove_from_queues(&key);
            let had = self.assigned.contains_key(&key);
            self.cache_remove_pod(&key);
            if had {
                self.move_all_to_active(ctx);
            }
            return;
        }
        if !node.is_empty() {
            self.remove_from_queues(&key);
            self.cache_add_pod(&pod, &node);
            return;
        }
        if !responsible(&pod) || meta::is_deleting(&pod) {
            return;
        }
        // unassigned pod: queue it if new (updates of a pending pod do not requeue it here)
        if old.is_none() {
            self.enqueue(&pod, ctx.now);
            self.arm(ctx);
        }
    }

    fn on_node(&mut self, ctx: &mut Ctx, event_type: EventType, node: Value) {
        let name = meta::name(&node).to_string();
        match (event_type, self.nodes.get(&name).copied()) {
            (EventType::Deleted, Some(i)) => {
                self.infos.remove(i);
                self.nodes = self.infos.iter().enumerate().map(|(i, n)| (n.name().to_string(), i)).collect();
            }
            (EventType::Deleted, None) => {}
            (_, Some(i)) => {
                let changed = node_scheduling_properties_change(&self.infos[i].node, &node);
                let pods = std::mem::take(&mut self.infos[i].pods);
                self.infos[i] = NodeInfo::with_shared_pods(node, pods);
                self.infos[i].refresh();
                if changed {
                    self.move_all_to_active(ctx);
                }
            }
            (_, None) => {
                let mut ni = NodeInfo::new(node, Vec::new());
                ni.refresh();
                self.infos.push(ni);
                self.nodes.insert(name, self.infos.len() - 1);
                self.move_all_to_active(ctx);
            }
        }
    }

    /// `scheduleOne` (the incoming pod's requests are computed once for the whole attempt).
    fn schedule_one(&mut self, ctx: &mut Ctx) {
        plugins::with_requests_memo(|| self.schedule_one_inner(ctx))
    }

    fn schedule_one_inner(&mut self, ctx: &mut Ctx) {
        let Some(first) = self.active.iter().next().cloned() else { return };
        self.active.remove(&first);
        self.active_keys.remove(&first.2);
        let key = first.2;
        let Some(pod) = self.pods.get_shared(&key).cloned() else { return };
        if !meta::get_str(&pod, &["spec", "nodeName"]).is_empty() || meta::is_deleting(&pod) {
            return;
        }
        let tie = ctx.rng.next_u64();
        let (outcome, next, verdicts) = match volumebinding::pre_filter(&pod, &self.claims, &self.classes) {
            Some(st) if !self.infos.is_empty() => (plugins::schedule_rejected_at_pre_filter(&pod, &self.infos, self.next_start_node_index, st), self.next_start_node_index, Vec::new()),
            _ => plugins::schedule_pod_with_verdicts(&pod, &self.infos, self.next_start_node_index, 0, tie),
        };
        self.next_start_node_index = next;
        *self.attempts_by_pod.entry(key.clone()).or_default() += 1;
        let ns = meta::namespace(&pod).to_string();
        let name = meta::name(&pod).to_string();
        match outcome {
            ScheduleOutcome::Scheduled { node, scores, .. } => {
                self.record_attempt(ctx, &pod, &format!("Scheduled to {}", node), &scores, &verdicts);
                // assume, then bind (the binding cycle)
                self.cache_add_pod(&pod, &node);
                let binding = json!({
                    "kind": "Binding",
                    "apiVersion": "v1",
                    "metadata": {"name": name, "namespace": ns, "uid": meta::uid(&pod)},
                    "target": {"kind": "Node", "name": node},
                });
                let resp = ctx.request(Method::Post, &format!("/api/v1/namespaces/{}/pods/{}/binding", ns, name), Some(binding));
                if resp.ok() {
                    let msg = format!("Successfully assigned {}/{} to {}", ns, name, node);
                    self.recorder.event_v1(ctx, &pod, "Normal", "Scheduled", "Binding", &msg);
                } else {
                    // forget the assumed pod and retry
                    self.cache_remove_pod(&key);
                    self.unschedulable.insert(key.clone(), (1, ctx.now));
                    self.move_all_to_active(ctx);
                }
            }
            ScheduleOutcome::Unschedulable { message, preemption, .. } => {
                self.record_attempt(ctx, &pod, &message, &[], &verdicts);
                let nominated = preemption.map(|c| {
                    self.prepare_candidate(ctx, &pod, &c);
                    c.node
                });
                self.handle_scheduling_failure_nominated(ctx, &pod, "Unschedulable", &message, nominated.as_deref());
            }
            ScheduleOutcome::NoNodes => {
                let message = format!("0/0 nodes are available: {}.", plugins::NO_NODES_AVAILABLE_MSG);
                self.record_attempt(ctx, &pod, &message, &[], &verdicts);
                self.handle_scheduling_failure(ctx, &pod, "Unschedulable", &message);
            }
        }
    }

    /// DefaultPreemption's `PrepareCandidate`: each victim gets the `DisruptionTarget` condition,
    /// is deleted (with its own grace period) and records `Preempted`.
    fn prepare_candidate(&mut self, ctx: &mut Ctx, pod: &Value, cand: &plugins::PreemptionCandidate) {
        let scheduler_name = match meta::get_str(pod, &["spec", "schedulerName"]) {
            "" => "default-scheduler",
            s => s,
        }
        .to_string();
        for (ns, name) in &cand.victims {
            let Some(victim) = self.pods.get(&format!("{}/{}", ns, name)).cloned() else { continue };
            let path = format!("/api/v1/namespaces/{}/pods/{}", ns, name);
            let cond = json!({
                "type": "DisruptionTarget",
                "status": "True",
                "reason": "PreemptionByScheduler",
                "message": format!("{}: preempting to accommodate a higher priority pod", scheduler_name),
                "lastTransitionTime": time::rfc3339(ctx.now),
                "observedGeneration": meta::get_i64(&victim, &["metadata", "generation"]).unwrap_or(1),
            });
            let _ = ctx.request_with(crate::api::request::Request {
                method: Method::Patch,
                path: format!("{}/status", path),
                body: Some(json!({"status": {"conditions": [cond]}})),
                patch_type: crate::api::request::PatchType::Strategic,
            });
            let resp = ctx.request(Method::Delete, &path, None);
            if resp.ok() || resp.code == 404 {
                let note = format!("Preempted by pod {} on node {}", meta::uid(pod), cand.node);
                self.recorder.event_v1(ctx, &victim, "Normal", "Preempted", "Preempting", &note);
            }
        }
    }

    /// `handleSchedulingFailure`: event, condition, and park the pod until something changes.
    fn handle_scheduling_failure(&mut self, ctx: &mut Ctx, pod: &Value, reason: &str, message: &str) {
        self.handle_scheduling_failure_nominated(ctx, pod, reason, message, None)
    }

    /// `handleSchedulingFailure`, with the node preemption nominated (`status.nominatedNodeName`,
    /// written in the same status patch as the condition).
    fn handle_scheduling_failure_nominated(&mut self, ctx: &mut Ctx, pod: &Value, reason: &str, message: &str, nominated: Option<&str>) {
        let key = meta::key(pod);
        let n = *self.attempts_by_pod.get(&key).unwrap_or(&1);
        self.unschedulable.insert(key, (n, ctx.now));
        self.recorder.event_v1(ctx, pod, "Warning", "FailedScheduling", "Scheduling", message);
        let current = meta::get(pod, &["status", "conditions"])
            .and_then(|c| c.as_array())
            .and_then(|a| a.iter().find(|c| meta::get_str(c, &["type"]) == "PodScheduled"))
            .cloned();
        let same = current
            .as_ref()
            .map(|c| meta::get_str(c, &["status"]) == "False" && meta::get_str(c, &["reason"]) == reason && meta::get_str(c, &["message"]) == message)
            .unwrap_or(false);
        let nominated_changed = nominated.map(|n| meta::get_str(pod, &["status", "nominatedNodeName"]) != n).unwrap_or(false);
        if !same || nominated_changed {
            let cond = json!({
                "type": "PodScheduled",
                "status": "False",
                "reason": reason,
                "message": message,
                "lastProbeTime": null,
                "lastTransitionTime": time::rfc3339(ctx.now),
                "observedGeneration": meta::get_i64(pod, &["metadata", "generation"]).unwrap_or(1),
            });
            let path = format!("/api/v1/namespaces/{}/pods/{}/status", meta::namespace(pod), meta::name(pod));
            let resp = ctx.request_with(crate::api::request::Request {
                method: Method::Patch,
                path,
                body: Some(match nominated {
                    Some(n) => json!({"status": {"conditions": [cond], "nominatedNodeName": n}}),
                    None => json!({"status": {"conditions": [cond]}}),
                }),
                patch_type: crate::api::request::PatchType::Strategic,
            });
            if resp.ok() {
                self.pods.apply(EventType::Modified, &resp.body);
            }
        }
        // upstream flushes unschedulable pods after podMaxInUnschedulablePodsDuration (5 min)
        ctx.after_background(300_000, Timer::Flush(meta::key(pod)));
    }

    /// Keeps the attempt for the page. `verdicts` are the filter verdicts the search already
    /// computed (by node index); nodes it did not reach are filtered here for the table.
    fn record_attempt(&mut self, ctx: &Ctx, pod: &Value, result: &str, scores: &[plugins::NodeScore], verdicts: &[Option<plugins::Status>]) {
        let full = self.infos.len() <= FULL_TABLE_MAX_NODES;
        let by_node: BTreeMap<&str, &plugins::NodeScore> = scores.iter().map(|s| (s.node.as_str(), s)).collect();
        let mut nodes = Vec::new();
        for (i, ni) in self.infos.iter().enumerate() {
            let score = by_node.get(ni.name()).copied();
            if !full && score.is_none() {
                continue;
            }
            let filters: Vec<FilterVerdict> = if !full {
                vec![]
            } else if let Some(Some(st)) = verdicts.get(i) {
                plugins::filter_trail(st).into_iter().map(|(p, rejected)| FilterVerdict { plugin: p.to_string(), rejected }).collect()
            } else {
                let mut v: Vec<FilterVerdict> = plugins::run_filter_plugins(pod, ni)
                    .into_iter()
                    .map(|(plugin, st)| FilterVerdict { plugin, rejected: (!st.is_success()).then(|| st.message()) })
                    .collect();
                // plugins after the first failure did not run upstream
                if let Some(i) = v.iter().position(|f| f.rejected.is_some()) {
                    v.truncate(i + 1);
                }
                v
            };
            let (scores, total) = score.map(|s| (s.per_plugin.clone(), s.total)).unwrap_or_default();
            nodes.push(NodeVerdict { node: ni.name().to_string(), filters, scores, total });
        }
        if !full {
            // large clusters: keep the 20 best-scored nodes of the attempt, not hundreds
            nodes.csort_by(|a, b| b.total.cmp(&a.total).then(a.node.cmp(&b.node)));
            nodes.truncate(20);
        }
        if self.attempts.len() >= MAX_ATTEMPTS_KEPT {
            self.attempts.drain(..MAX_ATTEMPTS_KEPT / 2);
        }
        self.attempts.push(Attempt { pod: meta::key(pod), time_ms: ctx.now, result: result.to_string(), nodes });
    }
}

impl Component for Scheduler {
    type Timer = Timer;

    fn restarted(&self) -> Option<Self> {
        Some(Self::default())
    }

    fn actor(&self) -> Actor {
        Actor::Scheduler
    }

    fn identity(&self) -> Identity {
        Identity {
            username: "system:kube-scheduler".into(),
            uid: String::new(),
            groups: vec!["system:authenticated".into()],
            user_agent: format!("kube-scheduler/{} (linux/amd64) kubernetes/{}/scheduler", crate::KUBE_VERSION, crate::KUBE_COMMIT),
            source_ip: "192.168.49.2".into(),
            impersonate: None,
        }
    }

    fn start(&mut self, ctx: &mut Ctx) {
        let nodes = ctx.list_and_watch(meta::lookup("nodes").expect("nodes"), "", "", "");
        for n in nodes {
            self.on_node(ctx, EventType::Added, n);
        }
        let claims = ctx.list_and_watch(meta::lookup("persistentvolumeclaims").expect("pvc"), "", "", "");
        self.claims.replace(claims);
        let classes = ctx.list_and_watch(meta::lookup("storageclasses").expect("sc"), "", "", "");
        self.classes.replace(classes);
        let pods = ctx.list_and_watch(meta::lookup("pods").expect("pods"), "", "", "status.phase!=Succeeded,status.phase!=Failed");
        for p in pods {
            self.on_pod(ctx, EventType::Added, Rc::new(p));
        }
        // informers first, then leader election; `sched.Run` once the Lease is won
        self.try_acquire(ctx);
    }

    fn handle(&mut self, ctx: &mut Ctx, input: Input) {
        match input {
            Input::Watch { resource: Resource::Pods, event_type, object } => self.on_pod(ctx, event_type, object),
            Input::Watch { resource: Resource::Nodes, event_type, object } => self.on_node(ctx, event_type, (*object).clone()),
            // VolumeBinding's and VolumeRestrictions' events: a claim added or bound, a class added
            Input::Watch { resource: Resource::PersistentVolumeClaims, event_type, object } => {
                self.claims.apply_shared(event_type, object);
                if event_type != EventType::Deleted {
                    self.move_all_to_active(ctx);
                }
            }
            Input::Watch { resource: Resource::StorageClasses, event_type, object } => {
                self.classes.apply_shared(event_type, object);
                if event_type != EventType::Deleted {
                    self.move_all_to_active(ctx);
                }
            }
            Input::Watch { .. } => {}
            Input::Timer(Timer::Acquire) => self.try_acquire(ctx),
            Input::Timer(Timer::Renew) => {
                let now = ctx.now;
                let e = self.election.get_or_insert_with(|| Election::new("kube-scheduler", "default-scheduler", now, ctx.cause.unwrap_or(0)));
                if e.renew(ctx, Timer::Renew) == Step::Lost {
                    ctx.exit_process();
                }
            }
            Input::Timer(Timer::ScheduleOne) => {
                self.armed = false;
                self.schedule_one(ctx);
            }
            Input::Timer(Timer::Backoff(k) | Timer::Flush(k)) => {
                if self.unschedulable.contains_key(&k) {
                    if let Some(p) = self.pods.get(&k).cloned() {
                        if meta::get_str(&p, &["spec", "nodeName"]).is_empty() {
                            self.enqueue(&p, ctx.now);
                        }
                    }
                }
            }
        }
        self.arm(ctx);
    }

}
