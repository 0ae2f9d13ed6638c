//! kube-scheduler (`default-scheduler`).
//!
//! Real counterpart: `pkg/scheduler/` — `scheduler.go` and `eventhandlers.go` (informers feeding
//! the scheduler cache, [`internal::cache`]), `backend/queue/scheduling_queue.go` (activeQ ordered
//! by PrioritySort, backoffQ, unschedulable pods, queueing hints), `schedule_one.go`
//! (`scheduleOne`, the binding cycle, `handleSchedulingFailure`; the cycle itself is
//! [`schedule_one`]), and the framework with one folder per plugin ([`framework`]).
//!
//! One pod at a time: pop the highest-priority pod, refresh the snapshot from the cache (only the
//! nodes whose generation moved), run the cycle on its `PodInfo` (decoded once), pick the best
//! node (ties broken by the seeded RNG), `AssumePod` in the cache and POST the `binding`
//! subresource (`FinishBinding`, or `ForgetPod` when it fails). On failure: the
//! `FailedScheduling` event, the `PodScheduled=False` condition, and the pod waits in the
//! unschedulable pods until an event that may help it. Every attempt keeps its per-node,
//! per-plugin verdicts and scores for the page.
//!
//! Preemption: when no node fits and DefaultPreemption finds a node where evicting
//! lower-priority Pods would make room, the victims get `DisruptionTarget`, are deleted and
//! record `Preempted`; the pod's status gets `nominatedNodeName` with its PodScheduled=False
//! condition, and it is tried again (nominated node first) once the victims are gone.
//!
//! What kubesim simplifies: victims are evicted synchronously before the preemptor's status
//! update (v1.34 evicts them asynchronously). PodDisruptionBudgets come from its own informer
//! (DefaultPreemption's `pdbLister`). Queueing hints: a deleted Pod or an added Node moves every unschedulable pod; a
//! Node update only when one of its scheduling properties changed
//! (`NodeSchedulingPropertiesChange`: a heartbeat is no event); a Pod newly assigned to a node
//! moves only pods InterPodAffinity or PodTopologySpread rejected, when it matches their
//! affinity terms or spread selectors; upstream's 1 s → 10 s back-off applies.

pub mod framework;
pub mod internal;
#[cfg(not(target_arch = "wasm32"))]
pub mod perf;
pub mod schedule_one;

use crate::api::meta::Resource;
use crate::api::request::EventType;
use crate::api::{meta, time};
use crate::api::request::{Identity, Method};
use crate::client::leaderelection::{Election, Step};
use crate::client::{Recorder, Store};
use crate::cluster::{self, Component};
use crate::trace::Actor;
use framework::interface::{PluginScore, Status};
use framework::listers::Listers;
use framework::plugins::{interpodaffinity, podtopologyspread};
use framework::preemption::PreemptionCandidate;
use framework::types::PodInfo;
use internal::cache::{Cache, Snapshot};
use schedule_one::ScheduleOutcome;
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

/// Why an attempt's node won, from its table: the only feasible node, a tie broken at random,
/// or the plugins whose weighted scores put the winner ahead of the next best node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WinnerReason {
    /// One node passed the filters: chosen without scoring.
    Only { node: String },
    /// Several nodes had the best total; `selectHost` drew `node` among them.
    Tie { node: String, tied: Vec<String>, total: i64 },
    /// `node` led `runner_up` by the `margins` (plugin, weighted difference), largest first.
    Ahead { node: String, total: i64, runner_up: String, runner_up_total: i64, margins: Vec<(&'static str, i64)> },
}

impl Attempt {
    /// The winning node's reason, when the attempt scheduled the pod and its table has the nodes.
    pub fn winner_reason(&self) -> Option<WinnerReason> {
        let node = self.result.strip_prefix("Scheduled to ")?.to_string();
        let scored: Vec<&NodeVerdict> = self.nodes.iter().filter(|n| !n.scores.is_empty()).collect();
        if scored.is_empty() {
            return Some(WinnerReason::Only { node });
        }
        let winner = scored.iter().find(|n| n.node == node)?;
        let tied: Vec<String> = scored.iter().filter(|n| n.total == winner.total).map(|n| n.node.clone()).collect();
        if tied.len() > 1 {
            return Some(WinnerReason::Tie { node, tied, total: winner.total });
        }
        let runner = scored.iter().filter(|n| n.node != node).max_by(|a, b| a.total.cmp(&b.total).then(b.node.cmp(&a.node)))?;
        let mut margins: Vec<(&'static str, i64)> = winner
            .scores
            .iter()
            .map(|s| (s.plugin, s.weighted - runner.scores.iter().find(|r| r.plugin == s.plugin).map(|r| r.weighted).unwrap_or(0)))
            .filter(|(_, d)| *d != 0)
            .collect();
        margins.csort_by(|a, b| b.1.abs().cmp(&a.1.abs()).then(a.0.cmp(b.0)));
        Some(WinnerReason::Ahead { node, total: winner.total, runner_up: runner.node.clone(), runner_up_total: runner.total, margins })
    }
}

/// What one attempt found on one node.
#[derive(Clone, Debug, PartialEq)]
pub struct NodeVerdict {
    pub node: String,
    /// The filter plugins that ran, in order, up to the first that rejected the node.
    pub filters: Vec<FilterVerdict>,
    /// The score plugins' scores (empty when the node was filtered out).
    pub scores: Vec<PluginScore>,
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
    /// Namespaces, Services, ReplicaSets, StatefulSets, claims and classes, for the plugins.
    listers: Listers,
    /// The scheduler cache: NodeInfos with their pods (bound and assumed).
    cache: Cache,
    /// The nodes one cycle reads, refreshed from the cache at the start of each cycle.
    snapshot: Snapshot,
    /// (priority desc, enqueue time, key)
    active: BTreeSet<(i64, i64, String)>,
    /// key -> its entry in `active`
    active_keys: BTreeMap<String, (i64, i64, String)>,
    /// key -> (attempts, time it became unschedulable, the plugins that rejected it)
    unschedulable: BTreeMap<String, (u32, i64, BTreeSet<&'static str>)>,
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
            listers: Listers::default(),
            cache: Cache::default(),
            snapshot: Snapshot::default(),
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

    /// A cluster event that may make unschedulable pods fit: move them to the active queue, or to
    /// the back-off queue until their back-off (1 s doubling to 10 s, counted from the last
    /// attempt) has passed (`MoveAllToActiveOrBackoffQueue`). `hint` is the queueing hint: which
    /// of the unschedulable pods the event may help (all when `None`).
    fn move_to_active_if(&mut self, ctx: &mut Ctx, hint: Option<&dyn Fn(&str, &BTreeSet<&'static str>) -> bool>) {
        let entries: Vec<(String, u32, i64)> = self
            .unschedulable
            .iter()
            .filter(|(k, (_, _, plugins))| hint.map(|h| h(k, plugins)).unwrap_or(true))
            .map(|(k, (n, t, _))| (k.clone(), *n, *t))
            .collect();
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

    fn move_all_to_active(&mut self, ctx: &mut Ctx) {
        self.move_to_active_if(ctx, None)
    }

    /// `AssignedPodAdded` with InterPodAffinity's and PodTopologySpread's queueing hints: a pod
    /// newly placed on a node may satisfy an unschedulable pod's required affinity, or change the
    /// skew of a spread constraint that selects it; other rejections cannot be helped by it.
    fn assigned_pod_added(&mut self, ctx: &mut Ctx, added: &PodInfo) {
        if !self.unschedulable.values().any(|(_, _, p)| p.contains(interpodaffinity::NAME) || p.contains(podtopologyspread::NAME)) {
            return;
        }
        let helped: BTreeSet<String> = self
            .unschedulable
            .iter()
            .filter(|(key, (_, _, plugins))| {
                let Some(p) = self.pods.get_shared(key) else { return false };
                let target = PodInfo::new(p.clone());
                (plugins.contains(interpodaffinity::NAME) && target.required_affinity_terms.iter().any(|t| t.matches(added, None)))
                    || (plugins.contains(podtopologyspread::NAME)
                        && target.namespace == added.namespace
                        && target.topology_spread_constraints.iter().any(|c| c.selector.matches(&added.labels)))
            })
            .map(|(k, _)| k.clone())
            .collect();
        self.move_to_active_if(ctx, Some(&|k: &str, _: &BTreeSet<&'static str>| helped.contains(k)));
    }

    fn on_pod(&mut self, ctx: &mut Ctx, event_type: EventType, pod: Rc<Value>) {
        let key = meta::key(&pod);
        let old = self.pods.apply_shared(event_type, pod.clone());
        let node = meta::get_str(&pod, &["spec", "nodeName"]).to_string();
        if event_type == EventType::Deleted || is_terminal(&pod) {
            self.remove_from_queues(&key);
            if self.cache.remove_pod(&key) {
                self.move_all_to_active(ctx);
            }
            return;
        }
        if !node.is_empty() {
            self.remove_from_queues(&key);
            // `addPodToCache` → `AssignedPodAdded`: a pod the informer sees on its node for the
            // first time, including one this scheduler assumed and bound
            let newly_placed = self.cache.node_of(&key) != Some(node.as_str()) || self.cache.is_assumed(&key);
            let info = Rc::new(PodInfo::new(pod));
            self.cache.add_or_update_pod(info.clone());
            if newly_placed {
                self.assigned_pod_added(ctx, &info);
            }
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

    fn on_node(&mut self, ctx: &mut Ctx, event_type: EventType, node: Rc<Value>) {
        let name = meta::name(&node).to_string();
        let existing = self.cache.node(&name).map(|n| n.node.clone());
        match (event_type, existing) {
            (EventType::Deleted, Some(_)) => self.cache.remove_node(&name),
            (EventType::Deleted, None) => {}
            (_, Some(old)) => {
                let changed = node_scheduling_properties_change(&old, &node);
                self.cache.add_or_update_node(node);
                if changed {
                    self.move_all_to_active(ctx);
                }
            }
            (_, None) => {
                self.cache.add_or_update_node(node);
                self.move_all_to_active(ctx);
            }
        }
    }

    /// `scheduleOne`: the next pod of the active queue, one cycle on a fresh snapshot, then the
    /// binding cycle (assume, POST `binding`) or `handleSchedulingFailure`.
    fn schedule_one(&mut self, ctx: &mut Ctx) {
        let Some(first) = self.active.iter().next().cloned() else { return };
        self.active.remove(&first);
        self.active_keys.remove(&first.2);
        let key = first.2;
        let Some(pod) = self.pods.get_shared(&key).cloned() else { return };
        if !meta::get_str(&pod, &["spec", "nodeName"]).is_empty() || meta::is_deleting(&pod) {
            return;
        }
        let tie = ctx.rng.next_u64();
        self.cache.update_snapshot(&mut self.snapshot);
        let info = Rc::new(PodInfo::new(pod.clone()));
        let cycle = schedule_one::schedule_pod(&info, &self.snapshot, &self.listers, self.next_start_node_index, 0, tie);
        self.next_start_node_index = cycle.next_start_node_index;
        *self.attempts_by_pod.entry(key.clone()).or_default() += 1;
        let ns = meta::namespace(&pod).to_string();
        let name = meta::name(&pod).to_string();
        match &cycle.outcome {
            ScheduleOutcome::Scheduled { node, scores, .. } => {
                self.record_attempt(ctx, &info, &format!("Scheduled to {}", node), scores, &cycle);
                // assume, then bind (the binding cycle)
                self.cache.assume_pod(info.clone(), node);
                let binding = json!({
                    "kind": "Binding",
                    "apiVersion": "v1",
                    "metadata": {"name": name, "namespace": ns, "uid": meta::uid(&pod)},
                    "target": {"kind": "Node", "name": node},
                });
                let resp = ctx.request(Method::Post, &format!("/api/v1/namespaces/{}/pods/{}/binding", ns, name), Some(binding));
                if resp.ok() {
                    self.cache.finish_binding(&key);
                    let msg = format!("Successfully assigned {}/{} to {}", ns, name, node);
                    self.recorder.event_v1(ctx, &pod, "Normal", "Scheduled", "Binding", &msg);
                } else {
                    // forget the assumed pod and retry
                    self.cache.forget_pod(&key);
                    self.unschedulable.insert(key.clone(), (1, ctx.now, BTreeSet::new()));
                    self.move_all_to_active(ctx);
                }
            }
            ScheduleOutcome::Unschedulable { message, preemption, unschedulable_plugins } => {
                self.record_attempt(ctx, &info, message, &[], &cycle);
                let nominated = preemption.as_ref().map(|c| {
                    self.prepare_candidate(ctx, &pod, c);
                    c.node.clone()
                });
                self.handle_scheduling_failure_nominated(ctx, &pod, "Unschedulable", message, nominated.as_deref(), unschedulable_plugins.clone());
            }
            ScheduleOutcome::NoNodes => {
                let message = format!("0/0 nodes are available: {}.", schedule_one::NO_NODES_AVAILABLE_MSG);
                self.record_attempt(ctx, &info, &message, &[], &cycle);
                self.handle_scheduling_failure(ctx, &pod, "Unschedulable", &message);
            }
        }
    }

    /// DefaultPreemption's `PrepareCandidate`: each victim gets the `DisruptionTarget` condition,
    /// is deleted (with its own grace period) and records `Preempted`.
    fn prepare_candidate(&mut self, ctx: &mut Ctx, pod: &Value, cand: &PreemptionCandidate) {
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
        self.handle_scheduling_failure_nominated(ctx, pod, reason, message, None, BTreeSet::new())
    }

    /// `handleSchedulingFailure`, with the node preemption nominated (`status.nominatedNodeName`,
    /// written in the same status patch as the condition).
    fn handle_scheduling_failure_nominated(&mut self, ctx: &mut Ctx, pod: &Value, reason: &str, message: &str, nominated: Option<&str>, plugins: BTreeSet<&'static str>) {
        let key = meta::key(pod);
        let n = *self.attempts_by_pod.get(&key).unwrap_or(&1);
        self.unschedulable.insert(key, (n, ctx.now, plugins));
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

    /// Keeps the attempt for the page. The cycle's verdicts cover the nodes the search
    /// evaluated; nodes it did not reach are filtered here for the table.
    fn record_attempt(&mut self, ctx: &Ctx, pod: &PodInfo, result: &str, scores: &[framework::interface::NodeScore], cycle: &schedule_one::Cycle) {
        let nodes_all = self.snapshot.node_info_list();
        let full = nodes_all.len() <= FULL_TABLE_MAX_NODES;
        let mut nodes = Vec::new();
        if full {
            let by_node: BTreeMap<&str, &framework::interface::NodeScore> = scores.iter().map(|s| (&*s.node, s)).collect();
            for (i, ni) in nodes_all.iter().enumerate() {
                let st: Status = match cycle.verdicts.iter().find(|(j, _)| *j == i) {
                    Some((_, st)) => st.clone(),
                    None => framework::runtime::run_filter_plugins(&cycle.state, pod, ni),
                };
                let filters = framework::runtime::filter_trail(&cycle.state, &st).into_iter().map(|(p, rejected)| FilterVerdict { plugin: p.to_string(), rejected }).collect();
                let (scores, total) = by_node.get(ni.name()).map(|s| (s.per_plugin.to_vec(), s.total)).unwrap_or_default();
                nodes.push(NodeVerdict { node: ni.name().to_string(), filters, scores, total });
            }
        } else {
            // large clusters: keep the 20 best-scored nodes of the attempt, not hundreds
            let mut best: Vec<&framework::interface::NodeScore> = scores.iter().collect();
            best.csort_by(|a, b| b.total.cmp(&a.total).then(a.node.cmp(&b.node)));
            best.truncate(20);
            nodes = best.into_iter().map(|s| NodeVerdict { node: s.node.to_string(), filters: vec![], scores: s.per_plugin.to_vec(), total: s.total }).collect();
        }
        if self.attempts.len() >= MAX_ATTEMPTS_KEPT {
            self.attempts.drain(..MAX_ATTEMPTS_KEPT / 2);
        }
        self.attempts.push(Attempt { pod: pod.key.clone(), time_ms: ctx.now, result: result.to_string(), nodes });
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
            self.on_node(ctx, EventType::Added, Rc::new(n));
        }
        let claims = ctx.list_and_watch(meta::lookup("persistentvolumeclaims").expect("pvc"), "", "", "");
        self.listers.claims.replace(claims);
        let classes = ctx.list_and_watch(meta::lookup("storageclasses").expect("sc"), "", "", "");
        self.listers.classes.replace(classes);
        // the listers InterPodAffinity's namespace selectors and PodTopologySpread's default
        // spreading (DefaultSelector) read
        for ns in ctx.list_and_watch(meta::lookup("namespaces").expect("namespaces"), "", "", "") {
            self.listers.set_namespace(&ns, false);
        }
        for svc in ctx.list_and_watch(meta::lookup("services").expect("services"), "", "", "") {
            self.listers.set_service(&svc, false);
        }
        for rs in ctx.list_and_watch(meta::lookup("replicasets").expect("replicasets"), "", "", "") {
            self.listers.set_replicaset(&rs, false);
        }
        for ss in ctx.list_and_watch(meta::lookup("statefulsets").expect("statefulsets"), "", "", "") {
            self.listers.set_statefulset(&ss, false);
        }
        // DefaultPreemption's pdbLister
        for pdb in ctx.list_and_watch(Resource::PodDisruptionBudgets.info(), "", "", "") {
            self.listers.set_pdb(&pdb, false);
        }
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
            Input::Watch { resource: Resource::Nodes, event_type, object } => self.on_node(ctx, event_type, object),
            Input::Watch { resource: Resource::Namespaces, event_type, object } => self.listers.set_namespace(&object, event_type == EventType::Deleted),
            Input::Watch { resource: Resource::Services, event_type, object } => self.listers.set_service(&object, event_type == EventType::Deleted),
            Input::Watch { resource: Resource::ReplicaSets, event_type, object } => self.listers.set_replicaset(&object, event_type == EventType::Deleted),
            Input::Watch { resource: Resource::StatefulSets, event_type, object } => self.listers.set_statefulset(&object, event_type == EventType::Deleted),
            Input::Watch { resource: Resource::PodDisruptionBudgets, event_type, object } => self.listers.set_pdb(&object, event_type == EventType::Deleted),
            // VolumeBinding's and VolumeRestrictions' events: a claim added or bound, a class added
            Input::Watch { resource: Resource::PersistentVolumeClaims, event_type, object } => {
                self.listers.claims.apply_shared(event_type, object);
                if event_type != EventType::Deleted {
                    self.move_all_to_active(ctx);
                }
            }
            Input::Watch { resource: Resource::StorageClasses, event_type, object } => {
                self.listers.classes.apply_shared(event_type, object);
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
