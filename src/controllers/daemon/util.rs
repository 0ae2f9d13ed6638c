//! What a DaemonSet's Pods look like and which nodes they belong on.
//!
//! Real counterpart: `pkg/controller/daemon/util/daemonset_util.go` (`CreatePodTemplate`,
//! `AddOrUpdateDaemonPodTolerations`, `ReplaceDaemonSetPodNodeNameNodeAffinity`,
//! `GetTargetNodeName`, `IsPodUpdated`, `GetTemplateGeneration`) and `NodeShouldRunDaemonPod` /
//! `predicates` of `daemon_controller.go`, which use the scheduler's node-affinity and
//! taint-toleration helpers (`component-helpers`), here the scheduler plugins' own.

use crate::api::meta;
use crate::apiserver::DS_TEMPLATE_GENERATION;
use crate::scheduler::framework::types::{tolerations_tolerate_taint, NodeInfo, RequiredNodeAffinity, Taint, Toleration};
use serde_json::{json, Value};

/// `apps.DefaultDaemonSetUniqueLabelKey`.
pub const REVISION_HASH_LABEL: &str = "controller-revision-hash";
/// `extensions.DaemonSetTemplateGenerationKey`.
pub const TEMPLATE_GENERATION_LABEL: &str = "pod-template-generation";

/// The tolerations every daemon Pod gets, in `AddOrUpdateDaemonPodTolerations`' order:
/// (key, effect). `network-unavailable` only for host-network Pods.
pub const DAEMON_TOLERATIONS: [(&str, &str); 6] = [
    ("node.kubernetes.io/not-ready", "NoExecute"),
    ("node.kubernetes.io/unreachable", "NoExecute"),
    ("node.kubernetes.io/disk-pressure", "NoSchedule"),
    ("node.kubernetes.io/memory-pressure", "NoSchedule"),
    ("node.kubernetes.io/pid-pressure", "NoSchedule"),
    ("node.kubernetes.io/unschedulable", "NoSchedule"),
];

/// `AddOrUpdateDaemonPodTolerations`: each `Exists` toleration added unless the spec already
/// has it (`AddOrUpdateTolerationInPodSpec` replaces an equal one in place).
pub fn add_daemon_pod_tolerations(spec: &mut Value) {
    let host_network = spec.get("hostNetwork").and_then(Value::as_bool).unwrap_or(false);
    let mut wanted: Vec<(&str, &str)> = DAEMON_TOLERATIONS.to_vec();
    if host_network {
        wanted.push(("node.kubernetes.io/network-unavailable", "NoSchedule"));
    }
    let Some(obj) = spec.as_object_mut() else { return };
    let tols = obj.entry("tolerations").or_insert_with(|| json!([]));
    let Some(arr) = tols.as_array_mut() else { return };
    for (key, effect) in wanted {
        let t = json!({"key": key, "operator": "Exists", "effect": effect});
        match arr.iter().position(|x| x == &t) {
            Some(i) => arr[i] = t,
            None => arr.push(t),
        }
    }
}

/// `ReplaceDaemonSetPodNodeNameNodeAffinity`: the required node affinity becomes exactly one
/// term, `metadata.name In [node]`; preferred terms and other affinities stay.
pub fn replace_node_name_affinity(spec: &mut Value, node: &str) {
    let term = json!({"matchFields": [{"key": "metadata.name", "operator": "In", "values": [node]}]});
    let Some(obj) = spec.as_object_mut() else { return };
    let affinity = obj.entry("affinity").or_insert_with(|| json!({}));
    if !affinity.is_object() {
        *affinity = json!({});
    }
    let na = affinity.as_object_mut().expect("object").entry("nodeAffinity").or_insert_with(|| json!({}));
    if !na.is_object() {
        *na = json!({});
    }
    na["requiredDuringSchedulingIgnoredDuringExecution"] = json!({"nodeSelectorTerms": [term]});
}

/// `GetTemplateGeneration`: the annotation the API server keeps (`None` when unparseable).
pub fn template_generation(ds: &Value) -> Option<i64> {
    meta::get_str(ds, &["metadata", "annotations", DS_TEMPLATE_GENERATION]).parse().ok()
}

/// `CreatePodTemplate`: the DaemonSet's template with the daemon tolerations, the template
/// generation and the revision hash as labels.
pub fn create_pod_template(ds: &Value, hash: &str) -> Value {
    let mut tpl = meta::get(ds, &["spec", "template"]).cloned().unwrap_or(json!({}));
    if tpl.get("spec").is_none() {
        tpl["spec"] = json!({});
    }
    add_daemon_pod_tolerations(&mut tpl["spec"]);
    if let Some(g) = template_generation(ds) {
        meta::set(&mut tpl, &["metadata", "labels", TEMPLATE_GENERATION_LABEL], json!(g.to_string()));
    }
    if !hash.is_empty() {
        meta::set(&mut tpl, &["metadata", "labels", REVISION_HASH_LABEL], json!(hash));
    }
    tpl
}

/// `IsPodUpdated`: the Pod carries the current revision hash, or the current template
/// generation.
pub fn is_pod_updated(pod: &Value, hash: &str, generation: Option<i64>) -> bool {
    let labels = |k: &str| meta::get_str(pod, &["metadata", "labels", k]).to_string();
    let template_matches = generation.map(|g| labels(TEMPLATE_GENERATION_LABEL) == g.to_string()).unwrap_or(false);
    let hash_matches = !hash.is_empty() && labels(REVISION_HASH_LABEL) == hash;
    hash_matches || template_matches
}

/// `GetTargetNodeName`: `spec.nodeName`, or for a Pod not yet bound the node its
/// `metadata.name` affinity names.
pub fn target_node_name(pod: &Value) -> Option<String> {
    let n = meta::get_str(pod, &["spec", "nodeName"]);
    if !n.is_empty() {
        return Some(n.to_string());
    }
    let terms = meta::get(pod, &["spec", "affinity", "nodeAffinity", "requiredDuringSchedulingIgnoredDuringExecution", "nodeSelectorTerms"])?.as_array()?;
    for t in terms {
        for f in meta::get_array(t, &["matchFields"]) {
            if meta::get_str(f, &["key"]) == "metadata.name" && meta::get_str(f, &["operator"]) == "In" {
                if let Some(v) = meta::get_array(f, &["values"]).first().and_then(Value::as_str) {
                    return Some(v.to_string());
                }
            }
        }
    }
    None
}

/// Where a DaemonSet's Pod belongs on a node (`NodeShouldRunDaemonPod`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Eligibility {
    /// A Pod should be created here if there is none.
    pub should_run: bool,
    /// A Pod already here may stay (it tolerates the NoExecute taints).
    pub should_continue_running: bool,
}

/// `NodeShouldRunDaemonPod`: the template's `nodeName` (if any) is this node, its nodeSelector
/// and required node affinity match, and (with the daemon tolerations added) every NoSchedule and
/// NoExecute taint is tolerated; a Pod already running stays unless a NoExecute taint is not.
pub fn node_should_run_daemon_pod(node: &Value, ds: &Value) -> Eligibility {
    let no = Eligibility { should_run: false, should_continue_running: false };
    let node_name = meta::name(node);
    let want = meta::get_str(ds, &["spec", "template", "spec", "nodeName"]);
    if !(want.is_empty() || want == node_name) {
        return no;
    }
    let mut spec = meta::get(ds, &["spec", "template", "spec"]).cloned().unwrap_or(json!({}));
    add_daemon_pod_tolerations(&mut spec);
    let pod = json!({"metadata": meta::get(ds, &["spec", "template", "metadata"]).cloned().unwrap_or(json!({})), "spec": spec});
    let ni = NodeInfo::from_node(std::rc::Rc::new(node.clone()));
    if !RequiredNodeAffinity::from_pod(&pod).matches(&ni.labels, ni.name()) {
        return no;
    }
    let tolerations: Vec<Toleration> = meta::get_array(&pod, &["spec", "tolerations"]).iter().map(Toleration::from_json).collect();
    let untolerated = |effects: &[&str]| {
        meta::get_array(node, &["spec", "taints"])
            .iter()
            .any(|t| effects.contains(&meta::get_str(t, &["effect"])) && !tolerations_tolerate_taint(&tolerations, &Taint::from_json(t)))
    };
    if untolerated(&["NoSchedule", "NoExecute"]) {
        return Eligibility { should_run: false, should_continue_running: !untolerated(&["NoExecute"]) };
    }
    Eligibility { should_run: true, should_continue_running: true }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(labels: Value, taints: Value) -> Value {
        json!({"metadata": {"name": "node-1", "labels": labels}, "spec": {"taints": taints}})
    }

    fn ds(pod_spec: Value) -> Value {
        json!({"metadata": {"name": "agent", "annotations": {DS_TEMPLATE_GENERATION: "1"}}, "spec": {"template": {"metadata": {"labels": {"app": "agent"}}, "spec": pod_spec}}})
    }

    /// Named table: which nodes a DaemonSet's Pod belongs on (`NodeShouldRunDaemonPod`).
    #[test]
    fn node_eligibility_table() {
        let plain = json!({"containers": [{"name": "a", "image": "busybox"}]});
        let cases = [
            ("a plain node", node(json!({}), json!([])), ds(plain.clone()), (true, true)),
            ("nodeSelector matches", node(json!({"disk": "ssd"}), json!([])), ds(json!({"nodeSelector": {"disk": "ssd"}})), (true, true)),
            ("nodeSelector does not match", node(json!({"disk": "hdd"}), json!([])), ds(json!({"nodeSelector": {"disk": "ssd"}})), (false, false)),
            ("the control plane's taint is not tolerated", node(json!({}), json!([{"key": "node-role.kubernetes.io/control-plane", "effect": "NoSchedule"}])), ds(plain.clone()), (false, true)),
            ("tolerating the control plane's taint", node(json!({}), json!([{"key": "node-role.kubernetes.io/control-plane", "effect": "NoSchedule"}])), ds(json!({"tolerations": [{"key": "node-role.kubernetes.io/control-plane", "operator": "Exists", "effect": "NoSchedule"}]})), (true, true)),
            ("a NoExecute taint evicts too", node(json!({}), json!([{"key": "dedicated", "value": "db", "effect": "NoExecute"}])), ds(plain.clone()), (false, false)),
            ("a PreferNoSchedule taint does not count", node(json!({}), json!([{"key": "dedicated", "effect": "PreferNoSchedule"}])), ds(plain.clone()), (true, true)),
            ("a not-ready node: tolerated by the daemon tolerations", node(json!({}), json!([{"key": "node.kubernetes.io/not-ready", "effect": "NoExecute"}])), ds(plain.clone()), (true, true)),
            ("a cordoned node: tolerated by the daemon tolerations", node(json!({}), json!([{"key": "node.kubernetes.io/unschedulable", "effect": "NoSchedule"}])), ds(plain.clone()), (true, true)),
            ("a template nodeName for another node", node(json!({}), json!([])), ds(json!({"nodeName": "node-2"})), (false, false)),
            (
                "required node affinity on a label",
                node(json!({"zone": "a"}), json!([])),
                ds(json!({"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [{"matchExpressions": [{"key": "zone", "operator": "In", "values": ["b"]}]}]}}}})),
                (false, false),
            ),
        ];
        for (name, n, d, (run, cont)) in cases {
            let got = node_should_run_daemon_pod(&n, &d);
            assert_eq!((got.should_run, got.should_continue_running), (run, cont), "{}", name);
        }
    }

    #[test]
    fn pod_template_gets_tolerations_labels_and_node_affinity() {
        let d = ds(json!({"hostNetwork": true, "tolerations": [{"key": "node.kubernetes.io/not-ready", "operator": "Exists", "effect": "NoExecute"}]}));
        let mut t = create_pod_template(&d, "6d4c8b9f7");
        assert_eq!(t["metadata"]["labels"], json!({"app": "agent", "controller-revision-hash": "6d4c8b9f7", "pod-template-generation": "1"}));
        let keys: Vec<&str> = t["spec"]["tolerations"].as_array().unwrap().iter().map(|x| x["key"].as_str().unwrap()).collect();
        assert_eq!(keys.len(), 7, "no duplicate not-ready, network-unavailable for hostNetwork: {:?}", keys);
        assert_eq!(keys[6], "node.kubernetes.io/network-unavailable");
        replace_node_name_affinity(&mut t["spec"], "node-2");
        assert_eq!(target_node_name(&json!({"spec": t["spec"]})), Some("node-2".to_string()));
        assert!(is_pod_updated(&json!({"metadata": {"labels": {"controller-revision-hash": "x", "pod-template-generation": "1"}}}), "y", Some(1)));
        assert!(!is_pod_updated(&json!({"metadata": {"labels": {"controller-revision-hash": "x", "pod-template-generation": "1"}}}), "y", Some(2)));
    }
}
