//! `kubectl describe` for Deployments, ReplicaSets, DaemonSets, StatefulSets, Jobs, CronJobs, Pods,
//! Services, Nodes, PersistentVolumeClaims, PersistentVolumes, StorageClasses, ResourceQuotas,
//! PriorityClasses and Namespaces.
//!
//! Upstream: `staging/src/k8s.io/kubectl/pkg/describe/describe.go` — `describeDeployment`,
//! `describeReplicaSet`, `describePod`, `describeNode`, `describeStatefulSet`,
//! `describePersistentVolumeClaim`, `describePersistentVolume`, `describeStorageClass`, `describeCronJob`,
//! `describeQuota`, `describePriorityClass`, `describeNamespace`, `DescribePodTemplate`,
//! `describeContainers` and friends, `describeVolumes`, `describeNodeResource`,
//! `DescribeEvents`, `printLabelsMultiline`, `printAnnotationsMultiline`,
//! `printTolerationsMultilineWithIndent`, `printTaintsMultilineWithIndent`; plus
//! `kubectl/pkg/util/qos` (QoS Class), `kubectl/pkg/util/resource` (PodRequestsAndLimits),
//! `kubectl/pkg/util/event` (SortableEvents) and `kubectl/pkg/util/deployment`
//! (FindNewReplicaSet / FindOldReplicaSets).
//!
//! How the text is made, as upstream: every describer writes lines through a `PrefixWriter`
//! (two spaces per LEVEL) into a Go `text/tabwriter` (minwidth 0, tabwidth 8, padding 2, ' ').
//! Labels are `Label:\tvalue`, so alignment comes from the tabwriter's *column blocks*: a line
//! with no tab (`Containers:`, `Conditions:`) ends the block, and the next block is aligned on
//! its own. `DescribeEvents` flushes the tabwriter first, so the Events table never shares
//! widths with what is above it. That is why real `describe` output "jumps" in alignment.
//!
//! Simplifications: the node's `Lease:` section is derived from the node itself (holder = node
//! name, RenewTime = the Ready condition's lastHeartbeatTime) because the Lease object is not
//! passed in; events with equal timestamps keep the apiserver's order (Go's `sort.Sort` is only
//! stable up to 12 elements); volume types beyond the common ones print `<unknown>`; terminal
//! escape filtering (`printers.WriteEscaped`) is not done; times print in UTC.

use crate::api::time::parse_rfc3339_unix;
use super::printers::{
    access_modes_string, event_sort_time, find_node_roles, format_label_selector, format_rfc1123z, ga, gb, get, gi, gmap, gs, rfc1123z_field, scalar_text,
    selector_string, tabwriter, translate_timestamp_since, qty_from_value, QFormat, Qty,
};
use serde_json::Value;
use std::collections::BTreeMap;
use crate::sim::sort::CompactSort;

/// The annotation `printAnnotationsMultiline` always hides.
const LAST_APPLIED: &str = "kubectl.kubernetes.io/last-applied-configuration";
/// `maxAnnotationLen`: longer annotations print on their own, shortened lines.
const MAX_ANNOTATION_LEN: usize = 140;

/// describe.go's `prefixWriter` writing into a `tabwriter.Writer` (0, 8, 2, ' ', 0).
struct PrefixWriter {
    buf: String,
    out: String,
}

impl PrefixWriter {
    fn new() -> Self {
        PrefixWriter { buf: String::new(), out: String::new() }
    }

    /// `Write(level, ...)`: the level's indentation goes only before the formatted text.
    fn write(&mut self, level: usize, text: &str) {
        for _ in 0..level {
            self.buf.push_str("  ");
        }
        self.buf.push_str(text);
    }

    /// `WriteLine(a...)`: the text and a newline, no indentation.
    fn write_line(&mut self, text: &str) {
        self.buf.push_str(text);
        self.buf.push('\n');
    }

    /// `Flush()`: lay out everything buffered so far; later text aligns independently.
    fn flush(&mut self) {
        let laid_out = tabwriter(&self.buf, 0, 2);
        self.out.push_str(&laid_out);
        self.buf.clear();
    }

    fn finish(mut self) -> String {
        self.flush();
        self.out
    }
}

// ---------------------------------------------------------------------------------------------
// Shared pieces
// ---------------------------------------------------------------------------------------------

/// `printLabelsMultilineWithIndent(w, initialIndent, title, "\t", labels, skip)`.
fn print_labels_multiline_indent(w: &mut PrefixWriter, initial_indent: &str, title: &str, labels: &[(String, String)]) {
    w.write(0, &format!("{}{}:\t", initial_indent, title));
    if labels.is_empty() {
        w.write_line("<none>");
        return;
    }
    for (i, (k, v)) in labels.iter().enumerate() {
        if i != 0 {
            w.write(0, initial_indent);
            w.write(0, "\t");
        }
        w.write(0, &format!("{}={}\n", k, v));
    }
}

fn print_labels_multiline(w: &mut PrefixWriter, title: &str, labels: &[(String, String)]) {
    print_labels_multiline_indent(w, "", title, labels)
}

/// Go's `s[:max] + "..."` on bytes, kept on a char boundary.
fn shorten(s: &str, max: usize) -> String {
    if s.len() > max {
        let mut end = max;
        while end > 0 && !s.is_char_boundary(end) {
            end -= 1;
        }
        format!("{}...", &s[..end])
    } else {
        s.to_string()
    }
}

/// `printAnnotationsMultiline`: sorted, last-applied-configuration skipped, long or multi-line
/// values on their own lines (indented two spaces, cut at 138 bytes).
fn print_annotations_multiline(w: &mut PrefixWriter, title: &str, annotations: &[(String, String)]) {
    w.write(0, &format!("{}:\t", title));
    let keys: Vec<&(String, String)> = annotations.iter().filter(|(k, _)| k != LAST_APPLIED).collect();
    if keys.is_empty() {
        w.write_line("<none>");
        return;
    }
    let indent = "\t";
    for (i, (key, value)) in keys.into_iter().enumerate() {
        if i != 0 {
            w.write(0, indent);
        }
        let value = value.strip_suffix('\n').unwrap_or(value);
        if value.len() + key.len() + 2 > MAX_ANNOTATION_LEN || value.contains('\n') {
            w.write(0, &format!("{}:\n", key));
            for s in value.split('\n') {
                w.write(0, &format!("{}  {}\n", indent, shorten(s, MAX_ANNOTATION_LEN - 2)));
            }
        } else {
            w.write(0, &format!("{}: {}\n", key, value));
        }
    }
}

/// `printTolerationsMultilineWithIndent`: sorted by key; `key=value:Effect op=Exists for Ns`.
fn print_tolerations_multiline(w: &mut PrefixWriter, title: &str, tolerations: &[Value]) {
    w.write(0, &format!("{}:\t", title));
    if tolerations.is_empty() {
        w.write_line("<none>");
        return;
    }
    let mut sorted: Vec<&Value> = tolerations.iter().collect();
    sorted.csort_by(|a, b| gs(a, &["key"]).cmp(gs(b, &["key"])));
    for (i, t) in sorted.into_iter().enumerate() {
        if i != 0 {
            w.write(0, "\t");
        }
        let key = gs(t, &["key"]);
        let value = gs(t, &["value"]);
        let effect = gs(t, &["effect"]);
        let mut s = key.to_string();
        if !value.is_empty() {
            s.push_str(&format!("={}", value));
        }
        if !effect.is_empty() {
            s.push_str(&format!(":{}", effect));
        }
        // `operator: Exists` with no value tolerates everything matching the key
        if gs(t, &["operator"]) == "Exists" && value.is_empty() {
            if !key.is_empty() || !effect.is_empty() {
                s.push_str(" op=Exists");
            } else {
                s.push_str("op=Exists");
            }
        }
        if let Some(secs) = gi(t, &["tolerationSeconds"]) {
            s.push_str(&format!(" for {}s", secs));
        }
        s.push('\n');
        w.write(0, &s);
    }
}

/// `Taint.ToString()`: `key=value:Effect`, or `key:Effect` without a value.
fn taint_string(t: &Value) -> String {
    let (k, v, e) = (gs(t, &["key"]), gs(t, &["value"]), gs(t, &["effect"]));
    if v.is_empty() {
        format!("{}:{}", k, e)
    } else {
        format!("{}={}:{}", k, v, e)
    }
}

/// `printTaintsMultilineWithIndent`: sorted by "effect,key".
fn print_taints_multiline(w: &mut PrefixWriter, title: &str, taints: &[Value]) {
    w.write(0, &format!("{}:\t", title));
    if taints.is_empty() {
        w.write_line("<none>");
        return;
    }
    let mut sorted: Vec<&Value> = taints.iter().collect();
    sorted.csort_by(|a, b| format!("{},{}", gs(a, &["effect"]), gs(a, &["key"])).cmp(&format!("{},{}", gs(b, &["effect"]), gs(b, &["key"]))));
    for (i, t) in sorted.into_iter().enumerate() {
        if i != 0 {
            w.write(0, "\t");
        }
        w.write(0, &format!("{}\n", taint_string(t)));
    }
}

/// `printController`: `Kind/name` of the controlling ownerReference.
fn print_controller(obj: &Value) -> String {
    ga(obj, &["metadata", "ownerReferences"])
        .iter()
        .find(|r| gb(r, &["controller"]))
        .map(|r| format!("{}/{}", gs(r, &["kind"]), gs(r, &["name"])))
        .unwrap_or_default()
}

fn controller_uid(obj: &Value) -> Option<&str> {
    ga(obj, &["metadata", "ownerReferences"]).iter().find(|r| gb(r, &["controller"])).map(|r| gs(r, &["uid"]))
}

/// `IntOrString.String()`.
fn int_or_string(v: Option<&Value>) -> String {
    match v {
        Some(Value::Number(n)) => n.to_string(),
        Some(Value::String(s)) => s.clone(),
        _ => "0".into(),
    }
}

/// A quantity as `Quantity.String()` prints it (falls back to the raw text if unparsable).
fn quantity_text(v: &Value) -> String {
    match qty_from_value(v) {
        Some(q) => q.canonical(),
        None => scalar_text(v),
    }
}

/// `DescribeEvents`: flushes the tabwriter, then a Type/Reason/Age/From/Message table sorted by
/// time (series.lastObservedTime, lastTimestamp, eventTime). Input is first put in the
/// apiserver's list order (namespace, name) so equal times keep that order.
fn describe_events(w: &mut PrefixWriter, events: &[Value], now_ms: i64) {
    if events.is_empty() {
        w.write(0, "Events:\t<none>\n");
        return;
    }
    w.flush();
    let mut sorted: Vec<&Value> = events.iter().collect();
    sorted.csort_by(|a, b| {
        (gs(a, &["metadata", "namespace"]), gs(a, &["metadata", "name"])).cmp(&(gs(b, &["metadata", "namespace"]), gs(b, &["metadata", "name"])))
    });
    sorted.csort_by_key(|e| event_sort_time(e));
    w.write(0, "Events:\n  Type\tReason\tAge\tFrom\tMessage\n");
    w.write(1, "----\t------\t----\t----\t-------\n");
    for e in sorted {
        let event_time = gs(e, &["eventTime"]);
        let first_since = if parse_rfc3339_unix(event_time).is_some() {
            translate_timestamp_since(event_time, now_ms)
        } else {
            translate_timestamp_since(gs(e, &["firstTimestamp"]), now_ms)
        };
        let count = gi(e, &["count"]).unwrap_or(0);
        let interval = if let Some(series) = get(e, &["series"]).filter(|s| s.is_object()) {
            format!(
                "{} (x{} over {})",
                translate_timestamp_since(gs(series, &["lastObservedTime"]), now_ms),
                gi(series, &["count"]).unwrap_or(0),
                first_since
            )
        } else if count > 1 {
            format!("{} (x{} over {})", translate_timestamp_since(gs(e, &["lastTimestamp"]), now_ms), count, first_since)
        } else {
            first_since
        };
        let mut source = gs(e, &["source", "component"]).to_string();
        if source.is_empty() {
            source = gs(e, &["reportingComponent"]).to_string();
        }
        w.write(
            1,
            &format!("{}\t{}\t{}\t{}\t{}\n", gs(e, &["type"]), gs(e, &["reason"]), interval, source, gs(e, &["message"]).trim()),
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Containers, volumes, pod templates
// ---------------------------------------------------------------------------------------------

fn string_or_none(s: &str) -> String {
    if s.is_empty() {
        "<none>".into()
    } else {
        s.to_string()
    }
}

fn port_protocol(p: &Value) -> &str {
    let proto = gs(p, &["protocol"]);
    if proto.is_empty() {
        "TCP" // SetDefaults_ContainerPort
    } else {
        proto
    }
}

fn describe_container_basic_info(w: &mut PrefixWriter, c: &Value, status: Option<&Value>, space: &str) {
    let name_indent = if space.is_empty() { "" } else { " " };
    w.write(1, &format!("{}{}:\n", name_indent, gs(c, &["name"])));
    if let Some(s) = status {
        w.write(2, &format!("Container ID:\t{}\n", gs(s, &["containerID"])));
    }
    w.write(2, &format!("Image:\t{}\n", gs(c, &["image"])));
    if let Some(s) = status {
        w.write(2, &format!("Image ID:\t{}\n", gs(s, &["imageID"])));
    }
    let ports = ga(c, &["ports"]);
    let port_string = ports.iter().map(|p| format!("{}/{}", gi(p, &["containerPort"]).unwrap_or(0), port_protocol(p))).collect::<Vec<_>>().join(", ");
    if port_string.contains(',') {
        w.write(2, &format!("Ports:\t{}\n", port_string));
    } else {
        w.write(2, &format!("Port:\t{}\n", string_or_none(&port_string)));
    }
    let host_port_string = ports.iter().map(|p| format!("{}/{}", gi(p, &["hostPort"]).unwrap_or(0), port_protocol(p))).collect::<Vec<_>>().join(", ");
    if host_port_string.contains(',') {
        w.write(2, &format!("Host Ports:\t{}\n", host_port_string));
    } else {
        w.write(2, &format!("Host Port:\t{}\n", string_or_none(&host_port_string)));
    }
    if let Some(sp) = get(c, &["securityContext", "seccompProfile"]).filter(|v| v.is_object()) {
        w.write(2, &format!("SeccompProfile:\t{}\n", gs(sp, &["type"])));
        if gs(sp, &["type"]) == "Localhost" {
            w.write(3, &format!("LocalhostProfile:\t{}\n", gs(sp, &["localhostProfile"])));
        }
    }
}

fn describe_container_command(w: &mut PrefixWriter, c: &Value) {
    for (field, label) in [("command", "Command"), ("args", "Args")] {
        let items = ga(c, &[field]);
        if !items.is_empty() {
            w.write(2, &format!("{}:\n", label));
            for item in items {
                for s in scalar_text(item).split('\n') {
                    w.write(3, &format!("{}\n", s));
                }
            }
        }
    }
}

/// `describeResources`: Limits then Requests, resource names sorted.
fn describe_resources(w: &mut PrefixWriter, resources: Option<&Value>, level: usize) {
    let Some(r) = resources else { return };
    for (field, label) in [("limits", "Limits"), ("requests", "Requests")] {
        let Some(list) = get(r, &[field]).and_then(|l| l.as_object()) else { continue };
        if list.is_empty() {
            continue;
        }
        w.write(level, &format!("{}:\n", label));
        // serde_json maps iterate in byte order, like SortedResourceNames
        for (name, q) in list {
            w.write(level + 1, &format!("{}:\t{}\n", name, quantity_text(q)));
        }
    }
}

/// `describeStatus`: Running / Waiting / Terminated with their details.
fn describe_status(w: &mut PrefixWriter, state_name: &str, state: Option<&Value>) {
    let running = state.and_then(|s| get(s, &["running"])).filter(|v| v.is_object());
    let waiting = state.and_then(|s| get(s, &["waiting"])).filter(|v| v.is_object());
    let terminated = state.and_then(|s| get(s, &["terminated"])).filter(|v| v.is_object());
    if let Some(r) = running {
        w.write(2, &format!("{}:\tRunning\n", state_name));
        w.write(3, &format!("Started:\t{}\n", rfc1123z_field(r, &["startedAt"])));
    } else if let Some(wt) = waiting {
        w.write(2, &format!("{}:\tWaiting\n", state_name));
        if !gs(wt, &["reason"]).is_empty() {
            w.write(3, &format!("Reason:\t{}\n", gs(wt, &["reason"])));
        }
    } else if let Some(t) = terminated {
        w.write(2, &format!("{}:\tTerminated\n", state_name));
        if !gs(t, &["reason"]).is_empty() {
            w.write(3, &format!("Reason:\t{}\n", gs(t, &["reason"])));
        }
        if !gs(t, &["message"]).is_empty() {
            w.write(3, &format!("Message:\t{}\n", gs(t, &["message"])));
        }
        w.write(3, &format!("Exit Code:\t{}\n", gi(t, &["exitCode"]).unwrap_or(0)));
        let signal = gi(t, &["signal"]).unwrap_or(0);
        if signal > 0 {
            w.write(3, &format!("Signal:\t{}\n", signal));
        }
        w.write(3, &format!("Started:\t{}\n", rfc1123z_field(t, &["startedAt"])));
        w.write(3, &format!("Finished:\t{}\n", rfc1123z_field(t, &["finishedAt"])));
    } else {
        w.write(2, &format!("{}:\tWaiting\n", state_name));
    }
}

fn describe_container_state(w: &mut PrefixWriter, status: &Value) {
    describe_status(w, "State", get(status, &["state"]));
    if let Some(last) = get(status, &["lastState"]).filter(|l| get(l, &["terminated"]).map(|t| t.is_object()).unwrap_or(false)) {
        describe_status(w, "Last State", Some(last));
    }
    w.write(2, &format!("Ready:\t{}\n", if gb(status, &["ready"]) { "True" } else { "False" }));
    w.write(2, &format!("Restart Count:\t{}\n", gi(status, &["restartCount"]).unwrap_or(0)));
}

/// `DescribeProbe`: `http-get http://:80/ delay=0s timeout=1s period=10s #success=1 #failure=3`.
fn describe_probe(p: &Value) -> String {
    let attrs = format!(
        "delay={}s timeout={}s period={}s #success={} #failure={}",
        gi(p, &["initialDelaySeconds"]).unwrap_or(0),
        gi(p, &["timeoutSeconds"]).unwrap_or(0),
        gi(p, &["periodSeconds"]).unwrap_or(0),
        gi(p, &["successThreshold"]).unwrap_or(0),
        gi(p, &["failureThreshold"]).unwrap_or(0)
    );
    let join_host_port = |host: &str, port: &str| if host.contains(':') { format!("[{}]:{}", host, port) } else { format!("{}:{}", host, port) };
    if let Some(exec) = get(p, &["exec"]).filter(|v| v.is_object()) {
        let cmd: Vec<String> = ga(exec, &["command"]).iter().map(scalar_text).collect();
        return format!("exec [{}] {}", cmd.join(" "), attrs);
    }
    if let Some(h) = get(p, &["httpGet"]).filter(|v| v.is_object()) {
        let port = int_or_string(get(h, &["port"]));
        let host = if port.is_empty() { gs(h, &["host"]).to_string() } else { join_host_port(gs(h, &["host"]), &port) };
        let scheme = gs(h, &["scheme"]).to_lowercase();
        let path = gs(h, &["path"]);
        let mut url = String::new();
        if !scheme.is_empty() {
            url.push_str(&scheme);
            url.push(':');
        }
        if !scheme.is_empty() || !host.is_empty() {
            url.push_str("//");
            url.push_str(&host);
        }
        if !path.is_empty() && !path.starts_with('/') && !host.is_empty() {
            url.push('/');
        }
        url.push_str(path);
        return format!("http-get {} {}", url, attrs);
    }
    if let Some(t) = get(p, &["tcpSocket"]).filter(|v| v.is_object()) {
        return format!("tcp-socket {}:{} {}", gs(t, &["host"]), int_or_string(get(t, &["port"])), attrs);
    }
    if let Some(g) = get(p, &["grpc"]).filter(|v| v.is_object()) {
        return format!("grpc <pod>:{} {} {}", gi(g, &["port"]).unwrap_or(0), gs(g, &["service"]), attrs);
    }
    format!("unknown {}", attrs)
}

fn describe_container_probe(w: &mut PrefixWriter, c: &Value) {
    for (field, label) in [("livenessProbe", "Liveness"), ("readinessProbe", "Readiness"), ("startupProbe", "Startup")] {
        if let Some(p) = get(c, &[field]).filter(|v| v.is_object()) {
            w.write(2, &format!("{}:\t{}\n", label, describe_probe(p)));
        }
    }
}

fn describe_container_env_from(w: &mut PrefixWriter, c: &Value) {
    let env_from = ga(c, &["envFrom"]);
    w.write(2, &format!("Environment Variables from:{}\n", if env_from.is_empty() { "\t<none>" } else { "" }));
    for e in env_from {
        let (from, r) = if let Some(r) = get(e, &["configMapRef"]).filter(|v| v.is_object()) {
            ("ConfigMap", Some(r))
        } else if let Some(r) = get(e, &["secretRef"]).filter(|v| v.is_object()) {
            ("Secret", Some(r))
        } else {
            ("", None)
        };
        let name = r.map(|r| gs(r, &["name"])).unwrap_or("");
        let optional = r.map(|r| gb(r, &["optional"])).unwrap_or(false);
        let prefix = gs(e, &["prefix"]);
        if prefix.is_empty() {
            w.write(3, &format!("{}\t{}\tOptional: {}\n", name, from, optional));
        } else {
            w.write(3, &format!("{}\t{} with prefix '{}'\tOptional: {}\n", name, from, prefix, optional));
        }
    }
}

/// The value kubectl prints for a downward-API `fieldRef` env var (`EnvValueRetriever`): it
/// converts the field path with client-go's scheme, which has no field-label conversions for
/// Pods, so only the default `metadata.name` and `metadata.namespace` resolve; every other path
/// (`spec.nodeName`, `status.podIP`, `metadata.labels['…']`…) prints empty, as real kubectl
/// prints it.
fn resolve_field_ref(pod: Option<&Value>, path: &str) -> String {
    let Some(pod) = pod else { return String::new() };
    match path {
        "metadata.name" => gs(pod, &["metadata", "name"]).into(),
        "metadata.namespace" => gs(pod, &["metadata", "namespace"]).into(),
        _ => String::new(),
    }
}

/// `ExtractContainerResourceValue` for `resourceFieldRef` (divisor 1 unless given).
fn container_resource_value(c: &Value, resource: &str, divisor: Option<&Value>) -> String {
    let (section, name) = match resource.split_once('.') {
        Some(x) => x,
        None => return String::new(),
    };
    let q = get(c, &["resources", section, name]).and_then(qty_from_value).unwrap_or(Qty::zero(QFormat::DecimalSI));
    let div = divisor.and_then(qty_from_value).filter(|d| d.nanos() != 0);
    match name {
        "cpu" => {
            let d = div.map(|d| d.milli_value()).unwrap_or(1000);
            let v = (q.milli_value() as f64 / d as f64).ceil() as i64;
            v.to_string()
        }
        _ => {
            let d = div.map(|d| d.value()).unwrap_or(1);
            let v = (q.value() as f64 / d as f64).ceil() as i64;
            v.to_string()
        }
    }
}

fn describe_container_env_vars(w: &mut PrefixWriter, c: &Value, pod: Option<&Value>) {
    let env = ga(c, &["env"]);
    w.write(2, &format!("Environment:{}\n", if env.is_empty() { "\t<none>" } else { "" }));
    for e in env {
        let name = gs(e, &["name"]);
        let Some(vf) = get(e, &["valueFrom"]).filter(|v| v.is_object()) else {
            for (i, s) in gs(e, &["value"]).split('\n').enumerate() {
                if i == 0 {
                    w.write(3, &format!("{}:\t{}\n", name, s));
                } else {
                    w.write(3, &format!("\t{}\n", s));
                }
            }
            continue;
        };
        if let Some(fr) = get(vf, &["fieldRef"]).filter(|v| v.is_object()) {
            let path = gs(fr, &["fieldPath"]);
            let mut api_version = gs(fr, &["apiVersion"]);
            if api_version.is_empty() {
                api_version = "v1";
            }
            w.write(3, &format!("{}:\t{} ({}:{})\n", name, resolve_field_ref(pod, path), api_version, path));
        } else if let Some(rf) = get(vf, &["resourceFieldRef"]).filter(|v| v.is_object()) {
            let resource = gs(rf, &["resource"]);
            let mut value = container_resource_value(c, resource, get(rf, &["divisor"]));
            if value == "0" && (resource == "limits.cpu" || resource == "limits.memory") {
                value = "node allocatable".into();
            }
            w.write(3, &format!("{}:\t{} ({})\n", name, value, resource));
        } else if let Some(sk) = get(vf, &["secretKeyRef"]).filter(|v| v.is_object()) {
            w.write(
                3,
                &format!("{}:\t<set to the key '{}' in secret '{}'>\tOptional: {}\n", name, gs(sk, &["key"]), gs(sk, &["name"]), gb(sk, &["optional"])),
            );
        } else if let Some(ck) = get(vf, &["configMapKeyRef"]).filter(|v| v.is_object()) {
            w.write(
                3,
                &format!("{}:\t<set to the key '{}' of config map '{}'>\tOptional: {}\n", name, gs(ck, &["key"]), gs(ck, &["name"]), gb(ck, &["optional"])),
            );
        }
    }
}

fn describe_container_volumes(w: &mut PrefixWriter, c: &Value) {
    let mounts = ga(c, &["volumeMounts"]);
    let none = if mounts.is_empty() { "\t<none>" } else { "" };
    w.write(2, &format!("Mounts:{}\n", none));
    let mut sorted: Vec<&Value> = mounts.iter().collect();
    sorted.csort_by(|a, b| gs(a, &["mountPath"]).cmp(gs(b, &["mountPath"])));
    for m in sorted {
        let mut flags = vec![if gb(m, &["readOnly"]) { "ro".to_string() } else { "rw".to_string() }];
        let sub = gs(m, &["subPath"]);
        if !sub.is_empty() {
            flags.push(format!("path={:?}", sub));
        }
        w.write(3, &format!("{} from {} ({})\n", gs(m, &["mountPath"]), gs(m, &["name"]), flags.join(",")));
    }
    let devices = ga(c, &["volumeDevices"]);
    if !devices.is_empty() {
        w.write(2, &format!("Devices:{}\n", none));
        let mut sorted: Vec<&Value> = devices.iter().collect();
        sorted.csort_by(|a, b| gs(a, &["devicePath"]).cmp(gs(b, &["devicePath"])));
        for d in sorted {
            w.write(3, &format!("{} from {}\n", gs(d, &["devicePath"]), gs(d, &["name"])));
        }
    }
}

/// `describeContainers`: label line, then per container its basic info, command, state,
/// resources, probes, environment and mounts. `pod` resolves downward-API env values.
fn describe_containers(w: &mut PrefixWriter, label: &str, containers: &[Value], statuses: &[Value], pod: Option<&Value>, space: &str) {
    let none = if containers.is_empty() { " <none>" } else { "" };
    w.write(0, &format!("{}{}:{}\n", space, label, none));
    for c in containers {
        let status = statuses.iter().rev().find(|s| gs(s, &["name"]) == gs(c, &["name"]));
        describe_container_basic_info(w, c, status, space);
        describe_container_command(w, c);
        if let Some(s) = status {
            describe_container_state(w, s);
        }
        describe_resources(w, get(c, &["resources"]), 2);
        describe_container_probe(w, c);
        if !ga(c, &["envFrom"]).is_empty() {
            describe_container_env_from(w, c);
        }
        describe_container_env_vars(w, c, pod);
        describe_container_volumes(w, c);
    }
}

/// `printHostPathVolumeSource` (Pod volumes and PersistentVolume sources alike).
fn print_host_path_volume_source(w: &mut PrefixWriter, hp: &Value) {
    let t = gs(hp, &["type"]);
    w.write(
        2,
        &format!(
            "Type:\tHostPath (bare host directory volume)\n    Path:\t{}\n    HostPathType:\t{}\n",
            gs(hp, &["path"]),
            if get(hp, &["type"]).map(|x| x.is_string()).unwrap_or(false) { t } else { "<none>" }
        ),
    );
}

/// `printNFSVolumeSource`.
fn print_nfs_volume_source(w: &mut PrefixWriter, nfs: &Value) {
    w.write(
        2,
        &format!(
            "Type:\tNFS (an NFS mount that lasts the lifetime of a pod)\n    Server:\t{}\n    Path:\t{}\n    ReadOnly:\t{}\n",
            gs(nfs, &["server"]),
            gs(nfs, &["path"]),
            gb(nfs, &["readOnly"])
        ),
    );
}

fn describe_volumes(w: &mut PrefixWriter, volumes: &[Value], space: &str) {
    if volumes.is_empty() {
        w.write(0, &format!("{}Volumes:\t<none>\n", space));
        return;
    }
    w.write(0, &format!("{}Volumes:\n", space));
    let name_indent = if space.is_empty() { "" } else { " " };
    for v in volumes {
        w.write(1, &format!("{}{}:\n", name_indent, gs(v, &["name"])));
        let src = |k: &str| get(v, &[k]).filter(|x| x.is_object());
        if let Some(hp) = src("hostPath") {
            print_host_path_volume_source(w, hp);
        } else if let Some(ed) = src("emptyDir") {
            let size_limit = get(ed, &["sizeLimit"]).and_then(qty_from_value).filter(|q| q.nanos() > 0).map(|q| q.canonical()).unwrap_or_else(|| "<unset>".into());
            w.write(
                2,
                &format!(
                    "Type:\tEmptyDir (a temporary directory that shares a pod's lifetime)\n    Medium:\t{}\n    SizeLimit:\t{}\n",
                    gs(ed, &["medium"]),
                    size_limit
                ),
            );
        } else if let Some(s) = src("secret") {
            w.write(
                2,
                &format!("Type:\tSecret (a volume populated by a Secret)\n    SecretName:\t{}\n    Optional:\t{}\n", gs(s, &["secretName"]), gb(s, &["optional"])),
            );
        } else if let Some(cm) = src("configMap") {
            w.write(
                2,
                &format!("Type:\tConfigMap (a volume populated by a ConfigMap)\n    Name:\t{}\n    Optional:\t{}\n", gs(cm, &["name"]), gb(cm, &["optional"])),
            );
        } else if let Some(pvc) = src("persistentVolumeClaim") {
            w.write(
                2,
                &format!(
                    "Type:\tPersistentVolumeClaim (a reference to a PersistentVolumeClaim in the same namespace)\n    ClaimName:\t{}\n    ReadOnly:\t{}\n",
                    gs(pvc, &["claimName"]),
                    gb(pvc, &["readOnly"])
                ),
            );
        } else if let Some(d) = src("downwardAPI") {
            w.write(2, "Type:\tDownwardAPI (a volume populated by information about the pod)\n    Items:\n");
            for item in ga(d, &["items"]) {
                if let Some(fr) = get(item, &["fieldRef"]).filter(|x| x.is_object()) {
                    w.write(3, &format!("{} -> {}\n", gs(fr, &["fieldPath"]), gs(item, &["path"])));
                }
                if let Some(rf) = get(item, &["resourceFieldRef"]).filter(|x| x.is_object()) {
                    w.write(3, &format!("{} -> {}\n", gs(rf, &["resource"]), gs(item, &["path"])));
                }
            }
        } else if let Some(p) = src("projected") {
            w.write(2, "Type:\tProjected (a volume that contains injected data from multiple sources)\n");
            for s in ga(p, &["sources"]) {
                if let Some(sec) = get(s, &["secret"]).filter(|x| x.is_object()) {
                    w.write(2, &format!("SecretName:\t{}\n    Optional:\t{}\n", gs(sec, &["name"]), gb(sec, &["optional"])));
                } else if get(s, &["downwardAPI"]).map(|x| x.is_object()).unwrap_or(false) {
                    w.write(2, "DownwardAPI:\ttrue\n");
                } else if let Some(cm) = get(s, &["configMap"]).filter(|x| x.is_object()) {
                    w.write(2, &format!("ConfigMapName:\t{}\n    Optional:\t{}\n", gs(cm, &["name"]), gb(cm, &["optional"])));
                } else if let Some(t) = get(s, &["serviceAccountToken"]).filter(|x| x.is_object()) {
                    // expirationSeconds defaults to 3600 (SetDefaults_ServiceAccountTokenProjection)
                    w.write(2, &format!("TokenExpirationSeconds:\t{}\n", gi(t, &["expirationSeconds"]).unwrap_or(3600)));
                }
            }
        } else if let Some(nfs) = src("nfs") {
            print_nfs_volume_source(w, nfs);
        } else if let Some(img) = src("image") {
            w.write(
                2,
                &format!(
                    "Type:\tImage (a container image or OCI artifact)\n    Reference:\t{}\n    PullPolicy:\t{}\n",
                    gs(img, &["reference"]),
                    gs(img, &["pullPolicy"])
                ),
            );
        } else {
            w.write(1, "<unknown>\n");
        }
    }
}

/// `describeTopologySpreadConstraints`.
fn describe_topology_spread_constraints(w: &mut PrefixWriter, tscs: &[Value], space: &str) {
    if tscs.is_empty() {
        return;
    }
    let mut sorted: Vec<&Value> = tscs.iter().collect();
    sorted.csort_by(|a, b| gs(a, &["topologyKey"]).cmp(gs(b, &["topologyKey"])));
    w.write(0, &format!("{}Topology Spread Constraints:\t", space));
    for (i, t) in sorted.into_iter().enumerate() {
        if i != 0 {
            w.write(0, space);
            w.write(0, "\t");
        }
        let mut s = format!("{}:{} when max skew {} is exceeded", gs(t, &["topologyKey"]), gs(t, &["whenUnsatisfiable"]), gi(t, &["maxSkew"]).unwrap_or(0));
        if let Some(sel) = get(t, &["labelSelector"]).filter(|x| x.is_object()) {
            s.push_str(&format!(" for selector {}", format_label_selector(Some(sel))));
        }
        s.push('\n');
        w.write(0, &s);
    }
}

/// `DescribePodTemplate`.
/// `printTemplate` (`polymorphichelpers/history.go`): `DescribePodTemplate` through a bare
/// prefix writer, no tabwriter, so the tabs stay in the text (as `rollout history --revision` prints).
pub fn pod_template_text(template: &Value) -> String {
    let mut w = PrefixWriter::new();
    describe_pod_template(&mut w, Some(template));
    w.buf
}

fn describe_pod_template(w: &mut PrefixWriter, template: Option<&Value>) {
    w.write(0, "Pod Template:\n");
    let Some(t) = template.filter(|t| t.is_object()) else {
        w.write(1, "<unset>");
        return;
    };
    print_labels_multiline(w, "  Labels", &gmap(t, &["metadata", "labels"]));
    let annotations = gmap(t, &["metadata", "annotations"]);
    if !annotations.is_empty() {
        print_annotations_multiline(w, "  Annotations", &annotations);
    }
    let sa = gs(t, &["spec", "serviceAccountName"]);
    if !sa.is_empty() {
        w.write(1, &format!("Service Account:\t{}\n", sa));
    }
    let init = ga(t, &["spec", "initContainers"]);
    if !init.is_empty() {
        describe_containers(w, "Init Containers", init, &[], None, "  ");
    }
    describe_containers(w, "Containers", ga(t, &["spec", "containers"]), &[], None, "  ");
    describe_volumes(w, ga(t, &["spec", "volumes"]), "  ");
    describe_topology_spread_constraints(w, ga(t, &["spec", "topologySpreadConstraints"]), "  ");
    let pc = gs(t, &["spec", "priorityClassName"]);
    if !pc.is_empty() {
        w.write(1, &format!("Priority Class Name:\t{}\n", pc));
    }
    print_labels_multiline(w, "  Node-Selectors", &gmap(t, &["spec", "nodeSelector"]));
    print_tolerations_multiline(w, "  Tolerations", ga(t, &["spec", "tolerations"]));
}

// ---------------------------------------------------------------------------------------------
// Resource lists (requests/limits sums)
// ---------------------------------------------------------------------------------------------

type ResourceList = BTreeMap<String, Qty>;

fn resource_list(v: Option<&Value>) -> ResourceList {
    let mut out = ResourceList::new();
    if let Some(m) = v.and_then(|v| v.as_object()) {
        for (k, q) in m {
            if let Some(q) = qty_from_value(q) {
                out.insert(k.clone(), q);
            }
        }
    }
    out
}

/// `addResourceList`: sum per resource.
fn add_resource_list(list: &mut ResourceList, new: &ResourceList) {
    for (k, q) in new {
        match list.get_mut(k) {
            Some(v) => *v = v.add(q),
            None => {
                list.insert(k.clone(), *q);
            }
        }
    }
}

/// `maxResourceList`: per-resource maximum.
fn max_resource_list(list: &mut ResourceList, new: &ResourceList) {
    for (k, q) in new {
        match list.get_mut(k) {
            Some(v) => {
                if q.nanos() > v.nanos() {
                    *v = *q;
                }
            }
            None => {
                list.insert(k.clone(), *q);
            }
        }
    }
}

/// kubectl `resourcehelper.PodRequestsAndLimits`: containers summed, sidecars (restartable init
/// containers) added, other init containers taken as a per-resource maximum, plus overhead.
fn pod_requests_and_limits(pod: &Value) -> (ResourceList, ResourceList) {
    let mut out = Vec::new();
    for field in ["requests", "limits"] {
        let mut reqs = ResourceList::new();
        for c in ga(pod, &["spec", "containers"]) {
            add_resource_list(&mut reqs, &resource_list(get(c, &["resources", field])));
        }
        let mut restartable = ResourceList::new();
        let mut init_reqs = ResourceList::new();
        for c in ga(pod, &["spec", "initContainers"]) {
            let creqs = resource_list(get(c, &["resources", field]));
            let effective = if gs(c, &["restartPolicy"]) == "Always" {
                add_resource_list(&mut reqs, &creqs);
                add_resource_list(&mut restartable, &creqs);
                restartable.clone()
            } else {
                let mut tmp = ResourceList::new();
                add_resource_list(&mut tmp, &creqs);
                add_resource_list(&mut tmp, &restartable);
                tmp
            };
            max_resource_list(&mut init_reqs, &effective);
        }
        max_resource_list(&mut reqs, &init_reqs);
        let overhead = resource_list(get(pod, &["spec", "overhead"]));
        if field == "requests" {
            add_resource_list(&mut reqs, &overhead);
        } else {
            // overhead counts toward a limit only where a limit is set
            for (k, q) in &overhead {
                if let Some(v) = reqs.get_mut(k) {
                    *v = v.add(q);
                }
            }
        }
        out.push(reqs);
    }
    let limits = out.pop().unwrap_or_default();
    let reqs = out.pop().unwrap_or_default();
    (reqs, limits)
}

fn qty_of(list: &ResourceList, name: &str) -> Qty {
    list.get(name).copied().unwrap_or(Qty::zero(QFormat::DecimalSI))
}

/// float64(a)/float64(b)*100 truncated to int64, as describe computes percentages.
fn percent(a: i64, b: i64) -> i64 {
    if b == 0 {
        return 0;
    }
    (a as f64 / b as f64 * 100.0) as i64
}

/// `qos.GetPodQOS`: status.qosClass if set, else computed from cpu/memory requests and limits.
fn pod_qos(pod: &Value) -> String {
    let status = gs(pod, &["status", "qosClass"]);
    if !status.is_empty() {
        return status.to_string();
    }
    let supported = |n: &str| n == "cpu" || n == "memory";
    let mut requests = ResourceList::new();
    let mut limits = ResourceList::new();
    let mut is_guaranteed = true;
    let pod_level = get(pod, &["spec", "resources"]).filter(|r| r.is_object());
    let resource_sets: Vec<&Value> = match pod_level {
        Some(r) => vec![r],
        None => ga(pod, &["spec", "containers"])
            .iter()
            .chain(ga(pod, &["spec", "initContainers"]).iter())
            .map(|c| get(c, &["resources"]).unwrap_or(&Value::Null))
            .collect(),
    };
    for r in resource_sets {
        for (name, q) in resource_list(get(r, &["requests"])) {
            if supported(&name) && q.nanos() > 0 {
                add_resource_list(&mut requests, &BTreeMap::from([(name, q)]));
            }
        }
        let mut found = Vec::new();
        for (name, q) in resource_list(get(r, &["limits"])) {
            if supported(&name) && q.nanos() > 0 {
                found.push(name.clone());
                add_resource_list(&mut limits, &BTreeMap::from([(name, q)]));
            }
        }
        if !(found.iter().any(|n| n == "cpu") && found.iter().any(|n| n == "memory")) {
            is_guaranteed = false;
        }
    }
    if requests.is_empty() && limits.is_empty() {
        return "BestEffort".into();
    }
    if is_guaranteed {
        for (name, req) in &requests {
            match limits.get(name) {
                Some(l) if l.nanos() == req.nanos() => {}
                _ => {
                    is_guaranteed = false;
                    break;
                }
            }
        }
    }
    if is_guaranteed && requests.len() == limits.len() {
        "Guaranteed".into()
    } else {
        "Burstable".into()
    }
}

// ---------------------------------------------------------------------------------------------
// Describers
// ---------------------------------------------------------------------------------------------

/// `kubectl describe pod`. `events` are the events whose involvedObject is this pod.
pub fn describe_pod(pod: &Value, events: &[Value], now_ms: i64) -> String {
    let mut w = PrefixWriter::new();
    w.write(0, &format!("Name:\t{}\n", gs(pod, &["metadata", "name"])));
    w.write(0, &format!("Namespace:\t{}\n", gs(pod, &["metadata", "namespace"])));
    if let Some(p) = gi(pod, &["spec", "priority"]) {
        w.write(0, &format!("Priority:\t{}\n", p));
    }
    let pcn = gs(pod, &["spec", "priorityClassName"]);
    if !pcn.is_empty() {
        w.write(0, &format!("Priority Class Name:\t{}\n", pcn));
    }
    let rcn = gs(pod, &["spec", "runtimeClassName"]);
    if !rcn.is_empty() {
        w.write(0, &format!("Runtime Class Name:\t{}\n", rcn));
    }
    let sa = gs(pod, &["spec", "serviceAccountName"]);
    if !sa.is_empty() {
        w.write(0, &format!("Service Account:\t{}\n", sa));
    }
    let node = gs(pod, &["spec", "nodeName"]);
    if node.is_empty() {
        w.write(0, "Node:\t<none>\n");
    } else {
        w.write(0, &format!("Node:\t{}/{}\n", node, gs(pod, &["status", "hostIP"])));
    }
    if parse_rfc3339_unix(gs(pod, &["status", "startTime"])).is_some() {
        w.write(0, &format!("Start Time:\t{}\n", rfc1123z_field(pod, &["status", "startTime"])));
    }
    print_labels_multiline(&mut w, "Labels", &gmap(pod, &["metadata", "labels"]));
    print_annotations_multiline(&mut w, "Annotations", &gmap(pod, &["metadata", "annotations"]));
    let phase = gs(pod, &["status", "phase"]);
    let deletion = gs(pod, &["metadata", "deletionTimestamp"]);
    if !deletion.is_empty() && phase != "Failed" && phase != "Succeeded" {
        // deletionTimestamp is in the future during the grace period: "(lasts <invalid>)"
        w.write(0, &format!("Status:\tTerminating (lasts {})\n", translate_timestamp_since(deletion, now_ms)));
        w.write(0, &format!("Termination Grace Period:\t{}s\n", gi(pod, &["metadata", "deletionGracePeriodSeconds"]).unwrap_or(0)));
    } else {
        w.write(0, &format!("Status:\t{}\n", phase));
    }
    let reason = gs(pod, &["status", "reason"]);
    if !reason.is_empty() {
        w.write(0, &format!("Reason:\t{}\n", reason));
    }
    let message = gs(pod, &["status", "message"]);
    if !message.is_empty() {
        w.write(0, &format!("Message:\t{}\n", message));
    }
    if let Some(sp) = get(pod, &["spec", "securityContext", "seccompProfile"]).filter(|v| v.is_object()) {
        w.write(0, &format!("SeccompProfile:\t{}\n", gs(sp, &["type"])));
        if gs(sp, &["type"]) == "Localhost" {
            w.write(0, &format!("LocalhostProfile:\t{}\n", gs(sp, &["localhostProfile"])));
        }
    }
    w.write(0, &format!("IP:\t{}\n", gs(pod, &["status", "podIP"])));
    let ips = ga(pod, &["status", "podIPs"]);
    if ips.is_empty() {
        w.write(0, "IPs:\t<none>\n");
    } else {
        w.write(0, "IPs:\n");
        for ip in ips {
            w.write(1, &format!("IP:\t{}\n", gs(ip, &["ip"])));
        }
    }
    let controlled_by = print_controller(pod);
    if !controlled_by.is_empty() {
        w.write(0, &format!("Controlled By:\t{}\n", controlled_by));
    }
    let nominated = gs(pod, &["status", "nominatedNodeName"]);
    if !nominated.is_empty() {
        w.write(0, &format!("NominatedNodeName:\t{}\n", nominated));
    }
    if let Some(r) = get(pod, &["spec", "resources"]).filter(|r| r.is_object()) {
        w.write(0, "Resources:\n");
        describe_resources(&mut w, Some(r), 1);
    }
    let init = ga(pod, &["spec", "initContainers"]);
    if !init.is_empty() {
        describe_containers(&mut w, "Init Containers", init, ga(pod, &["status", "initContainerStatuses"]), Some(pod), "");
    }
    describe_containers(&mut w, "Containers", ga(pod, &["spec", "containers"]), ga(pod, &["status", "containerStatuses"]), Some(pod), "");
    let ephemeral = ga(pod, &["spec", "ephemeralContainers"]);
    if !ephemeral.is_empty() {
        describe_containers(&mut w, "Ephemeral Containers", ephemeral, ga(pod, &["status", "ephemeralContainerStatuses"]), Some(pod), "");
    }
    let conditions = ga(pod, &["status", "conditions"]);
    let gates = ga(pod, &["spec", "readinessGates"]);
    if !gates.is_empty() {
        w.write(0, "Readiness Gates:\n  Type\tStatus\n");
        for g in gates {
            let ct = gs(g, &["conditionType"]);
            let status = conditions.iter().find(|c| gs(c, &["type"]) == ct).map(|c| gs(c, &["status"]).to_string()).unwrap_or_else(|| "<none>".into());
            w.write(1, &format!("{} \t{} \n", ct, status));
        }
    }
    if !conditions.is_empty() {
        w.write(0, "Conditions:\n  Type\tStatus\n");
        for c in conditions {
            w.write(1, &format!("{} \t{} \n", gs(c, &["type"]), gs(c, &["status"])));
        }
    }
    describe_volumes(&mut w, ga(pod, &["spec", "volumes"]), "");
    w.write(0, &format!("QoS Class:\t{}\n", pod_qos(pod)));
    print_labels_multiline(&mut w, "Node-Selectors", &gmap(pod, &["spec", "nodeSelector"]));
    print_tolerations_multiline(&mut w, "Tolerations", ga(pod, &["spec", "tolerations"]));
    describe_topology_spread_constraints(&mut w, ga(pod, &["spec", "topologySpreadConstraints"]), "");
    describe_events(&mut w, events, now_ms);
    w.finish()
}

/// Pod template equality ignoring the `pod-template-hash` label (`EqualIgnoreHash`); an empty
/// label map counts as absent, like apimachinery's semantic DeepEqual.
/// `equalIgnoreHash` (kubectl's `pkg/util/deployment` and `polymorphichelpers/rollback.go`):
/// two pod templates equal once the `pod-template-hash` label is removed.
pub(crate) fn equal_ignore_hash(a: Option<&Value>, b: Option<&Value>) -> bool {
    let strip = |t: Option<&Value>| -> Value {
        let mut t = t.cloned().unwrap_or(Value::Null);
        if let Some(meta) = t.get_mut("metadata").and_then(|m| m.as_object_mut()) {
            let empty = match meta.get_mut("labels").and_then(|l| l.as_object_mut()) {
                Some(labels) => {
                    labels.remove("pod-template-hash");
                    labels.is_empty()
                }
                None => false,
            };
            if empty {
                meta.remove("labels");
            }
        }
        t
    };
    strip(a) == strip(b)
}

/// `printReplicaSetsByLabels`: `name (current/desired replicas created)`, or `<none>`.
fn print_replica_sets_by_labels(rss: &[&Value]) -> String {
    let list: Vec<String> = rss
        .iter()
        .map(|rs| {
            format!(
                "{} ({}/{} replicas created)",
                gs(rs, &["metadata", "name"]),
                gi(rs, &["status", "replicas"]).unwrap_or(0),
                gi(rs, &["spec", "replicas"]).unwrap_or(1)
            )
        })
        .collect();
    if list.is_empty() {
        "<none>".into()
    } else {
        list.join(", ")
    }
}

/// `kubectl describe deployment`. `rss` are the ReplicaSets it controls; the new one is the
/// oldest whose template matches the Deployment's (FindNewReplicaSet), the rest are old.
pub fn describe_deployment(d: &Value, rss: &[Value], events: &[Value], now_ms: i64) -> String {
    let mut w = PrefixWriter::new();
    w.write(0, &format!("Name:\t{}\n", gs(d, &["metadata", "name"])));
    w.write(0, &format!("Namespace:\t{}\n", gs(d, &["metadata", "namespace"])));
    w.write(0, &format!("CreationTimestamp:\t{}\n", rfc1123z_field(d, &["metadata", "creationTimestamp"])));
    print_labels_multiline(&mut w, "Labels", &gmap(d, &["metadata", "labels"]));
    print_annotations_multiline(&mut w, "Annotations", &gmap(d, &["metadata", "annotations"]));
    w.write(0, &format!("Selector:\t{}\n", selector_string(get(d, &["spec", "selector"]))));
    w.write(
        0,
        &format!(
            "Replicas:\t{} desired | {} updated | {} total | {} available | {} unavailable\n",
            gi(d, &["spec", "replicas"]).unwrap_or(1),
            gi(d, &["status", "updatedReplicas"]).unwrap_or(0),
            gi(d, &["status", "replicas"]).unwrap_or(0),
            gi(d, &["status", "availableReplicas"]).unwrap_or(0),
            gi(d, &["status", "unavailableReplicas"]).unwrap_or(0)
        ),
    );
    w.write(0, &format!("StrategyType:\t{}\n", gs(d, &["spec", "strategy", "type"])));
    w.write(0, &format!("MinReadySeconds:\t{}\n", gi(d, &["spec", "minReadySeconds"]).unwrap_or(0)));
    if let Some(ru) = get(d, &["spec", "strategy", "rollingUpdate"]).filter(|r| r.is_object()) {
        w.write(
            0,
            &format!("RollingUpdateStrategy:\t{} max unavailable, {} max surge\n", int_or_string(get(ru, &["maxUnavailable"])), int_or_string(get(ru, &["maxSurge"]))),
        );
    }
    describe_pod_template(&mut w, get(d, &["spec", "template"]));
    let conditions = ga(d, &["status", "conditions"]);
    if !conditions.is_empty() {
        w.write(0, "Conditions:\n  Type\tStatus\tReason\n");
        w.write(1, "----\t------\t------\n");
        for c in conditions {
            w.write(1, &format!("{} \t{}\t{}\n", gs(c, &["type"]), gs(c, &["status"]), gs(c, &["reason"])));
        }
    }
    // FindNewReplicaSet sorts the list in place by (creationTimestamp, name); the old ones
    // keep that order.
    let mut sorted: Vec<&Value> = rss.iter().collect();
    sorted.csort_by(|a, b| {
        let ta = parse_rfc3339_unix(gs(a, &["metadata", "creationTimestamp"])).unwrap_or(i64::MIN);
        let tb = parse_rfc3339_unix(gs(b, &["metadata", "creationTimestamp"])).unwrap_or(i64::MIN);
        ta.cmp(&tb).then_with(|| gs(a, &["metadata", "name"]).cmp(gs(b, &["metadata", "name"])))
    });
    let new_idx = sorted.iter().position(|rs| equal_ignore_hash(get(rs, &["spec", "template"]), get(d, &["spec", "template"])));
    let new_rss: Vec<&Value> = new_idx.map(|i| vec![sorted[i]]).unwrap_or_default();
    let old_rss: Vec<&Value> = sorted.iter().enumerate().filter(|(i, _)| Some(*i) != new_idx).map(|(_, r)| *r).collect();
    if !old_rss.is_empty() || !new_rss.is_empty() {
        w.write(0, &format!("OldReplicaSets:\t{}\n", print_replica_sets_by_labels(&old_rss)));
        w.write(0, &format!("NewReplicaSet:\t{}\n", print_replica_sets_by_labels(&new_rss)));
    }
    describe_events(&mut w, events, now_ms);
    w.finish()
}

/// `kubectl describe replicaset`. `pods` are counted by phase when this RS controls them.
pub fn describe_replica_set(rs: &Value, pods: &[Value], events: &[Value], now_ms: i64) -> String {
    let (running, waiting, succeeded, failed) = pod_phases(gs(rs, &["metadata", "uid"]), pods);
    let mut w = PrefixWriter::new();
    describe_owner_header(&mut w, rs);
    w.write(0, &format!("Replicas:\t{} current / {} desired\n", gi(rs, &["status", "replicas"]).unwrap_or(0), gi(rs, &["spec", "replicas"]).unwrap_or(1)));
    w.write(0, "Pods Status:\t");
    w.write(0, &format!("{} Running / {} Waiting / {} Succeeded / {} Failed\n", running, waiting, succeeded, failed));
    describe_pod_template(&mut w, get(rs, &["spec", "template"]));
    let conditions = ga(rs, &["status", "conditions"]);
    if !conditions.is_empty() {
        w.write(0, "Conditions:\n  Type\tStatus\tReason\n");
        w.write(1, "----\t------\t------\n");
        for c in conditions {
            w.write(1, &format!("{} \t{}\t{}\n", gs(c, &["type"]), gs(c, &["status"]), gs(c, &["reason"])));
        }
    }
    describe_events(&mut w, events, now_ms);
    w.finish()
}

/// Name, Namespace, Selector, Labels, Annotations and Controlled By: how the ReplicaSet and Job
/// describers begin.
fn describe_owner_header(w: &mut PrefixWriter, obj: &Value) {
    w.write(0, &format!("Name:\t{}\n", gs(obj, &["metadata", "name"])));
    w.write(0, &format!("Namespace:\t{}\n", gs(obj, &["metadata", "namespace"])));
    w.write(0, &format!("Selector:\t{}\n", format_label_selector(get(obj, &["spec", "selector"]))));
    print_labels_multiline(w, "Labels", &gmap(obj, &["metadata", "labels"]));
    print_annotations_multiline(w, "Annotations", &gmap(obj, &["metadata", "annotations"]));
    let controlled_by = print_controller(obj);
    if !controlled_by.is_empty() {
        w.write(0, &format!("Controlled By:\t{}\n", controlled_by));
    }
}

/// Counts of a controller's Pods by phase (`getPodStatusForController`: only the Pods it controls,
/// not orphans or other controllers' Pods).
fn pod_phases(owner_uid: &str, pods: &[Value]) -> (usize, usize, usize, usize) {
    let (mut running, mut waiting, mut succeeded, mut failed) = (0, 0, 0, 0);
    for p in pods.iter().filter(|p| controller_uid(p) == Some(owner_uid)) {
        match gs(p, &["status", "phase"]) {
            "Running" => running += 1,
            "Pending" => waiting += 1,
            "Succeeded" => succeeded += 1,
            "Failed" => failed += 1,
            _ => {}
        }
    }
    (running, waiting, succeeded, failed)
}

/// `DaemonSetDescriber`.
pub fn describe_daemon_set(ds: &Value, pods: &[Value], events: &[Value], now_ms: i64) -> String {
    let (running, waiting, succeeded, failed) = pod_phases(gs(ds, &["metadata", "uid"]), pods);
    let mut w = PrefixWriter::new();
    w.write(0, &format!("Name:\t{}\n", gs(ds, &["metadata", "name"])));
    w.write(0, &format!("Namespace:\t{}\n", gs(ds, &["metadata", "namespace"])));
    w.write(0, &format!("Selector:\t{}\n", format_label_selector(get(ds, &["spec", "selector"]))));
    let ns = gmap(ds, &["spec", "template", "spec", "nodeSelector"]);
    let node_selector = if ns.is_empty() { "<none>".to_string() } else { ns.iter().map(|(k, v)| format!("{}={}", k, v)).collect::<Vec<_>>().join(",") };
    w.write(0, &format!("Node-Selector:\t{}\n", node_selector));
    print_labels_multiline(&mut w, "Labels", &gmap(ds, &["metadata", "labels"]));
    print_annotations_multiline(&mut w, "Annotations", &gmap(ds, &["metadata", "annotations"]));
    let n = |k: &str| gi(ds, &["status", k]).unwrap_or(0);
    w.write(0, &format!("Desired Number of Nodes Scheduled: {}\n", n("desiredNumberScheduled")));
    w.write(0, &format!("Current Number of Nodes Scheduled: {}\n", n("currentNumberScheduled")));
    w.write(0, &format!("Number of Nodes Scheduled with Up-to-date Pods: {}\n", n("updatedNumberScheduled")));
    w.write(0, &format!("Number of Nodes Scheduled with Available Pods: {}\n", n("numberAvailable")));
    w.write(0, &format!("Number of Nodes Misscheduled: {}\n", n("numberMisscheduled")));
    w.write(0, &format!("Pods Status:\t{} Running / {} Waiting / {} Succeeded / {} Failed\n", running, waiting, succeeded, failed));
    describe_pod_template(&mut w, get(ds, &["spec", "template"]));
    describe_events(&mut w, events, now_ms);
    w.finish()
}

/// `JobDescriber`.
pub fn describe_job(job: &Value, events: &[Value], now_ms: i64) -> String {
    let mut w = PrefixWriter::new();
    describe_owner_header(&mut w, job);
    if let Some(p) = gi(job, &["spec", "parallelism"]) {
        w.write(0, &format!("Parallelism:\t{}\n", p));
    }
    match gi(job, &["spec", "completions"]) {
        Some(c) => w.write(0, &format!("Completions:\t{}\n", c)),
        None => w.write(0, "Completions:\t<unset>\n"),
    }
    let mode = gs(job, &["spec", "completionMode"]);
    if !mode.is_empty() {
        w.write(0, &format!("Completion Mode:\t{}\n", mode));
    }
    if let Some(s) = get(job, &["spec", "suspend"]).and_then(Value::as_bool) {
        w.write(0, &format!("Suspend:\t{}\n", s));
    }
    if let Some(b) = gi(job, &["spec", "backoffLimit"]) {
        w.write(0, &format!("Backoff Limit:\t{}\n", b));
    }
    if let Some(t) = gi(job, &["spec", "ttlSecondsAfterFinished"]) {
        w.write(0, &format!("TTL Seconds After Finished:\t{}\n", t));
    }
    let start = parse_rfc3339_unix(gs(job, &["status", "startTime"]));
    let done = parse_rfc3339_unix(gs(job, &["status", "completionTime"]));
    if start.is_some() {
        w.write(0, &format!("Start Time:\t{}\n", rfc1123z_field(job, &["status", "startTime"])));
    }
    if done.is_some() {
        w.write(0, &format!("Completed At:\t{}\n", rfc1123z_field(job, &["status", "completionTime"])));
    }
    if let (Some(s), Some(d)) = (start, done) {
        w.write(0, &format!("Duration:\t{}\n", super::printers::human_duration(d - s)));
    }
    if let Some(a) = gi(job, &["spec", "activeDeadlineSeconds"]) {
        w.write(0, &format!("Active Deadline Seconds:\t{}s\n", a));
    }
    let n = |k: &str| gi(job, &["status", k]).unwrap_or(0);
    match gi(job, &["status", "ready"]) {
        Some(r) => w.write(0, &format!("Pods Statuses:\t{} Active ({} Ready) / {} Succeeded / {} Failed\n", n("active"), r, n("succeeded"), n("failed"))),
        None => w.write(0, &format!("Pods Statuses:\t{} Active / {} Succeeded / {} Failed\n", n("active"), n("succeeded"), n("failed"))),
    }
    if mode == "Indexed" {
        w.write(0, &format!("Completed Indexes:\t{}\n", cap_indexes_list_or_none(gs(job, &["status", "completedIndexes"]), 50)));
    }
    describe_pod_template(&mut w, get(job, &["spec", "template"]));
    describe_events(&mut w, events, now_ms);
    w.finish()
}

/// `capIndexesListOrNone`: `<none>` when empty; past `soft_limit` characters, cut after the next
/// comma and end with `...`.
fn cap_indexes_list_or_none(indexes: &str, soft_limit: usize) -> String {
    if indexes.is_empty() {
        return "<none>".into();
    }
    match indexes.bytes().enumerate().skip(soft_limit).find(|(_, b)| *b == b',') {
        Some((ix, _)) => format!("{}...", &indexes[..=ix]),
        None => indexes.to_string(),
    }
}

/// Go's `%v` / `%s` of a string slice (`[a b]`, `[]` when empty or unset).
fn go_string_slice(values: &[Value]) -> String {
    format!("[{}]", values.iter().map(scalar_text).collect::<Vec<_>>().join(" "))
}

/// `labels.FormatLabels`: `k=v` sorted by key and joined with commas, `<none>` when empty.
fn format_labels(map: &[(String, String)]) -> String {
    if map.is_empty() {
        return "<none>".into();
    }
    map.iter().map(|(k, v)| format!("{}={}", k, v)).collect::<Vec<_>>().join(",")
}

/// `Quantity.String()` of the `storage` entry of a resource list; a missing entry is the zero
/// Quantity, "0".
fn storage_quantity(list: Option<&Value>) -> String {
    match list.and_then(|l| l.get("storage")) {
        Some(q) => quantity_text(q),
        None => "0".into(),
    }
}

/// `describeVolumeClaimTemplates`.
fn describe_volume_claim_templates(w: &mut PrefixWriter, templates: &[Value]) {
    if templates.is_empty() {
        w.write(0, "Volume Claims:\t<none>\n");
        return;
    }
    w.write(0, "Volume Claims:\n");
    for pvc in templates {
        w.write(1, &format!("Name:\t{}\n", gs(pvc, &["metadata", "name"])));
        w.write(1, &format!("StorageClass:\t{}\n", crate::api::meta::storage_class_of(pvc)));
        print_labels_multiline_indent(w, "  ", "Labels", &gmap(pvc, &["metadata", "labels"]));
        print_labels_multiline_indent(w, "  ", "Annotations", &gmap(pvc, &["metadata", "annotations"]));
        match get(pvc, &["spec", "resources", "requests", "storage"]) {
            Some(q) => w.write(1, &format!("Capacity:\t{}\n", quantity_text(q))),
            None => w.write(1, "Capacity:\t<default>\n"),
        }
        w.write(1, &format!("Access Modes:\t{}\n", go_string_slice(ga(pvc, &["spec", "accessModes"]))));
    }
}

/// `StatefulSetDescriber` / `describeStatefulSet`. `pods` are the namespace's Pods; only those
/// matching the selector and controlled by this set are counted (`getPodStatusForController`).
pub fn describe_stateful_set(ss: &Value, pods: &[Value], events: &[Value], now_ms: i64) -> String {
    let selector = get(ss, &["spec", "selector"]);
    let selected: Vec<Value> = pods
        .iter()
        .filter(|p| {
            let labels = p.pointer("/metadata/labels").and_then(Value::as_object).cloned().unwrap_or_default();
            crate::api::meta::selector_matches(selector, &labels)
        })
        .cloned()
        .collect();
    let (running, waiting, succeeded, failed) = pod_phases(gs(ss, &["metadata", "uid"]), &selected);
    let mut w = PrefixWriter::new();
    w.write(0, &format!("Name:\t{}\n", gs(ss, &["metadata", "name"])));
    w.write(0, &format!("Namespace:\t{}\n", gs(ss, &["metadata", "namespace"])));
    w.write(0, &format!("CreationTimestamp:\t{}\n", rfc1123z_field(ss, &["metadata", "creationTimestamp"])));
    w.write(0, &format!("Selector:\t{}\n", selector_string(selector)));
    print_labels_multiline(&mut w, "Labels", &gmap(ss, &["metadata", "labels"]));
    print_annotations_multiline(&mut w, "Annotations", &gmap(ss, &["metadata", "annotations"]));
    w.write(
        0,
        &format!("Replicas:\t{} desired | {} total\n", gi(ss, &["spec", "replicas"]).unwrap_or(1), gi(ss, &["status", "replicas"]).unwrap_or(0)),
    );
    w.write(0, &format!("Update Strategy:\t{}\n", gs(ss, &["spec", "updateStrategy", "type"])));
    if let Some(ru) = get(ss, &["spec", "updateStrategy", "rollingUpdate"]).filter(|r| r.is_object()) {
        if let Some(p) = gi(ru, &["partition"]) {
            w.write(1, &format!("Partition:\t{}\n", p));
            if let Some(mu) = get(ru, &["maxUnavailable"]).filter(|m| !m.is_null()) {
                w.write(1, &format!("MaxUnavailable:\t{}\n", int_or_string(Some(mu))));
            }
        }
    }
    w.write(0, &format!("Pods Status:\t{} Running / {} Waiting / {} Succeeded / {} Failed\n", running, waiting, succeeded, failed));
    describe_pod_template(&mut w, get(ss, &["spec", "template"]));
    describe_volume_claim_templates(&mut w, ga(ss, &["spec", "volumeClaimTemplates"]));
    describe_events(&mut w, events, now_ms);
    w.finish()
}

/// `Status:` of a PVC or PV: `Terminating (lasts …)` once deletion started, else the phase.
fn storage_status_line(obj: &Value, now_ms: i64) -> String {
    if crate::api::meta::is_deleting(obj) {
        format!("Status:\tTerminating (lasts {})\n", translate_timestamp_since(gs(obj, &["metadata", "deletionTimestamp"]), now_ms))
    } else {
        format!("Status:\t{}\n", gs(obj, &["status", "phase"]))
    }
}

/// `getPodsForPVC`: the Pods with a volume naming the claim (once per such volume, as upstream),
/// then the Pods among the claim's `Pod` owners not listed yet.
fn pods_for_pvc<'a>(pvc: &Value, pods: &'a [Value]) -> Vec<&'a Value> {
    let name = gs(pvc, &["metadata", "name"]);
    let mut out: Vec<&Value> = Vec::new();
    for pod in pods {
        for v in ga(pod, &["spec", "volumes"]) {
            if get(v, &["persistentVolumeClaim"]).map(|c| c.is_object()).unwrap_or(false) && gs(v, &["persistentVolumeClaim", "claimName"]) == name {
                out.push(pod);
            }
        }
    }
    for owner in ga(pvc, &["metadata", "ownerReferences"]) {
        if gs(owner, &["kind"]) != "Pod" {
            continue;
        }
        let Some(pod) = pods.iter().find(|p| gs(p, &["metadata", "uid"]) == gs(owner, &["uid"])) else { continue };
        if !out.iter().any(|p| gs(p, &["metadata", "uid"]) == gs(pod, &["metadata", "uid"])) {
            out.push(pod);
        }
    }
    out
}

/// `printPodsMultilineWithIndent(w, "", title, "\t", pods)`: Pod names sorted, one per line.
fn print_pods_multiline(w: &mut PrefixWriter, title: &str, pods: &[&Value]) {
    w.write(0, &format!("{}:\t", title));
    if pods.is_empty() {
        w.write_line("<none>");
        return;
    }
    let mut names: Vec<&str> = pods.iter().map(|p| gs(p, &["metadata", "name"])).collect();
    names.csort();
    for (i, n) in names.into_iter().enumerate() {
        if i != 0 {
            w.write(0, "\t");
        }
        w.write(0, &format!("{}\n", n));
    }
}

/// `printPersistentVolumeClaim(w, pvc, isFullPVC)`: shared by the PVC describer (full) and,
/// upstream, by ephemeral volume templates (without Name, Namespace, Status, Finalizers).
fn print_persistent_volume_claim(w: &mut PrefixWriter, pvc: &Value, is_full: bool, now_ms: i64) {
    if is_full {
        w.write(0, &format!("Name:\t{}\n", gs(pvc, &["metadata", "name"])));
        w.write(0, &format!("Namespace:\t{}\n", gs(pvc, &["metadata", "namespace"])));
    }
    w.write(0, &format!("StorageClass:\t{}\n", crate::api::meta::storage_class_of(pvc)));
    if is_full {
        w.write(0, &storage_status_line(pvc, now_ms));
    }
    let volume_name = gs(pvc, &["spec", "volumeName"]);
    w.write(0, &format!("Volume:\t{}\n", volume_name));
    print_labels_multiline(w, "Labels", &gmap(pvc, &["metadata", "labels"]));
    print_annotations_multiline(w, "Annotations", &gmap(pvc, &["metadata", "annotations"]));
    if is_full {
        w.write(0, &format!("Finalizers:\t{}\n", go_string_slice(ga(pvc, &["metadata", "finalizers"]))));
    }
    let (capacity, access_modes) = if volume_name.is_empty() {
        (String::new(), String::new())
    } else {
        (storage_quantity(get(pvc, &["status", "capacity"])), access_modes_string(ga(pvc, &["status", "accessModes"])))
    };
    w.write(0, &format!("Capacity:\t{}\n", capacity));
    w.write(0, &format!("Access Modes:\t{}\n", access_modes));
    if let Some(m) = get(pvc, &["spec", "volumeMode"]).and_then(Value::as_str) {
        w.write(0, &format!("VolumeMode:\t{}\n", m));
    }
    if let Some(ds) = get(pvc, &["spec", "dataSource"]).filter(|d| d.is_object()) {
        w.write(0, "DataSource:\n");
        if let Some(g) = get(ds, &["apiGroup"]).and_then(Value::as_str) {
            w.write(1, &format!("APIGroup:\t{}\n", g));
        }
        w.write(1, &format!("Kind:\t{}\n", gs(ds, &["kind"])));
        w.write(1, &format!("Name:\t{}\n", gs(ds, &["name"])));
    }
}

/// `PersistentVolumeClaimDescriber` / `describePersistentVolumeClaim`. `pods` are the claim's
/// namespace's Pods; `Used By` lists those using it (`getPodsForPVC`).
pub fn describe_persistent_volume_claim(pvc: &Value, pods: &[Value], events: &[Value], now_ms: i64) -> String {
    let mut w = PrefixWriter::new();
    print_persistent_volume_claim(&mut w, pvc, true, now_ms);
    print_pods_multiline(&mut w, "Used By", &pods_for_pvc(pvc, pods));
    let conditions = ga(pvc, &["status", "conditions"]);
    if !conditions.is_empty() {
        w.write(0, "Conditions:\n");
        w.write(1, "Type\tStatus\tLastProbeTime\tLastTransitionTime\tReason\tMessage\n");
        w.write(1, "----\t------\t-----------------\t------------------\t------\t-------\n");
        for c in conditions {
            w.write(
                1,
                &format!(
                    "{} \t{} \t{} \t{} \t{} \t{}\n",
                    gs(c, &["type"]),
                    gs(c, &["status"]),
                    rfc1123z_field(c, &["lastProbeTime"]),
                    rfc1123z_field(c, &["lastTransitionTime"]),
                    gs(c, &["reason"]),
                    gs(c, &["message"])
                ),
            );
        }
    }
    describe_events(&mut w, events, now_ms);
    w.finish()
}

/// `printVolumeNodeAffinity` with `printNodeSelectorTermsMultilineWithIndent` for each term.
fn print_volume_node_affinity(w: &mut PrefixWriter, affinity: Option<&Value>) {
    w.write(0, "Node Affinity:\t");
    let Some(required) = affinity.and_then(|a| get(a, &["required"])).filter(|r| r.is_object()) else {
        w.write_line("<none>");
        return;
    };
    w.write_line("");
    w.write(1, "Required Terms:\t");
    let terms = ga(required, &["nodeSelectorTerms"]);
    if terms.is_empty() {
        w.write_line("<none>");
        return;
    }
    w.write_line("");
    for (i, term) in terms.iter().enumerate() {
        w.write(2, &format!("Term {}:\t", i));
        let reqs = ga(term, &["matchExpressions"]);
        if reqs.is_empty() {
            w.write_line("<none>");
            continue;
        }
        for (j, req) in reqs.iter().enumerate() {
            if j != 0 {
                w.write(2, "\t");
            }
            let mut expr = format!("{} {}", gs(req, &["key"]), gs(req, &["operator"]).to_lowercase());
            let values = ga(req, &["values"]);
            if !values.is_empty() {
                expr = format!("{} [{}]", expr, values.iter().map(scalar_text).collect::<Vec<_>>().join(", "));
            }
            w.write(0, &format!("{}\n", expr));
        }
    }
}


/// `PersistentVolumeDescriber` / `describePersistentVolume`. Sources printed: hostPath, nfs,
/// local, csi; any other source is `<unknown>`.
pub fn describe_persistent_volume(pv: &Value, events: &[Value], now_ms: i64) -> String {
    let mut w = PrefixWriter::new();
    w.write(0, &format!("Name:\t{}\n", gs(pv, &["metadata", "name"])));
    print_labels_multiline(&mut w, "Labels", &gmap(pv, &["metadata", "labels"]));
    print_annotations_multiline(&mut w, "Annotations", &gmap(pv, &["metadata", "annotations"]));
    w.write(0, &format!("Finalizers:\t{}\n", go_string_slice(ga(pv, &["metadata", "finalizers"]))));
    w.write(0, &format!("StorageClass:\t{}\n", crate::api::meta::storage_class_of(pv)));
    w.write(0, &storage_status_line(pv, now_ms));
    match get(pv, &["spec", "claimRef"]).filter(|c| c.is_object()) {
        Some(c) => w.write(0, &format!("Claim:\t{}/{}\n", gs(c, &["namespace"]), gs(c, &["name"]))),
        None => w.write(0, "Claim:\t\n"),
    }
    w.write(0, &format!("Reclaim Policy:\t{}\n", gs(pv, &["spec", "persistentVolumeReclaimPolicy"])));
    w.write(0, &format!("Access Modes:\t{}\n", access_modes_string(ga(pv, &["spec", "accessModes"]))));
    if let Some(m) = get(pv, &["spec", "volumeMode"]).and_then(Value::as_str) {
        w.write(0, &format!("VolumeMode:\t{}\n", m));
    }
    w.write(0, &format!("Capacity:\t{}\n", storage_quantity(get(pv, &["spec", "capacity"]))));
    print_volume_node_affinity(&mut w, get(pv, &["spec", "nodeAffinity"]));
    w.write(0, &format!("Message:\t{}\n", gs(pv, &["status", "message"])));
    w.write(0, "Source:\n");
    let src = |k: &str| get(pv, &["spec", k]).filter(|x| x.is_object());
    if let Some(hp) = src("hostPath") {
        print_host_path_volume_source(&mut w, hp);
    } else if let Some(nfs) = src("nfs") {
        print_nfs_volume_source(&mut w, nfs);
    } else if let Some(local) = src("local") {
        w.write(2, &format!("Type:\tLocalVolume (a persistent volume backed by local storage on a node)\n    Path:\t{}\n", gs(local, &["path"])));
    } else if let Some(csi) = src("csi") {
        w.write(
            2,
            &format!(
                "Type:\tCSI (a Container Storage Interface (CSI) volume source)\n    Driver:\t{}\n    FSType:\t{}\n    VolumeHandle:\t{}\n    ReadOnly:\t{}\n",
                gs(csi, &["driver"]),
                gs(csi, &["fsType"]),
                gs(csi, &["volumeHandle"]),
                gb(csi, &["readOnly"])
            ),
        );
        // printCSIPersistentVolumeAttributesMultilineIndent
        w.write(2, "VolumeAttributes:\t");
        let attrs = gmap(csi, &["volumeAttributes"]);
        if attrs.is_empty() {
            w.write_line("<none>");
        }
        for (i, (k, v)) in attrs.iter().enumerate() {
            if i != 0 {
                w.write(2, "\t");
            }
            w.write(0, &format!("{}={}\n", k, v));
        }
    } else {
        w.write(1, "<unknown>\n");
    }
    describe_events(&mut w, events, now_ms);
    w.finish()
}

/// `printBoolPtr`: `True` / `False`, `<unset>` for nil.
fn print_bool_ptr(v: Option<&Value>) -> String {
    match v.and_then(Value::as_bool) {
        Some(true) => "True".into(),
        Some(false) => "False".into(),
        None => "<unset>".into(),
    }
}

/// `StorageClassDescriber` / `describeStorageClass`.
pub fn describe_storage_class(sc: &Value, events: &[Value], now_ms: i64) -> String {
    let mut w = PrefixWriter::new();
    w.write(0, &format!("Name:\t{}\n", gs(sc, &["metadata", "name"])));
    // storageutil.IsDefaultAnnotationText
    let is_default = ["storageclass.kubernetes.io/is-default-class", "storageclass.beta.kubernetes.io/is-default-class"]
        .iter()
        .any(|a| crate::api::meta::annotation(sc, a) == Some("true"));
    w.write(0, &format!("IsDefaultClass:\t{}\n", if is_default { "Yes" } else { "No" }));
    w.write(0, &format!("Annotations:\t{}\n", format_labels(&gmap(sc, &["metadata", "annotations"]))));
    w.write(0, &format!("Provisioner:\t{}\n", gs(sc, &["provisioner"])));
    w.write(0, &format!("Parameters:\t{}\n", format_labels(&gmap(sc, &["parameters"]))));
    w.write(0, &format!("AllowVolumeExpansion:\t{}\n", print_bool_ptr(get(sc, &["allowVolumeExpansion"]))));
    let mount_options = ga(sc, &["mountOptions"]);
    if mount_options.is_empty() {
        w.write(0, "MountOptions:\t<none>\n");
    } else {
        w.write(0, "MountOptions:\n");
        for o in mount_options {
            w.write(1, &format!("{}\n", scalar_text(o)));
        }
    }
    if let Some(p) = get(sc, &["reclaimPolicy"]).and_then(Value::as_str) {
        w.write(0, &format!("ReclaimPolicy:\t{}\n", p));
    }
    if let Some(m) = get(sc, &["volumeBindingMode"]).and_then(Value::as_str) {
        w.write(0, &format!("VolumeBindingMode:\t{}\n", m));
    }
    if let Some(topologies) = get(sc, &["allowedTopologies"]).and_then(Value::as_array) {
        // printAllowedTopologies / printTopologySelectorTermsMultilineWithIndent
        w.write(0, "AllowedTopologies:\t");
        if topologies.is_empty() {
            w.write_line("<none>");
        } else {
            w.write_line("");
            for (i, term) in topologies.iter().enumerate() {
                w.write(1, &format!("Term {}:\t", i));
                let reqs = ga(term, &["matchLabelExpressions"]);
                if reqs.is_empty() {
                    w.write_line("<none>");
                    continue;
                }
                for (j, req) in reqs.iter().enumerate() {
                    if j != 0 {
                        w.write(1, "\t");
                    }
                    let mut expr = format!("{} in", gs(req, &["key"]));
                    let values = ga(req, &["values"]);
                    if !values.is_empty() {
                        expr = format!("{} [{}]", expr, values.iter().map(scalar_text).collect::<Vec<_>>().join(", "));
                    }
                    w.write(0, &format!("{}\n", expr));
                }
            }
        }
    }
    describe_events(&mut w, events, now_ms);
    w.finish()
}

/// `formatEndpointSlices`: the ready `ip:port` values of the slices for one port name, the first
/// three then ` + N more...`; `<none>` without slices.
fn format_endpoint_slices(slices: &[Value], port_name: &str) -> String {
    if slices.is_empty() {
        return "<none>".into();
    }
    let (max, mut list, mut more, mut count) = (3usize, Vec::new(), false, 0usize);
    let ready = |e: &Value| get(e, &["conditions", "ready"]).and_then(|r| r.as_bool()).unwrap_or(true);
    let mut push = |s: String, list: &mut Vec<String>| {
        count += 1;
        if list.len() < max {
            list.push(s);
        } else {
            more = true;
        }
    };
    for s in slices {
        let ports = ga(s, &["ports"]);
        let eps = ga(s, &["endpoints"]);
        if ports.is_empty() {
            for e in eps.iter().filter(|e| ready(e)) {
                push(ga(e, &["addresses"]).first().map(scalar_text).unwrap_or_default(), &mut list);
            }
            continue;
        }
        for p in ports.iter().filter(|p| gs(p, &["name"]) == port_name) {
            for e in eps.iter().filter(|e| ready(e)) {
                let addr = ga(e, &["addresses"]).first().map(scalar_text).unwrap_or_default();
                push(format!("{}:{}", addr, gi(p, &["port"]).unwrap_or(0)), &mut list);
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

/// `describeService`, with the EndpointSlices labelled `kubernetes.io/service-name=<name>`.
pub fn describe_service(svc: &Value, slices: &[Value], events: &[Value], now_ms: i64) -> String {
    let mut w = PrefixWriter::new();
    w.write(0, &format!("Name:\t{}\n", gs(svc, &["metadata", "name"])));
    w.write(0, &format!("Namespace:\t{}\n", gs(svc, &["metadata", "namespace"])));
    print_labels_multiline(&mut w, "Labels", &gmap(svc, &["metadata", "labels"]));
    print_annotations_multiline(&mut w, "Annotations", &gmap(svc, &["metadata", "annotations"]));
    let sel: Vec<String> = gmap(svc, &["spec", "selector"]).into_iter().map(|(k, v)| format!("{}={}", k, v)).collect();
    w.write(0, &format!("Selector:\t{}\n", if sel.is_empty() { "<none>".to_string() } else { sel.join(",") }));
    w.write(0, &format!("Type:\t{}\n", gs(svc, &["spec", "type"])));
    let policy = gs(svc, &["spec", "ipFamilyPolicy"]);
    if !policy.is_empty() {
        w.write(0, &format!("IP Family Policy:\t{}\n", policy));
    }
    let fams: Vec<String> = ga(svc, &["spec", "ipFamilies"]).iter().map(scalar_text).collect();
    w.write(0, &format!("IP Families:\t{}\n", if fams.is_empty() { "<none>".to_string() } else { fams.join(",") }));
    w.write(0, &format!("IP:\t{}\n", gs(svc, &["spec", "clusterIP"])));
    let ips: Vec<String> = ga(svc, &["spec", "clusterIPs"]).iter().map(scalar_text).collect();
    w.write(0, &format!("IPs:\t{}\n", if ips.is_empty() { "<none>".to_string() } else { ips.join(",") }));
    let ext: Vec<String> = ga(svc, &["spec", "externalIPs"]).iter().map(scalar_text).collect();
    if !ext.is_empty() {
        w.write(0, &format!("External IPs:\t{}\n", ext.join(",")));
    }
    if gs(svc, &["spec", "type"]) == "ExternalName" {
        w.write(0, &format!("External Name:\t{}\n", gs(svc, &["spec", "externalName"])));
    }
    for sp in ga(svc, &["spec", "ports"]) {
        let name = if gs(sp, &["name"]).is_empty() { "<unset>" } else { gs(sp, &["name"]) };
        let proto = gs(sp, &["protocol"]);
        w.write(0, &format!("Port:\t{}\t{}/{}\n", name, gi(sp, &["port"]).unwrap_or(0), proto));
        w.write(0, &format!("TargetPort:\t{}/{}\n", get(sp, &["targetPort"]).map(scalar_text).unwrap_or_default(), proto));
        if let Some(np) = gi(sp, &["nodePort"]).filter(|n| *n != 0) {
            w.write(0, &format!("NodePort:\t{}\t{}/{}\n", name, np, proto));
        }
        w.write(0, &format!("Endpoints:\t{}\n", format_endpoint_slices(slices, gs(sp, &["name"]))));
    }
    w.write(0, &format!("Session Affinity:\t{}\n", gs(svc, &["spec", "sessionAffinity"])));
    let etp = gs(svc, &["spec", "externalTrafficPolicy"]);
    if !etp.is_empty() {
        w.write(0, &format!("External Traffic Policy:\t{}\n", etp));
    }
    let itp = gs(svc, &["spec", "internalTrafficPolicy"]);
    if !itp.is_empty() {
        w.write(0, &format!("Internal Traffic Policy:\t{}\n", itp));
    }
    describe_events(&mut w, events, now_ms);
    w.finish()
}

/// `describeNodeResource`: the Non-terminated Pods table and the Allocated resources summary.
fn describe_node_resource(w: &mut PrefixWriter, pods: &[Value], node: &Value, now_ms: i64) {
    // the pods come from a cluster-wide LIST: etcd key order (namespace, name)
    let mut pods: Vec<&Value> = pods.iter().collect();
    pods.csort_by(|a, b| {
        (gs(a, &["metadata", "namespace"]), gs(a, &["metadata", "name"])).cmp(&(gs(b, &["metadata", "namespace"]), gs(b, &["metadata", "name"])))
    });
    w.write(0, &format!("Non-terminated Pods:\t({} in total)\n", pods.len()));
    w.write(1, "Namespace\tName\t\tCPU Requests\tCPU Limits\tMemory Requests\tMemory Limits\tAge\n");
    w.write(1, "---------\t----\t\t------------\t----------\t---------------\t-------------\t---\n");
    let mut allocatable = resource_list(get(node, &["status", "capacity"]));
    let alloc = resource_list(get(node, &["status", "allocatable"]));
    if !alloc.is_empty() {
        allocatable = alloc;
    }
    let alloc_cpu = qty_of(&allocatable, "cpu").milli_value();
    let alloc_mem = qty_of(&allocatable, "memory").value();
    let mut total_reqs = ResourceList::new();
    let mut total_limits = ResourceList::new();
    for pod in &pods {
        let (req, limit) = pod_requests_and_limits(pod);
        let (cpu_req, cpu_lim, mem_req, mem_lim) = (qty_of(&req, "cpu"), qty_of(&limit, "cpu"), qty_of(&req, "memory"), qty_of(&limit, "memory"));
        w.write(
            1,
            &format!(
                "{}\t{}\t\t{} ({}%)\t{} ({}%)\t{} ({}%)\t{} ({}%)\t{}\n",
                gs(pod, &["metadata", "namespace"]),
                gs(pod, &["metadata", "name"]),
                cpu_req.canonical(),
                percent(cpu_req.milli_value(), alloc_cpu),
                cpu_lim.canonical(),
                percent(cpu_lim.milli_value(), alloc_cpu),
                mem_req.canonical(),
                percent(mem_req.value(), alloc_mem),
                mem_lim.canonical(),
                percent(mem_lim.value(), alloc_mem),
                translate_timestamp_since(gs(pod, &["metadata", "creationTimestamp"]), now_ms)
            ),
        );
        add_resource_list(&mut total_reqs, &req);
        add_resource_list(&mut total_limits, &limit);
    }
    w.write(0, "Allocated resources:\n  (Total limits may be over 100 percent, i.e., overcommitted.)\n");
    w.write(1, "Resource\tRequests\tLimits\n");
    w.write(1, "--------\t--------\t------\n");
    let alloc_eph = qty_of(&allocatable, "ephemeral-storage").value();
    for (name, by_milli, denom) in [("cpu", true, alloc_cpu), ("memory", false, alloc_mem), ("ephemeral-storage", false, alloc_eph)] {
        let (r, l) = (qty_of(&total_reqs, name), qty_of(&total_limits, name));
        let (rv, lv) = if by_milli { (r.milli_value(), l.milli_value()) } else { (r.value(), l.value()) };
        w.write(1, &format!("{}\t{} ({}%)\t{} ({}%)\n", name, r.canonical(), percent(rv, denom), l.canonical(), percent(lv, denom)));
    }
    // hugepages-* with percentages, then extended resources without
    for (name, a) in allocatable.iter().filter(|(n, _)| n.starts_with("hugepages-")) {
        let (r, l) = (qty_of(&total_reqs, name), qty_of(&total_limits, name));
        w.write(
            1,
            &format!("{}\t{} ({}%)\t{} ({}%)\n", name, r.canonical(), percent(r.value(), a.value()), l.canonical(), percent(l.value(), a.value())),
        );
    }
    for name in allocatable.keys().filter(|n| !n.starts_with("hugepages-") && !["cpu", "memory", "ephemeral-storage", "pods"].contains(&n.as_str())) {
        w.write(1, &format!("{}\t{}\t{}\n", name, qty_of(&total_reqs, name).canonical(), qty_of(&total_limits, name).canonical()));
    }
}

/// `kubectl describe node`. `pods` are the non-terminated pods bound to the node.
pub fn describe_node(node: &Value, pods: &[Value], events: &[Value], now_ms: i64) -> String {
    describe_node_with_lease(node, None, pods, events, now_ms)
}

/// `kubectl describe node` with the node's Lease (`kube-node-lease/NAME`), whose holder,
/// acquire and renew times it prints; without it, the renew time is the Ready heartbeat.
pub fn describe_node_with_lease(node: &Value, lease: Option<&Value>, pods: &[Value], events: &[Value], now_ms: i64) -> String {
    let mut w = PrefixWriter::new();
    let name = gs(node, &["metadata", "name"]);
    w.write(0, &format!("Name:\t{}\n", name));
    let roles = find_node_roles(node);
    w.write(0, &format!("Roles:\t{}\n", if roles.is_empty() { "<none>".to_string() } else { roles.join(",") }));
    print_labels_multiline(&mut w, "Labels", &gmap(node, &["metadata", "labels"]));
    print_annotations_multiline(&mut w, "Annotations", &gmap(node, &["metadata", "annotations"]));
    w.write(0, &format!("CreationTimestamp:\t{}\n", rfc1123z_field(node, &["metadata", "creationTimestamp"])));
    print_taints_multiline(&mut w, "Taints", ga(node, &["spec", "taints"]));
    w.write(0, &format!("Unschedulable:\t{}\n", gb(node, &["spec", "unschedulable"])));

    // Lease (kube-node-lease/<node>): the kubelet holds it under the node's name and never sets
    // acquireTime; its renewTime is approximated by the Ready heartbeat.
    let conditions = ga(node, &["status", "conditions"]);
    let heartbeat = conditions.iter().find(|c| gs(c, &["type"]) == "Ready").map(|c| gs(c, &["lastHeartbeatTime"])).unwrap_or("");
    let renew_text = lease.map(|l| gs(l, &["spec", "renewTime"])).unwrap_or(heartbeat);
    let renew = parse_rfc3339_unix(renew_text).map(format_rfc1123z).unwrap_or_else(|| "<unset>".into());
    w.write(0, "Lease:\n");
    w.write(1, &format!("HolderIdentity:\t{}\n", name));
    w.write(1, "AcquireTime:\t<unset>\n");
    w.write(1, &format!("RenewTime:\t{}\n", renew));

    if !conditions.is_empty() {
        w.write(0, "Conditions:\n  Type\tStatus\tLastHeartbeatTime\tLastTransitionTime\tReason\tMessage\n");
        w.write(1, "----\t------\t-----------------\t------------------\t------\t-------\n");
        for c in conditions {
            w.write(
                1,
                &format!(
                    "{} \t{} \t{} \t{} \t{} \t{}\n",
                    gs(c, &["type"]),
                    gs(c, &["status"]),
                    rfc1123z_field(c, &["lastHeartbeatTime"]),
                    rfc1123z_field(c, &["lastTransitionTime"]),
                    gs(c, &["reason"]),
                    gs(c, &["message"])
                ),
            );
        }
    }
    w.write(0, "Addresses:\n");
    for a in ga(node, &["status", "addresses"]) {
        w.write(1, &format!("{}:\t{}\n", gs(a, &["type"]), gs(a, &["address"])));
    }
    for (field, label) in [("capacity", "Capacity"), ("allocatable", "Allocatable")] {
        if let Some(list) = get(node, &["status", field]).and_then(|l| l.as_object()).filter(|l| !l.is_empty()) {
            w.write(0, &format!("{}:\n", label));
            for (res, q) in list {
                w.write(0, &format!("  {}:\t{}\n", res, quantity_text(q)));
            }
        }
    }
    w.write(0, "System Info:\n");
    for (label, key) in [
        ("Machine ID", "machineID"),
        ("System UUID", "systemUUID"),
        ("Boot ID", "bootID"),
        ("Kernel Version", "kernelVersion"),
        ("OS Image", "osImage"),
        ("Operating System", "operatingSystem"),
        ("Architecture", "architecture"),
        ("Container Runtime Version", "containerRuntimeVersion"),
        ("Kubelet Version", "kubeletVersion"),
        ("Kube-Proxy Version", "kubeProxyVersion"),
    ] {
        w.write(0, &format!("  {}:\t{}\n", label, gs(node, &["status", "nodeInfo", key])));
    }
    let pod_cidr = gs(node, &["spec", "podCIDR"]);
    if !pod_cidr.is_empty() {
        w.write(0, &format!("PodCIDR:\t{}\n", pod_cidr));
    }
    let cidrs: Vec<String> = ga(node, &["spec", "podCIDRs"]).iter().map(scalar_text).collect();
    if !cidrs.is_empty() {
        w.write(0, &format!("PodCIDRs:\t{}\n", cidrs.join(",")));
    }
    let provider = gs(node, &["spec", "providerID"]);
    if !provider.is_empty() {
        w.write(0, &format!("ProviderID:\t{}\n", provider));
    }
    describe_node_resource(&mut w, pods, node, now_ms);
    describe_events(&mut w, events, now_ms);
    w.finish()
}

// ---------------------------------------------------------------------------------------------
// CronJobs, ResourceQuotas, PriorityClasses, Namespaces
// ---------------------------------------------------------------------------------------------

/// `CronJobDescriber` / `describeCronJob`.
pub fn describe_cron_job(cj: &Value, events: &[Value], now_ms: i64) -> String {
    let mut w = PrefixWriter::new();
    w.write(0, &format!("Name:\t{}\n", gs(cj, &["metadata", "name"])));
    w.write(0, &format!("Namespace:\t{}\n", gs(cj, &["metadata", "namespace"])));
    print_labels_multiline(&mut w, "Labels", &gmap(cj, &["metadata", "labels"]));
    print_annotations_multiline(&mut w, "Annotations", &gmap(cj, &["metadata", "annotations"]));
    w.write(0, &format!("Schedule:\t{}\n", gs(cj, &["spec", "schedule"])));
    w.write(0, &format!("Concurrency Policy:\t{}\n", gs(cj, &["spec", "concurrencyPolicy"])));
    w.write(0, &format!("Suspend:\t{}\n", print_bool_ptr(get(cj, &["spec", "suspend"]))));
    match gi(cj, &["spec", "successfulJobsHistoryLimit"]) {
        Some(n) => w.write(0, &format!("Successful Job History Limit:\t{}\n", n)),
        None => w.write(0, "Successful Job History Limit:\t<unset>\n"),
    }
    match gi(cj, &["spec", "failedJobsHistoryLimit"]) {
        Some(n) => w.write(0, &format!("Failed Job History Limit:\t{}\n", n)),
        None => w.write(0, "Failed Job History Limit:\t<unset>\n"),
    }
    match gi(cj, &["spec", "startingDeadlineSeconds"]) {
        Some(n) => w.write(0, &format!("Starting Deadline Seconds:\t{}s\n", n)),
        None => w.write(0, "Starting Deadline Seconds:\t<unset>\n"),
    }
    describe_job_template(&mut w, get(cj, &["spec", "jobTemplate"]));
    if parse_rfc3339_unix(gs(cj, &["status", "lastScheduleTime"])).is_some() {
        w.write(0, &format!("Last Schedule Time:\t{}\n", rfc1123z_field(cj, &["status", "lastScheduleTime"])));
    } else {
        w.write(0, "Last Schedule Time:\t<unset>\n");
    }
    print_active_jobs(&mut w, "Active Jobs", ga(cj, &["status", "active"]));
    describe_events(&mut w, events, now_ms);
    w.finish()
}

/// `describeJobTemplate`: the Job spec's selector, parallelism, completions, deadline and the
/// pod template (always printed: the Go template is a value, never nil).
fn describe_job_template(w: &mut PrefixWriter, job_template: Option<&Value>) {
    let empty = Value::Object(Default::default());
    let spec = job_template.and_then(|t| t.get("spec")).filter(|s| s.is_object()).unwrap_or(&empty);
    match get(spec, &["selector"]).filter(|s| s.is_object()) {
        Some(sel) => w.write(0, &format!("Selector:\t{}\n", selector_string(Some(sel)))),
        None => w.write(0, "Selector:\t<unset>\n"),
    }
    match gi(spec, &["parallelism"]) {
        Some(n) => w.write(0, &format!("Parallelism:\t{}\n", n)),
        None => w.write(0, "Parallelism:\t<unset>\n"),
    }
    match gi(spec, &["completions"]) {
        Some(n) => w.write(0, &format!("Completions:\t{}\n", n)),
        None => w.write(0, "Completions:\t<unset>\n"),
    }
    if let Some(n) = gi(spec, &["activeDeadlineSeconds"]) {
        w.write(0, &format!("Active Deadline Seconds:\t{}s\n", n));
    }
    let template = get(spec, &["template"]).filter(|t| t.is_object()).unwrap_or(&empty);
    describe_pod_template(w, Some(template));
}

/// `printActiveJobs`: the names of `status.active`, comma-separated, `<none>` when empty.
fn print_active_jobs(w: &mut PrefixWriter, title: &str, jobs: &[Value]) {
    w.write(0, &format!("{}:\t", title));
    if jobs.is_empty() {
        w.write_line("<none>");
        return;
    }
    for (i, job) in jobs.iter().enumerate() {
        if i != 0 {
            w.write(0, ", ");
        }
        w.write(0, gs(job, &["name"]));
    }
    w.write_line("");
}

/// `helpTextForResourceQuotaScope`.
fn help_text_for_resource_quota_scope(scope: &str) -> &'static str {
    match scope {
        "Terminating" => "Matches all pods that have an active deadline. These pods have a limited lifespan on a node before being actively terminated by the system.",
        "NotTerminating" => "Matches all pods that do not have an active deadline. These pods usually include long running pods whose container command is not expected to terminate.",
        "BestEffort" => "Matches all pods that do not have resource requirements set. These pods have a best effort quality of service.",
        "NotBestEffort" => "Matches all pods that have at least one resource requirement set. These pods have a burstable or guaranteed quality of service.",
        _ => "",
    }
}

/// `spec.scopes`, sorted (`sort.Strings`).
fn quota_scopes(q: &Value) -> Vec<String> {
    let mut scopes: Vec<String> = ga(q, &["spec", "scopes"]).iter().map(scalar_text).collect();
    scopes.csort();
    scopes
}

/// `ResourceQuotaDescriber` / `describeQuota`: a Resource/Used/Hard table of `status.hard`
/// (sorted by resource name); a used amount whose format differs from the hard one's is printed
/// as `resource.NewQuantity(used.Value(), hard.Format)`.
pub fn describe_resource_quota(q: &Value) -> String {
    let mut w = PrefixWriter::new();
    w.write(0, &format!("Name:\t{}\n", gs(q, &["metadata", "name"])));
    w.write(0, &format!("Namespace:\t{}\n", gs(q, &["metadata", "namespace"])));
    let scopes = quota_scopes(q);
    if !scopes.is_empty() {
        w.write(0, &format!("Scopes:\t{}\n", scopes.join(", ")));
        for scope in &scopes {
            let help = help_text_for_resource_quota_scope(scope);
            if !help.is_empty() {
                w.write(0, &format!(" * {}\n", help));
            }
        }
    }
    w.write(0, "Resource\tUsed\tHard\n");
    w.write(0, "--------\t----\t----\n");
    let hard = crate::api::quota::list_of(get(q, &["status", "hard"]));
    let used = crate::api::quota::list_of(get(q, &["status", "used"]));
    for (name, h) in &hard {
        // a missing used entry is Go's zero Quantity, whose (empty) format always differs
        let u = match used.get(name) {
            Some(u) if u.format == h.format => *u,
            Some(u) => Qty::new(u.value(), h.format),
            None => Qty::new(0, h.format),
        };
        w.write(0, &format!("{}\t{}\t{}\n", name, u, h));
    }
    w.finish()
}

/// `PriorityClassDescriber` / `describePriorityClass`. Annotations print as `labels.FormatLabels`
/// (one `k=v,...` line, last-applied included), as upstream.
pub fn describe_priority_class(pc: &Value, events: &[Value], now_ms: i64) -> String {
    let mut w = PrefixWriter::new();
    w.write(0, &format!("Name:\t{}\n", gs(pc, &["metadata", "name"])));
    w.write(0, &format!("Value:\t{}\n", gi(pc, &["value"]).unwrap_or(0)));
    w.write(0, &format!("GlobalDefault:\t{}\n", gb(pc, &["globalDefault"])));
    // defaulted by the API server (upstream dereferences it unconditionally)
    let policy = match gs(pc, &["preemptionPolicy"]) {
        "" => "PreemptLowerPriority",
        p => p,
    };
    w.write(0, &format!("PreemptionPolicy:\t{}\n", policy));
    w.write(0, &format!("Description:\t{}\n", gs(pc, &["description"])));
    w.write(0, &format!("Annotations:\t{}\n", format_labels(&gmap(pc, &["metadata", "annotations"]))));
    describe_events(&mut w, events, now_ms);
    w.finish()
}

/// `PodDisruptionBudgetDescriber`.
pub fn describe_pod_disruption_budget(pdb: &Value, events: &[Value], now_ms: i64) -> String {
    let mut w = PrefixWriter::new();
    w.write(0, &format!("Name:\t{}\n", gs(pdb, &["metadata", "name"])));
    w.write(0, &format!("Namespace:\t{}\n", gs(pdb, &["metadata", "namespace"])));
    let ios = |v: &Value| match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    if let Some(m) = get(pdb, &["spec", "minAvailable"]).filter(|v| !v.is_null()) {
        w.write(0, &format!("Min available:\t{}\n", ios(m)));
    } else if let Some(m) = get(pdb, &["spec", "maxUnavailable"]).filter(|v| !v.is_null()) {
        w.write(0, &format!("Max unavailable:\t{}\n", ios(m)));
    }
    match get(pdb, &["spec", "selector"]).filter(|v| !v.is_null()) {
        Some(s) => w.write(0, &format!("Selector:\t{}\n", crate::api::meta::selector_string(Some(s)))),
        None => w.write(0, "Selector:\t<unset>\n"),
    }
    w.write(0, "Status:\n");
    for (label, field) in [("Allowed disruptions", "disruptionsAllowed"), ("Current", "currentHealthy"), ("Desired", "desiredHealthy"), ("Total", "expectedPods")] {
        w.write(2, &format!("{}:\t{}\n", label, gi(pdb, &["status", field]).unwrap_or(0)));
    }
    describe_events(&mut w, events, now_ms);
    w.finish()
}

/// `serviceBackendStringer`: `name:port`, the port by number or name.
fn service_backend_string(b: &Value) -> String {
    let port = match gi(b, &["service", "port", "number"]).filter(|n| *n != 0) {
        Some(n) => n.to_string(),
        None => gs(b, &["service", "port", "name"]).to_string(),
    };
    format!("{}:{}", gs(b, &["service", "name"]), port)
}

/// `describeBackendV1`: `name:port (endpoints)` from the Service (`svc`: Ok, or the error kubectl
/// got for it) and the EndpointSlices labelled with its name; a resource backend by kind.
pub fn describe_ingress_backend(b: &Value, svc: Result<&Value, String>, slices: &[Value]) -> String {
    if get(b, &["service"]).is_some() {
        let sb = service_backend_string(b);
        let svc = match svc {
            Ok(s) => s,
            Err(e) => return format!("{} (<error: {}>)", sb, e),
        };
        let (number, name) = (gi(b, &["service", "port", "number"]).unwrap_or(0), gs(b, &["service", "port", "name"]));
        let mut sp_name = "";
        for sp in ga(svc, &["spec", "ports"]) {
            if (number != 0 && Some(number) == gi(sp, &["port"])) || (!name.is_empty() && name == gs(sp, &["name"])) {
                sp_name = gs(sp, &["name"]);
            }
        }
        return format!("{} ({})", sb, format_endpoint_slices(slices, sp_name));
    }
    if let Some(r) = get(b, &["resource"]) {
        let group = match gs(r, &["apiGroup"]) {
            "" => "<none>",
            g => g,
        };
        return format!("APIGroup: {}, Kind: {}, Name: {}", group, gs(r, &["kind"]), gs(r, &["name"]));
    }
    String::new()
}

/// `describeIngressV1`; `backend` describes one backend (kubectl's requests for it are made as
/// it is called: the default backend first, then each path in order).
pub fn describe_ingress(ing: &Value, backend: &mut dyn FnMut(&Value) -> String, events: &[Value], now_ms: i64) -> String {
    let mut w = PrefixWriter::new();
    w.write(0, &format!("Name:\t{}\n", gs(ing, &["metadata", "name"])));
    print_labels_multiline(&mut w, "Labels", &gmap(ing, &["metadata", "labels"]));
    w.write(0, &format!("Namespace:\t{}\n", gs(ing, &["metadata", "namespace"])));
    let addrs: Vec<String> = ga(ing, &["status", "loadBalancer", "ingress"]).iter().map(|i| if gs(i, &["ip"]).is_empty() { gs(i, &["hostname"]).to_string() } else { gs(i, &["ip"]).to_string() }).collect();
    w.write(0, &format!("Address:\t{}\n", addrs.join(",")));
    let class = match gs(ing, &["spec", "ingressClassName"]) {
        "" => "<none>",
        c => c,
    };
    w.write(0, &format!("Ingress Class:\t{}\n", class));
    let default = match get(ing, &["spec", "defaultBackend"]).filter(|v| !v.is_null()) {
        Some(b) => backend(b),
        None => "<default>".to_string(),
    };
    w.write(0, &format!("Default backend:\t{}\n", default));
    let tls = ga(ing, &["spec", "tls"]);
    if !tls.is_empty() {
        w.write(0, "TLS:\n");
        for t in tls {
            let hosts: Vec<String> = ga(t, &["hosts"]).iter().map(scalar_text).collect();
            match gs(t, &["secretName"]) {
                "" => w.write(1, &format!("SNI routes {}\n", hosts.join(","))),
                secret => w.write(1, &format!("{} terminates {}\n", secret, hosts.join(","))),
            }
        }
    }
    w.write(0, "Rules:\n  Host\tPath\tBackends\n");
    w.write(1, "----\t----\t--------\n");
    let mut count = 0;
    for rule in ga(ing, &["spec", "rules"]) {
        let Some(http) = get(rule, &["http"]).filter(|v| !v.is_null()) else { continue };
        count += 1;
        let host = match gs(rule, &["host"]) {
            "" => "*",
            h => h,
        };
        w.write(1, &format!("{}\t\n", host));
        for p in ga(http, &["paths"]) {
            let described = get(p, &["backend"]).map(|b| backend(b)).unwrap_or_default();
            w.write(2, &format!("\t{} \t{}\n", gs(p, &["path"]), described));
        }
    }
    if count == 0 {
        w.write(1, &format!("*\t*\t{}\n", default));
    }
    print_annotations_multiline(&mut w, "Annotations", &gmap(ing, &["metadata", "annotations"]));
    describe_events(&mut w, events, now_ms);
    w.finish()
}

/// `describeNetworkPolicy` (no Events: kubectl's describer shows none for it).
/// `smartLabelFor`: a JSON field name as the generic describer titles it (`cronSpec` →
/// `Cron Spec`, `apiVersion` → `API Version`, `uid` → `UID`); a name with characters other than
/// letters and `-` is printed as it is.
pub fn smart_label_for(field: &str) -> String {
    if field.chars().any(|c| !c.is_alphabetic() && c != '-') {
        return field.to_string();
    }
    // camelcase.Split: runs of one character class, an upper-case run's last letter moved to a
    // following lower-case run
    let class = |c: char| if c.is_lowercase() { 1 } else if c.is_uppercase() { 2 } else if c.is_numeric() { 3 } else { 4 };
    let mut runs: Vec<Vec<char>> = Vec::new();
    let mut last = 0;
    for c in field.chars() {
        let k = class(c);
        if k == last {
            if let Some(r) = runs.last_mut() {
                r.push(c);
            }
        } else {
            runs.push(vec![c]);
        }
        last = k;
    }
    for i in 0..runs.len().saturating_sub(1) {
        if runs[i].first().map(|c| c.is_uppercase()).unwrap_or(false) && runs[i + 1].first().map(|c| c.is_lowercase()).unwrap_or(false) {
            if let Some(c) = runs[i].pop() {
                runs[i + 1].insert(0, c);
            }
        }
    }
    let parts: Vec<String> = runs.into_iter().filter(|r| !r.is_empty()).map(|r| r.into_iter().collect()).collect();
    // an upper-case part of 2+ letters merges with an upper-case-led next part
    let mut merged: Vec<String> = Vec::new();
    let mut i = 0;
    while i < parts.len() {
        let part = &parts[i];
        if i + 1 < parts.len() && part.chars().count() >= 2 && part.chars().all(|c| !c.is_alphabetic() || c.is_uppercase()) && parts[i + 1].chars().next().map(|c| c.is_uppercase()).unwrap_or(false) {
            merged.push(format!("{}{}", part, parts[i + 1]));
            i += 2;
            continue;
        }
        merged.push(part.clone());
        i += 1;
    }
    merged
        .into_iter()
        .filter(|p| p != "_")
        .map(|p| {
            if ["API", "URL", "UID", "GUID"].contains(&p.to_uppercase().as_str()) {
                p.to_uppercase()
            } else if p.to_lowercase() == p {
                let mut c = p.chars();
                c.next().map(|f| f.to_uppercase().collect::<String>() + c.as_str()).unwrap_or_default()
            } else {
                p
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// `%v` of a JSON value in an unstructured object.
fn unstructured_scalar(v: &Value) -> String {
    match v {
        Value::Null => "<nil>".into(),
        Value::String(s) => s.clone(),
        Value::Number(n) => match (n.as_i64(), n.as_f64()) {
            (Some(i), _) => i.to_string(),
            (None, Some(f)) => crate::kubectl::printers::go_g_float(f),
            _ => n.to_string(),
        },
        other => other.to_string(),
    }
}

/// `printUnstructuredContent`: fields in name order, maps and lists nested one level deeper,
/// the skipped paths left out.
fn print_unstructured(w: &mut PrefixWriter, level: usize, content: &serde_json::Map<String, Value>, prefix: &str, skip: &[&str]) {
    let mut fields: Vec<&String> = content.keys().collect();
    fields.sort();
    for field in fields {
        let value = &content[field];
        let path = format!("{}.{}", prefix, field);
        if skip.contains(&path.as_str()) {
            continue;
        }
        match value {
            Value::Object(m) => {
                w.write(level, &format!("{}:\n", smart_label_for(field)));
                print_unstructured(w, level + 1, m, &path, skip);
            }
            Value::Array(items) => {
                w.write(level, &format!("{}:\n", smart_label_for(field)));
                for child in items {
                    match child {
                        Value::Object(m) => print_unstructured(w, level + 1, m, &path, skip),
                        other => w.write(level + 1, &format!("{}\n", unstructured_scalar(other))),
                    }
                }
            }
            other => w.write(level, &format!("{}:\t{}\n", smart_label_for(field), unstructured_scalar(other))),
        }
    }
}

#[cfg(test)]
#[test]
fn smart_label_for_upstream_cases() {
    // describe_test.go TestSmartLabelFor's table, and the fields a custom resource shows
    let upstream = [("simpleField", "Simple Field"), ("respectPDBs", "Respect PDBs"), ("respectPDB", "Respect PDB"), ("apiURL", "API URL"), ("kubeAPI", "Kube API"), ("userUID", "User UID"), ("HTTPSProxy", "HTTPSProxy"), ("customCRDs", "Custom CRDs")];
    let ours = [("apiVersion", "API Version"), ("uid", "UID"), ("creationTimestamp", "Creation Timestamp"), ("cronSpec", "Cron Spec"), ("resourceVersion", "Resource Version"), ("with_underscore", "with_underscore"), ("x1", "x1")];
    for (field, want) in upstream.into_iter().chain(ours) {
        assert_eq!(smart_label_for(field), want, "{}", field);
    }
}

/// `genericDescriber`: what `kubectl describe` prints for a kind without a describer of its own
/// (every custom resource): name, namespace, labels, annotations, every other field by
/// `printUnstructuredContent`, then the events.
pub fn describe_generic(obj: &Value, events: &[Value], now_ms: i64) -> String {
    let mut w = PrefixWriter::new();
    w.write(0, &format!("Name:\t{}\n", gs(obj, &["metadata", "name"])));
    w.write(0, &format!("Namespace:\t{}\n", gs(obj, &["metadata", "namespace"])));
    print_labels_multiline(&mut w, "Labels", &gmap(obj, &["metadata", "labels"]));
    print_annotations_multiline(&mut w, "Annotations", &gmap(obj, &["metadata", "annotations"]));
    if let Some(m) = obj.as_object() {
        print_unstructured(&mut w, 0, m, "", &[".metadata.managedFields", ".metadata.name", ".metadata.namespace", ".metadata.labels", ".metadata.annotations"]);
    }
    describe_events(&mut w, events, now_ms);
    w.finish()
}

pub fn describe_network_policy(np: &Value) -> String {
    let mut w = PrefixWriter::new();
    w.write(0, &format!("Name:\t{}\n", gs(np, &["metadata", "name"])));
    w.write(0, &format!("Namespace:\t{}\n", gs(np, &["metadata", "namespace"])));
    // metav1.Time's String(): Go's time.Time format
    let created = crate::api::time::parse_rfc3339_unix(gs(np, &["metadata", "creationTimestamp"])).map(crate::api::time::unix_go_string).unwrap_or_default();
    w.write(0, &format!("Created on:\t{}\n", created));
    print_labels_multiline(&mut w, "Labels", &gmap(np, &["metadata", "labels"]));
    print_annotations_multiline(&mut w, "Annotations", &gmap(np, &["metadata", "annotations"]));
    w.write(0, "Spec:\n");
    w.write(1, "PodSelector: ");
    let sel = get(np, &["spec", "podSelector"]);
    let empty = sel.map(|s| gmap(s, &["matchLabels"]).is_empty() && ga(s, &["matchExpressions"]).is_empty()).unwrap_or(true);
    if empty {
        w.write(2, "<none> (Allowing the specific traffic to all pods in this namespace)\n");
    } else {
        w.write(2, &format!("{}\n", format_label_selector(sel)));
    }
    let types: Vec<String> = ga(np, &["spec", "policyTypes"]).iter().map(scalar_text).collect();
    for (dir, peers, enabled_word) in [("ingress", "from", "ingress"), ("egress", "to", "egress")] {
        let enabled = types.iter().any(|t| t.eq_ignore_ascii_case(dir));
        if !enabled {
            w.write(1, &format!("Not affecting {} traffic\n", enabled_word));
            continue;
        }
        w.write(1, &format!("Allowing {} traffic:\n", enabled_word));
        let rules = ga(np, &["spec", dir]);
        let indent = "    ";
        if rules.is_empty() {
            w.write(0, &format!("{}<none> (Selected pods are isolated for {} connectivity)\n", indent, enabled_word));
            continue;
        }
        let (label, any) = if dir == "ingress" { ("From", "From: <any> (traffic not restricted by source)") } else { ("To", "To: <any> (traffic not restricted by destination)") };
        for (i, rule) in rules.iter().enumerate() {
            let ports = ga(rule, &["ports"]);
            if ports.is_empty() {
                w.write(0, &format!("{}To Port: <any> (traffic allowed to all ports)\n", indent));
            }
            for p in ports {
                let proto = match gs(p, &["protocol"]) {
                    "" => "TCP",
                    x => x,
                };
                let port = get(p, &["port"]).filter(|v| !v.is_null()).map(scalar_text).unwrap_or_else(|| "<nil>".to_string());
                match gi(p, &["endPort"]) {
                    Some(end) => w.write(0, &format!("{}To Port Range: {}-{}/{}\n", indent, port, end, proto)),
                    None => w.write(0, &format!("{}To Port: {}/{}\n", indent, port, proto)),
                }
            }
            let list = ga(rule, &[peers]);
            if list.is_empty() {
                w.write(0, &format!("{}{}\n", indent, any));
            }
            for peer in list {
                w.write(0, &format!("{}{}:\n", indent, label));
                let (ps, ns, ipb) = (get(peer, &["podSelector"]).filter(|v| !v.is_null()), get(peer, &["namespaceSelector"]).filter(|v| !v.is_null()), get(peer, &["ipBlock"]).filter(|v| !v.is_null()));
                match (ps, ns, ipb) {
                    (Some(p), Some(n), _) => {
                        w.write(1, &format!("{}NamespaceSelector: {}\n", indent, format_label_selector(Some(n))));
                        w.write(1, &format!("{}PodSelector: {}\n", indent, format_label_selector(Some(p))));
                    }
                    (Some(p), None, _) => w.write(1, &format!("{}PodSelector: {}\n", indent, format_label_selector(Some(p)))),
                    (None, Some(n), _) => w.write(1, &format!("{}NamespaceSelector: {}\n", indent, format_label_selector(Some(n)))),
                    (None, None, Some(b)) => {
                        w.write(1, &format!("{}IPBlock:\n", indent));
                        w.write(2, &format!("{}CIDR: {}\n", indent, gs(b, &["cidr"])));
                        let except: Vec<String> = ga(b, &["except"]).iter().map(scalar_text).collect();
                        w.write(2, &format!("{}Except: {}\n", indent, except.join(", ")));
                    }
                    _ => {}
                }
            }
            if i + 1 != rules.len() {
                w.write(0, &format!("{}----------\n", indent));
            }
        }
    }
    w.write(1, &format!("Policy Types: {}\n", if types.is_empty() { "<none>".to_string() } else { types.join(", ") }));
    w.finish()
}

/// `describeIngressClassV1`.
pub fn describe_ingress_class(ic: &Value, events: &[Value], now_ms: i64) -> String {
    let mut w = PrefixWriter::new();
    w.write(0, &format!("Name:\t{}\n", gs(ic, &["metadata", "name"])));
    print_labels_multiline(&mut w, "Labels", &gmap(ic, &["metadata", "labels"]));
    print_annotations_multiline(&mut w, "Annotations", &gmap(ic, &["metadata", "annotations"]));
    w.write(0, &format!("Controller:\t{}\n", gs(ic, &["spec", "controller"])));
    if let Some(p) = get(ic, &["spec", "parameters"]).filter(|v| !v.is_null()) {
        w.write(0, "Parameters:\n");
        if !gs(p, &["apiGroup"]).is_empty() {
            w.write(1, &format!("APIGroup:\t{}\n", gs(p, &["apiGroup"])));
        }
        w.write(1, &format!("Kind:\t{}\n", gs(p, &["kind"])));
        w.write(1, &format!("Name:\t{}\n", gs(p, &["name"])));
    }
    describe_events(&mut w, events, now_ms);
    w.finish()
}

/// `describeHorizontalPodAutoscalerV2`.
pub fn describe_horizontal_pod_autoscaler(hpa: &Value, events: &[Value], now_ms: i64) -> String {
    let mut w = PrefixWriter::new();
    w.write(0, &format!("Name:\t{}\n", gs(hpa, &["metadata", "name"])));
    w.write(0, &format!("Namespace:\t{}\n", gs(hpa, &["metadata", "namespace"])));
    print_labels_multiline(&mut w, "Labels", &gmap(hpa, &["metadata", "labels"]));
    print_annotations_multiline(&mut w, "Annotations", &gmap(hpa, &["metadata", "annotations"]));
    w.write(0, &format!("CreationTimestamp:\t{}\n", rfc1123z_field(hpa, &["metadata", "creationTimestamp"])));
    let kind = gs(hpa, &["spec", "scaleTargetRef", "kind"]);
    w.write(0, &format!("Reference:\t{}/{}\n", kind, gs(hpa, &["spec", "scaleTargetRef", "name"])));
    w.write(0, "Metrics:\t( current / target )\n");
    let statuses = get(hpa, &["status", "currentMetrics"]).and_then(Value::as_array).cloned().unwrap_or_default();
    let q = |v: Option<&Value>| v.and_then(crate::api::quantity::parse_quantity).map(|q| q.canonical());
    for (i, m) in get(hpa, &["spec", "metrics"]).and_then(Value::as_array).cloned().unwrap_or_default().iter().enumerate() {
        let ty = gs(m, &["type"]);
        let key = match ty {
            "Resource" => "resource",
            "ContainerResource" => "containerResource",
            "Pods" => "pods",
            "Object" => "object",
            "External" => "external",
            _ => {
                w.write(1, &format!("<unknown metric type {:?}>\n", ty));
                continue;
            }
        };
        let target = get(m, &[key, "target"]);
        let cur = statuses.get(i).and_then(|s| get(s, &[key, "current"]));
        match key {
            "resource" | "containerResource" => {
                let name = gs(m, &[key, "name"]);
                if key == "resource" {
                    w.write(1, &format!("resource {} on pods", name));
                } else {
                    w.write(1, &format!("resource {} of container \"{}\" on pods", name, gs(m, &[key, "container"])));
                }
                if let Some(avg) = target.and_then(|t| t.get("averageValue")).filter(|v| !v.is_null()) {
                    let current = cur.and_then(|c| q(c.get("averageValue"))).unwrap_or_else(|| "<unknown>".into());
                    w.write(0, &format!(":\t{} / {}\n", current, q(Some(avg)).unwrap_or_default()));
                } else {
                    let current = cur.and_then(|c| c.get("averageUtilization").and_then(Value::as_i64).map(|u| format!("{}% ({})", u, q(c.get("averageValue")).unwrap_or_default()))).unwrap_or_else(|| "<unknown>".into());
                    let t = target.and_then(|t| t.get("averageUtilization")).and_then(Value::as_i64).map(|u| format!("{}%", u)).unwrap_or_else(|| "<auto>".into());
                    w.write(1, &format!("(as a percentage of request):\t{} / {}\n", current, t));
                }
            }
            _ => {
                let metric = gs(m, &[key, "metric", "name"]);
                let label = match key {
                    "pods" => format!("\"{}\" on pods", metric),
                    "object" => format!("\"{}\" on {}/{}", metric, gs(m, &[key, "describedObject", "kind"]), gs(m, &[key, "describedObject", "name"])),
                    _ => format!("\"{}\" (target value)", metric),
                };
                let tv = target.and_then(|t| q(t.get("averageValue")).or_else(|| q(t.get("value")))).unwrap_or_default();
                let cv = cur.and_then(|c| q(c.get("averageValue")).or_else(|| q(c.get("value")))).unwrap_or_else(|| "<unknown>".into());
                w.write(1, &format!("{}:\t{} / {}\n", label, cv, tv));
            }
        }
    }
    let min = gi(hpa, &["spec", "minReplicas"]).map(|m| m.to_string()).unwrap_or_else(|| "<unset>".into());
    w.write(0, &format!("Min replicas:\t{}\n", min));
    w.write(0, &format!("Max replicas:\t{}\n", gi(hpa, &["spec", "maxReplicas"]).unwrap_or(0)));
    if let Some(b) = get(hpa, &["spec", "behavior"]).filter(|b| !b.is_null()) {
        w.write(0, "Behavior:\n");
        for (label, key) in [("Scale Up", "scaleUp"), ("Scale Down", "scaleDown")] {
            let Some(r) = b.get(key).filter(|r| !r.is_null()) else { continue };
            w.write(1, &format!("{}:\n", label));
            if let Some(s) = r.get("stabilizationWindowSeconds").and_then(Value::as_i64) {
                w.write(2, &format!("Stabilization Window: {} seconds\n", s));
            }
            let policies = r.get("policies").and_then(Value::as_array).cloned().unwrap_or_default();
            if !policies.is_empty() {
                w.write(2, &format!("Select Policy: {}\n", r.get("selectPolicy").and_then(Value::as_str).unwrap_or("Max")));
                w.write(2, "Policies:\n");
                for p in &policies {
                    w.write(3, &format!("- Type={}  Value={}  Period={} seconds\n", gs(p, &["type"]), gi(p, &["value"]).unwrap_or(0), gi(p, &["periodSeconds"]).unwrap_or(0)));
                }
            }
        }
    }
    w.write(0, &format!("{} pods:\t", kind));
    w.write(0, &format!("{} current / {} desired\n", gi(hpa, &["status", "currentReplicas"]).unwrap_or(0), gi(hpa, &["status", "desiredReplicas"]).unwrap_or(0)));
    let conds = get(hpa, &["status", "conditions"]).and_then(Value::as_array).cloned().unwrap_or_default();
    if !conds.is_empty() {
        w.write(0, "Conditions:\n");
        w.write(1, "Type\tStatus\tReason\tMessage\n");
        w.write(1, "----\t------\t------\t-------\n");
        for c in &conds {
            w.write(1, &format!("{}\t{}\t{}\t{}\n", gs(c, &["type"]), gs(c, &["status"]), gs(c, &["reason"]), gs(c, &["message"])));
        }
    }
    describe_events(&mut w, events, now_ms);
    w.finish()
}

/// `DescribeResourceQuotas`: every quota of a namespace (sorted by name) in one table, its
/// Name line sharing the table's columns; used amounts are printed as stored (no re-formatting).
fn describe_resource_quotas(w: &mut PrefixWriter, quotas: &[Value]) {
    if quotas.is_empty() {
        w.write(0, "No resource quota.\n");
        return;
    }
    let mut sorted: Vec<&Value> = quotas.iter().collect();
    sorted.csort_by(|a, b| gs(a, &["metadata", "name"]).cmp(gs(b, &["metadata", "name"])));
    w.write(0, "Resource Quotas\n");
    for q in sorted {
        w.write(1, &format!("Name:\t{}\n", gs(q, &["metadata", "name"])));
        let scopes = quota_scopes(q);
        if !scopes.is_empty() {
            w.write(1, &format!("Scopes:\t{}\n", scopes.join(", ")));
            for scope in &scopes {
                let help = help_text_for_resource_quota_scope(scope);
                if !help.is_empty() {
                    w.write(1, &format!("* {}\n", help));
                }
            }
        }
        w.write(1, "Resource\tUsed\tHard\n");
        w.write(1, "--------\t---\t---\n");
        let hard = crate::api::quota::list_of(get(q, &["status", "hard"]));
        let used = crate::api::quota::list_of(get(q, &["status", "used"]));
        for (name, h) in &hard {
            let u = used.get(name).map(|u| u.to_string()).unwrap_or_else(|| "0".into());
            w.write(1, &format!("{}\t{}\t{}\n", name, u, h));
        }
    }
}

/// `describeLimitRangeSpec` for one LimitRange: a row per (limit, resource). Upstream walks a Go
/// map, so its row order is random; here resources are sorted.
fn describe_limit_range_spec(w: &mut PrefixWriter, lr: &Value, prefix: &str) {
    const FIELDS: [&str; 5] = ["min", "max", "defaultRequest", "default", "maxLimitRequestRatio"];
    for item in ga(lr, &["spec", "limits"]) {
        let mut names: Vec<String> = FIELDS.iter().flat_map(|f| gmap(item, &[*f]).into_iter().map(|(k, _)| k)).collect();
        names.csort();
        names.dedup();
        for k in names {
            let cell = |f: &str| get(item, &[f, k.as_str()]).map(quantity_text).unwrap_or_else(|| "-".into());
            w.write(
                0,
                &format!(
                    "{}{}\t{}\t{}\t{}\t{}\t{}\t{}\n",
                    prefix,
                    gs(item, &["type"]),
                    k,
                    cell("min"),
                    cell("max"),
                    cell("defaultRequest"),
                    cell("default"),
                    cell("maxLimitRequestRatio")
                ),
            );
        }
    }
}

/// `DescribeLimitRanges`.
fn describe_limit_ranges(w: &mut PrefixWriter, limit_ranges: &[Value]) {
    if limit_ranges.is_empty() {
        w.write(0, "No LimitRange resource.\n");
        return;
    }
    w.write(0, "Resource Limits\n Type\tResource\tMin\tMax\tDefault Request\tDefault Limit\tMax Limit/Request Ratio\n");
    w.write(0, " ----\t--------\t---\t---\t---------------\t-------------\t-----------------------\n");
    for lr in limit_ranges {
        describe_limit_range_spec(w, lr, " ");
    }
}

/// `NamespaceDescriber` / `describeNamespace` (no events, as upstream). kubesim serves no
/// LimitRanges, so the caller passes none and the section reads `No LimitRange resource.`, as
/// on a real cluster without any.
pub fn describe_namespace(ns: &Value, quotas: &[Value], limit_ranges: &[Value]) -> String {
    let mut w = PrefixWriter::new();
    w.write(0, &format!("Name:\t{}\n", gs(ns, &["metadata", "name"])));
    print_labels_multiline(&mut w, "Labels", &gmap(ns, &["metadata", "labels"]));
    print_annotations_multiline(&mut w, "Annotations", &gmap(ns, &["metadata", "annotations"]));
    w.write(0, &format!("Status:\t{}\n", gs(ns, &["status", "phase"])));
    let conditions = ga(ns, &["status", "conditions"]);
    if !conditions.is_empty() {
        w.write(0, "Conditions:\n");
        w.write(1, "Type\tStatus\tLastTransitionTime\tReason\tMessage\n");
        w.write(1, "----\t------\t------------------\t------\t-------\n");
        for c in conditions {
            w.write(
                1,
                &format!(
                    "{}\t{}\t{}\t{}\t{}\n",
                    gs(c, &["type"]),
                    gs(c, &["status"]),
                    rfc1123z_field(c, &["lastTransitionTime"]),
                    gs(c, &["reason"]),
                    gs(c, &["message"])
                ),
            );
        }
    }
    w.write(0, "\n");
    describe_resource_quotas(&mut w, quotas);
    w.write(0, "\n");
    describe_limit_ranges(&mut w, limit_ranges);
    w.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kubectl::printers::tests::{event, node, now, pod, running_status, seed_deployment, seed_replica_set, waiting_status};
    use serde_json::json;

    struct Case {
        name: &'static str,
        got: String,
        want: &'static str,
    }

    fn check(cases: Vec<Case>) {
        for c in cases {
            if std::env::var("DUMP").is_ok() {
                println!("=== {}\n{}=== end", c.name, c.got);
                continue;
            }
            assert_eq!(c.got, c.want, "case {}:\n{}", c.name, c.got);
        }
    }

    fn scaling_event(name: &str, message: &str, at: &str) -> Value {
        let mut e = event(name, "Deployment", "nginx", "ScalingReplicaSet", message, at);
        e["source"] = json!({"component": "deployment-controller"});
        e
    }

    #[test]
    fn describe_deployment_cases() {
        // a rollout in progress: the old RS scaled down to 1, the new one up to 3
        let mut rolling = seed_deployment();
        rolling["spec"]["template"]["spec"]["containers"][0]["image"] = json!("nginx:1.28");
        rolling["metadata"]["annotations"]["deployment.kubernetes.io/revision"] = json!("2");
        rolling["status"] = json!({"replicas": 4, "updatedReplicas": 3, "readyReplicas": 3, "availableReplicas": 3, "unavailableReplicas": 1,
            "conditions": [{"type": "Available", "status": "True", "reason": "MinimumReplicasAvailable"}, {"type": "Progressing", "status": "True", "reason": "ReplicaSetUpdated"}]});
        let mut old = seed_replica_set();
        old["spec"]["replicas"] = json!(1);
        old["status"]["replicas"] = json!(1);
        let mut new = seed_replica_set();
        new["metadata"]["name"] = json!("nginx-5d9c8b7f6");
        new["metadata"]["creationTimestamp"] = json!("2026-01-01T00:08:00Z");
        new["spec"]["template"] = rolling["spec"]["template"].clone();
        new["spec"]["template"]["metadata"]["labels"]["pod-template-hash"] = json!("5d9c8b7f6");
        let mut repeated = scaling_event("nginx.188b3", "Scaled down replica set nginx-7c79c4bf97 from 3 to 1", "2026-01-01T00:09:00Z");
        repeated["firstTimestamp"] = json!("2026-01-01T00:08:30Z");
        repeated["count"] = json!(2);
        let events = vec![
            scaling_event("nginx.188b2", "Scaled up replica set nginx-5d9c8b7f6 from 0 to 3", "2026-01-01T00:08:00Z"),
            repeated,
            scaling_event("nginx.188a0", "Scaled up replica set nginx-7c79c4bf97 from 0 to 3", "2026-01-01T00:00:00Z"),
        ];
        check(vec![
            Case {
                name: "seed deployment",
                got: describe_deployment(
                    &seed_deployment(),
                    &[seed_replica_set()],
                    &[scaling_event("nginx.188a0", "Scaled up replica set nginx-7c79c4bf97 from 0 to 3", "2026-01-01T00:00:00Z")],
                    now(),
                ),
                want: "Name:                   nginx\n\
                Namespace:              default\n\
                CreationTimestamp:      Thu, 01 Jan 2026 00:00:00 +0000\n\
                Labels:                 app=nginx\n\
                Annotations:            deployment.kubernetes.io/revision: 1\n\
                Selector:               app=nginx\n\
                Replicas:               3 desired | 3 updated | 3 total | 3 available | 0 unavailable\n\
                StrategyType:           RollingUpdate\n\
                MinReadySeconds:        0\n\
                RollingUpdateStrategy:  25% max unavailable, 25% max surge\n\
                Pod Template:\n\
                \x20 Labels:  app=nginx\n\
                \x20 Containers:\n\
                \x20  nginx:\n\
                \x20   Image:         nginx:1.27\n\
                \x20   Port:          80/TCP\n\
                \x20   Host Port:     0/TCP\n\
                \x20   Environment:   <none>\n\
                \x20   Mounts:        <none>\n\
                \x20 Volumes:         <none>\n\
                \x20 Node-Selectors:  <none>\n\
                \x20 Tolerations:     <none>\n\
                Conditions:\n\
                \x20 Type           Status  Reason\n\
                \x20 ----           ------  ------\n\
                \x20 Available      True    MinimumReplicasAvailable\n\
                \x20 Progressing    True    NewReplicaSetAvailable\n\
                OldReplicaSets:  <none>\n\
                NewReplicaSet:   nginx-7c79c4bf97 (3/3 replicas created)\n\
                Events:\n\
                \x20 Type    Reason             Age   From                   Message\n\
                \x20 ----    ------             ----  ----                   -------\n\
                \x20 Normal  ScalingReplicaSet  10m   deployment-controller  Scaled up replica set nginx-7c79c4bf97 from 0 to 3\n",
            },
            Case { name: "rollout in progress, events sorted by time", got: describe_deployment(&rolling, &[new, old], &events, now()), want: "Name:                   nginx\n\
                Namespace:              default\n\
                CreationTimestamp:      Thu, 01 Jan 2026 00:00:00 +0000\n\
                Labels:                 app=nginx\n\
                Annotations:            deployment.kubernetes.io/revision: 2\n\
                Selector:               app=nginx\n\
                Replicas:               3 desired | 3 updated | 4 total | 3 available | 1 unavailable\n\
                StrategyType:           RollingUpdate\n\
                MinReadySeconds:        0\n\
                RollingUpdateStrategy:  25% max unavailable, 25% max surge\n\
                Pod Template:\n\
                \x20 Labels:  app=nginx\n\
                \x20 Containers:\n\
                \x20  nginx:\n\
                \x20   Image:         nginx:1.28\n\
                \x20   Port:          80/TCP\n\
                \x20   Host Port:     0/TCP\n\
                \x20   Environment:   <none>\n\
                \x20   Mounts:        <none>\n\
                \x20 Volumes:         <none>\n\
                \x20 Node-Selectors:  <none>\n\
                \x20 Tolerations:     <none>\n\
                Conditions:\n\
                \x20 Type           Status  Reason\n\
                \x20 ----           ------  ------\n\
                \x20 Available      True    MinimumReplicasAvailable\n\
                \x20 Progressing    True    ReplicaSetUpdated\n\
                OldReplicaSets:  nginx-7c79c4bf97 (1/1 replicas created)\n\
                NewReplicaSet:   nginx-5d9c8b7f6 (3/3 replicas created)\n\
                Events:\n\
                \x20 Type    Reason             Age                From                   Message\n\
                \x20 ----    ------             ----               ----                   -------\n\
                \x20 Normal  ScalingReplicaSet  10m                deployment-controller  Scaled up replica set nginx-7c79c4bf97 from 0 to 3\n\
                \x20 Normal  ScalingReplicaSet  2m                 deployment-controller  Scaled up replica set nginx-5d9c8b7f6 from 0 to 3\n\
                \x20 Normal  ScalingReplicaSet  60s (x2 over 90s)  deployment-controller  Scaled down replica set nginx-7c79c4bf97 from 3 to 1\n" },
            Case { name: "no replica sets, no events", got: describe_deployment(&seed_deployment(), &[], &[], now()), want: "Name:                   nginx\n\
                Namespace:              default\n\
                CreationTimestamp:      Thu, 01 Jan 2026 00:00:00 +0000\n\
                Labels:                 app=nginx\n\
                Annotations:            deployment.kubernetes.io/revision: 1\n\
                Selector:               app=nginx\n\
                Replicas:               3 desired | 3 updated | 3 total | 3 available | 0 unavailable\n\
                StrategyType:           RollingUpdate\n\
                MinReadySeconds:        0\n\
                RollingUpdateStrategy:  25% max unavailable, 25% max surge\n\
                Pod Template:\n\
                \x20 Labels:  app=nginx\n\
                \x20 Containers:\n\
                \x20  nginx:\n\
                \x20   Image:         nginx:1.27\n\
                \x20   Port:          80/TCP\n\
                \x20   Host Port:     0/TCP\n\
                \x20   Environment:   <none>\n\
                \x20   Mounts:        <none>\n\
                \x20 Volumes:         <none>\n\
                \x20 Node-Selectors:  <none>\n\
                \x20 Tolerations:     <none>\n\
                Conditions:\n\
                \x20 Type          Status  Reason\n\
                \x20 ----          ------  ------\n\
                \x20 Available     True    MinimumReplicasAvailable\n\
                \x20 Progressing   True    NewReplicaSetAvailable\n\
                Events:         <none>\n" },
        ]);
    }

    #[test]
    fn describe_replica_set_cases() {
        let mut pending = pod("nginx-7c79c4bf97-b2lzm", waiting_status("ContainerCreating"));
        pending["metadata"]["uid"] = json!("pending-uid");
        let mut orphan = pod("other", running_status());
        orphan["metadata"]["ownerReferences"] = json!([]);
        let mut e = event("nginx-7c79c4bf97.188a0", "ReplicaSet", "nginx-7c79c4bf97", "SuccessfulCreate", "Created pod: nginx-7c79c4bf97-x8k2q", "2026-01-01T00:00:01Z");
        e["source"] = json!({"component": "replicaset-controller"});
        check(vec![Case {
            name: "seed replica set, one pod still creating, orphan ignored",
            got: describe_replica_set(&seed_replica_set(), &[pod("nginx-7c79c4bf97-x8k2q", running_status()), pending, orphan], &[e], now()),
            want: "Name:           nginx-7c79c4bf97\n\
                Namespace:      default\n\
                Selector:       app=nginx,pod-template-hash=7c79c4bf97\n\
                Labels:         app=nginx\n\
                \x20               pod-template-hash=7c79c4bf97\n\
                Annotations:    deployment.kubernetes.io/desired-replicas: 3\n\
                \x20               deployment.kubernetes.io/max-replicas: 4\n\
                \x20               deployment.kubernetes.io/revision: 1\n\
                Controlled By:  Deployment/nginx\n\
                Replicas:       3 current / 3 desired\n\
                Pods Status:    1 Running / 1 Waiting / 0 Succeeded / 0 Failed\n\
                Pod Template:\n\
                \x20 Labels:  app=nginx\n\
                \x20          pod-template-hash=7c79c4bf97\n\
                \x20 Containers:\n\
                \x20  nginx:\n\
                \x20   Image:         nginx:1.27\n\
                \x20   Port:          80/TCP\n\
                \x20   Host Port:     0/TCP\n\
                \x20   Environment:   <none>\n\
                \x20   Mounts:        <none>\n\
                \x20 Volumes:         <none>\n\
                \x20 Node-Selectors:  <none>\n\
                \x20 Tolerations:     <none>\n\
                Events:\n\
                \x20 Type    Reason            Age    From                   Message\n\
                \x20 ----    ------            ----   ----                   -------\n\
                \x20 Normal  SuccessfulCreate  9m59s  replicaset-controller  Created pod: nginx-7c79c4bf97-x8k2q\n",
        }]);
    }

    #[test]
    fn describe_pod_cases() {
        let mut running = pod("nginx-7c79c4bf97-x8k2q", running_status());
        running["spec"]["containers"][0]["resources"] = json!({"requests": {"cpu": "100m", "memory": "128Mi"}, "limits": {"memory": "256Mi"}});
        running["spec"]["containers"][0]["volumeMounts"] = json!([{"name": "kube-api-access-abcde", "mountPath": "/var/run/secrets/kubernetes.io/serviceaccount", "readOnly": true}]);
        running["spec"]["containers"][0]["env"] = json!([{"name": "MODE", "value": "prod"}, {"name": "POD_NAME", "valueFrom": {"fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.name"}}}]);
        running["spec"]["containers"][0]["readinessProbe"] = json!({"httpGet": {"path": "/", "port": 80, "scheme": "HTTP"}, "timeoutSeconds": 1, "periodSeconds": 10, "successThreshold": 1, "failureThreshold": 3});
        running["spec"]["tolerations"] = json!([{"key": "node.kubernetes.io/unreachable", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 300},
                                                {"key": "node.kubernetes.io/not-ready", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 300}]);
        running["spec"]["volumes"] = json!([{"name": "kube-api-access-abcde", "projected": {"sources": [{"serviceAccountToken": {"expirationSeconds": 3607, "path": "token"}},
            {"configMap": {"name": "kube-root-ca.crt", "items": [{"key": "ca.crt", "path": "ca.crt"}]}},
            {"downwardAPI": {"items": [{"path": "namespace", "fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.namespace"}}]}}]}}]);
        running["status"]["containerStatuses"][0]["containerID"] = json!("containerd://4f2a");
        running["status"]["containerStatuses"][0]["imageID"] = json!("docker.io/library/nginx@sha256:9b1c");
        running["status"]["qosClass"] = json!("Burstable");
        let mut scheduled = event("nginx-7c79c4bf97-x8k2q.188a1", "Pod", "nginx-7c79c4bf97-x8k2q", "Scheduled", "Successfully assigned default/nginx-7c79c4bf97-x8k2q to node-1", "");
        let m = scheduled.as_object_mut().unwrap();
        m.remove("firstTimestamp");
        m.remove("lastTimestamp");
        m.remove("source");
        m.insert("eventTime".into(), json!("2026-01-01T00:00:01.000000Z"));
        m.insert("reportingComponent".into(), json!("default-scheduler"));
        let pod_events = vec![
            event("nginx-7c79c4bf97-x8k2q.188a3", "Pod", "nginx-7c79c4bf97-x8k2q", "Pulled", "Container image \"nginx:1.27\" already present on machine", "2026-01-01T00:00:03Z"),
            event("nginx-7c79c4bf97-x8k2q.188a4", "Pod", "nginx-7c79c4bf97-x8k2q", "Created", "Created container: nginx", "2026-01-01T00:00:04Z"),
            event("nginx-7c79c4bf97-x8k2q.188a5", "Pod", "nginx-7c79c4bf97-x8k2q", "Started", "Started container nginx", "2026-01-01T00:00:05Z"),
            scheduled,
        ];

        let mut pull = pod("web-6d4b75cb6d-h8x7p", waiting_status("ImagePullBackOff"));
        pull["spec"]["containers"][0]["image"] = json!("nginx:1.99");
        let mut failed = event("web-6d4b75cb6d-h8x7p.188a6", "Pod", "web-6d4b75cb6d-h8x7p", "Failed", "Error: ImagePullBackOff", "2026-01-01T00:09:40Z");
        failed["type"] = json!("Warning");
        failed["firstTimestamp"] = json!("2026-01-01T00:00:20Z");
        failed["count"] = json!(40);
        let pull_events = vec![failed];

        let mut crash = pod("api-0", waiting_status("CrashLoopBackOff"));
        crash["status"]["phase"] = json!("Running");
        crash["status"]["podIP"] = json!("10.244.2.7");
        crash["status"]["podIPs"] = json!([{"ip": "10.244.2.7"}]);
        crash["status"]["containerStatuses"][0]["restartCount"] = json!(5);
        crash["status"]["containerStatuses"][0]["lastState"] =
            json!({"terminated": {"exitCode": 1, "reason": "Error", "startedAt": "2026-01-01T00:09:20Z", "finishedAt": "2026-01-01T00:09:30Z"}});
        crash["metadata"]["deletionTimestamp"] = json!("2026-01-01T00:10:30Z");
        crash["metadata"]["deletionGracePeriodSeconds"] = json!(30);
        crash["metadata"]["ownerReferences"] = json!([]);

        let mut pending = pod("big-5d8f7c9b4-abcde", json!({"phase": "Pending", "conditions": [{"type": "PodScheduled", "status": "False", "reason": "Unschedulable"}]}));
        pending["spec"].as_object_mut().unwrap().remove("nodeName");
        pending["spec"]["containers"][0]["resources"] = json!({"requests": {"cpu": "8"}});
        let mut fs = event("big-5d8f7c9b4-abcde.188a1", "Pod", "big-5d8f7c9b4-abcde", "FailedScheduling", "0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.", "");
        let m = fs.as_object_mut().unwrap();
        m.remove("firstTimestamp");
        m.remove("lastTimestamp");
        m.remove("source");
        m.insert("eventTime".into(), json!("2026-01-01T00:00:01.000000Z"));
        m.insert("reportingComponent".into(), json!("default-scheduler"));
        m.insert("type".into(), json!("Warning"));
        m.insert("series".into(), json!({"count": 4, "lastObservedTime": "2026-01-01T00:05:01.000000Z"}));

        check(vec![
            Case { name: "running pod of the seed deployment", got: describe_pod(&running, &pod_events, now()), want: "Name:             nginx-7c79c4bf97-x8k2q\n\
                Namespace:        default\n\
                Priority:         0\n\
                Service Account:  default\n\
                Node:             node-1/10.0.0.11\n\
                Start Time:       Thu, 01 Jan 2026 00:00:01 +0000\n\
                Labels:           app=nginx\n\
                \x20                 pod-template-hash=7c79c4bf97\n\
                Annotations:      <none>\n\
                Status:           Running\n\
                IP:               10.244.1.5\n\
                IPs:\n\
                \x20 IP:           10.244.1.5\n\
                Controlled By:  ReplicaSet/nginx-7c79c4bf97\n\
                Containers:\n\
                \x20 nginx:\n\
                \x20   Container ID:   containerd://4f2a\n\
                \x20   Image:          nginx:1.27\n\
                \x20   Image ID:       docker.io/library/nginx@sha256:9b1c\n\
                \x20   Port:           80/TCP\n\
                \x20   Host Port:      0/TCP\n\
                \x20   State:          Running\n\
                \x20     Started:      Thu, 01 Jan 2026 00:00:05 +0000\n\
                \x20   Ready:          True\n\
                \x20   Restart Count:  0\n\
                \x20   Limits:\n\
                \x20     memory:  256Mi\n\
                \x20   Requests:\n\
                \x20     cpu:      100m\n\
                \x20     memory:   128Mi\n\
                \x20   Readiness:  http-get http://:80/ delay=0s timeout=1s period=10s #success=1 #failure=3\n\
                \x20   Environment:\n\
                \x20     MODE:      prod\n\
                \x20     POD_NAME:  nginx-7c79c4bf97-x8k2q (v1:metadata.name)\n\
                \x20   Mounts:\n\
                \x20     /var/run/secrets/kubernetes.io/serviceaccount from kube-api-access-abcde (ro)\n\
                Conditions:\n\
                \x20 Type              Status\n\
                \x20 Initialized       True \n\
                \x20 Ready             True \n\
                \x20 ContainersReady   True \n\
                \x20 PodScheduled      True \n\
                Volumes:\n\
                \x20 kube-api-access-abcde:\n\
                \x20   Type:                    Projected (a volume that contains injected data from multiple sources)\n\
                \x20   TokenExpirationSeconds:  3607\n\
                \x20   ConfigMapName:           kube-root-ca.crt\n\
                \x20   Optional:                false\n\
                \x20   DownwardAPI:             true\n\
                QoS Class:                   Burstable\n\
                Node-Selectors:              <none>\n\
                Tolerations:                 node.kubernetes.io/not-ready:NoExecute op=Exists for 300s\n\
                \x20                            node.kubernetes.io/unreachable:NoExecute op=Exists for 300s\n\
                Events:\n\
                \x20 Type    Reason     Age    From               Message\n\
                \x20 ----    ------     ----   ----               -------\n\
                \x20 Normal  Scheduled  9m59s  default-scheduler  Successfully assigned default/nginx-7c79c4bf97-x8k2q to node-1\n\
                \x20 Normal  Pulled     9m57s  kubelet            Container image \"nginx:1.27\" already present on machine\n\
                \x20 Normal  Created    9m56s  kubelet            Created container: nginx\n\
                \x20 Normal  Started    9m55s  kubelet            Started container nginx\n" },
            Case { name: "image pull back-off", got: describe_pod(&pull, &pull_events, now()), want: "Name:             web-6d4b75cb6d-h8x7p\n\
                Namespace:        default\n\
                Priority:         0\n\
                Service Account:  default\n\
                Node:             node-1/10.0.0.11\n\
                Start Time:       Thu, 01 Jan 2026 00:00:01 +0000\n\
                Labels:           app=nginx\n\
                \x20                 pod-template-hash=7c79c4bf97\n\
                Annotations:      <none>\n\
                Status:           Pending\n\
                IP:               \n\
                IPs:              <none>\n\
                Controlled By:    ReplicaSet/nginx-7c79c4bf97\n\
                Containers:\n\
                \x20 nginx:\n\
                \x20   Container ID:   \n\
                \x20   Image:          nginx:1.99\n\
                \x20   Image ID:       \n\
                \x20   Port:           80/TCP\n\
                \x20   Host Port:      0/TCP\n\
                \x20   State:          Waiting\n\
                \x20     Reason:       ImagePullBackOff\n\
                \x20   Ready:          False\n\
                \x20   Restart Count:  0\n\
                \x20   Environment:    <none>\n\
                \x20   Mounts:         <none>\n\
                Conditions:\n\
                \x20 Type           Status\n\
                \x20 Initialized    True \n\
                \x20 Ready          False \n\
                \x20 PodScheduled   True \n\
                Volumes:         <none>\n\
                QoS Class:       BestEffort\n\
                Node-Selectors:  <none>\n\
                Tolerations:     <none>\n\
                Events:\n\
                \x20 Type     Reason  Age                   From     Message\n\
                \x20 ----     ------  ----                  ----     -------\n\
                \x20 Warning  Failed  20s (x40 over 9m40s)  kubelet  Error: ImagePullBackOff\n" },
            Case { name: "terminating crash-looping pod", got: describe_pod(&crash, &[], now()), want: "Name:                      api-0\n\
                Namespace:                 default\n\
                Priority:                  0\n\
                Service Account:           default\n\
                Node:                      node-1/10.0.0.11\n\
                Start Time:                Thu, 01 Jan 2026 00:00:01 +0000\n\
                Labels:                    app=nginx\n\
                \x20                          pod-template-hash=7c79c4bf97\n\
                Annotations:               <none>\n\
                Status:                    Terminating (lasts <invalid>)\n\
                Termination Grace Period:  30s\n\
                IP:                        10.244.2.7\n\
                IPs:\n\
                \x20 IP:  10.244.2.7\n\
                Containers:\n\
                \x20 nginx:\n\
                \x20   Container ID:   \n\
                \x20   Image:          nginx:1.27\n\
                \x20   Image ID:       \n\
                \x20   Port:           80/TCP\n\
                \x20   Host Port:      0/TCP\n\
                \x20   State:          Waiting\n\
                \x20     Reason:       CrashLoopBackOff\n\
                \x20   Last State:     Terminated\n\
                \x20     Reason:       Error\n\
                \x20     Exit Code:    1\n\
                \x20     Started:      Thu, 01 Jan 2026 00:09:20 +0000\n\
                \x20     Finished:     Thu, 01 Jan 2026 00:09:30 +0000\n\
                \x20   Ready:          False\n\
                \x20   Restart Count:  5\n\
                \x20   Environment:    <none>\n\
                \x20   Mounts:         <none>\n\
                Conditions:\n\
                \x20 Type           Status\n\
                \x20 Initialized    True \n\
                \x20 Ready          False \n\
                \x20 PodScheduled   True \n\
                Volumes:         <none>\n\
                QoS Class:       BestEffort\n\
                Node-Selectors:  <none>\n\
                Tolerations:     <none>\n\
                Events:          <none>\n" },
            Case { name: "unschedulable pending pod", got: describe_pod(&pending, &[fs], now()), want: "Name:             big-5d8f7c9b4-abcde\n\
                Namespace:        default\n\
                Priority:         0\n\
                Service Account:  default\n\
                Node:             <none>\n\
                Labels:           app=nginx\n\
                \x20                 pod-template-hash=7c79c4bf97\n\
                Annotations:      <none>\n\
                Status:           Pending\n\
                IP:               \n\
                IPs:              <none>\n\
                Controlled By:    ReplicaSet/nginx-7c79c4bf97\n\
                Containers:\n\
                \x20 nginx:\n\
                \x20   Image:      nginx:1.27\n\
                \x20   Port:       80/TCP\n\
                \x20   Host Port:  0/TCP\n\
                \x20   Requests:\n\
                \x20     cpu:        8\n\
                \x20   Environment:  <none>\n\
                \x20   Mounts:       <none>\n\
                Conditions:\n\
                \x20 Type           Status\n\
                \x20 PodScheduled   False \n\
                Volumes:         <none>\n\
                QoS Class:       Burstable\n\
                Node-Selectors:  <none>\n\
                Tolerations:     <none>\n\
                Events:\n\
                \x20 Type     Reason            Age                    From               Message\n\
                \x20 ----     ------            ----                   ----               -------\n\
                \x20 Warning  FailedScheduling  4m59s (x4 over 9m59s)  default-scheduler  0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.\n" },
        ]);
    }

    #[test]
    fn describe_node_cases() {
        let mut n = node("node-1", "True", true, json!({"kubernetes.io/hostname": "node-1", "kubernetes.io/os": "linux", "node-role.kubernetes.io/worker": ""}));
        n["metadata"]["annotations"] = json!({"node.alpha.kubernetes.io/ttl": "0", "volumes.kubernetes.io/controller-managed-attach-detach": "true"});
        n["spec"]["taints"] = json!([{"key": "node.kubernetes.io/unschedulable", "effect": "NoSchedule"}, {"key": "dedicated", "value": "gpu", "effect": "NoExecute"}]);
        n["spec"]["podCIDR"] = json!("10.244.1.0/24");
        n["spec"]["podCIDRs"] = json!(["10.244.1.0/24"]);
        n["status"]["conditions"] = json!([
            {"type": "MemoryPressure", "status": "False", "lastHeartbeatTime": "2026-01-01T00:09:30Z", "lastTransitionTime": "2026-01-01T00:00:00Z", "reason": "KubeletHasSufficientMemory", "message": "kubelet has sufficient memory available"},
            {"type": "Ready", "status": "True", "lastHeartbeatTime": "2026-01-01T00:09:30Z", "lastTransitionTime": "2026-01-01T00:00:10Z", "reason": "KubeletReady", "message": "kubelet is posting ready status"}]);
        n["status"]["capacity"] = json!({"cpu": "2", "ephemeral-storage": "61202244Ki", "hugepages-2Mi": "0", "memory": "4015428Ki", "pods": "110", "example.com/gpu": "1"});
        n["status"]["allocatable"] = json!({"cpu": "1900m", "ephemeral-storage": "56403987978", "hugepages-2Mi": "0", "memory": "3913028Ki", "pods": "110", "example.com/gpu": "1"});
        n["status"]["nodeInfo"] = json!({"machineID": "a1", "systemUUID": "b2", "bootID": "c3", "kernelVersion": "6.8.0-45-generic", "osImage": "Ubuntu 24.04.1 LTS",
            "operatingSystem": "linux", "architecture": "amd64", "containerRuntimeVersion": "containerd://1.7.22", "kubeletVersion": "v1.34.0"});
        let mut p1 = pod("nginx-7c79c4bf97-x8k2q", running_status());
        p1["spec"]["containers"][0]["resources"] = json!({"requests": {"cpu": "100m", "memory": "128Mi"}, "limits": {"memory": "256Mi"}});
        let mut p2 = pod("coredns-66bc5c9577-8kq2w", running_status());
        p2["metadata"]["namespace"] = json!("kube-system");
        p2["spec"]["containers"][0]["resources"] = json!({"requests": {"cpu": "100m", "memory": "70Mi"}, "limits": {"memory": "170Mi"}});
        p2["spec"]["initContainers"] = json!([{"name": "init", "image": "busybox", "resources": {"requests": {"cpu": "500m"}}}]);
        let mut e = event("node-1.188c0", "Node", "node-1", "NodeNotSchedulable", "Node node-1 status is now: NodeNotSchedulable", "2026-01-01T00:05:00Z");
        e["metadata"]["namespace"] = json!("default");
        check(vec![
            Case { name: "cordoned worker with two pods", got: describe_node(&n, &[p1, p2], &[e], now()), want: "Name:               node-1\n\
                Roles:              worker\n\
                Labels:             kubernetes.io/hostname=node-1\n\
                \x20                   kubernetes.io/os=linux\n\
                \x20                   node-role.kubernetes.io/worker=\n\
                Annotations:        node.alpha.kubernetes.io/ttl: 0\n\
                \x20                   volumes.kubernetes.io/controller-managed-attach-detach: true\n\
                CreationTimestamp:  Thu, 01 Jan 2026 00:00:00 +0000\n\
                Taints:             dedicated=gpu:NoExecute\n\
                \x20                   node.kubernetes.io/unschedulable:NoSchedule\n\
                Unschedulable:      true\n\
                Lease:\n\
                \x20 HolderIdentity:  node-1\n\
                \x20 AcquireTime:     <unset>\n\
                \x20 RenewTime:       Thu, 01 Jan 2026 00:09:30 +0000\n\
                Conditions:\n\
                \x20 Type             Status  LastHeartbeatTime                 LastTransitionTime                Reason                       Message\n\
                \x20 ----             ------  -----------------                 ------------------                ------                       -------\n\
                \x20 MemoryPressure   False   Thu, 01 Jan 2026 00:09:30 +0000   Thu, 01 Jan 2026 00:00:00 +0000   KubeletHasSufficientMemory   kubelet has sufficient memory available\n\
                \x20 Ready            True    Thu, 01 Jan 2026 00:09:30 +0000   Thu, 01 Jan 2026 00:00:10 +0000   KubeletReady                 kubelet is posting ready status\n\
                Addresses:\n\
                \x20 InternalIP:  10.0.0.11\n\
                \x20 Hostname:    node-1\n\
                Capacity:\n\
                \x20 cpu:                2\n\
                \x20 ephemeral-storage:  61202244Ki\n\
                \x20 example.com/gpu:    1\n\
                \x20 hugepages-2Mi:      0\n\
                \x20 memory:             4015428Ki\n\
                \x20 pods:               110\n\
                Allocatable:\n\
                \x20 cpu:                1900m\n\
                \x20 ephemeral-storage:  56403987978\n\
                \x20 example.com/gpu:    1\n\
                \x20 hugepages-2Mi:      0\n\
                \x20 memory:             3913028Ki\n\
                \x20 pods:               110\n\
                System Info:\n\
                \x20 Machine ID:                 a1\n\
                \x20 System UUID:                b2\n\
                \x20 Boot ID:                    c3\n\
                \x20 Kernel Version:             6.8.0-45-generic\n\
                \x20 OS Image:                   Ubuntu 24.04.1 LTS\n\
                \x20 Operating System:           linux\n\
                \x20 Architecture:               amd64\n\
                \x20 Container Runtime Version:  containerd://1.7.22\n\
                \x20 Kubelet Version:            v1.34.0\n\
                \x20 Kube-Proxy Version:         \n\
                PodCIDR:                      10.244.1.0/24\n\
                PodCIDRs:                     10.244.1.0/24\n\
                Non-terminated Pods:          (2 in total)\n\
                \x20 Namespace                   Name                        CPU Requests  CPU Limits  Memory Requests  Memory Limits  Age\n\
                \x20 ---------                   ----                        ------------  ----------  ---------------  -------------  ---\n\
                \x20 default                     nginx-7c79c4bf97-x8k2q      100m (5%)     0 (0%)      128Mi (3%)       256Mi (6%)     9m59s\n\
                \x20 kube-system                 coredns-66bc5c9577-8kq2w    500m (26%)    0 (0%)      70Mi (1%)        170Mi (4%)     9m59s\n\
                Allocated resources:\n\
                \x20 (Total limits may be over 100 percent, i.e., overcommitted.)\n\
                \x20 Resource           Requests    Limits\n\
                \x20 --------           --------    ------\n\
                \x20 cpu                600m (31%)  0 (0%)\n\
                \x20 memory             198Mi (5%)  426Mi (11%)\n\
                \x20 ephemeral-storage  0 (0%)      0 (0%)\n\
                \x20 hugepages-2Mi      0 (0%)      0 (0%)\n\
                \x20 example.com/gpu    0           0\n\
                Events:\n\
                \x20 Type    Reason              Age   From     Message\n\
                \x20 ----    ------              ----  ----     -------\n\
                \x20 Normal  NodeNotSchedulable  5m    kubelet  Node node-1 status is now: NodeNotSchedulable\n" },
            Case { name: "bare node", got: describe_node(&node("node-2", "False", false, json!({})), &[], &[], now()), want: "Name:               node-2\n\
                Roles:              <none>\n\
                Labels:             <none>\n\
                Annotations:        <none>\n\
                CreationTimestamp:  Thu, 01 Jan 2026 00:00:00 +0000\n\
                Taints:             <none>\n\
                Unschedulable:      false\n\
                Lease:\n\
                \x20 HolderIdentity:  node-2\n\
                \x20 AcquireTime:     <unset>\n\
                \x20 RenewTime:       <unset>\n\
                Conditions:\n\
                \x20 Type             Status  LastHeartbeatTime                 LastTransitionTime                Reason  Message\n\
                \x20 ----             ------  -----------------                 ------------------                ------  -------\n\
                \x20 MemoryPressure   False   Mon, 01 Jan 0001 00:00:00 +0000   Mon, 01 Jan 0001 00:00:00 +0000           \n\
                \x20 Ready            False   Mon, 01 Jan 0001 00:00:00 +0000   Mon, 01 Jan 0001 00:00:00 +0000           \n\
                Addresses:\n\
                \x20 InternalIP:  10.0.0.11\n\
                \x20 Hostname:    node-2\n\
                System Info:\n\
                \x20 Machine ID:                 \n\
                \x20 System UUID:                \n\
                \x20 Boot ID:                    \n\
                \x20 Kernel Version:             6.8.0-45-generic\n\
                \x20 OS Image:                   Ubuntu 24.04.1 LTS\n\
                \x20 Operating System:           \n\
                \x20 Architecture:               \n\
                \x20 Container Runtime Version:  containerd://1.7.22\n\
                \x20 Kubelet Version:            v1.34.0\n\
                \x20 Kube-Proxy Version:         \n\
                Non-terminated Pods:          (0 in total)\n\
                \x20 Namespace                   Name    CPU Requests  CPU Limits  Memory Requests  Memory Limits  Age\n\
                \x20 ---------                   ----    ------------  ----------  ---------------  -------------  ---\n\
                Allocated resources:\n\
                \x20 (Total limits may be over 100 percent, i.e., overcommitted.)\n\
                \x20 Resource           Requests  Limits\n\
                \x20 --------           --------  ------\n\
                \x20 cpu                0 (0%)    0 (0%)\n\
                \x20 memory             0 (0%)    0 (0%)\n\
                \x20 ephemeral-storage  0 (0%)    0 (0%)\n\
                Events:              <none>\n" },
        ]);
    }

    #[test]
    fn qos_classes() {
        let with = |resources: Value| {
            let mut p = pod("p", json!({}));
            p["spec"]["containers"][0]["resources"] = resources;
            p
        };
        let cases: Vec<(&str, Value, &str)> = vec![
            ("no resources", with(json!({})), "BestEffort"),
            ("requests only", with(json!({"requests": {"cpu": "100m"}})), "Burstable"),
            ("limits equal requests", with(json!({"requests": {"cpu": "1", "memory": "1Gi"}, "limits": {"cpu": "1000m", "memory": "1024Mi"}})), "Guaranteed"),
            ("memory limit only", with(json!({"limits": {"memory": "1Gi"}, "requests": {"memory": "1Gi"}})), "Burstable"),
            ("limits above requests", with(json!({"requests": {"cpu": "1", "memory": "1Gi"}, "limits": {"cpu": "2", "memory": "1Gi"}})), "Burstable"),
            ("zero requests are ignored", with(json!({"requests": {"cpu": "0"}})), "BestEffort"),
        ];
        for (name, p, want) in cases {
            assert_eq!(pod_qos(&p), want, "case {}", name);
        }
        let mut status = with(json!({}));
        status["status"]["qosClass"] = json!("Guaranteed");
        assert_eq!(pod_qos(&status), "Guaranteed", "case status.qosClass wins");
    }

    #[test]
    fn annotations_and_labels() {
        let long = "x".repeat(200);
        let cases: Vec<(&str, Vec<(String, String)>, &str)> = vec![
            ("none", vec![], "Annotations:  <none>\n"),
            ("last-applied is hidden", vec![(LAST_APPLIED.to_string(), "{}".to_string())], "Annotations:  <none>\n"),
            (
                "short and multi-line",
                vec![("a".into(), "1".into()), ("b".into(), "line1\nline2\n".into())],
                "Annotations:  a: 1\n              b:\n                line1\n                line2\n",
            ),
        ];
        for (name, ann, want) in cases {
            let mut w = PrefixWriter::new();
            print_annotations_multiline(&mut w, "Annotations", &ann);
            assert_eq!(w.finish(), want, "case {}", name);
        }
        let mut w = PrefixWriter::new();
        print_annotations_multiline(&mut w, "Annotations", &[("k".into(), long.clone())]);
        assert_eq!(w.finish(), format!("Annotations:  k:\n                {}...\n", &long[..138]), "case long value is cut at 138 bytes");
    }

    #[test]
    fn describe_storage_cases() {
        let mut web0 = pod("web-0", running_status());
        web0["metadata"]["ownerReferences"] = json!([{"apiVersion": "apps/v1", "kind": "StatefulSet", "name": "web", "uid": "sts-uid", "controller": true}]);
        web0["spec"]["volumes"] = json!([{"name": "www", "persistentVolumeClaim": {"claimName": "www-web-0"}}]);
        let mut web1 = pod("web-1", json!({"phase": "Pending"}));
        web1["metadata"]["ownerReferences"] = web0["metadata"]["ownerReferences"].clone();
        let other = pod("other", running_status()); // controlled by a ReplicaSet: not counted
        let sts = json!({
            "metadata": {"name": "web", "namespace": "default", "uid": "sts-uid", "creationTimestamp": "2026-01-01T00:00:00Z"},
            "spec": {"replicas": 2, "selector": {"matchLabels": {"app": "nginx"}},
                     "updateStrategy": {"type": "RollingUpdate", "rollingUpdate": {"partition": 1}},
                     "template": {"metadata": {"labels": {"app": "nginx"}}, "spec": {"containers": [{"name": "nginx", "image": "nginx:1.27"}]}},
                     "volumeClaimTemplates": [{"metadata": {"name": "www", "labels": {"a": "b", "c": "d"}},
                                               "spec": {"accessModes": ["ReadWriteOnce", "ReadOnlyMany"], "storageClassName": "fast", "resources": {"requests": {"storage": "1Gi"}}}}]},
            "status": {"replicas": 2}
        });
        let pvc = json!({
            "metadata": {"name": "www-web-0", "namespace": "default", "uid": "pvc-uid", "labels": {"app": "nginx"},
                         "finalizers": ["kubernetes.io/pvc-protection"]},
            "spec": {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "1Gi"}}, "storageClassName": "standard",
                     "volumeMode": "Filesystem", "volumeName": "pvc-1"},
            "status": {"phase": "Bound", "accessModes": ["ReadWriteOnce"], "capacity": {"storage": "1Gi"}}
        });
        let pv = json!({
            "metadata": {"name": "pvc-1", "finalizers": ["kubernetes.io/pv-protection"]},
            "spec": {"accessModes": ["ReadWriteOnce"], "capacity": {"storage": "1Gi"}, "claimRef": {"namespace": "default", "name": "www-web-0"},
                     "hostPath": {"path": "/tmp/hostpath-provisioner/default/www-web-0", "type": ""},
                     "persistentVolumeReclaimPolicy": "Delete", "storageClassName": "standard", "volumeMode": "Filesystem"},
            "status": {"phase": "Bound"}
        });
        let sc = json!({
            "metadata": {"name": "standard", "annotations": {"storageclass.kubernetes.io/is-default-class": "true"}},
            "provisioner": "k8s.io/minikube-hostpath", "reclaimPolicy": "Delete", "volumeBindingMode": "Immediate"
        });
        check(vec![
            Case {
                name: "statefulset with a partition and a claim template",
                got: describe_stateful_set(&sts, &[web0.clone(), web1, other], &[], now()),
                want: "Name:               web\n\
                       Namespace:          default\n\
                       CreationTimestamp:  Thu, 01 Jan 2026 00:00:00 +0000\n\
                       Selector:           app=nginx\n\
                       Labels:             <none>\n\
                       Annotations:        <none>\n\
                       Replicas:           2 desired | 2 total\n\
                       Update Strategy:    RollingUpdate\n\
                       \x20 Partition:        1\n\
                       Pods Status:        1 Running / 1 Waiting / 0 Succeeded / 0 Failed\n\
                       Pod Template:\n\
                       \x20 Labels:  app=nginx\n\
                       \x20 Containers:\n\
                       \x20  nginx:\n\
                       \x20   Image:         nginx:1.27\n\
                       \x20   Port:          <none>\n\
                       \x20   Host Port:     <none>\n\
                       \x20   Environment:   <none>\n\
                       \x20   Mounts:        <none>\n\
                       \x20 Volumes:         <none>\n\
                       \x20 Node-Selectors:  <none>\n\
                       \x20 Tolerations:     <none>\n\
                       Volume Claims:\n\
                       \x20 Name:          www\n\
                       \x20 StorageClass:  fast\n\
                       \x20 Labels:        a=b\n\
                       \x20                c=d\n\
                       \x20 Annotations:   <none>\n\
                       \x20 Capacity:      1Gi\n\
                       \x20 Access Modes:  [ReadWriteOnce ReadOnlyMany]\n\
                       Events:          <none>\n",
            },
            Case {
                name: "bound claim used by a pod",
                got: describe_persistent_volume_claim(&pvc, &[web0], &[], now()),
                want: "Name:          www-web-0\n\
                       Namespace:     default\n\
                       StorageClass:  standard\n\
                       Status:        Bound\n\
                       Volume:        pvc-1\n\
                       Labels:        app=nginx\n\
                       Annotations:   <none>\n\
                       Finalizers:    [kubernetes.io/pvc-protection]\n\
                       Capacity:      1Gi\n\
                       Access Modes:  RWO\n\
                       VolumeMode:    Filesystem\n\
                       Used By:       web-0\n\
                       Events:        <none>\n",
            },
            Case {
                name: "hostPath volume",
                got: describe_persistent_volume(&pv, &[], now()),
                want: "Name:            pvc-1\n\
                       Labels:          <none>\n\
                       Annotations:     <none>\n\
                       Finalizers:      [kubernetes.io/pv-protection]\n\
                       StorageClass:    standard\n\
                       Status:          Bound\n\
                       Claim:           default/www-web-0\n\
                       Reclaim Policy:  Delete\n\
                       Access Modes:    RWO\n\
                       VolumeMode:      Filesystem\n\
                       Capacity:        1Gi\n\
                       Node Affinity:   <none>\n\
                       Message:         \n\
                       Source:\n\
                       \x20   Type:          HostPath (bare host directory volume)\n\
                       \x20   Path:          /tmp/hostpath-provisioner/default/www-web-0\n\
                       \x20   HostPathType:  \n\
                       Events:            <none>\n",
            },
            Case {
                name: "default storage class",
                got: describe_storage_class(&sc, &[], now()),
                want: "Name:                  standard\n\
                       IsDefaultClass:        Yes\n\
                       Annotations:           storageclass.kubernetes.io/is-default-class=true\n\
                       Provisioner:           k8s.io/minikube-hostpath\n\
                       Parameters:            <none>\n\
                       AllowVolumeExpansion:  <unset>\n\
                       MountOptions:          <none>\n\
                       ReclaimPolicy:         Delete\n\
                       VolumeBindingMode:     Immediate\n\
                       Events:                <none>\n",
            },
        ]);
    }

    #[test]
    fn describe_cron_job_quota_priority_class_namespace_cases() {
        let cj = json!({
            "metadata": {"name": "hello", "namespace": "default", "labels": {"team": "a"}},
            "spec": {"schedule": "*/5 * * * *", "concurrencyPolicy": "Forbid", "suspend": false, "successfulJobsHistoryLimit": 3,
                     "startingDeadlineSeconds": 100,
                     "jobTemplate": {"spec": {"parallelism": 2, "activeDeadlineSeconds": 60,
                                              "template": {"spec": {"containers": [{"name": "hello", "image": "busybox:1.36"}], "restartPolicy": "OnFailure"}}}}},
            "status": {"lastScheduleTime": "2026-01-01T00:05:00Z",
                       "active": [{"kind": "Job", "name": "hello-1", "namespace": "default"}, {"kind": "Job", "name": "hello-2", "namespace": "default"}]}
        });
        let mut created = event("hello.1", "CronJob", "hello", "SuccessfulCreate", "Created job hello-2", "2026-01-01T00:05:00Z");
        created["source"] = json!({"component": "cronjob-controller"});
        let quota = json!({
            "metadata": {"name": "compute", "namespace": "team-a"},
            "spec": {"scopes": ["NotTerminating", "BestEffort"], "hard": {"pods": "4", "memory": "1G", "requests.cpu": "1"}},
            "status": {"hard": {"pods": "4", "memory": "1G", "requests.cpu": "1"}, "used": {"pods": "2", "memory": "128Mi"}}
        });
        let plain = json!({
            "metadata": {"name": "objects", "namespace": "team-a"},
            "status": {"hard": {"count/deployments.apps": "2", "requests.memory": "1Gi"}, "used": {"count/deployments.apps": "1", "requests.memory": "256Mi"}}
        });
        let pc = json!({
            "metadata": {"name": "high-priority", "annotations": {"owner": "ops"}},
            "value": 1000000, "preemptionPolicy": "Never", "description": "For XYZ pods."
        });
        let ns = json!({
            "metadata": {"name": "shop", "labels": {"kubernetes.io/metadata.name": "shop"}},
            "status": {"phase": "Terminating", "conditions": [
                {"type": "NamespaceContentRemaining", "status": "True", "lastTransitionTime": "2026-01-01T00:00:05Z",
                 "reason": "SomeResourcesRemain", "message": "Some resources are remaining: pods. has 2 resource instances"}]}
        });
        let empty_ns = json!({"metadata": {"name": "default"}, "status": {"phase": "Active"}});
        check(vec![
            Case {
                name: "cronjob with active jobs",
                got: describe_cron_job(&cj, &[created], now()),
                want: "Name:                          hello\n\
                       Namespace:                     default\n\
                       Labels:                        team=a\n\
                       Annotations:                   <none>\n\
                       Schedule:                      */5 * * * *\n\
                       Concurrency Policy:            Forbid\n\
                       Suspend:                       False\n\
                       Successful Job History Limit:  3\n\
                       Failed Job History Limit:      <unset>\n\
                       Starting Deadline Seconds:     100s\n\
                       Selector:                      <unset>\n\
                       Parallelism:                   2\n\
                       Completions:                   <unset>\n\
                       Active Deadline Seconds:       60s\n\
                       Pod Template:\n\
                       \x20 Labels:  <none>\n\
                       \x20 Containers:\n\
                       \x20  hello:\n\
                       \x20   Image:           busybox:1.36\n\
                       \x20   Port:            <none>\n\
                       \x20   Host Port:       <none>\n\
                       \x20   Environment:     <none>\n\
                       \x20   Mounts:          <none>\n\
                       \x20 Volumes:           <none>\n\
                       \x20 Node-Selectors:    <none>\n\
                       \x20 Tolerations:       <none>\n\
                       Last Schedule Time:  Thu, 01 Jan 2026 00:05:00 +0000\n\
                       Active Jobs:         hello-1, hello-2\n\
                       Events:\n\
                       \x20 Type    Reason            Age   From                Message\n\
                       \x20 ----    ------            ----  ----                -------\n\
                       \x20 Normal  SuccessfulCreate  5m    cronjob-controller  Created job hello-2\n",
            },
            Case {
                name: "cronjob with nothing set",
                got: describe_cron_job(&json!({"metadata": {"name": "bare", "namespace": "default"}, "spec": {"schedule": "@daily"}}), &[], now()),
                want: "Name:                          bare\n\
                       Namespace:                     default\n\
                       Labels:                        <none>\n\
                       Annotations:                   <none>\n\
                       Schedule:                      @daily\n\
                       Concurrency Policy:            \n\
                       Suspend:                       <unset>\n\
                       Successful Job History Limit:  <unset>\n\
                       Failed Job History Limit:      <unset>\n\
                       Starting Deadline Seconds:     <unset>\n\
                       Selector:                      <unset>\n\
                       Parallelism:                   <unset>\n\
                       Completions:                   <unset>\n\
                       Pod Template:\n\
                       \x20 Labels:  <none>\n\
                       \x20 Containers: <none>\n\
                       \x20 Volumes:           <none>\n\
                       \x20 Node-Selectors:    <none>\n\
                       \x20 Tolerations:       <none>\n\
                       Last Schedule Time:  <unset>\n\
                       Active Jobs:         <none>\n\
                       Events:              <none>\n",
            },
            Case { name: "quota with scopes and a used amount in another format", got: describe_resource_quota(&quota), want: "Name:       compute\n\
                                                                                                                               Namespace:  team-a\n\
                                                                                                                               Scopes:     BestEffort, NotTerminating\n\
                                                                                                                               \x20* Matches all pods that do not have resource requirements set. These pods have a best effort quality of service.\n\
                                                                                                                               \x20* Matches all pods that do not have an active deadline. These pods usually include long running pods whose container command is not expected to terminate.\n\
                                                                                                                               Resource      Used       Hard\n\
                                                                                                                               --------      ----       ----\n\
                                                                                                                               memory        134217728  1G\n\
                                                                                                                               pods          2          4\n\
                                                                                                                               requests.cpu  0          1\n" },
            Case { name: "priority class", got: describe_priority_class(&pc, &[], now()), want: "Name:              high-priority\n\
                                                                                                 Value:             1000000\n\
                                                                                                 GlobalDefault:     false\n\
                                                                                                 PreemptionPolicy:  Never\n\
                                                                                                 Description:       For XYZ pods.\n\
                                                                                                 Annotations:       owner=ops\n\
                                                                                                 Events:            <none>\n" },
            Case { name: "terminating namespace with quotas", got: describe_namespace(&ns, &[plain, quota.clone()], &[]), want: "Name:         shop\n\
                                                                                                                                 Labels:       kubernetes.io/metadata.name=shop\n\
                                                                                                                                 Annotations:  <none>\n\
                                                                                                                                 Status:       Terminating\n\
                                                                                                                                 Conditions:\n\
                                                                                                                                 \x20 Type                       Status  LastTransitionTime               Reason               Message\n\
                                                                                                                                 \x20 ----                       ------  ------------------               ------               -------\n\
                                                                                                                                 \x20 NamespaceContentRemaining  True    Thu, 01 Jan 2026 00:00:05 +0000  SomeResourcesRemain  Some resources are remaining: pods. has 2 resource instances\n\
                                                                                                                                 \n\
                                                                                                                                 Resource Quotas\n\
                                                                                                                                 \x20 Name:    compute\n\
                                                                                                                                 \x20 Scopes:  BestEffort, NotTerminating\n\
                                                                                                                                 \x20 * Matches all pods that do not have resource requirements set. These pods have a best effort quality of service.\n\
                                                                                                                                 \x20 * Matches all pods that do not have an active deadline. These pods usually include long running pods whose container command is not expected to terminate.\n\
                                                                                                                                 \x20 Resource                Used   Hard\n\
                                                                                                                                 \x20 --------                ---    ---\n\
                                                                                                                                 \x20 memory                  128Mi  1G\n\
                                                                                                                                 \x20 pods                    2      4\n\
                                                                                                                                 \x20 requests.cpu            0      1\n\
                                                                                                                                 \x20 Name:                   objects\n\
                                                                                                                                 \x20 Resource                Used   Hard\n\
                                                                                                                                 \x20 --------                ---    ---\n\
                                                                                                                                 \x20 count/deployments.apps  1      2\n\
                                                                                                                                 \x20 requests.memory         256Mi  1Gi\n\
                                                                                                                                 \n\
                                                                                                                                 No LimitRange resource.\n" },
            Case { name: "namespace without quotas", got: describe_namespace(&empty_ns, &[], &[]), want: "Name:         default\n\
                                                                                                          Labels:       <none>\n\
                                                                                                          Annotations:  <none>\n\
                                                                                                          Status:       Active\n\
                                                                                                          \n\
                                                                                                          No resource quota.\n\
                                                                                                          \n\
                                                                                                          No LimitRange resource.\n" },
        ]);
    }
}

// ---------------------------------------------------------------------------------------------
// ConfigMaps, Secrets, ServiceAccounts
// ---------------------------------------------------------------------------------------------

/// `ConfigMapDescriber`: every value in full, binary values by size, then the events.
pub fn describe_config_map(cm: &Value, events: &[Value], now_ms: i64) -> String {
    let mut w = PrefixWriter::new();
    w.write(0, &format!("Name:\t{}\n", gs(cm, &["metadata", "name"])));
    w.write(0, &format!("Namespace:\t{}\n", gs(cm, &["metadata", "namespace"])));
    print_labels_multiline(&mut w, "Labels", &gmap(cm, &["metadata", "labels"]));
    print_annotations_multiline(&mut w, "Annotations", &gmap(cm, &["metadata", "annotations"]));
    w.write(0, "\nData\n====\n");
    for (k, v) in gmap(cm, &["data"]) {
        w.write(0, &format!("{}:\n----\n", k));
        w.write(0, &format!("{}\n", v));
        w.write(0, "\n");
    }
    w.write(0, "\nBinaryData\n====\n");
    if let Some(m) = cm.get("binaryData").and_then(Value::as_object) {
        for (k, v) in m {
            let n = v.as_str().and_then(crate::api::base64::decode).map(|b| b.len()).unwrap_or(0);
            w.write(0, &format!("{}: {} bytes\n", k, n));
        }
    }
    w.write(0, "\n");
    describe_events(&mut w, events, now_ms);
    w.finish()
}

/// `SecretDescriber`: the values' sizes, never the values (a service account token's `token`
/// excepted, as upstream prints it); no events.
pub fn describe_secret(s: &Value) -> String {
    let mut w = PrefixWriter::new();
    w.write(0, &format!("Name:\t{}\n", gs(s, &["metadata", "name"])));
    w.write(0, &format!("Namespace:\t{}\n", gs(s, &["metadata", "namespace"])));
    print_labels_multiline(&mut w, "Labels", &gmap(s, &["metadata", "labels"]));
    print_annotations_multiline(&mut w, "Annotations", &gmap(s, &["metadata", "annotations"]));
    let ty = gs(s, &["type"]);
    w.write(0, &format!("\nType:\t{}\n", ty));
    w.write(0, "\nData\n====\n");
    if let Some(m) = s.get("data").and_then(Value::as_object) {
        for (k, v) in m {
            let bytes = v.as_str().and_then(crate::api::base64::decode).unwrap_or_default();
            if k == "token" && ty == "kubernetes.io/service-account-token" {
                w.write(0, &format!("{}:\t{}\n", k, String::from_utf8_lossy(&bytes)));
            } else {
                w.write(0, &format!("{}:\t{} bytes\n", k, bytes.len()));
            }
        }
    }
    w.finish()
}

/// `ServiceAccountDescriber`: image pull secrets, mountable secrets and tokens (none since
/// v1.24 gives no ServiceAccount a token Secret), then the events.
/// describe.go `RoleDescriber` / `ClusterRoleDescriber`: the rules broken down, compacted and
/// sorted, one `resource.group` per line.
pub fn describe_role(role: &Value) -> String {
    use crate::apiserver::authorizer::rbac::{rules_as_shown, PolicyRule};
    let rules: Vec<PolicyRule> = role.get("rules").and_then(Value::as_array).map(|a| a.iter().map(PolicyRule::from_json).collect()).unwrap_or_default();
    let mut w = PrefixWriter::new();
    w.write(0, &format!("Name:\t{}\n", gs(role, &["metadata", "name"])));
    print_labels_multiline(&mut w, "Labels", &gmap(role, &["metadata", "labels"]));
    print_annotations_multiline(&mut w, "Annotations", &gmap(role, &["metadata", "annotations"]));
    w.write(0, "PolicyRule:\n");
    w.write(1, "Resources\tNon-Resource URLs\tResource Names\tVerbs\n");
    w.write(1, "---------\t-----------------\t--------------\t-----\n");
    let go_list = |v: &Vec<String>| format!("[{}]", v.join(" "));
    for r in rules_as_shown(&rules) {
        // CombineResourceGroup
        let combined = match r.resources.first() {
            None => String::new(),
            Some(res) => {
                let (base, sub) = res.split_once('/').map(|(b, s)| (b, Some(s))).unwrap_or((res.as_str(), None));
                let mut c = base.to_string();
                if let Some(g) = r.api_groups.first().filter(|g| !g.is_empty()) {
                    c = format!("{}.{}", c, g);
                }
                if let Some(s) = sub {
                    c = format!("{}/{}", c, s);
                }
                c
            }
        };
        w.write(1, &format!("{}\t{}\t{}\t{}\n", combined, go_list(&r.non_resource_urls), go_list(&r.resource_names), go_list(&r.verbs)));
    }
    w.finish()
}

/// describe.go `RoleBindingDescriber` / `ClusterRoleBindingDescriber`.
pub fn describe_role_binding(b: &Value) -> String {
    let mut w = PrefixWriter::new();
    w.write(0, &format!("Name:\t{}\n", gs(b, &["metadata", "name"])));
    print_labels_multiline(&mut w, "Labels", &gmap(b, &["metadata", "labels"]));
    print_annotations_multiline(&mut w, "Annotations", &gmap(b, &["metadata", "annotations"]));
    w.write(0, "Role:\n");
    w.write(1, &format!("Kind:\t{}\n", gs(b, &["roleRef", "kind"])));
    w.write(1, &format!("Name:\t{}\n", gs(b, &["roleRef", "name"])));
    w.write(0, "Subjects:\n");
    w.write(1, "Kind\tName\tNamespace\n");
    w.write(1, "----\t----\t---------\n");
    for s in b.get("subjects").and_then(Value::as_array).cloned().unwrap_or_default() {
        w.write(1, &format!("{}\t{}\t{}\n", gs(&s, &["kind"]), gs(&s, &["name"]), gs(&s, &["namespace"])));
    }
    w.finish()
}

pub fn describe_service_account(sa: &Value, events: &[Value], now_ms: i64) -> String {
    let mut w = PrefixWriter::new();
    w.write(0, &format!("Name:\t{}\n", gs(sa, &["metadata", "name"])));
    w.write(0, &format!("Namespace:\t{}\n", gs(sa, &["metadata", "namespace"])));
    print_labels_multiline(&mut w, "Labels", &gmap(sa, &["metadata", "labels"]));
    print_annotations_multiline(&mut w, "Annotations", &gmap(sa, &["metadata", "annotations"]));
    let names = |field: &str| -> Vec<String> { sa.get(field).and_then(Value::as_array).map(|a| a.iter().map(|r| gs(r, &["name"]).to_string()).collect()).unwrap_or_default() };
    for (title, list) in [("Image pull secrets", names("imagePullSecrets")), ("Mountable secrets", names("secrets")), ("Tokens", Vec::new())] {
        w.write(0, &format!("{}:\t", title));
        if list.is_empty() {
            w.write_line("<none>");
        }
        for (i, n) in list.iter().enumerate() {
            if i > 0 {
                w.write(0, "\t");
            }
            w.write(0, &format!("{}\n", n));
        }
    }
    describe_events(&mut w, events, now_ms);
    w.finish()
}
