//! Strict field validation of request bodies, as a Kubernetes v1.34 kube-apiserver does it for
//! `fieldValidation=Strict` (kubectl's default `--validate=strict`).
//!
//! Upstream the check is not a separate validator: it is the JSON decoder itself.
//! `k8s.io/apimachinery/pkg/runtime/serializer/json/json.go` (`Serializer.Decode` / `unmarshal`)
//! decodes the body into the *versioned* Go struct (`apps/v1.Deployment`, `core/v1.Pod`, ...)
//! with `sigs.k8s.io/json.UnmarshalStrict`, a fork of Go's `encoding/json`
//! (`internal/golang/encoding/json/decode.go`, `kubernetes_patch.go`) that is case-sensitive and
//! collects "strict" errors. Three outcomes matter here, and this module reproduces each:
//!
//! 1. A *fatal* error: a custom `UnmarshalJSON` failed (`resource.Quantity`, `intstr.IntOrString`,
//!    `metav1.Time`/`MicroTime`). Decoding stops at once and this error wins over everything else,
//!    e.g. `quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'`.
//! 2. A *type* error: a JSON value of the wrong kind for the Go field. The decoder saves only the
//!    first one (`decodeState.saveError`), skips the value and goes on; the saved error is returned
//!    at the end and the strict errors are dropped. Its text is Go's `UnmarshalTypeError`:
//!    `json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32`,
//!    where `DeploymentSpec` is the Go struct holding the last field entered and the path lists the
//!    JSON field names from the root *without* array indices or map keys (`errorContext.FieldStack`).
//! 3. *Strict* errors, when nothing else failed: `unknown field "spec.template.spec.containers[0].imagee"`
//!    (path with `[i]` indices and map keys, `strictFieldStack`), de-duplicated, at most 100, joined
//!    with ", " behind `strict decoding error: ` (`k8s.io/apimachinery/pkg/runtime/error.go`).
//!
//! The apiserver then wraps the message (`k8s.io/apiserver/pkg/endpoints/handlers/rest.go`
//! `transformDecodeError`) as `Deployment in version "v1" cannot be handled as a Deployment: <msg>`;
//! that prefix is the caller's job, [`StrictError::message`] is `<msg>`.
//!
//! The Go structs are described by `schema_data.txt`, generated from the v1.34 OpenAPI schema by
//! `tools/genschema` (one line per struct, with Go's type names where a message shows them).
//!
//! Simplifications, all because the input is an already-parsed `serde_json::Value`:
//! - duplicate fields (`duplicate field "x"`) cannot be seen and are not reported;
//! - keys are visited in sorted order, which is also the order kubectl sends them in (it
//!   re-marshals manifests from Go maps, whose JSON keys are sorted);
//! - numbers are rendered as kubectl's `json.Marshal` would send them (`1.0` becomes `1`), so
//!   `replicas: 3.0` is accepted as upstream does, and `1.5` reports `number 1.5`.
//!
//! [`normalize`] models the other half of a Go decode + encode round trip: nulls disappear,
//! unknown fields are dropped, and `resource.Quantity` values take their canonical string form
//! (`k8s.io/apimachinery/pkg/api/resource/quantity.go` `ParseQuantity`, `CanonicalizeBytes`).

use serde_json::{Map, Number, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::OnceLock;

/// A strict-decoding failure, already worded as upstream words it (without the
/// `<Kind> in version "<v>" cannot be handled as a <Kind>: ` prefix the caller adds).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StrictError {
    pub message: String,
}

impl std::fmt::Display for StrictError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

/// Runs the decoder over `obj` as the versioned Go struct of (api_version, kind): its fatal
/// error or its saved type error, else the decoder with its strict errors collected. None for a
/// kind outside the schema (not checked).
fn decode(api_version: &str, kind: &str, obj: &Value) -> Option<Result<Decoder<'static>, StrictError>> {
    let schema = schema();
    let root = *schema.kinds.get(&(api_version.to_string(), kind.to_string()))?;
    let mut decoder = Decoder::new(schema);
    let root_type = TypeRef { kind: TypeKind::Struct(root), go_name: None };
    if let Err(fatal) = decoder.value(&root_type, obj) {
        return Some(Err(StrictError { message: fatal }));
    }
    match decoder.saved_error.take() {
        Some(saved) => Some(Err(StrictError { message: saved })),
        None => Some(Ok(decoder)),
    }
}

/// What the decoder says of `obj` however `fieldValidation` is set: a fatal error (a custom
/// `UnmarshalJSON` that failed) or the first type error; unknown fields are not reported (the
/// non-strict decoder drops them). Kinds outside the schema are not checked (Ok).
pub fn type_check(api_version: &str, kind: &str, obj: &Value) -> Result<(), StrictError> {
    decode(api_version, kind, obj).map_or(Ok(()), |r| r.map(|_| ()))
}

/// Checks `obj` against the schema of group-version `api_version` ("apps/v1", "v1") and `kind`.
/// Returns Ok(()) when every field is known and well-typed. Kinds outside the schema are not
/// checked (Ok).
pub fn strict_check(api_version: &str, kind: &str, obj: &Value) -> Result<(), StrictError> {
    let Some(decoded) = decode(api_version, kind, obj) else { return Ok(()) };
    let decoder = decoded?;
    if !decoder.strict_errors.is_empty() {
        return Err(StrictError { message: format!("strict decoding error: {}", decoder.strict_errors.join(", ")) });
    }
    Ok(())
}

/// True if (api_version, kind) is one of the kinds in the schema.
pub fn is_known_kind(api_version: &str, kind: &str) -> bool {
    schema()
        .kinds
        .contains_key(&(api_version.to_string(), kind.to_string()))
}

/// Normalizes a decoded object the way a Go decode+encode round trip would: drops fields whose
/// value is JSON null and fields the Go struct does not have, turns null array/map elements into
/// their Go zero value, turns integral numbers of integer fields into integers (`3.0` -> `3`), and
/// rewrites `resource.Quantity` values into their canonical string (`cpu: 0.5` -> `"500m"`,
/// `memory: 1e3` -> `"1k"`, `"1024Mi"` -> `"1Gi"`). Time fields are left unchanged.
/// Kinds outside the schema are left unchanged.
pub fn normalize(api_version: &str, kind: &str, obj: &mut Value) {
    let schema = schema();
    if let Some(root) = schema
        .kinds
        .get(&(api_version.to_string(), kind.to_string()))
    {
        let root_type = TypeRef {
            kind: TypeKind::Struct(*root),
            go_name: None,
        };
        normalize_value(schema, &root_type, obj);
    }
}

// ---------------------------------------------------------------------------------------------
// Schema model, parsed lazily from the generated data file.

const SCHEMA_DATA: &str = include_str!("schema_data.txt");

/// The JSON-level shape of a Go field type.
#[derive(Debug, Clone, PartialEq)]
enum TypeKind {
    Str,
    Bool,
    I32,
    I64,
    F64,
    /// `[]byte`, base64 in JSON.
    Bytes,
    Quantity,
    IntOrString,
    Time,
    MicroTime,
    /// RawExtension / FieldsV1 / preserve-unknown-fields: any JSON is accepted as is.
    Any,
    /// Index into `Schema::structs`.
    Struct(usize),
    Slice(Box<TypeRef>),
    /// Map with string keys.
    Map(Box<TypeRef>),
}

#[derive(Debug, Clone, PartialEq)]
struct TypeRef {
    kind: TypeKind,
    /// Go's `reflect.Type.String()` when it is a named type (`v1.PullPolicy`, `v1.ResourceList`).
    go_name: Option<String>,
}

#[derive(Debug)]
struct StructDef {
    /// Go struct name, as `errorContext.Struct.Name()` prints it (`DeploymentSpec`).
    name: String,
    fields: BTreeMap<String, TypeRef>,
}

#[derive(Debug)]
struct Schema {
    structs: Vec<StructDef>,
    /// (apiVersion, kind) -> root struct.
    kinds: BTreeMap<(String, String), usize>,
}

fn schema() -> &'static Schema {
    static SCHEMA: OnceLock<Schema> = OnceLock::new();
    SCHEMA.get_or_init(|| parse_schema(SCHEMA_DATA))
}

/// Parses the data file. Malformed pieces are skipped (the tests check the real file is complete).
fn parse_schema(data: &str) -> Schema {
    let lines: Vec<&str> = data
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect();
    // Pass 1: number the structs so references can be resolved in any order.
    let mut index: BTreeMap<&str, usize> = BTreeMap::new();
    let mut structs = Vec::new();
    for line in &lines {
        if line.starts_with("kind ") {
            continue;
        }
        let name = line.split_whitespace().next().unwrap_or("");
        let go_name = name.rsplit('.').next().unwrap_or(name);
        index.insert(name, structs.len());
        structs.push(StructDef {
            name: go_name.to_string(),
            fields: BTreeMap::new(),
        });
    }
    // Pass 2: fields and kinds.
    let mut kinds = BTreeMap::new();
    for line in &lines {
        let mut parts = line.split_whitespace();
        let head = parts.next().unwrap_or("");
        if head == "kind" {
            let (Some(api_version), Some(kind), Some(ty)) =
                (parts.next(), parts.next(), parts.next())
            else {
                continue;
            };
            if let Some(i) = index.get(ty) {
                kinds.insert((api_version.to_string(), kind.to_string()), *i);
            }
            continue;
        }
        let Some(&i) = index.get(head) else { continue };
        for field in parts {
            let Some((name, code)) = field.split_once(':') else {
                continue;
            };
            let (code, go_name) = match code.split_once('|') {
                Some((c, g)) => (c, Some(g)),
                None => (code, None),
            };
            if let Some(ty) = parse_type(code, go_name, &index) {
                if let Some(def) = structs.get_mut(i) {
                    def.fields.insert(name.to_string(), ty);
                }
            }
        }
    }
    Schema { structs, kinds }
}

fn parse_type(code: &str, go_name: Option<&str>, index: &BTreeMap<&str, usize>) -> Option<TypeRef> {
    let kind = if let Some(elem) = code.strip_prefix("[]") {
        // A named slice type's element name is the name without "[]" (`[]v1.Capability`).
        let elem_name = go_name.and_then(|g| g.strip_prefix("[]"));
        TypeKind::Slice(Box::new(parse_type(elem, elem_name, index)?))
    } else if let Some(elem) = code.strip_prefix("{}") {
        let elem_name = go_name
            .and_then(|g| g.strip_prefix("map["))
            .and_then(|g| g.split_once(']'))
            .map(|(_, v)| v);
        TypeKind::Map(Box::new(parse_type(elem, elem_name, index)?))
    } else if let Some(target) = code.strip_prefix('@') {
        TypeKind::Struct(*index.get(target)?)
    } else {
        match code {
            "s" => TypeKind::Str,
            "b" => TypeKind::Bool,
            "i32" => TypeKind::I32,
            "i64" => TypeKind::I64,
            "f64" => TypeKind::F64,
            "byte" => TypeKind::Bytes,
            "q" => TypeKind::Quantity,
            "ios" => TypeKind::IntOrString,
            "t" => TypeKind::Time,
            "mt" => TypeKind::MicroTime,
            "any" => TypeKind::Any,
            _ => return None,
        }
    };
    Some(TypeRef {
        kind,
        go_name: go_name.map(str::to_string),
    })
}

impl Schema {
    /// Go's `reflect.Type.String()` of a field type, as `UnmarshalTypeError` prints it.
    /// Pointers never show: the decoder dereferences them before reporting.
    fn go_type(&self, ty: &TypeRef) -> String {
        if let Some(name) = &ty.go_name {
            return name.clone();
        }
        match &ty.kind {
            TypeKind::Str => "string".into(),
            TypeKind::Bool => "bool".into(),
            TypeKind::I32 => "int32".into(),
            TypeKind::I64 => "int64".into(),
            TypeKind::F64 => "float64".into(),
            TypeKind::Bytes => "[]uint8".into(),
            TypeKind::Quantity => "resource.Quantity".into(),
            TypeKind::IntOrString => "intstr.IntOrString".into(),
            TypeKind::Time => "v1.Time".into(),
            TypeKind::MicroTime => "v1.MicroTime".into(),
            TypeKind::Any => "runtime.RawExtension".into(),
            // Every struct in the schema lives in a Go package named `v1`.
            TypeKind::Struct(i) => format!(
                "v1.{}",
                self.structs.get(*i).map(|s| s.name.as_str()).unwrap_or("")
            ),
            TypeKind::Slice(elem) => format!("[]{}", self.go_type(elem)),
            TypeKind::Map(elem) => format!("map[string]{}", self.go_type(elem)),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The decoder emulation (sigs.k8s.io/json decodeState with CaseSensitive, DisallowUnknownFields).

struct Decoder<'s> {
    schema: &'s Schema,
    /// First non-fatal error (`decodeState.savedError`).
    saved_error: Option<String>,
    /// Strict errors in order (`savedStrictErrors`), with their de-duplication set.
    strict_errors: Vec<String>,
    seen_strict: BTreeSet<String>,
    /// `errorContext.FieldStack` and, per entry, the struct that held the field
    /// (`errorContext.Struct` is the last one).
    field_stack: Vec<&'s str>,
    struct_stack: Vec<&'s str>,
    /// `strictFieldStack`, joined: "spec.template.spec.containers[0]".
    strict_path: String,
}

/// Upper bound on accumulated strict errors (`saveStrictError`).
const MAX_STRICT_ERRORS: usize = 100;

impl<'s> Decoder<'s> {
    fn new(schema: &'s Schema) -> Self {
        Decoder {
            schema,
            saved_error: None,
            strict_errors: Vec::new(),
            seen_strict: BTreeSet::new(),
            field_stack: Vec::new(),
            struct_stack: Vec::new(),
            strict_path: String::new(),
        }
    }

    /// `UnmarshalTypeError.Error()` with the context `addErrorContext` puts in.
    fn type_error(&self, value: &str, go_type: &str) -> String {
        match self.struct_stack.last() {
            Some(st) if !self.field_stack.is_empty() => format!(
                "json: cannot unmarshal {value} into Go struct field {st}.{} of type {go_type}",
                self.field_stack.join(".")
            ),
            _ => format!("json: cannot unmarshal {value} into Go value of type {go_type}"),
        }
    }

    fn save_error(&mut self, message: String) {
        if self.saved_error.is_none() {
            self.saved_error = Some(message);
        }
    }

    fn save_type_error(&mut self, value: &str, ty: &TypeRef) {
        if self.saved_error.is_none() {
            let go_type = self.schema.go_type(ty);
            self.saved_error = Some(self.type_error(value, &go_type));
        }
    }

    fn save_unknown_field(&mut self, key: &str) {
        if self.strict_errors.len() >= MAX_STRICT_ERRORS {
            return;
        }
        let path = if self.strict_path.is_empty() {
            key.to_string()
        } else {
            format!("{}.{}", self.strict_path, key)
        };
        let message = format!("unknown field {}", go_quote(&path));
        if self.seen_strict.insert(message.clone()) {
            self.strict_errors.push(message);
        }
    }

    /// Decodes `v` into a Go value of type `ty`. `Err` is a fatal error (decoding stops).
    fn value(&mut self, ty: &TypeRef, v: &Value) -> Result<(), String> {
        // JSON null never fails: pointers, slices and maps become nil, other Go values keep their
        // zero value, and the custom unmarshalers all accept "null".
        if v.is_null() {
            return Ok(());
        }
        match &ty.kind {
            TypeKind::Any => Ok(()),
            TypeKind::Str => {
                if !v.is_string() {
                    self.save_type_error(json_kind(v), ty);
                }
                Ok(())
            }
            TypeKind::Bool => {
                if !v.is_boolean() {
                    self.save_type_error(json_kind(v), ty);
                }
                Ok(())
            }
            TypeKind::I32 | TypeKind::I64 => {
                match v {
                    Value::Number(n) => {
                        let literal = go_number_literal(n);
                        if !int_literal_fits(&literal, &ty.kind) {
                            self.save_type_error(&format!("number {literal}"), ty);
                        }
                    }
                    _ => self.save_type_error(json_kind(v), ty),
                }
                Ok(())
            }
            TypeKind::F64 => {
                if !v.is_number() {
                    self.save_type_error(json_kind(v), ty);
                }
                Ok(())
            }
            TypeKind::Bytes => {
                match v {
                    Value::String(s) => {
                        if let Err(offset) = check_base64(s) {
                            self.save_error(format!("illegal base64 data at input byte {offset}"));
                        }
                    }
                    Value::Array(items) => {
                        // Go decodes a JSON array into []byte element by element.
                        let elem = TypeRef {
                            kind: TypeKind::I64,
                            go_name: Some("uint8".into()),
                        };
                        for item in items {
                            match item {
                                Value::Number(n) => {
                                    let literal = go_number_literal(n);
                                    if !literal
                                        .parse::<u8>()
                                        .is_ok_and(|_| !literal.starts_with('+'))
                                    {
                                        self.save_type_error(&format!("number {literal}"), &elem);
                                    }
                                }
                                Value::Null => {}
                                other => self.save_type_error(json_kind(other), &elem),
                            }
                        }
                    }
                    _ => self.save_type_error(json_kind(v), ty),
                }
                Ok(())
            }
            TypeKind::Quantity => {
                // Quantity.UnmarshalJSON: strip the quotes of a string, trim, ParseQuantity.
                let raw = match v {
                    Value::String(s) => go_json_string_body(s),
                    other => go_json_text(other),
                };
                match super::quantity::parse_go(raw.trim()) {
                    Ok(_) => Ok(()),
                    Err(e) => Err(e.to_string()),
                }
            }
            TypeKind::IntOrString => match v {
                // A JSON string always decodes into StrVal.
                Value::String(_) => Ok(()),
                // Otherwise encoding/json.Unmarshal(value, &IntVal): its UnmarshalTypeError gets the
                // context of the enclosing field when it reaches the top-level decoder.
                Value::Number(n) => {
                    let literal = go_number_literal(n);
                    if int_literal_fits(&literal, &TypeKind::I32) {
                        Ok(())
                    } else {
                        Err(self.type_error(&format!("number {literal}"), "int32"))
                    }
                }
                other => Err(self.type_error(json_kind(other), "int32")),
            },
            TypeKind::Time | TypeKind::MicroTime => match v {
                Value::String(s) => {
                    let layout = if ty.kind == TypeKind::Time {
                        RFC3339
                    } else {
                        RFC3339_MICRO
                    };
                    go_parse_time(layout, s)
                }
                // Time.UnmarshalJSON first decodes into a Go string.
                other => Err(self.type_error(json_kind(other), "string")),
            },
            TypeKind::Struct(i) => {
                let Value::Object(map) = v else {
                    self.save_type_error(json_kind(v), ty);
                    return Ok(());
                };
                let Some(def) = self.schema.structs.get(*i) else {
                    return Ok(());
                };
                for (key, item) in map {
                    match def.fields.get_key_value(key.as_str()) {
                        Some((name, field_type)) => {
                            let path_len = self.strict_path.len();
                            if !self.strict_path.is_empty() {
                                self.strict_path.push('.');
                            }
                            self.strict_path.push_str(name);
                            self.field_stack.push(name);
                            self.struct_stack.push(&def.name);
                            // On a fatal error the context stays as it was at the failure, like Go's.
                            self.value(field_type, item)?;
                            self.field_stack.pop();
                            self.struct_stack.pop();
                            self.strict_path.truncate(path_len);
                        }
                        // An unknown field's value is skipped without looking inside.
                        None => self.save_unknown_field(key),
                    }
                }
                Ok(())
            }
            TypeKind::Slice(elem) => {
                let Value::Array(items) = v else {
                    self.save_type_error(json_kind(v), ty);
                    return Ok(());
                };
                for (i, item) in items.iter().enumerate() {
                    let path_len = self.strict_path.len();
                    self.strict_path.push_str(&format!("[{i}]"));
                    self.value(elem, item)?;
                    self.strict_path.truncate(path_len);
                }
                Ok(())
            }
            TypeKind::Map(elem) => {
                let Value::Object(map) = v else {
                    self.save_type_error(json_kind(v), ty);
                    return Ok(());
                };
                for (key, item) in map {
                    let path_len = self.strict_path.len();
                    if !self.strict_path.is_empty() {
                        self.strict_path.push('.');
                    }
                    self.strict_path.push_str(key);
                    self.value(elem, item)?;
                    self.strict_path.truncate(path_len);
                }
                Ok(())
            }
        }
    }
}

/// How Go's decoder names a JSON value in `UnmarshalTypeError.Value`.
fn json_kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "bool",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// Whether a JSON number literal decodes into a Go int32/int64 (`strconv.ParseInt` + overflow).
fn int_literal_fits(literal: &str, kind: &TypeKind) -> bool {
    if literal.starts_with('+') {
        return false;
    }
    match literal.parse::<i64>() {
        Ok(n) => *kind != TypeKind::I32 || i32::try_from(n).is_ok(),
        Err(_) => false,
    }
}

/// The JSON text kubectl sends for a number: integers as is, floats as Go's `json.Marshal`
/// formats a float64 (shortest form, `1` for 1.0, exponent form below 1e-6 and from 1e21).
fn go_number_literal(n: &Number) -> String {
    if let Some(i) = n.as_i64() {
        return i.to_string();
    }
    if let Some(u) = n.as_u64() {
        return u.to_string();
    }
    go_format_float(n.as_f64().unwrap_or(0.0))
}

fn go_format_float(f: f64) -> String {
    if !f.is_finite() {
        return f.to_string();
    }
    let abs = f.abs();
    if abs == 0.0 || (1e-6..1e21).contains(&abs) {
        if f == 0.0 && f.is_sign_negative() {
            return "-0".into();
        }
        return format!("{f}");
    }
    // Go: strconv 'e' format with a signed, at least two-digit exponent, then "e-07" -> "e-7".
    let s = format!("{f:e}");
    let (mantissa, exp) = s.split_once('e').unwrap_or((&s, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    if exp < 0 {
        format!("{mantissa}e-{}", -exp)
    } else {
        format!("{mantissa}e+{exp:02}")
    }
}

/// Raw JSON text of a non-string value as Go would see it in `UnmarshalJSON`.
fn go_json_text(v: &Value) -> String {
    match v {
        Value::Number(n) => go_number_literal(n),
        other => other.to_string(),
    }
}

/// The bytes between the quotes of a JSON string as Go's encoder writes it (`<`, `>`, `&`
/// escaped as \u003c, \u003e, \u0026).
fn go_json_string_body(s: &str) -> String {
    let quoted = Value::String(s.to_string()).to_string();
    let body = quoted.get(1..quoted.len().saturating_sub(1)).unwrap_or("");
    body.replace('<', "\\u003c")
        .replace('>', "\\u003e")
        .replace('&', "\\u0026")
}

/// `strconv.Quote`: Go-syntax double-quoted string.
fn go_quote(s: &str) -> String {
    super::field::go_quote(s)
}

/// Validates standard base64 (Go `base64.StdEncoding.Decode`, which skips \r and \n); returns the
/// offset Go reports in `illegal base64 data at input byte N`.
fn check_base64(s: &str) -> Result<(), usize> {
    let bytes = s.as_bytes();
    let mut quantum = 0usize; // symbols in the current 4-symbol group
    let mut i = 0usize;
    while i < bytes.len() {
        let b = bytes[i];
        if b == b'\r' || b == b'\n' {
            i += 1;
            continue;
        }
        if b == b'=' {
            // Padding is only valid in the 3rd or 4th position and must end the input.
            if quantum < 2 {
                return Err(i);
            }
            let mut j = i + 1;
            let needed = if quantum == 2 { 1 } else { 0 };
            let mut found = 0;
            while j < bytes.len() && found < needed {
                match bytes[j] {
                    b'\r' | b'\n' => {}
                    b'=' => found += 1,
                    _ => return Err(j),
                }
                j += 1;
            }
            if found < needed {
                return Err(bytes.len());
            }
            while j < bytes.len() {
                if bytes[j] != b'\r' && bytes[j] != b'\n' {
                    return Err(j);
                }
                j += 1;
            }
            return Ok(());
        }
        if !(b.is_ascii_alphanumeric() || b == b'+' || b == b'/') {
            return Err(i);
        }
        quantum = (quantum + 1) % 4;
        i += 1;
    }
    if quantum == 1 {
        // A lone symbol cannot encode a byte.
        return Err(bytes.len().saturating_sub(1));
    }
    if quantum != 0 {
        return Err(bytes.len());
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// normalize

fn normalize_value(schema: &Schema, ty: &TypeRef, v: &mut Value) {
    match &ty.kind {
        TypeKind::Struct(i) => {
            let Some(def) = schema.structs.get(*i) else {
                return;
            };
            if let Value::Object(map) = v {
                // Null fields vanish (nil pointer / omitted); unknown fields are not in the Go struct.
                map.retain(|k, item| !item.is_null() && def.fields.contains_key(k.as_str()));
                for (k, item) in map.iter_mut() {
                    if let Some(field_type) = def.fields.get(k.as_str()) {
                        normalize_value(schema, field_type, item);
                    }
                }
                // `omitempty`: an empty map or slice is not stored (etcd keeps protobuf; the
                // JSON a client reads back has no `annotations: {}`), except the few fields Go
                // writes without it
                map.retain(|k, item| {
                    let empty = match item {
                        Value::Object(o) => o.is_empty() && matches!(def.fields.get(k.as_str()).map(|t| &t.kind), Some(TypeKind::Map(_))),
                        Value::Array(a) => a.is_empty(),
                        _ => false,
                    };
                    !empty || NOT_OMITEMPTY.contains(&(def.name.as_str(), k.as_str()))
                });
            }
        }
        TypeKind::Slice(elem) => {
            if let Value::Array(items) = v {
                for item in items.iter_mut() {
                    normalize_element(schema, elem, item);
                }
            }
        }
        TypeKind::Map(elem) => {
            if let Value::Object(map) = v {
                for item in map.values_mut() {
                    normalize_element(schema, elem, item);
                }
            }
        }
        TypeKind::Quantity => {
            let raw = match v {
                Value::String(s) => s.trim().to_string(),
                Value::Number(n) => go_number_literal(n),
                _ => return,
            };
            if let Ok(q) = super::quantity::parse_go(&raw) {
                *v = Value::String(q.canonical());
            }
        }
        TypeKind::I32 | TypeKind::I64 | TypeKind::IntOrString => {
            if let Value::Number(n) = v {
                if n.is_f64() {
                    let literal = go_number_literal(n);
                    if let Ok(i) = literal.parse::<i64>() {
                        *v = Value::Number(i.into());
                    }
                }
            }
        }
        _ => {}
    }
}

/// The map and slice fields of the served kinds whose JSON tag has no `omitempty` (the OpenAPI
/// documents list them as `required`; `rules` of Role and ClusterRole are the optional ones):
/// an empty one is kept. `tests` checks the list against `src/serve/openapi/definitions.json`.
const NOT_OMITEMPTY: &[(&str, &str)] = &[
    ("PodSpec", "containers"),
    ("CustomResourceDefinitionSpec", "versions"),
    ("WebhookConversion", "conversionReviewVersions"),
    ("NodeSelector", "nodeSelectorTerms"),
    ("TopologySelectorLabelRequirement", "values"),
    ("PodFailurePolicy", "rules"),
    ("PodFailurePolicyOnExitCodesRequirement", "values"),
    ("SuccessPolicy", "rules"),
    ("CephFSPersistentVolumeSource", "monitors"),
    ("CephFSVolumeSource", "monitors"),
    ("RBDPersistentVolumeSource", "monitors"),
    ("RBDVolumeSource", "monitors"),
    ("PodExtendedResourceClaimStatus", "requestMappings"),
    ("Endpoint", "addresses"),
    ("HTTPIngressRuleValue", "paths"),
    ("EndpointSlice", "endpoints"),
    ("PolicyRule", "verbs"),
    ("Role", "rules"),
    ("ClusterRole", "rules"),
    ("TokenRequestSpec", "audiences"),
];

/// An array element or map value: null becomes the Go zero value where it has a JSON form.
fn normalize_element(schema: &Schema, ty: &TypeRef, v: &mut Value) {
    if v.is_null() {
        *v = match &ty.kind {
            TypeKind::Str => Value::String(String::new()),
            TypeKind::Bool => Value::Bool(false),
            TypeKind::I32 | TypeKind::I64 | TypeKind::F64 | TypeKind::IntOrString => {
                Value::Number(0.into())
            }
            TypeKind::Quantity => Value::String("0".into()),
            TypeKind::Struct(_) => Value::Object(Map::new()),
            _ => Value::Null,
        };
        return;
    }
    normalize_value(schema, ty, v);
}

// ---------------------------------------------------------------------------------------------
// metav1.Time / MicroTime parsing: Go's time.Parse restricted to the two layouts they use.

const RFC3339: &str = "2006-01-02T15:04:05Z07:00";
const RFC3339_MICRO: &str = "2006-01-02T15:04:05.000000Z07:00";

/// Go's `time` package quoting (`quote` in time/format.go).
fn time_quote(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        if (c as u32) >= 0x80 || c < ' ' {
            let mut buf = [0u8; 4];
            for byte in c.encode_utf8(&mut buf).bytes() {
                out.push_str(&format!("\\x{byte:02x}"));
            }
        } else {
            if c == '"' || c == '\\' {
                out.push('\\');
            }
            out.push(c);
        }
    }
    out.push('"');
    out
}

fn time_parse_error(layout: &str, value: &str, layout_elem: &str, value_elem: &str) -> String {
    format!(
        "parsing time {} as {}: cannot parse {} as {}",
        time_quote(value),
        time_quote(layout),
        time_quote(value_elem),
        time_quote(layout_elem)
    )
}

fn time_range_error(value: &str, what: &str) -> String {
    format!("parsing time {}: {}", time_quote(value), what)
}

/// `getnum`: one or two digits (exactly two when `fixed`).
fn getnum(s: &str, fixed: bool) -> Option<(i64, &str)> {
    let b = s.as_bytes();
    if !b.first().is_some_and(u8::is_ascii_digit) {
        return None;
    }
    if !b.get(1).is_some_and(u8::is_ascii_digit) {
        if fixed {
            return None;
        }
        return Some(((b[0] - b'0') as i64, &s[1..]));
    }
    Some((((b[0] - b'0') * 10 + (b[1] - b'0')) as i64, &s[2..]))
}

fn days_in(month: i64, year: i64) -> i64 {
    match month {
        2 if (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// `time.Parse(layout, value)` for RFC3339 / RFC3339Micro, returning Go's error text.
fn go_parse_time(layout: &str, value: &str) -> Result<(), String> {
    #[derive(Clone, Copy, PartialEq)]
    enum Std {
        LongYear,
        ZeroMonth,
        ZeroDay,
        Hour,
        ZeroMinute,
        ZeroSecond,
        FracSecond6,
        Iso8601ColonTz,
    }
    // (literal prefix, element, element text in the layout)
    let mut chunks: Vec<(&str, Std, &str)> = vec![
        ("", Std::LongYear, "2006"),
        ("-", Std::ZeroMonth, "01"),
        ("-", Std::ZeroDay, "02"),
        ("T", Std::Hour, "15"),
        (":", Std::ZeroMinute, "04"),
        (":", Std::ZeroSecond, "05"),
    ];
    if layout == RFC3339_MICRO {
        chunks.push(("", Std::FracSecond6, ".000000"));
    }
    chunks.push(("", Std::Iso8601ColonTz, "Z07:00"));

    let (mut year, mut month, mut day) = (0i64, -1i64, -1i64);
    let mut rest = value;
    for (idx, (prefix, std, std_text)) in chunks.iter().enumerate() {
        // skip(value, prefix)
        for p in prefix.bytes() {
            if rest.as_bytes().first() != Some(&p) {
                return Err(time_parse_error(layout, value, prefix, rest));
            }
            rest = &rest[1..];
        }
        let hold = rest;
        let bad = || time_parse_error(layout, value, std_text, hold);
        match std {
            Std::LongYear => {
                let b = rest.as_bytes();
                if b.len() < 4 || !b[0].is_ascii_digit() || !rest.is_char_boundary(4) {
                    return Err(bad());
                }
                let p = &rest[..4];
                rest = &rest[4..];
                // atoi: an optional sign, then digits only.
                let digits = p.strip_prefix(['+', '-']).unwrap_or(p);
                if digits.is_empty() || !digits.bytes().all(|c| c.is_ascii_digit()) {
                    return Err(bad());
                }
                year = p.parse().map_err(|_| bad())?;
            }
            Std::ZeroMonth => {
                let (m, r) = getnum(rest, true).ok_or_else(bad)?;
                rest = r;
                if !(1..=12).contains(&m) {
                    return Err(time_range_error(value, "month out of range"));
                }
                month = m;
            }
            Std::ZeroDay => {
                let (d, r) = getnum(rest, true).ok_or_else(bad)?;
                rest = r;
                day = d;
            }
            Std::Hour => {
                let (h, r) = getnum(rest, false).ok_or_else(bad)?;
                rest = r;
                if h >= 24 {
                    return Err(time_range_error(value, "hour out of range"));
                }
            }
            Std::ZeroMinute => {
                let (m, r) = getnum(rest, true).ok_or_else(bad)?;
                rest = r;
                if m >= 60 {
                    return Err(time_range_error(value, "minute out of range"));
                }
            }
            Std::ZeroSecond => {
                let (s, r) = getnum(rest, true).ok_or_else(bad)?;
                rest = r;
                if s >= 60 {
                    return Err(time_range_error(value, "second out of range"));
                }
                // A fractional second in the input is accepted even when the layout has none.
                let b = rest.as_bytes();
                let next_is_frac = chunks.get(idx + 1).is_some_and(|c| c.1 == Std::FracSecond6);
                if b.len() >= 2
                    && (b[0] == b'.' || b[0] == b',')
                    && b[1].is_ascii_digit()
                    && !next_is_frac
                {
                    let mut n = 2;
                    while n < b.len() && b[n].is_ascii_digit() {
                        n += 1;
                    }
                    rest = &rest[n..];
                }
            }
            Std::FracSecond6 => {
                let b = rest.as_bytes();
                if b.len() < 7 || !(b[0] == b'.' || b[0] == b',') || !rest.is_char_boundary(7) {
                    return Err(bad());
                }
                let digits = &rest[1..7];
                let unsigned = digits.strip_prefix(['+', '-']).unwrap_or(digits);
                if unsigned.is_empty() || !unsigned.bytes().all(|c| c.is_ascii_digit()) {
                    return Err(bad());
                }
                if digits.starts_with('-') && unsigned.bytes().any(|c| c != b'0') {
                    return Err(time_range_error(value, "fractional second out of range"));
                }
                rest = &rest[7..];
            }
            Std::Iso8601ColonTz => {
                if rest.starts_with('Z') {
                    rest = &rest[1..];
                } else {
                    let b = rest.as_bytes();
                    if b.len() < 6 || b[3] != b':' || !rest.is_char_boundary(6) {
                        return Err(bad());
                    }
                    let (sign, hh, mm) = (b[0], &rest[1..3], &rest[4..6]);
                    rest = &rest[6..];
                    // Go evaluates every check, then reports a range error before a syntax error;
                    // a later range check overrides an earlier one.
                    let mut syntax_ok = true;
                    let hr = getnum(hh, true).map(|x| x.0).unwrap_or_else(|| {
                        syntax_ok = false;
                        0
                    });
                    let mn = if syntax_ok {
                        getnum(mm, true).map(|x| x.0).unwrap_or_else(|| {
                            syntax_ok = false;
                            0
                        })
                    } else {
                        0
                    };
                    let mut range = None;
                    if hr > 24 {
                        range = Some("time zone offset hour out of range");
                    }
                    if mn > 60 {
                        range = Some("time zone offset minute out of range");
                    }
                    if sign != b'+' && sign != b'-' {
                        syntax_ok = false;
                    }
                    if let Some(what) = range {
                        return Err(time_range_error(value, what));
                    }
                    if !syntax_ok {
                        return Err(bad());
                    }
                }
            }
        }
    }
    if !rest.is_empty() {
        return Err(time_extra_text(value, rest));
    }
    if month < 0 {
        month = 1;
    }
    if day < 1 || day > days_in(month, year) {
        return Err(time_range_error(value, "day out of range"));
    }
    Ok(())
}

/// The "extra text" error carries a message, so only the value is quoted before it.
fn time_extra_text(value: &str, rest: &str) -> String {
    format!(
        "parsing time {}: extra text: {}",
        time_quote(value),
        time_quote(rest)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// `NOT_OMITEMPTY` is every map and slice field the OpenAPI definitions mark `required`
    /// (their JSON tags have no `omitempty`), plus the two optional `rules`.
    #[test]
    fn not_omitempty_lists_the_required_maps_and_slices() {
        let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/src/serve/openapi/definitions.json")).expect("definitions.json");
        let defs: Value = serde_json::from_str(&text).expect("json");
        let mut want = Vec::new();
        for (name, d) in defs.as_object().expect("object") {
            let required: Vec<&str> = d["required"].as_array().map(|a| a.iter().filter_map(|x| x.as_str()).collect()).unwrap_or_default();
            for (field, p) in d["properties"].as_object().into_iter().flatten() {
                let collection = p["type"] == "array" || (p["type"] == "object" && p.get("additionalProperties").is_some());
                if collection && required.contains(&field.as_str()) && !name.contains(".authorization.") && !name.contains(".apimachinery.") {
                    want.push((name.rsplit('.').next().unwrap_or("").to_string(), field.clone()));
                }
            }
        }
        for (s, f) in &want {
            assert!(NOT_OMITEMPTY.contains(&(s.as_str(), f.as_str())), "{}.{} has no omitempty", s, f);
        }
        assert_eq!(want.len() + 2, NOT_OMITEMPTY.len(), "{:?}", want);
    }

    /// Empty maps and slices are dropped where Go's `omitempty` drops them (so a no-op apply
    /// of `annotations: {}` or `nodeSelector: {}` changes nothing), kept where it does not.
    #[test]
    fn empty_maps_and_slices_are_not_stored() {
        let mut pod = json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "annotations": {}, "labels": {}},
            "spec": {"nodeSelector": {}, "containers": [], "volumes": [], "securityContext": {}, "tolerations": []}});
        normalize("v1", "Pod", &mut pod);
        assert_eq!(pod, json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"}, "spec": {"containers": [], "securityContext": {}}}));
    }

    fn yaml(text: &str) -> Value {
        serde_yaml::from_str(text).expect("test YAML parses")
    }

    /// A realistic Deployment using most of the PodSpec surface.
    const BIG_DEPLOYMENT: &str = r#"
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: shop
  labels: {app: web, tier: frontend}
  annotations:
    deployment.kubernetes.io/revision: "3"
    kubectl.kubernetes.io/last-applied-configuration: '{"apiVersion":"apps/v1"}'
  creationTimestamp: null
spec:
  replicas: 3
  revisionHistoryLimit: 5
  progressDeadlineSeconds: 600
  minReadySeconds: 5
  selector:
    matchLabels: {app: web}
    matchExpressions:
    - {key: tier, operator: In, values: [frontend]}
  strategy:
    type: RollingUpdate
    rollingUpdate: {maxSurge: 25%, maxUnavailable: 1}
  template:
    metadata:
      labels: {app: web, tier: frontend}
      annotations: {prometheus.io/scrape: "true"}
      creationTimestamp: null
    spec:
      serviceAccountName: web
      automountServiceAccountToken: false
      terminationGracePeriodSeconds: 30
      priorityClassName: high
      dnsPolicy: ClusterFirst
      restartPolicy: Always
      nodeSelector: {kubernetes.io/os: linux}
      hostAliases:
      - {ip: 10.0.0.1, hostnames: [db.local]}
      imagePullSecrets:
      - name: regcred
      securityContext:
        runAsNonRoot: true
        runAsUser: 1000
        runAsGroup: 3000
        fsGroup: 2000
        fsGroupChangePolicy: OnRootMismatch
        supplementalGroups: [4000]
        seccompProfile: {type: RuntimeDefault}
        sysctls:
        - {name: net.ipv4.ip_local_port_range, value: "1024 65535"}
      affinity:
        nodeAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
            nodeSelectorTerms:
            - matchExpressions:
              - {key: topology.kubernetes.io/zone, operator: In, values: [eu-1a, eu-1b]}
          preferredDuringSchedulingIgnoredDuringExecution:
          - weight: 10
            preference:
              matchExpressions:
              - {key: disktype, operator: In, values: [ssd]}
        podAntiAffinity:
          preferredDuringSchedulingIgnoredDuringExecution:
          - weight: 100
            podAffinityTerm:
              labelSelector:
                matchLabels: {app: web}
              topologyKey: kubernetes.io/hostname
        podAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
          - labelSelector:
              matchExpressions:
              - {key: app, operator: In, values: [cache]}
            topologyKey: topology.kubernetes.io/zone
            namespaces: [shop]
      tolerations:
      - {key: dedicated, operator: Equal, value: web, effect: NoSchedule}
      - {key: node.kubernetes.io/not-ready, operator: Exists, effect: NoExecute, tolerationSeconds: 300}
      topologySpreadConstraints:
      - maxSkew: 1
        topologyKey: topology.kubernetes.io/zone
        whenUnsatisfiable: ScheduleAnyway
        labelSelector:
          matchLabels: {app: web}
        matchLabelKeys: [pod-template-hash]
        minDomains: 2
        nodeAffinityPolicy: Honor
        nodeTaintsPolicy: Ignore
      initContainers:
      - name: migrate
        image: registry.example.com/web-migrate:1.4.2
        command: [sh, -c]
        args: ["./migrate --to latest"]
        envFrom:
        - configMapRef: {name: web-config}
        - secretRef: {name: web-secrets, optional: true}
          prefix: SECRET_
        resources:
          requests: {cpu: 100m, memory: 64Mi}
          limits: {cpu: 0.5, memory: 128Mi}
      - name: log-shipper
        image: fluent/fluent-bit:3.0
        restartPolicy: Always
      containers:
      - name: web
        image: registry.example.com/web:1.4.2
        imagePullPolicy: IfNotPresent
        workingDir: /app
        ports:
        - {name: http, containerPort: 8080, protocol: TCP}
        - {name: metrics, containerPort: 9090}
        env:
        - {name: LOG_LEVEL, value: info}
        - name: POD_NAME
          valueFrom:
            fieldRef: {fieldPath: metadata.name}
        - name: POD_IP
          valueFrom:
            fieldRef: {apiVersion: v1, fieldPath: status.podIP}
        - name: MEM_LIMIT
          valueFrom:
            resourceFieldRef: {containerName: web, resource: limits.memory, divisor: 1Mi}
        - name: DB_PASSWORD
          valueFrom:
            secretKeyRef: {name: db, key: password}
        - name: FEATURE_FLAGS
          valueFrom:
            configMapKeyRef: {name: flags, key: flags, optional: true}
        resources:
          requests: {cpu: 250m, memory: 256Mi, ephemeral-storage: 1Gi}
          limits: {cpu: 1, memory: 512Mi}
        livenessProbe:
          httpGet:
            path: /healthz
            port: http
            scheme: HTTP
            httpHeaders:
            - {name: X-Probe, value: liveness}
          initialDelaySeconds: 10
          periodSeconds: 10
          timeoutSeconds: 2
          failureThreshold: 3
        readinessProbe:
          tcpSocket: {port: 8080}
          periodSeconds: 5
          successThreshold: 1
        startupProbe:
          exec:
            command: [cat, /tmp/ready]
          failureThreshold: 30
          periodSeconds: 2
        lifecycle:
          preStop:
            exec:
              command: [sh, -c, sleep 5]
          postStart:
            httpGet: {path: /warm, port: 8080}
        securityContext:
          allowPrivilegeEscalation: false
          readOnlyRootFilesystem: true
          privileged: false
          capabilities:
            drop: [ALL]
            add: [NET_BIND_SERVICE]
          seccompProfile: {type: RuntimeDefault}
        volumeMounts:
        - {name: config, mountPath: /etc/web, readOnly: true}
        - {name: cache, mountPath: /cache}
        - {name: data, mountPath: /data, subPath: web}
        - {name: tokens, mountPath: /var/run/tokens}
        terminationMessagePath: /dev/termination-log
        terminationMessagePolicy: FallbackToLogsOnError
      - name: sidecar
        image: busybox:1.36
        command: ["sh", "-c", "tail -f /dev/null"]
        stdin: false
        tty: false
        resources:
          limits: {cpu: 50m, memory: 1e3}
      volumes:
      - name: config
        configMap:
          name: web-config
          defaultMode: 292
          items:
          - {key: app.yaml, path: app.yaml, mode: 256}
      - name: cache
        emptyDir: {medium: Memory, sizeLimit: 256Mi}
      - name: data
        persistentVolumeClaim: {claimName: web-data, readOnly: false}
      - name: secret
        secret: {secretName: web-tls, optional: false}
      - name: host
        hostPath: {path: /var/log, type: Directory}
      - name: tokens
        projected:
          sources:
          - serviceAccountToken: {path: token, expirationSeconds: 3600, audience: vault}
          - downwardAPI:
              items:
              - path: labels
                fieldRef: {fieldPath: metadata.labels}
          - configMap:
              name: ca
              items: [{key: ca.crt, path: ca.crt}]
      - name: scratch
        ephemeral:
          volumeClaimTemplate:
            metadata:
              labels: {type: scratch}
            spec:
              accessModes: [ReadWriteOnce]
              storageClassName: fast
              resources:
                requests: {storage: 1Gi}
status: {}
"#;

    #[test]
    fn schema_data_is_complete() {
        let s = schema();
        // Every struct line in the data file is parsed with all of its fields.
        let mut structs = 0;
        for line in SCHEMA_DATA
            .lines()
            .filter(|l| !l.starts_with('#') && !l.starts_with("kind ") && !l.is_empty())
        {
            structs += 1;
            let mut parts = line.split_whitespace();
            let name = parts.next().unwrap_or_default();
            let go = name.rsplit('.').next().unwrap_or_default();
            // structs are numbered in line order (two packages may share a Go name)
            let def = s.structs.get(structs - 1).filter(|d| d.name == go).unwrap_or_else(|| panic!("struct {name} parsed"));
            assert_eq!(
                def.fields.len(),
                parts.count(),
                "all fields of {name} parsed"
            );
        }
        assert_eq!(s.structs.len(), structs);
        assert!(
            structs > 150,
            "closure of the seven kinds has {structs} structs"
        );
        let cases: &[(&str, &str, &str, bool)] = &[
            ("deployment", "apps/v1", "Deployment", true),
            ("replicaset", "apps/v1", "ReplicaSet", true),
            ("pod", "v1", "Pod", true),
            ("node", "v1", "Node", true),
            ("namespace", "v1", "Namespace", true),
            ("event", "v1", "Event", true),
            ("binding", "v1", "Binding", true),
            ("wrong group for pod", "apps/v1", "Pod", false),
            ("service", "v1", "Service", true),
            ("endpointslice", "discovery.k8s.io/v1", "EndpointSlice", true),
            ("daemonset", "apps/v1", "DaemonSet", true),
            ("job", "batch/v1", "Job", true),
            ("cronjob", "batch/v1", "CronJob", true),
            ("statefulset", "apps/v1", "StatefulSet", true),
            ("pvc", "v1", "PersistentVolumeClaim", true),
            ("storageclass", "storage.k8s.io/v1", "StorageClass", true),
            ("priorityclass", "scheduling.k8s.io/v1", "PriorityClass", true),
            ("resourcequota", "v1", "ResourceQuota", true),
            ("configmap", "v1", "ConfigMap", true),
            ("secret", "v1", "Secret", true),
            ("serviceaccount", "v1", "ServiceAccount", true),
            ("ingress", "networking.k8s.io/v1", "Ingress", true),
            ("networkpolicy", "networking.k8s.io/v1", "NetworkPolicy", true),
            ("poddisruptionbudget", "policy/v1", "PodDisruptionBudget", true),
            ("horizontalpodautoscaler", "autoscaling/v2", "HorizontalPodAutoscaler", true),
            ("apiservice", "apiregistration.k8s.io/v1", "APIService", true),
            ("customresourcedefinition", "apiextensions.k8s.io/v1", "CustomResourceDefinition", true),
            ("a custom resource is not in the schema", "stable.example.com/v1", "CronTab", false),
            ("kind is case-sensitive", "apps/v1", "deployment", false),
        ];
        for (name, api_version, kind, want) in cases {
            assert_eq!(is_known_kind(api_version, kind), *want, "{name}");
        }
    }

    #[test]
    fn big_realistic_deployment_passes() {
        let obj = yaml(BIG_DEPLOYMENT);
        assert_eq!(strict_check("apps/v1", "Deployment", &obj), Ok(()));
        // The same template inside a ReplicaSet.
        let mut rs = obj.clone();
        rs["kind"] = json!("ReplicaSet");
        if let Some(spec) = rs["spec"].as_object_mut() {
            for field in [
                "strategy",
                "progressDeadlineSeconds",
                "revisionHistoryLimit",
            ] {
                spec.remove(field);
            }
        }
        assert_eq!(strict_check("apps/v1", "ReplicaSet", &rs), Ok(()));
    }

    struct Case {
        name: &'static str,
        api_version: &'static str,
        kind: &'static str,
        obj: Value,
        want: Option<&'static str>,
    }

    fn run(cases: Vec<Case>) {
        for c in cases {
            let got = strict_check(c.api_version, c.kind, &c.obj)
                .err()
                .map(|e| e.message);
            assert_eq!(got.as_deref(), c.want, "{}", c.name);
        }
    }

    fn deployment(spec: Value) -> Value {
        json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web"}, "spec": spec})
    }

    fn with_container(container: Value) -> Value {
        deployment(json!({
            "selector": {"matchLabels": {"app": "web"}},
            "template": {"metadata": {"labels": {"app": "web"}}, "spec": {"containers": [container]}}
        }))
    }

    #[test]
    fn unknown_fields() {
        run(vec![
            Case {
                name: "unknown top-level field",
                api_version: "apps/v1",
                kind: "Deployment",
                obj: json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web"}, "specs": {}}),
                want: Some(r#"strict decoding error: unknown field "specs""#),
            },
            Case {
                name: "unknown nested field",
                api_version: "apps/v1",
                kind: "Deployment",
                obj: deployment(json!({"replica": 3})),
                want: Some(r#"strict decoding error: unknown field "spec.replica""#),
            },
            Case {
                name: "unknown field inside an array element",
                api_version: "apps/v1",
                kind: "Deployment",
                obj: with_container(json!({"name": "web", "imagee": "nginx"})),
                want: Some(
                    r#"strict decoding error: unknown field "spec.template.spec.containers[0].imagee""#,
                ),
            },
            Case {
                name: "index of a later element, nested two arrays deep",
                api_version: "v1",
                kind: "Pod",
                obj: json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"}, "spec": {"containers": [
                    {"name": "a", "image": "x"},
                    {"name": "b", "image": "y", "ports": [{"containerPort": 80}, {"containerPort": 81, "hostPorts": 1}]}
                ]}}),
                want: Some(
                    r#"strict decoding error: unknown field "spec.containers[1].ports[1].hostPorts""#,
                ),
            },
            Case {
                name: "several unknown fields, in key order",
                api_version: "apps/v1",
                kind: "Deployment",
                obj: json!({"apiVersion": "apps/v1", "kind": "Deployment",
                    "metadata": {"name": "web", "lables": {"a": "b"}},
                    "spec": {"replica": 3, "template": {"spec": {"containers": [{"name": "w", "imagee": "x", "cmd": ["a"]}]}}}}),
                want: Some(concat!(
                    r#"strict decoding error: unknown field "metadata.lables", unknown field "spec.replica", "#,
                    r#"unknown field "spec.template.spec.containers[0].cmd", unknown field "spec.template.spec.containers[0].imagee""#
                )),
            },
            Case {
                name: "field names are case-sensitive",
                api_version: "apps/v1",
                kind: "Deployment",
                obj: deployment(json!({"Replicas": 3})),
                want: Some(r#"strict decoding error: unknown field "spec.Replicas""#),
            },
            Case {
                name: "the inside of an unknown field is not inspected",
                api_version: "apps/v1",
                kind: "Deployment",
                obj: deployment(json!({"extra": {"deeper": {"replicas": "x"}}})),
                want: Some(r#"strict decoding error: unknown field "spec.extra""#),
            },
            Case {
                name: "inline ProbeHandler and VolumeSource fields are known, typos are not",
                api_version: "v1",
                kind: "Pod",
                obj: json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"}, "spec": {
                    "containers": [{"name": "a", "image": "x", "livenessProbe": {"httpGet": {"port": 80}, "periodSecond": 5}}],
                    "volumes": [{"name": "v", "emptyDir": {}}, {"name": "w", "configMap": {"name": "c", "itemz": []}}]}}),
                want: Some(concat!(
                    r#"strict decoding error: unknown field "spec.containers[0].livenessProbe.periodSecond", "#,
                    r#"unknown field "spec.volumes[1].configMap.itemz""#
                )),
            },
            Case {
                name: "keys that need Go quoting",
                api_version: "v1",
                kind: "Namespace",
                obj: json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "n", "tab\there": 1, "naïve\"": 2}}),
                want: Some(
                    r#"strict decoding error: unknown field "metadata.naïve\"", unknown field "metadata.tab\there""#,
                ),
            },
            Case {
                name: "labels and annotations accept any key, status is a known field",
                api_version: "apps/v1",
                kind: "Deployment",
                obj: json!({"apiVersion": "apps/v1", "kind": "Deployment",
                    "metadata": {"name": "web", "labels": {"any/key": "v"}, "annotations": {"x.y/z": "w"}},
                    "status": {"replicas": 1}}),
                want: None,
            },
            Case {
                name: "managedFields FieldsV1 accepts any JSON",
                api_version: "v1",
                kind: "Pod",
                obj: json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "managedFields": [
                    {"manager": "kubectl", "operation": "Apply", "fieldsType": "FieldsV1",
                     "fieldsV1": {"f:spec": {"f:containers": {"k:{\"name\":\"a\"}": {".": {}}}}}}]}}),
                want: None,
            },
        ]);
    }

    #[test]
    fn type_mismatches() {
        run(vec![
            Case {
                name: "string into int32",
                api_version: "apps/v1",
                kind: "Deployment",
                obj: deployment(json!({"replicas": "three"})),
                want: Some("json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32"),
            },
            Case {
                name: "fraction into int32",
                api_version: "apps/v1",
                kind: "Deployment",
                obj: deployment(json!({"replicas": 1.5})),
                want: Some("json: cannot unmarshal number 1.5 into Go struct field DeploymentSpec.spec.replicas of type int32"),
            },
            Case {
                name: "int32 overflow",
                api_version: "apps/v1",
                kind: "Deployment",
                obj: deployment(json!({"replicas": 3000000000u64})),
                want: Some(
                    "json: cannot unmarshal number 3000000000 into Go struct field DeploymentSpec.spec.replicas of type int32",
                ),
            },
            Case {
                name: "integral float is an integer on the wire",
                api_version: "apps/v1",
                kind: "Deployment",
                obj: deployment(json!({"replicas": 3.0})),
                want: None,
            },
            Case {
                name: "path has no array indices, struct is the innermost",
                api_version: "apps/v1",
                kind: "Deployment",
                obj: with_container(json!({"name": "w", "image": "x", "ports": [{"containerPort": "80"}]})),
                want: Some(concat!(
                    "json: cannot unmarshal string into Go struct field ContainerPort.",
                    "spec.template.spec.containers.ports.containerPort of type int32"
                )),
            },
            Case {
                name: "number into string (env value)",
                api_version: "apps/v1",
                kind: "Deployment",
                obj: with_container(json!({"name": "w", "image": "x", "env": [{"name": "PORT", "value": 8080}]})),
                want: Some(
                    "json: cannot unmarshal number into Go struct field EnvVar.spec.template.spec.containers.env.value of type string",
                ),
            },
            Case {
                name: "map value must be a string",
                api_version: "apps/v1",
                kind: "Deployment",
                obj: json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web", "labels": {"version": 1.0}}}),
                want: Some("json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string"),
            },
            Case {
                name: "string into []string",
                api_version: "apps/v1",
                kind: "Deployment",
                obj: with_container(json!({"name": "w", "image": "x", "command": "sleep 10"})),
                want: Some(
                    "json: cannot unmarshal string into Go struct field Container.spec.template.spec.containers.command of type []string",
                ),
            },
            Case {
                name: "scalar into a named map type",
                api_version: "apps/v1",
                kind: "Deployment",
                obj: with_container(json!({"name": "w", "image": "x", "resources": {"limits": "1"}})),
                want: Some(concat!(
                    "json: cannot unmarshal string into Go struct field ResourceRequirements.",
                    "spec.template.spec.containers.resources.limits of type v1.ResourceList"
                )),
            },
            Case {
                name: "named string type",
                api_version: "apps/v1",
                kind: "Deployment",
                obj: with_container(json!({"name": "w", "image": "x", "imagePullPolicy": true})),
                want: Some(concat!(
                    "json: cannot unmarshal bool into Go struct field Container.",
                    "spec.template.spec.containers.imagePullPolicy of type v1.PullPolicy"
                )),
            },
            Case {
                name: "array into a struct",
                api_version: "apps/v1",
                kind: "Deployment",
                obj: deployment(json!([])),
                want: Some("json: cannot unmarshal array into Go struct field Deployment.spec of type v1.DeploymentSpec"),
            },
            Case {
                name: "object into a slice of structs",
                api_version: "apps/v1",
                kind: "Deployment",
                obj: deployment(json!({"template": {"spec": {"containers": {"name": "w"}}}})),
                want: Some(
                    "json: cannot unmarshal object into Go struct field PodSpec.spec.template.spec.containers of type []v1.Container",
                ),
            },
            Case {
                name: "string into bool",
                api_version: "apps/v1",
                kind: "Deployment",
                obj: deployment(json!({"template": {"spec": {"hostNetwork": "true"}}})),
                want: Some(
                    "json: cannot unmarshal string into Go struct field PodSpec.spec.template.spec.hostNetwork of type bool",
                ),
            },
            Case {
                name: "not an object at all",
                api_version: "apps/v1",
                kind: "Deployment",
                obj: json!("web"),
                want: Some("json: cannot unmarshal string into Go value of type v1.Deployment"),
            },
            Case {
                name: "only the first type error is reported, and it hides unknown fields",
                api_version: "apps/v1",
                kind: "Deployment",
                obj: json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": 5, "lables": {}},
                    "spec": {"replicas": "x"}}),
                want: Some("json: cannot unmarshal number into Go struct field ObjectMeta.metadata.name of type string"),
            },
            Case {
                name: "IntOrString accepts int and string",
                api_version: "apps/v1",
                kind: "Deployment",
                obj: deployment(json!({"strategy": {"rollingUpdate": {"maxSurge": 1, "maxUnavailable": "25%"}}})),
                want: None,
            },
            Case {
                name: "IntOrString given a bool",
                api_version: "apps/v1",
                kind: "Deployment",
                obj: deployment(json!({"strategy": {"rollingUpdate": {"maxSurge": true}}})),
                want: Some(concat!(
                    "json: cannot unmarshal bool into Go struct field RollingUpdateDeployment.",
                    "spec.strategy.rollingUpdate.maxSurge of type int32"
                )),
            },
            Case {
                name: "IntOrString fraction",
                api_version: "apps/v1",
                kind: "Deployment",
                obj: deployment(json!({"strategy": {"rollingUpdate": {"maxUnavailable": 0.5}}})),
                want: Some(concat!(
                    "json: cannot unmarshal number 0.5 into Go struct field RollingUpdateDeployment.",
                    "spec.strategy.rollingUpdate.maxUnavailable of type int32"
                )),
            },
            Case {
                name: "bad quantity string",
                api_version: "apps/v1",
                kind: "Deployment",
                obj: with_container(json!({"name": "w", "image": "x", "resources": {"limits": {"memory": "1 GB"}}})),
                want: Some(
                    "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
                ),
            },
            Case {
                name: "quantity with an unknown suffix",
                api_version: "apps/v1",
                kind: "Deployment",
                obj: with_container(json!({"name": "w", "image": "x", "resources": {"requests": {"memory": "512mi"}}})),
                want: Some("unable to parse quantity's suffix"),
            },
            Case {
                name: "quantity given a bool",
                api_version: "apps/v1",
                kind: "Deployment",
                obj: with_container(json!({"name": "w", "image": "x", "resources": {"requests": {"cpu": true}}})),
                want: Some(
                    "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
                ),
            },
            Case {
                name: "a fatal quantity error beats an earlier type error",
                api_version: "apps/v1",
                kind: "Deployment",
                obj: json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web", "labels": {"a": 1}},
                    "spec": {"template": {"spec": {"containers": [{"name": "w", "resources": {"limits": {"cpu": "lots"}}}]}}}}),
                want: Some(
                    "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
                ),
            },
            Case {
                name: "bad creationTimestamp",
                api_version: "v1",
                kind: "Pod",
                obj: json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "creationTimestamp": "yesterday"}}),
                want: Some(r#"parsing time "yesterday" as "2006-01-02T15:04:05Z07:00": cannot parse "yesterday" as "2006""#),
            },
            Case {
                name: "number as a time",
                api_version: "v1",
                kind: "Pod",
                obj: json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "creationTimestamp": 5}}),
                want: Some(
                    "json: cannot unmarshal number into Go struct field ObjectMeta.metadata.creationTimestamp of type string",
                ),
            },
            Case {
                name: "nulls are accepted everywhere",
                api_version: "apps/v1",
                kind: "Deployment",
                obj: json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web", "creationTimestamp": null,
                    "labels": {"a": null}}, "spec": {"replicas": null, "strategy": {"rollingUpdate": {"maxSurge": null}},
                    "template": {"spec": {"containers": [null, {"name": "w", "args": [null],
                    "resources": {"limits": {"cpu": null}}}]}}}}),
                want: None,
            },
        ]);
    }

    #[test]
    fn other_kinds() {
        let node = json!({"apiVersion": "v1", "kind": "Node", "metadata": {"name": "node-1", "labels": {"kubernetes.io/hostname": "node-1"}},
            "spec": {"podCIDR": "10.244.1.0/24", "taints": [{"key": "k", "value": "v", "effect": "NoSchedule"}], "unschedulable": false},
            "status": {"capacity": {"cpu": "4", "memory": "16Gi", "pods": "110"}, "allocatable": {"cpu": "3800m", "memory": 16000000000u64},
                "conditions": [{"type": "Ready", "status": "True", "lastHeartbeatTime": "2025-01-01T00:00:00Z",
                    "lastTransitionTime": "2025-01-01T00:00:00Z", "reason": "KubeletReady", "message": "ok"}],
                "addresses": [{"type": "InternalIP", "address": "10.0.0.5"}],
                "nodeInfo": {"kubeletVersion": "v1.34.0", "architecture": "amd64", "operatingSystem": "linux", "osImage": "x",
                    "kernelVersion": "6", "containerRuntimeVersion": "containerd://2", "kubeProxyVersion": "", "machineID": "m",
                    "systemUUID": "u", "bootID": "b"}}});
        let event = json!({"apiVersion": "v1", "kind": "Event", "metadata": {"name": "web.1", "namespace": "default"},
            "involvedObject": {"kind": "Deployment", "name": "web", "namespace": "default", "uid": "abc", "apiVersion": "apps/v1"},
            "reason": "ScalingReplicaSet", "message": "Scaled up", "type": "Normal", "count": 1,
            "source": {"component": "deployment-controller"}, "firstTimestamp": "2025-01-01T00:00:00Z",
            "lastTimestamp": "2025-01-01T00:00:00Z", "eventTime": null, "reportingComponent": "deployment-controller",
            "reportingInstance": ""});
        run(vec![
            Case { name: "node passes", api_version: "v1", kind: "Node", obj: node.clone(), want: None },
            Case {
                name: "node status field typo",
                api_version: "v1",
                kind: "Node",
                obj: json!({"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n"}, "status": {"capacityy": {}}}),
                want: Some(r#"strict decoding error: unknown field "status.capacityy""#),
            },
            Case {
                name: "node taint effect of the wrong type",
                api_version: "v1",
                kind: "Node",
                obj: json!({"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n"}, "spec": {"taints": [{"key": "k", "effect": 1}]}}),
                want: Some("json: cannot unmarshal number into Go struct field Taint.spec.taints.effect of type v1.TaintEffect"),
            },
            Case {
                name: "namespace passes",
                api_version: "v1",
                kind: "Namespace",
                obj: json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "shop"}, "spec": {"finalizers": ["kubernetes"]}}),
                want: None,
            },
            Case {
                name: "namespace finalizers element type",
                api_version: "v1",
                kind: "Namespace",
                obj: json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "shop"}, "spec": {"finalizers": [1]}}),
                want: Some(
                    "json: cannot unmarshal number into Go struct field NamespaceSpec.spec.finalizers of type v1.FinalizerName",
                ),
            },
            Case {
                name: "pod passes",
                api_version: "v1",
                kind: "Pod",
                obj: json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "ownerReferences": [{"apiVersion": "apps/v1",
                    "kind": "ReplicaSet", "name": "web-abc", "uid": "u", "controller": true, "blockOwnerDeletion": true}]},
                    "spec": {"nodeName": "node-1", "containers": [{"name": "a", "image": "nginx"}]},
                    "status": {"phase": "Running", "podIP": "10.244.1.5", "podIPs": [{"ip": "10.244.1.5"}], "qosClass": "BestEffort",
                        "startTime": "2025-01-01T00:00:00Z", "containerStatuses": [{"name": "a", "ready": true, "restartCount": 0,
                        "image": "nginx", "imageID": "", "started": true, "state": {"running": {"startedAt": "2025-01-01T00:00:01Z"}}}]}}),
                want: None,
            },
            Case {
                name: "pod unknown status field",
                api_version: "v1",
                kind: "Pod",
                obj: json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"}, "status": {"podIPs": [{"ip": "1", "family": "v4"}]}}),
                want: Some(r#"strict decoding error: unknown field "status.podIPs[0].family""#),
            },
            Case { name: "event passes", api_version: "v1", kind: "Event", obj: event, want: None },
            Case {
                name: "event MicroTime needs microseconds",
                api_version: "v1",
                kind: "Event",
                obj: json!({"apiVersion": "v1", "kind": "Event", "metadata": {"name": "e"}, "eventTime": "2025-01-01T00:00:00Z"}),
                want: Some(concat!(
                    r#"parsing time "2025-01-01T00:00:00Z" as "2006-01-02T15:04:05.000000Z07:00": "#,
                    r#"cannot parse "Z" as ".000000""#
                )),
            },
            Case {
                name: "binding passes",
                api_version: "v1",
                kind: "Binding",
                obj: json!({"apiVersion": "v1", "kind": "Binding", "metadata": {"name": "p"}, "target": {"kind": "Node", "name": "node-1"}}),
                want: None,
            },
            Case {
                name: "binding target typo",
                api_version: "v1",
                kind: "Binding",
                obj: json!({"apiVersion": "v1", "kind": "Binding", "metadata": {"name": "p"}, "target": {"nodeName": "node-1"}}),
                want: Some(r#"strict decoding error: unknown field "target.nodeName""#),
            },
            Case {
                name: "a DaemonSet's update strategy field typo",
                api_version: "apps/v1",
                kind: "DaemonSet",
                obj: json!({"apiVersion": "apps/v1", "kind": "DaemonSet", "metadata": {"name": "d"}, "spec": {"updateStrategy": {"rollingUpdate": {"maxUnavailabe": 1}}}}),
                want: Some(r#"strict decoding error: unknown field "spec.updateStrategy.rollingUpdate.maxUnavailabe""#),
            },
            Case {
                name: "a Job's backoffLimit as a string",
                api_version: "batch/v1",
                kind: "Job",
                obj: json!({"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "j"}, "spec": {"backoffLimit": "3"}}),
                want: Some(r#"json: cannot unmarshal string into Go struct field JobSpec.spec.backoffLimit of type int32"#),
            },
            Case {
                name: "a CronJob schedule in the wrong place",
                api_version: "batch/v1",
                kind: "CronJob",
                obj: json!({"apiVersion": "batch/v1", "kind": "CronJob", "metadata": {"name": "c"}, "spec": {"jobTemplate": {"spec": {"schedule": "* * * * *"}}}}),
                want: Some(r#"strict decoding error: unknown field "spec.jobTemplate.spec.schedule""#),
            },
            Case {
                name: "kinds outside the schema are not checked",
                api_version: "stable.example.com/v1",
                kind: "CronTab",
                obj: json!({"whatever": 1}),
                want: None,
            },
            Case {
                name: "a StatefulSet claim template's field typo",
                api_version: "apps/v1",
                kind: "StatefulSet",
                obj: json!({"apiVersion": "apps/v1", "kind": "StatefulSet", "metadata": {"name": "web"}, "spec": {"volumeClaimTemplates": [{"metadata": {"name": "data"}, "spec": {"accesModes": ["ReadWriteOnce"]}}]}}),
                want: Some(r#"strict decoding error: unknown field "spec.volumeClaimTemplates[0].spec.accesModes""#),
            },
            Case {
                name: "a PriorityClass field typo",
                api_version: "scheduling.k8s.io/v1",
                kind: "PriorityClass",
                obj: json!({"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass", "metadata": {"name": "high"}, "value": 1000, "globalDefualt": true}),
                want: Some(r#"strict decoding error: unknown field "globalDefualt""#),
            },
            Case {
                name: "a Service port's typo",
                api_version: "v1",
                kind: "Service",
                obj: json!({"apiVersion": "v1", "kind": "Service", "metadata": {"name": "web"}, "spec": {"ports": [{"port": 80, "targetport": 8080}]}}),
                want: Some(r#"strict decoding error: unknown field "spec.ports[0].targetport""#),
            },
            Case {
                name: "an EndpointSlice endpoint's conditions",
                api_version: "discovery.k8s.io/v1",
                kind: "EndpointSlice",
                obj: json!({"apiVersion": "discovery.k8s.io/v1", "kind": "EndpointSlice", "metadata": {"name": "s"}, "addressType": "IPv4", "endpoints": [{"addresses": ["10.244.1.2"], "conditions": {"healthy": true}}]}),
                want: Some(r#"strict decoding error: unknown field "endpoints[0].conditions.healthy""#),
            },
        ]);
    }

    #[test]
    fn quantity_canonical_form() {
        let cases: &[(&str, &str, Result<&str, &str>)] = &[
            ("canonical integer keeps its text", "1", Ok("1")),
            ("milli stays", "100m", Ok("100m")),
            ("1000m is one", "1000m", Ok("1")),
            ("fraction becomes milli", "0.5", Ok("500m")),
            ("1.5 is 1500m", "1.5", Ok("1500m")),
            ("thousand becomes k", "1000", Ok("1k")),
            ("1024Mi is 1Gi", "1024Mi", Ok("1Gi")),
            ("binary with low bits stays", "100Mi", Ok("100Mi")),
            ("fractional binary", "1.5Gi", Ok("1536Mi")),
            ("binary below 1024 shows decimal", "0.5Ki", Ok("512")),
            ("exponent kept when canonical", "129e6", Ok("129e6")),
            ("exponent normalized", "2.5e3", Ok("2500")),
            ("micro", "0.0001", Ok("100u")),
            ("below nano rounds up", "0.5n", Ok("1n")),
            ("plus sign kept when canonical", "+1", Ok("+1")),
            ("negative", "-1.5", Ok("-1500m")),
            ("zero", "0", Ok("0")),
            ("zero with decimals", "0.0", Ok("0")),
            ("plain big number", "128974848", Ok("128974848")),
            ("trailing zeros", "12000000", Ok("12M")),
            ("capped BinarySI", "16Ei", Ok("9223372036854775807")),
            ("empty", "", Err(super::super::quantity::ERR_FORMAT_WRONG)),
            ("words", "lots", Err(super::super::quantity::ERR_FORMAT_WRONG)),
            ("space inside", "1 Gi", Err(super::super::quantity::ERR_FORMAT_WRONG)),
            (
                "unit letter outside the suffix set",
                "512MB",
                Err(super::super::quantity::ERR_FORMAT_WRONG),
            ),
            ("unknown suffix", "5mi", Err(super::super::quantity::ERR_SUFFIX)),
            ("lone e", "1e", Err(super::super::quantity::ERR_SUFFIX)),
            ("lowercase ki", "1ki", Err(super::super::quantity::ERR_SUFFIX)),
        ];
        for (name, input, want) in cases {
            let got = super::super::quantity::parse_go(input).map(|q| q.canonical());
            assert_eq!(got.as_deref().map_err(|e| *e), *want, "{name}");
        }
    }

    #[test]
    fn normalize_cases() {
        struct N {
            name: &'static str,
            kind: &'static str,
            api_version: &'static str,
            input: Value,
            want: Value,
        }
        let cases = vec![
            N {
                name: "nulls dropped, quantities canonical",
                api_version: "apps/v1",
                kind: "Deployment",
                input: json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web", "creationTimestamp": null},
                    "spec": {"replicas": 3.0, "template": {"metadata": {"creationTimestamp": null}, "spec": {"containers": [
                        {"name": "w", "image": "x", "resources": {"limits": {"cpu": 1, "memory": 1e3},
                         "requests": {"cpu": 0.5, "memory": "1024Mi", "ephemeral-storage": "100Mi"}}}]}}}}),
                want: json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web"},
                    "spec": {"replicas": 3, "template": {"metadata": {}, "spec": {"containers": [
                        {"name": "w", "image": "x", "resources": {"limits": {"cpu": "1", "memory": "1k"},
                         "requests": {"cpu": "500m", "memory": "1Gi", "ephemeral-storage": "100Mi"}}}]}}}}),
            },
            N {
                name: "unknown fields dropped, null elements become zero values",
                api_version: "v1",
                kind: "Pod",
                input: json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "labels": {"a": null}, "bogus": 1},
                    "spec": {"containers": [{"name": "a", "args": [null, "x"], "resources": {"limits": {"cpu": null}}}]}}),
                want: json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "labels": {"a": ""}},
                    "spec": {"containers": [{"name": "a", "args": ["", "x"], "resources": {"limits": {"cpu": "0"}}}]}}),
            },
            N {
                name: "times and int-or-strings",
                api_version: "apps/v1",
                kind: "Deployment",
                input: json!({"metadata": {"creationTimestamp": "2025-01-01T00:00:00Z"},
                    "spec": {"strategy": {"rollingUpdate": {"maxSurge": 1.0, "maxUnavailable": "25%"}}}}),
                want: json!({"metadata": {"creationTimestamp": "2025-01-01T00:00:00Z"},
                    "spec": {"strategy": {"rollingUpdate": {"maxSurge": 1, "maxUnavailable": "25%"}}}}),
            },
            N {
                name: "node capacity",
                api_version: "v1",
                kind: "Node",
                input: json!({"status": {"capacity": {"cpu": 4, "memory": "16384Mi", "pods": 110}}}),
                want: json!({"status": {"capacity": {"cpu": "4", "memory": "16Gi", "pods": "110"}}}),
            },
            N {
                name: "unknown kind untouched",
                api_version: "stable.example.com/v1",
                kind: "CronTab",
                input: json!({"data": null}),
                want: json!({"data": null}),
            },
        ];
        for c in cases {
            let mut v = c.input.clone();
            normalize(c.api_version, c.kind, &mut v);
            assert_eq!(v, c.want, "{}", c.name);
        }
        // The big manifest survives normalization and still passes.
        let mut big = yaml(BIG_DEPLOYMENT);
        normalize("apps/v1", "Deployment", &mut big);
        assert_eq!(
            strict_check("apps/v1", "Deployment", &big),
            Ok(()),
            "normalized big manifest"
        );
        assert_eq!(
            big["spec"]["template"]["spec"]["containers"][1]["resources"]["limits"]["memory"],
            json!("1k")
        );
        assert_eq!(
            big["spec"]["template"]["spec"]["initContainers"][0]["resources"]["limits"]["cpu"],
            json!("500m")
        );
    }

    #[test]
    fn time_parsing() {
        let cases: &[(&str, &str, &str, Result<(), &str>)] = &[
            ("utc", RFC3339, "2025-01-02T03:04:05Z", Ok(())),
            ("offset", RFC3339, "2025-01-02T03:04:05+02:00", Ok(())),
            (
                "fraction accepted without layout",
                RFC3339,
                "2025-01-02T03:04:05.123Z",
                Ok(()),
            ),
            ("leap day", RFC3339, "2024-02-29T00:00:00Z", Ok(())),
            (
                "micro",
                RFC3339_MICRO,
                "2025-01-02T03:04:05.123456Z",
                Ok(()),
            ),
            (
                "month range",
                RFC3339,
                "2025-13-02T03:04:05Z",
                Err(r#"parsing time "2025-13-02T03:04:05Z": month out of range"#),
            ),
            (
                "day range",
                RFC3339,
                "2025-02-29T00:00:00Z",
                Err(r#"parsing time "2025-02-29T00:00:00Z": day out of range"#),
            ),
            (
                "hour range",
                RFC3339,
                "2025-01-02T24:00:00Z",
                Err(r#"parsing time "2025-01-02T24:00:00Z": hour out of range"#),
            ),
            (
                "date only",
                RFC3339,
                "2025-01-02",
                Err(
                    r#"parsing time "2025-01-02" as "2006-01-02T15:04:05Z07:00": cannot parse "" as "T""#,
                ),
            ),
            (
                "space instead of T",
                RFC3339,
                "2025-01-02 03:04:05Z",
                Err(
                    r#"parsing time "2025-01-02 03:04:05Z" as "2006-01-02T15:04:05Z07:00": cannot parse " 03:04:05Z" as "T""#,
                ),
            ),
            (
                "one-digit month",
                RFC3339,
                "2025-1-02T03:04:05Z",
                Err(
                    r#"parsing time "2025-1-02T03:04:05Z" as "2006-01-02T15:04:05Z07:00": cannot parse "1-02T03:04:05Z" as "01""#,
                ),
            ),
            (
                "missing zone",
                RFC3339,
                "2025-01-02T03:04:05",
                Err(
                    r#"parsing time "2025-01-02T03:04:05" as "2006-01-02T15:04:05Z07:00": cannot parse "" as "Z07:00""#,
                ),
            ),
            (
                "extra text",
                RFC3339,
                "2025-01-02T03:04:05Zjunk",
                Err(r#"parsing time "2025-01-02T03:04:05Zjunk": extra text: "junk""#),
            ),
        ];
        for (name, layout, input, want) in cases {
            let got = go_parse_time(layout, input);
            assert_eq!(
                got.as_ref().map_err(String::as_str),
                want.as_ref().map_err(|e| *e),
                "{name}"
            );
        }
    }

    #[test]
    fn go_number_formatting() {
        let cases: &[(&str, Value, &str)] = &[
            ("integer", json!(42), "42"),
            ("negative integer", json!(-7), "-7"),
            (
                "u64",
                json!(18446744073709551615u64),
                "18446744073709551615",
            ),
            ("integral float", json!(3.0), "3"),
            ("fraction", json!(1.5), "1.5"),
            (
                "large float without exponent",
                json!(1e20),
                "100000000000000000000",
            ),
            ("exponent from 1e21", json!(1e21), "1e+21"),
            ("small exponent loses its zero", json!(1e-7), "1e-7"),
            ("two-digit negative exponent", json!(1.5e-10), "1.5e-10"),
            ("micro stays plain", json!(0.000001), "0.000001"),
        ];
        for (name, v, want) in cases {
            let Value::Number(n) = v else {
                panic!("{name}: not a number")
            };
            assert_eq!(go_number_literal(n), *want, "{name}");
        }
    }
}

// ---- kubectl explain ------------------------------------------------------------------------

/// What `kubectl explain` prints of one node of a kind's schema: its type as explain names it
/// (`<integer>`, `<PodSpec>`, `<[]Container>`, `<map[string]string>`) and, for a struct, its
/// fields and theirs. The embedded schema has names and types, not the API's descriptions.
#[derive(Debug, Clone, PartialEq)]
pub struct Explained {
    pub type_name: String,
    pub fields: Vec<(String, String)>,
}

fn explain_type(s: &Schema, t: &TypeRef) -> String {
    match &t.kind {
        TypeKind::Str | TypeKind::Bytes | TypeKind::Time | TypeKind::MicroTime => "string".into(),
        TypeKind::Bool => "boolean".into(),
        TypeKind::I32 | TypeKind::I64 => "integer".into(),
        TypeKind::F64 => "number".into(),
        TypeKind::Quantity => "Quantity".into(),
        TypeKind::IntOrString => "IntOrString".into(),
        TypeKind::Any => "Object".into(),
        TypeKind::Struct(i) => s.structs[*i].name.clone(),
        TypeKind::Slice(e) => format!("[]{}", explain_type(s, e)),
        TypeKind::Map(e) => format!("map[string]{}", explain_type(s, e)),
    }
}

/// The node at `path` (JSON field names) below the root of (api_version, kind). Errors are
/// kubectl's: `field "x" does not exist`.
pub fn explain(api_version: &str, kind: &str, path: &[&str]) -> Result<Explained, String> {
    let s = schema();
    let root = *s.kinds.get(&(api_version.to_string(), kind.to_string())).ok_or_else(|| format!("kubesim has no schema for {} {}", api_version, kind))?;
    let mut t = TypeRef { kind: TypeKind::Struct(root), go_name: None };
    let elem = |t: &TypeRef| -> TypeRef {
        let mut cur = t.clone();
        while let TypeKind::Slice(e) | TypeKind::Map(e) = cur.kind.clone() {
            cur = *e;
        }
        cur
    };
    for seg in path {
        let e = elem(&t);
        let TypeKind::Struct(k) = e.kind else { return Err(format!("field \"{}\" does not exist", seg)) };
        t = s.structs[k].fields.get(*seg).cloned().ok_or_else(|| format!("field \"{}\" does not exist", seg))?;
    }
    let fields = match elem(&t).kind {
        TypeKind::Struct(k) => s.structs[k].fields.iter().map(|(n, ft)| (n.clone(), explain_type(s, ft))).collect(),
        _ => Vec::new(),
    };
    Ok(Explained { type_name: explain_type(s, &t), fields })
}

#[cfg(test)]
mod explain_tests {
    use super::*;

    #[test]
    fn explain_walks_the_schema() {
        let e = explain("apps/v1", "Deployment", &["spec", "strategy", "rollingUpdate"]).unwrap();
        assert_eq!(e.type_name, "RollingUpdateDeployment");
        assert_eq!(e.fields, vec![("maxSurge".to_string(), "IntOrString".to_string()), ("maxUnavailable".to_string(), "IntOrString".to_string())]);
        assert_eq!(explain("apps/v1", "Deployment", &["spec", "replicas"]).unwrap().type_name, "integer");
        let c = explain("v1", "Pod", &["spec", "containers"]).unwrap();
        assert_eq!(c.type_name, "[]Container");
        assert!(c.fields.iter().any(|(n, t)| n == "image" && t == "string"));
        assert!(explain("v1", "Pod", &["spec", "containers", "resources", "limits"]).unwrap().type_name.starts_with("map[string]"));
        assert_eq!(explain("v1", "Pod", &["spec", "nope"]).unwrap_err(), "field \"nope\" does not exist");
    }
}
