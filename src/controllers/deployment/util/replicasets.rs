//! ReplicaSet lists: `FindNewReplicaSet`, `FindOldReplicaSets`, `FilterActiveReplicaSets`,
//! the sort orders of `controller_utils.go`, replica counts and `EqualIgnoreHash`.

use super::*;

// ---------------------------------------------------------------------------
// ReplicaSet lists
// ---------------------------------------------------------------------------

/// `controller.FilterActiveReplicaSets`: ReplicaSets with `spec.replicas > 0`.
pub fn filter_active_replica_sets(rss: &[Value]) -> Vec<Value> {
    rss.iter()
        .filter(|rs| !rs.is_null() && spec_replicas(rs) > 0)
        .cloned()
        .collect()
}

/// `FindActiveOrLatest`: the only active RS, or the newest one if none is active;
/// `None` when several are active (then proportional scaling is needed).
/// Like upstream, this sorts the caller's `old_rss` newest first, in place; callers
/// that iterate `old_rss` afterwards see that order, as in sync.go `scale()`.
pub fn find_active_or_latest(new_rs: Option<&Value>, old_rss: &mut [Value]) -> Option<Value> {
    let new_rs = new_rs.filter(|r| !r.is_null());
    if new_rs.is_none() && old_rss.is_empty() {
        return None;
    }
    go_sort_by_less(old_rss, |a, b| by_creation_timestamp_less(b, a));
    let mut all: Vec<Value> = old_rss.to_vec();
    if let Some(n) = new_rs {
        all.push(n.clone());
    }
    let active = filter_active_replica_sets(&all);
    match active.len() {
        0 => new_rs.cloned().or_else(|| old_rss.first().cloned()),
        1 => active.into_iter().next(),
        _ => None,
    }
}

/// `GetReplicaCountForReplicaSets`: Σ `spec.replicas`.
pub fn get_replica_count_for_replica_sets(rss: &[Value]) -> i32 {
    rss.iter()
        .filter(|rs| !rs.is_null())
        .fold(0i32, |acc, rs| acc.wrapping_add(spec_replicas(rs)))
}

pub(super) fn sum_status(rss: &[Value], field: &str) -> i32 {
    rss.iter()
        .fold(0i32, |acc, rs| acc.wrapping_add(status_i32(rs, field)))
}

/// `GetActualReplicaCountForReplicaSets`: Σ `status.replicas`.
pub fn get_actual_replica_count_for_replica_sets(rss: &[Value]) -> i32 {
    sum_status(rss, "replicas")
}

/// `GetReadyReplicaCountForReplicaSets`: Σ `status.readyReplicas`.
pub fn get_ready_replica_count_for_replica_sets(rss: &[Value]) -> i32 {
    sum_status(rss, "readyReplicas")
}

/// `GetAvailableReplicaCountForReplicaSets`: Σ `status.availableReplicas`.
pub fn get_available_replica_count_for_replica_sets(rss: &[Value]) -> i32 {
    sum_status(rss, "availableReplicas")
}

/// `EqualIgnoreHash`: are two pod templates equal, ignoring the `pod-template-hash`
/// label? Uses semantic JSON equality (see the module doc).
pub fn equal_ignore_hash(t1: &Value, t2: &Value) -> bool {
    let strip = |t: &Value| {
        let mut c = t.clone();
        if let Some(labels) = c
            .get_mut("metadata")
            .and_then(|m| m.get_mut("labels"))
            .and_then(Value::as_object_mut)
        {
            labels.remove(DEFAULT_DEPLOYMENT_UNIQUE_LABEL_KEY);
        }
        c
    };
    semantic_equal(&strip(t1), &strip(t2))
}

/// Go zero value of a JSON value: null, false, 0, "", and objects/arrays that are
/// empty (objects: all members zero).
pub(super) fn is_zero_value(v: &Value) -> bool {
    match v {
        Value::Null => true,
        Value::Bool(b) => !b,
        Value::Number(n) => n.as_f64() == Some(0.0),
        Value::String(s) => s.is_empty(),
        Value::Array(a) => a.is_empty(),
        Value::Object(m) => m.values().all(is_zero_value),
    }
}

pub(super) fn semantic_equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let null = Value::Null;
            x.keys()
                .chain(y.keys())
                .all(|k| semantic_equal(x.get(k).unwrap_or(&null), y.get(k).unwrap_or(&null)))
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y.iter()).all(|(p, q)| semantic_equal(p, q))
        }
        (Value::Number(x), Value::Number(y)) => {
            x == y || (x.as_f64().is_some() && x.as_f64() == y.as_f64())
        }
        _ if is_zero_value(a) && is_zero_value(b) => true,
        _ => a == b,
    }
}

/// `FindNewReplicaSet`: the oldest RS whose template equals the Deployment's
/// (ignoring the hash label). Sorts `rs_list` by creation timestamp in place, as
/// upstream does; [`find_old_replica_sets`] relies on that order.
pub fn find_new_replica_set(d: &Value, rs_list: &mut [Value]) -> Option<Value> {
    sort_replica_sets(rs_list, replica_sets_by_creation_timestamp);
    let null = Value::Null;
    let template = get_path(d, &["spec", "template"]).unwrap_or(&null);
    rs_list
        .iter()
        .find(|rs| {
            equal_ignore_hash(
                get_path(rs, &["spec", "template"]).unwrap_or(&null),
                template,
            )
        })
        .cloned()
}

/// `FindOldReplicaSets` → `(old RSs with replicas != 0, all old RSs)`, oldest first.
pub fn find_old_replica_sets(d: &Value, rs_list: &mut [Value]) -> (Vec<Value>, Vec<Value>) {
    let new_rs = find_new_replica_set(d, rs_list);
    let mut required = Vec::new();
    let mut all = Vec::new();
    for rs in rs_list.iter() {
        if let Some(n) = &new_rs {
            if uid_of(rs) == uid_of(n) {
                continue;
            }
        }
        all.push(rs.clone());
        if spec_replicas(rs) != 0 {
            required.push(rs.clone());
        }
    }
    (required, all)
}
