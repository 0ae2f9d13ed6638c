//! What the console answers besides the resource commands: `api-resources`, `events`,
//! `get --watch`, `help` / `--help`, and cobra's messages for unknown commands
//! (`staging/src/k8s.io/kubectl/pkg/cmd/{apiresources,events,get}`, `pkg/util/templates`,
//! `spf13/cobra` `findSuggestions`).

use super::*;
use crate::kubectl::printers::tabwriter;
use crate::sim::sort::CompactSort;

// ---------------------------------------------------------------------------------------------
// api-resources
// ---------------------------------------------------------------------------------------------

/// `kubectl api-resources`: NAME SHORTNAMES APIVERSION NAMESPACED KIND, sorted (stably) by API
/// group, then by name (`sortableResource.Less` with no --sort-by), laid out by the tabwriter.
pub(super) fn api_resources(cluster: &Cluster, f: &Flags, out: &mut Output) {
    if !f.positional.is_empty() {
        return out.err(&format!("error: unexpected arguments: [{}]\nSee 'kubectl api-resources -h' for help and examples", f.positional.join(" ")));
    }
    // the served kinds and the create-only reviews, by group then name
    let mut rows: Vec<(&str, &str, String, String, bool, &str)> = meta::RESOURCES.iter().map(|r| (r.group, r.resource, r.short_names.join(","), r.api_version(), r.namespaced, r.kind)).collect();
    rows.extend(crate::apiserver::review::REVIEWS.iter().map(|(g, r, k, n)| (*g, *r, String::new(), format!("{}/v1", g), *n, *k)));
    // what an available APIService adds (discovery, which kubesim's kubectl reads from the
    // cluster's state instead of sending): metrics-server's NodeMetrics and PodMetrics
    let metrics = available_extension_groups(cluster).iter().any(|(g, v)| g == "metrics.k8s.io" && v == "v1beta1");
    if metrics {
        rows.push(("metrics.k8s.io", "nodes", String::new(), "metrics.k8s.io/v1beta1".into(), false, "NodeMetrics"));
        rows.push(("metrics.k8s.io", "pods", String::new(), "metrics.k8s.io/v1beta1".into(), true, "PodMetrics"));
    }
    // and the custom resources of the CRDs discovery lists (their preferred version)
    for (_, info) in cluster.view().crds().discovered() {
        rows.push((info.group, info.resource, info.short_names.join(","), info.api_version(), info.namespaced, info.kind));
    }
    if let Some(g) = &f.api_group {
        rows.retain(|r| r.0 == g.as_str());
    }
    rows.csort_by(|a, b| (a.0, a.1).cmp(&(b.0, b.1)));
    let mut text = String::from("NAME\tSHORTNAMES\tAPIVERSION\tNAMESPACED\tKIND\n");
    for (_, resource, short, version, namespaced, kind) in rows {
        text.push_str(&format!("{}\t{}\t{}\t{}\t{}\n", resource, short, version, namespaced, kind));
    }
    out.out_raw(&tabwriter(&text, 6, 3));
}

/// The group versions that available `APIService`s hand to extension API servers (the groups
/// kube-aggregator adds to discovery).
fn available_extension_groups(cluster: &Cluster) -> Vec<(String, String)> {
    cluster
        .view()
        .objects(meta::Resource::ApiServices.info(), "", None)
        .iter()
        .filter(|a| meta::get(a, &["spec", "service"]).is_some_and(|s| !s.is_null()))
        .filter(|a| meta::get_array(a, &["status", "conditions"]).iter().any(|c| meta::get_str(c, &["type"]) == "Available" && meta::get_str(c, &["status"]) == "True"))
        .map(|a| (meta::get_str(a, &["spec", "group"]).to_string(), meta::get_str(a, &["spec", "version"]).to_string()))
        .collect()
}

/// `kubectl api-versions`: every group version discovery lists, sorted (apiversions.go:
/// `sort.Strings` over the groups' versions) — the built-in ones, an available APIService's,
/// and those of the CRDs discovery lists.
pub(super) fn api_versions(cluster: &Cluster, f: &Flags, out: &mut Output) {
    if !f.positional.is_empty() {
        return out.err(&format!("error: unexpected arguments: [{}]\nSee 'kubectl api-versions -h' for help and examples", f.positional.join(" ")));
    }
    let mut gvs: Vec<String> = meta::RESOURCES.iter().map(|r| r.api_version()).collect();
    gvs.extend(crate::apiserver::review::REVIEWS.iter().map(|(g, ..)| format!("{}/v1", g)));
    // served besides the preferred version: autoscaling/v1 HorizontalPodAutoscalers
    gvs.push("autoscaling/v1".into());
    gvs.extend(available_extension_groups(cluster).into_iter().map(|(g, v)| format!("{}/{}", g, v)));
    for (c, _) in cluster.view().crds().discovered() {
        gvs.extend(c.versions.iter().filter(|v| v.served).map(|v| format!("{}/{}", c.group, v.name)));
    }
    gvs.sort();
    gvs.dedup();
    for gv in gvs {
        out.out(&gv);
    }
}

// ---------------------------------------------------------------------------------------------
// events
// ---------------------------------------------------------------------------------------------

/// `kubectl events`: LIST events (only those `--for` an object), keep `--types`, sort by time
/// (`SortableEvents`: series.lastObservedTime, else lastTimestamp, else eventTime), print
/// LAST SEEN TYPE REASON OBJECT MESSAGE.
pub(super) fn events(cluster: &mut Cluster, f: &Flags, ns: &str, out: &mut Output) {
    if !f.output.is_empty() {
        return out.err("error: kubesim's kubectl events prints the default table only (no -o)");
    }
    let mut selector = String::new();
    let mut for_filter: Option<(&'static str, String)> = None;
    if let Some(target) = &f.for_object {
        let Some((r, name)) = target.split_once('/') else {
            return out.err("error: --for must be in resource/name form");
        };
        if name.contains('/') {
            return out.err("error: arguments in resource/name form may not have more than one slash");
        }
        let Some(info) = meta::lookup(r) else {
            return out.err(&format!("error: the server doesn't have a resource type \"{}\"", r));
        };
        selector = format!("involvedObject.kind={},involvedObject.apiVersion={},involvedObject.name={}", info.kind, info.api_version(), name);
        for_filter = Some((info.kind, name.to_string()));
    }
    let types: Vec<String> = f.types.iter().flat_map(|t| t.split(',')).map(|t| t.trim().to_string()).filter(|t| !t.is_empty()).collect();
    if types.iter().any(|t| !t.eq_ignore_ascii_case("Normal") && !t.eq_ignore_ascii_case("Warning")) {
        return out.err("error: valid --types are Normal or Warning");
    }
    let events_info = meta::lookup("events").expect("events are served");
    let resp = kubectl(cluster, Method::Get, &get::list_path_fields(events_info, ns, f.all_namespaces, "", &selector), None);
    if !resp.ok() {
        return out.err(&server_error(&resp, None));
    }
    let mut items: Vec<Value> = resp.body.get("items").and_then(|i| i.as_array()).cloned().unwrap_or_default();
    // in case the field selector is not honoured for every field, filter as the server would
    if let Some((kind, name)) = &for_filter {
        items.retain(|e| meta::get_str(e, &["involvedObject", "kind"]) == *kind && meta::get_str(e, &["involvedObject", "name"]) == name);
    }
    items.retain(|e| types.is_empty() || types.iter().any(|t| t.eq_ignore_ascii_case(meta::get_str(e, &["type"]))));
    if items.is_empty() {
        if f.all_namespaces {
            out.note("No events found.");
        } else {
            out.note(&format!("No events found in {} namespace.", ns));
        }
        return;
    }
    // SortableEvents with sort.Sort: ties in the order Go's algorithm leaves them
    super::gosort::sort(&mut items, &|a, b| printers::event_sort_time(a) < printers::event_sort_time(b));
    let now = wall_ms(cluster);
    let mut text = String::new();
    if f.all_namespaces {
        text.push_str("NAMESPACE\t");
    }
    text.push_str("LAST SEEN\tTYPE\tREASON\tOBJECT\tMESSAGE\n");
    for e in &items {
        if f.all_namespaces {
            text.push_str(&format!("{}\t", meta::namespace(e)));
        }
        let g = |p: &[&str]| meta::get_str(e, p).to_string();
        text.push_str(&format!(
            "{}\t{}\t{}\t{}/{}\t{}\n",
            event_interval(e, now),
            g(&["type"]),
            g(&["reason"]),
            g(&["involvedObject", "kind"]),
            g(&["involvedObject", "name"]),
            g(&["message"]).trim()
        ));
    }
    out.out_raw(&tabwriter(&text, 6, 3));
}

/// `getInterval` (events/event_printer.go).
fn event_interval(e: &Value, now: i64) -> String {
    let since = |ts: &str| printers::translate_timestamp_since(ts, now);
    let event_time = meta::get_str(e, &["eventTime"]);
    let first = if event_time.is_empty() { since(meta::get_str(e, &["firstTimestamp"])) } else { since(event_time) };
    let count = meta::get_i64(e, &["count"]).unwrap_or(0);
    if let Some(series) = e.get("series").filter(|s| s.is_object()) {
        format!("{} (x{} over {})", since(meta::get_str(series, &["lastObservedTime"])), meta::get_i64(series, &["count"]).unwrap_or(0), first)
    } else if count > 1 {
        format!("{} (x{} over {})", since(meta::get_str(e, &["lastTimestamp"])), count, first)
    } else {
        first
    }
}

// ---------------------------------------------------------------------------------------------
// get --watch
// ---------------------------------------------------------------------------------------------

/// At most this many watch events are printed by one `get --watch` (kubectl would go on until
/// interrupted; a script needs it to end).
const WATCH_MAX_EVENTS: usize = 200;

/// `kubectl get TYPE -w`: LIST and print the table, then WATCH from the list's resourceVersion
/// and print one row per event, without the header, aligned with the widths the tabwriter
/// remembers (`RememberWidths`). The simulation runs meanwhile; kubesim stops watching when
/// the cluster has settled (or after [`WATCH_MAX_EVENTS`] events) and says so on stderr.
pub(super) fn get_watch(cluster: &mut Cluster, f: &Flags, ns: &str, out: &mut Output) {
    let targets = match targets(cluster, &f.positional) {
        Ok(t) => t,
        Err(e) => return out.err(&e),
    };
    if targets.len() != 1 {
        return out.err("error: you may only specify a single resource type");
    }
    if !["", "wide"].contains(&f.output.as_str()) {
        return out.err("error: kubesim's kubectl get --watch prints tables only (no -o other than wide)");
    }
    let (info, names) = (targets[0].0, &targets[0].1);
    if names.len() > 1 {
        return out.err("error: watch is only supported on individual resources and resource collections, but 2 resources were found");
    }
    let wide = f.output == "wide";
    let field = match names.first() {
        Some(n) if f.field_selector.is_empty() => format!("metadata.name={}", n),
        Some(n) => format!("{},metadata.name={}", f.field_selector, n),
        None => f.field_selector.clone(),
    };
    let list_path = get::list_path_fields(info, ns, f.all_namespaces, &f.selector, &field);
    let resp = kubectl(cluster, Method::Get, &list_path, None);
    if !resp.ok() {
        return out.err(&server_error(&resp, None));
    }
    let items: Vec<Value> = resp.body.get("items").and_then(|i| i.as_array()).cloned().unwrap_or_default();
    if let (Some(n), true) = (names.first(), items.is_empty()) {
        return out.err(&format!("Error from server (NotFound): {} \"{}\" not found", info.qualified(), n));
    }
    let with_ns = f.all_namespaces && info.namespaced;
    let cells = |objs: &[Value], now: i64| -> (Vec<String>, Vec<Vec<String>>) {
        let (mut h, mut rows) = printers::print_table_cells(info.kind, objs, wide, now);
        if with_ns {
            h.insert(0, "NAMESPACE".into());
            for (r, o) in rows.iter_mut().zip(objs) {
                r.insert(0, meta::namespace(o).to_string());
            }
        }
        (h, rows)
    };
    let mut table = WatchTable::default();
    let mut header_printed = false;
    let mut print_rows = |out: &mut Output, header: Option<&Vec<String>>, rows: &[Vec<String>]| out.out_raw(&table.lines(header.map(|h| h.as_slice()), rows));
    if !items.is_empty() {
        let (h, rows) = cells(&items, wall_ms(cluster));
        print_rows(out, Some(&h), &rows);
        header_printed = true;
    }
    let rv = meta::get_str(&resp.body, &["metadata", "resourceVersion"]).to_string();
    let watch_path = format!("{}&resourceVersion={}&watch=true", list_path.replacen("limit=500&", "", 1).replacen("?limit=500", "?", 1), rv).replace("?&", "?");
    let watch = Request::new(Method::Get, &watch_path, None);
    let resp = cluster.client_watch(&kubectl_identity(), watch, info, if f.all_namespaces { "" } else { ns }, &field);
    if !resp.ok() {
        return out.err(&server_error(&resp, None));
    }
    let selector_labels = f.selector.clone();
    let max_steps = cluster.max_steps_per_settle();
    let (mut steps, mut seen) = (0u64, 0usize);
    let why = 'watch: loop {
        for (_event_type, obj) in cluster.take_client_events() {
            // the label selector is kubectl's; kubesim's client watch filters fields only
            if !selector_labels.is_empty() && !label_selector_matches(&selector_labels, &meta::labels(&obj)) {
                continue;
            }
            let (h, rows) = cells(std::slice::from_ref(&*obj), wall_ms(cluster));
            print_rows(out, if header_printed { None } else { Some(&h) }, &rows);
            header_printed = true;
            seen += 1;
            if seen >= WATCH_MAX_EVENTS {
                break 'watch format!("after {} events (its limit for one watch)", seen);
            }
        }
        if !cluster.has_foreground_work() {
            break 'watch format!("the cluster settled at {}", printers::human_duration(cluster.now()));
        }
        if steps >= max_steps || !cluster.step() {
            break 'watch format!("after {} deliveries (its limit for one command)", steps);
        }
        steps += 1;
    };
    cluster.close_client_watch();
    out.note(&format!("(kubesim stopped watching: {}; kubectl would keep watching until interrupted)", why));
}

/// The rows `kubectl get --watch` prints one event at a time, aligned with the column widths
/// the printer remembers from every row before (printers.NewTablePrinter's `RememberWidths`):
/// columns only grow, so a later, longer row shifts the ones after it.
#[derive(Clone, Debug, Default)]
pub struct WatchTable {
    widths: Vec<usize>,
}

impl WatchTable {
    /// The lines for `rows` (after `header`, if given), each ending in a newline.
    pub fn lines(&mut self, header: Option<&[String]>, rows: &[Vec<String>]) -> String {
        let mut lines: Vec<&[String]> = Vec::new();
        if let Some(h) = header {
            lines.push(h);
        }
        lines.extend(rows.iter().map(|r| r.as_slice()));
        for l in &lines {
            for (j, c) in l.iter().enumerate().take(l.len().saturating_sub(1)) {
                let w = (c.chars().count() + 3).max(6);
                if self.widths.len() <= j {
                    self.widths.push(w);
                } else if self.widths[j] < w {
                    self.widths[j] = w;
                }
            }
        }
        let mut s = String::new();
        for l in &lines {
            for (j, c) in l.iter().enumerate() {
                s.push_str(c);
                if j + 1 < l.len() {
                    s.push_str(&" ".repeat(self.widths[j] - c.chars().count()));
                }
            }
            s.push('\n');
        }
        s
    }
}

/// `k=v,k2!=v,k3` equality-based selectors, as the apiserver applies them.
fn label_selector_matches(sel: &str, labels: &serde_json::Map<String, Value>) -> bool {
    sel.split(',').map(str::trim).filter(|r| !r.is_empty()).all(|req| {
        if let Some((k, v)) = req.split_once("!=") {
            labels.get(k.trim()).and_then(Value::as_str) != Some(v.trim())
        } else if let Some((k, v)) = req.split_once("==").or_else(|| req.split_once('=')) {
            labels.get(k.trim()).and_then(Value::as_str) == Some(v.trim())
        } else if let Some(k) = req.strip_prefix('!') {
            !labels.contains_key(k.trim())
        } else {
            labels.contains_key(req)
        }
    })
}

// ---------------------------------------------------------------------------------------------
// help, unknown commands
// ---------------------------------------------------------------------------------------------

/// Every command a kubectl v1.34 root offers (cobra sorts them by name): what cobra's
/// `SuggestionsFor` picks "Did you mean this?" candidates from.
/// kubectl's commands in the order `NewKubectlCommand` adds them (its help groups, then config,
/// plugin, version, api-versions, api-resources, options): cobra's `SuggestionsFor` walks them
/// in this order, unsorted, and skips the help command.
const KUBECTL_COMMANDS: &[&str] = &[
    "create", "expose", "run", "set", "explain", "get", "edit", "delete", "rollout", "scale", "autoscale", "certificate", "cluster-info", "top", "cordon", "uncordon", "drain", "taint", "describe", "logs", "attach", "exec", "port-forward", "proxy", "cp", "auth", "debug", "events", "diff", "apply", "patch", "replace", "wait", "kustomize", "label", "annotate", "completion", "config", "plugin", "version", "api-versions", "api-resources", "options",
];

/// cobra's `ld(s, t, ignoreCase=true)`.
fn levenshtein_ci(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.to_lowercase().chars().collect();
    let b: Vec<char> = b.to_lowercase().chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut cur = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            cur.push((prev[j] + usize::from(ca != cb)).min(prev[j + 1] + 1).min(cur[j] + 1));
        }
        prev = cur;
    }
    prev[b.len()]
}

/// What the console says to a command it cannot run: a kubectl v1.34 command kubesim does not
/// run yet is named as such (real kubectl would run it, so cobra's "unknown command" would be
/// wrong, and its suggestion would be the command itself); anything else is cobra's
/// [`unknown_command`].
pub(super) fn not_runnable(cmd: &str) -> String {
    if KUBECTL_COMMANDS.contains(&cmd) {
        let mut runs: Vec<&str> = super::KNOWN_COMMANDS.iter().copied().filter(|c| *c != "help").collect();
        runs.csort();
        return format!("error: kubesim does not run \"kubectl {}\" yet; it runs kubectl {}", cmd, runs.join(", "));
    }
    unknown_command(cmd)
}

/// `unknown command "foo" for "kubectl"` plus cobra's suggestions (Levenshtein distance <= 2,
/// or a command name that starts with what was typed).
pub(super) fn unknown_command(cmd: &str) -> String {
    let mut msg = format!("error: unknown command \"{}\" for \"kubectl\"", cmd);
    let suggestions: Vec<&&str> = KUBECTL_COMMANDS
        .iter()
        .filter(|c| levenshtein_ci(cmd, c) <= 2 || c.to_lowercase().starts_with(&cmd.to_lowercase()))
        .collect();
    if !suggestions.is_empty() {
        msg.push_str("\n\nDid you mean this?\n");
        for s in suggestions {
            msg.push_str(&format!("\t{}\n", s));
        }
    }
    msg
}

const GET_FORMATS: &str = "json|yaml|name|go-template|go-template-file|template|templatefile|jsonpath|jsonpath-as-json|jsonpath-file|custom-columns|custom-columns-file|wide";
const EVENTS_FORMATS: &str = "json|yaml|name|go-template|go-template-file|template|templatefile|jsonpath|jsonpath-as-json|jsonpath-file";

/// A command's whole v1.34 help text, where kubesim carries it.
#[cfg(feature = "lazy-parts")]
pub fn full_help(cmd: &str) -> Option<String> {
    let (_, text, missing) = FULL_HELP.iter().find(|h| h.0 == cmd)?;
    let mut s = text.to_string();
    if !missing.is_empty() {
        s.push_str(&format!("\n\nkubesim: kubesim's kubectl does not implement {}.", missing));
    }
    Some(s)
}

/// A command's whole v1.34 help text, from the page's second module when it is loaded (else
/// the usage summary stands in).
#[cfg(not(feature = "lazy-parts"))]
pub fn full_help(cmd: &str) -> Option<String> {
    super::lazy::call("help", cmd).filter(|t| !t.is_empty())
}

/// (name, Use, Short) of the commands kubesim runs, from their `cobra.Command`s.
fn command_docs() -> Vec<(&'static str, String, &'static str)> {
    vec![
        ("create", "create -f FILENAME".into(), "Create a resource from a file or from stdin"),
        ("run", "run NAME --image=image [--env=\"key=value\"] [--port=port] [--dry-run=server|client] [--overrides=inline-json] [--command] -- [COMMAND] [args...]".into(), "Run a particular image on the cluster"),
        ("expose", "expose (-f FILENAME | TYPE NAME) [--port=port] [--protocol=TCP|UDP|SCTP] [--target-port=number-or-name] [--name=name] [--external-ip=external-ip-of-service] [--type=type]".into(), "Take a replication controller, service, deployment or pod and expose it as a new Kubernetes service"),
        ("set", "set SUBCOMMAND".into(), "Set specific features on objects"),
        ("get", format!("get [(-o|--output=){}] (TYPE[.VERSION][.GROUP] [NAME | -l label] | TYPE[.VERSION][.GROUP]/NAME ...) [flags]", GET_FORMATS), "Display one or many resources"),
        ("delete", "delete ([-f FILENAME] | [-k DIRECTORY] | TYPE [(NAME | -l label | --all)])".into(), "Delete resources by file names, stdin, resources and names, or by resources and label selector"),
        ("rollout", "rollout SUBCOMMAND".into(), "Manage the rollout of a resource"),
        ("scale", "scale [--resource-version=version] [--current-replicas=count] --replicas=COUNT (-f FILENAME | TYPE NAME)".into(), "Set a new size for a deployment, replica set, or replication controller"),
        ("autoscale", "autoscale (-f FILENAME | TYPE NAME | TYPE/NAME) [--min=MINPODS] --max=MAXPODS [--cpu=CPU] [--memory=MEMORY]".into(), "Auto-scale a deployment, replica set, stateful set, or replication controller"),
        ("top", "top".into(), "Display resource (CPU/memory) usage"),
        ("cordon", "cordon NODE".into(), "Mark node as unschedulable"),
        ("uncordon", "uncordon NODE".into(), "Mark node as schedulable"),
        ("drain", "drain NODE".into(), "Drain node in preparation for maintenance"),
        ("taint", "taint NODE NAME KEY_1=VAL_1:TAINT_EFFECT_1 ... KEY_N=VAL_N:TAINT_EFFECT_N".into(), "Update the taints on one or more nodes"),
        ("describe", "describe (-f FILENAME | TYPE [NAME_PREFIX | -l label] | TYPE/NAME)".into(), "Show details of a specific resource or group of resources"),
        ("logs", "logs [-f] [-p] (POD | TYPE/NAME) [-c CONTAINER]".into(), "Print the logs for a container in a pod"),
        ("exec", "exec (POD | TYPE/NAME) [-c CONTAINER] [flags] -- COMMAND [args...]".into(), "Execute a command in a container"),
        ("events", format!("events [(-o|--output=){}] [--for TYPE/NAME] [--watch] [--types=Normal,Warning]", EVENTS_FORMATS), "List events"),
        ("apply", "apply (-f FILENAME | -k DIRECTORY)".into(), "Apply a configuration to a resource by file name or stdin"),
        ("replace", "replace -f FILENAME".into(), "Replace a resource by file name or stdin"),
        ("patch", "patch [(-f FILENAME | TYPE NAME)] [-p PATCH|--patch-file FILE]".into(), "Update fields of a resource"),
        ("label", "label [--overwrite] (-f FILENAME | TYPE NAME) KEY_1=VAL_1 ... KEY_N=VAL_N [--resource-version=version]".into(), "Update the labels on a resource"),
        ("annotate", "annotate [--overwrite] (-f FILENAME | TYPE NAME) KEY_1=VAL_1 ... KEY_N=VAL_N [--resource-version=version]".into(), "Update the annotations on a resource"),
        // no DisableFlagsInUseLine: cobra's UseLine appends " [flags]"
        ("api-resources", "api-resources [flags]".into(), "Print the supported API resources on the server"),
        ("api-versions", "api-versions".into(), "Print the supported API versions on the server, in the form of \"group/version\""),
        ("cluster-info", "cluster-info [flags]".into(), "Display cluster information"),
        ("config", "config SUBCOMMAND".into(), "Modify kubeconfig files"),
        ("diff", "diff -f FILENAME".into(), "Diff the live version against a would-be applied version"),
        ("wait", "wait ([-f FILENAME] | resource.group/resource.name | resource.group [(-l label | --all)]) [--for=create|--for=delete|--for condition=available|--for=jsonpath='{}'[=value]]".into(), "Experimental: Wait for a specific condition on one or many resources"),
        ("version", "version [flags]".into(), "Print the client and server version information"),
        ("explain", "explain TYPE [--recursive=FALSE|TRUE] [--api-version=api-version-group] [-o|--output=plaintext|plaintext-openapiv2]".into(), "Get documentation for a resource"),
        ("edit", "edit (RESOURCE/NAME | -f FILENAME)".into(), "Edit a resource on the server"),
        ("attach", "attach (POD | TYPE/NAME) -c CONTAINER".into(), "Attach to a running container"),
        ("port-forward", "port-forward TYPE/NAME [options] [LOCAL_PORT:]REMOTE_PORT [...[LOCAL_PORT_N:]REMOTE_PORT_N]".into(), "Forward one or more local ports to a pod"),
        ("proxy", "proxy [--port=PORT] [--www=static-dir] [--www-prefix=prefix] [--api-prefix=prefix]".into(), "Run a proxy to the Kubernetes API server"),
        ("cp", "cp <file-spec-src> <file-spec-dest>".into(), "Copy files and directories to and from containers"),
        ("auth", "auth".into(), "Inspect authorization"),
        ("debug", "debug (POD | TYPE[[.VERSION].GROUP]/NAME) [ -- COMMAND [args...] ]".into(), "Create debugging sessions for troubleshooting workloads and nodes"),
        ("kustomize", "kustomize DIR [flags]".into(), "Build a kustomization target from a directory or URL"),
    ]
}

/// `kubectl COMMAND --help` as kubectl v1.34 prints it, for the commands whose whole text
/// kubesim carries (`help/*.txt`, made from real kubectl's output; `help/FLAGS.md` says how),
/// with the flags kubesim does not implement named after it. In the page, the second module
/// holds them (`kubectl::lazy`).
#[cfg(feature = "lazy-parts")]
const FULL_HELP: &[(&str, &str, &str)] = &[
    ("patch", include_str!("help/patch.txt"), "--local, -k/--kustomize, -R/--recursive, --template, --show-managed-fields, --allow-missing-template-keys"),
    ("wait", include_str!("help/wait.txt"), "--local, -R/--recursive, -o/--output, --template, --show-managed-fields"),
    ("diff", include_str!("help/diff.txt"), "--field-manager, --prune, --prune-allowlist, -l/--selector, -R/--recursive, --concurrency, --show-managed-fields"),
    ("debug", include_str!("help/debug.txt"), "--custom, --env, --image-pull-policy, --set-image, --attach, -f/--filename, -q/--quiet"),
    ("cluster-info", include_str!("help/cluster-info.txt"), "the dump subcommand"),
    ("api-versions", include_str!("help/api-versions.txt"), ""),
    ("kustomize", include_str!("help/kustomize.txt"), "-o/--output, -e/--env, --enable-alpha-plugins, --enable-helm and the --helm-* flags, --load-restrictor, --as-current-user, --mount, --network, --network-name; a URL"),
    ("port-forward", include_str!("help/port-forward.txt"), "--pod-running-timeout (a Pod that is not running is refused at once); addresses other than localhost, 127.0.0.1, ::1 and 0.0.0.0"),
    ("attach", include_str!("help/attach.txt"), "--pod-running-timeout; staying attached (the console is not a terminal)"),
    ("cp", include_str!("help/cp.txt"), "--no-preserve, --retries"),
    ("proxy", include_str!("help/proxy.txt"), "--accept-hosts, --accept-paths, --reject-paths, --reject-methods, --api-prefix, --www, --www-prefix, -u/--unix-socket, --disable-filter, --keepalive, --append-server-path"),
];

/// `kubectl` / `kubectl help`: the root help of kubectl's templater, listing the command
/// groups of `pkg/cmd/cmd.go` — with only the commands kubesim runs.
pub(super) fn root_help() -> String {
    let docs = command_docs();
    let short = |n: &str| docs.iter().find(|d| d.0 == n).map(|d| d.2).unwrap_or("");
    // pkg/cmd/cmd.go's groups in their order; a command kubesim does not run is left out
    let groups: &[(&str, &[&str])] = &[
        ("Basic Commands (Beginner):", &["create", "expose", "run", "set"]),
        ("Basic Commands (Intermediate):", &["explain", "get", "edit", "delete"]),
        ("Deploy Commands:", &["rollout", "scale", "autoscale"]),
        ("Cluster Management Commands:", &["certificate", "cluster-info", "top", "cordon", "uncordon", "drain", "taint"]),
        ("Troubleshooting and Debugging Commands:", &["describe", "logs", "attach", "exec", "port-forward", "proxy", "cp", "auth", "debug", "events"]),
        ("Advanced Commands:", &["diff", "apply", "patch", "replace", "wait", "kustomize"]),
        ("Settings Commands:", &["label", "annotate", "completion"]),
        ("Other Commands:", &["api-resources", "api-versions", "config", "plugin", "version"]),
    ];
    // cobra's NamePadding: the longest command name of kubectl's root ("api-resources")
    let pad = 13;
    let mut s = String::from("kubectl controls the Kubernetes cluster manager.\n\n Find more information at: https://kubernetes.io/docs/reference/kubectl/\n\n");
    for (title, cmds) in groups {
        s.push_str(title);
        s.push('\n');
        for c in cmds.iter().filter(|c| docs.iter().any(|d| d.0 == **c)) {
            s.push_str(&format!("  {:<pad$}   {}\n", c, short(c), pad = pad));
        }
        s.push('\n');
    }
    s.push_str("Usage:\n  kubectl [flags] [options]\n\nUse \"kubectl <command> --help\" for more information about a given command.\nUse \"kubectl options\" for a list of global command-line options (applies to all commands).");
    s
}

/// `kubectl CMD --help`: the first line of the command's description and its usage line.
pub(super) fn command_help(cmd: &str) -> Option<String> {
    if cmd == "help" {
        return Some(root_help());
    }
    if let Some(text) = full_help(cmd) {
        return Some(text);
    }
    let (_, use_line, short) = command_docs().into_iter().find(|d| d.0 == cmd)?;
    // templater.usageLine: " [options]" is appended when the command has flags
    Some(format!(
        "{}.\n\nUsage:\n  kubectl {} [options]\n\nUse \"kubectl options\" for a list of global command-line options (applies to all commands).",
        short, use_line
    ))
}
