//! Base64 as Kubernetes' JSON carries `[]byte` (Go's `encoding/base64` `StdEncoding`, padded):
//! Secret `data`, ConfigMap `binaryData`, and the bytes protobuf fields become in JSON. One
//! implementation shared by the API server (stringData merged into data), the kubelet (a Secret's
//! values in a container's environment and files), kubectl (`create secret`, `describe`) and the
//! page's links (which use the URL alphabet without padding).

const STD: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Standard base64 with padding: how Go's JSON encoder writes `[]byte`.
pub fn encode(b: &[u8]) -> String {
    let mut s = String::with_capacity(b.len().div_ceil(3) * 4);
    for c in b.chunks(3) {
        let n = (c[0] as u32) << 16 | (*c.get(1).unwrap_or(&0) as u32) << 8 | *c.get(2).unwrap_or(&0) as u32;
        for k in 0..4 {
            if k <= c.len() {
                s.push(STD[(n >> (18 - 6 * k) & 63) as usize] as char);
            } else {
                s.push('=');
            }
        }
    }
    s
}

/// base64url without padding (Go's `RawURLEncoding`): the parts of a JWT.
pub fn encode_url(b: &[u8]) -> String {
    encode(b).trim_end_matches('=').chars().map(|c| match c {
        '+' => '-',
        '/' => '_',
        c => c,
    }).collect()
}

/// The decoded text of a base64 value, bytes that are not UTF-8 replaced (what a shell prints).
pub fn decode_lossy(s: &str) -> String {
    String::from_utf8_lossy(&decode(s).unwrap_or_default()).into_owned()
}

/// Decodes base64url or standard base64, with or without padding. None on bad input, including
/// a cut-off text: a lone last character, or left-over bits that are not zero.
pub fn decode(s: &str) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(s.len() * 3 / 4);
    let mut acc: u32 = 0;
    let mut bits = 0;
    let mut padded = false;
    for c in s.bytes() {
        if padded && c != b'=' {
            return None;
        }
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'-' | b'+' => 62,
            b'_' | b'/' => 63,
            b'=' => {
                padded = true;
                continue;
            }
            b' ' | b'\n' | b'\r' | b'\t' => continue,
            _ => return None,
        };
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    // 6 bits left: a character without its partner; other left-overs must be zero padding
    if bits >= 6 || acc != 0 {
        return None;
    }
    Some(out)
}


#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_with_padding() {
        for s in ["", "a", "ab", "abc", "hello world", "\u{1}\u{ff}"] {
            let e = encode(s.as_bytes());
            assert_eq!(e.len() % 4, 0, "{e}");
            assert_eq!(decode(&e).as_deref(), Some(s.as_bytes()), "{s}");
        }
        assert_eq!(encode(b"hi"), "aGk=");
        assert_eq!(decode_lossy("aGk="), "hi");
        assert_eq!(decode("a"), None);
    }
}
