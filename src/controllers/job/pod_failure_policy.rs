//! `pkg/controller/job/pod_failure_policy.go`: `matchPodFailurePolicy`, `matchOnExitCodes`,
//! `matchOnPodConditions`.

use crate::api::meta;
use serde_json::Value;

/// What a failed Pod's first matching rule says (`matchPodFailurePolicy`'s three results).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Match {
    /// The `FailJob` message, which fails the whole Job.
    pub fail_job: Option<String>,
    /// Whether the failure counts in `status.failed` and toward `backoffLimit` (`false` only for
    /// `Ignore`).
    pub count: bool,
    /// The matching rule's action, `None` when no rule matched.
    pub action: Option<String>,
}

/// `matchPodFailurePolicy`: the rules in order, the first match wins. No policy, or no match,
/// counts the failure. `FailIndex` counts it (the index itself is failed only with
/// `backoffLimitPerIndex`, which kubesim does not run).
pub fn match_pod_failure_policy(policy: Option<&Value>, pod: &Value) -> Match {
    let counted = Match { fail_job: None, count: true, action: None };
    let Some(policy) = policy else { return counted };
    let (ns, name) = (meta::namespace(pod), meta::name(pod));
    for (index, rule) in meta::get_array(policy, &["rules"]).iter().enumerate() {
        let action = meta::get_str(rule, &["action"]);
        let fail_job = if let Some(req) = meta::get(rule, &["onExitCodes"]).filter(|v| v.is_object()) {
            match match_on_exit_codes(pod, req) {
                Some((container, code)) => format!("Container {} for pod {}/{} failed with exit code {} matching {} rule at index {}", container, ns, name, code, action, index),
                None => continue,
            }
        } else if let Some(patterns) = meta::get(rule, &["onPodConditions"]).and_then(Value::as_array) {
            match match_on_pod_conditions(pod, patterns) {
                Some(t) => format!("Pod {}/{} has condition {} matching {} rule at index {}", ns, name, t, action, index),
                None => continue,
            }
        } else {
            continue;
        };
        match action {
            "Ignore" => return Match { fail_job: None, count: false, action: Some(action.into()) },
            "FailIndex" | "Count" => return Match { fail_job: None, count: true, action: Some(action.into()) },
            "FailJob" => return Match { fail_job: Some(fail_job), count: true, action: Some(action.into()) },
            // an unknown action (validation rejects it): the rule does not decide, go on
            _ => {}
        }
    }
    counted
}

/// `matchOnExitCodes`: the first terminated container (regular containers, then init
/// containers) that passes the `containerName` filter, exited non-zero and satisfies the
/// operator; its name and exit code.
pub fn match_on_exit_codes(pod: &Value, req: &Value) -> Option<(String, i64)> {
    let want_name = meta::get(req, &["containerName"]).and_then(Value::as_str);
    let op = meta::get_str(req, &["operator"]);
    let values: Vec<i64> = meta::get_array(req, &["values"]).iter().filter_map(Value::as_i64).collect();
    for list in ["containerStatuses", "initContainerStatuses"] {
        for cs in meta::get_array(pod, &["status", list]) {
            let Some(code) = meta::get(cs, &["state", "terminated"]).filter(|t| t.is_object()).map(|t| meta::get_i64(t, &["exitCode"]).unwrap_or(0)) else { continue };
            let name = meta::get_str(cs, &["name"]);
            if want_name.map(|w| w != name).unwrap_or(false) || code == 0 {
                continue;
            }
            let matched = match op {
                "In" => values.contains(&code),
                "NotIn" => !values.contains(&code),
                _ => false,
            };
            if matched {
                return Some((name.to_string(), code));
            }
        }
    }
    None
}

/// `matchOnPodConditions`: the type of the first Pod condition equal in type and status to one
/// of the patterns.
pub fn match_on_pod_conditions(pod: &Value, patterns: &[Value]) -> Option<String> {
    for c in meta::get_array(pod, &["status", "conditions"]) {
        let (t, s) = (meta::get_str(c, &["type"]), meta::get_str(c, &["status"]));
        if patterns.iter().any(|p| meta::get_str(p, &["type"]) == t && meta::get_str(p, &["status"]) == s) {
            return Some(t.to_string());
        }
    }
    None
}
