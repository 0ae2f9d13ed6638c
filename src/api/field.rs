//! Field-level validation errors and how they are printed.
//!
//! Real counterparts:
//! - `staging/src/k8s.io/apimachinery/pkg/util/validation/field/errors.go` (`field.Error`,
//!   `ErrorBody`, the constructors `Required`, `Invalid`, `NotSupported`, ...) and `path.go`
//!   (`field.Path`: `spec.containers[0].image`, `resources.limits[cpu]`);
//! - `staging/src/k8s.io/apimachinery/pkg/util/errors/errors.go` (the aggregate `[e1, e2]`);
//! - `staging/src/k8s.io/apimachinery/pkg/api/errors/errors.go` (`NewInvalid`: HTTP 422, reason
//!   `Invalid`, message `Deployment.apps "web" is invalid: ...`);
//! - `staging/src/k8s.io/kubectl/pkg/cmd/util/helpers.go` (`checkErr` / `MultilineError`: what
//!   `kubectl apply` prints for a 422).
//!
//! How a bad value is printed (v1.34, apimachinery commit "Nicer value rendering in API errors",
//! kubernetes PR #132314):
//! - Go `int64`, `int32`, `float64`, `float32`, `bool`: `%v` (`-1`, `true`);
//! - Go `string`: `%q`, i.e. Go-quoted (`"My_App"`);
//! - anything else (maps, structs, pointers, typedef'd strings such as `core.RestartPolicy`):
//!   `json.Marshal`, e.g. `{"app":"nginx"}`. Up to v1.33 this was Go's `%#v`
//!   (`map[string]string{"app":"nginx"}`).
//!
//! Validation upstream runs on the *internal* Go types, which carry no JSON tags, so a struct
//! value renders with Go field names (`{"Type":"Foo","RollingUpdate":null}`); the callers in
//! [`super::validation`] build such values explicitly. A typedef'd string goes through JSON rather
//! than `%q`; the two only differ in escaping (`<`, `>`, `&` become `\u003c`...), which
//! [`FieldError::json_rendered`] reproduces.
//!
//! Simplifications: the `Origin`/declarative-validation bookkeeping of newer apimachinery is not
//! modelled; `TypeInvalid`, `TooShort` and `TooFew` are not used by kubesim and are left out.

use serde_json::{json, Value};
use std::collections::BTreeSet;
use std::fmt;

/// `field.ErrorType`. The `Display`/[`ErrorType::as_str`] text is `ErrorType.String()`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ErrorType {
    NotFound,
    Required,
    Duplicate,
    Invalid,
    NotSupported,
    Forbidden,
    TooLong,
    TooMany,
    Internal,
}

impl ErrorType {
    /// The human text (`ErrorType.String()`), e.g. `Required value`.
    pub fn as_str(&self) -> &'static str {
        match self {
            ErrorType::NotFound => "Not found",
            ErrorType::Required => "Required value",
            ErrorType::Duplicate => "Duplicate value",
            ErrorType::Invalid => "Invalid value",
            ErrorType::NotSupported => "Unsupported value",
            ErrorType::Forbidden => "Forbidden",
            ErrorType::TooLong => "Too long",
            ErrorType::TooMany => "Too many",
            ErrorType::Internal => "Internal error",
        }
    }

    /// The machine-readable value (`metav1.CauseType`) used as `reason` of a Status cause,
    /// e.g. `FieldValueRequired`.
    pub fn cause_type(&self) -> &'static str {
        match self {
            ErrorType::NotFound => "FieldValueNotFound",
            ErrorType::Required => "FieldValueRequired",
            ErrorType::Duplicate => "FieldValueDuplicate",
            ErrorType::Invalid => "FieldValueInvalid",
            ErrorType::NotSupported => "FieldValueNotSupported",
            ErrorType::Forbidden => "FieldValueForbidden",
            ErrorType::TooLong => "FieldValueTooLong",
            ErrorType::TooMany => "FieldValueTooMany",
            ErrorType::Internal => "InternalError",
        }
    }
}

impl fmt::Display for ErrorType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One field error (`field.Error`).
#[derive(Clone, Debug, PartialEq)]
pub struct FieldError {
    pub error_type: ErrorType,
    /// The rendered path, e.g. `spec.template.spec.containers[0].image`.
    pub field: String,
    /// The offending value. `None` means "omit the value" (upstream `omitValue`): the body is
    /// then just the type text.
    pub bad_value: Option<Value>,
    pub detail: String,
    /// For `NotSupported`: the supported values, in the order given (already part of `detail`).
    pub supported: Vec<String>,
    /// Render a string value through JSON instead of `%q` (upstream: a typedef'd string such as
    /// `core.PullPolicy` does not match the `case string` of `ErrorBody`).
    pub render_json: bool,
    /// An already rendered value, used verbatim. Needed for Go structs, whose JSON keeps the
    /// field declaration order (`{"matchLabels":...,"matchExpressions":...}`), which a sorted
    /// `serde_json` map cannot express.
    pub raw_value: Option<String>,
}

impl FieldError {
    fn new(error_type: ErrorType, field: &str, bad_value: Option<Value>, detail: &str) -> Self {
        FieldError {
            error_type,
            field: field.to_string(),
            bad_value,
            detail: detail.to_string(),
            supported: Vec::new(),
            render_json: false,
            raw_value: None,
        }
    }

    /// `field.Required`: body `Required value` (+ `: detail`).
    pub fn required(field: &str, detail: &str) -> Self {
        Self::new(
            ErrorType::Required,
            field,
            Some(Value::String(String::new())),
            detail,
        )
    }

    /// `field.Invalid`: body `Invalid value: <v>: <detail>`.
    pub fn invalid(field: &str, v: Value, detail: &str) -> Self {
        Self::new(ErrorType::Invalid, field, Some(v), detail)
    }

    /// `field.NotSupported`: body `Unsupported value: <v>: supported values: "A", "B"`.
    pub fn not_supported(field: &str, v: Value, supported: &[&str]) -> Self {
        let detail = if supported.is_empty() {
            String::new()
        } else {
            let quoted: Vec<String> = supported.iter().map(|s| go_quote(s)).collect();
            format!("supported values: {}", quoted.join(", "))
        };
        let mut e = Self::new(ErrorType::NotSupported, field, Some(v), &detail);
        e.supported = supported.iter().map(|s| s.to_string()).collect();
        e
    }

    /// `field.Forbidden`: body `Forbidden` (+ `: detail`).
    pub fn forbidden(field: &str, detail: &str) -> Self {
        Self::new(
            ErrorType::Forbidden,
            field,
            Some(Value::String(String::new())),
            detail,
        )
    }

    /// `field.TooLong`: body `Too long: may not be more than <n> bytes` (the value is never
    /// shown). A negative `max_len` gives `value is too long`.
    pub fn too_long(field: &str, max_len: i64) -> Self {
        let detail = if max_len >= 0 {
            let unit = if max_len == 1 { "byte" } else { "bytes" };
            format!("may not be more than {} {}", max_len, unit)
        } else {
            "value is too long".to_string()
        };
        Self::new(
            ErrorType::TooLong,
            field,
            Some(json!("<value omitted>")),
            &detail,
        )
    }

    /// `field.TooMany`: body `Too many: <actual>: must have at most <max> items`.
    pub fn too_many(field: &str, actual: i64, max: i64) -> Self {
        let detail = if max >= 0 {
            let unit = if max == 1 { "item" } else { "items" };
            format!("must have at most {} {}", max, unit)
        } else {
            "has too many items".to_string()
        };
        let value = if actual >= 0 {
            Some(json!(actual))
        } else {
            None
        };
        Self::new(ErrorType::TooMany, field, value, &detail)
    }

    /// `field.Duplicate`: body `Duplicate value: <v>`.
    pub fn duplicate(field: &str, v: Value) -> Self {
        Self::new(ErrorType::Duplicate, field, Some(v), "")
    }

    /// `field.NotFound`: body `Not found: <v>`.
    pub fn not_found(field: &str, v: Value) -> Self {
        Self::new(ErrorType::NotFound, field, Some(v), "")
    }

    /// `field.InternalError`: body `Internal error: <detail>`.
    pub fn internal(field: &str, detail: &str) -> Self {
        Self::new(
            ErrorType::Internal,
            field,
            Some(Value::String(detail.to_string())),
            detail,
        )
    }

    /// Replace the detail (upstream code sometimes sets `err.Detail` after construction, e.g.
    /// duplicate taints: "taints must be unique by key and effect pair").
    pub fn with_detail(mut self, detail: &str) -> Self {
        self.detail = detail.to_string();
        self
    }

    /// Render the value through JSON even when it is a string (typedef'd Go strings).
    pub fn json_rendered(mut self) -> Self {
        self.render_json = true;
        self
    }

    /// Print `rendered` verbatim as the value (see [`FieldError::raw_value`]).
    pub fn with_raw_value(mut self, rendered: String) -> Self {
        self.raw_value = Some(rendered);
        self
    }

    /// `ErrorBody()`: the message without the field path.
    pub fn error_body(&self) -> String {
        let mut s = match self.error_type {
            ErrorType::Required
            | ErrorType::Forbidden
            | ErrorType::TooLong
            | ErrorType::Internal => self.error_type.as_str().to_string(),
            _ => match &self.bad_value {
                _ if self.raw_value.is_some() => {
                    format!(
                        "{}: {}",
                        self.error_type.as_str(),
                        self.raw_value.as_deref().unwrap_or("")
                    )
                }
                None => self.error_type.as_str().to_string(),
                Some(v) => {
                    let rendered = if self.render_json {
                        go_json(v)
                    } else {
                        render_value(v)
                    };
                    format!("{}: {}", self.error_type.as_str(), rendered)
                }
            },
        };
        if !self.detail.is_empty() {
            s.push_str(": ");
            s.push_str(&self.detail);
        }
        s
    }

    /// A `metav1.StatusCause` for this error: `{"reason", "message", "field"}`.
    pub fn status_cause(&self) -> Value {
        json!({
            "reason": self.error_type.cause_type(),
            "message": self.error_body(),
            "field": self.field,
        })
    }
}

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.error_body())
    }
}

/// `field.Path` rendering: `Child` adds `.name`, `Index` adds `[i]`, `Key` adds `[key]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Path(String);

impl Path {
    pub fn new(root: &str) -> Self {
        Path(root.to_string())
    }
    pub fn child(&self, name: &str) -> Self {
        if self.0.is_empty() {
            Path(name.to_string())
        } else {
            Path(format!("{}.{}", self.0, name))
        }
    }
    pub fn index(&self, i: usize) -> Self {
        Path(format!("{}[{}]", self.0, i))
    }
    pub fn key(&self, k: &str) -> Self {
        Path(format!("{}[{}]", self.0, k))
    }
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Path {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// `ErrorList.ToAggregate().Error()`: duplicates (by message) are dropped; one error prints
/// bare, several print as `[e1, e2]`; none prints as the empty string.
pub fn aggregate(errs: &[FieldError]) -> String {
    let msgs = dedup_messages(errs.iter().map(|e| e.to_string()));
    match msgs.len() {
        0 => String::new(),
        1 => msgs[0].clone(),
        _ => format!("[{}]", msgs.join(", ")),
    }
}

fn dedup_messages<I: Iterator<Item = String>>(it: I) -> Vec<String> {
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    for m in it {
        if seen.insert(m.clone()) {
            out.push(m);
        }
    }
    out
}

/// `schema.GroupKind.String()`: `Deployment.apps`, or just `Pod` for the core group.
fn group_kind(kind: &str, group: &str) -> String {
    if group.is_empty() {
        kind.to_string()
    } else {
        format!("{}.{}", kind, group)
    }
}

/// The Status message of `apierrors.NewInvalid`, e.g.
/// `Deployment.apps "web" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0`.
pub fn invalid_status_message(kind: &str, group: &str, name: &str, errs: &[FieldError]) -> String {
    // `%v` of a nil aggregate (no errors) is `<nil>`.
    let agg = if errs.is_empty() {
        "<nil>".to_string()
    } else {
        aggregate(errs)
    };
    format!(
        "{} {} is invalid: {}",
        group_kind(kind, group),
        go_quote(name),
        agg
    )
}

/// The whole `metav1.Status` object of `apierrors.NewInvalid` (HTTP 422). Causes are not
/// deduplicated (only the message is).
pub fn invalid_status(kind: &str, group: &str, name: &str, errs: &[FieldError]) -> Value {
    let mut details = serde_json::Map::new();
    if !name.is_empty() {
        details.insert("name".into(), json!(name));
    }
    if !group.is_empty() {
        details.insert("group".into(), json!(group));
    }
    if !kind.is_empty() {
        details.insert("kind".into(), json!(kind));
    }
    if !errs.is_empty() {
        details.insert(
            "causes".into(),
            Value::Array(errs.iter().map(|e| e.status_cause()).collect()),
        );
    }
    json!({
        "kind": "Status",
        "apiVersion": "v1",
        "metadata": {},
        "status": "Failure",
        "message": invalid_status_message(kind, group, name, errs),
        "reason": "Invalid",
        "details": Value::Object(details),
        "code": 422,
    })
}

/// What kubectl prints for a 422 (`checkErr` + `MultilineError`), without the final newline the
/// terminal adds:
/// - one cause: `The Deployment "web" is invalid: spec.replicas: Invalid value: -1: ...`;
/// - several: the prefix `The Deployment "web" is invalid: ` (note the trailing space, from
///   `Fprintln(prefix)`), then one `* <field>: <body>` line per distinct cause.
///
/// The kind is `details.kind` (no group), and the file name is never shown for a 422.
pub fn kubectl_invalid_output(kind: &str, name: &str, errs: &[FieldError]) -> String {
    let mut s = "The request is invalid".to_string();
    if !kind.is_empty() || !name.is_empty() {
        s = format!("The {} {} is invalid", kind, go_quote(name));
    }
    // statusCausesToAggrError: dedupe on "<field>: <message>".
    let msgs = dedup_messages(
        errs.iter()
            .map(|e| format!("{}: {}", e.field, e.error_body())),
    );
    match msgs.len() {
        0 => s,
        1 => format!("{}: {}", s, msgs[0]),
        _ => {
            let mut out = format!("{}: ", s);
            for m in &msgs {
                out.push('\n');
                out.push_str("* ");
                out.push_str(m);
            }
            out
        }
    }
}

/// How `ErrorBody` prints a bad value: numbers and bools with `%v`, strings with `%q`, anything
/// else as Go JSON.
pub fn render_value(v: &Value) -> String {
    match v {
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                i.to_string()
            } else if let Some(u) = n.as_u64() {
                u.to_string()
            } else {
                go_float(n.as_f64().unwrap_or(0.0))
            }
        }
        Value::Bool(b) => b.to_string(),
        Value::String(s) => go_quote(s),
        _ => go_json(v),
    }
}

/// Go's `strconv.Quote`: double quotes, `\"` and `\\`, the C escapes, printable characters kept
/// as they are, other characters as `\xNN`, `\uNNNN` or `\UNNNNNNNN`.
pub fn go_quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{07}' => out.push_str("\\a"),
            '\u{08}' => out.push_str("\\b"),
            '\u{0c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{0b}' => out.push_str("\\v"),
            c if go_is_print(c) => out.push(c),
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                out.push_str(&format!("\\x{:02x}", c as u32))
            }
            c if (c as u32) < 0x10000 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push_str(&format!("\\U{:08x}", c as u32)),
        }
    }
    out.push('"');
    out
}

/// An approximation of Go's `unicode.IsPrint`: graphic characters plus the ASCII space; other
/// spaces, controls and format characters are not printable.
fn go_is_print(c: char) -> bool {
    if c == ' ' {
        return true;
    }
    if c.is_control() || c.is_whitespace() {
        return false;
    }
    let u = c as u32;
    // Format characters (Cf) and private use / unassigned surrogates that Go does not print.
    !matches!(u,
        0x00AD | 0x0600..=0x0605 | 0x061C | 0x06DD | 0x070F | 0x180E | 0x200B..=0x200F
        | 0x202A..=0x202E | 0x2060..=0x2064 | 0x2066..=0x206F | 0xFEFF | 0xFFF9..=0xFFFB
        | 0xE000..=0xF8FF | 0xF0000..=0x10FFFF)
}

/// Go's `json.Marshal` of a value: compact, object keys sorted (Go sorts map keys; kubesim's
/// objects are sorted maps), and HTML-safe escaping of `<`, `>`, `&`, U+2028 and U+2029.
pub fn go_json(v: &Value) -> String {
    let s = serde_json::to_string(v).unwrap_or_default();
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            c => out.push(c),
        }
    }
    out
}

/// Go's `%v` of a `float64`: `strconv.FormatFloat(f, 'g', -1, 64)`, the shortest digits that
/// round-trip, in `%e` form (`1e+06`) when the decimal exponent is below -4 or at least 6.
fn go_float(f: f64) -> String {
    if f.is_nan() {
        return "NaN".into();
    }
    if f.is_infinite() {
        return if f > 0.0 {
            "+Inf".into()
        } else {
            "-Inf".into()
        };
    }
    if f == 0.0 {
        return if f.is_sign_negative() {
            "-0".into()
        } else {
            "0".into()
        };
    }
    // Shortest round-trip digits via Rust's `{:e}` formatting.
    let e = format!("{:e}", f); // e.g. "1.5e0", "-1e21"
    let (mant, exp) = match e.split_once('e') {
        Some((m, x)) => (m.to_string(), x.parse::<i32>().unwrap_or(0)),
        None => return e,
    };
    // strconv's 'g' with the shortest precision uses eprec = 6 for the %e/%f decision.
    if !(-4..6).contains(&exp) {
        let sign = if exp < 0 { '-' } else { '+' };
        format!("{}e{}{:02}", mant, sign, exp.abs())
    } else {
        let neg = mant.starts_with('-');
        let digits: String = mant.chars().filter(|c| c.is_ascii_digit()).collect();
        let point = exp + 1; // position of the decimal point in `digits`
        let body = if point <= 0 {
            format!("0.{}{}", "0".repeat((-point) as usize), digits)
        } else if (point as usize) >= digits.len() {
            format!("{}{}", digits, "0".repeat(point as usize - digits.len()))
        } else {
            format!(
                "{}.{}",
                &digits[..point as usize],
                &digits[point as usize..]
            )
        };
        if neg {
            format!("-{}", body)
        } else {
            body
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct BodyCase {
        name: &'static str,
        err: FieldError,
        want: &'static str,
    }

    #[test]
    fn error_strings() {
        let cases = vec![
            BodyCase { name: "required empty detail", err: FieldError::required("spec.selector", ""), want: "spec.selector: Required value" },
            BodyCase {
                name: "required with detail",
                err: FieldError::required("metadata.name", "name or generateName is required"),
                want: "metadata.name: Required value: name or generateName is required",
            },
            BodyCase {
                name: "invalid int",
                err: FieldError::invalid("spec.replicas", json!(-1), "must be greater than or equal to 0"),
                want: "spec.replicas: Invalid value: -1: must be greater than or equal to 0",
            },
            BodyCase {
                name: "invalid string is Go-quoted",
                err: FieldError::invalid("metadata.name", json!("a\"b\n"), "x"),
                want: "metadata.name: Invalid value: \"a\\\"b\\n\": x",
            },
            BodyCase {
                name: "invalid map is JSON",
                err: FieldError::invalid("spec.template.metadata.labels", json!({"app": "other"}), "`selector` does not match template `labels`"),
                want: "spec.template.metadata.labels: Invalid value: {\"app\":\"other\"}: `selector` does not match template `labels`",
            },
            BodyCase {
                name: "invalid null",
                err: FieldError::invalid("x", Value::Null, "d"),
                want: "x: Invalid value: null: d",
            },
            BodyCase {
                name: "not supported",
                err: FieldError::not_supported("spec.template.spec.restartPolicy", json!("Never"), &["Always"]),
                want: "spec.template.spec.restartPolicy: Unsupported value: \"Never\": supported values: \"Always\"",
            },
            BodyCase {
                name: "not supported json rendering escapes html",
                err: FieldError::not_supported("p", json!("<x>"), &["A", "B"]).json_rendered(),
                want: "p: Unsupported value: \"\\u003cx\\u003e\": supported values: \"A\", \"B\"",
            },
            BodyCase { name: "forbidden", err: FieldError::forbidden("spec", "nope"), want: "spec: Forbidden: nope" },
            BodyCase {
                name: "too long",
                err: FieldError::too_long("metadata.annotations", 262144),
                want: "metadata.annotations: Too long: may not be more than 262144 bytes",
            },
            BodyCase { name: "duplicate", err: FieldError::duplicate("c[1].name", json!("x")), want: "c[1].name: Duplicate value: \"x\"" },
            BodyCase { name: "not found", err: FieldError::not_found("v[0].name", json!("data")), want: "v[0].name: Not found: \"data\"" },
            BodyCase { name: "too many", err: FieldError::too_many("x", 5, 3), want: "x: Too many: 5: must have at most 3 items" },
            BodyCase { name: "too many omitted", err: FieldError::too_many("x", -1, 1), want: "x: Too many: must have at most 1 item" },
            BodyCase { name: "internal", err: FieldError::internal("x", "boom"), want: "x: Internal error: boom" },
            BodyCase { name: "float", err: FieldError::invalid("x", json!(1.5), "d"), want: "x: Invalid value: 1.5: d" },
            BodyCase { name: "bool", err: FieldError::invalid("x", json!(true), "d"), want: "x: Invalid value: true: d" },
        ];
        for c in cases {
            assert_eq!(c.err.to_string(), c.want, "case {}", c.name);
        }
    }

    #[test]
    fn quoting_and_floats() {
        let cases: Vec<(&str, String, &str)> = vec![
            ("plain", go_quote("web"), "\"web\""),
            ("unicode kept", go_quote("héllo"), "\"héllo\""),
            ("control", go_quote("\u{1}"), "\"\\x01\""),
            ("nbsp", go_quote("\u{a0}"), "\"\\u00a0\""),
            ("float large", go_float(1e21), "1e+21"),
            ("float million", go_float(1234567.0), "1.234567e+06"),
            ("float small", go_float(0.00001), "1e-05"),
            ("float mid", go_float(123456.5), "123456.5"),
            ("float int-like", go_float(100.0), "100"),
        ];
        for (name, got, want) in cases {
            assert_eq!(got, want, "case {}", name);
        }
    }

    #[test]
    fn aggregates_and_kubectl() {
        let e1 = FieldError::required("spec.selector", "");
        let e2 = FieldError::invalid(
            "spec.replicas",
            json!(-1),
            "must be greater than or equal to 0",
        );
        struct Case {
            name: &'static str,
            errs: Vec<FieldError>,
            agg: &'static str,
            status: &'static str,
            kubectl: &'static str,
        }
        let cases = vec![
            Case {
                name: "single",
                errs: vec![e2.clone()],
                agg: "spec.replicas: Invalid value: -1: must be greater than or equal to 0",
                status: "Deployment.apps \"web\" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0",
                kubectl: "The Deployment \"web\" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0",
            },
            Case {
                name: "two with a duplicate",
                errs: vec![e1.clone(), e2.clone(), e1.clone()],
                agg: "[spec.selector: Required value, spec.replicas: Invalid value: -1: must be greater than or equal to 0]",
                status: "Deployment.apps \"web\" is invalid: [spec.selector: Required value, spec.replicas: Invalid value: -1: must be greater than or equal to 0]",
                kubectl: "The Deployment \"web\" is invalid: \n* spec.selector: Required value\n* spec.replicas: Invalid value: -1: must be greater than or equal to 0",
            },
        ];
        for c in cases {
            assert_eq!(aggregate(&c.errs), c.agg, "agg {}", c.name);
            assert_eq!(
                invalid_status_message("Deployment", "apps", "web", &c.errs),
                c.status,
                "status {}",
                c.name
            );
            assert_eq!(
                kubectl_invalid_output("Deployment", "web", &c.errs),
                c.kubectl,
                "kubectl {}",
                c.name
            );
        }
        assert_eq!(
            invalid_status_message("Pod", "", "p", std::slice::from_ref(&e1)),
            "Pod \"p\" is invalid: spec.selector: Required value"
        );
        let st = invalid_status("Deployment", "apps", "web", &[e1]);
        assert_eq!(st["code"], json!(422));
        assert_eq!(
            st["details"]["causes"][0],
            json!({"reason": "FieldValueRequired", "message": "Required value", "field": "spec.selector"})
        );
    }

    #[test]
    fn paths() {
        let p = Path::new("spec")
            .child("containers")
            .index(0)
            .child("resources")
            .child("limits")
            .key("cpu");
        assert_eq!(p.as_str(), "spec.containers[0].resources.limits[cpu]");
    }
}
