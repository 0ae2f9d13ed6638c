//! kubectl: the command line client, as a library the native CLI and the page's console share.
//!
//! Real counterpart: `staging/src/k8s.io/kubectl/pkg/cmd/{apply,get,describe,delete,scale,create,
//! replace,drain(cordon),taint,label}` and the error formatting of `pkg/cmd/util/helpers.go`.
//! Like the real kubectl it only talks to kube-apiserver over its REST API (here:
//! [`Cluster::client_request`]), so every command leaves the same requests in the audit log.
//!
//! What kubesim simplifies: `apply` is client-side apply with a three-way *merge* patch (upstream
//! computes a strategic merge patch; the result is the same for the fields learners edit, lists are
//! replaced whole); output flags are `-o wide|yaml|json|name`; no kubeconfig, one cluster.

pub mod describe;
pub mod printers;

use crate::api::{codec, meta};
use crate::api::patch;
use crate::api::request::{Method, PatchType, Request, Response};
use crate::cluster::{kubectl_identity, Cluster};
use serde_json::{json, Value};

/// What a command printed.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Output {
    pub stdout: String,
    pub stderr: String,
    pub code: i32,
    /// Both streams interleaved in the order they were written, as a terminal shows them.
    pub all: String,
}

impl Output {
    fn out(&mut self, s: &str) {
        let line = if s.ends_with('\n') { s.to_string() } else { format!("{}\n", s) };
        self.stdout.push_str(&line);
        self.all.push_str(&line);
    }
    /// stdout without adding a newline (jsonpath output has none).
    fn out_raw(&mut self, s: &str) {
        self.stdout.push_str(s);
        self.all.push_str(s);
    }
    /// stderr without failing (warnings, "No resources found").
    fn note(&mut self, s: &str) {
        let line = if s.ends_with('\n') { s.to_string() } else { format!("{}\n", s) };
        self.stderr.push_str(&line);
        self.all.push_str(&line);
    }
    fn err(&mut self, s: &str) {
        self.note(s);
        self.code = 1;
    }
    /// Both streams in the order they were written, as a terminal shows them.
    pub fn combined(&self) -> String {
        self.all.clone()
    }
}

/// Splits a command line like a POSIX shell would (quotes, backslashes); no expansion.
pub fn split_args(line: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(x) => cur.push(x),
                        None => return Err("unterminated single quote".into()),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => {
                            if let Some(x) = chars.next() {
                                cur.push(x)
                            }
                        }
                        Some(x) => cur.push(x),
                        None => return Err("unterminated double quote".into()),
                    }
                }
            }
            '\\' => {
                in_word = true;
                if let Some(x) = chars.next() {
                    cur.push(x)
                }
            }
            c if c.is_whitespace() => {
                if in_word {
                    out.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            c => {
                in_word = true;
                cur.push(c)
            }
        }
    }
    if in_word {
        out.push(cur);
    }
    Ok(out)
}

/// Parsed flags common to the commands.
#[derive(Default, Debug)]
struct Flags {
    positional: Vec<String>,
    files: Vec<String>,
    namespace: Option<String>,
    all_namespaces: bool,
    output: String,
    selector: String,
    field_selector: String,
    replicas: Option<String>,
    cascade: String,
    grace_period: Option<i64>,
    overwrite: bool,
    image: Option<String>,
    show_labels: bool,
}

const KNOWN_COMMANDS: &[&str] = &[
    "apply", "get", "describe", "delete", "scale", "create", "replace", "cordon", "uncordon", "taint", "label", "version", "api-resources", "help",
];

fn parse_flags(args: &[String]) -> Result<Flags, String> {
    let mut f = Flags::default();
    let mut i = 0;
    let take = |i: &mut usize, name: &str, inline: Option<String>| -> Result<String, String> {
        if let Some(v) = inline {
            return Ok(v);
        }
        *i += 1;
        args.get(*i).cloned().ok_or_else(|| format!("flag needs an argument: {}", name))
    };
    while i < args.len() {
        let a = &args[i];
        let (name, inline) = match a.split_once('=') {
            Some((n, v)) if a.starts_with('-') => (n.to_string(), Some(v.to_string())),
            _ => (a.clone(), None),
        };
        match name.as_str() {
            "-f" | "--filename" => f.files.push(take(&mut i, "'f' in -f", inline)?),
            "-n" | "--namespace" => f.namespace = Some(take(&mut i, "'n' in -n", inline)?),
            "-A" | "--all-namespaces" => f.all_namespaces = true,
            "-o" | "--output" => f.output = take(&mut i, "'o' in -o", inline)?,
            "-l" | "--selector" => f.selector = take(&mut i, "'l' in -l", inline)?,
            "--field-selector" => f.field_selector = take(&mut i, "--field-selector", inline)?,
            "--replicas" => f.replicas = Some(take(&mut i, "--replicas", inline)?),
            "--cascade" => f.cascade = take(&mut i, "--cascade", inline)?,
            "--grace-period" => {
                let v = take(&mut i, "--grace-period", inline)?;
                f.grace_period = Some(v.parse().map_err(|_| format!("invalid argument \"{}\" for \"--grace-period\" flag: strconv.ParseInt: parsing \"{}\": invalid syntax", v, v))?);
            }
            "--now" => f.grace_period = Some(1),
            "--force" => {}
            "--overwrite" => f.overwrite = inline.map(|v| v != "false").unwrap_or(true),
            "--image" => f.image = Some(take(&mut i, "--image", inline)?),
            "--show-labels" => f.show_labels = true,
            "--validate" | "--server-side" | "--dry-run" | "--record" | "--wait" => {}
            s if s.starts_with('-') && s.len() > 1 => return Err(format!("unknown flag: {}", s)),
            _ => f.positional.push(a.clone()),
        }
        i += 1;
    }
    Ok(f)
}

fn levenshtein(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            cur.push((prev[j] + usize::from(ca != *cb)).min(prev[j + 1] + 1).min(cur[j] + 1));
        }
        prev = cur;
    }
    prev[b.len()]
}

/// Runs one kubectl command (`args` without the leading `kubectl`). `stdin` feeds `-f -`;
/// `read_file` is how the shell provides other `-f` files (the core does no IO).
pub fn run(cluster: &mut Cluster, args: &[String], stdin: Option<&str>, read_file: &dyn Fn(&str) -> Option<String>) -> Output {
    let mut out = Output::default();
    let Some(cmd) = args.first() else {
        out.out("kubectl controls the Kubernetes cluster manager.\n\nCommands: apply get describe delete scale create replace cordon uncordon taint label");
        return out;
    };
    let flags = match parse_flags(&args[1..]) {
        Ok(f) => f,
        Err(e) => {
            out.err(&format!("error: {}\nSee 'kubectl {} --help' for usage.", e, cmd));
            return out;
        }
    };
    let ns = flags.namespace.clone().unwrap_or_else(|| "default".into());
    match cmd.as_str() {
        "apply" | "create" | "replace" if !flags.files.is_empty() => {
            for f in &flags.files {
                let (source, text) = if f == "-" {
                    ("STDIN".to_string(), stdin.map(String::from))
                } else {
                    (f.clone(), read_file(f))
                };
                let Some(text) = text else {
                    out.err(&format!("error: the path \"{}\" does not exist", f));
                    continue;
                };
                apply_manifest(cluster, cmd, &source, &text, &ns, flags.namespace.is_some(), &mut out);
            }
        }
        "apply" | "replace" => out.err("error: must specify one of -f and -k"),
        "create" => create(cluster, &flags, &ns, &mut out),
        "get" => get(cluster, &flags, &ns, &mut out),
        "describe" => describe_cmd(cluster, &flags, &ns, &mut out),
        "delete" => delete(cluster, &flags, &ns, stdin, read_file, &mut out),
        "scale" => scale(cluster, &flags, &ns, &mut out),
        "cordon" | "uncordon" => cordon(cluster, &flags, cmd == "cordon", &mut out),
        "taint" => taint(cluster, &flags, &mut out),
        "label" => label(cluster, &flags, &ns, &mut out),
        "version" => out.out(&format!(
            "Client Version: {}\nKustomize Version: v5.7.1\nServer Version: {}",
            crate::KUBE_VERSION,
            crate::KUBE_VERSION
        )),
        "api-resources" => {
            let mut s = String::from("NAME          SHORTNAMES   APIVERSION   NAMESPACED   KIND\n");
            for r in meta::RESOURCES {
                s.push_str(&format!("{:<14}{:<13}{:<13}{:<13}{}\n", r.resource, r.short_names.join(","), r.api_version(), r.namespaced, r.kind));
            }
            out.out(&s);
        }
        other => {
            let mut msg = format!("error: unknown command \"{}\" for \"kubectl\"", other);
            let best = KNOWN_COMMANDS.iter().filter(|c| levenshtein(c, other) <= 2 || c.starts_with(other)).collect::<Vec<_>>();
            if !best.is_empty() {
                msg.push_str("\n\nDid you mean this?");
                for b in best {
                    msg.push_str(&format!("\n\t{}", b));
                }
            }
            out.err(&msg);
        }
    }
    out
}

fn kubectl(cluster: &mut Cluster, method: Method, path: &str, body: Option<Value>) -> Response {
    cluster.client_request(&kubectl_identity(), Request::new(method, path, body))
}

/// `Error from server (Reason): message` — or the Invalid form (helpers.go StandardErrorMessage).
pub fn server_error(resp: &Response, source_prefix: Option<(&str, &str)>) -> String {
    if resp.code == 422 && resp.reason() == "Invalid" {
        let d = resp.body.get("details").cloned().unwrap_or(json!({}));
        let causes = d.get("causes").and_then(|c| c.as_array()).cloned().unwrap_or_default();
        let prefix = format!("The {} \"{}\" is invalid: ", meta::get_str(&d, &["kind"]), meta::get_str(&d, &["name"]));
        if causes.is_empty() {
            // kubesim-specific refusals (limits) carry their own message
            return format!("Error from server (Invalid): {}", resp.message());
        }
        let lines: Vec<String> = causes
            .iter()
            .map(|c| {
                let f = meta::get_str(c, &["field"]);
                let m = meta::get_str(c, &["message"]);
                if f.is_empty() { m.to_string() } else { format!("{}: {}", f, m) }
            })
            .collect();
        return if lines.len() == 1 {
            format!("{}{}", prefix, lines[0])
        } else {
            let mut s = format!("{}\n", prefix);
            for l in lines {
                s.push_str(&format!("* {}\n", l));
            }
            s
        };
    }
    let msg = match source_prefix {
        Some((verb, src)) => format!("error when {} \"{}\": {}", verb, src, resp.message()),
        None => resp.message().to_string(),
    };
    format!("Error from server ({}): {}", resp.reason(), msg)
}

fn resource_mapping(obj: &Value, source: &str) -> Result<&'static meta::ResourceInfo, String> {
    let api_version = meta::get_str(obj, &["apiVersion"]);
    let kind = meta::get_str(obj, &["kind"]);
    let mut missing = Vec::new();
    if api_version.is_empty() {
        missing.push("apiVersion not set");
    }
    if kind.is_empty() {
        missing.push("kind not set");
    }
    if !missing.is_empty() {
        let list = if missing.len() == 1 { missing[0].to_string() } else { format!("[{}]", missing.join(", ")) };
        return Err(format!(
            "error: error validating \"{}\": error validating data: {}; if you choose to ignore these errors, turn validation off with --validate=false",
            source, list
        ));
    }
    meta::by_kind(api_version, kind).ok_or_else(|| {
        format!(
            "error: resource mapping not found for name: \"{}\" namespace: \"{}\" from \"{}\": no matches for kind \"{}\" in version \"{}\"\nensure CRDs are installed first",
            meta::name(obj),
            meta::namespace(obj),
            source,
            kind,
            api_version
        )
    })
}

/// `kubectl apply|create|replace -f`: decode every document, then send each.
fn apply_manifest(cluster: &mut Cluster, cmd: &str, source: &str, text: &str, default_ns: &str, ns_flag: bool, out: &mut Output) {
    let docs = match codec::decode_manifest(text) {
        Ok(d) => d,
        Err(e) => {
            out.err(&format!("error: error parsing {}: {}", source, e.message));
            return;
        }
    };
    if docs.is_empty() {
        out.err(&format!("error: no objects passed to {}", cmd));
        return;
    }
    for doc in docs {
        let mut obj = doc.object;
        let info = match resource_mapping(&obj, source) {
            Ok(i) => i,
            Err(e) => {
                out.err(&e);
                continue;
            }
        };
        let obj_ns = meta::namespace(&obj).to_string();
        let ns = if info.namespaced {
            if !obj_ns.is_empty() && ns_flag && obj_ns != default_ns {
                out.err(&format!(
                    "error: the namespace from the provided object \"{}\" does not match the namespace \"{}\". You must pass '--namespace={}' to perform this operation.",
                    obj_ns, default_ns, obj_ns
                ));
                continue;
            }
            if obj_ns.is_empty() { default_ns.to_string() } else { obj_ns }
        } else {
            String::new()
        };
        if info.namespaced && obj.get("metadata").map(|m| m.is_object()).unwrap_or(false) {
            meta::set(&mut obj, &["metadata", "namespace"], json!(ns));
        }
        let name = meta::name(&obj).to_string();
        let prefix = info.kubectl_prefix();
        match cmd {
            "create" => {
                let resp = kubectl(cluster, Method::Post, &format!("{}?fieldManager=kubectl-create&fieldValidation=Strict", info.collection_path(&ns)), Some(obj));
                if resp.ok() {
                    out.out(&format!("{}/{} created", prefix, meta::name(&resp.body)));
                } else {
                    out.err(&server_error(&resp, Some(("creating", source))));
                }
            }
            "replace" => {
                let path = info.object_path(&ns, &name);
                let resp = kubectl(cluster, Method::Put, &format!("{}?fieldManager=kubectl-replace&fieldValidation=Strict", path), Some(obj));
                if resp.ok() {
                    out.out(&format!("{}/{} replaced", prefix, name));
                } else {
                    out.err(&server_error(&resp, Some(("replacing", source))));
                }
            }
            _ => apply_one(cluster, info, &ns, obj, source, out),
        }
    }
}

const LAST_APPLIED: &str = "kubectl.kubernetes.io/last-applied-configuration";

fn apply_one(cluster: &mut Cluster, info: &'static meta::ResourceInfo, ns: &str, obj: Value, source: &str, out: &mut Output) {
    let name = meta::name(&obj).to_string();
    let prefix = info.kubectl_prefix();
    if name.is_empty() {
        // apply needs a name to GET; generateName only works with create (apply.go)
        out.err(&format!("error: from {}: cannot use generate name with apply", meta::get_str(&obj, &["metadata", "generateName"])));
        return;
    }
    // The annotation holds the manifest as applied (without the annotation itself).
    let mut applied = obj.clone();
    meta::remove(&mut applied, &["metadata", "annotations", LAST_APPLIED]);
    if meta::get(&applied, &["metadata", "annotations"]).and_then(|a| a.as_object()).map(|a| a.is_empty()).unwrap_or(false) {
        meta::remove(&mut applied, &["metadata", "annotations"]);
    }
    let annotation = serde_json::to_string(&applied).unwrap_or_default() + "\n";
    let mut modified = applied.clone();
    meta::set(&mut modified, &["metadata", "annotations", LAST_APPLIED], json!(annotation));

    let path = info.object_path(ns, &name);
    let got = kubectl(cluster, Method::Get, &path, None);
    if got.code == 404 {
        let resp = kubectl(
            cluster,
            Method::Post,
            &format!("{}?fieldManager=kubectl-client-side-apply&fieldValidation=Strict", info.collection_path(ns)),
            Some(modified),
        );
        if resp.ok() {
            out.out(&format!("{}/{} created", prefix, name));
        } else {
            out.err(&server_error(&resp, Some(("creating", source))));
        }
        return;
    }
    if !got.ok() {
        out.err(&server_error(&got, Some(("retrieving current configuration of:\nResource: ", source))));
        return;
    }
    let current = got.body;
    if meta::annotation(&current, LAST_APPLIED).is_none() {
        out.note(&format!(
            "Warning: resource {}/{} is missing the kubectl.kubernetes.io/last-applied-configuration annotation which is required by kubectl apply. kubectl apply should only be used on resources created declaratively by either kubectl create --save-config or kubectl apply. The missing annotation will be patched automatically.\n",
            info.resource, name
        ));
    }
    let original: Value = meta::annotation(&current, LAST_APPLIED).and_then(|s| serde_json::from_str(s).ok()).unwrap_or(json!({}));
    let patch = patch::three_way_merge_patch(&original, &modified, &current);
    if patch.as_object().map(|p| p.is_empty()).unwrap_or(true) {
        out.out(&format!("{}/{} unchanged", prefix, name));
        return;
    }
    let resp = cluster.client_request(
        &kubectl_identity(),
        Request {
            method: Method::Patch,
            path: format!("{}?fieldManager=kubectl-client-side-apply&fieldValidation=Strict", path),
            body: Some(patch.clone()),
            patch_type: PatchType::Merge,
        },
    );
    if resp.ok() {
        out.out(&format!("{}/{} configured", prefix, name));
    } else if resp.code == 422 {
        out.err(&server_error(&resp, None));
    } else {
        out.err(&format!(
            "Error from server ({}): error when applying patch:\n{}\nto:\nResource: \"{}, Resource={}\", GroupVersionKind: \"{}, Kind={}\"\nName: \"{}\", Namespace: \"{}\"\nfor: \"{}\": error when patching \"{}\": {}",
            resp.reason(),
            serde_json::to_string(&patch).unwrap_or_default(),
            info.api_version(),
            info.resource,
            info.api_version(),
            info.kind,
            name,
            ns,
            source,
            source,
            resp.message()
        ));
    }
}

/// The printers work on Unix milliseconds (timestamps in objects are real dates).
pub fn wall_ms(cluster: &Cluster) -> i64 {
    crate::api::time::EPOCH_MS + cluster.now()
}

fn unknown_resource(name: &str) -> String {
    format!("error: the server doesn't have a resource type \"{}\"", name)
}

/// Splits `deploy/nginx` or `deploy nginx a b` into (resource, names).
fn targets(pos: &[String]) -> Result<Vec<(&'static meta::ResourceInfo, Vec<String>)>, String> {
    let Some(first) = pos.first() else {
        return Err("error: You must specify the type of resource to get. Use \"kubectl api-resources\" for a complete list of supported resources.".into());
    };
    if first.contains('/') {
        let mut out = Vec::new();
        for p in pos {
            let (r, n) = p.split_once('/').ok_or_else(|| "error: there is no need to specify a resource type as a separate argument when passing arguments in resource/name form (e.g. 'kubectl get resource/<resource_name>' instead of 'kubectl get resource resource/<resource_name>'".to_string())?;
            let info = meta::lookup(r).ok_or_else(|| unknown_resource(r))?;
            out.push((info, vec![n.to_string()]));
        }
        return Ok(out);
    }
    let mut out = Vec::new();
    for r in first.split(',') {
        let info = meta::lookup(r).ok_or_else(|| unknown_resource(r))?;
        out.push((info, pos[1..].to_vec()));
    }
    Ok(out)
}

fn list_path(info: &meta::ResourceInfo, ns: &str, all: bool, selector: &str) -> String {
    list_path_fields(info, ns, all, selector, "")
}

fn list_path_fields(info: &meta::ResourceInfo, ns: &str, all: bool, selector: &str, fields: &str) -> String {
    let enc = |s: &str| s.replace('=', "%3D").replace(',', "%2C").replace('!', "%21");
    let base = info.collection_path(if all { "" } else { ns });
    let mut q = vec!["limit=500".to_string()];
    if !selector.is_empty() {
        q.push(format!("labelSelector={}", enc(selector)));
    }
    if !fields.is_empty() {
        q.push(format!("fieldSelector={}", enc(fields)));
    }
    format!("{}?{}", base, q.join("&"))
}

fn get(cluster: &mut Cluster, f: &Flags, ns: &str, out: &mut Output) {
    let targets = match targets(&f.positional) {
        Ok(t) => t,
        Err(e) => return out.err(&e),
    };
    let wide = f.output == "wide";
    let jsonpath = f.output.strip_prefix("jsonpath=").map(|p| p.trim_matches('\'').to_string());
    if jsonpath.is_none() && !["", "wide", "yaml", "json", "name"].contains(&f.output.as_str()) {
        return out.err(&format!(
            "error: unable to match a printer suitable for the output format \"{}\", allowed formats are: custom-columns,custom-columns-file,go-template,go-template-file,json,jsonpath,jsonpath-as-json,jsonpath-file,name,template,templatefile,wide,yaml",
            f.output
        ));
    }
    let with_kind = targets.len() > 1;
    let mut all_objs = Vec::new();
    let mut tables = Vec::new();
    let mut single_named = false;
    for (info, names) in &targets {
        let mut objs = Vec::new();
        if names.is_empty() {
            let resp = kubectl(cluster, Method::Get, &list_path_fields(info, ns, f.all_namespaces, &f.selector, &f.field_selector), None);
            if !resp.ok() {
                out.err(&server_error(&resp, None));
                continue;
            }
            objs = resp.body.get("items").and_then(|i| i.as_array()).cloned().unwrap_or_default();
            for o in objs.iter_mut() {
                if let Some(m) = o.as_object_mut() {
                    m.insert("apiVersion".into(), json!(info.api_version()));
                    m.insert("kind".into(), json!(info.kind));
                }
            }
        } else {
            single_named = names.len() == 1 && targets.len() == 1;
            for n in names {
                let resp = kubectl(cluster, Method::Get, &info.object_path(ns, n), None);
                if resp.ok() {
                    objs.push(resp.body);
                } else {
                    out.err(&server_error(&resp, None));
                }
            }
        }
        if info.kind == "Event" && f.output.is_empty() {
            tables.push(printers::print_events(&objs, wall_ms(cluster)));
        } else if f.output.is_empty() || wide {
            if !objs.is_empty() {
                let mut table = printers::print_table(info.kind, &objs, wide, with_kind, wall_ms(cluster));
                if f.show_labels {
                    table = add_labels_column(&table, &objs);
                }
                tables.push(table);
            }
        }
        if f.output == "name" {
            for o in &objs {
                out.out(&format!("{}/{}", info.kubectl_prefix(), meta::name(o)));
            }
        }
        all_objs.extend(objs);
    }
    match f.output.as_str() {
        "yaml" => {
            if single_named && all_objs.len() == 1 {
                out.out(&printers::to_yaml(&all_objs[0]));
            } else if !all_objs.is_empty() || out.stderr.is_empty() {
                out.out(&printers::list_to_yaml(&all_objs));
            }
        }
        "json" => {
            if single_named && all_objs.len() == 1 {
                out.out(&printers::to_json(&all_objs[0]));
            } else if !all_objs.is_empty() || out.stderr.is_empty() {
                out.out(&printers::list_to_json(&all_objs));
            }
        }
        "name" => {}
        _ if jsonpath.is_some() => {
            let expr = jsonpath.unwrap_or_default();
            let target = if single_named && all_objs.len() == 1 {
                all_objs[0].clone()
            } else {
                json!({"apiVersion": "v1", "kind": "List", "items": all_objs, "metadata": {"resourceVersion": ""}})
            };
            match printers_jsonpath(&target, &expr) {
                Ok(s) => out.out_raw(&s),
                Err(e) => out.err(&format!("error: error parsing jsonpath {}, {}", expr, e)),
            }
        }
        _ => {
            let tables: Vec<String> = tables.into_iter().filter(|t| !t.is_empty()).collect();
            if tables.is_empty() {
                if out.stderr.is_empty() {
                    let scope = if f.all_namespaces || targets.iter().all(|(i, _)| !i.namespaced) {
                        String::new()
                    } else {
                        format!(" in {} namespace", ns)
                    };
                    out.note(&format!("No resources found{}.\n", scope));
                }
            } else {
                out.out(&tables.join("\n"));
            }
        }
    }
}

fn create(cluster: &mut Cluster, f: &Flags, _ns: &str, out: &mut Output) {
    match f.positional.first().map(|s| s.as_str()) {
        Some("namespace") | Some("ns") => {
            let Some(name) = f.positional.get(1) else {
                return out.err("error: exactly one NAME is required, got 0\nSee 'kubectl create namespace -h' for help and examples");
            };
            let body = json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": name}, "spec": {}, "status": {}});
            let resp = kubectl(cluster, Method::Post, "/api/v1/namespaces?fieldManager=kubectl-create&fieldValidation=Strict", Some(body));
            if resp.ok() {
                out.out(&format!("namespace/{} created", name));
            } else {
                out.err(&server_error(&resp, None));
            }
        }
        Some("deployment") | Some("deploy") => {
            let Some(name) = f.positional.get(1) else {
                return out.err("error: exactly one NAME is required, got 0");
            };
            let Some(image) = f.image.clone() else {
                return out.err("error: required flag(s) \"image\" not set");
            };
            let replicas: i64 = f.replicas.as_deref().unwrap_or("1").parse().unwrap_or(1);
            let cname = image.rsplit('/').next().unwrap_or(&image).split([':', '@']).next().unwrap_or("app").to_string();
            let ns = f.namespace.clone().unwrap_or_else(|| "default".into());
            let body = json!({
                "apiVersion": "apps/v1", "kind": "Deployment",
                "metadata": {"name": name, "labels": {"app": name}},
                "spec": {"replicas": replicas, "selector": {"matchLabels": {"app": name}},
                         "template": {"metadata": {"labels": {"app": name}}, "spec": {"containers": [{"name": cname, "image": image, "resources": {}}]}},
                         "strategy": {}},
                "status": {}
            });
            let resp = kubectl(cluster, Method::Post, &format!("/apis/apps/v1/namespaces/{}/deployments?fieldManager=kubectl-create&fieldValidation=Strict", ns), Some(body));
            if resp.ok() {
                out.out(&format!("deployment.apps/{} created", name));
            } else {
                out.err(&server_error(&resp, None));
            }
        }
        Some(other) => out.err(&format!("error: unknown command \"{}\" for \"kubectl create\"", other)),
        None => out.err("error: must specify one of -f and -k"),
    }
}

fn delete(cluster: &mut Cluster, f: &Flags, ns: &str, stdin: Option<&str>, read_file: &dyn Fn(&str) -> Option<String>, out: &mut Output) {
    let policy = match f.cascade.as_str() {
        "" | "background" | "true" => "Background",
        "foreground" => "Foreground",
        "orphan" | "false" => "Orphan",
        other => return out.err(&format!("error: invalid cascade value ({}). Must be \"background\", \"foreground\", or \"orphan\"", other)),
    };
    let mut items: Vec<(&'static meta::ResourceInfo, String, String)> = Vec::new();
    if !f.files.is_empty() {
        for file in &f.files {
            let text = if file == "-" { stdin.map(String::from) } else { read_file(file) };
            let Some(text) = text else { return out.err(&format!("error: the path \"{}\" does not exist", file)) };
            match codec::decode_manifest(&text) {
                Ok(docs) => {
                    for d in docs {
                        match resource_mapping(&d.object, file) {
                            Ok(info) => {
                                let n = meta::namespace(&d.object);
                                items.push((info, if n.is_empty() { ns.to_string() } else { n.to_string() }, meta::name(&d.object).to_string()))
                            }
                            Err(e) => out.err(&e),
                        }
                    }
                }
                Err(e) => return out.err(&format!("error: error parsing {}: {}", file, e.message)),
            }
        }
    } else {
        match targets(&f.positional) {
            Ok(ts) => {
                for (info, names) in ts {
                    if names.is_empty() {
                        return out.err("error: resource(s) were provided, but no name was specified");
                    }
                    for n in names {
                        items.push((info, ns.to_string(), n));
                    }
                }
            }
            Err(e) => return out.err(&e.replace("to get", "to delete")),
        }
    }
    for (info, ns, name) in items {
        let mut opts = json!({"kind": "DeleteOptions", "apiVersion": "v1", "propagationPolicy": policy});
        if let Some(g) = f.grace_period {
            opts["gracePeriodSeconds"] = json!(g);
        }
        let resp = kubectl(cluster, Method::Delete, &info.object_path(&ns, &name), Some(opts));
        if resp.ok() {
            out.out(&format!("{} \"{}\" deleted", info.kubectl_prefix(), name));
        } else {
            out.err(&server_error(&resp, None));
        }
    }
}

fn scale(cluster: &mut Cluster, f: &Flags, ns: &str, out: &mut Output) {
    let Some(r) = &f.replicas else {
        return out.err("error: required flag(s) \"replicas\" not set");
    };
    let Ok(replicas) = r.parse::<i64>() else {
        return out.err(&format!("error: invalid argument \"{}\" for \"--replicas\" flag: strconv.ParseInt: parsing \"{}\": invalid syntax", r, r));
    };
    if replicas < 0 {
        return out.err("error: The --replicas=COUNT flag is required, and COUNT must be greater than or equal to 0");
    }
    let ts = match targets(&f.positional) {
        Ok(t) => t,
        Err(e) => return out.err(&e),
    };
    for (info, names) in ts {
        if info.kind != "Deployment" && info.kind != "ReplicaSet" {
            out.err(&format!("error: no scaler has been implemented for {{\"{}\" \"{}\"}}", info.group, info.kind));
            continue;
        }
        for n in names {
            let resp = cluster.client_request(
                &kubectl_identity(),
                Request {
                    method: Method::Patch,
                    path: format!("{}/scale", info.object_path(ns, &n)),
                    body: Some(json!({"spec": {"replicas": replicas}})),
                    patch_type: PatchType::Merge,
                },
            );
            if resp.ok() {
                out.out(&format!("{}/{} scaled", info.kubectl_prefix(), n));
            } else {
                out.err(&server_error(&resp, None));
            }
        }
    }
}

fn node_names(f: &Flags) -> Vec<String> {
    f.positional.iter().map(|p| p.strip_prefix("node/").or_else(|| p.strip_prefix("nodes/")).unwrap_or(p).to_string()).collect()
}

fn cordon(cluster: &mut Cluster, f: &Flags, on: bool, out: &mut Output) {
    let names = node_names(f);
    if names.is_empty() {
        return out.err("error: USAGE: cordon NODE [flags]\nSee 'kubectl cordon -h' for help and examples");
    }
    for n in names {
        let path = format!("/api/v1/nodes/{}", n);
        let got = kubectl(cluster, Method::Get, &path, None);
        if !got.ok() {
            out.err(&server_error(&got, None));
            continue;
        }
        let is = meta::get(&got.body, &["spec", "unschedulable"]).and_then(|u| u.as_bool()).unwrap_or(false);
        if is == on {
            out.out(&format!("node/{} already {}", n, if on { "cordoned" } else { "uncordoned" }));
            continue;
        }
        let body = if on { json!({"spec": {"unschedulable": true}}) } else { json!({"spec": {"unschedulable": null}}) };
        let resp = cluster.client_request(&kubectl_identity(), Request { method: Method::Patch, path, body: Some(body), patch_type: PatchType::Strategic });
        if resp.ok() {
            out.out(&format!("node/{} {}", n, if on { "cordoned" } else { "uncordoned" }));
        } else {
            out.err(&server_error(&resp, None));
        }
    }
}

fn taint(cluster: &mut Cluster, f: &Flags, out: &mut Output) {
    let pos = &f.positional;
    if pos.len() < 3 || !matches!(pos[0].as_str(), "node" | "nodes" | "no") {
        return out.err("error: at least one taint update is required\nSee 'kubectl taint -h' for help and examples");
    }
    let node = &pos[1];
    let path = format!("/api/v1/nodes/{}", node);
    let got = kubectl(cluster, Method::Get, &path, None);
    if !got.ok() {
        return out.err(&server_error(&got, None));
    }
    let mut taints = meta::get(&got.body, &["spec", "taints"]).and_then(|t| t.as_array()).cloned().unwrap_or_default();
    let mut removed = false;
    let mut added = false;
    for spec in &pos[2..] {
        if let Some(s) = spec.strip_suffix('-') {
            let (key, effect) = match s.split_once(':') {
                Some((k, e)) => (k.split('=').next().unwrap_or(k).to_string(), Some(e.to_string())),
                None => (s.split('=').next().unwrap_or(s).to_string(), None),
            };
            let before = taints.len();
            taints.retain(|t| !(meta::get_str(t, &["key"]) == key && effect.as_deref().map(|e| meta::get_str(t, &["effect"]) == e).unwrap_or(true)));
            if taints.len() == before {
                return out.err(&format!("error: taint \"{}\" not found", s));
            }
            removed = true;
        } else {
            let Some((kv, effect)) = spec.split_once(':') else {
                return out.err(&format!("error: invalid taint spec: {}, unknown taint spec", spec));
            };
            if !["NoSchedule", "PreferNoSchedule", "NoExecute"].contains(&effect) {
                return out.err(&format!(
                    "error: invalid taint spec: {}, invalid taint effect: {}, unsupported taint effect",
                    spec, effect
                ));
            }
            let (k, v) = kv.split_once('=').unwrap_or((kv, ""));
            if taints.iter().any(|t| meta::get_str(t, &["key"]) == k && meta::get_str(t, &["effect"]) == effect) && !f.overwrite {
                return out.err(&format!("error: node {} already has {} taint(s) with same effect(s) and --overwrite is false", node, k));
            }
            taints.retain(|t| !(meta::get_str(t, &["key"]) == k && meta::get_str(t, &["effect"]) == effect));
            let mut t = json!({"key": k, "effect": effect});
            if !v.is_empty() {
                t["value"] = json!(v);
            }
            taints.push(t);
            added = true;
        }
    }
    let body = if taints.is_empty() { json!({"spec": {"taints": null}}) } else { json!({"spec": {"taints": taints}}) };
    let resp = cluster.client_request(&kubectl_identity(), Request { method: Method::Patch, path, body: Some(body), patch_type: PatchType::Merge });
    if resp.ok() {
        let what = if added && removed { "modified" } else if added { "tainted" } else { "untainted" };
        out.out(&format!("node/{} {}", node, what));
    } else {
        out.err(&server_error(&resp, None));
    }
}

fn label(cluster: &mut Cluster, f: &Flags, ns: &str, out: &mut Output) {
    let pos = &f.positional;
    let (info, name, rest) = if let Some((r, n)) = pos.first().and_then(|p| p.split_once('/')) {
        (meta::lookup(r), n.to_string(), &pos[1..])
    } else if pos.len() >= 2 {
        (meta::lookup(&pos[0]), pos[1].clone(), &pos[2..])
    } else {
        return out.err("error: one or more resources must be specified as <resource> <name> or <resource>/<name>");
    };
    let Some(info) = info else { return out.err(&unknown_resource(&pos[0])) };
    if rest.is_empty() {
        return out.err("error: at least one label update is required");
    }
    let path = info.object_path(ns, &name);
    let got = kubectl(cluster, Method::Get, &path, None);
    if !got.ok() {
        return out.err(&server_error(&got, None));
    }
    let labels = meta::labels(&got.body);
    let mut patch = serde_json::Map::new();
    let mut removing = false;
    for l in rest {
        if let Some(k) = l.strip_suffix('-') {
            patch.insert(k.to_string(), Value::Null);
            removing = true;
        } else if let Some((k, v)) = l.split_once('=') {
            if let Some(old) = labels.get(k) {
                if !f.overwrite && old.as_str() != Some(v) {
                    return out.err(&format!("error: '{}' already has a value ({}), and --overwrite is false", k, old.as_str().unwrap_or("")));
                }
            }
            patch.insert(k.to_string(), json!(v));
        } else {
            return out.err(&format!("error: at least one label update is required"));
        }
    }
    let resp = cluster.client_request(
        &kubectl_identity(),
        Request { method: Method::Patch, path, body: Some(json!({"metadata": {"labels": patch}})), patch_type: PatchType::Merge },
    );
    if resp.ok() {
        let unchanged = meta::labels(&resp.body) == labels;
        let word = if unchanged { "not labeled" } else if removing && patch.values().all(|v| v.is_null()) { "unlabeled" } else { "labeled" };
        out.out(&format!("{}/{} {}", info.singular, name, word));
    } else {
        out.err(&server_error(&resp, None));
    }
}

fn list_items(cluster: &mut Cluster, path: &str) -> Vec<Value> {
    let resp = kubectl(cluster, Method::Get, path, None);
    resp.body.get("items").and_then(|i| i.as_array()).cloned().unwrap_or_default()
}

/// `kubectl describe`: GET the object, LIST what the describer shows with it, then print.
fn describe_cmd(cluster: &mut Cluster, f: &Flags, ns: &str, out: &mut Output) {
    let ts = match targets(&f.positional) {
        Ok(t) => t,
        Err(e) => return out.err(&e.replace("to get", "to describe")),
    };
    let mut sections = Vec::new();
    for (info, names) in ts {
        let names = if names.is_empty() {
            list_items(cluster, &list_path(info, ns, false, &f.selector)).iter().map(|o| meta::name(o).to_string()).collect()
        } else {
            names
        };
        for n in names {
            let resp = kubectl(cluster, Method::Get, &info.object_path(ns, &n), None);
            if !resp.ok() {
                out.err(&server_error(&resp, None));
                continue;
            }
            let obj = resp.body;
            let ev_ns = if info.namespaced { ns.to_string() } else { "default".to_string() };
            let events = list_items(
                cluster,
                &format!(
                    "/api/v1/namespaces/{}/events?fieldSelector=involvedObject.name%3D{},involvedObject.namespace%3D{},involvedObject.uid%3D{}",
                    ev_ns,
                    n,
                    if info.namespaced { ns } else { "" },
                    meta::uid(&obj)
                ),
            );
            let now = wall_ms(cluster);
            let text = match info.kind {
                "Deployment" => {
                    let rss: Vec<Value> = list_items(cluster, &format!("/apis/apps/v1/namespaces/{}/replicasets", ns))
                        .into_iter()
                        .filter(|rs| meta::controller_of(rs).map(|r| meta::get_str(r, &["uid"]) == meta::uid(&obj)).unwrap_or(false))
                        .collect();
                    printers::describe_deployment(&obj, &rss, &events, now)
                }
                "ReplicaSet" => {
                    let pods: Vec<Value> = list_items(cluster, &format!("/api/v1/namespaces/{}/pods", ns))
                        .into_iter()
                        .filter(|p| meta::controller_of(p).map(|r| meta::get_str(r, &["uid"]) == meta::uid(&obj)).unwrap_or(false))
                        .collect();
                    printers::describe_replica_set(&obj, &pods, &events, now)
                }
                "Pod" => printers::describe_pod(&obj, &events, now),
                "Node" => {
                    let pods: Vec<Value> = list_items(cluster, &format!("/api/v1/pods?fieldSelector=spec.nodeName%3D{}", n))
                        .into_iter()
                        .filter(|p| {
                            let ph = meta::get_str(p, &["status", "phase"]);
                            ph != "Succeeded" && ph != "Failed"
                        })
                        .collect();
                    printers::describe_node(&obj, &pods, &events, now)
                }
                _ => printers::to_yaml(&obj),
            };
            sections.push(text);
        }
    }
    if !sections.is_empty() {
        out.out(&sections.join("\n\n"));
    }
}

/// A small subset of kubectl's JSONPath: `{.a.b[0].c}` and `{.items[*].metadata.name}`, with
/// literal text between expressions. Values print as kubectl prints them (strings bare, others JSON;
/// several matches joined by a space).
fn printers_jsonpath(obj: &Value, expr: &str) -> Result<String, String> {
    let mut out = String::new();
    let mut rest = expr;
    while let Some(start) = rest.find('{') {
        out.push_str(&rest[..start]);
        let end = rest[start..].find('}').ok_or("unclosed action")? + start;
        let path = rest[start + 1..end].trim();
        let mut cur: Vec<&Value> = vec![obj];
        for seg in path.trim_start_matches('.').split('.').filter(|s| !s.is_empty()) {
            let (name, idx) = match seg.find('[') {
                Some(i) => (&seg[..i], Some(seg[i + 1..].trim_end_matches(']'))),
                None => (seg, None),
            };
            let mut next = Vec::new();
            for v in cur {
                let v = if name.is_empty() { Some(v) } else { v.get(name) };
                match (v, idx) {
                    (Some(v), None) => next.push(v),
                    (Some(Value::Array(a)), Some("*")) => next.extend(a.iter()),
                    (Some(Value::Array(a)), Some(i)) => {
                        let i: usize = i.parse().map_err(|_| format!("invalid array index {}", i))?;
                        if let Some(x) = a.get(i) {
                            next.push(x);
                        } else {
                            return Err("array index out of bounds".into());
                        }
                    }
                    _ => {}
                }
            }
            cur = next;
        }
        let parts: Vec<String> = cur.iter().map(|v| match v {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        }).collect();
        out.push_str(&parts.join(" "));
        rest = &rest[end + 1..];
    }
    out.push_str(rest);
    Ok(out)
}

/// `--show-labels`: a LABELS column after the others (`k=v,k2=v2` or `<none>`).
fn add_labels_column(table: &str, objs: &[Value]) -> String {
    let lines: Vec<&str> = table.lines().collect();
    let width = lines.iter().map(|l| l.trim_end().chars().count()).max().unwrap_or(0) + 3;
    let mut out = String::new();
    for (i, l) in lines.iter().enumerate() {
        let l = l.trim_end();
        let label = if i == 0 {
            "LABELS".to_string()
        } else {
            let m = objs.get(i - 1).map(meta::labels).unwrap_or_default();
            if m.is_empty() {
                "<none>".to_string()
            } else {
                m.iter().map(|(k, v)| format!("{}={}", k, v.as_str().unwrap_or(""))).collect::<Vec<_>>().join(",")
            }
        };
        out.push_str(&format!("{:<w$}{}\n", l, label, w = width));
    }
    out
}
