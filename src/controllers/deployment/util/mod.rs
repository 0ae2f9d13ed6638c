//! Pure arithmetic and helpers of the Deployment controller, by concern: `sort.rs`, `hash.rs`,
//! `fenceposts.rs`, `proportion.rs`, `replicasets.rs`, `revisions.rs`, `rollout.rs`,
//! `conditions.rs`, `status.rs`; constants and accessors here.
//!
//! Models these upstream Kubernetes (v1.34) Go sources:
//! - `pkg/controller/deployment/util/deployment_util.go`: fence posts
//!   (`ResolveFenceposts`, `MaxUnavailable`, `MaxSurge`, `MinAvailable`),
//!   `NewRSNewReplicas`, proportional scaling (`GetReplicaSetProportion`, which
//!   older trees call `GetProportion`, and `getReplicaSetFraction`), `IsSaturated`,
//!   `DeploymentComplete` / `DeploymentProgressing` / `DeploymentTimedOut`, revisions
//!   and the `deployment.kubernetes.io/*` annotations, `EqualIgnoreHash`,
//!   `FindNewReplicaSet` / `FindOldReplicaSets`, and the condition helpers
//!   (`NewDeploymentCondition`, `SetDeploymentCondition`, ...).
//! - `pkg/controller/deployment/sync.go` `calculateStatus` (status counts and the
//!   `Available` condition) and the condition messages of `sync.go` / `progress.go`.
//! - `pkg/controller/controller_utils.go`: `ComputeHash`, `FilterActiveReplicaSets`
//!   and the ReplicaSet sort orders (`ReplicaSetsByCreationTimestamp`,
//!   `ReplicaSetsBySizeOlder`, `ReplicaSetsBySizeNewer`).
//! - `staging/src/k8s.io/apimachinery/pkg/util/rand/rand.go` `SafeEncodeString`.
//! - `staging/src/k8s.io/apimachinery/pkg/util/intstr/intstr.go`
//!   `GetScaledValueFromIntOrPercent` (with the exact upstream error texts).
//! - `k8s.io/utils/integer` `RoundToInt32` (rounds half away from zero).
//! - `metav1.Time` / `metav1.MicroTime` JSON forms (RFC 3339, seconds / microseconds).
//!
//! How objects are represented: every object is a `serde_json::Value` in its wire
//! (JSON) form. Functions never panic: a missing or mistyped field is read as the
//! Go zero value, except `spec.replicas`, which is read as `1` when missing (the
//! API-server default; upstream would dereference a nil pointer instead). Inputs are
//! expected to be defaulted objects, as the controller sees them. Integer arithmetic
//! on `int32` fields wraps, exactly like Go's `int32` arithmetic.
//!
//! Simplifications, each explained where it happens:
//! - `compute_hash` emulates Go's `spew` dump of the v1.34 Go structs from the JSON
//!   (`spew.rs`, with the type layout generated from the v1.34 types); the named table
//!   `pod_template_hash_matches_go` checks it against hashes the real Go code computed.
//! - `equal_ignore_hash` compares JSON values "semantically": a missing field, `null`
//!   and the zero value (`0`, `false`, `""`, `{}`, `[]`) are all equal, which is what
//!   `apiequality.Semantic.DeepEqual` does for non-pointer fields and nil-vs-empty
//!   slices and maps. It is slightly more lenient than Go for pointer fields (Go tells
//!   a nil `*bool` from a pointer to `false`).
//! - Go's `sort.Sort` is not stable. [`go_sort_by_less`] reproduces it exactly for up
//!   to 12 elements (Go then runs a plain insertion sort) and uses a stable merge sort
//!   beyond that. Upstream input order comes from informer caches (Go map order), so
//!   bigger lists have no single "true" order anyway.
//! - The `DeploymentReplicaSetTerminatingReplicas` feature gate is alpha and off in
//!   v1.34, so `calculate_status` never writes `status.terminatingReplicas`.

use serde_json::{Map, Value};
use std::cmp::Ordering;

// ---------------------------------------------------------------------------
// Constants
// ---------------------------------------------------------------------------

/// Annotation recording the rollout sequence number of a ReplicaSet (and its Deployment).
pub const REVISION_ANNOTATION: &str = "deployment.kubernetes.io/revision";
/// Comma-separated list of the older revisions a re-used ReplicaSet has served.
pub const REVISION_HISTORY_ANNOTATION: &str = "deployment.kubernetes.io/revision-history";
/// `deployment.spec.replicas` at the time the ReplicaSet was last scaled.
pub const DESIRED_REPLICAS_ANNOTATION: &str = "deployment.kubernetes.io/desired-replicas";
/// `deployment.spec.replicas + maxSurge` at the time the ReplicaSet was last scaled;
/// the denominator of proportional scaling.
pub const MAX_REPLICAS_ANNOTATION: &str = "deployment.kubernetes.io/max-replicas";
/// kubectl's client-side-apply annotation; never copied to ReplicaSets.
pub const LAST_APPLIED_CONFIG_ANNOTATION: &str = "kubectl.kubernetes.io/last-applied-configuration";
/// Legacy `spec.rollbackTo` carrier (`apps.DeprecatedRollbackTo`).
pub const DEPRECATED_ROLLBACK_TO_ANNOTATION: &str = "deprecated.deployment.rollback.to";
/// The label the controller adds to ReplicaSets and pods (`apps.DefaultDeploymentUniqueLabelKey`).
pub const DEFAULT_DEPLOYMENT_UNIQUE_LABEL_KEY: &str = "pod-template-hash";
/// Cap on `revision-history` (sync.go `maxRevHistoryLengthInChars`).
pub const MAX_REV_HISTORY_LENGTH_IN_CHARS: usize = 2000;

/// Strategy type names.
pub const ROLLING_UPDATE_DEPLOYMENT_STRATEGY_TYPE: &str = "RollingUpdate";
pub const RECREATE_DEPLOYMENT_STRATEGY_TYPE: &str = "Recreate";

/// Deployment condition types (`apps.DeploymentConditionType`).
pub const DEPLOYMENT_AVAILABLE: &str = "Available";
pub const DEPLOYMENT_PROGRESSING: &str = "Progressing";
pub const DEPLOYMENT_REPLICA_FAILURE: &str = "ReplicaFailure";

/// Condition statuses (`v1.ConditionStatus`).
pub const CONDITION_TRUE: &str = "True";
pub const CONDITION_FALSE: &str = "False";
pub const CONDITION_UNKNOWN: &str = "Unknown";

/// Rollback event reasons (legacy `spec.rollbackTo` path).
pub const ROLLBACK_REVISION_NOT_FOUND: &str = "DeploymentRollbackRevisionNotFound";
pub const ROLLBACK_TEMPLATE_UNCHANGED: &str = "DeploymentRollbackTemplateUnchanged";
pub const ROLLBACK_DONE: &str = "DeploymentRollback";

/// Progressing condition reasons.
pub const REPLICA_SET_UPDATED_REASON: &str = "ReplicaSetUpdated";
pub const FAILED_RS_CREATE_REASON: &str = "ReplicaSetCreateError";
pub const NEW_REPLICA_SET_REASON: &str = "NewReplicaSetCreated";
pub const FOUND_NEW_RS_REASON: &str = "FoundNewReplicaSet";
pub const NEW_RS_AVAILABLE_REASON: &str = "NewReplicaSetAvailable";
pub const TIMED_OUT_REASON: &str = "ProgressDeadlineExceeded";
pub const PAUSED_DEPLOY_REASON: &str = "DeploymentPaused";
pub const RESUMED_DEPLOY_REASON: &str = "DeploymentResumed";
/// Available condition reasons.
pub const MINIMUM_REPLICAS_AVAILABLE: &str = "MinimumReplicasAvailable";
pub const MINIMUM_REPLICAS_UNAVAILABLE: &str = "MinimumReplicasUnavailable";

/// Condition messages that take no argument.
pub const MINIMUM_REPLICAS_AVAILABLE_MESSAGE: &str = "Deployment has minimum availability.";
pub const MINIMUM_REPLICAS_UNAVAILABLE_MESSAGE: &str =
    "Deployment does not have minimum availability.";
pub const PAUSED_DEPLOY_MESSAGE: &str = "Deployment is paused";
pub const RESUMED_DEPLOY_MESSAGE: &str = "Deployment is resumed";

/// `math.MaxInt32`: a progress deadline or history limit of this value means "none".
const MAX_INT32: i64 = i32::MAX as i64;

// ---------------------------------------------------------------------------
// Small, panic-free accessors for JSON objects
// ---------------------------------------------------------------------------

use crate::api::meta::{get as get_path, get_i64 as i64_at, int_of, str_at};

/// An `int32` field; out-of-range numbers are clamped (the API server would reject them).
fn i32_at(v: &Value, path: &[&str]) -> Option<i32> {
    i64_at(v, path).map(|i| i.clamp(i32::MIN as i64, i32::MAX as i64) as i32)
}

/// `*obj.Spec.Replicas`, reading a missing value as the API default `1`.
pub fn spec_replicas(obj: &Value) -> i32 {
    i32_at(obj, &["spec", "replicas"]).unwrap_or(1)
}

/// An `int32` status counter, `0` when absent (Go omits zero counters on the wire).
fn status_i32(obj: &Value, field: &str) -> i32 {
    i32_at(obj, &["status", field]).unwrap_or(0)
}

/// `Status.AvailableReplicas` of a ReplicaSet or Deployment.
pub fn status_available(obj: &Value) -> i32 {
    status_i32(obj, "availableReplicas")
}

fn annotation<'a>(obj: &'a Value, key: &str) -> Option<&'a str> {
    str_at(obj, &["metadata", "annotations", key])
}

fn name_of(obj: &Value) -> &str {
    str_at(obj, &["metadata", "name"]).unwrap_or("")
}

fn uid_of(obj: &Value) -> &str {
    str_at(obj, &["metadata", "uid"]).unwrap_or("")
}

/// `metadata.creationTimestamp` in ms; `None` is Go's zero `time.Time`, which sorts first.
fn creation_ms(obj: &Value) -> Option<i64> {
    str_at(obj, &["metadata", "creationTimestamp"]).and_then(crate::api::time::parse_rfc3339_unix)
}

/// Returns `obj.metadata.annotations`, creating the maps as Go's
/// `if rs.Annotations == nil { rs.Annotations = make(map[string]string) }` does.
/// `None` only if `obj` (or its metadata) is not a JSON object.
fn annotations_mut(obj: &mut Value) -> Option<&mut Map<String, Value>> {
    if obj.is_null() {
        *obj = Value::Object(Map::new());
    }
    let meta = obj
        .as_object_mut()?
        .entry("metadata")
        .or_insert_with(|| Value::Object(Map::new()));
    if meta.is_null() {
        *meta = Value::Object(Map::new());
    }
    let ann = meta
        .as_object_mut()?
        .entry("annotations")
        .or_insert_with(|| Value::Object(Map::new()));
    if !ann.is_object() {
        *ann = Value::Object(Map::new());
    }
    ann.as_object_mut()
}

/// An empty Go map is omitted on the wire (`omitempty`); mirror that.
fn prune_empty_annotations(obj: &mut Value) {
    if let Some(meta) = obj.get_mut("metadata").and_then(Value::as_object_mut) {
        let empty = matches!(meta.get("annotations"), Some(Value::Object(m)) if m.is_empty());
        if empty {
            meta.remove("annotations");
        }
    }
}

/// Go's `%q` verb (`strconv.Quote`) for the names used in messages.
pub fn go_quote(s: &str) -> String {
    crate::api::field::go_quote(s)
}

/// Go's `strconv.ParseInt(s, 10, bits)` (`func_name` "ParseInt") and
/// `strconv.Atoi(s)` (`func_name` "Atoi", 64 bits), with Go's error texts.
pub fn go_parse_int(func_name: &str, s: &str, bits: u32) -> Result<i64, String> {
    let syntax = || {
        format!(
            "strconv.{}: parsing {}: invalid syntax",
            func_name,
            go_quote(s)
        )
    };
    let range = || {
        format!(
            "strconv.{}: parsing {}: value out of range",
            func_name,
            go_quote(s)
        )
    };
    let (neg, digits) = match s.as_bytes().first() {
        Some(b'+') => (false, &s[1..]),
        Some(b'-') => (true, &s[1..]),
        _ => (false, s),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(syntax());
    }
    let mut mag: u128 = 0;
    for b in digits.bytes() {
        mag = mag.saturating_mul(10).saturating_add((b - b'0') as u128);
    }
    let bits = bits.clamp(8, 64);
    let max_pos: u128 = (1u128 << (bits - 1)) - 1;
    let max_neg: u128 = 1u128 << (bits - 1);
    if (!neg && mag > max_pos) || (neg && mag > max_neg) {
        return Err(range());
    }
    let v = mag as i128;
    Ok((if neg { -v } else { v }) as i64)
}

/// Go's `strconv.Atoi`.
fn go_atoi(s: &str) -> Result<i64, String> {
    go_parse_int("Atoi", s, 64)
}

mod conditions;
pub mod fenceposts;
pub mod hash;
mod proportion;
mod replicasets;
mod revisions;
mod rollout;
mod sort;
mod spew;
mod status;
pub use conditions::*;
pub use fenceposts::*;
pub use hash::*;
pub use proportion::*;
pub use replicasets::*;
pub use revisions::*;
pub use rollout::*;
pub use sort::*;
pub use status::*;

// ---------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const T0: i64 = 1_767_225_600_000; // 2026-01-01T00:00:00Z

    fn deployment(replicas: i32, surge: Value, unavailable: Value) -> Value {
        json!({
            "metadata": {"name": "web", "generation": 1},
            "spec": {
                "replicas": replicas,
                "strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": surge, "maxUnavailable": unavailable}}
            }
        })
    }

    fn rs(name: &str, replicas: i32, created: &str) -> Value {
        json!({"metadata": {"name": name, "uid": format!("uid-{name}"), "creationTimestamp": created}, "spec": {"replicas": replicas}})
    }

    fn rs_with_status(name: &str, spec: i32, status: i32, ready: i32, available: i32) -> Value {
        json!({
            "metadata": {"name": name, "creationTimestamp": "2026-01-01T00:00:00Z"},
            "spec": {"replicas": spec},
            "status": {"replicas": status, "readyReplicas": ready, "availableReplicas": available}
        })
    }

    fn names(v: &[Value]) -> Vec<String> {
        v.iter().map(|r| name_of(r).to_string()).collect()
    }

    #[test]
    fn safe_encode_string_table() {
        struct Case {
            name: &'static str,
            input: &'static str,
            want: &'static str,
        }
        let cases = [
            Case {
                name: "facts example 3735706953",
                input: "3735706953",
                want: "7c79c4bf97",
            },
            Case {
                name: "every digit",
                input: "0123456789",
                want: "456789bcdf",
            },
            Case {
                name: "empty",
                input: "",
                want: "",
            },
            Case {
                name: "letters wrap modulo 27",
                input: "a",
                want: "v",
            }, // 97 % 27 = 16 -> 'v'
        ];
        for c in &cases {
            assert_eq!(safe_encode_string(c.input), c.want, "case {}", c.name);
        }
    }

    /// Templates with the dump and the hash the real Go code (`ComputeHash` over the v1.34
    /// types, go-spew 1.1.1) computed for them: the docs' nginx template, collision counts,
    /// quantities of every spelling, probes, sidecars, affinity, env from fields and resources.
    #[test]
    fn pod_template_hash_matches_go() {
        let cases: Vec<Value> = serde_json::from_str(include_str!("../../../../tests/data/pod_template_hash.json")).expect("table");
        assert!(cases.len() >= 16, "the table has {} cases", cases.len());
        for c in &cases {
            let name = c["name"].as_str().unwrap_or("?");
            let dump = spew::for_hash_pod_template(&c["template"]).expect("layout loads");
            let want = c["dump"].as_str().unwrap_or("");
            if dump != want {
                let at = dump.bytes().zip(want.bytes()).position(|(a, b)| a != b).unwrap_or(dump.len().min(want.len()));
                let from = at.saturating_sub(120);
                panic!("case {}: dump differs at byte {}:\n kubesim: …{}\n go:      …{}", name, at, &dump[from..(at + 80).min(dump.len())], &want[from..(at + 80).min(want.len())]);
            }
            let collision = c["collisionCount"].as_i64().map(|n| n as i32);
            assert_eq!(compute_hash(&c["template"], collision), c["hash"].as_str().unwrap_or(""), "case {}: hash", name);
        }
    }

    #[test]
    fn compute_hash_table() {
        struct Case {
            name: &'static str,
            template: Value,
            collision: Option<i32>,
        }
        let base = json!({"metadata": {"labels": {"app": "web"}}, "spec": {"containers": [{"name": "nginx", "image": "nginx:1.27"}]}});
        let cases = [
            Case {
                name: "plain template",
                template: base.clone(),
                collision: None,
            },
            Case {
                name: "collision 0",
                template: base.clone(),
                collision: Some(0),
            },
            Case {
                name: "collision 1",
                template: base.clone(),
                collision: Some(1),
            },
            Case {
                name: "collision negative",
                template: base.clone(),
                collision: Some(-1),
            },
            Case {
                name: "empty template",
                template: json!({}),
                collision: None,
            },
            Case {
                name: "null template",
                template: Value::Null,
                collision: None,
            },
        ];
        for c in &cases {
            let h = compute_hash(&c.template, c.collision);
            assert!(
                !h.is_empty() && h.len() <= 10,
                "case {}: length of {h}",
                c.name
            );
            assert!(
                h.chars().all(|ch| "456789bcdf".contains(ch)),
                "case {}: alphabet of {h}",
                c.name
            );
            assert_eq!(
                h,
                compute_hash(&c.template, c.collision),
                "case {}: deterministic",
                c.name
            );
            // Length equals the number of decimal digits of some u32.
            let decoded: String = h
                .chars()
                .map(|ch| char::from(b'0' + "456789bcdf".find(ch).unwrap() as u8))
                .collect();
            assert!(
                decoded.parse::<u32>().is_ok(),
                "case {}: decodes to a u32",
                c.name
            );
        }
        assert_ne!(
            compute_hash(&base, None),
            compute_hash(&base, Some(0)),
            "collision count 0 still changes the hash"
        );
        assert_ne!(
            compute_hash(&base, Some(0)),
            compute_hash(&base, Some(1)),
            "collision count changes the hash"
        );
        let mut other = base.clone();
        other["spec"]["containers"][0]["image"] = json!("nginx:1.28");
        assert_ne!(
            compute_hash(&base, None),
            compute_hash(&other, None),
            "template change changes the hash"
        );
        // Key order does not matter.
        let a: Value = serde_json::from_str(r#"{"b":1,"a":{"y":2,"x":3}}"#).unwrap();
        let b: Value = serde_json::from_str(r#"{"a":{"x":3,"y":2},"b":1}"#).unwrap();
        assert_eq!(
            compute_hash(&a, None),
            compute_hash(&b, None),
            "canonical key order"
        );
        // Pinned value of kubesim's own canonicalisation (guards accidental changes).
        let mut text = String::new();
        write_canonical_json(&a, &mut text);
        assert_eq!(text, r#"{"a":{"x":3,"y":2},"b":1}"#);
        assert_eq!(fnv32a(FNV32_OFFSET, b""), 0x811c9dc5, "fnv32a empty");
        assert_eq!(
            fnv32a(FNV32_OFFSET, b"a"),
            0xe40c292c,
            "fnv32a of 'a' (reference vector)"
        );
    }

    #[test]
    fn scaled_value_table() {
        struct Case {
            name: &'static str,
            v: Value,
            total: i32,
            round_up: bool,
            want: Result<i32, &'static str>,
        }
        let cases = [
            Case { name: "int", v: json!(3), total: 10, round_up: true, want: Ok(3) },
            Case { name: "25% of 3 up", v: json!("25%"), total: 3, round_up: true, want: Ok(1) },
            Case { name: "25% of 3 down", v: json!("25%"), total: 3, round_up: false, want: Ok(0) },
            Case { name: "39% of 10 up", v: json!("39%"), total: 10, round_up: true, want: Ok(4) },
            Case { name: "39% of 10 down", v: json!("39%"), total: 10, round_up: false, want: Ok(3) },
            Case { name: "100% of 7", v: json!("100%"), total: 7, round_up: false, want: Ok(7) },
            Case { name: "0% of 0", v: json!("0%"), total: 0, round_up: true, want: Ok(0) },
            Case { name: "plus sign accepted by Atoi", v: json!("+50%"), total: 4, round_up: true, want: Ok(2) },
            Case { name: "string without %", v: json!("1"), total: 10, round_up: true, want: Err("invalid value for IntOrString: invalid type: string is not a percentage") },
            Case { name: "bad percent", v: json!("abc%"), total: 10, round_up: true, want: Err("invalid value for IntOrString: invalid value \"abc%\": strconv.Atoi: parsing \"abc\": invalid syntax") },
            Case { name: "nil", v: Value::Null, total: 10, round_up: true, want: Err("nil value for IntOrString") },
            Case { name: "bool", v: json!(true), total: 10, round_up: true, want: Err("invalid value for IntOrString: invalid type: neither int nor percentage") },
        ];
        for c in &cases {
            let got = get_scaled_value_from_int_or_percent(&c.v, c.total, c.round_up);
            assert_eq!(got, c.want.map_err(String::from), "case {}", c.name);
        }
    }

    #[test]
    fn fenceposts_table() {
        struct Case {
            name: &'static str,
            surge: Option<Value>,
            unavailable: Option<Value>,
            desired: i32,
            want: Result<(i32, i32), &'static str>,
        }
        let cases = [
            Case {
                name: "defaults, 3 replicas",
                surge: Some(json!("25%")),
                unavailable: Some(json!("25%")),
                desired: 3,
                want: Ok((1, 0)),
            },
            Case {
                name: "defaults, 1 replica",
                surge: Some(json!("25%")),
                unavailable: Some(json!("25%")),
                desired: 1,
                want: Ok((1, 0)),
            },
            Case {
                name: "defaults, 4 replicas",
                surge: Some(json!("25%")),
                unavailable: Some(json!("25%")),
                desired: 4,
                want: Ok((1, 1)),
            },
            Case {
                name: "defaults, 10 replicas",
                surge: Some(json!("25%")),
                unavailable: Some(json!("25%")),
                desired: 10,
                want: Ok((3, 2)),
            },
            Case {
                name: "0%/0% of 0 -> unavailable 1",
                surge: Some(json!("0%")),
                unavailable: Some(json!("0%")),
                desired: 0,
                want: Ok((0, 1)),
            },
            Case {
                name: "39%/39% of 10",
                surge: Some(json!("39%")),
                unavailable: Some(json!("39%")),
                desired: 10,
                want: Ok((4, 3)),
            },
            Case {
                name: "bad surge",
                surge: Some(json!("oops")),
                unavailable: Some(json!("39%")),
                desired: 10,
                want: Err(
                    "invalid value for IntOrString: invalid type: string is not a percentage",
                ),
            },
            Case {
                name: "bad unavailable",
                surge: Some(json!("55%")),
                unavailable: Some(json!("urg")),
                desired: 10,
                want: Err(
                    "invalid value for IntOrString: invalid type: string is not a percentage",
                ),
            },
            Case {
                name: "nil surge",
                surge: None,
                unavailable: Some(json!("39%")),
                desired: 10,
                want: Ok((0, 3)),
            },
            Case {
                name: "nil unavailable",
                surge: Some(json!("39%")),
                unavailable: None,
                desired: 10,
                want: Ok((4, 0)),
            },
            Case {
                name: "both nil",
                surge: None,
                unavailable: None,
                desired: 10,
                want: Ok((0, 1)),
            },
            Case {
                name: "ints",
                surge: Some(json!(2)),
                unavailable: Some(json!(0)),
                desired: 5,
                want: Ok((2, 0)),
            },
            Case {
                name: "1% of 2 rounds unavailable to 0 surge to 1",
                surge: Some(json!("1%")),
                unavailable: Some(json!("1%")),
                desired: 2,
                want: Ok((1, 0)),
            },
        ];
        for c in &cases {
            let got = resolve_fenceposts(c.surge.as_ref(), c.unavailable.as_ref(), c.desired);
            assert_eq!(got, c.want.map_err(String::from), "case {}", c.name);
        }
    }

    #[test]
    fn max_unavailable_surge_min_available_table() {
        struct Case {
            name: &'static str,
            d: Value,
            want: (i32, i32, i32), // (maxUnavailable, maxSurge, minAvailable)
        }
        let mut recreate = deployment(3, json!("25%"), json!("25%"));
        recreate["spec"]["strategy"] = json!({"type": "Recreate"});
        let cases = [
            Case {
                name: "3 replicas defaults",
                d: deployment(3, json!("25%"), json!("25%")),
                want: (0, 1, 3),
            },
            Case {
                name: "4 replicas defaults",
                d: deployment(4, json!("25%"), json!("25%")),
                want: (1, 1, 3),
            },
            Case {
                name: "unavailable capped at replicas",
                d: deployment(2, json!(0), json!(5)),
                want: (2, 0, 0),
            },
            Case {
                name: "zero replicas",
                d: deployment(0, json!(1), json!(1)),
                want: (0, 1, 0),
            },
            Case {
                name: "recreate",
                d: recreate,
                want: (0, 0, 0),
            },
            Case {
                name: "both zero -> unavailable 1",
                d: deployment(5, json!(0), json!(0)),
                want: (1, 0, 4),
            },
        ];
        for c in &cases {
            assert_eq!(
                (max_unavailable(&c.d), max_surge(&c.d), min_available(&c.d)),
                c.want,
                "case {}",
                c.name
            );
        }
    }

    #[test]
    fn new_rs_new_replicas_table() {
        struct Case {
            name: &'static str,
            strategy: &'static str,
            dep_replicas: i32,
            new_rs_replicas: i32,
            max_surge: Value,
            other_rs_replicas: i32,
            want: Result<i32, &'static str>,
        }
        let cases = [
            Case {
                name: "can not scale up - to newRSReplicas",
                strategy: "RollingUpdate",
                dep_replicas: 1,
                new_rs_replicas: 5,
                max_surge: json!(1),
                other_rs_replicas: 5,
                want: Ok(5),
            },
            Case {
                name: "scale up - to depReplicas",
                strategy: "RollingUpdate",
                dep_replicas: 6,
                new_rs_replicas: 2,
                max_surge: json!(10),
                other_rs_replicas: 5,
                want: Ok(6),
            },
            Case {
                name: "recreate - to depReplicas",
                strategy: "Recreate",
                dep_replicas: 3,
                new_rs_replicas: 1,
                max_surge: json!(1),
                other_rs_replicas: 5,
                want: Ok(3),
            },
            Case {
                name: "fresh deployment creates at full size",
                strategy: "RollingUpdate",
                dep_replicas: 3,
                new_rs_replicas: 0,
                max_surge: json!("25%"),
                other_rs_replicas: 0,
                want: Ok(3),
            },
            Case {
                name: "rollout step limited by surge",
                strategy: "RollingUpdate",
                dep_replicas: 10,
                new_rs_replicas: 0,
                max_surge: json!("25%"),
                other_rs_replicas: 10,
                want: Ok(3),
            },
            Case {
                name: "unsupported type",
                strategy: "Canary",
                dep_replicas: 3,
                new_rs_replicas: 0,
                max_surge: json!(1),
                other_rs_replicas: 0,
                want: Err("deployment type Canary isn't supported"),
            },
        ];
        for c in &cases {
            let d = json!({"spec": {"replicas": c.dep_replicas, "strategy": {"type": c.strategy, "rollingUpdate": {"maxSurge": c.max_surge, "maxUnavailable": 0}}}});
            let new_rs = rs("new", c.new_rs_replicas, "2026-01-01T00:00:00Z");
            let other = rs("other", c.other_rs_replicas, "2026-01-01T00:00:00Z");
            let got = new_rs_new_replicas(&d, &[other], &new_rs);
            assert_eq!(got, c.want.map_err(String::from), "case {}", c.name);
        }
        let d = json!({"spec": {"replicas": 3, "strategy": {"type": "RollingUpdate"}}});
        assert_eq!(
            new_rs_new_replicas(&d, &[], &rs("n", 0, "")),
            Err("nil value for IntOrString".to_string()),
            "case missing maxSurge"
        );
    }

    #[test]
    fn round_to_int32_table() {
        let cases: [(&str, f64, i32); 9] = [
            ("5.5", 5.5, 6),
            ("-3.7", -3.7, -4),
            ("3.49", 3.49, 3),
            ("-7.9", -7.9, -8),
            ("-4.499999", -4.499999, -4),
            ("zero", 0.0, 0),
            ("2.5 half away from zero (not banker's)", 2.5, 3),
            ("-2.5 half away from zero (not Math.round)", -2.5, -3),
            ("NaN", f64::NAN, 0),
        ];
        for (name, x, want) in cases {
            assert_eq!(round_to_int32(x), want, "case {name}");
        }
    }

    #[test]
    fn replica_set_fraction_table() {
        struct Case {
            name: &'static str,
            d: Value,
            rs: Value,
            want: i32,
        }
        let with_ann = |name: &str, replicas: i32, max: Option<&str>| {
            let mut r = rs(name, replicas, "2026-01-01T00:00:00Z");
            if let Some(m) = max {
                r["metadata"]["annotations"] = json!({MAX_REPLICAS_ANNOTATION: m});
            }
            r
        };
        let mut d_status = deployment(20, json!("25%"), json!("25%"));
        d_status["status"] = json!({"replicas": 10});
        let cases = [
            Case {
                name: "scale to zero takes whole size",
                d: deployment(0, json!(1), json!(0)),
                rs: with_ann("a", 4, Some("5")),
                want: -4,
            },
            Case {
                name: "10->20 with surge 25%: 5*25/13=9.6->10",
                d: deployment(20, json!("25%"), json!("25%")),
                rs: with_ann("a", 5, Some("13")),
                want: 5,
            },
            Case {
                name: "half rounds up: 1*3/2=1.5->2",
                d: deployment(2, json!(1), json!(0)),
                rs: with_ann("a", 1, Some("2")),
                want: 1,
            },
            Case {
                name: "half away from zero: 5*3/6=2.5->3",
                d: deployment(2, json!(1), json!(0)),
                rs: with_ann("a", 5, Some("6")),
                want: -2,
            },
            Case {
                name: "missing annotation uses status.replicas",
                d: d_status.clone(),
                rs: with_ann("a", 5, None),
                want: 8,
            }, // 5*25/10=12.5->13
            Case {
                name: "zero annotation uses status.replicas (v1.33+)",
                d: d_status.clone(),
                rs: with_ann("a", 5, Some("0")),
                want: 8,
            },
            Case {
                name: "bad annotation uses status.replicas",
                d: d_status,
                rs: with_ann("a", 5, Some("x")),
                want: 8,
            },
            Case {
                name: "no annotation and no status -> 0",
                d: deployment(20, json!("25%"), json!("25%")),
                rs: with_ann("a", 5, None),
                want: 0,
            },
        ];
        for c in &cases {
            assert_eq!(
                get_replica_set_fraction(&c.rs, &c.d),
                c.want,
                "case {}",
                c.name
            );
        }
    }

    #[test]
    fn proportion_table() {
        struct Case {
            name: &'static str,
            rs: Option<Value>,
            to_add: i32,
            added: i32,
            want: i32,
        }
        // d: 20 replicas, surge 25% -> 25; rs 5 of max 13 -> fraction +5.
        let d = deployment(20, json!("25%"), json!("25%"));
        let mut r = rs("a", 5, "2026-01-01T00:00:00Z");
        r["metadata"]["annotations"] = json!({MAX_REPLICAS_ANNOTATION: "13"});
        let mut down = rs("b", 5, "2026-01-01T00:00:00Z");
        down["metadata"]["annotations"] = json!({MAX_REPLICAS_ANNOTATION: "50"}); // 5*25/50 = 2.5 -> 3: -2
        let cases = [
            Case {
                name: "nil rs",
                rs: None,
                to_add: 5,
                added: 0,
                want: 0,
            },
            Case {
                name: "rs with 0 replicas",
                rs: Some(rs("z", 0, "")),
                to_add: 5,
                added: 0,
                want: 0,
            },
            Case {
                name: "nothing to add",
                rs: Some(r.clone()),
                to_add: 0,
                added: 0,
                want: 0,
            },
            Case {
                name: "all added already",
                rs: Some(r.clone()),
                to_add: 4,
                added: 4,
                want: 0,
            },
            Case {
                name: "up: fraction fits",
                rs: Some(r.clone()),
                to_add: 12,
                added: 0,
                want: 5,
            },
            Case {
                name: "up: capped by allowed",
                rs: Some(r.clone()),
                to_add: 12,
                added: 9,
                want: 3,
            },
            Case {
                name: "down: fraction fits",
                rs: Some(down.clone()),
                to_add: -10,
                added: 0,
                want: -2,
            },
            Case {
                name: "down: capped by allowed",
                rs: Some(down),
                to_add: -10,
                added: -9,
                want: -1,
            },
        ];
        for c in &cases {
            assert_eq!(
                get_proportion(c.rs.as_ref(), &d, c.to_add, c.added),
                c.want,
                "case {}",
                c.name
            );
        }
    }

    #[test]
    fn is_saturated_table() {
        let d = deployment(3, json!(1), json!(0));
        let sat = json!({"metadata": {"annotations": {DESIRED_REPLICAS_ANNOTATION: "3"}}, "spec": {"replicas": 3}, "status": {"availableReplicas": 3}});
        let mut unavailable = sat.clone();
        unavailable["status"]["availableReplicas"] = json!(2);
        let mut stale = sat.clone();
        stale["metadata"]["annotations"][DESIRED_REPLICAS_ANNOTATION] = json!("2");
        let mut no_ann = sat.clone();
        no_ann["metadata"] = json!({});
        let cases: [(&str, Option<&Value>, bool); 5] = [
            ("saturated", Some(&sat), true),
            ("not all available", Some(&unavailable), false),
            ("stale annotation", Some(&stale), false),
            ("no annotation", Some(&no_ann), false),
            ("nil", None, false),
        ];
        for (name, r, want) in cases {
            assert_eq!(is_saturated(&d, r), want, "case {name}");
        }
    }

    #[test]
    fn find_active_or_latest_table() {
        struct Case {
            name: &'static str,
            new_rs: Option<Value>,
            old: Vec<Value>,
            want: Option<&'static str>,
            old_order_after: Vec<&'static str>,
        }
        let cases = [
            Case {
                name: "nothing",
                new_rs: None,
                old: vec![],
                want: None,
                old_order_after: vec![],
            },
            Case {
                name: "only new active",
                new_rs: Some(rs("new", 3, "2026-01-03T00:00:00Z")),
                old: vec![rs("o1", 0, "2026-01-01T00:00:00Z")],
                want: Some("new"),
                old_order_after: vec!["o1"],
            },
            Case {
                name: "none active, no new -> newest old",
                new_rs: None,
                old: vec![
                    rs("o1", 0, "2026-01-01T00:00:00Z"),
                    rs("o2", 0, "2026-01-02T00:00:00Z"),
                ],
                want: Some("o2"),
                old_order_after: vec!["o2", "o1"],
            },
            Case {
                name: "none active -> new",
                new_rs: Some(rs("new", 0, "2026-01-03T00:00:00Z")),
                old: vec![rs("o1", 0, "2026-01-01T00:00:00Z")],
                want: Some("new"),
                old_order_after: vec!["o1"],
            },
            Case {
                name: "two active -> none",
                new_rs: Some(rs("new", 1, "2026-01-03T00:00:00Z")),
                old: vec![rs("o1", 2, "2026-01-01T00:00:00Z")],
                want: None,
                old_order_after: vec!["o1"],
            },
        ];
        for c in cases {
            let mut old = c.old.clone();
            let got = find_active_or_latest(c.new_rs.as_ref(), &mut old);
            assert_eq!(
                got.as_ref().map(|r| name_of(r).to_string()),
                c.want.map(String::from),
                "case {}",
                c.name
            );
            assert_eq!(
                names(&old),
                c.old_order_after,
                "case {} (old order)",
                c.name
            );
        }
    }

    #[test]
    fn replica_set_sort_orders_table() {
        struct Case {
            name: &'static str,
            cmp: fn(&Value, &Value) -> Ordering,
            input: Vec<Value>,
            want: Vec<&'static str>,
        }
        let with_rev = |name: &str, rev: &str, created: &str| {
            let mut r = rs(name, 1, created);
            r["metadata"]["annotations"] = json!({REVISION_ANNOTATION: rev});
            r
        };
        let cases = [
            Case {
                name: "by creation timestamp, ties by name, zero time first",
                cmp: replica_sets_by_creation_timestamp,
                input: vec![
                    rs("c", 1, "2026-01-02T00:00:00Z"),
                    rs("b", 1, "2026-01-01T00:00:00Z"),
                    rs("a", 1, "2026-01-01T00:00:00Z"),
                    json!({"metadata": {"name": "zero"}}),
                ],
                want: vec!["zero", "a", "b", "c"],
            },
            Case {
                name: "by size older: big first, then older",
                cmp: replica_sets_by_size_older,
                input: vec![
                    rs("new2", 2, "2026-01-03T00:00:00Z"),
                    rs("old2", 2, "2026-01-01T00:00:00Z"),
                    rs("big", 5, "2026-01-02T00:00:00Z"),
                ],
                want: vec!["big", "old2", "new2"],
            },
            Case {
                name: "by size newer: big first, then newer",
                cmp: replica_sets_by_size_newer,
                input: vec![
                    rs("old2", 2, "2026-01-01T00:00:00Z"),
                    rs("big", 5, "2026-01-02T00:00:00Z"),
                    rs("new2", 2, "2026-01-03T00:00:00Z"),
                ],
                want: vec!["big", "new2", "old2"],
            },
            Case {
                name: "by size newer: same time -> reverse name",
                cmp: replica_sets_by_size_newer,
                input: vec![
                    rs("a", 2, "2026-01-01T00:00:00Z"),
                    rs("b", 2, "2026-01-01T00:00:00Z"),
                ],
                want: vec!["b", "a"],
            },
            Case {
                name: "by revision, ties by time",
                cmp: replica_sets_by_revision,
                input: vec![
                    with_rev("r10", "10", "2026-01-01T00:00:00Z"),
                    with_rev("r2", "2", "2026-01-05T00:00:00Z"),
                    with_rev("r2-older", "2", "2026-01-02T00:00:00Z"),
                    with_rev("r9", "9", "2026-01-03T00:00:00Z"),
                ],
                want: vec!["r2-older", "r2", "r9", "r10"],
            },
            Case {
                name: "by revision, bad revision falls back to time",
                cmp: replica_sets_by_revision,
                input: vec![
                    with_rev("bad", "x", "2026-01-02T00:00:00Z"),
                    with_rev("r1", "1", "2026-01-01T00:00:00Z"),
                ],
                want: vec!["r1", "bad"],
            },
        ];
        for c in cases {
            let mut v = c.input.clone();
            sort_replica_sets(&mut v, c.cmp);
            assert_eq!(names(&v), c.want, "case {}", c.name);
        }
        // Large lists and inconsistent comparators never panic.
        let mut many: Vec<Value> = (0..40)
            .map(|i| {
                with_rev(
                    &format!("rs{i}"),
                    if i % 3 == 0 { "x" } else { "1" },
                    &crate::api::time::unix_rfc3339(T0 - i * 1000),
                )
            })
            .collect();
        sort_replica_sets(&mut many, replica_sets_by_revision);
        assert_eq!(many.len(), 40, "case large sort keeps all elements");
    }

    #[test]
    fn go_sort_small_is_insertion_sort_table() {
        // Up to 12 elements Go runs an insertion sort: stable, and with it kubesim
        // reproduces Go's result even for comparators that are not total orders.
        struct Case {
            name: &'static str,
            input: Vec<i32>,
            key: fn(i32) -> i32,
            want: Vec<i32>,
        }
        let cases = [
            Case {
                name: "sorted stays",
                input: vec![1, 2, 3],
                key: |x| x,
                want: vec![1, 2, 3],
            },
            Case {
                name: "reverse",
                input: vec![3, 2, 1],
                key: |x| x,
                want: vec![1, 2, 3],
            },
            Case {
                name: "stable for equal keys (tens digit)",
                input: vec![21, 10, 20, 11],
                key: |x| x / 10,
                want: vec![10, 11, 21, 20],
            },
            Case {
                name: "13 elements (merge path)",
                input: (0..13).rev().collect(),
                key: |x| x,
                want: (0..13).collect(),
            },
            Case {
                name: "30 elements stable (merge path)",
                input: (0..30).map(|i| (i % 3) * 100 + i).collect(),
                key: |x| x / 100,
                want: {
                    let mut w: Vec<i32> = (0..30).map(|i| (i % 3) * 100 + i).collect();
                    w.sort_by_key(|x| x / 100);
                    w
                },
            },
        ];
        for c in cases {
            let mut v = c.input.clone();
            go_sort_by_less(&mut v, |a, b| (c.key)(*a) < (c.key)(*b));
            assert_eq!(v, c.want, "case {}", c.name);
        }
    }

    #[test]
    fn revision_table() {
        let with = |v: Value| json!({"metadata": {"annotations": {REVISION_ANNOTATION: v}}});
        let cases: [(&str, Value, Result<i64, &str>); 5] = [
            ("absent", json!({}), Ok(0)),
            ("number string", with(json!("7")), Ok(7)),
            (
                "garbage",
                with(json!("seven")),
                Err("strconv.ParseInt: parsing \"seven\": invalid syntax"),
            ),
            (
                "empty",
                with(json!("")),
                Err("strconv.ParseInt: parsing \"\": invalid syntax"),
            ),
            (
                "too big",
                with(json!("99999999999999999999")),
                Err("strconv.ParseInt: parsing \"99999999999999999999\": value out of range"),
            ),
        ];
        for (name, obj, want) in cases {
            assert_eq!(revision(&obj), want.map_err(String::from), "case {name}");
        }
        let all = vec![
            with(json!("3")),
            with(json!("x")),
            with(json!("5")),
            json!({}),
        ];
        assert_eq!(max_revision(&all), 5, "case max revision skips errors");
        assert_eq!(last_revision(&all), 3, "case last revision");
        assert_eq!(max_revision(&[]), 0, "case max revision empty");
    }

    #[test]
    fn set_new_replica_set_annotations_table() {
        struct Case {
            name: &'static str,
            d_annotations: Value,
            rs_annotations: Option<Value>,
            new_revision: &'static str,
            exists: bool,
            limit: usize,
            want_changed: bool,
            want_annotations: Value,
        }
        let cases = [
            Case {
                name: "new RS gets revision, copies and replica annotations",
                d_annotations: json!({"team": "a", LAST_APPLIED_CONFIG_ANNOTATION: "{}", REVISION_ANNOTATION: "1", "empty": ""}),
                rs_annotations: None,
                new_revision: "1",
                exists: false,
                limit: 2000,
                want_changed: true,
                want_annotations: json!({"team": "a", REVISION_ANNOTATION: "1", DESIRED_REPLICAS_ANNOTATION: "4", MAX_REPLICAS_ANNOTATION: "5"}),
            },
            Case {
                name: "existing RS, nothing to do",
                d_annotations: json!({}),
                rs_annotations: Some(json!({REVISION_ANNOTATION: "3"})),
                new_revision: "3",
                exists: true,
                limit: 2000,
                want_changed: false,
                want_annotations: json!({REVISION_ANNOTATION: "3"}),
            },
            Case {
                name: "revision never goes down",
                d_annotations: json!({}),
                rs_annotations: Some(json!({REVISION_ANNOTATION: "10"})),
                new_revision: "9",
                exists: true,
                limit: 2000,
                want_changed: false,
                want_annotations: json!({REVISION_ANNOTATION: "10"}),
            },
            Case {
                name: "rollback records history",
                d_annotations: json!({}),
                rs_annotations: Some(json!({REVISION_ANNOTATION: "1"})),
                new_revision: "3",
                exists: true,
                limit: 2000,
                want_changed: true,
                want_annotations: json!({REVISION_ANNOTATION: "3", REVISION_HISTORY_ANNOTATION: "1"}),
            },
            Case {
                name: "rollback appends to history",
                d_annotations: json!({}),
                rs_annotations: Some(
                    json!({REVISION_ANNOTATION: "3", REVISION_HISTORY_ANNOTATION: "1"}),
                ),
                new_revision: "5",
                exists: true,
                limit: 2000,
                want_changed: true,
                want_annotations: json!({REVISION_ANNOTATION: "5", REVISION_HISTORY_ANNOTATION: "1,3"}),
            },
            Case {
                name: "history trimmed from the front to fit the limit",
                d_annotations: json!({}),
                rs_annotations: Some(
                    json!({REVISION_ANNOTATION: "7", REVISION_HISTORY_ANNOTATION: "1,3,5"}),
                ),
                new_revision: "9",
                exists: true,
                limit: 5,
                want_changed: true,
                want_annotations: json!({REVISION_ANNOTATION: "9", REVISION_HISTORY_ANNOTATION: "3,5,7"}),
            },
            Case {
                name: "unparseable old revision aborts",
                d_annotations: json!({}),
                rs_annotations: Some(json!({REVISION_ANNOTATION: "x"})),
                new_revision: "2",
                exists: true,
                limit: 2000,
                want_changed: false,
                want_annotations: json!({REVISION_ANNOTATION: "x"}),
            },
        ];
        for c in cases {
            let mut d = deployment(4, json!("25%"), json!("25%"));
            d["metadata"]["annotations"] = c.d_annotations.clone();
            let mut r = rs("r", 0, "2026-01-01T00:00:00Z");
            if let Some(a) = &c.rs_annotations {
                r["metadata"]["annotations"] = a.clone();
            }
            let changed =
                set_new_replica_set_annotations(&d, &mut r, c.new_revision, c.exists, c.limit);
            assert_eq!(changed, c.want_changed, "case {} (changed)", c.name);
            assert_eq!(
                r["metadata"]["annotations"], c.want_annotations,
                "case {} (annotations)",
                c.name
            );
        }
    }

    #[test]
    fn replicas_annotations_table() {
        let cases: [(&str, Value, bool); 4] = [
            ("no annotations", json!({}), true),
            (
                "up to date",
                json!({"metadata": {"annotations": {DESIRED_REPLICAS_ANNOTATION: "3", MAX_REPLICAS_ANNOTATION: "4"}}}),
                false,
            ),
            (
                "stale max",
                json!({"metadata": {"annotations": {DESIRED_REPLICAS_ANNOTATION: "3", MAX_REPLICAS_ANNOTATION: "5"}}}),
                true,
            ),
            (
                "missing desired",
                json!({"metadata": {"annotations": {MAX_REPLICAS_ANNOTATION: "4"}}}),
                true,
            ),
        ];
        for (name, obj, want) in cases {
            assert_eq!(
                replicas_annotations_need_update(&obj, 3, 4),
                want,
                "case {name}"
            );
            let mut o = obj.clone();
            assert_eq!(
                set_replicas_annotations(&mut o, 3, 4),
                want,
                "case {name} (set)"
            );
            assert!(
                !replicas_annotations_need_update(&o, 3, 4),
                "case {name} (after set)"
            );
        }
        let skip = [
            (LAST_APPLIED_CONFIG_ANNOTATION, true),
            (REVISION_ANNOTATION, true),
            (REVISION_HISTORY_ANNOTATION, true),
            (DESIRED_REPLICAS_ANNOTATION, true),
            (MAX_REPLICAS_ANNOTATION, true),
            (DEPRECATED_ROLLBACK_TO_ANNOTATION, true),
            ("team", false),
        ];
        for (k, want) in skip {
            assert_eq!(skip_copy_annotation(k), want, "case skip {k}");
        }
    }

    #[test]
    fn equal_ignore_hash_table() {
        let t = json!({"metadata": {"labels": {"app": "web"}}, "spec": {"containers": [{"name": "c", "image": "nginx"}]}});
        let mut hashed = t.clone();
        hashed["metadata"]["labels"][DEFAULT_DEPLOYMENT_UNIQUE_LABEL_KEY] = json!("7c79c4bf97");
        let mut image = t.clone();
        image["spec"]["containers"][0]["image"] = json!("httpd");
        let mut zeroes = t.clone();
        zeroes["metadata"]["creationTimestamp"] = Value::Null;
        zeroes["spec"]["hostNetwork"] = json!(false);
        zeroes["spec"]["containers"][0]["args"] = json!([]);
        let no_labels =
            json!({"metadata": {"labels": {DEFAULT_DEPLOYMENT_UNIQUE_LABEL_KEY: "x"}}, "spec": {}});
        let cases: [(&str, &Value, &Value, bool); 5] = [
            ("identical", &t, &t, true),
            ("hash label ignored", &t, &hashed, true),
            ("image differs", &t, &image, false),
            ("zero values equal missing", &t, &zeroes, true),
            ("only hash label vs nothing", &no_labels, &json!({}), true),
        ];
        for (name, a, b, want) in cases {
            assert_eq!(equal_ignore_hash(a, b), want, "case {name}");
        }
    }

    #[test]
    fn find_new_and_old_replica_sets_table() {
        let mut d = deployment(3, json!(1), json!(0));
        d["spec"]["template"] = json!({"metadata": {"labels": {"app": "web"}}, "spec": {"containers": [{"name": "c", "image": "v2"}]}});
        let tmpl = |image: &str| json!({"metadata": {"labels": {"app": "web", DEFAULT_DEPLOYMENT_UNIQUE_LABEL_KEY: "h"}}, "spec": {"containers": [{"name": "c", "image": image}]}});
        let mk = |name: &str, replicas: i32, created: &str, image: &str| {
            let mut r = rs(name, replicas, created);
            r["spec"]["template"] = tmpl(image);
            r
        };
        let mut list = vec![
            mk("v2-newer", 0, "2026-01-04T00:00:00Z", "v2"),
            mk("v1", 2, "2026-01-01T00:00:00Z", "v1"),
            mk("v2", 1, "2026-01-03T00:00:00Z", "v2"),
            mk("v0", 0, "2026-01-00T00:00:00Z", "v0"), // unparseable time = zero time, sorts first
        ];
        let new_rs = find_new_replica_set(&d, &mut list);
        assert_eq!(
            new_rs.as_ref().map(|r| name_of(r).to_string()),
            Some("v2".to_string()),
            "case oldest matching template is new"
        );
        let (required, all) = find_old_replica_sets(&d, &mut list);
        assert_eq!(names(&required), vec!["v1"], "case required old");
        assert_eq!(names(&all), vec!["v0", "v1", "v2-newer"], "case all old");
        let mut empty: Vec<Value> = vec![];
        assert!(find_new_replica_set(&d, &mut empty).is_none(), "case no RS");
    }

    #[test]
    fn set_deployment_condition_table() {
        let t0 = "2026-01-01T00:00:00Z";
        let t1 = "2026-01-01T00:01:00Z";
        struct Case {
            name: &'static str,
            before: Value,
            cond: Value,
            want: Value,
        }
        let avail_true_t0 = new_deployment_condition(
            DEPLOYMENT_AVAILABLE,
            CONDITION_TRUE,
            MINIMUM_REPLICAS_AVAILABLE,
            MINIMUM_REPLICAS_AVAILABLE_MESSAGE,
            t0,
        );
        let avail_false_t0 = new_deployment_condition(
            DEPLOYMENT_AVAILABLE,
            CONDITION_FALSE,
            MINIMUM_REPLICAS_UNAVAILABLE,
            MINIMUM_REPLICAS_UNAVAILABLE_MESSAGE,
            t0,
        );
        let prog_created_t0 = new_deployment_condition(
            DEPLOYMENT_PROGRESSING,
            CONDITION_TRUE,
            NEW_REPLICA_SET_REASON,
            &new_replica_set_created_message("web-7c79c4bf97"),
            t0,
        );
        let cases = [
            Case {
                name: "append to empty status",
                before: json!({}),
                cond: avail_true_t0.clone(),
                want: json!({"conditions": [avail_true_t0.clone()]}),
            },
            Case {
                name: "null status becomes object",
                before: Value::Null,
                cond: avail_true_t0.clone(),
                want: json!({"conditions": [avail_true_t0.clone()]}),
            },
            Case {
                name: "same status and reason is a no-op (lastUpdateTime kept)",
                before: json!({"conditions": [avail_true_t0.clone()]}),
                cond: new_deployment_condition(
                    DEPLOYMENT_AVAILABLE,
                    CONDITION_TRUE,
                    MINIMUM_REPLICAS_AVAILABLE,
                    "other message",
                    t1,
                ),
                want: json!({"conditions": [avail_true_t0.clone()]}),
            },
            Case {
                name: "reason change keeps lastTransitionTime and moves to the end",
                before: json!({"conditions": [prog_created_t0.clone(), avail_false_t0.clone()]}),
                cond: new_deployment_condition(
                    DEPLOYMENT_PROGRESSING,
                    CONDITION_TRUE,
                    REPLICA_SET_UPDATED_REASON,
                    &progressing_message("web", Some("web-7c79c4bf97")),
                    t1,
                ),
                want: json!({"conditions": [avail_false_t0.clone(), {
                    "type": "Progressing", "status": "True", "reason": "ReplicaSetUpdated",
                    "message": "ReplicaSet \"web-7c79c4bf97\" is progressing.",
                    "lastUpdateTime": t1, "lastTransitionTime": t0
                }]}),
            },
            Case {
                name: "status change takes the new lastTransitionTime",
                before: json!({"conditions": [avail_false_t0.clone(), prog_created_t0.clone()]}),
                cond: new_deployment_condition(
                    DEPLOYMENT_AVAILABLE,
                    CONDITION_TRUE,
                    MINIMUM_REPLICAS_AVAILABLE,
                    MINIMUM_REPLICAS_AVAILABLE_MESSAGE,
                    t1,
                ),
                want: json!({"conditions": [prog_created_t0.clone(), {
                    "type": "Available", "status": "True", "reason": "MinimumReplicasAvailable",
                    "message": "Deployment has minimum availability.", "lastUpdateTime": t1, "lastTransitionTime": t1
                }]}),
            },
        ];
        for c in cases {
            let mut st = c.before.clone();
            set_deployment_condition(&mut st, c.cond.clone());
            assert_eq!(st, c.want, "case {}", c.name);
        }
        let mut st = json!({"conditions": [avail_true_t0.clone()]});
        remove_deployment_condition(&mut st, DEPLOYMENT_AVAILABLE);
        assert_eq!(st, json!({}), "case remove last condition drops the list");
        assert_eq!(
            get_deployment_condition(&json!({"conditions": "bad"}), DEPLOYMENT_AVAILABLE),
            None,
            "case mistyped conditions"
        );
    }

    #[test]
    fn messages_table() {
        let cases = [
            (
                "created",
                new_replica_set_created_message("web-5d4b"),
                "Created new replica set \"web-5d4b\"",
            ),
            (
                "found",
                found_new_replica_set_message("web-5d4b"),
                "Found new replica set \"web-5d4b\"",
            ),
            (
                "failed",
                failed_rs_create_message("web-5d4b", "boom"),
                "Failed to create new replica set \"web-5d4b\": boom",
            ),
            (
                "complete rs",
                successfully_progressed_message("web", Some("web-5d4b")),
                "ReplicaSet \"web-5d4b\" has successfully progressed.",
            ),
            (
                "complete no rs",
                successfully_progressed_message("web", None),
                "Deployment \"web\" has successfully progressed.",
            ),
            (
                "progressing no rs",
                progressing_message("web", None),
                "Deployment \"web\" is progressing.",
            ),
            (
                "timed out",
                timed_out_message("web", Some("web-5d4b")),
                "ReplicaSet \"web-5d4b\" has timed out progressing.",
            ),
            ("quote escapes", go_quote("a\"b\\c\n"), "\"a\\\"b\\\\c\\n\""),
        ];
        for (name, got, want) in cases {
            assert_eq!(got, want, "case {name}");
        }
    }

    #[test]
    fn calculate_status_table() {
        let now = "2026-01-01T00:00:10Z";
        struct Case {
            name: &'static str,
            d: Value,
            all: Vec<Value>,
            new_index: Option<usize>,
            want: Value,
        }
        let mut with_conditions = deployment(3, json!("25%"), json!("25%"));
        with_conditions["status"] = json!({
            "collisionCount": 0,
            "conditions": [{"type": "Progressing", "status": "True", "reason": "NewReplicaSetCreated", "message": "Created new replica set \"web-1\"", "lastUpdateTime": "2026-01-01T00:00:00Z", "lastTransitionTime": "2026-01-01T00:00:00Z"}]
        });
        let cases = [
            Case {
                name: "fresh rollout complete",
                d: deployment(3, json!("25%"), json!("25%")),
                all: vec![rs_with_status("web-1", 3, 3, 3, 3)],
                new_index: Some(0),
                want: json!({
                    "observedGeneration": 1, "replicas": 3, "updatedReplicas": 3, "readyReplicas": 3, "availableReplicas": 3,
                    "conditions": [{"type": "Available", "status": "True", "reason": "MinimumReplicasAvailable", "message": "Deployment has minimum availability.", "lastUpdateTime": now, "lastTransitionTime": now}]
                }),
            },
            Case {
                name: "nothing available yet, existing condition kept first, collisionCount 0 kept",
                d: with_conditions,
                all: vec![rs_with_status("web-1", 3, 3, 0, 0)],
                new_index: Some(0),
                want: json!({
                    "observedGeneration": 1, "replicas": 3, "updatedReplicas": 3, "unavailableReplicas": 3, "collisionCount": 0,
                    "conditions": [
                        {"type": "Progressing", "status": "True", "reason": "NewReplicaSetCreated", "message": "Created new replica set \"web-1\"", "lastUpdateTime": "2026-01-01T00:00:00Z", "lastTransitionTime": "2026-01-01T00:00:00Z"},
                        {"type": "Available", "status": "False", "reason": "MinimumReplicasUnavailable", "message": "Deployment does not have minimum availability.", "lastUpdateTime": now, "lastTransitionTime": now}
                    ]
                }),
            },
            Case {
                name: "mid rollout: 4 replicas, maxUnavailable 1",
                d: deployment(4, json!("25%"), json!("25%")),
                all: vec![
                    rs_with_status("old", 3, 3, 3, 3),
                    rs_with_status("new", 2, 2, 1, 0),
                ],
                new_index: Some(1),
                want: json!({
                    "observedGeneration": 1, "replicas": 5, "updatedReplicas": 2, "readyReplicas": 4, "availableReplicas": 3, "unavailableReplicas": 2,
                    "conditions": [{"type": "Available", "status": "True", "reason": "MinimumReplicasAvailable", "message": "Deployment has minimum availability.", "lastUpdateTime": now, "lastTransitionTime": now}]
                }),
            },
            Case {
                name: "scaling down: unavailable clamps at 0, no new RS",
                d: deployment(1, json!("25%"), json!("25%")),
                all: vec![rs_with_status("old", 1, 3, 3, 3)],
                new_index: None,
                want: json!({
                    "observedGeneration": 1, "replicas": 3, "readyReplicas": 3, "availableReplicas": 3,
                    "conditions": [{"type": "Available", "status": "True", "reason": "MinimumReplicasAvailable", "message": "Deployment has minimum availability.", "lastUpdateTime": now, "lastTransitionTime": now}]
                }),
            },
        ];
        for c in cases {
            let new_rs = c.new_index.and_then(|i| c.all.get(i));
            assert_eq!(
                calculate_status(&c.d, &c.all, new_rs, now),
                c.want,
                "case {}",
                c.name
            );
        }
    }

    #[test]
    fn rollout_state_table() {
        let mut d = deployment(3, json!(1), json!(0));
        d["metadata"]["generation"] = json!(2);
        d["spec"]["progressDeadlineSeconds"] = json!(600);
        d["status"] = json!({"replicas": 4, "updatedReplicas": 1, "readyReplicas": 3, "availableReplicas": 3});
        let cases: [(&str, Value, bool, bool); 5] = [
            // (name, new status, complete, progressing)
            (
                "no change",
                json!({"replicas": 4, "updatedReplicas": 1, "readyReplicas": 3, "availableReplicas": 3, "observedGeneration": 2}),
                false,
                false,
            ),
            (
                "more updated",
                json!({"replicas": 4, "updatedReplicas": 2, "readyReplicas": 3, "availableReplicas": 3}),
                false,
                true,
            ),
            (
                "fewer old",
                json!({"replicas": 3, "updatedReplicas": 1, "readyReplicas": 3, "availableReplicas": 3}),
                false,
                true,
            ),
            (
                "complete",
                json!({"replicas": 3, "updatedReplicas": 3, "readyReplicas": 3, "availableReplicas": 3, "observedGeneration": 2}),
                true,
                true,
            ),
            (
                "complete but old generation",
                json!({"replicas": 3, "updatedReplicas": 3, "availableReplicas": 3, "observedGeneration": 1}),
                false,
                true,
            ),
        ];
        for (name, st, complete, progressing) in cases {
            assert_eq!(
                deployment_complete(&d, &st),
                complete,
                "case {name} (complete)"
            );
            assert_eq!(
                deployment_progressing(&d, &st),
                progressing,
                "case {name} (progressing)"
            );
        }
        let cond = |reason: &str, updated: &str| json!({"conditions": [{"type": "Progressing", "status": "True", "reason": reason, "lastUpdateTime": updated}]});
        let timeout_cases: [(&str, Value, i64, bool); 6] = [
            (
                "within deadline",
                cond("ReplicaSetUpdated", "2026-01-01T00:00:00Z"),
                T0 + 600_000,
                false,
            ),
            (
                "just past deadline",
                cond("ReplicaSetUpdated", "2026-01-01T00:00:00Z"),
                T0 + 600_001,
                true,
            ),
            (
                "complete never times out",
                cond("NewReplicaSetAvailable", "2026-01-01T00:00:00Z"),
                T0 + 10_000_000,
                false,
            ),
            (
                "already timed out",
                cond("ProgressDeadlineExceeded", "2026-01-01T00:00:00Z"),
                T0,
                true,
            ),
            ("no condition", json!({}), T0 + 10_000_000, false),
            (
                "bad time is zero time",
                cond("ReplicaSetUpdated", "garbage"),
                T0,
                true,
            ),
        ];
        for (name, st, now, want) in timeout_cases {
            assert_eq!(deployment_timed_out(&d, &st, now), want, "case {name}");
        }
        let mut no_deadline = d.clone();
        no_deadline["spec"]["progressDeadlineSeconds"] = json!(i32::MAX);
        assert!(
            !deployment_timed_out(
                &no_deadline,
                &cond("ReplicaSetUpdated", "2026-01-01T00:00:00Z"),
                T0 * 2
            ),
            "case MaxInt32 deadline"
        );
        assert!(
            has_progress_deadline(&d) && !has_progress_deadline(&no_deadline),
            "case has_progress_deadline"
        );
    }

    #[test]
    fn replica_counts_table() {
        let all = vec![
            rs_with_status("a", 3, 2, 2, 1),
            rs_with_status("b", 2, 2, 1, 1),
            json!({"spec": {}}),
        ];
        let cases = [
            (
                "spec sum (missing replicas = 1)",
                get_replica_count_for_replica_sets(&all),
                6,
            ),
            ("actual", get_actual_replica_count_for_replica_sets(&all), 4),
            ("ready", get_ready_replica_count_for_replica_sets(&all), 3),
            (
                "available",
                get_available_replica_count_for_replica_sets(&all),
                2,
            ),
            (
                "active",
                filter_active_replica_sets(&[rs("x", 0, ""), rs("y", 2, "")]).len() as i32,
                1,
            ),
        ];
        for (name, got, want) in cases {
            assert_eq!(got, want, "case {name}");
        }
    }

}
