//! `kubectl config`: the kubeconfig's views and edits, over the console's one kubeconfig
//! ([`crate::client::kubeconfig`]).
//!
//! Real counterpart: `staging/src/k8s.io/kubectl/pkg/cmd/config` (`view.go`,
//! `current_context.go`, `get_contexts.go`, `get_clusters.go`, `get_users.go`,
//! `use_context.go`, `set_context.go`, `delete_context.go`, `rename_context.go`), with their
//! messages. What kubesim simplifies: one file and no `--kubeconfig`; `set-cluster`,
//! `set-credentials`, `set`, `unset`, `delete-cluster`, `delete-user` are not modelled (they say
//! so); `view -o jsonpath` supports what `kubectl get -o jsonpath` does.

use super::*;
use crate::client::kubeconfig::{Config, NamedContext, KUBECONFIG_PATH, MAX_CONTEXTS};
use crate::kubectl::printers::tabwriter;

/// The flags `kubectl config` subcommands take.
#[derive(Default)]
struct ConfigFlags {
    positional: Vec<String>,
    output: String,
    minify: bool,
    raw: bool,
    current: bool,
    no_headers: bool,
    help: bool,
    cluster: Option<String>,
    user: Option<String>,
    namespace: Option<String>,
}

fn parse(args: &[String]) -> Result<ConfigFlags, String> {
    let mut f = ConfigFlags::default();
    let mut i = 0;
    while i < args.len() {
        let a = &args[i];
        let (name, inline) = match a.split_once('=') {
            Some((n, v)) if a.starts_with('-') => (n, Some(v.to_string())),
            _ => (a.as_str(), None),
        };
        let mut value = |what: &str| -> Result<String, String> {
            if let Some(v) = inline.clone() {
                return Ok(v);
            }
            i += 1;
            args.get(i).cloned().ok_or_else(|| format!("flag needs an argument: {}", what))
        };
        let on = inline.as_deref().map(|v| v != "false").unwrap_or(true);
        match name {
            "-o" | "--output" => f.output = value("'o' in -o")?,
            "--minify" => f.minify = on,
            "--raw" => f.raw = on,
            "--flatten" => {}
            "--current" => f.current = on,
            "--no-headers" => f.no_headers = on,
            "-h" | "--help" => f.help = true,
            "--cluster" => f.cluster = Some(value("--cluster")?),
            "--user" => f.user = Some(value("--user")?),
            "-n" | "--namespace" => f.namespace = Some(value("'n' in -n")?),
            s if s.starts_with("--") && s.len() > 2 => return Err(format!("unknown flag: {}", s)),
            s if s.starts_with('-') && s.len() > 1 => return Err(format!("unknown shorthand flag: '{}' in {}", s.chars().nth(1).unwrap_or('-'), a)),
            _ => f.positional.push(a.clone()),
        }
        i += 1;
    }
    Ok(f)
}

/// The subcommands, as `kubectl config --help` lists them (short descriptions of v1.34), and
/// whether kubesim runs them.
const SUBCOMMANDS: &[(&str, &str, bool)] = &[
    ("current-context", "Display the current-context", true),
    ("delete-cluster", "Delete the specified cluster from the kubeconfig", false),
    ("delete-context", "Delete the specified context from the kubeconfig", true),
    ("delete-user", "Delete the specified user from the kubeconfig", false),
    ("get-clusters", "Display clusters defined in the kubeconfig", true),
    ("get-contexts", "Describe one or many contexts", true),
    ("get-users", "Display users defined in the kubeconfig", true),
    ("rename-context", "Rename a context from the kubeconfig file", true),
    ("set", "Set an individual value in a kubeconfig file", false),
    ("set-cluster", "Set a cluster entry in kubeconfig", false),
    ("set-context", "Set a context entry in kubeconfig", true),
    ("set-credentials", "Set a user entry in kubeconfig", false),
    ("unset", "Unset an individual value in a kubeconfig file", false),
    ("use-context", "Set the current-context in a kubeconfig file", true),
    ("view", "Display merged kubeconfig settings or a specified kubeconfig file", true),
];

/// `kubectl config` with no subcommand (or `--help`): cobra's help of the group.
fn help() -> String {
    let mut s = String::from("Modify kubeconfig files using subcommands like \"kubectl config set current-context my-context\".\n\n The loading order follows these rules:\n\n  1.  If the --kubeconfig flag is set, then only that file is loaded. The flag may only be set once and no merging takes place.\n  2.  If $KUBECONFIG environment variable is set, then it is used as a list of paths (normal path delimiting rules for your system). These paths are merged. When a value is modified, it is modified in the file that defines the stanza. When a value is created, it is created in the first file that exists. If no files in the chain exist, then it creates the last file in the list.\n  3.  Otherwise, ${HOME}/.kube/config is used and no merging takes place.\n\nAvailable Commands:\n");
    for (name, short, _) in SUBCOMMANDS {
        s.push_str(&format!("  {:<16}  {}\n", name, short));
    }
    s.push_str("\nUsage:\n  kubectl config SUBCOMMAND [options]\n\nUse \"kubectl config <command> --help\" for more information about a given command.\nUse \"kubectl options\" for a list of global command-line options (applies to all commands).");
    s
}

/// `kubectl config SUB --help`: kubectl v1.34's help of each subcommand kubesim runs
/// (`help/config.txt`, as `kubectl config SUB --help` prints it).
fn sub_help(sub: &str) -> String {
    const HELP: &str = include_str!("help/config.txt");
    let marker = format!("=== {}\n", sub);
    HELP.split_once(&marker).map(|(_, rest)| rest.split("\n=== ").next().unwrap_or("").trim_end().to_string()).unwrap_or_default()
}

/// `kubectl config ARGS`.
pub(super) fn config(cluster: &mut Cluster, args: &[String], out: &mut Output) {
    let Some(sub) = args.first().map(String::as_str) else {
        out.out(&help());
        out.code = 1;
        return;
    };
    if sub == "-h" || sub == "--help" {
        return out.out(&help());
    }
    let sub = if sub == "use" { "use-context" } else { sub };
    let Some(&(_, _, runs)) = SUBCOMMANDS.iter().find(|s| s.0 == sub) else {
        return out.err(&format!("error: unknown command \"{}\"\nSee 'kubectl config -h' for help and examples", sub));
    };
    if !runs {
        return out.err(&format!("error: kubesim's console has one kubeconfig with one cluster and one user: `kubectl config {}` is not modelled (use set-context, use-context, view)", sub));
    }
    let f = match parse(&args[1..]) {
        Ok(f) => f,
        Err(e) => return out.err(&format!("error: {}\nSee 'kubectl config {} --help' for usage.", e, sub)),
    };
    if f.help {
        return out.out(&sub_help(sub));
    }
    let unexpected = |out: &mut Output| out.err(&format!("error: unexpected arguments: [{}]\nSee 'kubectl config {} -h' for help and examples", f.positional.join(" "), sub));
    match sub {
        "view" => {
            if !f.positional.is_empty() {
                return unexpected(out);
            }
            view(cluster.kubeconfig(), &f, out)
        }
        "current-context" => {
            let cur = &cluster.kubeconfig().current_context;
            if cur.is_empty() {
                return out.err("error: current-context is not set");
            }
            out.out(cur)
        }
        "get-contexts" => get_contexts(cluster.kubeconfig(), &f, out),
        "get-clusters" => {
            out.out("NAME");
            for c in &cluster.kubeconfig().clusters {
                out.out(&c.name);
            }
        }
        "get-users" => {
            out.out("NAME");
            for u in &cluster.kubeconfig().users {
                out.out(u);
            }
        }
        "use-context" => {
            let Some(name) = f.positional.first() else {
                out.out(&sub_help(sub));
                return out.err("error: Unexpected args: []");
            };
            let cfg = cluster.kubeconfig_mut();
            if !cfg.contexts.iter().any(|c| &c.name == name) {
                return out.err(&format!("error: no context exists with the name: \"{}\"", name));
            }
            cfg.current_context = name.clone();
            out.out(&format!("Switched to context \"{}\".", name))
        }
        "set-context" => set_context(cluster.kubeconfig_mut(), &f, out),
        "delete-context" => {
            let Some(name) = f.positional.first() else {
                return out.err("error: unexpected args: []");
            };
            let cfg = cluster.kubeconfig_mut();
            let Some(at) = cfg.contexts.iter().position(|c| &c.name == name) else {
                return out.err(&format!("error: cannot delete context {}, not in {}", name, KUBECONFIG_PATH));
            };
            if &cfg.current_context == name {
                out.note("warning: this removed your active context, use \"kubectl config use-context\" to select a different one");
            }
            cfg.contexts.remove(at);
            out.out(&format!("deleted context {} from {}", name, KUBECONFIG_PATH))
        }
        "rename-context" => {
            let [old, new] = f.positional.as_slice() else {
                return out.err(&format!("error: Unexpected args: [{}]", f.positional.join(" ")));
            };
            let cfg = cluster.kubeconfig_mut();
            let Some(at) = cfg.contexts.iter().position(|c| &c.name == old) else {
                return out.err(&format!("error: cannot rename the context \"{}\", it's not in {}", old, KUBECONFIG_PATH));
            };
            if cfg.contexts.iter().any(|c| &c.name == new) {
                return out.err(&format!("error: cannot rename the context \"{}\", the context \"{}\" already exists in {}", old, new, KUBECONFIG_PATH));
            }
            cfg.contexts[at].name = new.clone();
            if &cfg.current_context == old {
                cfg.current_context = new.clone();
            }
            out.out(&format!("Context \"{}\" renamed to \"{}\".", old, new))
        }
        _ => {}
    }
}

/// `kubectl config view`: YAML (the default), JSON, or a JSONPath over the config.
fn view(cfg: &Config, f: &ConfigFlags, out: &mut Output) {
    match f.output.as_str() {
        "" | "yaml" => out.out_raw(&printers::to_yaml(&cfg.to_value(f.minify, f.raw))),
        "json" => out.out_raw(&cfg.to_json(f.minify, f.raw)),
        o if o.starts_with("jsonpath=") => match get::printers_jsonpath(&cfg.to_value(f.minify, f.raw), &o["jsonpath=".len()..]) {
            Ok(s) => out.out_raw(&s),
            Err(e) => out.err(&format!("error: error parsing jsonpath {}, {}", &o["jsonpath=".len()..], e)),
        },
        other => out.err(&format!("error: unable to match a printer suitable for the output format \"{}\", allowed formats are: go-template,go-template-file,json,jsonpath,jsonpath-as-json,jsonpath-file,name,template,templatefile,yaml", other)),
    }
}

/// `kubectl config get-contexts [NAME] [-o name]`: CURRENT NAME CLUSTER AUTHINFO NAMESPACE.
fn get_contexts(cfg: &Config, f: &ConfigFlags, out: &mut Output) {
    if !f.output.is_empty() && f.output != "name" {
        return out.err(&format!("error: --output {} is not available in kubectl config get-contexts; resetting to default output format", f.output));
    }
    let wanted: Vec<&NamedContext> = if f.positional.is_empty() { cfg.contexts.iter().collect() } else { cfg.contexts.iter().filter(|c| f.positional.contains(&c.name)).collect() };
    let mut sorted = wanted.clone();
    sorted.sort_by(|a, b| a.name.cmp(&b.name));
    if f.output == "name" {
        for c in &sorted {
            out.out(&c.name);
        }
    } else {
        let mut text = String::new();
        if !f.no_headers {
            text.push_str("CURRENT\tNAME\tCLUSTER\tAUTHINFO\tNAMESPACE\n");
        }
        for c in &sorted {
            let mark = if c.name == cfg.current_context { "*" } else { "" };
            text.push_str(&format!("{}\t{}\t{}\t{}\t{}\n", mark, c.name, c.cluster, c.user, c.namespace.as_deref().unwrap_or("")));
        }
        out.out_raw(&tabwriter(&text, 6, 3));
    }
    for name in &f.positional {
        if !cfg.contexts.iter().any(|c| &c.name == name) {
            out.err(&format!("error: context {} not found", name));
        }
    }
}

/// `kubectl config set-context [NAME | --current] [--cluster] [--user] [--namespace]`.
fn set_context(cfg: &mut Config, f: &ConfigFlags, out: &mut Output) {
    if f.positional.len() > 1 {
        out.out(&sub_help("set-context"));
        return out.err(&format!("error: Unexpected args: [{}]", f.positional.join(" ")));
    }
    let name = match (f.positional.first(), f.current) {
        (Some(_), true) => return out.err("error: you cannot specify both a context name and --current"),
        (Some(n), false) => n.clone(),
        (None, true) if cfg.current_context.is_empty() => return out.err("error: no current context is set"),
        (None, true) => cfg.current_context.clone(),
        (None, false) => return out.err("error: you must specify a non-empty context name or --current"),
    };
    let exists = cfg.contexts.iter().any(|c| c.name == name);
    if !exists && cfg.contexts.len() >= MAX_CONTEXTS {
        return out.err(&format!("error: kubesim keeps at most {} contexts", MAX_CONTEXTS));
    }
    if !exists {
        cfg.contexts.push(NamedContext { name: name.clone(), cluster: String::new(), user: String::new(), namespace: None });
    }
    let ctx = cfg.contexts.iter_mut().find(|c| c.name == name).expect("just ensured");
    if let Some(c) = &f.cluster {
        ctx.cluster = c.clone();
    }
    if let Some(u) = &f.user {
        ctx.user = u.clone();
    }
    if let Some(ns) = &f.namespace {
        ctx.namespace = (!ns.is_empty()).then(|| ns.clone());
    }
    out.out(&format!("Context \"{}\" {}.", name, if exists { "modified" } else { "created" }))
}

/// What kubectl makes of the kubeconfig before a command that talks to the server: the
/// context's namespace (None: `default`), or the error it stops with (`--context` naming no
/// context; a context whose cluster or user the kubeconfig lacks).
pub(super) fn resolve(cfg: &Config, context: Option<&str>) -> Result<Option<String>, String> {
    let Some(ctx) = cfg.context(context) else {
        // `--context` or a current-context naming no context (deleted while active)
        return Err(format!("Error in configuration: context was not found for specified context: {}", context.unwrap_or(&cfg.current_context)));
    };
    if !cfg.clusters.iter().any(|c| c.name == ctx.cluster) {
        return Err("The connection to the server localhost:8080 was refused - did you specify the right host or port?".into());
    }
    if !cfg.users.contains(&ctx.user) {
        // client-go prompts for basic-auth credentials, and the console has no stdin
        return Err("Please enter Username: error: EOF".into());
    }
    Ok(ctx.namespace.clone())
}

/// `kubectl cluster-info`: the control plane's address, and each Service in `kube-system`
/// labelled `kubernetes.io/cluster-service=true` with its proxy URL (clusterinfo.go).
pub(super) fn cluster_info(cluster: &mut Cluster, f: &Flags, out: &mut Output) {
    if f.positional.first().is_some_and(|p| p == "dump") {
        return out.err("error: kubesim's kubectl does not model `cluster-info dump` (use `kubectl get` and `kubectl logs`)");
    }
    let host = cluster.kubeconfig().context(f.context.as_deref()).and_then(|c| cluster.kubeconfig().clusters.iter().find(|k| k.name == c.cluster)).map(|k| k.server.clone()).unwrap_or_default();
    let ns = f.namespace.clone().unwrap_or_else(|| "kube-system".into());
    let info = meta::lookup("services").expect("services are served");
    let resp = kubectl(cluster, Method::Get, &get::list_path_fields(info, &ns, false, "kubernetes.io/cluster-service=true", ""), None);
    if !resp.ok() {
        return out.err(&server_error(&resp, None));
    }
    out.out(&format!("Kubernetes control plane is running at {}", host));
    for s in resp.body.get("items").and_then(Value::as_array).cloned().unwrap_or_default() {
        let name = meta::name(&s).to_string();
        let ingress = meta::get_array(&s, &["status", "loadBalancer", "ingress"]);
        let ports = meta::get_array(&s, &["spec", "ports"]);
        let link = if let Some(first) = ingress.first() {
            let ip = Some(meta::get_str(first, &["ip"])).filter(|i| !i.is_empty()).unwrap_or_else(|| meta::get_str(first, &["hostname"]));
            ports.iter().map(|p| format!("http://{}:{} ", ip, p.get("port").and_then(Value::as_i64).unwrap_or(0))).collect::<String>()
        } else {
            let mut target = name.clone();
            if let Some(p) = ports.first() {
                let port_name = meta::get_str(p, &["name"]);
                let https = port_name == "https" || p.get("port").and_then(Value::as_i64) == Some(443);
                // utilnet.JoinSchemeNamePort
                target = match (https, port_name.is_empty()) {
                    (true, _) => format!("https:{}:{}", name, port_name),
                    (false, true) => name.clone(),
                    (false, false) => format!("{}:{}", name, port_name),
                };
            }
            format!("{}/api/v1/namespaces/{}/services/{}/proxy", host, meta::namespace(&s), target)
        };
        let label = meta::get_str(&s, &["metadata", "labels", "kubernetes.io/name"]);
        let shown = if label.is_empty() { name.as_str() } else { label };
        out.out(&format!("{} is running at {}", shown, link));
    }
    out.out("\nTo further debug and diagnose cluster problems, use 'kubectl cluster-info dump'.");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resolve_follows_the_context() {
        let mut cfg = Config::default();
        assert_eq!(resolve(&cfg, None), Ok(None));
        assert_eq!(resolve(&cfg, Some("nope")).unwrap_err(), "Error in configuration: context was not found for specified context: nope");
        cfg.contexts[0].namespace = Some("dev".into());
        assert_eq!(resolve(&cfg, None), Ok(Some("dev".into())));
        cfg.contexts.push(NamedContext { name: "bob".into(), cluster: "kubernetes".into(), user: "bob".into(), namespace: None });
        assert_eq!(resolve(&cfg, Some("bob")).unwrap_err(), "Please enter Username: error: EOF");
    }
}
