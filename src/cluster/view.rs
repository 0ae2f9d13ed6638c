//! The read-only view shells (the CLI, the page, the tests) have of a cluster.
//!
//! There is no upstream counterpart; the nearest are the things an operator looks at beside the
//! API: `etcdctl get --rev`, the audit log file, the scheduler's own logs. Components never use
//! it: they see the cluster only through requests and watches.

use super::Cluster;
use crate::api::meta::ResourceInfo;
use crate::etcd::{EtcdError, KeyValue, WatchEvent};
use crate::scheduler::{Attempt, Scheduler};
use crate::trace::{Actor, Trace};
use serde_json::Value;

/// What a shell may read of a [`Cluster`]: objects now or at a revision, etcd's keys and history,
/// the audit log, the trace and the scheduler's attempts. Borrowed, never mutable.
#[derive(Clone, Copy)]
pub struct ClusterView<'a> {
    c: &'a Cluster,
}

impl<'a> ClusterView<'a> {
    pub(super) fn new(c: &'a Cluster) -> ClusterView<'a> {
        ClusterView { c }
    }

    /// Virtual time, in milliseconds since the simulation started.
    pub fn now(&self) -> i64 {
        self.c.now
    }

    pub fn trace(&self) -> &'a Trace {
        &self.c.trace
    }

    /// Objects of a resource in `ns` ("" = all namespaces), now (`None`) or as of etcd revision `rev`.
    pub fn objects(&self, info: &ResourceInfo, ns: &str, rev: Option<i64>) -> Vec<Value> {
        self.c.api.list_objects(info, ns, rev)
    }

    /// Objects of a resource in `ns` ("" = all namespaces) as they are now, shared with the API
    /// server's watch cache: no copy (read-only).
    pub fn objects_shared(&self, info: &ResourceInfo, ns: &str) -> Vec<std::rc::Rc<Value>> {
        self.c.api.list_objects_shared(info, ns)
    }

    /// One object as it is now.
    pub fn object(&self, info: &ResourceInfo, ns: &str, name: &str) -> Option<Value> {
        self.c.api.peek(info, ns, name)
    }

    /// etcd's current revision.
    pub fn etcd_revision(&self) -> i64 {
        self.c.api.etcd().revision()
    }

    /// etcd's compact revision: history before it is gone (0 before the first compaction). A
    /// watch from a resourceVersion older than this is answered `410 Expired`.
    pub fn etcd_compact_revision(&self) -> i64 {
        self.c.api.etcd().compact_revision()
    }

    /// One key, now or as of `rev` (`etcdctl get KEY --rev`).
    pub fn etcd_get(&self, key: &str, rev: Option<i64>) -> Result<Option<KeyValue>, EtcdError> {
        self.c.api.etcd().get(key, rev)
    }

    /// The keys under a prefix with their values, now or as of `rev`.
    pub fn etcd_range(&self, prefix: &str, rev: Option<i64>) -> Result<Vec<KeyValue>, EtcdError> {
        self.c.api.etcd().range(prefix, rev)
    }

    /// The keys under a prefix as of `rev`, with their mod revision (no values).
    pub fn etcd_key_revisions(&self, prefix: &str, rev: Option<i64>) -> Result<Vec<(String, i64)>, EtcdError> {
        self.c.api.etcd().range_revisions(prefix, rev)
    }

    /// The keys that exist now under a prefix.
    pub fn etcd_keys(&self, prefix: &str) -> Vec<String> {
        self.c.api.etcd().keys(prefix)
    }

    /// etcd's stored versions (every revision not yet compacted) and the bytes of their values.
    pub fn etcd_stored(&self) -> (usize, usize) {
        self.c.api.etcd().stored()
    }

    /// The change written at a revision, with the key's previous value.
    pub fn etcd_change_at(&self, rev: i64) -> Option<WatchEvent> {
        self.c.api.etcd().change_at(rev)
    }

    /// The change at `rev` borrowed from etcd: key, value after, value before (no copy).
    pub fn etcd_change_ref(&self, rev: i64) -> Option<(&'a str, Option<&'a str>, Option<&'a str>)> {
        self.c.api.etcd().change_ref(rev)
    }

    /// The audit events kept in memory, oldest first, one `audit.k8s.io/v1` JSON line each.
    pub fn audit(&self) -> &'a [String] {
        self.c.api.audit_log()
    }

    /// Requests of control-plane components that authorization refused (`USER VERB URI`).
    pub fn system_denials(&self) -> &[String] {
        self.c.api.system_denials()
    }

    /// Audit events recorded since the cluster started, including those no longer kept.
    pub fn audit_total(&self) -> u64 {
        self.c.api.audit_total()
    }

    /// For each kept audit line, the number of the request it records (see
    /// [`ApiServer::audit_request_seqs`](crate::apiserver::ApiServer::audit_request_seqs)).
    pub fn audit_request_seqs(&self) -> &'a [u64] {
        self.c.api.audit_request_seqs()
    }

    /// Requests kube-apiserver has handled, logged or not.
    pub fn requests_handled(&self) -> u64 {
        self.c.api.requests_handled()
    }

    /// The audit policy kube-apiserver applies.
    pub fn audit_policy(&self) -> &'a crate::apiserver::audit::policy::Policy {
        self.c.api.audit_policy()
    }

    /// kube-scheduler's scheduling attempts (oldest first; the oldest are dropped past a bound).
    pub fn scheduler_attempts(&self) -> &'a [Attempt] {
        self.c
            .components()
            .find(|h| h.actor() == Actor::Scheduler)
            .and_then(|h| h.as_any().downcast_ref::<Scheduler>())
            .map(|s| s.attempts())
            .unwrap_or(&[])
    }

    /// CoreDNS's informers (when the addon is installed).
    pub fn coredns(&self) -> Option<&'a crate::coredns::CoreDns> {
        self.c.components().find(|h| h.actor() == Actor::CoreDns).and_then(|h| h.as_any().downcast_ref::<crate::coredns::CoreDns>())
    }

    /// What the API server's discovery lists of the CRDs (the custom resources served): what
    /// kubectl's RESTMapper and `serve`'s discovery documents read.
    pub fn crds(&self) -> &'a crate::apiextensions::CrdRegistry {
        self.c.api.crds()
    }

    /// kube-network-policies: the NetworkPolicies, Pods and Namespaces it watched.
    pub fn network_policies(&self) -> Option<&'a crate::networkpolicy::KubeNetworkPolicies> {
        self.c.components().find(|h| h.actor() == Actor::NetworkPolicyAgent).and_then(|h| h.as_any().downcast_ref::<crate::networkpolicy::KubeNetworkPolicies>())
    }

    /// The ingress-nginx controller (when the addon is installed): what its nginx runs.
    pub fn ingress_nginx(&self) -> Option<&'a crate::ingressnginx::IngressNginx> {
        self.c.components().find(|h| h.actor() == Actor::IngressNginx).and_then(|h| h.as_any().downcast_ref::<crate::ingressnginx::IngressNginx>())
    }

    /// What a running container of a Pod on `node` sees (the kubelet's answer to an exec; see
    /// [`crate::kubelet::pods::PodWorkers::container_view`]).
    pub fn container_view(&self, node: &str, namespace: &str, pod: &str, container: Option<&str>) -> Result<crate::runtime::exec::ContainerView, String> {
        self.c
            .components()
            .find(|h| h.actor() == Actor::Kubelet(node.to_string()))
            .and_then(|h| h.as_any().downcast_ref::<crate::kubelet::Kubelet>())
            .ok_or_else(|| format!("no kubelet on node \"{}\"", node))?
            .pods
            .container_view(namespace, pod, container)
    }

    /// kube-proxy of a node: the service ports its last sync programmed and its rules.
    pub fn kube_proxy(&self, node: &str) -> Option<&'a crate::proxy::KubeProxy> {
        self.c
            .components()
            .find(|h| h.actor() == Actor::KubeProxy(node.to_string()))
            .and_then(|h| h.as_any().downcast_ref::<crate::proxy::KubeProxy>())
    }
}
