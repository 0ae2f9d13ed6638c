//! `pkg/apis/core/validation/validation.go`: `ValidateNamespace` and `ValidateNode`.

use super::*;
// =============================================================================================
// Namespace, Node
// =============================================================================================

/// `ValidateNamespace`: cluster-scoped meta with a DNS-label name; `spec.finalizers` must be
/// qualified names or standard finalizers.
pub fn validate_namespace(obj: &Value) -> Vec<FieldError> {
    let mut errs = validate_object_meta(obj, false, name_is_dns_label);
    let path = Path::new("spec").child("finalizers");
    for f in get_arr(get(Some(obj), "spec"), "finalizers") {
        let f = f.as_str().unwrap_or("");
        for m in qualified_name_errors(f) {
            errs.push(FieldError::invalid(path.as_str(), json!(f), &m));
        }
        errs.extend(kube_finalizer_name_errors(f, &path));
    }
    errs
}

/// `ValidateNode`: cluster-scoped meta with a DNS-subdomain name, taints (reported under
/// `metadata.taints`, an upstream quirk) and non-negative capacity/allocatable quantities.
/// Pod CIDRs are not validated.
pub fn validate_node(obj: &Value) -> Vec<FieldError> {
    let mut errs = validate_object_meta(obj, false, name_is_dns_subdomain);
    let taints = get_arr(get(Some(obj), "spec"), "taints");
    if !taints.is_empty() {
        errs.extend(validate_node_taints(
            taints,
            &Path::new("metadata").child("taints"),
        ));
    }
    let status = get(Some(obj), "status");
    for section in ["capacity", "allocatable"] {
        if let Some(Value::Object(m)) = get(status, section) {
            for (k, v) in m {
                let p = Path::new("status").child(section).child(k);
                if let Some(q) = parse_quantity_at(v, &p, &mut errs) {
                    if q.nanos() < 0 {
                        errs.push(FieldError::invalid(
                            p.as_str(),
                            json!(q.to_string()),
                            IS_NEGATIVE_ERROR_MSG,
                        ));
                    }
                    if (INTEGER_RESOURCES.contains(&k.as_str()) || is_extended_resource(k))
                        && q.nanos() % 1_000_000_000 != 0
                    {
                        errs.push(FieldError::invalid(
                            p.as_str(),
                            json!(q.to_string()),
                            "must be an integer",
                        ));
                    }
                }
            }
        }
    }
    errs
}

/// `validateNodeTaints`.
pub(super) fn validate_node_taints(taints: &[Value], path: &Path) -> Errs {
    let mut errs = Vec::new();
    let mut unique: BTreeSet<(String, String)> = BTreeSet::new();
    for (i, t) in taints.iter().enumerate() {
        let p = path.index(i);
        let key = get_str(Some(t), "key");
        let value = get_str(Some(t), "value");
        let effect = get_str(Some(t), "effect");
        errs.extend(validate_label_name(key, &p.child("key")));
        let msgs = label_value_errors(value);
        if !msgs.is_empty() {
            errs.push(FieldError::invalid(
                p.child("value").as_str(),
                json!(value),
                &msgs.join(";"),
            ));
        }
        errs.extend(validate_taint_effect(effect, false, &p.child("effect")));
        if !unique.insert((effect.to_string(), key.to_string())) {
            let rendered = go_struct(&[
                ("Key", Some(go_json(&json!(key)))),
                ("Value", Some(go_json(&json!(value)))),
                ("Effect", Some(go_json(&json!(effect)))),
                (
                    "TimeAdded",
                    Some(
                        get(Some(t), "timeAdded")
                            .map(go_json)
                            .unwrap_or_else(|| "null".into()),
                    ),
                ),
            ]);
            errs.push(
                FieldError::duplicate(p.as_str(), t.clone())
                    .with_detail("taints must be unique by key and effect pair")
                    .with_raw_value(rendered),
            );
        }
    }
    errs
}

