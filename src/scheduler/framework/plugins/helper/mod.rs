//! Helpers shared by plugins.
//!
//! Real counterpart: `pkg/scheduler/framework/plugins/helper/normalize_score.go`
//! (`DefaultNormalizeScore`); `DefaultSelector` (`helper/spread.go`) lives with the listers it
//! reads ([`crate::scheduler::framework::listers::Listers::default_selector`]).

/// `helper.DefaultNormalizeScore`: scale to 0..max by the highest score; `reverse` flips it
/// (all-zero scores become max when reversed).
pub fn default_normalize_score(max_priority: i64, reverse: bool, scores: &mut [i64]) {
    let max_count = scores.iter().copied().max().unwrap_or(0).max(0);
    if max_count == 0 {
        if reverse {
            for sc in scores.iter_mut() {
                *sc = max_priority;
            }
        }
        return;
    }
    for sc in scores.iter_mut() {
        let mut v = (max_priority as i128 * *sc as i128 / max_count as i128) as i64;
        if reverse {
            v = max_priority - v;
        }
        *sc = v;
    }
}

/// Test tables (cases from upstream's tests and hand-checked examples), with the shared
/// fixtures of [`crate::scheduler::framework::testing`].
#[cfg(test)]
mod tests {
    use crate::scheduler::framework::testing::*;

    #[test]
    fn normalize_and_helpers_table() {
        struct C {
            name: &'static str,
            input: Vec<i64>,
            reverse: bool,
            want: Vec<i64>,
        }
        let cases = [
            C { name: "scale to max", input: vec![2, 4, 0], reverse: false, want: vec![50, 100, 0] },
            C { name: "reverse", input: vec![2, 4, 0], reverse: true, want: vec![50, 0, 100] },
            C { name: "all zero", input: vec![0, 0], reverse: false, want: vec![0, 0] },
            C { name: "all zero reversed", input: vec![0, 0], reverse: true, want: vec![100, 100] },
            C { name: "integer division", input: vec![1, 3], reverse: false, want: vec![33, 100] },
        ];
        for c in &cases {
            let mut v = c.input.clone();
            default_normalize_score(100, c.reverse, &mut v);
            assert_eq!(v, c.want, "{}", c.name);
        }
        let images = [
            ("nginx", "nginx:latest"),
            ("nginx:1.25", "nginx:1.25"),
            ("localhost:5000/app", "localhost:5000/app:latest"),
            ("localhost:5000/app:v1", "localhost:5000/app:v1"),
        ];
        for (i, w) in images {
            assert_eq!(normalized_image_name(i), w, "normalized image {i}");
        }
        struct L {
            name: &'static str,
            req: i64,
            cap: i64,
            want: i64,
        }
        for l in [
            L { name: "half used", req: 50, cap: 100, want: 50 },
            L { name: "over capacity", req: 150, cap: 100, want: 0 },
            L { name: "no capacity", req: 0, cap: 0, want: 0 },
            L { name: "rounds down", req: 1, cap: 3, want: 66 },
        ] {
            assert_eq!(least_requested_score(l.req, l.cap), l.want, "{}", l.name);
        }
    }
}
