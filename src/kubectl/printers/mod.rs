//! kubectl's output printers: `get` tables, `-o yaml`, `-o json`, and the helpers `describe` shares.
//!
//! Upstream sources this file models (read them side by side with this code):
//! - `pkg/printers/internalversion/printers.go` (kubernetes/kubernetes): the server-side table
//!   columns and the row functions `printDeployment`, `printReplicaSet`, `printPod`, `printNode`,
//!   `printNamespace`, `printEvent`, plus `layoutContainerCells`, `findNodeRoles`,
//!   `translateTimestampSince`. kube-apiserver builds a `metav1.Table` with these and kubectl
//!   only lays it out, so the column logic really lives in the server.
//! - `staging/src/k8s.io/cli-runtime/pkg/printers/tableprinter.go` and `tabwriter.go`: headers are
//!   the upper-cased column names, `-o wide` adds the priority-1 columns, cells are cut at the first
//!   newline (`...`), and the text goes through a `text/tabwriter` with minwidth 6, padding 3.
//!   `with_kind` prefixes the name column with `kind.group/` (`formatResourceName`).
//! - `staging/src/k8s.io/apimachinery/pkg/util/duration/duration.go`: `HumanDuration` (AGE).
//! - Go's `text/tabwriter` (`format`/`writeLines`): ported faithfully, because `describe` relies
//!   on its *column blocks* (a line without a tab ends every column, so alignment restarts).
//! - `sigs.k8s.io/yaml` → go-yaml v2 emitter (`-o yaml`): keys sorted with go-yaml's "natural"
//!   order, block sequences not indented under their key, go-yaml's quoting rules (strings that
//!   would read back as another type are double-quoted, strings with indicators single-quoted,
//!   multi-line strings as `|` literals) and its 80-column folding of long plain/quoted scalars.
//! - `encoding/json.MarshalIndent(obj, "", "    ")` (`-o json`): 4-space indent, sorted keys,
//!   `<`, `>`, `&` escaped as `\u003c` etc. like Go does by default.
//! - `staging/src/k8s.io/kubectl/pkg/cmd/get/get.go`: lists print as `kind: List` with
//!   `metadata.resourceVersion: ""`; `kubectl get events` does NOT sort (no `--sort-by`), so rows
//!   come in the apiserver's list order, which is etcd key order (namespace, then name).
//!
//! Files: this one (the `get` tables and the helpers `describe` shares), `tabwriter.rs`,
//! `json.rs` (`-o json`), `yaml.rs` (`-o yaml`).
//!
//! The `describe_*` functions live in the sibling module `describe.rs` (declared by
//! `kubectl/mod.rs`) and are re-exported here, so callers use `printers::describe_pod` etc.
//!
//! Simplifications: no NAMESPACE column (`-A`), no `--show-labels`, no terminal-escape filtering;
//! go-yaml's "complex key" form (`? key`) for keys over 128 characters is not reproduced.
//! Quantities use a small private parser (only what `describe node` needs to sum requests).

mod json;
pub(crate) mod tabwriter;
mod yaml;
pub use json::{list_to_json, to_json};
use crate::sim::sort::CompactSort;
pub(crate) use json::{json_string, push_json_number};
pub(crate) use tabwriter::tabwriter;
pub(crate) use json::go_g_float;
use json::list_object;
pub use yaml::{list_to_yaml, to_yaml};

use serde_json::{Map, Value};

pub use super::describe::{describe_daemon_set, describe_deployment, describe_job, describe_node, describe_pod, describe_replica_set, describe_service};

// ---------------------------------------------------------------------------------------------
// Small accessors: every read from an object is total (missing or mistyped -> empty / None).
// ---------------------------------------------------------------------------------------------

pub(crate) use crate::api::meta::{get, get_array as ga, get_bool as gb, get_i64 as gi, get_str as gs};

/// String map (labels, annotations, nodeSelector) at `path`, sorted by key.
pub(crate) fn gmap(v: &Value, path: &[&str]) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = match get(v, path).and_then(|x| x.as_object()) {
        Some(m) => m.iter().map(|(k, v)| (k.clone(), scalar_text(v))).collect(),
        None => Vec::new(),
    };
    out.csort();
    out
}

/// Go's `%v` of a JSON scalar (strings unquoted).
pub(crate) fn scalar_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        other => other.to_string(),
    }
}

// ---------------------------------------------------------------------------------------------
// Time: RFC 3339 parsing (metav1.Time / MicroTime), RFC1123Z formatting, HumanDuration.
// ---------------------------------------------------------------------------------------------


use crate::api::time::parse_rfc3339_unix;

/// Go's `time.RFC1123Z` layout (`Mon, 02 Jan 2006 15:04:05 -0700`) in UTC, as kubectl describe
/// prints timestamps (on a machine whose local zone is UTC).
pub fn format_rfc1123z(ms: i64) -> String {
    crate::api::time::unix_rfc1123z(ms)
}

/// `metav1.Time{}` (the zero time) formatted with RFC1123Z, what describe prints for an unset time.
pub const ZERO_TIME_RFC1123Z: &str = "Mon, 01 Jan 0001 00:00:00 +0000";

/// RFC1123Z of a timestamp field, or the zero time when it is unset.
pub(crate) fn rfc1123z_field(v: &Value, path: &[&str]) -> String {
    match parse_rfc3339_unix(gs(v, path)) {
        Some(ms) => format_rfc1123z(ms),
        None => ZERO_TIME_RFC1123Z.to_string(),
    }
}

/// apimachinery `duration.HumanDuration`: ~2-3 significant figures ("5s", "2m30s", "3h", "2d").
/// Up to 1s in the future still reads "0s" (clock skew); further in the future is `<invalid>`.
pub fn human_duration(d_ms: i64) -> String {
    // int(d.Seconds()) truncates toward zero.
    let seconds = d_ms / 1000;
    if seconds < -1 {
        return "<invalid>".into();
    } else if seconds < 0 {
        return "0s".into();
    } else if seconds < 60 * 2 {
        return format!("{}s", seconds);
    }
    let minutes = d_ms / 60_000;
    if minutes < 10 {
        let s = (d_ms / 1000) % 60;
        if s == 0 {
            return format!("{}m", minutes);
        }
        return format!("{}m{}s", minutes, s);
    } else if minutes < 60 * 3 {
        return format!("{}m", minutes);
    }
    let hours = d_ms / 3_600_000;
    if hours < 8 {
        let m = (d_ms / 60_000) % 60;
        if m == 0 {
            return format!("{}h", hours);
        }
        return format!("{}h{}m", hours, m);
    } else if hours < 48 {
        return format!("{}h", hours);
    } else if hours < 24 * 8 {
        let h = hours % 24;
        if h == 0 {
            return format!("{}d", hours / 24);
        }
        return format!("{}d{}h", hours / 24, h);
    } else if hours < 24 * 365 * 2 {
        return format!("{}d", hours / 24);
    } else if hours < 24 * 365 * 8 {
        let dy = (hours / 24) % 365;
        if dy == 0 {
            return format!("{}y", hours / 24 / 365);
        }
        return format!("{}y{}d", hours / 24 / 365, dy);
    }
    format!("{}y", hours / 24 / 365)
}

/// `translateTimestampSince`: `<unknown>` for an unset time, else HumanDuration(now - t).
pub(crate) fn translate_timestamp_since(ts: &str, now_ms: i64) -> String {
    match parse_rfc3339_unix(ts) {
        Some(t) => human_duration(now_ms - t),
        None => "<unknown>".into(),
    }
}

// ---------------------------------------------------------------------------------------------
// Quantities: the shared `resource.Quantity` of [`crate::api::quantity`].
// ---------------------------------------------------------------------------------------------

pub(crate) use crate::api::quantity::{Format as QFormat, Quantity as Qty};

/// A quantity from a JSON value (a string like "100m", or a bare number); `null` and other
/// types are not quantities here.
pub(crate) fn qty_from_value(v: &Value) -> Option<Qty> {
    match v {
        Value::String(_) | Value::Number(_) => crate::api::quantity::parse_quantity(v),
        _ => None,
    }
}

// ---------------------------------------------------------------------------------------------
// Label selectors (metav1.LabelSelectorAsSelector(...).String(), FormatLabelSelector).
// ---------------------------------------------------------------------------------------------

pub(crate) use crate::api::meta::{format_label_selector, selector_string};

// ---------------------------------------------------------------------------------------------
// `kubectl get` tables.
// ---------------------------------------------------------------------------------------------

struct Column {
    name: &'static str,
    /// 0 = always shown; 1 = only with `-o wide`
    priority: u8,
    /// the column kubectl prefixes with `kind/` when several kinds are printed
    is_name: bool,
}

const fn col(name: &'static str, priority: u8) -> Column {
    Column { name, priority, is_name: false }
}
const fn name_col(priority: u8) -> Column {
    Column { name: "Name", priority, is_name: true }
}

const POD_COLUMNS: &[Column] = &[
    name_col(0),
    col("Ready", 0),
    col("Status", 0),
    col("Restarts", 0),
    col("Age", 0),
    col("IP", 1),
    col("Node", 1),
    col("Nominated Node", 1),
    col("Readiness Gates", 1),
];
const REPLICASET_COLUMNS: &[Column] =
    &[name_col(0), col("Desired", 0), col("Current", 0), col("Ready", 0), col("Age", 0), col("Containers", 1), col("Images", 1), col("Selector", 1)];
const DEPLOYMENT_COLUMNS: &[Column] =
    &[name_col(0), col("Ready", 0), col("Up-to-date", 0), col("Available", 0), col("Age", 0), col("Containers", 1), col("Images", 1), col("Selector", 1)];
const NODE_COLUMNS: &[Column] = &[
    name_col(0),
    col("Status", 0),
    col("Roles", 0),
    col("Age", 0),
    col("Version", 0),
    col("Internal-IP", 1),
    col("External-IP", 1),
    col("OS-Image", 1),
    col("Kernel-Version", 1),
    col("Container-Runtime", 1),
];
const NAMESPACE_COLUMNS: &[Column] = &[name_col(0), col("Status", 0), col("Age", 0)];
const DAEMONSET_COLUMNS: &[Column] = &[
    name_col(0),
    col("Desired", 0),
    col("Current", 0),
    col("Ready", 0),
    col("Up-to-date", 0),
    col("Available", 0),
    col("Node Selector", 0),
    col("Age", 0),
    col("Containers", 1),
    col("Images", 1),
    col("Selector", 1),
];
const JOB_COLUMNS: &[Column] = &[name_col(0), col("Status", 0), col("Completions", 0), col("Duration", 0), col("Age", 0), col("Containers", 1), col("Images", 1), col("Selector", 1)];
const CRONJOB_COLUMNS: &[Column] = &[name_col(0), col("Schedule", 0), col("Timezone", 0), col("Suspend", 0), col("Active", 0), col("Last Schedule", 0), col("Age", 0), col("Containers", 1), col("Images", 1), col("Selector", 1)];
const STATEFULSET_COLUMNS: &[Column] = &[name_col(0), col("Ready", 0), col("Age", 0), col("Containers", 1), col("Images", 1)];
const PVC_COLUMNS: &[Column] = &[name_col(0), col("Status", 0), col("Volume", 0), col("Capacity", 0), col("Access Modes", 0), col("StorageClass", 0), col("VolumeAttributesClass", 0), col("Age", 0), col("VolumeMode", 1)];
const PV_COLUMNS: &[Column] = &[
    name_col(0),
    col("Capacity", 0),
    col("Access Modes", 0),
    col("Reclaim Policy", 0),
    col("Status", 0),
    col("Claim", 0),
    col("StorageClass", 0),
    col("VolumeAttributesClass", 0),
    col("Reason", 0),
    col("Age", 0),
    col("VolumeMode", 1),
];
const STORAGE_CLASS_COLUMNS: &[Column] = &[name_col(0), col("Provisioner", 0), col("ReclaimPolicy", 0), col("VolumeBindingMode", 0), col("AllowVolumeExpansion", 0), col("Age", 0)];
const RESOURCE_QUOTA_COLUMNS: &[Column] = &[name_col(0), col("Age", 0), col("Request", 0), col("Limit", 0)];
const CONFIG_MAP_COLUMNS: &[Column] = &[name_col(0), col("Data", 0), col("Age", 0)];
const SECRET_COLUMNS: &[Column] = &[name_col(0), col("Type", 0), col("Data", 0), col("Age", 0)];
const SERVICE_ACCOUNT_COLUMNS: &[Column] = &[name_col(0), col("Secrets", 0), col("Age", 0)];
/// printers.go roleColumnDefinitions (Role and ClusterRole).
const ROLE_COLUMNS: &[Column] = &[name_col(0), col("Created At", 0)];
/// printers.go roleBindingsColumnDefinitions (RoleBinding and ClusterRoleBinding).
const ROLE_BINDING_COLUMNS: &[Column] = &[name_col(0), col("Role", 0), col("Age", 0), col("Users", 1), col("Groups", 1), col("ServiceAccounts", 1)];
const PRIORITY_CLASS_COLUMNS: &[Column] = &[name_col(0), col("Value", 0), col("Global-Default", 0), col("Age", 0), col("PreemptionPolicy", 0)];
const CONTROLLER_REVISION_COLUMNS: &[Column] = &[name_col(0), col("Controller", 0), col("Revision", 0), col("Age", 0)];
const EVENT_COLUMNS: &[Column] = &[
    col("Last Seen", 0),
    col("Type", 0),
    col("Reason", 0),
    col("Object", 0),
    col("Subobject", 1),
    col("Source", 1),
    col("Message", 0),
    col("First Seen", 1),
    col("Count", 1),
    name_col(1),
];
const SERVICE_COLUMNS: &[Column] =
    &[name_col(0), col("Type", 0), col("Cluster-IP", 0), col("External-IP", 0), col("Port(s)", 0), col("Age", 0), col("Selector", 1)];
const ENDPOINTS_COLUMNS: &[Column] = &[name_col(0), col("Endpoints", 0), col("Age", 0)];
const ENDPOINT_SLICE_COLUMNS: &[Column] = &[name_col(0), col("AddressType", 0), col("Ports", 0), col("Endpoints", 0), col("Age", 0)];
/// `leaseColumnDefinitions` (`pkg/printers/internalversion/printers.go`): NAME, HOLDER, AGE.
const LEASE_COLUMNS: &[Column] = &[name_col(0), col("Holder", 0), col("Age", 0)];
const DEFAULT_COLUMNS: &[Column] = &[name_col(0), col("Age", 0)];
const INGRESS_COLUMNS: &[Column] = &[name_col(0), col("Class", 0), col("Hosts", 0), col("Address", 0), col("Ports", 0), col("Age", 0)];
const INGRESS_CLASS_COLUMNS: &[Column] = &[name_col(0), col("Controller", 0), col("Parameters", 0), col("Age", 0)];
const NETWORK_POLICY_COLUMNS: &[Column] = &[name_col(0), col("Pod-Selector", 0), col("Age", 0)];
const PDB_COLUMNS: &[Column] = &[name_col(0), col("Min Available", 0), col("Max Unavailable", 0), col("Allowed Disruptions", 0), col("Age", 0)];

/// `printPodDisruptionBudget`: the int-or-percent fields as written, `N/A` when unset.
fn print_pdb_row(pdb: &Value, now_ms: i64) -> Vec<String> {
    let ios = |k: &str| match get(pdb, &["spec", k]) {
        Some(Value::Number(n)) => n.to_string(),
        Some(Value::String(s)) => s.clone(),
        _ => "N/A".to_string(),
    };
    let allowed = get(pdb, &["status", "disruptionsAllowed"]).and_then(Value::as_i64).unwrap_or(0);
    vec![gs(pdb, &["metadata", "name"]).to_string(), ios("minAvailable"), ios("maxUnavailable"), allowed.to_string(), age(pdb, now_ms)]
}

const HPA_COLUMNS: &[Column] = &[name_col(0), col("Reference", 0), col("Targets", 0), col("MinPods", 0), col("MaxPods", 0), col("Replicas", 0), col("Age", 0)];

/// `printHorizontalPodAutoscaler`.
fn print_hpa_row(hpa: &Value, now_ms: i64) -> Vec<String> {
    let reference = format!("{}/{}", gs(hpa, &["spec", "scaleTargetRef", "kind"]), gs(hpa, &["spec", "scaleTargetRef", "name"]));
    let min = get(hpa, &["spec", "minReplicas"]).and_then(Value::as_i64).map(|m| m.to_string()).unwrap_or_else(|| "<unset>".into());
    let max = get(hpa, &["spec", "maxReplicas"]).and_then(Value::as_i64).unwrap_or(0);
    let current = get(hpa, &["status", "currentReplicas"]).and_then(Value::as_i64).unwrap_or(0);
    let specs = get(hpa, &["spec", "metrics"]).and_then(Value::as_array).cloned().unwrap_or_default();
    let statuses = get(hpa, &["status", "currentMetrics"]).and_then(Value::as_array).cloned().unwrap_or_default();
    vec![gs(hpa, &["metadata", "name"]).to_string(), reference, format_hpa_metrics(&specs, &statuses), min, max.to_string(), current.to_string(), age(hpa, now_ms)]
}

/// `formatHPAMetrics`: at most two targets, `current/target` each (`cpu: 73%/50%`).
pub fn format_hpa_metrics(specs: &[Value], statuses: &[Value]) -> String {
    if specs.is_empty() {
        return "<none>".into();
    }
    let q = |v: Option<&Value>| v.and_then(crate::api::quantity::parse_quantity).map(|q| q.canonical());
    let mut list: Vec<String> = Vec::new();
    let mut count = 0;
    let mut more = false;
    for (i, spec) in specs.iter().enumerate() {
        let status = statuses.get(i);
        let ty = gs(spec, &["type"]);
        let item = match ty {
            "Resource" | "ContainerResource" => {
                let key = if ty == "Resource" { "resource" } else { "containerResource" };
                let name = gs(spec, &[key, "name"]);
                let target = get(spec, &[key, "target"]);
                let cur = status.and_then(|s| get(s, &[key, "current"]));
                if let Some(avg) = target.and_then(|t| t.get("averageValue")).filter(|v| !v.is_null()) {
                    let current = cur.and_then(|c| q(c.get("averageValue"))).unwrap_or_else(|| "<unknown>".into());
                    format!("{}: {}/{}", name, current, q(Some(avg)).unwrap_or_default())
                } else {
                    let current = cur.and_then(|c| c.get("averageUtilization")).and_then(Value::as_i64).map(|u| format!("{}%", u)).unwrap_or_else(|| "<unknown>".into());
                    let target = target.and_then(|t| t.get("averageUtilization")).and_then(Value::as_i64).map(|u| format!("{}%", u)).unwrap_or_else(|| "<auto>".into());
                    format!("{}: {}/{}", name, current, target)
                }
            }
            "Pods" | "Object" | "External" => {
                let key = match ty {
                    "Pods" => "pods",
                    "Object" => "object",
                    _ => "external",
                };
                let target = get(spec, &[key, "target"]);
                let cur = status.and_then(|s| get(s, &[key, "current"]));
                match target.and_then(|t| t.get("averageValue")).filter(|v| !v.is_null()) {
                    Some(avg) if ty != "Pods" => format!("{}/{} (avg)", cur.and_then(|c| q(c.get("averageValue"))).unwrap_or_else(|| "<unknown>".into()), q(Some(avg)).unwrap_or_default()),
                    Some(avg) => format!("{}/{}", cur.and_then(|c| q(c.get("averageValue"))).unwrap_or_else(|| "<unknown>".into()), q(Some(avg)).unwrap_or_default()),
                    None => format!("{}/{}", cur.and_then(|c| q(c.get("value"))).unwrap_or_else(|| "<unknown>".into()), q(target.and_then(|t| t.get("value"))).unwrap_or_default()),
                }
            }
            _ => "<unknown type>".into(),
        };
        list.push(item);
        if list.len() > 2 {
            list.truncate(2);
            more = true;
            break;
        }
        count += 1;
    }
    let ret = list.join(", ");
    if more {
        format!("{} + {} more...", ret, specs.len() - count)
    } else {
        ret
    }
}

const APISERVICE_COLUMNS: &[Column] = &[name_col(0), col("Service", 0), col("Available", 0), col("Age", 0)];

/// kube-aggregator's table convertor for APIServices: the Service or `Local`, and the
/// `Available` condition (`False (MissingEndpoints)`).
fn print_apiservice_row(svc: &Value, now_ms: i64) -> Vec<String> {
    let service = match get(svc, &["spec", "service"]).filter(|s| !s.is_null()) {
        Some(s) => format!("{}/{}", gs(s, &["namespace"]), gs(s, &["name"])),
        None => "Local".into(),
    };
    let available = get(svc, &["status", "conditions"]).and_then(Value::as_array).and_then(|cs| cs.iter().find(|c| gs(c, &["type"]) == "Available")).map(|c| {
        let (status, reason) = (gs(c, &["status"]), gs(c, &["reason"]));
        if status == "True" || reason.is_empty() {
            status.to_string()
        } else {
            format!("{} ({})", status, reason)
        }
    });
    vec![gs(svc, &["metadata", "name"]).to_string(), service, available.unwrap_or_else(|| "Unknown".into()), age(svc, now_ms)]
}

/// `strings.ToLower(GroupKind.String())`, the prefix of `deployment.apps/web`.
fn kind_prefix(kind: &str) -> String {
    // `kind.group` as kubectl's formatResourceName prints it (core kinds have no group)
    match crate::api::meta::RESOURCES.iter().find(|r| r.kind == kind) {
        Some(r) => r.kubectl_prefix(),
        None => kind.to_lowercase(),
    }
}

/// The tableprinter writes a string cell up to its first newline, carriage return or form
/// feed, followed by "..." when it had to cut.
fn table_cell(s: &str) -> String {
    match s.find(['\n', '\r', '\x0c']) {
        Some(i) => format!("{}...", &s[..i]),
        None => s.to_string(),
    }
}

fn render_table(columns: &[Column], rows: &[Vec<String>], wide: bool, with_kind: bool, kind: &str) -> String {
    let (headers, cells) = table_cells(columns, rows, wide, with_kind, kind);
    let mut text = String::new();
    text.push_str(&headers.join("\t"));
    text.push('\n');
    for row in cells {
        text.push_str(&row.join("\t"));
        text.push('\n');
    }
    // cli-runtime GetNewTabWriter: minwidth 6, tabwidth 4, padding 3, padchar ' '
    tabwriter(&text, 6, 3)
}

/// The visible header and the cells of each row, before the tabwriter lays them out.
fn table_cells(columns: &[Column], rows: &[Vec<String>], wide: bool, with_kind: bool, kind: &str) -> (Vec<String>, Vec<Vec<String>>) {
    let visible: Vec<usize> = (0..columns.len()).filter(|i| wide || columns[*i].priority == 0).collect();
    let headers: Vec<String> = visible.iter().map(|i| columns[*i].name.to_uppercase()).collect();
    let prefix = kind_prefix(kind);
    let cells = rows
        .iter()
        .map(|row| {
            visible
                .iter()
                .map(|i| {
                    let raw = row.get(*i).map(|s| s.as_str()).unwrap_or("");
                    let c = table_cell(raw);
                    if with_kind && columns[*i].is_name {
                        format!("{}/{}", prefix, c)
                    } else {
                        c
                    }
                })
                .collect()
        })
        .collect();
    (headers, cells)
}

/// `layoutContainerCells`: container names and images, comma separated.
fn layout_container_cells(pod_spec: Option<&Value>) -> (String, String) {
    let containers = pod_spec.map(|s| ga(s, &["containers"])).unwrap_or(&[]);
    let names: Vec<&str> = containers.iter().map(|c| gs(c, &["name"])).collect();
    let images: Vec<&str> = containers.iter().map(|c| gs(c, &["image"])).collect();
    (names.join(","), images.join(","))
}

fn age(obj: &Value, now_ms: i64) -> String {
    translate_timestamp_since(gs(obj, &["metadata", "creationTimestamp"]), now_ms)
}

fn print_deployment_row(d: &Value, now_ms: i64) -> Vec<String> {
    // spec.replicas defaults to 1 (SetDefaults_Deployment)
    let desired = gi(d, &["spec", "replicas"]).unwrap_or(1);
    let ready = gi(d, &["status", "readyReplicas"]).unwrap_or(0);
    let updated = gi(d, &["status", "updatedReplicas"]).unwrap_or(0);
    let available = gi(d, &["status", "availableReplicas"]).unwrap_or(0);
    let (names, images) = layout_container_cells(get(d, &["spec", "template", "spec"]));
    vec![
        gs(d, &["metadata", "name"]).to_string(),
        format!("{}/{}", ready, desired),
        updated.to_string(),
        available.to_string(),
        age(d, now_ms),
        names,
        images,
        selector_string(get(d, &["spec", "selector"])),
    ]
}

fn print_replica_set_row(rs: &Value, now_ms: i64) -> Vec<String> {
    let (names, images) = layout_container_cells(get(rs, &["spec", "template", "spec"]));
    vec![
        gs(rs, &["metadata", "name"]).to_string(),
        gi(rs, &["spec", "replicas"]).unwrap_or(1).to_string(),
        gi(rs, &["status", "replicas"]).unwrap_or(0).to_string(),
        gi(rs, &["status", "readyReplicas"]).unwrap_or(0).to_string(),
        age(rs, now_ms),
        names,
        images,
        format_label_selector(get(rs, &["spec", "selector"])),
    ]
}

/// `printReplicationController`: a ReplicaSet's columns, the selector a plain label map.
fn print_replication_controller_row(rc: &Value, now_ms: i64) -> Vec<String> {
    let mut row = print_replica_set_row(rc, now_ms);
    let selector = get(rc, &["spec", "selector"]).and_then(Value::as_object).map(|m| m.iter().map(|(k, v)| format!("{}={}", k, v.as_str().unwrap_or(""))).collect::<Vec<_>>().join(",")).unwrap_or_default();
    row[7] = if selector.is_empty() { "<none>".into() } else { selector };
    row
}

/// `printIngress`: class, hosts (`formatHosts`: at most three, then `+ N more...`; `*` when no
/// rule names one), the load balancer's addresses, and `80` or `80, 443` with TLS.
fn print_ingress_row(ing: &Value, now_ms: i64) -> Vec<String> {
    let class = match gs(ing, &["spec", "ingressClassName"]) {
        "" => "<none>".to_string(),
        c => c.to_string(),
    };
    let hosts: Vec<&str> = get(ing, &["spec", "rules"]).and_then(Value::as_array).map(|rs| rs.iter().filter_map(|r| r.get("host").and_then(Value::as_str)).filter(|h| !h.is_empty()).collect()).unwrap_or_default();
    let hosts = match hosts.len() {
        0 => "*".to_string(),
        n if n > 3 => format!("{} + {} more...", hosts[..3].join(","), n - 3),
        _ => hosts.join(","),
    };
    let address = get(ing, &["status", "loadBalancer", "ingress"]).and_then(Value::as_array).map(|a| a.iter().filter_map(|i| i.get("ip").or_else(|| i.get("hostname")).and_then(Value::as_str)).collect::<Vec<_>>().join(",")).unwrap_or_default();
    let tls = get(ing, &["spec", "tls"]).and_then(Value::as_array).is_some_and(|t| !t.is_empty());
    vec![gs(ing, &["metadata", "name"]).to_string(), class, hosts, address, if tls { "80, 443" } else { "80" }.to_string(), age(ing, now_ms)]
}

/// `printNetworkPolicy`: the pod selector as `metav1.FormatLabelSelector` writes it (`<none>`
/// when empty).
fn print_network_policy_row(np: &Value, now_ms: i64) -> Vec<String> {
    vec![gs(np, &["metadata", "name"]).to_string(), format_label_selector(get(np, &["spec", "podSelector"])), age(np, now_ms)]
}

/// `printIngressClass`.
fn print_ingress_class_row(ic: &Value, now_ms: i64) -> Vec<String> {
    let params = match get(ic, &["spec", "parameters"]) {
        Some(p) => {
            let kind_name = format!("{}/{}", gs(p, &["kind"]), gs(p, &["name"]));
            match gs(p, &["apiGroup"]) {
                "" => kind_name,
                g => format!("{}/{}", g, kind_name),
            }
        }
        None => "<none>".to_string(),
    };
    vec![gs(ic, &["metadata", "name"]).to_string(), gs(ic, &["spec", "controller"]).to_string(), params, age(ic, now_ms)]
}

/// `printDaemonSet`.
fn print_daemon_set_row(ds: &Value, now_ms: i64) -> Vec<String> {
    let (names, images) = layout_container_cells(get(ds, &["spec", "template", "spec"]));
    let node_selector = match get(ds, &["spec", "template", "spec", "nodeSelector"]).and_then(Value::as_object) {
        Some(m) if !m.is_empty() => m.iter().map(|(k, v)| format!("{}={}", k, v.as_str().unwrap_or(""))).collect::<Vec<_>>().join(","),
        _ => "<none>".to_string(),
    };
    let n = |k: &str| gi(ds, &["status", k]).unwrap_or(0).to_string();
    vec![
        gs(ds, &["metadata", "name"]).to_string(),
        n("desiredNumberScheduled"),
        n("currentNumberScheduled"),
        n("numberReady"),
        n("updatedNumberScheduled"),
        n("numberAvailable"),
        node_selector,
        age(ds, now_ms),
        names,
        images,
        format_label_selector(get(ds, &["spec", "selector"])),
    ]
}

/// `printResourceQuota`: `name: used/hard` for each resource of `status.hard`, sorted; names
/// starting with `limits.` in LIMIT, all others in REQUEST.
fn print_resource_quota_row(q: &Value, now_ms: i64) -> Vec<String> {
    let hard = crate::api::quota::list_of(get(q, &["status", "hard"]));
    let used = crate::api::quota::list_of(get(q, &["status", "used"]));
    let (mut request, mut limit) = (Vec::new(), Vec::new());
    for (k, h) in &hard {
        let u = used.get(k).map(|u| u.to_string()).unwrap_or_else(|| "0".into());
        let cell = format!("{}: {}/{}", k, u, h);
        if k.starts_with("limits.") {
            limit.push(cell);
        } else {
            request.push(cell);
        }
    }
    vec![gs(q, &["metadata", "name"]).to_string(), age(q, now_ms), request.join(", "), limit.join(", ")]
}

/// `printStatefulSet`: READY is `readyReplicas/spec.replicas`.
fn print_stateful_set_row(s: &Value, now_ms: i64) -> Vec<String> {
    let (names, images) = layout_container_cells(get(s, &["spec", "template", "spec"]));
    let ready = format!("{}/{}", gi(s, &["status", "readyReplicas"]).unwrap_or(0), gi(s, &["spec", "replicas"]).unwrap_or(1));
    vec![gs(s, &["metadata", "name"]).to_string(), ready, age(s, now_ms), names, images]
}

/// `helper.GetAccessModesAsString`: RWO, ROX, RWX, RWOP in that order, each once.
pub fn access_modes_string(modes: &[Value]) -> String {
    let has = |m: &str| modes.iter().any(|x| x.as_str() == Some(m));
    [("ReadWriteOnce", "RWO"), ("ReadOnlyMany", "ROX"), ("ReadWriteMany", "RWX"), ("ReadWriteOncePod", "RWOP")]
        .iter()
        .filter(|(m, _)| has(m))
        .map(|(_, a)| *a)
        .collect::<Vec<_>>()
        .join(",")
}


fn unset_or(v: &str) -> String {
    if v.is_empty() {
        "<unset>".to_string()
    } else {
        v.to_string()
    }
}

/// `printPersistentVolumeClaim`: capacity and access modes only once bound.
fn print_pvc_row(pvc: &Value, now_ms: i64) -> Vec<String> {
    let phase = if get(pvc, &["metadata", "deletionTimestamp"]).is_some() { "Terminating".to_string() } else { gs(pvc, &["status", "phase"]).to_string() };
    let volume = gs(pvc, &["spec", "volumeName"]).to_string();
    let (capacity, modes) = if volume.is_empty() {
        (String::new(), String::new())
    } else {
        (gs(pvc, &["status", "capacity", "storage"]).to_string(), access_modes_string(ga(pvc, &["status", "accessModes"])))
    };
    vec![
        gs(pvc, &["metadata", "name"]).to_string(),
        phase,
        volume,
        capacity,
        modes,
        crate::api::meta::storage_class_of(pvc).to_string(),
        unset_or(gs(pvc, &["spec", "volumeAttributesClassName"])),
        age(pvc, now_ms),
        unset_or(gs(pvc, &["spec", "volumeMode"])),
    ]
}

/// `printPersistentVolume`: CLAIM is `namespace/name` of the claimRef.
fn print_pv_row(pv: &Value, now_ms: i64) -> Vec<String> {
    let claim = match get(pv, &["spec", "claimRef"]) {
        Some(r) if !r.is_null() => format!("{}/{}", gs(r, &["namespace"]), gs(r, &["name"])),
        _ => String::new(),
    };
    let phase = if get(pv, &["metadata", "deletionTimestamp"]).is_some() { "Terminating".to_string() } else { gs(pv, &["status", "phase"]).to_string() };
    vec![
        gs(pv, &["metadata", "name"]).to_string(),
        gs(pv, &["spec", "capacity", "storage"]).to_string(),
        access_modes_string(ga(pv, &["spec", "accessModes"])),
        gs(pv, &["spec", "persistentVolumeReclaimPolicy"]).to_string(),
        phase,
        claim,
        crate::api::meta::storage_class_of(pv).to_string(),
        unset_or(gs(pv, &["spec", "volumeAttributesClassName"])),
        gs(pv, &["status", "reason"]).to_string(),
        age(pv, now_ms),
        unset_or(gs(pv, &["spec", "volumeMode"])),
    ]
}

/// `printStorageClass`: ` (default)` after the default class's name.
fn print_storage_class_row(sc: &Value, now_ms: i64) -> Vec<String> {
    let mut name = gs(sc, &["metadata", "name"]).to_string();
    let ann = |k: &str| crate::api::meta::annotation(sc, k) == Some("true");
    if ann("storageclass.kubernetes.io/is-default-class") || ann("storageclass.beta.kubernetes.io/is-default-class") {
        name.push_str(" (default)");
    }
    let or = |k: &str, d: &str| match gs(sc, &[k]) {
        "" => d.to_string(),
        v => v.to_string(),
    };
    let expand = get(sc, &["allowVolumeExpansion"]).and_then(Value::as_bool).unwrap_or(false);
    vec![name, gs(sc, &["provisioner"]).to_string(), or("reclaimPolicy", "Delete"), or("volumeBindingMode", "Immediate"), expand.to_string(), age(sc, now_ms)]
}

/// `printJob`: STATUS by condition (Complete, Failed, Terminating, Suspended, FailureTarget,
/// SuccessCriteriaMet, else Running), COMPLETIONS `succeeded/completions` (`n/1 of P` for a work
/// queue with parallelism P > 1), DURATION from startTime to completionTime (or now).
fn print_job_row(job: &Value, now_ms: i64) -> Vec<String> {
    let (names, images) = layout_container_cells(get(job, &["spec", "template", "spec"]));
    let cond = |t: &str| ga(job, &["status", "conditions"]).iter().any(|c| gs(c, &["type"]) == t && gs(c, &["status"]) == "True");
    let status = if cond("Complete") {
        "Complete"
    } else if cond("Failed") {
        "Failed"
    } else if get(job, &["metadata", "deletionTimestamp"]).is_some() {
        "Terminating"
    } else if cond("Suspended") {
        "Suspended"
    } else if cond("FailureTarget") {
        "FailureTarget"
    } else {
        "Running"
    };
    let succeeded = gi(job, &["status", "succeeded"]).unwrap_or(0);
    let completions = match (gi(job, &["spec", "completions"]), gi(job, &["spec", "parallelism"])) {
        (Some(c), _) => format!("{}/{}", succeeded, c),
        (None, Some(p)) if p > 1 => format!("{}/1 of {}", succeeded, p),
        _ => format!("{}/1", succeeded),
    };
    let t = |k: &str| crate::api::time::parse_rfc3339_unix(gs(job, &["status", k]));
    let duration = match (t("startTime"), t("completionTime")) {
        (None, _) => String::new(),
        (Some(s), None) => human_duration(now_ms - s),
        (Some(s), Some(e)) => human_duration(e - s),
    };
    vec![gs(job, &["metadata", "name"]).to_string(), status.to_string(), completions, duration, age(job, now_ms), names, images, format_label_selector(get(job, &["spec", "selector"]))]
}

/// `printCronJob`: TIMEZONE `<none>` unless set, SUSPEND `True`/`False`, ACTIVE the Jobs in
/// `status.active`, LAST SCHEDULE the time since `lastScheduleTime` (`<none>` before the first).
fn print_cron_job_row(cj: &Value, now_ms: i64) -> Vec<String> {
    let (names, images) = layout_container_cells(get(cj, &["spec", "jobTemplate", "spec", "template", "spec"]));
    let tz = match gs(cj, &["spec", "timeZone"]) {
        "" => "<none>".to_string(),
        t => t.to_string(),
    };
    let suspend = if get(cj, &["spec", "suspend"]).and_then(Value::as_bool).unwrap_or(false) { "True" } else { "False" };
    let last = match crate::api::time::parse_rfc3339_unix(gs(cj, &["status", "lastScheduleTime"])) {
        Some(t) => human_duration(now_ms - t),
        None => "<none>".to_string(),
    };
    vec![
        gs(cj, &["metadata", "name"]).to_string(),
        gs(cj, &["spec", "schedule"]).to_string(),
        tz,
        suspend.to_string(),
        ga(cj, &["status", "active"]).len().to_string(),
        last,
        age(cj, now_ms),
        names,
        images,
        format_label_selector(get(cj, &["spec", "jobTemplate", "spec", "selector"])),
    ]
}

/// `printControllerRevision`: CONTROLLER is `<kind>.<group>/<name>` of the controller reference.
fn print_controller_revision_row(cr: &Value, now_ms: i64) -> Vec<String> {
    let controller = crate::api::meta::controller_of(cr)
        .map(|r| {
            let group = gs(r, &["apiVersion"]).rsplit_once('/').map(|(g, _)| g).unwrap_or("");
            let kind = gs(r, &["kind"]).to_ascii_lowercase();
            let gk = if group.is_empty() { kind } else { format!("{}.{}", kind, group) };
            format!("{}/{}", gk, gs(r, &["name"]))
        })
        .unwrap_or_else(|| "<none>".to_string());
    vec![gs(cr, &["metadata", "name"]).to_string(), controller, gi(cr, &["revision"]).unwrap_or(0).to_string(), age(cr, now_ms)]
}

/// `podutil.IsRestartableInitContainer`: a sidecar (init container with restartPolicy Always).
fn is_restartable_init(c: Option<&Value>) -> bool {
    c.map(|c| gs(c, &["restartPolicy"]) == "Always").unwrap_or(false)
}

fn condition_true(pod: &Value, ctype: &str) -> bool {
    crate::api::meta::find_condition(ga(pod, &["status", "conditions"]), ctype).is_some_and(|c| gs(c, &["status"]) == "True")
}

/// `printPod`: READY, STATUS, RESTARTS exactly as the apiserver computes them (the wide row's
/// cells: NAME, READY, STATUS, RESTARTS, AGE, IP, NODE, NOMINATED NODE, READINESS GATES).
pub fn print_pod_row(pod: &Value, now_ms: i64) -> Vec<String> {
    let spec_containers = ga(pod, &["spec", "containers"]);
    let init_containers = ga(pod, &["spec", "initContainers"]);
    let mut restarts: i64 = 0;
    let mut restartable_init_restarts: i64 = 0;
    let mut total_containers = spec_containers.len();
    let mut ready_containers = 0;
    // "zero time" is represented as None; Before() comparisons mirror metav1.Time.Before
    let mut last_restart: Option<i64> = None;
    let mut last_restartable_init_restart: Option<i64> = None;

    let phase = gs(pod, &["status", "phase"]);
    let mut reason = phase.to_string();
    if !gs(pod, &["status", "reason"]).is_empty() {
        reason = gs(pod, &["status", "reason"]).to_string();
    }
    // {type: PodScheduled, reason: SchedulingGated} wins
    for c in ga(pod, &["status", "conditions"]) {
        if gs(c, &["type"]) == "PodScheduled" && gs(c, &["reason"]) == "SchedulingGated" {
            reason = "SchedulingGated".into();
        }
    }

    let init_by_name = |name: &str| init_containers.iter().find(|c| gs(c, &["name"]) == name);
    for c in init_containers {
        if is_restartable_init(Some(c)) {
            total_containers += 1;
        }
    }

    let later = |cur: Option<i64>, t: Option<i64>| -> Option<i64> {
        match (cur, t) {
            (None, Some(t)) => Some(t),
            (Some(c), Some(t)) if c < t => Some(t),
            (c, _) => c,
        }
    };

    let mut initializing = false;
    let init_statuses = ga(pod, &["status", "initContainerStatuses"]);
    for (i, cs) in init_statuses.iter().enumerate() {
        restarts += gi(cs, &["restartCount"]).unwrap_or(0);
        let terminated_at = get(cs, &["lastState", "terminated"]).map(|t| parse_rfc3339_unix(gs(t, &["finishedAt"])));
        if let Some(t) = terminated_at {
            last_restart = later(last_restart, t);
        }
        let restartable = is_restartable_init(init_by_name(gs(cs, &["name"])));
        if restartable {
            restartable_init_restarts += gi(cs, &["restartCount"]).unwrap_or(0);
            if let Some(t) = terminated_at {
                last_restartable_init_restart = later(last_restartable_init_restart, t);
            }
        }
        let terminated = get(cs, &["state", "terminated"]);
        let waiting = get(cs, &["state", "waiting"]);
        let exit_code = terminated.and_then(|t| gi(t, &["exitCode"])).unwrap_or(0);
        if terminated.is_some() && exit_code == 0 {
            continue;
        } else if restartable && gb(cs, &["started"]) {
            if gb(cs, &["ready"]) {
                ready_containers += 1;
            }
            continue;
        } else if let Some(t) = terminated {
            // initialization failed
            let r = gs(t, &["reason"]);
            reason = if r.is_empty() {
                let signal = gi(t, &["signal"]).unwrap_or(0);
                if signal != 0 {
                    format!("Init:Signal:{}", signal)
                } else {
                    format!("Init:ExitCode:{}", exit_code)
                }
            } else {
                format!("Init:{}", r)
            };
            initializing = true;
        } else if waiting.map(|w| !gs(w, &["reason"]).is_empty() && gs(w, &["reason"]) != "PodInitializing").unwrap_or(false) {
            reason = format!("Init:{}", waiting.map(|w| gs(w, &["reason"])).unwrap_or(""));
            initializing = true;
        } else {
            reason = format!("Init:{}/{}", i, init_containers.len());
            initializing = true;
        }
        break;
    }

    if !initializing || condition_true(pod, "Initialized") {
        restarts = restartable_init_restarts;
        last_restart = last_restartable_init_restart;
        let mut has_running = false;
        for cs in ga(pod, &["status", "containerStatuses"]).iter().rev() {
            restarts += gi(cs, &["restartCount"]).unwrap_or(0);
            if let Some(t) = get(cs, &["lastState", "terminated"]) {
                last_restart = later(last_restart, parse_rfc3339_unix(gs(t, &["finishedAt"])));
            }
            let waiting_reason = get(cs, &["state", "waiting"]).map(|w| gs(w, &["reason"])).unwrap_or("");
            let terminated = get(cs, &["state", "terminated"]);
            if !waiting_reason.is_empty() {
                reason = waiting_reason.to_string();
            } else if let Some(t) = terminated.filter(|t| !gs(t, &["reason"]).is_empty()) {
                reason = gs(t, &["reason"]).to_string();
            } else if let Some(t) = terminated {
                let signal = gi(t, &["signal"]).unwrap_or(0);
                reason = if signal != 0 {
                    format!("Signal:{}", signal)
                } else {
                    format!("ExitCode:{}", gi(t, &["exitCode"]).unwrap_or(0))
                };
            } else if gb(cs, &["ready"]) && get(cs, &["state", "running"]).is_some() {
                has_running = true;
                ready_containers += 1;
            }
        }
        // back to "Running" if at least one container is still running
        if reason == "Completed" && has_running {
            reason = if condition_true(pod, "Ready") { "Running".into() } else { "NotReady".into() };
        }
    }

    let deleting = get(pod, &["metadata", "deletionTimestamp"]).map(|v| !v.is_null()).unwrap_or(false);
    if deleting && gs(pod, &["status", "reason"]) == "NodeLost" {
        reason = "Unknown".into();
    } else if deleting && phase != "Failed" && phase != "Succeeded" {
        reason = "Terminating".into();
    }

    let restarts_str = match last_restart {
        Some(t) if restarts != 0 => format!("{} ({} ago)", restarts, human_duration(now_ms - t)),
        _ => restarts.to_string(),
    };

    let mut pod_ip = ga(pod, &["status", "podIPs"]).first().map(|p| gs(p, &["ip"]).to_string()).unwrap_or_default();
    if pod_ip.is_empty() {
        pod_ip = "<none>".into();
    }
    let mut node = gs(pod, &["spec", "nodeName"]).to_string();
    if node.is_empty() {
        node = "<none>".into();
    }
    let mut nominated = gs(pod, &["status", "nominatedNodeName"]).to_string();
    if nominated.is_empty() {
        nominated = "<none>".into();
    }
    let gates = ga(pod, &["spec", "readinessGates"]);
    let readiness_gates = if gates.is_empty() {
        "<none>".to_string()
    } else {
        let mut true_conditions = 0;
        for g in gates {
            let ct = gs(g, &["conditionType"]);
            if let Some(c) = ga(pod, &["status", "conditions"]).iter().find(|c| gs(c, &["type"]) == ct) {
                if gs(c, &["status"]) == "True" {
                    true_conditions += 1;
                }
            }
        }
        format!("{}/{}", true_conditions, gates.len())
    };

    vec![
        gs(pod, &["metadata", "name"]).to_string(),
        format!("{}/{}", ready_containers, total_containers),
        reason,
        restarts_str,
        age(pod, now_ms),
        pod_ip,
        node,
        nominated,
        readiness_gates,
    ]
}

/// `findNodeRoles`: `node-role.kubernetes.io/<role>` keys and the `kubernetes.io/role` value,
/// de-duplicated and sorted.
pub(crate) fn find_node_roles(node: &Value) -> Vec<String> {
    let mut roles: Vec<String> = Vec::new();
    for (k, v) in gmap(node, &["metadata", "labels"]) {
        if let Some(role) = k.strip_prefix("node-role.kubernetes.io/") {
            if !role.is_empty() {
                roles.push(role.to_string());
            }
        } else if k == "kubernetes.io/role" && !v.is_empty() {
            roles.push(v);
        }
    }
    roles.csort();
    roles.dedup();
    roles
}

fn node_address(node: &Value, typ: &str) -> String {
    ga(node, &["status", "addresses"])
        .iter()
        .find(|a| gs(a, &["type"]) == typ)
        .map(|a| gs(a, &["address"]).to_string())
        .unwrap_or_else(|| "<none>".into())
}

fn print_node_row(node: &Value, now_ms: i64) -> Vec<String> {
    // only the Ready condition counts (NodeAllConditions = [Ready])
    let mut status: Vec<String> = Vec::new();
    if let Some(c) = ga(node, &["status", "conditions"]).iter().rev().find(|c| gs(c, &["type"]) == "Ready") {
        if gs(c, &["status"]) == "True" {
            status.push("Ready".into());
        } else {
            status.push("NotReady".into());
        }
    }
    if status.is_empty() {
        status.push("Unknown".into());
    }
    if gb(node, &["spec", "unschedulable"]) {
        status.push("SchedulingDisabled".into());
    }
    let mut roles = find_node_roles(node).join(",");
    if roles.is_empty() {
        roles = "<none>".into();
    }
    let or_unknown = |s: &str| if s.is_empty() { "<unknown>".to_string() } else { s.to_string() };
    vec![
        gs(node, &["metadata", "name"]).to_string(),
        status.join(","),
        roles,
        age(node, now_ms),
        gs(node, &["status", "nodeInfo", "kubeletVersion"]).to_string(),
        node_address(node, "InternalIP"),
        node_address(node, "ExternalIP"),
        or_unknown(gs(node, &["status", "nodeInfo", "osImage"])),
        or_unknown(gs(node, &["status", "nodeInfo", "kernelVersion"])),
        or_unknown(gs(node, &["status", "nodeInfo", "containerRuntimeVersion"])),
    ]
}

fn print_namespace_row(ns: &Value, now_ms: i64) -> Vec<String> {
    vec![gs(ns, &["metadata", "name"]).to_string(), gs(ns, &["status", "phase"]).to_string(), age(ns, now_ms)]
}

/// `formatEventSource`: component (or reportingController), then ", host" (or reportingInstance).
fn format_event_source(e: &Value) -> String {
    let first = |a: &str, b: &str| if a.is_empty() { b.to_string() } else { a.to_string() };
    let component = first(gs(e, &["source", "component"]), gs(e, &["reportingComponent"]));
    let instance = first(gs(e, &["source", "host"]), gs(e, &["reportingInstance"]));
    if instance.is_empty() {
        component
    } else {
        format!("{}, {}", component, instance)
    }
}

fn print_event_row(e: &Value, now_ms: i64) -> Vec<String> {
    let first_ts = gs(e, &["firstTimestamp"]);
    let first = if parse_rfc3339_unix(first_ts).is_none() {
        translate_timestamp_since(gs(e, &["eventTime"]), now_ms)
    } else {
        translate_timestamp_since(first_ts, now_ms)
    };
    let mut last = if parse_rfc3339_unix(gs(e, &["lastTimestamp"])).is_none() {
        first.clone()
    } else {
        translate_timestamp_since(gs(e, &["lastTimestamp"]), now_ms)
    };
    let mut count = gi(e, &["count"]).unwrap_or(0);
    if let Some(series) = get(e, &["series"]).filter(|s| s.is_object()) {
        last = translate_timestamp_since(gs(series, &["lastObservedTime"]), now_ms);
        count = gi(series, &["count"]).unwrap_or(0);
    } else if count == 0 {
        // singleton events don't have a count set in the new API
        count = 1;
    }
    let kind = gs(e, &["involvedObject", "kind"]).to_lowercase();
    let name = gs(e, &["involvedObject", "name"]);
    let target = if name.is_empty() { kind } else { format!("{}/{}", kind, name) };
    vec![
        last,
        gs(e, &["type"]).to_string(),
        gs(e, &["reason"]).to_string(),
        target,
        gs(e, &["involvedObject", "fieldPath"]).to_string(),
        format_event_source(e),
        gs(e, &["message"]).trim().to_string(),
        first,
        count.to_string(),
        gs(e, &["metadata", "name"]).to_string(),
    ]
}

/// `makePortString`: `80/TCP`, `80:30080/TCP`, comma-joined.
pub(crate) fn make_port_string(svc: &Value) -> String {
    ga(svc, &["spec", "ports"])
        .iter()
        .map(|p| {
            let proto = gs(p, &["protocol"]);
            match gi(p, &["nodePort"]).filter(|n| *n != 0) {
                Some(np) => format!("{}:{}/{}", gi(p, &["port"]).unwrap_or(0), np, proto),
                None => format!("{}/{}", gi(p, &["port"]).unwrap_or(0), proto),
            }
        })
        .collect::<Vec<_>>()
        .join(",")
}

/// `printService`.
fn print_service_row(svc: &Value, wide: bool, now_ms: i64) -> Vec<String> {
    let ty = gs(svc, &["spec", "type"]);
    let cluster_ip = ga(svc, &["spec", "clusterIPs"]).first().and_then(|v| v.as_str()).unwrap_or("<none>").to_string();
    // getServiceExternalIP
    let ext_ips: Vec<String> = ga(svc, &["spec", "externalIPs"]).iter().filter_map(|v| v.as_str().map(String::from)).collect();
    let external = match ty {
        "ExternalName" => gs(svc, &["spec", "externalName"]).to_string(),
        "LoadBalancer" => {
            let mut ips: Vec<String> = ga(svc, &["status", "loadBalancer", "ingress"])
                .iter()
                .map(|i| if gs(i, &["ip"]).is_empty() { gs(i, &["hostname"]).to_string() } else { gs(i, &["ip"]).to_string() })
                .collect();
            ips.extend(ext_ips.clone());
            if ips.is_empty() {
                "<pending>".to_string()
            } else {
                let s = ips.join(",");
                if !wide && s.len() > 16 {
                    format!("{}...", &s[..16])
                } else {
                    s
                }
            }
        }
        _ if !ext_ips.is_empty() => ext_ips.join(","),
        _ => "<none>".to_string(),
    };
    let mut ports = make_port_string(svc);
    if ports.is_empty() {
        ports = "<none>".into();
    }
    let selector: Vec<String> = gmap(svc, &["spec", "selector"]).into_iter().map(|(k, v)| format!("{}={}", k, v)).collect();
    let selector = if selector.is_empty() { "<none>".to_string() } else { selector.join(",") };
    vec![gs(svc, &["metadata", "name"]).to_string(), ty.to_string(), cluster_ip, external, ports, age(svc, now_ms), selector]
}

/// `formatEndpoints`: the first three ready `ip:port` values, then ` + N more...`.
pub(crate) fn format_endpoints(ep: &Value) -> String {
    let subsets = ga(ep, &["subsets"]);
    if subsets.is_empty() {
        return "<none>".into();
    }
    let (max, mut list, mut more, mut count) = (3usize, Vec::new(), false, 0usize);
    for ss in subsets {
        let addrs = ga(ss, &["addresses"]);
        let ports = ga(ss, &["ports"]);
        if ports.is_empty() {
            count += addrs.len();
            for a in addrs {
                if list.len() == max {
                    more = true;
                    break;
                }
                list.push(gs(a, &["ip"]).to_string());
            }
            continue;
        }
        for p in ports {
            count += addrs.len();
            for a in addrs {
                if list.len() == max {
                    more = true;
                    break;
                }
                list.push(format!("{}:{}", gs(a, &["ip"]), gi(p, &["port"]).unwrap_or(0)));
            }
        }
    }
    let ret = list.join(",");
    if more {
        format!("{} + {} more...", ret, count - max)
    } else {
        ret
    }
}

/// The first three values, then ` + N more...` (`formatDiscoveryPorts`/`formatDiscoveryEndpoints`).
fn first_three(values: Vec<String>) -> String {
    if values.is_empty() {
        return "<unset>".into();
    }
    if values.len() > 3 {
        format!("{} + {} more...", values[..3].join(","), values.len() - 3)
    } else {
        values.join(",")
    }
}

/// `printEndpointSlice`.
fn print_endpoint_slice_row(s: &Value, now_ms: i64) -> Vec<String> {
    let ports: Vec<String> = ga(s, &["ports"]).iter().map(|p| gi(p, &["port"]).map(|n| n.to_string()).unwrap_or_else(|| "<unset>".into())).collect();
    let addrs: Vec<String> = ga(s, &["endpoints"]).iter().flat_map(|e| ga(e, &["addresses"]).iter().map(scalar_text).collect::<Vec<_>>()).collect();
    vec![gs(s, &["metadata", "name"]).to_string(), gs(s, &["addressType"]).to_string(), first_three(ports), first_three(addrs), age(s, now_ms)]
}

/// `-A`: the NAMESPACE column kubectl puts first.
pub fn add_namespace_column(table: &str, objs: &[Value]) -> String {
    let width = objs.iter().map(|o| crate::api::meta::namespace(o).chars().count()).max().unwrap_or(0).max("NAMESPACE".len()) + 3;
    let mut out = String::new();
    for (i, l) in table.lines().enumerate() {
        let ns = if i == 0 { "NAMESPACE" } else { objs.get(i - 1).map(crate::api::meta::namespace).unwrap_or("") };
        out.push_str(&format!("{:<w$}{}\n", ns, l, w = width));
    }
    out
}

/// The number of keys of the map at `field`.
fn map_len(o: &Value, field: &str) -> usize {
    o.get(field).and_then(Value::as_object).map(|m| m.len()).unwrap_or(0)
}

/// `kubectl get <resource>` table. kind is "Deployment" | "ReplicaSet" | "Pod" | "Node" |
/// "Namespace" | "Event" (anything else prints NAME, AGE like the server's default table).
/// with_kind: prefix names with "deployment.apps/" etc. (as kubectl does when several kinds are
/// printed together). Returns the whole table including the header, each line ending "\n".
/// Empty objs -> "" (the caller prints "No resources found ...").
pub fn print_table(kind: &str, objs: &[Value], wide: bool, with_kind: bool, now_ms: i64) -> String {
    if objs.is_empty() {
        return String::new();
    }
    let (columns, rows) = table_columns_rows(kind, objs, wide, now_ms);
    render_table(columns, &rows, wide, with_kind, kind)
}

/// The header and the cells of [`print_table`]'s rows, unaligned (`get --watch` aligns the rows
/// that arrive later with the widths it remembers, as kubectl's tabwriter does).
pub fn print_table_cells(kind: &str, objs: &[Value], wide: bool, now_ms: i64) -> (Vec<String>, Vec<Vec<String>>) {
    let (columns, rows) = table_columns_rows(kind, objs, wide, now_ms);
    table_cells(columns, &rows, wide, false, kind)
}

fn table_columns_rows(kind: &str, objs: &[Value], wide: bool, now_ms: i64) -> (&'static [Column], Vec<Vec<String>>) {
    let (columns, rows): (&[Column], Vec<Vec<String>>) = match kind {
        "Deployment" => (DEPLOYMENT_COLUMNS, objs.iter().map(|o| print_deployment_row(o, now_ms)).collect()),
        "ReplicaSet" => (REPLICASET_COLUMNS, objs.iter().map(|o| print_replica_set_row(o, now_ms)).collect()),
        "ReplicationController" => (REPLICASET_COLUMNS, objs.iter().map(|o| print_replication_controller_row(o, now_ms)).collect()),
        "Ingress" => (INGRESS_COLUMNS, objs.iter().map(|o| print_ingress_row(o, now_ms)).collect()),
        "IngressClass" => (INGRESS_CLASS_COLUMNS, objs.iter().map(|o| print_ingress_class_row(o, now_ms)).collect()),
        "NetworkPolicy" => (NETWORK_POLICY_COLUMNS, objs.iter().map(|o| print_network_policy_row(o, now_ms)).collect()),
        "PodDisruptionBudget" => (PDB_COLUMNS, objs.iter().map(|o| print_pdb_row(o, now_ms)).collect()),
        "HorizontalPodAutoscaler" => (HPA_COLUMNS, objs.iter().map(|o| print_hpa_row(o, now_ms)).collect()),
        "APIService" => (APISERVICE_COLUMNS, objs.iter().map(|o| print_apiservice_row(o, now_ms)).collect()),
        "CronJob" => (CRONJOB_COLUMNS, objs.iter().map(|o| print_cron_job_row(o, now_ms)).collect()),
        "Job" => (JOB_COLUMNS, objs.iter().map(|o| print_job_row(o, now_ms)).collect()),
        "DaemonSet" => (DAEMONSET_COLUMNS, objs.iter().map(|o| print_daemon_set_row(o, now_ms)).collect()),
        "StatefulSet" => (STATEFULSET_COLUMNS, objs.iter().map(|o| print_stateful_set_row(o, now_ms)).collect()),
        "PersistentVolumeClaim" => (PVC_COLUMNS, objs.iter().map(|o| print_pvc_row(o, now_ms)).collect()),
        "PersistentVolume" => (PV_COLUMNS, objs.iter().map(|o| print_pv_row(o, now_ms)).collect()),
        "ResourceQuota" => (RESOURCE_QUOTA_COLUMNS, objs.iter().map(|o| print_resource_quota_row(o, now_ms)).collect()),
        // printers.go printConfigMap / printSecret / printServiceAccount
        "ConfigMap" => (CONFIG_MAP_COLUMNS, objs.iter().map(|o| vec![gs(o, &["metadata", "name"]).to_string(), (map_len(o, "data") + map_len(o, "binaryData")).to_string(), age(o, now_ms)]).collect()),
        "Secret" => (SECRET_COLUMNS, objs.iter().map(|o| vec![gs(o, &["metadata", "name"]).to_string(), gs(o, &["type"]).to_string(), map_len(o, "data").to_string(), age(o, now_ms)]).collect()),
        "ServiceAccount" => (SERVICE_ACCOUNT_COLUMNS, objs.iter().map(|o| vec![gs(o, &["metadata", "name"]).to_string(), get(o, &["secrets"]).and_then(Value::as_array).map(|a| a.len()).unwrap_or(0).to_string(), age(o, now_ms)]).collect()),
        // printers.go printRole / printClusterRole: the creation time in RFC 3339, UTC
        // the default table convertor (`rest.NewDefaultTableConvertor`): Name, Created At
        "Role" | "ClusterRole" | "CustomResourceDefinition" => (ROLE_COLUMNS, objs.iter().map(|o| vec![gs(o, &["metadata", "name"]).to_string(), gs(o, &["metadata", "creationTimestamp"]).to_string()]).collect()),
        // printRoleBinding / printClusterRoleBinding: `Kind/name`, then rbac.SubjectsStrings when wide
        "RoleBinding" | "ClusterRoleBinding" => (
            ROLE_BINDING_COLUMNS,
            objs.iter()
                .map(|o| {
                    let mut row = vec![gs(o, &["metadata", "name"]).to_string(), format!("{}/{}", gs(o, &["roleRef", "kind"]), gs(o, &["roleRef", "name"])), age(o, now_ms)];
                    if wide {
                        let subjects = get(o, &["subjects"]).and_then(Value::as_array).cloned().unwrap_or_default();
                        let of = |kind: &str| -> String {
                            subjects
                                .iter()
                                .filter(|s| gs(s, &["kind"]) == kind)
                                .map(|s| if kind == "ServiceAccount" { format!("{}/{}", gs(s, &["namespace"]), gs(s, &["name"])) } else { gs(s, &["name"]).to_string() })
                                .collect::<Vec<_>>()
                                .join(", ")
                        };
                        row.extend([of("User"), of("Group"), of("ServiceAccount")]);
                    }
                    row
                })
                .collect(),
        ),
        "PriorityClass" => (
            PRIORITY_CLASS_COLUMNS,
            objs.iter()
                .map(|o| {
                    let policy = match gs(o, &["preemptionPolicy"]) {
                        "" => "<none>".to_string(),
                        p => p.to_string(),
                    };
                    let global = get(o, &["globalDefault"]).and_then(Value::as_bool).unwrap_or(false);
                    vec![gs(o, &["metadata", "name"]).to_string(), gi(o, &["value"]).unwrap_or(0).to_string(), global.to_string(), age(o, now_ms), policy]
                })
                .collect(),
        ),
        "Lease" => (LEASE_COLUMNS, objs.iter().map(|o| vec![gs(o, &["metadata", "name"]).to_string(), gs(o, &["spec", "holderIdentity"]).to_string(), age(o, now_ms)]).collect()),
        "StorageClass" => (STORAGE_CLASS_COLUMNS, objs.iter().map(|o| print_storage_class_row(o, now_ms)).collect()),
        "ControllerRevision" => (CONTROLLER_REVISION_COLUMNS, objs.iter().map(|o| print_controller_revision_row(o, now_ms)).collect()),
        "Pod" => (POD_COLUMNS, objs.iter().map(|o| print_pod_row(o, now_ms)).collect()),
        "Node" => (NODE_COLUMNS, objs.iter().map(|o| print_node_row(o, now_ms)).collect()),
        "Namespace" => (NAMESPACE_COLUMNS, objs.iter().map(|o| print_namespace_row(o, now_ms)).collect()),
        "Event" => (EVENT_COLUMNS, objs.iter().map(|o| print_event_row(o, now_ms)).collect()),
        "Service" => (SERVICE_COLUMNS, objs.iter().map(|o| print_service_row(o, wide, now_ms)).collect()),
        "Endpoints" => (ENDPOINTS_COLUMNS, objs.iter().map(|o| vec![gs(o, &["metadata", "name"]).to_string(), format_endpoints(o), age(o, now_ms)]).collect()),
        "EndpointSlice" => (ENDPOINT_SLICE_COLUMNS, objs.iter().map(|o| print_endpoint_slice_row(o, now_ms)).collect()),
        _ => (DEFAULT_COLUMNS, objs.iter().map(|o| vec![gs(o, &["metadata", "name"]).to_string(), age(o, now_ms)]).collect()),
    };
    (columns, rows)
}

/// A custom resource's table, as apiextensions-apiserver's `tableconvertor` builds it and the
/// table printer prints it: NAME, then the version's printer columns (or the default AGE) —
/// `date` as an age, `integer`/`number`/`boolean`/`string` from the column's JSONPath (a simple
/// `.a.b` path), a missing value empty; priority columns only with `-o wide`.
pub fn print_custom_table(info: &crate::api::meta::ResourceInfo, columns: &[crate::apiextensions::Column], objs: &[Value], wide: bool, with_kind: bool, now_ms: i64) -> String {
    if objs.is_empty() {
        return String::new();
    }
    let visible: Vec<&crate::apiextensions::Column> = columns.iter().filter(|c| wide || c.priority == 0).collect();
    let mut text = String::from("NAME");
    for c in &visible {
        text.push('\t');
        text.push_str(&c.name.to_uppercase());
    }
    text.push('\n');
    for o in objs {
        let name = gs(o, &["metadata", "name"]);
        if with_kind {
            text.push_str(&format!("{}/{}", info.kubectl_prefix(), name));
        } else {
            text.push_str(name);
        }
        for c in &visible {
            text.push('\t');
            let cell = match c.value(o) {
                None => String::new(),
                Some(v) => match (c.type_.as_str(), v) {
                    ("date", Value::String(s)) => translate_timestamp_since(s, now_ms),
                    ("date", _) => "<invalid>".to_string(),
                    ("integer", Value::Number(n)) if n.is_i64() || n.is_u64() => n.to_string(),
                    ("number", Value::Number(n)) => n.to_string(),
                    ("boolean", Value::Bool(b)) => b.to_string(),
                    ("string", Value::String(s)) => table_cell(s),
                    ("string", other) => other.to_string(),
                    _ => String::new(),
                },
            };
            text.push_str(&cell);
        }
        text.push('\n');
    }
    tabwriter(&text, 6, 3)
}

/// `kubectl get events`: LAST SEEN, TYPE, REASON, OBJECT, MESSAGE.
///
/// kubectl does not sort here (get.go only sorts with `--sort-by`), so the rows come in the
/// order the apiserver lists them: etcd key order, i.e. by namespace then name. Event names are
/// `<object>.<hex nanoseconds>`, so this groups events per object, oldest first.
/// (`kubectl events` and `describe` are the ones that sort by time.)
pub fn print_events(events: &[Value], now_ms: i64) -> String {
    print_events_owned(events.to_vec(), now_ms)
}

/// [`print_events`] of events the caller owns: sorted in place, nothing copied (the page prints
/// a thousand Events at every scrub).
pub fn print_events_owned(mut events: Vec<Value>, now_ms: i64) -> String {
    events.csort_by(|a, b| {
        (gs(a, &["metadata", "namespace"]), gs(a, &["metadata", "name"])).cmp(&(gs(b, &["metadata", "namespace"]), gs(b, &["metadata", "name"])))
    });
    print_table("Event", &events, false, false, now_ms)
}

/// The time `SortableEvents` sorts by: series.lastObservedTime, else lastTimestamp, else
/// eventTime (kubectl/pkg/util/event). Unset -> the zero time (sorts first).
pub(crate) fn event_sort_time(e: &Value) -> i64 {
    if let Some(series) = get(e, &["series"]).filter(|s| s.is_object()) {
        return parse_rfc3339_unix(gs(series, &["lastObservedTime"])).unwrap_or(i64::MIN);
    }
    parse_rfc3339_unix(gs(e, &["lastTimestamp"])).or_else(|| parse_rfc3339_unix(gs(e, &["eventTime"]))).unwrap_or(i64::MIN)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use serde_json::json;

    /// 2026-01-01T00:10:00Z, ten minutes after the fixtures' creation time.
    pub(crate) fn now() -> i64 {
        parse_rfc3339_unix("2026-01-01T00:10:00Z").unwrap()
    }

    fn template(hash: Option<&str>) -> Value {
        let mut t = json!({
            "metadata": {"labels": {"app": "nginx"}},
            "spec": {"containers": [{"name": "nginx", "image": "nginx:1.27", "ports": [{"containerPort": 80, "protocol": "TCP"}], "resources": {}}],
                     "restartPolicy": "Always", "dnsPolicy": "ClusterFirst", "schedulerName": "default-scheduler", "securityContext": {}, "terminationGracePeriodSeconds": 30}
        });
        if let Some(h) = hash {
            t["metadata"]["labels"]["pod-template-hash"] = json!(h);
        }
        t
    }

    /// The seed Deployment: 3 replicas, all ready.
    pub(crate) fn seed_deployment() -> Value {
        json!({
            "apiVersion": "apps/v1", "kind": "Deployment",
            "metadata": {"name": "nginx", "namespace": "default", "uid": "d-uid", "generation": 1, "creationTimestamp": "2026-01-01T00:00:00Z",
                         "labels": {"app": "nginx"}, "annotations": {"deployment.kubernetes.io/revision": "1"}},
            "spec": {"replicas": 3, "selector": {"matchLabels": {"app": "nginx"}}, "template": template(None),
                     "strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": "25%", "maxSurge": "25%"}},
                     "revisionHistoryLimit": 10, "progressDeadlineSeconds": 600},
            "status": {"observedGeneration": 1, "replicas": 3, "updatedReplicas": 3, "readyReplicas": 3, "availableReplicas": 3,
                       "conditions": [
                           {"type": "Available", "status": "True", "lastUpdateTime": "2026-01-01T00:00:10Z", "lastTransitionTime": "2026-01-01T00:00:10Z",
                            "reason": "MinimumReplicasAvailable", "message": "Deployment has minimum availability."},
                           {"type": "Progressing", "status": "True", "lastUpdateTime": "2026-01-01T00:00:10Z", "lastTransitionTime": "2026-01-01T00:00:00Z",
                            "reason": "NewReplicaSetAvailable", "message": "ReplicaSet \"nginx-7c79c4bf97\" has successfully progressed."}]}
        })
    }

    pub(crate) fn seed_replica_set() -> Value {
        json!({
            "apiVersion": "apps/v1", "kind": "ReplicaSet",
            "metadata": {"name": "nginx-7c79c4bf97", "namespace": "default", "uid": "rs-uid", "creationTimestamp": "2026-01-01T00:00:00Z",
                         "labels": {"app": "nginx", "pod-template-hash": "7c79c4bf97"},
                         "annotations": {"deployment.kubernetes.io/desired-replicas": "3", "deployment.kubernetes.io/max-replicas": "4", "deployment.kubernetes.io/revision": "1"},
                         "ownerReferences": [{"apiVersion": "apps/v1", "kind": "Deployment", "name": "nginx", "uid": "d-uid", "controller": true, "blockOwnerDeletion": true}]},
            "spec": {"replicas": 3, "selector": {"matchLabels": {"app": "nginx", "pod-template-hash": "7c79c4bf97"}}, "template": template(Some("7c79c4bf97"))},
            "status": {"replicas": 3, "fullyLabeledReplicas": 3, "readyReplicas": 3, "availableReplicas": 3, "observedGeneration": 1}
        })
    }

    /// A pod of the seed ReplicaSet; `status` replaces the whole status.
    pub(crate) fn pod(name: &str, status: Value) -> Value {
        json!({
            "apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": name, "namespace": "default", "uid": format!("{}-uid", name), "creationTimestamp": "2026-01-01T00:00:01Z",
                         "labels": {"app": "nginx", "pod-template-hash": "7c79c4bf97"},
                         "ownerReferences": [{"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": "nginx-7c79c4bf97", "uid": "rs-uid", "controller": true, "blockOwnerDeletion": true}]},
            "spec": {"containers": [{"name": "nginx", "image": "nginx:1.27", "ports": [{"containerPort": 80, "protocol": "TCP"}], "resources": {}}],
                     "nodeName": "node-1", "serviceAccountName": "default", "priority": 0},
            "status": status
        })
    }

    pub(crate) fn running_status() -> Value {
        json!({"phase": "Running", "hostIP": "10.0.0.11", "podIP": "10.244.1.5", "podIPs": [{"ip": "10.244.1.5"}], "startTime": "2026-01-01T00:00:01Z",
               "conditions": [{"type": "Initialized", "status": "True"}, {"type": "Ready", "status": "True"}, {"type": "ContainersReady", "status": "True"}, {"type": "PodScheduled", "status": "True"}],
               "containerStatuses": [{"name": "nginx", "ready": true, "started": true, "restartCount": 0, "state": {"running": {"startedAt": "2026-01-01T00:00:05Z"}}}]})
    }

    pub(crate) fn waiting_status(reason: &str) -> Value {
        json!({"phase": "Pending", "hostIP": "10.0.0.11", "startTime": "2026-01-01T00:00:01Z",
               "conditions": [{"type": "Initialized", "status": "True"}, {"type": "Ready", "status": "False"}, {"type": "PodScheduled", "status": "True"}],
               "containerStatuses": [{"name": "nginx", "ready": false, "started": false, "restartCount": 0, "state": {"waiting": {"reason": reason}}}]})
    }

    pub(crate) fn node(name: &str, ready: &str, unschedulable: bool, labels: Value) -> Value {
        json!({
            "apiVersion": "v1", "kind": "Node",
            "metadata": {"name": name, "uid": format!("{}-uid", name), "creationTimestamp": "2026-01-01T00:00:00Z", "labels": labels},
            "spec": {"unschedulable": unschedulable},
            "status": {"conditions": [{"type": "MemoryPressure", "status": "False"}, {"type": "Ready", "status": ready}],
                       "addresses": [{"type": "InternalIP", "address": "10.0.0.11"}, {"type": "Hostname", "address": name}],
                       "nodeInfo": {"kubeletVersion": "v1.34.0", "osImage": "Ubuntu 24.04.1 LTS", "kernelVersion": "6.8.0-45-generic", "containerRuntimeVersion": "containerd://1.7.22"}}
        })
    }

    struct TableCase {
        name: &'static str,
        kind: &'static str,
        objs: Vec<Value>,
        wide: bool,
        with_kind: bool,
        want: &'static str,
    }

    fn run_table_cases(cases: Vec<TableCase>) {
        for c in cases {
            let got = print_table(c.kind, &c.objs, c.wide, c.with_kind, now());
            assert_eq!(got, c.want, "case {}:\n{}", c.name, got);
        }
    }

    #[test]
    fn deployment_and_replica_set_tables() {
        let mut rolling = seed_deployment();
        rolling["metadata"]["name"] = json!("web");
        rolling["metadata"]["creationTimestamp"] = json!("2025-12-29T23:00:00Z");
        rolling["status"] = json!({"replicas": 4, "updatedReplicas": 1, "readyReplicas": 3, "availableReplicas": 3});
        run_table_cases(vec![
            TableCase {
                name: "seed deployment, 3 ready pods",
                kind: "Deployment",
                objs: vec![seed_deployment()],
                wide: false,
                with_kind: false,
                want: "NAME    READY   UP-TO-DATE   AVAILABLE   AGE\nnginx   3/3     3            3           10m\n",
            },
            TableCase {
                name: "two deployments mid-rollout, ages in days",
                kind: "Deployment",
                objs: vec![seed_deployment(), rolling],
                wide: false,
                with_kind: false,
                want: "NAME    READY   UP-TO-DATE   AVAILABLE   AGE\nnginx   3/3     3            3           10m\nweb     3/3     1            3           2d1h\n",
            },
            TableCase {
                name: "wide with kind prefix (kubectl get deploy,rs)",
                kind: "Deployment",
                objs: vec![seed_deployment()],
                wide: true,
                with_kind: true,
                want: "NAME                    READY   UP-TO-DATE   AVAILABLE   AGE   CONTAINERS   IMAGES       SELECTOR\n\
                       deployment.apps/nginx   3/3     3            3           10m   nginx        nginx:1.27   app=nginx\n",
            },
            TableCase {
                name: "replicaset",
                kind: "ReplicaSet",
                objs: vec![seed_replica_set()],
                wide: false,
                with_kind: true,
                want: "NAME                               DESIRED   CURRENT   READY   AGE\nreplicaset.apps/nginx-7c79c4bf97   3         3         3       10m\n",
            },
            TableCase {
                name: "replicaset wide shows FormatLabelSelector",
                kind: "ReplicaSet",
                objs: vec![seed_replica_set()],
                wide: true,
                with_kind: false,
                want: "NAME               DESIRED   CURRENT   READY   AGE   CONTAINERS   IMAGES       SELECTOR\n\
                       nginx-7c79c4bf97   3         3         3       10m   nginx        nginx:1.27   app=nginx,pod-template-hash=7c79c4bf97\n",
            },
            TableCase { name: "no objects", kind: "Deployment", objs: vec![], wide: false, with_kind: false, want: "" },
        ]);
    }

    /// One pod per case, checking the READY / STATUS / RESTARTS cells of printPod.
    #[test]
    fn pod_status_column() {
        struct Case {
            name: &'static str,
            pod: Value,
            want: &'static str,
        }
        let mut crash = waiting_status("CrashLoopBackOff");
        crash["phase"] = json!("Running");
        crash["containerStatuses"][0]["restartCount"] = json!(5);
        crash["containerStatuses"][0]["lastState"] = json!({"terminated": {"exitCode": 1, "reason": "Error", "finishedAt": "2026-01-01T00:09:30Z"}});
        let mut terminating = pod("p", running_status());
        terminating["metadata"]["deletionTimestamp"] = json!("2026-01-01T00:10:30Z");
        terminating["metadata"]["deletionGracePeriodSeconds"] = json!(30);
        let completed = json!({"phase": "Succeeded", "conditions": [{"type": "Ready", "status": "False"}],
                               "containerStatuses": [{"name": "nginx", "ready": false, "restartCount": 0, "state": {"terminated": {"exitCode": 0, "reason": "Completed"}}}]});
        let failed = json!({"phase": "Failed", "containerStatuses": [{"name": "nginx", "ready": false, "restartCount": 0, "state": {"terminated": {"exitCode": 137}}}]});
        let mut unscheduled = pod("p", json!({"phase": "Pending", "conditions": [{"type": "PodScheduled", "status": "False", "reason": "Unschedulable"}]}));
        unscheduled["spec"].as_object_mut().unwrap().remove("nodeName");
        let gated = json!({"phase": "Pending", "conditions": [{"type": "PodScheduled", "status": "False", "reason": "SchedulingGated"}]});
        let mut init = pod("p", json!({"phase": "Pending", "conditions": [{"type": "Initialized", "status": "False"}],
            "initContainerStatuses": [{"name": "setup", "ready": false, "restartCount": 0, "state": {"running": {"startedAt": "2026-01-01T00:00:03Z"}}}],
            "containerStatuses": [{"name": "nginx", "ready": false, "restartCount": 0, "state": {"waiting": {"reason": "PodInitializing"}}}]}));
        init["spec"]["initContainers"] = json!([{"name": "setup", "image": "busybox"}]);
        let mut init_pull = init.clone();
        init_pull["status"]["initContainerStatuses"][0]["state"] = json!({"waiting": {"reason": "ImagePullBackOff"}});
        let mut sidecar = pod("p", running_status());
        sidecar["spec"]["initContainers"] = json!([{"name": "proxy", "image": "envoy", "restartPolicy": "Always"}]);
        sidecar["status"]["initContainerStatuses"] =
            json!([{"name": "proxy", "ready": true, "started": true, "restartCount": 2, "lastState": {"terminated": {"exitCode": 1, "finishedAt": "2026-01-01T00:05:00Z"}}, "state": {"running": {}}}]);
        let not_ready = json!({"phase": "Running", "conditions": [{"type": "Ready", "status": "False"}],
            "containerStatuses": [{"name": "a", "ready": false, "restartCount": 0, "state": {"terminated": {"exitCode": 0, "reason": "Completed"}}},
                                  {"name": "b", "ready": true, "restartCount": 0, "state": {"running": {}}}]});
        let mut two_containers = pod("p", not_ready);
        two_containers["spec"]["containers"] = json!([{"name": "a", "image": "busybox"}, {"name": "b", "image": "nginx"}]);
        let mut lost = pod("p", running_status());
        lost["metadata"]["deletionTimestamp"] = json!("2026-01-01T00:10:30Z");
        lost["status"]["reason"] = json!("NodeLost");
        let cases = vec![
            Case { name: "running", pod: pod("p", running_status()), want: "p      1/1     Running   0          9m59s" },
            Case { name: "unscheduled pending", pod: unscheduled, want: "p      0/1     Pending   0          9m59s" },
            Case { name: "container creating", pod: pod("p", waiting_status("ContainerCreating")), want: "p      0/1     ContainerCreating   0          9m59s" },
            Case { name: "err image pull", pod: pod("p", waiting_status("ErrImagePull")), want: "p      0/1     ErrImagePull   0          9m59s" },
            Case { name: "image pull backoff", pod: pod("p", waiting_status("ImagePullBackOff")), want: "p      0/1     ImagePullBackOff   0          9m59s" },
            Case { name: "crash loop with last restart 30s ago", pod: pod("p", crash), want: "p      0/1     CrashLoopBackOff   5 (30s ago)   9m59s" },
            Case { name: "terminating", pod: terminating, want: "p      1/1     Terminating   0          9m59s" },
            Case { name: "node lost while deleting", pod: lost, want: "p      1/1     Unknown   0          9m59s" },
            Case { name: "completed", pod: pod("p", completed), want: "p      0/1     Completed   0          9m59s" },
            Case { name: "terminated without reason", pod: pod("p", failed), want: "p      0/1     ExitCode:137   0          9m59s" },
            Case { name: "scheduling gated", pod: pod("p", gated), want: "p      0/1     SchedulingGated   0          9m59s" },
            Case { name: "init container running", pod: init, want: "p      0/1     Init:0/1   0          9m59s" },
            Case { name: "init container image pull", pod: init_pull, want: "p      0/1     Init:ImagePullBackOff   0          9m59s" },
            Case { name: "sidecar counts toward READY and RESTARTS", pod: sidecar, want: "p      2/2     Running   2 (5m ago)   9m59s" },
            Case { name: "completed container next to a running one, not ready", pod: two_containers, want: "p      1/2     NotReady   0          9m59s" },
        ];
        for c in cases {
            let table = print_table("Pod", &[c.pod], false, false, now());
            let row = table.lines().nth(1).unwrap_or("");
            assert_eq!(row, c.want, "case {}:\n{}", c.name, table);
        }
    }

    #[test]
    fn pod_tables() {
        let mut gated = pod("nginx-7c79c4bf97-x8k2q", running_status());
        gated["spec"]["readinessGates"] = json!([{"conditionType": "example.com/lb"}, {"conditionType": "example.com/dns"}]);
        gated["status"]["conditions"].as_array_mut().unwrap().push(json!({"type": "example.com/lb", "status": "True"}));
        let mut pending = pod("nginx-7c79c4bf97-b2lzm", json!({"phase": "Pending", "nominatedNodeName": "node-2"}));
        pending["spec"].as_object_mut().unwrap().remove("nodeName");
        run_table_cases(vec![
            TableCase {
                name: "three running pods",
                kind: "Pod",
                objs: vec![pod("nginx-7c79c4bf97-5xk2p", running_status()), pod("nginx-7c79c4bf97-b2lzm", running_status()), pod("nginx-7c79c4bf97-x8k2q", running_status())],
                wide: false,
                with_kind: false,
                want: "NAME                     READY   STATUS    RESTARTS   AGE\n\
                       nginx-7c79c4bf97-5xk2p   1/1     Running   0          9m59s\n\
                       nginx-7c79c4bf97-b2lzm   1/1     Running   0          9m59s\n\
                       nginx-7c79c4bf97-x8k2q   1/1     Running   0          9m59s\n",
            },
            TableCase {
                name: "wide: IP, node, nominated node, readiness gates",
                kind: "Pod",
                objs: vec![gated, pending],
                wide: true,
                with_kind: false,
                want: "NAME                     READY   STATUS    RESTARTS   AGE     IP           NODE     NOMINATED NODE   READINESS GATES\n\
                       nginx-7c79c4bf97-x8k2q   1/1     Running   0          9m59s   10.244.1.5   node-1   <none>           1/2\n\
                       nginx-7c79c4bf97-b2lzm   0/1     Pending   0          9m59s   <none>       <none>   node-2           <none>\n",
            },
            TableCase {
                name: "kind prefix for pods is just pod/",
                kind: "Pod",
                objs: vec![pod("p", running_status())],
                wide: false,
                with_kind: true,
                want: "NAME    READY   STATUS    RESTARTS   AGE\npod/p   1/1     Running   0          9m59s\n",
            },
        ]);
    }

    #[test]
    fn node_and_namespace_tables() {
        let cp = node("control-plane", "True", false, json!({"node-role.kubernetes.io/control-plane": "", "kubernetes.io/hostname": "control-plane"}));
        let w1 = node("node-1", "True", true, json!({"kubernetes.io/hostname": "node-1"}));
        let w2 = node("node-2", "False", false, json!({"kubernetes.io/role": "worker", "node-role.kubernetes.io/worker": ""}));
        let mut bare = node("node-3", "True", false, json!({}));
        bare["status"] = json!({});
        run_table_cases(vec![
            TableCase {
                name: "ready, cordoned, not ready, no conditions",
                kind: "Node",
                objs: vec![cp.clone(), w1.clone(), w2, bare.clone()],
                wide: false,
                with_kind: false,
                want: "NAME            STATUS                     ROLES           AGE   VERSION\n\
                       control-plane   Ready                      control-plane   10m   v1.34.0\n\
                       node-1          Ready,SchedulingDisabled   <none>          10m   v1.34.0\n\
                       node-2          NotReady                   worker          10m   v1.34.0\n\
                       node-3          Unknown                    <none>          10m   \n",
            },
            TableCase {
                name: "wide node columns",
                kind: "Node",
                objs: vec![w1, bare],
                wide: true,
                with_kind: false,
                want: "NAME     STATUS                     ROLES    AGE   VERSION   INTERNAL-IP   EXTERNAL-IP   OS-IMAGE             KERNEL-VERSION     CONTAINER-RUNTIME\n\
                       node-1   Ready,SchedulingDisabled   <none>   10m   v1.34.0   10.0.0.11     <none>        Ubuntu 24.04.1 LTS   6.8.0-45-generic   containerd://1.7.22\n\
                       node-3   Unknown                    <none>   10m             <none>        <none>        <unknown>            <unknown>          <unknown>\n",
            },
            TableCase {
                name: "namespaces",
                kind: "Namespace",
                objs: vec![
                    json!({"metadata": {"name": "default", "creationTimestamp": "2026-01-01T00:00:00Z"}, "status": {"phase": "Active"}}),
                    json!({"metadata": {"name": "kube-system", "creationTimestamp": "2026-01-01T00:00:00Z"}, "status": {"phase": "Active"}}),
                    json!({"metadata": {"name": "old", "creationTimestamp": "2026-01-01T00:00:00Z", "deletionTimestamp": "2026-01-01T00:09:59Z"}, "status": {"phase": "Terminating"}}),
                ],
                wide: false,
                with_kind: false,
                want: "NAME          STATUS        AGE\ndefault       Active        10m\nkube-system   Active        10m\nold           Terminating   10m\n",
            },
            TableCase {
                name: "unknown kind falls back to NAME AGE, missing timestamp",
                kind: "PodTemplate",
                objs: vec![json!({"metadata": {"name": "view"}})],
                wide: false,
                with_kind: false,
                want: "NAME   AGE\nview   <unknown>\n",
            },
            TableCase {
                name: "configmaps count data and binaryData keys",
                kind: "ConfigMap",
                objs: vec![json!({"metadata": {"name": "kube-root-ca.crt"}, "data": {"ca.crt": "x"}, "binaryData": {"b": "eA=="}})],
                wide: false,
                with_kind: false,
                want: "NAME               DATA   AGE\nkube-root-ca.crt   2      <unknown>\n",
            },
            TableCase {
                name: "secrets print their type",
                kind: "Secret",
                objs: vec![json!({"metadata": {"name": "db"}, "type": "Opaque", "data": {"a": "eA==", "b": "eA=="}})],
                wide: false,
                with_kind: false,
                want: "NAME   TYPE     DATA   AGE\ndb     Opaque   2      <unknown>\n",
            },
        ]);
    }

    pub(crate) fn event(name: &str, kind: &str, obj: &str, reason: &str, message: &str, last: &str) -> Value {
        json!({"metadata": {"name": name, "namespace": "default"}, "involvedObject": {"kind": kind, "name": obj, "namespace": "default"},
               "reason": reason, "message": message, "type": "Normal", "source": {"component": "kubelet", "host": "node-1"},
               "firstTimestamp": last, "lastTimestamp": last, "count": 1})
    }

    #[test]
    fn events_table() {
        struct Case {
            name: &'static str,
            events: Vec<Value>,
            want: &'static str,
        }
        let mut scheduled = event("nginx-7c79c4bf97-x8k2q.188a1", "Pod", "nginx-7c79c4bf97-x8k2q", "Scheduled", "Successfully assigned default/nginx-7c79c4bf97-x8k2q to node-1", "");
        let m = scheduled.as_object_mut().unwrap();
        m.remove("firstTimestamp");
        m.remove("lastTimestamp");
        m.remove("source");
        m.insert("eventTime".into(), json!("2026-01-01T00:00:01.123456Z"));
        m.insert("reportingComponent".into(), json!("default-scheduler"));
        let mut backoff = event("nginx-7c79c4bf97-x8k2q.188a9", "Pod", "nginx-7c79c4bf97-x8k2q", "BackOff", "Back-off pulling image \"nginx:1.99\"", "2026-01-01T00:09:50Z");
        backoff["firstTimestamp"] = json!("2026-01-01T00:02:00Z");
        backoff["count"] = json!(12);
        let mut warning = event("nginx-7c79c4bf97-x8k2q.188a5", "Pod", "nginx-7c79c4bf97-x8k2q", "Failed", "Error: ErrImagePull\nsecond line", "2026-01-01T00:01:30Z");
        warning["type"] = json!("Warning");
        let cases = vec![
            Case {
                name: "apiserver list order: by name, not by time; kind lowercased",
                events: vec![
                    event("nginx.188a0", "Deployment", "nginx", "ScalingReplicaSet", "Scaled up replica set nginx-7c79c4bf97 from 0 to 3", "2026-01-01T00:00:00Z"),
                    event("nginx-7c79c4bf97.188a0", "ReplicaSet", "nginx-7c79c4bf97", "SuccessfulCreate", "Created pod: nginx-7c79c4bf97-x8k2q", "2026-01-01T00:00:00Z"),
                    backoff,
                    scheduled,
                    warning,
                ],
                // "nginx-…" sorts before "nginx.…" ('-' < '.'); 9m58.877s truncates to 9m58s
                want: "LAST SEEN   TYPE      REASON              OBJECT                        MESSAGE\n\
                       9m58s       Normal    Scheduled           pod/nginx-7c79c4bf97-x8k2q    Successfully assigned default/nginx-7c79c4bf97-x8k2q to node-1\n\
                       8m30s       Warning   Failed              pod/nginx-7c79c4bf97-x8k2q    Error: ErrImagePull...\n\
                       10s         Normal    BackOff             pod/nginx-7c79c4bf97-x8k2q    Back-off pulling image \"nginx:1.99\"\n\
                       10m         Normal    SuccessfulCreate    replicaset/nginx-7c79c4bf97   Created pod: nginx-7c79c4bf97-x8k2q\n\
                       10m         Normal    ScalingReplicaSet   deployment/nginx              Scaled up replica set nginx-7c79c4bf97 from 0 to 3\n",
            },
            Case { name: "no events", events: vec![], want: "" },
        ];
        for c in cases {
            let got = print_events(&c.events, now());
            assert_eq!(got, c.want, "case {}:\n{}", c.name, got);
        }
    }

    #[test]
    fn events_wide_columns() {
        let mut e = event("node-1.188a0", "Node", "node-1", "NodeNotReady", "Node node-1 status is now: NodeNotReady", "2026-01-01T00:09:00Z");
        e["firstTimestamp"] = json!("2026-01-01T00:05:00Z");
        e["count"] = json!(3);
        e["source"] = json!({"component": "node-controller"});
        let got = print_table("Event", &[e], true, false, now());
        let want = "LAST SEEN   TYPE     REASON         OBJECT        SUBOBJECT   SOURCE            MESSAGE                                   FIRST SEEN   COUNT   NAME\n\
                    60s         Normal   NodeNotReady   node/node-1               node-controller   Node node-1 status is now: NodeNotReady   5m           3       node-1.188a0\n";
        assert_eq!(got, want, "case wide event row:\n{}", got);
    }

    #[test]
    fn human_duration_upstream_cases() {
        const S: i64 = 1000;
        const M: i64 = 60 * S;
        const H: i64 = 60 * M;
        const D: i64 = 24 * H;
        const Y: i64 = 365 * D;
        // duration_test.go TestHumanDuration + TestHumanDurationBoundaries (ms instead of ns)
        let cases: Vec<(&str, i64, &str)> = vec![
            ("1s", S, "1s"),
            ("70s", 70 * S, "70s"),
            ("190s", 190 * S, "3m10s"),
            ("70m", 70 * M, "70m"),
            ("47h", 47 * H, "47h"),
            ("49h", 49 * H, "2d1h"),
            ("8d2h", 8 * D + 2 * H, "8d"),
            ("367d", 367 * D, "367d"),
            ("2y1d1h", 2 * Y + 25 * H, "2y1d"),
            ("8y2h", 8 * Y + 2 * H, "8y"),
            ("-2s", -2 * S, "<invalid>"),
            ("-2s+1ms", -2 * S + 1, "0s"),
            ("0", 0, "0s"),
            ("1s-1ms", S - 1, "0s"),
            ("2m-1ms", 2 * M - 1, "119s"),
            ("2m", 2 * M, "2m"),
            ("2m1s", 2 * M + S, "2m1s"),
            ("10m-1ms", 10 * M - 1, "9m59s"),
            ("10m", 10 * M, "10m"),
            ("10m1s", 10 * M + S, "10m"),
            ("3h-1ms", 3 * H - 1, "179m"),
            ("3h", 3 * H, "3h"),
            ("3h1m", 3 * H + M, "3h1m"),
            ("8h-1ms", 8 * H - 1, "7h59m"),
            ("8h", 8 * H, "8h"),
            ("8h59m", 8 * H + 59 * M, "8h"),
            ("2d-1ms", 2 * D - 1, "47h"),
            ("2d", 2 * D, "2d"),
            ("2d1h", 2 * D + H, "2d1h"),
            ("8d-1ms", 8 * D - 1, "7d23h"),
            ("8d", 8 * D, "8d"),
            ("8d23h", 8 * D + 23 * H, "8d"),
            ("2y-1ms", 2 * Y - 1, "729d"),
            ("2y", 2 * Y, "2y"),
            ("2y23h", 2 * Y + 23 * H, "2y"),
            ("2y23h59m", 2 * Y + 23 * H + 59 * M, "2y"),
            ("2y1d-1ms", 2 * Y + D - 1, "2y"),
            ("2y1d", 2 * Y + D, "2y1d"),
            ("3y", 3 * Y, "3y"),
            ("7y", 7 * Y, "7y"),
            ("8y-1ms", 8 * Y - 1, "7y364d"),
            ("8y", 8 * Y, "8y"),
            ("8y364d", 8 * Y + 364 * D, "8y"),
            ("9y", 9 * Y, "9y"),
        ];
        for (name, d, want) in cases {
            assert_eq!(human_duration(d), want, "case {}", name);
        }
    }

    #[test]
    fn timestamps() {
        let cases: Vec<(&str, &str, Option<i64>)> = vec![
            ("epoch", "1970-01-01T00:00:00Z", Some(0)),
            ("sim epoch", "2026-01-01T00:00:00Z", Some(1_767_225_600_000)),
            ("micro time keeps ms", "2026-01-01T00:00:01.123456Z", Some(1_767_225_601_123)),
            ("offset", "2026-01-01T02:00:00+02:00", Some(1_767_225_600_000)),
            ("empty", "", None),
            ("garbage", "yesterday", None),
            ("no zone", "2026-01-01T00:00:00", None),
        ];
        for (name, s, want) in cases {
            assert_eq!(parse_rfc3339_unix(s), want, "case {}", name);
        }
        let fmt: Vec<(&str, i64, &str)> = vec![
            ("epoch was a Thursday", 0, "Thu, 01 Jan 1970 00:00:00 +0000"),
            ("sim start", 1_767_225_600_000, "Thu, 01 Jan 2026 00:00:00 +0000"),
            ("leap day", parse_rfc3339_unix("2028-02-29T13:04:05Z").unwrap(), "Tue, 29 Feb 2028 13:04:05 +0000"),
        ];
        for (name, ms, want) in fmt {
            assert_eq!(format_rfc1123z(ms), want, "case {}", name);
        }
    }

    #[test]
    fn tabwriter_blocks() {
        let cases: Vec<(&str, &str, usize, usize, &str)> = vec![
            ("table with minwidth 6", "NAME\tAGE\na\t1s\n", 6, 3, "NAME   AGE\na      1s\n"),
            ("padding 2, last cell not padded", "Name:\tx\nNamespace:\tdefault\n", 0, 2, "Name:       x\nNamespace:  default\n"),
            ("a line without a tab restarts alignment", "Name:\tx\nIPs:\n  IP:\t1.2.3.4\nControlled By:\tRS/x\n", 0, 2, "Name:  x\nIPs:\n  IP:           1.2.3.4\nControlled By:  RS/x\n"),
            ("empty first cell continues a column", "Labels:\ta=b\n\tc=d\n", 0, 2, "Labels:  a=b\n         c=d\n"),
            ("a trailing tab pads the cell", "IP:\t\nStatus:\tRunning\n", 0, 2, "IP:      \nStatus:  Running\n"),
            ("runes, not bytes", "é\tx\nab\ty\n", 0, 1, "é  x\nab y\n"),
        ];
        for (name, input, minwidth, padding, want) in cases {
            assert_eq!(tabwriter(input, minwidth, padding), want, "case {}", name);
        }
    }

    #[test]
    fn quantities() {
        let cases: Vec<(&str, &str, &str, i128, i128)> = vec![
            // name, input, String(), MilliValue(), Value()
            ("millicores", "100m", "100m", 100, 1),
            ("whole cpu", "2", "2", 2000, 2),
            ("half a cpu", "0.5", "500m", 500, 1),
            ("1000m is 1", "1000m", "1", 1000, 1),
            ("mebibytes", "128Mi", "128Mi", 134_217_728_000, 134_217_728),
            ("1024Mi is 1Gi", "1024Mi", "1Gi", 1_073_741_824_000, 1_073_741_824),
            ("1.5Gi", "1.5Gi", "1536Mi", 1_610_612_736_000, 1_610_612_736),
            ("odd kibibytes stay", "4015428Ki", "4015428Ki", 4_111_798_272_000, 4_111_798_272),
            ("small binary prints decimal", "0.5Ki", "512", 512_000, 512),
            ("decimal mega", "1000000", "1M", 1_000_000_000, 1_000_000),
            ("1500 stays", "1500", "1500", 1_500_000, 1500),
            ("decimal suffix", "64M", "64M", 64_000_000_000, 64_000_000),
            ("bytes", "56403987978", "56403987978", 56_403_987_978_000, 56_403_987_978),
            ("exponent", "1e3", "1e3", 1_000_000, 1000),
            ("zero", "0", "0", 0, 0),
        ];
        for (name, input, s, milli, value) in cases {
            let q = qty_from_value(&json!(input)).unwrap_or_else(|| panic!("case {}: parse failed", name));
            assert_eq!(q.canonical(), s, "case {} String()", name);
            assert_eq!(q.milli_value() as i128, milli, "case {} MilliValue()", name);
            assert_eq!(q.value() as i128, value, "case {} Value()", name);
        }
        for bad in ["", "1.2.3", "12x", "1K", "--1"] {
            assert!(qty_from_value(&json!(bad)).is_none(), "case invalid {:?}", bad);
        }
        // sums keep the first non-zero operand's format
        let q = |s: &str| qty_from_value(&json!(s)).unwrap();
        let sum = Qty::zero(QFormat::DecimalSI).add(&q("64Mi")).add(&q("128Mi"));
        assert_eq!(sum.canonical(), "192Mi", "case sum of mebibytes");
        assert_eq!(q("250m").add(&q("750m")).canonical(), "1", "case 250m+750m");
    }

    #[test]
    fn label_selectors() {
        // (name, selector, FormatLabelSelector, LabelSelectorAsSelector().String())
        let cases: Vec<(&str, Option<Value>, &str, &str)> = vec![
            ("match labels sorted", Some(json!({"matchLabels": {"tier": "web", "app": "nginx"}})), "app=nginx,tier=web", "app=nginx,tier=web"),
            (
                "expressions sorted by key, values sorted",
                Some(json!({"matchLabels": {"app": "x"}, "matchExpressions": [
                    {"key": "env", "operator": "In", "values": ["prod", "dev"]},
                    {"key": "zone", "operator": "NotIn", "values": ["b"]},
                    {"key": "canary", "operator": "DoesNotExist"},
                    {"key": "gpu", "operator": "Exists"}]})),
                "app=x,!canary,env in (dev,prod),gpu,zone notin (b)",
                "app=x,!canary,env in (dev,prod),gpu,zone notin (b)",
            ),
            ("empty selector", Some(json!({})), "<none>", ""),
            ("nil selector", None, "<none>", ""),
        ];
        for (name, sel, formatted, plain) in cases {
            assert_eq!(format_label_selector(sel.as_ref()), formatted, "case {} FormatLabelSelector", name);
            assert_eq!(selector_string(sel.as_ref()), plain, "case {} String()", name);
        }
    }

    #[test]
    fn yaml_nested_object() {
        let obj = json!({
            "kind": "Pod", "apiVersion": "v1",
            "metadata": {"name": "p", "labels": {"app": "nginx"}, "annotations": {"note": "line one\nline two\n"}},
            "spec": {"containers": [{"name": "c", "command": ["sh", "-c", "echo hi; sleep 10"], "env": [{"name": "PORT", "value": "8080"}], "resources": {}}],
                     "tolerations": [], "priority": 0},
            "status": {"phase": "Pending", "conditions": [{"type": "PodScheduled", "status": "False", "lastProbeTime": null}]}
        });
        let want = "apiVersion: v1\n\
kind: Pod\n\
metadata:\n\
\x20 annotations:\n\
\x20   note: |\n\
\x20     line one\n\
\x20     line two\n\
\x20 labels:\n\
\x20   app: nginx\n\
\x20 name: p\n\
spec:\n\
\x20 containers:\n\
\x20 - command:\n\
\x20   - sh\n\
\x20   - -c\n\
\x20   - echo hi; sleep 10\n\
\x20   env:\n\
\x20   - name: PORT\n\
\x20     value: \"8080\"\n\
\x20   name: c\n\
\x20   resources: {}\n\
\x20 priority: 0\n\
\x20 tolerations: []\n\
status:\n\
\x20 conditions:\n\
\x20 - lastProbeTime: null\n\
\x20   status: \"False\"\n\
\x20   type: PodScheduled\n\
\x20 phase: Pending\n";
        let got = to_yaml(&obj);
        assert_eq!(got, want, "case nested pod:\n{}", got);
    }

    #[test]
    fn yaml_scalar_styles() {
        let cases: Vec<(&str, Value, &str)> = vec![
            ("plain string", json!("nginx:1.27"), "v: nginx:1.27\n"),
            ("percent", json!("25%"), "v: 25%\n"),
            ("int-looking string is double quoted", json!("1"), "v: \"1\"\n"),
            ("bool-looking string", json!("true"), "v: \"true\"\n"),
            ("yaml 1.1 bool word", json!("yes"), "v: \"yes\"\n"),
            ("empty string", json!(""), "v: \"\"\n"),
            ("timestamp string", json!("2026-01-01T00:00:00Z"), "v: \"2026-01-01T00:00:00Z\"\n"),
            ("octal-looking", json!("0755"), "v: \"0755\"\n"),
            ("huge hex is still an int", json!("0xFFFFFFFFFFFFFFFFFF"), "v: \"0xFFFFFFFFFFFFFFFFFF\"\n"),
            ("not a number", json!("0x"), "v: 0x\n"),
            ("float-looking", json!("1.5"), "v: \"1.5\"\n"),
            ("base 60", json!("12:30"), "v: \"12:30\"\n"),
            ("colon space needs single quotes", json!("a: b"), "v: 'a: b'\n"),
            ("leading indicator", json!("*"), "v: '*'\n"),
            ("dash space", json!("- x"), "v: '- x'\n"),
            ("comment", json!("x #y"), "v: 'x #y'\n"),
            ("apostrophe doubled in single quotes", json!("it's: x"), "v: 'it''s: x'\n"),
            ("trailing space", json!("x "), "v: 'x '\n"),
            ("tab forces double quotes", json!("a\tb"), "v: \"a\\tb\"\n"),
            ("astral char escaped", json!("ok 😀"), "v: \"ok \\U0001F600\"\n"),
            ("literal keep-newline", json!("a\nb\n"), "v: |\n  a\n  b\n"),
            ("literal strip", json!("a\nb"), "v: |-\n  a\n  b\n"),
            ("literal with leading space gets indent hint", json!(" a\nb"), "v: |2-\n   a\n  b\n"),
            ("space before newline forces double quotes", json!("a \nb"), "v: \"a \\nb\"\n"),
            ("integer", json!(3), "v: 3\n"),
            ("float", json!(0.5), "v: 0.5\n"),
            ("big float uses exponent", json!(1000000.0), "v: 1e+06\n"),
            ("null", Value::Null, "v: null\n"),
            ("bool", json!(false), "v: false\n"),
        ];
        for (name, v, want) in cases {
            let got = to_yaml(&json!({ "v": v }));
            assert_eq!(got, want, "case {}", name);
        }
    }

    #[test]
    fn yaml_keys_and_folding() {
        let keys = to_yaml(&json!({"a10": 1, "a9": 2, "a_b": 3, "aB": 4, "a-b": 5, "no": 6, "80": 7}));
        assert_eq!(keys, "\"80\": 7\na-b: 5\na_b: 3\na9: 2\na10: 1\naB: 4\n\"no\": 6\n", "case go-yaml key order and quoted keys");
        let msg = "0/3 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 2 Insufficient cpu. preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.";
        let got = to_yaml(&json!({"status": {"conditions": [{"message": msg, "type": "PodScheduled"}]}}));
        let want = "status:\n  conditions:\n  - message: '0/3 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane:\n      }, 2 Insufficient cpu. preemption: 0/3 nodes are available: 1 Preemption is\n      not helpful for scheduling, 2 No preemption victims found for incoming pod.'\n    type: PodScheduled\n";
        assert_eq!(got, want, "case folded single-quoted message:\n{}", got);
        let plain = "Scaled up replica set web-7c79c4bf97 from 0 to 3 because the deployment asked for three replicas";
        let got = to_yaml(&json!({"message": plain}));
        assert_eq!(
            got,
            "message: Scaled up replica set web-7c79c4bf97 from 0 to 3 because the deployment asked\n  for three replicas\n",
            "case folded plain scalar"
        );
        let nested = to_yaml(&json!({"a": [[1, 2], [], {}], "b": [{"c": [{"d": 1}]}]}));
        assert_eq!(nested, "a:\n- - 1\n  - 2\n- []\n- {}\nb:\n- c:\n  - d: 1\n", "case nested sequences");
    }

    #[test]
    fn lists_and_json() {
        let p = json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"}});
        assert_eq!(
            list_to_yaml(&[p.clone()]),
            "apiVersion: v1\nitems:\n- apiVersion: v1\n  kind: Pod\n  metadata:\n    name: p\nkind: List\nmetadata:\n  resourceVersion: \"\"\n",
            "case list yaml"
        );
        assert_eq!(list_to_yaml(&[]), "apiVersion: v1\nitems: []\nkind: List\nmetadata:\n  resourceVersion: \"\"\n", "case empty list yaml");
        assert_eq!(
            list_to_json(&[p]),
            "{\n    \"apiVersion\": \"v1\",\n    \"items\": [\n        {\n            \"apiVersion\": \"v1\",\n            \"kind\": \"Pod\",\n            \"metadata\": {\n                \"name\": \"p\"\n            }\n        }\n    ],\n    \"kind\": \"List\",\n    \"metadata\": {\n        \"resourceVersion\": \"\"\n    }\n}\n",
            "case list json"
        );
        let cases: Vec<(&str, Value, &str)> = vec![
            ("html escaped like Go", json!("<none> & >"), "\"\\u003cnone\\u003e \\u0026 \\u003e\""),
            ("control characters", json!("a\u{1}\u{8}\n"), "\"a\\u0001\\b\\n\""),
            ("float", json!(1.5), "1.5"),
            ("large float", json!(1e21), "1e+21"),
            ("tiny float", json!(0.0000001), "1e-7"),
            ("integral float", json!(2.0), "2"),
            ("empty map and list", json!({"a": {}, "b": []}), "{\n    \"a\": {},\n    \"b\": []\n}"),
        ];
        for (name, v, want) in cases {
            assert_eq!(to_json(&v), format!("{}\n", want), "case {}", name);
        }
    }

    #[test]
    fn never_panics_on_odd_objects() {
        let odd = vec![json!(null), json!(5), json!("x"), json!([]), json!({"metadata": 3, "spec": "x", "status": {"containerStatuses": {"a": 1}}})];
        for kind in ["Deployment", "ReplicaSet", "Pod", "Node", "Namespace", "Event", "Other"] {
            let _ = print_table(kind, &odd, true, true, now());
        }
        let _ = print_events(&odd, now());
        for o in &odd {
            let _ = to_yaml(o);
            let _ = to_json(o);
            let _ = describe_pod(o, &odd, now());
            let _ = describe_node(o, &odd, &odd, now());
            let _ = describe_deployment(o, &odd, &odd, now());
            let _ = describe_replica_set(o, &odd, &odd, now());
        }
    }
}
