//! The syntax errors of Go's `encoding/json`, which kube-apiserver quotes when a request body is
//! not JSON (`couldn't get version/kind; json parse error: invalid character 'x' looking for
//! beginning of value`).
//!
//! A port of the state machine of `src/encoding/json/scanner.go` (`checkValid`, the `state*`
//! functions, `quoteChar`, `SyntaxError`): [`syntax_error`] runs it over the bytes and returns
//! the message `json.Unmarshal` would return for them, or None when they are valid JSON. It only
//! checks syntax: a valid document of the wrong shape is the caller's to describe.

/// What the scanner expects next (the `parseState` stack's entries).
#[derive(Clone, Copy, PartialEq)]
enum Parse {
    ObjectKey,
    ObjectValue,
    ArrayValue,
}

/// The scanner's `step` functions.
#[derive(Clone, Copy, PartialEq)]
enum Step {
    BeginValueOrEmpty,
    BeginValue,
    BeginStringOrEmpty,
    BeginString,
    EndValue,
    EndTop,
    InString,
    InStringEsc,
    InStringEscU(u8),
    Neg,
    One,
    Zero,
    Dot,
    Dot0,
    E,
    ESign,
    E0,
    Lit(&'static [u8], usize, &'static str),
}

/// Go's `maxNestingDepth`.
const MAX_DEPTH: usize = 10000;

struct Scanner {
    step: Step,
    stack: Vec<Parse>,
    end_top: bool,
    err: Option<String>,
}

fn is_space(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\r' | b'\n')
}

/// Go's `quoteChar`: `'x'`, `'\''`, `'"'`, and `strconv.Quote`'s escapes for the rest (a byte is
/// quoted as the code point of its value, as `string(c)` makes it).
pub fn quote_char(c: u8) -> String {
    match c {
        b'\'' => r"'\''".to_string(),
        b'"' => "'\"'".to_string(),
        0x07 => r"'\a'".into(),
        0x08 => r"'\b'".into(),
        0x0c => r"'\f'".into(),
        b'\n' => r"'\n'".into(),
        b'\r' => r"'\r'".into(),
        b'\t' => r"'\t'".into(),
        0x0b => r"'\v'".into(),
        b'\\' => r"'\\'".into(),
        c if c < 0x20 || c == 0x7f => format!("'\\x{:02x}'", c),
        // C1 controls, NBSP and the soft hyphen are not printable for strconv.IsPrint
        c if (0x80..=0xa0).contains(&c) || c == 0xad => format!("'\\u{:04x}'", c),
        c => format!("'{}'", char::from(c)),
    }
}

impl Scanner {
    fn error(&mut self, c: u8, context: &str) {
        if self.err.is_none() {
            self.err = Some(format!("invalid character {} {}", quote_char(c), context));
        }
        self.step = Step::EndTop;
    }

    fn push(&mut self, p: Parse, c: u8) -> bool {
        self.stack.push(p);
        if self.stack.len() > MAX_DEPTH {
            self.error(c, "exceeded max depth");
            return false;
        }
        true
    }

    fn pop(&mut self) {
        self.stack.pop();
        if self.stack.is_empty() {
            self.step = Step::EndTop;
            self.end_top = true;
        } else {
            self.step = Step::EndValue;
        }
    }

    fn begin_value(&mut self, c: u8) {
        if is_space(c) {
            return;
        }
        match c {
            b'{' => {
                if self.push(Parse::ObjectKey, c) {
                    self.step = Step::BeginStringOrEmpty;
                }
            }
            b'[' => {
                if self.push(Parse::ArrayValue, c) {
                    self.step = Step::BeginValueOrEmpty;
                }
            }
            b'"' => self.step = Step::InString,
            b'-' => self.step = Step::Neg,
            b'0' => self.step = Step::Zero,
            b't' => self.step = Step::Lit(b"rue", 0, "true"),
            b'f' => self.step = Step::Lit(b"alse", 0, "false"),
            b'n' => self.step = Step::Lit(b"ull", 0, "null"),
            b'1'..=b'9' => self.step = Step::One,
            _ => self.error(c, "looking for beginning of value"),
        }
    }

    fn end_value(&mut self, c: u8) {
        let Some(&ps) = self.stack.last() else {
            self.step = Step::EndTop;
            self.end_top = true;
            return self.end_top_step(c);
        };
        if is_space(c) {
            self.step = Step::EndValue;
            return;
        }
        let n = self.stack.len();
        match ps {
            Parse::ObjectKey => {
                if c == b':' {
                    self.stack[n - 1] = Parse::ObjectValue;
                    self.step = Step::BeginValue;
                } else {
                    self.error(c, "after object key");
                }
            }
            Parse::ObjectValue => match c {
                b',' => {
                    self.stack[n - 1] = Parse::ObjectKey;
                    self.step = Step::BeginString;
                }
                b'}' => self.pop(),
                _ => self.error(c, "after object key:value pair"),
            },
            Parse::ArrayValue => match c {
                b',' => self.step = Step::BeginValue,
                b']' => self.pop(),
                _ => self.error(c, "after array element"),
            },
        }
    }

    fn end_top_step(&mut self, c: u8) {
        if !is_space(c) {
            self.error(c, "after top-level value");
        }
    }

    fn feed(&mut self, c: u8) {
        match self.step {
            Step::BeginValueOrEmpty => {
                if is_space(c) {
                } else if c == b']' {
                    self.end_value(c);
                } else {
                    self.begin_value(c);
                }
            }
            Step::BeginValue => self.begin_value(c),
            Step::BeginStringOrEmpty => {
                if is_space(c) {
                } else if c == b'}' {
                    let n = self.stack.len();
                    self.stack[n - 1] = Parse::ObjectValue;
                    self.end_value(c);
                } else {
                    self.begin_string(c);
                }
            }
            Step::BeginString => self.begin_string(c),
            Step::EndValue => self.end_value(c),
            Step::EndTop => self.end_top_step(c),
            Step::InString => match c {
                b'"' => self.step = Step::EndValue,
                b'\\' => self.step = Step::InStringEsc,
                c if c < 0x20 => self.error(c, "in string literal"),
                _ => {}
            },
            Step::InStringEsc => match c {
                b'b' | b'f' | b'n' | b'r' | b't' | b'\\' | b'/' | b'"' => self.step = Step::InString,
                b'u' => self.step = Step::InStringEscU(0),
                _ => self.error(c, "in string escape code"),
            },
            Step::InStringEscU(k) => {
                if c.is_ascii_hexdigit() {
                    self.step = if k == 3 { Step::InString } else { Step::InStringEscU(k + 1) };
                } else {
                    self.error(c, "in \\u hexadecimal character escape");
                }
            }
            Step::Neg => match c {
                b'0' => self.step = Step::Zero,
                b'1'..=b'9' => self.step = Step::One,
                _ => self.error(c, "in numeric literal"),
            },
            Step::One => {
                if !c.is_ascii_digit() {
                    self.zero(c);
                }
            }
            Step::Zero => self.zero(c),
            Step::Dot => {
                if c.is_ascii_digit() {
                    self.step = Step::Dot0;
                } else {
                    self.error(c, "after decimal point in numeric literal");
                }
            }
            Step::Dot0 => {
                if c.is_ascii_digit() {
                } else if c == b'e' || c == b'E' {
                    self.step = Step::E;
                } else {
                    self.end_value(c);
                }
            }
            Step::E => {
                if c == b'+' || c == b'-' {
                    self.step = Step::ESign;
                } else {
                    self.e_sign(c);
                }
            }
            Step::ESign => self.e_sign(c),
            Step::E0 => {
                if !c.is_ascii_digit() {
                    self.end_value(c);
                }
            }
            Step::Lit(rest, i, word) => {
                if c == rest[i] {
                    self.step = if i + 1 == rest.len() { Step::EndValue } else { Step::Lit(rest, i + 1, word) };
                } else {
                    let ctx = format!("in literal {} (expecting {})", word, quote_char(rest[i]));
                    self.error(c, &ctx);
                }
            }
        }
    }

    fn begin_string(&mut self, c: u8) {
        if is_space(c) {
            return;
        }
        if c == b'"' {
            self.step = Step::InString;
        } else {
            self.error(c, "looking for beginning of object key string");
        }
    }

    fn zero(&mut self, c: u8) {
        match c {
            b'.' => self.step = Step::Dot,
            b'e' | b'E' => self.step = Step::E,
            _ => self.end_value(c),
        }
    }

    fn e_sign(&mut self, c: u8) {
        if c.is_ascii_digit() {
            self.step = Step::E0;
        } else {
            self.error(c, "in exponent of numeric literal");
        }
    }
}

/// The error `json.Unmarshal` gives for `data` when it is not valid JSON (Go's `checkValid`).
pub fn syntax_error(data: &[u8]) -> Option<String> {
    let mut s = Scanner { step: Step::BeginValue, stack: Vec::new(), end_top: false, err: None };
    for &c in data {
        s.feed(c);
        if s.err.is_some() {
            return s.err;
        }
    }
    // eof: a space ends a pending number or literal that is complete
    if s.end_top {
        return None;
    }
    s.feed(b' ');
    if s.err.is_some() {
        return s.err;
    }
    if s.end_top {
        return None;
    }
    Some("unexpected end of JSON input".into())
}

/// What `json.Unmarshal` into a struct says of a valid document that is not an object
/// (`json: cannot unmarshal array into Go value of type …`), for the JSON type of `v`.
pub fn json_type_name(v: &serde_json::Value) -> &'static str {
    match v {
        serde_json::Value::Null => "null",
        serde_json::Value::Bool(_) => "bool",
        serde_json::Value::Number(_) => "number",
        serde_json::Value::String(_) => "string",
        serde_json::Value::Array(_) => "array",
        serde_json::Value::Object(_) => "object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_syntax_errors() {
        let cases: &[(&str, Option<&str>)] = &[
            ("{}", None),
            (" [1, -2.5e+3, true, false, null, \"a\\u00e9\"] ", None),
            ("0", None),
            ("", Some("unexpected end of JSON input")),
            ("{\"a\":", Some("unexpected end of JSON input")),
            ("{\"apiVersion\":\"v1\",", Some("unexpected end of JSON input")),
            ("xyz", Some("invalid character 'x' looking for beginning of value")),
            ("{a:1}", Some("invalid character 'a' looking for beginning of object key string")),
            ("{\"a\" 1}", Some("invalid character '1' after object key")),
            ("{\"a\":1 \"b\"}", Some("invalid character '\"' after object key:value pair")),
            ("[1 2]", Some("invalid character '2' after array element")),
            ("{} x", Some("invalid character 'x' after top-level value")),
            ("tru", Some("invalid character ' ' in literal true (expecting 'e')")),
            ("trux", Some("invalid character 'x' in literal true (expecting 'e')")),
            ("nul", Some("invalid character ' ' in literal null (expecting 'l')")),
            ("-", Some("invalid character ' ' in numeric literal")),
            ("01", Some("invalid character '1' after top-level value")),
            ("-x", Some("invalid character 'x' in numeric literal")),
            ("1.x", Some("invalid character 'x' after decimal point in numeric literal")),
            ("1ex", Some("invalid character 'x' in exponent of numeric literal")),
            ("\"a\nb\"", Some("invalid character '\\n' in string literal")),
            ("\"\\x\"", Some("invalid character 'x' in string escape code")),
            ("\"\\u12g4\"", Some("invalid character 'g' in \\u hexadecimal character escape")),
            ("{'a':1}", Some("invalid character '\\'' looking for beginning of object key string")),
            ("\u{1}", Some("invalid character '\\x01' looking for beginning of value")),
        ];
        for (input, want) in cases {
            assert_eq!(syntax_error(input.as_bytes()).as_deref(), *want, "{:?}", input);
        }
        assert_eq!(syntax_error(&[0xe9]).as_deref(), Some("invalid character 'é' looking for beginning of value"));
        assert_eq!(syntax_error(&[0x85]).as_deref(), Some("invalid character '\\u0085' looking for beginning of value"));
        let deep = "[".repeat(10001);
        assert_eq!(syntax_error(deep.as_bytes()).as_deref(), Some("invalid character '[' exceeded max depth"));
    }
}
