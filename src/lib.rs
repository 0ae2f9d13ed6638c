//! kubesim — a Kubernetes control plane simulated deterministically, for the browser and the terminal.
//!
//! # Layout
//! - [`sim`]: the kernel — virtual clock, seeded RNG, message queue, trace. Knows nothing of Kubernetes.
//! - [`trace`]: kubesim's actors and message kinds (requests with their `RequestInfo`, watch events, etcd writes, CRI calls).
//! - [`etcd`]: revisioned key-value store with history, watch and compaction.
//! - [`api`]: the object model — resource table, manifest decoding, schema, defaulting, validation.
//! - [`apiserver`]: kube-apiserver — REST, admission, audit, watch fan-out. The only user of `etcd`.
//! - [`cluster`]: owns everything; drives [`cluster::Component`]s over the virtual clock.
//! - [`controllers`]: kube-controller-manager's controllers (deployment, replicaset and
//!   replication-controller, garbage collector, node lifecycle and IPAM, endpoints and
//!   EndpointSlices, DaemonSet, Job, CronJob, TTL-after-finished, StatefulSet, namespace, resource
//!   quota, ServiceAccount, root CA publisher, ClusterRole aggregation, PersistentVolume binder,
//!   PVC and PV protection) and the process that runs them (`controllermanager`).
//! - [`client`]: client-go's pieces — informer stores, work queues, Event recorders, leader
//!   election, each client's token bucket (`flowcontrol`).
//! - [`coredns`], [`proxy`], [`provisioner`]: CoreDNS's kubernetes plugin, kube-proxy, minikube's
//!   storage provisioner.
//! - [`scheduler`]: kube-scheduler.
//! - [`kubelet`]: the node agent, with [`runtime`], the container runtime behind a CRI-shaped interface.
//! - [`kubectl`]: the client — command parsing, apply, printers. Shared by the CLI and the page.
//! - [`script`], [`sandbox`]: scenario scripts (`kubesim run`) and the default cluster.
//! - [`vopr`]: the randomized operation and fault run over many seeds (`kubesim fuzz`).
//! - [`ui`]: the sandbox page — a pure model (sessions, time travel over etcd history, narration
//!   in English and Korean, URL fragments) compiled everywhere, and `ui::app`, the Yew components
//!   (wasm32 only).
//! - `cli` (native only): the terminal shell.

pub mod api;
pub mod apiextensions;
pub mod apiserver;
pub mod client;
pub mod cluster;
pub mod controllers;
pub mod coredns;
pub mod ingressnginx;
pub mod metricsserver;
pub mod networkpolicy;
pub mod etcd;
pub mod kubectl;
pub mod kubelet;
pub mod provisioner;
pub mod proxy;
pub mod runtime;
pub mod sandbox;
pub mod scheduler;
pub mod script;
pub mod shell;
pub mod sim;
pub mod trace;
pub mod ui;
pub mod vopr;
pub mod websiteoperator;

macro_rules! scenario {
    ($name:literal) => {
        (
            $name,
            include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/scenarios/", $name, ".sh")),
            include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/scenarios/", $name, ".out")),
        )
    };
}
pub mod testing;

#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
pub mod cli;
#[cfg(not(target_arch = "wasm32"))] pub mod serve;

/// The Kubernetes version kubesim emulates.
pub const KUBE_VERSION: &str = "v1.34.0";
/// The (short) git commit of that release, as it appears in user agents.
pub const KUBE_COMMIT: &str = "f28b4c9";

/// Runs a scenario script on a fresh default cluster and returns its transcript.
pub fn run_script(seed: u64, script: &str) -> String {
    run_script_checked(seed, script).0
}

/// [`run_script`], with the control plane's requests that authorization refused (see
/// [`cluster::ClusterView::system_denials`]).
pub fn run_script_checked(seed: u64, script: &str) -> (String, Vec<String>) {
    let mut c = sandbox::default_cluster(seed);
    let out = script::run(&mut c, script, &|_| None);
    let denials = c.view().system_denials().to_vec();
    (out, denials)
}


/// The page's entry point: installs the panic hook and mounts the sandbox page ([`ui::app`]).
#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
pub fn web_start() {
    ui::app::start();
}
