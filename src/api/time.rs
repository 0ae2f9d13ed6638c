//! Timestamps on the virtual clock.
//!
//! Real counterparts: `metav1.Time` (RFC 3339, second precision) and `metav1.MicroTime` (six
//! decimals) in `staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/time.go`, `micro_time.go`.
//! The simulation's epoch is a fixed date (see [`EPOCH_MS`]) so transcripts are stable.

/// Virtual time 0 is 2026-01-01T00:00:00Z.
pub const EPOCH_MS: i64 = 1_767_225_600_000;

/// (year, month, day) of a day count since 1970-01-01 (H. Hinnant's algorithm).
pub fn civil_from_days(z: i64) -> (i64, u32, u32) {
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

/// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm).
pub fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400; // [0, 399]
    let mp = (m + 9) % 12; // March = 0
    let doy = (153 * mp + 2) / 5 + d - 1; // [0, 365]
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy; // [0, 146096]
    era * 146_097 + doe - 719_468
}

fn is_leap(y: i64) -> bool {
    (y % 4 == 0 && y % 100 != 0) || y % 400 == 0
}

fn days_in_month(y: i64, m: i64) -> i64 {
    match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if is_leap(y) => 29,
        2 => 28,
        _ => 0,
    }
}

fn parts(unix_ms: i64) -> (i64, u32, u32, i64, i64, i64, i64) {
    let days = unix_ms.div_euclid(86_400_000);
    let rem = unix_ms.rem_euclid(86_400_000);
    let (y, mo, d) = civil_from_days(days);
    (y, mo, d, rem / 3_600_000, rem / 60_000 % 60, rem / 1000 % 60, rem % 1000)
}

/// `metav1.Time` wire form of Unix milliseconds: RFC 3339 in UTC with whole seconds (the
/// sub-second part is truncated, as Go's `time.RFC3339` layout does), e.g. `2026-01-01T00:00:00Z`.
pub fn unix_rfc3339(unix_ms: i64) -> String {
    let (y, mo, d, h, mi, s, _) = parts(unix_ms);
    format!("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z", y, mo, d, h, mi, s)
}

/// `metav1.MicroTime` wire form (`RFC3339Micro`) of Unix milliseconds, always six fractional
/// digits, e.g. `2026-01-01T00:00:00.123000Z`. Virtual time has millisecond resolution.
pub fn unix_rfc3339_micro(unix_ms: i64) -> String {
    let (y, mo, d, h, mi, s, ms) = parts(unix_ms);
    format!("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}000Z", y, mo, d, h, mi, s, ms)
}

/// Go's `time.ParseDuration` to milliseconds: a sequence of decimal numbers, each with a unit
/// (`ns`, `us`, `µs`, `ms`, `s`, `m`, `h`), e.g. `300ms`, `1.5h`, `2h45m`; `0` alone is allowed.
/// Sub-millisecond parts are truncated. `None` where Go returns an error.
pub fn parse_go_duration(s: &str) -> Option<i64> {
    let (neg, mut rest) = match s.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, s.strip_prefix('+').unwrap_or(s)),
    };
    if rest == "0" {
        return Some(0);
    }
    if rest.is_empty() {
        return None;
    }
    let mut total_ns: f64 = 0.0;
    while !rest.is_empty() {
        let num_len = rest.find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(rest.len());
        let num = &rest[..num_len];
        if num.is_empty() || num == "." {
            return None;
        }
        let v: f64 = num.parse().ok()?;
        rest = &rest[num_len..];
        let unit_len = rest.find(|c: char| c.is_ascii_digit() || c == '.').unwrap_or(rest.len());
        let ns = match &rest[..unit_len] {
            "ns" => 1.0,
            "us" | "µs" | "μs" => 1e3,
            "ms" => 1e6,
            "s" => 1e9,
            "m" => 60e9,
            "h" => 3600e9,
            _ => return None,
        };
        rest = &rest[unit_len..];
        total_ns += v * ns;
    }
    if total_ns > i64::MAX as f64 {
        return None;
    }
    let ms = (total_ns / 1e6) as i64;
    Some(if neg { -ms } else { ms })
}

/// Abbreviated day names, Sunday first.
pub const WEEKDAYS: [&str; 7] = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
/// Abbreviated month names.
pub const MONTHS: [&str; 12] = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/// The day of the week of Unix ms (0 = Sunday; 1970-01-01 was a Thursday).
pub fn weekday(unix_ms: i64) -> usize {
    (unix_ms.div_euclid(86_400_000) + 4).rem_euclid(7) as usize
}

/// Go's `time.RFC1123Z` in UTC: `Thu, 01 Jan 2026 00:01:00 +0000`.
pub fn unix_rfc1123z(unix_ms: i64) -> String {
    let rem = unix_ms.rem_euclid(86_400_000);
    let (y, m, d) = civil_from_days(unix_ms.div_euclid(86_400_000));
    format!(
        "{}, {:02} {} {:04} {:02}:{:02}:{:02} +0000",
        WEEKDAYS[weekday(unix_ms)],
        d,
        MONTHS[(m as usize).clamp(1, 12) - 1],
        y,
        rem / 3_600_000,
        rem / 60_000 % 60,
        rem / 1000 % 60
    )
}

/// Go's `http.TimeFormat` (RFC 7231's IMF-fixdate), the `Date` header: `Thu, 01 Jan 2026 00:01:00 GMT`.
pub fn unix_http_date(unix_ms: i64) -> String {
    let s = unix_rfc1123z(unix_ms);
    format!("{}GMT", &s[..s.len() - 5])
}

/// `metav1.Time` rendering of virtual time `sim_ms`: `2026-01-01T00:00:05Z`.
pub fn rfc3339(sim_ms: i64) -> String {
    unix_rfc3339(EPOCH_MS + sim_ms)
}

/// `metav1.MicroTime` rendering of virtual time: `2026-01-01T00:00:05.123000Z`.
pub fn rfc3339_micro(sim_ms: i64) -> String {
    unix_rfc3339_micro(EPOCH_MS + sim_ms)
}

/// Go's `time.Time.String()` of a UTC second (what `%s` of a `metav1.Time` prints):
/// `2026-01-01 00:00:31 +0000 UTC`.
pub fn unix_go_string(unix_ms: i64) -> String {
    let secs = unix_ms.div_euclid(1000);
    let (y, m, d) = civil_from_days(secs.div_euclid(86_400));
    let t = secs.rem_euclid(86_400);
    format!("{:04}-{:02}-{:02} {:02}:{:02}:{:02} +0000 UTC", y, m, d, t / 3600, t % 3600 / 60, t % 60)
}

/// Parses an RFC 3339 timestamp (as [`parse_rfc3339_unix`]) to virtual milliseconds.
pub fn parse_rfc3339(s: &str) -> Option<i64> {
    parse_rfc3339_unix(s).map(|unix_ms| unix_ms - EPOCH_MS)
}

/// Parses an RFC 3339 timestamp as Go's `time.Parse(time.RFC3339, s)` accepts it:
/// `YYYY-MM-DDTHH:MM:SS`, an optional fraction (`.` or `,` and digits), then `Z` or
/// `±HH:MM`. Returns milliseconds since the epoch (fraction truncated), or `None`.
pub fn parse_rfc3339_unix(s: &str) -> Option<i64> {
    let b = s.as_bytes();
    let num = |from: usize, len: usize| -> Option<i64> {
        let part = b.get(from..from + len)?;
        if !part.iter().all(u8::is_ascii_digit) {
            return None;
        }
        Some(
            part.iter()
                .fold(0i64, |acc, c| acc * 10 + (c - b'0') as i64),
        )
    };
    let lit = |at: usize, c: u8| b.get(at) == Some(&c);
    let year = num(0, 4)?;
    if !lit(4, b'-') || !lit(7, b'-') || !lit(10, b'T') || !lit(13, b':') || !lit(16, b':') {
        return None;
    }
    let month = num(5, 2)?;
    let day = num(8, 2)?;
    let hour = num(11, 2)?;
    let minute = num(14, 2)?;
    let second = num(17, 2)?;
    if !(1..=12).contains(&month)
        || day < 1
        || day > days_in_month(year, month)
        || hour > 23
        || minute > 59
        || second > 59
    {
        return None;
    }
    let mut i = 19;
    let mut frac_ms = 0i64;
    if lit(i, b'.') || lit(i, b',') {
        i += 1;
        let start = i;
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        if i == start {
            return None;
        }
        for k in 0..3 {
            frac_ms = frac_ms * 10
                + b.get(start + k)
                    .filter(|_| start + k < i)
                    .map_or(0, |c| (c - b'0') as i64);
        }
    }
    let offset_secs = match b.get(i) {
        Some(b'Z') if b.len() == i + 1 => 0,
        Some(&sign @ (b'+' | b'-')) if b.len() == i + 6 && lit(i + 3, b':') => {
            let oh = num(i + 1, 2)?;
            let om = num(i + 4, 2)?;
            if oh > 23 || om > 59 {
                return None;
            }
            let o = oh * 3600 + om * 60;
            if sign == b'-' {
                -o
            } else {
                o
            }
        }
        _ => return None,
    };
    let days = days_from_civil(year, month, day);
    let local_secs = days * 86_400 + hour * 3600 + minute * 60 + second;
    Some((local_secs - offset_secs) * 1000 + frac_ms)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Go's `time.ParseDuration`, the cases of its own table that fit milliseconds.
    #[test]
    fn parse_go_duration_table() {
        for (s, want) in [
            ("0", Some(0)),
            ("5s", Some(5000)),
            ("30s", Some(30_000)),
            ("1478s", Some(1_478_000)),
            ("-5s", Some(-5000)),
            ("+5s", Some(5000)),
            ("1.5h", Some(5_400_000)),
            ("2h45m", Some(9_900_000)),
            ("10.5s", Some(10_500)),
            ("300ms", Some(300)),
            ("1500us", Some(1)),
            ("", None),
            ("3", None),
            ("-", None),
            ("s", None),
            (".s", None),
            ("2562047h", Some(9_223_369_200_000)),
            ("3000000h", None),
            ("5d", None),
        ] {
            assert_eq!(parse_go_duration(s), want, "{:?}", s);
        }
    }

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

    const T0: i64 = EPOCH_MS;

    #[test]
    fn rfc3339_table() {
        struct Case {
            name: &'static str,
            ms: i64,
            text: &'static str,
            micro: &'static str,
        }
        let cases = [
            Case {
                name: "epoch",
                ms: 0,
                text: "1970-01-01T00:00:00Z",
                micro: "1970-01-01T00:00:00.000000Z",
            },
            Case {
                name: "2026 new year",
                ms: T0,
                text: "2026-01-01T00:00:00Z",
                micro: "2026-01-01T00:00:00.000000Z",
            },
            Case {
                name: "milliseconds truncated",
                ms: T0 + 123,
                text: "2026-01-01T00:00:00Z",
                micro: "2026-01-01T00:00:00.123000Z",
            },
            Case {
                name: "leap day",
                ms: 1_709_210_096_000,
                text: "2024-02-29T12:34:56Z",
                micro: "2024-02-29T12:34:56.000000Z",
            },
            Case {
                name: "before epoch floors",
                ms: -1,
                text: "1969-12-31T23:59:59Z",
                micro: "1969-12-31T23:59:59.999000Z",
            },
            Case {
                name: "end of 2000",
                ms: 978_307_199_000,
                text: "2000-12-31T23:59:59Z",
                micro: "2000-12-31T23:59:59.000000Z",
            },
        ];
        for c in &cases {
            assert_eq!(unix_rfc3339(c.ms), c.text, "case {}", c.name);
            assert_eq!(unix_rfc3339_micro(c.ms), c.micro, "case {} (micro)", c.name);
            assert_eq!(
                parse_rfc3339_unix(c.text),
                Some(c.ms.div_euclid(1000) * 1000),
                "case {} (parse)",
                c.name
            );
            assert_eq!(
                parse_rfc3339_unix(c.micro),
                Some(c.ms),
                "case {} (parse micro)",
                c.name
            );
        }
        // Round trip over a range of days, including century leap rules.
        let mut ms = -86_400_000i64 * 800;
        while ms < 86_400_000i64 * 50_000 {
            assert_eq!(
                parse_rfc3339_unix(&unix_rfc3339(ms)),
                Some(ms),
                "case round trip {ms}"
            );
            ms += 86_400_000 * 7 + 3_723_000;
        }
        let parse_cases: [(&str, &str, Option<i64>); 12] = [
            ("offset +01:00", "2026-01-01T01:00:00+01:00", Some(T0)),
            ("offset -05:30", "2025-12-31T18:30:00-05:30", Some(T0)),
            ("fraction .5", "2026-01-01T00:00:00.5Z", Some(T0 + 500)),
            (
                "fraction nanos truncated",
                "2026-01-01T00:00:00.999999999Z",
                Some(T0 + 999),
            ),
            ("month 13", "2026-13-01T00:00:00Z", None),
            ("feb 30", "2026-02-30T00:00:00Z", None),
            ("feb 29 non leap", "2025-02-29T00:00:00Z", None),
            ("space separator", "2026-01-01 00:00:00Z", None),
            ("no zone", "2026-01-01T00:00:00", None),
            ("empty", "", None),
            ("garbage", "yesterday", None),
            ("empty fraction", "2026-01-01T00:00:00.Z", None),
        ];
        for (name, s, want) in parse_cases {
            assert_eq!(parse_rfc3339_unix(s), want, "case {name}");
        }
    }

}
