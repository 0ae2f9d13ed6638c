//! Timestamps on the virtual clock.
//!
//! Real counterparts: `metav1.Time` (RFC 3339, second precision) and `metav1.MicroTime` (six
//! decimals) in `staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/time.go`, `micro_time.go`.
//! The simulation's epoch is a fixed date (see [`EPOCH_MS`]) so transcripts are stable.

/// Virtual time 0 is 2026-01-01T00:00:00Z.
pub const EPOCH_MS: i64 = 1_767_225_600_000;

fn civil_from_days(z: i64) -> (i64, u32, u32) {
    // Howard Hinnant's algorithm.
    let z = z + 719_468;
    let era = if z >= 0 { z } else { z - 146_096 } / 146_097;
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = if y >= 0 { y } else { y - 399 } / 400;
    let yoe = y - era * 400;
    let m = m as i64;
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + d as i64 - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

fn parts(unix_ms: i64) -> (i64, u32, u32, i64, i64, i64, i64) {
    let days = unix_ms.div_euclid(86_400_000);
    let rem = unix_ms.rem_euclid(86_400_000);
    let (y, mo, d) = civil_from_days(days);
    (y, mo, d, rem / 3_600_000, rem / 60_000 % 60, rem / 1000 % 60, rem % 1000)
}

/// `metav1.Time` rendering of virtual time `sim_ms`: `2026-01-01T00:00:05Z`.
pub fn rfc3339(sim_ms: i64) -> String {
    let (y, mo, d, h, mi, s, _) = parts(EPOCH_MS + sim_ms);
    format!("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z", y, mo, d, h, mi, s)
}

/// `metav1.MicroTime` rendering: `2026-01-01T00:00:05.123000Z`.
pub fn rfc3339_micro(sim_ms: i64) -> String {
    let (y, mo, d, h, mi, s, ms) = parts(EPOCH_MS + sim_ms);
    format!("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}000Z", y, mo, d, h, mi, s, ms)
}

/// Parses an RFC 3339 timestamp (`Z` or numeric offset, optional fraction) to virtual ms.
pub fn parse_rfc3339(s: &str) -> Option<i64> {
    let b = s.as_bytes();
    if b.len() < 20 || b[4] != b'-' || b[7] != b'-' || (b[10] != b'T' && b[10] != b't') {
        return None;
    }
    let num = |r: std::ops::Range<usize>| s.get(r)?.parse::<i64>().ok();
    let (y, mo, d) = (num(0..4)?, num(5..7)?, num(8..10)?);
    let (h, mi, sec) = (num(11..13)?, num(14..16)?, num(17..19)?);
    let mut i = 19;
    let mut frac_ms = 0i64;
    if b.get(i) == Some(&b'.') {
        let start = i + 1;
        i = start;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        let digits = s.get(start..i)?;
        let first3: String = digits.chars().chain("000".chars()).take(3).collect();
        frac_ms = first3.parse().ok()?;
    }
    let offset_min = match b.get(i) {
        Some(b'Z') | Some(b'z') if i + 1 == b.len() => 0,
        Some(b'+') | Some(b'-') if i + 6 == b.len() && b.get(i + 3) == Some(&b':') => {
            let sign = if b[i] == b'+' { 1 } else { -1 };
            sign * (num(i + 1..i + 3)? * 60 + num(i + 4..i + 6)?)
        }
        _ => return None,
    };
    if !(1..=12).contains(&mo) || !(1..=31).contains(&d) || h > 23 || mi > 59 || sec > 60 {
        return None;
    }
    let days = days_from_civil(y, mo as u32, d as u32);
    let unix_ms = ((days * 24 + h) * 60 + mi - offset_min) * 60_000 + sec * 1000 + frac_ms;
    Some(unix_ms - EPOCH_MS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips() {
        let cases = [("epoch", 0, "2026-01-01T00:00:00Z"), ("later", 86_400_000 * 59 + 3_723_000, "2026-03-01T01:02:03Z")];
        for (name, ms, s) in cases {
            assert_eq!(rfc3339(ms), s, "{}", name);
            assert_eq!(parse_rfc3339(s), Some(ms), "{}", name);
        }
        assert_eq!(rfc3339_micro(1_234), "2026-01-01T00:00:01.234000Z");
        assert_eq!(parse_rfc3339("2026-01-01T00:00:01.234000Z"), Some(1234));
        assert_eq!(parse_rfc3339("2026-01-01T01:00:00+01:00"), Some(0));
        assert_eq!(parse_rfc3339("nope"), None);
    }
}
