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
pub fn config_map_key_errors(s: &str) -> Vec<String> {
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


mod apiextensions;
mod apps;
mod autoscaling;
mod config;
mod networking;
mod node;
mod pod;
mod policy;
mod rbac;
mod service;
mod scheduling;
mod storage;
pub use apiextensions::*;
pub use apps::*;
pub use autoscaling::*;
pub use config::*;
pub use networking::*;
pub use node::*;
pub use pod::*;
pub use policy::*;
pub use rbac::*;
pub use scheduling::*;
pub use storage::*;
pub use service::*;

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
        admit_pod(&mut p, "x8k2q", None);
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
        admit_pod(&mut pod, "abcde", None);
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
