//! kubectl: the command line client, as a library the native CLI and the page's console share.
//!
//! Real counterpart: `staging/src/k8s.io/kubectl/pkg/cmd/{apply,get,describe,delete,scale,create,
//! replace,drain(cordon),taint,label}` and the error formatting of `pkg/cmd/util/helpers.go`.
//! Like the real kubectl it only talks to kube-apiserver over its REST API (here:
//! [`Cluster::client_request`]), so every command leaves the same requests in the audit log.
//!
//! One file per command (`apply.rs`, `get.rs`, `create.rs`, `delete.rs`, `scale.rs`, `cordon.rs`,
//! `taint.rs`, `label.rs`, `annotate.rs`, `rollout.rs`, `set.rs`, `logs.rs`); this one parses flags,
//! dispatches, and runs `describe`.
//!
//! What kubesim simplifies: `apply` is client-side apply with a three-way *merge* patch (upstream
//! computes a strategic merge patch; the result is the same for the fields learners edit, lists are
//! replaced whole); output flags are `-o wide|yaml|json|name`; no kubeconfig, one cluster.

mod annotate;
mod apply;
mod auth;
mod config;
mod console;
mod attach;
mod attachable;
mod cp;
mod explain;
pub mod kustomize;
pub mod lazy;
mod portforward;
pub use console::{full_help, WatchTable};
mod cordon;
mod drain;
mod create;
mod create_configmap;
mod create_role;
mod create_secret;
mod create_token;
mod debug;
mod debug_profiles;
mod delete;
mod diff;
pub mod edit;
mod expose;
pub mod describe;
mod get;
pub mod gosort;
mod label;
mod patch_cmd;
mod logs;
pub mod printers;
pub mod rollout;
mod run;
mod scale;
mod set;
mod set_env;
mod taint;
mod wait;
mod top;
mod autoscale;

use annotate::*;
use apply::*;
use console::*;
use cordon::*;
use drain::*;
use create::*;
use delete::*;
use expose::*;
use get::*;
use label::*;
use patch_cmd::*;
use logs::*;
use rollout::*;
use scale::*;
use set::*;
use taint::*;

use crate::api::{codec, meta};
use crate::api::patch;
use crate::api::request::{EventType, Method, PatchType, Request, Response};
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
    /// `--server-side`, `--force-conflicts` (`diff`)
    server_side: bool,
    force_conflicts: bool,
    /// `--field-manager` (`apply --server-side`)
    field_manager: Option<String>,
    /// `port-forward --address`, `proxy --address`
    address: Option<String>,
    /// `-k`/`--kustomize DIR` (`apply`, `create`, `delete`)
    kustomize: Option<String>,
    namespace: Option<String>,
    all_namespaces: bool,
    /// `delete --all`: every object of the type in the namespace
    all: bool,
    output: String,
    selector: String,
    field_selector: String,
    replicas: Option<String>,
    cascade: String,
    grace_period: Option<i64>,
    /// `--force` (`drain`: Pods without a controller too)
    force: bool,
    /// `drain --ignore-daemonsets`
    ignore_daemonsets: bool,
    /// `drain --delete-emptydir-data`
    delete_emptydir_data: bool,
    overwrite: bool,
    image: Option<String>,
    /// `create job --from=cronjob/NAME`
    from: Option<String>,
    show_labels: bool,
    /// `rollout history --revision`, `rollout status --revision`
    revision: Option<String>,
    /// `rollout undo --to-revision`
    to_revision: Option<String>,
    /// `rollout status --watch` (default true)
    watch: Option<bool>,
    /// `rollout status --timeout`
    timeout: Option<String>,
    /// `--record` (deprecated upstream, still honoured): the command line goes into
    /// `kubernetes.io/change-cause`
    record: bool,
    /// `logs -c`
    container: Option<String>,
    /// `logs -p`
    previous: bool,
    /// `logs -f`
    follow: bool,
    /// `logs --tail`
    tail: Option<String>,
    /// what follows `--` (`create deployment NAME --image=busybox -- sleep 3600`)
    command: Vec<String>,
    /// `expose --port`
    port: Option<String>,
    /// `expose --target-port`
    target_port: Option<String>,
    /// `expose --type`
    svc_type: Option<String>,
    /// `expose --name`
    name: Option<String>,
    /// `expose --protocol`
    protocol: Option<String>,
    /// `create service --tcp=port:targetPort` (repeatable)
    tcp: Vec<String>,
    /// `create service nodeport --node-port`
    node_port: Option<String>,
    /// `create service clusterip --clusterip`
    cluster_ip: Option<String>,
    /// `get --sort-by`
    sort_by: Option<String>,
    /// `events --for TYPE/NAME`; `wait --for CONDITION`
    for_object: Option<String>,
    /// `patch -p`: the patch.
    patch: Option<String>,
    /// `patch --patch-file`
    patch_file: Option<String>,
    /// `-i`/`--stdin`, `-t`/`--tty` (`run`, `exec`, `debug`)
    stdin: bool,
    tty: bool,
    /// `debug --copy-to`, `--target`, `--profile`, `--same-node`, `--replace`,
    /// `--share-processes`, `--arguments-only`, `--keep-labels`
    copy_to: Option<String>,
    target: Option<String>,
    profile: Option<String>,
    same_node: bool,
    replace: bool,
    share_processes: Option<bool>,
    arguments_only: bool,
    keep_labels: bool,
    /// `debug --keep-annotations|--keep-liveness|--keep-readiness|--keep-startup|--keep-init-containers`
    keep_annotations: bool,
    keep_liveness: bool,
    keep_readiness: bool,
    keep_startup: bool,
    keep_init_containers: Option<bool>,
    /// `api-resources --api-group`: only that group (`""` the core group).
    api_group: Option<String>,
    /// `events --types` (repeatable, comma separated)
    types: Vec<String>,
    /// `-h` / `--help`
    help: bool,
    /// `run --restart`
    restart: Option<String>,
    /// `--context`: the kubeconfig context to use instead of the current one
    context: Option<String>,
    /// `run --env K=V` (repeatable)
    env: Vec<String>,
    /// `run --command`: what follows `--` is the command, not the args
    run_command: bool,
    /// `--dry-run=VALUE` (only `run` acts on it yet)
    dry_run: Option<String>,
    /// `create configmap|secret --from-literal K=V` (repeatable)
    from_literal: Vec<String>,
    /// `create configmap|secret --from-file [K=]PATH` (repeatable)
    from_file: Vec<String>,
    /// `create configmap|secret --from-env-file PATH` (repeatable)
    from_env_file: Vec<String>,
    /// `create secret docker-registry --docker-server|--docker-username|--docker-password|--docker-email`
    docker_server: Option<String>,
    docker_username: Option<String>,
    docker_password: Option<String>,
    docker_email: Option<String>,
    /// `create secret tls --cert|--key`
    cert: Option<String>,
    key: Option<String>,
    /// `create role|clusterrole --verb|--resource|--resource-name|--non-resource-url|--aggregation-rule`
    verb: Vec<String>,
    resource: Vec<String>,
    resource_name: Vec<String>,
    non_resource_url: Vec<String>,
    aggregation_rule: Vec<String>,
    /// `create rolebinding|clusterrolebinding --role|--clusterrole|--user|--group|--serviceaccount`
    role: Option<String>,
    clusterrole: Option<String>,
    user: Vec<String>,
    group: Vec<String>,
    serviceaccount: Vec<String>,
    /// `create token --duration|--audience|--bound-object-kind|--bound-object-name`
    duration: Option<String>,
    audience: Vec<String>,
    bound_object_kind: Option<String>,
    bound_object_name: Option<String>,
    /// `auth can-i --list|-q|--subresource`
    list: bool,
    quiet: bool,
    subresource: Option<String>,
    /// `top pod --containers`
    containers: bool,
    /// `--no-headers`
    no_headers: bool,
    /// `autoscale --min|--max|--cpu|--cpu-percent|--memory`
    min: Option<String>,
    max: Option<String>,
    cpu: Option<String>,
    cpu_percent: Option<String>,
    memory: Option<String>,
    /// the global `--as` and `--as-group` (impersonation)
    as_user: Option<String>,
    as_group: Vec<String>,
}

const KNOWN_COMMANDS: &[&str] = &[
    "apply", "get", "describe", "delete", "scale", "create", "replace", "cordon", "uncordon", "drain", "taint", "label", "annotate", "rollout", "set", "logs", "expose", "exec", "version", "api-resources", "events", "explain", "help", "run", "auth", "edit", "top", "autoscale", "patch", "config", "cluster-info", "api-versions", "wait", "diff", "debug", "kustomize", "port-forward", "proxy", "attach", "cp",
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
        if a == "--" {
            f.command = args[i + 1..].to_vec();
            break;
        }
        let (name, inline) = match a.split_once('=') {
            Some((n, v)) if a.starts_with('-') => (n.to_string(), Some(v.to_string())),
            _ => (a.clone(), None),
        };
        match name.as_str() {
            "-f" | "--filename" => f.files.push(take(&mut i, "'f' in -f", inline)?),
            "-k" | "--kustomize" => f.kustomize = Some(take(&mut i, "'k' in -k", inline)?),
            "--address" => f.address = Some(take(&mut i, "--address", inline)?),
            "-n" | "--namespace" => f.namespace = Some(take(&mut i, "'n' in -n", inline)?),
            "-A" | "--all-namespaces" => f.all_namespaces = true,
            "--all" => f.all = inline.map(|v| v != "false").unwrap_or(true),
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
            "--force" => f.force = inline.map(|v| v != "false").unwrap_or(true),
            "--ignore-daemonsets" => f.ignore_daemonsets = inline.map(|v| v != "false").unwrap_or(true),
            "--delete-emptydir-data" | "--delete-local-data" => f.delete_emptydir_data = inline.map(|v| v != "false").unwrap_or(true),
            "--overwrite" => f.overwrite = inline.map(|v| v != "false").unwrap_or(true),
            "--image" => f.image = Some(take(&mut i, "--image", inline)?),
            "--from" => f.from = Some(take(&mut i, "--from", inline)?),
            "--show-labels" => f.show_labels = true,
            "--revision" => f.revision = Some(take(&mut i, "--revision", inline)?),
            "--to-revision" => f.to_revision = Some(take(&mut i, "--to-revision", inline)?),
            "-w" | "--watch" => f.watch = Some(inline.map(|v| v != "false").unwrap_or(true)),
            "--timeout" => f.timeout = Some(take(&mut i, "--timeout", inline)?),
            "--record" => f.record = inline.map(|v| v != "false").unwrap_or(true),
            "-c" | "--container" => f.container = Some(take(&mut i, "'c' in -c", inline)?),
            "-p" | "--previous" => f.previous = inline.map(|v| v != "false").unwrap_or(true),
            "--follow" => f.follow = inline.map(|v| v != "false").unwrap_or(true),
            "--tail" => f.tail = Some(take(&mut i, "--tail", inline)?),
            "--port" => f.port = Some(take(&mut i, "--port", inline)?),
            "--target-port" => f.target_port = Some(take(&mut i, "--target-port", inline)?),
            "--type" => f.svc_type = Some(take(&mut i, "--type", inline)?),
            "--name" => f.name = Some(take(&mut i, "--name", inline)?),
            "--protocol" => f.protocol = Some(take(&mut i, "--protocol", inline)?),
            "--tcp" => f.tcp.push(take(&mut i, "--tcp", inline)?),
            "--node-port" => f.node_port = Some(take(&mut i, "--node-port", inline)?),
            "--clusterip" => f.cluster_ip = Some(take(&mut i, "--clusterip", inline)?),
            "--sort-by" => f.sort_by = Some(take(&mut i, "--sort-by", inline)?),
            "--for" => f.for_object = Some(take(&mut i, "--for", inline)?),
            "--patch" => f.patch = Some(take(&mut i, "--patch", inline)?),
            "--patch-file" => f.patch_file = Some(take(&mut i, "--patch-file", inline)?),
            "--api-group" => f.api_group = Some(take(&mut i, "--api-group", inline)?),
            "--types" => f.types.push(take(&mut i, "--types", inline)?),
            "-h" | "--help" => f.help = true,
            "--restart" => f.restart = Some(take(&mut i, "--restart", inline)?),
            "--env" => f.env.push(take(&mut i, "--env", inline)?),
            "--labels" => f.selector = take(&mut i, "--labels", inline)?,
            "--command" => f.run_command = inline.map(|v| v != "false").unwrap_or(true),
            "--dry-run" if inline.is_some() => f.dry_run = inline,
            "--from-literal" => f.from_literal.push(take(&mut i, "--from-literal", inline)?),
            "--from-file" => f.from_file.push(take(&mut i, "--from-file", inline)?),
            "--from-env-file" => f.from_env_file.push(take(&mut i, "--from-env-file", inline)?),
            "--docker-server" => f.docker_server = Some(take(&mut i, "--docker-server", inline)?),
            "--docker-username" => f.docker_username = Some(take(&mut i, "--docker-username", inline)?),
            "--docker-password" => f.docker_password = Some(take(&mut i, "--docker-password", inline)?),
            "--docker-email" => f.docker_email = Some(take(&mut i, "--docker-email", inline)?),
            "--cert" => f.cert = Some(take(&mut i, "--cert", inline)?),
            "--key" => f.key = Some(take(&mut i, "--key", inline)?),
            "--verb" => f.verb.push(take(&mut i, "--verb", inline)?),
            "--resource" => f.resource.push(take(&mut i, "--resource", inline)?),
            "--resource-name" => f.resource_name.push(take(&mut i, "--resource-name", inline)?),
            "--non-resource-url" => f.non_resource_url.push(take(&mut i, "--non-resource-url", inline)?),
            "--aggregation-rule" => f.aggregation_rule.push(take(&mut i, "--aggregation-rule", inline)?),
            "--role" => f.role = Some(take(&mut i, "--role", inline)?),
            "--clusterrole" => f.clusterrole = Some(take(&mut i, "--clusterrole", inline)?),
            "--user" => f.user.push(take(&mut i, "--user", inline)?),
            "--group" => f.group.push(take(&mut i, "--group", inline)?),
            "--serviceaccount" => f.serviceaccount.push(take(&mut i, "--serviceaccount", inline)?),
            "--duration" => f.duration = Some(take(&mut i, "--duration", inline)?),
            "--audience" => f.audience.push(take(&mut i, "--audience", inline)?),
            "--bound-object-kind" => f.bound_object_kind = Some(take(&mut i, "--bound-object-kind", inline)?),
            "--bound-object-name" => f.bound_object_name = Some(take(&mut i, "--bound-object-name", inline)?),
            "--list" => f.list = inline.map(|v| v != "false").unwrap_or(true),
            "-q" | "--quiet" => f.quiet = inline.map(|v| v != "false").unwrap_or(true),
            "--subresource" => f.subresource = Some(take(&mut i, "--subresource", inline)?),
            "--as" => f.as_user = Some(take(&mut i, "--as", inline)?),
            "--containers" => f.containers = inline.map(|v| v != "false").unwrap_or(true),
            "--no-headers" => f.no_headers = inline.map(|v| v != "false").unwrap_or(true),
            "--min" => f.min = Some(take(&mut i, "--min", inline)?),
            "--max" => f.max = Some(take(&mut i, "--max", inline)?),
            "--cpu" => f.cpu = Some(take(&mut i, "--cpu", inline)?),
            "--cpu-percent" => f.cpu_percent = Some(take(&mut i, "--cpu-percent", inline)?),
            "--memory" => f.memory = Some(take(&mut i, "--memory", inline)?),
            "--as-group" => f.as_group.push(take(&mut i, "--as-group", inline)?),
            "--context" => f.context = Some(take(&mut i, "--context", inline)?),
            "-i" | "--stdin" => f.stdin = inline.map(|v| v != "false").unwrap_or(true),
            "-t" | "--tty" => f.tty = inline.map(|v| v != "false").unwrap_or(true),
            "-it" | "-ti" => {
                f.stdin = true;
                f.tty = true;
            }
            "--copy-to" => f.copy_to = Some(take(&mut i, "--copy-to", inline)?),
            "--target" => f.target = Some(take(&mut i, "--target", inline)?),
            "--profile" => f.profile = Some(take(&mut i, "--profile", inline)?),
            "--same-node" => f.same_node = inline.map(|v| v != "false").unwrap_or(true),
            "--replace" => f.replace = inline.map(|v| v != "false").unwrap_or(true),
            "--share-processes" => f.share_processes = Some(inline.map(|v| v != "false").unwrap_or(true)),
            "--arguments-only" => f.arguments_only = inline.map(|v| v != "false").unwrap_or(true),
            "--keep-labels" => f.keep_labels = inline.map(|v| v != "false").unwrap_or(true),
            "--keep-annotations" => f.keep_annotations = inline.map(|v| v != "false").unwrap_or(true),
            "--keep-liveness" => f.keep_liveness = inline.map(|v| v != "false").unwrap_or(true),
            "--keep-readiness" => f.keep_readiness = inline.map(|v| v != "false").unwrap_or(true),
            "--keep-startup" => f.keep_startup = inline.map(|v| v != "false").unwrap_or(true),
            "--keep-init-containers" => f.keep_init_containers = Some(inline.map(|v| v != "false").unwrap_or(true)),
            "--server-side" => f.server_side = inline.map(|v| v != "false").unwrap_or(true),
            "--force-conflicts" => f.force_conflicts = inline.map(|v| v != "false").unwrap_or(true),
            "--field-manager" => f.field_manager = Some(take(&mut i, "--field-manager", inline)?),
            "--validate" | "--dry-run" | "--wait" | "--rm" | "--attach" => {}
            s if s.starts_with("--") && s.len() > 2 => return Err(format!("unknown flag: {}", s)),
            // pflag: the first unknown letter of a shorthand group
            s if s.starts_with('-') && s.len() > 1 => return Err(format!("unknown shorthand flag: '{}' in {}", s.chars().nth(1).unwrap_or('-'), a)),
            _ => f.positional.push(a.clone()),
        }
        i += 1;
    }
    Ok(f)
}

/// kubectl's global flags may come before the command (`kubectl -n kube-system get pods`,
/// `kubectl --context dev get deployments`): cobra parses them wherever they are, so they are
/// moved after the command word here, where the command's flags are parsed.
fn hoist_global_flags(args: &[String]) -> Vec<String> {
    const WITH_VALUE: &[&str] = &["-n", "--namespace", "--context", "--as", "--as-group"];
    let mut globals = Vec::new();
    let mut i = 0;
    while i < args.len() && args[i].starts_with('-') && args[i] != "-h" && args[i] != "--help" {
        let a = &args[i];
        let name = a.split_once('=').map(|(n, _)| n).unwrap_or(a);
        if !WITH_VALUE.contains(&name) {
            break;
        }
        globals.push(a.clone());
        if !a.contains('=') {
            if let Some(v) = args.get(i + 1) {
                globals.push(v.clone());
            }
            i += 1;
        }
        i += 1;
    }
    if globals.is_empty() || i >= args.len() {
        return args.to_vec();
    }
    let mut out = vec![args[i].clone()];
    out.extend(globals);
    out.extend(args[i + 1..].iter().cloned());
    out
}

/// Runs one kubectl command (`args` without the leading `kubectl`). `stdin` feeds `-f -`;
/// `read_file` is how the shell provides other `-f` files (the core does no IO).
pub fn run(cluster: &mut Cluster, args: &[String], stdin: Option<&str>, read_file: &dyn Fn(&str) -> Option<String>) -> Output {
    // a file is looked up on the console's machine first (what `cat > FILE` wrote), then where
    // the shell keeps its files
    let files = cluster.workstation().clone();
    let home = format!("{}/", crate::client::workstation::HOME);
    let read_file = &|p: &str| files.read(p).map(String::from).or_else(|| read_file(p.strip_prefix(home.as_str()).unwrap_or(p)));
    let mut out = Output::default();
    // `… &`: the console runs a command in the background the way it runs every command
    let args = args.strip_suffix(&["&".to_string()]).unwrap_or(args);
    // the command line as `jobs` lists it
    let line = format!("kubectl {}", args.join(" "));
    let hoisted = hoist_global_flags(args);
    let args = hoisted.as_slice();
    let Some(cmd) = args.first() else {
        out.out(&root_help());
        return out;
    };
    if cmd == "-h" || cmd == "--help" {
        out.out(&root_help());
        return out;
    }
    // cobra finds the command before it parses flags
    if !KNOWN_COMMANDS.contains(&cmd.as_str()) {
        out.err(&not_runnable(cmd));
        return out;
    }
    // `config` has flags of its own (`--current`, `--minify`, `--cluster`) and talks to no server
    if cmd == "config" {
        config::config(cluster, &args[1..], &mut out);
        return out;
    }
    // for `logs`, -f is --follow, not --filename
    let rest: Vec<String> = if cmd == "logs" {
        args[1..].iter().map(|a| if a == "-f" { "--follow".to_string() } else { a.clone() }).collect()
    } else if cmd == "patch" {
        // and for `patch`, -p is --patch
        args[1..].iter().map(|a| if a == "-p" { "--patch".to_string() } else { a.clone() }).collect()
    } else if cmd == "proxy" {
        // and for `proxy`, -p is --port
        args[1..].iter().map(|a| if a == "-p" { "--port".to_string() } else { a.clone() }).collect()
    } else {
        args[1..].to_vec()
    };
    let flags = match parse_flags(&rest) {
        Ok(f) => f,
        Err(e) => {
            out.err(&format!("error: {}\nSee 'kubectl {} --help' for usage.", e, cmd));
            return out;
        }
    };
    // `-q`/`--quiet` is `auth can-i`'s and `attach`'s alone
    if flags.quiet && cmd != "auth" && cmd != "attach" {
        let bad = if rest.iter().any(|a| a == "-q") { "unknown shorthand flag: 'q' in -q".to_string() } else { "unknown flag: --quiet".to_string() };
        out.err(&format!("error: {}\nSee 'kubectl {} --help' for usage.", bad, cmd));
        return out;
    }
    // the kubeconfig's context: its namespace is the default one, and a context kubectl cannot
    // use stops the command before any request
    let context_ns = if flags.help || cmd == "help" {
        None
    } else {
        match config::resolve(cluster.kubeconfig(), flags.context.as_deref()) {
            Ok(ns) => ns,
            Err(e) => {
                out.err(&e);
                return out;
            }
        }
    };
    let ns = flags.namespace.clone().or(context_ns).unwrap_or_else(|| "default".into());
    // pflag prints a deprecated flag's notice when it parses it, before the command runs
    if rest.iter().any(|a| a == "--record" || a.starts_with("--record=")) {
        out.note("Flag --record has been deprecated, --record will be removed in the future");
    }
    if flags.help {
        match command_help(cmd) {
            Some(h) => out.out(&h),
            None => out.out(&root_help()),
        }
        return out;
    }
    // `--as`/`--as-group`: every request of this command carries the impersonation headers
    if !flags.as_group.is_empty() && flags.as_user.is_none() {
        out.err("error: requesting uid, groups or user-extra for kubernetes-admin without impersonating a user");
        return out;
    }
    cluster.set_client_impersonation(flags.as_user.clone().map(|user| crate::api::request::Impersonation { user, groups: flags.as_group.clone() }));
    // --dry-run: server sends every write with dryRun=All; client, where a command does not
    // build the object itself, is answered the same way (nothing is stored either way)
    let dry = match flags.dry_run.as_deref() {
        None | Some("none") => None,
        Some("server") => Some(" (server dry run)"),
        Some("client") => Some(" (dry run)"),
        Some(other) => {
            out.err(&format!("error: Invalid dry-run value ({}). Must be \"none\", \"server\", or \"client\".", other));
            return out;
        }
    };
    cluster.set_client_dry_run(dry.is_some());
    let mut inner = Output::default();
    run_command(cluster, cmd, &flags, &ns, stdin, read_file, &line, &mut inner);
    cluster.set_client_dry_run(false);
    cluster.set_client_impersonation(None);
    // (patch.go does not mark its operation for a dry run)
    if let Some(suffix) = dry.filter(|_| cmd != "patch") {
        // the name printer's `%s (server dry run)` operation
        let mark = |text: &str| text.lines().map(|l| if is_operation_line(l) { format!("{}{}\n", l, suffix) } else { format!("{}\n", l) }).collect::<String>();
        inner.stdout = mark(&inner.stdout);
        inner.all = mark(&inner.all);
    }
    out.stdout.push_str(&inner.stdout);
    out.stderr.push_str(&inner.stderr);
    out.all.push_str(&inner.all);
    out.code = inner.code;
    out
}

fn run_command(cluster: &mut Cluster, cmd: &str, flags: &Flags, ns: &str, stdin: Option<&str>, read_file: &dyn Fn(&str) -> Option<String>, line: &str, out: &mut Output) {
    let ns = ns.to_string();
    match cmd {
        "apply" | "create" | "delete" if flags.kustomize.is_some() && !flags.files.is_empty() => out.err("error: only one of -f or -k can be specified"),
        "apply" | "create" | "delete" if flags.kustomize.is_some() => {
            let dir = flags.kustomize.clone().unwrap_or_default();
            let Some(text) = kustomize::build_for(cluster, &dir, read_file, out) else { return };
            if cmd == "delete" {
                let mut f = Flags { files: vec!["-".into()], ..Flags::default() };
                f.namespace = flags.namespace.clone();
                f.cascade = flags.cascade.clone();
                f.grace_period = flags.grace_period;
                delete(cluster, &f, &ns, Some(&text), read_file, out);
            } else {
                apply_manifest(cluster, cmd, server_side(cmd, flags).as_ref(), &dir, &text, &ns, flags.namespace.is_some(), out);
            }
        }
        "kustomize" => kustomize::kustomize_cmd(cluster, flags, read_file, out),
        "port-forward" => portforward::port_forward(cluster, flags, &ns, line, out),
        "proxy" => portforward::proxy(cluster, flags, line, out),
        "attach" => attach::attach(cluster, flags, &ns, out),
        "cp" => cp::cp(cluster, flags, &ns, out),
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
                apply_manifest(cluster, cmd, server_side(cmd, flags).as_ref(), &source, &text, &ns, flags.namespace.is_some(), out);
            }
        }
        "apply" | "replace" => out.err("error: must specify one of -f and -k"),
        "create" => create(cluster, flags, &ns, read_file, out),
        "get" if flags.watch == Some(true) => get_watch(cluster, flags, &ns, out),
        "get" => get(cluster, flags, &ns, out),
        "events" => events(cluster, flags, &ns, out),
        "explain" => explain::explain(cluster, &flags.positional, out),
        "help" => match flags.positional.first() {
            None => out.out(&root_help()),
            Some(c) => match command_help(c) {
                Some(h) => out.out(&h),
                None => {
                    out.out(&format!("Unknown help topic [`{}`]\n{}", c, root_help()));
                }
            },
        },
        "describe" => describe_cmd(cluster, flags, &ns, out),
        "delete" => delete(cluster, flags, &ns, stdin, read_file, out),
        "scale" => scale(cluster, flags, &ns, out),
        "cordon" | "uncordon" => cordon(cluster, flags, cmd == "cordon", out),
        "drain" => drain(cluster, flags, out),
        "top" => top::top(cluster, flags, &ns, out),
        "autoscale" => autoscale::autoscale(cluster, flags, &ns, out),
        "taint" => taint(cluster, flags, out),
        "label" => label(cluster, flags, &ns, out),
        "annotate" => annotate(cluster, flags, &ns, out),
        "patch" => patch(cluster, flags, &ns, stdin, read_file, out),
        "rollout" => rollout(cluster, flags, &ns, out),
        "set" => set(cluster, flags, &ns, out),
        "logs" => logs(cluster, flags, &ns, out),
        "expose" => expose(cluster, flags, &ns, out),
        "run" => run::run_pod(cluster, flags, &ns, out),
        "exec" => exec(cluster, flags, &ns, out),
        "version" => out.out(&format!(
            "Client Version: {}\nKustomize Version: v5.7.1\nServer Version: {}",
            crate::KUBE_VERSION,
            crate::KUBE_VERSION
        )),
        "api-resources" => api_resources(cluster, flags, out),
        "api-versions" => api_versions(cluster, flags, out),
        "cluster-info" => config::cluster_info(cluster, flags, out),
        "wait" => wait::wait(cluster, flags, &ns, stdin, read_file, out),
        "diff" => diff::diff(cluster, flags, &ns, stdin, read_file, out),
        "debug" => debug::debug(cluster, flags, &ns, out),
        "auth" => auth::auth(cluster, flags, &ns, out),
        "edit" => edit::edit(cluster, flags, &ns, stdin, out),
        other => out.err(&unknown_command(other)),
    }
}

/// `apply --server-side`: the field manager (`kubectl` unless `--field-manager`) and
/// `--force-conflicts`.
fn server_side<'a>(cmd: &str, f: &'a Flags) -> Option<apply::ServerSide<'a>> {
    (cmd == "apply" && f.server_side).then(|| apply::ServerSide { manager: f.field_manager.as_deref().unwrap_or("kubectl"), force: f.force_conflicts })
}

/// A line the name printer wrote for an operation (`deployment.apps/web created`,
/// `service "web" deleted`), which `--dry-run` marks.
fn is_operation_line(l: &str) -> bool {
    const OPS: &[&str] = &["created", "serverside-applied", "configured", "unchanged", "deleted", "labeled", "unlabeled", "annotated", "scaled", "updated", "patched", "exposed", "tainted", "untainted", "cordoned", "uncordoned", "restarted", "paused", "resumed", "serviceaccount updated", "env updated", "resource requirements updated"];
    !l.starts_with(' ') && !l.contains('\t') && !l.contains("  ") && (l.contains('/') || l.contains(" \"")) && OPS.iter().any(|op| l.ends_with(op)) && !l.starts_with("error") && !l.starts_with("Error") && !l.starts_with("Warning")
}

fn kubectl(cluster: &mut Cluster, method: Method, path: &str, body: Option<Value>) -> Response {
    cluster.client_request(&kubectl_identity(), Request::new(method, path, body))
}

/// `Error from server (Reason): message` — or the Invalid form (helpers.go StandardErrorMessage).
pub fn server_error(resp: &Response, source_prefix: Option<(&str, &str)>) -> String {
    if resp.code == 422 && resp.reason() == "Invalid" {
        let d = resp.body.get("details").cloned().unwrap_or(json!({}));
        let causes = d.get("causes").and_then(|c| c.as_array()).cloned().unwrap_or_default();
        if meta::get_str(&d, &["kind"]).is_empty() && meta::get_str(&d, &["name"]).is_empty() && causes.is_empty() {
            // a 422 that names no object (a JSON patch that does not apply)
            return format!("The request is invalid: {}", resp.message());
        }
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
    // `StandardErrorMessage`: a Status without a reason is printed without the parentheses
    if resp.reason().is_empty() {
        return format!("Error from server: {}", msg);
    }
    format!("Error from server ({}): {}", resp.reason(), msg)
}

/// The printers work on Unix milliseconds (timestamps in objects are real dates).
pub fn wall_ms(cluster: &Cluster) -> i64 {
    crate::api::time::EPOCH_MS + cluster.now()
}

/// kubectl's RESTMapper over discovery: the built-in resources, then the custom resources the
/// API server's discovery lists.
pub(crate) fn lookup(cluster: &Cluster, name: &str) -> Option<&'static meta::ResourceInfo> {
    meta::lookup(name).or_else(|| cluster.kubectl_discover(name))
}

fn unknown_resource(name: &str) -> String {
    format!("error: the server doesn't have a resource type \"{}\"", name)
}

/// `TYPE/NAME ARGS…` or `TYPE NAME ARGS…` (label, annotate): the resource, the name, the rest.
fn resource_name_args<'p>(cluster: &Cluster, pos: &'p [String]) -> Result<(&'static meta::ResourceInfo, String, &'p [String]), String> {
    let (kind, name, rest) = if let Some((r, n)) = pos.first().and_then(|p| p.split_once('/')) {
        (r.to_string(), n.to_string(), &pos[1..])
    } else if pos.len() >= 2 {
        (pos[0].clone(), pos[1].clone(), &pos[2..])
    } else {
        return Err("error: one or more resources must be specified as <resource> <name> or <resource>/<name>".into());
    };
    let info = lookup(cluster, &kind).ok_or_else(|| unknown_resource(&kind))?;
    Ok((info, name, rest))
}

/// The resources in the `all` category (`categories: [all]` in their discovery documents).
const ALL_CATEGORY: &[&str] = &["pods", "replicationcontrollers", "services", "daemonsets", "deployments", "replicasets", "statefulsets", "horizontalpodautoscalers", "cronjobs", "jobs"];

/// Splits `deploy/nginx` or `deploy nginx a b` into (resource, names).
fn targets(cluster: &Cluster, pos: &[String]) -> Result<Vec<(&'static meta::ResourceInfo, Vec<String>)>, String> {
    let Some(first) = pos.first() else {
        return Err("error: You must specify the type of resource to get. Use \"kubectl api-resources\" for a complete list of supported resources.".into());
    };
    if first.contains('/') {
        let mut out = Vec::new();
        for p in pos {
            let (r, n) = p.split_once('/').ok_or_else(|| "error: there is no need to specify a resource type as a separate argument when passing arguments in resource/name form (e.g. 'kubectl get resource/<resource_name>' instead of 'kubectl get resource resource/<resource_name>'".to_string())?;
            let info = lookup(cluster, r).ok_or_else(|| unknown_resource(r))?;
            out.push((info, vec![n.to_string()]));
        }
        return Ok(out);
    }
    let mut out = Vec::new();
    for r in first.split(',') {
        if r == "all" {
            // the "all" category, in discovery order (core, apps, autoscaling, batch)
            for name in ALL_CATEGORY {
                out.push((meta::lookup(name).expect("served"), pos[1..].to_vec()));
            }
            // and the custom resources whose CRD puts them in `all`
            for info in cluster.view().crds().in_category("all") {
                out.push((info, pos[1..].to_vec()));
            }
            continue;
        }
        let info = lookup(cluster, r).ok_or_else(|| unknown_resource(r))?;
        out.push((info, pos[1..].to_vec()));
    }
    Ok(out)
}

fn list_items(cluster: &mut Cluster, path: &str) -> Vec<Value> {
    let resp = kubectl(cluster, Method::Get, path, None);
    resp.body.get("items").and_then(|i| i.as_array()).cloned().unwrap_or_default()
}

/// `kubectl describe`: GET the object, LIST what the describer shows with it, then print.
fn describe_cmd(cluster: &mut Cluster, f: &Flags, ns: &str, out: &mut Output) {
    let ts = match targets(cluster, &f.positional) {
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
                "DaemonSet" => {
                    let pods: Vec<Value> = list_items(cluster, &format!("/api/v1/namespaces/{}/pods", ns));
                    printers::describe_daemon_set(&obj, &pods, &events, now)
                }
                "StatefulSet" => {
                    let pods: Vec<Value> = list_items(cluster, &format!("/api/v1/namespaces/{}/pods", ns));
                    describe::describe_stateful_set(&obj, &pods, &events, now)
                }
                "PersistentVolumeClaim" => {
                    let pods: Vec<Value> = list_items(cluster, &format!("/api/v1/namespaces/{}/pods", ns));
                    describe::describe_persistent_volume_claim(&obj, &pods, &events, now)
                }
                "PersistentVolume" => describe::describe_persistent_volume(&obj, &events, now),
                "StorageClass" => describe::describe_storage_class(&obj, &events, now),
                "Job" => printers::describe_job(&obj, &events, now),
                "CronJob" => describe::describe_cron_job(&obj, &events, now),
                "ResourceQuota" => describe::describe_resource_quota(&obj),
                "PriorityClass" => describe::describe_priority_class(&obj, &events, now),
                "PodDisruptionBudget" => describe::describe_pod_disruption_budget(&obj, &events, now),
                "HorizontalPodAutoscaler" => describe::describe_horizontal_pod_autoscaler(&obj, &events, now),
                "Ingress" => {
                    // describeBackendV1: the Service's slices, then the Service, per backend
                    let mut backend = |b: &Value| {
                        let svc = meta::get_str(b, &["service", "name"]).to_string();
                        if svc.is_empty() {
                            return describe::describe_ingress_backend(b, Err(String::new()), &[]);
                        }
                        let slices = list_items(cluster, &format!("/apis/discovery.k8s.io/v1/namespaces/{}/endpointslices?labelSelector=kubernetes.io%2Fservice-name%3D{}", ns, svc));
                        let resp = kubectl(cluster, Method::Get, &format!("/api/v1/namespaces/{}/services/{}", ns, svc), None);
                        let got = if resp.ok() { Ok(&resp.body) } else { Err(meta::get_str(&resp.body, &["message"]).to_string()) };
                        describe::describe_ingress_backend(b, got, &slices)
                    };
                    describe::describe_ingress(&obj, &mut backend, &events, now)
                }
                "IngressClass" => describe::describe_ingress_class(&obj, &events, now),
                "NetworkPolicy" => describe::describe_network_policy(&obj),
                "ConfigMap" => describe::describe_config_map(&obj, &events, now),
                "Secret" => describe::describe_secret(&obj),
                "ServiceAccount" => describe::describe_service_account(&obj, &events, now),
                "Role" | "ClusterRole" => describe::describe_role(&obj),
                "RoleBinding" | "ClusterRoleBinding" => describe::describe_role_binding(&obj),
                "Namespace" => {
                    let quotas = list_items(cluster, &format!("/api/v1/namespaces/{}/resourcequotas", n));
                    // kubesim serves no LimitRanges: the describer prints `No LimitRange resource.`
                    describe::describe_namespace(&obj, &quotas, &[])
                }
                "Pod" => printers::describe_pod(&obj, &events, now),
                "Service" => {
                    let slices = list_items(cluster, &format!("/apis/discovery.k8s.io/v1/namespaces/{}/endpointslices?labelSelector=kubernetes.io%2Fservice-name%3D{}", ns, n));
                    printers::describe_service(&obj, &slices, &events, now)
                }
                "Node" => {
                    let pods: Vec<Value> = list_items(cluster, &format!("/api/v1/pods?fieldSelector=spec.nodeName%3D{}", n))
                        .into_iter()
                        .filter(|p| {
                            let ph = meta::get_str(p, &["status", "phase"]);
                            ph != "Succeeded" && ph != "Failed"
                        })
                        .collect();
                    let lease = kubectl(cluster, Method::Get, &format!("/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/{}", n), None);
                    describe::describe_node_with_lease(&obj, lease.ok().then_some(&lease.body), &pods, &events, now)
                }
                // genericDescriber (every custom resource, and kinds without a describer)
                _ => describe::describe_generic(&obj, &events, now),
            };
            sections.push(text);
        }
    }
    if !sections.is_empty() {
        out.out(&sections.join("\n\n"));
    }
}
