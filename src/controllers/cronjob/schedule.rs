//! Cron schedules as the CronJob controller reads them.
//!
//! Real counterpart: `github.com/robfig/cron/v3` (`ParseStandard`, `SpecSchedule.Next`), which
//! `pkg/controller/cronjob` and the API server's validation use: five fields (minute, hour, day
//! of month, month, day of week) of `*`, `?`, numbers, names (`JAN`, `MON`), ranges `a-b`, steps
//! `/n` and lists, or a descriptor (`@hourly`, `@daily`, `@every 5m`…). A day of month and a day
//! of week both restricted match when either does. Times are UTC (kubesim knows no other zone).

use crate::api::time;

const MONTHS: [&str; 12] = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
const DAYS: [&str; 7] = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"];

/// A parsed schedule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Schedule {
    Spec {
        minute: u64,
        hour: u64,
        dom: u64,
        month: u64,
        dow: u64,
        /// day of month or day of week given as `*` / `?`
        dom_star: bool,
        dow_star: bool,
    },
    /// `@every D`: a fixed interval (at least one second), from the previous time.
    Every(i64),
}

fn bits(lo: u32, hi: u32, step: u32) -> u64 {
    (lo..=hi).step_by(step.max(1) as usize).fold(0u64, |b, i| b | (1 << i))
}

/// One field: a comma list of `*`, `?`, `n`, `a-b`, each with an optional `/step`.
fn parse_field(field: &str, min: u32, max: u32, names: &[&str], name_base: u32) -> Result<(u64, bool), String> {
    let mut out = 0u64;
    let mut star = false;
    for expr in field.split(',') {
        let parse_num = |s: &str| -> Result<u32, String> {
            if let Some(i) = names.iter().position(|n| n.eq_ignore_ascii_case(s)) {
                return Ok(i as u32 + name_base);
            }
            s.parse::<u32>().map_err(|_| format!("failed to parse int from {}: strconv.Atoi: parsing \"{}\": invalid syntax", s, s))
        };
        let (range, step) = match expr.split('/').collect::<Vec<_>>().as_slice() {
            [r] => (*r, None),
            [r, s] => (*r, Some(*s)),
            _ => return Err(format!("too many slashes: {}", expr)),
        };
        let (lo, hi, is_star) = if range == "*" || range == "?" {
            (min, max, true)
        } else {
            match range.split('-').collect::<Vec<_>>().as_slice() {
                [a] => {
                    let a = parse_num(a)?;
                    // `n/step` runs to the maximum
                    (a, if step.is_some() { max } else { a }, false)
                }
                [a, b] => (parse_num(a)?, parse_num(b)?, false),
                _ => return Err(format!("too many hyphens: {}", expr)),
            }
        };
        let step = match step {
            None => 1,
            Some(s) => {
                let n = s.parse::<u32>().map_err(|_| format!("failed to parse int from {}: strconv.Atoi: parsing \"{}\": invalid syntax", s, s))?;
                if n == 0 {
                    return Err(format!("step of range should be a positive number: {}", expr));
                }
                n
            }
        };
        if lo < min {
            return Err(format!("beginning of range ({}) below minimum ({}): {}", lo, min, expr));
        }
        if hi > max {
            return Err(format!("end of range ({}) above maximum ({}): {}", hi, max, expr));
        }
        if lo > hi {
            return Err(format!("beginning of range ({}) beyond end of range ({}): {}", lo, hi, expr));
        }
        star |= is_star && step == 1;
        out |= bits(lo, hi, step);
    }
    Ok((out, star))
}

/// `cron.ParseStandard`.
pub fn parse(spec: &str) -> Result<Schedule, String> {
    let spec = spec.trim();
    if spec.is_empty() {
        return Err("empty spec string".into());
    }
    if let Some(d) = spec.strip_prefix('@') {
        let std = |m: &str, h: &str, dom: &str, mon: &str, dow: &str| parse(&format!("{} {} {} {} {}", m, h, dom, mon, dow));
        return match d {
            "yearly" | "annually" => std("0", "0", "1", "1", "*"),
            "monthly" => std("0", "0", "1", "*", "*"),
            "weekly" => std("0", "0", "*", "*", "0"),
            "daily" | "midnight" => std("0", "0", "*", "*", "*"),
            "hourly" => std("0", "*", "*", "*", "*"),
            _ => match d.strip_prefix("every ") {
                Some(dur) => match time::parse_go_duration(dur.trim()) {
                    Some(ms) => Ok(Schedule::Every((ms / 1000).max(1) * 1000)),
                    None => Err(format!("failed to parse duration {}: time: invalid duration \"{}\"", spec, dur.trim())),
                },
                None => Err(format!("unrecognized descriptor: {}", spec)),
            },
        };
    }
    let fields: Vec<&str> = spec.split_whitespace().collect();
    if fields.len() != 5 {
        return Err(format!("expected exactly 5 fields, found {}: [{}]", fields.len(), fields.join(" ")));
    }
    let (minute, _) = parse_field(fields[0], 0, 59, &[], 0)?;
    let (hour, _) = parse_field(fields[1], 0, 23, &[], 0)?;
    let (dom, dom_star) = parse_field(fields[2], 1, 31, &[], 0)?;
    let (month, _) = parse_field(fields[3], 1, 12, &MONTHS, 1)?;
    let (dow, dow_star) = parse_field(fields[4], 0, 6, &DAYS, 0)?;
    Ok(Schedule::Spec { minute, hour, dom, month, dow, dom_star, dow_star })
}

impl Schedule {
    /// `Next`: the first time strictly after `unix_ms` (whole minutes), or `None` within five
    /// years (a schedule like `0 0 30 2 *` never fires).
    pub fn next(&self, unix_ms: i64) -> Option<i64> {
        let (minute, hour, dom, month, dow, dom_star, dow_star) = match *self {
            Schedule::Every(d) => return Some(unix_ms - unix_ms.rem_euclid(1000) + d),
            Schedule::Spec { minute, hour, dom, month, dow, dom_star, dow_star } => (minute, hour, dom, month, dow, dom_star, dow_star),
        };
        const MIN: i64 = 60_000;
        let mut t = unix_ms - unix_ms.rem_euclid(MIN) + MIN;
        let limit = unix_ms + 5 * 366 * 24 * 3600 * 1000;
        while t <= limit {
            let days = t.div_euclid(86_400_000);
            let (_, m, d) = time::civil_from_days(days);
            let wd = time::weekday(t) as u32;
            let in_day = t.rem_euclid(86_400_000);
            let (h, mi) = ((in_day / 3_600_000) as u32, ((in_day / MIN) % 60) as u32);
            if month & (1 << m) == 0 {
                // to the first day of the next month
                let (y, _, _) = time::civil_from_days(days);
                let (ny, nm) = if m == 12 { (y + 1, 1) } else { (y, m + 1) };
                t = time::days_from_civil(ny, nm as i64, 1) * 86_400_000;
                continue;
            }
            let dom_match = dom & (1 << d) != 0;
            let dow_match = dow & (1 << wd) != 0;
            let day_ok = if dom_star || dow_star { dom_match && dow_match } else { dom_match || dow_match };
            if !day_ok {
                t = (days + 1) * 86_400_000;
                continue;
            }
            if hour & (1 << h) == 0 {
                t = t - in_day + (h as i64 + 1) * 3_600_000;
                continue;
            }
            if minute & (1 << mi) == 0 {
                t += MIN;
                continue;
            }
            return Some(t);
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(s: &str) -> i64 {
        time::parse_rfc3339_unix(s).unwrap()
    }

    /// Named table: CronJob schedule arithmetic — the next run after a time, and the parser's
    /// errors as the API server reports them.
    #[test]
    fn schedule_arithmetic_table() {
        let cases = [
            ("every minute", "* * * * *", "2026-01-01T00:00:00Z", "2026-01-01T00:01:00Z"),
            ("every minute, mid-minute", "* * * * *", "2026-01-01T00:00:30Z", "2026-01-01T00:01:00Z"),
            ("every five minutes", "*/5 * * * *", "2026-01-01T00:03:00Z", "2026-01-01T00:05:00Z"),
            ("at minute 30 of every hour", "30 * * * *", "2026-01-01T00:31:00Z", "2026-01-01T01:30:00Z"),
            ("hourly", "@hourly", "2026-01-01T00:00:00Z", "2026-01-01T01:00:00Z"),
            ("daily at 02:15", "15 2 * * *", "2026-01-01T03:00:00Z", "2026-01-02T02:15:00Z"),
            ("weekdays at 9 (2026-01-03 is a Saturday)", "0 9 * * MON-FRI", "2026-01-02T10:00:00Z", "2026-01-05T09:00:00Z"),
            ("the first of the month", "@monthly", "2026-01-15T00:00:00Z", "2026-02-01T00:00:00Z"),
            ("Feb 29 (2028 is a leap year)", "0 0 29 2 *", "2026-01-01T00:00:00Z", "2028-02-29T00:00:00Z"),
            ("day of month or day of week", "0 0 13 * FRI", "2026-02-01T00:00:00Z", "2026-02-06T00:00:00Z"),
            ("month names and lists", "0 12 1 jan,jul *", "2026-02-01T00:00:00Z", "2026-07-01T12:00:00Z"),
            ("every 90 seconds", "@every 90s", "2026-01-01T00:00:00Z", "2026-01-01T00:01:30Z"),
        ];
        for (name, spec, after, want) in cases {
            let s = parse(spec).unwrap_or_else(|e| panic!("{}: {}", name, e));
            assert_eq!(s.next(at(after)).map(time::unix_rfc3339), Some(want.to_string()), "{}", name);
        }
        assert_eq!(parse("0 0 30 2 *").unwrap().next(at("2026-01-01T00:00:00Z")), None, "February 30th never comes");
        let errors = [
            ("* * * *", "expected exactly 5 fields, found 4: [* * * *]"),
            ("61 * * * *", "end of range (61) above maximum (59): 61"),
            ("* * 0 * *", "beginning of range (0) below minimum (1): 0"),
            ("5-1 * * * *", "beginning of range (5) beyond end of range (1): 5-1"),
            ("*/0 * * * *", "step of range should be a positive number: */0"),
            ("x * * * *", "failed to parse int from x: strconv.Atoi: parsing \"x\": invalid syntax"),
            ("@fortnightly", "unrecognized descriptor: @fortnightly"),
        ];
        for (spec, want) in errors {
            assert_eq!(parse(spec), Err(want.to_string()), "{}", spec);
        }
    }
}
