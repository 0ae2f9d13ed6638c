//! The kubelet's pod workers: from "a Pod is bound to my node" to "its containers run", and back.
//!
//! Real counterparts: `pkg/kubelet/pod_workers.go` and `kubelet.go` (`syncPod`, `syncTerminatingPod`),
//! `kuberuntime/kuberuntime_manager.go` (`SyncPod`: sandbox, image, create, start),
//! `images/image_manager.go` (`EnsureImageExists`, serialized pulls, pull back-off),
//! `status/status_manager.go` and `status/generate.go` (pod status and conditions),
//! `pkg/kubelet/events/event.go` (event reasons).
//!
//! Each step is a CRI call to the node's [`Runtime`] taking virtual time; between steps the
//! kubelet reports status to the API server with PATCH `pods/NAME/status`.
//!
//! Containers run as the image catalogue says ([`runtime::program`]): servers until stopped, a
//! program (`sleep 5; exit 1`) for its time. When one exits, the kubelet's next sync (after the
//! PLEG relist, 1 s) restarts it as `restartPolicy` says, with the crash-loop back-off of
//! `kuberuntime_manager.go` `doBackOff` (`flowcontrol.Backoff`: 10 s doubling to 300 s, reset after
//! 10 minutes without a crash): `restartCount`, `lastState.terminated`, `CrashLoopBackOff` and the
//! `BackOff` event, as `kubectl get pods` shows them (`3 (25s ago)`).
//!
//! Probes run as [`prober`] says: a readiness probe decides `ready` (and the Pod's Ready
//! condition, hence rollouts), a startup probe gates the others, and a liveness or startup
//! failure kills the container (`Killing … failed liveness probe, will be restarted`): a server
//! stops on SIGTERM with code 0, a shell script is SIGKILLed after the grace period (137).
//!
//! Init containers run first, one after the other, each to completion (a failing one restarts
//! with the crash-loop back-off, or fails the Pod under `restartPolicy: Never`); meanwhile the
//! others wait as `PodInitializing` and `Initialized` is False (`ContainersNotInitialized`).
//!
//! Native sidecars (init containers with `restartPolicy: Always`, `kuberuntime_container.go`
//! `computeInitContainerActions`) start in their place among the init containers, and the next
//! container starts once the sidecar has *started* (its startup probe passed, if it has one); they
//! run beside the regular containers, are restarted whatever the Pod's `restartPolicy`, count in
//! `ContainersReady`/`Ready` (listed first), and are stopped when the regular containers have
//! finished for good.
//!
//! Volumes: before the sandbox, the volume manager sets up the Pod's volumes
//! (`WaitForAttachAndMount`); a `secret` volume whose Secret cannot be found keeps the Pod
//! `ContainerCreating` with `FailedMount` events, retried with the reconciler's back-off, and
//! each pod sync that times out (2m3s) says which volumes are unmounted.
//!
//! What kubesim simplifies: on deletion, sidecars are stopped together with the regular containers
//! (upstream stops them after, in reverse order); no other volume is set up (kubesim serves no
//! Secrets or ConfigMaps yet: every Secret named is missing, ConfigMap volumes mount); the
//! restart after a back-off happens exactly when it ends (upstream: at the next pod sync after
//! it), and `BackOff` is recorded once per back-off.

use crate::api::request::EventType;
use crate::api::{meta, net, time};
use crate::api::request::Method;
use crate::client::Recorder;
use crate::cluster;
use super::{lifecycle, prober, Timer};
use crate::runtime::{self, ImageRef, Runtime};
use super::envvars::{self, PodEnv};
use super::manager::{self, Manager};
use super::volumes;
use serde_json::{json, Value};
use std::collections::{BTreeMap, VecDeque};
use std::rc::Rc;

/// The pod workers' timers: a CRI call finishing or a back-off passing, for one pod (by uid)
/// and, where it matters, one container (by index).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PodTimer {
    /// RunPodSandbox finished.
    SandboxReady(String),
    /// An image pull finished (successfully or not).
    Pulled(String, usize),
    /// The next pod sync finds the image in back-off.
    BackOff(String, usize),
    /// A pod worker resync during an image back-off (every 10–15 s, `pod_workers.go`'s
    /// requeue after an error): pull again if the back-off has passed, else say so again.
    Retry(String, usize),
    /// CreateContainer finished.
    Created(String, usize),
    /// StartContainer finished.
    Started(String, usize),
    /// The containers stopped after SIGTERM.
    Stopped(String),
    /// A container's `preStop` hook returned (or the grace period cut it off): SIGTERM now.
    PreStopDone(String, usize, bool),
    /// A container's process exited (its run number: a later run ignores an earlier run's timer).
    Exited(String, usize, i64),
    /// A probe worker's tick: container, worker index, run number.
    Probe(String, usize, usize, i64),
    /// The pod sync after the PLEG noticed an exit: restart, back off, or leave it.
    SyncExited(String, usize),
    /// A crash-loop back-off has passed.
    Restart(String, usize),
    /// CreateContainer of a restart finished.
    Recreated(String, usize),
    /// StartContainer of a restart finished.
    Restarted(String, usize),
    /// The volume manager's reconciler tries to set up the Pod's volumes again (the attempt).
    MountRetry(String, u32),
    /// A pod sync gives up waiting for the volumes (`podAttachAndMountTimeout`).
    MountTimeout(String),
    /// The pod worker's sync after `CreateContainerConfigError` (the container's index): the
    /// image check and the container's configuration again.
    ConfigRetry(String, usize),
    /// A pod sync rewrites the Pod's ConfigMap and Secret volumes (after one of them changed).
    VolumeSync(String),
}

impl PodTimer {
    fn uid(&self) -> &str {
        match self {
            PodTimer::SandboxReady(u) | PodTimer::Stopped(u) | PodTimer::MountTimeout(u) | PodTimer::MountRetry(u, _) | PodTimer::VolumeSync(u) => u,
            PodTimer::ConfigRetry(u, _) => u,
            PodTimer::Pulled(u, _) | PodTimer::BackOff(u, _) | PodTimer::Retry(u, _) | PodTimer::Created(u, _) | PodTimer::Started(u, _) => u,
            PodTimer::PreStopDone(u, _, _) => u,
            PodTimer::Exited(u, _, _) | PodTimer::Probe(u, _, _, _) | PodTimer::SyncExited(u, _) | PodTimer::Restart(u, _) | PodTimer::Recreated(u, _) | PodTimer::Restarted(u, _) => u,
        }
    }
}

impl std::fmt::Display for PodTimer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PodTimer::SandboxReady(u) => write!(f, "sandbox:{}", u),
            PodTimer::Pulled(u, i) => write!(f, "pulled:{}:{}", u, i),
            PodTimer::BackOff(u, i) => write!(f, "backoff:{}:{}", u, i),
            PodTimer::Retry(u, i) => write!(f, "retry:{}:{}", u, i),
            PodTimer::Created(u, i) => write!(f, "created:{}:{}", u, i),
            PodTimer::Started(u, i) => write!(f, "started:{}:{}", u, i),
            PodTimer::Stopped(u) => write!(f, "stopped:{}", u),
            PodTimer::PreStopDone(u, i, ok) => write!(f, "prestop:{}:{}:{}", u, i, ok),
            PodTimer::Exited(u, i, r) => write!(f, "exited:{}:{}:{}", u, i, r),
            PodTimer::Probe(u, i, k, r) => write!(f, "probe:{}:{}:{}:{}", u, i, k, r),
            PodTimer::SyncExited(u, i) => write!(f, "sync-exited:{}:{}", u, i),
            PodTimer::Restart(u, i) => write!(f, "restart:{}:{}", u, i),
            PodTimer::Recreated(u, i) => write!(f, "recreated:{}:{}", u, i),
            PodTimer::Restarted(u, i) => write!(f, "restarted:{}:{}", u, i),
            PodTimer::MountRetry(u, n) => write!(f, "mount:{}:{}", u, n),
            PodTimer::MountTimeout(u) => write!(f, "mount-timeout:{}", u),
            PodTimer::ConfigRetry(u, i) => write!(f, "config-retry:{}:{}", u, i),
            PodTimer::VolumeSync(u) => write!(f, "volume-sync:{}", u),
        }
    }
}

type Ctx<'a> = cluster::Ctx<'a, Timer>;

/// The volume manager's reconciler: a failed mount is tried again after 500 ms, doubling to
/// 2m2s (`exponentialbackoff`: `initialDurationBeforeRetry`, `maxDurationBeforeRetry`).
pub const MOUNT_RETRY_INITIAL_MS: i64 = 500;
pub const MOUNT_RETRY_MAX_MS: i64 = 122_000;
/// `podAttachAndMountTimeout`: how long a pod sync waits for the Pod's volumes.
pub const POD_ATTACH_AND_MOUNT_TIMEOUT_MS: i64 = 123_000;

/// Upstream image pull back-off: 10 s doubling to 300 s (`flowcontrol.NewBackOff`).
pub const IMAGE_BACKOFF_INITIAL_MS: i64 = 10_000;
pub const IMAGE_BACKOFF_MAX_MS: i64 = 300_000;
/// Time from a failed pull to the next pod sync noticing the back-off.
pub const RESYNC_AFTER_ERROR_MS: i64 = 1_500;
/// `pod_workers.go`: after a sync error the pod worker is requeued after
/// `wait.Jitter(backOffPeriod, 0.5)`, backOffPeriod 10 s: 10 to 15 s.
pub const POD_WORKER_BACKOFF_MS: i64 = 10_000;

fn resync_after_error(ctx: &mut Ctx) -> i64 {
    POD_WORKER_BACKOFF_MS + ctx.rng.below(POD_WORKER_BACKOFF_MS as u64 / 2 + 1) as i64
}
/// `syncFrequency`: the pod worker's periodic sync (1 m, jittered by half).
pub const SYNC_FREQUENCY_MS: i64 = 60_000;
/// Time a container takes to exit after SIGTERM (nginx and friends exit quickly).
pub const STOP_CONTAINER_MS: i64 = 250;
/// Crash-loop back-off (`kubelet.go` `backOffPeriod`, `MaxContainerBackOff`): 10 s doubling to 300 s.
pub const CRASH_BACKOFF_INITIAL_MS: i64 = 10_000;
pub const CRASH_BACKOFF_MAX_MS: i64 = 300_000;
/// The PLEG relist period: an exit is noticed, and the pod synced, this long after it happens.
pub const PLEG_RELIST_MS: i64 = 1_000;
/// A first exit later than this is background work (`sim settle` does not wait for it).
const FOREGROUND_EXIT_MS: i64 = 60_000;

/// `flowcontrol.Backoff.Next` for one container: the first failure (or one after more than
/// 2 × max of quiet) starts at the initial period, each later one doubles it up to the max.
/// Returns the new (period, lastUpdate).
pub fn crash_backoff_next(period_ms: i64, last_update: i64, now: i64) -> (i64, i64) {
    if period_ms == 0 || now - last_update > 2 * CRASH_BACKOFF_MAX_MS {
        (CRASH_BACKOFF_INITIAL_MS, now)
    } else {
        ((period_ms * 2).min(CRASH_BACKOFF_MAX_MS), now)
    }
}

/// `flowcontrol.Backoff.IsInBackOffSince(key, finishedAt)`.
pub fn in_crash_backoff(period_ms: i64, last_update: i64, finished_at: i64, now: i64) -> bool {
    period_ms > 0 && now - last_update <= 2 * CRASH_BACKOFF_MAX_MS && now - finished_at < period_ms
}

#[derive(Clone, Debug, PartialEq)]
enum Step {
    Sandbox,
    Image(usize),
    Pulling(usize),
    BackOff(usize),
    /// The container's configuration could not be built (`CreateContainerConfigError`): the
    /// next pod sync tries again.
    ConfigError(usize),
    Create(usize),
    Running,
    /// restartPolicy Never/OnFailure and every container has exited for good: Succeeded or Failed.
    Finished,
    Terminating,
    Done,
}

#[derive(Clone, Debug)]
struct Container {
    name: String,
    image: String,
    waiting: Option<(String, String)>,
    started_at: Option<i64>,
    container_id: String,
    image_id: String,
    image_full: String,
    behavior: runtime::Behavior,
    /// the teaching image's behaviour once its `FAILURES` runs have failed
    behavior_later: Option<(i64, runtime::Behavior)>,
    restart_count: i64,
    /// `state.terminated` while the container's process has exited and it is not running again
    terminated: Option<Value>,
    finished_at: i64,
    exit_code: i32,
    /// `lastState.terminated`
    last_terminated: Option<Value>,
    /// the crash-loop back-off entry: period and last update
    backoff_ms: i64,
    backoff_at: i64,
    /// what the container's current (or last) run printed: its log
    logs: Vec<runtime::program::LogLine>,
    /// what the run before printed (`kubectl logs --previous`)
    previous_logs: Option<Vec<runtime::program::LogLine>>,
    /// what probes see of it
    surface: runtime::program::Surface,
    /// its probe workers
    workers: Vec<prober::Worker>,
    /// the exit code a kill gives it (set when the kubelet stops it)
    kill_code: Option<i32>,
    /// its exit is the kernel's OOM killer (the teaching image over its memory limit)
    oom: bool,
    /// an init container: runs to completion, in order, before the regular containers start
    init: bool,
    /// a native sidecar: an init container with `restartPolicy: Always`
    sidecar: bool,
    /// an ephemeral container (`kubectl debug`): added to a running Pod, never restarted, not
    /// counted for readiness or the phase
    ephemeral: bool,
    /// its `lifecycle.preStop` hook
    pre_stop: Option<lifecycle::Hook>,
    /// the environment the kubelet gave it at CreateContainer (`kubectl exec … env`)
    env: Vec<(String, String)>,
    /// what it uses (`runtime::usage`), and its CPU counter: nanoseconds used up to `cpu_at`
    usage: runtime::usage::Profile,
    cpu_ns: f64,
    cpu_at: i64,
    /// its `subPath` mounts (mount path → the file as it was when the container was created:
    /// a subPath mount never sees later changes)
    sub_paths: BTreeMap<String, String>,
    /// files written into the container's writable layer (`kubectl cp` into it), for the run
    /// with this container ID: a new run starts from the image again
    written: (String, BTreeMap<String, String>),
}

impl Container {
    /// The events' `involvedObject.fieldPath`.
    fn field_path(&self) -> String {
        format!("spec.{}{{{}}}", self.spec_list(), self.name)
    }

    /// The list of the Pod's spec the container is in.
    fn spec_list(&self) -> &'static str {
        if self.ephemeral {
            "ephemeralContainers"
        } else if self.init {
            "initContainers"
        } else {
            "containers"
        }
    }

    /// The container's process runs now.
    fn running(&self) -> bool {
        self.waiting.is_none() && self.started_at.is_some() && self.terminated.is_none()
    }

    fn worker_ok(&self, kind: prober::ProbeKind) -> bool {
        self.workers.iter().filter(|w| w.probe.kind == kind).all(|w| w.result == Some(true))
    }

    /// `started`: running, and its startup probe (if any) has succeeded.
    fn started(&self) -> bool {
        self.running() && self.worker_ok(prober::ProbeKind::Startup)
    }

    /// `ready`: started, and its readiness probe (if any) succeeds.
    fn ready(&self) -> bool {
        self.started() && self.worker_ok(prober::ProbeKind::Readiness)
    }
}

#[derive(Clone, Debug)]
struct PodState {
    /// The pod as last seen (shared with the watch event that delivered it).
    pod: Rc<Value>,
    step: Step,
    pod_ip: String,
    start_time: i64,
    sandbox_ready: bool,
    containers: Vec<Container>,
    backoff_ms: i64,
    pull_requested_at: i64,
    /// when the last pull failed (the image back-off counts from it)
    pull_failed_at: i64,
    /// the content of its ConfigMap, Secret, projected and downward API volumes, by volume name
    volumes: BTreeMap<String, volumes::Files>,
    /// when the pod worker syncs again after a `CreateContainerConfigError`, or the volume
    /// reconciler tries the volumes again (`i64::MAX`: nothing pending)
    config_retry_at: i64,
    /// the volume reconciler's next attempt (its back-off step)
    mount_attempt: u32,
    /// the token manager's bound service account token for the Pod's projected token volume
    token: Option<String>,
}

impl PodState {
    /// Container `idx` may be restarted now: the pod runs, it is the init container in progress,
    /// or it is a sidecar and the pod is still starting its later containers.
    fn can_restart(&self, idx: usize) -> bool {
        let c = &self.containers[idx];
        self.step == Step::Running
            || (c.init && self.step == Step::Create(idx))
            || (c.sidecar && c.started_at.is_some() && matches!(self.step, Step::Image(_) | Step::Pulling(_) | Step::Create(_) | Step::BackOff(_) | Step::ConfigError(_)))
    }
}

/// A pull waiting for the serial image puller.
#[derive(Clone, Debug)]
struct PullRequest {
    uid: String,
    index: usize,
    image: ImageRef,
}

#[derive(Default)]
pub struct PodWorkers {
    pods: BTreeMap<String, PodState>,
    pub runtime: Runtime,
    recorder: Option<Recorder>,
    pull_queue: VecDeque<PullRequest>,
    pulling: bool,
    /// Timers that fired while the node was down.
    pub deferred: Vec<PodTimer>,
    /// A status write found no server (a cut-off node): resync once it can reach one.
    pub unsent: bool,
    /// The ConfigMap and Secret managers (their watches are the kubelet process's own).
    pub managers: Managers,
    /// The node's allocatable cpu (milli) and memory (bytes): a container resource with no limit.
    pub allocatable: (i64, i64),
}

/// The kubelet's watch-based ConfigMap and Secret managers.
#[derive(Clone, Debug)]
pub struct Managers {
    pub configmaps: Manager,
    pub secrets: Manager,
}

impl Default for Managers {
    fn default() -> Self {
        Managers { configmaps: Manager::new("configmaps"), secrets: Manager::new("secrets") }
    }
}

/// Go's `time.Duration.String()` of a millisecond duration: `812ms`, `9.578s`, `1m2.5s`.
pub fn go_duration(ms: i64) -> String {
    if ms < 1000 {
        return format!("{}ms", ms);
    }
    let mins = ms / 60_000;
    let rem = ms % 60_000;
    let secs = format!("{}.{:03}", rem / 1000, rem % 1000);
    let secs = secs.trim_end_matches('0').trim_end_matches('.').to_string();
    if mins > 0 {
        format!("{}m{}s", mins, secs)
    } else {
        format!("{}s", secs)
    }
}

/// The pod's init containers (in order) then its regular containers: the order the pod worker
/// starts them in. While init containers remain, every container waits as `PodInitializing`.
fn containers_of(pod: &Value) -> Vec<Container> {
    let has_init = meta::get(pod, &["spec", "initContainers"]).and_then(Value::as_array).map(|a| !a.is_empty()).unwrap_or(false);
    let mut all = Vec::new();
    for (field, init) in [("initContainers", true), ("containers", false)] {
        all.extend(containers_in(pod, field, init, has_init));
    }
    all
}

fn containers_in(pod: &Value, field: &str, init: bool, has_init: bool) -> Vec<Container> {
    meta::get(pod, &["spec", field])
        .and_then(|c| c.as_array())
        .map(|a| {
            a.iter()
                .map(|c| {
                    let strings = |k: &str| -> Vec<String> {
                        meta::get(c, &[k]).and_then(Value::as_array).map(|a| a.iter().filter_map(|x| x.as_str().map(String::from)).collect()).unwrap_or_default()
                    };
                    let image = meta::get_str(c, &["image"]).to_string();
                    let env: Vec<(String, String)> = meta::get(c, &["env"])
                        .and_then(Value::as_array)
                        .map(|a| a.iter().map(|e| (meta::get_str(e, &["name"]).to_string(), meta::get_str(e, &["value"]).to_string())).collect())
                        .unwrap_or_default();
                    let memory_limit = meta::get(c, &["resources", "limits", "memory"]).and_then(crate::api::quantity::parse_quantity).map(|q| q.value());
                    let app = runtime::program::TeachingApp::of(&image, &env, memory_limit);
                    let oom = app.as_ref().map(|a| a.oom_after_ms.is_some() && a.exit.map(|(at, _)| a.oom_after_ms.map(|o| o < at).unwrap_or(false)).unwrap_or(true)).unwrap_or(false);
                    Container {
                        usage: runtime::usage::profile(&image, &env),
                        cpu_ns: 0.0,
                        cpu_at: 0,
                        name: meta::get_str(c, &["name"]).to_string(),
                        behavior: match &app {
                            Some(a) => a.behavior(),
                            // a shell with its stdin kept open (`stdin: true`: `kubectl debug -it`)
                            // waits for input instead of exiting at once
                            None if meta::get_bool(c, &["stdin"]) && strings("command").iter().chain(strings("args").iter()).all(|w| w == "sh" || w == "/bin/sh" || w == "bash") => runtime::Behavior::Serve { output: Vec::new() },
                            None => runtime::program::behavior(&image, &strings("command"), &strings("args")),
                        },
                        behavior_later: app.as_ref().and_then(|a| a.failures.map(|n| (n, a.behavior_of_run(n)))),
                        surface: match app {
                            Some(a) => runtime::program::Surface::of_app(a),
                            None => runtime::program::Surface::of(&image, &strings("command"), &strings("args")),
                        },
                        oom,
                        workers: prober::probes_of(c).into_iter().map(prober::Worker::new).collect(),
                        kill_code: None,
                        image,
                        waiting: Some((if has_init { "PodInitializing" } else { "ContainerCreating" }.into(), String::new())),
                        init,
                        sidecar: init && meta::get_str(c, &["restartPolicy"]) == "Always",
                        ephemeral: field == "ephemeralContainers",
                        pre_stop: lifecycle::pre_stop_of(c),
                        env: Vec::new(),
                        sub_paths: BTreeMap::new(),
                        written: Default::default(),
                        started_at: None,
                        container_id: String::new(),
                        image_id: String::new(),
                        image_full: String::new(),
                        restart_count: 0,
                        terminated: None,
                        finished_at: 0,
                        exit_code: 0,
                        last_terminated: None,
                        backoff_ms: 0,
                        backoff_at: 0,
                        logs: Vec::new(),
                        previous_logs: None,
                    }
                })
                .collect()
        })
        .unwrap_or_default()
}

impl PodWorkers {
    /// What a restarted kubelet finds: containerd still runs the containers (kept: the pods'
    /// containers, the image store, the CNI allocations), but the kubelet's memory is new: its
    /// events cache is empty and every readiness worker starts again at Failure (`worker.go`'s
    /// initial value; v1.34 has no exception for containers that were already running), so a
    /// container with a readiness probe is not ready until its next probe passes.
    pub fn after_restart(&self) -> PodWorkers {
        let mut pods = self.pods.clone();
        for st in pods.values_mut() {
            for c in st.containers.iter_mut() {
                for w in c.workers.iter_mut().filter(|w| w.probe.kind == prober::ProbeKind::Readiness) {
                    w.forget_result();
                }
            }
        }
        // a new process: no watches yet (its pods register again as it lists them)
        PodWorkers { pods, runtime: self.runtime.clone(), recorder: None, pull_queue: self.pull_queue.clone(), pulling: self.pulling, deferred: Vec::new(), unsent: self.unsent, managers: Managers::default(), allocatable: self.allocatable }
    }

    /// The uids of the pods the kubelet runs.
    pub fn uids(&self) -> Vec<String> {
        self.pods.keys().cloned().collect()
    }

    fn recorder(&mut self, node: &str) -> &mut Recorder {
        self.recorder.get_or_insert_with(|| Recorder::new("kubelet", node))
    }

    pub fn node_images(&self) -> Value {
        Value::Array(self.runtime.node_images())
    }

    /// `RegisterPod` of the ConfigMap and Secret managers: watches for the objects it names.
    /// A Pod's volumes and env cannot change after it is created, so a Pod already registered
    /// (every update the kubelet sees after its add) is not walked again.
    fn register(&mut self, ctx: &mut Ctx, pod: &Value) {
        let (uid, ns) = (meta::uid(pod), meta::namespace(pod));
        if self.managers.configmaps.has_pod(uid) || self.managers.secrets.has_pod(uid) {
            return;
        }
        self.managers.configmaps.register_pod(ctx, uid, ns, manager::pod_configmap_names(pod));
        self.managers.secrets.register_pod(ctx, uid, ns, manager::pod_secret_names(pod));
    }

    /// A watch event for a pod bound to this node.
    pub fn on_pod(&mut self, ctx: &mut Ctx, node: &str, ip: &str, event: EventType, pod: Rc<Value>) {
        let uid = meta::uid(&pod).to_string();
        if event == EventType::Deleted {
            self.pods.remove(&uid);
            self.runtime.cni.release(&uid);
            self.managers.configmaps.unregister_pod(ctx, &uid);
            self.managers.secrets.unregister_pod(ctx, &uid);
            return;
        }
        let phase = meta::get_str(&pod, &["status", "phase"]);
        if phase != "Succeeded" && phase != "Failed" {
            self.register(ctx, &pod);
        }
        if let Some(st) = self.pods.get_mut(&uid) {
            st.pod = pod.clone();
            if meta::is_deleting(&pod) && st.step != Step::Terminating && st.step != Step::Done {
                self.begin_termination(ctx, node, &uid);
                return;
            }
            // ephemeral containers added through `pods/ephemeralcontainers`: the pod worker's
            // next sync starts each new one (after the Pod's own containers have started)
            let known = st.containers.iter().filter(|x| x.ephemeral).count();
            let listed = meta::get_array(&pod, &["spec", "ephemeralContainers"]).len();
            // ephemeral containers are only ever added, so a longer list holds new ones
            let new: Vec<Container> = if listed > known { containers_in(&pod, "ephemeralContainers", false, false).split_off(known) } else { Vec::new() };
            if !new.is_empty() && !matches!(st.step, Step::Terminating | Step::Done | Step::Finished) {
                let first = st.containers.len();
                st.containers.extend(new);
                if st.step == Step::Running {
                    st.step = Step::Image(first);
                    self.ensure_image(ctx, node, ip, &uid, first);
                }
            }
            return;
        }
        let phase = meta::get_str(&pod, &["status", "phase"]);
        if phase == "Succeeded" || phase == "Failed" {
            return;
        }
        // a new pod for this node
        let st = PodState {
            pod: pod.clone(),
            step: Step::Sandbox,
            pod_ip: String::new(),
            start_time: ctx.now,
            sandbox_ready: false,
            containers: containers_of(&pod),
            backoff_ms: 0,
            pull_requested_at: 0,
            pull_failed_at: 0,
            volumes: BTreeMap::new(),
            config_retry_at: 0,
            mount_attempt: 0,
            token: None,
        };
        self.pods.insert(uid.clone(), st);
        if meta::is_deleting(&pod) {
            self.begin_termination(ctx, node, &uid);
            return;
        }
        self.patch_status(ctx, node, ip, &uid);
        if self.mount_volumes(ctx, node, &uid, 0) {
            self.run_sandbox(ctx, node, &uid);
        } else {
            ctx.after_background(POD_ATTACH_AND_MOUNT_TIMEOUT_MS, Timer::Pod(PodTimer::MountTimeout(uid)));
        }
    }

    /// What the kubelet knows of the Pod to build an environment or a volume.
    fn pod_env<'a>(&self, pod: &'a Value, pod_ip: &'a str, host_ip: &'a str) -> PodEnv<'a> {
        PodEnv { pod, pod_ip, host_ip, allocatable: self.allocatable }
    }

    /// Every volume's `SetUp`: the files of those that can be set up, and the errors of those
    /// that cannot (volume name, the plugin's error), in the Pod's order.
    fn set_up_volumes(&self, pod: &Value, pod_ip: &str, host_ip: &str) -> (BTreeMap<String, volumes::Files>, Vec<(String, String)>) {
        let e = self.pod_env(pod, pod_ip, host_ip);
        let token = self.pods.get(meta::uid(pod)).and_then(|st| st.token.as_deref());
        let (mut ok, mut failed) = (BTreeMap::new(), Vec::new());
        for v in meta::get_array(pod, &["spec", "volumes"]) {
            let name = meta::get_str(v, &["name"]).to_string();
            match volumes::set_up(&e, v, &self.managers.configmaps, &self.managers.secrets, token) {
                Ok(files) => {
                    ok.insert(name, files);
                }
                Err(err) => failed.push((name, err)),
            }
        }
        (ok, failed)
    }

    /// The Pod's volumes that cannot be set up now, with the volume plugin's error.
    fn unmountable_volumes(&self, uid: &str) -> Vec<(String, String)> {
        self.pods.get(uid).map(|st| self.set_up_volumes(&st.pod, "", "").1).unwrap_or_default()
    }

    /// The volume manager's `WaitForAttachAndMount` before the sandbox: every volume must be set
    /// up. A `configMap` or `secret` volume (or projected source) whose object cannot be found
    /// fails (`MountVolume.SetUp failed for volume "creds" : secret "db-creds" not found`, a
    /// FailedMount event) unless it is `optional`. The reconciler tries again with its back-off
    /// (background work: a Pod waiting for a Secret never keeps `settle` running, unless the
    /// Secret arrives: see [`PodWorkers::on_object`]). Returns whether the volumes are ready.
    fn mount_volumes(&mut self, ctx: &mut Ctx, node: &str, uid: &str, attempt: u32) -> bool {
        let Some(st) = self.pods.get(uid) else { return false };
        let pod = st.pod.clone();
        let token_failed = if st.token.is_none() { self.fetch_token(ctx, &pod) } else { None };
        let (files, mut failed) = self.set_up_volumes(&pod, "", "");
        if let Some(f) = token_failed {
            failed.retain(|(v, _)| *v != f.0);
            failed.insert(0, f);
        }
        if failed.is_empty() {
            if let Some(st) = self.pods.get_mut(uid) {
                st.volumes = files;
                st.config_retry_at = i64::MAX;
            }
            return true;
        }
        for (volume, err) in &failed {
            let msg = format!("MountVolume.SetUp failed for volume \"{}\" : {}", volume, err);
            self.recorder(node).event(ctx, &pod, None, "Warning", "FailedMount", &msg);
        }
        let delay = (MOUNT_RETRY_INITIAL_MS << attempt.min(8)).min(MOUNT_RETRY_MAX_MS);
        ctx.after_background(delay, Timer::Pod(PodTimer::MountRetry(uid.to_string(), attempt + 1)));
        if let Some(st) = self.pods.get_mut(uid) {
            st.config_retry_at = ctx.now + delay;
            st.mount_attempt = attempt + 1;
        }
        false
    }

    /// The token manager's `GetServiceAccountToken` for a Pod with a projected
    /// `serviceAccountToken` source: a TokenRequest bound to the Pod (`serviceaccounts/token`,
    /// as many seconds as the source asks), kept for the Pod. Returns the volume that cannot be
    /// set up and the error if the request fails.
    /// kubesim simplifies: the token is not refreshed at 80 % of its lifetime.
    fn fetch_token(&mut self, ctx: &mut Ctx, pod: &Value) -> Option<(String, String)> {
        let (volume, src) = meta::get_array(pod, &["spec", "volumes"]).iter().find_map(|v| {
            meta::get_array(v, &["projected", "sources"])
                .iter()
                .find_map(|s| s.get("serviceAccountToken"))
                .map(|s| (meta::get_str(v, &["name"]).to_string(), s.clone()))
        })?;
        let ns = meta::namespace(pod);
        let sa = meta::get_str(pod, &["spec", "serviceAccountName"]);
        let mut spec = json!({"audiences": null, "expirationSeconds": src.get("expirationSeconds").and_then(Value::as_i64).unwrap_or(3600), "boundObjectRef": {"kind": "Pod", "apiVersion": "v1", "name": meta::name(pod), "uid": meta::uid(pod)}});
        if let Some(aud) = src.get("audience").and_then(Value::as_str).filter(|a| !a.is_empty()) {
            spec["audiences"] = json!([aud]);
        }
        let body = json!({"kind": "TokenRequest", "apiVersion": "authentication.k8s.io/v1", "metadata": {"creationTimestamp": null}, "spec": spec, "status": {"token": "", "expirationTimestamp": null}});
        let resp = ctx.request(Method::Post, &format!("/api/v1/namespaces/{}/serviceaccounts/{}/token", ns, sa), Some(body));
        if !resp.ok() {
            return Some((volume, format!("failed to fetch token: {}", meta::get_str(&resp.body, &["message"]))));
        }
        let token = meta::get_str(&resp.body, &["status", "token"]).to_string();
        if let Some(st) = self.pods.get_mut(meta::uid(pod)) {
            st.token = Some(token);
        }
        None
    }

    /// A watch event of the ConfigMap or Secret managers. A Pod waiting for the object (its
    /// volumes, or its container's configuration) has its next try made foreground work, at the
    /// time it was due: it is now bound to change something. A running Pod whose volume shows
    /// the object gets it rewritten at its next periodic sync (`syncFrequency` 1m, jitter 0.5:
    /// 60–90 s); its environment never changes.
    pub fn on_object(&mut self, ctx: &mut Ctx, resource: crate::api::meta::Resource, event: EventType, object: Rc<Value>) {
        use crate::api::meta::Resource;
        let (ns, name) = (meta::namespace(&object).to_string(), meta::name(&object).to_string());
        let (mgr, res) = match resource {
            Resource::ConfigMaps => (&mut self.managers.configmaps, "configmaps"),
            Resource::Secrets => (&mut self.managers.secrets, "secrets"),
            _ => return,
        };
        if !mgr.on_watch(event == EventType::Deleted, object) {
            return;
        }
        for uid in mgr.users(&ns, &name) {
            let Some(st) = self.pods.get(&uid) else { continue };
            if meta::is_deleting(&st.pod) {
                continue;
            }
            let due = (st.config_retry_at - ctx.now).max(0);
            match st.step {
                Step::ConfigError(idx) if event != EventType::Deleted => ctx.after(due, Timer::Pod(PodTimer::ConfigRetry(uid.clone(), idx)), false),
                Step::Sandbox if !st.sandbox_ready && event != EventType::Deleted && st.config_retry_at != i64::MAX => {
                    ctx.after(due, Timer::Pod(PodTimer::MountRetry(uid.clone(), st.mount_attempt)), false)
                }
                _ if st.sandbox_ready && meta::get_array(&st.pod, &["spec", "volumes"]).iter().any(|v| volumes::uses(v, res, &name)) => {
                    let d = SYNC_FREQUENCY_MS + ctx.rng.below(SYNC_FREQUENCY_MS as u64 / 2 + 1) as i64;
                    ctx.after_background(d, Timer::Pod(PodTimer::VolumeSync(uid.clone())));
                }
                _ => {}
            }
        }
    }

    /// The Pod is still before its sandbox, not being deleted: its volume timers still matter.
    fn waits_for_volumes(&self, uid: &str) -> bool {
        self.pods.get(uid).is_some_and(|st| st.step == Step::Sandbox && !st.sandbox_ready && !meta::is_deleting(&st.pod))
    }

    /// `RunPodSandbox`, unless the node's network is not ready yet (no pod CIDR: the pod worker
    /// says so and waits; [`PodWorkers::network_ready`] starts it).
    fn run_sandbox(&mut self, ctx: &mut Ctx, node: &str, uid: &str) {
        let Some(st) = self.pods.get(uid) else { return };
        let pod = st.pod.clone();
        if self.runtime.cni.range().is_none() {
            let msg = "network is not ready: container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized";
            self.recorder(node).event(ctx, &pod, None, "Warning", "NetworkNotReady", msg);
            return;
        }
        self.get_pull_secrets_for_pod(ctx, node, &pod);
        ctx.runtime_call(node, "RunPodSandbox", &format!("{}/{}", meta::namespace(&pod), meta::name(&pod)));
        let d = ctx.timing().sandbox_ms;
        ctx.after(d, Timer::Pod(PodTimer::SandboxReady(uid.to_string())), false);
    }

    /// `getPullSecretsForPod`, which every pod sync calls: the Pod's `imagePullSecrets` are
    /// looked up through the Secret manager, and those that cannot be found are named in a
    /// warning (the pull goes ahead without them).
    fn get_pull_secrets_for_pod(&mut self, ctx: &mut Ctx, node: &str, pod: &Value) {
        let ns = meta::namespace(pod);
        let missing: Vec<&str> = meta::get_array(pod, &["spec", "imagePullSecrets"]).iter().map(|r| meta::get_str(r, &["name"])).filter(|n| !n.is_empty() && self.managers.secrets.get(ns, n).is_err()).collect();
        if missing.is_empty() {
            return;
        }
        let msg = format!("Unable to retrieve some image pull secrets ({}); attempting to pull the image may not succeed.", missing.join(", "));
        self.recorder(node).event(ctx, pod, None, "Warning", "FailedToRetrieveImagePullSecret", &msg);
    }

    /// The node got its pod CIDR (`UpdateRuntimeConfig`): the pods waiting for the network start.
    pub fn network_ready(&mut self, ctx: &mut Ctx, node: &str) {
        // (a Pod whose volumes are not set up waits for them, not for the network)
        let waiting: Vec<String> = self.pods.iter().filter(|(u, st)| st.step == Step::Sandbox && !meta::is_deleting(&st.pod) && self.unmountable_volumes(u).is_empty()).map(|(u, _)| u.clone()).collect();
        for uid in waiting {
            self.run_sandbox(ctx, node, &uid);
        }
    }

    /// CNI DEL for a sandbox going away.
    fn teardown_network(&mut self, ctx: &mut Ctx, node: &str, uid: &str, pod: &Value) {
        if let Some(addr) = self.runtime.cni.release(uid) {
            ctx.runtime_net(node, crate::trace::NetHop::CniDel, format!("CNI DEL {}/{} eth0: host-local releases {}", meta::namespace(pod), meta::name(pod), net::format_ipv4(addr)));
        }
    }

    pub fn on_timer(&mut self, ctx: &mut Ctx, node: &str, ip: &str, timer: PodTimer) {
        let uid = timer.uid().to_string();
        if !self.pods.contains_key(&uid) {
            if let PodTimer::Pulled(..) = timer {
                self.pulling = false;
                self.start_next_pull(ctx, node);
            }
            return;
        }
        match timer {
            PodTimer::SandboxReady(_) => {
                if let Some(st) = self.pods.get_mut(&uid) {
                    if st.step != Step::Sandbox {
                        return;
                    }
                }
                // inside RunPodSandbox, containerd calls the CNI plugin for the Pod's address —
                // unless the Pod uses the node's network namespace: its address is the node's
                let pod = self.pods[&uid].pod.clone();
                let host_network = meta::get_bool(&pod, &["spec", "hostNetwork"]);
                let allocated = if host_network { net::parse_ipv4(ip).ok_or_else(|| format!("node address {:?}", ip)) } else { self.runtime.cni.allocate(&uid) };
                match allocated {
                    Ok(addr) if host_network => {
                        if let Some(st) = self.pods.get_mut(&uid) {
                            st.pod_ip = net::format_ipv4(addr);
                            st.sandbox_ready = true;
                            st.step = Step::Image(0);
                        }
                    }
                    Ok(addr) => {
                        let (range, gw) = (self.runtime.cni.range().map(|r| r.prefix).unwrap_or(24), self.runtime.cni.gateway().map(net::format_ipv4).unwrap_or_default());
                        ctx.runtime_net(node, crate::trace::NetHop::CniAdd, format!("CNI ADD {}/{} eth0: bridge cni0, host-local gives {}/{} gw {}", meta::namespace(&pod), meta::name(&pod), net::format_ipv4(addr), range, gw));
                        if let Some(st) = self.pods.get_mut(&uid) {
                            st.pod_ip = net::format_ipv4(addr);
                            st.sandbox_ready = true;
                            st.step = Step::Image(0);
                        }
                    }
                    Err(e) => {
                        ctx.runtime_reply(node, "RunPodSandbox", "error");
                        let id = self.runtime.new_id(node);
                        let msg = format!("Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox \"{}\": plugin type=\"bridge\" failed (add): {}", id, e);
                        self.recorder(node).event(ctx, &pod, None, "Warning", "FailedCreatePodSandBox", &msg);
                        let d = resync_after_error(ctx);
                        ctx.after_background(d, Timer::Pod(PodTimer::SandboxReady(uid.to_string())));
                        return;
                    }
                }
                ctx.runtime_reply(node, "RunPodSandbox", "");
                self.patch_status(ctx, node, ip, &uid);
                self.ensure_image(ctx, node, ip, &uid, 0);
            }
            PodTimer::MountRetry(_, attempt) => {
                if !self.waits_for_volumes(&uid) || self.pods.get(&uid).map(|st| ctx.now < st.config_retry_at).unwrap_or(true) {
                    return;
                }
                if self.mount_volumes(ctx, node, &uid, attempt) {
                    self.run_sandbox(ctx, node, &uid);
                }
            }
            PodTimer::MountTimeout(_) => {
                // the pod sync gives up waiting (podAttachAndMountTimeout) and the pod worker
                // tries again, waiting as long once more
                if !self.waits_for_volumes(&uid) {
                    return;
                }
                let pod = self.pods[&uid].pod.clone();
                let mut unmounted: Vec<String> = self.unmountable_volumes(&uid).into_iter().map(|(v, _)| v).collect();
                if unmounted.is_empty() {
                    return;
                }
                unmounted.sort();
                let msg = format!("Unable to attach or mount volumes: unmounted volumes=[{}], unattached volumes=[], failed to process volumes=[]: context deadline exceeded", unmounted.join(" "));
                self.recorder(node).event(ctx, &pod, None, "Warning", "FailedMount", &msg);
                ctx.after_background(POD_ATTACH_AND_MOUNT_TIMEOUT_MS, Timer::Pod(PodTimer::MountTimeout(uid.to_string())));
            }
            PodTimer::Pulled(_, idx) => self.pull_done(ctx, node, ip, &uid, idx),
            PodTimer::ConfigRetry(_, idx) => {
                // the pod worker's next sync (the timer the error armed, or one brought forward
                // by the object's arrival: whichever comes at its time)
                let Some(st) = self.pods.get(&uid) else { return };
                if st.step != Step::ConfigError(idx) || ctx.now < st.config_retry_at || meta::is_deleting(&st.pod) {
                    return;
                }
                let pod = st.pod.clone();
                self.get_pull_secrets_for_pod(ctx, node, &pod);
                self.ensure_image(ctx, node, ip, &uid, idx);
            }
            PodTimer::VolumeSync(_) => {
                // a pod sync: the volumes' content is written again from the managers
                let Some(st) = self.pods.get(&uid) else { return };
                if meta::is_deleting(&st.pod) || !st.sandbox_ready {
                    return;
                }
                let (pod, pod_ip) = (st.pod.clone(), st.pod_ip.clone());
                let (files, _) = self.set_up_volumes(&pod, &pod_ip, ip);
                if let Some(st) = self.pods.get_mut(&uid) {
                    for (name, f) in files {
                        st.volumes.insert(name, f);
                    }
                }
            }
            PodTimer::BackOff(_, idx) => {
                // the next sync finds the image in back-off
                let Some(st) = self.pods.get_mut(&uid) else { return };
                if st.step != Step::BackOff(idx) {
                    return;
                }
                let c = &mut st.containers[idx];
                let prev = c.waiting.as_ref().map(|w| w.1.clone()).unwrap_or_default();
                c.waiting = Some(("ImagePullBackOff".into(), format!("Back-off pulling image \"{}\": ErrImagePull: {}", c.image, prev)));
                let image = c.image.clone();
                let pod = st.pod.clone();
                let fp = c.field_path();
                self.recorder(node).event(ctx, &pod, Some(&fp), "Normal", "BackOff", &format!("Back-off pulling image \"{}\"", image));
                self.recorder(node).event(ctx, &pod, Some(&fp), "Warning", "Failed", "Error: ImagePullBackOff");
                self.patch_status(ctx, node, ip, &uid);
                // retrying is background work: a broken image must not keep `sim settle` busy forever
                let d = resync_after_error(ctx);
                ctx.after_background(d, Timer::Pod(PodTimer::Retry(uid.to_string(), idx)));
            }
            PodTimer::Retry(_, idx) => {
                let Some(st) = self.pods.get(&uid) else { return };
                if st.step != Step::BackOff(idx) {
                    return;
                }
                let pod = st.pod.clone();
                self.get_pull_secrets_for_pod(ctx, node, &pod);
                let Some(st) = self.pods.get(&uid) else { return };
                if ctx.now - st.pull_failed_at >= st.backoff_ms {
                    self.ensure_image(ctx, node, ip, &uid, idx);
                } else {
                    // still backing off: this sync says so again (a real cluster's `x1821 over 12h`)
                    let pod = st.pod.clone();
                    let c = &st.containers[idx];
                    let (image, fp) = (c.image.clone(), c.field_path());
                    self.recorder(node).event(ctx, &pod, Some(&fp), "Normal", "BackOff", &format!("Back-off pulling image \"{}\"", image));
                    self.recorder(node).event(ctx, &pod, Some(&fp), "Warning", "Failed", "Error: ImagePullBackOff");
                    let d = resync_after_error(ctx);
                    ctx.after_background(d, Timer::Pod(PodTimer::Retry(uid.to_string(), idx)));
                }
            }
            PodTimer::Created(_, idx) => {
                if self.pods.get(&uid).map(|st| st.step == Step::Create(idx)).unwrap_or(false) {
                    let d = self.container_created(ctx, node, &uid, idx);
                    ctx.after(d, Timer::Pod(PodTimer::Started(uid.to_string(), idx)), false);
                }
            }
            PodTimer::Started(_, idx) => {
                let Some(st) = self.pods.get_mut(&uid) else { return };
                if st.step != Step::Create(idx) {
                    return;
                }
                st.containers[idx].waiting = None;
                st.containers[idx].started_at = Some(ctx.now);
                let (pod_ip, worker_start) = (st.pod_ip.clone(), st.start_time);
                Self::schedule_exit(ctx, &uid, idx, &mut st.containers[idx], &pod_ip, worker_start);
                let pod = st.pod.clone();
                let name = st.containers[idx].name.clone();
                let st_fp = st.containers[idx].field_path();
                ctx.runtime_reply(node, "StartContainer", &name);
                let fp = st_fp.clone();
                self.recorder(node).event(ctx, &pod, Some(&fp), "Normal", "Started", &format!("Started container {}", name));
                let (init, sidecar, has_startup) = self
                    .pods
                    .get(&uid)
                    .map(|st| {
                        let c = &st.containers[idx];
                        (c.init, c.sidecar, c.workers.iter().any(|w| w.probe.kind == prober::ProbeKind::Startup))
                    })
                    .unwrap_or_default();
                if init && (!sidecar || has_startup) {
                    // an init container: the next one waits for it to complete; a sidecar with a
                    // startup probe: until that probe succeeds
                    self.patch_status(ctx, node, ip, &uid);
                } else {
                    self.start_next(ctx, node, ip, &uid, idx);
                }
            }
            PodTimer::Exited(_, idx, run) => {
                if self.pods.get(&uid).map(|st| st.containers[idx].restart_count == run).unwrap_or(false) {
                    self.exited(ctx, node, ip, &uid, idx);
                }
            }
            PodTimer::Probe(_, idx, k, run) => self.probe(ctx, node, ip, &uid, idx, k, run),
            PodTimer::SyncExited(_, idx) => self.sync_exited(ctx, node, ip, &uid, idx),
            PodTimer::Restart(_, idx) => {
                let Some(st) = self.pods.get(&uid) else { return };
                if st.can_restart(idx) && st.containers[idx].waiting.as_ref().map(|w| w.0 == "CrashLoopBackOff").unwrap_or(false) {
                    self.sync_exited(ctx, node, ip, &uid, idx);
                }
            }
            PodTimer::Recreated(_, idx) => {
                let Some(st) = self.pods.get(&uid) else { return };
                if !st.can_restart(idx) {
                    return;
                }
                let d = self.container_created(ctx, node, &uid, idx);
                ctx.after_background(d, Timer::Pod(PodTimer::Restarted(uid.to_string(), idx)));
            }
            PodTimer::Restarted(_, idx) => {
                let Some(st) = self.pods.get_mut(&uid) else { return };
                if !st.can_restart(idx) {
                    return;
                }
                let (pod_ip, worker_start) = (st.pod_ip.clone(), st.start_time);
                let c = &mut st.containers[idx];
                if let Some(t) = c.terminated.take() {
                    c.last_terminated = Some(t);
                }
                c.restart_count += 1;
                c.waiting = None;
                c.started_at = Some(ctx.now);
                Self::schedule_exit(ctx, &uid, idx, c, &pod_ip, worker_start);
                let name = c.name.clone();
                let c_fp = c.field_path();
                let pod = st.pod.clone();
                ctx.runtime_reply(node, "StartContainer", &name);
                let fp = c_fp.clone();
                self.recorder(node).event(ctx, &pod, Some(&fp), "Normal", "Started", &format!("Started container {}", name));
                self.patch_status(ctx, node, ip, &uid);
            }
            PodTimer::PreStopDone(_, idx, ok) => {
                let Some(st) = self.pods.get(&uid) else { return };
                if st.step != Step::Terminating {
                    return;
                }
                let pod = st.pod.clone();
                let (name, fp) = (st.containers[idx].name.clone(), st.containers[idx].field_path());
                if !ok {
                    // the hook's output is left out of the Event so that secrets do not leak
                    self.recorder(node).event(ctx, &pod, Some(&fp), "Warning", "FailedPreStopHook", "PreStopHook failed");
                }
                ctx.runtime_call(node, "StopContainer", &name);
            }
            PodTimer::Stopped(_) => {
                let Some(st) = self.pods.get_mut(&uid) else { return };
                st.step = Step::Done;
                let pod = st.pod.clone();
                ctx.runtime_reply(node, "StopContainer", "");
                ctx.runtime_call(node, "StopPodSandbox", &format!("{}/{}", meta::namespace(&pod), meta::name(&pod)));
                self.teardown_network(ctx, node, &uid, &pod);
                ctx.runtime_reply(node, "StopPodSandbox", "");
                ctx.runtime_call(node, "RemovePodSandbox", &format!("{}/{}", meta::namespace(&pod), meta::name(&pod)));
                ctx.runtime_reply(node, "RemovePodSandbox", "");
                self.patch_status(ctx, node, ip, &uid);
                // the status manager's final delete: grace period 0 with a UID precondition
                let path = format!("/api/v1/namespaces/{}/pods/{}", meta::namespace(&pod), meta::name(&pod));
                ctx.request(Method::Delete, &path, Some(json!({"kind": "DeleteOptions", "apiVersion": "v1", "gracePeriodSeconds": 0, "preconditions": {"uid": uid}})));
            }
        }
    }

    /// `EnsureImageExists`.
    fn ensure_image(&mut self, ctx: &mut Ctx, node: &str, ip: &str, uid: &str, idx: usize) {
        let Some(st) = self.pods.get_mut(uid) else { return };
        let pod = st.pod.clone();
        let Some(c) = st.containers.get(idx).cloned() else { return };
        let list = c.spec_list();
        let spec_c = meta::get(&pod, &["spec", list]).and_then(|a| a.as_array()).and_then(|a| a.iter().find(|x| meta::get_str(x, &["name"]) == c.name)).cloned().unwrap_or(json!({}));
        let policy = meta::get_str(&spec_c, &["imagePullPolicy"]).to_string();
        let fp = c.field_path();
        let r = match runtime::parse_image(&c.image) {
            Ok(r) => r,
            Err(e) => {
                st.containers[idx].waiting = Some(("InvalidImageName".into(), format!("Failed to apply default image tag \"{}\": {}", c.image, e)));
                st.step = Step::BackOff(idx);
                self.recorder(node).event(ctx, &pod, Some(&fp), "Warning", "InspectFailed", &format!("Failed to apply default image tag \"{}\": {}", c.image, e));
                self.recorder(node).event(ctx, &pod, Some(&fp), "Warning", "Failed", "Error: InvalidImageName");
                self.patch_status(ctx, node, ip, uid);
                return;
            }
        };
        let present = self.runtime.image_status(&r).cloned();
        if let Some(img) = &present {
            if policy != "Always" {
                let st = self.pods.get_mut(uid).expect("pod");
                st.containers[idx].image_id = format!("{}@{}", r.repo, img.digest);
                st.containers[idx].image_full = r.full();
                self.recorder(node).event(ctx, &pod, Some(&fp), "Normal", "Pulled", &format!("Container image \"{}\" already present on machine", c.image));
                self.create_container(ctx, node, ip, uid, idx);
                return;
            }
        } else if policy == "Never" {
            let msg = format!("Container image \"{}\" is not present with pull policy of Never", c.image);
            let st = self.pods.get_mut(uid).expect("pod");
            st.containers[idx].waiting = Some(("ErrImageNeverPull".into(), msg.clone()));
            st.step = Step::BackOff(idx);
            self.recorder(node).event(ctx, &pod, Some(&fp), "Warning", "ErrImageNeverPull", &msg);
            self.recorder(node).event(ctx, &pod, Some(&fp), "Warning", "Failed", "Error: ErrImageNeverPull");
            self.patch_status(ctx, node, ip, uid);
            return;
        }
        let st = self.pods.get_mut(uid).expect("pod");
        st.step = Step::Pulling(idx);
        st.pull_requested_at = ctx.now;
        self.recorder(node).event(ctx, &pod, Some(&fp), "Normal", "Pulling", &format!("Pulling image \"{}\"", c.image));
        // serializeImagePulls (default true): one pull at a time per node
        self.pull_queue.push_back(PullRequest { uid: uid.to_string(), index: idx, image: r });
        if !self.pulling {
            self.start_next_pull(ctx, node);
        }
    }

    fn start_next_pull(&mut self, ctx: &mut Ctx, node: &str) {
        while let Some(req) = self.pull_queue.pop_front() {
            if !self.pods.contains_key(&req.uid) {
                continue;
            }
            self.pulling = true;
            let t = ctx.timing().clone();
            let dur = match runtime::resolve(&req.image) {
                // content already in the store (a parallel pull finished first): only the manifest check
                Ok((_, _)) if self.runtime.image_status(&req.image).is_some() => t.pull_overhead_ms,
                Ok((size, _)) => t.pull_overhead_ms + size / t.pull_bytes_per_ms.max(1),
                Err(_) => t.pull_overhead_ms,
            };
            ctx.runtime_call(node, "PullImage", &req.image.full());
            ctx.after(dur, Timer::Pod(PodTimer::Pulled(req.uid.clone(), req.index)), false);
            if let Some(st) = self.pods.get_mut(&req.uid) {
                st.containers[req.index].image_full = req.image.full();
                // remember when this pull really started (for "in X (Y including waiting)")
                st.containers[req.index].started_at = Some(ctx.now);
            }
            return;
        }
        self.pulling = false;
    }

    fn pull_done(&mut self, ctx: &mut Ctx, node: &str, ip: &str, uid: &str, idx: usize) {
        self.pulling = false;
        let Some(st) = self.pods.get(uid).cloned() else {
            self.start_next_pull(ctx, node);
            return;
        };
        let c = st.containers[idx].clone();
        let fp = c.field_path();
        let r = runtime::parse_image(&c.image).unwrap_or(ImageRef { repo: c.image.clone(), tag: "latest".into(), digest: None });
        match runtime::resolve(&r) {
            Ok((size, digest)) => {
                ctx.runtime_reply(node, "PullImage", &format!("{}@{}", r.repo, digest));
                self.runtime.store_image(&r, size, &digest);
                let pull_ms = ctx.now - c.started_at.unwrap_or(ctx.now);
                let total_ms = ctx.now - st.pull_requested_at;
                let msg = format!(
                    "Successfully pulled image \"{}\" in {} ({} including waiting). Image size: {} bytes.",
                    c.image,
                    go_duration(pull_ms),
                    go_duration(total_ms),
                    size
                );
                self.recorder(node).event(ctx, &st.pod, Some(&fp), "Normal", "Pulled", &msg);
                if let Some(s) = self.pods.get_mut(uid) {
                    s.containers[idx].image_id = format!("{}@{}", r.repo, digest);
                    s.containers[idx].started_at = None;
                    s.backoff_ms = 0;
                }
                self.start_next_pull(ctx, node);
                self.create_container(ctx, node, ip, uid, idx);
            }
            Err(e) => {
                ctx.runtime_reply(node, "PullImage", "error");
                self.recorder(node).event(ctx, &st.pod, Some(&fp), "Warning", "Failed", &format!("Failed to pull image \"{}\": {}", c.image, e));
                self.recorder(node).event(ctx, &st.pod, Some(&fp), "Warning", "Failed", "Error: ErrImagePull");
                if let Some(s) = self.pods.get_mut(uid) {
                    s.containers[idx].waiting = Some(("ErrImagePull".into(), e.clone()));
                    s.containers[idx].started_at = None;
                    s.step = Step::BackOff(idx);
                    s.pull_failed_at = ctx.now;
                    s.backoff_ms = if s.backoff_ms == 0 { IMAGE_BACKOFF_INITIAL_MS } else { (s.backoff_ms * 2).min(IMAGE_BACKOFF_MAX_MS) };
                }
                self.patch_status(ctx, node, ip, uid);
                self.start_next_pull(ctx, node);
                ctx.after(RESYNC_AFTER_ERROR_MS, Timer::Pod(PodTimer::BackOff(uid.to_string(), idx)), false);
            }
        }
    }

    /// CreateContainer finished: the `Created` event, then StartContainer. Returns how long the
    /// start takes.
    fn container_created(&mut self, ctx: &mut Ctx, node: &str, uid: &str, idx: usize) -> i64 {
        let Some(st) = self.pods.get(uid) else { return 0 };
        let pod = st.pod.clone();
        let (name, fp) = (st.containers[idx].name.clone(), st.containers[idx].field_path());
        ctx.runtime_reply(node, "CreateContainer", &name);
        self.recorder(node).event(ctx, &pod, Some(&fp), "Normal", "Created", &format!("Created container: {}", name));
        ctx.runtime_call(node, "StartContainer", &name);
        ctx.timing().start_container_ms
    }

    /// `startContainer` after the image: `generateContainerConfig` builds the environment (a
    /// missing ConfigMap, Secret or key is `CreateContainerConfigError`, a `Failed` event, and
    /// the pod worker's next sync tries again), then `CreateContainer`.
    fn create_container(&mut self, ctx: &mut Ctx, node: &str, ip: &str, uid: &str, idx: usize) {
        let Some(st) = self.pods.get(uid) else { return };
        let pod = st.pod.clone();
        let c = &st.containers[idx];
        let list = c.spec_list();
        let spec_c = meta::get_array(&pod, &["spec", list]).iter().find(|x| meta::get_str(x, &["name"]) == c.name).cloned().unwrap_or(Value::Null);
        let fp = c.field_path();
        let env = {
            let e = self.pod_env(&pod, &st.pod_ip, ip);
            envvars::make_environment_variables(&e, &spec_c, &self.managers.configmaps, &self.managers.secrets)
        };
        let env = match env {
            Ok(env) => env,
            Err(err) => {
                let d = resync_after_error(ctx);
                let st = self.pods.get_mut(uid).expect("pod");
                st.containers[idx].waiting = Some(("CreateContainerConfigError".into(), err.clone()));
                st.step = Step::ConfigError(idx);
                st.config_retry_at = ctx.now + d;
                self.recorder(node).event(ctx, &pod, Some(&fp), "Warning", "Failed", &format!("Error: {}", err));
                self.patch_status(ctx, node, ip, uid);
                // background: a missing ConfigMap must not keep `sim settle` busy (its arrival
                // brings the retry forward: `on_object`)
                ctx.after_background(d, Timer::Pod(PodTimer::ConfigRetry(uid.to_string(), idx)));
                return;
            }
        };
        let id = self.runtime.new_id(node);
        let Some(st) = self.pods.get_mut(uid) else { return };
        st.containers[idx].env = env;
        let mut sub_paths = BTreeMap::new();
        for m in meta::get_array(&spec_c, &["volumeMounts"]) {
            let sub = meta::get_str(m, &["subPath"]);
            if !sub.is_empty() {
                let f = st.volumes.get(meta::get_str(m, &["name"])).and_then(|v| v.get(sub)).cloned().unwrap_or_default();
                sub_paths.insert(meta::get_str(m, &["mountPath"]).to_string(), f);
            }
        }
        st.containers[idx].sub_paths = sub_paths;
        st.step = Step::Create(idx);
        st.containers[idx].container_id = format!("containerd://{}", id);
        let name = st.containers[idx].name.clone();
        ctx.runtime_call(node, "CreateContainer", &name);
        let d = ctx.timing().create_container_ms;
        ctx.after(d, Timer::Pod(PodTimer::Created(uid.to_string(), idx)), false);
    }

    /// What `ExecSync` in a running container sees: its environment (with the image's `PATH`,
    /// `HOSTNAME` and `HOME`), its volume mounts (as the volumes are now; a `subPath` mount as
    /// it was at creation) and the files the kubelet writes into every container.
    /// The running container a streaming request names (`-c`, else the first regular one): its
    /// Pod's key and its index.
    fn running_container(&self, namespace: &str, pod: &str, container: Option<&str>) -> Result<(String, usize), String> {
        let Some((key, st)) = self.pods.iter().find(|(_, st)| meta::namespace(&st.pod) == namespace && meta::name(&st.pod) == pod) else {
            return Err(format!("pod {} not found on its node", pod));
        };
        let found = st.containers.iter().position(|c| container.map_or(!c.init, |n| c.name == n)).filter(|i| st.containers[*i].running());
        match found {
            Some(i) => Ok((key.clone(), i)),
            None => Err(format!("unable to upgrade connection: container not found (\"{}\")", container.unwrap_or(""))),
        }
    }

    pub fn container_view(&self, namespace: &str, pod: &str, container: Option<&str>) -> Result<runtime::exec::ContainerView, String> {
        let (key, i) = self.running_container(namespace, pod, container)?;
        let st = &self.pods[&key];
        let c = &st.containers[i];
        let list = if c.init { "initContainers" } else { "containers" };
        let spec_c = meta::get_array(&st.pod, &["spec", list]).iter().find(|x| meta::get_str(x, &["name"]) == c.name).cloned().unwrap_or(Value::Null);
        let hostname = meta::get_str(&st.pod, &["spec", "hostname"]);
        let hostname = if hostname.is_empty() { meta::name(&st.pod).to_string() } else { hostname.to_string() };
        let mut env = vec![("PATH".to_string(), "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin".to_string()), ("HOSTNAME".to_string(), hostname.clone())];
        env.extend(c.env.iter().cloned());
        env.push(("HOME".to_string(), "/root".to_string()));
        let mut mounts = Vec::new();
        let mut etc = BTreeMap::new();
        etc.insert("hostname".to_string(), format!("{}\n", hostname));
        // kubelet_pods.go managedHostsFileContent
        etc.insert("hosts".to_string(), format!("# Kubernetes-managed hosts file.\n127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\nfe00::0\tip6-localnet\nfe00::0\tip6-mcastprefix\nfe00::1\tip6-allnodes\nfe00::2\tip6-allrouters\n{}\t{}\n", st.pod_ip, hostname));
        etc.insert("resolv.conf".to_string(), super::dns::resolv_conf(&st.pod).render());
        mounts.push(runtime::exec::Mount { path: "/etc".into(), files: etc });
        for m in meta::get_array(&spec_c, &["volumeMounts"]) {
            let path = meta::get_str(m, &["mountPath"]).to_string();
            let files = match c.sub_paths.get(&path) {
                Some(f) => [(String::new(), f.clone())].into_iter().collect(),
                None => st.volumes.get(meta::get_str(m, &["name"])).cloned().unwrap_or_default(),
            };
            mounts.push(runtime::exec::Mount { path, files });
        }
        // the writable layer: what `kubectl cp` put there during this run
        if c.written.0 == c.container_id {
            for (path, content) in &c.written.1 {
                mounts.push(runtime::exec::Mount { path: path.clone(), files: [(String::new(), content.clone())].into_iter().collect() });
            }
        }
        Ok(runtime::exec::ContainerView { image: c.image.clone(), hostname, env, mounts })
    }

    /// Bound on the bytes `kubectl cp` may put in one container's writable layer.
    pub const MAX_WRITTEN_BYTES: usize = 1 << 20;

    /// `tar xf -` in a running container (`kubectl cp` into it): the file in its writable layer.
    pub fn write_file(&mut self, namespace: &str, pod: &str, container: Option<&str>, path: &str, content: &str) -> Result<(), String> {
        let (key, i) = self.running_container(namespace, pod, container)?;
        let c = &mut self.pods.get_mut(&key).expect("found above").containers[i];
        if c.written.0 != c.container_id {
            c.written = (c.container_id.clone(), BTreeMap::new());
        }
        let used: usize = c.written.1.iter().filter(|(p, _)| *p != path).map(|(_, v)| v.len()).sum();
        if used + content.len() > Self::MAX_WRITTEN_BYTES {
            return Err(format!("tar: {}: Cannot write: No space left on device (kubesim keeps up to {} bytes written into a container)", path.trim_start_matches('/'), Self::MAX_WRITTEN_BYTES));
        }
        c.written.1.insert(path.to_string(), content.to_string());
        Ok(())
    }

    /// `GET /containerLogs/{ns}/{pod}/{container}` (`kubelet_pods.go` `validateContainerLogStatus`):
    /// the log of the running or last run, or of the run before with `previous`.
    /// The kubelet's `/metrics/resource` for its Pods: each running container's CPU counter
    /// (advanced to `now` at the rate its profile gives for the traffic `rps_of(pod IP)` sends
    /// to the Pod, which its first container serves), working set and start time.
    pub fn resource_metrics(&mut self, now: i64, rps_of: &dyn Fn(&str) -> f64) -> Vec<super::stats::PodSample> {
        let mut out = Vec::new();
        for st in self.pods.values_mut() {
            if st.step != Step::Running && st.step != Step::Terminating {
                continue;
            }
            let rps = if st.pod_ip.is_empty() { 0.0 } else { rps_of(&st.pod_ip) };
            let first_app = st.containers.iter().position(|c| !c.init);
            let mut containers = Vec::new();
            for (i, c) in st.containers.iter_mut().enumerate() {
                if !c.running() {
                    continue;
                }
                let started = c.started_at.unwrap_or(now);
                if c.cpu_at < started {
                    // a new run: a new cgroup, a new counter
                    c.cpu_ns = 0.0;
                    c.cpu_at = started;
                }
                let load = if Some(i) == first_app { rps } else { 0.0 };
                c.cpu_ns += c.usage.cpu_milli(load) * 1000.0 * (now - c.cpu_at).max(0) as f64;
                c.cpu_at = now;
                containers.push(super::stats::ContainerSample { name: c.name.clone(), cpu_ns: c.cpu_ns as u64, memory_bytes: c.usage.memory_bytes(now - started, load), start_ms: started });
            }
            if !containers.is_empty() {
                out.push(super::stats::PodSample { namespace: meta::namespace(&st.pod).to_string(), name: meta::name(&st.pod).to_string(), containers });
            }
        }
        out
    }

    pub fn container_logs(&self, namespace: &str, pod: &str, container: &str, previous: bool, now: i64) -> Result<String, String> {
        let st = self.pods.values().find(|st| meta::namespace(&st.pod) == namespace && meta::name(&st.pod) == pod);
        let Some(c) = st.and_then(|st| st.containers.iter().find(|c| c.name == container)) else {
            return Err(format!("container \"{}\" in pod \"{}\" is not available", container, pod));
        };
        // the current run has started (running or exited) or the restart is still on its way
        let started = c.running() || c.terminated.is_some();
        let lines = if previous {
            // lastState.terminated: the run before the current one, or the one that just ended
            // while the next is not started (CrashLoopBackOff, ContainerCreating)
            match (&c.last_terminated, started) {
                (Some(_), true) => c.previous_logs.clone().unwrap_or_default(),
                (Some(_), false) => c.logs.clone(),
                (None, _) => return Err(format!("previous terminated container \"{}\" in pod \"{}\" not found", container, pod)),
            }
        } else if c.running() {
            // what it has printed so far
            let ran = now - c.started_at.unwrap_or(now);
            c.logs.iter().filter(|(at, _)| *at <= ran).cloned().collect()
        } else if started || c.last_terminated.is_some() {
            c.logs.clone()
        } else {
            let reason = c.waiting.as_ref().map(|w| w.0.clone()).unwrap_or_else(|| "ContainerCreating".into());
            let why = match reason.as_str() {
                "ErrImagePull" => "image can't be pulled".to_string(),
                "ImagePullBackOff" => "trying and failing to pull image".to_string(),
                _ => reason,
            };
            return Err(format!("container \"{}\" in pod \"{}\" is waiting to start: {}", container, pod, why));
        };
        Ok(lines.iter().map(|(_, l)| format!("{}\n", l)).collect())
    }

    /// A started container's process: if the catalogue says it exits, the exit is a timer.
    /// The first run's exit within a minute is foreground (`sim settle` shows the first crash and
    /// restart); later ones, and a crash loop, are background work.
    fn schedule_exit(ctx: &mut Ctx, uid: &str, idx: usize, c: &mut Container, pod_ip: &str, worker_start: i64) {
        let behavior = match &c.behavior_later {
            Some((n, b)) if c.restart_count >= *n => b,
            _ => &c.behavior,
        };
        let (after, mut output) = match behavior {
            runtime::Behavior::Exit { after_ms, output, .. } => (Some(*after_ms), output.clone()),
            runtime::Behavior::Serve { output } => (None, output.clone()),
        };
        if after.is_none() && output.is_empty() {
            // a server with its default command prints its startup lines
            output = runtime::program::startup_log(&c.image, time::EPOCH_MS + ctx.now, pod_ip);
        }
        runtime::program::resolve_dates(&mut output, time::EPOCH_MS + ctx.now);
        if c.restart_count > 0 {
            c.previous_logs = Some(std::mem::take(&mut c.logs));
        }
        c.logs = output;
        let run = c.restart_count;
        // the probe workers start again with the new container, on their ticks
        for (k, w) in c.workers.iter_mut().enumerate() {
            w.reset();
            let t = Timer::Pod(PodTimer::Probe(uid.to_string(), idx, k, run));
            let delay = prober::first_probe_at(&w.probe, worker_start, ctx.now) - ctx.now;
            if run == 0 && w.probe.kind != prober::ProbeKind::Liveness {
                ctx.after(delay, t, false);
            } else {
                ctx.after_background(delay, t);
            }
        }
        let Some(after) = after else { return };
        let timer = Timer::Pod(PodTimer::Exited(uid.to_string(), idx, run));
        if c.restart_count == 0 && after <= FOREGROUND_EXIT_MS {
            ctx.after(after, timer, false);
        } else {
            ctx.after_background(after, timer);
        }
    }

    /// The container's process exited: report it; the PLEG relist notices and syncs the pod.
    fn exited(&mut self, ctx: &mut Ctx, node: &str, ip: &str, uid: &str, idx: usize) {
        let Some(st) = self.pods.get_mut(uid) else { return };
        if !matches!(st.step, Step::Running | Step::Image(_) | Step::Pulling(_) | Step::Create(_) | Step::BackOff(_) | Step::ConfigError(_)) || !st.containers[idx].running() {
            return;
        }
        let c = &mut st.containers[idx];
        let killed = c.kill_code.is_some();
        let behavior = match &c.behavior_later {
            Some((n, b)) if c.restart_count >= *n => b,
            _ => &c.behavior,
        };
        let code = c.kill_code.take().unwrap_or(match behavior {
            runtime::Behavior::Exit { code, .. } => *code,
            runtime::Behavior::Serve { .. } => 0,
        });
        let reason = if code == 0 {
            "Completed"
        } else if c.oom && !killed {
            "OOMKilled"
        } else {
            "Error"
        };
        c.exit_code = code;
        c.finished_at = ctx.now;
        // a process killed early never printed the rest
        let ran = ctx.now - c.started_at.unwrap_or(ctx.now);
        c.logs.retain(|(at, _)| *at <= ran);
        c.terminated = Some(json!({
            "exitCode": code,
            "reason": reason,
            "startedAt": c.started_at.map(time::rfc3339),
            "finishedAt": time::rfc3339(ctx.now),
            "containerID": c.container_id,
        }));
        let foreground = c.restart_count == 0;
        let detail = format!("{} exit code {}", c.name, code);
        let init_done = c.init && !c.sidecar && code == 0;
        ctx.runtime_event(node, "ContainerDied", &detail);
        if init_done {
            self.start_next(ctx, node, ip, uid, idx);
            return;
        }
        self.patch_status(ctx, node, ip, uid);
        let timer = Timer::Pod(PodTimer::SyncExited(uid.to_string(), idx));
        if foreground {
            ctx.after(PLEG_RELIST_MS, timer, false);
        } else {
            ctx.after_background(PLEG_RELIST_MS, timer);
        }
    }

    /// Container `idx` has completed (an init container) or started (a sidecar, a regular
    /// container): the next one in order starts, or the pod runs. When the last init container is
    /// done, the regular containers stop waiting as `PodInitializing`.
    fn start_next(&mut self, ctx: &mut Ctx, node: &str, ip: &str, uid: &str, idx: usize) {
        let Some(st) = self.pods.get_mut(uid) else { return };
        let next = idx + 1;
        let init = st.containers[idx].init;
        if init && !st.containers.get(next).map(|c| c.init).unwrap_or(false) {
            for c in st.containers.iter_mut().filter(|c| !c.init && c.started_at.is_none()) {
                c.waiting = Some(("ContainerCreating".into(), String::new()));
            }
        }
        if next < st.containers.len() {
            st.step = Step::Image(next);
            if init {
                self.patch_status(ctx, node, ip, uid);
            }
            self.ensure_image(ctx, node, ip, uid, next);
        } else {
            st.step = Step::Running;
            self.patch_status(ctx, node, ip, uid);
        }
    }

    /// `SyncPod` for an exited container: `restartPolicy` decides, then `doBackOff`.
    fn sync_exited(&mut self, ctx: &mut Ctx, node: &str, ip: &str, uid: &str, idx: usize) {
        let Some(st) = self.pods.get_mut(uid) else { return };
        match st.step {
            _ if st.can_restart(idx) => {}
            Step::Terminating | Step::Done | Step::Finished => return,
            // still starting the pod's other containers: look again at the next relist
            _ => return ctx.after_background(PLEG_RELIST_MS, Timer::Pod(PodTimer::SyncExited(uid.to_string(), idx))),
        }
        let policy = meta::get_str(&st.pod, &["spec", "restartPolicy"]).to_string();
        let c = &mut st.containers[idx];
        if c.terminated.is_none() && !c.waiting.as_ref().map(|w| w.0 == "CrashLoopBackOff").unwrap_or(false) {
            return;
        }
        if c.ephemeral {
            // an ephemeral container is never restarted: it stays terminated
            return self.patch_status(ctx, node, ip, uid);
        }
        let restart = match policy.as_str() {
            // a sidecar is restarted whatever the Pod's policy
            _ if c.sidecar => true,
            "Never" => false,
            "OnFailure" => c.exit_code != 0,
            _ => true,
        };
        if !restart {
            let failed_init = st.containers[idx].init && st.containers[idx].exit_code != 0;
            if failed_init || st.containers.iter().filter(|c| !c.sidecar).all(|c| c.terminated.is_some()) {
                // the regular containers are done for good: the sidecars are stopped
                let now = ctx.now;
                let stopped: Vec<String> = st.containers.iter().filter(|c| c.sidecar && c.running()).map(|c| c.name.clone()).collect();
                for c in st.containers.iter_mut().filter(|c| c.sidecar && c.running()) {
                    let code = if c.surface.stops_on_sigterm { 0 } else { 137 };
                    c.exit_code = code;
                    c.finished_at = now;
                    c.terminated = Some(json!({
                        "exitCode": code,
                        "reason": if code == 0 { "Completed" } else { "Error" },
                        "startedAt": c.started_at.map(time::rfc3339),
                        "finishedAt": time::rfc3339(now),
                        "containerID": c.container_id,
                    }));
                }
                let pod = st.pod.clone();
                for name in &stopped {
                    let fp = format!("spec.initContainers{{{}}}", name);
                    self.recorder(node).event(ctx, &pod, Some(&fp), "Normal", "Killing", &format!("Stopping container {}", name));
                    ctx.runtime_call(node, "StopContainer", name);
                }
                let Some(st) = self.pods.get_mut(uid) else { return };
                st.step = Step::Finished;
                st.sandbox_ready = false;
                let pod = st.pod.clone();
                ctx.runtime_call(node, "StopPodSandbox", &format!("{}/{}", meta::namespace(&pod), meta::name(&pod)));
                self.teardown_network(ctx, node, uid, &pod);
                ctx.runtime_reply(node, "StopPodSandbox", "");
            }
            self.patch_status(ctx, node, ip, uid);
            return;
        }
        let pod = st.pod.clone();
        let pod_ref = format!("{}_{}({})", meta::name(&pod), meta::namespace(&pod), uid);
        let fp = c.field_path();
        if in_crash_backoff(c.backoff_ms, c.backoff_at, c.finished_at, ctx.now) {
            // CrashLoopBackOff: wait, with the exit as lastState
            if let Some(t) = c.terminated.take() {
                c.last_terminated = Some(t);
            }
            let name = c.name.clone();
            let period = c.backoff_ms;
            let until = c.finished_at + period;
            c.waiting = Some(("CrashLoopBackOff".into(), format!("back-off {} restarting failed container={} pod={}", go_duration(period), name, pod_ref)));
            self.recorder(node).event(ctx, &pod, Some(&fp), "Warning", "BackOff", &format!("Back-off restarting failed container {} in pod {}", name, pod_ref));
            self.patch_status(ctx, node, ip, uid);
            ctx.after_background((until - ctx.now).max(1), Timer::Pod(PodTimer::Restart(uid.to_string(), idx)));
            return;
        }
        // backOff.Next, then restart: the image is present, a new container is created and started
        let (period, at) = crash_backoff_next(c.backoff_ms, c.backoff_at, ctx.now);
        c.backoff_ms = period;
        c.backoff_at = at;
        if let Some(t) = c.terminated.take() {
            c.last_terminated = Some(t);
        }
        c.waiting = Some(("ContainerCreating".into(), String::new()));
        let image = c.image.clone();
        let name = c.name.clone();
        let id = self.runtime.new_id(node);
        if let Some(st) = self.pods.get_mut(uid) {
            st.containers[idx].container_id = format!("containerd://{}", id);
        }
        self.recorder(node).event(ctx, &pod, Some(&fp), "Normal", "Pulled", &format!("Container image \"{}\" already present on machine", image));
        ctx.runtime_call(node, "CreateContainer", &name);
        let d = ctx.timing().create_container_ms;
        ctx.after_background(d, Timer::Pod(PodTimer::Recreated(uid.to_string(), idx)));
    }

    /// One probe worker tick (`worker.go` `doProbe`).
    #[allow(clippy::too_many_arguments)]
    fn probe(&mut self, ctx: &mut Ctx, node: &str, ip: &str, uid: &str, idx: usize, k: usize, run: i64) {
        let Some(st) = self.pods.get_mut(uid) else { return };
        if matches!(st.step, Step::Terminating | Step::Done | Step::Finished) {
            return;
        }
        let pod_ip = st.pod_ip.clone();
        let policy = meta::get_str(&st.pod, &["spec", "restartPolicy"]).to_string();
        let grace = meta::get_i64(&st.pod, &["spec", "terminationGracePeriodSeconds"]).unwrap_or(30) * 1000;
        let pod = st.pod.clone();
        let c = &mut st.containers[idx];
        if c.restart_count != run || !c.running() {
            return; // that container is gone; the new one has its own workers
        }
        let startup_done = c.worker_ok(prober::ProbeKind::Startup);
        let since = ctx.now - c.started_at.unwrap_or(ctx.now);
        let name = c.name.clone();
        let probe_fp = c.field_path();
        let surface = c.surface.clone();
        let w = &mut c.workers[k];
        let kind = w.probe.kind;
        let period = w.probe.period_ms;
        // foreground (`sim settle` waits) only while a first run's readiness or startup result is
        // being established; liveness, and everything after, is background work
        let early = run == 0 && kind != prober::ProbeKind::Liveness && w.result != Some(true) && w.count < w.probe.failure_threshold + w.probe.success_threshold;
        let next = Timer::Pod(PodTimer::Probe(uid.to_string(), idx, k, run));
        // liveness and readiness wait for the startup probe; a succeeded startup probe stops
        if kind != prober::ProbeKind::Startup && !startup_done {
            return if early { ctx.after(period, next, false) } else { ctx.after_background(period, next) };
        }
        if w.on_hold || (kind == prober::ProbeKind::Startup && w.result == Some(true)) {
            return;
        }
        let result = prober::run(&w.probe.handler, &surface, &pod_ip, since);
        let flipped = w.observe(result.is_ok());
        let now_ok = w.result;
        let fp = probe_fp;
        if let Err(out) = &result {
            self.recorder(node).event(ctx, &pod, Some(&fp), "Warning", "Unhealthy", &format!("{} probe failed: {}", kind.word(), out));
        }
        if flipped {
            let killed = now_ok == Some(false) && kind != prober::ProbeKind::Readiness;
            if killed {
                // computePodActions: kill the container; it restarts if restartPolicy allows
                let what = if kind == prober::ProbeKind::Liveness { "liveness" } else { "startup" };
                let restart = if policy == "Never" { "" } else { ", will be restarted" };
                self.recorder(node).event(ctx, &pod, Some(&fp), "Normal", "Killing", &format!("Container {} failed {} probe{}", name, what, restart));
                ctx.runtime_call(node, "StopContainer", &name);
                let Some(st) = self.pods.get_mut(uid) else { return };
                let c = &mut st.containers[idx];
                // a server stops on SIGTERM; a shell script as PID 1 ignores it: SIGKILL after the grace period
                let (code, after) = if surface.stops_on_sigterm { (0, STOP_CONTAINER_MS) } else { (137, grace) };
                c.kill_code = Some(code);
                ctx.after_background(after.max(1), Timer::Pod(PodTimer::Exited(uid.to_string(), idx, run)));
                return;
            }
            self.patch_status(ctx, node, ip, uid);
            // a sidecar's startup probe has passed: the next container starts
            let waiting_sidecar = self.pods.get(uid).is_some_and(|st| st.containers[idx].sidecar && st.step == Step::Create(idx));
            if kind == prober::ProbeKind::Startup && now_ok == Some(true) && waiting_sidecar {
                self.start_next(ctx, node, ip, uid, idx);
            }
        }
        let Some(st) = self.pods.get(uid) else { return };
        let w = &st.containers[idx].workers[k];
        if w.on_hold || (kind == prober::ProbeKind::Startup && w.result == Some(true)) {
            return;
        }
        let early = early && w.result != Some(true);
        if early {
            ctx.after(period, next, false)
        } else {
            ctx.after_background(period, next)
        }
    }

    fn begin_termination(&mut self, ctx: &mut Ctx, node: &str, uid: &str) {
        let Some(st) = self.pods.get_mut(uid) else { return };
        st.step = Step::Terminating;
        let pod = st.pod.clone();
        let running: Vec<(String, String)> = st.containers.iter().filter(|c| c.running()).map(|c| (c.name.clone(), c.field_path())).collect();
        for (name, fp) in &running {
            self.recorder(node).event(ctx, &pod, Some(&fp), "Normal", "Killing", &format!("Stopping container {}", name));
        }
        let grace = meta::get_i64(&pod, &["metadata", "deletionGracePeriodSeconds"]).unwrap_or(30) * 1000;
        if self.pods.get(uid).is_some_and(|st| st.containers.iter().any(|c| c.running() && c.pre_stop.is_some())) {
            return self.terminate_with_hooks(ctx, node, uid, grace);
        }
        ctx.runtime_call(node, "StopContainer", &running.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>().join(","));
        // SIGTERM: a server stops at once (exit 0); a shell or `sleep` as PID 1 ignores it and is
        // SIGKILLed when the grace period ends (137): the Pod stays Terminating that long
        let mut slow = false;
        if let Some(st) = self.pods.get_mut(uid) {
            for c in st.containers.iter_mut().filter(|c| c.running()) {
                c.kill_code = Some(if c.surface.stops_on_sigterm { 0 } else { 137 });
                slow |= !c.surface.stops_on_sigterm;
            }
        }
        let delay = if slow { grace } else { STOP_CONTAINER_MS.min(grace) };
        ctx.after(delay.max(0), Timer::Pod(PodTimer::Stopped(uid.to_string())), false);
    }

    /// `killContainer` for every running container when some have a `preStop` hook: the hook runs
    /// first (an `exec` one through the runtime's ExecSync) and may use the grace period; SIGTERM
    /// follows when it returns, and SIGKILL when what is left of the grace period ends.
    fn terminate_with_hooks(&mut self, ctx: &mut Ctx, node: &str, uid: &str, grace: i64) {
        let Some(st) = self.pods.get_mut(uid) else { return };
        let (now, pod_ip) = (ctx.now, st.pod_ip.clone());
        let mut now_stopping = Vec::new();
        let mut hooks = Vec::new();
        let mut last = 0i64;
        for (idx, c) in st.containers.iter_mut().enumerate().filter(|(_, c)| c.running()) {
            let hook = c.pre_stop.as_ref().map(|h| (h.clone(), lifecycle::run(h, &c.surface, &pod_ip, now - c.started_at.unwrap_or(now))));
            let (sigterm_at, left) = lifecycle::kill_schedule(hook.as_ref().map(|(_, (ms, _))| *ms), grace);
            let stops_after = if c.surface.stops_on_sigterm { STOP_CONTAINER_MS.min(left) } else { left };
            c.kill_code = Some(if c.surface.stops_on_sigterm { 0 } else { 137 });
            last = last.max(sigterm_at + stops_after);
            match hook {
                Some((h, (_, ok))) => hooks.push((idx, c.name.clone(), h, ok, sigterm_at)),
                None => now_stopping.push(c.name.clone()),
            }
        }
        if !now_stopping.is_empty() {
            ctx.runtime_call(node, "StopContainer", &now_stopping.join(","));
        }
        for (idx, name, hook, ok, sigterm_at) in hooks {
            if let lifecycle::Hook::Exec { command } = &hook {
                ctx.runtime_call(node, "ExecSync", &format!("{} preStop: {}", name, command.join(" ")));
            }
            ctx.after(sigterm_at.max(1), Timer::Pod(PodTimer::PreStopDone(uid.to_string(), idx, ok)), false);
        }
        ctx.after(last.max(1), Timer::Pod(PodTimer::Stopped(uid.to_string())), false);
    }

    /// `generateAPIPodStatus` + the status manager's PATCH.
    fn patch_status(&mut self, ctx: &mut Ctx, _node: &str, ip: &str, uid: &str) {
        let Some((path, status)) = self.generate_status(ctx, ip, uid) else { return };
        self.send_status(ctx, uid, &path, status);
    }

    fn send_status(&mut self, ctx: &mut Ctx, uid: &str, path: &str, status: Value) {
        let resp = ctx.merge_patch(path, json!({"status": status}));
        if resp.unreachable() {
            self.unsent = true;
        }
        if resp.ok() {
            if let Some(s) = self.pods.get_mut(uid) {
                s.pod = Rc::new(resp.body);
            }
        }
    }

    /// The status manager's `syncBatch` after it could not reach (or did not know) the API's
    /// view: for every Pod it runs, PATCH the status only where what the API holds differs from
    /// what the kubelet would report (`needsUpdate` + an empty patch skipped). After a partition
    /// heals or the kubelet restarts.
    pub fn resync_statuses(&mut self, ctx: &mut Ctx, ip: &str) {
        let uids: Vec<String> = self.pods.keys().cloned().collect();
        for uid in uids {
            let Some((path, status)) = self.generate_status(ctx, ip, &uid) else { continue };
            let Some(st) = self.pods.get(&uid) else { continue };
            if !same_status(meta::get(&st.pod, &["status"]).unwrap_or(&Value::Null), &status) {
                self.send_status(ctx, &uid, &path, status);
            }
        }
    }

    /// `generateAPIPodStatus`: the status path and the status the kubelet reports for a Pod.
    fn generate_status(&self, ctx: &mut Ctx, ip: &str, uid: &str) -> Option<(String, Value)> {
        let st = self.pods.get(uid)?;
        let pod = &st.pod;
        let gen = meta::get_i64(pod, &["metadata", "generation"]).unwrap_or(1);
        let now = time::rfc3339(ctx.now);
        let old_conds: Vec<Value> = meta::get(pod, &["status", "conditions"]).and_then(|c| c.as_array()).cloned().unwrap_or_default();
        let terminating = st.step == Step::Terminating || st.step == Step::Done;
        let finished = st.step == Step::Finished;
        let regular = || st.containers.iter().filter(|c| !c.init && !c.ephemeral);
        // readiness counts the sidecars first, then the regular containers
        let readied = || st.containers.iter().filter(|c| (!c.init || c.sidecar) && !c.ephemeral);
        let all_running = readied().all(|c| c.ready()) && !terminating;
        let not_ready: Vec<String> = readied().filter(|c| !c.ready() || terminating).map(|c| c.name.clone()).collect();
        // Initialized: every init container has completed (exit 0), every sidecar has started
        let incomplete: Vec<String> = st
            .containers
            .iter()
            .filter(|c| c.init && if c.sidecar { !c.started() && c.terminated.is_none() && c.last_terminated.is_none() } else { !(c.terminated.is_some() && c.exit_code == 0) })
            .map(|c| c.name.clone())
            .collect();
        let initialized = incomplete.is_empty();
        // getPhase: waiting (never ran) → Pending; something runs → Running; all stopped →
        // Running while they will restart, else Succeeded/Failed
        let phase = if st.step == Step::Done {
            // a deleted Pod ends in a terminal phase: Failed if a container was killed
            if st.containers.iter().any(|c| c.kill_code.unwrap_or(0) != 0) { "Failed" } else { "Succeeded" }
        } else if finished {
            if st.containers.iter().filter(|c| !c.sidecar && !c.ephemeral).all(|c| c.exit_code == 0) { "Succeeded" } else { "Failed" }
        } else if !initialized || regular().any(|c| !c.running() && c.terminated.is_none() && c.last_terminated.is_none()) {
            "Pending"
        } else {
            "Running"
        };
        let cond = |t: &str, ok: bool, reason: &str, message: &str| {
            let status = if ok { "True" } else { "False" };
            // keep lastTransitionTime unless the status flips
            let ltt = old_conds
                .iter()
                .find(|c| meta::get_str(c, &["type"]) == t && meta::get_str(c, &["status"]) == status)
                .and_then(|c| c.get("lastTransitionTime").cloned())
                .unwrap_or(json!(now));
            let mut c = json!({"type": t, "status": status, "lastProbeTime": null, "lastTransitionTime": ltt, "observedGeneration": gen});
            if !ok && !reason.is_empty() {
                c["reason"] = json!(reason);
                c["message"] = json!(message);
            }
            c
        };
        let msg = format!("containers with unready status: [{}]", not_ready.join(" "));
        let scheduled = old_conds.iter().find(|c| meta::get_str(c, &["type"]) == "PodScheduled").cloned().unwrap_or_else(|| cond("PodScheduled", true, "", ""));
        // generateContainersReadyConditionForTerminalPhase: terminal pods say why, with no message
        let (not_ready_reason, not_ready_msg) = match (finished, phase) {
            (true, "Succeeded") => ("PodCompleted", String::new()),
            (true, _) => ("PodFailed", String::new()),
            _ => ("ContainersNotReady", msg),
        };
        let mut conditions = vec![
            cond("PodReadyToStartContainers", st.sandbox_ready && st.step != Step::Done, "", ""),
            cond("Initialized", initialized, "ContainersNotInitialized", &format!("containers with incomplete status: [{}]", incomplete.join(" "))),
            cond("Ready", all_running, not_ready_reason, &not_ready_msg),
            cond("ContainersReady", all_running, not_ready_reason, &not_ready_msg),
            scheduled,
        ];
        if finished {
            for c in conditions.iter_mut().filter(|c| c.get("reason").is_some() && c["message"] == "") {
                if let Some(o) = c.as_object_mut() {
                    o.remove("message");
                }
            }
        }
        let status_of = |c: &Container| -> Value {
                let state = if let Some(t) = &c.terminated {
                    json!({"terminated": t})
                } else if st.step == Step::Done {
                    let code = c.kill_code.unwrap_or(0);
                    json!({"terminated": {"exitCode": code, "reason": if code == 0 { "Completed" } else { "Error" }, "startedAt": c.started_at.map(time::rfc3339), "finishedAt": now, "containerID": c.container_id}})
                } else if let Some((reason, message)) = &c.waiting {
                    if message.is_empty() { json!({"waiting": {"reason": reason}}) } else { json!({"waiting": {"reason": reason, "message": message}}) }
                } else {
                    json!({"running": {"startedAt": c.started_at.map(time::rfc3339)}})
                };
                let running = c.running();
                let image = if c.image_full.is_empty() { runtime::parse_image(&c.image).map(|r| r.full()).unwrap_or(c.image.clone()) } else { c.image_full.clone() };
                let mut s = json!({
                    "name": c.name,
                    "state": state,
                    "lastState": c.last_terminated.as_ref().map(|t| json!({"terminated": t})).unwrap_or(json!({})),
                    // an init container counts as ready once it has completed
                    "ready": if c.ephemeral { false } else if c.init && !c.sidecar { c.terminated.is_some() && c.exit_code == 0 } else { c.ready() && !terminating },
                    "restartCount": c.restart_count,
                    "image": image,
                    "imageID": c.image_id,
                    "started": c.started() && st.step != Step::Done,
                });
                if !c.container_id.is_empty() && (running || st.step == Step::Done || c.terminated.is_some() || c.last_terminated.is_some()) {
                    s["containerID"] = json!(c.container_id);
                }
                s
        };
        let statuses: Vec<Value> = regular().map(status_of).collect();
        let init_statuses: Vec<Value> = st.containers.iter().filter(|c| c.init).map(status_of).collect();
        let ephemeral_statuses: Vec<Value> = st.containers.iter().filter(|c| c.ephemeral).map(status_of).collect();
        let mut status = json!({
            "observedGeneration": gen,
            "phase": phase,
            "conditions": conditions,
            "hostIP": ip,
            "hostIPs": [{"ip": ip}],
            "startTime": time::rfc3339(st.start_time),
            "containerStatuses": statuses,
        });
        if !init_statuses.is_empty() {
            status["initContainerStatuses"] = json!(init_statuses);
        }
        if !ephemeral_statuses.is_empty() {
            status["ephemeralContainerStatuses"] = json!(ephemeral_statuses);
        }
        if st.sandbox_ready {
            status["podIP"] = json!(st.pod_ip);
            status["podIPs"] = json!([{"ip": st.pod_ip}]);
        }
        let path = format!("/api/v1/namespaces/{}/pods/{}/status", meta::namespace(pod), meta::name(pod));
        Some((path, status))
    }
}

/// Whether the API's status and the kubelet's agree on what a status update would change: the
/// phase, each condition's status, each container's state, readiness and restart count.
fn same_status(api: &Value, mine: &Value) -> bool {
    let conds = |v: &Value| -> Vec<(String, String)> {
        let mut c: Vec<(String, String)> = meta::get_array(v, &["conditions"]).iter().map(|c| (meta::get_str(c, &["type"]).to_string(), meta::get_str(c, &["status"]).to_string())).collect();
        c.sort();
        c
    };
    // per container: name, ready, started, restarts, its state and the state's reason/exit code
    let containers = |v: &Value| -> Vec<(String, bool, bool, i64, String, String, i64)> {
        ["initContainerStatuses", "containerStatuses", "ephemeralContainerStatuses"]
            .iter()
            .flat_map(|f| meta::get_array(v, &[f]).to_vec())
            .map(|c| {
                let (state, detail) = meta::get(&c, &["state"]).and_then(|s| s.as_object()).and_then(|o| o.iter().next().map(|(k, v)| (k.clone(), v.clone()))).unwrap_or_default();
                let flag = |f: &str| meta::get(&c, &[f]).and_then(|r| r.as_bool()).unwrap_or(false);
                (
                    meta::get_str(&c, &["name"]).to_string(),
                    flag("ready"),
                    flag("started"),
                    meta::get_i64(&c, &["restartCount"]).unwrap_or(0),
                    state,
                    meta::get_str(&detail, &["reason"]).to_string(),
                    meta::get_i64(&detail, &["exitCode"]).unwrap_or(0),
                )
            })
            .collect()
    };
    let same = |f: &str| meta::get_str(api, &[f]) == meta::get_str(mine, &[f]);
    same("phase") && same("podIP") && same("hostIP") && conds(api) == conds(mine) && containers(api) == containers(mine)
}

#[cfg(test)]
mod tests {
    use super::{crash_backoff_next, go_duration, in_crash_backoff};

    /// The crash-loop back-off of `flowcontrol.Backoff` (10 s, 300 s, no jitter): the waits after
    /// each crash, and the reset after 2 × max without one.
    #[test]
    fn crash_backoff_table() {
        // a container that crashes the moment it starts: each restart waits the whole period
        let (mut period, mut at, mut now) = (0, 0, 0);
        let mut waits = Vec::new();
        for _ in 0..8 {
            if in_crash_backoff(period, at, now, now) {
                now += period; // the restart comes when the back-off ends
                waits.push(period / 1000);
            }
            let (p, a) = crash_backoff_next(period, at, now);
            period = p;
            at = a;
        }
        assert_eq!(waits, vec![10, 20, 40, 80, 160, 300, 300], "seconds waited before each restart after the first");
        // ten quiet minutes and a bit: the next crash starts again at 10 s
        assert_eq!(crash_backoff_next(300_000, 0, 600_001), (10_000, 600_001));
        assert_eq!(crash_backoff_next(300_000, 0, 600_000), (300_000, 600_000));
        // no entry: never in back-off; an expired entry neither
        assert!(!in_crash_backoff(0, 0, 0, 5_000));
        assert!(!in_crash_backoff(10_000, 0, 0, 700_000));
        assert!(in_crash_backoff(10_000, 0, 0, 9_999) && !in_crash_backoff(10_000, 0, 0, 10_000));
    }

    #[test]
    fn go_durations() {
        let cases = [("ms", 812, "812ms"), ("seconds", 9_578, "9.578s"), ("whole", 2_000, "2s"), ("minutes", 62_500, "1m2.5s")];
        for (name, ms, want) in cases {
            assert_eq!(go_duration(ms), want, "{}", name);
        }
    }
}
