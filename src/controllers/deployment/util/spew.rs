//! `dump.ForHash` (`staging/src/k8s.io/apimachinery/pkg/util/dump/dump.go`): go-spew's `%#v`
//! formatter (`github.com/davecgh/go-spew/spew/format.go`, v1.1.1) over a Go value, with the
//! configuration `{Indent: " ", SortKeys: true, DisableMethods: true, SpewKeys: true,
//! DisablePointerAddresses: true, DisableCapacities: true}`. `pkg/util/hash/hash.go`
//! `DeepHashObject` writes that text into the hasher; `ComputeHash` uses it for the
//! `pod-template-hash`.
//!
//! kubesim holds objects as JSON, not as Go structs, so it walks the JSON beside a description of
//! the v1.34 Go types reachable from `v1.PodTemplateSpec` (field order, Go type names, pointers,
//! slices, maps; `podtemplate_layout.json`). That file was generated at development time by a
//! small Go program using `reflect` over the declarations of `k8s.io/api` and
//! `k8s.io/apimachinery` v0.34.10 (Go 1.19, go-spew 1.1.1), so it follows them field by field;
//! the same program computed `tests/data/pod_template_hash.json`: 19 templates with the dump and
//! the hash upstream's `ComputeHash` gives them. The program compiles upstream's code, so it is not
//! kept in this repository.
//!
//! What the walk reproduces, as kube-controller-manager sees the template (it reads objects as
//! protobuf):
//! - every field of every struct, zero-valued ones included, in declaration order, each with its
//!   type in parentheses: `Name:(string)nginx` (strings are printed raw, unquoted);
//! - nil pointers, slices and maps as `(*int64)<nil>`; an empty slice or map is nil after the
//!   protobuf round trip; a `{}` struct pointer is non-nil;
//! - slice elements and map values without their type, map keys sorted;
//! - `resource.Quantity` as its Go internals (`i`, `d`, `s`, `Format`): the API server stores the
//!   canonical string and the controller parses it again, so that is what is dumped;
//! - `intstr.IntOrString` as `{Type IntVal StrVal}`, `metav1.Time` as the zero `time.Time`;
//! - a non-pointer Quantity that is absent (`resourceFieldRef.divisor`) as the parsed `"0"` that
//!   protobuf delivers.
//!
//! Simplifications: a non-zero `metav1.Time` inside a template (never set by clients) is dumped as
//! zero; a quantity that takes Go's `inf.Dec` slow path (`Pi`/`Ei` amounts, more than 18 digits)
//! is dumped with kubesim's exact value as a base-2^64 `big.nat`, which may differ from the
//! `inf.Dec` Go ends with after rounding.

use crate::api::quantity::{parse_go, Format};
use serde::Deserialize;
use serde_json::{json, Map, Value};
use std::collections::HashMap;
use std::fmt::Write;
use crate::sim::sort::CompactSort;

/// The Go type layout `tools/templatehash layout` printed for v1.34.
const LAYOUT_JSON: &str = include_str!("podtemplate_layout.json");

#[derive(Deserialize)]
struct Layout {
    root: String,
    types: HashMap<String, Def>,
}

/// A Go type: a named one by name, or an unnamed composite (`*T`, `[]T`, `map[K]V`) inline.
#[derive(Deserialize)]
#[serde(untagged)]
enum TypeRef {
    Named(String),
    Anon(Box<Def>),
}

#[derive(Deserialize)]
struct Def {
    kind: String,
    #[serde(default)]
    fields: Vec<Field>,
    #[serde(default)]
    key: Option<TypeRef>,
    #[serde(default)]
    elem: Option<TypeRef>,
}

#[derive(Deserialize)]
struct Field {
    name: String,
    #[serde(default)]
    json: String,
    #[serde(default)]
    inline: bool,
    #[serde(rename = "type")]
    ty: TypeRef,
}

/// Where a value comes from: the object's JSON (looked up by JSON key), or a value kubesim built
/// in the shape of the Go struct itself (looked up by Go field name: Quantity's internals).
#[derive(Clone, Copy)]
enum Source {
    Json,
    Go,
}

thread_local! {
    static LAYOUT: Option<Layout> = serde_json::from_str(LAYOUT_JSON).ok();
}

/// `dump.ForHash(template)` of a defaulted `spec.template` given as JSON. `None` only if the
/// embedded layout failed to load, which a test rules out.
pub fn for_hash_pod_template(template: &Value) -> Option<String> {
    LAYOUT.with(|l| {
        let l = l.as_ref()?;
        let mut out = String::with_capacity(8 * 1024);
        let root = TypeRef::Named(l.root.clone());
        Dumper { layout: l }.format(&root, Some(template), Source::Json, false, &mut out);
        Some(out)
    })
}

struct Dumper<'a> {
    layout: &'a Layout,
}

const SCALARS: &[&str] = &[
    "string", "bool", "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32",
    "uint64", "uintptr", "float32", "float64",
];

impl<'a> Dumper<'a> {
    /// The Go type's `reflect.Type.String()`.
    fn type_string(&self, t: &TypeRef) -> String {
        match t {
            TypeRef::Named(n) => n.clone(),
            TypeRef::Anon(d) => match d.kind.as_str() {
                "ptr" => format!("*{}", self.elem_string(d)),
                "slice" => format!("[]{}", self.elem_string(d)),
                "map" => format!(
                    "map[{}]{}",
                    d.key.as_ref().map(|k| self.type_string(k)).unwrap_or_default(),
                    self.elem_string(d)
                ),
                other => other.to_string(),
            },
        }
    }

    fn elem_string(&self, d: &Def) -> String {
        d.elem.as_ref().map(|e| self.type_string(e)).unwrap_or_default()
    }

    /// The definition behind a reference; builtin scalars are their own kind.
    fn def<'b>(&'b self, t: &'b TypeRef) -> Option<DefView<'b>> {
        match t {
            TypeRef::Anon(d) => Some(DefView::Def(d)),
            TypeRef::Named(n) => match self.layout.types.get(n) {
                Some(d) => Some(DefView::Def(d)),
                None if SCALARS.contains(&n.as_str()) => Some(DefView::Scalar(n)),
                None => None,
            },
        }
    }

    /// spew's `formatState.format` with the `#` flag: `(type)value` unless the type was just
    /// printed by the caller (slice elements, map keys and values, a pointer's target).
    fn format(&self, t: &TypeRef, v: Option<&Value>, src: Source, ignore_type: bool, out: &mut String) {
        let v = v.filter(|v| !v.is_null());
        let name = self.type_string(t);
        // Values whose JSON form is not the Go struct's shape.
        if matches!(src, Source::Json) {
            let go = match name.as_str() {
                "resource.Quantity" => Some(quantity_internals(v)),
                "intstr.IntOrString" => Some(int_or_string_internals(v)),
                "v1.Time" => Some(json!({"Time": {"wall": 0, "ext": 0, "loc": null}})),
                _ => None,
            };
            if let Some(go) = go {
                return self.format(t, Some(&go), Source::Go, ignore_type, out);
            }
        }
        let Some(def) = self.def(t) else {
            // Unknown to the layout: print the type and Go's zero rendering.
            if !ignore_type {
                let _ = write!(out, "({name})");
            }
            out.push_str("<nil>");
            return;
        };
        if def.kind() == "ptr" {
            return self.format_ptr(t, def.elem(), v, src, ignore_type, out);
        }
        if !ignore_type {
            let _ = write!(out, "({name})");
        }
        match def.kind() {
            "bool" => out.push_str(if v.and_then(Value::as_bool).unwrap_or(false) { "true" } else { "false" }),
            "string" => out.push_str(v.and_then(Value::as_str).unwrap_or("")),
            k if k.starts_with("int") => {
                let _ = write!(out, "{}", v.and_then(as_i64).unwrap_or(0));
            }
            k if k.starts_with("uint") => {
                let _ = write!(out, "{}", v.and_then(Value::as_u64).unwrap_or(0));
            }
            k if k.starts_with("float") => {
                out.push_str(&go_float(v.and_then(Value::as_f64).unwrap_or(0.0)));
            }
            "slice" => {
                let items = v.and_then(Value::as_array).filter(|a| !a.is_empty());
                let Some(items) = items else {
                    out.push_str("<nil>");
                    return;
                };
                let elem = def.elem();
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(' ');
                    }
                    if let Some(e) = elem {
                        self.format(e, Some(item), src, true, out);
                    }
                }
                out.push(']');
            }
            "map" => {
                let entries = v.and_then(Value::as_object).filter(|m| !m.is_empty());
                let Some(entries) = entries else {
                    out.push_str("<nil>");
                    return;
                };
                let mut keys: Vec<&String> = entries.keys().collect();
                keys.csort();
                out.push_str("map[");
                for (i, k) in keys.iter().enumerate() {
                    if i > 0 {
                        out.push(' ');
                    }
                    out.push_str(k);
                    out.push(':');
                    if let Some(e) = def.elem() {
                        self.format(e, entries.get(*k), src, true, out);
                    }
                }
                out.push(']');
            }
            "struct" => {
                out.push('{');
                for (i, f) in def.fields().iter().enumerate() {
                    if i > 0 {
                        out.push(' ');
                    }
                    out.push_str(&f.name);
                    out.push(':');
                    let child = match src {
                        // An inline (embedded, `json:",inline"`) struct reads its parent's keys.
                        Source::Json if f.inline => v,
                        Source::Json if f.json.is_empty() => None,
                        Source::Json => v.and_then(|o| o.get(&f.json)),
                        Source::Go => v.and_then(|o| o.get(&f.name)),
                    };
                    self.format(&f.ty, child, src, false, out);
                }
                out.push('}');
            }
            // Interfaces, funcs, channels: none is set in a pod template.
            _ => out.push_str("<nil>"),
        }
    }

    /// spew's `formatPtr`: `(*T)<nil>`, or `(*T)` and the target without its type; `<nil>` and
    /// `<*>` where the type is not shown.
    fn format_ptr(&self, t: &TypeRef, elem: Option<&TypeRef>, v: Option<&Value>, src: Source, ignore_type: bool, out: &mut String) {
        let Some(v) = v else {
            if !ignore_type {
                let _ = write!(out, "({})", self.type_string(t));
            }
            out.push_str("<nil>");
            return;
        };
        let Some(elem) = elem else {
            out.push_str("<nil>");
            return;
        };
        if ignore_type {
            out.push_str("<*>");
        } else {
            let _ = write!(out, "(*{})", self.type_string(elem));
        }
        self.format(elem, Some(v), src, true, out);
    }
}

enum DefView<'a> {
    Def(&'a Def),
    Scalar(&'a str),
}

impl<'a> DefView<'a> {
    fn kind(&self) -> &str {
        match self {
            DefView::Def(d) => &d.kind,
            DefView::Scalar(k) => k,
        }
    }
    fn elem(&self) -> Option<&'a TypeRef> {
        match self {
            DefView::Def(d) => d.elem.as_ref(),
            DefView::Scalar(_) => None,
        }
    }
    fn fields(&self) -> &'a [Field] {
        match self {
            DefView::Def(d) => &d.fields,
            DefView::Scalar(_) => &[],
        }
    }
}

fn as_i64(v: &Value) -> Option<i64> {
    v.as_i64().or_else(|| v.as_f64().map(|f| f as i64))
}

/// `strconv.FormatFloat(f, 'g', -1, 64)` for the values a template can hold.
fn go_float(f: f64) -> String {
    if f == f.trunc() && f.abs() < 1e21 {
        format!("{}", f as i64)
    } else {
        format!("{f}")
    }
}

fn format_name(f: Format) -> &'static str {
    match f {
        Format::DecimalExponent => "DecimalExponent",
        Format::BinarySI => "BinarySI",
        Format::DecimalSI => "DecimalSI",
    }
}

/// The Go internals of the `resource.Quantity` kube-controller-manager decodes: the API server
/// stored the canonical string (`Quantity.String()`), and `ParseQuantity` of that string gives
/// `i` (fast path) or `d` (slow path), the cached `s` when it was canonical, and `Format`.
fn quantity_internals(v: Option<&Value>) -> Value {
    let text = match v {
        Some(Value::String(s)) => s.trim().to_string(),
        Some(Value::Number(n)) => n.to_string(),
        _ => String::new(),
    };
    let zero = json!({"i": {"value": 0, "scale": 0}, "d": {"Dec": null}, "s": "", "Format": ""});
    // a (non-pointer) Quantity always crosses protobuf as a string: a missing one arrives as "0"
    let text = if text.is_empty() { "0".to_string() } else { text };
    let Ok(first) = parse_go(&text) else { return zero };
    let stored = first.canonical();
    let Ok(p) = parse_go(&stored) else { return zero };
    let s = p.cached.clone().unwrap_or_default();
    let format = format_name(p.format);
    if stored == "0" {
        return json!({"i": {"value": 0, "scale": 0}, "d": {"Dec": null}, "s": s, "Format": format});
    }
    if p.fast_path {
        let value = if p.neg { -(p.mantissa as i128) } else { p.mantissa as i128 };
        return json!({"i": {"value": value as i64, "scale": p.exponent}, "d": {"Dec": null}, "s": s, "Format": format});
    }
    // inf.Dec{unscaled big.Int{neg, abs nat}, scale}: value = unscaled * 10^-scale.
    let mut limbs = Vec::new();
    let mut m = p.mantissa;
    while m > 0 {
        limbs.push(json!(m as u64));
        m >>= 64;
    }
    json!({
        "i": {"value": 0, "scale": 0},
        "d": {"Dec": {"unscaled": {"neg": p.neg, "abs": limbs}, "scale": -(p.exponent as i64)}},
        "s": s,
        "Format": format,
    })
}

/// `intstr.IntOrString{Type, IntVal, StrVal}` as `UnmarshalJSON` fills it.
fn int_or_string_internals(v: Option<&Value>) -> Value {
    match v {
        Some(Value::String(s)) => json!({"Type": 1, "IntVal": 0, "StrVal": s}),
        Some(n) => json!({"Type": 0, "IntVal": n.as_i64().unwrap_or(0), "StrVal": ""}),
        None => Value::Object(Map::new()),
    }
}
