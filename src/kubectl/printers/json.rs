//! `-o json`: `encoding/json.MarshalIndent(obj, "", "    ")` — 4-space indent, sorted keys,
//! Go's float formatting, `<`, `>`, `&` escaped as `\u003c` etc.

use super::*;
// ---------------------------------------------------------------------------------------------
// -o json: encoding/json.MarshalIndent(obj, "", "    ")
// ---------------------------------------------------------------------------------------------

/// Go's shortest float digits: (negative, digits, decimal point position), e.g. 1.5 -> ("15", 1).
pub(super) fn float_digits(f: f64) -> (bool, String, i32) {
    let s = format!("{:e}", f.abs()); // "1.5e0", "1e21", "1.234e-7"
    let (mant, exp) = s.split_once('e').unwrap_or((&s, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let digits: String = mant.chars().filter(|c| c.is_ascii_digit()).collect();
    let digits = digits.trim_end_matches('0').to_string();
    let digits = if digits.is_empty() { "0".to_string() } else { digits };
    (f.is_sign_negative(), digits, exp + 1)
}

pub(super) fn fmt_f(neg: bool, digits: &str, dp: i32) -> String {
    let mut s = String::new();
    if neg {
        s.push('-');
    }
    let nd = digits.len() as i32;
    if dp <= 0 {
        s.push_str("0.");
        s.extend(std::iter::repeat_n('0', (-dp) as usize));
        s.push_str(digits);
    } else if dp >= nd {
        s.push_str(digits);
        s.extend(std::iter::repeat_n('0', (dp - nd) as usize));
    } else {
        s.push_str(&digits[..dp as usize]);
        s.push('.');
        s.push_str(&digits[dp as usize..]);
    }
    s
}

pub(super) fn fmt_e(neg: bool, digits: &str, dp: i32) -> String {
    let mut s = String::new();
    if neg {
        s.push('-');
    }
    s.push_str(&digits[..1]);
    if digits.len() > 1 {
        s.push('.');
        s.push_str(&digits[1..]);
    }
    let exp = dp - 1;
    s.push('e');
    s.push(if exp < 0 { '-' } else { '+' });
    s.push_str(&format!("{:02}", exp.abs()));
    s
}

/// encoding/json float formatting: 'f' unless |f| < 1e-6 or >= 1e21, then 'e' with the
/// exponent's leading zero removed (`1e-07` -> `1e-7`).
pub(super) fn go_json_float(f: f64) -> String {
    if !f.is_finite() {
        return "null".into();
    }
    if f == 0.0 {
        return if f.is_sign_negative() { "-0".into() } else { "0".into() };
    }
    let (neg, digits, dp) = float_digits(f);
    let abs = f.abs();
    if abs < 1e-6 || abs >= 1e21 {
        let s = fmt_e(neg, &digits, dp);
        // clean up e-09 to e-9
        if let Some(pos) = s.find("e-0") {
            return format!("{}e-{}", &s[..pos], &s[pos + 3..]);
        }
        return s;
    }
    fmt_f(neg, &digits, dp)
}

/// strconv.FormatFloat(f, 'g', -1, 64), what go-yaml writes for floats.
pub(crate) fn go_g_float(f: f64) -> String {
    if f.is_nan() {
        return ".nan".into();
    }
    if f.is_infinite() {
        return if f > 0.0 { ".inf".into() } else { "-.inf".into() };
    }
    if f == 0.0 {
        return if f.is_sign_negative() { "-0".into() } else { "0".into() };
    }
    let (neg, digits, dp) = float_digits(f);
    let exp = dp - 1;
    if exp < -4 || exp >= 6 {
        fmt_e(neg, &digits, dp)
    } else {
        fmt_f(neg, &digits, dp)
    }
}

pub(crate) fn json_number(n: &serde_json::Number) -> String {
    if n.is_i64() || n.is_u64() {
        n.to_string()
    } else {
        go_json_float(n.as_f64().unwrap_or(0.0))
    }
}

/// Go's JSON string escaping with HTML escaping on (the default of json.Marshal). Runs of bytes
/// that need no escape are copied at once (this writes every audit line and `-o json`).
pub(crate) fn json_string(s: &str, out: &mut String) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.push('"');
    let b = s.as_bytes();
    let (mut start, mut i) = (0, 0);
    while i < b.len() {
        let c = b[i];
        let line_sep = c == 0xE2 && b.get(i + 1) == Some(&0x80) && matches!(b.get(i + 2), Some(0xA8 | 0xA9));
        if !(c < 0x20 || matches!(c, b'"' | b'\\' | b'<' | b'>' | b'&') || line_sep) {
            i += 1;
            continue;
        }
        out.push_str(&s[start..i]);
        match c {
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            b'\n' => out.push_str("\\n"),
            b'\r' => out.push_str("\\r"),
            b'\t' => out.push_str("\\t"),
            0x08 => out.push_str("\\b"),
            0x0c => out.push_str("\\f"),
            0xE2 => {
                out.push_str(if b[i + 2] == 0xA8 { "\\u2028" } else { "\\u2029" });
                i += 2;
            }
            c => {
                out.push_str("\\u00");
                out.push(HEX[(c >> 4) as usize] as char);
                out.push(HEX[(c & 15) as usize] as char);
            }
        }
        i += 1;
        start = i;
    }
    out.push_str(&s[start..]);
    out.push('"');
}

/// [`json_number`] appended to `out` (an integer without an allocation).
pub(crate) fn push_json_number(n: &serde_json::Number, out: &mut String) {
    use std::fmt::Write;
    if let Some(i) = n.as_i64() {
        let _ = write!(out, "{}", i);
    } else if let Some(u) = n.as_u64() {
        let _ = write!(out, "{}", u);
    } else {
        out.push_str(&go_json_float(n.as_f64().unwrap_or(0.0)));
    }
}

pub(super) fn json_value(v: &Value, indent: usize, out: &mut String) {
    match v {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => out.push_str(&json_number(n)),
        Value::String(s) => json_string(s, out),
        Value::Array(a) => {
            if a.is_empty() {
                out.push_str("[]");
                return;
            }
            out.push_str("[\n");
            for (i, item) in a.iter().enumerate() {
                out.extend(std::iter::repeat_n(' ', (indent + 1) * 4));
                json_value(item, indent + 1, out);
                if i + 1 < a.len() {
                    out.push(',');
                }
                out.push('\n');
            }
            out.extend(std::iter::repeat_n(' ', indent * 4));
            out.push(']');
        }
        Value::Object(m) => {
            if m.is_empty() {
                out.push_str("{}");
                return;
            }
            out.push_str("{\n");
            // serde_json's Map is a BTreeMap here: byte order, like Go's sorted map keys
            for (i, (k, item)) in m.iter().enumerate() {
                out.extend(std::iter::repeat_n(' ', (indent + 1) * 4));
                json_string(k, out);
                out.push_str(": ");
                json_value(item, indent + 1, out);
                if i + 1 < m.len() {
                    out.push(',');
                }
                out.push('\n');
            }
            out.extend(std::iter::repeat_n(' ', indent * 4));
            out.push('}');
        }
    }
}

/// `kubectl get -o json` of one object: 4-space indent, sorted keys, trailing newline.
pub fn to_json(obj: &Value) -> String {
    let mut out = String::new();
    json_value(obj, 0, &mut out);
    out.push('\n');
    out
}

/// The `kind: List` wrapper `kubectl get` prints for collections.
pub(super) fn list_object(objs: &[Value]) -> Value {
    let mut meta = Map::new();
    meta.insert("resourceVersion".into(), Value::String(String::new()));
    let mut m = Map::new();
    m.insert("apiVersion".into(), Value::String("v1".into()));
    m.insert("items".into(), Value::Array(objs.to_vec()));
    m.insert("kind".into(), Value::String("List".into()));
    m.insert("metadata".into(), Value::Object(meta));
    Value::Object(m)
}

/// `kubectl get pods -o json`: `{"apiVersion": "v1", "items": [...], "kind": "List", "metadata": {"resourceVersion": ""}}`.
pub fn list_to_json(objs: &[Value]) -> String {
    to_json(&list_object(objs))
}


#[cfg(test)]
mod escaping_tests {
    use super::*;
    use serde_json::json;

    /// Go's encoder, one rune at a time (the reference the run-copying version must match).
    fn reference(s: &str) -> String {
        let mut out = String::from("\"");
        for c in s.chars() {
            match c {
                '"' => out.push_str("\\\""),
                '\\' => out.push_str("\\\\"),
                '\n' => out.push_str("\\n"),
                '\r' => out.push_str("\\r"),
                '\t' => out.push_str("\\t"),
                '\u{8}' => out.push_str("\\b"),
                '\u{c}' => out.push_str("\\f"),
                '<' | '>' | '&' | '\u{2028}' | '\u{2029}' => out.push_str(&format!("\\u{:04x}", c as u32)),
                c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
                c => out.push(c),
            }
        }
        out.push('"');
        out
    }

    #[test]
    fn json_string_escapes_as_go_does() {
        let cases = ["", "plain", "a\"b\\c", "<a href=\"x\">&amp;</a>", "tab\tnl\ncr\r\u{8}\u{c}\u{1}\u{1f}", "한국어 ü é", "\u{2028}x\u{2029}", "€\u{2027}\u{202a}", "end\u{2028}", "\u{e2}"];
        for s in cases {
            let mut out = String::new();
            json_string(s, &mut out);
            assert_eq!(out, reference(s), "{:?}", s);
        }
        let mut n = String::new();
        for v in [json!(0), json!(-42), json!(u64::MAX), json!(1.5), json!(1e21)] {
            n.clear();
            push_json_number(v.as_number().unwrap(), &mut n);
            assert_eq!(n, json_number(v.as_number().unwrap()));
        }
    }
}
