//! Resource quantities: `100m`, `0.5`, `128Mi`, `1G`, `1e3`.
//!
//! Models `staging/src/k8s.io/apimachinery/pkg/api/resource/quantity.go` (`ParseQuantity`,
//! `parseQuantityString`, `MilliValue`, `Value`, `CanonicalizeBytes`, `UnmarshalJSON`) and
//! `suffix.go` (the suffix table).
//!
//! How Kubernetes reads a quantity:
//! - grammar: `[+-]digits[.digits]suffix` where the suffix is a binary SI unit
//!   (`Ki Mi Gi Ti Pi Ei`, powers of 1024), a decimal SI unit (`n u m "" k M G T P E`, powers of
//!   1000; note the lowercase `k` and that `K` is rejected), or a decimal exponent (`e3`, `E-2`).
//!   `1E` is one exa, `1e3` is a thousand.
//! - precision: the value is kept exactly down to a nano-unit; anything finer is rounded *up*
//!   (away from zero), "so that if you ask for some resources you get some" (`0.1n` becomes `1n`).
//! - bounds: only binary-SI amounts are capped, at 2^63-1 (`9Ei` saturates).
//! - `MilliValue()` / `Value()` round up (away from zero) to the unit: `0.0001` has a MilliValue of 1.
//! - JSON: a quantity may be a string or a bare number; the text is whitespace-trimmed, `null` is zero.
//!
//! Parsing is Go's own algorithm, ported exactly in `parse.rs` ([`parse_go`]: the scanner, its error
//! texts, the fast and slow paths, the canonical string Go caches); the schema's strict decoding
//! and every other reader use it.
//!
//! Simplifications: the Go type switches between an `int64` fast path and an `inf.Dec` slow path;
//! kubesim keeps a single exact integer count of nano-units (`i128`), which covers every amount the
//! Go type can represent up to ~1.7e29 units (larger decimal amounts saturate instead of growing
//! without bound). The canonical string form follows `CanonicalizeBytes`, so `String()` of a parsed
//! quantity matches what the apiserver would echo back (`1000m` -> `1`, `1024Ki` -> `1Mi`).

mod parse;

pub use parse::{parse_go, Parsed, ERR_FORMAT_WRONG, ERR_NUMERIC, ERR_SUFFIX};
use serde_json::Value;
use std::cmp::Ordering;
use std::fmt;

/// How a quantity prefers to be printed (`resource.Format`). It comes from the suffix the user wrote.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// `e3`, `E-6` style.
    DecimalExponent,
    /// `Ki`, `Mi`, ... (powers of 1024).
    BinarySI,
    /// `m`, `k`, `M`, `G`, ... (powers of 1000), and plain numbers.
    DecimalSI,
}

/// An exact resource amount, stored as a count of nano-units (10^-9) plus its preferred format.
#[derive(Clone, Copy, Debug)]
pub struct Quantity {
    nanos: i128,
    /// Printing preference, as in Go; it does not take part in comparisons.
    pub format: Format,
}

const NANO: i128 = 1_000_000_000;
/// kubesim's own representational ceiling for decimal amounts (Go would keep growing an inf.Dec).
const REPR_LIMIT: i128 = i128::MAX / 1024;

impl PartialEq for Quantity {
    fn eq(&self, other: &Self) -> bool {
        self.nanos == other.nanos
    }
}
impl Eq for Quantity {}
impl PartialOrd for Quantity {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Quantity {
    /// `Quantity.Cmp`: compares amounts only, never formats.
    fn cmp(&self, other: &Self) -> Ordering {
        self.nanos.cmp(&other.nanos)
    }
}

/// Parse a Kubernetes quantity given as JSON string or number ("100m", "0.5", 2, "128Mi", "1G", "1e3").
/// None if malformed. JSON `null` is the zero quantity, as in `Quantity.UnmarshalJSON`.
pub fn parse_quantity(v: &Value) -> Option<Quantity> {
    match v {
        Value::String(s) => parse_quantity_str(s.trim()),
        Value::Number(n) => parse_quantity_str(n.to_string().trim()),
        Value::Null => Some(Quantity::zero(Format::DecimalSI)),
        _ => None,
    }
}

/// `ParseQuantity` on a string (no trimming: the JSON path trims first). None if malformed; see
/// [`parse_go`] for Go's error texts and the canonical string.
pub fn parse_quantity_str(s: &str) -> Option<Quantity> {
    parse_go(s).ok().map(|p| p.to_quantity())
}

/// Round `nanos` to a whole number of `unit`s, away from zero (Go's ScaledValue rounding), as i64.
fn scaled_away_from_zero(nanos: i128, unit: i128) -> i64 {
    let mag = nanos.unsigned_abs() as i128;
    let mut q = mag / unit;
    if mag % unit != 0 {
        q += 1;
    }
    let q = if nanos < 0 { -q } else { q };
    q.clamp(i64::MIN as i128, i64::MAX as i128) as i64
}

impl Quantity {
    /// An amount in nano-units, saturating at kubesim's representational limit.
    fn from_nanos(nanos: i128, format: Format) -> Quantity {
        Quantity { nanos: nanos.clamp(-REPR_LIMIT, REPR_LIMIT), format }
    }

    /// The zero quantity in the given format.
    pub fn zero(format: Format) -> Quantity {
        Quantity { nanos: 0, format }
    }

    /// `resource.NewQuantity(value, format)`.
    pub fn new(value: i64, format: Format) -> Quantity {
        Quantity { nanos: value as i128 * NANO, format }
    }

    /// `resource.NewScaledQuantity(nanos, -9)`: an amount of nano-units.
    pub fn new_nano(nanos: i64, format: Format) -> Quantity {
        Quantity::from_nanos(nanos as i128, format)
    }

    /// `resource.NewMilliQuantity(milli, format)`.
    pub fn new_milli(milli: i64, format: Format) -> Quantity {
        Quantity { nanos: milli as i128 * 1_000_000, format }
    }

    /// `MilliValue()`: thousandths of a unit, rounded up (away from zero). `0.0001` -> 1.
    pub fn milli_value(&self) -> i64 {
        scaled_away_from_zero(self.nanos, 1_000_000)
    }

    /// `Value()`: whole units, rounded up (away from zero). `0.1Mi` -> 104858.
    pub fn value(&self) -> i64 {
        scaled_away_from_zero(self.nanos, NANO)
    }

    /// Exact amount in nano-units.
    pub fn nanos(&self) -> i128 {
        self.nanos
    }

    pub fn is_zero(&self) -> bool {
        self.nanos == 0
    }

    /// `Quantity.Add`: exact sum; a zero receiver takes the format of the addend, as in Go.
    pub fn add(&self, other: &Quantity) -> Quantity {
        let format = if self.nanos == 0 { other.format } else { self.format };
        Quantity { nanos: self.nanos.saturating_add(other.nanos).clamp(-REPR_LIMIT, REPR_LIMIT), format }
    }

    /// `Quantity.Sub`.
    pub fn sub(&self, other: &Quantity) -> Quantity {
        let format = if self.nanos == 0 { other.format } else { self.format };
        Quantity { nanos: self.nanos.saturating_sub(other.nanos).clamp(-REPR_LIMIT, REPR_LIMIT), format }
    }

    /// `CanonicalizeBytes`: the canonical text (what `String()` and JSON marshalling produce).
    pub fn canonical(&self) -> String {
        Parsed { neg: self.nanos < 0, mantissa: self.nanos.unsigned_abs(), exponent: -9, format: self.format, cached: None, fast_path: false }.canonical()
    }
}

impl fmt::Display for Quantity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.canonical())
    }
}

/// Canonical DecimalSI text of a CPU amount in millicores: 250 -> "250m", 2000 -> "2", 1500 -> "1500m".
pub fn format_milli_cpu(m: i64) -> String {
    Quantity::new_milli(m, Format::DecimalSI).canonical()
}

/// Canonical BinarySI text of a byte count: 134217728 -> "128Mi", 1536 -> "1536".
/// As in Go, amounts below 1024 print as DecimalSI (1000 -> "1k").
pub fn format_bytes(b: i64) -> String {
    Quantity::new(b, Format::BinarySI).canonical()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    struct ParseCase {
        name: &'static str,
        input: Value,
        milli: Option<i64>,
        value: Option<i64>,
        canonical: Option<&'static str>,
    }

    #[test]
    fn parse_table() {
        let cases = [
            ParseCase {
                name: "millicores",
                input: json!("100m"),
                milli: Some(100),
                value: Some(1),
                canonical: Some("100m"),
            },
            ParseCase {
                name: "half a core",
                input: json!("0.5"),
                milli: Some(500),
                value: Some(1),
                canonical: Some("500m"),
            },
            ParseCase {
                name: "json integer",
                input: json!(2),
                milli: Some(2000),
                value: Some(2),
                canonical: Some("2"),
            },
            ParseCase {
                name: "json float",
                input: json!(0.25),
                milli: Some(250),
                value: Some(1),
                canonical: Some("250m"),
            },
            ParseCase {
                name: "mebibytes",
                input: json!("128Mi"),
                milli: Some(134217728000),
                value: Some(134217728),
                canonical: Some("128Mi"),
            },
            ParseCase {
                name: "gigabyte",
                input: json!("1G"),
                milli: Some(1_000_000_000_000),
                value: Some(1_000_000_000),
                canonical: Some("1G"),
            },
            ParseCase {
                name: "exponent",
                input: json!("1e3"),
                milli: Some(1_000_000),
                value: Some(1000),
                canonical: Some("1e3"),
            },
            ParseCase {
                name: "negative exponent",
                input: json!("1E-3"),
                milli: Some(1),
                value: Some(1),
                canonical: Some("1e-3"),
            },
            ParseCase {
                name: "exa is E",
                input: json!("1E"),
                milli: None,
                value: Some(1_000_000_000_000_000_000),
                canonical: Some("1E"),
            },
            ParseCase {
                name: "kilo",
                input: json!("8k"),
                milli: Some(8_000_000),
                value: Some(8000),
                canonical: Some("8k"),
            },
            ParseCase {
                name: "1000m is 1",
                input: json!("1000m"),
                milli: Some(1000),
                value: Some(1),
                canonical: Some("1"),
            },
            ParseCase {
                name: "1024Ki is 1Mi",
                input: json!("1024Ki"),
                milli: None,
                value: Some(1048576),
                canonical: Some("1Mi"),
            },
            ParseCase {
                name: "fractional binary",
                input: json!("0.5Mi"),
                milli: None,
                value: Some(524288),
                canonical: Some("512Ki"),
            },
            ParseCase {
                name: "fractional binary rounds up in Value",
                input: json!("0.1Mi"),
                milli: Some(104857600),
                value: Some(104858),
                canonical: Some("104857600m"),
            },
            ParseCase {
                name: "100.035Ki",
                input: json!("100.035Ki"),
                milli: Some(102435840),
                value: Some(102436),
                canonical: Some("102435840m"),
            },
            // whole bytes, but not a whole number of Ki: Go's CanonicalizeBytes prints the plain
            // integer, which parses back as DecimalSI and prints as 64k (not a fixed point)
            ParseCase {
                name: "62.5Ki is 64000 bytes",
                input: json!("62.5Ki"),
                milli: Some(64_000_000),
                value: Some(64_000),
                canonical: Some("64000"),
            },
            ParseCase {
                name: "64000 prints as 64k",
                input: json!("64000"),
                milli: Some(64_000_000),
                value: Some(64_000),
                canonical: Some("64k"),
            },
            ParseCase {
                name: "sub-milli rounds up",
                input: json!("0.0001"),
                milli: Some(1),
                value: Some(1),
                canonical: Some("100u"),
            },
            ParseCase {
                name: "sub-nano rounds up",
                input: json!("0.0000000001"),
                milli: Some(1),
                value: Some(1),
                canonical: Some("1n"),
            },
            ParseCase {
                name: "3.001n rounds to 4n",
                input: json!("3.001n"),
                milli: Some(1),
                value: Some(1),
                canonical: Some("4n"),
            },
            ParseCase {
                name: "tiny binary becomes DecimalSI",
                input: json!("0.000000000001Ki"),
                milli: Some(1),
                value: Some(1),
                canonical: Some("2n"),
            },
            ParseCase {
                name: "9Ei caps at maxAllowed",
                input: json!("9Ei"),
                milli: None,
                value: Some(i64::MAX),
                canonical: Some("9223372036854775807"),
            },
            ParseCase {
                name: "trailing dot",
                input: json!("1."),
                milli: Some(1000),
                value: Some(1),
                canonical: Some("1"),
            },
            ParseCase {
                name: "leading dot",
                input: json!(".001"),
                milli: Some(1),
                value: Some(1),
                canonical: Some("1m"),
            },
            ParseCase {
                name: "1.G",
                input: json!("1.G"),
                milli: None,
                value: Some(1_000_000_000),
                canonical: Some("1G"),
            },
            ParseCase {
                name: "whitespace trimmed",
                input: json!(" 2 "),
                milli: Some(2000),
                value: Some(2),
                canonical: Some("2"),
            },
            ParseCase { name: "zero", input: json!("0"), milli: Some(0), value: Some(0), canonical: Some("0") },
            ParseCase {
                name: "zero with suffix",
                input: json!("0Mi"),
                milli: Some(0),
                value: Some(0),
                canonical: Some("0"),
            },
            ParseCase {
                name: "null is zero",
                input: json!(null),
                milli: Some(0),
                value: Some(0),
                canonical: Some("0"),
            },
            ParseCase {
                name: "negative rounds away from zero",
                input: json!("-1.5"),
                milli: Some(-1500),
                value: Some(-2),
                canonical: Some("-1500m"),
            },
            ParseCase {
                name: "plus sign",
                input: json!("+5"),
                milli: Some(5000),
                value: Some(5),
                canonical: Some("5"),
            },
            ParseCase {
                name: "1.3E+6",
                input: json!("1.3E+6"),
                milli: None,
                value: Some(1_300_000),
                canonical: Some("1300e3"),
            },
            ParseCase {
                name: "50k canonical",
                input: json!("50k"),
                milli: None,
                value: Some(50000),
                canonical: Some("50k"),
            },
            ParseCase {
                name: "12E is not capped",
                input: json!("12E"),
                milli: Some(i64::MAX),
                value: Some(i64::MAX),
                canonical: Some("12E"),
            },
            ParseCase { name: "empty", input: json!(""), milli: None, value: None, canonical: None },
            ParseCase { name: "capital K", input: json!("1K"), milli: None, value: None, canonical: None },
            // Go's scanner reads a missing numerator as "0" ("if we stripped all numerator
            // positions, always return 0"), so these are zero, not errors
            ParseCase { name: "suffix without digits", input: json!("Mi"), milli: Some(0), value: Some(0), canonical: Some("0") },
            ParseCase { name: "a lone point", input: json!("."), milli: Some(0), value: Some(0), canonical: Some("0") },
            ParseCase { name: "unknown suffix", input: json!("1x"), milli: None, value: None, canonical: None },
            ParseCase { name: "bare e", input: json!("1e"), milli: None, value: None, canonical: None },
            ParseCase { name: "two dots", input: json!("1.2.3"), milli: None, value: None, canonical: None },
            ParseCase { name: "inner space", input: json!("1 Gi"), milli: None, value: None, canonical: None },
            ParseCase { name: "letters", input: json!("abc"), milli: None, value: None, canonical: None },
            ParseCase { name: "bool", input: json!(true), milli: None, value: None, canonical: None },
            ParseCase { name: "object", input: json!({"a": 1}), milli: None, value: None, canonical: None },
        ];
        for c in &cases {
            let q = parse_quantity(&c.input);
            match c.canonical {
                None => assert!(q.is_none(), "{}: expected parse failure, got {:?}", c.name, q),
                Some(canon) => {
                    let q = q.unwrap_or_else(|| panic!("{}: failed to parse", c.name));
                    assert_eq!(q.canonical(), canon, "{}: canonical", c.name);
                    if let Some(m) = c.milli {
                        assert_eq!(q.milli_value(), m, "{}: milli_value", c.name);
                    }
                    if let Some(v) = c.value {
                        assert_eq!(q.value(), v, "{}: value", c.name);
                    }
                }
            }
        }
    }

    #[test]
    fn format_table() {
        struct C {
            name: &'static str,
            got: String,
            want: &'static str,
        }
        let cases = [
            C { name: "250 millicores", got: format_milli_cpu(250), want: "250m" },
            C { name: "2000 millicores", got: format_milli_cpu(2000), want: "2" },
            C { name: "1500 millicores", got: format_milli_cpu(1500), want: "1500m" },
            C { name: "100 millicores", got: format_milli_cpu(100), want: "100m" },
            C { name: "0 millicores", got: format_milli_cpu(0), want: "0" },
            C { name: "million millicores", got: format_milli_cpu(1_000_000), want: "1k" },
            C { name: "128Mi", got: format_bytes(134217728), want: "128Mi" },
            C { name: "200Mi", got: format_bytes(209715200), want: "200Mi" },
            C { name: "1Gi", got: format_bytes(1 << 30), want: "1Gi" },
            C { name: "1536 bytes", got: format_bytes(1536), want: "1536" },
            C { name: "1Mi + 1", got: format_bytes(1048577), want: "1048577" },
            C { name: "below 1024 is DecimalSI", got: format_bytes(1000), want: "1k" },
            C { name: "500 bytes", got: format_bytes(500), want: "500" },
            C { name: "zero bytes", got: format_bytes(0), want: "0" },
            C { name: "kind node memory", got: format_bytes(16_374_512 * 1024), want: "16374512Ki" },
        ];
        for c in &cases {
            assert_eq!(c.got, c.want, "{}", c.name);
        }
    }

    #[test]
    fn add_and_compare_table() {
        struct C {
            name: &'static str,
            a: &'static str,
            b: &'static str,
            sum: &'static str,
            ord: Ordering,
        }
        let cases = [
            C { name: "millicores add", a: "100m", b: "250m", sum: "350m", ord: Ordering::Less },
            C { name: "zero takes addend format", a: "0", b: "1Gi", sum: "1Gi", ord: Ordering::Less },
            C {
                name: "binary compare with decimal",
                a: "10000T",
                b: "100Gi",
                sum: "10000107374182400",
                ord: Ordering::Greater,
            },
            C { name: "equal across formats", a: "1Ki", b: "1024", sum: "2Ki", ord: Ordering::Equal },
        ];
        for c in &cases {
            let a = parse_quantity_str(c.a).unwrap();
            let b = parse_quantity_str(c.b).unwrap();
            assert_eq!(a.add(&b).canonical(), c.sum, "{}: sum", c.name);
            assert_eq!(a.cmp(&b), c.ord, "{}: cmp", c.name);
        }
    }
}
