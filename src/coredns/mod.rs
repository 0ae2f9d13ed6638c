//! CoreDNS, the cluster's DNS server, as kubeadm installs it (`kubeadm init phase addon coredns`):
//! the `coredns` Deployment and the `kube-dns` Service (`10.96.0.10`) in `kube-system`.
//!
//! Real counterparts: kubeadm's `cmd/kubeadm/app/phases/addons/dns/manifests.go` (the Deployment,
//! Service and Corefile below, CoreDNS v1.12.1 for Kubernetes v1.34) and CoreDNS's
//! `plugin/kubernetes` (`kubernetes.go`, `controller.go`: informers on Services, EndpointSlices and
//! Namespaces; `xfr.go`/`ns.go` and `plugin/backend_lookup.go` for the records it answers).
//!
//! Records (zone `cluster.local`, `ttl 30` as kubeadm's Corefile sets it):
//! - `<svc>.<ns>.svc.cluster.local` → the ClusterIP, endpoints or not;
//! - a headless Service: one A record per ready endpoint, NXDOMAIN when none is ready; and
//!   `<hostname>.<svc>.<ns>.svc.cluster.local` per endpoint, the hostname being the endpoint's
//!   `hostname` or its address with dashes (`10-244-1-5`);
//! - `10-244-1-5.<ns>.pod.cluster.local` → `10.244.1.5` (`pods insecure`);
//! - anything else in `cluster.local` → NXDOMAIN; outside it, `forward . /etc/resolv.conf`, which
//!   in kubesim has no internet behind it (NXDOMAIN).
//!
//! What kubesim simplifies: the replicas share one set of informers (one component,
//! [`CoreDns`], started with the addon) instead of each Pod running its own; the Pods are real
//! Pods that must be Running and Ready behind `kube-dns` for a query to be answered; A records
//! only (no AAAA, SRV or PTR), no `cache` plugin; the ConfigMap and RBAC objects are not created
//! (kubesim does not serve ConfigMaps or RBAC yet) and the Pod mounts no Corefile.

use crate::api::meta::{self, Resource};
use crate::api::request::Identity;
use crate::client::Store;
use crate::cluster::{self, Component};
use crate::trace::Actor;

pub const VERSION: &str = "1.12.1";
pub const KUBE_DNS_IP: &str = "10.96.0.10";
pub const CLUSTER_DOMAIN: &str = "cluster.local";
pub const TTL: u32 = 30;

/// kubeadm's Corefile.
pub const COREFILE: &str = ".:53 {\n    errors\n    health {\n       lameduck 5s\n    }\n    ready\n    kubernetes cluster.local in-addr.arpa ip6.arpa {\n       pods insecure\n       fallthrough in-addr.arpa ip6.arpa\n       ttl 30\n    }\n    prometheus :9153\n    forward . /etc/resolv.conf {\n       max_concurrent 1000\n    }\n    cache 30 {\n       disable success cluster.local\n       disable denial cluster.local\n    }\n    loop\n    reload\n    loadbalance\n}\n";

/// kubeadm's ServiceAccount, RBAC, Deployment and Service (the ConfigMap volume left out: see
/// the module doc).
pub const MANIFESTS: &str = r#"apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: system:coredns
rules:
- apiGroups:
  - ""
  resources:
  - endpoints
  - services
  - pods
  - namespaces
  verbs:
  - list
  - watch
- apiGroups:
  - discovery.k8s.io
  resources:
  - endpointslices
  verbs:
  - list
  - watch
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata:
  name: system:coredns
roleRef:
  apiGroup: rbac.authorization.k8s.io
  kind: ClusterRole
  name: system:coredns
subjects:
- kind: ServiceAccount
  name: coredns
  namespace: kube-system
---
apiVersion: v1
kind: ServiceAccount
metadata:
  name: coredns
  namespace: kube-system
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: coredns
  namespace: kube-system
  labels:
    k8s-app: kube-dns
spec:
  replicas: 2
  strategy:
    type: RollingUpdate
    rollingUpdate:
      maxUnavailable: 1
  selector:
    matchLabels:
      k8s-app: kube-dns
  template:
    metadata:
      labels:
        k8s-app: kube-dns
    spec:
      serviceAccountName: coredns
      tolerations:
      - key: CriticalAddonsOnly
        operator: Exists
      - key: node-role.kubernetes.io/control-plane
        effect: NoSchedule
      nodeSelector:
        kubernetes.io/os: linux
      containers:
      - name: coredns
        image: registry.k8s.io/coredns/coredns:v1.12.1
        imagePullPolicy: IfNotPresent
        resources:
          limits:
            memory: 170Mi
          requests:
            cpu: 100m
            memory: 70Mi
        args: [ "-conf", "/etc/coredns/Corefile" ]
        ports:
        - containerPort: 53
          name: dns
          protocol: UDP
        - containerPort: 53
          name: dns-tcp
          protocol: TCP
        - containerPort: 9153
          name: metrics
          protocol: TCP
        livenessProbe:
          httpGet:
            path: /health
            port: 8080
            scheme: HTTP
          initialDelaySeconds: 60
          timeoutSeconds: 5
          successThreshold: 1
          failureThreshold: 5
        readinessProbe:
          httpGet:
            path: /ready
            port: 8181
            scheme: HTTP
      dnsPolicy: Default
---
apiVersion: v1
kind: Service
metadata:
  name: kube-dns
  namespace: kube-system
  labels:
    k8s-app: kube-dns
    kubernetes.io/cluster-service: "true"
    kubernetes.io/name: "CoreDNS"
  annotations:
    prometheus.io/port: "9153"
    prometheus.io/scrape: "true"
spec:
  selector:
    k8s-app: kube-dns
  clusterIP: 10.96.0.10
  ports:
  - name: dns
    port: 53
    protocol: UDP
    targetPort: 53
  - name: dns-tcp
    port: 53
    protocol: TCP
    targetPort: 53
  - name: metrics
    port: 9153
    protocol: TCP
    targetPort: 9153
"#;

/// What CoreDNS answers to an A query.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// The addresses, each an `A` record with [`TTL`].
    A(Vec<String>),
    NxDomain,
    /// Outside `cluster.local`: forwarded upstream, where kubesim has nothing.
    Forwarded,
}

/// The kubernetes plugin's informers.
#[derive(Default)]
pub struct CoreDns {
    services: Store,
    slices: Store,
    namespaces: Store,
}

impl CoreDns {
    /// Answers an A query for `qname` (without the trailing dot).
    pub fn lookup(&self, qname: &str) -> Answer {
        let q = qname.trim_end_matches('.').to_ascii_lowercase();
        let Some(rest) = q.strip_suffix(&format!(".{}", CLUSTER_DOMAIN)) else {
            return Answer::Forwarded;
        };
        let labels: Vec<&str> = rest.split('.').collect();
        match labels.as_slice() {
            [svc, ns, "svc"] => self.service_records(ns, svc),
            [host, svc, ns, "svc"] => self.endpoint_record(ns, svc, host),
            [dashed, ns, "pod"] if self.namespaces.items.contains_key(*ns) => match undash(dashed) {
                Some(ip) => Answer::A(vec![ip]),
                None => Answer::NxDomain,
            },
            _ => Answer::NxDomain,
        }
    }

    fn service(&self, ns: &str, svc: &str) -> Option<&serde_json::Value> {
        self.services.get(&format!("{}/{}", ns, svc))
    }

    /// The ready endpoints of a Service's slices: (address, hostname).
    fn ready_endpoints(&self, ns: &str, svc: &str) -> Vec<(String, String)> {
        let mut out = Vec::new();
        for s in self.slices.items.values() {
            if meta::namespace(s) != ns || meta::get_str(s, &["metadata", "labels", "kubernetes.io/service-name"]) != svc {
                continue;
            }
            for e in meta::get_array(s, &["endpoints"]) {
                if meta::get(e, &["conditions", "ready"]).and_then(|r| r.as_bool()) == Some(false) {
                    continue;
                }
                let host = meta::get_str(e, &["hostname"]).to_string();
                for a in meta::get_array(e, &["addresses"]) {
                    if let Some(a) = a.as_str() {
                        if !out.iter().any(|(x, _): &(String, String)| x == a) {
                            out.push((a.to_string(), host.clone()));
                        }
                    }
                }
            }
        }
        out
    }

    fn service_records(&self, ns: &str, svc: &str) -> Answer {
        let Some(s) = self.service(ns, svc) else { return Answer::NxDomain };
        let ip = meta::get_str(s, &["spec", "clusterIP"]);
        if !ip.is_empty() && ip != "None" {
            return Answer::A(vec![ip.to_string()]);
        }
        let eps = self.ready_endpoints(ns, svc);
        if eps.is_empty() {
            Answer::NxDomain
        } else {
            Answer::A(eps.into_iter().map(|(a, _)| a).collect())
        }
    }

    fn endpoint_record(&self, ns: &str, svc: &str, host: &str) -> Answer {
        let Some(s) = self.service(ns, svc) else { return Answer::NxDomain };
        if meta::get_str(s, &["spec", "clusterIP"]) != "None" {
            return Answer::NxDomain;
        }
        let hit = self.ready_endpoints(ns, svc).into_iter().find(|(a, h)| if h.is_empty() { a.replace('.', "-") == host } else { h == host });
        match hit {
            Some((a, _)) => Answer::A(vec![a]),
            None => Answer::NxDomain,
        }
    }
}

/// `10-244-1-5` → `10.244.1.5`.
fn undash(s: &str) -> Option<String> {
    let ip = s.replace('-', ".");
    crate::api::net::parse_ipv4(&ip).map(|_| ip)
}

/// The resolver's search: the names a stub resolver tries for `host`, with `search` and
/// `ndots` from `/etc/resolv.conf` (fewer dots than `ndots`: the search list first).
pub fn query_names(host: &str, search: &[String], ndots: usize) -> Vec<String> {
    if let Some(abs) = host.strip_suffix('.') {
        return vec![abs.to_string()];
    }
    let with_search: Vec<String> = search.iter().map(|d| format!("{}.{}", host, d)).collect();
    if host.matches('.').count() >= ndots {
        std::iter::once(host.to_string()).chain(with_search).collect()
    } else {
        with_search.into_iter().chain(std::iter::once(host.to_string())).collect()
    }
}

impl Component for CoreDns {
    type Timer = NoTimer;

    fn actor(&self) -> Actor {
        Actor::CoreDns
    }

    fn identity(&self) -> Identity {
        Identity {
            username: "system:serviceaccount:kube-system:coredns".into(),
            uid: String::new(),
            groups: vec!["system:serviceaccounts".into(), "system:serviceaccounts:kube-system".into(), "system:authenticated".into()],
            user_agent: format!("CoreDNS/{} git_commit:707c7c1 (linux/amd64/go1.24.1)", VERSION),
            source_ip: String::new(),
            impersonate: None,
        }
    }

    fn start(&mut self, ctx: &mut cluster::Ctx<NoTimer>) {
        let svcs = ctx.list_and_watch(meta::lookup("services").expect("services"), "", "", "");
        self.services.replace(svcs);
        let slices = ctx.list_and_watch(meta::lookup("endpointslices").expect("endpointslices"), "", "", "");
        self.slices.replace(slices);
        let nss = ctx.list_and_watch(meta::lookup("namespaces").expect("namespaces"), "", "", "");
        self.namespaces.replace(nss);
    }

    fn handle(&mut self, _ctx: &mut cluster::Ctx<NoTimer>, input: cluster::Input<NoTimer>) {
        let cluster::Input::Watch { resource, event_type, object } = input;
        let store = match resource {
            Resource::Services => &mut self.services,
            Resource::EndpointSlices => &mut self.slices,
            Resource::Namespaces => &mut self.namespaces,
            _ => return,
        };
        let _ = store.apply_shared(event_type, object);
    }
}

/// CoreDNS sets no timers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NoTimer {}

impl std::fmt::Display for NoTimer {
    fn fmt(&self, _f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Named table: the names a Pod's resolver asks for (ndots:5 and the ClusterFirst search list).
    #[test]
    fn search_list_table() {
        let search: Vec<String> = ["default.svc.cluster.local", "svc.cluster.local", "cluster.local"].iter().map(|s| s.to_string()).collect();
        let cases: &[(&str, &[&str])] = &[
            ("web", &["web.default.svc.cluster.local", "web.svc.cluster.local", "web.cluster.local", "web"]),
            ("web.other", &["web.other.default.svc.cluster.local", "web.other.svc.cluster.local", "web.other.cluster.local", "web.other"]),
            ("web.default.svc.cluster.local.", &["web.default.svc.cluster.local"]),
            ("a.b.c.d.e.f", &["a.b.c.d.e.f", "a.b.c.d.e.f.default.svc.cluster.local", "a.b.c.d.e.f.svc.cluster.local", "a.b.c.d.e.f.cluster.local"]),
        ];
        for (host, want) in cases {
            assert_eq!(query_names(host, &search, 5), *want, "{}", host);
        }
    }
}
