//! Narration: two or three sentences for the current step, in English or Korean, saying which
//! component did what and why. Derived from the message kind, its actors, the object kinds and —
//! for details such as the chosen node or a Pod's new status — the state in etcd after the step.
//! The templates live in the translation table ([`super::i18n`]) under `n.*` keys.

use super::i18n::{fill, tr, Lang};
use super::model::{kind_of, parse_key, Session};
use crate::api::meta;
use crate::api::request::{EventType, RequestInfo};
use crate::trace::{Actor, FaultKind, MessageKind};
use serde_json::Value;

/// The display name of a component in a sentence.
pub fn actor_name(lang: Lang, a: &Actor) -> String {
    match a {
        Actor::Kubectl => "kubectl".into(),
        Actor::ApiServer => "kube-apiserver".into(),
        Actor::Etcd => "etcd".into(),
        Actor::ControllerManager => tr(lang, "actor.kcm").into(),
        Actor::DeploymentController => tr(lang, "actor.dc").into(),
        Actor::ReplicaSetController => tr(lang, "actor.rsc").into(),
        Actor::GarbageCollector => tr(lang, "actor.gc").into(),
        Actor::NodeController => tr(lang, "actor.nlc").into(),
        Actor::NodeIpamController => tr(lang, "actor.ipam").into(),
        Actor::Scheduler => tr(lang, "actor.sched").into(),
        Actor::EndpointsController => tr(lang, "actor.epc").into(),
        Actor::EndpointSliceController => tr(lang, "actor.epsc").into(),
        Actor::DaemonSetController => tr(lang, "actor.dsc").into(),
        Actor::ReplicationController => tr(lang, "actor.rcc").into(),
        Actor::StatefulSetController => tr(lang, "actor.stsc").into(),
        Actor::PersistentVolumeController => tr(lang, "actor.pvc").into(),
        Actor::StorageProvisioner => tr(lang, "actor.prov").into(),
        Actor::NamespaceController => tr(lang, "actor.nsc").into(),
        Actor::ResourceQuotaController => tr(lang, "actor.rqc").into(),
        Actor::DisruptionController => tr(lang, "actor.disruption").into(),
        Actor::PvcProtectionController => tr(lang, "actor.pvcprot").into(),
        Actor::PvProtectionController => tr(lang, "actor.pvprot").into(),
        Actor::JobController => tr(lang, "actor.jc").into(),
        Actor::CronJobController => tr(lang, "actor.cjc").into(),
        Actor::TtlAfterFinishedController => tr(lang, "actor.ttl").into(),
        Actor::RootCaCertPublisher => tr(lang, "actor.rootca").into(),
        Actor::ServiceAccountController => tr(lang, "actor.sactl").into(),
        Actor::ClusterRoleAggregationController => tr(lang, "actor.craggr").into(),
        Actor::Kubelet(n) => fill(tr(lang, "actor.kubelet"), &[("node", n.clone())]),
        Actor::KubeProxy(n) => fill(tr(lang, "actor.proxy"), &[("node", n.clone())]),
        Actor::CoreDns => tr(lang, "actor.coredns").into(),
        Actor::MetricsServer => "metrics-server".into(),
        Actor::IngressNginx => "ingress-nginx".into(),
        Actor::NetworkPolicyAgent => "kube-network-policies".into(),
        Actor::AvailableConditionController => tr(lang, "actor.available").into(),
        Actor::ApiExtensionsControllers => tr(lang, "actor.apiextensions").into(),
        Actor::WebsiteOperator => tr(lang, "actor.website_operator").into(),
        Actor::HpaController => tr(lang, "actor.hpa").into(),
        Actor::Runtime(n) => fill(tr(lang, "actor.runtime"), &[("node", n.clone())]),
    }
}

/// A Kubernetes kind as a word in the language (`Pod` / `파드`).
pub fn kind_word(lang: Lang, kind: &str) -> String {
    match lang {
        Lang::En => kind.to_string(),
        Lang::Ko => match kind {
            "Deployment" => "디플로이먼트",
            "ReplicaSet" => "레플리카셋",
            "Pod" => "파드",
            "Node" => "노드",
            "Event" => "이벤트",
            "Namespace" => "네임스페이스",
            "Binding" => "바인딩",
            "Lease" => "리스(Lease)",
            "DaemonSet" => "데몬셋",
            "StatefulSet" => "스테이트풀셋",
            "PersistentVolumeClaim" => "퍼시스턴트볼륨클레임",
            "PersistentVolume" => "퍼시스턴트볼륨",
            "StorageClass" => "스토리지클래스",
            other => other,
        }
        .to_string(),
    }
}

/// The name at the start of a sentence: capitalized, except a program's own lowercase name
/// (`kube-controller-manager`, `kubectl`, `etcd`), which stays as it is written.
fn cap(s: &str) -> String {
    if s.starts_with("kube") || s.starts_with("etcd") {
        return s.to_string();
    }
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}

pub type Vars = Vec<(&'static str, String)>;

fn owner_name(o: &Value) -> String {
    meta::controller_of(o).map(|r| meta::get_str(r, &["name"]).to_string()).unwrap_or_default()
}

/// A short description of a Pod's status for the kubelet's status patches.
fn pod_summary(lang: Lang, p: &Value) -> String {
    let phase = meta::get_str(p, &["status", "phase"]).to_string();
    let mut parts = vec![format!("phase {}", if phase.is_empty() { "Pending".into() } else { phase })];
    if let Some(cs) = meta::get(p, &["status", "containerStatuses"]).and_then(|c| c.as_array()) {
        for c in cs {
            let name = meta::get_str(c, &["name"]);
            if let Some(w) = meta::get(c, &["state", "waiting"]) {
                parts.push(format!("{} waiting ({})", name, meta::get_str(w, &["reason"])));
            } else if meta::get(c, &["state", "running"]).is_some() {
                parts.push(format!("{} running", name));
            } else if let Some(t) = meta::get(c, &["state", "terminated"]) {
                parts.push(format!("{} terminated ({})", name, meta::get_str(t, &["reason"])));
            }
        }
    }
    if let Some(conds) = meta::get(p, &["status", "conditions"]).and_then(|c| c.as_array()) {
        if let Some(r) = conds.iter().find(|c| meta::get_str(c, &["type"]) == "Ready") {
            parts.push(format!("Ready={}", meta::get_str(r, &["status"])));
        }
    }
    let ip = meta::get_str(p, &["status", "podIP"]);
    if !ip.is_empty() {
        parts.push(format!("podIP {}", ip));
    }
    let s = parts.join(", ");
    match lang {
        Lang::En => s,
        Lang::Ko => s.replace(" waiting ", " 대기 ").replace(" running", " 실행 중").replace(" terminated ", " 종료 "),
    }
}

/// A narration before it is put into words: the template keys (joined by a space) and the values
/// they are filled with. Tests read the keys and the values; the page reads the text.
#[derive(Clone, Debug, PartialEq)]
pub struct Said {
    pub keys: Vec<String>,
    pub vars: Vars,
}

impl Said {
    pub fn text(&self, lang: Lang) -> String {
        self.keys.iter().map(|k| fill(tr(lang, k), &self.vars)).collect::<Vec<_>>().join(" ")
    }

    /// The value of a placeholder.
    pub fn var(&self, name: &str) -> Option<&str> {
        self.vars.iter().rev().find(|(k, _)| *k == name).map(|(_, v)| v.as_str())
    }
}

/// What allowed a request, in words: the RBAC binding and role, the Node authorizer, or
/// `system:masters` (a refusal has narrations of its own: `n.req.kubectl.denied`,
/// `n.resp.forbidden`).
fn authz_phrase(lang: Lang, a: &crate::apiserver::authorizer::Authorized) -> (&'static str, String) {
    if let Some(rule) = a.reason.strip_prefix("RBAC: allowed by ") {
        return ("n.authz.rbac", fill(tr(lang, "n.authz.rbac"), &[("rule", rule.to_string())]));
    }
    if a.user.starts_with("system:node:") {
        return ("n.authz.node", tr(lang, "n.authz.node").to_string());
    }
    ("n.authz.masters", fill(tr(lang, "n.authz.masters"), &[("user", a.user.clone())]))
}

fn said(key: &str, vars: &Vars) -> Said {
    Said { keys: vec![key.to_string()], vars: vars.clone() }
}

/// How many objects at the position name `uid` in their ownerReferences.
pub fn dependents_of(s: &Session, uid: &str, pos: usize) -> usize {
    if uid.is_empty() {
        return 0;
    }
    meta::RESOURCES
        .iter()
        .filter(|r| r.resource != "events")
        .map(|r| s.objects(r.resource, "", pos).iter().filter(|o| meta::get_array(o, &["metadata", "ownerReferences"]).iter().any(|x| meta::get_str(x, &["uid"]) == uid)).count())
        .sum()
}

/// The narration for position `pos` (the message `steps[pos-1]`).
pub fn narrate(s: &Session, pos: usize, lang: Lang) -> String {
    narration(s, pos, lang).text(lang)
}

/// The narration for position `pos`, unrendered.
pub fn narration(s: &Session, pos: usize, lang: Lang) -> Said {
    let Some(step) = s.current(pos) else {
        return said(if s.is_empty() { "n.start" } else { "n.before" }, &Vec::new());
    };
    let m = &step.msg;
    let k = pos - 1;
    let mut v: Vars = vec![("from", actor_name(lang, &m.from)), ("to", actor_name(lang, &m.to)), ("From", cap(&actor_name(lang, &m.from))), ("To", cap(&actor_name(lang, &m.to)))];
    let node_of = |a: &Actor| match a {
        Actor::Kubelet(n) | Actor::Runtime(n) => n.clone(),
        _ => String::new(),
    };
    v.push(("node", if node_of(&m.from).is_empty() { node_of(&m.to) } else { node_of(&m.from) }));
    // etcd txns this request caused (they follow it directly, or follow the rest of its batch:
    // requests a component sent together, at the same instant, come first)
    let txns: Vec<(String, i64)> = s.steps[pos..]
        .iter()
        .take_while(|x| match &x.msg.kind {
            MessageKind::EtcdTxn { .. } => true,
            MessageKind::Request { .. } => x.msg.from == m.from && x.msg.time_ms == m.time_ms && matches!(m.kind, MessageKind::Request { .. }),
            _ => false,
        })
        .filter(|x| x.msg.cause == Some(m.id))
        .filter_map(|x| match &x.msg.kind {
            MessageKind::EtcdTxn { key, revision, .. } => Some((key.clone(), *revision)),
            _ => None,
        })
        .collect();
    let after = |key: &str, rev: i64| s.value_of_key(key, rev);
    match &m.kind {
        MessageKind::Request { method, info, .. } => {
            let p = &**info;
            let verb = method.as_str();
            // kube-apiserver's authorization of this request, from its response
            if m.to == Actor::ApiServer {
                let authz = s.steps[pos..].iter().take(400).find_map(|x| match &x.msg.kind {
                    MessageKind::Response { authz: Some(a), .. } if x.msg.cause == Some(m.id) => Some(a.clone()),
                    _ => None,
                });
                match authz {
                    // refused by the authorizers: the request goes no further
                    Some(a) if !a.allowed() && m.from == Actor::Kubectl => {
                        v.push(("user", a.user.clone()));
                        v.push(("verb", verb.to_string()));
                        v.push(("path", p.path.clone()));
                        return said("n.req.kubectl.denied", &v);
                    }
                    Some(a) => {
                        let (key, phrase) = authz_phrase(lang, &a);
                        v.push(("authz", phrase));
                        v.push(("authz_key", key.to_string()));
                        v.push(("user", a.user.clone()));
                    }
                    // answered before authorization (an injected fault, API priority and fairness)
                    None => {
                        v.push(("authz", tr(lang, "n.authz.none").to_string()));
                        v.push(("authz_key", "n.authz.none".to_string()));
                        v.push(("user", crate::cluster::kubectl_identity().username));
                    }
                }
            }
            let kind = kind_of(&p.resource);
            v.push(("kind", kind_word(lang, kind)));
            v.push(("verb", verb.to_string()));
            v.push(("path", p.path.clone()));
            v.push(("resource", p.resource.clone()));
            v.push(("ns", p.namespace.clone()));
            let created = txns.first().map(|(key, rev)| (parse_key(key).2, after(key, *rev)));
            let name = if !p.name.is_empty() { p.name.clone() } else { created.as_ref().map(|c| c.0.clone()).unwrap_or_default() };
            v.push(("name", name.clone()));
            let obj = created.and_then(|c| c.1);
            if p.verb == "watch" {
                let rv = p.query("resourceVersion").unwrap_or("0").to_string();
                v.push(("rv", rv));
                return said("n.req.watch", &v);
            }
            // metrics-server scraping a kubelet's resource metrics (HTTPS to port 10250)
            if let (Actor::MetricsServer, Actor::Kubelet(node)) = (&m.from, &m.to) {
                v.retain(|(k, _)| *k != "node");
                v.push(("node", node.clone()));
                return said("n.req.metrics.scrape", &v);
            }
            // the aggregation layer proxying a metrics.k8s.io request to metrics-server
            if m.from == Actor::ApiServer && m.to == Actor::MetricsServer {
                return said("n.req.aggregated", &v);
            }
            if verb == "GET" && m.from == Actor::ApiServer && p.path.starts_with("/containerLogs/") {
                let node = match &m.to {
                    Actor::Kubelet(n) => n.clone(),
                    _ => String::new(),
                };
                v.retain(|(k, _)| *k != "node");
                v.push(("node", node));
                return said("n.req.apiserver.logs", &v);
            }
            if verb == "GET" && m.from == Actor::Kubectl && p.subresource == "log" {
                return said("n.req.kubectl.logs", &v);
            }
            // leader election: kube-controller-manager's and kube-scheduler's Leases in kube-system
            if p.resource == "leases" && p.namespace == "kube-system" && matches!(m.from, Actor::ControllerManager | Actor::Scheduler) {
                let key = match verb {
                    "GET" => "n.req.le.get",
                    "POST" => "n.req.le.create",
                    // a take-over writes acquireTime now; a renewal keeps it
                    _ if obj.as_ref().map(|o| meta::get_str(o, &["spec", "acquireTime"]) == meta::get_str(o, &["spec", "renewTime"])).unwrap_or(false) => {
                        v.push(("transitions", obj.as_ref().and_then(|o| meta::get_i64(o, &["spec", "leaseTransitions"])).unwrap_or(0).to_string()));
                        "n.req.le.take"
                    }
                    _ => "n.req.le.renew",
                };
                return said(key, &v);
            }
            if verb == "GET" && m.from == Actor::HpaController {
                if p.subresource == "scale" {
                    return said("n.req.hpa.read_scale", &v);
                }
                if p.api_group == "metrics.k8s.io" {
                    return said("n.req.hpa.metrics", &v);
                }
            }
            // ingress-nginx's status loop: its own Pods, then their nodes' addresses
            if verb == "GET" && m.from == Actor::IngressNginx && (p.resource == "pods" || p.resource == "nodes") {
                return said(if p.resource == "pods" { "n.req.ingress.pods" } else { "n.req.ingress.node" }, &v);
            }
            if verb == "GET" {
                if m.from == Actor::Kubectl {
                    let in_apply = s.segments.get(step.segment).map(|g| g.command.starts_with("kubectl apply")).unwrap_or(false);
                    if in_apply && !p.name.is_empty() {
                        return said("n.req.kubectl.get_apply", &v);
                    }
                    return said(if p.name.is_empty() { "n.req.kubectl.list" } else { "n.req.kubectl.get" }, &v);
                }
                return said(if p.name.is_empty() { "n.req.list" } else { "n.req.get" }, &v);
            }
            // events, whoever records them
            if p.resource == "events" {
                if let Some(e) = &obj {
                    let reason = meta::get_str(e, &["reason"]).to_string();
                    let regarding = if meta::get(e, &["regarding"]).is_some() { "regarding" } else { "involvedObject" };
                    v.push(("reason", reason));
                    v.push(("object", format!("{}/{}", meta::get_str(e, &[regarding, "kind"]).to_lowercase(), meta::get_str(e, &[regarding, "name"]))));
                    let note = if regarding == "regarding" { meta::get_str(e, &["note"]) } else { meta::get_str(e, &["message"]) };
                    v.push(("msg", note.to_string()));
                } else {
                    // not stored: the answer that follows says why
                    let code = s.steps[pos..].iter().find_map(|x| match &x.msg.kind {
                        MessageKind::Response { code, reason, .. } if x.msg.cause == Some(m.id) => Some(format!("{} {}", code, reason)),
                        _ => None,
                    });
                    v.push(("code", code.unwrap_or_default()));
                    return said("n.req.event_refused", &v);
                }
                return said("n.req.event", &v);
            }
            match (&m.from, verb, p.resource.as_str(), p.subresource.as_str()) {
                (Actor::Kubectl, "POST", "pods", "eviction") => said("n.req.kubectl.evict", &v),
                (Actor::Kubectl, "POST", _, _) => said("n.req.kubectl.create", &v),
                (Actor::Kubectl, "PATCH", _, "") => {
                    let command = s.segments.get(step.segment).map(|g| g.command.clone()).unwrap_or_default();
                    let key = match p.query("fieldManager") {
                        Some("kubectl-client-side-apply") => "n.req.kubectl.patch",
                        Some("kubectl-set") => "n.req.kubectl.set_image",
                        Some("kubectl-rollout") if command.contains(" pause") => "n.req.kubectl.pause",
                        Some("kubectl-rollout") if command.contains(" resume") => "n.req.kubectl.resume",
                        Some("kubectl-rollout") => "n.req.kubectl.restart",
                        _ if command.contains("rollout undo") => "n.req.kubectl.undo",
                        _ => "n.req.kubectl.patch_fields",
                    };
                    said(key, &v)
                }
                (Actor::Kubectl, "DELETE", _, _) => said("n.req.kubectl.delete", &v),
                (Actor::Kubectl, _, _, "scale") => said("n.req.kubectl.scale", &v),
                (Actor::Kubectl, _, _, _) => said("n.req.kubectl.other", &v),
                (Actor::DeploymentController, "POST", "replicasets", _) => {
                    let hash = obj.as_ref().map(|o| meta::get_str(o, &["metadata", "labels", "pod-template-hash"]).to_string()).unwrap_or_default();
                    let replicas = obj.as_ref().and_then(|o| meta::get_i64(o, &["spec", "replicas"])).unwrap_or(0);
                    v.push(("hash", hash));
                    v.push(("want", replicas.to_string()));
                    v.push(("owner", obj.as_ref().map(owner_name).unwrap_or_default()));
                    said("n.req.dc.create_rs", &v)
                }
                (Actor::DeploymentController, _, "replicasets", _) => {
                    let replicas = obj.as_ref().and_then(|o| meta::get_i64(o, &["spec", "replicas"])).unwrap_or(0);
                    v.push(("want", replicas.to_string()));
                    // a rollback or a revert: the controller reuses an old ReplicaSet and raises its revision
                    let revision = |o: &Value| meta::annotation(o, "deployment.kubernetes.io/revision").map(str::to_string);
                    let before = txns.first().and_then(|(key, rev)| s.value_of_key(key, rev - 1));
                    let (was, now) = (before.as_ref().and_then(revision), obj.as_ref().and_then(revision));
                    match (was, now) {
                        (Some(was), Some(now)) if was != now => {
                            v.push(("was", was));
                            v.push(("rev", now));
                            said("n.req.dc.revision", &v)
                        }
                        _ => said("n.req.dc.scale_rs", &v),
                    }
                }
                (Actor::DeploymentController, _, "deployments", "status") => said("n.req.dc.status", &v),
                // a create the server refused (its answer says why): no Pod to name
                (Actor::ReplicaSetController, "POST", "pods", _) if !txns.iter().any(|(key, _)| key.starts_with("/registry/pods/")) => said("n.req.generic", &v),
                (Actor::ReplicaSetController, "POST", "pods", _) => {
                    // the Pod's write (a quota's status may be written in the same request)
                    let pod = txns.iter().find(|(key, _)| key.starts_with("/registry/pods/")).and_then(|(key, rev)| after(key, *rev));
                    if let Some(p) = &pod {
                        v.retain(|(k, _)| *k != "name");
                        v.push(("name", meta::name(p).to_string()));
                    }
                    let owner = pod.as_ref().map(owner_name).unwrap_or_default();
                    let want = s
                        .object("replicasets", &p.namespace, &owner, pos)
                        .and_then(|rs| meta::get_i64(&rs, &["spec", "replicas"]))
                        .unwrap_or(0);
                    v.push(("owner", owner));
                    v.push(("want", want.to_string()));
                    said("n.req.rsc.create_pod", &v)
                }
                (Actor::ReplicaSetController, "DELETE", "pods", _) => said("n.req.rsc.delete_pod", &v),
                (Actor::DaemonSetController, "POST", "pods", _) => {
                    let node = obj
                        .as_ref()
                        .and_then(|o| meta::get_array(o, &["spec", "affinity", "nodeAffinity", "requiredDuringSchedulingIgnoredDuringExecution", "nodeSelectorTerms"]).first().cloned())
                        .and_then(|t| meta::get_array(&t, &["matchFields"]).first().cloned())
                        .and_then(|f| meta::get_array(&f, &["values"]).first().and_then(|x| x.as_str().map(String::from)))
                        .unwrap_or_default();
                    v.retain(|(k, _)| *k != "node");
                    v.push(("node", node));
                    v.push(("owner", obj.as_ref().map(owner_name).unwrap_or_default()));
                    said("n.req.dsc.create_pod", &v)
                }
                (Actor::DaemonSetController, "DELETE", "pods", _) => said("n.req.dsc.delete_pod", &v),
                (Actor::StatefulSetController, "POST", "pods", _) => {
                    v.push(("owner", obj.as_ref().map(owner_name).unwrap_or_default()));
                    said("n.req.stsc.create_pod", &v)
                }
                (Actor::StatefulSetController, "DELETE", "pods", _) => said("n.req.stsc.delete_pod", &v),
                (Actor::StatefulSetController, "POST", "persistentvolumeclaims", _) => said("n.req.stsc.create_claim", &v),
                (Actor::StatefulSetController, _, "persistentvolumeclaims", _) => said("n.req.stsc.claim_owner", &v),
                (Actor::StatefulSetController, _, "controllerrevisions", _) => said("n.req.stsc.revision", &v),
                (Actor::StatefulSetController, _, "statefulsets", "status") => said("n.req.stsc.status", &v),
                (Actor::PersistentVolumeController, _, "persistentvolumeclaims", "status") => said("n.req.pvc.claim_status", &v),
                (Actor::PersistentVolumeController, _, "persistentvolumeclaims", _) => {
                    let volume = obj.as_ref().map(|o| meta::get_str(o, &["spec", "volumeName"]).to_string()).unwrap_or_default();
                    if volume.is_empty() {
                        said("n.req.pvc.mark", &v)
                    } else {
                        v.push(("volume", volume));
                        said("n.req.pvc.bind_claim", &v)
                    }
                }
                (Actor::PersistentVolumeController, _, "persistentvolumes", "status") => {
                    let phase = obj.as_ref().map(|o| meta::get_str(o, &["status", "phase"]).to_string()).unwrap_or_default();
                    v.push(("phase", phase));
                    said("n.req.pvc.volume_phase", &v)
                }
                (Actor::PersistentVolumeController, _, "persistentvolumes", _) => said("n.req.pvc.claimref", &v),
                (Actor::StorageProvisioner, "POST", "persistentvolumes", _) => said("n.req.prov.create", &v),
                (Actor::StorageProvisioner, "DELETE", "persistentvolumes", _) => said("n.req.prov.delete", &v),
                (Actor::JobController, "POST", "pods", _) => {
                    v.push(("owner", obj.as_ref().map(owner_name).unwrap_or_default()));
                    said("n.req.jc.create_pod", &v)
                }
                (Actor::JobController, "DELETE", "pods", _) => said("n.req.jc.delete_pod", &v),
                (Actor::CronJobController, "POST", "jobs", _) => said("n.req.cjc.create_job", &v),
                (Actor::TtlAfterFinishedController, "DELETE", "jobs", _) => said("n.req.ttl.delete", &v),
                (Actor::CronJobController, "DELETE", "jobs", _) => said("n.req.cjc.delete_job", &v),
                (Actor::CronJobController, _, "cronjobs", "status") => said("n.req.cjc.status", &v),
                (Actor::JobController, _, "jobs", "status") => said("n.req.jc.status", &v),
                (Actor::DaemonSetController, _, "controllerrevisions", _) => said("n.req.dsc.revision", &v),
                (Actor::DaemonSetController, _, "daemonsets", "status") => said("n.req.dsc.status", &v),
                (Actor::ReplicaSetController, _, "replicasets", "status") => said("n.req.rsc.status", &v),
                (Actor::Scheduler, "POST", "pods", "binding") => {
                    let node = obj.as_ref().map(|o| meta::get_str(o, &["spec", "nodeName"]).to_string()).unwrap_or_default();
                    v.retain(|(k, _)| *k != "node");
                    v.push(("node", node.clone()));
                    // the attempt that chose it: a tie among the best scores is broken at random
                    let pod = format!("{}/{}", p.namespace, p.name);
                    let attempt = s.attempts(pos).into_iter().rev().find(|a| a.pod == pod && a.result.ends_with(&format!(" {}", node)));
                    let scored: Vec<(String, i64)> = attempt.map(|a| a.nodes.iter().filter(|n| !n.scores.is_empty()).map(|n| (n.node.clone(), n.total)).collect()).unwrap_or_default();
                    let best = scored.iter().map(|n| n.1).max();
                    let tied: Vec<String> = scored.iter().filter(|n| Some(n.1) == best).map(|n| n.0.clone()).collect();
                    if let Some(b) = best {
                        v.push(("score", b.to_string()));
                    }
                    if tied.len() > 1 {
                        v.push(("tied", tied.join(", ")));
                        v.push(("count", tied.len().to_string()));
                        said("n.req.sched.bind_tie", &v)
                    } else {
                        said("n.req.sched.bind", &v)
                    }
                }
                (Actor::Scheduler, _, "pods", "status") => {
                    let preempted = obj.as_ref().map(|o| meta::get_array(o, &["status", "conditions"]).iter().any(|c| meta::get_str(c, &["type"]) == "DisruptionTarget")).unwrap_or(false);
                    let nominated = obj.as_ref().map(|o| meta::get_str(o, &["status", "nominatedNodeName"]).to_string()).unwrap_or_default();
                    if preempted {
                        said("n.req.sched.disruption", &v)
                    } else if !nominated.is_empty() {
                        v.push(("nominated", nominated));
                        said("n.req.sched.nominate", &v)
                    } else {
                        said("n.req.sched.unschedulable", &v)
                    }
                }
                (Actor::Scheduler, "DELETE", "pods", _) => said("n.req.sched.preempt", &v),
                (Actor::NamespaceController, "DELETE", _, _) => said("n.req.nsc.deletecollection", &v),
                (Actor::ResourceQuotaController, _, "resourcequotas", "status") => said("n.req.rqc.status", &v),
                (Actor::DisruptionController, _, "poddisruptionbudgets", "status") => said("n.req.disruption.status", &v),
                (Actor::AvailableConditionController, _, "apiservices", "status") => {
                    match obj.as_ref().and_then(|o| meta::get_array(o, &["status", "conditions"]).first().cloned()) {
                        Some(c) => {
                            v.push(("status", meta::get_str(&c, &["status"]).to_string()));
                            v.push(("reason", meta::get_str(&c, &["reason"]).to_string()));
                            said("n.req.available.status", &v)
                        }
                        // nothing written: the APIService is gone (its deletion crossed the sync)
                        None => said("n.req.available.gone", &v),
                    }
                }
                (Actor::ApiExtensionsControllers, _, "customresourcedefinitions", "status") => {
                    let cond = |t: &str| obj.as_ref().and_then(|o| meta::get_array(o, &["status", "conditions"]).iter().find(|c| meta::get_str(c, &["type"]) == t).map(|c| meta::get_str(c, &["status"]).to_string()));
                    let fin = obj.as_ref().map(|o| meta::get_array(o, &["metadata", "finalizers"]).iter().any(|f| f.as_str() == Some(crate::apiextensions::controllers::CLEANUP_FINALIZER))).unwrap_or(false);
                    let key = match (cond("Terminating").as_deref(), fin, cond("Established").as_deref()) {
                        // the write that removed the last finalizer deleted the CRD: nothing stored
                        _ if obj.is_none() => "n.req.crd.finalized",
                        (Some(_), false, _) => "n.req.crd.finalized",
                        (Some("True"), true, _) => "n.req.crd.terminating",
                        (_, _, Some("True")) => "n.req.crd.established",
                        _ => "n.req.crd.names",
                    };
                    said(key, &v)
                }
                (Actor::ApiExtensionsControllers, "DELETE", _, _) => said("n.req.crd.deletecollection", &v),
                (Actor::HpaController, "PUT", _, "scale") => said("n.req.hpa.scale", &v),
                (Actor::HpaController, _, "horizontalpodautoscalers", "status") => said("n.req.hpa.status", &v),
                (Actor::IngressNginx, _, "ingresses", "status") => {
                    let addr = obj.as_ref().map(|o| meta::get_array(o, &["status", "loadBalancer", "ingress"]).iter().map(|a| meta::get_str(a, &["ip"]).to_string()).collect::<Vec<_>>().join(",")).unwrap_or_default();
                    v.push(("address", if addr.is_empty() { "-".to_string() } else { addr }));
                    said("n.req.ingress.status", &v)
                }
                (Actor::PvcProtectionController, _, "persistentvolumeclaims", _) => said("n.req.pvcprot.release", &v),
                (Actor::PvProtectionController, _, "persistentvolumes", _) => said("n.req.pvprot.release", &v),
                (Actor::NamespaceController, _, "namespaces", "finalize") => said("n.req.nsc.finalize", &v),
                (Actor::NamespaceController, _, "namespaces", "status") => said("n.req.nsc.status", &v),
                (Actor::Kubelet(_), _, "pods", "status") => {
                    let summary = obj.as_ref().map(|o| pod_summary(lang, o)).unwrap_or_default();
                    v.push(("summary", summary));
                    said("n.req.kubelet.status", &v)
                }
                (Actor::Kubelet(_), "DELETE", "pods", _) => said("n.req.kubelet.delete", &v),
                (Actor::Kubelet(_), "POST", "nodes", _) => said("n.req.kubelet.register", &v),
                (Actor::Kubelet(_), _, "leases", _) => said("n.req.kubelet.lease", &v),
                (Actor::NodeIpamController, _, "nodes", _) => {
                    let cidr = obj.as_ref().map(|o| meta::get_str(o, &["spec", "podCIDR"]).to_string()).unwrap_or_default();
                    v.push(("cidr", cidr));
                    said("n.req.ipam.cidr", &v)
                }
                (Actor::NodeController, _, "nodes", "status") => said("n.req.nlc.unknown", &v),
                (Actor::NodeController, _, "nodes", _) => said("n.req.nlc.taint", &v),
                (Actor::NodeController, _, "pods", "status") => said("n.req.nlc.pod_notready", &v),
                (Actor::NodeController, "DELETE", "pods", _) => said("n.req.nlc.evict", &v),
                (Actor::Kubelet(_), _, "nodes", _) => said("n.req.kubelet.node", &v),
                (Actor::Kubelet(_), "POST", "serviceaccounts", "token") => said("n.req.kubelet.token", &v),
                (Actor::GarbageCollector, "DELETE", _, _) => said("n.req.gc.delete", &v),
                (_, "DELETE", _, _) => said("n.req.delete", &v),
                _ => said("n.req.generic", &v),
            }
        }
        MessageKind::Response { code, .. } if m.to == Actor::MetricsServer && (matches!(m.from, Actor::Kubelet(_)) || m.from == Actor::MetricsServer) => {
            let node = match (&m.from, m.cause.and_then(|c| s.step_of(c)).map(|i| &s.steps[i].msg.to)) {
                (Actor::Kubelet(n), _) | (_, Some(Actor::Kubelet(n))) => n.clone(),
                _ => String::new(),
            };
            v.retain(|(k, _)| *k != "node");
            v.push(("node", node));
            said(if *code == 200 { "n.resp.metrics.scrape" } else { "n.resp.metrics.scrape_failed" }, &v)
        }
        MessageKind::Response { code, .. } if m.from == Actor::MetricsServer && m.to == Actor::ApiServer => {
            v.push(("code", code.to_string()));
            said("n.resp.aggregated", &v)
        }
        MessageKind::Response { code, reason, .. } => {
            // the kubelet answering kube-apiserver's proxied log request
            if let (Actor::Kubelet(node), Actor::ApiServer) = (&m.from, &m.to) {
                v.retain(|(k, _)| *k != "node");
                v.push(("node", node.clone()));
                v.push(("code", code.to_string()));
                return said(if *code == 200 { "n.resp.kubelet.logs" } else { "n.resp.kubelet.logs_error" }, &v);
            }
            let req = m.cause.and_then(|c| s.step_of(c)).map(|i| &s.steps[i]);
            let (label, rpath, rverb) = match req.map(|r| &r.msg.kind) {
                Some(MessageKind::Request { method, info, .. }) => (req.map(|r| r.msg.label()).unwrap_or_default(), (**info).clone(), method.as_str().to_string()),
                _ => (String::new(), RequestInfo::default(), String::new()),
            };
            v.push(("code", code.to_string()));
            v.push(("reason", reason.clone()));
            v.push(("req", label));
            v.push(("kind", kind_word(lang, kind_of(&rpath.resource))));
            v.push(("name", rpath.name.clone()));
            // the revision the request wrote, if any
            let rev = req
                .and_then(|r| {
                    let i = s.step_of(r.msg.id)?;
                    // after the request come its batch's other requests, then the writes
                    s.steps[i + 1..]
                        .iter()
                        .take_while(|x| match &x.msg.kind {
                            MessageKind::EtcdTxn { .. } => true,
                            MessageKind::Request { .. } => x.msg.from == r.msg.from && x.msg.time_ms == r.msg.time_ms,
                            _ => false,
                        })
                        .filter(|x| x.msg.cause == Some(r.msg.id))
                        .filter_map(|x| match &x.msg.kind {
                            MessageKind::EtcdTxn { revision, key, op } => Some((*revision, key.clone(), *op)),
                            _ => None,
                        })
                        .last()
                });
            if let Some((r, key, _)) = &rev {
                v.push(("rev", r.to_string()));
                if rpath.name.is_empty() {
                    v.retain(|(k, _)| *k != "name");
                    v.push(("name", parse_key(key).2));
                }
            }
            let refused = match &m.kind {
                MessageKind::Response { authz: Some(a), .. } if !a.allowed() => {
                    v.push(("user", a.user.clone()));
                    true
                }
                _ => false,
            };
            let key = match code {
                403 if refused => "n.resp.forbidden",
                // answered, not stored: a bound token, a review
                201 if rev.is_none() && rpath.subresource == "token" => "n.resp.token",
                201 if rev.is_none() => "n.resp.answered",
                200 | 201 if rpath.verb == "watch" => "n.resp.watch",
                // an Eviction is not stored: it deletes the Pod
                201 if rev.is_some() && rpath.subresource == "eviction" => "n.resp.evicted",
                201 if rev.is_some() => "n.resp.created",
                // a DELETE, or an update that removed the last finalizer of a deleted object
                200 if rev.is_some() && (rverb == "DELETE" || rev.as_ref().map(|r| r.2) == Some("DELETE")) => "n.resp.deleted",
                200 if rev.is_some() => "n.resp.updated",
                202 => "n.resp.accepted",
                200 => "n.resp.read",
                404 if m.to == Actor::Kubectl && s.segments.get(step.segment).map(|g| g.command.starts_with("kubectl apply")).unwrap_or(false) => "n.resp.notfound_apply",
                404 => "n.resp.notfound",
                409 => "n.resp.conflict",
                429 => "n.resp.throttled",
                500 => "n.resp.internal",
                504 => "n.resp.timeout",
                422 => "n.resp.invalid",
                _ => "n.resp.error",
            };
            said(key, &v)
        }
        MessageKind::EtcdTxn { op, key, revision } => {
            let (res, ns, name) = parse_key(key);
            v.push(("key", key.clone()));
            v.push(("rev", revision.to_string()));
            v.push(("kind", kind_word(lang, kind_of(&res))));
            v.push(("name", name));
            v.push(("ns", ns));
            let ch = s.cluster.view().etcd_change_at(*revision);
            let version = ch.as_ref().map(|c| c.kv.version).unwrap_or(0);
            v.push(("version", version.to_string()));
            if *op == "DELETE" && m.from == Actor::Etcd {
                said("n.etcd.expire", &v)
            } else if *op == "DELETE" {
                said("n.etcd.delete", &v)
            } else if ch.as_ref().map(|c| c.prev.is_none()).unwrap_or(false) {
                said("n.etcd.create", &v)
            } else {
                said("n.etcd.update", &v)
            }
        }
        MessageKind::Watch { event_type, kind, namespace, name, resource_version } => {
            let event_type = *event_type;
            v.push(("event", event_type.to_string()));
            v.push(("kind", kind_word(lang, kind)));
            v.push(("ns", namespace.to_string()));
            v.push(("name", name.to_string()));
            v.push(("rv", resource_version.to_string()));
            let rv = *resource_version;
            let key = meta::RESOURCES.iter().find(|r| r.kind == *kind).map(|i| i.etcd_key(namespace, name)).unwrap_or_default();
            // the object as the event carries it (for DELETED: the last version before it)
            let obj = if event_type == EventType::Deleted { s.value_of_key(&key, rv.saturating_sub(1).max(1)) } else { s.value_of_key(&key, rv) };
            // a late delivery: the object was deleted from etcd before this event reached the
            // watcher (events arrive in order, the DELETED event follows)
            if event_type != EventType::Deleted && !key.is_empty() && s.value_of_key(&key, s.rev_at(pos)).is_none() {
                let gone = s.steps[..pos].iter().rev().find_map(|x| match &x.msg.kind {
                    MessageKind::EtcdTxn { op: "DELETE", key: k, revision } if *k == key => Some(*revision),
                    _ => None,
                });
                v.push(("gone", gone.map(|r| r.to_string()).unwrap_or_else(|| "?".into())));
                return said("n.watch.late", &v);
            }
            // DELETED for an object that still exists: it left the watch's field selector
            if event_type == EventType::Deleted && m.to == Actor::Scheduler && *kind == "Pod" {
                if let Some(now) = s.value_of_key(&key, s.rev_at(pos)) {
                    v.push(("phase", meta::get_str(&now, &["status", "phase"]).to_string()));
                    return said("n.watch.sched.pod_finished", &v);
                }
            }
            let owner = obj.as_ref().map(owner_name).unwrap_or_default();
            v.push(("owner", owner.clone()));
            let node = obj.as_ref().map(|o| meta::get_str(o, &["spec", "nodeName"]).to_string()).unwrap_or_default();
            match (&m.to, *kind) {
                (Actor::DeploymentController, "Deployment") => said("n.watch.dc.deploy", &v),
                (Actor::DeploymentController, "ReplicaSet") => said(if owner.is_empty() { "n.watch.dc.rs_orphan" } else { "n.watch.dc.rs" }, &v),
                (Actor::ReplicaSetController, "ReplicaSet") => said("n.watch.rsc.rs", &v),
                // a Pod no ReplicaSet owns (kubectl run, a bare manifest): nothing to queue
                (Actor::ReplicaSetController, "Pod") if v.iter().rev().find(|(k, _)| *k == "owner").map(|(_, o)| o.is_empty()).unwrap_or(true) => said("n.watch.rsc.pod_unowned", &v),
                (Actor::ReplicaSetController, "Pod") => said(if event_type == EventType::Added { "n.watch.rsc.pod_added" } else { "n.watch.rsc.pod" }, &v),
                (Actor::DaemonSetController, "DaemonSet") => said("n.watch.dsc.ds", &v),
                (Actor::StatefulSetController, "StatefulSet") => said("n.watch.stsc.sts", &v),
                (Actor::NamespaceController, "Namespace") => said("n.watch.nsc.ns", &v),
                (Actor::StatefulSetController, "Pod") if !owner.is_empty() => said("n.watch.stsc.pod", &v),
                (Actor::PersistentVolumeController, "PersistentVolumeClaim") => said("n.watch.pvc.claim", &v),
                (Actor::PersistentVolumeController, "PersistentVolume") => said("n.watch.pvc.volume", &v),
                (Actor::StorageProvisioner, "PersistentVolumeClaim") => said("n.watch.prov.claim", &v),
                (Actor::Scheduler, "PersistentVolumeClaim") => said("n.watch.sched.claim", &v),
                (Actor::JobController, "Job") => said("n.watch.jc.job", &v),
                (Actor::CronJobController, "CronJob") => said("n.watch.cjc.cronjob", &v),
                (Actor::CronJobController, "Job") if !owner.is_empty() => said("n.watch.cjc.job", &v),
                (Actor::JobController, "Pod") if !owner.is_empty() => said("n.watch.jc.pod", &v),
                (Actor::DaemonSetController, "Node") => said("n.watch.dsc.node", &v),
                (Actor::DaemonSetController, "Pod") if !owner.is_empty() => said("n.watch.dsc.pod", &v),
                (Actor::GarbageCollector, _) if event_type == EventType::Deleted => {
                    // the dependents that still name it as owner at this step
                    let uid = obj.as_ref().map(|o| meta::get_str(o, &["metadata", "uid"]).to_string()).unwrap_or_default();
                    let n = dependents_of(s, &uid, pos);
                    v.push(("n", n.to_string()));
                    said(if n == 0 { "n.watch.gc.deleted_none" } else { "n.watch.gc.deleted" }, &v)
                }
                (Actor::GarbageCollector, _) => said("n.watch.gc", &v),
                (Actor::NodeController, "Lease") => said("n.watch.nlc.lease", &v),
                (Actor::NodeController, "Node") => said("n.watch.nlc.node", &v),
                (Actor::NodeController, _) => said("n.watch.nlc.pod", &v),
                (Actor::Scheduler, "Pod") => {
                    if event_type == EventType::Deleted {
                        said("n.watch.sched.pod_deleted", &v)
                    } else if node.is_empty() {
                        said("n.watch.sched.pod_pending", &v)
                    } else {
                        v.retain(|(k, _)| *k != "node");
                        v.push(("node", node));
                        said("n.watch.sched.pod_bound", &v)
                    }
                }
                (Actor::Scheduler, "Node") => said("n.watch.sched.node", &v),
                (Actor::Kubectl, _) => said("n.watch.kubectl", &v),
                (Actor::Kubelet(_), "Node") => said("n.watch.kubelet.node", &v),
                (Actor::Kubelet(_), "Pod") => {
                    let deleting = obj.as_ref().map(meta::is_deleting).unwrap_or(false);
                    let key = match event_type {
                        EventType::Added => "n.watch.kubelet.added",
                        EventType::Deleted => "n.watch.kubelet.deleted",
                        _ if deleting => "n.watch.kubelet.deleting",
                        _ => "n.watch.kubelet.modified",
                    };
                    said(key, &v)
                }
                _ => said("n.watch.generic", &v),
            }
        }
        MessageKind::Runtime { call, detail } => {
            let (base, done) = match call.strip_suffix(" done") {
                Some(b) => (b, true),
                None => (call.as_str(), false),
            };
            // a completion that names nothing: what its call named
            let detail = match (done, detail.is_empty()) {
                (true, true) => s.steps[..k]
                    .iter()
                    .rev()
                    .find_map(|x| match &x.msg.kind {
                        MessageKind::Runtime { call: c, detail: d } if c == base && x.msg.from == m.to && x.msg.to == m.from => Some(d.clone()),
                        _ => None,
                    })
                    .unwrap_or_default(),
                _ => detail.clone(),
            };
            let detail = &detail;
            v.push(("detail", detail.clone()));
            v.push(("call", base.to_string()));
            // the pod this CRI call is for: the nearest earlier RunPodSandbox on this node, or the detail
            let image = detail.rsplit('/').next().unwrap_or(detail).to_string();
            v.push(("image", image));
            v.push(("container", detail.clone()));
            let key = match (base, done) {
                ("RunPodSandbox", false) => "n.cri.sandbox",
                ("RunPodSandbox", true) => "n.cri.sandbox_done",
                ("PullImage", false) => "n.cri.pull",
                ("PullImage", true) if detail == "error" => "n.cri.pull_error",
                ("PullImage", true) => {
                    v.push(("digest", detail.split('@').nth(1).unwrap_or("").chars().take(19).collect::<String>() + "…"));
                    "n.cri.pull_done"
                }
                ("CreateContainer", false) => "n.cri.create",
                ("CreateContainer", true) => "n.cri.create_done",
                ("StartContainer", false) => "n.cri.start",
                ("StartContainer", true) => "n.cri.start_done",
                // a Pod deleted before any container ran: nothing to stop
                ("StopContainer", _) if detail.is_empty() => "n.cri.stop_none",
                ("StopContainer", false) => "n.cri.stop",
                ("StopContainer", true) => "n.cri.stop_done",
                ("RemovePodSandbox", _) => "n.cri.remove",
                ("ExecSync", false) => "n.cri.exec",
                ("ContainerDied", _) => {
                    let mut it = detail.rsplitn(2, " exit code ");
                    let code = it.next().unwrap_or("").to_string();
                    v.retain(|(k, _)| *k != "container");
                    v.push(("container", it.next().unwrap_or("").to_string()));
                    v.push(("code", code.clone()));
                    if code == "0" { "n.cri.died_ok" } else { "n.cri.died" }
                }
                _ => "n.cri.generic",
            };
            let _ = k;
            said(key, &v)
        }
        MessageKind::Timer { what } => {
            v.push(("what", what.clone()));
            said("n.timer", &v)
        }
        MessageKind::Fault { kind, lost, what } => {
            v.push(("lost", lost.to_string()));
            v.push(("what", what.clone()));
            let key = match kind {
                FaultKind::Crash if m.from == Actor::Scheduler => "n.fault.sched".to_string(),
                FaultKind::Crash => "n.fault".to_string(),
                FaultKind::Unreachable if m.from == Actor::ApiServer => "n.fault.unreachable_node".to_string(),
                k => format!("n.fault.{}", k.key()),
            };
            Said { keys: vec![key], vars: v }
        }
        MessageKind::Net { hop, what } => {
            v.push(("what", what.clone()));
            // each kind of hop explains itself first, then the generic data-path note
            Said { keys: vec![format!("n.net.{}", hop.key()), "n.net".into()], vars: v }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::presets;

    fn all_narrations(s: &Session, lang: Lang) -> Vec<String> {
        (0..=s.len()).map(|p| narrate(s, p, lang)).collect()
    }

    #[test]
    fn every_step_of_the_presets_is_narrated_in_both_languages() {
        for (_, _, text) in presets::PRESETS {
            let mut s = Session::new(1);
            s.apply(text);
            for lang in [Lang::En, Lang::Ko] {
                for (i, n) in all_narrations(&s, lang).iter().enumerate() {
                    assert!(!n.is_empty(), "step {} empty", i);
                    assert!(!n.contains('{') && !n.contains('}'), "unfilled placeholder at step {}: {}", i, n);
                    assert!(!n.starts_with('?'), "missing template at step {}: {}", i, n);
                }
            }
        }
    }

    #[test]
    fn node_failure_and_console_commands_are_narrated() {
        let mut s = Session::new(1);
        s.apply(presets::SEED_004);
        for line in ["kubectl get pods", "kubectl scale deployment nginx-deployment --replicas=2"] {
            s.console(line, presets::SEED_004);
        }
        // fail a node that still hosts one of the two Pods
        let node = s.pod_chips(s.len()).iter().filter(|c| !c.node.is_empty() && c.class != "terminating").map(|c| c.node.clone()).min().expect("a bound pod");
        for line in [format!("sim node fail {}", node), "sim advance 400s".to_string(), "kubectl delete deployment nginx-deployment".to_string()] {
            s.console(&line, presets::SEED_004);
        }
        let mut keys_seen = std::collections::BTreeSet::new();
        for lang in [Lang::En, Lang::Ko] {
            for p in 0..=s.len() {
                let n = narrate(&s, p, lang);
                assert!(!n.contains('{') && !n.starts_with('?'), "step {}: {}", p, n);
                if lang == Lang::En {
                    keys_seen.insert(n.split(' ').take(4).collect::<Vec<_>>().join(" "));
                }
            }
        }
        let all = (0..=s.len()).map(|p| narrate(&s, p, Lang::En)).collect::<Vec<_>>().join("\n");
        for want in ["renews its Lease", "sets all its conditions to Unknown", "taint eviction deletes Pod", "replicaset controller deletes Pod", "garbage collector"] {
            assert!(all.contains(want), "never narrated: {}", want);
        }
    }

    /// The rollout presets tell the rollout's own steps: set image, the watch of rollout status,
    /// the JSON patch of undo and the revision the controller raises on the reused ReplicaSet.
    #[test]
    fn the_rollout_story_is_told() {
        let mut s = Session::new(1);
        s.apply(presets::SCRIPT_ROLLOUT_UNDO);
        s.console("kubectl rollout pause deployment/nginx-deployment", "");
        s.console("kubectl rollout resume deployment/nginx-deployment", "");
        s.console("kubectl rollout restart deployment/nginx-deployment", "");
        for lang in [Lang::En, Lang::Ko] {
            let all = all_narrations(&s, lang).join("\n");
            let wants: &[&str] = match lang {
                Lang::En => &["kubectl set image sends a strategic merge patch", "kubectl rollout status watches Deployment nginx-deployment", "kubectl rollout undo is done by kubectl itself", "a rollback reuses the old ReplicaSet", "raises its revision from 1 to 3", "spec.paused=true", "removes spec.paused", "kubectl.kubernetes.io/restartedAt"],
                Lang::Ko => &["전략적 머지 패치", "kubectl rollout status가 nginx-deployment 디플로이먼트를 watch", "JSON 패치", "리비전을 1에서 3(으)로 올리고, revision-history 어노테이션에 1을 덧붙입니다"],
            };
            for want in wants {
                assert!(all.contains(want), "{:?} never narrated: {}", lang, want);
            }
        }
    }

    #[test]
    fn the_crash_loop_is_told() {
        let mut s = Session::new(1);
        s.apply(presets::SCRIPT_CRASH_LOOP);
        let all = all_narrations(&s, Lang::En).join("\n");
        for want in ["finds app dead with exit code 1", "crash-loop back-off"] {
            assert!(all.contains(want), "never narrated: {}", want);
        }
        let ko = all_narrations(&s, Lang::Ko).join("\n");
        assert!(ko.contains("종료 코드 1(으)로 죽은 것"), "Korean crash narration");
        // kubectl logs: kubectl asks the API server, which proxies to the kubelet
        s.console("kubectl logs deployment/crash", "");
        let all = all_narrations(&s, Lang::En).join("\n");
        for want in ["kubectl logs asks kube-apiserver for the log subresource", "proxies the log request to the kubelet on node-", "sends the container's log back to kube-apiserver"] {
            assert!(all.contains(want), "never narrated: {}", want);
        }
    }

    #[test]
    fn the_seed_story_is_told() {
        let mut s = Session::new(1);
        s.apply(presets::SEED_004);
        let en = all_narrations(&s, Lang::En).join("\n");
        for want in ["informer", "work queue", "pod-template-hash", "binding subresource", "RunPodSandbox", "syncReplicaSet", "ownerReference"] {
            assert!(en.contains(want), "narration never mentions {}", want);
        }
        let ko = all_narrations(&s, Lang::Ko).join("\n");
        for want in ["디플로이먼트 컨트롤러", "레플리카셋", "스케줄러", "바인딩", "워크 큐", "인포머"] {
            assert!(ko.contains(want), "Korean narration never mentions {}", want);
        }
        // the scheduler's binding names the node
        let bind = s.steps.iter().position(|st| st.msg.label() == "POST pods/binding").unwrap();
        let n = narrate(&s, bind + 1, Lang::En);
        assert!(n.contains("node-"), "{}", n);
        // watch of a ReplicaSet to the replicaset controller: the key goes to the work queue
        let w = s.steps.iter().position(|st| st.msg.label() == "WATCH ADDED ReplicaSet" && st.msg.to == Actor::ReplicaSetController).unwrap();
        let n = narrate(&s, w + 1, Lang::En);
        assert!(n.contains("work queue") && n.contains("default/nginx-deployment-"), "{}", n);
    }

    /// Every preset and every scenario transcript's script, as sessions.
    fn all_sessions() -> Vec<(String, Session)> {
        let mut out = Vec::new();
        for (name, _, text) in presets::PRESETS {
            let mut s = Session::new(1);
            s.apply(text);
            out.push((format!("preset {}", name), s));
        }
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scenarios");
        let mut files: Vec<_> = std::fs::read_dir(&dir).unwrap().filter_map(|e| e.ok()).map(|e| e.path()).filter(|p| p.extension().map(|x| x == "sh").unwrap_or(false)).collect();
        files.sort();
        for f in files {
            let text = std::fs::read_to_string(&f).unwrap();
            out.push((format!("scenario {}", f.file_name().unwrap().to_string_lossy()), Session::replay(1, &text)));
        }
        out
    }

    /// Narration reads only what was true at its step: a watch event about an object that is no
    /// longer in etcd says it arrives late; the garbage collector's cascading deletion is promised
    /// only when dependents exist; responses and etcd writes name objects that exist (or were
    /// just deleted by them). Every step of every preset and scenario, in both languages, with
    /// every template of the table used somewhere and filled.
    /// Placeholders a template may fill with nothing: (template key, placeholder).
    const ALLOWED_EMPTY: &[(&str, &str)] = &[];

    #[test]
    fn narration_is_true_at_its_step_in_every_preset_and_scenario() {
        let mut used = std::collections::BTreeSet::new();
        let mut empties: Vec<(String, String, String)> = Vec::new();
        for (name, s) in all_sessions() {
            used.insert(narration(&s, 0, Lang::En).keys[0].clone());
            for pos in 1..=s.len() {
                let n = narration(&s, pos, Lang::En);
                // the authorization phrase's own template
                if let Some(k) = n.var("authz_key") {
                    used.insert(k.to_string());
                }
                for k in &n.keys {
                    used.insert(k.clone());
                }
                let step = &s.steps[pos - 1];
                let rev = s.rev_at(pos);
                // (None: a custom resource's kind, not in the built-in table)
                let exists_of = |kind: &str, ns: &str, name: &str| meta::RESOURCES.iter().find(|r| r.kind == kind).map(|r| s.value_of_key(&r.etcd_key(ns, name), rev).is_some());
                let exists = |kind: &str, ns: &str, name: &str| exists_of(kind, ns, name).unwrap_or(true);
                let key = n.keys[0].as_str();
                let what = || format!("{} step {} ({}): {}", name, pos, step.msg.label(), n.text(Lang::En));
                match &step.msg.kind {
                    MessageKind::Watch { event_type, kind, namespace, name: obj, .. } if *event_type != EventType::Deleted => {
                        assert!(exists(kind, namespace, obj) || key.starts_with("n.watch.late"), "stale: {}", what());
                        assert!(!key.starts_with("n.watch.late") || !exists(kind, namespace, obj), "late but present: {}", what());
                    }
                    MessageKind::Watch { kind, namespace, name: obj, .. } => {
                        if key == "n.watch.gc.deleted" {
                            assert!(n.var("n").unwrap_or("0") != "0", "{}", what());
                        }
                        assert!(!exists_of(kind, namespace, obj).unwrap_or(false) || *kind == "Event" || key == "n.watch.sched.pod_finished", "DELETED but present: {}", what());
                    }
                    MessageKind::Response { .. } if key == "n.resp.created" || key == "n.resp.updated" => {
                        let (kind, obj) = (n.var("kind").unwrap_or(""), n.var("name").unwrap_or(""));
                        let ns = match &s.steps[s.step_of(step.msg.cause.unwrap()).unwrap()].msg.kind {
                            MessageKind::Request { info, .. } => info.namespace.clone(),
                            _ => String::new(),
                        };
                        assert!(exists(kind, &ns, obj), "response names an absent object: {}", what());
                    }
                    MessageKind::EtcdTxn { op, key: k, .. } => {
                        let present = s.value_of_key(k, rev).is_some();
                        assert_eq!(present, *op != "DELETE", "{}", what());
                    }
                    _ => {}
                }
                // no placeholder is filled with nothing (a name must be there)
                for k in &n.keys {
                    let template = tr(Lang::En, k);
                    for ph in template.split('{').skip(1).filter_map(|t| t.split('}').next()) {
                        let ph = ph.split('|').next().unwrap_or(ph);
                        if ALLOWED_EMPTY.contains(&(k.as_str(), ph)) {
                            continue;
                        }
                        if !n.var(ph).map(|v| !v.trim().is_empty()).unwrap_or(false) && empties.len() < 40 && !empties.iter().any(|(kk, pp, _)| kk == k && pp == ph) {
                            empties.push((k.clone(), ph.to_string(), format!("{}: {}", what(), narrate(&s, pos, Lang::En))));
                        }
                    }
                }
                // both languages fill every placeholder
                for lang in [Lang::En, Lang::Ko] {
                    let text = narrate(&s, pos, lang);
                    assert!(!text.contains('{') && !text.contains('}') && !text.starts_with('?'), "{:?} {}: {}", lang, what(), text);
                }
            }
        }
        assert!(empties.is_empty(), "placeholders filled with nothing:\n{}", empties.iter().map(|(k, p, w)| format!("{{{}}} in {} at {}", p, k, w)).collect::<Vec<_>>().join("\n"));
        used.insert(narration(&Session::new(1), 0, Lang::En).keys[0].clone());
        // templates no preset or scenario reaches yet (each a rarer failure on the data path or
        // a controller's less common write); the list may only shrink
        let not_yet = ["n.net.dns_no_server", "n.net.node_resolver", "n.net.nothing_listens", "n.req.pvc.claimref", "n.req.stsc.claim_owner"];
        let unused: Vec<&str> = super::super::i18n::TABLE.iter().map(|e| e.0).filter(|k| k.starts_with("n.") && !used.contains(*k) && !not_yet.contains(k)).collect();
        assert!(unused.is_empty(), "narration templates never used by a preset or scenario: {:?}", unused);
        let now_used: Vec<&&str> = not_yet.iter().filter(|k| used.contains(**k)).collect();
        assert!(now_used.is_empty(), "now used, take them off the list: {:?}", now_used);
    }
}
