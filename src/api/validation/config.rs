//! `pkg/apis/core/validation/validation.go`: ConfigMaps (`ValidateConfigMap`,
//! `ValidateConfigMapUpdate`), Secrets (`ValidateSecret`, `ValidateSecretUpdate`) and
//! ServiceAccounts (`ValidateServiceAccount`, `ValidateServiceAccountUpdate`).
//!
//! kubesim validates the v1 object (data as base64 strings the strict decoder has already
//! checked); sizes count the decoded bytes, as upstream counts the internal `[]byte`. Keys are
//! checked in sorted order (upstream ranges over a Go map).

use super::*;
use crate::api::base64;

/// `core.MaxSecretSize`: the most a ConfigMap's or a Secret's data may hold.
pub const MAX_SECRET_SIZE: i64 = 1024 * 1024;

/// The decoded length of a base64 value (a value the decoder let through always decodes).
fn decoded_len(v: &Value) -> i64 {
    v.as_str().and_then(base64::decode).map(|b| b.len() as i64).unwrap_or(0)
}

fn entries(obj: &Value, field: &str) -> Vec<(String, Value)> {
    obj.get(field).and_then(Value::as_object).map(|m| m.iter().map(|(k, v)| (k.clone(), v.clone())).collect()).unwrap_or_default()
}

/// `ValidateConfigMap`.
pub fn validate_config_map(obj: &Value) -> Errs {
    let mut errs = validate_object_meta(obj, true, name_is_dns_subdomain);
    let data = entries(obj, "data");
    let binary = entries(obj, "binaryData");
    let mut total: i64 = 0;
    for (k, v) in &data {
        for m in config_map_key_errors(k) {
            errs.push(FieldError::invalid(&format!("data[{}]", k), json!(k), &m));
        }
        if binary.iter().any(|(b, _)| b == k) {
            errs.push(FieldError::invalid(&format!("data[{}]", k), json!(k), "duplicate of key present in binaryData"));
        }
        total += v.as_str().map(|s| s.len() as i64).unwrap_or(0);
    }
    for (k, v) in &binary {
        for m in config_map_key_errors(k) {
            errs.push(FieldError::invalid(&format!("binaryData[{}]", k), json!(k), &m));
        }
        total += decoded_len(v);
    }
    if total > MAX_SECRET_SIZE {
        // field.NewPath(""): a root path with no name prints as "[]"
        errs.push(FieldError::too_long("[]", MAX_SECRET_SIZE));
    }
    errs
}

fn immutable(obj: &Value) -> bool {
    obj.get("immutable").and_then(Value::as_bool).unwrap_or(false)
}

/// The `immutable` rules both kinds share: an object once immutable keeps `immutable: true` and
/// its data.
fn immutable_errors(new: &Value, old: &Value, fields: &[&str]) -> Errs {
    let mut errs = Vec::new();
    if !immutable(old) {
        return errs;
    }
    const MSG: &str = "field is immutable when `immutable` is set";
    if !immutable(new) {
        errs.push(FieldError::forbidden("immutable", MSG));
    }
    for f in fields {
        if !semantic_eq(new.get(*f), old.get(*f)) {
            errs.push(FieldError::forbidden(f, MSG));
        }
    }
    errs
}

/// `ValidateConfigMapUpdate`.
pub fn validate_config_map_update(new: &Value, old: &Value) -> Errs {
    let mut errs = validate_object_meta_update(new, old);
    errs.extend(immutable_errors(new, old, &["data", "binaryData"]));
    errs.extend(validate_config_map(new));
    errs
}

/// `ValidateSecret`, with the keys each built-in type requires.
pub fn validate_secret(obj: &Value) -> Errs {
    let mut errs = validate_object_meta(obj, true, name_is_dns_subdomain);
    let data = entries(obj, "data");
    let mut total: i64 = 0;
    for (k, v) in &data {
        for m in config_map_key_errors(k) {
            errs.push(FieldError::invalid(&format!("data[{}]", k), json!(k), &m));
        }
        total += decoded_len(v);
    }
    if total > MAX_SECRET_SIZE {
        errs.push(FieldError::too_long("data", MAX_SECRET_SIZE));
    }
    let has = |k: &str| data.iter().any(|(d, _)| d == k);
    let value = |k: &str| data.iter().find(|(d, _)| d == k).and_then(|(_, v)| v.as_str().and_then(base64::decode));
    match meta_type(obj) {
        "kubernetes.io/service-account-token" => {
            let sa = obj.pointer("/metadata/annotations/kubernetes.io~1service-account.name").and_then(Value::as_str).unwrap_or("");
            if sa.is_empty() {
                errs.push(FieldError::required("metadata.annotations[kubernetes.io/service-account.name]", ""));
            }
        }
        t @ ("kubernetes.io/dockercfg" | "kubernetes.io/dockerconfigjson") => {
            let key = if t == "kubernetes.io/dockercfg" { ".dockercfg" } else { ".dockerconfigjson" };
            match value(key) {
                None if !has(key) => errs.push(FieldError::required(&format!("data[{}]", key), "")),
                v => {
                    let bytes = v.unwrap_or_default();
                    if let Some(e) = go_unmarshal_map_error(&bytes) {
                        errs.push(FieldError::invalid(&format!("data[{}]", key), json!("<secret contents redacted>"), &e));
                    }
                }
            }
        }
        "kubernetes.io/basic-auth" => {
            // upstream builds these paths as field.NewPath("data[%s]").Key(...): printed as is
            if !has("username") && !has("password") {
                errs.push(FieldError::required("data[%s][username]", ""));
                errs.push(FieldError::required("data[%s][password]", ""));
            }
        }
        "kubernetes.io/ssh-auth" => {
            if value("ssh-privatekey").map(|v| v.is_empty()).unwrap_or(true) {
                errs.push(FieldError::required("data[%s][ssh-privatekey]", ""));
            }
        }
        "kubernetes.io/tls" => {
            for k in ["tls.crt", "tls.key"] {
                if !has(k) {
                    errs.push(FieldError::required(&format!("data[{}]", k), ""));
                }
            }
        }
        _ => {}
    }
    errs
}

fn meta_type(obj: &Value) -> &str {
    obj.get("type").and_then(Value::as_str).unwrap_or("")
}

/// What `json.Unmarshal(b, &map[string]interface{}{})` returns for bytes that are not a JSON
/// object.
fn go_unmarshal_map_error(b: &[u8]) -> Option<String> {
    if let Some(e) = crate::api::gojson::syntax_error(b) {
        return Some(e);
    }
    match serde_json::from_slice::<Value>(b) {
        Ok(Value::Object(_)) | Ok(Value::Null) => None,
        Ok(v) => Some(format!("json: cannot unmarshal {} into Go value of type map[string]interface {{}}", crate::api::gojson::json_type_name(&v))),
        Err(e) => Some(e.to_string()),
    }
}

/// `ValidateSecretUpdate`: the type never changes; an immutable Secret keeps its data.
pub fn validate_secret_update(new: &Value, old: &Value) -> Errs {
    let mut errs = validate_object_meta_update(new, old);
    if meta_type(new) != meta_type(old) {
        errs.push(FieldError::invalid("type", json!(meta_type(new)), FIELD_IMMUTABLE_ERROR_MSG));
    }
    errs.extend(immutable_errors(new, old, &["data"]));
    errs.extend(validate_secret(new));
    errs
}

/// `ValidateServiceAccount`: the name is a DNS subdomain.
pub fn validate_service_account(obj: &Value) -> Errs {
    validate_object_meta(obj, true, name_is_dns_subdomain)
}

/// `ValidateServiceAccountUpdate`.
pub fn validate_service_account_update(new: &Value, old: &Value) -> Errs {
    let mut errs = validate_object_meta_update(new, old);
    errs.extend(validate_service_account(new));
    errs
}

#[cfg(test)]
mod tests {
    use super::*;

    fn msgs(errs: &Errs) -> Vec<String> {
        errs.iter().map(|e| format!("{}: {}", e.field, e.error_body())).collect()
    }

    /// Named cases after `TestValidateConfigMap`, `TestValidateSecret` and their update tests
    /// in `pkg/apis/core/validation/validation_test.go`.
    #[test]
    fn config_map_and_secret_cases() {
        let cm = |data: Value| json!({"metadata": {"name": "c", "namespace": "default"}, "data": data});
        let cases: Vec<(&str, Value, Vec<&str>)> = vec![
            ("valid", cm(json!({"key": "value", "key.name": "x", "KEY_NAME": "y"})), vec![]),
            ("invalid key", cm(json!({"a b": "v"})), vec!["data[a b]: Invalid value: \"a b\": a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')"]),
            ("leading dots", cm(json!({"..a": "v"})), vec!["data[..a]: Invalid value: \"..a\": must not start with '..'"]),
            ("too big", cm(json!({"big": "x".repeat(1024 * 1024 + 1)})), vec!["[]: Too long: may not be more than 1048576 bytes"]),
            (
                "duplicate in binaryData",
                json!({"metadata": {"name": "c", "namespace": "default"}, "data": {"k": "v"}, "binaryData": {"k": "dg=="}}),
                vec!["data[k]: Invalid value: \"k\": duplicate of key present in binaryData"],
            ),
        ];
        for (name, obj, want) in cases {
            assert_eq!(msgs(&validate_config_map(&obj)), want, "{name}");
        }
        let secret = |ty: &str, data: Value| json!({"metadata": {"name": "s", "namespace": "default"}, "type": ty, "data": data});
        let cases: Vec<(&str, Value, Vec<&str>)> = vec![
            ("opaque", secret("Opaque", json!({"a": "YQ=="})), vec![]),
            ("tls missing both", secret("kubernetes.io/tls", json!({})), vec!["data[tls.crt]: Required value", "data[tls.key]: Required value"]),
            ("basic-auth empty", secret("kubernetes.io/basic-auth", json!({})), vec!["data[%s][username]: Required value", "data[%s][password]: Required value"]),
            ("basic-auth username only", secret("kubernetes.io/basic-auth", json!({"username": "YQ=="})), vec![]),
            ("ssh-auth empty key", secret("kubernetes.io/ssh-auth", json!({"ssh-privatekey": ""})), vec!["data[%s][ssh-privatekey]: Required value"]),
            ("dockerconfigjson missing", secret("kubernetes.io/dockerconfigjson", json!({})), vec!["data[.dockerconfigjson]: Required value"]),
            (
                "dockerconfigjson not json",
                secret("kubernetes.io/dockerconfigjson", json!({".dockerconfigjson": base64::encode(b"{bad")})),
                vec!["data[.dockerconfigjson]: Invalid value: \"<secret contents redacted>\": invalid character 'b' looking for beginning of object key string"],
            ),
            ("sa token without name", secret("kubernetes.io/service-account-token", json!({})), vec!["metadata.annotations[kubernetes.io/service-account.name]: Required value"]),
            ("too big", secret("Opaque", json!({"big": base64::encode(&vec![b'x'; 1024 * 1024 + 1])})), vec!["data: Too long: may not be more than 1048576 bytes"]),
        ];
        for (name, obj, want) in cases {
            assert_eq!(msgs(&validate_secret(&obj)), want, "{name}");
        }
    }

    #[test]
    fn immutable_objects_keep_their_data() {
        let old = json!({"metadata": {"name": "c", "namespace": "default", "resourceVersion": "1"}, "immutable": true, "data": {"a": "1"}});
        let mut new = old.clone();
        new["data"]["a"] = json!("2");
        assert_eq!(msgs(&validate_config_map_update(&new, &old)), vec!["data: Forbidden: field is immutable when `immutable` is set"]);
        new["immutable"] = json!(false);
        assert_eq!(msgs(&validate_config_map_update(&new, &old)).len(), 2);
        let s_old = json!({"metadata": {"name": "s", "namespace": "default", "resourceVersion": "1"}, "type": "Opaque", "data": {}});
        let mut s_new = s_old.clone();
        s_new["type"] = json!("kubernetes.io/basic-auth");
        s_new["data"] = json!({"username": "YQ=="});
        assert_eq!(msgs(&validate_secret_update(&s_new, &s_old)), vec!["type: Invalid value: \"kubernetes.io/basic-auth\": field is immutable"]);
    }
}
