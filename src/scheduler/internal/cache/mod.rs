//! The scheduler cache and its per-cycle snapshot.
//!
//! Real counterpart: `pkg/scheduler/backend/cache/` — `cache.go` (`cacheImpl`: `AddNode`,
//! `UpdateNode`, `RemoveNode`, `AddPod`, `UpdatePod`, `RemovePod`, `AssumePod`, `FinishBinding`,
//! `ForgetPod`, `UpdateSnapshot` copying only the nodes whose generation moved), `node_tree.go`
//! (nodes listed zone by zone, round robin) and `snapshot.go` (`Snapshot`: `nodeInfoList`,
//! `havePodsWithAffinityNodeInfoList`, `havePodsWithRequiredAntiAffinityNodeInfoList`,
//! `ImageStateSummary.NumNodes`).
//!
//! NodeInfos are shared by `Rc` between the cache and the snapshot; the cache copies a node on
//! write (`Rc::make_mut`) only when the snapshot still holds it. What kubesim simplifies: an
//! assumed pod never expires (v1.34's default `durationToExpireAssumedPod` is 0, never); the
//! cache is single-threaded, so there is no lock.

use crate::scheduler::framework::types::{AffinityTerm, Labels, NodeInfo, PodInfo, Selector, WeightedAffinityTerm};
use std::cell::RefCell;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;

/// `utilnode.GetZoneKey`: region and zone labels; "" when the node has neither.
fn zone_key(ni: &NodeInfo) -> String {
    let region = ni.labels.get("topology.kubernetes.io/region").map(String::as_str).unwrap_or("");
    let zone = ni.labels.get("topology.kubernetes.io/zone").map(String::as_str).unwrap_or("");
    if region.is_empty() && zone.is_empty() {
        return String::new();
    }
    format!("{region}:\u{0}:{zone}")
}

/// `nodeTree`: node names grouped by zone, in the order they were added.
#[derive(Clone, Debug, Default)]
struct NodeTree {
    zones: Vec<String>,
    tree: BTreeMap<String, Vec<String>>,
}

impl NodeTree {
    fn add(&mut self, zone: &str, name: &str) {
        let list = self.tree.entry(zone.to_string()).or_default();
        if list.iter().any(|n| n == name) {
            return;
        }
        if list.is_empty() {
            self.zones.push(zone.to_string());
        }
        list.push(name.to_string());
    }

    /// `removeNode`: the last node of the zone takes the removed one's place; an emptied zone's
    /// place is taken by the last zone.
    fn remove(&mut self, zone: &str, name: &str) {
        let Some(list) = self.tree.get_mut(zone) else { return };
        if let Some(i) = list.iter().position(|n| n == name) {
            list.swap_remove(i);
        }
        if list.is_empty() {
            self.tree.remove(zone);
            if let Some(i) = self.zones.iter().position(|z| z == zone) {
                self.zones.swap_remove(i);
            }
        }
    }

    /// `list`: one node of each zone in turn.
    fn list(&self) -> Vec<String> {
        let total: usize = self.tree.values().map(Vec::len).sum();
        let mut out = Vec::with_capacity(total);
        let mut i = 0;
        while out.len() < total {
            for z in &self.zones {
                if let Some(n) = self.tree.get(z).and_then(|l| l.get(i)) {
                    out.push(n.clone());
                }
            }
            i += 1;
        }
        out
    }
}

/// Where a pod is in the cache.
#[derive(Clone, Debug, PartialEq, Eq)]
struct PodState {
    node: String,
    /// Assumed by the scheduler, not yet confirmed by the informer.
    assumed: bool,
    binding_finished: bool,
}

/// `cacheImpl`.
#[derive(Clone, Debug, Default)]
pub struct Cache {
    nodes: BTreeMap<String, Rc<NodeInfo>>,
    zones: BTreeMap<String, String>,
    tree: NodeTree,
    pod_states: BTreeMap<String, PodState>,
    /// Nodes changed since the last snapshot (`generation` newer than the snapshot's).
    dirty: BTreeSet<String>,
    /// Nodes added or removed, or a zone changed: the snapshot's list is rebuilt.
    structure_changed: bool,
    /// A Node's images or labels changed: the image counts and topology domains are recomputed.
    images_changed: bool,
}

impl Cache {
    pub fn node_count(&self) -> usize {
        self.nodes.len()
    }

    pub fn node(&self, name: &str) -> Option<&NodeInfo> {
        self.nodes.get(name).map(|n| &**n)
    }

    /// The node a pod is assumed or bound to.
    pub fn node_of(&self, pod_key: &str) -> Option<&str> {
        self.pod_states.get(pod_key).map(|s| s.node.as_str())
    }

    pub fn is_assumed(&self, pod_key: &str) -> bool {
        self.pod_states.get(pod_key).map(|s| s.assumed).unwrap_or(false)
    }

    fn node_mut(&mut self, name: &str) -> Option<&mut NodeInfo> {
        let n = self.nodes.get_mut(name)?;
        self.dirty.insert(name.to_string());
        Some(Rc::make_mut(n))
    }

    /// `AddNode` / `UpdateNode`: the node's typed fields decoded again, its pods kept.
    pub fn add_or_update_node(&mut self, node: Rc<Value>) {
        let fresh = NodeInfo::from_node(node.clone());
        let name = fresh.name().to_string();
        let zone = zone_key(&fresh);
        match self.nodes.get_mut(&name) {
            Some(existing) => {
                // a heartbeat changes neither: the snapshot's image counts and domains stay
                self.images_changed |= existing.image_sizes != fresh.image_sizes || existing.labels != fresh.labels;
                Rc::make_mut(existing).set_node(node);
                self.dirty.insert(name.clone());
                if self.zones.get(&name) != Some(&zone) {
                    if let Some(old) = self.zones.insert(name.clone(), zone.clone()) {
                        self.tree.remove(&old, &name);
                    }
                    self.tree.add(&zone, &name);
                    self.structure_changed = true;
                }
            }
            None => {
                self.nodes.insert(name.clone(), Rc::new(fresh));
                self.zones.insert(name.clone(), zone.clone());
                self.tree.add(&zone, &name);
                self.structure_changed = true;
                self.images_changed = true;
            }
        }
    }

    /// `RemoveNode`: the node and the pods the cache kept on it.
    pub fn remove_node(&mut self, name: &str) {
        if self.nodes.remove(name).is_none() {
            return;
        }
        if let Some(zone) = self.zones.remove(name) {
            self.tree.remove(&zone, name);
        }
        self.pod_states.retain(|_, s| s.node != name);
        self.structure_changed = true;
        self.images_changed = true;
    }

    /// `AssumePod`: the pod counts on `node` from now on, before the binding is confirmed.
    pub fn assume_pod(&mut self, pod: Rc<PodInfo>, node: &str) {
        let key = pod.key.clone();
        self.remove_pod(&key);
        if let Some(ni) = self.node_mut(node) {
            ni.add_pod(pod);
            self.pod_states.insert(key, PodState { node: node.to_string(), assumed: true, binding_finished: false });
        }
    }

    /// `FinishBinding`: the binding request returned.
    pub fn finish_binding(&mut self, key: &str) {
        if let Some(s) = self.pod_states.get_mut(key) {
            s.binding_finished = true;
        }
    }

    /// `ForgetPod`: the binding failed; the assumed pod no longer counts.
    pub fn forget_pod(&mut self, key: &str) {
        if self.is_assumed(key) {
            self.remove_pod(key);
        }
    }

    /// `AddPod` / `UpdatePod` for a pod the informer says is bound to `pod.node_name`: confirms
    /// an assumed pod, moves a pod whose node changed, or replaces its older revision in place.
    pub fn add_or_update_pod(&mut self, pod: Rc<PodInfo>) {
        let key = pod.key.clone();
        let node = pod.node_name.clone();
        match self.pod_states.get(&key).cloned() {
            Some(st) if st.node == node => {
                if let Some(ni) = self.node_mut(&node) {
                    ni.update_pod(pod);
                }
                if let Some(s) = self.pod_states.get_mut(&key) {
                    s.assumed = false;
                }
            }
            _ => {
                self.remove_pod(&key);
                if let Some(ni) = self.node_mut(&node) {
                    ni.add_pod(pod);
                    self.pod_states.insert(key, PodState { node, assumed: false, binding_finished: true });
                }
            }
        }
    }

    /// `RemovePod`; returns whether the pod was in the cache.
    pub fn remove_pod(&mut self, key: &str) -> bool {
        let Some(st) = self.pod_states.remove(key) else { return false };
        if let Some(ni) = self.node_mut(&st.node) {
            ni.remove_pod(key);
        }
        true
    }

    /// `UpdateSnapshot`: copies the nodes that changed since the last call into `snap` (sharing
    /// them), rebuilding its lists when nodes were added or removed.
    pub fn update_snapshot(&mut self, snap: &mut Snapshot) {
        // a snapshot this cache never filled gets every node (upstream: generation 0)
        self.structure_changed |= !snap.filled;
        snap.filled = true;
        if self.structure_changed {
            snap.memo.borrow_mut().clear();
            snap.deltas.borrow_mut().clear();
            let order = self.tree.list();
            snap.nodes = order.iter().filter_map(|n| self.nodes.get(n).cloned()).collect();
            snap.index = order.into_iter().enumerate().map(|(i, n)| (n, i)).collect();
        } else {
            for name in &self.dirty {
                if let (Some(&i), Some(ni)) = (snap.index.get(name), self.nodes.get(name)) {
                    snap.nodes[i] = ni.clone();
                }
            }
        }
        if self.structure_changed || !self.dirty.is_empty() {
            snap.rebuild_affinity_lists();
        }
        if self.images_changed || self.structure_changed {
            snap.rebuild_image_counts();
            snap.domains.borrow_mut().clear();
        }
        self.dirty.clear();
        self.structure_changed = false;
        self.images_changed = false;
    }
}

/// `Snapshot`: the nodes a cycle reads, in the node tree's order.
#[derive(Clone, Debug, Default)]
pub struct Snapshot {
    nodes: Vec<Rc<NodeInfo>>,
    index: BTreeMap<String, usize>,
    with_affinity: Vec<usize>,
    with_required_anti_affinity: Vec<usize>,
    image_nodes: BTreeMap<String, usize>,
    /// Filled by a cache at least once; the cache then copies only what changed since.
    filled: bool,
    /// Per-node counts of the pods a selector matches, each with the node's generation when it
    /// was counted (see [`Snapshot::count_on_node`]).
    memo: RefCell<Vec<(MatchKey, Vec<(u64, i64)>)>>,
    /// Per-node InterPodAffinity score contributions, with the node's generation (see
    /// [`Snapshot::deltas_per_node`]).
    deltas: RefCell<Vec<(ScoreKey, Vec<(u64, Rc<[(String, i64)]>)>)>>,
    /// Per topology key, every node's domain (see [`Snapshot::domains`]); rebuilt when a Node
    /// object changes.
    domains: RefCell<Vec<(String, Rc<Domains>)>>,
}

/// The topology domains of one key: their values, and each node's (in snapshot order).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Domains {
    /// The distinct values, sorted; "" stands for nodes without the key (`node.Labels[key]`).
    pub values: Vec<String>,
    /// Per node: the index of its value in `values`.
    pub of_node: Vec<u32>,
}

impl Domains {
    pub fn index_of(&self, value: &str) -> Option<usize> {
        self.values.binary_search_by(|v| v.as_str().cmp(value)).ok()
    }
}

/// What InterPodAffinity's PreScore reads of the incoming pod: a node's contribution to the
/// topology scores depends only on these and on the node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScoreKey {
    pub namespace: String,
    pub labels: Labels,
    pub namespace_labels: Labels,
    pub preferred_affinity: Vec<WeightedAffinityTerm>,
    pub preferred_anti_affinity: Vec<WeightedAffinityTerm>,
}

/// What [`Snapshot::count_on_node`] counts: pods of a namespace a spread selector matches, pods
/// matching all of a set of affinity terms, or pods matching one anti-affinity term.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MatchKey {
    Spread { namespace: String, selector: Selector },
    AllTerms(Vec<AffinityTerm>),
    Term(AffinityTerm),
}

/// Selectors remembered at once (the least recently used is dropped first).
const MEMO_KEYS: usize = 64;

/// The memo's entry for `key`, made (empty) when missing; least recently used first, so a hit
/// moves to the back and the front is dropped when the memo is full.
fn lru_entry<'a, K: PartialEq + Clone, V>(memo: &'a mut Vec<(K, Vec<V>)>, key: &K) -> &'a mut Vec<V> {
    match memo.iter().position(|(k, _)| k == key) {
        Some(p) => {
            let e = memo.remove(p);
            memo.push(e);
        }
        None => {
            if memo.len() >= MEMO_KEYS {
                memo.remove(0);
            }
            memo.push((key.clone(), Vec::new()));
        }
    }
    let last = memo.len() - 1;
    &mut memo[last].1
}

impl Snapshot {
    /// A snapshot of these nodes in this order (tests and tools).
    pub fn new(nodes: Vec<NodeInfo>) -> Snapshot {
        let mut s = Snapshot {
            index: nodes.iter().enumerate().map(|(i, n)| (n.name().to_string(), i)).collect(),
            nodes: nodes.into_iter().map(Rc::new).collect(),
            ..Snapshot::default()
        };
        s.rebuild_affinity_lists();
        s.rebuild_image_counts();
        s
    }

    fn rebuild_affinity_lists(&mut self) {
        self.with_affinity = (0..self.nodes.len()).filter(|&i| !self.nodes[i].pods_with_affinity.is_empty()).collect();
        self.with_required_anti_affinity = (0..self.nodes.len()).filter(|&i| !self.nodes[i].pods_with_required_anti_affinity.is_empty()).collect();
    }

    fn rebuild_image_counts(&mut self) {
        self.image_nodes.clear();
        for n in &self.nodes {
            for image in n.image_sizes.keys() {
                *self.image_nodes.entry(image.clone()).or_insert(0) += 1;
            }
        }
    }

    /// `NodeInfos().List()`.
    pub fn node_info_list(&self) -> &[Rc<NodeInfo>] {
        &self.nodes
    }

    pub fn num_nodes(&self) -> usize {
        self.nodes.len()
    }

    pub fn get(&self, name: &str) -> Option<&NodeInfo> {
        self.index.get(name).map(|&i| &*self.nodes[i])
    }

    pub fn index_of(&self, name: &str) -> Option<usize> {
        self.index.get(name).copied()
    }

    /// `HavePodsWithAffinityList`.
    pub fn have_pods_with_affinity(&self) -> impl Iterator<Item = &NodeInfo> {
        self.with_affinity.iter().map(move |&i| &*self.nodes[i])
    }

    /// `HavePodsWithRequiredAntiAffinityList`.
    pub fn have_pods_with_required_anti_affinity(&self) -> impl Iterator<Item = &NodeInfo> {
        self.with_required_anti_affinity.iter().map(move |&i| &*self.nodes[i])
    }

    /// For every node (in snapshot order), the number of its pods `key` matches, computed by
    /// `count` only for the nodes that changed since they were last counted for this key (their
    /// generation moved). A cycle reads every node's count and between two cycles one node
    /// changed: kubesim's stand-in for the parallel counting upstream does, with its result.
    pub fn count_per_node(&self, key: &MatchKey, count: impl Fn(&NodeInfo) -> i64) -> Vec<i64> {
        let mut memo = self.memo.borrow_mut();
        let counts = lru_entry(&mut memo, key);
        if counts.len() != self.nodes.len() {
            counts.clear();
            counts.resize(self.nodes.len(), (u64::MAX, 0));
        }
        let mut out = Vec::with_capacity(self.nodes.len());
        for (i, ni) in self.nodes.iter().enumerate() {
            if counts[i].0 != ni.generation {
                counts[i] = (ni.generation, count(ni));
            }
            out.push(counts[i].1);
        }
        out
    }

    /// InterPodAffinity's PreScore contributions of the nodes it reads (every node when
    /// `all_nodes`, else those with pods with affinity): per node, (topology key, score delta)
    /// for the node's own value of that key, computed by `f` only for nodes whose generation
    /// moved since they were last computed for this key.
    pub fn deltas_per_node(&self, key: &ScoreKey, all_nodes: bool, f: impl Fn(&NodeInfo) -> Vec<(String, i64)>) -> Vec<(usize, Rc<[(String, i64)]>)> {
        let mut memo = self.deltas.borrow_mut();
        let cached = lru_entry(&mut memo, key);
        if cached.len() != self.nodes.len() {
            cached.clear();
            cached.resize(self.nodes.len(), (u64::MAX, Rc::from(Vec::new())));
        }
        let indices: Box<dyn Iterator<Item = usize>> = if all_nodes { Box::new(0..self.nodes.len()) } else { Box::new(self.with_affinity.iter().copied()) };
        let mut out = Vec::new();
        for i in indices {
            let ni = &self.nodes[i];
            if cached[i].0 != ni.generation {
                cached[i] = (ni.generation, Rc::from(f(ni)));
            }
            if !cached[i].1.is_empty() {
                out.push((i, cached[i].1.clone()));
            }
        }
        out
    }

    /// Every node's domain for `key`, computed once per key until a Node object changes: the
    /// spreading plugins sum counts by domain without looking up a label per node.
    pub fn domains(&self, key: &str) -> Rc<Domains> {
        let mut memo = self.domains.borrow_mut();
        if let Some((_, d)) = memo.iter().find(|(k, _)| k == key) {
            return d.clone();
        }
        let mut values: Vec<String> = self.nodes.iter().map(|n| n.labels.get(key).cloned().unwrap_or_default()).collect();
        values.sort();
        values.dedup();
        let of_node = self
            .nodes
            .iter()
            .map(|n| {
                let v = n.labels.get(key).map(String::as_str).unwrap_or("");
                values.binary_search_by(|x| x.as_str().cmp(v)).unwrap_or(0) as u32
            })
            .collect();
        let d = Rc::new(Domains { values, of_node });
        if memo.len() >= MEMO_KEYS {
            memo.remove(0);
        }
        memo.push((key.to_string(), d.clone()));
        d
    }

    /// `ImageStateSummary.NumNodes`.
    pub fn num_nodes_with_image(&self, image: &str) -> usize {
        self.image_nodes.get(image).copied().unwrap_or(0)
    }
}
