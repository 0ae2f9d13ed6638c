//! `kubesim fuzz`: a simulation run in the spirit of TigerBeetle's VOPR (Viewstamped Operation
//! Replicator): per seed, a random workload of kubectl operations and injected faults runs on
//! the deterministic cluster, and invariants are checked after every settle and at the end.
//!
//! No upstream counterpart: Kubernetes tests these properties with e2e and chaos suites on real
//! clusters. Everything here is pure (no IO): the CLI (`kubesim fuzz --seeds N`) prints, and
//! `tests/properties.rs` runs a short slice in CI.
//!
//! Each seed draws operations (apply/scale/delete Deployments, DaemonSets, StatefulSets, Jobs,
//! label/taint nodes, add nodes, advance time) and, with faults on, fails and recovers nodes
//! (`sim node fail|recover`), cuts nodes off and heals them (`sim node partition|heal`),
//! crashes/restarts controllers, the scheduler, the whole kube-controller-manager (its successor
//! waits for the Lease) and kubelets (`sim fault restart`), and makes kube-apiserver answer
//! requests with 409, 429, 500 or 504 (`sim fault api-error`), drops watches (`sim fault
//! watch-drop`) and restarts kube-apiserver.
//! Every operation is a line of a kubesim script, so a failing seed prints
//! the script that replays it, and `kubesim fuzz --seed S` runs it again.
//!
//! Every settle must end, and within [`settle_bound`] of the workload's size (a fixed part plus a
//! part per stored object, never a function of virtual time): the generator also makes the stuck
//! workloads learners bring ([`stuck_workloads`]: a StorageClass, claim, pull Secret or Secret
//! volume that does not exist, a selector no node matches, a crash loop, a Pod never Ready), whose retries are
//! background work. A settle that does not end fails the seed with the components and timers
//! that kept the cluster busy.
//!
//! Checked after every settle ([`check_state`]): no node over its allocatable CPU, memory or
//! pods; no pod bound twice (one successful `binding` per pod in the audit log) or to a missing
//! node; every ReplicaSet's status counts its spec; no orphan (a Pod's controller, a ReplicaSet's
//! Deployment exists); Jobs within `parallelism`; StatefulSets with consecutive ordinals and their
//! claims; one daemon Pod per eligible node. On the trace ([`check_trace`]): etcd revisions
//! strictly increase, every object's resourceVersion is at most etcd's revision, each watch
//! delivers a revision to a component at most once and in order, and every cause precedes its
//! effect. At the end, faults stop (nodes recover), the cluster runs 10 more minutes, and every
//! Deployment must have converged (observedGeneration, replicas, updatedReplicas); the seed runs
//! twice and both traces must be identical.

use crate::api::{meta, quantity};
use crate::cluster::Cluster;
use crate::controllers::{daemon, statefulset};
use crate::sandbox::{self, default_cluster};
use crate::sim::Rng;
use crate::trace::{Actor, MessageKind};
use crate::script;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

/// What one run does.
#[derive(Clone, Debug)]
pub struct Options {
    /// Operations per seed.
    pub ops: usize,
    /// Inject faults (node failures, component restarts).
    pub faults: bool,
    /// Run each seed twice and compare the traces.
    pub twice: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options { ops: 16, faults: true, twice: true }
    }
}

/// What a seed did.
#[derive(Clone, Debug, Default)]
pub struct Outcome {
    pub seed: u64,
    pub ops: usize,
    pub faults: usize,
    pub checks: u64,
    pub pods_seen: usize,
    pub pending_seen: usize,
    pub deletes: usize,
    pub daemon_pods_seen: usize,
    pub sts_applied: usize,
    pub messages: u64,
    pub trace_hash: u64,
    /// The longest settle (deliveries) and the most deliveries per object of the workload
    /// (rounded up; see [`settle_bound`]).
    pub max_settle_steps: u64,
    pub max_steps_per_object: u64,
    /// Stuck workloads applied (a missing StorageClass, claim or pull secret, a selector no
    /// node matches, a crash loop, an image that never pulls).
    pub stuck_applied: usize,
}

/// A broken invariant: where, what, and the script that replays the seed up to it.
#[derive(Clone, Debug)]
pub struct Failure {
    pub seed: u64,
    pub step: usize,
    pub message: String,
    pub script: String,
}

const IMAGES: [&str; 4] = ["nginx:1.27", "redis:7", "busybox:1.36", "nginx:1.99"];

/// Components `sim fault restart` may crash: every controller kubesim restarts, and the scheduler.
const RESTARTABLE: [&str; 9] = [
    "deployment-controller",
    "replicaset-controller",
    "daemonset-controller",
    "statefulset-controller",
    "job-controller",
    "garbage-collector",
    "kube-scheduler",
    "endpointslice-controller",
    "kube-controller-manager",
];

/// A way a workload can be stuck for good, as learners' manifests are: what a real cluster
/// then shows, and kubesim too, without `settle` running forever.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stuck {
    None,
    /// `nodeSelector` that no node matches: FailedScheduling.
    NoNode,
    /// An `imagePullSecrets` Secret that does not exist and an image that never pulls.
    PullSecret,
    /// A container that exits at once, with minReadySeconds: CrashLoopBackOff.
    CrashLoop,
    /// A volume from a claim that does not exist: FailedScheduling.
    MissingClaim,
    /// A readiness probe that never passes, with minReadySeconds.
    NotReady,
    /// A `secret` volume whose Secret does not exist: FailedMount, ContainerCreating.
    MissingSecret,
}

const STUCK: [Stuck; 6] = [Stuck::NoNode, Stuck::PullSecret, Stuck::CrashLoop, Stuck::MissingClaim, Stuck::NotReady, Stuck::MissingSecret];

/// Draws a stuck variant one time in three, from its own stream (the operations each seed draws
/// stay the ones they were).
fn draw_stuck(rng: &mut Rng) -> Stuck {
    if rng.below(3) == 0 {
        STUCK[rng.below(STUCK.len() as u64) as usize]
    } else {
        Stuck::None
    }
}

fn deployment(name: &str, replicas: u64, cpu_m: u64, image: &str, stuck: Stuck) -> String {
    let (mut spec, mut pod, mut container, mut image) = (String::new(), String::new(), String::new(), image);
    match stuck {
        Stuck::None => {}
        Stuck::NoNode => pod.push_str("      nodeSelector:\n        disk: nvme\n"),
        Stuck::PullSecret => {
            pod.push_str("      imagePullSecrets:\n      - name: regcred\n");
            image = "nginx:1.99";
        }
        Stuck::CrashLoop => {
            spec.push_str("  minReadySeconds: 5\n");
            image = "busybox:1.36";
            container.push_str("        command: [\"sh\", \"-c\", \"exit 1\"]\n");
        }
        Stuck::MissingClaim => {
            pod.push_str("      volumes:\n      - name: data\n        persistentVolumeClaim:\n          claimName: missing\n");
            container.push_str("        volumeMounts:\n        - name: data\n          mountPath: /data\n");
        }
        Stuck::MissingSecret => {
            pod.push_str("      volumes:\n      - name: creds\n        secret:\n          secretName: db-creds\n");
            container.push_str("        volumeMounts:\n        - name: creds\n          mountPath: /etc/creds\n");
        }
        Stuck::NotReady => {
            spec.push_str("  minReadySeconds: 5\n");
            image = "nginx:1.27";
            container.push_str("        readinessProbe:\n          httpGet:\n            path: /healthz\n            port: 8080\n");
        }
    }
    format!(
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {name}\nspec:\n  replicas: {replicas}\n{spec}  selector:\n    matchLabels:\n      app: {name}\n  template:\n    metadata:\n      labels:\n        app: {name}\n    spec:\n{pod}      containers:\n      - name: c\n        image: {image}\n{container}        resources:\n          requests:\n            cpu: {cpu_m}m\n            memory: 256Mi\n"
    )
}

/// The Kubernetes documentation's StatefulSet example (`web`, with its headless Service
/// `nginx`) as learners apply it, whose claim template names `my-storage-class`, which the
/// cluster does not have: the manifest of the `stuck_statefulset_docs` transcript (the page's
/// preset).
pub fn docs_statefulset() -> String {
    let script = crate::ui::presets::SCRIPT_STUCK_STATEFULSET;
    let manifest = script.split("kubectl apply -f - <<EOF\n").nth(1).and_then(|rest| rest.split("\nEOF\n").next()).unwrap_or("");
    format!("{}\n", manifest)
}

/// Every stuck workload the run's generator makes, by name, as a manifest: the test table of
/// `tests/properties.rs` applies each (with and without faults) and asks that it settle.
pub fn stuck_workloads() -> Vec<(&'static str, String)> {
    let mut all = vec![("docs-statefulset-missing-class", docs_statefulset())];
    for (name, stuck) in [("no-node-matches", Stuck::NoNode), ("missing-pull-secret", Stuck::PullSecret), ("crash-loop", Stuck::CrashLoop), ("missing-claim", Stuck::MissingClaim), ("never-ready", Stuck::NotReady), ("missing-secret", Stuck::MissingSecret)] {
        all.push((name, deployment(name, 3, 100, "nginx:1.27", stuck)));
    }
    all
}

fn daemon_set(name: &str, node_selector: Option<&str>, image: &str) -> String {
    let sel = node_selector.map(|l| format!("      nodeSelector:\n        {}\n", l.replacen('=', ": ", 1))).unwrap_or_default();
    format!(
        "apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: {name}\nspec:\n  selector:\n    matchLabels:\n      ds: {name}\n  template:\n    metadata:\n      labels:\n        ds: {name}\n    spec:\n{sel}      containers:\n      - name: c\n        image: {image}\n        resources:\n          requests:\n            cpu: 50m\n"
    )
}

fn stateful_set(rng: &mut Rng, stuck: &mut Rng) -> (String, bool) {
    let name = format!("sts{}", rng.below(2));
    let policy = ["OrderedReady", "Parallel"][rng.below(2) as usize];
    // stuck: the documentation's example as learners apply it, a class the cluster does not have
    // (ProvisioningFailed, FailedScheduling), and minReadySeconds
    let (class, min_ready) = match stuck.below(4) {
        0 => ("      storageClassName: my-storage-class\n", "  minReadySeconds: 10\n"),
        1 => ("", "  minReadySeconds: 10\n"),
        _ => ("", ""),
    };
    let claims = if rng.below(2) == 0 {
        format!("  volumeClaimTemplates:\n  - metadata:\n      name: data\n    spec:\n      accessModes: [\"ReadWriteOnce\"]\n{class}      resources:\n        requests:\n          storage: 1Gi\n")
    } else {
        String::new()
    };
    let is_stuck = !class.is_empty() && !claims.is_empty();
    let m = format!(
        "apiVersion: apps/v1\nkind: StatefulSet\nmetadata:\n  name: {name}\nspec:\n  replicas: {}\n{min_ready}  podManagementPolicy: {policy}\n  selector:\n    matchLabels:\n      sts: {name}\n  template:\n    metadata:\n      labels:\n        sts: {name}\n    spec:\n      containers:\n      - name: c\n        image: {}\n        resources:\n          requests:\n            cpu: 50m\n{claims}",
        rng.below(5),
        IMAGES[rng.below(4) as usize]
    );
    (m, is_stuck)
}

fn job(rng: &mut Rng) -> String {
    let name = format!("job{}", rng.below(3));
    let cmd = ["sleep 3", "sleep 2; exit 1", "echo done"][rng.below(3) as usize];
    format!(
        "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: {name}\nspec:\n  completions: {}\n  parallelism: {}\n  backoffLimit: 2\n  template:\n    spec:\n      restartPolicy: Never\n      containers:\n      - name: c\n        image: busybox:1.36\n        command: [\"sh\", \"-c\", \"{cmd}\"]\n",
        1 + rng.below(4),
        1 + rng.below(3)
    )
}

fn list(c: &Cluster, r: &str) -> Vec<Value> {
    match meta::lookup(r) {
        Some(info) => c.view().objects(info, "", None),
        None => Vec::new(),
    }
}

fn owned_by<'a>(pods: &'a [Value], owner: &Value) -> impl Iterator<Item = &'a Value> {
    let uid = meta::uid(owner).to_string();
    pods.iter().filter(move |p| meta::controller_of(p).map(|o| meta::get_str(o, &["uid"]) == uid).unwrap_or(false))
}

macro_rules! ensure {
    ($checks:expr, $cond:expr, $($fmt:tt)+) => {{
        *$checks += 1;
        if !$cond {
            return Err(format!($($fmt)+));
        }
    }};
}

/// The invariants of a settled cluster's objects; returns how many checks held.
pub fn check_state(c: &Cluster) -> Result<u64, String> {
    let mut n = 0u64;
    let checks = &mut n;
    let pods = list(c, "pods");
    let nodes = list(c, "nodes");
    let node_names: BTreeSet<&str> = nodes.iter().map(meta::name).collect();
    // capacity, and binding to existing nodes
    for node in &nodes {
        let name = meta::name(node);
        let on: Vec<&Value> = pods.iter().filter(|p| meta::get_str(p, &["spec", "nodeName"]) == name).collect();
        let q = |k: &str| quantity::parse_quantity(&node["status"]["allocatable"][k]);
        let (Some(cpu_a), Some(mem_a), Some(pods_a)) = (q("cpu"), q("memory"), q("pods")) else { continue };
        let (mut cpu, mut mem) = (0i64, 0i64);
        for p in &on {
            for ctr in meta::get_array(p, &["spec", "containers"]) {
                cpu += quantity::parse_quantity(&ctr["resources"]["requests"]["cpu"]).map(|q| q.milli_value()).unwrap_or(0);
                mem += quantity::parse_quantity(&ctr["resources"]["requests"]["memory"]).map(|q| q.value()).unwrap_or(0);
            }
        }
        ensure!(checks, cpu <= cpu_a.milli_value(), "node {} holds {}m CPU of {}m allocatable", name, cpu, cpu_a.milli_value());
        ensure!(checks, mem <= mem_a.value(), "node {} holds more memory than it can allocate", name);
        ensure!(checks, on.len() as i64 <= pods_a.value(), "node {} holds {} pods, allocatable {}", name, on.len(), pods_a.value());
    }
    for p in &pods {
        let node = meta::get_str(p, &["spec", "nodeName"]);
        ensure!(checks, node.is_empty() || node_names.contains(node), "pod {} is bound to missing node {}", meta::name(p), node);
    }
    // one successful binding per pod: a Pod created again under the same name (a StatefulSet's)
    // is a new Pod, so a create resets its count
    let mut bindings: BTreeMap<String, usize> = BTreeMap::new();
    for line in c.view().audit() {
        // only creates on pods matter: skip the others' bodies unparsed
        if !line.contains("\"verb\":\"create\"") || !line.contains("\"resource\":\"pods\"") {
            continue;
        }
        let Ok(ev) = serde_json::from_str::<Value>(line) else { continue };
        if ev["responseStatus"]["code"] != 201 || meta::get_str(&ev, &["objectRef", "resource"]) != "pods" {
            continue;
        }
        // a create with generateName has no objectRef name: the response names the Pod
        let name = match meta::get_str(&ev, &["objectRef", "name"]) {
            "" => meta::get_str(&ev, &["responseObject", "metadata", "name"]),
            n => n,
        };
        let key = format!("{}/{}", meta::get_str(&ev, &["objectRef", "namespace"]), name);
        match meta::get_str(&ev, &["objectRef", "subresource"]) {
            "binding" => {
                let k = bindings.entry(key.clone()).or_default();
                *k += 1;
                ensure!(checks, *k == 1, "pod {} was bound {} times", key, k);
            }
            "" if meta::get_str(&ev, &["verb"]) == "create" => {
                bindings.insert(key, 0);
            }
            _ => {}
        }
    }
    // convergence of ReplicaSets and ownership
    let rss = list(c, "replicasets");
    let deploys = list(c, "deployments");
    for rs in &rss {
        let spec = rs["spec"]["replicas"].as_i64().unwrap_or(1);
        let status = rs["status"]["replicas"].as_i64().unwrap_or(0);
        // a ReplicaSet being deleted (foreground, waiting for a Pod stuck on a failed node) no
        // longer manages its replicas
        ensure!(checks, spec == status || meta::is_deleting(rs), "replicaset {} has {} of {} replicas", meta::name(rs), status, spec);
        let owner = meta::controller_of(rs).map(|o| meta::get_str(o, &["uid"]).to_string()).unwrap_or_default();
        ensure!(checks, deploys.iter().any(|d| meta::uid(d) == owner), "replicaset {} is orphaned", meta::name(rs));
    }
    let dss = list(c, "daemonsets");
    let jobs = list(c, "jobs");
    for j in &jobs {
        let parallelism = j["spec"]["parallelism"].as_i64().unwrap_or(1);
        let running = owned_by(&pods, j).filter(|p| !meta::is_deleting(p) && !matches!(meta::get_str(p, &["status", "phase"]), "Succeeded" | "Failed")).count() as i64;
        ensure!(checks, running <= parallelism, "job {} runs {} pods, parallelism {}", meta::name(j), running, parallelism);
    }
    let stss = list(c, "statefulsets");
    // a terminating Pod may outlive its owner (on a failed node it stays Terminating until the
    // kubelet returns, as in Kubernetes)
    for p in pods.iter().filter(|p| !meta::is_deleting(p)) {
        let owner = meta::controller_of(p).map(|o| meta::get_str(o, &["uid"]).to_string()).unwrap_or_default();
        ensure!(checks, rss.iter().chain(&dss).chain(&jobs).chain(&stss).any(|o| meta::uid(o) == owner), "pod {} is orphaned", meta::name(p));
    }
    let claims = list(c, "persistentvolumeclaims");
    for sts in &stss {
        // no ordinal twice, and no gap below the highest live one; a gap may only be held by a Pod
        // still terminating (on a failed node it stays Terminating until its kubelet returns, and
        // the controller may not create its successor before it is gone: at most one Pod per
        // identity)
        let mut live: Vec<i64> = owned_by(&pods, sts).filter(|p| !meta::is_deleting(p)).map(statefulset::utils::ordinal).collect();
        live.sort();
        let held: BTreeSet<i64> = owned_by(&pods, sts).map(statefulset::utils::ordinal).collect();
        let top = live.last().copied().unwrap_or(-1);
        let no_dup = live.windows(2).all(|w| w[0] != w[1]);
        ensure!(checks, no_dup && (0..=top).all(|o| held.contains(&o)), "statefulset {} has pods with ordinals {:?}", meta::name(sts), live);
        for p in owned_by(&pods, sts) {
            for v in meta::get_array(p, &["spec", "volumes"]) {
                if let Some(claim) = meta::str_at(v, &["persistentVolumeClaim", "claimName"]) {
                    ensure!(checks, claims.iter().any(|c| meta::name(c) == claim), "pod {} names missing claim {}", meta::name(p), claim);
                }
            }
        }
    }
    for ds in dss.iter().filter(|d| !meta::is_deleting(d)) {
        for node in &nodes {
            let e = daemon::util::node_should_run_daemon_pod(node, ds);
            let here = owned_by(&pods, ds).filter(|p| !meta::is_deleting(p)).filter(|p| daemon::util::target_node_name(p).as_deref() == Some(meta::name(node))).count();
            // a Pod still terminating there (its kubelet failed) holds the place of the next one
            let terminating = owned_by(&pods, ds).any(|p| meta::is_deleting(p) && daemon::util::target_node_name(p).as_deref() == Some(meta::name(node)));
            if e.should_run && !terminating {
                ensure!(checks, here == 1, "daemonset {} has {} pods on eligible node {}", meta::name(ds), here, meta::name(node));
            }
            if !e.should_continue_running {
                ensure!(checks, here == 0, "daemonset {} keeps {} pods on node {}", meta::name(ds), here, meta::name(node));
            }
        }
    }
    // resourceVersions never run ahead of etcd
    let head = c.view().etcd_revision();
    for o in pods.iter().chain(&rss).chain(&deploys) {
        let rv: i64 = meta::resource_version(o).parse().unwrap_or(0);
        ensure!(checks, rv <= head, "{} {} has resourceVersion {} past etcd's revision {}", meta::get_str(o, &["kind"]), meta::name(o), rv, head);
    }
    Ok(n)
}

/// Invariants of the trace since message `from`: etcd revisions strictly increase, each watch
/// delivers a revision to a component at most once and in order, causes precede effects.
pub fn check_trace(c: &Cluster, from: u64) -> Result<u64, String> {
    let mut n = 0u64;
    let checks = &mut n;
    let mut last_rev = 0i64;
    let mut delivered: BTreeMap<(String, &'static str), i64> = BTreeMap::new();
    let mut seen: BTreeSet<(String, &'static str, String, String, i64)> = BTreeSet::new();
    let msgs = c.trace().messages();
    let first_kept = msgs.first().map(|m| m.id).unwrap_or(0);
    for m in msgs.iter().filter(|m| m.id > from) {
        if let Some(cause) = m.cause {
            ensure!(checks, cause < m.id, "message #{} names a later cause #{}", m.id, cause);
            if cause >= first_kept {
                let t = msgs[(cause - first_kept) as usize].time_ms;
                ensure!(checks, t <= m.time_ms, "message #{} at {} ms comes before its cause #{} at {} ms", m.id, m.time_ms, cause, t);
            }
        }
        match &m.kind {
            MessageKind::EtcdTxn { revision, .. } => {
                ensure!(checks, *revision > last_rev, "etcd revision {} after {}", revision, last_rev);
                last_rev = *revision;
            }
            // a relist's notifications (caused by the LIST after a 410) come in list order
            MessageKind::Watch { .. }
                if m.cause.filter(|c| *c >= first_kept).and_then(|c| msgs.get((c - first_kept) as usize)).map(|r| matches!(&r.kind, MessageKind::Request { info, .. } if info.verb == "list")).unwrap_or(false) => {}
            MessageKind::Watch { kind, namespace, name, resource_version, .. } if m.from == Actor::ApiServer && m.to != Actor::Kubectl => {
                let rv = *resource_version;
                let key = (m.to.name(), *kind);
                let prev = delivered.insert(key.clone(), rv).unwrap_or(0);
                ensure!(checks, rv >= prev, "{} got {} rv {} after rv {}", m.to, kind, rv, prev);
                ensure!(checks, seen.insert((m.to.name(), *kind, namespace.to_string(), name.to_string(), rv)), "{} got {} {}/{} rv {} twice", m.to, kind, namespace, name, rv);
            }
            MessageKind::Response { code: 410, .. } => {
                // 410 Gone to a watch: the reflector relists, and the informer's handlers hear
                // about every listed object again (its Replace), in list order
                let req = m.cause.filter(|c| *c >= first_kept).and_then(|c| msgs.get((c - first_kept) as usize));
                if let Some(MessageKind::Request { info, .. }) = req.map(|r| &r.kind) {
                    if let Some(kind) = meta::lookup(&info.resource).map(|i| i.kind) {
                        delivered.remove(&(m.to.name(), kind));
                        seen.retain(|(who, k, ..)| !(*who == m.to.name() && *k == kind));
                    }
                }
            }
            MessageKind::Fault { .. } => {
                // a restarted component watches anew from a fresh list
                delivered.retain(|(who, _), _| *who != m.from.name());
                seen.retain(|(who, ..)| *who != m.from.name());
            }
            _ => {}
        }
    }
    Ok(n)
}

/// After faults stop: every Deployment has converged: the controller observed its latest
/// generation, its status counts its ReplicaSets' replicas, and where every Pod of it is Ready
/// the rollout is complete (a rollout waits for room or for an image that never pulls, as in
/// Kubernetes, with ProgressDeadlineExceeded).
fn check_converged(c: &Cluster) -> Result<u64, String> {
    let mut n = 0u64;
    let checks = &mut n;
    let rss = list(c, "replicasets");
    let pods = list(c, "pods");
    for d in list(c, "deployments").iter().filter(|d| !meta::is_deleting(d)) {
        let name = meta::name(d);
        let spec = d["spec"]["replicas"].as_i64().unwrap_or(1);
        let observed = d["status"]["observedGeneration"].as_i64().unwrap_or(0);
        let generation = d["metadata"]["generation"].as_i64().unwrap_or(0);
        ensure!(checks, observed == generation, "deployment {} observed generation {} of {}", name, observed, generation);
        let owned: Vec<&Value> = rss.iter().filter(|rs| meta::controller_of(rs).map(|o| meta::get_str(o, &["uid"]) == meta::uid(d)).unwrap_or(false)).collect();
        let total: i64 = owned.iter().map(|rs| rs["status"]["replicas"].as_i64().unwrap_or(0)).sum();
        let replicas = d["status"]["replicas"].as_i64().unwrap_or(0);
        ensure!(checks, replicas == total, "deployment {} counts {} replicas, its ReplicaSets hold {}", name, replicas, total);
        let ready = |p: &Value| meta::get_array(p, &["status", "conditions"]).iter().any(|c| c["type"] == "Ready" && c["status"] == "True");
        let blocked = owned.iter().any(|rs| owned_by(&pods, rs).any(|p| !ready(p)));
        if !blocked {
            ensure!(checks, replicas == spec, "deployment {} has {} replicas of {} with every Pod ready", name, replicas, spec);
            let updated = d["status"]["updatedReplicas"].as_i64().unwrap_or(0);
            ensure!(checks, updated == spec, "deployment {} has {} updated replicas of {} with every Pod ready", name, updated, spec);
        }
    }
    Ok(n)
}

/// FNV-1a over the trace's lines: two runs of one seed must agree.
fn trace_hash(c: &Cluster) -> u64 {
    let mut h: u64 = 0xcbf29ce484222325;
    for m in c.trace().messages() {
        for b in m.line().bytes() {
            h ^= b as u64;
            h = h.wrapping_mul(0x100000001b3);
        }
    }
    h
}

/// The bound on one settle: a fixed part for the control plane's own work (informers, leader
/// election, node heartbeats caught up after `sim advance`) and a part per object of the
/// workload. A settle that needs more is a failure, whatever the virtual time it covered: every
/// input settles, stuck or not (issue 33). Measured over the fault run: see README.
pub const SETTLE_BASE_STEPS: u64 = 2_500;
/// The settle bound's part per object of the workload ([`workload_size`]).
pub const SETTLE_STEPS_PER_OBJECT: u64 = 60;

/// The size of the workload a settle works on: the objects stored, without Events and Leases
/// (records of work, not work to do).
pub fn workload_size(c: &Cluster) -> u64 {
    c.view().etcd_keys("/registry/").iter().filter(|k| !k.starts_with("/registry/events/") && !k.starts_with("/registry/leases/")).count() as u64
}

/// The most objects one operation of the run can add (a Deployment of 7 replicas, a
/// StatefulSet's Pods and claims, a DaemonSet's Pods on a dozen nodes, with their owners).
const OBJECTS_PER_OPERATION: u64 = 30;

/// [`SETTLE_BASE_STEPS`] + [`SETTLE_STEPS_PER_OBJECT`] × objects.
pub fn settle_bound(objects: u64) -> u64 {
    SETTLE_BASE_STEPS + SETTLE_STEPS_PER_OBJECT * objects
}

/// One seed's run (once).
fn run_once(seed: u64, opts: &Options) -> Result<Outcome, Failure> {
    let mut c = default_cluster(seed);
    let mut sb = sandbox::Sandbox::attach(&c);
    let mut rng = Rng::new(seed.wrapping_mul(7919).wrapping_add(1));
    let mut stuck_rng = Rng::new(seed ^ 0x57_0c_4e_d5);
    let mut out = Outcome { seed, ops: opts.ops, ..Default::default() };
    let mut script = format!("# seed: {}\n", seed);
    let mut names: Vec<String> = Vec::new();
    let mut failed_nodes: Vec<String> = Vec::new();
    let mut partitioned: Vec<String> = Vec::new();
    let mut trace_from = 0u64;
    let fail = |step: usize, message: String, script: &str| Failure { seed, step, message, script: script.to_string() };
    let exec = |c: &mut Cluster, sb: &mut sandbox::Sandbox, script: &mut String, line: String, stdin: Option<String>| -> String {
        match &stdin {
            Some(body) => script.push_str(&format!("{} <<EOF\n{}EOF\n", line, body)),
            None => script.push_str(&format!("{}\n", line)),
        }
        script::exec(c, sb, &script::Command { line, line_no: 1, stdin }, &|_| None)
    };
    for step in 0..opts.ops {
        let kubelets: Vec<String> = list(&c, "nodes").iter().map(|n| meta::name(n).to_string()).collect();
        let op = rng.below(if opts.faults { 25 } else { 14 });
        let healthy: Vec<String> = kubelets.iter().filter(|n| !failed_nodes.contains(n) && !partitioned.contains(n)).cloned().collect();
        let printed = match op {
            0..=3 => {
                let name = format!("d{}", rng.below(5));
                let (replicas, cpu_m, image) = (rng.below(6), 100 + rng.below(1500), IMAGES[rng.below(4) as usize]);
                let stuck = draw_stuck(&mut stuck_rng);
                out.stuck_applied += usize::from(stuck != Stuck::None);
                let m = deployment(&name, replicas, cpu_m, image, stuck);
                if !names.contains(&name) {
                    names.push(name);
                }
                exec(&mut c, &mut sb, &mut script, "kubectl apply -f -".into(), Some(m))
            }
            4 | 5 if !names.is_empty() => {
                let n = names[rng.below(names.len() as u64) as usize].clone();
                exec(&mut c, &mut sb, &mut script, format!("kubectl scale deployment {} --replicas={}", n, rng.below(8)), None)
            }
            6 if !names.is_empty() => {
                let n = names.remove(rng.below(names.len() as u64) as usize);
                out.deletes += 1;
                let cascade = ["background", "foreground"][rng.below(2) as usize];
                exec(&mut c, &mut sb, &mut script, format!("kubectl delete deployment {} --cascade={}", n, cascade), None)
            }
            7 => exec(&mut c, &mut sb, &mut script, format!("sim node add extra-{} --cpu 2 --memory 4Gi", step), None),
            9 => {
                let (m, stuck) = stateful_set(&mut rng, &mut stuck_rng);
                out.stuck_applied += usize::from(stuck);
                let printed = exec(&mut c, &mut sb, &mut script, "kubectl apply -f -".into(), Some(m));
                out.sts_applied += usize::from(printed.contains("statefulset.apps"));
                printed
            }
            10 | 11 => {
                let name = format!("ds{}", rng.below(2));
                let sel = [None, Some("disk=ssd")][rng.below(2) as usize];
                let m = daemon_set(&name, sel, IMAGES[rng.below(3) as usize]);
                exec(&mut c, &mut sb, &mut script, "kubectl apply -f -".into(), Some(m))
            }
            12 => {
                let n = kubelets[rng.below(kubelets.len() as u64) as usize].clone();
                let line = match rng.below(3) {
                    0 => format!("kubectl label nodes {} disk=ssd --overwrite", n),
                    1 => format!("kubectl label nodes {} disk-", n),
                    _ => format!("kubectl taint nodes {} dedicated=x:NoExecute --overwrite", n),
                };
                exec(&mut c, &mut sb, &mut script, line, None)
            }
            13 => {
                let m = job(&mut rng);
                exec(&mut c, &mut sb, &mut script, "kubectl apply -f -".into(), Some(m))
            }
            14 | 15 => {
                out.faults += 1;
                let who = RESTARTABLE[rng.below(RESTARTABLE.len() as u64) as usize];
                exec(&mut c, &mut sb, &mut script, format!("sim fault restart {}", who), None)
            }
            18 | 19 => {
                // kube-apiserver answers the next requests with an error: client-go retries a
                // 429 after Retry-After, the two controllers with a rate-limited requeue retry
                // the others, kubectl reports them
                out.faults += 1;
                let code = [409, 429, 500, 504][rng.below(4) as usize];
                // a 429 may hit anyone (every client retries it); other errors the clients that handle them
                let who = if code == 429 { ["", " replicaset-controller", " deployment-controller", " kubectl"][rng.below(4) as usize] } else { [" replicaset-controller", " deployment-controller", " kubectl"][rng.below(3) as usize] };
                exec(&mut c, &mut sb, &mut script, format!("sim fault api-error {}{} --count {}", code, who, 1 + rng.below(3)), None)
            }
            20 => {
                // a component's watch connections drop (resume from the last resourceVersion)
                out.faults += 1;
                let who = RESTARTABLE[rng.below(RESTARTABLE.len() as u64) as usize];
                exec(&mut c, &mut sb, &mut script, format!("sim fault watch-drop {}", who), None)
            }
            21 => {
                // kube-apiserver restarts: every informer relists
                out.faults += 1;
                exec(&mut c, &mut sb, &mut script, "sim fault restart kube-apiserver".into(), None)
            }
            22 if !healthy.is_empty() => {
                // a kubelet restarts; containerd keeps its containers
                out.faults += 1;
                let n = healthy[rng.below(healthy.len() as u64) as usize].clone();
                exec(&mut c, &mut sb, &mut script, format!("sim fault restart kubelet@{}", n), None)
            }
            23 if !healthy.is_empty() => {
                // a node's network to the control plane is cut
                out.faults += 1;
                let n = healthy[rng.below(healthy.len() as u64) as usize].clone();
                partitioned.push(n.clone());
                exec(&mut c, &mut sb, &mut script, format!("sim node partition {}", n), None)
            }
            24 if !partitioned.is_empty() => {
                let n = partitioned.remove(rng.below(partitioned.len() as u64) as usize);
                exec(&mut c, &mut sb, &mut script, format!("sim node heal {}", n), None)
            }
            16 if !healthy.is_empty() => {
                out.faults += 1;
                let n = healthy[rng.below(healthy.len() as u64) as usize].clone();
                failed_nodes.push(n.clone());
                exec(&mut c, &mut sb, &mut script, format!("sim node fail {}", n), None)
            }
            17 if !failed_nodes.is_empty() => {
                let n = failed_nodes.remove(rng.below(failed_nodes.len() as u64) as usize);
                exec(&mut c, &mut sb, &mut script, format!("sim node recover {}", n), None)
            }
            _ => exec(&mut c, &mut sb, &mut script, format!("sim advance {}ms", rng.below(20_000)), None),
        };
        if printed.contains("panicked") {
            return Err(fail(step, format!("a command panicked: {}", printed), &script));
        }
        script.push_str("sim settle\n");
        // one operation adds at most a few dozen objects (8 replicas with their claims, a
        // DaemonSet's Pods on every node): the settle gets the bound of the larger workload
        let s = c.run_steps_reporting(settle_bound(workload_size(&c) + OBJECTS_PER_OPERATION));
        if !s.settled {
            let busy = crate::cluster::Busy::describe(&s.busy);
            return Err(fail(step, format!("the cluster did not settle in {} steps ({} of virtual time); still busy: {}", s.steps, crate::sim::format_ms(s.time_ms), busy), &script));
        }
        let size = workload_size(&c);
        out.max_settle_steps = out.max_settle_steps.max(s.steps);
        out.max_steps_per_object = out.max_steps_per_object.max(s.steps.div_ceil(size.max(1)));
        if s.steps > settle_bound(size) {
            return Err(fail(step, format!("a settle took {} steps ({} of virtual time) for {} objects, over its bound of {}", s.steps, crate::sim::format_ms(s.time_ms), size, settle_bound(size)), &script));
        }
        out.checks += check_state(&c).map_err(|e| fail(step, e, &script))?;
        out.checks += check_trace(&c, trace_from).map_err(|e| fail(step, e, &script))?;
        trace_from = c.trace().total();
        let pods = list(&c, "pods");
        out.pods_seen += pods.len();
        out.pending_seen += pods.iter().filter(|p| meta::get_str(p, &["spec", "nodeName"]).is_empty()).count();
        out.daemon_pods_seen += pods.iter().filter(|p| meta::controller_of(p).map(|o| meta::get_str(o, &["kind"]) == "DaemonSet").unwrap_or(false)).count();
    }
    // faults stop: every node recovers, time runs on, everything converges
    for n in std::mem::take(&mut failed_nodes) {
        exec(&mut c, &mut sb, &mut script, format!("sim node recover {}", n), None);
    }
    for n in std::mem::take(&mut partitioned) {
        exec(&mut c, &mut sb, &mut script, format!("sim node heal {}", n), None);
    }
    exec(&mut c, &mut sb, &mut script, "sim advance 10m".into(), None);
    script.push_str("sim settle\n");
    c.run_until_settled();
    let end = opts.ops;
    out.checks += check_state(&c).map_err(|e| fail(end, e, &script))?;
    out.checks += check_trace(&c, trace_from).map_err(|e| fail(end, e, &script))?;
    out.checks += check_converged(&c).map_err(|e| fail(end, format!("after faults stopped: {}", e), &script))?;
    out.messages = c.trace().total();
    out.trace_hash = trace_hash(&c);
    Ok(out)
}

/// One seed: the run, and (with `twice`) the same run again, whose trace must be identical.
pub fn run_seed(seed: u64, opts: &Options) -> Result<Outcome, Failure> {
    let first = run_once(seed, opts)?;
    if opts.twice {
        let again = run_once(seed, opts)?;
        if again.trace_hash != first.trace_hash || again.messages != first.messages {
            return Err(Failure { seed, step: opts.ops, message: format!("the same seed gave another trace ({} vs {} messages)", first.messages, again.messages), script: String::new() });
        }
    }
    Ok(first)
}
