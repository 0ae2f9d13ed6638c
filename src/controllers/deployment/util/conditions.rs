//! Deployment conditions: `NewDeploymentCondition`, `GetDeploymentCondition`,
//! `SetDeploymentCondition`, `RemoveDeploymentCondition` and the condition reasons.

use super::*;

// ---------------------------------------------------------------------------
// Conditions
// ---------------------------------------------------------------------------

/// `NewDeploymentCondition`: both times are `now` (an RFC 3339 string, see [`crate::api::time::unix_rfc3339`]).
/// Empty reason/message are omitted, as Go's `omitempty` does.
pub fn new_deployment_condition(
    type_: &str,
    status: &str,
    reason: &str,
    message: &str,
    now: &str,
) -> Value {
    let mut m = Map::new();
    m.insert("type".into(), Value::from(type_));
    m.insert("status".into(), Value::from(status));
    let t = if now.is_empty() {
        Value::Null
    } else {
        Value::from(now)
    };
    m.insert("lastUpdateTime".into(), t.clone());
    m.insert("lastTransitionTime".into(), t);
    if !reason.is_empty() {
        m.insert("reason".into(), Value::from(reason));
    }
    if !message.is_empty() {
        m.insert("message".into(), Value::from(message));
    }
    Value::Object(m)
}

pub(super) fn cond_field<'a>(c: &'a Value, f: &str) -> &'a str {
    c.get(f).and_then(Value::as_str).unwrap_or("")
}

/// `GetDeploymentCondition(status, type)`: a copy of the first condition of that type.
/// `status` is the Deployment's `status` object.
pub fn get_deployment_condition(status: &Value, type_: &str) -> Option<Value> {
    crate::api::meta::get_condition(status, type_)
}

pub(super) fn filter_out_condition(status: &mut Value, type_: &str) {
    crate::api::meta::remove_condition(status, type_)
}

/// `SetDeploymentCondition`: no-op when a condition of the same type already has
/// the same status and reason (so `lastUpdateTime` is not bumped). Otherwise keeps the
/// old `lastTransitionTime` if the status did not change, removes the old entry and
/// **appends** the new one at the end — this is why conditions end up ordered
/// `[Available, Progressing]` after the first full sync.
pub fn set_deployment_condition(status: &mut Value, cond: Value) {
    if status.is_null() {
        *status = Value::Object(Map::new());
    }
    if !status.is_object() {
        return;
    }
    let mut cond = cond;
    let type_ = cond_field(&cond, "type").to_string();
    if let Some(current) = get_deployment_condition(status, &type_) {
        if cond_field(&current, "status") == cond_field(&cond, "status") {
            if cond_field(&current, "reason") == cond_field(&cond, "reason") {
                return;
            }
            if let Some(obj) = cond.as_object_mut() {
                obj.insert(
                    "lastTransitionTime".into(),
                    current
                        .get("lastTransitionTime")
                        .cloned()
                        .unwrap_or(Value::Null),
                );
            }
        }
    }
    crate::api::meta::replace_condition(status, cond);
}

/// `RemoveDeploymentCondition`.
pub fn remove_deployment_condition(status: &mut Value, type_: &str) {
    filter_out_condition(status, type_);
}

/// `ReplicaSetToDeploymentCondition`: promotes a ReplicaSet condition (in practice
/// `ReplicaFailure`); both times are the RS condition's `lastTransitionTime`.
pub fn replica_set_to_deployment_condition(cond: &Value) -> Value {
    let mut m = Map::new();
    m.insert("type".into(), Value::from(cond_field(cond, "type")));
    m.insert("status".into(), Value::from(cond_field(cond, "status")));
    let t = cond
        .get("lastTransitionTime")
        .cloned()
        .unwrap_or(Value::Null);
    m.insert("lastTransitionTime".into(), t.clone());
    m.insert("lastUpdateTime".into(), t);
    for f in ["reason", "message"] {
        let v = cond_field(cond, f);
        if !v.is_empty() {
            m.insert(f.into(), Value::from(v));
        }
    }
    Value::Object(m)
}

/// `Created new replica set "X"` (sync.go, reason `NewReplicaSetCreated`).
pub fn new_replica_set_created_message(rs_name: &str) -> String {
    format!("Created new replica set {}", go_quote(rs_name))
}

/// `Found new replica set "X"` (sync.go, reason `FoundNewReplicaSet`).
pub fn found_new_replica_set_message(rs_name: &str) -> String {
    format!("Found new replica set {}", go_quote(rs_name))
}

/// `Failed to create new replica set "X": <err>` (reason `ReplicaSetCreateError`).
pub fn failed_rs_create_message(rs_name: &str, err: &str) -> String {
    format!(
        "Failed to create new replica set {}: {}",
        go_quote(rs_name),
        err
    )
}

/// progress.go subject: `ReplicaSet "X"` if there is a new RS, else `Deployment "D"`.
pub(super) fn progress_subject(deployment_name: &str, new_rs_name: Option<&str>) -> String {
    match new_rs_name {
        Some(n) => format!("ReplicaSet {}", go_quote(n)),
        None => format!("Deployment {}", go_quote(deployment_name)),
    }
}

/// `ReplicaSet "X" has successfully progressed.` (reason `NewReplicaSetAvailable`).
pub fn successfully_progressed_message(deployment_name: &str, new_rs_name: Option<&str>) -> String {
    format!(
        "{} has successfully progressed.",
        progress_subject(deployment_name, new_rs_name)
    )
}

/// `ReplicaSet "X" is progressing.` (reason `ReplicaSetUpdated`).
pub fn progressing_message(deployment_name: &str, new_rs_name: Option<&str>) -> String {
    format!(
        "{} is progressing.",
        progress_subject(deployment_name, new_rs_name)
    )
}

/// `ReplicaSet "X" has timed out progressing.` (reason `ProgressDeadlineExceeded`).
pub fn timed_out_message(deployment_name: &str, new_rs_name: Option<&str>) -> String {
    format!(
        "{} has timed out progressing.",
        progress_subject(deployment_name, new_rs_name)
    )
}
