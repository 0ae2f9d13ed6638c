//! The story of a timeline: which steps a post about Kubernetes would show ("story" level), the
//! chapters they fall into (kubectl → kube-apiserver → etcd; the deployment controller creates the
//! ReplicaSet; the replicaset controller creates the Pods; the scheduler binds them; the kubelets
//! run the containers; status flows back), jumps (next etcd write, Event, message of a component)
//! and the closing summary.
//!
//! No upstream counterpart: this is the page's reading of the trace. Every judgement here is made
//! from the trace message and the etcd state around it (the object before and after the write a
//! request caused), never from a component's private state.

use super::i18n::{duration, fill, tr, Lang};
use super::model::{parse_key, Session};
use crate::api::meta;
use crate::api::request::EventType;
use crate::trace::{Actor, MessageKind};
use serde_json::Value;

/// What a story step is about: the chapter it belongs to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Phase {
    /// kubectl → kube-apiserver → etcd (the request, its admission and its write).
    Client,
    /// A controller reacting to a watch event and writing objects.
    Controller(Actor),
    /// The scheduler choosing a node and creating the binding.
    Schedule,
    /// A kubelet and its container runtime running (or stopping) containers.
    Kubelet,
    /// Status reported back: readiness of Pods, ready and available counts of their owners.
    Status,
    /// A request on the data path (DNS, iptables, the Pod that answers).
    Network,
    /// An injected fault (a component crash and restart).
    Fault,
}

impl Phase {
    /// The translation key of the chapter title and the actor it names, if any.
    pub fn title_key(&self) -> (&'static str, Option<&Actor>) {
        match self {
            Phase::Client => ("ch.client", None),
            Phase::Controller(Actor::DeploymentController) => ("ch.dc", None),
            Phase::Controller(Actor::ReplicaSetController) => ("ch.rsc", None),
            Phase::Controller(a) => ("ch.controller", Some(a)),
            Phase::Schedule => ("ch.sched", None),
            Phase::Kubelet => ("ch.kubelet", None),
            Phase::Status => ("ch.status", None),
            Phase::Network => ("ch.net", None),
            Phase::Fault => ("ch.fault", None),
        }
    }
}

/// A chapter: the story steps of one phase within one round of one command. Its marks on the
/// timeline sit at its first step; a step belongs to the chapter of what it does (a binding is
/// in the scheduler's chapter whatever comes before it), so chapters of a round interleave on
/// the timeline when the controllers, the scheduler and the kubelets work at once.
#[derive(Clone, Debug, PartialEq)]
pub struct Chapter {
    pub start: usize,
    pub phase: Phase,
    pub segment: usize,
    /// Index into [`StoryIndex::rounds`].
    pub round: usize,
}

/// A round of a command: it begins when a controller acts again after Pods moved on (a rolling
/// update's next scale-up and scale-down, a StatefulSet's next Pod), so a rollout reads as
/// rounds and their number follows the rollout's steps, not its replica count.
#[derive(Clone, Debug, PartialEq)]
pub struct Round {
    pub segment: usize,
    pub start: usize,
    /// Its number within the command (0-based) .
    pub number: usize,
    /// What the controllers scaled in it: (ReplicaSet, replicas before, after).
    pub scales: Vec<(String, i64, i64)>,
}

/// At most this many story steps of one kind (the same components, the same verb and resource,
/// in the same round and chapter): the first Pods of a thousand tell the story, the rest repeat
/// it, so the story's length follows what happened, not the replica count.
pub const SAME_KIND_MAX: u8 = 3;

/// The story of a timeline, kept by the session and extended as commands add steps: which steps
/// the story level visits, their chapters and rounds.
#[derive(Clone, Debug, Default)]
pub struct StoryIndex {
    /// Per step: its chapter (index into `chapters`) when it is a story step.
    pub of_step: Vec<Option<u32>>,
    /// Per step: the story steps among steps[..=i].
    rank: Vec<u32>,
    /// Indices of the story steps, in order.
    pub steps: Vec<usize>,
    pub chapters: Vec<Chapter>,
    pub rounds: Vec<Round>,
    /// key(round, signature) -> story steps of that kind so far (a map type the session already
    /// uses: no new code in the page for it).
    seen: std::collections::BTreeMap<u64, usize>,
    /// key(round, phase) -> chapter.
    chapter_of: std::collections::BTreeMap<u64, usize>,
    /// The latest story phase's rank in the current round.
    last_rank: u8,
}

impl StoryIndex {
    /// The number of story steps at or before position `pos` (1-based: the story step shown).
    pub fn rank_at(&self, pos: usize) -> usize {
        if pos == 0 {
            0
        } else {
            self.rank.get(pos - 1).or(self.rank.last()).copied().unwrap_or(0) as usize
        }
    }

    /// The story step at or before position `pos` (its step index).
    pub fn last_story_step(&self, pos: usize) -> Option<usize> {
        let r = self.rank_at(pos);
        (r > 0).then(|| self.steps[r - 1])
    }

    /// The rounds of a command (segment).
    pub fn rounds_of(&self, segment: usize) -> impl Iterator<Item = &Round> {
        self.rounds.iter().filter(move |r| r.segment == segment)
    }
}

/// Where a phase sits in the chain a request travels (a controller acting after the chain moved
/// past it begins a new round).
fn chain_rank(p: &Phase) -> u8 {
    match p {
        Phase::Client => 0,
        Phase::Controller(Actor::ReplicaSetController) => 2,
        Phase::Controller(_) => 1,
        Phase::Schedule => 3,
        Phase::Kubelet => 4,
        Phase::Status => 5,
        Phase::Network => 6,
        Phase::Fault => 7,
    }
}

/// What kind of step this is, names left out: the components, and the verb and resource (or the
/// watch event's type and kind, the runtime call, the etcd key's resource).
fn signature(m: &crate::trace::Message) -> String {
    let what = match &m.kind {
        MessageKind::Request { method, info, .. } => format!("{} {}/{}", method, info.resource, info.subresource),
        MessageKind::Response { code, .. } => code.to_string(),
        MessageKind::EtcdTxn { op, key, .. } => format!("{} {}", op, parse_key(key).0),
        MessageKind::Watch { event_type, kind, .. } => format!("{} {}", event_type, kind),
        MessageKind::Runtime { call, detail } => format!("{} {}", call, if detail == "error" { "error" } else { "" }),
        MessageKind::Net { what, .. } => what.clone(),
        MessageKind::Fault { what, .. } => what.clone(),
        MessageKind::Timer { what } => what.clone(),
    };
    format!("{}>{} {}", m.from, m.to, what)
}

/// A key for (round, text): FNV-1a of the text, mixed with the round.
fn key(round: usize, text: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325 ^ (round as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    for b in text.bytes() {
        h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// The ReplicaSets whose spec.replicas a controller's request changed: (name, before, after).
fn scales_of(s: &Session, i: usize) -> Vec<(String, i64, i64)> {
    writes_of(s, i)
        .iter()
        .filter(|(key, _)| parse_key(key).0 == "replicasets")
        .filter_map(|(key, rev)| {
            let after = s.value_of_key(key, *rev)?;
            let before = s.value_of_key(key, rev - 1);
            let n = |o: &Value| meta::get_i64(o, &["spec", "replicas"]).unwrap_or(1);
            let (b, a) = (before.as_ref().map(n).unwrap_or(0), n(&after));
            (b != a).then(|| (meta::name(&after).to_string(), b, a))
        })
        .collect()
}

/// Which kind of step to jump to.
#[derive(Clone, Debug, PartialEq)]
pub enum Jump {
    Chapter,
    /// A step of the story level.
    Story,
    EtcdWrite,
    /// A request that records an Event (core/v1 or events.k8s.io/v1).
    Event,
    /// A message sent or received by this component (kubelets and runtimes by node-less name).
    Component(String),
}

/// The component name a jump by component compares (`kubelet` for every `kubelet@node-N`).
pub fn component_of(a: &Actor) -> String {
    let name = a.to_string();
    match name.split_once('@') {
        Some((base, _)) => base.to_string(),
        None => name,
    }
}

/// The etcd writes a request caused (they follow it directly in the trace): (key, revision).
pub fn writes_of(s: &Session, i: usize) -> Vec<(String, i64)> {
    let id = s.steps[i].msg.id;
    s.steps[i + 1..]
        .iter()
        .take_while(|x| matches!(x.msg.kind, MessageKind::EtcdTxn { .. }))
        .filter(|x| x.msg.cause == Some(id))
        .filter_map(|x| match &x.msg.kind {
            MessageKind::EtcdTxn { key, revision, .. } => Some((key.clone(), *revision)),
            _ => None,
        })
        .collect()
}

fn counts(o: &Value) -> [i64; 6] {
    let f = |k: &str| meta::get_i64(o, &["status", k]).unwrap_or(0);
    [f("readyReplicas"), f("availableReplicas"), f("numberReady"), f("numberAvailable"), f("succeeded"), f("failed")]
}

/// A Pod's readiness and how its containers are doing, as far as a story cares.
fn pod_story_state(o: &Value) -> (String, String, Vec<String>) {
    let ready = meta::get_array(o, &["status", "conditions"]).iter().find(|c| meta::get_str(c, &["type"]) == "Ready").map(|c| meta::get_str(c, &["status"]).to_string()).unwrap_or_default();
    let phase = meta::get_str(o, &["status", "phase"]).to_string();
    let reasons = meta::get_array(o, &["status", "containerStatuses"])
        .iter()
        .map(|c| {
            let w = meta::get_str(c, &["state", "waiting", "reason"]);
            let t = meta::get_str(c, &["state", "terminated", "reason"]);
            format!("{}{}", w, t)
        })
        .filter(|r| !r.is_empty() && r != "ContainerCreating" && r != "PodInitializing")
        .collect();
    (ready, phase, reasons)
}

/// Whether a status write changed what a story tells: a Pod became Ready (or not), finished, or
/// its containers got a new waiting/terminated reason; an owner's ready/available counts moved.
fn status_changed(s: &Session, i: usize) -> bool {
    writes_of(s, i).iter().any(|(key, rev)| {
        let (Some(after), before) = (s.value_of_key(key, *rev), s.value_of_key(key, rev - 1)) else {
            return false;
        };
        if parse_key(key).0 == "pods" {
            let b = before.as_ref().map(pod_story_state).unwrap_or_default();
            let a = pod_story_state(&after);
            a.0 != b.0 && !(b.0.is_empty() && a.0 == "False") || a.1 != b.1 && (a.1 == "Succeeded" || a.1 == "Failed") || a.2 != b.2 && !a.2.is_empty()
        } else {
            let b = before.as_ref().map(counts).unwrap_or_default();
            b != counts(&after)
        }
    })
}

/// The controller that acts on a watch event of this kind (the one a post shows receiving it).
fn acting_on(kind: &str) -> Option<Actor> {
    Some(match kind {
        "Deployment" => Actor::DeploymentController,
        "ReplicaSet" => Actor::ReplicaSetController,
        "DaemonSet" => Actor::DaemonSetController,
        "StatefulSet" => Actor::StatefulSetController,
        "Job" => Actor::JobController,
        "CronJob" => Actor::CronJobController,
        "Namespace" => Actor::NamespaceController,
        "PersistentVolumeClaim" => Actor::PersistentVolumeController,
        _ => return None,
    })
}

/// Whether step `i` is a story step, and its chapter's phase.
pub fn classify(s: &Session, i: usize) -> Option<Phase> {
    let st = &s.steps[i];
    let m = &st.msg;
    let in_apply = || s.segments.get(st.segment).map(|g| g.command.starts_with("kubectl apply")).unwrap_or(false);
    let cause = || m.cause.and_then(|c| s.step_of(c)).map(|k| &s.steps[k]);
    match &m.kind {
        MessageKind::Request { method, info, .. } => {
            let verb = method.as_str();
            match &m.from {
                Actor::Kubectl if verb == "GET" && in_apply() => None,
                Actor::Kubectl => Some(Phase::Client),
                Actor::ApiServer => None,
                _ if verb == "GET" || info.resource == "events" || info.resource == "leases" || info.verb == "watch" => None,
                Actor::Kubelet(_)
                | Actor::NodeController
                | Actor::DeploymentController
                | Actor::ReplicaSetController
                | Actor::StatefulSetController
                | Actor::DaemonSetController
                | Actor::JobController
                    if info.subresource == "status" =>
                {
                    status_changed(s, i).then_some(Phase::Status)
                }
                _ if info.subresource == "status" => None,
                Actor::Kubelet(_) if info.resource == "nodes" => None,
                Actor::Kubelet(_) => Some(Phase::Kubelet),
                Actor::Scheduler => Some(Phase::Schedule),
                Actor::EndpointsController | Actor::EndpointSliceController | Actor::ResourceQuotaController | Actor::DisruptionController | Actor::NodeIpamController => None,
                a => Some(Phase::Controller(a.clone())),
            }
        }
        MessageKind::Response { code, .. } => (m.to == Actor::Kubectl && *code >= 400 && !(in_apply() && *code == 404)).then_some(Phase::Client),
        MessageKind::EtcdTxn { key, revision, .. } if key.starts_with("/registry/leases/kube-system/") => {
            // a leader-election Lease changing hands (a renewal keeps its holder)
            let holder = |v: &serde_json::Value| meta::get_str(v, &["spec", "holderIdentity"]).to_string();
            let new = s.value_of_key(key, *revision)?;
            let changed = s.value_of_key(key, revision - 1).map(|o| holder(&o) != holder(&new)).unwrap_or(true);
            changed.then_some(Phase::Fault)
        }
        MessageKind::EtcdTxn { key, .. } => {
            let c = cause()?;
            (c.msg.from == Actor::Kubectl && !key.starts_with("/registry/events/")).then_some(Phase::Client)
        }
        MessageKind::Watch { event_type, kind, .. } => {
            // caused by a write that was not a status update or an Event
            let c = cause()?;
            let MessageKind::Request { info, .. } = &c.msg.kind else {
                return None;
            };
            if info.subresource == "status" || info.resource == "events" {
                return None;
            }
            match (&m.to, *kind) {
                (Actor::Scheduler, "Pod") => {
                    let MessageKind::Watch { name, namespace, resource_version, .. } = &m.kind else {
                        return None;
                    };
                    let rv = *resource_version;
                    let o = s.value_of_key(&format!("/registry/pods/{}/{}", namespace, name), rv)?;
                    (*event_type == EventType::Added && meta::get_str(&o, &["spec", "nodeName"]).is_empty()).then_some(Phase::Schedule)
                }
                (Actor::Kubelet(_), "Pod") => {
                    // ADDED: bound to this node; MODIFIED by a DELETE: graceful termination begins
                    let by_delete = matches!(&c.msg.kind, MessageKind::Request { method, .. } if method.as_str() == "DELETE");
                    (*event_type == EventType::Added || (*event_type == EventType::Modified && by_delete)).then_some(Phase::Kubelet)
                }
                (to, kind) if acting_on(kind).as_ref() == Some(to) => Some(Phase::Controller(to.clone())),
                _ => None,
            }
        }
        MessageKind::Runtime { call, detail } => {
            let story = matches!(call.as_str(), "RunPodSandbox" | "PullImage" | "StartContainer" | "StopContainer" | "ContainerDied") || (call == "PullImage done" && detail == "error");
            story.then_some(Phase::Kubelet)
        }
        MessageKind::Net { hop, .. } => (*hop != crate::trace::NetHop::CniAdd && *hop != crate::trace::NetHop::CniDel).then_some(Phase::Network),
        MessageKind::Fault { .. } => Some(Phase::Fault),
        MessageKind::Timer { .. } => None,
    }
}

/// Extends the story of steps `from..` given what came before (the page keeps it in the session
/// and extends it as commands add steps, slice by slice).
pub fn extend(s: &Session, from: usize, ix: &mut StoryIndex) {
    for i in from..s.steps.len() {
        let seg = s.steps[i].segment;
        if ix.rounds.last().map(|r| r.segment) != Some(seg) {
            ix.rounds.push(Round { segment: seg, start: i, number: 0, scales: Vec::new() });
            ix.last_rank = 0;
        }
        let mut chapter = None;
        if let Some(p) = classify(s, i) {
            let rank = chain_rank(&p);
            // a controller acting again after the Pods moved on: the next round
            if rank == 1 && ix.last_rank >= 3 && ix.last_rank <= 5 {
                let number = ix.rounds.last().map(|r| r.number + 1).unwrap_or(0);
                ix.rounds.push(Round { segment: seg, start: i, number, scales: Vec::new() });
            }
            ix.last_rank = rank;
            let round = ix.rounds.len() - 1;
            if matches!(p, Phase::Controller(_)) {
                let scales = scales_of(s, i);
                ix.rounds[round].scales.extend(scales);
            }
            let n = ix.seen.entry(key(round, &signature(&s.steps[i].msg))).or_insert(0);
            if *n < usize::from(SAME_KIND_MAX) {
                *n += 1;
                let (k, _) = p.title_key();
                let actor = match &p {
                    Phase::Controller(a) => a.to_string(),
                    _ => String::new(),
                };
                let pk = key(round, &format!("{}{}", k, actor));
                let c = match ix.chapter_of.get(&pk) {
                    Some(c) => *c,
                    None => {
                        ix.chapters.push(Chapter { start: i, phase: p, segment: seg, round });
                        let c = ix.chapters.len() - 1;
                        ix.chapter_of.insert(pk, c);
                        c
                    }
                };
                chapter = Some(c as u32);
            }
        }
        if chapter.is_some() {
            ix.steps.push(i);
        }
        ix.of_step.push(chapter);
        ix.rank.push(ix.steps.len() as u32);
    }
}

/// Whether step index `i` matches a jump target.
pub fn matches(s: &Session, i: usize, jump: &Jump) -> bool {
    let m = &s.steps[i].msg;
    match jump {
        Jump::Chapter => s.chapters().binary_search_by_key(&i, |c| c.start).is_ok(),
        Jump::Story => s.story_phase(i).is_some(),
        Jump::EtcdWrite => matches!(m.kind, MessageKind::EtcdTxn { .. }),
        Jump::Event => {
            matches!(&m.kind, MessageKind::Request { info, method, .. } if info.resource == "events" && method.as_str() != "GET")
        }
        Jump::Component(c) => component_of(&m.from) == *c || component_of(&m.to) == *c,
    }
}

/// The position of the next step (after `pos`) matching `jump`; positions count delivered
/// messages, so step index `i` is position `i + 1`.
pub fn next(s: &Session, pos: usize, jump: &Jump) -> Option<usize> {
    match jump {
        // the story's and the chapters' steps are indexed: no scan
        Jump::Story => {
            let ix = s.story();
            ix.steps.get(ix.rank_at(pos)).map(|i| i + 1)
        }
        Jump::Chapter => {
            let c = s.chapters();
            let k = c.partition_point(|c| c.start < pos);
            c.get(k).map(|c| c.start + 1)
        }
        _ => (pos..s.len()).find(|&i| matches(s, i, jump)).map(|i| i + 1),
    }
}

/// The position of the previous step (before `pos`) matching `jump`.
pub fn prev(s: &Session, pos: usize, jump: &Jump) -> Option<usize> {
    let before = pos.saturating_sub(1);
    match jump {
        Jump::Story => {
            let ix = s.story();
            let r = ix.rank_at(before);
            (r > 0).then(|| ix.steps[r - 1] + 1)
        }
        Jump::Chapter => {
            let c = s.chapters();
            let k = c.partition_point(|c| c.start < before);
            k.checked_sub(1).map(|k| c[k].start + 1)
        }
        _ => (0..before).rev().find(|&i| matches(s, i, jump)).map(|i| i + 1),
    }
}

/// The chapter a position is in (index into `chapters`): the chapter of the story step shown
/// there, or of the last one before it in the same command.
pub fn chapter_at(s: &Session, pos: usize) -> Option<usize> {
    let seg = s.steps.get(pos.checked_sub(1)?)?.segment;
    let i = s.story().last_story_step(pos)?;
    (s.steps[i].segment == seg).then(|| s.story().of_step[i].map(|c| c as usize)).flatten()
}

/// The round a chapter is in, and how many rounds its command has: (number, total), 1-based.
pub fn round_of(s: &Session, chapter: usize) -> Option<(usize, usize)> {
    let c = s.chapters().get(chapter)?;
    let r = s.story().rounds.get(c.round)?;
    Some((r.number + 1, s.story().rounds_of(c.segment).count()))
}

/// The closing summary: what runs where, how long it took in cluster time, how much was said.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    /// Running Pods (not being deleted) per node, in node order.
    pub running: Vec<(String, usize)>,
    /// Pods that exist but are not Running, with kubectl's STATUS column (`web-0`, `Pending`;
    /// `crash-…`, `CrashLoopBackOff`), in list order.
    pub others: Vec<(String, String)>,
    /// Cluster time from the first to the last step, ms.
    pub elapsed_ms: i64,
    pub messages: usize,
    pub etcd_writes: usize,
    pub events: usize,
}

pub fn summary(s: &Session) -> Summary {
    let pos = s.len();
    let mut running: Vec<(String, usize)> = Vec::new();
    let mut others = Vec::new();
    for p in s.objects("pods", "", pos) {
        if crate::ui::model::is_system(&p) {
            continue;
        }
        if meta::get_str(&p, &["status", "phase"]) == "Running" && !meta::is_deleting(&p) {
            let node = meta::get_str(&p, &["spec", "nodeName"]).to_string();
            match running.iter_mut().find(|(n, _)| *n == node) {
                Some(e) => e.1 += 1,
                None => running.push((node, 1)),
            }
        } else {
            others.push((meta::name(&p).to_string(), s.pod_status(&p, pos)));
        }
    }
    running.sort();
    let first = s.steps.first().map(|st| st.msg.time_ms).unwrap_or(0);
    Summary {
        running,
        others,
        elapsed_ms: s.time_at(pos) - first,
        messages: pos,
        etcd_writes: s.steps.iter().filter(|st| matches!(st.msg.kind, MessageKind::EtcdTxn { .. })).count(),
        events: (0..pos).filter(|&i| matches(s, i, &Jump::Event)).count(),
    }
}

/// The closing summary: "3 Pods Running on node-1, node-2, node-3 after 4.2 s of cluster time…".
pub fn summary_text(sum: &Summary, lang: Lang) -> String {
    let n: usize = sum.running.iter().map(|r| r.1).sum();
    let mut pods = if n == 0 {
        tr(lang, "sum.nopods").to_string()
    } else {
        let nodes = sum.running.iter().map(|(node, k)| if *k > 1 { format!("{} (×{})", node, k) } else { node.clone() }).collect::<Vec<_>>().join(", ");
        fill(tr(lang, if n == 1 { "sum.pod" } else { "sum.pods" }), &[("n", n.to_string()), ("nodes", nodes)])
    };
    if !sum.others.is_empty() {
        const NAMED: usize = 4;
        let mut list = sum.others.iter().take(NAMED).map(|(name, status)| format!("{} ({})", name, status)).collect::<Vec<_>>().join(", ");
        if sum.others.len() > NAMED {
            list = format!("{}, {}", list, fill(tr(lang, "sum.more"), &[("n", (sum.others.len() - NAMED).to_string())]));
        }
        pods = format!("{}; {}", pods, fill(tr(lang, "sum.other"), &[("pods", list)]));
    }
    fill(
        tr(lang, "sum.text"),
        &[("pods", pods), ("time", duration(lang, sum.elapsed_ms)), ("messages", sum.messages.to_string()), ("writes", sum.etcd_writes.to_string()), ("events", sum.events.to_string())],
    )
}

/// A chapter's title in words.
pub fn chapter_title(p: &Phase, lang: Lang) -> String {
    let (key, actor) = p.title_key();
    let actor = actor.map(|a| super::narrate::actor_name(lang, a)).unwrap_or_default();
    fill(tr(lang, key), &[("actor", actor)])
}

/// Where chapter `k` sits, in words: "Chapter 4 of 6: The scheduler binds Pods to nodes", or in a
/// command of several rounds "Round 2 of 4 (nginx-7c5d 1→2, nginx-5f9b 3→2) · The scheduler …".
pub fn chapter_label(s: &Session, k: usize, lang: Lang) -> String {
    let Some(c) = s.chapters().get(k) else { return String::new() };
    let title = chapter_title(&c.phase, lang);
    let (round, rounds) = round_of(s, k).unwrap_or((1, 1));
    if rounds > 1 {
        let r = &s.story().rounds[c.round];
        let what = r.scales.iter().map(|(name, b, a)| format!("{} {}→{}", name, b, a)).collect::<Vec<_>>().join(", ");
        let head = fill(tr(lang, "ctl.round"), &[("n", round.to_string()), ("total", rounds.to_string())]);
        let head = if what.is_empty() { head } else { format!("{} ({})", head, what) };
        format!("{} · {}", head, title)
    } else {
        let in_seg: Vec<usize> = (0..s.chapters().len()).filter(|&j| s.chapters()[j].segment == c.segment).collect();
        let n = in_seg.iter().position(|&j| j == k).unwrap_or(0) + 1;
        fill(tr(lang, "ctl.chapter"), &[("n", n.to_string()), ("total", in_seg.len().to_string()), ("title", title)])
    }
}

/// The position in the level's units: "Story step 7 of 35 · message 33 of 400", "Message 33 of
/// 400", and at the end "The outcome · message 400 of 400".
pub fn position_text(s: &Session, pos: usize, story_level: bool, lang: Lang) -> String {
    let (n, total) = (pos.to_string(), s.len().to_string());
    if s.is_empty() {
        return fill(tr(lang, "ctl.pos.all"), &[("n", n), ("total", total)]);
    }
    if pos >= s.len() {
        return fill(tr(lang, "ctl.pos.end"), &[("n", n), ("total", total)]);
    }
    if story_level {
        let k = s.story().rank_at(pos).to_string();
        fill(tr(lang, "ctl.pos.story"), &[("k", k), ("stories", s.story_len().to_string()), ("n", n), ("total", total)])
    } else {
        fill(tr(lang, "ctl.pos.all"), &[("n", n), ("total", total)])
    }
}

/// Why Pods stay Pending, when they do: the scheduler's latest FailedScheduling message and the
/// position of the request that recorded it (the summary offers to jump there). Read from the
/// scheduler's last Event writes, newest first: no list of every Event.
pub fn pending_reason(s: &Session, sum: &Summary) -> Option<(String, usize)> {
    let pos = s.len();
    if !sum.others.iter().any(|(_, status)| status == "Pending") {
        return None;
    }
    (0..pos).rev().find_map(|i| {
        let m = &s.steps[i].msg;
        if m.from != Actor::Scheduler || !matches!(&m.kind, MessageKind::Request { info, method, .. } if info.resource == "events" && method.as_str() != "GET") {
            return None;
        }
        let (key, rev) = writes_of(s, i).into_iter().next()?;
        let ev = s.value_of_key(&key, rev)?;
        if meta::get_str(&ev, &["reason"]) != "FailedScheduling" {
            return None;
        }
        let note = meta::get_str(&ev, &["message"]);
        let note = if note.is_empty() { meta::get_str(&ev, &["note"]) } else { note };
        Some((note.to_string(), i + 1))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::presets;

    fn titles(s: &Session) -> Vec<String> {
        s.chapters().iter().map(|c| c.phase.title_key().0.to_string()).collect()
    }

    /// Seed 004 told as a post tells it: under 40 story steps, every chapter of the chain, in order.
    #[test]
    fn seed_004_story_has_every_chapter_in_under_40_steps() {
        let mut s = Session::new(1);
        s.apply(presets::SEED_004);
        let story: Vec<usize> = (0..s.len()).filter(|&i| s.story_phase(i).is_some()).collect();
        let labels: Vec<String> = story.iter().map(|&i| format!("{} {}->{} {}", i, s.steps[i].msg.from, s.steps[i].msg.to, s.steps[i].msg.label())).collect();
        assert!(story.len() < 40, "{} story steps:\n{}", story.len(), labels.join("\n"));
        assert!(story.len() >= 20, "{} story steps:\n{}", story.len(), labels.join("\n"));
        assert_eq!(titles(&s), ["ch.client", "ch.dc", "ch.rsc", "ch.sched", "ch.kubelet", "ch.status"], "{}", labels.join("\n"));
        // what a post shows is there
        let all = labels.join("\n");
        for want in ["POST deployments", "POST replicasets", "POST pods", "POST pods/binding", "RunPodSandbox", "PullImage", "StartContainer", "PATCH pods/status"] {
            assert!(all.contains(want), "story misses {}:\n{}", want, all);
        }
        // the summary
        let sum = summary(&s);
        assert_eq!(sum.running.iter().map(|r| r.1).sum::<usize>(), 3, "{:?}", sum);
        assert_eq!(sum.messages, s.len());
        assert!(sum.etcd_writes > 10 && sum.events >= 12, "{:?}", sum);
    }

    #[test]
    fn jumps_find_etcd_writes_events_and_components() {
        let mut s = Session::new(1);
        s.apply(presets::SEED_004);
        let w = next(&s, 0, &Jump::EtcdWrite).unwrap();
        assert!(matches!(s.steps[w - 1].msg.kind, MessageKind::EtcdTxn { .. }));
        assert_eq!(prev(&s, w, &Jump::EtcdWrite), None);
        let w2 = next(&s, w, &Jump::EtcdWrite).unwrap();
        assert!(w2 > w);
        assert_eq!(prev(&s, w2, &Jump::EtcdWrite), Some(w));
        let e = next(&s, 0, &Jump::Event).unwrap();
        assert_eq!(s.steps[e - 1].msg.label(), "POST events");
        let k = next(&s, 0, &Jump::Component("kube-scheduler".into())).unwrap();
        assert!(s.steps[k - 1].msg.to == Actor::Scheduler || s.steps[k - 1].msg.from == Actor::Scheduler);
        let kl = next(&s, 0, &Jump::Component("kubelet".into())).unwrap();
        assert!(matches!(s.steps[kl - 1].msg.to, Actor::Kubelet(_)) || matches!(s.steps[kl - 1].msg.from, Actor::Kubelet(_)));
        // chapters one after another
        let mut pos = 0;
        let mut seen = 0;
        while let Some(p) = next(&s, pos, &Jump::Chapter) {
            assert_eq!(chapter_at(&s, p), Some(seen));
            pos = p;
            seen += 1;
        }
        assert_eq!(seen, s.chapters().len());
    }

    /// A rolling update's story: the controller's scale-down of the old ReplicaSet comes back as
    /// its own chapter after the new Pods ran.
    #[test]
    fn every_preset_has_a_story_and_chapters() {
        for (name, _, text) in presets::PRESETS {
            let mut s = Session::new(1);
            s.apply(text);
            if s.is_empty() {
                continue;
            }
            let n = (0..s.len()).filter(|&i| s.story_phase(i).is_some()).count();
            assert!(n > 0 && n < s.len(), "{}: {} story steps of {}", name, n, s.len());
            assert!(!s.chapters().is_empty(), "{}", name);
            for w in s.chapters().windows(2) {
                assert!(w[0].start < w[1].start, "{}: chapters out of order", name);
            }
        }
    }

    fn outline(s: &Session) -> String {
        let mut out = String::new();
        for (k, c) in s.chapters().iter().enumerate() {
            let (r, n) = round_of(s, k).unwrap();
            out.push_str(&format!("seg {} round {}/{} {:?} at {} ({} {})\n", c.segment, r, n, c.phase, c.start, s.steps[c.start].msg.from, s.steps[c.start].msg.label()));
        }
        out
    }

    /// A story step is told in the chapter of what it does: its phase names a component that
    /// sends or receives it.
    fn phases_match_actors(s: &Session, name: &str) {
        for &i in &s.story().steps {
            let m = &s.steps[i].msg;
            let has = |f: &dyn Fn(&Actor) -> bool| f(&m.from) || f(&m.to);
            let ok = match s.story_phase(i).unwrap() {
                Phase::Schedule => has(&|a| *a == Actor::Scheduler),
                Phase::Kubelet => has(&|a| matches!(a, Actor::Kubelet(_) | Actor::Runtime(_))),
                Phase::Controller(c) => has(&|a| a == c),
                Phase::Status => matches!(m.kind, MessageKind::Request { .. }),
                Phase::Client => has(&|a| matches!(a, Actor::Kubectl | Actor::ApiServer | Actor::Etcd)),
                Phase::Network | Phase::Fault => true,
            };
            assert!(ok, "{}: step {} ({} -> {} {}) told under {:?}", name, i, m.from, m.to, m.label(), s.story_phase(i));
        }
    }

    /// Chapters follow what a step does, a rollout reads as rounds, and the story's length
    /// follows what happened, not the replica count.
    #[test]
    fn chapters_and_rounds_stay_few_at_any_replica_count() {
        let story_of = |n: usize| {
            let mut s = Session::new(1);
            s.apply(&presets::SEED_004.replace("replicas: 3", &format!("replicas: {}", n)));
            s
        };
        let small = story_of(3);
        phases_match_actors(&small, "seed 004");
        assert_eq!(small.story().rounds.len(), 1, "{}", outline(&small));
        let big = story_of(120);
        phases_match_actors(&big, "120 replicas");
        assert!(big.chapters().len() <= 8, "{}", outline(&big));
        assert!(big.story_len() <= small.story_len() * 2, "story of 120 replicas: {} steps, of 3: {}", big.story_len(), small.story_len());
        // a 5-replica rolling update: a few rounds, each a few chapters
        let mut r = Session::new(1);
        r.apply(presets::SCRIPT_ROLLING_UPDATE);
        phases_match_actors(&r, "rolling update");
        // the rollout's command: the one with the most rounds
        let seg = (0..r.segments.len()).max_by_key(|&g| r.story().rounds_of(g).count()).unwrap();
        let rounds: Vec<&Round> = r.story().rounds_of(seg).collect();
        assert!(rounds.len() >= 2 && rounds.len() <= 8, "{} rounds\n{}", rounds.len(), outline(&r));
        assert!(rounds.iter().any(|x| x.scales.iter().any(|(_, b, a)| a > b)) && rounds.iter().any(|x| x.scales.iter().any(|(_, b, a)| a < b)), "{:?}", rounds);
        let in_seg = r.chapters().iter().filter(|c| c.segment == seg).count();
        assert!(in_seg <= rounds.len() * 6, "{}", outline(&r));
    }

    /// Every preset: each story step's chapter names one of its components.
    #[test]
    fn every_preset_tells_steps_in_their_chapter() {
        for (name, _, text) in presets::PRESETS {
            let mut s = Session::new(1);
            s.apply(text);
            phases_match_actors(&s, name);
        }
    }

    /// One notion of position: the counter speaks the level's units, and the end is the outcome.
    #[test]
    fn position_speaks_the_levels_units() {
        let mut s = Session::new(1);
        s.apply(presets::SEED_004);
        let first = next(&s, 0, &Jump::Story).unwrap();
        let third = next(&s, next(&s, first, &Jump::Story).unwrap(), &Jump::Story).unwrap();
        assert_eq!(position_text(&s, third, true, Lang::En), format!("Story step 3 of {} · message {} of {}", s.story_len(), third, s.len()));
        assert_eq!(position_text(&s, third, false, Lang::En), format!("Message {} of {}", third, s.len()));
        assert_eq!(position_text(&s, s.len(), true, Lang::En), format!("The outcome · message {0} of {0}", s.len()));
        assert_eq!(position_text(&s, third, true, Lang::Ko), format!("이야기 {}단계 중 3단계 · 메시지 {}개 중 {}번째", s.story_len(), s.len(), third));
        // a binding is told in the scheduler's chapter, and the label says which of how many
        let bind = (0..s.len()).find(|&i| s.steps[i].msg.label() == "POST pods/binding").unwrap();
        let k = chapter_at(&s, bind + 1).unwrap();
        assert_eq!(s.chapters()[k].phase, Phase::Schedule);
        assert_eq!(chapter_label(&s, k, Lang::En), "Chapter 4 of 6: The scheduler binds Pods to nodes");
        let ko = summary_text(&summary(&s), Lang::Ko);
        assert!(!ko.contains(" s ") && ko.contains("초"), "{}", ko);
    }

    /// Pods that stay Pending: the summary says why (the scheduler's last FailedScheduling) and
    /// where it was said.
    #[test]
    fn the_summary_explains_pending_pods() {
        let mut s = Session::new(1);
        s.apply(presets::TOO_BIG);
        let (msg, at) = pending_reason(&s, &summary(&s)).expect("Pods are Pending");
        assert!(msg.starts_with("0/3 nodes are available:"), "{}", msg);
        assert_eq!(s.steps[at - 1].msg.from, Actor::Scheduler);
        let mut ok = Session::new(1);
        ok.apply(presets::SEED_004);
        assert_eq!(pending_reason(&ok, &summary(&ok)), None);
    }
}
