//! `-o yaml`: `sigs.k8s.io/yaml` (JSON → go-yaml v2 `Marshal`): go-yaml's "natural" key order,
//! block sequences not indented under their key, its quoting rules and 80-column folding.

use super::*;
use crate::sim::sort::CompactSort;
// ---------------------------------------------------------------------------------------------
// -o yaml: sigs.k8s.io/yaml (JSON -> go-yaml v2 Marshal)
// ---------------------------------------------------------------------------------------------

/// go-yaml v2 `keyList.Less`: letters sort after non-letters, runs of digits compare as numbers.
pub(super) fn yaml_key_less(a: &str, b: &str) -> bool {
    let ar: Vec<char> = a.chars().collect();
    let br: Vec<char> = b.chars().collect();
    let mut i = 0;
    while i < ar.len() && i < br.len() {
        if ar[i] == br[i] {
            i += 1;
            continue;
        }
        let al = ar[i].is_alphabetic();
        let bl = br[i].is_alphabetic();
        if al && bl {
            return ar[i] < br[i];
        }
        if al || bl {
            return bl;
        }
        let mut an: i64 = 0;
        let mut bn: i64 = 0;
        if ar[i] == '0' || br[i] == '0' {
            let mut j = i;
            while j > 0 && ar[j - 1].is_ascii_digit() {
                j -= 1;
                if ar[j] != '0' {
                    an = 1;
                    bn = 1;
                    break;
                }
            }
        }
        let mut ai = i;
        while ai < ar.len() && ar[ai].is_ascii_digit() {
            an = an.wrapping_mul(10).wrapping_add(ar[ai] as i64 - '0' as i64);
            ai += 1;
        }
        let mut bi = i;
        while bi < br.len() && br[bi].is_ascii_digit() {
            bn = bn.wrapping_mul(10).wrapping_add(br[bi] as i64 - '0' as i64);
            bi += 1;
        }
        if an != bn {
            return an < bn;
        }
        if ai != bi {
            return ai < bi;
        }
        return ar[i] < br[i];
    }
    ar.len() < br.len()
}

pub(super) fn is_break(c: char) -> bool {
    matches!(c, '\r' | '\n' | '\u{85}' | '\u{2028}' | '\u{2029}')
}

/// libyaml `is_printable` on code points.
pub(super) fn is_printable(c: char) -> bool {
    let u = c as u32;
    u == 0x0A || (0x20..=0x7E).contains(&u) || (0xA0..=0xD7FF).contains(&u) || ((0xE000..=0xFFFD).contains(&u) && u != 0xFEFF)
}

/// go-yaml v2 `isBase60Float`: `^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$`.
pub(super) fn is_base60_float(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    if matches!(b.first(), Some(b'+') | Some(b'-')) {
        i = 1;
    }
    if !b.get(i).map(|c| c.is_ascii_digit()).unwrap_or(false) {
        return false;
    }
    i += 1;
    while i < b.len() && (b[i].is_ascii_digit() || b[i] == b'_') {
        i += 1;
    }
    let mut groups = 0;
    while b.get(i) == Some(&b':') {
        i += 1;
        let start = i;
        if b.get(i).map(|c| (b'0'..=b'5').contains(c)).unwrap_or(false) && b.get(i + 1).map(|c| c.is_ascii_digit()).unwrap_or(false) {
            i += 2;
        } else if b.get(i).map(|c| c.is_ascii_digit()).unwrap_or(false) {
            i += 1;
        }
        if i == start {
            return false;
        }
        groups += 1;
    }
    if groups == 0 {
        return false;
    }
    if b.get(i) == Some(&b'.') {
        i += 1;
        while i < b.len() && (b[i].is_ascii_digit() || b[i] == b'_') {
            i += 1;
        }
    }
    i == b.len()
}

/// Go strconv.ParseInt/ParseUint(s, 0, 64) acceptance (sign, 0x/0o/0b prefixes, leading-0 octal);
/// out-of-range values still count because go-yaml then falls back to `big.Int.SetString`.
pub(super) fn go_parse_int_ok(s: &str) -> bool {
    let t = s.strip_prefix('+').or_else(|| s.strip_prefix('-')).unwrap_or(s);
    if t.is_empty() {
        return false;
    }
    let lower = t.to_ascii_lowercase();
    let (digits, radix) = if let Some(r) = lower.strip_prefix("0x") {
        (r.to_string(), 16)
    } else if let Some(r) = lower.strip_prefix("0o") {
        (r.to_string(), 8)
    } else if let Some(r) = lower.strip_prefix("0b") {
        (r.to_string(), 2)
    } else if lower.len() > 1 && lower.starts_with('0') {
        (lower[1..].to_string(), 8)
    } else {
        (lower.clone(), 10)
    };
    !digits.is_empty() && digits.chars().all(|c| c.is_digit(radix))
}

/// go-yaml v2 `yamlStyleFloat`: `^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`.
pub(super) fn is_yaml_style_float(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    if matches!(b.first(), Some(b'+') | Some(b'-')) {
        i = 1;
    }
    let count_digits = |i: &mut usize| {
        let start = *i;
        while *i < b.len() && b[*i].is_ascii_digit() {
            *i += 1;
        }
        *i - start
    };
    if b.get(i) == Some(&b'.') {
        i += 1;
        if count_digits(&mut i) == 0 {
            return false;
        }
    } else {
        if count_digits(&mut i) == 0 {
            return false;
        }
        if b.get(i) == Some(&b'.') {
            i += 1;
            count_digits(&mut i);
        }
    }
    if matches!(b.get(i), Some(b'e') | Some(b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+') | Some(b'-')) {
            i += 1;
        }
        if count_digits(&mut i) == 0 {
            return false;
        }
    }
    i == b.len()
}

/// go-yaml v2 `parseTimestamp`: `YYYY-M-D` optionally followed by `[Tt ]h:m:s[.frac]` and, for
/// the T forms, a zone (`Z` or `±hh:mm`).
pub(super) fn is_yaml_timestamp(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() < 5 || !b[..4].iter().all(|c| c.is_ascii_digit()) || b[4] != b'-' {
        return false;
    }
    let num = |i: &mut usize, min: usize, max: usize| -> Option<i64> {
        let start = *i;
        while *i < b.len() && b[*i].is_ascii_digit() && *i - start < max {
            *i += 1;
        }
        if *i - start < min {
            return None;
        }
        std::str::from_utf8(&b[start..*i]).ok()?.parse().ok()
    };
    let mut i = 5;
    let Some(month) = num(&mut i, 1, 2) else { return false };
    if b.get(i) != Some(&b'-') {
        return false;
    }
    i += 1;
    let Some(day) = num(&mut i, 1, 2) else { return false };
    let year: i64 = std::str::from_utf8(&b[..4]).ok().and_then(|y| y.parse().ok()).unwrap_or(0);
    let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    let mdays = [31, if leap { 29 } else { 28 }, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
    if !(1..=12).contains(&month) || day < 1 || day > mdays[(month - 1) as usize] {
        return false;
    }
    if i == b.len() {
        return true;
    }
    let sep = b[i];
    if !matches!(sep, b'T' | b't' | b' ') {
        return false;
    }
    i += 1;
    let Some(h) = num(&mut i, 1, 2) else { return false };
    if b.get(i) != Some(&b':') {
        return false;
    }
    i += 1;
    let Some(m) = num(&mut i, 1, 2) else { return false };
    if b.get(i) != Some(&b':') {
        return false;
    }
    i += 1;
    let Some(sec) = num(&mut i, 1, 2) else { return false };
    if h > 23 || m > 59 || sec > 59 {
        return false;
    }
    if b.get(i) == Some(&b'.') {
        i += 1;
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if i == start {
            return false;
        }
    }
    if sep == b' ' {
        return i == b.len();
    }
    match b.get(i) {
        Some(b'Z') => i + 1 == b.len(),
        Some(b'+') | Some(b'-') => b.len() == i + 6 && b[i + 1..i + 3].iter().all(|c| c.is_ascii_digit()) && b[i + 3] == b':' && b[i + 4..i + 6].iter().all(|c| c.is_ascii_digit()),
        _ => false,
    }
}

/// Would go-yaml v2 `resolve("", s)` read this plain scalar back as something other than a string?
pub(super) fn resolves_to_non_string(s: &str) -> bool {
    const SPECIAL: &[&str] = &[
        "y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON", "n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF", "", "~",
        "null", "Null", "NULL", ".nan", ".NaN", ".NAN", ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF", "-.inf", "-.Inf", "-.INF", "<<",
    ];
    if SPECIAL.contains(&s) {
        return true;
    }
    match s.as_bytes().first() {
        Some(c) if c.is_ascii_digit() || *c == b'+' || *c == b'-' => {
            if is_yaml_timestamp(s) {
                return true;
            }
            let plain = s.replace('_', "");
            if go_parse_int_ok(&plain) {
                return true;
            }
            if is_yaml_style_float(&plain) {
                return true;
            }
            let unsigned = plain.strip_prefix('-').unwrap_or(&plain);
            if let Some(bin) = unsigned.strip_prefix("0b") {
                return !bin.is_empty() && bin.chars().all(|c| c == '0' || c == '1');
            }
            false
        }
        // '.' hint: maybe a normal float (strconv.ParseFloat)
        Some(b'.') => s.parse::<f64>().is_ok() && !s.contains(|c: char| c.is_alphabetic() && c != 'e' && c != 'E'),
        _ => false,
    }
}

pub(super) struct ScalarAnalysis {
    multiline: bool,
    block_plain_allowed: bool,
    single_quoted_allowed: bool,
    block_allowed: bool,
}

/// libyaml `yaml_emitter_analyze_scalar` (block context only).
pub(super) fn analyze_scalar(s: &str) -> ScalarAnalysis {
    if s.is_empty() {
        return ScalarAnalysis { multiline: false, block_plain_allowed: true, single_quoted_allowed: true, block_allowed: false };
    }
    let v: Vec<char> = s.chars().collect();
    let mut block_indicators = false;
    let mut line_breaks = false;
    let mut special_characters = false;
    let mut leading_space = false;
    let mut leading_break = false;
    let mut trailing_space = false;
    let mut trailing_break = false;
    let mut break_space = false;
    let mut space_break = false;
    let mut previous_space = false;
    let mut previous_break = false;
    if s.starts_with("---") || s.starts_with("...") {
        block_indicators = true;
    }
    let mut preceded_by_whitespace = true;
    for i in 0..v.len() {
        let c = v[i];
        let followed_by_whitespace = i + 1 >= v.len() || v[i + 1] == ' ' || v[i + 1] == '\t';
        if i == 0 {
            match c {
                '#' | ',' | '[' | ']' | '{' | '}' | '&' | '*' | '!' | '|' | '>' | '\'' | '"' | '%' | '@' | '`' => block_indicators = true,
                '?' | ':' | '-' if followed_by_whitespace => block_indicators = true,
                _ => {}
            }
        } else {
            match c {
                ':' if followed_by_whitespace => block_indicators = true,
                '#' if preceded_by_whitespace => block_indicators = true,
                _ => {}
            }
        }
        if !is_printable(c) {
            special_characters = true;
        }
        if c == ' ' {
            if i == 0 {
                leading_space = true;
            }
            if i + 1 == v.len() {
                trailing_space = true;
            }
            if previous_break {
                break_space = true;
            }
            previous_space = true;
            previous_break = false;
        } else if is_break(c) {
            line_breaks = true;
            if i == 0 {
                leading_break = true;
            }
            if i + 1 == v.len() {
                trailing_break = true;
            }
            if previous_space {
                space_break = true;
            }
            previous_space = false;
            previous_break = true;
        } else {
            previous_space = false;
            previous_break = false;
        }
        preceded_by_whitespace = c == ' ' || c == '\t' || is_break(c) || c == '\0';
    }
    let mut a = ScalarAnalysis { multiline: line_breaks, block_plain_allowed: true, single_quoted_allowed: true, block_allowed: true };
    if leading_space || leading_break || trailing_space || trailing_break {
        a.block_plain_allowed = false;
    }
    if trailing_space {
        a.block_allowed = false;
    }
    if break_space {
        a.block_plain_allowed = false;
        a.single_quoted_allowed = false;
    }
    if space_break || special_characters {
        a.block_plain_allowed = false;
        a.single_quoted_allowed = false;
        a.block_allowed = false;
    }
    if line_breaks {
        a.block_plain_allowed = false;
    }
    if block_indicators {
        a.block_plain_allowed = false;
    }
    a
}

#[derive(Clone, Copy, PartialEq, Debug)]
pub(super) enum ScalarStyle {
    Plain,
    Single,
    Double,
    Literal,
}

/// go-yaml v2 `encoder.stringv` + libyaml `yaml_emitter_select_scalar_style`.
pub(super) fn string_style(s: &str, simple_key: bool) -> ScalarStyle {
    let a = analyze_scalar(s);
    let can_use_plain = !resolves_to_non_string(s) && !is_base60_float(s);
    let mut style = if s.contains('\n') {
        ScalarStyle::Literal
    } else if can_use_plain {
        ScalarStyle::Plain
    } else {
        ScalarStyle::Double
    };
    if style == ScalarStyle::Plain && (!a.block_plain_allowed || (s.is_empty() && simple_key)) {
        style = ScalarStyle::Single;
    }
    if style == ScalarStyle::Single && !a.single_quoted_allowed {
        style = ScalarStyle::Double;
    }
    if style == ScalarStyle::Literal && (!a.block_allowed || simple_key) {
        style = ScalarStyle::Double;
    }
    // a multi-line key can't be a simple key; kubesim never has one, keep it quoted
    let _ = a.multiline;
    style
}

/// go-yaml's best_width: plain and quoted scalars fold at the first space past column 80.
pub(super) const YAML_BEST_WIDTH: usize = 80;

/// A port of the parts of libyaml's emitter that block-style kubectl output exercises.
pub(super) struct YamlEmitter {
    out: String,
    column: usize,
    whitespace: bool,
    indention: bool,
}

impl YamlEmitter {
    fn new() -> Self {
        YamlEmitter { out: String::new(), column: 0, whitespace: true, indention: true }
    }

    fn put(&mut self, c: char) {
        self.out.push(c);
        self.column += 1;
    }

    fn put_break(&mut self) {
        self.out.push('\n');
        self.column = 0;
    }

    fn write_indent(&mut self, indent: usize) {
        if !self.indention || self.column > indent || (self.column == indent && !self.whitespace) {
            self.put_break();
        }
        while self.column < indent {
            self.put(' ');
        }
        self.whitespace = true;
        self.indention = true;
    }

    fn write_indicator(&mut self, ind: &str, need_whitespace: bool, is_whitespace: bool, is_indention: bool) {
        if need_whitespace && !self.whitespace {
            self.put(' ');
        }
        for c in ind.chars() {
            self.put(c);
        }
        self.whitespace = is_whitespace;
        self.indention = self.indention && is_indention;
    }

    fn write_break_char(&mut self, c: char) {
        if c == '\n' {
            self.put_break();
        } else {
            self.out.push(c);
            self.column = 0;
        }
    }

    fn write_plain(&mut self, v: &[char], allow_breaks: bool, indent: usize) {
        if !self.whitespace {
            self.put(' ');
        }
        let mut spaces = false;
        let mut breaks = false;
        for i in 0..v.len() {
            let c = v[i];
            if c == ' ' {
                if allow_breaks && !spaces && self.column > YAML_BEST_WIDTH && v.get(i + 1) != Some(&' ') {
                    self.write_indent(indent);
                } else {
                    self.put(c);
                }
                spaces = true;
            } else if is_break(c) {
                if !breaks && c == '\n' {
                    self.put_break();
                }
                self.write_break_char(c);
                self.indention = true;
                breaks = true;
            } else {
                if breaks {
                    self.write_indent(indent);
                }
                self.put(c);
                self.indention = false;
                spaces = false;
                breaks = false;
            }
        }
        self.whitespace = false;
        self.indention = false;
    }

    fn write_single_quoted(&mut self, v: &[char], allow_breaks: bool, indent: usize) {
        self.write_indicator("'", true, false, false);
        let mut spaces = false;
        let mut breaks = false;
        for i in 0..v.len() {
            let c = v[i];
            if c == ' ' {
                if allow_breaks && !spaces && self.column > YAML_BEST_WIDTH && i > 0 && i + 1 < v.len() && v.get(i + 1) != Some(&' ') {
                    self.write_indent(indent);
                } else {
                    self.put(c);
                }
                spaces = true;
            } else if is_break(c) {
                if !breaks && c == '\n' {
                    self.put_break();
                }
                self.write_break_char(c);
                self.indention = true;
                breaks = true;
            } else {
                if breaks {
                    self.write_indent(indent);
                }
                if c == '\'' {
                    self.put('\'');
                }
                self.put(c);
                self.indention = false;
                spaces = false;
                breaks = false;
            }
        }
        self.write_indicator("'", false, false, false);
    }

    fn write_double_quoted(&mut self, v: &[char], allow_breaks: bool, indent: usize) {
        self.write_indicator("\"", true, false, false);
        let mut spaces = false;
        for i in 0..v.len() {
            let c = v[i];
            if !is_printable(c) || c == '\u{FEFF}' || is_break(c) || c == '"' || c == '\\' {
                self.put('\\');
                match c {
                    '\0' => self.put('0'),
                    '\u{7}' => self.put('a'),
                    '\u{8}' => self.put('b'),
                    '\t' => self.put('t'),
                    '\n' => self.put('n'),
                    '\u{b}' => self.put('v'),
                    '\u{c}' => self.put('f'),
                    '\r' => self.put('r'),
                    '\u{1b}' => self.put('e'),
                    '"' => self.put('"'),
                    '\\' => self.put('\\'),
                    '\u{85}' => self.put('N'),
                    '\u{a0}' => self.put('_'),
                    '\u{2028}' => self.put('L'),
                    '\u{2029}' => self.put('P'),
                    c => {
                        let u = c as u32;
                        let (ind, width) = if u <= 0xFF {
                            ('x', 2)
                        } else if u <= 0xFFFF {
                            ('u', 4)
                        } else {
                            ('U', 8)
                        };
                        self.put(ind);
                        for d in format!("{:0width$X}", u, width = width).chars() {
                            self.put(d);
                        }
                    }
                }
                spaces = false;
            } else if c == ' ' {
                if allow_breaks && !spaces && self.column > YAML_BEST_WIDTH && i > 0 && i + 1 < v.len() {
                    self.write_indent(indent);
                    if v.get(i + 1) == Some(&' ') {
                        self.put('\\');
                    }
                } else {
                    self.put(c);
                }
                spaces = true;
            } else {
                self.put(c);
                spaces = false;
            }
        }
        self.write_indicator("\"", false, false, false);
    }

    fn write_literal(&mut self, v: &[char], indent: usize) {
        self.write_indicator("|", true, false, false);
        if v.first().map(|c| *c == ' ' || is_break(*c)).unwrap_or(false) {
            self.write_indicator("2", false, false, false);
        }
        let chomp = match v.len() {
            0 => Some("-"),
            n if !is_break(v[n - 1]) => Some("-"),
            1 => Some("+"),
            n if is_break(v[n - 2]) => Some("+"),
            _ => None,
        };
        if let Some(h) = chomp {
            self.write_indicator(h, false, false, false);
        }
        self.put_break();
        self.indention = true;
        self.whitespace = true;
        let mut breaks = true;
        for &c in v {
            if is_break(c) {
                self.write_break_char(c);
                self.indention = true;
                breaks = true;
            } else {
                if breaks {
                    self.write_indent(indent);
                }
                self.put(c);
                self.indention = false;
                breaks = false;
            }
        }
    }

    /// A scalar node; `indent` is the indentation its continuation lines get.
    fn emit_scalar(&mut self, v: &Value, indent: usize, simple_key: bool) {
        let text = match v {
            Value::Null => "null".to_string(),
            Value::Bool(b) => b.to_string(),
            Value::Number(n) => {
                if n.is_i64() || n.is_u64() {
                    n.to_string()
                } else {
                    go_g_float(n.as_f64().unwrap_or(0.0))
                }
            }
            Value::String(s) => {
                let chars: Vec<char> = s.chars().collect();
                match string_style(s, simple_key) {
                    ScalarStyle::Plain => self.write_plain(&chars, !simple_key, indent),
                    ScalarStyle::Single => self.write_single_quoted(&chars, !simple_key, indent),
                    ScalarStyle::Double => self.write_double_quoted(&chars, !simple_key, indent),
                    ScalarStyle::Literal => self.write_literal(&chars, indent),
                }
                return;
            }
            _ => return,
        };
        let chars: Vec<char> = text.chars().collect();
        self.write_plain(&chars, !simple_key, indent);
    }

    fn emit_flow_empty(&mut self, open: &str, close: &str) {
        self.write_indicator(open, true, true, false);
        self.write_indicator(close, false, false, false);
    }

    fn emit_mapping(&mut self, m: &Map<String, Value>, indent: usize) {
        let mut keys: Vec<&String> = m.keys().collect();
        keys.csort_by(|a, b| {
            if yaml_key_less(a, b) {
                std::cmp::Ordering::Less
            } else if yaml_key_less(b, a) {
                std::cmp::Ordering::Greater
            } else {
                std::cmp::Ordering::Equal
            }
        });
        for k in keys {
            let Some(v) = m.get(k.as_str()) else { continue };
            self.write_indent(indent);
            self.emit_scalar(&Value::String(k.clone()), indent + 2, true);
            self.write_indicator(":", false, false, false);
            match v {
                Value::Object(o) if o.is_empty() => self.emit_flow_empty("{", "}"),
                Value::Array(a) if a.is_empty() => self.emit_flow_empty("[", "]"),
                Value::Object(o) => self.emit_mapping(o, indent + 2),
                // block sequences in a mapping are "indentless": `- ` at the key's column
                Value::Array(a) => self.emit_sequence(a, indent),
                scalar => self.emit_scalar(scalar, indent + 2, false),
            }
        }
    }

    fn emit_sequence(&mut self, a: &[Value], indent: usize) {
        for item in a {
            self.write_indent(indent);
            self.write_indicator("-", true, false, true);
            match item {
                Value::Object(o) if o.is_empty() => self.emit_flow_empty("{", "}"),
                Value::Array(x) if x.is_empty() => self.emit_flow_empty("[", "]"),
                Value::Object(o) => self.emit_mapping(o, indent + 2),
                Value::Array(x) => self.emit_sequence(x, indent + 2),
                scalar => self.emit_scalar(scalar, indent + 2, false),
            }
        }
    }
}

/// `kubectl get -o yaml` of one object (sigs.k8s.io/yaml over go-yaml v2): keys in go-yaml's
/// order, 2-space indent, `- name: x` at the key's indent, go-yaml quoting and line folding.
pub fn to_yaml(obj: &Value) -> String {
    let mut e = YamlEmitter::new();
    match obj {
        Value::Object(m) if !m.is_empty() => e.emit_mapping(m, 0),
        Value::Object(_) => e.emit_flow_empty("{", "}"),
        Value::Array(a) if !a.is_empty() => e.emit_sequence(a, 0),
        Value::Array(_) => e.emit_flow_empty("[", "]"),
        scalar => e.emit_scalar(scalar, 0, false),
    }
    // document end: make sure the last line is terminated
    e.write_indent(0);
    if !e.out.ends_with('\n') {
        e.out.push('\n');
    }
    // write_indent(0) after a terminated line adds nothing; after an unterminated one it adds
    // exactly one newline, so `out` now ends with a single "\n".
    e.out
}

/// `kubectl get pods -o yaml`: `apiVersion: v1`, `items: [...]`, `kind: List`,
/// `metadata: {resourceVersion: ""}`.
pub fn list_to_yaml(objs: &[Value]) -> String {
    to_yaml(&list_object(objs))
}

