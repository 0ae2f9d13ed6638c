//! The `pod-template-hash`: `ComputeHash` (`pkg/controller/controller_utils.go`) and
//! `rand.SafeEncodeString`.

use super::*;
use crate::sim::sort::CompactSort;

// ---------------------------------------------------------------------------
// pod-template-hash
// ---------------------------------------------------------------------------

/// `alphanums` of apimachinery's `rand.go`: 27 characters, no vowels, so generated
/// names cannot spell words.
pub(super) const ALPHANUMS: &[u8] = b"bcdfghjklmnpqrstvwxz2456789";

/// `rand.SafeEncodeString`: maps every rune `c` to `alphanums[c % 27]`.
/// On a decimal string this is `0→4 1→5 2→6 3→7 4→8 5→9 6→b 7→c 8→d 9→f`.
pub fn safe_encode_string(s: &str) -> String {
    s.chars()
        .map(|c| ALPHANUMS[(c as u32 as usize) % ALPHANUMS.len()] as char)
        .collect()
}

/// Writes `v` as JSON with object keys sorted at every level, whatever map type
/// serde_json was built with, so the hash input is canonical.
pub(crate) fn write_canonical_json(v: &Value, out: &mut String) {
    match v {
        Value::Object(m) => {
            let mut keys: Vec<&String> = m.keys().collect();
            keys.csort();
            out.push('{');
            for (i, k) in keys.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&Value::String((*k).clone()).to_string());
                out.push(':');
                if let Some(child) = m.get(*k) {
                    write_canonical_json(child, out);
                }
            }
            out.push('}');
        }
        Value::Array(a) => {
            out.push('[');
            for (i, child) in a.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_canonical_json(child, out);
            }
            out.push(']');
        }
        scalar => out.push_str(&scalar.to_string()),
    }
}

pub(super) const FNV32_OFFSET: u32 = 0x811c_9dc5;
pub(super) const FNV32_PRIME: u32 = 0x0100_0193;

pub(super) fn fnv32a(hash: u32, bytes: &[u8]) -> u32 {
    bytes
        .iter()
        .fold(hash, |h, b| (h ^ *b as u32).wrapping_mul(FNV32_PRIME))
}

/// `controller.ComputeHash(template, collisionCount)`: the `pod-template-hash`.
///
/// FNV-32a over `dump.ForHash(template)` (go-spew's `%#v` of the v1.34 `PodTemplateSpec`, see
/// [`spew`](super::spew)), then, if `collisionCount` is set, 8 bytes (the count as little-endian
/// `u32` plus 4 zero bytes); the decimal `u32` encoded with [`safe_encode_string`]. Pass the
/// defaulted `spec.template` *before* the `pod-template-hash` label is added. The values are a
/// v1.34 cluster's: the docs' nginx Deployment (`nginx:1.14.2`) gets `nginx-deployment-bf744486c`.
pub fn compute_hash(template: &Value, collision_count: Option<i32>) -> String {
    let text = super::spew::for_hash_pod_template(template).unwrap_or_else(|| {
        // the embedded layout failed to load (a test rules this out): still deterministic
        let mut t = String::new();
        write_canonical_json(template, &mut t);
        t
    });
    let mut h = fnv32a(FNV32_OFFSET, text.as_bytes());
    if let Some(c) = collision_count {
        let mut bytes = [0u8; 8];
        bytes[..4].copy_from_slice(&(c as u32).to_le_bytes());
        h = fnv32a(h, &bytes);
    }
    safe_encode_string(&h.to_string())
}
