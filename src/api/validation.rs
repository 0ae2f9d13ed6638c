//! API validation with the upstream v1.34 messages and check order.
//!
//! Real counterparts:
//! - `staging/src/k8s.io/apimachinery/pkg/util/validation/validation.go` (`IsDNS1123Label`,
//!   `IsDNS1123Subdomain`, `IsQualifiedName`, `IsValidLabelValue`, `IsValidPortNum`,
//!   `IsValidPortName`, `IsValidPercent`, `IsRelaxedEnvVarName`, `RegexError`, `MaxLenError`);
//! - `staging/src/k8s.io/apimachinery/pkg/api/validation/objectmeta.go` and `generic.go`
//!   (`ValidateObjectMeta`, `ValidateObjectMetaUpdate`, `NameIsDNSSubdomain`, `maskTrailingDash`);
//! - `staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/validation/validation.go`
//!   (`ValidateLabels`, `ValidateLabelSelector`) and `metav1.LabelSelectorAsSelector`;
//! - `pkg/apis/apps/validation/validation.go` (`ValidateDeployment`, `ValidateDeploymentSpec`,
//!   `ValidateDeploymentStrategy`, `ValidateRollingUpdateDeployment`,
//!   `ValidatePodTemplateSpecForReplicaSet`, `ValidateReplicaSet`);
//! - `pkg/apis/core/validation/validation.go` (`ValidatePodCreate`, `ValidatePodUpdate`,
//!   `ValidatePodSpec`, `validateContainers`, `validateContainerCommon`, `validateContainerPorts`,
//!   `ValidateEnv`, `ValidateVolumes`, `validateResourceRequirements`, `ValidateTolerations`,
//!   `ValidateNamespace`, `ValidateNode`);
//! - `pkg/registry/apps/deployment/strategy.go` and `.../replicaset/strategy.go` `ValidateUpdate`
//!   (the selector is immutable in apps/v1).
//!
//! Validation runs on the *defaulted* object, as upstream. Upstream iterates Go maps (labels,
//! annotations, resource lists) in random order; kubesim iterates them sorted so that output is
//! deterministic. Error order otherwise follows the upstream order of checks.
//!
//! Values that upstream are internal Go structs render with Go field names in declaration
//! order (see [`super::field`]); external types (`metav1.LabelSelector`, `OwnerReference`)
//! render with their JSON names, also in declaration order.
//!
//! Simplifications (documented, not silently different): affinity, topology spread constraints,
//! sysctls, Windows/OS-specific rules, dynamic resource claims, pod-level resources, ephemeral
//! containers beyond "forbidden on create", and most volume-source-specific checks are not
//! validated; the `cmp.Diff` appended to the "pod updates may not change fields" message is a
//! simplified JSON diff. Unparseable quantities (rejected by the decoder upstream) are reported
//! as an `Invalid value` with the decoder's message.

use super::field::{go_json, go_quote, FieldError, Path};
use serde_json::{json, Map, Value};
use std::collections::{BTreeMap, BTreeSet};

type Errs = Vec<FieldError>;

const IS_NEGATIVE_ERROR_MSG: &str = "must be greater than or equal to 0";
const FIELD_IMMUTABLE_ERROR_MSG: &str = "field is immutable";
const TOTAL_ANNOTATION_SIZE_LIMIT_B: i64 = 256 * 1024;
const MAX_INT32: i64 = 2_147_483_647;

// =============================================================================================
// apimachinery pkg/util/validation: string formats
// =============================================================================================

const DNS1123_LABEL_FMT: &str = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
const DNS1123_LABEL_ERR_MSG: &str = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";
const DNS1123_LABEL_MAX_LENGTH: usize = 63;
const DNS1123_SUBDOMAIN_FMT: &str =
    "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";
const DNS1123_SUBDOMAIN_ERR_MSG: &str = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
const DNS1123_SUBDOMAIN_MAX_LENGTH: usize = 253;
const QUALIFIED_NAME_FMT: &str = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
const QUALIFIED_NAME_ERR_MSG: &str = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const QUALIFIED_NAME_MAX_LENGTH: usize = 63;
const LABEL_VALUE_FMT: &str = "(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?";
const LABEL_VALUE_ERR_MSG: &str = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const LABEL_VALUE_MAX_LENGTH: usize = 63;
const PERCENT_FMT: &str = "[0-9]+%";
const PERCENT_ERR_MSG: &str =
    "a valid percent string must be a numeric string followed by an ending '%'";
const RELAXED_ENV_VAR_NAME_ERR_MSG: &str = "a valid environment variable name must consist only of printable ASCII characters other than '='";
const CONFIG_MAP_KEY_FMT: &str = "[-._a-zA-Z0-9]+";
const CONFIG_MAP_KEY_ERR_MSG: &str =
    "a valid config key must consist of alphanumeric characters, '-', '_' or '.'";

/// `MaxLenError`.
fn max_len_error(n: usize) -> String {
    format!("must be no more than {} characters", n)
}

/// `RegexError`. Note the upstream quirk: examples are joined as `'a',  or 'b', ` (two spaces).
fn regex_error(msg: &str, fmt: &str, examples: &[&str]) -> String {
    if examples.is_empty() {
        return format!("{} (regex used for validation is '{}')", msg, fmt);
    }
    let mut s = format!("{} (e.g. ", msg);
    for (i, e) in examples.iter().enumerate() {
        if i > 0 {
            s.push_str(" or ");
        }
        s.push('\'');
        s.push_str(e);
        s.push_str("', ");
    }
    s.push_str("regex used for validation is '");
    s.push_str(fmt);
    s.push_str("')");
    s
}

/// `InclusiveRangeError`.
fn inclusive_range_error(lo: i64, hi: i64) -> String {
    format!("must be between {} and {}, inclusive", lo, hi)
}

fn is_lower_alnum(b: u8) -> bool {
    b.is_ascii_lowercase() || b.is_ascii_digit()
}

/// Matches `^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`.
fn matches_dns1123_label(s: &str) -> bool {
    let b = s.as_bytes();
    !b.is_empty()
        && is_lower_alnum(b[0])
        && is_lower_alnum(b[b.len() - 1])
        && b.iter().all(|&c| is_lower_alnum(c) || c == b'-')
}

/// Matches the DNS-1123 subdomain regex (dot-separated labels, no per-label length limit).
fn matches_dns1123_subdomain(s: &str) -> bool {
    !s.is_empty() && s.split('.').all(matches_dns1123_label)
}

/// Matches `^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$`.
fn matches_qualified_name_part(s: &str) -> bool {
    let b = s.as_bytes();
    !b.is_empty()
        && b[0].is_ascii_alphanumeric()
        && b[b.len() - 1].is_ascii_alphanumeric()
        && b.iter()
            .all(|&c| c.is_ascii_alphanumeric() || c == b'-' || c == b'_' || c == b'.')
}

/// `IsDNS1123Label` as a boolean: at most 63 characters of `[a-z0-9]([-a-z0-9]*[a-z0-9])?`.
pub fn is_dns1123_label(s: &str) -> bool {
    dns1123_label_errors(s).is_empty()
}

/// `IsDNS1123Subdomain` as a boolean: at most 253 characters, dot-separated DNS labels.
pub fn is_dns1123_subdomain(s: &str) -> bool {
    dns1123_subdomain_errors(s).is_empty()
}

/// `IsDNS1123Label`.
fn dns1123_label_errors(s: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if s.len() > DNS1123_LABEL_MAX_LENGTH {
        errs.push(max_len_error(DNS1123_LABEL_MAX_LENGTH));
    }
    if !matches_dns1123_label(s) {
        if matches_dns1123_subdomain(s) {
            // A valid subdomain but not a label: the length was checked, so it must be dots.
            errs.push("must not contain dots".to_string());
        } else {
            errs.push(regex_error(
                DNS1123_LABEL_ERR_MSG,
                DNS1123_LABEL_FMT,
                &["my-name", "123-abc"],
            ));
        }
    }
    errs
}

/// `IsDNS1123Subdomain`.
fn dns1123_subdomain_errors(s: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if s.len() > DNS1123_SUBDOMAIN_MAX_LENGTH {
        errs.push(max_len_error(DNS1123_SUBDOMAIN_MAX_LENGTH));
    }
    if !matches_dns1123_subdomain(s) {
        errs.push(regex_error(
            DNS1123_SUBDOMAIN_ERR_MSG,
            DNS1123_SUBDOMAIN_FMT,
            &["example.com"],
        ));
    }
    errs
}

/// `IsQualifiedName` (v1.34 wording: "a qualified name ..."): an optional DNS-subdomain prefix
/// and `/`, then a name part of at most 63 characters.
fn qualified_name_errors(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    let parts: Vec<&str> = value.split('/').collect();
    let name = match parts.len() {
        1 => parts[0],
        2 => {
            let prefix = parts[0];
            if prefix.is_empty() {
                errs.push("prefix part must be non-empty".to_string());
            } else {
                for m in dns1123_subdomain_errors(prefix) {
                    errs.push(format!("prefix part {}", m));
                }
            }
            parts[1]
        }
        _ => {
            errs.push(format!(
                "a qualified name {} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
                regex_error(QUALIFIED_NAME_ERR_MSG, QUALIFIED_NAME_FMT, &["MyName", "my.name", "123-abc"])
            ));
            return errs;
        }
    };
    if name.is_empty() {
        errs.push("name part must be non-empty".to_string());
    } else if name.len() > QUALIFIED_NAME_MAX_LENGTH {
        errs.push(format!(
            "name part {}",
            max_len_error(QUALIFIED_NAME_MAX_LENGTH)
        ));
    }
    if !matches_qualified_name_part(name) {
        errs.push(format!(
            "name part {}",
            regex_error(
                QUALIFIED_NAME_ERR_MSG,
                QUALIFIED_NAME_FMT,
                &["MyName", "my.name", "123-abc"]
            )
        ));
    }
    errs
}

/// `IsValidLabelValue`.
fn label_value_errors(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if value.len() > LABEL_VALUE_MAX_LENGTH {
        errs.push(max_len_error(LABEL_VALUE_MAX_LENGTH));
    }
    if !value.is_empty() && !matches_qualified_name_part(value) {
        errs.push(regex_error(
            LABEL_VALUE_ERR_MSG,
            LABEL_VALUE_FMT,
            &["MyValue", "my_value", "12345"],
        ));
    }
    errs
}

/// `IsValidPortNum`.
fn port_num_errors(port: i64) -> Vec<String> {
    if (1..=65535).contains(&port) {
        Vec::new()
    } else {
        vec![inclusive_range_error(1, 65535)]
    }
}

/// `IsValidPortName`.
fn port_name_errors(port: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if port.len() > 15 {
        errs.push(max_len_error(15));
    }
    if port.is_empty() || !port.bytes().all(|b| is_lower_alnum(b) || b == b'-') {
        errs.push(
            "must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)".to_string(),
        );
    }
    if !port.bytes().any(|b| b.is_ascii_lowercase()) {
        errs.push("must contain at least one letter (a-z)".to_string());
    }
    if port.contains("--") {
        errs.push("must not contain consecutive hyphens".to_string());
    }
    if !port.is_empty() && (port.starts_with('-') || port.ends_with('-')) {
        errs.push("must not begin or end with a hyphen".to_string());
    }
    errs
}

/// `IsValidPercent`.
fn percent_errors(s: &str) -> Vec<String> {
    let ok =
        s.len() >= 2 && s.ends_with('%') && s[..s.len() - 1].bytes().all(|b| b.is_ascii_digit());
    if ok {
        Vec::new()
    } else {
        vec![regex_error(PERCENT_ERR_MSG, PERCENT_FMT, &["1%", "93%"])]
    }
}

/// `IsRelaxedEnvVarName` (RelaxedEnvironmentVariableValidation is on in v1.34).
fn relaxed_env_var_name_errors(s: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if s.is_empty() {
        errs.push("environment variable name must be non-empty".to_string());
    }
    if s.chars().any(|c| !(' '..='~').contains(&c) || c == '=') {
        errs.push(RELAXED_ENV_VAR_NAME_ERR_MSG.to_string());
    }
    errs
}

/// `IsConfigMapKey`.
fn config_map_key_errors(s: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if s.len() > DNS1123_SUBDOMAIN_MAX_LENGTH {
        errs.push(max_len_error(DNS1123_SUBDOMAIN_MAX_LENGTH));
    }
    if s.is_empty()
        || !s
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'.' || b == b'_')
    {
        errs.push(regex_error(
            CONFIG_MAP_KEY_ERR_MSG,
            CONFIG_MAP_KEY_FMT,
            &["key.name", "KEY_NAME", "key-name"],
        ));
    }
    if s == "." {
        errs.push("must not be '.'".to_string());
    } else if s == ".." {
        errs.push("must not be '..'".to_string());
    } else if s.starts_with("..") {
        errs.push("must not start with '..'".to_string());
    }
    errs
}

/// `maskTrailingDash`: for generateName prefixes, a trailing dash is replaced so that the
/// prefix validates. The `len-2` slice is an upstream quirk, reproduced on bytes.
fn mask_trailing_dash(name: &str) -> String {
    if name.len() > 1 && name.ends_with('-') {
        let b = name.as_bytes();
        let mut out = b[..b.len() - 2].to_vec();
        out.push(b'a');
        String::from_utf8_lossy(&out).into_owned()
    } else {
        name.to_string()
    }
}

/// `NameIsDNSSubdomain` (Deployment, ReplicaSet, Pod, Node, ServiceAccount names).
fn name_is_dns_subdomain(name: &str, prefix: bool) -> Vec<String> {
    if prefix {
        dns1123_subdomain_errors(&mask_trailing_dash(name))
    } else {
        dns1123_subdomain_errors(name)
    }
}

/// `NameIsDNSLabel` (= `ValidateNamespaceName`).
fn name_is_dns_label(name: &str, prefix: bool) -> Vec<String> {
    if prefix {
        dns1123_label_errors(&mask_trailing_dash(name))
    } else {
        dns1123_label_errors(name)
    }
}

// =============================================================================================
// JSON access helpers (graceful on missing or mistyped data)
// =============================================================================================

fn get<'a>(v: Option<&'a Value>, key: &str) -> Option<&'a Value> {
    v.and_then(|x| x.get(key)).filter(|x| !x.is_null())
}

fn get_str<'a>(v: Option<&'a Value>, key: &str) -> &'a str {
    get(v, key).and_then(Value::as_str).unwrap_or("")
}

fn get_i64(v: Option<&Value>, key: &str) -> Option<i64> {
    get(v, key).and_then(|x| x.as_i64().or_else(|| x.as_f64().map(|f| f as i64)))
}

fn get_bool(v: Option<&Value>, key: &str) -> bool {
    get(v, key).and_then(Value::as_bool).unwrap_or(false)
}

fn get_arr<'a>(v: Option<&'a Value>, key: &str) -> &'a [Value] {
    get(v, key)
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or(&[])
}

/// A string map (labels, annotations, nodeSelector) as sorted pairs. A non-string value (which
/// the decoder would reject) is kept as its JSON text.
fn string_map(v: Option<&Value>) -> Vec<(String, String)> {
    match v {
        Some(Value::Object(m)) => m
            .iter()
            .map(|(k, x)| {
                (
                    k.clone(),
                    x.as_str().map(str::to_string).unwrap_or_else(|| go_json(x)),
                )
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// The JSON rendering of a `map[string]string`: `null` when absent.
fn map_json(v: Option<&Value>) -> Value {
    match v {
        Some(Value::Object(m)) => Value::Object(m.clone()),
        _ => Value::Null,
    }
}

/// `[]string` in Go's `%#v`: `[]string{"a", "b"}`.
fn go_string_slice(items: &[String]) -> String {
    let q: Vec<String> = items.iter().map(|s| go_quote(s)).collect();
    format!("[]string{{{}}}", q.join(", "))
}

/// Render a Go struct as JSON in field declaration order; `None` fields are omitted
/// (`omitempty`), values are already-rendered JSON.
fn go_struct(fields: &[(&str, Option<String>)]) -> String {
    let parts: Vec<String> = fields
        .iter()
        .filter_map(|(k, v)| v.as_ref().map(|v| format!("{}:{}", go_json(&json!(k)), v)))
        .collect();
    format!("{{{}}}", parts.join(","))
}

/// Semantic equality (`apiequality.Semantic.DeepEqual`): nil and empty slices/maps are equal,
/// and so are a missing field and `null`.
fn semantic_eq(a: Option<&Value>, b: Option<&Value>) -> bool {
    normalize(a) == normalize(b)
}

fn normalize(v: Option<&Value>) -> Value {
    match v {
        None | Some(Value::Null) => Value::Null,
        Some(Value::Array(a)) if a.is_empty() => Value::Null,
        Some(Value::Object(m)) if m.is_empty() => Value::Null,
        Some(Value::Array(a)) => Value::Array(a.iter().map(|x| normalize(Some(x))).collect()),
        Some(Value::Object(m)) => {
            let mut out = Map::new();
            for (k, x) in m {
                let n = normalize(Some(x));
                if !n.is_null() {
                    out.insert(k.clone(), n);
                }
            }
            if out.is_empty() {
                Value::Null
            } else {
                Value::Object(out)
            }
        }
        Some(x) => x.clone(),
    }
}

fn nonnegative(value: i64, path: &Path) -> Errs {
    if value < 0 {
        vec![FieldError::invalid(
            path.as_str(),
            json!(value),
            IS_NEGATIVE_ERROR_MSG,
        )]
    } else {
        Vec::new()
    }
}

// =============================================================================================
// Labels, annotations, selectors
// =============================================================================================

/// `ValidateLabelName`.
fn validate_label_name(name: &str, path: &Path) -> Errs {
    qualified_name_errors(name)
        .into_iter()
        .map(|m| FieldError::invalid(path.as_str(), json!(name), &m))
        .collect()
}

/// `ValidateQualifiedName` of core validation (same messages as `ValidateLabelName`).
fn validate_qualified_name(value: &str, path: &Path) -> Errs {
    validate_label_name(value, path)
}

/// `ValidateLabels`: every error is reported on the map's path (not per key).
fn validate_labels(labels: Option<&Value>, path: &Path) -> Errs {
    let mut errs = Vec::new();
    for (k, v) in string_map(labels) {
        errs.extend(validate_label_name(&k, path));
        for m in label_value_errors(&v) {
            errs.push(FieldError::invalid(path.as_str(), json!(v), &m));
        }
    }
    errs
}

/// `ValidateAnnotations`: keys are qualified names (case-insensitive), total size <= 256 KiB.
fn validate_annotations(annotations: Option<&Value>, path: &Path) -> Errs {
    let mut errs = Vec::new();
    let pairs = string_map(annotations);
    for (k, _) in &pairs {
        for m in qualified_name_errors(&k.to_lowercase()) {
            errs.push(FieldError::invalid(path.as_str(), json!(k), &m));
        }
    }
    let total: i64 = pairs.iter().map(|(k, v)| (k.len() + v.len()) as i64).sum();
    if total > TOTAL_ANNOTATION_SIZE_LIMIT_B {
        errs.push(FieldError::too_long(
            path.as_str(),
            TOTAL_ANNOTATION_SIZE_LIMIT_B,
        ));
    }
    errs
}

/// `ValidateLabelSelector` with `AllowInvalidLabelValueInSelector: false`.
fn validate_label_selector(sel: Option<&Value>, path: &Path) -> Errs {
    let mut errs = Vec::new();
    let Some(sel) = sel.filter(|s| !s.is_null()) else {
        return errs;
    };
    errs.extend(validate_labels(
        sel.get("matchLabels"),
        &path.child("matchLabels"),
    ));
    for (i, expr) in get_arr(Some(sel), "matchExpressions").iter().enumerate() {
        let p = path.child("matchExpressions").index(i);
        let op = get_str(Some(expr), "operator");
        let values = get_arr(Some(expr), "values");
        match op {
            "In" | "NotIn" => {
                if values.is_empty() {
                    errs.push(FieldError::required(
                        p.child("values").as_str(),
                        "must be specified when `operator` is 'In' or 'NotIn'",
                    ));
                }
            }
            "Exists" | "DoesNotExist" => {
                if !values.is_empty() {
                    errs.push(FieldError::forbidden(
                        p.child("values").as_str(),
                        "may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
                    ));
                }
            }
            _ => errs.push(
                FieldError::invalid(
                    p.child("operator").as_str(),
                    json!(op),
                    "not a valid selector operator",
                )
                .json_rendered(),
            ),
        }
        errs.extend(validate_label_name(
            get_str(Some(expr), "key"),
            &p.child("key"),
        ));
        for (vi, v) in values.iter().enumerate() {
            let v = v.as_str().unwrap_or("");
            for m in label_value_errors(v) {
                errs.push(FieldError::invalid(
                    p.child("values").index(vi).as_str(),
                    json!(v),
                    &m,
                ));
            }
        }
    }
    errs
}

/// The JSON of a `metav1.LabelSelector` (declaration order, omitempty).
fn label_selector_json(sel: Option<&Value>) -> String {
    let Some(sel) = sel.filter(|s| !s.is_null()) else {
        return "null".into();
    };
    let ml = match sel.get("matchLabels") {
        Some(Value::Object(m)) if !m.is_empty() => Some(go_json(&Value::Object(m.clone()))),
        _ => None,
    };
    let exprs = get_arr(Some(sel), "matchExpressions");
    let me = if exprs.is_empty() {
        None
    } else {
        let items: Vec<String> = exprs
            .iter()
            .map(|e| {
                let values = get_arr(Some(e), "values");
                go_struct(&[
                    ("key", Some(go_json(&json!(get_str(Some(e), "key"))))),
                    (
                        "operator",
                        Some(go_json(&json!(get_str(Some(e), "operator")))),
                    ),
                    (
                        "values",
                        if values.is_empty() {
                            None
                        } else {
                            Some(go_json(&Value::Array(values.to_vec())))
                        },
                    ),
                ])
            })
            .collect();
        Some(format!("[{}]", items.join(",")))
    };
    go_struct(&[("matchLabels", ml), ("matchExpressions", me)])
}

/// A parsed `labels.Selector`.
enum Selector {
    /// `labels.Nothing()`: a nil selector matches nothing (and is not "empty").
    Nothing,
    /// `labels.Everything()`: `{}` matches everything (and is "empty").
    Everything,
    Requirements(Vec<(String, String, Vec<String>)>),
}

impl Selector {
    fn is_empty(&self) -> bool {
        matches!(self, Selector::Everything)
            || matches!(self, Selector::Requirements(r) if r.is_empty())
    }

    fn matches(&self, labels: &BTreeMap<String, String>) -> bool {
        match self {
            Selector::Nothing => false,
            Selector::Everything => true,
            Selector::Requirements(reqs) => reqs.iter().all(|(key, op, values)| {
                let got = labels.get(key);
                match op.as_str() {
                    "=" | "In" => got.is_some_and(|v| values.contains(v)),
                    "NotIn" => got.is_none_or(|v| !values.contains(v)),
                    "Exists" => got.is_some(),
                    "DoesNotExist" => got.is_none(),
                    _ => false,
                }
            }),
        }
    }
}

/// `metav1.LabelSelectorAsSelector`: fails when a requirement would be invalid
/// (`labels.NewRequirement` checks the key, the value count and every value).
fn label_selector_as_selector(sel: Option<&Value>) -> Result<Selector, ()> {
    let Some(sel) = sel.filter(|s| !s.is_null()) else {
        return Ok(Selector::Nothing);
    };
    let ml = string_map(sel.get("matchLabels"));
    let exprs = get_arr(Some(sel), "matchExpressions");
    if ml.is_empty() && exprs.is_empty() {
        return Ok(Selector::Everything);
    }
    let mut reqs = Vec::new();
    for (k, v) in ml {
        if !qualified_name_errors(&k).is_empty() || !label_value_errors(&v).is_empty() {
            return Err(());
        }
        reqs.push((k, "=".to_string(), vec![v]));
    }
    for e in exprs {
        let key = get_str(Some(e), "key").to_string();
        let op = get_str(Some(e), "operator").to_string();
        let values: Vec<String> = get_arr(Some(e), "values")
            .iter()
            .map(|v| v.as_str().unwrap_or("").to_string())
            .collect();
        let count_ok = match op.as_str() {
            "In" | "NotIn" => !values.is_empty(),
            "Exists" | "DoesNotExist" => values.is_empty(),
            _ => return Err(()),
        };
        if !count_ok
            || !qualified_name_errors(&key).is_empty()
            || values.iter().any(|v| !label_value_errors(v).is_empty())
        {
            return Err(());
        }
        reqs.push((key, op, values));
    }
    Ok(Selector::Requirements(reqs))
}

fn labels_of(v: Option<&Value>) -> BTreeMap<String, String> {
    string_map(v).into_iter().collect()
}

// =============================================================================================
// ObjectMeta
// =============================================================================================

type NameFn = fn(&str, bool) -> Vec<String>;

/// `ValidateObjectMeta` (core wrapper: also `validateKubeFinalizerName` per finalizer).
fn validate_object_meta(obj: &Value, namespaced: bool, name_fn: NameFn) -> Errs {
    let path = Path::new("metadata");
    let meta = obj.get("metadata");
    let mut errs = Vec::new();

    let generate_name = get_str(meta, "generateName");
    if !generate_name.is_empty() {
        for m in name_fn(generate_name, true) {
            errs.push(FieldError::invalid(
                path.child("generateName").as_str(),
                json!(generate_name),
                &m,
            ));
        }
    }
    let name = get_str(meta, "name");
    if name.is_empty() {
        errs.push(FieldError::required(
            path.child("name").as_str(),
            "name or generateName is required",
        ));
    } else {
        for m in name_fn(name, false) {
            errs.push(FieldError::invalid(
                path.child("name").as_str(),
                json!(name),
                &m,
            ));
        }
    }
    errs.extend(validate_object_meta_common(meta, namespaced, &path));
    errs.extend(validate_kube_finalizer_names(meta, &path));
    errs
}

/// `validateObjectMetaAccessorWithOptsCommon`.
fn validate_object_meta_common(meta: Option<&Value>, namespaced: bool, path: &Path) -> Errs {
    let mut errs = Vec::new();
    let ns = get_str(meta, "namespace");
    if namespaced {
        if ns.is_empty() {
            errs.push(FieldError::required(path.child("namespace").as_str(), ""));
        } else {
            for m in name_is_dns_label(ns, false) {
                errs.push(FieldError::invalid(
                    path.child("namespace").as_str(),
                    json!(ns),
                    &m,
                ));
            }
        }
    } else if !ns.is_empty() {
        errs.push(FieldError::forbidden(
            path.child("namespace").as_str(),
            "not allowed on this type",
        ));
    }
    errs.extend(nonnegative(
        get_i64(meta, "generation").unwrap_or(0),
        &path.child("generation"),
    ));
    errs.extend(validate_labels(get(meta, "labels"), &path.child("labels")));
    errs.extend(validate_annotations(
        get(meta, "annotations"),
        &path.child("annotations"),
    ));
    errs.extend(validate_owner_references(
        get_arr(meta, "ownerReferences"),
        &path.child("ownerReferences"),
    ));
    errs.extend(validate_finalizers(
        get_arr(meta, "finalizers"),
        &path.child("finalizers"),
    ));
    errs
}

/// The JSON of a `metav1.OwnerReference` (declaration order, omitempty pointers).
fn owner_reference_json(r: &Value) -> String {
    let s = |k: &str| Some(go_json(&json!(get_str(Some(r), k))));
    let b = |k: &str| get(Some(r), k).map(go_json);
    go_struct(&[
        ("apiVersion", s("apiVersion")),
        ("kind", s("kind")),
        ("name", s("name")),
        ("uid", s("uid")),
        ("controller", b("controller")),
        ("blockOwnerDeletion", b("blockOwnerDeletion")),
    ])
}

/// `ValidateOwnerReferences`.
fn validate_owner_references(refs: &[Value], path: &Path) -> Errs {
    let mut errs = Vec::new();
    let mut first_controller = String::new();
    for r in refs {
        let api_version = get_str(Some(r), "apiVersion");
        let kind = get_str(Some(r), "kind");
        // schema.FromAPIVersionAndKind: "v1" -> version v1; "apps/v1" -> group/version; more
        // than one slash does not parse, leaving the version empty.
        let (group, version) = match api_version.matches('/').count() {
            0 => ("", api_version),
            1 => api_version.split_once('/').unwrap_or(("", "")),
            _ => ("", ""),
        };
        if version.is_empty() {
            errs.push(FieldError::invalid(
                path.child("apiVersion").as_str(),
                json!(api_version),
                "version must not be empty",
            ));
        }
        if kind.is_empty() {
            errs.push(FieldError::invalid(
                path.child("kind").as_str(),
                json!(kind),
                "must not be empty",
            ));
        }
        let name = get_str(Some(r), "name");
        if name.is_empty() {
            errs.push(FieldError::invalid(
                path.child("name").as_str(),
                json!(name),
                "must not be empty",
            ));
        }
        let uid = get_str(Some(r), "uid");
        if uid.is_empty() {
            errs.push(
                FieldError::invalid(path.child("uid").as_str(), json!(uid), "must not be empty")
                    .json_rendered(),
            );
        }
        if group.is_empty() && version == "v1" && kind == "Event" {
            errs.push(
                FieldError::invalid(
                    path.as_str(),
                    r.clone(),
                    "/v1, Kind=Event is disallowed from being an owner",
                )
                .with_raw_value(owner_reference_json(r)),
            );
        }
        if get_bool(Some(r), "controller") {
            let cur = format!("{}/{}", kind, name);
            if !first_controller.is_empty() {
                let all: Vec<String> = refs.iter().map(owner_reference_json).collect();
                errs.push(
                    FieldError::invalid(
                        path.as_str(),
                        Value::Array(refs.to_vec()),
                        &format!(
                            "Only one reference can have Controller set to true. Found \"true\" in references for {} and {}",
                            first_controller, cur
                        ),
                    )
                    .with_raw_value(format!("[{}]", all.join(","))),
                );
            } else {
                first_controller = cur;
            }
        }
    }
    errs
}

/// `ValidateFinalizers`: qualified names, and `orphan` excludes `foregroundDeletion`.
fn validate_finalizers(finalizers: &[Value], path: &Path) -> Errs {
    let mut errs = Vec::new();
    let names: Vec<String> = finalizers
        .iter()
        .map(|f| f.as_str().unwrap_or("").to_string())
        .collect();
    for f in &names {
        for m in qualified_name_errors(f) {
            errs.push(FieldError::invalid(path.as_str(), json!(f), &m));
        }
    }
    if names.iter().any(|f| f == "orphan") && names.iter().any(|f| f == "foregroundDeletion") {
        errs.push(FieldError::invalid(
            path.as_str(),
            json!(names),
            "finalizer orphan and foregroundDeletion cannot be both set",
        ));
    }
    errs
}

/// `validateKubeFinalizerName`: an unqualified finalizer must be a standard one.
fn kube_finalizer_name_errors(name: &str, path: &Path) -> Errs {
    if !name.contains('/') && !matches!(name, "kubernetes" | "orphan" | "foregroundDeletion") {
        vec![FieldError::invalid(
            path.as_str(),
            json!(name),
            "name is neither a standard finalizer name nor is it fully qualified",
        )]
    } else {
        Vec::new()
    }
}

fn validate_kube_finalizer_names(meta: Option<&Value>, path: &Path) -> Errs {
    let mut errs = Vec::new();
    for (i, f) in get_arr(meta, "finalizers").iter().enumerate() {
        errs.extend(kube_finalizer_name_errors(
            f.as_str().unwrap_or(""),
            &path.child("finalizers").index(i),
        ));
    }
    errs
}

/// `ValidateObjectMetaUpdate` (core wrapper). The caller must have filled `resourceVersion` for
/// unconditional updates, as the generic registry does before validating.
fn validate_object_meta_update(new: &Value, old: &Value) -> Errs {
    let path = Path::new("metadata");
    let nm = new.get("metadata");
    let om = old.get("metadata");
    let mut errs = Vec::new();

    if get(om, "deletionTimestamp").is_some() {
        let old_f: BTreeSet<String> = get_arr(om, "finalizers")
            .iter()
            .filter_map(|f| f.as_str().map(str::to_string))
            .collect();
        let extra: BTreeSet<String> = get_arr(nm, "finalizers")
            .iter()
            .filter_map(|f| f.as_str().map(str::to_string))
            .filter(|f| !old_f.contains(f))
            .collect();
        if !extra.is_empty() {
            let list: Vec<String> = extra.into_iter().collect();
            errs.push(FieldError::forbidden(
                path.child("finalizers").as_str(),
                &format!(
                    "no new finalizers can be added if the object is being deleted, found new finalizers {}",
                    go_string_slice(&list)
                ),
            ));
        }
    }
    if get_str(nm, "resourceVersion").is_empty() {
        errs.push(FieldError::invalid(
            path.child("resourceVersion").as_str(),
            json!(""),
            "must be specified for an update",
        ));
    }
    let (ng, og) = (
        get_i64(nm, "generation").unwrap_or(0),
        get_i64(om, "generation").unwrap_or(0),
    );
    if ng < og {
        errs.push(FieldError::invalid(
            path.child("generation").as_str(),
            json!(ng),
            "must not be decremented",
        ));
    }
    // Immutable fields; a typedef'd or struct value renders through JSON.
    for (key, json_rendered, default) in [
        ("name", false, json!("")),
        ("namespace", false, json!("")),
        ("uid", true, json!("")),
        ("creationTimestamp", true, Value::Null),
        ("deletionTimestamp", true, Value::Null),
        ("deletionGracePeriodSeconds", true, Value::Null),
    ] {
        let nv = get(nm, key).cloned().unwrap_or(default.clone());
        let ov = get(om, key).cloned().unwrap_or(default);
        if nv != ov {
            let mut e =
                FieldError::invalid(path.child(key).as_str(), nv, FIELD_IMMUTABLE_ERROR_MSG);
            if json_rendered {
                e = e.json_rendered();
            }
            errs.push(e);
        }
    }
    errs.extend(validate_labels(get(nm, "labels"), &path.child("labels")));
    errs.extend(validate_annotations(
        get(nm, "annotations"),
        &path.child("annotations"),
    ));
    errs.extend(validate_owner_references(
        get_arr(nm, "ownerReferences"),
        &path.child("ownerReferences"),
    ));
    errs.extend(validate_finalizers(
        get_arr(nm, "finalizers"),
        &path.child("finalizers"),
    ));
    errs.extend(validate_kube_finalizer_names(nm, &path));
    errs
}

// =============================================================================================
// apps/v1 Deployment and ReplicaSet
// =============================================================================================

/// `ValidateDeployment`: object meta (DNS-subdomain name), then the spec.
pub fn validate_deployment(obj: &Value) -> Vec<FieldError> {
    let mut errs = validate_object_meta(obj, true, name_is_dns_subdomain);
    errs.extend(validate_deployment_spec(obj.get("spec")));
    errs
}

/// `ValidateDeploymentUpdate` plus the registry's selector immutability (apps/v1).
pub fn validate_deployment_update(new: &Value, old: &Value) -> Vec<FieldError> {
    let mut errs = validate_object_meta_update(new, old);
    errs.extend(validate_deployment_spec(new.get("spec")));
    errs.extend(validate_selector_immutable(new, old));
    errs
}

/// `ValidateImmutableField(newSelector, oldSelector, spec.selector)`.
fn validate_selector_immutable(new: &Value, old: &Value) -> Errs {
    let ns = new.get("spec").and_then(|s| s.get("selector"));
    let os = old.get("spec").and_then(|s| s.get("selector"));
    if semantic_eq(ns, os) {
        return Vec::new();
    }
    vec![FieldError::invalid(
        "spec.selector",
        ns.cloned().unwrap_or(Value::Null),
        FIELD_IMMUTABLE_ERROR_MSG,
    )
    .with_raw_value(label_selector_json(ns))]
}

/// `ValidateDeploymentSpec`.
fn validate_deployment_spec(spec: Option<&Value>) -> Errs {
    let path = Path::new("spec");
    let mut errs = Vec::new();
    errs.extend(nonnegative(
        get_i64(spec, "replicas").unwrap_or(0),
        &path.child("replicas"),
    ));
    errs.extend(validate_selector_and_template(spec, &path, "deployment"));
    errs.extend(validate_deployment_strategy(
        get(spec, "strategy"),
        &path.child("strategy"),
    ));
    let min_ready = get_i64(spec, "minReadySeconds").unwrap_or(0);
    errs.extend(nonnegative(min_ready, &path.child("minReadySeconds")));
    if let Some(rhl) = get_i64(spec, "revisionHistoryLimit") {
        // Zero is a valid revisionHistoryLimit.
        errs.extend(nonnegative(rhl, &path.child("revisionHistoryLimit")));
    }
    if let Some(pds) = get_i64(spec, "progressDeadlineSeconds") {
        errs.extend(nonnegative(pds, &path.child("progressDeadlineSeconds")));
        if pds <= min_ready {
            errs.push(FieldError::invalid(
                path.child("progressDeadlineSeconds").as_str(),
                json!(pds),
                "must be greater than minReadySeconds",
            ));
        }
    }
    errs
}

/// The selector checks shared by Deployment and ReplicaSet, then the template. (Upstream's
/// ReplicaSet message also says "for deployment"; kubesim keeps that.)
fn validate_selector_and_template(spec: Option<&Value>, path: &Path, _kind: &str) -> Errs {
    let mut errs = Vec::new();
    let sel = get(spec, "selector");
    match sel {
        None => errs.push(FieldError::required(path.child("selector").as_str(), "")),
        Some(s) => {
            errs.extend(validate_label_selector(Some(s), &path.child("selector")));
            let ml = s
                .get("matchLabels")
                .and_then(Value::as_object)
                .map_or(0, Map::len);
            let me = get_arr(Some(s), "matchExpressions").len();
            if ml + me == 0 {
                errs.push(
                    FieldError::invalid(
                        path.child("selector").as_str(),
                        s.clone(),
                        "empty selector is invalid for deployment",
                    )
                    .with_raw_value(label_selector_json(Some(s))),
                );
            }
        }
    }
    match label_selector_as_selector(sel) {
        Err(()) => errs.push(
            FieldError::invalid(
                path.child("selector").as_str(),
                sel.cloned().unwrap_or(Value::Null),
                "invalid label selector",
            )
            .with_raw_value(label_selector_json(sel)),
        ),
        Ok(selector) => errs.extend(validate_pod_template_spec_for_replica_set(
            get(spec, "template"),
            &selector,
            &path.child("template"),
        )),
    }
    errs
}

/// `ValidatePodTemplateSpecForReplicaSet`.
fn validate_pod_template_spec_for_replica_set(
    tpl: Option<&Value>,
    selector: &Selector,
    path: &Path,
) -> Errs {
    let mut errs = Vec::new();
    let meta = get(tpl, "metadata");
    if !selector.is_empty() && !selector.matches(&labels_of(get(meta, "labels"))) {
        errs.push(FieldError::invalid(
            path.child("metadata").child("labels").as_str(),
            map_json(get(meta, "labels")),
            "`selector` does not match template `labels`",
        ));
    }
    errs.extend(validate_pod_template_spec(tpl, path));
    let spec = get(tpl, "spec");
    let rp = get_str(spec, "restartPolicy");
    if rp != "Always" {
        errs.push(
            FieldError::not_supported(
                path.child("spec").child("restartPolicy").as_str(),
                json!(rp),
                &["Always"],
            )
            .json_rendered(),
        );
    }
    if get(spec, "activeDeadlineSeconds").is_some() {
        errs.push(FieldError::forbidden(
            path.child("spec").child("activeDeadlineSeconds").as_str(),
            "activeDeadlineSeconds in ReplicaSet is not Supported",
        ));
    }
    errs
}

/// `ValidatePodTemplateSpec`. Note the upstream paths: template labels are reported at
/// `<template>.labels` (not `.metadata.labels`).
fn validate_pod_template_spec(tpl: Option<&Value>, path: &Path) -> Errs {
    let mut errs = Vec::new();
    let meta = get(tpl, "metadata");
    let spec = get(tpl, "spec");
    errs.extend(validate_labels(get(meta, "labels"), &path.child("labels")));
    errs.extend(validate_annotations(
        get(meta, "annotations"),
        &path.child("annotations"),
    ));
    errs.extend(validate_pod_specific_annotations(
        get(meta, "annotations"),
        spec,
        &path.child("annotations"),
    ));
    errs.extend(validate_pod_spec(spec, None, &path.child("spec"), false));
    if !get_arr(spec, "ephemeralContainers").is_empty() {
        errs.push(FieldError::forbidden(
            path.child("spec").child("ephemeralContainers").as_str(),
            "ephemeral containers not allowed in pod template",
        ));
    }
    errs
}

/// The JSON of an `intstr.IntOrString` as the internal type holds it (a missing v1 pointer
/// converts to the zero value, the integer 0).
fn int_or_string(v: Option<&Value>) -> Value {
    match v {
        Some(Value::Number(n)) => Value::Number(n.clone()),
        Some(Value::String(s)) => Value::String(s.clone()),
        _ => json!(0),
    }
}

/// `getIntOrPercentValue`: a valid percent gives its number; any other string goes through
/// `strconv.Atoi` and counts as 0 when that fails.
fn int_or_percent_value(v: &Value) -> i64 {
    match v {
        Value::String(s) => {
            if percent_errors(s).is_empty() {
                s[..s.len() - 1].parse::<i64>().unwrap_or(0)
            } else {
                s.parse::<i64>().unwrap_or(0)
            }
        }
        Value::Number(n) => n.as_i64().unwrap_or(0),
        _ => 0,
    }
}

/// `ValidatePositiveIntOrPercent`.
fn validate_positive_int_or_percent(v: &Value, path: &Path) -> Errs {
    match v {
        Value::String(s) => percent_errors(s)
            .into_iter()
            .map(|m| FieldError::invalid(path.as_str(), v.clone(), &m))
            .collect(),
        Value::Number(n) => nonnegative(n.as_i64().unwrap_or(0), path),
        _ => Vec::new(),
    }
}

/// `IsNotMoreThan100Percent`.
fn not_more_than_100_percent(v: &Value, path: &Path) -> Errs {
    if let Value::String(s) = v {
        if percent_errors(s).is_empty() && s[..s.len() - 1].parse::<i64>().map_or(true, |n| n > 100)
        {
            return vec![FieldError::invalid(
                path.as_str(),
                v.clone(),
                "must not be greater than 100%",
            )];
        }
    }
    Vec::new()
}

/// The internal `apps.DeploymentStrategy` as Go's JSON renders it (no JSON tags).
fn deployment_strategy_internal_json(strategy: Option<&Value>) -> String {
    let ru = get(strategy, "rollingUpdate").map(|ru| {
        go_struct(&[
            (
                "MaxUnavailable",
                Some(go_json(&int_or_string(ru.get("maxUnavailable")))),
            ),
            (
                "MaxSurge",
                Some(go_json(&int_or_string(ru.get("maxSurge")))),
            ),
        ])
    });
    go_struct(&[
        ("Type", Some(go_json(&json!(get_str(strategy, "type"))))),
        ("RollingUpdate", Some(ru.unwrap_or_else(|| "null".into()))),
    ])
}

/// `ValidateDeploymentStrategy`.
fn validate_deployment_strategy(strategy: Option<&Value>, path: &Path) -> Errs {
    let mut errs = Vec::new();
    let ru = get(strategy, "rollingUpdate");
    match get_str(strategy, "type") {
        "Recreate" => {
            if ru.is_some() {
                errs.push(FieldError::forbidden(
                    path.child("rollingUpdate").as_str(),
                    "may not be specified when strategy `type` is 'Recreate'",
                ));
            }
        }
        "RollingUpdate" => match ru {
            None => errs.push(FieldError::required(
                path.child("rollingUpdate").as_str(),
                "this should be defaulted and never be nil",
            )),
            Some(ru) => errs.extend(validate_rolling_update_deployment(
                ru,
                &path.child("rollingUpdate"),
            )),
        },
        t => errs.push(
            FieldError::not_supported(
                path.as_str(),
                json!({"type": t}),
                &["Recreate", "RollingUpdate"],
            )
            .with_raw_value(deployment_strategy_internal_json(strategy)),
        ),
    }
    errs
}

/// `ValidateRollingUpdateDeployment`.
fn validate_rolling_update_deployment(ru: &Value, path: &Path) -> Errs {
    let mut errs = Vec::new();
    let mu = int_or_string(ru.get("maxUnavailable"));
    let ms = int_or_string(ru.get("maxSurge"));
    errs.extend(validate_positive_int_or_percent(
        &mu,
        &path.child("maxUnavailable"),
    ));
    errs.extend(validate_positive_int_or_percent(
        &ms,
        &path.child("maxSurge"),
    ));
    if int_or_percent_value(&mu) == 0 && int_or_percent_value(&ms) == 0 {
        // Both MaxSurge and MaxUnavailable cannot be zero.
        errs.push(FieldError::invalid(
            path.child("maxUnavailable").as_str(),
            mu.clone(),
            "may not be 0 when `maxSurge` is 0",
        ));
    }
    errs.extend(not_more_than_100_percent(
        &mu,
        &path.child("maxUnavailable"),
    ));
    errs
}

/// `ValidateReplicaSet`.
pub fn validate_replica_set(obj: &Value) -> Vec<FieldError> {
    let mut errs = validate_object_meta(obj, true, name_is_dns_subdomain);
    errs.extend(validate_replica_set_spec(obj.get("spec")));
    errs
}

/// `ValidateReplicaSetUpdate` plus the registry's selector immutability (apps/v1).
pub fn validate_replica_set_update(new: &Value, old: &Value) -> Vec<FieldError> {
    let mut errs = validate_object_meta_update(new, old);
    errs.extend(validate_replica_set_spec(new.get("spec")));
    errs.extend(validate_selector_immutable(new, old));
    errs
}

/// `ValidateReplicaSetSpec`.
fn validate_replica_set_spec(spec: Option<&Value>) -> Errs {
    let path = Path::new("spec");
    let mut errs = Vec::new();
    errs.extend(nonnegative(
        get_i64(spec, "replicas").unwrap_or(0),
        &path.child("replicas"),
    ));
    errs.extend(nonnegative(
        get_i64(spec, "minReadySeconds").unwrap_or(0),
        &path.child("minReadySeconds"),
    ));
    errs.extend(validate_selector_and_template(spec, &path, "replicaset"));
    errs
}

// =============================================================================================
// Pod
// =============================================================================================

/// `ValidatePodCreate`.
pub fn validate_pod(obj: &Value) -> Vec<FieldError> {
    let mut errs = validate_pod_metadata_and_spec(obj);
    let spec = get(Some(obj), "spec");
    if !get_arr(spec, "ephemeralContainers").is_empty() {
        errs.push(FieldError::forbidden(
            "spec.ephemeralContainers",
            "cannot be set on create",
        ));
    }
    if !get_str(spec, "nodeName").is_empty() && !get_arr(spec, "schedulingGates").is_empty() {
        errs.push(FieldError::forbidden(
            "spec.nodeName",
            "cannot be set until all schedulingGates have been cleared",
        ));
    }
    errs
}

/// `validatePodMetadataAndSpec`.
fn validate_pod_metadata_and_spec(obj: &Value) -> Errs {
    let meta_path = Path::new("metadata");
    let spec_path = Path::new("spec");
    let meta = get(Some(obj), "metadata");
    let spec = get(Some(obj), "spec");
    let mut errs = validate_object_meta(obj, true, name_is_dns_subdomain);
    errs.extend(validate_pod_specific_annotations(
        get(meta, "annotations"),
        spec,
        &meta_path.child("annotations"),
    ));
    errs.extend(validate_pod_spec(spec, meta, &spec_path, true));

    // Pod-only checks (not templates), kept apart upstream for backwards compatibility.
    if get_str(spec, "serviceAccountName").is_empty() {
        for (vi, vol) in get_arr(spec, "volumes").iter().enumerate() {
            for (si, src) in get_arr(get(Some(vol), "projected"), "sources")
                .iter()
                .enumerate()
            {
                if get(Some(src), "serviceAccountToken").is_some() {
                    let p = spec_path
                        .child("volumes")
                        .index(vi)
                        .child("projected")
                        .child("sources")
                        .index(si)
                        .child("serviceAccountToken");
                    errs.push(FieldError::forbidden(
                        p.as_str(),
                        "must not be specified when serviceAccountName is not set",
                    ));
                }
            }
        }
    }
    for key in ["containers", "initContainers"] {
        for (i, c) in get_arr(spec, key).iter().enumerate() {
            let image = get_str(Some(c), "image");
            if image.len() != image.trim().len() {
                errs.push(FieldError::invalid(
                    spec_path.child(key).index(i).child("image").as_str(),
                    json!(image),
                    "must not have leading or trailing whitespace",
                ));
            }
        }
    }
    errs
}

/// `ValidatePodSpecificAnnotations` (mirror pods, pod-deletion-cost, seccomp and AppArmor
/// annotations; the alpha tolerations annotation is not modelled).
fn validate_pod_specific_annotations(
    annotations: Option<&Value>,
    spec: Option<&Value>,
    path: &Path,
) -> Errs {
    let mut errs = Vec::new();
    let ann: BTreeMap<String, String> = string_map(annotations).into_iter().collect();
    if let Some(v) = ann.get("kubernetes.io/config.mirror") {
        if get_str(spec, "nodeName").is_empty() {
            errs.push(FieldError::invalid(
                path.key("kubernetes.io/config.mirror").as_str(),
                json!(v),
                "must set spec.nodeName if mirror pod annotation is set",
            ));
        }
    }
    if let Some(v) = ann.get("controller.kubernetes.io/pod-deletion-cost") {
        if !valid_deletion_cost(v) {
            errs.push(FieldError::invalid(
                path.key("controller.kubernetes.io/pod-deletion-cost")
                    .as_str(),
                json!(v),
                "must be a 32bit integer",
            ));
        }
    }
    // ValidateSeccompPodAnnotations.
    if let Some(p) = ann.get("seccomp.security.alpha.kubernetes.io/pod") {
        errs.extend(validate_seccomp_profile_annotation(
            p,
            &path.child("seccomp.security.alpha.kubernetes.io/pod"),
        ));
    }
    for (k, p) in &ann {
        if k.starts_with("container.seccomp.security.alpha.kubernetes.io/") {
            errs.extend(validate_seccomp_profile_annotation(p, &path.child(k)));
        }
    }
    // ValidateAppArmorPodAnnotations.
    for (k, p) in &ann {
        let Some(container) = k.strip_prefix("container.apparmor.security.beta.kubernetes.io/")
        else {
            continue;
        };
        if !pod_spec_has_container(spec, container) {
            errs.push(FieldError::invalid(
                path.key(k).as_str(),
                json!(container),
                "container not found",
            ));
        }
        if !(p.is_empty()
            || p == "runtime/default"
            || p == "unconfined"
            || p.starts_with("localhost/"))
        {
            errs.push(FieldError::invalid(
                path.key(k).as_str(),
                json!(p),
                &format!("invalid AppArmor profile name: {}", go_quote(p)),
            ));
        }
    }
    errs
}

/// `GetDeletionCostFromPodAnnotations`: no `+`, no leading zeros, a 32-bit integer.
fn valid_deletion_cost(v: &str) -> bool {
    let first_ok = match v.as_bytes().first() {
        None => false,
        Some(b'-') => true,
        Some(b'0') => v == "0",
        Some(c) => c.is_ascii_digit(),
    };
    first_ok && v.parse::<i32>().is_ok()
}

fn validate_seccomp_profile_annotation(p: &str, path: &Path) -> Errs {
    if matches!(p, "runtime/default" | "docker/default" | "unconfined") {
        return Vec::new();
    }
    if let Some(local) = p.strip_prefix("localhost/") {
        return validate_local_descending_path(local, path);
    }
    vec![FieldError::invalid(
        path.as_str(),
        json!(p),
        "must be a valid seccomp profile",
    )]
}

fn pod_spec_has_container(spec: Option<&Value>, name: &str) -> bool {
    ["containers", "initContainers", "ephemeralContainers"]
        .iter()
        .any(|k| {
            get_arr(spec, k)
                .iter()
                .any(|c| get_str(Some(c), "name") == name)
        })
}

/// `validateLocalDescendingPath`: relative, without `..` elements.
fn validate_local_descending_path(target: &str, path: &Path) -> Errs {
    let mut errs = Vec::new();
    if target.starts_with('/') {
        errs.push(FieldError::invalid(
            path.as_str(),
            json!(target),
            "must be a relative path",
        ));
    }
    errs.extend(validate_path_no_backsteps(target, path));
    errs
}

/// `validatePathNoBacksteps`.
fn validate_path_no_backsteps(target: &str, path: &Path) -> Errs {
    if target.split('/').any(|p| p == "..") {
        vec![FieldError::invalid(
            path.as_str(),
            json!(target),
            "must not contain '..'",
        )]
    } else {
        Vec::new()
    }
}

/// `ValidatePodSpec`. `pod_meta` is set for a real Pod (not a template); `resource_is_pod`
/// mirrors `opts.ResourceIsPod`.
fn validate_pod_spec(
    spec: Option<&Value>,
    pod_meta: Option<&Value>,
    path: &Path,
    resource_is_pod: bool,
) -> Errs {
    let _ = pod_meta;
    let mut errs = Vec::new();
    let grace = get_i64(spec, "terminationGracePeriodSeconds");
    if grace.is_none() {
        errs.push(FieldError::required(
            path.child("terminationGracePeriodSeconds").as_str(),
            "",
        ));
    }
    let restart_policy = get_str(spec, "restartPolicy");

    let (vols, verrs) = validate_volumes(get_arr(spec, "volumes"), &path.child("volumes"));
    errs.extend(verrs);
    errs.extend(validate_containers(
        get_arr(spec, "containers"),
        &vols,
        grace,
        &path.child("containers"),
        restart_policy,
    ));
    errs.extend(validate_init_containers(
        get_arr(spec, "initContainers"),
        get_arr(spec, "containers"),
        &vols,
        grace,
        &path.child("initContainers"),
        restart_policy,
    ));
    errs.extend(validate_pod_host_network_deps(spec, path, resource_is_pod));
    errs.extend(validate_restart_policy(
        restart_policy,
        &path.child("restartPolicy"),
    ));
    errs.extend(validate_dns_policy(
        get_str(spec, "dnsPolicy"),
        &path.child("dnsPolicy"),
    ));
    errs.extend(validate_labels(
        get(spec, "nodeSelector"),
        &path.child("nodeSelector"),
    ));
    errs.extend(validate_pod_security_context(
        get(spec, "securityContext"),
        &path.child("securityContext"),
    ));
    errs.extend(validate_pod_dns_config(
        get(spec, "dnsConfig"),
        get_str(spec, "dnsPolicy"),
        &path.child("dnsConfig"),
    ));
    for (i, g) in get_arr(spec, "readinessGates").iter().enumerate() {
        errs.extend(validate_qualified_name(
            get_str(Some(g), "conditionType"),
            &path.child("readinessGates").index(i).child("conditionType"),
        ));
    }
    let mut seen_gates = BTreeSet::new();
    for (i, g) in get_arr(spec, "schedulingGates").iter().enumerate() {
        let name = get_str(Some(g), "name");
        errs.extend(validate_qualified_name(
            name,
            &path.child("schedulingGates").index(i),
        ));
        if !seen_gates.insert(name.to_string()) {
            errs.push(FieldError::duplicate(
                path.child("schedulingGates").index(i).as_str(),
                json!(name),
            ));
        }
    }
    let sa = get_str(spec, "serviceAccountName");
    if !sa.is_empty() {
        for m in name_is_dns_subdomain(sa, false) {
            errs.push(FieldError::invalid(
                path.child("serviceAccountName").as_str(),
                json!(sa),
                &m,
            ));
        }
    }
    let node = get_str(spec, "nodeName");
    if !node.is_empty() {
        for m in name_is_dns_subdomain(node, false) {
            errs.push(FieldError::invalid(
                path.child("nodeName").as_str(),
                json!(node),
                &m,
            ));
        }
    }
    if let Some(ads) = get_i64(spec, "activeDeadlineSeconds") {
        if !(1..=MAX_INT32).contains(&ads) {
            errs.push(FieldError::invalid(
                path.child("activeDeadlineSeconds").as_str(),
                json!(ads),
                &inclusive_range_error(1, MAX_INT32),
            ));
        }
    }
    for key in ["hostname", "subdomain"] {
        let v = get_str(spec, key);
        if !v.is_empty() {
            for m in dns1123_label_errors(v) {
                errs.push(FieldError::invalid(path.child(key).as_str(), json!(v), &m));
            }
        }
    }
    let tolerations = get_arr(spec, "tolerations");
    if !tolerations.is_empty() {
        errs.extend(validate_tolerations(
            tolerations,
            &path.child("tolerations"),
        ));
    }
    let pcn = get_str(spec, "priorityClassName");
    if !pcn.is_empty() {
        for m in name_is_dns_subdomain(pcn, false) {
            errs.push(FieldError::invalid(
                path.child("priorityClassName").as_str(),
                json!(pcn),
                &m,
            ));
        }
    }
    if let Some(pp) = get(spec, "preemptionPolicy") {
        let pp = pp.as_str().unwrap_or("");
        match pp {
            "PreemptLowerPriority" | "Never" => {}
            "" => errs.push(FieldError::required(
                path.child("preemptionPolicy").as_str(),
                "",
            )),
            _ => errs.push(
                FieldError::not_supported(
                    path.child("preemptionPolicy").as_str(),
                    json!(pp),
                    &["PreemptLowerPriority", "Never"],
                )
                .json_rendered(),
            ),
        }
    }
    if let Some(os) = get(spec, "os") {
        let name = get_str(Some(os), "name");
        if name.is_empty() {
            errs.push(FieldError::required(
                path.child("os").child("name").as_str(),
                "",
            ));
        } else if name != "linux" && name != "windows" {
            errs.push(
                FieldError::not_supported(
                    path.child("os").child("name").as_str(),
                    json!(name),
                    &["linux", "windows"],
                )
                .json_rendered(),
            );
        }
    }
    errs
}

/// `ValidateVolumes`: returns the names (and sources) of the volumes that validated, which
/// volume mounts may refer to.
fn validate_volumes(volumes: &[Value], path: &Path) -> (BTreeMap<String, Value>, Errs) {
    let mut errs = Vec::new();
    let mut vols = BTreeMap::new();
    let mut all_names = BTreeSet::new();
    for (i, vol) in volumes.iter().enumerate() {
        let idx = path.index(i);
        let name = get_str(Some(vol), "name");
        let mut el = validate_volume_source(vol, &idx);
        if name.is_empty() {
            el.push(FieldError::required(idx.child("name").as_str(), ""));
        } else {
            for m in dns1123_label_errors(name) {
                el.push(FieldError::invalid(
                    idx.child("name").as_str(),
                    json!(name),
                    &m,
                ));
            }
        }
        if all_names.contains(name) {
            el.push(FieldError::duplicate(
                idx.child("name").as_str(),
                json!(name),
            ));
        }
        if el.is_empty() {
            all_names.insert(name.to_string());
            vols.insert(name.to_string(), vol.clone());
        } else {
            errs.extend(el);
        }
    }
    (vols, errs)
}

/// The volume source fields, in the order `validateVolumeSource` checks them.
const VOLUME_SOURCES: &[&str] = &[
    "emptyDir",
    "hostPath",
    "gitRepo",
    "gcePersistentDisk",
    "awsElasticBlockStore",
    "secret",
    "nfs",
    "iscsi",
    "glusterfs",
    "flocker",
    "persistentVolumeClaim",
    "rbd",
    "cinder",
    "cephfs",
    "quobyte",
    "downwardAPI",
    "fc",
    "flexVolume",
    "configMap",
    "azureFile",
    "vsphereVolume",
    "photonPersistentDisk",
    "portworxVolume",
    "azureDisk",
    "storageos",
    "projected",
    "scaleIO",
    "csi",
    "ephemeral",
    "image",
];

/// `validateVolumeSource`: exactly one source, with a few per-source checks.
fn validate_volume_source(vol: &Value, path: &Path) -> Errs {
    let mut errs = Vec::new();
    let mut num = 0;
    for &src in VOLUME_SOURCES {
        let Some(s) = get(Some(vol), src) else {
            continue;
        };
        if num > 0 {
            errs.push(FieldError::forbidden(
                path.child(src).as_str(),
                "may not specify more than 1 volume type",
            ));
            continue;
        }
        num += 1;
        let p = path.child(src);
        match src {
            "hostPath" => {
                let hp = get_str(Some(s), "path");
                if hp.is_empty() {
                    errs.push(FieldError::required(p.child("path").as_str(), ""));
                } else {
                    errs.extend(validate_path_no_backsteps(hp, &p.child("path")));
                }
            }
            "secret" if get_str(Some(s), "secretName").is_empty() => {
                errs.push(FieldError::required(p.child("secretName").as_str(), ""));
            }
            "configMap" if get_str(Some(s), "name").is_empty() => {
                errs.push(FieldError::required(p.child("name").as_str(), ""));
            }
            "persistentVolumeClaim" if get_str(Some(s), "claimName").is_empty() => {
                errs.push(FieldError::required(p.child("claimName").as_str(), ""));
            }
            "emptyDir" => {
                if let Some(q) = get(Some(s), "sizeLimit") {
                    if quantity::parse(&value_text(q)).is_some_and(|q| q.nanos() < 0) {
                        errs.push(FieldError::forbidden(
                            p.child("sizeLimit").as_str(),
                            "SizeLimit field must be a valid resource quantity",
                        ));
                    }
                }
            }
            "projected" => {
                for (si, source) in get_arr(Some(s), "sources").iter().enumerate() {
                    if let Some(t) = get(Some(source), "serviceAccountToken") {
                        let tp = p.child("sources").index(si).child("serviceAccountToken");
                        let exp = get_i64(Some(t), "expirationSeconds").unwrap_or(3600);
                        if exp < 10 * 60 {
                            errs.push(FieldError::invalid(
                                tp.child("expirationSeconds").as_str(),
                                json!(exp),
                                "may not specify a duration less than 10 minutes",
                            ));
                        }
                        if exp > 1 << 32 {
                            errs.push(FieldError::invalid(
                                tp.child("expirationSeconds").as_str(),
                                json!(exp),
                                "may not specify a duration larger than 2^32 seconds",
                            ));
                        }
                        if get_str(Some(t), "path").is_empty() {
                            errs.push(FieldError::required(tp.child("path").as_str(), ""));
                        }
                    }
                }
            }
            _ => {}
        }
    }
    if num == 0 {
        errs.push(FieldError::required(
            path.as_str(),
            "must specify a volume type",
        ));
    }
    errs
}

/// `validateContainers`.
fn validate_containers(
    containers: &[Value],
    vols: &BTreeMap<String, Value>,
    grace: Option<i64>,
    path: &Path,
    restart_policy: &str,
) -> Errs {
    let mut errs = Vec::new();
    if containers.is_empty() {
        return vec![FieldError::required(path.as_str(), "")];
    }
    let mut all_names = BTreeSet::new();
    for (i, c) in containers.iter().enumerate() {
        let p = path.index(i);
        errs.extend(validate_container_common(c, vols, &p, restart_policy));
        let name = get_str(Some(c), "name");
        if !all_names.insert(name.to_string()) {
            errs.push(FieldError::duplicate(p.child("name").as_str(), json!(name)));
        }
        if let Some(lc) = get(Some(c), "lifecycle") {
            errs.extend(validate_lifecycle(lc, grace, &p.child("lifecycle")));
        }
        errs.extend(validate_probe_kind(
            get(Some(c), "livenessProbe"),
            grace,
            &p.child("livenessProbe"),
            ProbeKind::Liveness,
        ));
        errs.extend(validate_probe_kind(
            get(Some(c), "readinessProbe"),
            grace,
            &p.child("readinessProbe"),
            ProbeKind::Readiness,
        ));
        errs.extend(validate_probe_kind(
            get(Some(c), "startupProbe"),
            grace,
            &p.child("startupProbe"),
            ProbeKind::Startup,
        ));
        if get(Some(c), "restartPolicy").is_some() {
            errs.push(FieldError::forbidden(
                p.child("restartPolicy").as_str(),
                "may not be set for non-init containers",
            ));
        }
    }
    // Host port conflicts are checked across all containers.
    errs.extend(check_host_port_conflicts(containers, path));
    errs
}

/// `validateInitContainers`.
fn validate_init_containers(
    inits: &[Value],
    regular: &[Value],
    vols: &BTreeMap<String, Value>,
    grace: Option<i64>,
    path: &Path,
    restart_policy: &str,
) -> Errs {
    let mut errs = Vec::new();
    let mut all_names: BTreeSet<String> = regular
        .iter()
        .map(|c| get_str(Some(c), "name").to_string())
        .collect();
    for (i, c) in inits.iter().enumerate() {
        let p = path.index(i);
        errs.extend(validate_container_common(c, vols, &p, restart_policy));
        let mut restart_always = false;
        if let Some(rp) = get(Some(c), "restartPolicy") {
            let rp = rp.as_str().unwrap_or("");
            if rp != "Always" {
                errs.push(
                    FieldError::not_supported(
                        p.child("restartPolicy").as_str(),
                        json!(rp),
                        &["Always"],
                    )
                    .json_rendered(),
                );
            }
            restart_always = rp == "Always";
        }
        let name = get_str(Some(c), "name");
        if all_names.contains(name) {
            errs.push(FieldError::duplicate(p.child("name").as_str(), json!(name)));
        } else if !name.is_empty() {
            all_names.insert(name.to_string());
        }
        // Init containers run one at a time: port conflicts are checked per container.
        errs.extend(check_host_port_conflicts(std::slice::from_ref(c), path));
        if restart_always {
            if let Some(lc) = get(Some(c), "lifecycle") {
                errs.extend(validate_lifecycle(lc, grace, &p.child("lifecycle")));
            }
            errs.extend(validate_probe_kind(
                get(Some(c), "livenessProbe"),
                grace,
                &p.child("livenessProbe"),
                ProbeKind::Liveness,
            ));
            errs.extend(validate_probe_kind(
                get(Some(c), "readinessProbe"),
                grace,
                &p.child("readinessProbe"),
                ProbeKind::Readiness,
            ));
            errs.extend(validate_probe_kind(
                get(Some(c), "startupProbe"),
                grace,
                &p.child("startupProbe"),
                ProbeKind::Startup,
            ));
        } else {
            for key in [
                "lifecycle",
                "livenessProbe",
                "readinessProbe",
                "startupProbe",
            ] {
                if get(Some(c), key).is_some() {
                    errs.push(FieldError::forbidden(
                        p.child(key).as_str(),
                        "may not be set for init containers without restartPolicy=Always",
                    ));
                }
            }
        }
        if !get_arr(Some(c), "resizePolicy").is_empty() {
            errs.push(FieldError::invalid(
                p.child("resizePolicy").as_str(),
                get(Some(c), "resizePolicy").cloned().unwrap_or(Value::Null),
                "must not be set for init containers",
            ));
        }
    }
    errs
}

/// `validateContainerCommon`.
fn validate_container_common(
    c: &Value,
    vols: &BTreeMap<String, Value>,
    path: &Path,
    restart_policy: &str,
) -> Errs {
    let mut errs = Vec::new();
    let c = Some(c);
    let name = get_str(c, "name");
    if name.is_empty() {
        errs.push(FieldError::required(path.child("name").as_str(), ""));
    } else {
        for m in dns1123_label_errors(name) {
            errs.push(FieldError::invalid(
                path.child("name").as_str(),
                json!(name),
                &m,
            ));
        }
    }
    if get_str(c, "image").is_empty() {
        errs.push(FieldError::required(path.child("image").as_str(), ""));
    }
    match get_str(c, "terminationMessagePolicy") {
        "File" | "FallbackToLogsOnError" => {}
        "" => errs.push(FieldError::required(
            path.child("terminationMessagePolicy").as_str(),
            "",
        )),
        other => errs.push(
            FieldError::not_supported(
                path.child("terminationMessagePolicy").as_str(),
                json!(other),
                &["File", "FallbackToLogsOnError"],
            )
            .json_rendered(),
        ),
    }
    errs.extend(validate_container_ports(
        get_arr(c, "ports"),
        &path.child("ports"),
    ));
    errs.extend(validate_env(get_arr(c, "env"), &path.child("env")));
    errs.extend(validate_env_from(
        get_arr(c, "envFrom"),
        &path.child("envFrom"),
    ));
    errs.extend(validate_volume_mounts(
        get_arr(c, "volumeMounts"),
        vols,
        &path.child("volumeMounts"),
    ));
    errs.extend(validate_pull_policy(
        get_str(c, "imagePullPolicy"),
        &path.child("imagePullPolicy"),
    ));
    errs.extend(validate_resource_requirements(
        get(c, "resources"),
        &path.child("resources"),
    ));
    errs.extend(validate_resize_policy(
        get_arr(c, "resizePolicy"),
        &path.child("resizePolicy"),
        restart_policy,
    ));
    errs.extend(validate_security_context(
        get(c, "securityContext"),
        &path.child("securityContext"),
    ));
    errs
}

/// `validateContainerPorts`.
fn validate_container_ports(ports: &[Value], path: &Path) -> Errs {
    let mut errs = Vec::new();
    let mut names = BTreeSet::new();
    for (i, port) in ports.iter().enumerate() {
        let p = path.index(i);
        let port = Some(port);
        let name = get_str(port, "name");
        if !name.is_empty() {
            let msgs = port_name_errors(name);
            if !msgs.is_empty() {
                for m in msgs {
                    errs.push(FieldError::invalid(
                        p.child("name").as_str(),
                        json!(name),
                        &m,
                    ));
                }
            } else if !names.insert(name.to_string()) {
                errs.push(FieldError::duplicate(p.child("name").as_str(), json!(name)));
            }
        }
        let cp = get_i64(port, "containerPort").unwrap_or(0);
        if cp == 0 {
            errs.push(FieldError::required(p.child("containerPort").as_str(), ""));
        } else {
            for m in port_num_errors(cp) {
                errs.push(FieldError::invalid(
                    p.child("containerPort").as_str(),
                    json!(cp),
                    &m,
                ));
            }
        }
        let hp = get_i64(port, "hostPort").unwrap_or(0);
        if hp != 0 {
            for m in port_num_errors(hp) {
                errs.push(FieldError::invalid(
                    p.child("hostPort").as_str(),
                    json!(hp),
                    &m,
                ));
            }
        }
        match get_str(port, "protocol") {
            "" => errs.push(FieldError::required(p.child("protocol").as_str(), "")),
            "TCP" | "UDP" | "SCTP" => {}
            other => errs.push(
                FieldError::not_supported(
                    p.child("protocol").as_str(),
                    json!(other),
                    &["SCTP", "TCP", "UDP"],
                )
                .json_rendered(),
            ),
        }
    }
    errs
}

/// `checkHostPortConflicts` / `AccumulateUniqueHostPorts`: `protocol/hostIP/hostPort` must be
/// unique.
fn check_host_port_conflicts(containers: &[Value], path: &Path) -> Errs {
    let mut errs = Vec::new();
    let mut seen = BTreeSet::new();
    for (ci, c) in containers.iter().enumerate() {
        for (pi, port) in get_arr(Some(c), "ports").iter().enumerate() {
            let hp = get_i64(Some(port), "hostPort").unwrap_or(0);
            if hp == 0 {
                continue;
            }
            let key = format!(
                "{}/{}/{}",
                get_str(Some(port), "protocol"),
                get_str(Some(port), "hostIP"),
                hp
            );
            if !seen.insert(key.clone()) {
                errs.push(FieldError::duplicate(
                    path.index(ci)
                        .child("ports")
                        .index(pi)
                        .child("hostPort")
                        .as_str(),
                    json!(key),
                ));
            }
        }
    }
    errs
}

/// The field paths `valueFrom.fieldRef` may use in env vars.
const ENV_FIELD_PATHS: &[&str] = &[
    "metadata.name",
    "metadata.namespace",
    "metadata.uid",
    "spec.nodeName",
    "spec.serviceAccountName",
    "status.hostIP",
    "status.hostIPs",
    "status.podIP",
    "status.podIPs",
];
/// The labels `ConvertDownwardAPIFieldLabel` accepts for v1 pods.
const DOWNWARD_API_LABELS: &[&str] = &[
    "metadata.annotations",
    "metadata.labels",
    "metadata.name",
    "metadata.namespace",
    "metadata.uid",
    "spec.nodeName",
    "spec.restartPolicy",
    "spec.serviceAccountName",
    "spec.schedulerName",
    "status.phase",
    "status.hostIP",
    "status.hostIPs",
    "status.podIP",
    "status.podIPs",
];
const ENV_RESOURCE_FIELDS: &[&str] = &[
    "limits.cpu",
    "limits.ephemeral-storage",
    "limits.memory",
    "requests.cpu",
    "requests.ephemeral-storage",
    "requests.memory",
];

/// `ValidateEnv` (relaxed names, as in v1.34).
fn validate_env(vars: &[Value], path: &Path) -> Errs {
    let mut errs = Vec::new();
    for (i, ev) in vars.iter().enumerate() {
        let p = path.index(i);
        let name = get_str(Some(ev), "name");
        if name.is_empty() {
            errs.push(FieldError::required(p.child("name").as_str(), ""));
        } else {
            for m in relaxed_env_var_name_errors(name) {
                errs.push(FieldError::invalid(
                    p.child("name").as_str(),
                    json!(name),
                    &m,
                ));
            }
        }
        errs.extend(validate_env_var_value_from(ev, &p.child("valueFrom")));
    }
    errs
}

/// `validateEnvVarValueFrom`.
fn validate_env_var_value_from(ev: &Value, path: &Path) -> Errs {
    let mut errs = Vec::new();
    let Some(vf) = get(Some(ev), "valueFrom") else {
        return errs;
    };
    let mut num = 0;
    if let Some(fr) = get(Some(vf), "fieldRef") {
        num += 1;
        errs.extend(validate_object_field_selector(fr, &path.child("fieldRef")));
    }
    if let Some(rf) = get(Some(vf), "resourceFieldRef") {
        num += 1;
        let rp = path.child("resourceFieldRef");
        let res = get_str(Some(rf), "resource");
        if res.is_empty() {
            errs.push(FieldError::required(rp.child("resource").as_str(), ""));
        } else if !ENV_RESOURCE_FIELDS.contains(&res)
            && !res.starts_with("requests.hugepages-")
            && !res.starts_with("limits.hugepages-")
        {
            errs.push(FieldError::not_supported(
                rp.child("resource").as_str(),
                json!(res),
                ENV_RESOURCE_FIELDS,
            ));
        }
    }
    for (key, label) in [
        ("configMapKeyRef", "configMapKeyRef"),
        ("secretKeyRef", "secretKeyRef"),
    ] {
        if let Some(r) = get(Some(vf), key) {
            num += 1;
            let rp = path.child(label);
            let name = get_str(Some(r), "name");
            for m in name_is_dns_subdomain(name, false) {
                errs.push(FieldError::invalid(
                    rp.child("name").as_str(),
                    json!(name),
                    &m,
                ));
            }
            let k = get_str(Some(r), "key");
            if k.is_empty() {
                errs.push(FieldError::required(rp.child("key").as_str(), ""));
            } else {
                for m in config_map_key_errors(k) {
                    errs.push(FieldError::invalid(rp.child("key").as_str(), json!(k), &m));
                }
            }
        }
    }
    if num == 0 {
        errs.push(FieldError::invalid(
            path.as_str(),
            json!(""),
            "must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`",
        ));
    } else if !get_str(Some(ev), "value").is_empty() {
        errs.push(FieldError::invalid(
            path.as_str(),
            json!(""),
            "may not be specified when `value` is not empty",
        ));
    } else if num > 1 {
        errs.push(FieldError::invalid(
            path.as_str(),
            json!(""),
            "may not have more than one field specified at a time",
        ));
    }
    errs
}

/// `validateObjectFieldSelector` for env vars.
fn validate_object_field_selector(fs: &Value, path: &Path) -> Errs {
    let api_version = get_str(Some(fs), "apiVersion");
    let field_path = get_str(Some(fs), "fieldPath");
    if api_version.is_empty() {
        return vec![FieldError::required(path.child("apiVersion").as_str(), "")];
    }
    if field_path.is_empty() {
        return vec![FieldError::required(path.child("fieldPath").as_str(), "")];
    }
    // ConvertDownwardAPIFieldLabel.
    let conversion_error = if api_version != "v1" {
        Some(format!("unsupported pod version: {}", api_version))
    } else if let Some((base, _)) = split_subscripted_path(field_path) {
        if base == "metadata.annotations" || base == "metadata.labels" {
            None
        } else {
            Some(format!("field label not supported: {}", field_path))
        }
    } else if DOWNWARD_API_LABELS.contains(&field_path) {
        None
    } else {
        Some(format!("field label not supported: {}", field_path))
    };
    if let Some(e) = conversion_error {
        return vec![FieldError::invalid(
            path.child("fieldPath").as_str(),
            json!(field_path),
            &format!("error converting fieldPath: {}", e),
        )];
    }
    if let Some((base, sub)) = split_subscripted_path(field_path) {
        return match base {
            "metadata.annotations" => validate_qualified_name(&sub.to_lowercase(), path),
            "metadata.labels" => validate_qualified_name(sub, path),
            _ => vec![FieldError::invalid(
                path.as_str(),
                json!(base),
                "does not support subscript",
            )],
        };
    }
    if !ENV_FIELD_PATHS.contains(&field_path) {
        return vec![FieldError::not_supported(
            path.child("fieldPath").as_str(),
            json!(field_path),
            ENV_FIELD_PATHS,
        )];
    }
    Vec::new()
}

/// `fieldpath.SplitMaybeSubscriptedPath`: `metadata.labels['app']` -> (`metadata.labels`, `app`).
fn split_subscripted_path(p: &str) -> Option<(&str, &str)> {
    let rest = p.strip_suffix("']")?;
    let (base, sub) = rest.split_once("['")?;
    Some((base, sub))
}

/// `ValidateEnvFrom`.
fn validate_env_from(vars: &[Value], path: &Path) -> Errs {
    let mut errs = Vec::new();
    for (i, ev) in vars.iter().enumerate() {
        let p = path.index(i);
        let prefix = get_str(Some(ev), "prefix");
        if !prefix.is_empty() {
            for m in relaxed_env_var_name_errors(prefix) {
                errs.push(FieldError::invalid(
                    p.child("prefix").as_str(),
                    json!(prefix),
                    &m,
                ));
            }
        }
        let mut num = 0;
        for key in ["configMapRef", "secretRef"] {
            if let Some(r) = get(Some(ev), key) {
                num += 1;
                let name = get_str(Some(r), "name");
                if name.is_empty() {
                    errs.push(FieldError::required(
                        p.child(key).child("name").as_str(),
                        "",
                    ));
                } else {
                    for m in name_is_dns_subdomain(name, true) {
                        errs.push(FieldError::invalid(
                            p.child(key).child("name").as_str(),
                            json!(name),
                            &m,
                        ));
                    }
                }
            }
        }
        if num == 0 {
            errs.push(FieldError::invalid(
                path.as_str(),
                json!(""),
                "must specify one of: `configMapRef` or `secretRef`",
            ));
        } else if num > 1 {
            errs.push(FieldError::invalid(
                path.as_str(),
                json!(""),
                "may not have more than one field specified at a time",
            ));
        }
    }
    errs
}

/// `ValidateVolumeMounts` (mount propagation and recursive read-only are not modelled).
fn validate_volume_mounts(mounts: &[Value], vols: &BTreeMap<String, Value>, path: &Path) -> Errs {
    let mut errs = Vec::new();
    let mut mountpoints = BTreeSet::new();
    for (i, m) in mounts.iter().enumerate() {
        let p = path.index(i);
        let name = get_str(Some(m), "name");
        if name.is_empty() {
            errs.push(FieldError::required(p.child("name").as_str(), ""));
        }
        if !vols.contains_key(name) {
            errs.push(FieldError::not_found(p.child("name").as_str(), json!(name)));
        }
        let mp = get_str(Some(m), "mountPath");
        if mp.is_empty() {
            errs.push(FieldError::required(p.child("mountPath").as_str(), ""));
        }
        if !mountpoints.insert(mp.to_string()) {
            errs.push(FieldError::invalid(
                p.child("mountPath").as_str(),
                json!(mp),
                "must be unique",
            ));
        }
        // Upstream reports subPath errors on the list path, without the index.
        let sub_path = get_str(Some(m), "subPath");
        if !sub_path.is_empty() {
            errs.extend(validate_local_descending_path(
                sub_path,
                &path.child("subPath"),
            ));
        }
        let sub_expr = get_str(Some(m), "subPathExpr");
        if !sub_expr.is_empty() {
            if !sub_path.is_empty() {
                errs.push(FieldError::invalid(
                    p.child("subPathExpr").as_str(),
                    json!(sub_expr),
                    "subPathExpr and subPath are mutually exclusive",
                ));
            }
            errs.extend(validate_local_descending_path(
                sub_expr,
                &path.child("subPathExpr"),
            ));
        }
    }
    errs
}

/// `validatePullPolicy`.
fn validate_pull_policy(policy: &str, path: &Path) -> Errs {
    match policy {
        "Always" | "IfNotPresent" | "Never" => Vec::new(),
        "" => vec![FieldError::required(path.as_str(), "")],
        other => vec![FieldError::not_supported(
            path.as_str(),
            json!(other),
            &["Always", "IfNotPresent", "Never"],
        )
        .json_rendered()],
    }
}

/// `validateResizePolicy`.
fn validate_resize_policy(policies: &[Value], path: &Path, restart_policy: &str) -> Errs {
    let mut errs = Vec::new();
    let mut seen = BTreeSet::new();
    for (i, p) in policies.iter().enumerate() {
        let rn = get_str(Some(p), "resourceName");
        if !seen.insert(rn.to_string()) {
            errs.push(FieldError::duplicate(path.index(i).as_str(), json!(rn)).json_rendered());
        }
        match rn {
            "cpu" | "memory" => {}
            "" => errs.push(FieldError::required(path.as_str(), "")),
            other => errs.push(
                FieldError::not_supported(path.as_str(), json!(other), &["cpu", "memory"])
                    .json_rendered(),
            ),
        }
        let rp = get_str(Some(p), "restartPolicy");
        match rp {
            "NotRequired" | "RestartContainer" => {}
            "" => errs.push(FieldError::required(path.as_str(), "")),
            other => errs.push(
                FieldError::not_supported(
                    path.as_str(),
                    json!(other),
                    &["NotRequired", "RestartContainer"],
                )
                .json_rendered(),
            ),
        }
        if restart_policy == "Never" && rp != "NotRequired" {
            errs.push(
                FieldError::invalid(
                    path.as_str(),
                    json!(rp),
                    "must be 'NotRequired' when `restartPolicy` is 'Never'",
                )
                .json_rendered(),
            );
        }
    }
    errs
}

/// `ValidateSecurityContext` of a container (user/group ranges, seccomp type, the
/// privileged/allowPrivilegeEscalation conflict; privileged pods are allowed).
fn validate_security_context(sc: Option<&Value>, path: &Path) -> Errs {
    let mut errs = Vec::new();
    let Some(sc) = sc else { return errs };
    for key in ["runAsUser", "runAsGroup"] {
        if let Some(id) = get_i64(Some(sc), key) {
            if !(0..=4_294_967_295).contains(&id) {
                errs.push(FieldError::invalid(
                    path.child(key).as_str(),
                    json!(id),
                    &inclusive_range_error(0, 4_294_967_295),
                ));
            }
        }
    }
    if let Some(pm) = get(Some(sc), "procMount") {
        let pm = pm.as_str().unwrap_or("");
        if pm != "Default" && pm != "Unmasked" {
            errs.push(
                FieldError::not_supported(
                    path.child("procMount").as_str(),
                    json!(pm),
                    &["Default", "Unmasked"],
                )
                .json_rendered(),
            );
        }
    }
    errs.extend(validate_seccomp_profile_field(
        get(Some(sc), "seccompProfile"),
        &path.child("seccompProfile"),
    ));
    if get(Some(sc), "allowPrivilegeEscalation").and_then(Value::as_bool) == Some(false) {
        if get_bool(Some(sc), "privileged") {
            errs.push(
                FieldError::invalid(
                    path.as_str(),
                    sc.clone(),
                    "cannot set `allowPrivilegeEscalation` to false and `privileged` to true",
                )
                .with_raw_value(security_context_internal_json(sc)),
            );
        }
        let adds = get_arr(get(Some(sc), "capabilities"), "add");
        for cap in adds {
            if cap.as_str() == Some("CAP_SYS_ADMIN") {
                errs.push(
                    FieldError::invalid(
                        path.as_str(),
                        sc.clone(),
                        "cannot set `allowPrivilegeEscalation` to false and `capabilities.Add` CAP_SYS_ADMIN",
                    )
                    .with_raw_value(security_context_internal_json(sc)),
                );
            }
        }
    }
    errs
}

/// The internal `core.SecurityContext` as Go's JSON renders it (Go field names, all fields).
fn security_context_internal_json(sc: &Value) -> String {
    let ptr = |k: &str| {
        Some(
            get(Some(sc), k)
                .map(go_json)
                .unwrap_or_else(|| "null".into()),
        )
    };
    let caps = get(Some(sc), "capabilities").map(|c| {
        let list = |k: &str| {
            Some(
                get(Some(c), k)
                    .map(go_json)
                    .unwrap_or_else(|| "null".into()),
            )
        };
        go_struct(&[("Add", list("add")), ("Drop", list("drop"))])
    });
    let pair = |k: &str| {
        Some(get(Some(sc), k).map_or_else(
            || "null".to_string(),
            |v| {
                go_struct(&[
                    ("Type", Some(go_json(&json!(get_str(Some(v), "type"))))),
                    (
                        "LocalhostProfile",
                        Some(
                            get(Some(v), "localhostProfile")
                                .map(go_json)
                                .unwrap_or_else(|| "null".into()),
                        ),
                    ),
                ])
            },
        ))
    };
    go_struct(&[
        ("Capabilities", Some(caps.unwrap_or_else(|| "null".into()))),
        ("Privileged", ptr("privileged")),
        ("SELinuxOptions", ptr("seLinuxOptions")),
        ("WindowsOptions", ptr("windowsOptions")),
        ("RunAsUser", ptr("runAsUser")),
        ("RunAsGroup", ptr("runAsGroup")),
        ("RunAsNonRoot", ptr("runAsNonRoot")),
        ("ReadOnlyRootFilesystem", ptr("readOnlyRootFilesystem")),
        ("AllowPrivilegeEscalation", ptr("allowPrivilegeEscalation")),
        ("ProcMount", ptr("procMount")),
        ("SeccompProfile", pair("seccompProfile")),
        ("AppArmorProfile", pair("appArmorProfile")),
    ])
}

/// `validateSeccompProfileField`.
fn validate_seccomp_profile_field(sp: Option<&Value>, path: &Path) -> Errs {
    let mut errs = Vec::new();
    let Some(sp) = sp else { return errs };
    let t = get_str(Some(sp), "type");
    match t {
        "Localhost" | "RuntimeDefault" | "Unconfined" => {}
        "" => errs.push(FieldError::required(
            path.child("type").as_str(),
            "type is required when seccompProfile is set",
        )),
        other => errs.push(
            FieldError::not_supported(
                path.child("type").as_str(),
                json!(other),
                &["Localhost", "RuntimeDefault", "Unconfined"],
            )
            .json_rendered(),
        ),
    }
    let lp = get(Some(sp), "localhostProfile");
    if t == "Localhost" {
        match lp.and_then(Value::as_str) {
            None => errs.push(FieldError::required(
                path.child("localhostProfile").as_str(),
                "must be set when seccomp type is Localhost",
            )),
            Some(l) => errs.extend(validate_local_descending_path(
                l,
                &path.child("localhostProfile"),
            )),
        }
    }
    errs
}

/// `validatePodSpecSecurityContext` (ranges, shareProcessNamespace with hostPID, seccomp).
fn validate_pod_security_context(sc: Option<&Value>, path: &Path) -> Errs {
    let mut errs = Vec::new();
    let Some(sc) = sc else { return errs };
    let range = inclusive_range_error(0, 4_294_967_295);
    for key in ["fsGroup", "runAsUser", "runAsGroup"] {
        if let Some(id) = get_i64(Some(sc), key) {
            if !(0..=4_294_967_295).contains(&id) {
                errs.push(FieldError::invalid(
                    path.child(key).as_str(),
                    json!(id),
                    &range,
                ));
            }
        }
    }
    for (i, g) in get_arr(Some(sc), "supplementalGroups").iter().enumerate() {
        let g = g.as_i64().unwrap_or(0);
        if !(0..=4_294_967_295).contains(&g) {
            errs.push(FieldError::invalid(
                path.child("supplementalGroups").index(i).as_str(),
                json!(g),
                &range,
            ));
        }
    }
    errs.extend(validate_seccomp_profile_field(
        get(Some(sc), "seccompProfile"),
        &path.child("seccompProfile"),
    ));
    errs
}

/// `validatePodHostNetworkDeps`.
fn validate_pod_host_network_deps(
    spec: Option<&Value>,
    path: &Path,
    resource_is_pod: bool,
) -> Errs {
    let mut errs = Vec::new();
    if !get_bool(spec, "hostNetwork") {
        return errs;
    }
    for (i, c) in get_arr(spec, "containers").iter().enumerate() {
        for (j, port) in get_arr(Some(c), "ports").iter().enumerate() {
            let hp = get_i64(Some(port), "hostPort").unwrap_or(0);
            let cp = get_i64(Some(port), "containerPort").unwrap_or(0);
            if (resource_is_pod || hp != 0) && hp != cp {
                errs.push(FieldError::invalid(
                    path.child("containers")
                        .index(i)
                        .child("ports")
                        .index(j)
                        .child("hostPort")
                        .as_str(),
                    json!(hp),
                    "must match `containerPort` when `hostNetwork` is true",
                ));
            }
        }
    }
    errs
}

/// `validateRestartPolicy`.
fn validate_restart_policy(rp: &str, path: &Path) -> Errs {
    match rp {
        "Always" | "OnFailure" | "Never" => Vec::new(),
        "" => vec![FieldError::required(path.as_str(), "")],
        other => vec![FieldError::not_supported(
            path.as_str(),
            json!(other),
            &["Always", "OnFailure", "Never"],
        )
        .json_rendered()],
    }
}

/// `validateDNSPolicy`.
fn validate_dns_policy(p: &str, path: &Path) -> Errs {
    match p {
        "ClusterFirstWithHostNet" | "ClusterFirst" | "Default" | "None" => Vec::new(),
        "" => vec![FieldError::required(path.as_str(), "")],
        other => vec![FieldError::not_supported(
            path.as_str(),
            json!(other),
            &["ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"],
        )
        .json_rendered()],
    }
}

/// `validatePodDNSConfig` (nameserver IP syntax is not checked).
fn validate_pod_dns_config(cfg: Option<&Value>, dns_policy: &str, path: &Path) -> Errs {
    let mut errs = Vec::new();
    if dns_policy == "None" {
        let Some(c) = cfg else {
            return vec![FieldError::required(
                path.as_str(),
                "must provide `dnsConfig` when `dnsPolicy` is None",
            )];
        };
        if get_arr(Some(c), "nameservers").is_empty() {
            return vec![FieldError::required(
                path.child("nameservers").as_str(),
                "must provide at least one DNS nameserver when `dnsPolicy` is None",
            )];
        }
    }
    let Some(c) = cfg else { return errs };
    let ns = get_arr(Some(c), "nameservers");
    if ns.len() > 3 {
        errs.push(FieldError::invalid(
            path.child("nameservers").as_str(),
            Value::Array(ns.to_vec()),
            "must not have more than 3 nameservers",
        ));
    }
    let searches = get_arr(Some(c), "searches");
    if searches.len() > 32 {
        errs.push(FieldError::invalid(
            path.child("searches").as_str(),
            Value::Array(searches.to_vec()),
            "must not have more than 32 search paths",
        ));
    }
    let joined: Vec<&str> = searches.iter().map(|s| s.as_str().unwrap_or("")).collect();
    if joined.join(" ").len() > 2048 {
        errs.push(FieldError::invalid(
            path.child("searches").as_str(),
            Value::Array(searches.to_vec()),
            "must not have more than 2048 characters (including spaces) in the search list",
        ));
    }
    for (i, s) in joined.iter().enumerate() {
        // AllowRelaxedDNSSearchValidation: "." is accepted, a trailing dot is ignored.
        if *s == "." {
            continue;
        }
        let s = s.strip_suffix('.').unwrap_or(s);
        let ok = !s.is_empty()
            && s.len() <= DNS1123_SUBDOMAIN_MAX_LENGTH
            && s.split('.').all(|l| {
                let l = l.strip_prefix('_').unwrap_or(l);
                let b = l.as_bytes();
                !b.is_empty()
                    && is_lower_alnum(b[0])
                    && is_lower_alnum(b[b.len() - 1])
                    && b.iter()
                        .all(|&c| is_lower_alnum(c) || c == b'-' || c == b'_')
            });
        if !ok {
            let mut msgs = Vec::new();
            if s.len() > DNS1123_SUBDOMAIN_MAX_LENGTH {
                msgs.push(max_len_error(DNS1123_SUBDOMAIN_MAX_LENGTH));
            }
            msgs.push(regex_error(
                "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '_', '-' or '.', and must start and end with an alphanumeric character",
                "_?[a-z0-9]([-_a-z0-9]*[a-z0-9])?(\\._?[a-z0-9]([-_a-z0-9]*[a-z0-9])?)*",
                &["example.com"],
            ));
            for m in msgs {
                errs.push(FieldError::invalid(
                    path.child("searches").index(i).as_str(),
                    json!(s),
                    &m,
                ));
            }
        }
    }
    for (i, o) in get_arr(Some(c), "options").iter().enumerate() {
        if get_str(Some(o), "name").is_empty() {
            errs.push(FieldError::required(
                path.child("options").index(i).as_str(),
                "must not be empty",
            ));
        }
    }
    errs
}

#[derive(Clone, Copy, PartialEq)]
enum ProbeKind {
    Liveness,
    Readiness,
    Startup,
}

/// `validateLivenessProbe` / `validateReadinessProbe` / `validateStartupProbe`.
fn validate_probe_kind(
    probe: Option<&Value>,
    grace: Option<i64>,
    path: &Path,
    kind: ProbeKind,
) -> Errs {
    let mut errs = Vec::new();
    let Some(probe) = probe else { return errs };
    errs.extend(validate_handler(probe, grace, path, false));
    for key in [
        "initialDelaySeconds",
        "timeoutSeconds",
        "periodSeconds",
        "successThreshold",
        "failureThreshold",
    ] {
        errs.extend(nonnegative(
            get_i64(Some(probe), key).unwrap_or(0),
            &path.child(key),
        ));
    }
    let tgps = get_i64(Some(probe), "terminationGracePeriodSeconds");
    if let Some(t) = tgps {
        if t <= 0 {
            errs.push(FieldError::invalid(
                path.child("terminationGracePeriodSeconds").as_str(),
                json!(t),
                "must be greater than 0",
            ));
        }
    }
    let st = get_i64(Some(probe), "successThreshold").unwrap_or(0);
    match kind {
        ProbeKind::Liveness | ProbeKind::Startup => {
            if st != 1 {
                errs.push(FieldError::invalid(
                    path.child("successThreshold").as_str(),
                    json!(st),
                    "must be 1",
                ));
            }
        }
        ProbeKind::Readiness => {
            if let Some(t) = tgps {
                errs.push(FieldError::invalid(
                    path.child("terminationGracePeriodSeconds").as_str(),
                    json!(t),
                    "must not be set for readinessProbes",
                ));
            }
        }
    }
    errs
}

/// `validateLifecycle`.
fn validate_lifecycle(lc: &Value, grace: Option<i64>, path: &Path) -> Errs {
    let mut errs = Vec::new();
    for hook in ["postStart", "preStop"] {
        if let Some(h) = get(Some(lc), hook) {
            errs.extend(validate_handler(h, grace, &path.child(hook), true));
        }
    }
    errs
}

/// `validateHandler`: exactly one handler type (probes: exec, httpGet, tcpSocket, grpc;
/// lifecycle hooks: exec, httpGet, tcpSocket, sleep).
fn validate_handler(h: &Value, grace: Option<i64>, path: &Path, lifecycle: bool) -> Errs {
    let mut errs = Vec::new();
    let mut num = 0;
    let kinds: &[&str] = if lifecycle {
        &["exec", "httpGet", "tcpSocket", "sleep"]
    } else {
        &["exec", "httpGet", "tcpSocket", "grpc"]
    };
    for &k in kinds {
        let Some(a) = get(Some(h), k) else { continue };
        if num > 0 {
            errs.push(FieldError::forbidden(
                path.child(k).as_str(),
                "may not specify more than 1 handler type",
            ));
            continue;
        }
        num += 1;
        let p = path.child(k);
        match k {
            "exec" if get_arr(Some(a), "command").is_empty() => {
                errs.push(FieldError::required(p.child("command").as_str(), ""));
            }
            "httpGet" => {
                if get_str(Some(a), "path").is_empty() {
                    errs.push(FieldError::required(p.child("path").as_str(), ""));
                }
                errs.extend(validate_port_num_or_name(
                    get(Some(a), "port"),
                    &p.child("port"),
                ));
                let scheme = get_str(Some(a), "scheme");
                if scheme != "HTTP" && scheme != "HTTPS" {
                    errs.push(
                        FieldError::not_supported(
                            p.child("scheme").as_str(),
                            json!(scheme),
                            &["HTTP", "HTTPS"],
                        )
                        .json_rendered(),
                    );
                }
                for hd in get_arr(Some(a), "httpHeaders") {
                    let n = get_str(Some(hd), "name");
                    if n.is_empty() || !n.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-') {
                        errs.push(FieldError::invalid(
                            p.child("httpHeaders").as_str(),
                            json!(n),
                            &regex_error("a valid HTTP header must consist of alphanumeric characters or '-'", "[-A-Za-z0-9]+", &["X-Header-Name"]),
                        ));
                    }
                }
            }
            "tcpSocket" => errs.extend(validate_port_num_or_name(
                get(Some(a), "port"),
                &p.child("port"),
            )),
            "grpc" => {
                let port = get_i64(Some(a), "port").unwrap_or(0);
                for m in port_num_errors(port) {
                    errs.push(FieldError::invalid(
                        p.child("port").as_str(),
                        json!(port),
                        &m,
                    ));
                }
            }
            "sleep" => {
                let secs = get_i64(Some(a), "seconds").unwrap_or(0);
                if let Some(g) = grace {
                    // AllowPodLifecycleSleepActionZeroValue is on in v1.34.
                    if secs < 0 || secs > g {
                        errs.push(FieldError::invalid(
                            p.as_str(),
                            json!(secs),
                            &format!("must be non-negative and less than terminationGracePeriodSeconds ({})", g),
                        ));
                    }
                }
            }
            _ => {}
        }
    }
    if num == 0 {
        errs.push(FieldError::required(
            path.as_str(),
            "must specify a handler type",
        ));
    }
    errs
}

/// `ValidatePortNumOrName`.
fn validate_port_num_or_name(port: Option<&Value>, path: &Path) -> Errs {
    match port {
        Some(Value::String(s)) => port_name_errors(s)
            .into_iter()
            .map(|m| FieldError::invalid(path.as_str(), json!(s), &m))
            .collect(),
        other => {
            let n = other.and_then(Value::as_i64).unwrap_or(0);
            port_num_errors(n)
                .into_iter()
                .map(|m| FieldError::invalid(path.as_str(), json!(n), &m))
                .collect()
        }
    }
}

/// `ValidateTolerations`.
fn validate_tolerations(tolerations: &[Value], path: &Path) -> Errs {
    let mut errs = Vec::new();
    for (i, t) in tolerations.iter().enumerate() {
        let p = path.index(i);
        let t = Some(t);
        let key = get_str(t, "key");
        let op = get_str(t, "operator");
        let effect = get_str(t, "effect");
        if !key.is_empty() {
            errs.extend(validate_label_name(key, &p.child("key")));
        }
        if key.is_empty() && op != "Exists" {
            errs.push(
                FieldError::invalid(
                    p.child("operator").as_str(),
                    json!(op),
                    "operator must be Exists when `key` is empty, which means \"match all values and all keys\"",
                )
                .json_rendered(),
            );
        }
        if get(t, "tolerationSeconds").is_some() && effect != "NoExecute" {
            errs.push(
                FieldError::invalid(
                    p.child("effect").as_str(),
                    json!(effect),
                    "effect must be 'NoExecute' when `tolerationSeconds` is set",
                )
                .json_rendered(),
            );
        }
        let value = get_str(t, "value");
        match op {
            "Equal" | "" => {
                let msgs = label_value_errors(value);
                if !msgs.is_empty() {
                    errs.push(FieldError::invalid(
                        p.child("operator").as_str(),
                        json!(value),
                        &msgs.join(";"),
                    ));
                }
            }
            "Exists" => {
                if !value.is_empty() {
                    errs.push(FieldError::invalid(
                        p.child("operator").as_str(),
                        json!(value),
                        "value must be empty when `operator` is 'Exists'",
                    ));
                }
            }
            other => errs.push(
                FieldError::not_supported(
                    p.child("operator").as_str(),
                    json!(other),
                    &["Equal", "Exists"],
                )
                .json_rendered(),
            ),
        }
        if !effect.is_empty() {
            errs.extend(validate_taint_effect(effect, true, &p.child("effect")));
        }
    }
    errs
}

/// `validateTaintEffect`.
fn validate_taint_effect(effect: &str, allow_empty: bool, path: &Path) -> Errs {
    if !allow_empty && effect.is_empty() {
        return vec![FieldError::required(path.as_str(), "")];
    }
    match effect {
        "NoSchedule" | "PreferNoSchedule" | "NoExecute" => Vec::new(),
        other => vec![FieldError::not_supported(
            path.as_str(),
            json!(other),
            &["NoSchedule", "PreferNoSchedule", "NoExecute"],
        )
        .json_rendered()],
    }
}

// ---------------------------------------------------------------------------------------------
// Resources
// ---------------------------------------------------------------------------------------------

/// The text of a quantity value as written (`"500m"`, or a bare number `2`).
fn value_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Number(n) => n.to_string(),
        other => go_json(other),
    }
}

const STANDARD_RESOURCES: &[&str] = &[
    "cpu",
    "memory",
    "ephemeral-storage",
    "requests.cpu",
    "requests.memory",
    "requests.ephemeral-storage",
    "limits.cpu",
    "limits.memory",
    "limits.ephemeral-storage",
    "pods",
    "services",
    "replicationcontrollers",
    "resourcequotas",
    "secrets",
    "persistentvolumeclaims",
    "storage",
    "requests.storage",
    "services.nodeports",
    "services.loadbalancers",
    "configmaps",
];
const INTEGER_RESOURCES: &[&str] = &[
    "pods",
    "services",
    "replicationcontrollers",
    "resourcequotas",
    "secrets",
    "configmaps",
    "persistentvolumeclaims",
    "services.nodeports",
    "services.loadbalancers",
];

fn is_native_resource(name: &str) -> bool {
    !name.contains('/') || name.contains("kubernetes.io/")
}

fn is_huge_page_resource(name: &str) -> bool {
    name.starts_with("hugepages-")
}

/// `IsExtendedResourceName`: not native, not `requests.`-prefixed, and `requests.<name>` is a
/// qualified name.
fn is_extended_resource(name: &str) -> bool {
    !is_native_resource(name)
        && !name.starts_with("requests.")
        && qualified_name_errors(&format!("requests.{}", name)).is_empty()
}

fn is_overcommit_allowed(name: &str) -> bool {
    is_native_resource(name) && !is_huge_page_resource(name)
}

/// `validateContainerResourceName`.
fn validate_container_resource_name(name: &str, path: &Path) -> Errs {
    let mut errs: Errs = qualified_name_errors(name)
        .into_iter()
        .map(|m| FieldError::invalid(path.as_str(), json!(name), &m).json_rendered())
        .collect();
    if errs.is_empty()
        && !name.contains('/')
        && !STANDARD_RESOURCES.contains(&name)
        && !is_huge_page_resource(name)
    {
        errs.push(
            FieldError::invalid(
                path.as_str(),
                json!(name),
                "must be a standard resource type or fully qualified",
            )
            .json_rendered(),
        );
    }
    if !name.contains('/') {
        if !matches!(name, "cpu" | "memory" | "ephemeral-storage") && !is_huge_page_resource(name) {
            errs.push(
                FieldError::invalid(
                    path.as_str(),
                    json!(name),
                    "must be a standard resource for containers",
                )
                .json_rendered(),
            );
        }
    } else if !is_native_resource(name) && !is_extended_resource(name) {
        errs.push(
            FieldError::invalid(
                path.as_str(),
                json!(name),
                "doesn't follow extended resource name standard",
            )
            .json_rendered(),
        );
    }
    errs
}

/// `ValidateResourceQuantityValue`.
fn validate_resource_quantity_value(name: &str, q: &quantity::Quantity, path: &Path) -> Errs {
    let mut errs = Vec::new();
    if q.nanos() < 0 {
        errs.push(FieldError::invalid(
            path.as_str(),
            json!(q.to_string()),
            IS_NEGATIVE_ERROR_MSG,
        ));
    }
    if (INTEGER_RESOURCES.contains(&name) || is_extended_resource(name))
        && q.nanos() % 1_000_000_000 != 0
    {
        errs.push(FieldError::invalid(
            path.as_str(),
            json!(q.to_string()),
            "must be an integer",
        ));
    }
    errs
}

/// Parse a resource-list entry, reporting the decoder's error when it does not parse.
fn parse_quantity_at(v: &Value, path: &Path, errs: &mut Errs) -> Option<quantity::Quantity> {
    let text = value_text(v);
    match quantity::parse(&text) {
        Some(q) => Some(q),
        None => {
            errs.push(FieldError::invalid(
                path.as_str(),
                json!(text),
                "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
            ));
            None
        }
    }
}

/// `hugepages-<size>` values must be a multiple of the page size.
fn huge_page_errors(name: &str, q: &quantity::Quantity, path: &Path) -> Errs {
    let Some(size) = name.strip_prefix("hugepages-").and_then(quantity::parse) else {
        return Vec::new();
    };
    if size.nanos() > 0 && q.nanos() % size.nanos() != 0 {
        return vec![FieldError::invalid(
            path.as_str(),
            json!(q.to_string()),
            &format!("{} is not positive integer multiple of {}", q, name),
        )];
    }
    Vec::new()
}

/// `validateResourceRequirements` for a container.
fn validate_resource_requirements(res: Option<&Value>, path: &Path) -> Errs {
    let mut errs = Vec::new();
    let lim_path = path.child("limits");
    let req_path = path.child("requests");
    let empty = Map::new();
    let limits = get(res, "limits")
        .and_then(Value::as_object)
        .unwrap_or(&empty);
    let requests = get(res, "requests")
        .and_then(Value::as_object)
        .unwrap_or(&empty);
    let (mut lim_cpu_mem, mut req_cpu_mem, mut lim_huge, mut req_huge) =
        (false, false, false, false);
    let mut parsed_limits = BTreeMap::new();
    for (name, v) in limits {
        let p = lim_path.key(name);
        errs.extend(validate_container_resource_name(name, &p));
        if let Some(q) = parse_quantity_at(v, &p, &mut errs) {
            errs.extend(validate_resource_quantity_value(name, &q, &p));
            if is_huge_page_resource(name) {
                lim_huge = true;
                errs.extend(huge_page_errors(name, &q, &p));
            }
            parsed_limits.insert(name.clone(), q);
        }
        if name == "cpu" || name == "memory" {
            lim_cpu_mem = true;
        }
    }
    for (name, v) in requests {
        let p = req_path.key(name);
        errs.extend(validate_container_resource_name(name, &p));
        let Some(q) = parse_quantity_at(v, &p, &mut errs) else {
            continue;
        };
        errs.extend(validate_resource_quantity_value(name, &q, &p));
        if let Some(limit) = parsed_limits.get(name) {
            // Non-overcommitable resources: requests must equal limits.
            if q.nanos() != limit.nanos() && !is_overcommit_allowed(name) {
                errs.push(FieldError::invalid(
                    req_path.as_str(),
                    json!(q.to_string()),
                    &format!("must be equal to {} limit of {}", name, limit),
                ));
            } else if q.nanos() > limit.nanos() {
                errs.push(FieldError::invalid(
                    req_path.as_str(),
                    json!(q.to_string()),
                    &format!("must be less than or equal to {} limit of {}", name, limit),
                ));
            }
        } else if !limits.contains_key(name) && !is_overcommit_allowed(name) {
            errs.push(FieldError::required(
                lim_path.as_str(),
                "Limit must be set for non overcommitable resources",
            ));
        }
        if is_huge_page_resource(name) {
            req_huge = true;
            errs.extend(huge_page_errors(name, &q, &p));
        }
        if name == "cpu" || name == "memory" {
            req_cpu_mem = true;
        }
    }
    if !lim_cpu_mem && !req_cpu_mem && (req_huge || lim_huge) {
        errs.push(FieldError::forbidden(
            path.as_str(),
            "HugePages require cpu or memory",
        ));
    }
    errs
}

/// Resource quantities: the shared parser of [`crate::api::quantity`] (nano-unit values, canonical
/// `String()` for messages), under the names validation uses.
mod quantity {
    pub use crate::api::quantity::Quantity;

    /// `ParseQuantity` (`^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$`).
    pub fn parse(s: &str) -> Option<Quantity> {
        crate::api::quantity::parse_quantity_str(s)
    }
}

// ---------------------------------------------------------------------------------------------
// Pod update
// ---------------------------------------------------------------------------------------------

const UPDATABLE_POD_SPEC_FIELDS: &str = "`spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)";

/// `ValidatePodUpdate`: metadata update rules, the full pod validation of the new object, then
/// the spec is immutable except container images, `activeDeadlineSeconds` (only lowered),
/// tolerations (only additions), scheduling gates (only removals) and a negative grace period
/// set to 1.
pub fn validate_pod_update(new: &Value, old: &Value) -> Vec<FieldError> {
    let spec_path = Path::new("spec");
    let mut errs = validate_object_meta_update(new, old);
    errs.extend(validate_pod_metadata_and_spec(new));
    errs.extend(validate_pod_specific_annotation_updates(new, old));

    let ns = get(Some(new), "spec");
    let os = get(Some(old), "spec");
    for key in ["containers", "initContainers"] {
        let (nc, oc) = (get_arr(ns, key), get_arr(os, key));
        if nc.len() != oc.len() {
            errs.push(FieldError::forbidden(
                spec_path.child(key).as_str(),
                "pod updates may not add or remove containers",
            ));
            return errs;
        }
        for (i, c) in nc.iter().enumerate() {
            let image = get_str(Some(c), "image");
            if image.is_empty() {
                errs.push(FieldError::required(
                    spec_path.child(key).index(i).child("image").as_str(),
                    "",
                ));
            }
            if image.trim().len() != image.len() {
                errs.push(FieldError::invalid(
                    spec_path.child(key).index(i).child("image").as_str(),
                    json!(image),
                    "must not have leading or trailing whitespace",
                ));
            }
        }
    }

    let ads_path = spec_path.child("activeDeadlineSeconds");
    match (
        get_i64(ns, "activeDeadlineSeconds"),
        get_i64(os, "activeDeadlineSeconds"),
    ) {
        (Some(n), old_ads) => {
            if !(0..=MAX_INT32).contains(&n) {
                errs.push(FieldError::invalid(
                    ads_path.as_str(),
                    json!(n),
                    &inclusive_range_error(0, MAX_INT32),
                ));
                return errs;
            }
            if let Some(o) = old_ads {
                if o < n {
                    errs.push(FieldError::invalid(
                        ads_path.as_str(),
                        json!(n),
                        "must be less than or equal to previous value",
                    ));
                    return errs;
                }
            }
        }
        (None, Some(_)) => errs.push(FieldError::invalid(
            ads_path.as_str(),
            Value::Null,
            "must not update from a positive integer to nil value",
        )),
        (None, None) => {}
    }

    // validateOnlyAddedTolerations: every old toleration must still be there (tolerationSeconds
    // may change).
    let new_tols = get_arr(ns, "tolerations");
    for old_t in get_arr(os, "tolerations") {
        let strip = |t: &Value| {
            let mut t = normalize(Some(t));
            if let Some(m) = t.as_object_mut() {
                m.remove("tolerationSeconds");
            }
            t
        };
        let want = strip(old_t);
        if !new_tols.iter().any(|t| strip(t) == want) {
            errs.push(FieldError::forbidden(
                spec_path.child("tolerations").as_str(),
                "existing toleration can not be modified except its tolerationSeconds",
            ));
            return errs;
        }
    }
    errs.extend(validate_tolerations(
        new_tols,
        &spec_path.child("tolerations"),
    ));

    // validateOnlyDeletedSchedulingGates.
    let old_gates: BTreeSet<&str> = get_arr(os, "schedulingGates")
        .iter()
        .map(|g| get_str(Some(g), "name"))
        .collect();
    let mut added: BTreeMap<&str, usize> = BTreeMap::new();
    for (i, g) in get_arr(ns, "schedulingGates").iter().enumerate() {
        let n = get_str(Some(g), "name");
        if !old_gates.contains(n) {
            added.insert(n, i);
        }
    }
    for (gate, i) in added {
        errs.push(FieldError::forbidden(
            spec_path
                .child("schedulingGates")
                .index(i)
                .child("name")
                .as_str(),
            &format!(
                "only deletion is allowed, but found new scheduling gate '{}'",
                gate
            ),
        ));
    }

    if semantic_eq(ns, os) {
        return errs;
    }
    // Munge the updatable fields from the old spec, then compare.
    let mut munged = ns.cloned().unwrap_or(json!({}));
    if let Some(m) = munged.as_object_mut() {
        for key in ["containers", "initContainers"] {
            let old_list = get_arr(os, key);
            if let Some(list) = m.get_mut(key).and_then(Value::as_array_mut) {
                for (i, c) in list.iter_mut().enumerate() {
                    if let (Some(cm), Some(oc)) = (c.as_object_mut(), old_list.get(i)) {
                        match oc.get("image") {
                            Some(img) => cm.insert("image".into(), img.clone()),
                            None => cm.remove("image"),
                        };
                    }
                }
            }
        }
        for key in ["activeDeadlineSeconds", "schedulingGates", "tolerations"] {
            match os.and_then(|o| o.get(key)) {
                Some(v) => m.insert(key.into(), v.clone()),
                None => m.remove(key),
            };
        }
        // A negative grace period may be set to 1.
        let old_grace = get_i64(os, "terminationGracePeriodSeconds");
        let new_grace = m
            .get("terminationGracePeriodSeconds")
            .and_then(Value::as_i64);
        if old_grace.is_some_and(|g| g < 0) && new_grace == Some(1) {
            m.insert("terminationGracePeriodSeconds".into(), json!(old_grace));
        }
    }
    if !semantic_eq(Some(&munged), os) {
        let diff = spec_diff(os, Some(&munged));
        errs.push(FieldError::forbidden(
            spec_path.as_str(),
            &format!(
                "pod updates may not change fields other than {}\n{}",
                UPDATABLE_POD_SPEC_FIELDS, diff
            ),
        ));
    }
    errs
}

/// A simplified stand-in for `cmp.Diff(oldSpec, newSpec)`: one `-`/`+` pair per changed
/// top-level field, values as JSON.
fn spec_diff(old: Option<&Value>, new: Option<&Value>) -> String {
    let empty = Map::new();
    let om = old.and_then(Value::as_object).unwrap_or(&empty);
    let nm = new.and_then(Value::as_object).unwrap_or(&empty);
    let keys: BTreeSet<&String> = om.keys().chain(nm.keys()).collect();
    let mut out = String::from("  core.PodSpec{\n");
    for k in keys {
        let (o, n) = (om.get(k), nm.get(k));
        if semantic_eq(o, n) {
            continue;
        }
        let render = |v: Option<&Value>| v.map(go_json).unwrap_or_else(|| "nil".into());
        out.push_str(&format!("- \t{}: {},\n", k, render(o)));
        out.push_str(&format!("+ \t{}: {},\n", k, render(n)));
    }
    out.push_str("  }\n");
    out
}

/// `ValidatePodSpecificAnnotationUpdates`: the mirror-pod and AppArmor annotations may not be
/// added, removed or changed.
fn validate_pod_specific_annotation_updates(new: &Value, old: &Value) -> Errs {
    let path = Path::new("metadata").child("annotations");
    let na: BTreeMap<String, String> =
        string_map(new.get("metadata").and_then(|m| m.get("annotations")))
            .into_iter()
            .collect();
    let oa: BTreeMap<String, String> =
        string_map(old.get("metadata").and_then(|m| m.get("annotations")))
            .into_iter()
            .collect();
    let mut errs = Vec::new();
    const APPARMOR: &str = "container.apparmor.security.beta.kubernetes.io/";
    for (k, ov) in &oa {
        if na.get(k) == Some(ov) {
            continue;
        }
        if k.starts_with(APPARMOR) {
            errs.push(FieldError::forbidden(
                path.key(k).as_str(),
                "may not remove or update AppArmor annotations",
            ));
        }
        if k == "kubernetes.io/config.mirror" {
            errs.push(FieldError::forbidden(
                path.key(k).as_str(),
                "may not remove or update mirror pod annotation",
            ));
        }
    }
    for k in na.keys() {
        if oa.contains_key(k) {
            continue;
        }
        if k.starts_with(APPARMOR) {
            errs.push(FieldError::forbidden(
                path.key(k).as_str(),
                "may not add AppArmor annotations",
            ));
        }
        if k == "kubernetes.io/config.mirror" {
            errs.push(FieldError::forbidden(
                path.key(k).as_str(),
                "may not add mirror pod annotation",
            ));
        }
    }
    errs.extend(validate_pod_specific_annotations(
        new.get("metadata").and_then(|m| m.get("annotations")),
        new.get("spec"),
        &path,
    ));
    errs
}

// =============================================================================================
// Namespace, Node
// =============================================================================================

/// `ValidateNamespace`: cluster-scoped meta with a DNS-label name; `spec.finalizers` must be
/// qualified names or standard finalizers.
pub fn validate_namespace(obj: &Value) -> Vec<FieldError> {
    let mut errs = validate_object_meta(obj, false, name_is_dns_label);
    let path = Path::new("spec").child("finalizers");
    for f in get_arr(get(Some(obj), "spec"), "finalizers") {
        let f = f.as_str().unwrap_or("");
        for m in qualified_name_errors(f) {
            errs.push(FieldError::invalid(path.as_str(), json!(f), &m));
        }
        errs.extend(kube_finalizer_name_errors(f, &path));
    }
    errs
}

/// `ValidateNode`: cluster-scoped meta with a DNS-subdomain name, taints (reported under
/// `metadata.taints`, an upstream quirk) and non-negative capacity/allocatable quantities.
/// Pod CIDRs are not validated.
pub fn validate_node(obj: &Value) -> Vec<FieldError> {
    let mut errs = validate_object_meta(obj, false, name_is_dns_subdomain);
    let taints = get_arr(get(Some(obj), "spec"), "taints");
    if !taints.is_empty() {
        errs.extend(validate_node_taints(
            taints,
            &Path::new("metadata").child("taints"),
        ));
    }
    let status = get(Some(obj), "status");
    for section in ["capacity", "allocatable"] {
        if let Some(Value::Object(m)) = get(status, section) {
            for (k, v) in m {
                let p = Path::new("status").child(section).child(k);
                if let Some(q) = parse_quantity_at(v, &p, &mut errs) {
                    if q.nanos() < 0 {
                        errs.push(FieldError::invalid(
                            p.as_str(),
                            json!(q.to_string()),
                            IS_NEGATIVE_ERROR_MSG,
                        ));
                    }
                    if (INTEGER_RESOURCES.contains(&k.as_str()) || is_extended_resource(k))
                        && q.nanos() % 1_000_000_000 != 0
                    {
                        errs.push(FieldError::invalid(
                            p.as_str(),
                            json!(q.to_string()),
                            "must be an integer",
                        ));
                    }
                }
            }
        }
    }
    errs
}

/// `validateNodeTaints`.
fn validate_node_taints(taints: &[Value], path: &Path) -> Errs {
    let mut errs = Vec::new();
    let mut unique: BTreeSet<(String, String)> = BTreeSet::new();
    for (i, t) in taints.iter().enumerate() {
        let p = path.index(i);
        let key = get_str(Some(t), "key");
        let value = get_str(Some(t), "value");
        let effect = get_str(Some(t), "effect");
        errs.extend(validate_label_name(key, &p.child("key")));
        let msgs = label_value_errors(value);
        if !msgs.is_empty() {
            errs.push(FieldError::invalid(
                p.child("value").as_str(),
                json!(value),
                &msgs.join(";"),
            ));
        }
        errs.extend(validate_taint_effect(effect, false, &p.child("effect")));
        if !unique.insert((effect.to_string(), key.to_string())) {
            let rendered = go_struct(&[
                ("Key", Some(go_json(&json!(key)))),
                ("Value", Some(go_json(&json!(value)))),
                ("Effect", Some(go_json(&json!(effect)))),
                (
                    "TimeAdded",
                    Some(
                        get(Some(t), "timeAdded")
                            .map(go_json)
                            .unwrap_or_else(|| "null".into()),
                    ),
                ),
            ]);
            errs.push(
                FieldError::duplicate(p.as_str(), t.clone())
                    .with_detail("taints must be unique by key and effect pair")
                    .with_raw_value(rendered),
            );
        }
    }
    errs
}

#[cfg(test)]
mod tests {
    use super::super::defaults::{
        admit_pod, set_object_defaults_deployment, set_object_defaults_pod,
    };
    use super::super::field::kubectl_invalid_output;
    use super::*;

    /// A valid Deployment named "web"; `mutate` edits it before defaulting.
    fn web(mutate: impl FnOnce(&mut Value)) -> Value {
        let mut d = json!({
            "apiVersion": "apps/v1",
            "kind": "Deployment",
            "metadata": {"name": "web", "namespace": "default"},
            "spec": {
                "replicas": 2,
                "selector": {"matchLabels": {"app": "web"}},
                "template": {
                    "metadata": {"labels": {"app": "web"}},
                    "spec": {"containers": [{"name": "web", "image": "nginx:1.27", "ports": [{"containerPort": 80}]}]}
                }
            }
        });
        mutate(&mut d);
        set_object_defaults_deployment(&mut d);
        d
    }

    fn ptr<'a>(v: &'a mut Value, p: &str) -> &'a mut Value {
        v.pointer_mut(p).expect("test pointer")
    }

    /// Insert `key: value` into the object at pointer `p`.
    fn ins(v: &mut Value, p: &str, key: &str, value: Value) {
        ptr(v, p)
            .as_object_mut()
            .expect("test object")
            .insert(key.to_string(), value);
    }

    struct KubectlCase {
        name: &'static str,
        obj: Value,
        want: &'static str,
    }

    /// Every row of facts §3.3, asserting kubectl's exact output.
    #[test]
    fn facts_3_3_common_mistakes() {
        let cases = vec![
            KubectlCase {
                name: "selector doesn't match template labels",
                obj: web(|d| *ptr(d, "/spec/template/metadata/labels") = json!({"app": "other"})),
                want: "The Deployment \"web\" is invalid: spec.template.metadata.labels: Invalid value: {\"app\":\"other\"}: `selector` does not match template `labels`",
            },
            KubectlCase {
                name: "selector missing",
                obj: web(|d| {
                    ptr(d, "/spec").as_object_mut().unwrap().remove("selector");
                }),
                want: "The Deployment \"web\" is invalid: \n* spec.selector: Required value\n* spec.template.metadata.labels: Invalid value: {\"app\":\"web\"}: `selector` does not match template `labels`",
            },
            KubectlCase {
                name: "empty selector",
                obj: web(|d| *ptr(d, "/spec/selector") = json!({})),
                want: "The Deployment \"web\" is invalid: spec.selector: Invalid value: {}: empty selector is invalid for deployment",
            },
            KubectlCase {
                name: "no containers",
                obj: web(|d| *ptr(d, "/spec/template/spec/containers") = json!([])),
                want: "The Deployment \"web\" is invalid: spec.template.spec.containers: Required value",
            },
            KubectlCase {
                name: "container without image",
                obj: web(|d| {
                    ptr(d, "/spec/template/spec/containers/0").as_object_mut().unwrap().remove("image");
                }),
                want: "The Deployment \"web\" is invalid: spec.template.spec.containers[0].image: Required value",
            },
            KubectlCase {
                name: "bad Deployment name My_App",
                obj: web(|d| *ptr(d, "/metadata/name") = json!("My_App")),
                want: "The Deployment \"web\" is invalid: metadata.name: Invalid value: \"My_App\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
            },
            KubectlCase {
                name: "bad container name",
                obj: web(|d| *ptr(d, "/spec/template/spec/containers/0/name") = json!("Web")),
                want: "The Deployment \"web\" is invalid: spec.template.spec.containers[0].name: Invalid value: \"Web\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
            },
            KubectlCase {
                name: "negative replicas",
                obj: web(|d| *ptr(d, "/spec/replicas") = json!(-1)),
                want: "The Deployment \"web\" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0",
            },
            KubectlCase {
                name: "restartPolicy Never in template",
                obj: web(|d| {
                    ptr(d, "/spec/template/spec").as_object_mut().unwrap().insert("restartPolicy".into(), json!("Never"));
                }),
                want: "The Deployment \"web\" is invalid: spec.template.spec.restartPolicy: Unsupported value: \"Never\": supported values: \"Always\"",
            },
            KubectlCase {
                name: "maxSurge=0 and maxUnavailable=0",
                obj: web(|d| {
                    ptr(d, "/spec").as_object_mut().unwrap().insert("strategy".into(), json!({"rollingUpdate": {"maxSurge": 0, "maxUnavailable": 0}}));
                }),
                want: "The Deployment \"web\" is invalid: spec.strategy.rollingUpdate.maxUnavailable: Invalid value: 0: may not be 0 when `maxSurge` is 0",
            },
            KubectlCase {
                name: "maxSurge=0% and maxUnavailable=0%",
                obj: web(|d| {
                    ptr(d, "/spec").as_object_mut().unwrap().insert("strategy".into(), json!({"rollingUpdate": {"maxSurge": "0%", "maxUnavailable": "0%"}}));
                }),
                want: "The Deployment \"web\" is invalid: spec.strategy.rollingUpdate.maxUnavailable: Invalid value: \"0%\": may not be 0 when `maxSurge` is 0",
            },
            KubectlCase {
                name: "maxUnavailable > 100%",
                obj: web(|d| {
                    ptr(d, "/spec").as_object_mut().unwrap().insert("strategy".into(), json!({"rollingUpdate": {"maxUnavailable": "120%"}}));
                }),
                want: "The Deployment \"web\" is invalid: spec.strategy.rollingUpdate.maxUnavailable: Invalid value: \"120%\": must not be greater than 100%",
            },
            KubectlCase {
                name: "rollingUpdate with Recreate",
                obj: web(|d| {
                    ptr(d, "/spec").as_object_mut().unwrap().insert("strategy".into(), json!({"type": "Recreate", "rollingUpdate": {"maxSurge": 1}}));
                }),
                want: "The Deployment \"web\" is invalid: spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is 'Recreate'",
            },
            KubectlCase {
                name: "progressDeadlineSeconds <= minReadySeconds",
                obj: web(|d| {
                    let s = ptr(d, "/spec").as_object_mut().unwrap();
                    s.insert("progressDeadlineSeconds".into(), json!(5));
                    s.insert("minReadySeconds".into(), json!(10));
                }),
                want: "The Deployment \"web\" is invalid: spec.progressDeadlineSeconds: Invalid value: 5: must be greater than minReadySeconds",
            },
            KubectlCase {
                name: "no name",
                obj: web(|d| {
                    ptr(d, "/metadata").as_object_mut().unwrap().remove("name");
                }),
                want: "The Deployment \"\" is invalid: metadata.name: Required value: name or generateName is required",
            },
        ];
        for c in cases {
            let errs = validate_deployment(&c.obj);
            let name = if c.name == "no name" { "" } else { "web" };
            assert_eq!(
                kubectl_invalid_output("Deployment", name, &errs),
                c.want,
                "case {}",
                c.name
            );
        }
    }

    #[test]
    fn valid_objects_have_no_errors() {
        let d = web(|_| {});
        assert_eq!(validate_deployment(&d), vec![], "deployment");
        let mut p = json!({
            "apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": "web-7c79c4bf97-x8k2q", "namespace": "default", "labels": {"app": "web", "pod-template-hash": "7c79c4bf97"}},
            "spec": {"containers": [{
                "name": "web", "image": "nginx",
                "resources": {"limits": {"cpu": "500m", "memory": "128Mi"}},
                "livenessProbe": {"httpGet": {"port": 80}},
                "env": [{"name": "POD", "valueFrom": {"fieldRef": {"fieldPath": "metadata.name"}}}]
            }]}
        });
        set_object_defaults_pod(&mut p);
        admit_pod(&mut p, "x8k2q");
        assert_eq!(validate_pod(&p), vec![], "pod");
        assert_eq!(
            validate_namespace(
                &json!({"metadata": {"name": "team-a"}, "spec": {"finalizers": ["kubernetes"]}})
            ),
            vec![],
            "namespace"
        );
        assert_eq!(
            validate_node(
                &json!({"metadata": {"name": "node-1"}, "status": {"capacity": {"cpu": "4", "pods": "110"}}})
            ),
            vec![],
            "node"
        );
    }

    struct MsgCase {
        name: &'static str,
        errs: Vec<FieldError>,
        want: Vec<&'static str>,
    }

    fn strings(errs: &[FieldError]) -> Vec<String> {
        errs.iter().map(|e| e.to_string()).collect()
    }

    #[test]
    fn deployment_and_meta_messages() {
        let cases = vec![
            MsgCase {
                name: "unsupported strategy type renders the internal struct",
                errs: validate_deployment(&web(|d| {
                    ptr(d, "/spec").as_object_mut().unwrap().insert("strategy".into(), json!({"type": "BlueGreen"}));
                })),
                want: vec!["spec.strategy: Unsupported value: {\"Type\":\"BlueGreen\",\"RollingUpdate\":null}: supported values: \"Recreate\", \"RollingUpdate\""],
            },
            MsgCase {
                name: "bad percent",
                errs: validate_deployment(&web(|d| {
                    ptr(d, "/spec").as_object_mut().unwrap().insert("strategy".into(), json!({"rollingUpdate": {"maxSurge": "abc", "maxUnavailable": 1}}));
                })),
                want: vec!["spec.strategy.rollingUpdate.maxSurge: Invalid value: \"abc\": a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')"],
            },
            MsgCase {
                name: "negative minReadySeconds and revisionHistoryLimit",
                errs: validate_deployment(&web(|d| {
                    let s = ptr(d, "/spec").as_object_mut().unwrap();
                    s.insert("minReadySeconds".into(), json!(-1));
                    s.insert("revisionHistoryLimit".into(), json!(-2));
                })),
                want: vec![
                    "spec.minReadySeconds: Invalid value: -1: must be greater than or equal to 0",
                    "spec.revisionHistoryLimit: Invalid value: -2: must be greater than or equal to 0",
                ],
            },
            MsgCase {
                name: "bad label key and value (metadata first, then template)",
                errs: validate_deployment(&web(|d| {
                    ins(d, "/metadata", "labels", json!({"a/b/c": "ok", "good": "-bad"}));
                })),
                want: vec![
                    "metadata.labels: Invalid value: \"a/b/c\": a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
                    "metadata.labels: Invalid value: \"-bad\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
                ],
            },
            MsgCase {
                name: "invalid selector value also makes the selector unusable",
                errs: validate_deployment(&web(|d| *ptr(d, "/spec/selector") = json!({"matchLabels": {"app": "-x"}}))),
                want: vec![
                    "spec.selector.matchLabels: Invalid value: \"-x\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
                    "spec.selector: Invalid value: {\"matchLabels\":{\"app\":\"-x\"}}: invalid label selector",
                ],
            },
            MsgCase {
                name: "matchExpressions selector",
                errs: validate_deployment(&web(|d| *ptr(d, "/spec/selector") = json!({"matchExpressions": [{"key": "app", "operator": "In", "values": ["db"]}]}))),
                want: vec!["spec.template.metadata.labels: Invalid value: {\"app\":\"web\"}: `selector` does not match template `labels`"],
            },
            MsgCase {
                name: "namespace must be a DNS label",
                errs: validate_deployment(&web(|d| *ptr(d, "/metadata/namespace") = json!("a.b"))),
                want: vec!["metadata.namespace: Invalid value: \"a.b\": must not contain dots"],
            },
            MsgCase {
                name: "generateName prefix with trailing dash is fine, bad one is not",
                errs: validate_deployment(&web(|d| {
                    *ptr(d, "/metadata") = json!({"generateName": "Web-", "name": "web-abcde", "namespace": "default"});
                })),
                want: vec!["metadata.generateName: Invalid value: \"Web-\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"],
            },
            MsgCase {
                name: "name too long",
                errs: validate_deployment(&web(|d| *ptr(d, "/metadata/name") = json!("a".repeat(254)))),
                want: vec![Box::leak(format!("metadata.name: Invalid value: \"{}\": must be no more than 253 characters", "a".repeat(254)).into_boxed_str())],
            },
            MsgCase {
                name: "annotation too large",
                errs: validate_deployment(&web(|d| ins(d, "/metadata", "annotations", json!({"big": "x".repeat(262142)})))),
                want: vec!["metadata.annotations: Too long: may not be more than 262144 bytes"],
            },
            MsgCase {
                name: "unknown finalizer",
                errs: validate_deployment(&web(|d| ins(d, "/metadata", "finalizers", json!(["custom"])))),
                want: vec!["metadata.finalizers[0]: Invalid value: \"custom\": name is neither a standard finalizer name nor is it fully qualified"],
            },
        ];
        for c in cases {
            assert_eq!(strings(&c.errs), c.want, "case {}", c.name);
        }
    }

    fn with_container(mutate: impl FnOnce(&mut Value)) -> Vec<FieldError> {
        validate_deployment(&web(|d| mutate(ptr(d, "/spec/template/spec/containers/0"))))
    }

    #[test]
    fn container_messages() {
        let cases = vec![
            MsgCase {
                name: "duplicate container name",
                errs: validate_deployment(&web(|d| {
                    *ptr(d, "/spec/template/spec/containers") = json!([{"name": "x", "image": "a"}, {"name": "x", "image": "b"}]);
                })),
                want: vec!["spec.template.spec.containers[1].name: Duplicate value: \"x\""],
            },
            MsgCase {
                name: "containerPort out of range",
                errs: with_container(|c| *ptr(c, "/ports/0/containerPort") = json!(70000)),
                want: vec!["spec.template.spec.containers[0].ports[0].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive"],
            },
            MsgCase {
                name: "bad protocol",
                errs: with_container(|c| *ptr(c, "/ports/0") = json!({"containerPort": 80, "protocol": "HTTP"})),
                want: vec!["spec.template.spec.containers[0].ports[0].protocol: Unsupported value: \"HTTP\": supported values: \"SCTP\", \"TCP\", \"UDP\""],
            },
            MsgCase {
                name: "bad imagePullPolicy",
                errs: with_container(|c| {
                    c.as_object_mut().unwrap().insert("imagePullPolicy".into(), json!("Sometimes"));
                }),
                want: vec!["spec.template.spec.containers[0].imagePullPolicy: Unsupported value: \"Sometimes\": supported values: \"Always\", \"IfNotPresent\", \"Never\""],
            },
            MsgCase {
                name: "requests above limits",
                errs: with_container(|c| {
                    c.as_object_mut().unwrap().insert("resources".into(), json!({"limits": {"cpu": "500m"}, "requests": {"cpu": "1"}}));
                }),
                want: vec!["spec.template.spec.containers[0].resources.requests: Invalid value: \"1\": must be less than or equal to cpu limit of 500m"],
            },
            MsgCase {
                name: "canonical quantities in messages",
                errs: with_container(|c| {
                    c.as_object_mut().unwrap().insert("resources".into(), json!({"limits": {"memory": "1024Mi"}, "requests": {"memory": "1.5Gi"}}));
                }),
                want: vec!["spec.template.spec.containers[0].resources.requests: Invalid value: \"1536Mi\": must be less than or equal to memory limit of 1Gi"],
            },
            MsgCase {
                name: "negative quantity",
                errs: with_container(|c| {
                    c.as_object_mut().unwrap().insert("resources".into(), json!({"requests": {"memory": "-1"}}));
                }),
                want: vec!["spec.template.spec.containers[0].resources.requests[memory]: Invalid value: \"-1\": must be greater than or equal to 0"],
            },
            MsgCase {
                name: "unknown resource name",
                errs: with_container(|c| {
                    c.as_object_mut().unwrap().insert("resources".into(), json!({"limits": {"gpu": "1"}}));
                }),
                want: vec![
                    "spec.template.spec.containers[0].resources.limits[gpu]: Invalid value: \"gpu\": must be a standard resource type or fully qualified",
                    "spec.template.spec.containers[0].resources.limits[gpu]: Invalid value: \"gpu\": must be a standard resource for containers",
                ],
            },
            MsgCase {
                name: "extended resource must be integer and equal",
                errs: with_container(|c| {
                    c.as_object_mut().unwrap().insert("resources".into(), json!({"limits": {"example.com/gpu": "2"}, "requests": {"example.com/gpu": "500m"}}));
                }),
                want: vec![
                    "spec.template.spec.containers[0].resources.requests[example.com/gpu]: Invalid value: \"500m\": must be an integer",
                    "spec.template.spec.containers[0].resources.requests: Invalid value: \"500m\": must be equal to example.com/gpu limit of 2",
                ],
            },
            MsgCase {
                name: "probe handler missing and liveness successThreshold",
                errs: with_container(|c| {
                    c.as_object_mut().unwrap().insert("livenessProbe".into(), json!({"successThreshold": 2}));
                }),
                want: vec![
                    "spec.template.spec.containers[0].livenessProbe: Required value: must specify a handler type",
                    "spec.template.spec.containers[0].livenessProbe.successThreshold: Invalid value: 2: must be 1",
                ],
            },
            MsgCase {
                name: "volume mount not found",
                errs: with_container(|c| {
                    c.as_object_mut().unwrap().insert("volumeMounts".into(), json!([{"name": "data", "mountPath": "/data"}]));
                }),
                want: vec!["spec.template.spec.containers[0].volumeMounts[0].name: Not found: \"data\""],
            },
            MsgCase {
                name: "env name with =",
                errs: with_container(|c| {
                    c.as_object_mut().unwrap().insert("env".into(), json!([{"name": "A=B", "value": "1"}]));
                }),
                want: vec!["spec.template.spec.containers[0].env[0].name: Invalid value: \"A=B\": a valid environment variable name must consist only of printable ASCII characters other than '='"],
            },
            MsgCase {
                name: "dnsPolicy unsupported",
                errs: validate_deployment(&web(|d| {
                    ptr(d, "/spec/template/spec").as_object_mut().unwrap().insert("dnsPolicy".into(), json!("Google"));
                })),
                want: vec!["spec.template.spec.dnsPolicy: Unsupported value: \"Google\": supported values: \"ClusterFirstWithHostNet\", \"ClusterFirst\", \"Default\", \"None\""],
            },
            MsgCase {
                name: "unknown restartPolicy fails twice",
                errs: validate_deployment(&web(|d| {
                    ptr(d, "/spec/template/spec").as_object_mut().unwrap().insert("restartPolicy".into(), json!("Sometimes"));
                })),
                want: vec![
                    "spec.template.spec.restartPolicy: Unsupported value: \"Sometimes\": supported values: \"Always\", \"OnFailure\", \"Never\"",
                    "spec.template.spec.restartPolicy: Unsupported value: \"Sometimes\": supported values: \"Always\"",
                ],
            },
            MsgCase {
                name: "bad toleration",
                errs: validate_deployment(&web(|d| {
                    ptr(d, "/spec/template/spec").as_object_mut().unwrap().insert("tolerations".into(), json!([{"operator": "Equal", "value": "x"}]));
                })),
                want: vec!["spec.template.spec.tolerations[0].operator: Invalid value: \"Equal\": operator must be Exists when `key` is empty, which means \"match all values and all keys\""],
            },
        ];
        for c in cases {
            assert_eq!(strings(&c.errs), c.want, "case {}", c.name);
        }
    }

    #[test]
    fn update_messages() {
        let mut old = web(|_| {});
        ptr(&mut old, "/metadata")
            .as_object_mut()
            .unwrap()
            .insert("resourceVersion".into(), json!("10"));
        let mut new = old.clone();
        *ptr(&mut new, "/spec/selector") = json!({"matchLabels": {"app": "web", "tier": "fe"}});
        *ptr(&mut new, "/spec/template/metadata/labels") = json!({"app": "web", "tier": "fe"});
        let cases = vec![
            MsgCase {
                name: "deployment selector immutable",
                errs: validate_deployment_update(&new, &old),
                want: vec!["spec.selector: Invalid value: {\"matchLabels\":{\"app\":\"web\",\"tier\":\"fe\"}}: field is immutable"],
            },
            MsgCase { name: "unchanged deployment", errs: validate_deployment_update(&old, &old), want: vec![] },
            MsgCase {
                name: "missing resourceVersion and renamed",
                errs: validate_deployment_update(&web(|d| *ptr(d, "/metadata/name") = json!("web2")), &old),
                want: vec![
                    "metadata.resourceVersion: Invalid value: \"\": must be specified for an update",
                    "metadata.name: Invalid value: \"web2\": field is immutable",
                ],
            },
        ];
        for c in cases {
            assert_eq!(strings(&c.errs), c.want, "case {}", c.name);
        }

        let mut pod = json!({"metadata": {"name": "p", "namespace": "default", "resourceVersion": "5"},
                             "spec": {"containers": [{"name": "c", "image": "nginx:1"}]}});
        set_object_defaults_pod(&mut pod);
        admit_pod(&mut pod, "abcde");
        let mut image_change = pod.clone();
        *ptr(&mut image_change, "/spec/containers/0/image") = json!("nginx:2");
        assert_eq!(
            validate_pod_update(&image_change, &pod),
            vec![],
            "image update allowed"
        );

        let mut port_change = pod.clone();
        ptr(&mut port_change, "/spec/containers/0")
            .as_object_mut()
            .unwrap()
            .insert(
                "ports".into(),
                json!([{"containerPort": 80, "protocol": "TCP"}]),
            );
        let errs = validate_pod_update(&port_change, &pod);
        assert_eq!(errs.len(), 1, "spec change forbidden");
        assert!(
            errs[0].to_string().starts_with("spec: Forbidden: pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)\n  core.PodSpec{\n"),
            "got {}",
            errs[0]
        );

        let mut removed = pod.clone();
        *ptr(&mut removed, "/spec/containers") = json!([]);
        let errs = strings(&validate_pod_update(&removed, &pod));
        assert_eq!(
            errs.last().map(String::as_str),
            Some("spec.containers: Forbidden: pod updates may not add or remove containers")
        );
    }

    #[test]
    fn pod_namespace_node_messages() {
        let mut bad_pod = json!({"metadata": {"name": "p", "namespace": "default", "annotations": {"controller.kubernetes.io/pod-deletion-cost": "+5"}},
                                 "spec": {"hostNetwork": true, "containers": [{"name": "c", "image": " nginx", "ports": [{"containerPort": 80, "hostPort": 81}]}]}});
        set_object_defaults_pod(&mut bad_pod);
        let mut ns_bad = json!({"metadata": {"name": "Team", "namespace": "x"}, "spec": {"finalizers": ["foo"]}});
        ns_bad["x"] = json!(1);
        let cases = vec![
            MsgCase {
                name: "pod",
                errs: validate_pod(&bad_pod),
                want: vec![
                    "metadata.annotations[controller.kubernetes.io/pod-deletion-cost]: Invalid value: \"+5\": must be a 32bit integer",
                    "spec.containers[0].ports[0].hostPort: Invalid value: 81: must match `containerPort` when `hostNetwork` is true",
                    "spec.containers[0].image: Invalid value: \" nginx\": must not have leading or trailing whitespace",
                ],
            },
            MsgCase {
                name: "namespace",
                errs: validate_namespace(&ns_bad),
                want: vec![
                    "metadata.name: Invalid value: \"Team\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
                    "metadata.namespace: Forbidden: not allowed on this type",
                    "spec.finalizers: Invalid value: \"foo\": name is neither a standard finalizer name nor is it fully qualified",
                ],
            },
            MsgCase {
                name: "node taints",
                errs: validate_node(&json!({"metadata": {"name": "n"}, "spec": {"taints": [
                    {"key": "a", "effect": "NoSchedule"}, {"key": "a", "effect": "NoSchedule"}, {"key": "b", "effect": "Sometimes"}]}})),
                want: vec![
                    "metadata.taints[1]: Duplicate value: {\"Key\":\"a\",\"Value\":\"\",\"Effect\":\"NoSchedule\",\"TimeAdded\":null}: taints must be unique by key and effect pair",
                    "metadata.taints[2].effect: Unsupported value: \"Sometimes\": supported values: \"NoSchedule\", \"PreferNoSchedule\", \"NoExecute\"",
                ],
            },
        ];
        for c in cases {
            assert_eq!(strings(&c.errs), c.want, "case {}", c.name);
        }
    }

    #[test]
    fn name_helpers() {
        let cases = [
            ("label ok", is_dns1123_label("web-1"), true),
            ("label uppercase", is_dns1123_label("Web"), false),
            ("label dots", is_dns1123_label("a.b"), false),
            ("label 64", is_dns1123_label(&"a".repeat(64)), false),
            ("subdomain ok", is_dns1123_subdomain("a.b-c.d"), true),
            ("subdomain empty label", is_dns1123_subdomain("a..b"), false),
            (
                "subdomain trailing dash",
                is_dns1123_subdomain("web-"),
                false,
            ),
            (
                "subdomain 253",
                is_dns1123_subdomain(&"a".repeat(253)),
                true,
            ),
            (
                "mask trailing dash",
                mask_trailing_dash("web-") == "wea",
                true,
            ),
        ];
        for (name, got, want) in cases {
            assert_eq!(got, want, "case {}", name);
        }
    }

    #[test]
    fn quantity_canonical_forms() {
        let cases = [
            ("0.5", "500m"),
            ("1000m", "1"),
            ("2000", "2k"),
            ("1024Mi", "1Gi"),
            ("1.5Gi", "1536Mi"),
            ("100Ki", "100Ki"),
            ("512", "512"),
            ("1e3", "1e3"),
            ("0.1m", "100u"),
            ("-1", "-1"),
            ("1Ki", "1Ki"),
            ("0", "0"),
            ("128974848", "128974848"),
        ];
        for (input, want) in cases {
            let q = quantity::parse(input).expect(input);
            assert_eq!(q.to_string(), want, "case {}", input);
        }
        for bad in ["", "abc", "1.2.3", "1x", "--1"] {
            assert!(quantity::parse(bad).is_none(), "case {}", bad);
        }
    }

    #[test]
    fn never_panics_on_garbage() {
        let garbage = [
            json!(null),
            json!(1),
            json!("x"),
            json!([]),
            json!({"metadata": 5, "spec": "x"}),
            json!({"metadata": {"name": 3, "labels": [1], "annotations": {"a": 1}, "ownerReferences": [null, {"controller": true}, {"controller": true}]},
                   "spec": {"replicas": "x", "selector": {"matchLabels": 3, "matchExpressions": [null, {"operator": 1}]},
                            "strategy": {"type": 1, "rollingUpdate": "x"},
                            "template": {"metadata": [], "spec": {"containers": [null, 1, {"ports": [null, {"containerPort": "x"}], "resources": {"limits": {"cpu": [1]}, "requests": {"cpu": {}}},
                                "livenessProbe": {"httpGet": {"port": null}}, "env": [{"valueFrom": {"fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.labels['x"}}}]}],
                                "volumes": [null, {"name": "é", "projected": {"sources": [{"serviceAccountToken": {}}]}}]}}},
                   "status": {"capacity": {"cpu": null}}}),
        ];
        for g in &garbage {
            let _ = validate_deployment(g);
            let _ = validate_deployment_update(g, &json!(null));
            let _ = validate_replica_set(g);
            let _ = validate_replica_set_update(g, g);
            let _ = validate_pod(g);
            let _ = validate_pod_update(g, &json!({}));
            let _ = validate_namespace(g);
            let _ = validate_node(g);
        }
        let _ = mask_trailing_dash("é-");
        let _ = quantity::parse("99999999999999999999999999999999999999999Ei");
    }
}
