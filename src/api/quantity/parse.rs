//! Go's `ParseQuantity` exactly (`k8s.io/apimachinery/pkg/api/resource/quantity.go`): the scanner
//! with its three error texts, the int64 fast path and the `inf.Dec` slow path, the BinarySI cap,
//! rounding up to nano, and the string Go caches when the input was already canonical (`+1`,
//! `129e6` keep their text). [`Parsed::canonical`] is `Quantity.String()`; [`Parsed::to_quantity`]
//! gives the exact nano-unit amount the rest of kubesim computes with.

use super::{Format, Quantity};
// ---------------------------------------------------------------------------------------------
// resource.Quantity parsing and canonical form (k8s.io/apimachinery/pkg/api/resource).

pub const ERR_FORMAT_WRONG: &str =
    "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
pub const ERR_NUMERIC: &str = "unable to parse numeric part of quantity";
pub const ERR_SUFFIX: &str = "unable to parse quantity's suffix";


/// A parsed quantity: `(-1)^neg * mantissa * 10^exponent`, plus the string Go caches when the
/// input was already canonical (then it is what gets serialized).
#[derive(Debug, Clone, PartialEq)]
pub struct Parsed {
    pub(crate) neg: bool,
    pub(crate) mantissa: u128,
    pub(crate) exponent: i32,
    pub(crate) format: Format,
    pub(crate) cached: Option<String>,
    /// Go kept the amount as `int64Amount{value, scale}` (else as an `inf.Dec`).
    pub(crate) fast_path: bool,
}

/// 2^63 - 1: the largest magnitude a quantity keeps (larger values are capped).
const MAX_QUANTITY: u128 = i64::MAX as u128;

const DECIMAL_SUFFIXES: &[(&str, i32)] = &[
    ("n", -9),
    ("u", -6),
    ("m", -3),
    ("", 0),
    ("k", 3),
    ("M", 6),
    ("G", 9),
    ("T", 12),
    ("P", 15),
    ("E", 18),
];
const BINARY_SUFFIXES: &[(&str, i32)] = &[
    ("Ki", 10),
    ("Mi", 20),
    ("Gi", 30),
    ("Ti", 40),
    ("Pi", 50),
    ("Ei", 60),
];

struct QuantityParts<'a> {
    positive: bool,
    value: &'a str,
    num: &'a str,
    denom: &'a str,
    suffix: &'a str,
}

/// `parseQuantityString`: a scanner over sign, digits, '.', digits and the suffix.
fn parse_quantity_string(s: &str) -> Result<QuantityParts<'_>, &'static str> {
    let b = s.as_bytes();
    let end = b.len();
    let mut parts = QuantityParts {
        positive: true,
        value: "",
        num: "",
        denom: "",
        suffix: "",
    };
    let mut pos = 0;
    if let Some(&c) = b.first() {
        if c == b'-' {
            parts.positive = false;
            pos += 1;
        } else if c == b'+' {
            pos += 1;
        }
    }
    // Leading zeros.
    loop {
        if pos >= end {
            parts.num = "0";
            parts.value = "0";
            return Ok(parts);
        }
        if b[pos] == b'0' {
            pos += 1;
        } else {
            break;
        }
    }
    // Numerator.
    let start = pos;
    let mut i = pos;
    while i < end && b[i].is_ascii_digit() {
        i += 1;
    }
    if i >= end {
        parts.num = &s[start..end];
        parts.value = s;
        return Ok(parts);
    }
    parts.num = if i == start { "0" } else { &s[start..i] };
    pos = i;
    // Denominator.
    if pos < end && b[pos] == b'.' {
        pos += 1;
        let start = pos;
        let mut i = pos;
        while i < end && b[i].is_ascii_digit() {
            i += 1;
        }
        if i >= end {
            parts.denom = &s[start..end];
            parts.value = s;
            return Ok(parts);
        }
        parts.denom = &s[start..i];
        pos = i;
    }
    parts.value = &s[..pos];
    // Suffix: letters from the set, an optional sign, digits.
    let suffix_start = pos;
    let mut i = pos;
    while i < end && b"eEinumkKMGTP".contains(&b[i]) {
        i += 1;
    }
    if i >= end {
        parts.suffix = &s[suffix_start..end];
        return Ok(parts);
    }
    pos = i;
    if b[pos] == b'-' || b[pos] == b'+' {
        pos += 1;
    }
    while pos < end && b[pos].is_ascii_digit() {
        pos += 1;
    }
    if pos >= end {
        parts.suffix = &s[suffix_start..end];
        return Ok(parts);
    }
    Err(ERR_FORMAT_WRONG)
}

/// `suffixHandler.interpret`: (base, exponent, format).
fn interpret_suffix(suffix: &str) -> Option<(u32, i32, Format)> {
    if let Some((_, e)) = DECIMAL_SUFFIXES.iter().find(|(s, _)| *s == suffix) {
        return Some((10, *e, Format::DecimalSI));
    }
    if let Some((_, e)) = BINARY_SUFFIXES.iter().find(|(s, _)| *s == suffix) {
        return Some((2, *e, Format::BinarySI));
    }
    let bytes = suffix.as_bytes();
    if bytes.len() > 1 && (bytes[0] == b'e' || bytes[0] == b'E') {
        let rest = &suffix[1..];
        let digits = rest.strip_prefix(['+', '-']).unwrap_or(rest);
        if digits.is_empty() || !digits.bytes().all(|c| c.is_ascii_digit()) {
            return None;
        }
        // strconv.ParseInt(.., 64) then int32(): a 64-bit overflow fails, a 32-bit one wraps.
        let parsed: i64 = rest.parse().ok()?;
        return Some((10, parsed as i32, Format::DecimalExponent));
    }
    None
}

fn pow10(n: u32) -> Option<u128> {
    10u128.checked_pow(n)
}

/// `ParseQuantity`.
pub fn parse_go(s: &str) -> Result<Parsed, &'static str> {
    if s.is_empty() {
        return Err(ERR_FORMAT_WRONG);
    }
    if s == "0" {
        return Ok(Parsed {
            neg: false,
            mantissa: 0,
            exponent: 0,
            format: Format::DecimalSI,
            cached: Some("0".into()),
            fast_path: true,
        });
    }
    let parts = parse_quantity_string(s)?;
    let (base, exponent, format) = interpret_suffix(parts.suffix).ok_or(ERR_SUFFIX)?;

    // Fast path: the value fits an int64 at a scale of at least nano.
    let digits = parts.num.len() + parts.denom.len();
    let (precision, mut scale, multiplier): (i64, i64, i64) = match format {
        Format::DecimalExponent | Format::DecimalSI => {
            (18 - digits as i64, exponent as i64, 1)
        }
        Format::BinarySI => {
            if exponent >= 0 && parts.denom.is_empty() {
                let precision =
                    15 - parts.num.len() as i64 - (exponent as f32 * 3.0 / 10.0) as i64 - 1;
                (precision, 0, 1i64.checked_shl(exponent as u32).unwrap_or(0))
            } else {
                (-1, 0, 1)
            }
        }
    };
    if precision >= 0 {
        scale -= parts.denom.len() as i64;
        if scale >= -9 {
            let shifted = format!("{}{}", parts.num, parts.denom);
            let value: i64 = shifted.parse().map_err(|_| ERR_NUMERIC)?;
            if let Some(result) = value.checked_mul(multiplier) {
                let canonical = match format {
                    Format::BinarySI => exponent % 10 == 0 && (value & 0x07) != 0,
                    _ => scale % 3 == 0 && !shifted.ends_with("000") && !shifted.starts_with('0'),
                };
                return Ok(Parsed {
                    neg: !parts.positive && result != 0,
                    mantissa: result.unsigned_abs() as u128,
                    exponent: scale as i32,
                    format,
                    cached: canonical.then(|| s.to_string()),
                    fast_path: true,
                });
            }
        }
    }

    // Slow path (inf.Dec): exact decimal of `value`, times the suffix, rounded up to nano, capped.
    let text = parts.value.strip_prefix(['+', '-']).unwrap_or(parts.value);
    let (int_part, frac_part) = text.split_once('.').unwrap_or((text, ""));
    if (int_part.is_empty() && frac_part.is_empty())
        || !int_part.bytes().all(|c| c.is_ascii_digit())
        || !frac_part.bytes().all(|c| c.is_ascii_digit())
    {
        return Err(ERR_NUMERIC);
    }
    let mut all_digits = format!("{int_part}{frac_part}");
    let mut exp10 = -(frac_part.len() as i64);
    let trimmed = all_digits.trim_start_matches('0').to_string();
    all_digits = trimmed;
    // Keep 38 significant digits (u128); dropped digits can only round the value up.
    let mut round_up = false;
    if all_digits.len() > 38 {
        let dropped = all_digits.len() - 38;
        round_up = all_digits[38..].bytes().any(|c| c != b'0');
        all_digits.truncate(38);
        exp10 += dropped as i64;
    }
    let mut mantissa: u128 = if all_digits.is_empty() {
        0
    } else {
        all_digits.parse().map_err(|_| ERR_NUMERIC)?
    };
    if round_up {
        mantissa += 1;
    }
    let mut over_max = false;
    if base == 10 {
        exp10 += exponent as i64;
    } else {
        match 1u128
            .checked_shl(exponent as u32)
            .and_then(|m| mantissa.checked_mul(m))
        {
            Some(m) => mantissa = m,
            None => over_max = true,
        }
    }
    if mantissa != 0 && !over_max && exp10 < -9 {
        // Round up (away from zero) to nano.
        let shift = u32::try_from(-9 - exp10).unwrap_or(u32::MAX);
        mantissa = match pow10(shift) {
            Some(div) => mantissa.div_ceil(div),
            None => 1,
        };
        exp10 = -9;
    }
    // Cap at 2^63-1; upstream applies the cap to BinarySI only.
    if format == Format::BinarySI && !over_max && mantissa != 0 {
        over_max = if exp10 >= 0 {
            pow10(u32::try_from(exp10).unwrap_or(u32::MAX))
                .and_then(|p| mantissa.checked_mul(p))
                .is_none_or(|v| v > MAX_QUANTITY)
        } else {
            pow10(u32::try_from(-exp10).unwrap_or(u32::MAX))
                .and_then(|p| MAX_QUANTITY.checked_mul(p))
                .is_some_and(|limit| mantissa > limit)
        };
    }
    if over_max {
        mantissa = MAX_QUANTITY;
        exp10 = 0;
    }
    let mut format = format;
    if format == Format::BinarySI && mantissa != 0 && exp10 < 0 {
        // 0 < amount < 1 shows as DecimalSI.
        if pow10(u32::try_from(-exp10).unwrap_or(u32::MAX)).is_some_and(|p| mantissa < p) {
            format = Format::DecimalSI;
        }
    }
    Ok(Parsed {
        neg: !parts.positive && mantissa != 0,
        mantissa,
        exponent: exp10.clamp(i32::MIN as i64, i32::MAX as i64) as i32,
        format,
        cached: None,
        fast_path: false,
    })
}

impl Parsed {
    /// `Quantity.String()` / `MarshalJSON`: the cached input if it was canonical, else
    /// `CanonicalizeBytes`.
    pub fn canonical(&self) -> String {
        if let Some(s) = &self.cached {
            return s.clone();
        }
        if self.mantissa == 0 {
            return "0".into();
        }
        let sign = if self.neg { "-" } else { "" };
        let mut format = self.format;
        let mut integer: Option<u128> = None;
        if format == Format::BinarySI {
            integer = self.integer_value();
            match integer {
                Some(v) if v >= 1024 => {}
                // |q| < 1024, or a fraction: DecimalSI rather than rounding.
                _ => format = Format::DecimalSI,
            }
        }
        if format == Format::BinarySI {
            let mut v = integer.unwrap_or(0);
            let mut times = 0;
            while v >= 1024 && v.is_multiple_of(1024) {
                v /= 1024;
                times += 1;
            }
            let suffix = BINARY_SUFFIXES
                .iter()
                .find(|(_, e)| *e == times * 10)
                .map(|(s, _)| *s)
                .unwrap_or("");
            return format!("{sign}{v}{suffix}");
        }
        // Base 10: move factors of ten into the exponent, then lower it to a multiple of 3.
        let mut m = self.mantissa;
        let mut e = self.exponent as i64;
        while m >= 10 && m.is_multiple_of(10) {
            m /= 10;
            e += 1;
        }
        let r = e.rem_euclid(3);
        match m.checked_mul(if r == 1 {
            10
        } else if r == 2 {
            100
        } else {
            1
        }) {
            Some(v) => {
                m = v;
                e -= r;
            }
            None => {
                // Out of u128 range only for absurd inputs: keep the exponent as is.
            }
        }
        let suffix = match format {
            // v1.34 drops the exponent when DecimalSI has no suffix for it (above 10^18: "1000E"
            // is written as "1"); upstream fixed this later by falling back to "e<exp>".
            Format::DecimalSI => {
                match DECIMAL_SUFFIXES.iter().find(|(_, x)| *x as i64 == e) {
                    Some((s, _)) => s.to_string(),
                    None => String::new(),
                }
            }
            _ => {
                if e == 0 {
                    String::new()
                } else {
                    format!("e{e}")
                }
            }
        };
        format!("{sign}{m}{suffix}")
    }

    /// The magnitude as an integer, if it has no fractional part.
    fn integer_value(&self) -> Option<u128> {
        if self.exponent >= 0 {
            pow10(self.exponent.unsigned_abs()).and_then(|p| self.mantissa.checked_mul(p))
        } else {
            let p = pow10(self.exponent.unsigned_abs())?;
            self.mantissa.is_multiple_of(p).then(|| self.mantissa / p)
        }
    }
}

impl Parsed {
    /// The exact amount in nano-units (the parse already rounded up to a nano), saturating at
    /// kubesim's representational limit.
    pub fn to_quantity(&self) -> Quantity {
        let shift = self.exponent as i64 + 9;
        let mag: i128 = if shift >= 0 {
            match 10i128.checked_pow(shift as u32).and_then(|p| i128::try_from(self.mantissa).ok()?.checked_mul(p)) {
                Some(v) => v,
                None => i128::MAX,
            }
        } else {
            // finer than a nano cannot come out of the parser; round up (away from zero) if it does
            let p = 10u128.checked_pow((-shift) as u32).unwrap_or(u128::MAX);
            i128::try_from(self.mantissa.div_ceil(p)).unwrap_or(i128::MAX)
        };
        Quantity::from_nanos(if self.neg { -mag } else { mag }, self.format)
    }
}
