//! The content hash a generated ConfigMap's or Secret's name ends with (`-6b85g79g7g`).
//!
//! Upstream: kustomize `api/hasher/hasher.go` (`Hasher.Hash`, `encodeConfigMap`,
//! `encodeSecret`, `encode`). The JSON that is hashed holds the kind, the data (and
//! `binaryData`/`stringData` when present), a Secret's type — and a name that is always empty:
//! `getNodeValues` looks `metadata/name` up as one field name, which no object has, so two
//! generators with equal data and different names get the same suffix. kubesim keeps that.

use serde_json::{Map, Value};
use sha2::{Digest, Sha256};

/// `encode(hex256(…))`: the first ten hex digits, with 0, 1, 3, a and e replaced so that the
/// suffix has no vowel or digit that reads as one.
fn encode(bytes: &[u8]) -> String {
    let hex: String = Sha256::digest(bytes).iter().map(|b| format!("{:02x}", b)).collect();
    hex[..10]
        .chars()
        .map(|c| match c {
            '0' => 'g',
            '1' => 'h',
            '3' => 'k',
            'a' => 'm',
            'e' => 't',
            c => c,
        })
        .collect()
}

/// A field as `getNodeValues` reads it: a map as itself, anything absent as "".
fn field(obj: &Value, key: &str) -> Value {
    match obj.get(key) {
        Some(Value::Object(m)) => Value::Object(m.clone()),
        Some(Value::String(s)) => Value::String(s.clone()),
        Some(Value::Null) | None => Value::String(String::new()),
        Some(v) => Value::String(v.to_string()),
    }
}

/// The hash of a ConfigMap or Secret.
pub fn hash(obj: &Value) -> String {
    let mut m = Map::new();
    match obj.get("kind").and_then(Value::as_str) {
        Some("Secret") => {
            m.insert("kind".into(), "Secret".into());
            m.insert("type".into(), field(obj, "type"));
            m.insert("name".into(), "".into());
            m.insert("data".into(), field(obj, "data"));
            if let Some(sd @ Value::Object(_)) = obj.get("stringData") {
                m.insert("stringData".into(), sd.clone());
            }
        }
        _ => {
            m.insert("kind".into(), "ConfigMap".into());
            m.insert("name".into(), "".into());
            m.insert("data".into(), field(obj, "data"));
            if let Some(bd @ Value::Object(_)) = obj.get("binaryData") {
                m.insert("binaryData".into(), bd.clone());
            }
        }
    }
    encode(crate::controllers::statefulset::utils::go_marshal(&Value::Object(m)).as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Suffixes real `kubectl kustomize` (kustomize v5.5.0 and v5.8.1) printed for these
    /// generators.
    #[test]
    fn suffixes_match_kustomize() {
        let cases = [
            ("literals foo=bar baz=qux", json!({"kind": "ConfigMap", "metadata": {"name": "my-configmap"}, "data": {"foo": "bar", "baz": "qux"}}), "6b85g79g7g"),
            ("secret password=abc", json!({"kind": "Secret", "type": "Opaque", "metadata": {"name": "s"}, "data": {"password": "YWJj"}}), "m7m6g5hc9f"),
            ("the name is not hashed", json!({"kind": "ConfigMap", "metadata": {"name": "dev-cfg"}, "data": {"MODE": "prod"}}), "2h42td9ggm"),
        ];
        for (name, obj, want) in cases {
            assert_eq!(hash(&obj), want, "{}", name);
        }
    }
}
