//! Indexed Jobs: `pkg/controller/job/indexed_job_utils.go` (`orderedIntervals` and its
//! `String()`, `parseIndexesFromString`, `firstPendingIndexes`, `getCompletionIndex`,
//! `addCompletionIndexEnvVariables`, `podGenerateNameWithIndex`) and `success_policy.go`
//! (`matchSuccessPolicy`).
//!
//! Index sets are `BTreeSet<i64>` here; upstream keeps sorted intervals, which only matters for
//! memory, not for what is computed.

use crate::api::meta;
use serde_json::{json, Value};
use std::collections::BTreeSet;

/// `batch.JobCompletionIndexAnnotation` (also the Pod label's key, `PodIndexLabel` being GA).
pub const COMPLETION_INDEX_KEY: &str = "batch.kubernetes.io/job-completion-index";
/// `completionIndexEnvName`.
pub const COMPLETION_INDEX_ENV: &str = "JOB_COMPLETION_INDEX";
/// `names.MaxGeneratedNameLength`: 63 minus the 5 random characters.
pub const MAX_GENERATED_NAME_LENGTH: usize = 58;

/// `getCompletionIndex`: the Pod's `batch.kubernetes.io/job-completion-index` annotation as a
/// non-negative number, else `None` (`unknownCompletionIndex`).
pub fn completion_index(pod: &Value) -> Option<i64> {
    meta::annotation(pod, COMPLETION_INDEX_KEY).and_then(|v| v.parse::<i64>().ok()).filter(|i| *i >= 0)
}

/// `orderedIntervals.String()`: `1,3-5,7`; two neighbours are written `3,4`, not `3-4`.
pub fn format_indexes(indexes: &BTreeSet<i64>) -> String {
    let mut intervals: Vec<(i64, i64)> = Vec::new();
    for &i in indexes {
        match intervals.last_mut() {
            Some((_, last)) if *last + 1 == i => *last = i,
            _ => intervals.push((i, i)),
        }
    }
    let mut out = String::new();
    for (first, last) in intervals {
        if !out.is_empty() {
            out.push(',');
        }
        out.push_str(&first.to_string());
        if last > first {
            out.push(if last == first + 1 { ',' } else { '-' });
            out.push_str(&last.to_string());
        }
    }
    out
}

/// `parseIndexesFromString`: the indexes below `completions` in `1,3-5,7`; a corrupted interval
/// ends the parse (the intervals before it are kept), an interval starting at `completions` or
/// above ends it too, and one ending above is cut at `completions − 1`.
pub fn parse_indexes(s: &str, completions: i64) -> BTreeSet<i64> {
    let mut out = BTreeSet::new();
    if s.is_empty() {
        return out;
    }
    for interval in s.split(',') {
        let mut limits = interval.split('-');
        let Some(Ok(first)) = limits.next().map(str::parse::<i64>) else { break };
        if first >= completions {
            break;
        }
        let last = match limits.next() {
            None => first,
            Some(l) => match l.parse::<i64>() {
                Ok(l) => l.min(completions - 1),
                Err(_) => break,
            },
        };
        out.extend(first.max(0)..=last);
    }
    out
}

/// `firstPendingIndexes`: the lowest `count` indexes in `[0, completions)` that are not in
/// `non_pending` (succeeded, held by an active Pod, or by a terminating one when only failed
/// Pods are replaced).
pub fn first_pending_indexes(non_pending: &BTreeSet<i64>, count: usize, completions: i64) -> Vec<i64> {
    (0..completions.max(0)).filter(|i| !non_pending.contains(i)).take(count).collect()
}

/// `podGenerateNameWithIndex`: `<job>-<index>-`, the Job's name cut so the prefix is at most
/// 58 characters.
pub fn pod_generate_name_with_index(job_name: &str, index: i64) -> String {
    let append = format!("-{}-", index);
    let prefix = format!("{}{}", job_name, append);
    if prefix.len() > MAX_GENERATED_NAME_LENGTH {
        let keep = MAX_GENERATED_NAME_LENGTH - append.len();
        return format!("{}{}", &prefix[..keep], append);
    }
    prefix
}

/// `addCompletionIndexEnvVariables`: `JOB_COMPLETION_INDEX` from the index label (a downward-API
/// `fieldRef`), appended to every init and regular container that does not set it already.
pub fn add_completion_index_env(pod_spec: &mut Value) {
    for list in ["initContainers", "containers"] {
        let Some(containers) = pod_spec.get_mut(list).and_then(Value::as_array_mut) else { continue };
        for c in containers {
            let has = meta::get_array(c, &["env"]).iter().any(|e| meta::get_str(e, &["name"]) == COMPLETION_INDEX_ENV);
            if has {
                continue;
            }
            let var = json!({"name": COMPLETION_INDEX_ENV, "valueFrom": {"fieldRef": {"fieldPath": format!("metadata.labels['{}']", COMPLETION_INDEX_KEY)}}});
            match c.get_mut("env").and_then(Value::as_array_mut) {
                Some(env) => env.push(var),
                None => c["env"] = json!([var]),
            }
        }
    }
}

/// `matchSuccessPolicy`: `Matched rules at index N` for the first rule that holds, evaluated only
/// once some index has succeeded. A rule with `succeededIndexes` holds when all of them
/// succeeded, or at least `succeededCount` of them; a rule with only `succeededCount` when that
/// many indexes succeeded in all.
pub fn match_success_policy(policy: Option<&Value>, completions: i64, succeeded: &BTreeSet<i64>) -> Option<String> {
    let policy = policy?;
    if succeeded.is_empty() {
        return None;
    }
    for (index, rule) in meta::get_array(policy, &["rules"]).iter().enumerate() {
        let count = meta::get_i64(rule, &["succeededCount"]);
        if let Some(s) = meta::get(rule, &["succeededIndexes"]).and_then(Value::as_str) {
            let required = parse_indexes(s, completions);
            if required.is_empty() {
                continue;
            }
            let contains = required.intersection(succeeded).count() as i64;
            if contains == required.len() as i64 || count.map(|c| contains >= c).unwrap_or(false) {
                return Some(format!("Matched rules at index {}", index));
            }
        } else if let Some(c) = count {
            if succeeded.len() as i64 >= c {
                return Some(format!("Matched rules at index {}", index));
            }
        }
    }
    None
}
