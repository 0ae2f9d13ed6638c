//! The scheduler's typed view of Pods and Nodes: `PodInfo`, `NodeInfo`, `Resource`, label
//! selectors, affinity terms, tolerations and taints, decoded once from the API objects.
//!
//! Real counterpart: `pkg/scheduler/framework/types.go` (`PodInfo`, `NewPodInfo`,
//! `AffinityTerm`, `WeightedAffinityTerm`, `NodeInfo` with `Requested`, `NonZeroRequested`,
//! `UsedPorts`, `PodsWithAffinity`, `PodsWithRequiredAntiAffinity`, `ImageStates`, `Generation`,
//! `AddPodInfo`/`RemovePod`), `k8s.io/component-helpers/resource` (`PodRequests`),
//! `k8s.io/apimachinery/pkg/labels` (`Selector`) and `component-helpers/scheduling/corev1`
//! (`ToleratesTaint`, `nodeaffinity.RequiredNodeAffinity`).
//!
//! A `PodInfo` is computed once per Pod revision (when the informer delivers it) and shared by
//! `Rc` between the scheduler cache, every `NodeInfo` holding it and the scheduling cycle; no
//! filter or score reads the Pod's JSON. What kubesim simplifies: image states keep only sizes
//! (the number of nodes holding an image is counted by the snapshot), and `matchLabelKeys` of
//! pod affinity terms is not merged into the selector (the API server does that upstream).

use crate::api::quantity::{parse_quantity, Format, Quantity};
use serde_json::Value;
use std::collections::BTreeMap;
use std::rc::Rc;

/// `schedutil.DefaultMilliCPURequest`: what a container without a CPU request counts as when scoring.
pub const DEFAULT_MILLI_CPU_REQUEST: i64 = 100;
/// `schedutil.DefaultMemoryRequest`: 200Mi, the scoring stand-in for a missing memory request.
pub const DEFAULT_MEMORY_REQUEST: i64 = 200 * 1024 * 1024;

/// Labels as the scheduler reads them (`labels.Set`).
pub type Labels = BTreeMap<String, String>;

static NO_LABELS: Labels = BTreeMap::new();

// ---------------------------------------------------------------------------------------------
// Small JSON helpers (never panic on missing or mistyped fields); used only while decoding.
// ---------------------------------------------------------------------------------------------

pub(crate) fn arr(v: Option<&Value>) -> &[Value] {
    v.and_then(Value::as_array).map(Vec::as_slice).unwrap_or(&[])
}

/// `at(v, &["a", "b"])` without the pointer's escaping work: a chain of object look-ups.
pub(crate) fn at<'a>(v: &'a Value, path: &[&str]) -> Option<&'a Value> {
    let mut cur = v;
    for k in path {
        cur = cur.get(k)?;
    }
    Some(cur)
}

pub(crate) fn s(v: Option<&Value>) -> &str {
    v.and_then(Value::as_str).unwrap_or("")
}

fn labels_of(v: Option<&Value>) -> Labels {
    v.and_then(Value::as_object)
        .map(|m| m.iter().filter_map(|(k, v)| v.as_str().map(|v| (k.clone(), v.to_string()))).collect())
        .unwrap_or_default()
}

// ---------------------------------------------------------------------------------------------
// Label selectors (apimachinery labels.Selector)
// ---------------------------------------------------------------------------------------------

/// A selector operator (`selection.Operator`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    In,
    NotIn,
    Exists,
    DoesNotExist,
    Gt,
    Lt,
}

/// One requirement of a selector (`labels.Requirement`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Requirement {
    pub key: String,
    pub op: Op,
    pub values: Vec<String>,
}

impl Requirement {
    /// `Requirement.Matches`.
    pub fn matches(&self, labels: &Labels) -> bool {
        let has = labels.get(&self.key);
        match self.op {
            Op::In => has.map(|v| self.values.iter().any(|x| x == v)).unwrap_or(false),
            Op::NotIn => has.map(|v| !self.values.iter().any(|x| x == v)).unwrap_or(true),
            Op::Exists => has.is_some(),
            Op::DoesNotExist => has.is_none(),
            Op::Gt | Op::Lt => {
                let Some(got) = has.and_then(|v| v.parse::<i64>().ok()) else { return false };
                let Some(want) = self.values.first().and_then(|v| v.parse::<i64>().ok()) else { return false };
                if self.op == Op::Gt {
                    got > want
                } else {
                    got < want
                }
            }
        }
    }
}

/// `labels.Selector`: `Nothing` selects no object, otherwise every requirement must match (an
/// empty list is `Everything`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Selector {
    Nothing,
    Requirements(Vec<Requirement>),
}

impl Default for Selector {
    fn default() -> Self {
        Selector::Nothing
    }
}

impl Selector {
    pub fn everything() -> Selector {
        Selector::Requirements(Vec::new())
    }

    /// `metav1.LabelSelectorAsSelector`: a missing (null) selector selects nothing, `{}` selects
    /// everything; an invalid requirement makes the whole selector select nothing (the API server
    /// refuses such selectors before a Pod reaches the scheduler).
    pub fn from_label_selector(v: Option<&Value>) -> Selector {
        let sel = match v {
            Some(s) if s.is_object() => s,
            _ => return Selector::Nothing,
        };
        let mut reqs = Vec::new();
        if let Some(ml) = sel.get("matchLabels").and_then(Value::as_object) {
            for (k, v) in ml {
                let Some(v) = v.as_str() else { return Selector::Nothing };
                reqs.push(Requirement { key: k.clone(), op: Op::In, values: vec![v.to_string()] });
            }
        }
        for e in arr(sel.get("matchExpressions")) {
            let values: Vec<String> = arr(e.get("values")).iter().filter_map(Value::as_str).map(String::from).collect();
            let op = match s(e.get("operator")) {
                "In" if !values.is_empty() => Op::In,
                "NotIn" if !values.is_empty() => Op::NotIn,
                "Exists" if values.is_empty() => Op::Exists,
                "DoesNotExist" if values.is_empty() => Op::DoesNotExist,
                _ => return Selector::Nothing,
            };
            reqs.push(Requirement { key: s(e.get("key")).to_string(), op, values });
        }
        reqs.sort_by(|a, b| a.key.cmp(&b.key));
        Selector::Requirements(reqs)
    }

    /// `labels.SelectorFromSet`: every label equal.
    pub fn from_set(set: &Labels) -> Selector {
        Selector::Requirements(set.iter().map(|(k, v)| Requirement { key: k.clone(), op: Op::In, values: vec![v.clone()] }).collect())
    }

    pub fn matches(&self, labels: &Labels) -> bool {
        match self {
            Selector::Nothing => false,
            Selector::Requirements(r) => r.iter().all(|r| r.matches(labels)),
        }
    }

    /// `Selector.Empty()`: selects everything (no requirement).
    pub fn is_empty(&self) -> bool {
        matches!(self, Selector::Requirements(r) if r.is_empty())
    }

    /// `Selector.Add`: more requirements (Nothing stays Nothing).
    pub fn add(&mut self, more: &[Requirement]) {
        if let Selector::Requirements(r) = self {
            r.extend(more.iter().cloned());
            r.sort_by(|a, b| a.key.cmp(&b.key));
        }
    }

    pub fn requirements(&self) -> &[Requirement] {
        match self {
            Selector::Nothing => &[],
            Selector::Requirements(r) => r,
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Taints and tolerations
// ---------------------------------------------------------------------------------------------

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    NoSchedule,
    PreferNoSchedule,
    NoExecute,
    /// An empty effect (tolerations only: any effect) or an unknown one.
    Any,
}

fn effect(v: &str) -> Effect {
    match v {
        "NoSchedule" => Effect::NoSchedule,
        "PreferNoSchedule" => Effect::PreferNoSchedule,
        "NoExecute" => Effect::NoExecute,
        _ => Effect::Any,
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Taint {
    pub key: String,
    pub value: String,
    pub effect: Effect,
}

impl Taint {
    pub fn from_json(t: &Value) -> Taint {
        Taint { key: s(t.get("key")).to_string(), value: s(t.get("value")).to_string(), effect: effect(s(t.get("effect"))) }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Toleration {
    pub key: String,
    /// `Exists`; otherwise `Equal` ("" or "Equal"); `None` for an unknown operator (tolerates nothing).
    pub exists: Option<bool>,
    pub value: String,
    pub effect: Effect,
}

impl Toleration {
    pub fn from_json(t: &Value) -> Toleration {
        let exists = match s(t.get("operator")) {
            "" | "Equal" => Some(false),
            "Exists" => Some(true),
            _ => None,
        };
        Toleration { key: s(t.get("key")).to_string(), exists, value: s(t.get("value")).to_string(), effect: effect(s(t.get("effect"))) }
    }

    /// `Toleration.ToleratesTaint`: effect must match unless the toleration's is empty, key must
    /// match unless the toleration's is empty, then `Exists` matches any value and `Equal`/""
    /// needs equality.
    pub fn tolerates(&self, taint: &Taint) -> bool {
        if self.effect != Effect::Any && self.effect != taint.effect {
            return false;
        }
        if !self.key.is_empty() && self.key != taint.key {
            return false;
        }
        match self.exists {
            Some(true) => true,
            Some(false) => self.value == taint.value,
            None => false,
        }
    }
}

/// `TolerationsTolerateTaint`.
pub fn tolerations_tolerate_taint(tolerations: &[Toleration], taint: &Taint) -> bool {
    tolerations.iter().any(|t| t.tolerates(taint))
}

/// `v1helper.FindMatchingUntoleratedTaint` with `DoNotScheduleTaintsFilterFunc`: the first
/// NoSchedule/NoExecute taint no toleration tolerates.
pub fn find_untolerated_do_not_schedule_taint<'a>(taints: &'a [Taint], tolerations: &[Toleration]) -> Option<&'a Taint> {
    taints.iter().find(|t| matches!(t.effect, Effect::NoSchedule | Effect::NoExecute) && !tolerations_tolerate_taint(tolerations, t))
}

// ---------------------------------------------------------------------------------------------
// Node selectors (nodeaffinity.RequiredNodeAffinity)
// ---------------------------------------------------------------------------------------------

/// One `matchExpressions`/`matchFields` requirement; `None` when `labels.NewRequirement` would
/// refuse it (the term it is in then matches no node).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeSelectorTerm {
    pub expressions: Option<Vec<Requirement>>,
    /// `metadata.name` In/NotIn values (`None`: invalid); other field keys read as "".
    pub fields: Option<Vec<(String, bool, String)>>,
    pub empty: bool,
}

impl NodeSelectorTerm {
    pub fn from_json(term: &Value) -> NodeSelectorTerm {
        let exprs = arr(term.get("matchExpressions"));
        let fields = arr(term.get("matchFields"));
        let mut expressions = Some(Vec::new());
        for e in exprs {
            let values: Vec<String> = arr(e.get("values")).iter().filter_map(Value::as_str).map(String::from).collect();
            let op = match s(e.get("operator")) {
                "In" if !values.is_empty() => Some(Op::In),
                "NotIn" if !values.is_empty() => Some(Op::NotIn),
                "Exists" if values.is_empty() => Some(Op::Exists),
                "DoesNotExist" if values.is_empty() => Some(Op::DoesNotExist),
                "Gt" if values.len() == 1 && values[0].parse::<i64>().is_ok() => Some(Op::Gt),
                "Lt" if values.len() == 1 && values[0].parse::<i64>().is_ok() => Some(Op::Lt),
                _ => None,
            };
            match (op, expressions.as_mut()) {
                (Some(op), Some(v)) => v.push(Requirement { key: s(e.get("key")).to_string(), op, values }),
                _ => expressions = None,
            }
        }
        let mut fs = Some(Vec::new());
        for f in fields {
            let values = arr(f.get("values"));
            let op = match s(f.get("operator")) {
                "In" => Some(true),
                "NotIn" => Some(false),
                _ => None,
            };
            match (op, values.len(), fs.as_mut()) {
                (Some(op), 1, Some(v)) => v.push((s(f.get("key")).to_string(), op, s(values.first()).to_string())),
                _ => fs = None,
            }
        }
        NodeSelectorTerm { expressions, fields: fs, empty: exprs.is_empty() && fields.is_empty() }
    }

    /// `nodeSelectorTerm.match`: all expressions and all fields must match.
    pub fn matches(&self, labels: &Labels, node_name: &str) -> bool {
        let (Some(exprs), Some(fields)) = (&self.expressions, &self.fields) else { return false };
        exprs.iter().all(|r| r.matches(labels))
            && fields.iter().all(|(key, is_in, want)| {
                let got = if key == "metadata.name" { node_name } else { "" };
                (got == want) == *is_in
            })
    }
}

/// `nodeaffinity.RequiredNodeAffinity`: `spec.nodeSelector` AND the required terms (ORed; empty
/// terms select nothing).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RequiredNodeAffinity {
    pub node_selector: Vec<(String, String)>,
    pub terms: Option<Vec<NodeSelectorTerm>>,
}

impl RequiredNodeAffinity {
    pub fn from_pod(pod: &Value) -> RequiredNodeAffinity {
        let node_selector = at(pod, &["spec", "nodeSelector"])
            .and_then(Value::as_object)
            .map(|m| m.iter().map(|(k, v)| (k.clone(), v.as_str().unwrap_or("\u{0}").to_string())).collect())
            .unwrap_or_default();
        let terms = at(pod, &["spec", "affinity", "nodeAffinity", "requiredDuringSchedulingIgnoredDuringExecution"])
            .filter(|v| !v.is_null())
            .map(|req| arr(req.get("nodeSelectorTerms")).iter().map(NodeSelectorTerm::from_json).collect());
        RequiredNodeAffinity { node_selector, terms }
    }

    /// `RequiredNodeAffinity.Match`.
    pub fn matches(&self, labels: &Labels, node_name: &str) -> bool {
        if !self.node_selector.iter().all(|(k, v)| labels.get(k) == Some(v)) {
            return false;
        }
        match &self.terms {
            None => true,
            Some(terms) => terms.iter().any(|t| !t.empty && t.matches(labels, node_name)),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Pod affinity terms
// ---------------------------------------------------------------------------------------------

/// `framework.AffinityTerm`: the namespaces it applies to (the pod's own when it names none and
/// has no namespace selector), the namespace selector, the label selector and the topology key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AffinityTerm {
    pub namespaces: Vec<String>,
    pub namespace_selector: Selector,
    pub selector: Selector,
    pub topology_key: String,
}

impl AffinityTerm {
    fn from_json(term: &Value, pod_namespace: &str) -> AffinityTerm {
        let named: Vec<String> = arr(term.get("namespaces")).iter().filter_map(Value::as_str).map(String::from).collect();
        let ns_sel = term.get("namespaceSelector").filter(|v| !v.is_null());
        let namespaces = if named.is_empty() && ns_sel.is_none() { vec![pod_namespace.to_string()] } else { named };
        AffinityTerm {
            namespaces,
            namespace_selector: Selector::from_label_selector(ns_sel),
            selector: Selector::from_label_selector(term.get("labelSelector")),
            topology_key: s(term.get("topologyKey")).to_string(),
        }
    }

    /// `AffinityTerm.Matches`: the pod's namespace is named (or its labels match the namespace
    /// selector) and the label selector matches the pod.
    pub fn matches(&self, pod: &PodInfo, ns_labels: Option<&Labels>) -> bool {
        // a nil label set (Go) is an empty one: an empty namespace selector still matches
        let ns_ok = self.namespaces.iter().any(|n| *n == pod.namespace)
            || (self.namespace_selector != Selector::Nothing && self.namespace_selector.matches(ns_labels.unwrap_or(&NO_LABELS)));
        ns_ok && self.selector.matches(&pod.labels)
    }
}

/// `framework.WeightedAffinityTerm`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WeightedAffinityTerm {
    pub term: AffinityTerm,
    pub weight: i64,
}

// ---------------------------------------------------------------------------------------------
// Topology spread constraints (as written in the Pod; the plugin derives its own form)
// ---------------------------------------------------------------------------------------------

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TopologySpreadConstraint {
    pub max_skew: i64,
    pub topology_key: String,
    /// `DoNotSchedule` (true) or `ScheduleAnyway`.
    pub do_not_schedule: bool,
    pub selector: Selector,
    pub min_domains: Option<i64>,
    /// `nodeAffinityPolicy` Honor (default) / Ignore.
    pub honor_node_affinity: bool,
    /// `nodeTaintsPolicy` Honor / Ignore (default).
    pub honor_node_taints: bool,
    pub match_label_keys: Vec<String>,
}

impl TopologySpreadConstraint {
    fn from_json(c: &Value) -> TopologySpreadConstraint {
        TopologySpreadConstraint {
            max_skew: c.get("maxSkew").and_then(Value::as_i64).unwrap_or(1),
            topology_key: s(c.get("topologyKey")).to_string(),
            do_not_schedule: s(c.get("whenUnsatisfiable")) != "ScheduleAnyway",
            selector: Selector::from_label_selector(c.get("labelSelector")),
            min_domains: c.get("minDomains").and_then(Value::as_i64),
            honor_node_affinity: s(c.get("nodeAffinityPolicy")) != "Ignore",
            honor_node_taints: s(c.get("nodeTaintsPolicy")) == "Honor",
            match_label_keys: arr(c.get("matchLabelKeys")).iter().filter_map(Value::as_str).map(String::from).collect(),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Resources
// ---------------------------------------------------------------------------------------------

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
    pub fn add_list(&mut self, rl: &BTreeMap<String, Quantity>) {
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

    /// Adds (`sign` 1) or subtracts (-1) another Resource.
    pub fn add(&mut self, other: &Resource, sign: i64) {
        self.milli_cpu = self.milli_cpu.saturating_add(sign * other.milli_cpu);
        self.memory = self.memory.saturating_add(sign * other.memory);
        self.ephemeral_storage = self.ephemeral_storage.saturating_add(sign * other.ephemeral_storage);
        self.allowed_pod_number = self.allowed_pod_number.saturating_add(sign * other.allowed_pod_number);
        for (k, v) in &other.scalar {
            let e = self.scalar.entry(k.clone()).or_insert(0);
            *e = e.saturating_add(sign * v);
        }
    }

    /// `Resource.SetMaxResource` applied to a zero Resource: the incoming pod's request vector
    /// (negative amounts become 0; `pods` is not a request).
    pub fn from_pod_request(rl: &BTreeMap<String, Quantity>) -> Resource {
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

    pub fn is_zero_request(&self) -> bool {
        self.milli_cpu == 0 && self.memory == 0 && self.ephemeral_storage == 0 && self.scalar.is_empty()
    }
}

/// A `ResourceList` (`{"cpu": "100m", ...}`); malformed quantities are skipped (validation rejects
/// them before they reach the scheduler).
pub fn resource_list(v: Option<&Value>) -> BTreeMap<String, Quantity> {
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

fn container_requests(c: &Value, status: Option<&Value>, opts: &PodResourcesOptions) -> BTreeMap<String, Quantity> {
    let mut reqs = resource_list(at(c, &["resources", "requests"]));
    if opts.use_status_resources {
        // determineContainerReqs: max(spec, status.resources.requests, status.allocatedResources)
        if let Some(cs) = status {
            if cs.get("resources").is_some() {
                max_resource_list(&mut reqs, &resource_list(at(cs, &["resources", "requests"])));
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
    let reqs = resource_list(at(pod, &["spec", "resources", "requests"]));
    reqs.contains_key("cpu") || reqs.contains_key("memory")
}

/// `resource.PodRequests`: containers are summed; init containers run one after another, so the
/// pod needs the max of (sum of containers) and (each init container + the sidecars started
/// before it); sidecars (`restartPolicy: Always` init containers) also add to the total. Pod-level
/// requests override cpu/memory; `spec.overhead` is added.
fn pod_requests(pod: &Value, opts: &PodResourcesOptions) -> BTreeMap<String, Quantity> {
    let mut reqs = BTreeMap::new();
    let cstatus = statuses_by_name(pod, "containerStatuses");
    for c in arr(at(pod, &["spec", "containers"])) {
        let st = cstatus.get(s(c.get("name"))).copied();
        add_resource_list(&mut reqs, &container_requests(c, st, opts));
    }
    let istatus = statuses_by_name(pod, "initContainerStatuses");
    let mut restartable = BTreeMap::new();
    let mut init_reqs = BTreeMap::new();
    for c in arr(at(pod, &["spec", "initContainers"])) {
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
        for (k, q) in resource_list(at(pod, &["spec", "resources", "requests"])) {
            if k == "cpu" || k == "memory" {
                reqs.insert(k, q);
            }
        }
    }
    add_resource_list(&mut reqs, &resource_list(at(pod, &["spec", "overhead"])));
    reqs
}

fn cpu_mem(r: &BTreeMap<String, Quantity>) -> (i64, i64) {
    (r.get("cpu").map(Quantity::milli_value).unwrap_or(0), r.get("memory").map(Quantity::value).unwrap_or(0))
}

/// `schedutil.GetHostPorts`: (hostIP, protocol, hostPort) of containers and sidecars with hostPort > 0.
fn host_ports(pod: &Value) -> Vec<HostPort> {
    let mut out = Vec::new();
    let sidecars = arr(at(pod, &["spec", "initContainers"])).iter().filter(|c| s(c.get("restartPolicy")) == "Always");
    for c in sidecars.chain(arr(at(pod, &["spec", "containers"])).iter()) {
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
            out.push(HostPort { ip: ip.to_string(), protocol: proto.to_string(), port });
        }
    }
    out
}

/// One `HostPortInfo` entry.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct HostPort {
    pub ip: String,
    pub protocol: String,
    pub port: i64,
}

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

// ---------------------------------------------------------------------------------------------
// PodInfo
// ---------------------------------------------------------------------------------------------

/// `framework.PodInfo`: everything the plugins read of a Pod, decoded once.
#[derive(Clone, Debug)]
pub struct PodInfo {
    /// The Pod as the informer delivered it (shared, never copied).
    pub pod: Rc<Value>,
    pub key: String,
    pub namespace: String,
    pub name: String,
    pub uid: String,
    pub labels: Labels,
    /// `spec.priority` (int32, 0 when unset).
    pub priority: i64,
    pub node_name: String,
    pub nominated_node_name: String,
    pub scheduler_name: String,
    pub preemption_never: bool,
    /// `metadata.deletionTimestamp` is set.
    pub deleting: bool,
    /// Being deleted with a DisruptionTarget condition from the scheduler (`podTerminatingByPreemption`).
    pub terminating_by_preemption: bool,
    /// `status.startTime` (RFC 3339; None when the Pod has not started).
    pub start_time: Option<String>,
    /// `status.phase` is Succeeded or Failed.
    pub terminal: bool,
    /// The controller reference: (apiVersion, kind, name).
    pub controller: Option<(String, String, String)>,
    /// `PodRequests` as the cache sums them (no defaults).
    pub requests: Resource,
    /// The incoming pod's request vector for NodeResourcesFit's filter.
    pub fit_request: Resource,
    /// `NonZeroRequested`: cpu/memory with 100m / 200Mi for missing container requests.
    pub non_zero: (i64, i64),
    /// LeastAllocated's pod request (missing container requests as 100m / 200Mi).
    pub score_request: (i64, i64),
    /// BalancedAllocation's pod request (real requests).
    pub balanced_request: (i64, i64),
    pub tolerations: Vec<Toleration>,
    pub required_node_affinity: RequiredNodeAffinity,
    /// Preferred node affinity: None when the field is absent (the score plugin is skipped).
    pub preferred_node_affinity: Option<Vec<(i64, NodeSelectorTerm)>>,
    pub host_ports: Vec<HostPort>,
    /// Normalized image names of init and regular containers.
    pub images: Vec<String>,
    pub required_affinity_terms: Vec<AffinityTerm>,
    pub required_anti_affinity_terms: Vec<AffinityTerm>,
    pub preferred_affinity_terms: Vec<WeightedAffinityTerm>,
    pub preferred_anti_affinity_terms: Vec<WeightedAffinityTerm>,
    pub topology_spread_constraints: Vec<TopologySpreadConstraint>,
    /// PersistentVolumeClaim names of the Pod's volumes.
    pub claims: Vec<String>,
}

impl PodInfo {
    /// `NewPodInfo`.
    pub fn new(pod: Rc<Value>) -> PodInfo {
        let p: &Value = &pod;
        let meta = p.get("metadata");
        let namespace = s(meta.and_then(|m| m.get("namespace"))).to_string();
        let name = s(meta.and_then(|m| m.get("name"))).to_string();
        let cache = pod_requests(p, &PodResourcesOptions::for_cache());
        let requests = {
            let mut r = Resource::default();
            r.add_list(&cache);
            r
        };
        let non_zero = {
            let mut non_missing = default_non_missing();
            if is_pod_level_requests_set(p) {
                non_missing.retain(|k, _| !cache.contains_key(k));
            }
            if non_missing.is_empty() {
                cpu_mem(&cache)
            } else {
                cpu_mem(&pod_requests(p, &PodResourcesOptions::with_defaults(non_missing)))
            }
        };
        let score_request = cpu_mem(&pod_requests(p, &PodResourcesOptions::with_defaults(default_non_missing())));
        let affinity = |kind: &str, field: &str| -> Option<&Value> { at(p, &["spec", "affinity", kind, field]).filter(|v| !v.is_null()) };
        let required = |kind: &str| -> Vec<AffinityTerm> {
            arr(affinity(kind, "requiredDuringSchedulingIgnoredDuringExecution")).iter().map(|t| AffinityTerm::from_json(t, &namespace)).collect()
        };
        let preferred = |kind: &str| -> Vec<WeightedAffinityTerm> {
            arr(affinity(kind, "preferredDuringSchedulingIgnoredDuringExecution"))
                .iter()
                .map(|w| WeightedAffinityTerm {
                    term: AffinityTerm::from_json(w.get("podAffinityTerm").unwrap_or(&Value::Null), &namespace),
                    weight: w.get("weight").and_then(Value::as_i64).unwrap_or(0),
                })
                .collect()
        };
        let preferred_node_affinity = affinity("nodeAffinity", "preferredDuringSchedulingIgnoredDuringExecution").map(|v| {
            arr(Some(v))
                .iter()
                .map(|t| (t.get("weight").and_then(Value::as_i64).unwrap_or(0), NodeSelectorTerm::from_json(t.get("preference").unwrap_or(&Value::Null))))
                .collect()
        });
        let controller = arr(meta.and_then(|m| m.get("ownerReferences")))
            .iter()
            .find(|r| r.get("controller").and_then(Value::as_bool) == Some(true))
            .map(|r| (s(r.get("apiVersion")).to_string(), s(r.get("kind")).to_string(), s(r.get("name")).to_string()));
        let phase = s(at(p, &["status", "phase"]));
        let deleting = at(p, &["metadata", "deletionTimestamp"]).map(|v| !v.is_null()).unwrap_or(false);
        PodInfo {
            key: if namespace.is_empty() { name.clone() } else { format!("{namespace}/{name}") },
            uid: s(meta.and_then(|m| m.get("uid"))).to_string(),
            labels: labels_of(meta.and_then(|m| m.get("labels"))),
            // int32 in the API; clamp so arithmetic on garbage cannot overflow
            priority: at(p, &["spec", "priority"]).and_then(Value::as_i64).unwrap_or(0).clamp(i32::MIN as i64, i32::MAX as i64),
            node_name: s(at(p, &["spec", "nodeName"])).to_string(),
            nominated_node_name: s(at(p, &["status", "nominatedNodeName"])).to_string(),
            scheduler_name: s(at(p, &["spec", "schedulerName"])).to_string(),
            preemption_never: s(at(p, &["spec", "preemptionPolicy"])) == "Never",
            deleting,
            terminating_by_preemption: deleting
                && arr(at(p, &["status", "conditions"]))
                    .iter()
                    .any(|c| s(c.get("type")) == "DisruptionTarget" && s(c.get("reason")) == "PreemptionByScheduler"),
            start_time: at(p, &["status", "startTime"]).and_then(Value::as_str).map(String::from),
            terminal: phase == "Succeeded" || phase == "Failed",
            controller,
            requests,
            fit_request: Resource::from_pod_request(&cache),
            non_zero,
            score_request,
            balanced_request: cpu_mem(&cache),
            tolerations: arr(at(p, &["spec", "tolerations"])).iter().map(Toleration::from_json).collect(),
            required_node_affinity: RequiredNodeAffinity::from_pod(p),
            preferred_node_affinity,
            host_ports: host_ports(p),
            images: arr(at(p, &["spec", "initContainers"]))
                .iter()
                .chain(arr(at(p, &["spec", "containers"])).iter())
                .map(|c| normalized_image_name(s(c.get("image"))))
                .collect(),
            required_affinity_terms: required("podAffinity"),
            required_anti_affinity_terms: required("podAntiAffinity"),
            preferred_affinity_terms: preferred("podAffinity"),
            preferred_anti_affinity_terms: preferred("podAntiAffinity"),
            topology_spread_constraints: arr(at(p, &["spec", "topologySpreadConstraints"])).iter().map(TopologySpreadConstraint::from_json).collect(),
            claims: arr(at(p, &["spec", "volumes"]))
                .iter()
                .filter_map(|v| at(v, &["persistentVolumeClaim", "claimName"]).and_then(Value::as_str).map(String::from))
                .collect(),
            namespace,
            name,
            pod,
        }
    }

    /// A PodInfo from a plain value (tests, tools).
    pub fn from_value(pod: Value) -> PodInfo {
        PodInfo::new(Rc::new(pod))
    }

    /// Whether the pod has any pod affinity or anti-affinity term (`PodsWithAffinity`).
    pub fn has_affinity(&self) -> bool {
        !self.required_affinity_terms.is_empty()
            || !self.required_anti_affinity_terms.is_empty()
            || !self.preferred_affinity_terms.is_empty()
            || !self.preferred_anti_affinity_terms.is_empty()
    }
}

// ---------------------------------------------------------------------------------------------
// NodeInfo
// ---------------------------------------------------------------------------------------------

/// `framework.NodeInfo`: a node and the pods the scheduler believes run on it, with the sums the
/// plugins read kept up to date as pods are added and removed.
#[derive(Clone, Debug)]
pub struct NodeInfo {
    /// The Node as delivered by the informer (for the page; plugins read the typed fields).
    pub node: Rc<Value>,
    name: Rc<str>,
    /// The Node's facts are shared by the copies the cache makes on write.
    pub labels: Rc<Labels>,
    pub taints: Rc<Vec<Taint>>,
    pub unschedulable: bool,
    pub allocatable: Resource,
    /// Images present on the node: every name from `status.images[].names` -> `sizeBytes`.
    pub image_sizes: Rc<BTreeMap<String, i64>>,
    /// Pods assigned to the node that are not terminated.
    pub pods: Vec<Rc<PodInfo>>,
    /// The subset of `pods` with pod (anti-)affinity terms, and with required anti-affinity.
    pub pods_with_affinity: Vec<Rc<PodInfo>>,
    pub pods_with_required_anti_affinity: Vec<Rc<PodInfo>>,
    /// `Requested`: the sum of the pods' effective requests, no defaults.
    pub requested: Resource,
    /// `NonZeroRequested`: (millicores, bytes) with 100m / 200Mi for missing requests.
    pub non_zero_requested: (i64, i64),
    /// `UsedPorts`.
    pub used_ports: Vec<HostPort>,
    /// Bumped by every change; the snapshot copies a node whose generation moved.
    pub generation: u64,
}

impl NodeInfo {
    /// A NodeInfo for `node` (its typed fields decoded once; `image_sizes` from `status.images`
    /// as `addNodeImageStates` does).
    pub fn from_node(node: Rc<Value>) -> NodeInfo {
        let mut image_sizes = BTreeMap::new();
        for image in arr(at(&node, &["status", "images"])) {
            let size = image.get("sizeBytes").and_then(Value::as_i64).unwrap_or(0);
            for name in arr(image.get("names")) {
                if let Some(n) = name.as_str() {
                    image_sizes.entry(n.to_string()).or_insert(size);
                }
            }
        }
        let mut allocatable = Resource::default();
        allocatable.add_list(&resource_list(at(&node, &["status", "allocatable"])));
        NodeInfo {
            name: Rc::from(s(at(&node, &["metadata", "name"]))),
            labels: Rc::new(labels_of(at(&node, &["metadata", "labels"]))),
            taints: Rc::new(arr(at(&node, &["spec", "taints"])).iter().map(Taint::from_json).collect()),
            unschedulable: at(&node, &["spec", "unschedulable"]).and_then(Value::as_bool) == Some(true),
            allocatable,
            image_sizes: Rc::new(image_sizes),
            node,
            pods: Vec::new(),
            pods_with_affinity: Vec::new(),
            pods_with_required_anti_affinity: Vec::new(),
            requested: Resource::default(),
            non_zero_requested: (0, 0),
            used_ports: Vec::new(),
            generation: 0,
        }
    }

    /// A NodeInfo with pods (tests and tools): each pod decoded into a PodInfo.
    pub fn new(node: Value, pods: Vec<Value>) -> NodeInfo {
        let mut ni = NodeInfo::from_node(Rc::new(node));
        for p in pods {
            ni.add_pod(Rc::new(PodInfo::from_value(p)));
        }
        ni
    }

    /// Replaces the Node object, keeping the pods (`SetNode`).
    pub fn set_node(&mut self, node: Rc<Value>) {
        let mut fresh = NodeInfo::from_node(node);
        for p in std::mem::take(&mut self.pods) {
            fresh.add_pod(p);
        }
        fresh.generation = self.generation + 1;
        *self = fresh;
    }

    /// `metadata.name` of the node ("" if missing).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The name, shared.
    pub fn name_rc(&self) -> Rc<str> {
        self.name.clone()
    }

    /// `AddPodInfo`.
    pub fn add_pod(&mut self, p: Rc<PodInfo>) {
        self.requested.add(&p.requests, 1);
        self.non_zero_requested.0 = self.non_zero_requested.0.saturating_add(p.non_zero.0);
        self.non_zero_requested.1 = self.non_zero_requested.1.saturating_add(p.non_zero.1);
        self.used_ports.extend(p.host_ports.iter().cloned());
        if p.has_affinity() {
            self.pods_with_affinity.push(p.clone());
        }
        if !p.required_anti_affinity_terms.is_empty() {
            self.pods_with_required_anti_affinity.push(p.clone());
        }
        self.pods.push(p);
        self.generation += 1;
    }

    /// `RemovePod` by key; returns the removed PodInfo.
    pub fn remove_pod(&mut self, key: &str) -> Option<Rc<PodInfo>> {
        let i = self.pods.iter().position(|p| p.key == key)?;
        let p = self.pods.remove(i);
        self.forget_sums(&p);
        self.pods_with_affinity.retain(|q| q.key != key);
        self.pods_with_required_anti_affinity.retain(|q| q.key != key);
        self.generation += 1;
        Some(p)
    }

    fn forget_sums(&mut self, p: &PodInfo) {
        self.requested.add(&p.requests, -1);
        self.non_zero_requested.0 = self.non_zero_requested.0.saturating_sub(p.non_zero.0);
        self.non_zero_requested.1 = self.non_zero_requested.1.saturating_sub(p.non_zero.1);
        for hp in &p.host_ports {
            if let Some(j) = self.used_ports.iter().position(|u| u == hp) {
                self.used_ports.remove(j);
            }
        }
    }

    /// Replaces a pod already on the node by a newer revision of it, in its place (the order of
    /// `pods` is the order they were added, as upstream's slice).
    pub fn update_pod(&mut self, p: Rc<PodInfo>) {
        let Some(i) = self.pods.iter().position(|q| q.key == p.key) else {
            self.add_pod(p);
            return;
        };
        let old = self.pods[i].clone();
        self.forget_sums(&old);
        self.requested.add(&p.requests, 1);
        self.non_zero_requested.0 = self.non_zero_requested.0.saturating_add(p.non_zero.0);
        self.non_zero_requested.1 = self.non_zero_requested.1.saturating_add(p.non_zero.1);
        self.used_ports.extend(p.host_ports.iter().cloned());
        let replace = |list: &mut Vec<Rc<PodInfo>>, want: bool| {
            let at = list.iter().position(|q| q.key == p.key);
            match (at, want) {
                (Some(j), true) => list[j] = p.clone(),
                (Some(j), false) => {
                    list.remove(j);
                }
                (None, true) => list.push(p.clone()),
                (None, false) => {}
            }
        };
        replace(&mut self.pods_with_affinity, p.has_affinity());
        replace(&mut self.pods_with_required_anti_affinity, !p.required_anti_affinity_terms.is_empty());
        self.pods[i] = p;
        self.generation += 1;
    }
}

/// Test tables (cases from upstream's tests and hand-checked examples), with the shared
/// fixtures of [`crate::scheduler::framework::testing`].
#[cfg(test)]
mod tests {
    use crate::scheduler::framework::testing::*;

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
            assert_eq!(n.requested.milli_cpu, c.requested_cpu, "{}: requested", c.name);
        }
    }
}
