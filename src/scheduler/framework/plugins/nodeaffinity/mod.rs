//! NodeAffinity: `spec.nodeSelector` and required node affinity filter nodes; preferred terms
//! score them. PreFilter narrows the search to the nodes a `matchFields metadata.name` term pins
//! (what a DaemonSet pod carries).
//!
//! Real counterpart: `pkg/scheduler/framework/plugins/nodeaffinity/node_affinity.go`
//! (`PreFilter`, `Filter`, `PreScore`, `Score`, `NormalizeScore`). What kubesim simplifies: no
//! `addedAffinity` from the profile's args.

use crate::scheduler::framework::interface::{Code, Status, MAX_NODE_SCORE};
use crate::scheduler::framework::plugins::helper::default_normalize_score;
use crate::scheduler::framework::types::{NodeInfo, PodInfo};
use std::collections::BTreeSet;

pub const NAME: &str = "NodeAffinity";
pub const ERR_REASON_POD: &str = "node(s) didn't match Pod's node affinity/selector";
pub const ERR_REASON_CONFLICT: &str = "pod affinity terms conflict";

/// PreFilter's result: the node names every required term pins (`PreFilterResult.NodeNames`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PreFilterState {
    pub node_names: Option<BTreeSet<String>>,
}

/// `Ok(Some(names))` when every required term pins `metadata.name` with `In` (the union over
/// terms of the intersection within a term), `Ok(None)` when all nodes stay candidates, `Err`
/// (UnschedulableAndUnresolvable `pod affinity terms conflict`) when the pinned sets are empty.
pub fn pre_filter(pod: &PodInfo) -> Result<Option<BTreeSet<String>>, Status> {
    let terms = match &pod.required_node_affinity.terms {
        Some(t) if !t.is_empty() => t,
        _ => return Ok(None),
    };
    let mut names: BTreeSet<String> = BTreeSet::new();
    for t in terms {
        let mut term_names: Option<BTreeSet<String>> = None;
        for (key, is_in, value) in t.fields.as_deref().unwrap_or(&[]) {
            if key == "metadata.name" && *is_in {
                let set: BTreeSet<String> = std::iter::once(value.clone()).collect();
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
        return Err(Status::new(Code::UnschedulableAndUnresolvable, NAME, &[ERR_REASON_CONFLICT]));
    }
    Ok(Some(names))
}

pub fn filter(pod: &PodInfo, ni: &NodeInfo) -> Status {
    if pod.required_node_affinity.matches(&ni.labels, ni.name()) {
        return Status::success();
    }
    Status::new(Code::UnschedulableAndUnresolvable, NAME, &[ERR_REASON_POD])
}

/// PreScore skips pods without preferred terms.
pub fn pre_score(pod: &PodInfo) -> bool {
    pod.preferred_node_affinity.is_some()
}

/// The sum of the weights of the preferred terms the node matches (an empty preference matches
/// every node; weight 0 terms are ignored).
pub fn score(pod: &PodInfo, ni: &NodeInfo) -> i64 {
    pod.preferred_node_affinity
        .as_deref()
        .unwrap_or(&[])
        .iter()
        .filter(|(w, t)| *w != 0 && t.matches(&ni.labels, ni.name()))
        .map(|(w, _)| *w)
        .fold(0i64, i64::saturating_add)
}

pub fn normalize_score(scores: &mut [i64]) {
    default_normalize_score(MAX_NODE_SCORE, false, scores)
}
