//! What kubesim's trace records: the actors (the boxes of the page's diagram) and the kinds of
//! message that pass between them, on top of the kernel's generic [`sim::Trace`].
//!
//! There is no upstream counterpart: in a real cluster these are HTTP requests and responses,
//! watch stream frames, etcd gRPC calls and CRI calls, seen in pieces by audit logs, traces and
//! `crictl`. Here every one of them is a typed [`MessageKind`]; a request carries the
//! [`RequestInfo`] the API server parsed, so the page, the narration and the transcripts read
//! verb, resource and name from it instead of splitting the URI again.

use crate::api::request::{EventType, Method, RequestInfo};
use crate::sim;
use std::fmt;
use std::rc::Rc;

pub use crate::sim::{format_ms, MsgId};

/// Who sends or receives a message. These are the boxes on the page's diagram.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Actor {
    Kubectl,
    ApiServer,
    Etcd,
    /// kube-controller-manager's process itself: its leader-election client.
    ControllerManager,
    DeploymentController,
    ReplicaSetController,
    /// The ReplicationController manager (`replication-controller`).
    ReplicationController,
    GarbageCollector,
    NodeController,
    /// Node IPAM in kube-controller-manager (`node-ipam-controller`).
    NodeIpamController,
    Scheduler,
    EndpointsController,
    EndpointSliceController,
    /// The DaemonSet controller (`daemonset-controller`).
    DaemonSetController,
    /// The Job controller (`job-controller`).
    JobController,
    /// The CronJob controller (`cronjob-controller`).
    CronJobController,
    /// The TTL-after-finished controller (`ttl-after-finished-controller`).
    TtlAfterFinishedController,
    /// The root CA publisher (`root-ca-cert-publisher`): `kube-root-ca.crt` in every namespace.
    RootCaCertPublisher,
    /// The ServiceAccount controller (`serviceaccount-controller`): `default` in every namespace.
    ServiceAccountController,
    /// The ClusterRole aggregation controller (`clusterrole-aggregation-controller`).
    ClusterRoleAggregationController,
    /// The StatefulSet controller (`statefulset-controller`).
    StatefulSetController,
    /// The PersistentVolume controller (`persistentvolume-binder-controller`).
    PersistentVolumeController,
    /// The namespace controller (`namespace-controller`).
    NamespaceController,
    /// The resource quota controller (`resourcequota-controller`).
    ResourceQuotaController,
    DisruptionController,
    /// `persistentvolumeclaim-protection-controller`.
    PvcProtectionController,
    /// `persistentvolume-protection-controller`.
    PvProtectionController,
    /// The storage provisioner (minikube's `storage-provisioner`, `k8s.io/minikube-hostpath`).
    StorageProvisioner,
    Kubelet(String),
    /// kube-proxy on a node.
    KubeProxy(String),
    /// CoreDNS's kubernetes plugin (the `coredns` Pods' informers).
    CoreDns,
    /// metrics-server (the addon's process): scrapes the kubelets, serves `metrics.k8s.io`.
    MetricsServer,
    /// The ingress-nginx controller (the addon's process): its informers, nginx's configuration,
    /// the Ingresses' status.
    IngressNginx,
    /// kube-network-policies, the nodes' NetworkPolicy agent (kindnet's): its informers.
    NetworkPolicyAgent,
    /// The HorizontalPodAutoscaler controller (`horizontal-pod-autoscaler`).
    HpaController,
    /// kube-aggregator's `AvailableConditionController`, inside kube-apiserver (its loopback
    /// client): the `APIService`s' `Available` condition.
    AvailableConditionController,
    /// apiextensions-apiserver's controllers, inside kube-apiserver (its loopback client): the
    /// naming, establishing and CRD finalizer controllers.
    ApiExtensionsControllers,
    /// The teaching operator of the `Website` custom resource (`sim addon website-operator`).
    WebsiteOperator,
    Runtime(String),
}

impl Actor {
    /// The node a node agent runs on (kubelet, kube-proxy, the runtime).
    pub fn node(&self) -> Option<&str> {
        match self {
            Actor::Kubelet(n) | Actor::KubeProxy(n) | Actor::Runtime(n) => Some(n),
            _ => None,
        }
    }

    /// The label used in the trace and the diagram.
    pub fn name(&self) -> String {
        match self {
            Actor::Kubectl => "kubectl".into(),
            Actor::ApiServer => "kube-apiserver".into(),
            Actor::Etcd => "etcd".into(),
            Actor::ControllerManager => "kube-controller-manager".into(),
            Actor::DeploymentController => "deployment-controller".into(),
            Actor::ReplicaSetController => "replicaset-controller".into(),
            Actor::ReplicationController => "replication-controller".into(),
            Actor::GarbageCollector => "garbage-collector".into(),
            Actor::NodeController => "node-controller".into(),
            Actor::NodeIpamController => "node-ipam-controller".into(),
            Actor::Scheduler => "kube-scheduler".into(),
            Actor::EndpointsController => "endpoint-controller".into(),
            Actor::EndpointSliceController => "endpointslice-controller".into(),
            Actor::DaemonSetController => "daemonset-controller".into(),
            Actor::JobController => "job-controller".into(),
            Actor::CronJobController => "cronjob-controller".into(),
            Actor::TtlAfterFinishedController => "ttl-after-finished-controller".into(),
            Actor::RootCaCertPublisher => "root-ca-cert-publisher".into(),
            Actor::ServiceAccountController => "serviceaccount-controller".into(),
            Actor::ClusterRoleAggregationController => "clusterrole-aggregation-controller".into(),
            Actor::StatefulSetController => "statefulset-controller".into(),
            Actor::PersistentVolumeController => "persistentvolume-binder-controller".into(),
            Actor::StorageProvisioner => "storage-provisioner".into(),
            Actor::NamespaceController => "namespace-controller".into(),
            Actor::ResourceQuotaController => "resourcequota-controller".into(),
            Actor::DisruptionController => "disruption-controller".into(),
            Actor::PvcProtectionController => "pvc-protection-controller".into(),
            Actor::PvProtectionController => "pv-protection-controller".into(),
            Actor::Kubelet(n) => format!("kubelet@{}", n),
            Actor::KubeProxy(n) => format!("kube-proxy@{}", n),
            Actor::CoreDns => "coredns".into(),
            Actor::MetricsServer => "metrics-server".into(),
            Actor::IngressNginx => "ingress-nginx".into(),
            Actor::NetworkPolicyAgent => "kube-network-policies".into(),
            Actor::HpaController => "horizontal-pod-autoscaler".into(),
            Actor::AvailableConditionController => "available-condition-controller".into(),
            Actor::ApiExtensionsControllers => "apiextensions-controllers".into(),
            Actor::WebsiteOperator => "website-operator".into(),
            Actor::Runtime(n) => format!("containerd@{}", n),
        }
    }
}

impl fmt::Display for Actor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

/// What a message carries.
#[derive(Clone, Debug, PartialEq)]
pub enum MessageKind {
    /// An HTTP request to kube-apiserver: the method, the URI as sent (path and query) and the
    /// server's parse of it.
    /// The URI and its parse are shared by every message of a request to the same URI.
    Request { method: Method, uri: Rc<str>, info: Rc<RequestInfo> },
    /// The HTTP response to a request; `code` is the status code. `authz` is kube-apiserver's
    /// authorization of the request (the decision and the authorizer's reason), shared with the
    /// server's decision cache; None when the request never reached the authorizers.
    Response { code: u16, reason: String, authz: Option<std::rc::Rc<crate::apiserver::authorizer::Authorized>> },
    /// An etcd transaction written by the apiserver's storage layer (`PUT` or `DELETE`).
    EtcdTxn { op: &'static str, key: String, revision: i64 },
    /// A watch event delivered by kube-apiserver to a watching component.
    /// The namespace and name are shared (`sim::Interner`) by every message about the object.
    Watch { event_type: EventType, kind: &'static str, namespace: Rc<str>, name: Rc<str>, resource_version: i64 },
    /// A CRI call from the kubelet to the container runtime.
    Runtime { call: String, detail: String },
    /// A timer firing inside a component (resync, back-off, grace period).
    Timer { what: String },
    /// A fault injected into the simulation (`sim fault …`, `sim node partition|heal`) or what it
    /// causes (a lost Lease, a request that cannot reach kube-apiserver); `lost`: the inputs in
    /// flight that were lost with it.
    Fault { kind: FaultKind, what: String, lost: usize },
    /// A hop of a request on the data path (`cluster::network`): name resolution, the iptables
    /// rule that matched, the Pod that answered; or the CNI plugin wiring a Pod's network.
    Net { hop: NetHop, what: String },
}

/// What a fault is (the page narrates each kind; `what` has its particulars).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FaultKind {
    /// A component crashed and a fresh process started (`sim fault restart NAME`).
    Crash,
    /// kube-controller-manager crashed with its controllers; the new process must win the Lease.
    CrashProcess,
    /// A leader could not renew its Lease for RenewDeadline and exited (`leaderelection lost`).
    LeaseLost,
    /// A component's watch connections dropped (`sim fault watch-drop`).
    WatchDrop,
    /// kube-apiserver restarted (`sim fault restart kube-apiserver`).
    ApiServerRestart,
    /// A kubelet restarted while its containers kept running (`sim fault restart kubelet@NODE`).
    KubeletRestart,
    /// A node's network to the control plane was cut (`sim node partition NODE`).
    Partition,
    /// It was restored (`sim node heal NODE`).
    Heal,
    /// A request from a cut-off node failed before reaching kube-apiserver.
    Unreachable,
}

impl FaultKind {
    /// The narration key's suffix.
    pub fn key(&self) -> &'static str {
        match self {
            FaultKind::Crash => "crash",
            FaultKind::CrashProcess => "kcm",
            FaultKind::LeaseLost => "lease_lost",
            FaultKind::WatchDrop => "watch_drop",
            FaultKind::ApiServerRestart => "apiserver",
            FaultKind::KubeletRestart => "kubelet",
            FaultKind::Partition => "partition",
            FaultKind::Heal => "heal",
            FaultKind::Unreachable => "unreachable",
        }
    }
}

/// What a network hop is (the page narrates each kind; `what` has its particulars).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NetHop {
    /// The request leaves the client.
    Request,
    /// The CNI plugin gives a Pod its address (inside RunPodSandbox).
    CniAdd,
    /// The CNI plugin releases it (inside StopPodSandbox).
    CniDel,
    /// The resolver's packet to the kube-dns ClusterIP, DNATed to a CoreDNS Pod.
    DnsRule,
    /// No rule for the kube-dns ClusterIP: no kube-dns Service.
    DnsNoRule,
    /// kube-dns has no ready endpoints: REJECT.
    DnsReject,
    /// No nameserver in /etc/resolv.conf (dnsPolicy None without dnsConfig).
    DnsNoServer,
    /// An A query to CoreDNS.
    DnsQuery,
    /// CoreDNS answers with records.
    DnsAnswer,
    /// CoreDNS (or the upstream it forwarded to) answers NXDOMAIN.
    DnsNxDomain,
    /// The node's own resolver answers (dnsPolicy Default, hostNetwork).
    NodeResolver,
    /// A Service rule matched: KUBE-SERVICES / KUBE-NODEPORTS → KUBE-SVC → KUBE-SEP, DNAT.
    Rule,
    /// The Service has no endpoints: REJECT.
    Reject,
    /// A ClusterIP no rule matches.
    NoRule,
    /// No route to the address.
    NoRoute,
    /// The packet reaches a Pod's container.
    ToPod,
    /// Nothing listens on the port: RST.
    NothingListens,
    /// The container's HTTP answer.
    Answer,
    /// The outside machine's `/etc/hosts` names an Ingress host.
    HostsFile,
    /// The CNI portmap plugin DNATs a node's hostPort to a Pod.
    HostPort,
    /// nginx (ingress-nginx) picks a server, a location and an upstream endpoint.
    IngressRoute,
    /// No rule matches: ingress-nginx's default server answers 404.
    IngressNotFound,
    /// The upstream has no ready endpoint (503), or its endpoint did not answer (502).
    IngressNoEndpoints,
    /// A TLS host over plain HTTP: 308 to https.
    IngressRedirect,
    /// nginx presents a certificate for the server name.
    TlsHandshake,
    /// The TLS connection fails: the client rejects the certificate, or the server speaks plain
    /// HTTP (or nginx's TLS port gets plain HTTP).
    TlsFailed,
    /// kube-network-policies lets a connection to or from an isolated Pod through.
    PolicyAccept,
    /// kube-network-policies drops it.
    PolicyDrop,
    /// A connection to a loopback port of the learner's machine, where kubectl listens
    /// (`kubectl port-forward`, `kubectl proxy`).
    LocalPort,
    /// The port-forward tunnel: kubectl's stream through kube-apiserver and the kubelet to a
    /// port inside the Pod's network namespace.
    PortForward,
}

impl NetHop {
    /// The narration key (`n.net.<key>`).
    pub fn key(self) -> &'static str {
        match self {
            NetHop::Request => "request",
            NetHop::CniAdd => "cni_add",
            NetHop::CniDel => "cni_del",
            NetHop::DnsRule => "dns_rule",
            NetHop::DnsNoRule => "dns_no_rule",
            NetHop::DnsReject => "dns_reject",
            NetHop::DnsNoServer => "dns_no_server",
            NetHop::DnsQuery => "dns_query",
            NetHop::DnsAnswer => "dns_answer",
            NetHop::DnsNxDomain => "dns_nxdomain",
            NetHop::NodeResolver => "node_resolver",
            NetHop::Rule => "rule",
            NetHop::Reject => "reject",
            NetHop::NoRule => "no_rule",
            NetHop::NoRoute => "no_route",
            NetHop::ToPod => "to_pod",
            NetHop::NothingListens => "nothing_listens",
            NetHop::Answer => "answer",
            NetHop::HostsFile => "hosts_file",
            NetHop::HostPort => "host_port",
            NetHop::IngressRoute => "ingress_route",
            NetHop::IngressNotFound => "ingress_not_found",
            NetHop::IngressNoEndpoints => "ingress_no_endpoints",
            NetHop::IngressRedirect => "ingress_redirect",
            NetHop::TlsHandshake => "tls_handshake",
            NetHop::TlsFailed => "tls_failed",
            NetHop::PolicyAccept => "policy_accept",
            NetHop::PolicyDrop => "policy_drop",
            NetHop::LocalPort => "local_port",
            NetHop::PortForward => "port_forward",
        }
    }
}

/// One record of the trace: the unit the page animates and the tests compare.
pub type Message = sim::Message<Actor, MessageKind>;
/// The trace of a cluster.
pub type Trace = sim::Trace<Actor, MessageKind>;

impl MessageKind {
    /// The message of a watch event carrying `object`, its namespace and name shared through the
    /// trace's `strings`.
    pub fn watch(strings: &mut sim::Interner, event_type: EventType, kind: &'static str, object: &serde_json::Value) -> MessageKind {
        use crate::api::meta;
        MessageKind::Watch {
            event_type,
            kind,
            namespace: strings.intern(meta::namespace(object)),
            name: strings.intern(meta::name(object)),
            resource_version: meta::resource_version(object).parse().unwrap_or(0),
        }
    }
}

impl sim::Message<Actor, MessageKind> {
    /// A short label for the packet drawn on the diagram, e.g. `POST deployments`, `WATCH ADDED ReplicaSet`.
    pub fn label(&self) -> String {
        match &self.kind {
            MessageKind::Request { method, info, .. } => {
                if info.verb == "watch" {
                    format!("WATCH {}", info.resource_path())
                } else {
                    format!("{} {}", method, info.resource_path())
                }
            }
            MessageKind::Response { code, .. } => format!("{}", code),
            MessageKind::EtcdTxn { op, key, revision } => format!("{} {} (rev {})", op, key, revision),
            MessageKind::Watch { event_type, kind, .. } => format!("WATCH {} {}", event_type, kind),
            MessageKind::Runtime { call, detail } => {
                if detail.is_empty() {
                    call.clone()
                } else {
                    format!("{} {}", call, detail)
                }
            }
            MessageKind::Timer { what } => format!("timer {}", what),
            MessageKind::Fault { what, .. } => format!("FAULT {}", what),
            MessageKind::Net { what, .. } => what.clone(),
        }
    }

    /// One fixed-column line for the transcript (`sim trace`).
    pub fn line(&self) -> String {
        let detail = match &self.kind {
            MessageKind::Request { method, uri, .. } => format!("{} {}", method, uri),
            MessageKind::Response { code, reason, .. } => {
                if reason.is_empty() {
                    format!("{}", code)
                } else {
                    format!("{} {}", code, reason)
                }
            }
            MessageKind::EtcdTxn { op, key, revision } => format!("{} {} rev={}", op, key, revision),
            MessageKind::Watch { event_type, kind, namespace, name, resource_version } => {
                let n = if namespace.is_empty() { name.to_string() } else { format!("{}/{}", namespace, name) };
                format!("{} {} {} rv={}", event_type, kind, n, resource_version)
            }
            MessageKind::Runtime { call, detail } => format!("{} {}", call, detail).trim_end().to_string(),
            MessageKind::Timer { what } | MessageKind::Fault { what, .. } | MessageKind::Net { what, .. } => what.clone(),
        };
        let cause = self.cause.map(|c| format!("#{}", c)).unwrap_or_else(|| "-".into());
        format!(
            "#{:<5} {:>9} {:<24} -> {:<24} {:<6} {}",
            self.id,
            format_ms(self.time_ms),
            self.from.name(),
            self.to.name(),
            cause,
            detail
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(method: Method, uri: &str) -> Message {
        let info = Rc::new(RequestInfo::parse(method, uri));
        Message { id: 1, time_ms: 0, from: Actor::Kubectl, to: Actor::ApiServer, kind: MessageKind::Request { method, uri: uri.into(), info }, cause: None }
    }

    #[test]
    fn request_labels() {
        for (m, uri, label) in [
            (Method::Post, "/apis/apps/v1/namespaces/default/deployments?fieldManager=kubectl-client-side-apply", "POST deployments"),
            (Method::Post, "/api/v1/namespaces/default/pods/web-1/binding", "POST pods/binding"),
            (Method::Get, "/api/v1/pods?fieldSelector=spec.nodeName%3Dnode-1&watch=true", "WATCH pods"),
            (Method::Get, "/api/v1/namespaces/default", "GET namespaces"),
            (Method::Patch, "/api/v1/namespaces/default/pods/web-1/status", "PATCH pods/status"),
        ] {
            assert_eq!(request(m, uri).label(), label, "{}", uri);
        }
    }
}
