//! The kube-scheduler framework's filter and score plugins, as pure functions.
//!
//! Upstream (kubernetes/kubernetes, v1.34):
//! - `pkg/scheduler/framework/plugins/nodeunschedulable`, `nodename`, `tainttoleration`,
//!   `nodeaffinity`, `nodeports`, `noderesources` (`fit.go`, `least_allocated.go`,
//!   `balanced_allocation.go`, `resource_allocation.go`), `imagelocality`, `helper/normalize_score.go`;
//! - `pkg/scheduler/framework/types.go` (`NodeInfo`, `Resource`, `HostPortInfo`, `FitError.Error`);
//! - `pkg/scheduler/framework/runtime/framework.go` (`RunFilterPlugins`, `RunScorePlugins`,
//!   `RunPostFilterPlugins`);
//! - `pkg/scheduler/schedule_one.go` (`schedulePod`, `findNodesThatFitPod`,
//!   `numFeasibleNodesToFind`, `selectHost`);
//! - `pkg/scheduler/framework/preemption/preemption.go` and `plugins/defaultpreemption`
//!   (`PodEligibleToPreemptOthers`, `nodesWherePreemptionMightHelp`, `SelectVictimsOnNode`);
//! - `k8s.io/component-helpers/resource` (`PodRequests`), `.../scheduling/corev1` (tolerations,
//!   `nodeaffinity`).
//!
//! How one scheduling attempt works (`schedulePod`):
//! 1. **PreFilter**: plugins may reject the pod outright or narrow the candidate nodes. Of the
//!    plugins modelled here only NodeAffinity does: `matchFields` on `metadata.name` (what a
//!    DaemonSet pod uses) restricts the search to the named nodes; every other node is reported as
//!    `node(s) didn't satisfy plugin(s) [NodeAffinity]`.
//! 2. **Filter**: for each node, the filter plugins run in order and the *first* failure decides
//!    the node's status. The search starts at a round-robin index and stops once
//!    `numFeasibleNodesToFind` feasible nodes were found.
//! 3. No feasible node: a **FitError** histogram `0/N nodes are available: ...` is built, then the
//!    **PostFilter** plugins run: DynamicResources (`no new claims to deallocate`) and
//!    DefaultPreemption (`preemption: 0/N nodes are available: ...`).
//! 4. One feasible node: it is chosen without scoring. Several: every **Score** plugin scores each
//!    node 0..100, some normalise across nodes, scores are multiplied by the plugin weight and
//!    summed; the best total wins, ties broken at random (`selectHost`).
//!
//! Plugins modelled: NodeUnschedulable, NodeName, TaintToleration, NodeAffinity, NodePorts,
//! NodeResourcesFit (filters); TaintToleration ×3, NodeAffinity ×2, NodeResourcesFit
//! (LeastAllocated) ×1, NodeResourcesBalancedAllocation ×1, ImageLocality ×1 (scores).
//!
//! Simplifications (kubesim has no volumes, DRA claims, inter-pod affinity or topology spread):
//! - VolumeRestrictions, NodeVolumeLimits, VolumeBinding, VolumeZone, PodTopologySpread,
//!   InterPodAffinity and DynamicResources' filter are not run. In particular PodTopologySpread's
//!   *system default* spreading (hostname maxSkew 3, zone maxSkew 5, weight 2) is not scored.
//! - Filtering is sequential, so "stop after N feasible nodes" is exact rather than racy.
//! - Nominated pods of other pending pods are not added during filtering, and preemption ignores
//!   PodDisruptionBudgets.
//! - Randomness (tie-breaking in `selectHost`) is supplied by the caller as a number.

use crate::api::quantity::{parse_quantity, Format, Quantity};
use std::rc::Rc;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use crate::sim::sort::CompactSort;

// ---------------------------------------------------------------------------------------------
// Framework types
// ---------------------------------------------------------------------------------------------

/// `framework.MaxNodeScore`: every score plugin returns 0..=100 after normalisation.
pub const MAX_NODE_SCORE: i64 = 100;

/// `schedutil.DefaultMilliCPURequest`: what a container without a CPU request counts as when scoring.
pub const DEFAULT_MILLI_CPU_REQUEST: i64 = 100;
/// `schedutil.DefaultMemoryRequest`: 200Mi, the scoring stand-in for a missing memory request.
pub const DEFAULT_MEMORY_REQUEST: i64 = 200 * 1024 * 1024;

/// `schedule_one.go`: never search fewer nodes than this (unless the cluster is smaller).
pub const MIN_FEASIBLE_NODES_TO_FIND: i32 = 100;
/// `schedule_one.go`: the adaptive percentage never drops below 5%.
pub const MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND: i32 = 5;

/// `ErrNoNodesAvailable`: the scheduling error when the cluster has no nodes at all.
pub const NO_NODES_AVAILABLE_MSG: &str = "no nodes available to schedule pods";

/// Filter plugins modelled, in the order of the v1.34 default profile (`default_plugins.go`).
pub const FILTER_PLUGINS: &[&str] =
    &["NodeUnschedulable", "NodeName", "TaintToleration", "NodeAffinity", "NodePorts", "NodeResourcesFit"];

/// Score plugins modelled with their default weights, in profile order.
pub const SCORE_PLUGINS: &[(&str, i64)] = &[
    ("TaintToleration", 3),
    ("NodeAffinity", 2),
    ("NodeResourcesFit", 1),
    ("NodeResourcesBalancedAllocation", 1),
    ("ImageLocality", 1),
];

/// Whether the TaintToleration filter hides the taint in its reason.
///
/// v1.34.0 prints `node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }`.
/// PR #134740 ("remove taint values from unschedulable messages in pod status", v1.35) was
/// cherry-picked to release-1.34 (PR #135023, November 2025), so later 1.34 patch releases print
/// `node(s) had untolerated taint(s)` instead. kubesim emulates the v1.34.0 wording.
pub const REDACT_UNTOLERATED_TAINT: bool = false;

/// DynamicResourceAllocation is GA and on by default in v1.34, so the DynamicResources plugin runs
/// at PostFilter (before DefaultPreemption) and, for pods without ResourceClaims, contributes
/// `no new claims to deallocate` to every FailedScheduling message.
pub const DYNAMIC_RESOURCES_ENABLED: bool = true;

/// `fwk.Code`, restricted to the codes these plugins produce.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Code {
    Success,
    /// The node might fit if pods were removed from it: preemption is attempted.
    Unschedulable,
    /// Removing pods would not help (taint, affinity, node name, node too small).
    UnschedulableAndUnresolvable,
}

/// `fwk.Status`: a code, reasons (each counted separately in the FitError histogram) and the
/// plugin that produced it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Status {
    pub code: Code,
    pub reasons: Vec<String>,
    pub plugin: String,
}

impl Status {
    pub fn success() -> Status {
        Status { code: Code::Success, reasons: Vec::new(), plugin: String::new() }
    }
    pub fn new(code: Code, plugin: &str, reasons: &[&str]) -> Status {
        Status { code, reasons: reasons.iter().map(|r| r.to_string()).collect(), plugin: plugin.to_string() }
    }
    pub fn is_success(&self) -> bool {
        self.code == Code::Success
    }
    /// `Status.Message()`: reasons joined by ", ".
    pub fn message(&self) -> String {
        self.reasons.join(", ")
    }
}

/// `framework.NodeInfo`: a node and the pods the scheduler believes run on it.
#[derive(Clone, Debug)]
pub struct NodeInfo {
    pub node: Value,
    /// Pods assigned to the node that are not terminated (Succeeded/Failed pods are excluded by
    /// the caller), shared with the scheduler's informer (no copies).
    pub pods: Vec<Rc<Value>>,
    /// Images present on the node: every name from `status.images[].names` -> `sizeBytes`.
    pub image_sizes: BTreeMap<String, i64>,
    /// Sums kept up to date by the scheduler cache (upstream NodeInfo stores them too):
    /// (allocatable, requested, non-zero requested). `None` means "compute from `pods`"; whoever
    /// mutates `pods` directly must call [`NodeInfo::refresh`] or leave this `None`.
    pub cache: Option<(Resource, Resource, (i64, i64))>,
    /// `metadata.name`, read once (every filter and score loop asks for it).
    name: String,
}

impl NodeInfo {
    /// Builds a NodeInfo, taking `image_sizes` from `node.status.images` as the scheduler cache does
    /// (`addNodeImageStates`: each name of each image maps to the image's size).
    pub fn new(node: Value, pods: Vec<Value>) -> NodeInfo {
        NodeInfo::with_shared_pods(node, pods.into_iter().map(Rc::new).collect())
    }

    /// [`NodeInfo::new`] with pods already shared.
    pub fn with_shared_pods(node: Value, pods: Vec<Rc<Value>>) -> NodeInfo {
        let mut image_sizes = BTreeMap::new();
        for image in arr(node.pointer("/status/images")) {
            let size = image.get("sizeBytes").and_then(Value::as_i64).unwrap_or(0);
            for name in arr(image.get("names")) {
                if let Some(n) = name.as_str() {
                    image_sizes.entry(n.to_string()).or_insert(size);
                }
            }
        }
        let name = s(node.get("metadata").and_then(|m| m.get("name"))).to_string();
        NodeInfo { node, pods, image_sizes, cache: None, name }
    }

    /// Recomputes the cached sums after `pods` or `node` changed.
    pub fn refresh(&mut self) {
        self.cache = None;
        self.cache = Some((self.allocatable(), self.requested(), self.non_zero_requested()));
    }

    /// `metadata.name` of the node ("" if missing).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// `NodeInfo.Allocatable`: `status.allocatable` as a Resource (pods -> AllowedPodNumber).
    pub fn allocatable(&self) -> Resource {
        if let Some((a, _, _)) = &self.cache {
            return a.clone();
        }
        let mut r = Resource::default();
        r.add(&resource_list(self.node.pointer("/status/allocatable")));
        r
    }

    /// `NodeInfo.Requested`: the sum of the pods' effective requests, no defaults.
    pub fn requested(&self) -> Resource {
        if let Some((_, r, _)) = &self.cache {
            return r.clone();
        }
        let mut r = Resource::default();
        for p in &self.pods {
            r.add(&pod_requests(p, &PodResourcesOptions::for_cache()));
        }
        r
    }

    /// `NodeInfo.NonZeroRequested`: (millicores, bytes) with 100m / 200Mi for missing requests.
    pub fn non_zero_requested(&self) -> (i64, i64) {
        if let Some((_, _, nz)) = &self.cache {
            return *nz;
        }
        let mut cpu = 0i64;
        let mut mem = 0i64;
        for p in &self.pods {
            let (c, m) = non_zero_pod_requests(p);
            cpu = cpu.saturating_add(c);
            mem = mem.saturating_add(m);
        }
        (cpu, mem)
    }

    /// `NodeInfo.UsedPorts`: host ports taken by the pods on the node.
    fn used_ports(&self) -> BTreeSet<(String, String, i64)> {
        let mut used = BTreeSet::new();
        for p in &self.pods {
            for (ip, proto, port) in host_ports(p) {
                used.insert((ip, proto, port));
            }
        }
        used
    }
}

/// `framework.Resource`: quantities in the scheduler's integer units (millicores, bytes, counts).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Resource {
    pub milli_cpu: i64,
    pub memory: i64,
    pub ephemeral_storage: i64,
    pub allowed_pod_number: i64,
    /// Extended resources, hugepages, `*kubernetes.io/*` names: `IsScalarResourceName`.
    pub scalar: BTreeMap<String, i64>,
}

impl Resource {
    /// `Resource.Add(ResourceList)`: each quantity converted (cpu: MilliValue, others: Value) and added.
    pub fn add(&mut self, rl: &BTreeMap<String, Quantity>) {
        for (name, q) in rl {
            match name.as_str() {
                "cpu" => self.milli_cpu = self.milli_cpu.saturating_add(q.milli_value()),
                "memory" => self.memory = self.memory.saturating_add(q.value()),
                "pods" => self.allowed_pod_number = self.allowed_pod_number.saturating_add(q.value()),
                "ephemeral-storage" => self.ephemeral_storage = self.ephemeral_storage.saturating_add(q.value()),
                n if is_scalar_resource_name(n) => {
                    let e = self.scalar.entry(n.to_string()).or_insert(0);
                    *e = e.saturating_add(q.value());
                }
                _ => {}
            }
        }
    }

    /// `Resource.SetMaxResource` applied to a zero Resource: the incoming pod's request vector
    /// (negative amounts become 0; `pods` is not a request).
    fn from_pod_request(rl: &BTreeMap<String, Quantity>) -> Resource {
        let mut r = Resource::default();
        for (name, q) in rl {
            match name.as_str() {
                "cpu" => r.milli_cpu = r.milli_cpu.max(q.milli_value()),
                "memory" => r.memory = r.memory.max(q.value()),
                "ephemeral-storage" => r.ephemeral_storage = r.ephemeral_storage.max(q.value()),
                n if is_scalar_resource_name(n) => {
                    let e = r.scalar.entry(n.to_string()).or_insert(0);
                    *e = (*e).max(q.value());
                }
                _ => {}
            }
        }
        r
    }
}

// ---------------------------------------------------------------------------------------------
// Small JSON helpers (never panic on missing or mistyped fields)
// ---------------------------------------------------------------------------------------------

fn arr(v: Option<&Value>) -> &[Value] {
    v.and_then(Value::as_array).map(Vec::as_slice).unwrap_or(&[])
}

fn s(v: Option<&Value>) -> &str {
    v.and_then(Value::as_str).unwrap_or("")
}

/// `core/v1 PodPriority`: `spec.priority`, 0 when unset.
fn pod_priority(pod: &Value) -> i64 {
    // int32 in the API; clamp so arithmetic on garbage cannot overflow
    pod.pointer("/spec/priority").and_then(Value::as_i64).unwrap_or(0).clamp(i32::MIN as i64, i32::MAX as i64)
}

fn pod_key(pod: &Value) -> (String, String) {
    (s(pod.pointer("/metadata/namespace")).to_string(), s(pod.pointer("/metadata/name")).to_string())
}

/// A `ResourceList` (`{"cpu": "100m", ...}`); malformed quantities are skipped (validation rejects
/// them before they reach the scheduler).
fn resource_list(v: Option<&Value>) -> BTreeMap<String, Quantity> {
    let mut out = BTreeMap::new();
    if let Some(obj) = v.and_then(Value::as_object) {
        for (k, q) in obj {
            if let Some(q) = parse_quantity(q) {
                out.insert(k.clone(), q);
            }
        }
    }
    out
}

/// `v1helper.IsScalarResourceName`: extended (`example.com/foo`), hugepages, `*kubernetes.io/*`
/// native names and attachable volumes are tracked individually; other plain names are ignored.
fn is_scalar_resource_name(name: &str) -> bool {
    let prefixed_native = name.contains("kubernetes.io/");
    let extended = !prefixed_native && name.contains('/') && !name.starts_with("requests.");
    extended || prefixed_native || name.starts_with("hugepages-") || name.starts_with("attachable-volumes-")
}

// ---------------------------------------------------------------------------------------------
// Pod requests (k8s.io/component-helpers/resource PodRequests)
// ---------------------------------------------------------------------------------------------

/// `resource.PodResourcesOptions`, restricted to what the scheduler sets.
struct PodResourcesOptions {
    /// In-place resize (beta, on in v1.34): take the max of spec and status resources.
    use_status_resources: bool,
    /// Defaults added to containers that do not mention a resource at all (missing, not zero).
    non_missing: BTreeMap<String, Quantity>,
}

impl PodResourcesOptions {
    fn for_cache() -> Self {
        PodResourcesOptions { use_status_resources: true, non_missing: BTreeMap::new() }
    }
    fn with_defaults(non_missing: BTreeMap<String, Quantity>) -> Self {
        PodResourcesOptions { use_status_resources: true, non_missing }
    }
}

fn default_non_missing() -> BTreeMap<String, Quantity> {
    let mut m = BTreeMap::new();
    m.insert("cpu".to_string(), Quantity::new_milli(DEFAULT_MILLI_CPU_REQUEST, Format::DecimalSI));
    m.insert("memory".to_string(), Quantity::new(DEFAULT_MEMORY_REQUEST, Format::DecimalSI));
    m
}

fn add_resource_list(list: &mut BTreeMap<String, Quantity>, add: &BTreeMap<String, Quantity>) {
    for (k, q) in add {
        let e = list.entry(k.clone()).or_insert(Quantity::zero(q.format));
        *e = e.add(q);
    }
}

fn max_resource_list(list: &mut BTreeMap<String, Quantity>, other: &BTreeMap<String, Quantity>) {
    for (k, q) in other {
        match list.get(k) {
            Some(v) if q <= v => {}
            _ => {
                list.insert(k.clone(), *q);
            }
        }
    }
}

/// The requests of one container, optionally raised to its status resources, plus defaults.
fn container_requests(c: &Value, status: Option<&Value>, opts: &PodResourcesOptions) -> BTreeMap<String, Quantity> {
    let mut reqs = resource_list(c.pointer("/resources/requests"));
    if opts.use_status_resources {
        // determineContainerReqs: max(spec, status.resources.requests, status.allocatedResources)
        if let Some(cs) = status {
            if cs.get("resources").is_some() {
                max_resource_list(&mut reqs, &resource_list(cs.pointer("/resources/requests")));
                max_resource_list(&mut reqs, &resource_list(cs.get("allocatedResources")));
            }
        }
    }
    for (k, q) in &opts.non_missing {
        reqs.entry(k.clone()).or_insert(*q);
    }
    reqs
}

fn statuses_by_name<'a>(pod: &'a Value, field: &str) -> BTreeMap<&'a str, &'a Value> {
    arr(pod.get("status").and_then(|st| st.get(field)))
        .iter()
        .filter_map(|cs| cs.get("name").and_then(Value::as_str).map(|n| (n, cs)))
        .collect()
}

/// `IsPodLevelRequestsSet` (PodLevelResources, beta and on in v1.34).
fn is_pod_level_requests_set(pod: &Value) -> bool {
    let reqs = resource_list(pod.pointer("/spec/resources/requests"));
    reqs.contains_key("cpu") || reqs.contains_key("memory")
}

/// `resource.PodRequests`: containers are summed; init containers run one after another, so the
/// pod needs the max of (sum of containers) and (each init container + the sidecars started
/// before it); sidecars (`restartPolicy: Always` init containers) also add to the total. Pod-level
/// requests override cpu/memory; `spec.overhead` is added.
/// Memo of the last few `pod_requests` results, keyed by (uid, resourceVersion, options): one
/// scheduling attempt asks for the incoming pod's requests once per node.
type RequestsMemo = Vec<((String, String, bool, usize), BTreeMap<String, Quantity>)>;
thread_local! {
    static REQUESTS_MEMO: std::cell::RefCell<RequestsMemo> = const { std::cell::RefCell::new(Vec::new()) };
    /// The memo only lives during one `schedule_pod` call, so it can never mix up two clusters
    /// (two runs with one seed have the same uids and resourceVersions).
    static MEMO_DEPTH: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

/// Runs `f` with the per-attempt requests memo on; the memo is empty when the outermost scope
/// starts and ends. `schedule_pod` uses it; the scheduler wraps a whole attempt in it.
pub fn with_requests_memo<R>(f: impl FnOnce() -> R) -> R {
    let depth = MEMO_DEPTH.with(|d| {
        let v = d.get();
        d.set(v + 1);
        v
    });
    if depth == 0 {
        REQUESTS_MEMO.with(|m| m.borrow_mut().clear());
    }
    let r = f();
    MEMO_DEPTH.with(|d| d.set(d.get().saturating_sub(1)));
    if depth == 0 {
        REQUESTS_MEMO.with(|m| m.borrow_mut().clear());
    }
    r
}

fn pod_requests(pod: &Value, opts: &PodResourcesOptions) -> BTreeMap<String, Quantity> {
    let uid = s(pod.get("metadata").and_then(|m| m.get("uid")));
    let rv = s(pod.get("metadata").and_then(|m| m.get("resourceVersion")));
    if uid.is_empty() || rv.is_empty() || MEMO_DEPTH.with(|d| d.get()) == 0 {
        return pod_requests_uncached(pod, opts);
    }
    let hit = REQUESTS_MEMO.with(|m| {
        m.borrow()
            .iter()
            .find(|((u, r, st, n), _)| u == uid && r == rv && *st == opts.use_status_resources && *n == opts.non_missing.len())
            .map(|(_, v)| v.clone())
    });
    if let Some(v) = hit {
        return v;
    }
    let v = pod_requests_uncached(pod, opts);
    REQUESTS_MEMO.with(|m| {
        let mut m = m.borrow_mut();
        if m.len() >= 8 {
            m.remove(0);
        }
        m.push(((uid.to_string(), rv.to_string(), opts.use_status_resources, opts.non_missing.len()), v.clone()));
    });
    v
}

fn pod_requests_uncached(pod: &Value, opts: &PodResourcesOptions) -> BTreeMap<String, Quantity> {
    let mut reqs = BTreeMap::new();
    let cstatus = statuses_by_name(pod, "containerStatuses");
    for c in arr(pod.pointer("/spec/containers")) {
        let st = cstatus.get(s(c.get("name"))).copied();
        add_resource_list(&mut reqs, &container_requests(c, st, opts));
    }
    let istatus = statuses_by_name(pod, "initContainerStatuses");
    let mut restartable = BTreeMap::new();
    let mut init_reqs = BTreeMap::new();
    for c in arr(pod.pointer("/spec/initContainers")) {
        let sidecar = s(c.get("restartPolicy")) == "Always";
        let st = if sidecar { istatus.get(s(c.get("name"))).copied() } else { None };
        let cr = container_requests(c, st, opts);
        let effective = if sidecar {
            add_resource_list(&mut reqs, &cr);
            add_resource_list(&mut restartable, &cr);
            restartable.clone()
        } else {
            let mut tmp = cr;
            add_resource_list(&mut tmp, &restartable);
            tmp
        };
        max_resource_list(&mut init_reqs, &effective);
    }
    max_resource_list(&mut reqs, &init_reqs);
    if is_pod_level_requests_set(pod) {
        for (k, q) in resource_list(pod.pointer("/spec/resources/requests")) {
            if k == "cpu" || k == "memory" {
                reqs.insert(k, q);
            }
        }
    }
    add_resource_list(&mut reqs, &resource_list(pod.pointer("/spec/overhead")));
    reqs
}

/// `PodInfo.CalculateResource` Non0CPU / Non0Mem: requests with 100m / 200Mi standing in for
/// missing container requests (only for resources that pod-level requests do not already set).
fn non_zero_pod_requests(pod: &Value) -> (i64, i64) {
    let requests = pod_requests(pod, &PodResourcesOptions::for_cache());
    let mut non_missing = default_non_missing();
    if is_pod_level_requests_set(pod) {
        non_missing.retain(|k, _| !requests.contains_key(k));
    }
    let non0 = if non_missing.is_empty() {
        requests
    } else {
        pod_requests(pod, &PodResourcesOptions::with_defaults(non_missing))
    };
    (non0.get("cpu").map(Quantity::milli_value).unwrap_or(0), non0.get("memory").map(Quantity::value).unwrap_or(0))
}

/// `resourceAllocationScorer.calculatePodResourceRequest` for cpu and memory.
/// `use_requested` (BalancedAllocation) takes the real requests; otherwise (Fit scoring) missing
/// container requests count as 100m / 200Mi.
fn scoring_pod_requests(pod: &Value, use_requested: bool) -> (i64, i64) {
    let opts = if use_requested {
        PodResourcesOptions::for_cache()
    } else {
        PodResourcesOptions::with_defaults(default_non_missing())
    };
    let r = pod_requests(pod, &opts);
    (r.get("cpu").map(Quantity::milli_value).unwrap_or(0), r.get("memory").map(Quantity::value).unwrap_or(0))
}

/// `schedutil.GetHostPorts`: (hostIP, protocol, hostPort) of containers and sidecars with hostPort > 0.
fn host_ports(pod: &Value) -> Vec<(String, String, i64)> {
    let mut out = Vec::new();
    let sidecars = arr(pod.pointer("/spec/initContainers")).iter().filter(|c| s(c.get("restartPolicy")) == "Always");
    for c in sidecars.chain(arr(pod.pointer("/spec/containers")).iter()) {
        for p in arr(c.get("ports")) {
            let port = p.get("hostPort").and_then(Value::as_i64).unwrap_or(0);
            if port <= 0 {
                continue;
            }
            // HostPortInfo.sanitize: empty IP is 0.0.0.0, empty protocol is TCP.
            let ip = match s(p.get("hostIP")) {
                "" => "0.0.0.0",
                ip => ip,
            };
            let proto = match s(p.get("protocol")) {
                "" => "TCP",
                pr => pr,
            };
            out.push((ip.to_string(), proto.to_string(), port));
        }
    }
    out
}

// ---------------------------------------------------------------------------------------------
// Tolerations and node selectors (component-helpers/scheduling/corev1)
// ---------------------------------------------------------------------------------------------

/// `Toleration.ToleratesTaint`: effect must match unless the toleration's is empty, key must match
/// unless the toleration's is empty, then `Exists` matches any value and `Equal`/"" needs equality.
fn toleration_tolerates_taint(tol: &Value, taint: &Value) -> bool {
    let t_effect = s(tol.get("effect"));
    if !t_effect.is_empty() && t_effect != s(taint.get("effect")) {
        return false;
    }
    let t_key = s(tol.get("key"));
    if !t_key.is_empty() && t_key != s(taint.get("key")) {
        return false;
    }
    match s(tol.get("operator")) {
        "" | "Equal" => s(tol.get("value")) == s(taint.get("value")),
        "Exists" => true,
        _ => false,
    }
}

pub fn tolerations_tolerate_taint(tolerations: &[Value], taint: &Value) -> bool {
    tolerations.iter().any(|t| toleration_tolerates_taint(t, taint))
}

fn pod_tolerations(pod: &Value) -> &[Value] {
    arr(pod.pointer("/spec/tolerations"))
}

fn node_taints(node: &Value) -> &[Value] {
    arr(node.pointer("/spec/taints"))
}

fn node_labels(node: &Value) -> BTreeMap<&str, &str> {
    node.pointer("/metadata/labels")
        .and_then(Value::as_object)
        .map(|m| m.iter().filter_map(|(k, v)| v.as_str().map(|v| (k.as_str(), v))).collect())
        .unwrap_or_default()
}

/// One `matchExpressions` requirement against node labels (`labels.Requirement.Matches`).
/// `Err` for requirements `labels.NewRequirement` would refuse (they make the term not match).
fn label_requirement_matches(req: &Value, labels: &BTreeMap<&str, &str>) -> Result<bool, ()> {
    let key = s(req.get("key"));
    let values: Vec<&str> = arr(req.get("values")).iter().filter_map(Value::as_str).collect();
    let has = labels.get(key).copied();
    match s(req.get("operator")) {
        "In" | "NotIn" if values.is_empty() => Err(()),
        "In" => Ok(has.map(|v| values.contains(&v)).unwrap_or(false)),
        "NotIn" => Ok(has.map(|v| !values.contains(&v)).unwrap_or(true)),
        "Exists" | "DoesNotExist" if !values.is_empty() => Err(()),
        "Exists" => Ok(has.is_some()),
        "DoesNotExist" => Ok(has.is_none()),
        op @ ("Gt" | "Lt") => {
            if values.len() != 1 {
                return Err(());
            }
            let want: i64 = values[0].parse().map_err(|_| ())?;
            let got = match has.and_then(|v| v.parse::<i64>().ok()) {
                Some(g) => g,
                None => return Ok(false),
            };
            Ok(if op == "Gt" { got > want } else { got < want })
        }
        _ => Err(()),
    }
}

/// One `matchFields` requirement: only `In`/`NotIn` with exactly one value are valid, and the only
/// node field is `metadata.name` (any other key reads as "").
fn field_requirement_matches(req: &Value, node_name: &str) -> Result<bool, ()> {
    let key = s(req.get("key"));
    let values = arr(req.get("values"));
    if values.len() != 1 {
        return Err(());
    }
    let want = s(values.first());
    let got = if key == "metadata.name" { node_name } else { "" };
    match s(req.get("operator")) {
        "In" => Ok(got == want),
        "NotIn" => Ok(got != want),
        _ => Err(()),
    }
}

/// `nodeSelectorTerm.match`: all expressions and all fields must match. An empty term matches
/// every node here; required terms skip empty terms before calling this.
fn node_selector_term_matches(term: &Value, node: &Value) -> bool {
    let labels = node_labels(node);
    let name = s(node.pointer("/metadata/name"));
    for e in arr(term.get("matchExpressions")) {
        match label_requirement_matches(e, &labels) {
            Ok(true) => {}
            _ => return false,
        }
    }
    for f in arr(term.get("matchFields")) {
        match field_requirement_matches(f, name) {
            Ok(true) => {}
            _ => return false,
        }
    }
    true
}

fn is_empty_term(term: &Value) -> bool {
    arr(term.get("matchExpressions")).is_empty() && arr(term.get("matchFields")).is_empty()
}

/// `nodeaffinity.GetRequiredNodeAffinity(pod).Match(node)`: `spec.nodeSelector` (every label equal)
/// AND the required node selector terms (ORed; empty terms select nothing). Parse errors only
/// spoil their own term ("ignore parsing errors for backwards compatibility").
pub fn required_node_affinity_matches(pod: &Value, node: &Value) -> bool {
    if let Some(sel) = pod.pointer("/spec/nodeSelector").and_then(Value::as_object) {
        let labels = node_labels(node);
        for (k, v) in sel {
            if labels.get(k.as_str()).copied() != v.as_str() {
                return false;
            }
        }
    }
    match required_terms(pod) {
        None => true,
        Some(terms) => terms.iter().any(|t| !is_empty_term(t) && node_selector_term_matches(t, node)),
    }
}

/// The pod's `requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms`, if it has the field.
fn required_terms(pod: &Value) -> Option<&[Value]> {
    let req = pod.pointer("/spec/affinity/nodeAffinity/requiredDuringSchedulingIgnoredDuringExecution")?;
    if req.is_null() {
        return None;
    }
    Some(arr(req.get("nodeSelectorTerms")))
}

// ---------------------------------------------------------------------------------------------
// Filter plugins
// ---------------------------------------------------------------------------------------------

/// NodeUnschedulable: a cordoned node (`spec.unschedulable`) only accepts pods tolerating
/// `node.kubernetes.io/unschedulable:NoSchedule`.
fn filter_node_unschedulable(pod: &Value, ni: &NodeInfo) -> Status {
    if ni.node.pointer("/spec/unschedulable").and_then(Value::as_bool) != Some(true) {
        return Status::success();
    }
    let taint = serde_json::json!({"key": "node.kubernetes.io/unschedulable", "effect": "NoSchedule"});
    if tolerations_tolerate_taint(pod_tolerations(pod), &taint) {
        return Status::success();
    }
    Status::new(Code::UnschedulableAndUnresolvable, "NodeUnschedulable", &["node(s) were unschedulable"])
}

/// NodeName: `spec.nodeName`, when set, must be this node.
fn filter_node_name(pod: &Value, ni: &NodeInfo) -> Status {
    let want = s(pod.pointer("/spec/nodeName"));
    if want.is_empty() || want == ni.name() {
        return Status::success();
    }
    Status::new(Code::UnschedulableAndUnresolvable, "NodeName", &["node(s) didn't match the requested node name"])
}

/// The TaintToleration filter reason for a taint (see [`REDACT_UNTOLERATED_TAINT`]).
pub fn untolerated_taint_reason(key: &str, value: &str, redact: bool) -> String {
    if redact {
        "node(s) had untolerated taint(s)".to_string()
    } else {
        format!("node(s) had untolerated taint {{{key}: {value}}}")
    }
}

/// TaintToleration filter: the first NoSchedule/NoExecute taint (in node order) that no toleration
/// tolerates rejects the node. PreferNoSchedule taints only affect scoring.
fn filter_taint_toleration(pod: &Value, ni: &NodeInfo) -> Status {
    let tolerations = pod_tolerations(pod);
    let untolerated = node_taints(&ni.node).iter().find(|t| {
        matches!(s(t.get("effect")), "NoSchedule" | "NoExecute") && !tolerations_tolerate_taint(tolerations, t)
    });
    match untolerated {
        None => Status::success(),
        Some(t) => {
            let reason = untolerated_taint_reason(s(t.get("key")), s(t.get("value")), REDACT_UNTOLERATED_TAINT);
            Status { code: Code::UnschedulableAndUnresolvable, reasons: vec![reason], plugin: "TaintToleration".into() }
        }
    }
}

/// NodeAffinity filter: `spec.nodeSelector` and required node affinity.
fn filter_node_affinity(pod: &Value, ni: &NodeInfo) -> Status {
    if required_node_affinity_matches(pod, &ni.node) {
        return Status::success();
    }
    Status::new(
        Code::UnschedulableAndUnresolvable,
        "NodeAffinity",
        &["node(s) didn't match Pod's node affinity/selector"],
    )
}

/// NodePorts: every wanted (ip, protocol, port) must be free (`HostPortInfo.CheckConflict`):
/// a 0.0.0.0 request conflicts with that protocol/port on any IP; a specific IP conflicts with the
/// same IP or 0.0.0.0.
fn filter_node_ports(pod: &Value, ni: &NodeInfo) -> Status {
    let wanted = host_ports(pod);
    if wanted.is_empty() {
        return Status::success();
    }
    let used = ni.used_ports();
    let conflict = wanted.iter().any(|(ip, proto, port)| {
        if ip == "0.0.0.0" {
            used.iter().any(|(_, p, n)| p == proto && n == port)
        } else {
            used.contains(&("0.0.0.0".to_string(), proto.clone(), *port))
                || used.contains(&(ip.clone(), proto.clone(), *port))
        }
    });
    if conflict {
        return Status::new(
            Code::Unschedulable,
            "NodePorts",
            &["node(s) didn't have free ports for the requested pod ports"],
        );
    }
    Status::success()
}

/// One entry of `fitsRequest`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InsufficientResource {
    pub resource_name: String,
    pub reason: String,
    pub requested: i64,
    pub used: i64,
    pub capacity: i64,
    /// The pod asks for more than the node's whole allocatable: preemption cannot help (PR #131345).
    pub unresolvable: bool,
}

/// `noderesources.fitsRequest`: pod count, then cpu, memory, ephemeral-storage, then scalar
/// resources (sorted by name; Go iterates a map). A pod requesting nothing only checks the pod count.
pub fn fits_request(pod: &Value, ni: &NodeInfo) -> Vec<InsufficientResource> {
    let mut out = Vec::new();
    let alloc = ni.allocatable();
    let used = ni.requested();
    let n_pods = ni.pods.len() as i64;
    if n_pods + 1 > alloc.allowed_pod_number {
        out.push(InsufficientResource {
            resource_name: "pods".into(),
            reason: "Too many pods".into(),
            requested: 1,
            used: n_pods,
            capacity: alloc.allowed_pod_number,
            unresolvable: false,
        });
    }
    let req = Resource::from_pod_request(&pod_requests(pod, &PodResourcesOptions::for_cache()));
    if req.milli_cpu == 0 && req.memory == 0 && req.ephemeral_storage == 0 && req.scalar.is_empty() {
        return out;
    }
    let mut check = |name: &str, want: i64, used: i64, cap: i64| {
        if want > 0 && want > cap.saturating_sub(used) {
            out.push(InsufficientResource {
                resource_name: name.into(),
                reason: format!("Insufficient {name}"),
                requested: want,
                used,
                capacity: cap,
                unresolvable: want > cap,
            });
        }
    };
    check("cpu", req.milli_cpu, used.milli_cpu, alloc.milli_cpu);
    check("memory", req.memory, used.memory, alloc.memory);
    check("ephemeral-storage", req.ephemeral_storage, used.ephemeral_storage, alloc.ephemeral_storage);
    for (name, want) in &req.scalar {
        let cap = alloc.scalar.get(name).copied().unwrap_or(0);
        let u = used.scalar.get(name).copied().unwrap_or(0);
        check(name, *want, u, cap);
    }
    out
}

/// NodeResourcesFit filter: all insufficient resources are reported (several reasons per node);
/// UnschedulableAndUnresolvable if any request exceeds the node's total allocatable.
fn filter_node_resources_fit(pod: &Value, ni: &NodeInfo) -> Status {
    let insufficient = fits_request(pod, ni);
    if insufficient.is_empty() {
        return Status::success();
    }
    let code = if insufficient.iter().any(|r| r.unresolvable) {
        Code::UnschedulableAndUnresolvable
    } else {
        Code::Unschedulable
    };
    Status { code, reasons: insufficient.into_iter().map(|r| r.reason).collect(), plugin: "NodeResourcesFit".into() }
}

fn run_filter(plugin: &str, pod: &Value, ni: &NodeInfo) -> Status {
    let mut st = match plugin {
        "NodeUnschedulable" => filter_node_unschedulable(pod, ni),
        "NodeName" => filter_node_name(pod, ni),
        "TaintToleration" => filter_taint_toleration(pod, ni),
        "NodeAffinity" => filter_node_affinity(pod, ni),
        "NodePorts" => filter_node_ports(pod, ni),
        "NodeResourcesFit" => filter_node_resources_fit(pod, ni),
        _ => Status::success(),
    };
    st.plugin = plugin.to_string();
    st
}

/// `RunFilterPlugins`: the filter plugins in order, stopping at the first failure. Returns the
/// status of every plugin that ran (the last one is the failure, if any).
pub fn run_filter_plugins(pod: &Value, node: &NodeInfo) -> Vec<(String, Status)> {
    let mut out = Vec::new();
    for p in FILTER_PLUGINS {
        let st = run_filter(p, pod, node);
        let failed = !st.is_success();
        out.push((p.to_string(), st));
        if failed {
            break;
        }
    }
    out
}

/// The plugins [`run_filter_plugins`] ran for a node whose verdict ([`filter`]) is `st`, with
/// each one's rejection: it stops at the first failure, so every plugin before it passed.
pub fn filter_trail(st: &Status) -> Vec<(&'static str, Option<String>)> {
    let mut out = Vec::new();
    for p in FILTER_PLUGINS {
        let failed = !st.is_success() && st.plugin == *p;
        out.push((*p, failed.then(|| st.message())));
        if failed {
            break;
        }
    }
    out
}

/// The node's filter verdict: the first failing plugin's status, or Success.
pub fn filter(pod: &Value, node: &NodeInfo) -> Status {
    match run_filter_plugins(pod, node).pop() {
        Some((_, st)) if !st.is_success() => st,
        _ => Status::success(),
    }
}

// ---------------------------------------------------------------------------------------------
// PreFilter (NodeAffinity) and the search over nodes
// ---------------------------------------------------------------------------------------------

/// `NodeAffinity.PreFilter`: `Ok(Some(names))` when every required term pins `metadata.name`
/// with `In` (the union over terms of the intersection within a term), `Ok(None)` when all nodes
/// stay candidates, `Err` (UnschedulableAndUnresolvable `pod affinity terms conflict`) when the
/// pinned sets are empty.
pub fn pre_filter_node_names(pod: &Value) -> Result<Option<BTreeSet<String>>, Status> {
    let terms = match required_terms(pod) {
        Some(t) if !t.is_empty() => t,
        _ => return Ok(None),
    };
    let mut names: BTreeSet<String> = BTreeSet::new();
    for t in terms {
        let mut term_names: Option<BTreeSet<String>> = None;
        for f in arr(t.get("matchFields")) {
            if s(f.get("key")) == "metadata.name" && s(f.get("operator")) == "In" {
                let set: BTreeSet<String> =
                    arr(f.get("values")).iter().filter_map(Value::as_str).map(String::from).collect();
                term_names = Some(match term_names {
                    None => set,
                    Some(prev) => prev.intersection(&set).cloned().collect(),
                });
            }
        }
        match term_names {
            None => return Ok(None), // a term without a name pin: any node may match
            Some(n) => names.extend(n),
        }
    }
    if names.is_empty() {
        return Err(Status::new(Code::UnschedulableAndUnresolvable, "NodeAffinity", &["pod affinity terms conflict"]));
    }
    Ok(Some(names))
}

/// `framework.Diagnosis`: why nodes were rejected.
#[derive(Clone, Debug, Default)]
pub struct Diagnosis {
    /// Explicit statuses of nodes that failed a filter (`NodeToStatus`), in search order.
    pub node_statuses: Vec<(String, Status)>,
    /// Status of every node absent from `node_statuses` (`AbsentNodesStatus`); `None` is the
    /// default UnschedulableAndUnresolvable without reasons.
    pub absent_status: Option<Status>,
    /// Set when PreFilter rejected the pod: the histogram is then replaced by this message.
    pub pre_filter_msg: Option<String>,
    /// Plugins that rejected at least one node (used for requeueing).
    pub unschedulable_plugins: BTreeSet<String>,
}

impl Diagnosis {
    /// `NodeToStatus.Get`: explicit status, or the absent-nodes status.
    fn status_of(&self, node: &str) -> Status {
        if let Some((_, st)) = self.node_statuses.iter().find(|(n, _)| n == node) {
            return st.clone();
        }
        self.absent_status.clone().unwrap_or(Status {
            code: Code::UnschedulableAndUnresolvable,
            reasons: Vec::new(),
            plugin: String::new(),
        })
    }
}

/// Result of [`find_nodes_that_fit`].
#[derive(Clone, Debug)]
pub struct FindResult {
    /// Indices (into the `nodes` slice) of feasible nodes, in search order.
    pub feasible: Vec<usize>,
    pub diagnosis: Diagnosis,
    /// `sched.nextStartNodeIndex` for the next attempt.
    pub next_start_node_index: usize,
    /// The filter verdict of every node the search evaluated (indexed like `nodes`; `None` for
    /// nodes it did not reach), so the page's table needs no second filter run.
    pub verdicts: Vec<Option<Status>>,
}

/// `numFeasibleNodesToFind`: clusters under 100 nodes are searched fully; otherwise the
/// percentage (0 = adaptive `50 - N/125`, floor 5%) of N, but at least 100.
pub fn num_feasible_nodes_to_find(percentage_of_nodes_to_score: i32, num_all_nodes: i32) -> i32 {
    if num_all_nodes < MIN_FEASIBLE_NODES_TO_FIND {
        return num_all_nodes;
    }
    let mut percentage = percentage_of_nodes_to_score;
    if percentage == 0 {
        percentage = (50 - num_all_nodes / 125).max(MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND);
    }
    let num = (num_all_nodes as i64 * percentage as i64 / 100) as i32;
    num.max(MIN_FEASIBLE_NODES_TO_FIND)
}

/// `findNodesThatFitPod`: PreFilter, the nominated node first (if the pod has one and it fits),
/// then the filters over the candidates starting at `next_start_node_index`, stopping once
/// `numFeasibleNodesToFind` feasible nodes were found.
pub fn find_nodes_that_fit(
    pod: &Value,
    nodes: &[NodeInfo],
    next_start_node_index: usize,
    percentage_of_nodes_to_score: i32,
) -> FindResult {
    let mut diagnosis = Diagnosis::default();
    let n_all = nodes.len();
    let names = match pre_filter_node_names(pod) {
        Err(st) => {
            diagnosis.pre_filter_msg = Some(st.message());
            diagnosis.unschedulable_plugins.insert(st.plugin.clone());
            diagnosis.absent_status = Some(st);
            return FindResult { feasible: Vec::new(), diagnosis, next_start_node_index, verdicts: Vec::new() };
        }
        Ok(n) => n,
    };

    // A pod nominated by an earlier preemption tries its nominated node first.
    let nominated = s(pod.pointer("/status/nominatedNodeName"));
    if !nominated.is_empty() {
        if let Some(i) = nodes.iter().position(|n| n.name() == nominated) {
            let st = filter(pod, &nodes[i]);
            if st.is_success() {
                let mut verdicts = vec![None; n_all];
                verdicts[i] = Some(st);
                return FindResult { feasible: vec![i], diagnosis, next_start_node_index, verdicts };
            }
        }
    }

    let candidates: Vec<usize> = match &names {
        None => (0..n_all).collect(),
        Some(set) => {
            diagnosis.absent_status = Some(Status::new(
                Code::UnschedulableAndUnresolvable,
                "",
                &["node(s) didn't satisfy plugin(s) [NodeAffinity]"],
            ));
            diagnosis.unschedulable_plugins.insert("NodeAffinity".into());
            (0..n_all).filter(|&i| set.contains(nodes[i].name())).collect()
        }
    };
    let to_find = num_feasible_nodes_to_find(percentage_of_nodes_to_score, candidates.len() as i32).max(0) as usize;
    let mut feasible = Vec::new();
    let mut verdicts = vec![None; n_all];
    if !candidates.is_empty() {
        for k in 0..candidates.len() {
            if feasible.len() >= to_find {
                break;
            }
            let i = candidates[(next_start_node_index % candidates.len() + k) % candidates.len()];
            let st = filter(pod, &nodes[i]);
            if st.is_success() {
                feasible.push(i);
            } else {
                diagnosis.unschedulable_plugins.insert(st.plugin.clone());
                diagnosis.node_statuses.push((nodes[i].name().to_string(), st.clone()));
            }
            verdicts[i] = Some(st);
        }
    }
    let processed = feasible.len() + diagnosis.node_statuses.len();
    let next = if n_all == 0 { 0 } else { (next_start_node_index % n_all + processed) % n_all };
    FindResult { feasible, diagnosis, next_start_node_index: next, verdicts }
}

// ---------------------------------------------------------------------------------------------
// FitError message
// ---------------------------------------------------------------------------------------------

/// `FitError.Error()` from a full diagnosis: `0/N nodes are available:` then either the PreFilter
/// message or the reason histogram (each `"<count> <reason>"`, sorted as whole strings, so
/// `10 ...` sorts before `2 ...`), then the PostFilter message.
pub fn fit_error_message_from_diagnosis(
    num_all_nodes: usize,
    diagnosis: &Diagnosis,
    post_filter_msg: Option<&str>,
) -> String {
    let mut msg = format!("0/{num_all_nodes} nodes are available:");
    match diagnosis.pre_filter_msg.as_deref() {
        Some(pf) if !pf.is_empty() => msg.push_str(&format!(" {pf}.")),
        _ => {
            let mut reasons: BTreeMap<String, usize> = BTreeMap::new();
            for (_, st) in &diagnosis.node_statuses {
                for r in &st.reasons {
                    *reasons.entry(r.clone()).or_insert(0) += 1;
                }
            }
            let explicit = diagnosis.node_statuses.len();
            if explicit < num_all_nodes {
                if let Some(abs) = &diagnosis.absent_status {
                    for r in &abs.reasons {
                        *reasons.entry(r.clone()).or_insert(0) += num_all_nodes - explicit;
                    }
                }
            }
            let mut hist: Vec<String> = reasons.iter().map(|(r, n)| format!("{n} {r}")).collect();
            hist.csort();
            if !hist.is_empty() {
                msg.push_str(&format!(" {}.", hist.join(", ")));
            }
        }
    }
    if let Some(pf) = post_filter_msg {
        if !pf.is_empty() {
            msg.push(' ');
            msg.push_str(pf);
        }
    }
    msg
}

/// `FitError.Error()` for node statuses from Filter: "0/3 nodes are available: 1 node(s) had
/// untolerated taint {node-role.kubernetes.io/control-plane: }, 2 Insufficient cpu." followed by
/// `" " + post_filter_msg` when given.
pub fn fit_error_message(
    num_all_nodes: usize,
    node_statuses: &[(String, Status)],
    post_filter_msg: Option<&str>,
) -> String {
    let d = Diagnosis { node_statuses: node_statuses.to_vec(), ..Diagnosis::default() };
    fit_error_message_from_diagnosis(num_all_nodes, &d, post_filter_msg)
}

// ---------------------------------------------------------------------------------------------
// PostFilter: DefaultPreemption (and the DynamicResources note)
// ---------------------------------------------------------------------------------------------

/// A node where evicting `victims` lets the pod fit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PreemptionCandidate {
    pub node: String,
    /// (namespace, name) of the pods to evict, most important first.
    pub victims: Vec<(String, String)>,
}

/// Outcome of DefaultPreemption's PostFilter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PreemptionOutcome {
    /// Preemption cannot help; the message starts with `preemption: `.
    Unschedulable(String),
    /// The chosen node; the pod gets `status.nominatedNodeName` and the victims are deleted.
    /// The FailedScheduling message then carries no PostFilter part.
    Nominated(PreemptionCandidate),
}

/// `MoreImportantPod`: higher priority, then the earlier `status.startTime` (a pod that has not
/// started counts as "now", i.e. latest).
fn more_important(a: &Value, b: &Value) -> bool {
    let (pa, pb) = (pod_priority(a), pod_priority(b));
    if pa != pb {
        return pa > pb;
    }
    start_time_key(a) < start_time_key(b)
}

fn start_time_key(p: &Value) -> String {
    match p.pointer("/status/startTime").and_then(Value::as_str) {
        Some(t) => t.to_string(),
        None => "\u{10FFFF}".to_string(),
    }
}

/// `podTerminatingByPreemption`: being deleted with a DisruptionTarget condition from the scheduler.
fn pod_terminating_by_preemption(p: &Value) -> bool {
    if p.pointer("/metadata/deletionTimestamp").map(|v| v.is_null()).unwrap_or(true) {
        return false;
    }
    arr(p.pointer("/status/conditions"))
        .iter()
        .any(|c| s(c.get("type")) == "DisruptionTarget" && s(c.get("reason")) == "PreemptionByScheduler")
}

/// `SelectVictimsOnNode`: remove every lower-priority pod; if the pod still does not fit, the
/// filter status explains why; otherwise reprieve victims from the most important down while the
/// pod keeps fitting. PDBs are not modelled.
fn select_victims_on_node(pod: &Value, ni: &NodeInfo) -> Result<Vec<Value>, Status> {
    let prio = pod_priority(pod);
    let (mut potential, kept): (Vec<Rc<Value>>, Vec<Rc<Value>>) = ni.pods.iter().cloned().partition(|p| pod_priority(p) < prio);
    if potential.is_empty() {
        return Err(Status::new(
            Code::UnschedulableAndUnresolvable,
            "DefaultPreemption",
            &["No preemption victims found for incoming pod"],
        ));
    }
    let mut trial = NodeInfo { node: ni.node.clone(), pods: kept, image_sizes: ni.image_sizes.clone(), cache: None, name: ni.name.clone() };
    let st = filter(pod, &trial);
    if !st.is_success() {
        return Err(st);
    }
    potential.csort_by(|a, b| {
        if more_important(a, b) {
            std::cmp::Ordering::Less
        } else if more_important(b, a) {
            std::cmp::Ordering::Greater
        } else {
            std::cmp::Ordering::Equal
        }
    });
    let mut victims = Vec::new();
    for p in potential {
        trial.pods.push(p);
        if !filter(pod, &trial).is_success() {
            if let Some(v) = trial.pods.pop() {
                victims.push(Value::clone(&v));
            }
        }
    }
    Ok(victims)
}

/// `pickOneNodeForPreemption` without PDBs: lowest highest-victim priority, then lowest sum of
/// victim priorities, then fewest victims, then the latest start among the highest-priority
/// victims, then the first candidate.
fn pick_one_node_for_preemption(cands: &[(String, Vec<Value>)]) -> Option<usize> {
    if cands.is_empty() {
        return None;
    }
    // A node that needs no eviction at all wins outright.
    if let Some(i) = cands.iter().position(|(_, v)| v.is_empty()) {
        return Some(i);
    }
    let mut best: Vec<usize> = (0..cands.len()).collect();
    let keep_min = |best: &mut Vec<usize>, key: &dyn Fn(usize) -> i64| {
        let m = best.iter().map(|&i| key(i)).min().unwrap_or(0);
        best.retain(|&i| key(i) == m);
    };
    let highest = |i: usize| cands[i].1.iter().map(pod_priority).max().unwrap_or(i64::MIN);
    keep_min(&mut best, &highest);
    keep_min(&mut best, &|i: usize| cands[i].1.iter().map(|p| pod_priority(p) + (i32::MAX as i64 + 1)).sum());
    keep_min(&mut best, &|i: usize| cands[i].1.len() as i64);
    if best.len() > 1 {
        // earliest start time among the highest-priority victims; the latest such node wins
        let earliest = |i: usize| -> String {
            let h = highest(i);
            cands[i].1.iter().filter(|p| pod_priority(p) == h).map(start_time_key).min().unwrap_or_default()
        };
        let latest = best.iter().map(|&i| earliest(i)).max().unwrap_or_default();
        best.retain(|&i| earliest(i) == latest);
    }
    best.first().copied()
}

/// DefaultPreemption's PostFilter (`Evaluator.Preempt`). `diagnosis` is the filter diagnosis of
/// the failed attempt over `nodes` (all nodes of the cluster).
pub fn default_preemption(pod: &Value, nodes: &[NodeInfo], diagnosis: &Diagnosis) -> PreemptionOutcome {
    // PodEligibleToPreemptOthers
    if s(pod.pointer("/spec/preemptionPolicy")) == "Never" {
        return PreemptionOutcome::Unschedulable("preemption: not eligible due to preemptionPolicy=Never.".into());
    }
    let nominated = s(pod.pointer("/status/nominatedNodeName"));
    if !nominated.is_empty() && diagnosis.status_of(nominated).code != Code::UnschedulableAndUnresolvable {
        if let Some(ni) = nodes.iter().find(|n| n.name() == nominated) {
            let prio = pod_priority(pod);
            if ni.pods.iter().any(|p| pod_priority(p) < prio && pod_terminating_by_preemption(p)) {
                return PreemptionOutcome::Unschedulable(
                    "preemption: not eligible due to a terminating pod on the nominated node.".into(),
                );
            }
        }
    }

    // nodesWherePreemptionMightHelp + DryRunPreemption
    let mut statuses: Vec<(String, Status)> = Vec::new();
    let mut cands: Vec<(String, Vec<Value>)> = Vec::new();
    for ni in nodes {
        let name = ni.name().to_string();
        if diagnosis.status_of(&name).code == Code::UnschedulableAndUnresolvable {
            statuses.push((
                name,
                Status::new(
                    Code::UnschedulableAndUnresolvable,
                    "DefaultPreemption",
                    &["Preemption is not helpful for scheduling"],
                ),
            ));
            continue;
        }
        match select_victims_on_node(pod, ni) {
            Ok(v) => cands.push((name, v)),
            Err(st) => statuses.push((name, st)),
        }
    }
    if let Some(i) = pick_one_node_for_preemption(&cands) {
        let (node, victims) = &cands[i];
        return PreemptionOutcome::Nominated(PreemptionCandidate {
            node: node.clone(),
            victims: victims.iter().map(pod_key).collect(),
        });
    }
    let d = Diagnosis {
        node_statuses: statuses,
        absent_status: Some(Status::new(
            Code::UnschedulableAndUnresolvable,
            "",
            &["Preemption is not helpful for scheduling"],
        )),
        ..Diagnosis::default()
    };
    PreemptionOutcome::Unschedulable(format!("preemption: {}", fit_error_message_from_diagnosis(nodes.len(), &d, None)))
}

/// The `preemption: ...` part of FailedScheduling for a pod whose filtering failed with
/// `node_statuses` over `nodes` (all nodes). `None` when preemption finds a node (the pod is then
/// nominated and the message has no PostFilter part).
pub fn preemption_message(pod: &Value, nodes: &[NodeInfo], node_statuses: &[(String, Status)]) -> Option<String> {
    let d = Diagnosis { node_statuses: node_statuses.to_vec(), ..Diagnosis::default() };
    match default_preemption(pod, nodes, &d) {
        PreemptionOutcome::Unschedulable(m) => Some(m),
        PreemptionOutcome::Nominated(_) => None,
    }
}

/// `RunPostFilterPlugins`' message: the DynamicResources reason (v1.34, pods without claims), then
/// DefaultPreemption's, joined by ", "; empty when preemption nominated a node.
pub fn post_filter_message(preemption: &PreemptionOutcome) -> String {
    match preemption {
        PreemptionOutcome::Nominated(_) => String::new(),
        PreemptionOutcome::Unschedulable(m) => {
            if DYNAMIC_RESOURCES_ENABLED {
                format!("no new claims to deallocate, {m}")
            } else {
                m.clone()
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Score plugins
// ---------------------------------------------------------------------------------------------

/// Per-node scores: `(plugin, raw, normalized, weighted)` for each plugin that ran (plugins whose
/// PreScore returned Skip are absent) and the weighted total.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeScore {
    pub node: String,
    pub per_plugin: Vec<PluginScore>,
    pub total: i64,
}

/// One score plugin's verdict on one node: its raw score, normalized to 0..100, and weighted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PluginScore {
    pub plugin: &'static str,
    pub raw: i64,
    pub normalized: i64,
    pub weighted: i64,
}

/// `helper.DefaultNormalizeScore`: scale to 0..max by the highest score; `reverse` flips it
/// (all-zero scores become max when reversed).
pub fn default_normalize_score(max_priority: i64, reverse: bool, scores: &mut [i64]) {
    let max_count = scores.iter().copied().max().unwrap_or(0).max(0);
    if max_count == 0 {
        if reverse {
            for sc in scores.iter_mut() {
                *sc = max_priority;
            }
        }
        return;
    }
    for sc in scores.iter_mut() {
        let mut v = (max_priority as i128 * *sc as i128 / max_count as i128) as i64;
        if reverse {
            v = max_priority - v;
        }
        *sc = v;
    }
}

/// TaintToleration score: the number of PreferNoSchedule taints not tolerated by the pod's
/// tolerations with effect PreferNoSchedule or empty.
fn score_taint_toleration(pod: &Value, ni: &NodeInfo) -> i64 {
    let tols: Vec<Value> = pod_tolerations(pod)
        .iter()
        .filter(|t| matches!(s(t.get("effect")), "" | "PreferNoSchedule"))
        .cloned()
        .collect();
    node_taints(&ni.node)
        .iter()
        .filter(|t| s(t.get("effect")) == "PreferNoSchedule" && !tolerations_tolerate_taint(&tols, t))
        .count() as i64
}

fn preferred_terms(pod: &Value) -> Option<&[Value]> {
    let v = pod.pointer("/spec/affinity/nodeAffinity/preferredDuringSchedulingIgnoredDuringExecution")?;
    if v.is_null() {
        return None;
    }
    Some(arr(Some(v)))
}

/// NodeAffinity score: sum of the weights of the preferred terms the node matches (an empty
/// preference matches every node; weight 0 terms are ignored).
fn score_node_affinity(pod: &Value, ni: &NodeInfo) -> i64 {
    preferred_terms(pod)
        .unwrap_or(&[])
        .iter()
        .filter_map(|t| {
            let w = t.get("weight").and_then(Value::as_i64).unwrap_or(0);
            if w == 0 {
                return None;
            }
            let pref = t.get("preference").cloned().unwrap_or(Value::Null);
            node_selector_term_matches(&pref, &ni.node).then_some(w)
        })
        .fold(0i64, i64::saturating_add)
}

/// `leastRequestedScore`: free fraction of capacity ×100, integer division; 0 when overcommitted.
fn least_requested_score(requested: i64, capacity: i64) -> i64 {
    if capacity == 0 || requested > capacity {
        return 0;
    }
    ((capacity as i128 - requested as i128) * MAX_NODE_SCORE as i128 / capacity as i128) as i64
}

/// NodeResourcesFit score, LeastAllocated strategy, cpu and memory weight 1: node NonZeroRequested
/// plus the pod's request (missing requests count as 100m / 200Mi); resources with zero
/// allocatable are skipped; integer weighted mean.
fn score_least_allocated(pod: &Value, ni: &NodeInfo) -> i64 {
    let (pod_cpu, pod_mem) = scoring_pod_requests(pod, false);
    let alloc = ni.allocatable();
    let (nz_cpu, nz_mem) = ni.non_zero_requested();
    let mut score = 0;
    let mut weight_sum = 0;
    for (req, cap) in
        [(nz_cpu.saturating_add(pod_cpu), alloc.milli_cpu), (nz_mem.saturating_add(pod_mem), alloc.memory)]
    {
        if cap == 0 {
            continue;
        }
        score += least_requested_score(req, cap);
        weight_sum += 1;
    }
    if weight_sum == 0 {
        0
    } else {
        score / weight_sum
    }
}

/// `balancedResourceScorer` for cpu and memory: fractions capped at 1; with two resources
/// `std = |f_cpu - f_mem| / 2`; score `int64((1 - std) * 100)`. Uses real requests (no defaults).
fn score_balanced_allocation(pod: &Value, ni: &NodeInfo) -> i64 {
    let (pod_cpu, pod_mem) = scoring_pod_requests(pod, true);
    let alloc = ni.allocatable();
    let used = ni.requested();
    let mut fractions = Vec::new();
    for (req, cap) in
        [(used.milli_cpu.saturating_add(pod_cpu), alloc.milli_cpu), (used.memory.saturating_add(pod_mem), alloc.memory)]
    {
        if cap == 0 {
            continue;
        }
        fractions.push((req as f64 / cap as f64).min(1.0));
    }
    let std = if fractions.len() == 2 { ((fractions[0] - fractions[1]) / 2.0).abs() } else { 0.0 };
    ((1.0 - std) * MAX_NODE_SCORE as f64) as i64
}

const MB: i64 = 1024 * 1024;
const IMAGE_MIN_THRESHOLD: i64 = 23 * MB;
const IMAGE_MAX_CONTAINER_THRESHOLD: i64 = 1000 * MB;

/// `normalizedImageName`: an image without a tag gets `:latest` (a `:` before the last `/` is a
/// registry port, not a tag).
pub fn normalized_image_name(name: &str) -> String {
    let colon = name.rfind(':').map(|i| i as i64).unwrap_or(-1);
    let slash = name.rfind('/').map(|i| i as i64).unwrap_or(-1);
    if colon <= slash {
        format!("{name}:latest")
    } else {
        name.to_string()
    }
}

/// ImageLocality score: sum over init and regular containers of image size × spread (fraction of
/// all nodes having the image), clamped to [23Mi, 1000Mi × containers] and scaled to 0..100.
fn score_image_locality(pod: &Value, ni: &NodeInfo, all_nodes: &[NodeInfo]) -> i64 {
    let total = all_nodes.len();
    let containers: Vec<&Value> =
        arr(pod.pointer("/spec/initContainers")).iter().chain(arr(pod.pointer("/spec/containers")).iter()).collect();
    let mut sum: i64 = 0;
    if total > 0 {
        for c in &containers {
            let image = normalized_image_name(s(c.get("image")));
            if let Some(size) = ni.image_sizes.get(&image) {
                let num_nodes = all_nodes.iter().filter(|n| n.image_sizes.contains_key(&image)).count();
                let spread = num_nodes as f64 / total as f64;
                sum = sum.saturating_add((*size as f64 * spread) as i64);
            }
        }
    }
    let max_threshold = IMAGE_MAX_CONTAINER_THRESHOLD.saturating_mul(containers.len() as i64);
    let clamped = sum.max(IMAGE_MIN_THRESHOLD).min(max_threshold.max(IMAGE_MIN_THRESHOLD));
    let span = max_threshold - IMAGE_MIN_THRESHOLD;
    if span <= 0 {
        return 0;
    }
    (MAX_NODE_SCORE as i128 * (clamped - IMAGE_MIN_THRESHOLD) as i128 / span as i128) as i64
}

/// Which score plugins run for this pod (PreScore Skip): NodeAffinity without preferred terms and
/// BalancedAllocation for pods requesting no cpu and no memory (PR #130260, v1.33) are skipped.
fn active_score_plugins(pod: &Value) -> Vec<(&'static str, i64)> {
    SCORE_PLUGINS
        .iter()
        .copied()
        .filter(|(name, _)| match *name {
            "NodeAffinity" => preferred_terms(pod).is_some(),
            "NodeResourcesBalancedAllocation" => scoring_pod_requests(pod, true) != (0, 0),
            _ => true,
        })
        .collect()
}

/// `RunScorePlugins`: each plugin scores every feasible node, TaintToleration (reversed) and
/// NodeAffinity normalise across the feasible nodes, then scores are multiplied by the weights.
/// `all_nodes` (every node in the snapshot) is only used for ImageLocality's spread.
pub fn score_nodes(pod: &Value, feasible: &[&NodeInfo], all_nodes: &[NodeInfo]) -> Vec<NodeScore> {
    let mut out: Vec<NodeScore> =
        feasible.iter().map(|n| NodeScore { node: n.name().to_string(), per_plugin: Vec::new(), total: 0 }).collect();
    for (plugin, weight) in active_score_plugins(pod) {
        let raw: Vec<i64> = feasible
            .iter()
            .map(|ni| match plugin {
                "TaintToleration" => score_taint_toleration(pod, ni),
                "NodeAffinity" => score_node_affinity(pod, ni),
                "NodeResourcesFit" => score_least_allocated(pod, ni),
                "NodeResourcesBalancedAllocation" => score_balanced_allocation(pod, ni),
                "ImageLocality" => score_image_locality(pod, ni, all_nodes),
                _ => 0,
            })
            .collect();
        let mut norm = raw.clone();
        match plugin {
            "TaintToleration" => default_normalize_score(MAX_NODE_SCORE, true, &mut norm),
            "NodeAffinity" => default_normalize_score(MAX_NODE_SCORE, false, &mut norm),
            _ => {}
        }
        for (i, ns) in out.iter_mut().enumerate() {
            let weighted = norm[i].saturating_mul(weight);
            ns.per_plugin.push(PluginScore { plugin, raw: raw[i], normalized: norm[i], weighted });
            ns.total = ns.total.saturating_add(weighted);
        }
    }
    out
}

/// `selectHost`: the highest total wins; ties are broken uniformly at random upstream (reservoir
/// sampling). kubesim takes the randomness from the caller: the `tie_breaker`-th (modulo) of the
/// tied nodes, in `scores` order.
pub fn select_host(scores: &[NodeScore], tie_breaker: u64) -> Option<String> {
    let max = scores.iter().map(|s| s.total).max()?;
    let tied: Vec<&NodeScore> = scores.iter().filter(|s| s.total == max).collect();
    let pick = (tie_breaker % tied.len() as u64) as usize;
    tied.get(pick).map(|s| s.node.clone())
}

// ---------------------------------------------------------------------------------------------
// One scheduling attempt
// ---------------------------------------------------------------------------------------------

/// Outcome of [`schedule_pod`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ScheduleOutcome {
    /// Bind the pod to `node`. `scores` is empty when a single node was feasible (no scoring).
    Scheduled { node: String, evaluated_nodes: usize, feasible_nodes: usize, scores: Vec<NodeScore> },
    /// FailedScheduling with `message` (also the PodScheduled=False condition message, reason
    /// `Unschedulable`). With `preemption: Some(..)` the pod should be nominated to that node and
    /// the victims deleted.
    Unschedulable { message: String, unschedulable_plugins: BTreeSet<String>, preemption: Option<PreemptionCandidate> },
    /// The cluster has no nodes: `no nodes available to schedule pods`.
    NoNodes,
}

/// `schedulePod` + PostFilter for one pod against all `nodes`. Returns the outcome and the next
/// round-robin start index. `tie_breaker` is the caller's random number for `selectHost`.
pub fn schedule_pod(
    pod: &Value,
    nodes: &[NodeInfo],
    next_start_node_index: usize,
    percentage_of_nodes_to_score: i32,
    tie_breaker: u64,
) -> (ScheduleOutcome, usize) {
    let (outcome, next, _) = schedule_pod_with_verdicts(pod, nodes, next_start_node_index, percentage_of_nodes_to_score, tie_breaker);
    (outcome, next)
}

/// [`schedule_pod`], also returning each evaluated node's filter verdict ([`FindResult::verdicts`]).
pub fn schedule_pod_with_verdicts(
    pod: &Value,
    nodes: &[NodeInfo],
    next_start_node_index: usize,
    percentage_of_nodes_to_score: i32,
    tie_breaker: u64,
) -> (ScheduleOutcome, usize, Vec<Option<Status>>) {
    if nodes.is_empty() {
        return (ScheduleOutcome::NoNodes, next_start_node_index, Vec::new());
    }
    with_requests_memo(|| {
        let found = find_nodes_that_fit(pod, nodes, next_start_node_index, percentage_of_nodes_to_score);
        let verdicts = found.verdicts.clone();
        let (outcome, next) = schedule_pod_inner(pod, nodes, found, tie_breaker);
        (outcome, next, verdicts)
    })
}

/// `schedulePod` when a PreFilter plugin outside this module (the volume plugins) rejected the
/// pod: every node takes that status, the FitError carries its message, then PostFilter runs.
pub fn schedule_rejected_at_pre_filter(pod: &Value, nodes: &[NodeInfo], next_start_node_index: usize, st: Status) -> ScheduleOutcome {
    let mut diagnosis = Diagnosis { pre_filter_msg: Some(st.message()), ..Diagnosis::default() };
    diagnosis.unschedulable_plugins.insert(st.plugin.clone());
    diagnosis.absent_status = Some(st);
    let found = FindResult { feasible: Vec::new(), diagnosis, next_start_node_index, verdicts: Vec::new() };
    schedule_pod_inner(pod, nodes, found, 0).0
}

fn schedule_pod_inner(pod: &Value, nodes: &[NodeInfo], found: FindResult, tie_breaker: u64) -> (ScheduleOutcome, usize) {
    let next = found.next_start_node_index;
    let evaluated = found.feasible.len() + found.diagnosis.node_statuses.len();
    match found.feasible.len() {
        0 => {
            let pre = default_preemption(pod, nodes, &found.diagnosis);
            let post = post_filter_message(&pre);
            let message = fit_error_message_from_diagnosis(nodes.len(), &found.diagnosis, Some(&post));
            let preemption = match pre {
                PreemptionOutcome::Nominated(c) => Some(c),
                PreemptionOutcome::Unschedulable(_) => None,
            };
            (
                ScheduleOutcome::Unschedulable {
                    message,
                    unschedulable_plugins: found.diagnosis.unschedulable_plugins,
                    preemption,
                },
                next,
            )
        }
        1 => {
            let node = nodes[found.feasible[0]].name().to_string();
            (
                ScheduleOutcome::Scheduled { node, evaluated_nodes: evaluated, feasible_nodes: 1, scores: Vec::new() },
                next,
            )
        }
        n => {
            let feasible: Vec<&NodeInfo> = found.feasible.iter().map(|&i| &nodes[i]).collect();
            let scores = score_nodes(pod, &feasible, nodes);
            let node = select_host(&scores, tie_breaker).unwrap_or_default();
            (ScheduleOutcome::Scheduled { node, evaluated_nodes: evaluated, feasible_nodes: n, scores }, next)
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------------------------

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn node(name: &str, cpu: &str, mem: &str, pods: i64) -> Value {
        json!({
            "metadata": {"name": name, "labels": {"kubernetes.io/hostname": name}},
            "spec": {},
            "status": {"allocatable": {"cpu": cpu, "memory": mem, "pods": pods.to_string(), "ephemeral-storage": "100Gi"}}
        })
    }

    fn with(mut v: Value, path: &str, val: Value) -> Value {
        // set a nested field; path like "spec/taints" or "spec/containers/0/ports"
        {
            let parts: Vec<&str> = path.split('/').collect();
            let mut cur = &mut v;
            for p in &parts[..parts.len() - 1] {
                cur = match cur {
                    Value::Array(a) => &mut a[p.parse::<usize>().unwrap()],
                    other => {
                        if other.get(*p).is_none() {
                            other[*p] = json!({});
                        }
                        &mut other[*p]
                    }
                };
            }
            let last = parts[parts.len() - 1];
            match cur {
                Value::Array(a) => a[last.parse::<usize>().unwrap()] = val,
                other => other[last] = val,
            }
        }
        v
    }

    fn pod(name: &str, cpu: Option<&str>, mem: Option<&str>) -> Value {
        let mut req = serde_json::Map::new();
        if let Some(c) = cpu {
            req.insert("cpu".into(), json!(c));
        }
        if let Some(m) = mem {
            req.insert("memory".into(), json!(m));
        }
        json!({
            "metadata": {"name": name, "namespace": "default"},
            "spec": {"containers": [{"name": "c", "image": "nginx:1.25", "resources": {"requests": Value::Object(req)}}]}
        })
    }

    fn ni(node: Value, pods: Vec<Value>) -> NodeInfo {
        NodeInfo::new(node, pods)
    }

    struct FilterCase {
        name: &'static str,
        pod: Value,
        node: NodeInfo,
        want: Status,
    }

    fn ok() -> Status {
        Status::success()
    }
    fn fail(code: Code, plugin: &str, reasons: &[&str]) -> Status {
        Status::new(code, plugin, reasons)
    }
    use Code::{Unschedulable as U, UnschedulableAndUnresolvable as UU};

    fn run_cases(cases: Vec<FilterCase>) {
        for c in cases {
            assert_eq!(filter(&c.pod, &c.node), c.want, "{}", c.name);
        }
    }

    #[test]
    fn node_unschedulable_table() {
        let cordoned = with(node("n1", "4", "8Gi", 110), "spec/unschedulable", json!(true));
        run_cases(vec![
            FilterCase {
                name: "schedulable node",
                pod: pod("p", None, None),
                node: ni(node("n1", "4", "8Gi", 110), vec![]),
                want: ok(),
            },
            FilterCase {
                name: "cordoned node rejects",
                pod: pod("p", None, None),
                node: ni(cordoned.clone(), vec![]),
                want: fail(UU, "NodeUnschedulable", &["node(s) were unschedulable"]),
            },
            FilterCase {
                name: "toleration of the unschedulable taint",
                pod: with(
                    pod("p", None, None),
                    "spec/tolerations",
                    json!([{"key": "node.kubernetes.io/unschedulable", "operator": "Exists", "effect": "NoSchedule"}]),
                ),
                node: ni(cordoned.clone(), vec![]),
                want: ok(),
            },
            FilterCase {
                name: "tolerate-everything toleration",
                pod: with(pod("p", None, None), "spec/tolerations", json!([{"operator": "Exists"}])),
                node: ni(cordoned, vec![]),
                want: ok(),
            },
        ]);
    }

    #[test]
    fn node_name_table() {
        run_cases(vec![
            FilterCase {
                name: "no nodeName",
                pod: pod("p", None, None),
                node: ni(node("n1", "4", "8Gi", 110), vec![]),
                want: ok(),
            },
            FilterCase {
                name: "matching nodeName",
                pod: with(pod("p", None, None), "spec/nodeName", json!("n1")),
                node: ni(node("n1", "4", "8Gi", 110), vec![]),
                want: ok(),
            },
            FilterCase {
                name: "other nodeName",
                pod: with(pod("p", None, None), "spec/nodeName", json!("n2")),
                node: ni(node("n1", "4", "8Gi", 110), vec![]),
                want: fail(UU, "NodeName", &["node(s) didn't match the requested node name"]),
            },
        ]);
    }

    #[test]
    fn taint_toleration_table() {
        let cp = with(
            node("cp", "4", "8Gi", 110),
            "spec/taints",
            json!([{"key": "node-role.kubernetes.io/control-plane", "effect": "NoSchedule"}]),
        );
        let kv = with(
            node("n", "4", "8Gi", 110),
            "spec/taints",
            json!([{"key": "dedicated", "value": "gpu", "effect": "NoSchedule"}]),
        );
        let exec = with(
            node("n", "4", "8Gi", 110),
            "spec/taints",
            json!([{"key": "node.kubernetes.io/unreachable", "effect": "NoExecute"}]),
        );
        let soft = with(
            node("n", "4", "8Gi", 110),
            "spec/taints",
            json!([{"key": "a", "value": "b", "effect": "PreferNoSchedule"}]),
        );
        let two = with(
            node("n", "4", "8Gi", 110),
            "spec/taints",
            json!([
                {"key": "first", "value": "1", "effect": "NoSchedule"},
                {"key": "second", "value": "2", "effect": "NoSchedule"}
            ]),
        );
        let tol = |t: Value| with(pod("p", None, None), "spec/tolerations", t);
        run_cases(vec![
            FilterCase {
                name: "control-plane taint, empty value",
                pod: pod("p", None, None),
                node: ni(cp.clone(), vec![]),
                want: fail(
                    UU,
                    "TaintToleration",
                    &["node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }"],
                ),
            },
            FilterCase {
                name: "key/value taint",
                pod: pod("p", None, None),
                node: ni(kv.clone(), vec![]),
                want: fail(UU, "TaintToleration", &["node(s) had untolerated taint {dedicated: gpu}"]),
            },
            FilterCase {
                name: "Equal toleration",
                pod: tol(json!([{"key": "dedicated", "operator": "Equal", "value": "gpu", "effect": "NoSchedule"}])),
                node: ni(kv.clone(), vec![]),
                want: ok(),
            },
            FilterCase {
                name: "empty operator means Equal",
                pod: tol(json!([{"key": "dedicated", "value": "gpu"}])),
                node: ni(kv.clone(), vec![]),
                want: ok(),
            },
            FilterCase {
                name: "Equal with other value",
                pod: tol(json!([{"key": "dedicated", "operator": "Equal", "value": "cpu", "effect": "NoSchedule"}])),
                node: ni(kv.clone(), vec![]),
                want: fail(UU, "TaintToleration", &["node(s) had untolerated taint {dedicated: gpu}"]),
            },
            FilterCase {
                name: "Exists on key, empty effect",
                pod: tol(json!([{"key": "dedicated", "operator": "Exists"}])),
                node: ni(kv.clone(), vec![]),
                want: ok(),
            },
            FilterCase {
                name: "effect mismatch",
                pod: tol(json!([{"key": "dedicated", "operator": "Exists", "effect": "NoExecute"}])),
                node: ni(kv.clone(), vec![]),
                want: fail(UU, "TaintToleration", &["node(s) had untolerated taint {dedicated: gpu}"]),
            },
            FilterCase {
                name: "empty key Exists tolerates all",
                pod: tol(json!([{"operator": "Exists"}])),
                node: ni(kv.clone(), vec![]),
                want: ok(),
            },
            FilterCase {
                name: "unknown operator tolerates nothing",
                pod: tol(json!([{"key": "dedicated", "operator": "Gt", "value": "1"}])),
                node: ni(kv, vec![]),
                want: fail(UU, "TaintToleration", &["node(s) had untolerated taint {dedicated: gpu}"]),
            },
            FilterCase {
                name: "NoExecute taint rejects",
                pod: pod("p", None, None),
                node: ni(exec.clone(), vec![]),
                want: fail(
                    UU,
                    "TaintToleration",
                    &["node(s) had untolerated taint {node.kubernetes.io/unreachable: }"],
                ),
            },
            FilterCase {
                name: "default unreachable toleration",
                pod: tol(
                    json!([{"key": "node.kubernetes.io/unreachable", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 300}]),
                ),
                node: ni(exec, vec![]),
                want: ok(),
            },
            FilterCase {
                name: "PreferNoSchedule does not filter",
                pod: pod("p", None, None),
                node: ni(soft, vec![]),
                want: ok(),
            },
            FilterCase {
                name: "first untolerated taint is reported",
                pod: tol(json!([{"key": "second", "operator": "Exists"}])),
                node: ni(two.clone(), vec![]),
                want: fail(UU, "TaintToleration", &["node(s) had untolerated taint {first: 1}"]),
            },
            FilterCase {
                name: "second taint when the first is tolerated",
                pod: tol(json!([{"key": "first", "operator": "Exists"}])),
                node: ni(two, vec![]),
                want: fail(UU, "TaintToleration", &["node(s) had untolerated taint {second: 2}"]),
            },
        ]);
        assert_eq!(
            untolerated_taint_reason("k", "v", true),
            "node(s) had untolerated taint(s)",
            "redacted reason (1.34.2+)"
        );
    }

    #[test]
    fn node_affinity_table() {
        let labelled = with(
            node("n1", "4", "8Gi", 110),
            "metadata/labels",
            json!({"zone": "z1", "disk": "ssd", "cores": "8", "kubernetes.io/hostname": "n1"}),
        );
        let req = |terms: Value| {
            with(
                pod("p", None, None),
                "spec/affinity",
                json!({"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": terms}}}),
            )
        };
        let expr = |key: &str, op: &str, values: Value| json!([{"matchExpressions": [{"key": key, "operator": op, "values": values}]}]);
        let mismatch = || fail(UU, "NodeAffinity", &["node(s) didn't match Pod's node affinity/selector"]);
        let n = || ni(labelled.clone(), vec![]);
        run_cases(vec![
            FilterCase {
                name: "nodeSelector match",
                pod: with(pod("p", None, None), "spec/nodeSelector", json!({"zone": "z1"})),
                node: n(),
                want: ok(),
            },
            FilterCase {
                name: "nodeSelector mismatch",
                pod: with(pod("p", None, None), "spec/nodeSelector", json!({"zone": "z2"})),
                node: n(),
                want: mismatch(),
            },
            FilterCase {
                name: "nodeSelector missing label",
                pod: with(pod("p", None, None), "spec/nodeSelector", json!({"gpu": "yes"})),
                node: n(),
                want: mismatch(),
            },
            FilterCase { name: "In match", pod: req(expr("zone", "In", json!(["z0", "z1"]))), node: n(), want: ok() },
            FilterCase {
                name: "In mismatch",
                pod: req(expr("zone", "In", json!(["z2"]))),
                node: n(),
                want: mismatch(),
            },
            FilterCase { name: "NotIn match", pod: req(expr("zone", "NotIn", json!(["z2"]))), node: n(), want: ok() },
            FilterCase {
                name: "NotIn on missing label matches",
                pod: req(expr("gpu", "NotIn", json!(["a"]))),
                node: n(),
                want: ok(),
            },
            FilterCase {
                name: "NotIn mismatch",
                pod: req(expr("zone", "NotIn", json!(["z1"]))),
                node: n(),
                want: mismatch(),
            },
            FilterCase { name: "Exists", pod: req(expr("disk", "Exists", json!([]))), node: n(), want: ok() },
            FilterCase {
                name: "Exists missing",
                pod: req(expr("gpu", "Exists", json!([]))),
                node: n(),
                want: mismatch(),
            },
            FilterCase {
                name: "DoesNotExist",
                pod: req(expr("gpu", "DoesNotExist", json!([]))),
                node: n(),
                want: ok(),
            },
            FilterCase {
                name: "DoesNotExist present",
                pod: req(expr("disk", "DoesNotExist", json!([]))),
                node: n(),
                want: mismatch(),
            },
            FilterCase { name: "Gt true", pod: req(expr("cores", "Gt", json!(["4"]))), node: n(), want: ok() },
            FilterCase { name: "Gt false", pod: req(expr("cores", "Gt", json!(["8"]))), node: n(), want: mismatch() },
            FilterCase { name: "Lt true", pod: req(expr("cores", "Lt", json!(["16"]))), node: n(), want: ok() },
            FilterCase {
                name: "Gt on non-integer label",
                pod: req(expr("zone", "Gt", json!(["1"]))),
                node: n(),
                want: mismatch(),
            },
            FilterCase {
                name: "Gt with bad value is an error",
                pod: req(expr("cores", "Gt", json!(["x"]))),
                node: n(),
                want: mismatch(),
            },
            FilterCase {
                name: "In without values is an error",
                pod: req(expr("zone", "In", json!([]))),
                node: n(),
                want: mismatch(),
            },
            FilterCase {
                name: "matchFields name",
                pod: req(json!([{"matchFields": [{"key": "metadata.name", "operator": "In", "values": ["n1"]}]}])),
                node: n(),
                want: ok(),
            },
            FilterCase {
                name: "matchFields other name",
                pod: req(json!([{"matchFields": [{"key": "metadata.name", "operator": "In", "values": ["n2"]}]}])),
                node: n(),
                want: mismatch(),
            },
            FilterCase {
                name: "matchFields NotIn",
                pod: req(json!([{"matchFields": [{"key": "metadata.name", "operator": "NotIn", "values": ["n2"]}]}])),
                node: n(),
                want: ok(),
            },
            FilterCase {
                name: "terms are ORed",
                pod: req(
                    json!([{"matchExpressions": [{"key": "zone", "operator": "In", "values": ["z9"]}]}, {"matchExpressions": [{"key": "disk", "operator": "In", "values": ["ssd"]}]}]),
                ),
                node: n(),
                want: ok(),
            },
            FilterCase {
                name: "expressions are ANDed",
                pod: req(
                    json!([{"matchExpressions": [{"key": "zone", "operator": "In", "values": ["z1"]}, {"key": "disk", "operator": "In", "values": ["hdd"]}]}]),
                ),
                node: n(),
                want: mismatch(),
            },
            FilterCase { name: "empty term selects nothing", pod: req(json!([{}])), node: n(), want: mismatch() },
            FilterCase { name: "no terms selects nothing", pod: req(json!([])), node: n(), want: mismatch() },
            FilterCase {
                name: "nodeSelector and affinity both apply",
                pod: with(req(expr("zone", "In", json!(["z1"]))), "spec/nodeSelector", json!({"disk": "hdd"})),
                node: n(),
                want: mismatch(),
            },
        ]);
    }

    #[test]
    fn node_ports_table() {
        let port_pod = |name: &str, port: i64, proto: Option<&str>, ip: Option<&str>| {
            let mut p = json!({"containerPort": 80, "hostPort": port});
            if let Some(pr) = proto {
                p["protocol"] = json!(pr);
            }
            if let Some(i) = ip {
                p["hostIP"] = json!(i);
            }
            with(pod(name, None, None), "spec/containers/0/ports", json!([p]))
        };
        let conflict = || fail(U, "NodePorts", &["node(s) didn't have free ports for the requested pod ports"]);
        let n = |pods: Vec<Value>| ni(node("n1", "4", "8Gi", 110), pods);
        run_cases(vec![
            FilterCase {
                name: "free port",
                pod: port_pod("p", 8080, None, None),
                node: n(vec![port_pod("q", 9090, None, None)]),
                want: ok(),
            },
            FilterCase {
                name: "same port",
                pod: port_pod("p", 8080, None, None),
                node: n(vec![port_pod("q", 8080, Some("TCP"), None)]),
                want: conflict(),
            },
            FilterCase {
                name: "same port, other protocol",
                pod: port_pod("p", 8080, Some("UDP"), None),
                node: n(vec![port_pod("q", 8080, None, None)]),
                want: ok(),
            },
            FilterCase {
                name: "wildcard vs specific IP",
                pod: port_pod("p", 8080, None, None),
                node: n(vec![port_pod("q", 8080, None, Some("10.0.0.1"))]),
                want: conflict(),
            },
            FilterCase {
                name: "specific IP vs wildcard",
                pod: port_pod("p", 8080, None, Some("10.0.0.2")),
                node: n(vec![port_pod("q", 8080, None, None)]),
                want: conflict(),
            },
            FilterCase {
                name: "different specific IPs",
                pod: port_pod("p", 8080, None, Some("10.0.0.2")),
                node: n(vec![port_pod("q", 8080, None, Some("10.0.0.1"))]),
                want: ok(),
            },
            FilterCase {
                name: "containerPort only is not a host port",
                pod: pod("p", None, None),
                node: n(vec![port_pod("q", 8080, None, None)]),
                want: ok(),
            },
        ]);
    }

    #[test]
    fn node_resources_fit_table() {
        let full = |cpu: &str, mem: &str| ni(node("n1", "2", "4Gi", 110), vec![pod("q", Some(cpu), Some(mem))]);
        let init_pod = json!({
            "metadata": {"name": "p", "namespace": "default"},
            "spec": {
                "initContainers": [{"name": "i", "image": "busybox", "resources": {"requests": {"cpu": "1500m"}}}],
                "containers": [{"name": "c", "image": "nginx", "resources": {"requests": {"cpu": "500m"}}}]
            }
        });
        let sidecar_pod = json!({
            "metadata": {"name": "p", "namespace": "default"},
            "spec": {
                "initContainers": [
                    {"name": "s", "image": "envoy", "restartPolicy": "Always", "resources": {"requests": {"cpu": "600m"}}},
                    {"name": "i", "image": "busybox", "resources": {"requests": {"cpu": "1"}}}
                ],
                "containers": [{"name": "c", "image": "nginx", "resources": {"requests": {"cpu": "500m"}}}]
            }
        });
        let gpu_pod =
            with(pod("p", None, None), "spec/containers/0/resources/requests", json!({"nvidia.com/gpu": "1"}));
        run_cases(vec![
            FilterCase { name: "fits", pod: pod("p", Some("500m"), Some("1Gi")), node: full("1", "1Gi"), want: ok() },
            FilterCase {
                name: "exactly fits",
                pod: pod("p", Some("1"), Some("3Gi")),
                node: full("1", "1Gi"),
                want: ok(),
            },
            FilterCase {
                name: "insufficient cpu",
                pod: pod("p", Some("1500m"), None),
                node: full("1", "1Gi"),
                want: fail(U, "NodeResourcesFit", &["Insufficient cpu"]),
            },
            FilterCase {
                name: "insufficient memory",
                pod: pod("p", None, Some("4Gi")),
                node: full("1", "1Gi"),
                want: fail(U, "NodeResourcesFit", &["Insufficient memory"]),
            },
            FilterCase {
                name: "both insufficient",
                pod: pod("p", Some("1500m"), Some("3500Mi")),
                node: full("1", "1Gi"),
                want: fail(U, "NodeResourcesFit", &["Insufficient cpu", "Insufficient memory"]),
            },
            FilterCase {
                name: "larger than the node is unresolvable",
                pod: pod("p", Some("3"), None),
                node: full("1", "1Gi"),
                want: fail(UU, "NodeResourcesFit", &["Insufficient cpu"]),
            },
            FilterCase {
                name: "no requests fits a full node",
                pod: pod("p", None, None),
                node: full("2", "4Gi"),
                want: ok(),
            },
            FilterCase {
                name: "too many pods",
                pod: pod("p", None, None),
                node: ni(node("n1", "2", "4Gi", 1), vec![pod("q", None, None)]),
                want: fail(U, "NodeResourcesFit", &["Too many pods"]),
            },
            FilterCase {
                name: "too many pods and insufficient cpu",
                pod: pod("p", Some("1500m"), None),
                node: ni(node("n1", "2", "4Gi", 1), vec![pod("q", Some("1"), None)]),
                want: fail(U, "NodeResourcesFit", &["Too many pods", "Insufficient cpu"]),
            },
            FilterCase {
                name: "init container max: 1500m fits 2 cores minus 500m",
                pod: init_pod.clone(),
                node: full("500m", "0"),
                want: ok(),
            },
            FilterCase {
                name: "init container max: 1500m does not fit 1 free core",
                pod: init_pod,
                node: full("1", "0"),
                want: fail(U, "NodeResourcesFit", &["Insufficient cpu"]),
            },
            FilterCase {
                name: "sidecar adds to the total: 1.6 cores needed",
                pod: sidecar_pod.clone(),
                node: full("400m", "0"),
                want: ok(),
            },
            FilterCase {
                name: "sidecar adds to the total: 1.6 > 1.5 free",
                pod: sidecar_pod,
                node: full("500m", "0"),
                want: fail(U, "NodeResourcesFit", &["Insufficient cpu"]),
            },
            FilterCase {
                name: "extended resource absent",
                pod: gpu_pod.clone(),
                node: full("0", "0"),
                want: fail(UU, "NodeResourcesFit", &["Insufficient nvidia.com/gpu"]),
            },
            FilterCase {
                name: "ephemeral storage",
                pod: with(
                    pod("p", None, None),
                    "spec/containers/0/resources/requests",
                    json!({"ephemeral-storage": "200Gi"}),
                ),
                node: full("0", "0"),
                want: fail(UU, "NodeResourcesFit", &["Insufficient ephemeral-storage"]),
            },
        ]);
        // A GPU node, via a properly built allocatable map.
        let mut gpu_node = node("g", "2", "4Gi", 110);
        gpu_node["status"]["allocatable"]["nvidia.com/gpu"] = json!("2");
        let gpu = with(pod("p", None, None), "spec/containers/0/resources/requests", json!({"nvidia.com/gpu": "1"}));
        assert_eq!(filter(&gpu, &ni(gpu_node.clone(), vec![])), ok(), "gpu fits");
        assert_eq!(
            filter(&gpu, &ni(gpu_node, vec![gpu.clone(), gpu.clone()])),
            fail(U, "NodeResourcesFit", &["Insufficient nvidia.com/gpu"]),
            "gpus used up"
        );
    }

    #[test]
    fn filter_order_table() {
        // A node failing several plugins reports only the first in profile order.
        let bad = with(
            with(node("n1", "1", "1Gi", 110), "spec/unschedulable", json!(true)),
            "spec/taints",
            json!([{"key": "x", "effect": "NoSchedule"}]),
        );
        struct C {
            name: &'static str,
            pod: Value,
            node: NodeInfo,
            ran: Vec<&'static str>,
        }
        let cases = [
            C {
                name: "unschedulable first",
                pod: pod("p", Some("4"), None),
                node: ni(bad.clone(), vec![]),
                ran: vec!["NodeUnschedulable"],
            },
            C {
                name: "taint before resources",
                pod: with(
                    pod("p", Some("4"), None),
                    "spec/tolerations",
                    json!([{"key": "node.kubernetes.io/unschedulable", "operator": "Exists"}]),
                ),
                node: ni(bad, vec![]),
                ran: vec!["NodeUnschedulable", "NodeName", "TaintToleration"],
            },
            C {
                name: "all pass",
                pod: pod("p", None, None),
                node: ni(node("n1", "1", "1Gi", 110), vec![]),
                ran: FILTER_PLUGINS.to_vec(),
            },
        ];
        for c in &cases {
            let got: Vec<String> = run_filter_plugins(&c.pod, &c.node).into_iter().map(|(p, _)| p).collect();
            assert_eq!(got, c.ran, "{}", c.name);
        }
    }

    #[test]
    fn pod_requests_table() {
        struct C {
            name: &'static str,
            pod: Value,
            non_zero: (i64, i64),
            requested_cpu: i64,
        }
        let two = json!({"metadata": {"name": "p"}, "spec": {"containers": [
            {"name": "a", "resources": {"requests": {"cpu": "200m"}}},
            {"name": "b", "resources": {}}
        ]}});
        let explicit_zero = json!({"metadata": {"name": "p"}, "spec": {"containers": [
            {"name": "a", "resources": {"requests": {"cpu": "0", "memory": "0"}}}
        ]}});
        let overhead = with(pod("p", Some("250m"), None), "spec/overhead", json!({"cpu": "50m"}));
        let pod_level = with(pod("p", Some("100m"), Some("64Mi")), "spec/resources", json!({"requests": {"cpu": "1"}}));
        let resized = with(
            pod("p", Some("100m"), None),
            "status/containerStatuses",
            json!([{"name": "c", "resources": {"requests": {"cpu": "300m"}}}]),
        );
        let cases = [
            C {
                name: "missing requests get defaults",
                pod: pod("p", None, None),
                non_zero: (100, DEFAULT_MEMORY_REQUEST),
                requested_cpu: 0,
            },
            C {
                name: "per container defaults",
                pod: two,
                non_zero: (300, 2 * DEFAULT_MEMORY_REQUEST),
                requested_cpu: 200,
            },
            C { name: "explicit zero stays zero", pod: explicit_zero, non_zero: (0, 0), requested_cpu: 0 },
            C { name: "overhead is added", pod: overhead, non_zero: (300, DEFAULT_MEMORY_REQUEST), requested_cpu: 300 },
            C {
                name: "pod-level requests override",
                pod: pod_level,
                non_zero: (1000, 64 * 1024 * 1024),
                requested_cpu: 1000,
            },
            C {
                name: "status resources raise requests",
                pod: resized,
                non_zero: (300, DEFAULT_MEMORY_REQUEST),
                requested_cpu: 300,
            },
        ];
        for c in &cases {
            assert_eq!(non_zero_pod_requests(&c.pod), c.non_zero, "{}: non-zero", c.name);
            let n = ni(node("n", "4", "8Gi", 110), vec![c.pod.clone()]);
            assert_eq!(n.requested().milli_cpu, c.requested_cpu, "{}: requested", c.name);
        }
    }

    /// The worked example for the score formulas (numbers computed by hand in the comments).
    fn score_fixture() -> (Value, Vec<NodeInfo>) {
        // A: 4 cores / 8Gi, one pod requesting 1 core / 2Gi, PreferNoSchedule taint, zone=z1,
        //    has nginx:1.25 (500Mi).
        let mut a = node("a", "4", "8Gi", 110);
        a["metadata"]["labels"]["zone"] = json!("z1");
        a["spec"]["taints"] = json!([{"key": "a", "value": "b", "effect": "PreferNoSchedule"}]);
        a["status"]["images"] =
            json!([{"names": ["docker.io/library/nginx@sha256:abc", "nginx:1.25"], "sizeBytes": 524288000}]);
        // B: 2 cores / 2Gi, one best-effort pod, disk=ssd, no image.
        let mut b = node("b", "2", "2Gi", 110);
        b["metadata"]["labels"]["disk"] = json!("ssd");
        // C: not feasible in the scoring call, but has the image (spread 2/3).
        let mut c = node("c", "1", "1Gi", 110);
        c["status"]["images"] = json!([{"names": ["nginx:1.25"], "sizeBytes": 524288000}]);
        let nodes =
            vec![ni(a, vec![pod("qa", Some("1"), Some("2Gi"))]), ni(b, vec![pod("qb", None, None)]), ni(c, vec![])];
        let p = with(
            pod("p", Some("500m"), Some("1Gi")),
            "spec/affinity",
            json!({"nodeAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [
                {"weight": 10, "preference": {"matchExpressions": [{"key": "zone", "operator": "In", "values": ["z1"]}]}},
                {"weight": 5, "preference": {"matchExpressions": [{"key": "disk", "operator": "Exists"}]}}
            ]}}),
        );
        (p, nodes)
    }

    #[test]
    fn score_formula_table() {
        let (p, nodes) = score_fixture();
        let feasible: Vec<&NodeInfo> = nodes[..2].iter().collect();
        let scores = score_nodes(&p, &feasible, &nodes);
        struct C {
            name: &'static str,
            node: usize,
            plugin: &'static str,
            want: (i64, i64, i64),
        }
        let cases = [
            // one untolerated PreferNoSchedule taint on A: raw 1 -> 100 -> reversed 0, x3
            C { name: "taint A", node: 0, plugin: "TaintToleration", want: (1, 0, 0) },
            C { name: "taint B", node: 1, plugin: "TaintToleration", want: (0, 100, 300) },
            // preferred weights: A matches zone (10), B matches disk (5); max 10
            C { name: "affinity A", node: 0, plugin: "NodeAffinity", want: (10, 100, 200) },
            C { name: "affinity B", node: 1, plugin: "NodeAffinity", want: (5, 50, 100) },
            // A: cpu (4000-1500)*100/4000 = 62, mem (8Gi-3Gi)*100/8Gi = 62 -> 62
            C { name: "least allocated A", node: 0, plugin: "NodeResourcesFit", want: (62, 62, 62) },
            // B: cpu (2000-(100+500))*100/2000 = 70; mem (2Gi-(200Mi+1Gi))*100/2Gi = 40 -> 55
            C { name: "least allocated B", node: 1, plugin: "NodeResourcesFit", want: (55, 55, 55) },
            // A: 1500/4000 = 0.375, 3Gi/8Gi = 0.375 -> std 0 -> 100
            C { name: "balanced A", node: 0, plugin: "NodeResourcesBalancedAllocation", want: (100, 100, 100) },
            // B (real requests): 500/2000 = 0.25, 1Gi/2Gi = 0.5 -> std 0.125 -> 87
            C { name: "balanced B", node: 1, plugin: "NodeResourcesBalancedAllocation", want: (87, 87, 87) },
            // A: 500Mi * 2/3 = 349525333; (349525333-23Mi)*100/(1000Mi-23Mi) = 31
            C { name: "image A", node: 0, plugin: "ImageLocality", want: (31, 31, 31) },
            C { name: "image B", node: 1, plugin: "ImageLocality", want: (0, 0, 0) },
        ];
        for c in &cases {
            let got = scores[c.node].per_plugin.iter().find(|p| p.plugin == c.plugin).map(|p| (p.raw, p.normalized, p.weighted));
            assert_eq!(got, Some(c.want), "{}", c.name);
        }
        assert_eq!(scores[0].total, 393, "total A");
        assert_eq!(scores[1].total, 542, "total B");
        assert_eq!(select_host(&scores, 0).as_deref(), Some("b"), "best node");
    }

    #[test]
    fn score_skip_table() {
        struct C {
            name: &'static str,
            pod: Value,
            plugins: Vec<&'static str>,
        }
        let cases = [
            C {
                name: "best-effort pod without preferences",
                pod: pod("p", None, None),
                plugins: vec!["TaintToleration", "NodeResourcesFit", "ImageLocality"],
            },
            C {
                name: "requests, no preferences",
                pod: pod("p", Some("100m"), None),
                plugins: vec![
                    "TaintToleration",
                    "NodeResourcesFit",
                    "NodeResourcesBalancedAllocation",
                    "ImageLocality",
                ],
            },
        ];
        let (_, nodes) = score_fixture();
        let feasible: Vec<&NodeInfo> = nodes.iter().collect();
        for c in &cases {
            let scores = score_nodes(&c.pod, &feasible, &nodes);
            let got: Vec<&str> = scores[0].per_plugin.iter().map(|p| p.plugin).collect();
            assert_eq!(got, c.plugins, "{}", c.name);
        }
    }

    #[test]
    fn normalize_and_helpers_table() {
        struct C {
            name: &'static str,
            input: Vec<i64>,
            reverse: bool,
            want: Vec<i64>,
        }
        let cases = [
            C { name: "scale to max", input: vec![2, 4, 0], reverse: false, want: vec![50, 100, 0] },
            C { name: "reverse", input: vec![2, 4, 0], reverse: true, want: vec![50, 0, 100] },
            C { name: "all zero", input: vec![0, 0], reverse: false, want: vec![0, 0] },
            C { name: "all zero reversed", input: vec![0, 0], reverse: true, want: vec![100, 100] },
            C { name: "integer division", input: vec![1, 3], reverse: false, want: vec![33, 100] },
        ];
        for c in &cases {
            let mut v = c.input.clone();
            default_normalize_score(100, c.reverse, &mut v);
            assert_eq!(v, c.want, "{}", c.name);
        }
        let images = [
            ("nginx", "nginx:latest"),
            ("nginx:1.25", "nginx:1.25"),
            ("localhost:5000/app", "localhost:5000/app:latest"),
            ("localhost:5000/app:v1", "localhost:5000/app:v1"),
        ];
        for (i, w) in images {
            assert_eq!(normalized_image_name(i), w, "normalized image {i}");
        }
        struct L {
            name: &'static str,
            req: i64,
            cap: i64,
            want: i64,
        }
        for l in [
            L { name: "half used", req: 50, cap: 100, want: 50 },
            L { name: "over capacity", req: 150, cap: 100, want: 0 },
            L { name: "no capacity", req: 0, cap: 0, want: 0 },
            L { name: "rounds down", req: 1, cap: 3, want: 66 },
        ] {
            assert_eq!(least_requested_score(l.req, l.cap), l.want, "{}", l.name);
        }
    }

    #[test]
    fn image_locality_table() {
        // One node with a 250Mi image, total 1 node: spread 1.
        struct C {
            name: &'static str,
            size: i64,
            containers: usize,
            want: i64,
        }
        let cases = [
            C { name: "below 23Mi scores 0", size: 10 * MB, containers: 1, want: 0 },
            // (250Mi-23Mi)*100/(1000Mi-23Mi) = 227/977*100 = 23
            C { name: "250Mi one container", size: 250 * MB, containers: 1, want: 23 },
            C { name: "above 1000Mi is capped", size: 2000 * MB, containers: 1, want: 100 },
            // two containers, only one image present: (250-23)/(2000-23) = 11
            C { name: "two containers", size: 250 * MB, containers: 2, want: 11 },
        ];
        for c in &cases {
            let mut n = node("n", "1", "1Gi", 110);
            n["status"]["images"] = json!([{"names": ["app:v1"], "sizeBytes": c.size}]);
            let nodes = vec![ni(n, vec![])];
            let mut containers = vec![json!({"name": "a", "image": "app:v1"})];
            if c.containers == 2 {
                containers.push(json!({"name": "b", "image": "other:v1"}));
            }
            let p = json!({"metadata": {"name": "p"}, "spec": {"containers": containers}});
            assert_eq!(score_image_locality(&p, &nodes[0], &nodes), c.want, "{}", c.name);
        }
    }

    fn kind_cluster() -> Vec<NodeInfo> {
        let mut cp = node("kind-control-plane", "8", "16Gi", 110);
        cp["spec"]["taints"] = json!([{"key": "node-role.kubernetes.io/control-plane", "effect": "NoSchedule"}]);
        vec![
            ni(cp, vec![]),
            ni(node("kind-worker", "8", "16Gi", 110), vec![pod("w1", Some("7500m"), None)]),
            ni(node("kind-worker2", "8", "16Gi", 110), vec![pod("w2", Some("7500m"), None)]),
        ]
    }

    #[test]
    fn fit_error_message_table() {
        let st = |code, plugin: &str, r: &[&str]| Status::new(code, plugin, r);
        let taint = "node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }";
        struct C {
            name: &'static str,
            n: usize,
            statuses: Vec<(String, Status)>,
            post: Option<&'static str>,
            want: &'static str,
        }
        let cases = [
            C {
                name: "kind cluster, sorted histogram",
                n: 3,
                statuses: vec![
                    ("w1".into(), st(U, "NodeResourcesFit", &["Insufficient cpu"])),
                    ("cp".into(), st(UU, "TaintToleration", &[taint])),
                    ("w2".into(), st(U, "NodeResourcesFit", &["Insufficient cpu"])),
                ],
                post: Some("preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod."),
                want: "0/3 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 2 Insufficient cpu. preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.",
            },
            C {
                name: "several reasons on one node count separately",
                n: 2,
                statuses: vec![
                    ("a".into(), st(U, "NodeResourcesFit", &["Insufficient cpu", "Insufficient memory"])),
                    ("b".into(), st(U, "NodeResourcesFit", &["Insufficient memory"])),
                ],
                post: None,
                want: "0/2 nodes are available: 1 Insufficient cpu, 2 Insufficient memory.",
            },
            C {
                name: "whole-string sort puts 10 before 2",
                n: 12,
                statuses: (0..12)
                    .map(|i| if i < 10 { (format!("n{i}"), st(U, "NodeResourcesFit", &["Insufficient cpu"])) } else { (format!("n{i}"), st(UU, "NodeAffinity", &["node(s) didn't match Pod's node affinity/selector"])) })
                    .collect(),
                post: None,
                want: "0/12 nodes are available: 10 Insufficient cpu, 2 node(s) didn't match Pod's node affinity/selector.",
            },
            C { name: "no statuses", n: 0, statuses: vec![], post: None, want: "0/0 nodes are available:" },
        ];
        for c in &cases {
            assert_eq!(fit_error_message(c.n, &c.statuses, c.post), c.want, "{}", c.name);
        }
        // absent nodes (PreFilterResult) and PreFilter rejections
        let d = Diagnosis {
            node_statuses: vec![("n1".into(), st(U, "NodeResourcesFit", &["Too many pods"]))],
            absent_status: Some(st(UU, "", &["node(s) didn't satisfy plugin(s) [NodeAffinity]"])),
            ..Diagnosis::default()
        };
        assert_eq!(
            fit_error_message_from_diagnosis(46, &d, None),
            "0/46 nodes are available: 1 Too many pods, 45 node(s) didn't satisfy plugin(s) [NodeAffinity].",
            "absent nodes"
        );
        let d = Diagnosis { pre_filter_msg: Some("pod affinity terms conflict".into()), ..Diagnosis::default() };
        assert_eq!(
            fit_error_message_from_diagnosis(3, &d, Some("preemption: x.")),
            "0/3 nodes are available: pod affinity terms conflict. preemption: x.",
            "prefilter message"
        );
    }

    #[test]
    fn num_feasible_nodes_to_find_table() {
        struct C {
            name: &'static str,
            pct: i32,
            n: i32,
            want: i32,
        }
        let cases = [
            C { name: "50 nodes: all", pct: 0, n: 50, want: 50 },
            C { name: "100 nodes: 50% but floor 100", pct: 0, n: 100, want: 100 },
            C { name: "1000 nodes: 42%", pct: 0, n: 1000, want: 420 },
            C { name: "5000 nodes: 10%", pct: 0, n: 5000, want: 500 },
            C { name: "10000 nodes: floor 5%", pct: 0, n: 10000, want: 500 },
            C { name: "explicit 100%", pct: 100, n: 1000, want: 1000 },
            C { name: "explicit 1% floors at 100", pct: 1, n: 1000, want: 100 },
        ];
        for c in &cases {
            assert_eq!(num_feasible_nodes_to_find(c.pct, c.n), c.want, "{}", c.name);
        }
    }

    #[test]
    fn preemption_table() {
        struct C {
            name: &'static str,
            pod: Value,
            nodes: Vec<NodeInfo>,
            want: PreemptionOutcome,
        }
        let big = pod("p", Some("1"), None);
        let mut low = pod("low", Some("7500m"), None);
        low["spec"]["priority"] = json!(-10);
        let mut low2 = pod("low2", Some("500m"), None);
        low2["spec"]["priority"] = json!(-10);
        let mut never = big.clone();
        never["spec"]["preemptionPolicy"] = json!("Never");
        let mut huge = pod("p", Some("9"), None);
        huge["spec"]["priority"] = json!(100);
        let mut one_node = kind_cluster();
        one_node[1].pods = vec![Rc::new(low.clone()), Rc::new(low2.clone())];
        let mut still_full = kind_cluster();
        still_full[1].pods = vec![Rc::new(pod("w1", Some("7600m"), None)), Rc::new(low2)];
        let cases = [
            C {
                name: "kind cluster, equal priorities",
                pod: big.clone(),
                nodes: kind_cluster(),
                want: PreemptionOutcome::Unschedulable(
                    "preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.".into(),
                ),
            },
            C {
                name: "preemptionPolicy Never",
                pod: never,
                nodes: kind_cluster(),
                want: PreemptionOutcome::Unschedulable("preemption: not eligible due to preemptionPolicy=Never.".into()),
            },
            C {
                name: "pod larger than any node",
                pod: huge,
                nodes: kind_cluster(),
                want: PreemptionOutcome::Unschedulable("preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.".into()),
            },
            C {
                name: "low-priority victim makes room; the small one is reprieved",
                pod: big.clone(),
                nodes: one_node,
                want: PreemptionOutcome::Nominated(PreemptionCandidate {
                    node: "kind-worker".into(),
                    victims: vec![("default".into(), "low".into())],
                }),
            },
            C {
                name: "evicting the only low-priority pod is not enough",
                pod: big,
                nodes: still_full,
                want: PreemptionOutcome::Unschedulable(
                    "preemption: 0/3 nodes are available: 1 Insufficient cpu, 1 No preemption victims found for incoming pod, 1 Preemption is not helpful for scheduling.".into(),
                ),
            },
        ];
        for c in &cases {
            let found = find_nodes_that_fit(&c.pod, &c.nodes, 0, 0);
            assert!(found.feasible.is_empty(), "{}: expected no feasible node", c.name);
            assert_eq!(default_preemption(&c.pod, &c.nodes, &found.diagnosis), c.want, "{}", c.name);
        }
        // the brief's helper
        let nodes = kind_cluster();
        let found = find_nodes_that_fit(&pod("p", Some("1"), None), &nodes, 0, 0);
        assert_eq!(
            preemption_message(&pod("p", Some("1"), None), &nodes, &found.diagnosis.node_statuses).as_deref(),
            Some("preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod."),
            "preemption_message"
        );
    }

    #[test]
    fn schedule_pod_table() {
        struct C {
            name: &'static str,
            pod: Value,
            nodes: Vec<NodeInfo>,
            start: usize,
            want: ScheduleOutcome,
            next: usize,
        }
        let ds_pod = with(
            pod("ds", None, None),
            "spec/affinity",
            json!({"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
                {"matchFields": [{"key": "metadata.name", "operator": "In", "values": ["kind-worker"]}]}
            ]}}}),
        );
        let mut full_ds_cluster = kind_cluster();
        full_ds_cluster[1].node["status"]["allocatable"]["pods"] = json!("1");
        let conflict_pod = with(
            pod("c", None, None),
            "spec/affinity",
            json!({"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
                {"matchFields": [
                    {"key": "metadata.name", "operator": "In", "values": ["a"]},
                    {"key": "metadata.name", "operator": "In", "values": ["b"]}
                ]}
            ]}}}),
        );
        let plugins = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<BTreeSet<String>>();
        let cases = [
            C {
                name: "kind cluster full: FailedScheduling message",
                pod: pod("p", Some("1"), None),
                nodes: kind_cluster(),
                start: 0,
                want: ScheduleOutcome::Unschedulable {
                    message: "0/3 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 2 Insufficient cpu. no new claims to deallocate, preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.".into(),
                    unschedulable_plugins: plugins(&["NodeResourcesFit", "TaintToleration"]),
                    preemption: None,
                },
                next: 0,
            },
            C {
                name: "single feasible node is not scored",
                pod: pod("p", Some("100m"), None),
                nodes: kind_cluster()[..2].to_vec(),
                start: 0,
                want: ScheduleOutcome::Scheduled { node: "kind-worker".into(), evaluated_nodes: 2, feasible_nodes: 1, scores: vec![] },
                next: 0,
            },
            C {
                name: "DaemonSet-style pin on a full node",
                pod: ds_pod,
                nodes: full_ds_cluster,
                start: 0,
                want: ScheduleOutcome::Unschedulable {
                    message: "0/3 nodes are available: 1 Too many pods, 2 node(s) didn't satisfy plugin(s) [NodeAffinity]. no new claims to deallocate, preemption: 0/3 nodes are available: 1 No preemption victims found for incoming pod, 2 Preemption is not helpful for scheduling.".into(),
                    unschedulable_plugins: plugins(&["NodeAffinity", "NodeResourcesFit"]),
                    preemption: None,
                },
                next: 1,
            },
            C {
                name: "PreFilter conflict",
                pod: conflict_pod,
                nodes: kind_cluster(),
                start: 2,
                want: ScheduleOutcome::Unschedulable {
                    message: "0/3 nodes are available: pod affinity terms conflict. no new claims to deallocate, preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.".into(),
                    unschedulable_plugins: plugins(&["NodeAffinity"]),
                    preemption: None,
                },
                next: 2,
            },
            C { name: "no nodes", pod: pod("p", None, None), nodes: vec![], start: 0, want: ScheduleOutcome::NoNodes, next: 0 },
        ];
        for c in &cases {
            let (got, next) = schedule_pod(&c.pod, &c.nodes, c.start, 0, 0);
            assert_eq!(got, c.want, "{}", c.name);
            assert_eq!(next, c.next, "{}: next start index", c.name);
        }
        // Two feasible workers: scored, and the tie breaker picks among equal totals.
        let mut nodes = kind_cluster();
        nodes[1].pods.clear();
        nodes[2].pods.clear();
        for (tb, want) in [(0u64, "kind-worker"), (1, "kind-worker2")] {
            match schedule_pod(&pod("p", Some("1"), None), &nodes, 0, 0, tb).0 {
                ScheduleOutcome::Scheduled { node, feasible_nodes, evaluated_nodes, scores } => {
                    assert_eq!(node, want, "tie breaker {tb}");
                    assert_eq!((feasible_nodes, evaluated_nodes, scores.len()), (2, 3, 2), "tie breaker {tb}: counts");
                }
                other => panic!("tie breaker {tb}: {other:?}"),
            }
        }
        // A nominated pod goes straight to its nominated node when it fits.
        let mut nominated = pod("p", Some("1"), None);
        nominated["status"] = json!({"nominatedNodeName": "kind-worker2"});
        match schedule_pod(&nominated, &nodes, 0, 0, 0).0 {
            ScheduleOutcome::Scheduled { node, .. } => assert_eq!(node, "kind-worker2", "nominated node"),
            other => panic!("nominated node: {other:?}"),
        }
    }

    #[test]
    fn never_panics_on_garbage() {
        let garbage = [
            json!(null),
            json!(1),
            json!("x"),
            json!({"spec": 5, "metadata": []}),
            json!({"spec": {"containers": [1, {"resources": {"requests": {"cpu": "bogus"}}}]}}),
            // extreme numbers everywhere: priorities, weights, quantities, image sizes
            json!({
                "metadata": {"name": "x", "labels": {"a": "b"}},
                "spec": {
                    "priority": i64::MAX,
                    "containers": [{"name": "c", "image": "i", "resources": {"requests": {"cpu": "99999999999999E", "memory": "9Ei", "x.io/y": "1e300"}}}],
                    "affinity": {"nodeAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [
                        {"weight": i64::MAX, "preference": {}}, {"weight": i64::MAX, "preference": {}}
                    ]}},
                    "taints": [{"key": "k", "effect": "PreferNoSchedule"}]
                },
                "status": {
                    "allocatable": {"cpu": "9223372036854775807", "memory": "1e300", "pods": "9e18", "x.io/y": "-5"},
                    "images": [{"names": ["i:latest"], "sizeBytes": i64::MAX}]
                }
            }),
        ];
        for g in &garbage {
            let n = NodeInfo::new(g.clone(), vec![g.clone(), g.clone()]);
            let _ = run_filter_plugins(g, &n);
            let _ = score_nodes(g, &[&n, &n], &[n.clone(), n.clone()]);
            let _ = schedule_pod(g, &[n.clone(), n.clone()], usize::MAX, 0, u64::MAX);
            let _ = default_preemption(g, std::slice::from_ref(&n), &Diagnosis::default());
        }
        let big = parse_quantity(&json!("1e300")).unwrap();
        let _ = (big.add(&big).canonical(), big.sub(&big).add(&big).milli_value());
    }

    #[test]
    fn filter_trail_matches_run_filter_plugins() {
        let busy = with(node("busy", "1", "1Gi", 110), "spec/unschedulable", json!(false));
        let tainted = with(node("tainted", "4", "8Gi", 110), "spec/taints", json!([{"key": "k", "value": "v", "effect": "NoSchedule"}]));
        let cordoned = with(node("cordoned", "4", "8Gi", 110), "spec/unschedulable", json!(true));
        let nodes = [NodeInfo::new(busy, vec![]), NodeInfo::new(tainted, vec![]), NodeInfo::new(cordoned, vec![]), NodeInfo::new(node("ok", "4", "8Gi", 110), vec![])];
        let pods = [pod("small", Some("100m"), None), pod("big", Some("2"), None)];
        for p in &pods {
            for ni in &nodes {
                let ran: Vec<(&str, Option<String>)> = run_filter_plugins(p, ni)
                    .into_iter()
                    .map(|(name, st)| (FILTER_PLUGINS.iter().copied().find(|f| *f == name).unwrap(), (!st.is_success()).then(|| st.message())))
                    .collect();
                assert_eq!(filter_trail(&filter(p, ni)), ran, "{} on {}", meta_name(p), ni.name());
            }
        }
    }

    fn meta_name(v: &Value) -> &str {
        s(v.pointer("/metadata/name"))
    }
}
