//! kube-proxy: one per node, programming the node's iptables so that a Service's ClusterIP and
//! NodePort reach the Pods behind it.
//!
//! Real counterpart: `cmd/kube-proxy/app/server.go` (the informers, with the label selector
//! `!service.kubernetes.io/headless,!service.kubernetes.io/service-proxy-name`),
//! `pkg/proxy/config/config.go` (Service and EndpointSlice handlers), and the iptables
//! [`proxier`](iptables::proxier) behind `async.BoundedFrequencyRunner`: a change syncs the
//! rules at once, but never sooner than `minSyncPeriod` (1 s) after the last sync.
//!
//! kube-proxy talks only to the API server (its own identity, `system:serviceaccount:kube-system:kube-proxy`,
//! as the kubeadm DaemonSet runs it). What kubesim simplifies: kube-proxy is a component of the
//! node rather than a DaemonSet Pod; it does not watch its Node object; the periodic 30 s resync
//! (`syncPeriod`) is not run, since nothing else changes the simulated rules.

pub mod iptables;

use crate::api::meta::{self, Resource};
use crate::api::request::{EventType, Identity};
use crate::client::Store;
use crate::cluster::{self, Component};
use crate::trace::Actor;
use iptables::proxier::{self, ServicePort};
use serde_json::Value;

/// kubeadm's `iptables.minSyncPeriod`.
pub const MIN_SYNC_PERIOD_MS: i64 = 1_000;
/// The informers' label selector.
pub const PROXY_LABEL_SELECTOR: &str = "!service.kubernetes.io/headless,!service.kubernetes.io/service-proxy-name";

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Timer {
    /// The bounded-frequency runner runs `syncProxyRules`.
    SyncProxyRules,
}

impl std::fmt::Display for Timer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("syncProxyRules")
    }
}

type Ctx<'a> = cluster::Ctx<'a, Timer>;
type Input = cluster::Input<Timer>;

pub struct KubeProxy {
    node: String,
    node_ip: String,
    services: Store,
    slices: Store,
    /// What the last sync programmed.
    ports: Vec<ServicePort>,
    last_sync: Option<i64>,
    sync_pending: bool,
    running: bool,
}

impl KubeProxy {
    pub fn new(node: &str, node_ip: &str) -> KubeProxy {
        KubeProxy {
            node: node.to_string(),
            node_ip: node_ip.to_string(),
            services: Store::default(),
            slices: Store::default(),
            ports: Vec::new(),
            last_sync: None,
            sync_pending: false,
            running: true,
        }
    }

    pub fn node(&self) -> &str {
        &self.node
    }

    pub fn node_ip(&self) -> &str {
        &self.node_ip
    }

    /// The service ports as the last sync programmed them.
    pub fn service_ports(&self) -> &[ServicePort] {
        &self.ports
    }

    /// The node's rules as `iptables-save` lists them.
    pub fn iptables_save(&self) -> String {
        proxier::iptables_save(&self.ports)
    }

    fn request_sync(&mut self, ctx: &mut Ctx) {
        if self.sync_pending {
            return;
        }
        self.sync_pending = true;
        let at = self.last_sync.map(|t| t + MIN_SYNC_PERIOD_MS).unwrap_or(ctx.now).max(ctx.now);
        ctx.after(at - ctx.now, Timer::SyncProxyRules, true);
    }

    fn sync_proxy_rules(&mut self, now: i64) {
        self.sync_pending = false;
        self.last_sync = Some(now);
        let services: Vec<&Value> = self.services.values().collect();
        let slices: Vec<&Value> = self.slices.values().collect();
        self.ports = proxier::service_ports(&services, &slices);
    }
}

impl Component for KubeProxy {
    type Timer = Timer;

    fn actor(&self) -> Actor {
        Actor::KubeProxy(self.node.clone())
    }

    fn identity(&self) -> Identity {
        Identity {
            username: "system:serviceaccount:kube-system:kube-proxy".into(),
            uid: String::new(),
            groups: vec!["system:serviceaccounts".into(), "system:serviceaccounts:kube-system".into(), "system:authenticated".into()],
            user_agent: format!("kube-proxy/{} (linux/amd64) kubernetes/{}", crate::KUBE_VERSION, crate::KUBE_COMMIT),
            source_ip: self.node_ip.clone(),
            impersonate: None,
        }
    }

    fn start(&mut self, ctx: &mut Ctx) {
        let svcs = ctx.list_and_watch(meta::lookup("services").expect("services"), "", PROXY_LABEL_SELECTOR, "");
        self.services.replace(svcs);
        let slices = ctx.list_and_watch(meta::lookup("endpointslices").expect("endpointslices"), "", PROXY_LABEL_SELECTOR, "");
        self.slices.replace(slices);
        self.sync_proxy_rules(ctx.now);
    }

    fn set_running(&mut self, running: bool) {
        self.running = running;
    }

    fn handle(&mut self, ctx: &mut Ctx, input: Input) {
        if !self.running {
            return;
        }
        match input {
            Input::Watch { resource: Resource::Services, event_type, object } => {
                self.services.apply_shared(event_type, object);
                self.request_sync(ctx);
            }
            Input::Watch { resource: Resource::EndpointSlices, event_type, object } => {
                let old = self.slices.apply_shared(event_type, object.clone());
                // a slice whose endpoints did not change needs no sync
                let same = old.map(|o| o.get("endpoints") == object.get("endpoints") && o.get("ports") == object.get("ports")).unwrap_or(false);
                if !same || event_type == EventType::Deleted {
                    self.request_sync(ctx);
                }
            }
            Input::Watch { .. } => {}
            Input::Timer(Timer::SyncProxyRules) => self.sync_proxy_rules(ctx.now),
        }
    }
}
