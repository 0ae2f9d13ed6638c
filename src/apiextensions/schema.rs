//! A custom resource against its version's structural schema: pruning of unknown fields,
//! defaulting, and validation with upstream's messages.
//!
//! Real counterparts: apiextensions-apiserver `pkg/apiserver/schema/pruning/algorithm.go`
//! (`PruneWithOptions`: fields the schema does not specify are dropped unless
//! `x-kubernetes-preserve-unknown-fields`; the dropped paths, sorted, are the `unknown field`
//! errors of strict decoding), `pkg/apiserver/schema/defaulting/algorithm.go` (`Default`),
//! `pkg/apiserver/validation/validation.go` (`ValidateCustomResource`,
//! `kubeOpenAPIResultToFieldErrors`) over kube-openapi's `pkg/validation/validate` (type, string,
//! number, slice, enum and object validators, messages from `pkg/validation/errors/schema.go`),
//! and `pkg/apiserver/schema/cel` for `x-kubernetes-validations` ([`super::cel`]).
//!
//! What kubesim simplifies: errors on different properties come in property-name order (upstream
//! walks a Go map, so their order varies from request to request); `format` is not checked;
//! `x-kubernetes-list-type`/`map-keys` uniqueness, `x-kubernetes-embedded-resource` metadata
//! and `allOf`/`anyOf`/`oneOf`/`not` are not validated.

use crate::api::field::FieldError;
use crate::api::meta;
use serde_json::{Map, Value};

/// The JSON type name kube-openapi reports for a value (`"string"`, `"integer"`, …).
pub fn json_type(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

fn props(schema: &Value) -> Option<&Map<String, Value>> {
    schema.get("properties").and_then(Value::as_object)
}

fn flag(schema: &Value, key: &str) -> bool {
    schema.get(key).and_then(Value::as_bool).unwrap_or(false)
}

fn additional(schema: &Value) -> Option<&Value> {
    schema.get("additionalProperties").filter(|a| a.is_object())
}

/// `PruneWithOptions` on a whole object: `apiVersion`, `kind` and `metadata` are kept (metadata
/// is ObjectMeta's business); the paths dropped, sorted.
pub fn prune(schema: &Value, obj: &mut Value) -> Vec<String> {
    let mut dropped = Vec::new();
    if let Some(m) = obj.as_object_mut() {
        let keep = ["apiVersion", "kind", "metadata"];
        let specified = props(schema);
        let preserve = flag(schema, "x-kubernetes-preserve-unknown-fields");
        let keys: Vec<String> = m.keys().cloned().collect();
        for k in keys {
            if keep.contains(&k.as_str()) {
                continue;
            }
            match specified.and_then(|p| p.get(&k)) {
                Some(sub) => {
                    if let Some(v) = m.get_mut(&k) {
                        prune_node(sub, v, &k, &mut dropped);
                    }
                }
                None if preserve => {}
                None => {
                    m.remove(&k);
                    dropped.push(k);
                }
            }
        }
        // nulls of non-nullable fields without default go (`PruneNonNullableNullsWithoutDefaults`)
        drop_nulls(schema, obj);
    }
    dropped.sort();
    dropped
}

fn prune_node(schema: &Value, v: &mut Value, path: &str, dropped: &mut Vec<String>) {
    match v {
        Value::Object(m) => {
            if let Some(p) = props(schema) {
                let keys: Vec<String> = m.keys().cloned().collect();
                for k in keys {
                    let child = format!("{}.{}", path, k);
                    match p.get(&k) {
                        Some(sub) => {
                            if let Some(cv) = m.get_mut(&k) {
                                prune_node(sub, cv, &child, dropped);
                            }
                        }
                        None if flag(schema, "x-kubernetes-preserve-unknown-fields") => {}
                        None => {
                            m.remove(&k);
                            dropped.push(child);
                        }
                    }
                }
            } else if let Some(a) = additional(schema) {
                for (k, cv) in m.iter_mut() {
                    prune_node(a, cv, &format!("{}.{}", path, k), dropped);
                }
            } else if !flag(schema, "x-kubernetes-preserve-unknown-fields") && schema.get("type").and_then(Value::as_str) == Some("object") && schema.get("additionalProperties").is_none() {
                // an object schema with neither properties nor additionalProperties keeps nothing
                let keys: Vec<String> = m.keys().cloned().collect();
                for k in keys {
                    m.remove(&k);
                    dropped.push(format!("{}.{}", path, k));
                }
            }
        }
        Value::Array(items) => {
            if let Some(is) = schema.get("items").filter(|i| i.is_object()) {
                for (i, it) in items.iter_mut().enumerate() {
                    prune_node(is, it, &format!("{}[{}]", path, i), dropped);
                }
            }
        }
        _ => {}
    }
}

fn drop_nulls(schema: &Value, v: &mut Value) {
    let Some(m) = v.as_object_mut() else { return };
    let Some(p) = props(schema) else { return };
    let keys: Vec<String> = m.keys().cloned().collect();
    for k in keys {
        let Some(sub) = p.get(&k) else { continue };
        let is_null = m.get(&k).map(Value::is_null).unwrap_or(false);
        if is_null && !flag(sub, "nullable") && sub.get("default").is_none() {
            m.remove(&k);
        } else if let Some(cv) = m.get_mut(&k) {
            drop_nulls(sub, cv);
        }
    }
}

/// `Default`: a property's `default` where the object lacks it, for objects present (and the
/// items of arrays), depth first.
pub fn default(schema: &Value, v: &mut Value) {
    match v {
        Value::Object(m) => {
            if let Some(p) = props(schema) {
                for (k, sub) in p {
                    if !m.contains_key(k) {
                        if let Some(d) = sub.get("default") {
                            m.insert(k.clone(), d.clone());
                        }
                    }
                }
                for (k, sub) in p {
                    if let Some(cv) = m.get_mut(k) {
                        default(sub, cv);
                    }
                }
            } else if let Some(a) = additional(schema) {
                for cv in m.values_mut() {
                    default(a, cv);
                }
            }
        }
        Value::Array(items) => {
            if let Some(is) = schema.get("items").filter(|i| i.is_object()) {
                for it in items {
                    default(is, it);
                }
            }
        }
        _ => {}
    }
}

/// `ValidateCustomResource`: the object against the schema (metadata, which a structural schema
/// may not describe beyond name and generateName, is ObjectMeta's to validate), then its CEL
/// rules when nothing blocking failed.
pub fn validate(schema: &Value, obj: &Value) -> Vec<FieldError> {
    let mut errs = Vec::new();
    node(schema, obj, "", &mut errs);
    if !has_rules(schema) {
        return errs;
    }
    // CEL runs only when no NotSupported/Required/TooLong/TooMany/type error blocked it
    let blocking = errs.iter().any(|e| {
        use crate::api::field::ErrorType::*;
        matches!(e.error_type, NotSupported | Required | TooLong | TooMany) || e.detail.contains(" must be of type ")
    });
    if blocking {
        errs.push(FieldError::invalid("<nil>", Value::Null, "some validation rules were not checked because the object was invalid; correct the existing errors to complete validation"));
    } else {
        super::cel::validate_rules(schema, obj, "", &mut errs);
    }
    errs
}

fn has_rules(schema: &Value) -> bool {
    if schema.get("x-kubernetes-validations").and_then(Value::as_array).map(|a| !a.is_empty()).unwrap_or(false) {
        return true;
    }
    props(schema).map(|p| p.values().any(has_rules)).unwrap_or(false) || schema.get("items").map(has_rules).unwrap_or(false) || additional(schema).map(has_rules).unwrap_or(false)
}

fn child(path: &str, k: &str) -> String {
    if path.is_empty() {
        k.to_string()
    } else {
        format!("{}.{}", path, k)
    }
}

/// kube-openapi's number formatting in messages (`%v` of a float64 that holds an integer prints
/// without a fraction).
fn num(v: &Value) -> String {
    match v.as_f64() {
        Some(f) if f.fract() == 0.0 && f.abs() < 1e15 => format!("{}", f as i64),
        Some(f) => format!("{}", f),
        None => v.to_string(),
    }
}

fn node(schema: &Value, v: &Value, path: &str, errs: &mut Vec<FieldError>) {
    let at = if path.is_empty() { "<nil>" } else { path };
    let ty = schema.get("type").and_then(Value::as_str).unwrap_or("");
    if v.is_null() {
        if !flag(schema, "nullable") && !ty.is_empty() {
            errs.push(FieldError::invalid(at, Value::String("null".into()), &format!("{} in body must be of type {}: \"null\"", path, ty)));
        }
        return;
    }
    let actual = json_type(v);
    let int_or_string = flag(schema, "x-kubernetes-int-or-string");
    let type_ok = if int_or_string {
        matches!(actual, "integer" | "string")
    } else {
        match ty {
            "" => true,
            "number" => matches!(actual, "integer" | "number"),
            t => t == actual,
        }
    };
    if !type_ok {
        let want = if int_or_string { "integer,string" } else { ty };
        errs.push(FieldError::invalid(at, Value::String(actual.into()), &format!("{} in body must be of type {}: {}", path, want, crate::api::field::go_quote(actual))));
        return;
    }
    // string
    if let Some(s) = v.as_str() {
        let len = s.chars().count() as i64;
        if let Some(max) = schema.get("maxLength").and_then(Value::as_i64) {
            if len > max {
                errs.push(FieldError::too_long(at, max));
            }
        }
        if let Some(min) = schema.get("minLength").and_then(Value::as_i64) {
            if len < min {
                errs.push(FieldError::invalid(at, v.clone(), &format!("{} in body should be at least {} chars long", path, min)));
            }
        }
        if let Some(p) = schema.get("pattern").and_then(Value::as_str) {
            let ok = crate::api::regexp::Regexp::compile(p).ok().and_then(|r| r.is_match(s)).unwrap_or(false);
            if !ok {
                errs.push(FieldError::invalid(at, v.clone(), &format!("{} in body should match '{}'", path, p)));
            }
        }
    }
    // number
    if let Some(f) = v.as_f64() {
        if let Some(min) = schema.get("minimum").and_then(Value::as_f64) {
            let exclusive = flag(schema, "exclusiveMinimum");
            if (exclusive && f <= min) || (!exclusive && f < min) {
                let rel = if exclusive { "greater than" } else { "greater than or equal to" };
                errs.push(FieldError::invalid(at, v.clone(), &format!("{} in body should be {} {}", path, rel, num(&schema["minimum"]))));
            }
        }
        if let Some(max) = schema.get("maximum").and_then(Value::as_f64) {
            let exclusive = flag(schema, "exclusiveMaximum");
            if (exclusive && f >= max) || (!exclusive && f > max) {
                let rel = if exclusive { "less than" } else { "less than or equal to" };
                errs.push(FieldError::invalid(at, v.clone(), &format!("{} in body should be {} {}", path, rel, num(&schema["maximum"]))));
            }
        }
        if let Some(mo) = schema.get("multipleOf").and_then(Value::as_f64) {
            if mo > 0.0 && (f / mo).fract() != 0.0 {
                errs.push(FieldError::invalid(at, v.clone(), &format!("{} in body should be a multiple of {}", path, num(&schema["multipleOf"]))));
            }
        }
    }
    // slice
    if let Some(items) = v.as_array() {
        let n = items.len() as i64;
        if let Some(max) = schema.get("maxItems").and_then(Value::as_i64) {
            if n > max {
                errs.push(FieldError::too_many(at, n, max));
            }
        }
        if let Some(min) = schema.get("minItems").and_then(Value::as_i64) {
            if n < min {
                errs.push(FieldError::invalid(at, serde_json::json!(n), &format!("{} in body should have at least {} items", path, min)));
            }
        }
    }
    // enum
    if let Some(allowed) = schema.get("enum").and_then(Value::as_array) {
        if !allowed.contains(v) {
            let names: Vec<String> = allowed.iter().map(|a| a.as_str().map(String::from).unwrap_or_else(|| a.to_string())).collect();
            let refs: Vec<&str> = names.iter().map(String::as_str).collect();
            errs.push(FieldError::not_supported(at, v.clone(), &refs));
        }
    }
    // object
    if let Some(m) = v.as_object() {
        for r in meta::get_array(schema, &["required"]).iter().filter_map(Value::as_str) {
            if !m.contains_key(r) {
                errs.push(FieldError::required(&child(path, r), ""));
            }
        }
        if let Some(max) = schema.get("maxProperties").and_then(Value::as_i64) {
            if m.len() as i64 > max {
                errs.push(FieldError::too_many(at, m.len() as i64, max));
            }
        }
        if let Some(p) = props(schema) {
            for (k, cv) in m {
                if let Some(sub) = p.get(k) {
                    node(sub, cv, &child(path, k), errs);
                }
            }
        } else if let Some(a) = additional(schema) {
            for (k, cv) in m {
                node(a, cv, &child(path, k), errs);
            }
        }
    }
    if let (Some(items), Some(is)) = (v.as_array(), schema.get("items").filter(|i| i.is_object())) {
        for (i, it) in items.iter().enumerate() {
            node(is, it, &format!("{}[{}]", path, i), errs);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn crontab_schema() -> Value {
        json!({"type": "object", "properties": {"spec": {"type": "object", "properties": {
            "cronSpec": {"type": "string", "pattern": "^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$"},
            "image": {"type": "string", "maxLength": 20},
            "replicas": {"type": "integer", "minimum": 1, "maximum": 10},
            "mode": {"type": "string", "enum": ["Always", "Never"], "default": "Always"},
            "ports": {"type": "array", "maxItems": 2, "items": {"type": "integer"}},
            "port": {"x-kubernetes-int-or-string": true},
            "extra": {"type": "object", "x-kubernetes-preserve-unknown-fields": true}
        }, "required": ["cronSpec"]}}})
    }

    fn messages(errs: &[FieldError]) -> Vec<String> {
        errs.iter().map(|e| e.to_string()).collect()
    }

    /// Named table: the CRD documentation's validation examples and kube-openapi's messages as
    /// apiextensions-apiserver maps them (`kubeOpenAPIResultToFieldErrors`).
    #[test]
    fn custom_resource_validation_messages() {
        let s = crontab_schema();
        let rows: Vec<(&str, Value, Vec<&str>)> = vec![
            ("valid", json!({"spec": {"cronSpec": "* * * * */5", "replicas": 3}}), vec![]),
            (
                "docs: pattern and maximum",
                json!({"spec": {"cronSpec": "* * * *", "replicas": 15}}),
                vec![
                    r#"spec.cronSpec: Invalid value: "* * * *": spec.cronSpec in body should match '^(\d+|\*)(/\d+)?(\s+(\d+|\*)(/\d+)?){4}$'"#,
                    "spec.replicas: Invalid value: 15: spec.replicas in body should be less than or equal to 10",
                ],
            ),
            ("type", json!({"spec": {"cronSpec": "* * * * *", "replicas": "three"}}), vec![r#"spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string""#]),
            ("a float for an integer", json!({"spec": {"cronSpec": "* * * * *", "replicas": 1.5}}), vec![r#"spec.replicas: Invalid value: "number": spec.replicas in body must be of type integer: "number""#]),
            ("required", json!({"spec": {"replicas": 2}}), vec!["spec.cronSpec: Required value"]),
            ("minimum", json!({"spec": {"cronSpec": "* * * * *", "replicas": 0}}), vec!["spec.replicas: Invalid value: 0: spec.replicas in body should be greater than or equal to 1"]),
            ("enum", json!({"spec": {"cronSpec": "* * * * *", "mode": "Sometimes"}}), vec![r#"spec.mode: Unsupported value: "Sometimes": supported values: "Always", "Never""#]),
            ("maxLength", json!({"spec": {"cronSpec": "* * * * *", "image": "a-very-long-image-name:1.0"}}), vec!["spec.image: Too long: may not be more than 20 bytes"]),
            ("maxItems", json!({"spec": {"cronSpec": "* * * * *", "ports": [1, 2, 3]}}), vec!["spec.ports: Too many: 3: must have at most 2 items"]),
            ("items' type", json!({"spec": {"cronSpec": "* * * * *", "ports": [1, "x"]}}), vec![r#"spec.ports[1]: Invalid value: "string": spec.ports[1] in body must be of type integer: "string""#]),
            ("int-or-string", json!({"spec": {"cronSpec": "* * * * *", "port": true}}), vec![r#"spec.port: Invalid value: "boolean": spec.port in body must be of type integer,string: "boolean""#]),
            ("preserve-unknown-fields", json!({"spec": {"cronSpec": "* * * * *", "extra": {"anything": [1]}}}), vec![]),
        ];
        for (name, obj, want) in rows {
            assert_eq!(messages(&validate(&s, &obj)), want, "{}", name);
        }
    }

    #[test]
    fn pruning_and_defaulting() {
        let s = crontab_schema();
        let mut obj = json!({"apiVersion": "stable.example.com/v1", "kind": "CronTab", "metadata": {"name": "x"}, "someRandomField": 42, "spec": {"cronSpec": "* * * * *", "foo": 1, "extra": {"kept": true}, "replicas": null}});
        assert_eq!(prune(&s, &mut obj), vec!["someRandomField".to_string(), "spec.foo".to_string()]);
        default(&s, &mut obj);
        assert_eq!(obj, json!({"apiVersion": "stable.example.com/v1", "kind": "CronTab", "metadata": {"name": "x"}, "spec": {"cronSpec": "* * * * *", "extra": {"kept": true}, "mode": "Always"}}));
    }
}
