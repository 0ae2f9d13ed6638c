//! The informer-backed listers plugins read besides the snapshot: namespaces (InterPodAffinity's
//! namespace selectors), the Services, ReplicaSets and StatefulSets that select a Pod
//! (PodTopologySpread's system default spreading), claims and classes (the volume plugins), and
//! PodDisruptionBudgets (DefaultPreemption's `pdbLister`).
//!
//! Real counterpart: the shared informer factory's listers handed to the plugins
//! (`handle.SharedInformerFactory()`), and `plugins/helper/spread.go` (`DefaultSelector`).
//! What kubesim simplifies: ReplicationControllers are not served, so none selects a Pod; the
//! listers hold only the fields the plugins read, decoded once per informer event.

use super::types::{Labels, PodInfo, Requirement, Selector};
use crate::api::meta;
use crate::client::Store;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

#[derive(Clone, Debug, Default)]
pub struct Listers {
    /// Namespace name -> its labels.
    pub namespaces: BTreeMap<String, Labels>,
    /// `ns/name` -> the Service's `spec.selector` (Services without a selector are left out).
    pub services: BTreeMap<String, Labels>,
    /// `ns/name` -> the ReplicaSet's parsed selector.
    pub replicasets: BTreeMap<String, Selector>,
    /// `ns/name` -> the StatefulSet's parsed selector.
    pub statefulsets: BTreeMap<String, Selector>,
    pub claims: Store,
    pub classes: Store,
    /// `ns/name` -> what preemption reads of a PodDisruptionBudget.
    pub pdbs: BTreeMap<String, PdbInfo>,
}

/// A PodDisruptionBudget as DefaultPreemption reads it: its namespace, selector, how many
/// disruptions it allows and the Pods already counted (`status.disruptedPods`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PdbInfo {
    pub namespace: String,
    pub selector: Selector,
    pub disruptions_allowed: i64,
    pub disrupted_pods: BTreeSet<String>,
}

impl PdbInfo {
    pub fn from_json(pdb: &Value) -> PdbInfo {
        PdbInfo {
            namespace: meta::namespace(pdb).to_string(),
            selector: Selector::from_label_selector(meta::get(pdb, &["spec", "selector"])),
            disruptions_allowed: meta::get_i64(pdb, &["status", "disruptionsAllowed"]).unwrap_or(0),
            disrupted_pods: meta::get(pdb, &["status", "disruptedPods"]).and_then(Value::as_object).map(|m| m.keys().cloned().collect()).unwrap_or_default(),
        }
    }
}

fn labels_at(v: &Value, path: &[&str]) -> Labels {
    meta::get(v, path)
        .and_then(Value::as_object)
        .map(|m| m.iter().filter_map(|(k, v)| v.as_str().map(|v| (k.clone(), v.to_string()))).collect())
        .unwrap_or_default()
}

impl Listers {
    pub fn set_namespace(&mut self, ns: &Value, deleted: bool) {
        let name = meta::name(ns).to_string();
        if deleted {
            self.namespaces.remove(&name);
        } else {
            self.namespaces.insert(name, labels_at(ns, &["metadata", "labels"]));
        }
    }

    pub fn set_service(&mut self, svc: &Value, deleted: bool) {
        let key = meta::key(svc);
        let sel = labels_at(svc, &["spec", "selector"]);
        if deleted || sel.is_empty() {
            self.services.remove(&key);
        } else {
            self.services.insert(key, sel);
        }
    }

    pub fn set_pdb(&mut self, pdb: &Value, deleted: bool) {
        let key = meta::key(pdb);
        if deleted {
            self.pdbs.remove(&key);
        } else {
            self.pdbs.insert(key, PdbInfo::from_json(pdb));
        }
    }

    pub fn set_replicaset(&mut self, rs: &Value, deleted: bool) {
        let key = meta::key(rs);
        if deleted {
            self.replicasets.remove(&key);
        } else {
            self.replicasets.insert(key, Selector::from_label_selector(meta::get(rs, &["spec", "selector"])));
        }
    }

    pub fn set_statefulset(&mut self, ss: &Value, deleted: bool) {
        let key = meta::key(ss);
        if deleted {
            self.statefulsets.remove(&key);
        } else {
            self.statefulsets.insert(key, Selector::from_label_selector(meta::get(ss, &["spec", "selector"])));
        }
    }

    /// `GetNamespaceLabelsSnapshot`: the labels of the pod's namespace (empty when unknown).
    pub fn namespace_labels(&self, ns: &str) -> Labels {
        self.namespaces.get(ns).cloned().unwrap_or_default()
    }

    /// Names of the namespaces a namespace selector matches (`mergeAffinityTermNamespacesIfNotEmpty`).
    pub fn namespaces_matching(&self, sel: &Selector) -> Vec<String> {
        self.namespaces.iter().filter(|(_, l)| sel.matches(l)).map(|(n, _)| n.clone()).collect()
    }

    /// `helper.DefaultSelector`: the union of the selectors of the Services selecting the pod,
    /// plus the requirements of its controlling ReplicaSet's or StatefulSet's selector.
    pub fn default_selector(&self, pod: &PodInfo) -> Selector {
        let mut set = Labels::new();
        let prefix = format!("{}/", pod.namespace);
        for (key, sel) in self.services.range(prefix.clone()..) {
            if !key.starts_with(&prefix) {
                break;
            }
            if sel.iter().all(|(k, v)| pod.labels.get(k) == Some(v)) {
                for (k, v) in sel {
                    set.insert(k.clone(), v.clone());
                }
            }
        }
        let mut selector = Selector::from_set(&set);
        let Some((api_version, kind, name)) = &pod.controller else { return selector };
        let owner = format!("{}/{}", pod.namespace, name);
        let reqs: Option<&[Requirement]> = match (api_version.as_str(), kind.as_str()) {
            ("apps/v1", "ReplicaSet") => self.replicasets.get(&owner).map(Selector::requirements),
            ("apps/v1", "StatefulSet") => self.statefulsets.get(&owner).map(Selector::requirements),
            _ => None,
        };
        if let Some(r) = reqs {
            selector.add(r);
        }
        selector
    }
}
