//! Request bodies in `application/vnd.kubernetes.protobuf`.
//!
//! kubectl's typed clients (`kubectl create deployment|job|namespace|service …`, `drain`'s
//! deletes) send protobuf, not JSON, whatever the server announces. kubesim's objects are JSON
//! and decoding protobuf needs the field numbers of every message (`generated.proto`), which this
//! slice does not carry. So: a `DeleteOptions` (the only body of a DELETE; five scalar fields) is
//! decoded here; any other protobuf body is answered 415 with a message that says how to send
//! the same object as JSON.

use serde_json::{json, Map, Value};

/// The envelope's magic: `k8s\0`, then a `runtime.Unknown`.
const MAGIC: &[u8] = b"k8s\x00";

fn varint(b: &[u8], i: &mut usize) -> Option<u64> {
    let mut v = 0u64;
    for shift in (0..64).step_by(7) {
        let byte = *b.get(*i)?;
        *i += 1;
        v |= ((byte & 0x7f) as u64) << shift;
        if byte & 0x80 == 0 {
            return Some(v);
        }
    }
    None
}

/// The fields of one message: (number, varint value or bytes).
enum Field<'a> {
    Varint(u64),
    Bytes(&'a [u8]),
}

fn fields(b: &[u8]) -> Option<Vec<(u64, Field<'_>)>> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let key = varint(b, &mut i)?;
        let (num, wire) = (key >> 3, key & 7);
        match wire {
            0 => out.push((num, Field::Varint(varint(b, &mut i)?))),
            2 => {
                let n = varint(b, &mut i)? as usize;
                let s = b.get(i..i.checked_add(n)?)?;
                i += n;
                out.push((num, Field::Bytes(s)));
            }
            1 => i += 8,
            5 => i += 4,
            _ => return None,
        }
    }
    Some(out)
}

/// The envelope: (apiVersion, kind, raw object bytes).
fn unwrap(body: &[u8]) -> Option<(String, String, &[u8])> {
    let rest = body.strip_prefix(MAGIC)?;
    let (mut api_version, mut kind, mut raw) = (String::new(), String::new(), &[][..]);
    for (num, f) in fields(rest)? {
        match (num, f) {
            (1, Field::Bytes(tm)) => {
                for (n, f) in fields(tm)? {
                    if let Field::Bytes(s) = f {
                        let s = String::from_utf8_lossy(s).to_string();
                        if n == 1 {
                            api_version = s;
                        } else if n == 2 {
                            kind = s;
                        }
                    }
                }
            }
            (2, Field::Bytes(r)) => raw = r,
            _ => {}
        }
    }
    Some((api_version, kind, raw))
}

/// Decodes a protobuf body: `Ok(json)` for a `DeleteOptions`, `Err(kind)` for anything else.
pub fn decode(body: &[u8]) -> Result<Value, String> {
    let Some((api_version, kind, raw)) = unwrap(body) else { return Err("(not a Kubernetes protobuf envelope)".into()) };
    if kind != "DeleteOptions" {
        return Err(if kind.is_empty() { "(unknown kind)".into() } else { kind });
    }
    let mut o = Map::new();
    o.insert("kind".into(), json!("DeleteOptions"));
    o.insert("apiVersion".into(), json!(if api_version.is_empty() { "v1".to_string() } else { api_version }));
    let mut dry_run = Vec::new();
    for (num, f) in fields(raw).ok_or("DeleteOptions")? {
        match (num, f) {
            (1, Field::Varint(v)) => {
                o.insert("gracePeriodSeconds".into(), json!(v as i64));
            }
            (3, Field::Varint(v)) => {
                o.insert("orphanDependents".into(), json!(v != 0));
            }
            (4, Field::Bytes(s)) => {
                o.insert("propagationPolicy".into(), json!(String::from_utf8_lossy(s)));
            }
            (5, Field::Bytes(s)) => dry_run.push(json!(String::from_utf8_lossy(s))),
            _ => {}
        }
    }
    if !dry_run.is_empty() {
        o.insert("dryRun".into(), json!(dry_run));
    }
    Ok(Value::Object(o))
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn delete_options() {
        // typeMeta {apiVersion: "v1", kind: "DeleteOptions"}, raw {gracePeriodSeconds: 30, propagationPolicy: "Background"}
        let tm = [&[0x0a, 2][..], b"v1", &[0x12, 13], b"DeleteOptions"].concat();
        let raw = [&[0x08, 30, 0x22, 10][..], b"Background"].concat();
        let body = [MAGIC, &[0x0a, tm.len() as u8], &tm, &[0x12, raw.len() as u8], &raw].concat();
        assert_eq!(decode(&body).unwrap(), json!({"kind": "DeleteOptions", "apiVersion": "v1", "gracePeriodSeconds": 30, "propagationPolicy": "Background"}));
    }
}
