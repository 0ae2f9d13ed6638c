//! The protobuf form of a Swagger 2.0 document, `openapi.v2.Document` of gnostic's
//! `openapiv2/OpenAPIv2.proto` — what `/openapi/v2` answers to
//! `Accept: application/com.github.proto-openapi.spec.v2@v1.0+protobuf`, the only form client-go's
//! `OpenAPISchema()` (kubectl `explain --output plaintext-openapiv2`, `apply`'s patch computation)
//! asks for.
//!
//! The encoder walks the JSON document and writes the fields kubesim's documents use; each JSON
//! key maps to its proto field number below. Values of vendor extensions (`x-kubernetes-…`) and of
//! `default`/`enum` are gnostic `Any`s whose `yaml` holds the value's text: JSON, which YAML reads.

use serde_json::{Map, Value};

fn varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// A length-delimited field (wire type 2): a string or an embedded message.
fn bytes(out: &mut Vec<u8>, field: u32, data: &[u8]) {
    varint(out, (u64::from(field) << 3) | 2);
    varint(out, data.len() as u64);
    out.extend_from_slice(data);
}

fn string(out: &mut Vec<u8>, field: u32, s: &str) {
    if !s.is_empty() {
        bytes(out, field, s.as_bytes());
    }
}

fn boolean(out: &mut Vec<u8>, field: u32, b: bool) {
    if b {
        varint(out, u64::from(field) << 3);
        varint(out, 1);
    }
}

fn message(out: &mut Vec<u8>, field: u32, f: impl FnOnce(&mut Vec<u8>)) {
    let mut sub = Vec::new();
    f(&mut sub);
    bytes(out, field, &sub);
}

fn strings(out: &mut Vec<u8>, field: u32, v: Option<&Value>) {
    match v {
        Some(Value::Array(a)) => a.iter().filter_map(Value::as_str).for_each(|s| bytes(out, field, s.as_bytes())),
        Some(Value::String(s)) => bytes(out, field, s.as_bytes()),
        _ => {}
    }
}

fn str_of<'a>(m: &'a Map<String, Value>, key: &str) -> &'a str {
    m.get(key).and_then(Value::as_str).unwrap_or("")
}

fn bool_of(m: &Map<String, Value>, key: &str) -> bool {
    m.get(key).and_then(Value::as_bool).unwrap_or(false)
}

/// `Any { string yaml = 2; }`.
fn any(out: &mut Vec<u8>, field: u32, v: &Value) {
    message(out, field, |m| string(m, 2, &v.to_string()));
}

/// `repeated NamedAny vendor_extension = field;` for the object's `x-` keys.
fn extensions(out: &mut Vec<u8>, field: u32, m: &Map<String, Value>) {
    for (k, v) in m.iter().filter(|(k, _)| k.starts_with("x-")) {
        message(out, field, |na| {
            string(na, 1, k);
            any(na, 2, v);
        });
    }
}

/// `openapi.v2.Document`.
pub fn document(doc: &Value) -> Vec<u8> {
    let mut out = Vec::new();
    let Some(d) = doc.as_object() else { return out };
    string(&mut out, 1, str_of(d, "swagger"));
    if let Some(Value::Object(info)) = d.get("info") {
        message(&mut out, 2, |m| {
            string(m, 1, str_of(info, "title"));
            string(m, 2, str_of(info, "version"));
            string(m, 3, str_of(info, "description"));
            extensions(m, 7, info);
        });
    }
    string(&mut out, 3, str_of(d, "host"));
    string(&mut out, 4, str_of(d, "basePath"));
    strings(&mut out, 5, d.get("schemes"));
    strings(&mut out, 6, d.get("consumes"));
    strings(&mut out, 7, d.get("produces"));
    if let Some(Value::Object(paths)) = d.get("paths") {
        message(&mut out, 8, |m| {
            extensions(m, 1, paths);
            for (name, item) in paths.iter().filter(|(k, _)| !k.starts_with("x-")) {
                message(m, 2, |np| {
                    string(np, 1, name);
                    message(np, 2, |pi| path_item(pi, item));
                });
            }
        });
    }
    if let Some(Value::Object(defs)) = d.get("definitions") {
        message(&mut out, 9, |m| named_schemas(m, 1, defs));
    }
    extensions(&mut out, 16, d);
    out
}

/// `repeated NamedSchema additional_properties = field;` (Definitions, Properties).
fn named_schemas(out: &mut Vec<u8>, field: u32, m: &Map<String, Value>) {
    for (name, s) in m {
        message(out, field, |ns| {
            string(ns, 1, name);
            message(ns, 2, |sm| schema(sm, s));
        });
    }
}

/// `openapi.v2.Schema`.
fn schema(out: &mut Vec<u8>, s: &Value) {
    let Some(m) = s.as_object() else { return };
    string(out, 1, str_of(m, "$ref"));
    string(out, 2, str_of(m, "format"));
    string(out, 3, str_of(m, "title"));
    string(out, 4, str_of(m, "description"));
    if let Some(d) = m.get("default") {
        any(out, 5, d);
    }
    boolean(out, 16, bool_of(m, "uniqueItems"));
    strings(out, 19, m.get("required"));
    if let Some(Value::Array(e)) = m.get("enum") {
        e.iter().for_each(|v| any(out, 20, v));
    }
    match m.get("additionalProperties") {
        Some(Value::Bool(b)) => message(out, 21, |ap| {
            varint(ap, 2 << 3);
            varint(ap, u64::from(*b));
        }),
        Some(v @ Value::Object(_)) => message(out, 21, |ap| message(ap, 1, |sm| schema(sm, v))),
        _ => {}
    }
    if m.contains_key("type") {
        message(out, 22, |t| strings(t, 1, m.get("type")));
    }
    match m.get("items") {
        Some(Value::Array(items)) => message(out, 23, |it| items.iter().for_each(|i| message(it, 1, |sm| schema(sm, i)))),
        Some(i @ Value::Object(_)) => message(out, 23, |it| message(it, 1, |sm| schema(sm, i))),
        _ => {}
    }
    if let Some(Value::Array(all)) = m.get("allOf") {
        all.iter().for_each(|a| message(out, 24, |sm| schema(sm, a)));
    }
    if let Some(Value::Object(props)) = m.get("properties") {
        message(out, 25, |p| named_schemas(p, 1, props));
    }
    boolean(out, 27, bool_of(m, "readOnly"));
    extensions(out, 31, m);
}

/// `openapi.v2.PathItem`.
fn path_item(out: &mut Vec<u8>, item: &Value) {
    let Some(m) = item.as_object() else { return };
    for (method, field) in [("get", 2), ("put", 3), ("post", 4), ("delete", 5), ("options", 6), ("head", 7), ("patch", 8)] {
        if let Some(Value::Object(op)) = m.get(method) {
            message(out, field, |o| operation(o, op));
        }
    }
    if let Some(Value::Array(params)) = m.get("parameters") {
        params.iter().for_each(|p| message(out, 9, |pi| parameter(pi, p)));
    }
    extensions(out, 10, m);
}

/// `openapi.v2.Operation`.
fn operation(out: &mut Vec<u8>, op: &Map<String, Value>) {
    strings(out, 1, op.get("tags"));
    string(out, 2, str_of(op, "summary"));
    string(out, 3, str_of(op, "description"));
    string(out, 5, str_of(op, "operationId"));
    strings(out, 6, op.get("produces"));
    strings(out, 7, op.get("consumes"));
    if let Some(Value::Array(params)) = op.get("parameters") {
        params.iter().for_each(|p| message(out, 8, |pi| parameter(pi, p)));
    }
    if let Some(Value::Object(responses)) = op.get("responses") {
        message(out, 9, |rs| {
            for (code, r) in responses.iter().filter(|(k, _)| !k.starts_with("x-")) {
                message(rs, 1, |nrv| {
                    string(nrv, 1, code);
                    // ResponseValue { Response response = 1; }
                    message(nrv, 2, |rv| message(rv, 1, |resp| response(resp, r)));
                });
            }
            extensions(rs, 2, responses);
        });
    }
    strings(out, 10, op.get("schemes"));
    boolean(out, 11, bool_of(op, "deprecated"));
    extensions(out, 13, op);
}

/// `openapi.v2.Response`.
fn response(out: &mut Vec<u8>, r: &Value) {
    let Some(m) = r.as_object() else { return };
    string(out, 1, str_of(m, "description"));
    if let Some(s) = m.get("schema") {
        // SchemaItem { Schema schema = 1; }
        message(out, 2, |si| message(si, 1, |sm| schema(sm, s)));
    }
    extensions(out, 5, m);
}

/// `openapi.v2.ParametersItem` holding a `Parameter`: a `BodyParameter`, or a
/// `NonBodyParameter` (query, path or header).
fn parameter(out: &mut Vec<u8>, p: &Value) {
    let Some(m) = p.as_object() else { return };
    let inn = str_of(m, "in");
    message(out, 1, |param| {
        if inn == "body" {
            message(param, 1, |b| {
                string(b, 1, str_of(m, "description"));
                string(b, 2, str_of(m, "name"));
                string(b, 3, inn);
                boolean(b, 4, bool_of(m, "required"));
                if let Some(s) = m.get("schema") {
                    message(b, 5, |sm| schema(sm, s));
                }
                extensions(b, 6, m);
            });
            return;
        }
        message(param, 2, |nb| {
            // Header (1), query (3) and path (4) sub-schemas share their first four fields;
            // query has `allow_empty_value` (5) before `type`, so its later fields are one further.
            let (which, shift) = match inn {
                "header" => (1, 0),
                "query" => (3, 1),
                _ => (4, 0),
            };
            message(nb, which, |q| {
                boolean(q, 1, bool_of(m, "required"));
                string(q, 2, inn);
                string(q, 3, str_of(m, "description"));
                string(q, 4, str_of(m, "name"));
                string(q, 5 + shift, str_of(m, "type"));
                string(q, 6 + shift, str_of(m, "format"));
                boolean(q, 19 + shift, bool_of(m, "uniqueItems"));
                extensions(q, 22 + shift, m);
            });
        });
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Reads a message's top-level fields as (number, wire type, payload) triples.
    fn fields(mut b: &[u8]) -> Vec<(u64, u64, Vec<u8>)> {
        fn read_varint(b: &mut &[u8]) -> u64 {
            let (mut v, mut shift) = (0u64, 0);
            loop {
                let byte = b[0];
                *b = &b[1..];
                v |= u64::from(byte & 0x7f) << shift;
                if byte < 0x80 {
                    return v;
                }
                shift += 7;
            }
        }
        let mut out = Vec::new();
        while !b.is_empty() {
            let key = read_varint(&mut b);
            let (field, wire) = (key >> 3, key & 7);
            let payload = match wire {
                0 => read_varint(&mut b).to_le_bytes().to_vec(),
                2 => {
                    let n = read_varint(&mut b) as usize;
                    let p = b[..n].to_vec();
                    b = &b[n..];
                    p
                }
                w => panic!("unexpected wire type {w}"),
            };
            out.push((field, wire, payload));
        }
        out
    }

    #[test]
    fn encodes_a_schema_with_properties_refs_and_extensions() {
        let doc = json!({
            "swagger": "2.0",
            "info": {"title": "Kubernetes", "version": "v1.34.0"},
            "definitions": {"a.B": {"type": "object", "required": ["x"], "properties": {"x": {"$ref": "#/definitions/a.C", "description": "d"}},
                "x-kubernetes-group-version-kind": [{"group": "", "kind": "B", "version": "v1"}]}}
        });
        let top = fields(&document(&doc));
        assert_eq!(top[0], (1, 2, b"2.0".to_vec()));
        let info = fields(&top[1].2);
        assert_eq!(info, vec![(1, 2, b"Kubernetes".to_vec()), (2, 2, b"v1.34.0".to_vec())]);
        assert_eq!(top[2].0, 9);
        let named = fields(&fields(&top[2].2)[0].2);
        assert_eq!(named[0], (1, 2, b"a.B".to_vec()));
        let s = fields(&named[1].2);
        let nums: Vec<u64> = s.iter().map(|f| f.0).collect();
        assert_eq!(nums, [19, 22, 25, 31]);
        assert_eq!(fields(&s[1].2), vec![(1, 2, b"object".to_vec())]);
        let ext = fields(&s[3].2);
        assert_eq!(ext[0].2, b"x-kubernetes-group-version-kind".to_vec());
        assert_eq!(fields(&ext[1].2)[0].2, br#"[{"group":"","kind":"B","version":"v1"}]"#.to_vec());
        let prop = fields(&fields(&s[2].2)[0].2);
        assert_eq!(prop[0].2, b"x".to_vec());
        assert_eq!(fields(&prop[1].2), vec![(1, 2, b"#/definitions/a.C".to_vec()), (4, 2, b"d".to_vec())]);
    }
}
