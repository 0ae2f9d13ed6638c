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
