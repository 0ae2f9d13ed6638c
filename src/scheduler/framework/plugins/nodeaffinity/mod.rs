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

/// Test tables (cases from upstream's tests and hand-checked examples), with the shared
/// fixtures of [`crate::scheduler::framework::testing`].
#[cfg(test)]
mod tests {
    use crate::scheduler::framework::testing::*;

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
}
