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

/// A chapter: its first step (index into `steps`) and what it is about.
#[derive(Clone, Debug, PartialEq)]
pub struct Chapter {
    pub start: usize,
    pub phase: Phase,
    pub segment: usize,
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
                Actor::EndpointsController | Actor::EndpointSliceController | Actor::ResourceQuotaController | Actor::NodeIpamController => None,
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
                    let rv: i64 = resource_version.parse().unwrap_or(0);
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

/// The story marks and chapters of steps `from..` given what came before (the page keeps them
/// in the session and extends them as commands add steps).
pub fn extend(s: &Session, from: usize, story: &mut Vec<Option<Phase>>, chapters: &mut Vec<Chapter>) {
    for i in from..s.steps.len() {
        let phase = classify(s, i);
        if let Some(p) = &phase {
            let seg = s.steps[i].segment;
            // the chapters of this segment so far (segments only grow: the tail), newest last
            let first = chapters.iter().rposition(|c| c.segment != seg).map_or(0, |k| k + 1);
            let here = &chapters[first..];
            let new = match here.iter().rposition(|c| &c.phase == p) {
                None => true,
                // a phase comes back after two others had their chapters: the story moved on
                Some(k) => {
                    let since: Vec<&Phase> = here[k + 1..].iter().map(|c| &c.phase).collect();
                    let mut distinct: Vec<&Phase> = Vec::new();
                    for x in since {
                        if !distinct.contains(&x) {
                            distinct.push(x);
                        }
                    }
                    distinct.len() >= 2 && here.last().map(|c| &c.phase) != Some(p)
                }
            };
            if new && here.last().map(|c| &c.phase) != Some(p) {
                chapters.push(Chapter { start: i, phase: p.clone(), segment: seg });
            }
        }
        story.push(phase);
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
    (pos..s.len()).find(|&i| matches(s, i, jump)).map(|i| i + 1)
}

/// The position of the previous step (before `pos`) matching `jump`.
pub fn prev(s: &Session, pos: usize, jump: &Jump) -> Option<usize> {
    (0..pos.saturating_sub(1)).rev().find(|&i| matches(s, i, jump)).map(|i| i + 1)
}

/// The chapter a position is in (index into `chapters`).
pub fn chapter_at(s: &Session, pos: usize) -> Option<usize> {
    if pos == 0 {
        return None;
    }
    let seg = s.steps.get(pos - 1)?.segment;
    s.chapters().iter().rposition(|c| c.start < pos && c.segment == seg)
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
        if meta::get_str(&p, &["metadata", "namespace"]) == "kube-system" {
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
pub fn summary_text(s: &Session, lang: Lang) -> String {
    let sum = summary(s);
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
}
