//! Field selectors: which fields of a kind a `fieldSelector` may name, and each field's value.
//!
//! Real counterparts: the `AddFieldLabelConversionFunc`s of `pkg/apis/core/v1/conversion.go`,
//! `pkg/apis/apps/v1/conversion.go` and `pkg/apis/batch/v1/conversion.go` (a label the kind
//! does not support is a 400 `field label not supported: LABEL`; kinds without one use
//! `runtime.DefaultMetaV1FieldSelectorConversion`), the registries' `ToSelectableFields` /
//! `GetAttrs` (`pkg/registry/core/pod/strategy.go` and the others: a field's value as a string,
//! `"false"` for an unset `spec.unschedulable`), and `k8s.io/apimachinery/pkg/fields`
//! (`ParseSelector`: `=`, `==`, `!=`, comma-separated, its parse error).
//!
//! What kubesim simplifies: no escaping of `,` `=` `!` in values (`\,`); `events.k8s.io` Events
//! select with core/v1's names.

use crate::api::meta;
use serde_json::Value;
use std::borrow::Cow;

/// One requirement: field, operator (`=` or `!=`), value.
pub type Requirement = (String, String, String);

/// `fields.ParseSelector` without the conversion: empty terms are skipped, a term without an
/// operator is kept as a requirement no object meets (use [`convert_field_selector`] to refuse it).
pub fn parse_field_selector(s: &str) -> Vec<Requirement> {
    s.split(',')
        .filter(|p| !p.is_empty())
        .filter_map(|p| {
            let (i, op) = p.char_indices().find_map(|(i, _)| ["!=", "==", "="].into_iter().find(|op| p[i..].starts_with(op)).map(|op| (i, op)))?;
            let (k, v) = (&p[..i], &p[i + op.len()..]);
            Some((k.to_string(), if op == "!=" { "!=" } else { "=" }.to_string(), v.to_string()))
        })
        .collect()
}

/// The fields `resource`'s conversion function accepts, or None for the default (only
/// `metadata.name` and `metadata.namespace`).
fn supported(resource: &str) -> Option<&'static [&'static str]> {
    Some(match resource {
        "pods" => &[
            "metadata.name",
            "metadata.namespace",
            "spec.nodeName",
            "spec.restartPolicy",
            "spec.schedulerName",
            "spec.serviceAccountName",
            "spec.hostNetwork",
            "status.phase",
            "status.podIP",
            "status.podIPs",
            "status.nominatedNodeName",
            "spec.host",
        ],
        "nodes" => &["metadata.name", "spec.unschedulable"],
        "events" => &[
            "involvedObject.kind",
            "involvedObject.namespace",
            "involvedObject.name",
            "involvedObject.uid",
            "involvedObject.apiVersion",
            "involvedObject.resourceVersion",
            "involvedObject.fieldPath",
            "reason",
            "reportingComponent",
            "source",
            "type",
            "metadata.namespace",
            "metadata.name",
        ],
        "namespaces" => &["status.phase", "metadata.name"],
        "secrets" => &["type", "metadata.namespace", "metadata.name"],
        "services" => &["metadata.namespace", "metadata.name", "spec.clusterIP", "spec.type"],
        "replicasets" => &["metadata.name", "metadata.namespace", "status.replicas"],
        "jobs" => &["metadata.name", "metadata.namespace", "status.successful"],
        _ => return None,
    })
}

/// Parses and converts a `fieldSelector` for `resource` as the list and watch handlers do: the
/// error is the text of the 400 BadRequest kube-apiserver answers.
pub fn convert_field_selector(resource: &str, s: &str) -> Result<Vec<Requirement>, String> {
    for part in s.split(',').filter(|p| !p.is_empty()) {
        if !part.contains('=') {
            return Err(format!("invalid selector: '{}'; can't understand '{}'", s, part));
        }
    }
    let mut reqs = parse_field_selector(s);
    for (label, _, _) in reqs.iter_mut() {
        match supported(resource) {
            Some(list) if list.contains(&label.as_str()) => {
                if label == "spec.host" {
                    *label = "spec.nodeName".into();
                }
            }
            Some(_) => return Err(format!("field label not supported: {}", label)),
            None if label == "metadata.name" || label == "metadata.namespace" => {}
            None => return Err(format!("\"{}\" is not a known field selector: only \"metadata.name\", \"metadata.namespace\"", label)),
        }
    }
    Ok(reqs)
}

/// A field's value as the registry's `GetAttrs` sets it (absent fields are `""`).
pub fn selectable_field<'a>(resource: &str, obj: &'a Value, label: &str) -> Cow<'a, str> {
    let s = |path: &[&str]| Cow::Borrowed(meta::get_str(obj, path));
    match (resource, label) {
        (_, "metadata.name") => s(&["metadata", "name"]),
        (_, "metadata.namespace") => s(&["metadata", "namespace"]),
        ("pods", "spec.hostNetwork") | ("nodes", "spec.unschedulable") => {
            let path: Vec<&str> = label.split('.').collect();
            Cow::Borrowed(if meta::get(obj, &path).and_then(Value::as_bool).unwrap_or(false) { "true" } else { "false" })
        }
        ("pods", "status.podIP") => Cow::Borrowed(meta::get_array(obj, &["status", "podIPs"]).first().and_then(|ip| ip.get("ip")).and_then(Value::as_str).unwrap_or_else(|| meta::get_str(obj, &["status", "podIP"]))),
        ("events", "source") => match meta::get_str(obj, &["source", "component"]) {
            "" => s(&["reportingComponent"]),
            c => Cow::Borrowed(c),
        },
        ("replicasets", "status.replicas") | ("jobs", "status.successful") => {
            let path: Vec<&str> = label.split('.').collect();
            Cow::Owned(meta::get_i64(obj, &path).unwrap_or(0).to_string())
        }
        _ => {
            let mut cur = Some(obj);
            for seg in label.split('.') {
                cur = cur.and_then(|c| c.get(seg));
            }
            match cur {
                Some(Value::String(v)) => Cow::Borrowed(v.as_str()),
                Some(Value::Number(n)) => Cow::Owned(n.to_string()),
                Some(Value::Bool(b)) => Cow::Borrowed(if *b { "true" } else { "false" }),
                _ => Cow::Borrowed(""),
            }
        }
    }
}

/// Whether `obj` (of `resource`) meets every requirement.
pub fn field_selector_matches(resource: &str, sel: &[Requirement], obj: &Value) -> bool {
    sel.iter().all(|(k, op, v)| {
        let eq = selectable_field(resource, obj, k) == v.as_str();
        if op == "!=" {
            !eq
        } else {
            eq
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn field_selector_splits_at_the_first_operator() {
        // found by fuzzing: `a=b==c` split at `==` (key `a=b`), which prints back as `a=b=c`
        let t = |k: &str, op: &str, v: &str| (k.to_string(), op.to_string(), v.to_string());
        assert_eq!(parse_field_selector("a=b==c"), vec![t("a", "=", "b==c")]);
        assert_eq!(parse_field_selector("a==b!=c"), vec![t("a", "=", "b!=c")]);
        assert_eq!(parse_field_selector("spec.nodeName=node-1,status.phase!=Failed,x,,metadata.name==p"), vec![t("spec.nodeName", "=", "node-1"), t("status.phase", "!=", "Failed"), t("metadata.name", "=", "p")]);
        assert_eq!(parse_field_selector("é!=ü=="), vec![t("é", "!=", "ü==")]);
    }

    /// The conversion functions' answers (pkg/apis/core/v1/conversion.go and the default).
    #[test]
    fn unsupported_labels_are_refused_with_upstreams_text() {
        let cases: &[(&str, &str, Result<(), &str>)] = &[
            ("nodes", "spec.unschedulable=false", Ok(())),
            ("nodes", "metadata.namespace=x", Err("field label not supported: metadata.namespace")),
            ("pods", "status.phase=Running,spec.nodeName=node-1", Ok(())),
            ("pods", "foo=bar", Err("field label not supported: foo")),
            ("services", "spec.type=NodePort", Ok(())),
            ("configmaps", "metadata.name=a", Ok(())),
            ("configmaps", "data.k=v", Err("\"data.k\" is not a known field selector: only \"metadata.name\", \"metadata.namespace\"")),
            ("deployments", "status.replicas=1", Err("\"status.replicas\" is not a known field selector: only \"metadata.name\", \"metadata.namespace\"")),
            ("pods", "spec.nodeName", Err("invalid selector: 'spec.nodeName'; can't understand 'spec.nodeName'")),
        ];
        for (resource, sel, want) in cases {
            let got = convert_field_selector(resource, sel).map(|_| ());
            assert_eq!(got, want.map_err(String::from), "{} {}", resource, sel);
        }
    }

    /// Values as GetAttrs computes them: unset booleans are "false", counts are decimal.
    #[test]
    fn selectable_values_follow_the_registries() {
        let node = json!({"metadata": {"name": "n"}, "spec": {}});
        assert!(field_selector_matches("nodes", &convert_field_selector("nodes", "spec.unschedulable=false").unwrap(), &node));
        assert!(!field_selector_matches("nodes", &convert_field_selector("nodes", "spec.unschedulable=true").unwrap(), &node));
        let pod = json!({"metadata": {"name": "p"}, "spec": {"nodeName": "node-1"}, "status": {"podIPs": [{"ip": "10.244.1.2"}]}});
        assert!(field_selector_matches("pods", &convert_field_selector("pods", "spec.host=node-1,status.podIP=10.244.1.2,spec.hostNetwork!=true").unwrap(), &pod));
        let rs = json!({"metadata": {"name": "r"}, "status": {}});
        assert!(field_selector_matches("replicasets", &convert_field_selector("replicasets", "status.replicas=0").unwrap(), &rs));
        let ev = json!({"metadata": {"name": "e"}, "reportingComponent": "kubelet", "source": {}});
        assert!(field_selector_matches("events", &convert_field_selector("events", "source=kubelet").unwrap(), &ev));
    }
}
