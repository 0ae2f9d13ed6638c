//! The sandbox: the default cluster and the `sim …` commands of scenario scripts.
//!
//! No upstream counterpart — this is what kind/minikube would be for a real cluster: it decides
//! which components run and what the nodes look like. The default cluster is a control plane plus
//! three worker nodes `node-1`…`node-3` with 4 CPU, 8Gi memory and 110 pods each.

use crate::api::{meta, time};
use crate::cluster::{Cluster, ClusterConfig};
use crate::kubelet::{Kubelet, NodeConfig};
use crate::trace::{format_ms, Actor};

/// Cursors for the incremental `sim trace` and `sim audit` commands.
#[derive(Clone, Debug, Default)]
pub struct Sandbox {
    pub trace_cursor: u64,
    pub audit_cursor: u64,
}

impl Sandbox {
    /// Starts the cursors at "now", so `sim trace` and `sim audit` show only what comes after.
    pub fn attach(c: &Cluster) -> Sandbox {
        Sandbox { trace_cursor: c.trace().total(), audit_cursor: c.view().audit_total() }
    }
}

/// Bound on nodes.
pub const MAX_NODES: usize = 5_000;

/// The control plane without nodes.
pub fn control_plane(seed: u64, config: ClusterConfig) -> Cluster {
    let mut c = Cluster::bare(seed, config);
    // kube-aggregator's availability controller runs inside kube-apiserver
    c.add_component(crate::apiserver::aggregator::AvailableConditionController::default());
    // so do apiextensions-apiserver's: CRDs' names, Established, and their deletion
    c.add_component(crate::apiextensions::controllers::ApiExtensionsControllers::default());
    crate::controllers::install(&mut c);
    // the distribution's storage addon: the default StorageClass's provisioner
    c.add_component(crate::provisioner::HostPathProvisioner::default());
    // the nodes' CNI enforces NetworkPolicies as kindnet does (kube-network-policies)
    c.add_component(crate::networkpolicy::KubeNetworkPolicies::default());
    c
}

/// The default cluster: control plane + node-1…node-3, settled (nodes registered).
pub fn default_cluster(seed: u64) -> Cluster {
    default_cluster_with(seed, ClusterConfig::default())
}

/// The region the default cluster's nodes are in, as a cloud provider labels them
/// (`topology.kubernetes.io/region`). kubesim's learners read posts in Korean, so the default
/// cluster is a three-zone cluster in the Seoul region, as a managed cluster there is.
pub const DEFAULT_REGION: &str = "ap-northeast-2";

/// The zone of the default cluster's `node-N`: one node per zone, `ap-northeast-2a`, `-2b`, `-2c`.
pub fn default_zone(i: usize) -> String {
    format!("{}{}", DEFAULT_REGION, (b'a' + ((i + 2) % 3) as u8) as char)
}

/// Adds the region and zone labels a cloud node carries.
pub fn with_zone(mut cfg: NodeConfig, zone: &str) -> NodeConfig {
    cfg.labels.retain(|(k, _)| k != "topology.kubernetes.io/zone" && k != "topology.kubernetes.io/region");
    cfg.labels.push(("topology.kubernetes.io/region".into(), DEFAULT_REGION.into()));
    cfg.labels.push(("topology.kubernetes.io/zone".into(), zone.into()));
    cfg
}

/// The default cluster with another configuration (the page keeps more etcd history).
pub fn default_cluster_with(seed: u64, config: ClusterConfig) -> Cluster {
    let mut c = control_plane(seed, config);
    // `kubeadm init` applies its essential addons before any worker joins: CoreDNS's Pods wait
    // for a node and are scheduled as the nodes register
    install_coredns(&mut c).expect("the coredns addon applies to a fresh control plane");
    // the resource metrics pipeline, as the distributions' metrics-server addon installs it
    install_metrics_server(&mut c).expect("the metrics-server addon applies to a fresh control plane");
    // traffic in: minikube's `ingress` addon (ingress-nginx and the default IngressClass `nginx`)
    install_ingress_nginx(&mut c).expect("the ingress addon applies to a fresh control plane");
    for i in 1..=3 {
        add_node(&mut c, with_zone(NodeConfig::new(&format!("node-{}", i)), &default_zone(i)));
    }
    c.run_until_settled();
    c
}

/// `kubectl apply|delete -f -` of an add-on's manifests, as an administrator: what kubectl
/// printed, or its errors.
fn addon_manifests(c: &mut Cluster, verb: &str, manifests: &str) -> Result<String, String> {
    let args: Vec<String> = [verb, "-f", "-"].iter().map(|s| s.to_string()).collect();
    let out = crate::kubectl::run(c, &args, Some(manifests), &|_| None);
    if out.stderr.is_empty() {
        Ok(out.stdout)
    } else {
        Err(out.stderr)
    }
}

/// `kubeadm init phase addon coredns`: the `coredns` Deployment and the `kube-dns` Service
/// (10.96.0.10) in kube-system, applied as an administrator, and CoreDNS's informers. Every
/// default cluster has it from bootstrap, as kubeadm, kind, minikube and EKS install it;
/// `sim addon coredns` puts it back after `sim addon remove coredns`.
pub fn install_coredns(c: &mut Cluster) -> Result<String, String> {
    if c.components().any(|x| x.actor() == Actor::CoreDns) {
        return Err("the coredns addon is already installed (every kubesim cluster runs CoreDNS from bootstrap, as kubeadm installs it; `sim addon remove coredns` takes it away)".into());
    }
    let applied = addon_manifests(c, "apply", crate::coredns::MANIFESTS)?;
    c.add_component(crate::coredns::CoreDns::default());
    Ok(format!("{}[addons] Applied essential addon: CoreDNS\n", applied))
}

/// `sim addon remove coredns`, for a lesson on DNS failure: deletes what the addon created (as
/// `kubectl delete -f` of kubeadm's manifests would, as an administrator) and stops CoreDNS's
/// informers. Queries to 10.96.0.10 then find no kube-dns rule on any node and time out.
pub fn remove_coredns(c: &mut Cluster) -> Result<String, String> {
    if !c.components().any(|x| x.actor() == Actor::CoreDns) {
        return Err("the coredns addon is not installed: `sim addon coredns` installs it".into());
    }
    let deleted = addon_manifests(c, "delete", crate::coredns::MANIFESTS)?;
    c.remove_component(&Actor::CoreDns);
    Ok(deleted)
}

/// The `metrics-server` addon (minikube's `addons enable metrics-server`, the release's
/// `components.yaml`): its ServiceAccount, RBAC, Service, Deployment and the `APIService` of
/// `metrics.k8s.io`, applied as an administrator, and the addon's process. Every default cluster
/// has it from bootstrap; `sim addon remove metrics-server` takes it away (`kubectl top` then
/// answers `Metrics API not available`).
pub fn install_metrics_server(c: &mut Cluster) -> Result<String, String> {
    if c.components().any(|x| x.actor() == Actor::MetricsServer) {
        return Err("the metrics-server addon is already installed (every kubesim cluster runs it from bootstrap; `sim addon remove metrics-server` takes it away)".into());
    }
    let applied = addon_manifests(c, "apply", crate::metricsserver::MANIFESTS)?;
    c.add_component(crate::metricsserver::MetricsServer::default());
    Ok(applied)
}

/// The `ingress` addon (minikube's `addons enable ingress`): ingress-nginx's namespace, RBAC,
/// ConfigMaps, NodePort Service, Deployment and the default IngressClass `nginx`, applied as an
/// administrator, and the controller's process. Every default cluster has it from bootstrap;
/// `sim addon remove ingress` takes it away (Ingresses are then stored and route nothing).
pub fn install_ingress_nginx(c: &mut Cluster) -> Result<String, String> {
    if c.components().any(|x| x.actor() == Actor::IngressNginx) {
        return Err("the ingress addon is already installed (every kubesim cluster runs ingress-nginx from bootstrap; `sim addon remove ingress` takes it away)".into());
    }
    let applied = addon_manifests(c, "apply", crate::ingressnginx::MANIFESTS)?;
    c.add_component(crate::ingressnginx::IngressNginx::default());
    Ok(applied)
}

/// `sim addon website-operator`: the teaching operator's install manifest (the `Website` CRD, its
/// namespace, ServiceAccount and RBAC), then its process, which waits until the CRD is served.
pub fn install_website_operator(c: &mut Cluster) -> Result<String, String> {
    if c.components().any(|x| x.actor() == Actor::WebsiteOperator) {
        return Err("the website-operator addon is already installed".into());
    }
    let applied = addon_manifests(c, "apply", crate::websiteoperator::MANIFESTS)?;
    c.add_component(crate::websiteoperator::WebsiteOperator::default());
    Ok(applied)
}

/// `sim addon remove website-operator`: stops the operator and deletes its manifest (the CRD with
/// it: every Website goes, and their Deployments and Services with them).
pub fn remove_website_operator(c: &mut Cluster) -> Result<String, String> {
    if !c.components().any(|x| x.actor() == Actor::WebsiteOperator) {
        return Err("the website-operator addon is not installed: `sim addon website-operator` installs it".into());
    }
    c.remove_component(&Actor::WebsiteOperator);
    addon_manifests(c, "delete", crate::websiteoperator::MANIFESTS)
}

/// `sim addon remove ingress`: deletes what the addon created and stops the controller.
pub fn remove_ingress_nginx(c: &mut Cluster) -> Result<String, String> {
    if !c.components().any(|x| x.actor() == Actor::IngressNginx) {
        return Err("the ingress addon is not installed: `sim addon ingress` installs it".into());
    }
    let deleted = addon_manifests(c, "delete", crate::ingressnginx::MANIFESTS)?;
    c.remove_component(&Actor::IngressNginx);
    Ok(deleted)
}

/// `sim addon remove metrics-server`: deletes what the addon created and stops its process.
pub fn remove_metrics_server(c: &mut Cluster) -> Result<String, String> {
    if !c.components().any(|x| x.actor() == Actor::MetricsServer) {
        return Err("the metrics-server addon is not installed: `sim addon metrics-server` installs it".into());
    }
    let deleted = addon_manifests(c, "delete", crate::metricsserver::MANIFESTS)?;
    c.remove_component(&Actor::MetricsServer);
    Ok(deleted)
}

/// `sim load SERVICE --rps N [-n NAMESPACE]`: traffic at a Service (0 stops it).
fn sim_load(c: &mut Cluster, rest: &[&str]) -> Result<String, String> {
    let usage = "usage: sim load SERVICE --rps N [-n NAMESPACE]";
    let (mut svc, mut rps, mut ns) = (None, None, "default".to_string());
    let mut i = 0;
    while i < rest.len() {
        let (flag, inline) = match rest[i].split_once('=') {
            Some((f, v)) if f.starts_with('-') => (f, Some(v.to_string())),
            _ => (rest[i], None),
        };
        match flag {
            "--rps" | "-n" | "--namespace" => {
                let v = flag_value(rest, &mut i, flag, inline)?;
                if flag == "--rps" {
                    let n: f64 = v.parse().map_err(|_| format!("--rps must be a number of requests a second, got \"{}\"", v))?;
                    if !(0.0..=100_000.0).contains(&n) {
                        return Err(format!("--rps must be between 0 and 100000, got {}", v));
                    }
                    rps = Some(n);
                } else {
                    ns = v;
                }
            }
            f if f.starts_with('-') => return Err(format!("unknown flag {} for sim load; {}", f, usage)),
            name if svc.is_none() => svc = Some(name.to_string()),
            _ => return Err(usage.into()),
        }
        i += 1;
    }
    let (Some(svc), Some(rps)) = (svc, rps) else { return Err(usage.into()) };
    if c.view().object(crate::api::meta::Resource::Services.info(), &ns, &svc).is_none() {
        return Err(format!("Error from server (NotFound): services \"{}\" not found", svc));
    }
    c.set_load(&ns, &svc, rps);
    Ok(if rps == 0.0 { format!("load on service/{} stopped\n", svc) } else { format!("sending {} requests/s to service/{} (spread over its ready endpoints)\n", rps, svc) })
}

pub fn add_node(c: &mut Cluster, cfg: NodeConfig) -> usize {
    let index = c.components().filter(|x| matches!(x.actor(), Actor::Kubelet(_))).count();
    let kubelet = Kubelet::new(cfg, index);
    let (name, ip) = (kubelet.node_name().to_string(), kubelet.node_ip());
    let idx = c.add_component(kubelet);
    c.add_component(crate::proxy::KubeProxy::new(&name, &ip));
    idx
}

fn parse_duration_ms(s: &str) -> Result<i64, String> {
    let bad = || format!("invalid duration \"{}\": use a number with a unit: 500ms, 30s, 5m, 1h", s);
    let (num, unit) = if let Some(n) = s.strip_suffix("ms") {
        (n, 1)
    } else if let Some(n) = s.strip_suffix('s') {
        (n, 1000)
    } else if let Some(n) = s.strip_suffix('m') {
        (n, 60_000)
    } else if let Some(n) = s.strip_suffix('h') {
        (n, 3_600_000)
    } else {
        return Err(bad());
    };
    let v: i64 = num.parse().map_err(|_| bad())?;
    if !(0..=86_400_000 * 7).contains(&(v.saturating_mul(unit))) {
        return Err(format!("duration \"{}\" is out of range: kubesim advances at most 7 days at once", s));
    }
    Ok(v * unit)
}

const SIM_USAGE: &str = "usage: sim settle | sim advance DURATION | sim addon coredns|metrics-server|ingress | sim addon remove coredns|metrics-server|ingress | sim load SERVICE --rps N [-n NS] | sim node add|fail|recover|partition|heal NAME | sim fault restart COMPONENT|kube-apiserver|kubelet@NODE | sim fault watch-drop COMPONENT | sim fault api-error CODE [COMPONENT] [--resource R] [--verb V] [--count N] | sim node iptables NAME | sim curl [-H 'Host: H'] [-i|-I|-v|-s] URL | sim trace [--net] | sim audit [--verb V] [--resource R] [--user U] | sim audit policy | sim audit query 'QUERY' | sim etcd get KEY [--rev N] | sim etcd keys [PREFIX]";

/// What `sim settle` prints: where it settled, or that it hit its bound and what kept the
/// cluster busy (the page's console says the same).
pub fn settle_report(s: &crate::cluster::Settle) -> String {
    if s.settled {
        format!("settled at {} after {} steps\n", format_ms(s.time_ms), s.steps)
    } else {
        format!(
            "not settled: stopped after {} steps at {} (kubesim's bound per settle); still busy: {}; run `sim settle` again to continue\n",
            s.steps,
            format_ms(s.time_ms),
            crate::cluster::Busy::describe(&s.busy)
        )
    }
}

/// Runs one `sim …` command.
pub fn sim_command(c: &mut Cluster, sb: &mut Sandbox, args: &[String]) -> Result<String, String> {
    sim_command_with_stdin(c, sb, args, None)
}

/// Runs one `sim …` command whose heredoc, if any, is `stdin` (`sim audit query <<EOF`).
pub fn sim_command_with_stdin(c: &mut Cluster, sb: &mut Sandbox, args: &[String], stdin: Option<&str>) -> Result<String, String> {
    let a: Vec<&str> = args.iter().map(|s| s.as_str()).collect();
    match a.as_slice() {
        ["settle"] => {
            let s = c.run_until_settled();
            Ok(settle_report(&s))
        }
        ["addon", "coredns"] => install_coredns(c),
        ["addon", "remove", "coredns"] => remove_coredns(c),
        ["addon", "metrics-server"] => install_metrics_server(c),
        ["addon", "remove", "metrics-server"] => remove_metrics_server(c),
        ["addon", "ingress"] => install_ingress_nginx(c),
        ["addon", "remove", "ingress"] => remove_ingress_nginx(c),
        ["addon", "website-operator"] => install_website_operator(c),
        ["addon", "remove", "website-operator"] => remove_website_operator(c),
        ["addon", "remove", other] | ["addon", other] => Err(format!("unknown addon \"{}\": kubesim has coredns (kubeadm's `init phase addon coredns`), metrics-server, ingress (minikube's ingress-nginx) and website-operator (a teaching operator for a custom resource)", other)),
        ["load", rest @ ..] => sim_load(c, rest),
        ["advance", d] => {
            let ms = parse_duration_ms(d)?;
            let s = c.advance(ms);
            Ok(format!("advanced to {} ({} steps)\n", format_ms(s.time_ms), s.steps))
        }
        ["node", "add", name, rest @ ..] => {
            if c.components().filter(|x| matches!(x.actor(), Actor::Kubelet(_))).count() >= MAX_NODES {
                return Err(format!("kubesim simulates at most {} nodes", MAX_NODES));
            }
            if c.components().any(|x| x.actor() == Actor::Kubelet(name.to_string())) {
                return Err(format!("node \"{}\" already exists", name));
            }
            if !crate::api::validation::is_dns1123_subdomain(name) {
                return Err(format!("invalid node name \"{}\": must be a lowercase RFC 1123 subdomain", name));
            }
            let mut cfg = NodeConfig::new(name);
            let mut i = 0;
            while i < rest.len() {
                let (flag, inline) = match rest[i].split_once('=') {
                    Some((f, v)) => (f, Some(v.to_string())),
                    None => (rest[i], None),
                };
                let val = flag_value(rest, &mut i, flag, inline)?;
                match flag {
                    "--cpu" => cfg.cpu = val,
                    "--memory" => cfg.memory = val,
                    "--pods" => cfg.pods = val.parse().map_err(|_| format!("--pods must be a number, got \"{}\"", val))?,
                    "--zone" => {
                        if !crate::api::validation::is_dns1123_subdomain(&val) {
                            return Err(format!("invalid zone \"{}\": must be a lowercase RFC 1123 label", val));
                        }
                        cfg = with_zone(cfg, &val);
                    }
                    "--label" => {
                        let (k, v) = val.split_once('=').ok_or_else(|| format!("--label expects key=value, got \"{}\"", val))?;
                        cfg.labels.push((k.to_string(), v.to_string()));
                    }
                    "--taint" => {
                        let (kv, effect) = val.split_once(':').ok_or_else(|| format!("--taint expects key=value:Effect, got \"{}\"", val))?;
                        if !["NoSchedule", "PreferNoSchedule", "NoExecute"].contains(&effect) {
                            return Err(format!("invalid taint effect \"{}\": NoSchedule, PreferNoSchedule or NoExecute", effect));
                        }
                        let (k, v) = kv.split_once('=').unwrap_or((kv, ""));
                        cfg.taints.push((k.to_string(), v.to_string(), effect.to_string()));
                    }
                    other => return Err(format!("unknown flag {} for sim node add", other)),
                }
                i += 1;
            }
            for q in [&cfg.cpu, &cfg.memory] {
                if crate::api::quantity::parse_quantity(&serde_json::json!(q)).is_none() {
                    return Err(format!("invalid quantity \"{}\"", q));
                }
            }
            add_node(c, cfg);
            let s = c.run_until_settled();
            Ok(format!("node/{} added; settled at {}\n", name, format_ms(s.time_ms)))
        }
        ["fault", "restart", "kube-apiserver"] => {
            // every watch breaks; the new watch cache starts empty at the current revision
            let what = c.restart_apiserver();
            let s = c.run_until_settled();
            Ok(format!("kube-apiserver restarted: {}; settled at {}\n", what, format_ms(s.time_ms)))
        }
        ["fault", "watch-drop", name] => {
            // a component of the simulation, else a client outside it with watches open (serve)
            let Some(actor) = c.components().map(|x| x.actor()).find(|a| a.name() == *name) else {
                let what = c.drop_external_watches(name)?;
                return Ok(format!("{}'s watches dropped: {}\n", name, what));
            };
            let what = c.drop_watches(&actor)?;
            let s = c.run_until_settled();
            Ok(format!("{}'s watches dropped: {}; settled at {}\n", name, what, format_ms(s.time_ms)))
        }
        ["fault", "restart", name] => {
            // a component crashes and a fresh process starts: its informers relist
            let actor = c.components().map(|x| x.actor()).find(|a| a.name() == *name);
            let Some(actor) = actor else {
                let names: Vec<String> = c.components().map(|x| x.actor().name()).filter(|n| !n.starts_with("kubelet") && !n.starts_with("kube-proxy")).collect();
                return Err(format!("no component named \"{}\" (try one of: {}, kubelet@NODE)", name, names.join(", ")));
            };
            c.restart_component(&actor)?;
            let s = c.run_until_settled();
            Ok(format!("{} restarted; settled at {}\n", name, format_ms(s.time_ms)))
        }
        ["fault", "api-error", code, rest @ ..] => {
            // kube-apiserver answers the next matching requests with an error (409, 429, 500, 504)
            use crate::apiserver::fault::{ApiFault, FAULT_CODES};
            let code: u16 = code.parse().map_err(|_| format!("sim fault api-error: the code must be one of {:?}, got \"{}\"", FAULT_CODES, code))?;
            if !FAULT_CODES.contains(&code) {
                return Err(format!("sim fault api-error: the code must be one of {:?}, got {}", FAULT_CODES, code));
            }
            let mut f = ApiFault { component: None, resource: None, verb: None, code, remaining: 1 };
            let mut i = 0;
            while i < rest.len() {
                let (flag, inline) = match rest[i].split_once('=') {
                    Some((f, v)) => (f, Some(v.to_string())),
                    None => (rest[i], None),
                };
                if !flag.starts_with("--") {
                    let known = c.components().any(|x| x.actor().name() == flag) || flag == "kubectl";
                    if !known {
                        return Err(format!("no component named \"{}\"", flag));
                    }
                    f.component = Some(flag.to_string());
                    i += 1;
                    continue;
                }
                let val = flag_value(rest, &mut i, flag, inline)?;
                match flag {
                    "--resource" => f.resource = Some(val),
                    "--verb" => f.verb = Some(val),
                    "--count" => f.remaining = val.parse().ok().filter(|n| (1..=1000).contains(n)).ok_or_else(|| format!("--count must be 1 to 1000, got \"{}\"", val))?,
                    other => return Err(format!("unknown flag {} for sim fault api-error", other)),
                }
                i += 1;
            }
            let what = format!(
                "kube-apiserver will answer the next {} request(s){}{}{} with {}",
                f.remaining,
                f.verb.as_deref().map(|v| format!(" to {}", v)).unwrap_or_default(),
                f.resource.as_deref().map(|r| format!(" {}", r)).unwrap_or_default(),
                f.component.as_deref().map(|c| format!(" from {}", c)).unwrap_or_default(),
                code
            );
            c.inject_api_fault(f);
            Ok(format!("{}\n", what))
        }
        ["node", "partition", name] => c.partition_node(name),
        ["node", "heal", name] => {
            let out = c.heal_node(name)?;
            let s = c.run_until_settled();
            Ok(format!("{}settled at {}\n", out, format_ms(s.time_ms)))
        }
        ["node", verb @ ("fail" | "recover"), name] => {
            let running = *verb == "recover";
            match c.component_mut(&Actor::Kubelet(name.to_string())) {
                Some(k) => {
                    k.set_running(running);
                    Ok(format!("node/{} {}\n", name, if running { "recovered: kubelet running" } else { "failed: kubelet stopped" }))
                }
                None => Err(format!("no node named \"{}\"", name)),
            }
        }
        ["trace"] | ["trace", "--net" | "--errors"] => {
            // --net: only the data path (DNS, iptables, TCP and HTTP hops); --errors: only error
            // answers (status >= 400), the requests they answer and requests that found no server
            use crate::trace::MessageKind;
            let filter = a.get(1).copied().unwrap_or("");
            let msgs: Vec<&crate::trace::Message> = c.trace().messages().iter().filter(|m| m.id > sb.trace_cursor).collect();
            let answered: std::collections::BTreeSet<u64> =
                msgs.iter().filter_map(|m| match m.kind { MessageKind::Response { code, .. } if code >= 400 => m.cause, _ => None }).collect();
            let mut s = String::new();
            for m in msgs {
                let keep = match filter {
                    "--net" => matches!(m.kind, MessageKind::Net { .. }),
                    "--errors" => {
                        matches!(m.kind, MessageKind::Response { code, .. } if code >= 400)
                            || answered.contains(&m.id)
                            || matches!(m.kind, MessageKind::Fault { kind: crate::trace::FaultKind::Unreachable, .. })
                    }
                    _ => true,
                };
                if keep {
                    s.push_str(&m.line());
                    s.push('\n');
                }
            }
            sb.trace_cursor = c.trace().total();
            Ok(s)
        }
        ["audit", "policy"] => Ok(c.view().audit_policy().to_yaml()),
        ["audit", "query", words @ ..] => {
            // the query as an argument (quoted) or as the heredoc: every event kept so far
            let q = if words.is_empty() { stdin.unwrap_or("").to_string() } else { words.join(" ") };
            if q.trim().is_empty() {
                return Err("usage: sim audit query 'QUERY' (or sim audit query <<EOF, the query, EOF): a CloudWatch Logs Insights query over the audit log".into());
            }
            let ctx = crate::apiserver::audit::insights::LogContext::eks(c.seed());
            let r = crate::apiserver::audit::insights::query(&q, c.view().audit(), &ctx).map_err(|e| e.message)?;
            let mut out = r.to_text();
            out.push_str(&audit_dropped_note(c));
            Ok(out)
        }
        ["audit", filters @ ..] => {
            // optional filters, like the CloudWatch queries of seed 000: --verb V --resource R --user U
            let mut want: Vec<(&str, String)> = Vec::new();
            let mut i = 0;
            while i < filters.len() {
                let f = filters[i];
                let v = filters.get(i + 1).ok_or_else(|| format!("{} needs a value", f))?;
                match f {
                    "--verb" => want.push(("verb", v.to_string())),
                    "--resource" => want.push(("resource", v.to_string())),
                    "--user" => want.push(("user", v.to_string())),
                    _ => return Err("usage: sim audit [--verb V] [--resource R] [--user U]".into()),
                }
                i += 2;
            }
            let total = c.view().audit_total();
            let kept = c.view().audit().len() as u64;
            let first = total - kept;
            let mut s = String::new();
            for (i, line) in c.view().audit().iter().enumerate() {
                if first + i as u64 >= sb.audit_cursor {
                    let ev: serde_json::Value = serde_json::from_str(line).unwrap_or_default();
                    let ev = &ev;
                    let ok = want.iter().all(|(k, v)| match *k {
                        "verb" => meta::get_str(ev, &["verb"]) == v,
                        "resource" => meta::get_str(ev, &["objectRef", "resource"]) == v,
                        _ => meta::get_str(ev, &["user", "username"]) == v,
                    });
                    if ok {
                        s.push_str(line);
                        s.push('\n');
                    }
                }
            }
            if want.is_empty() {
                sb.audit_cursor = total;
            }
            Ok(s)
        }
        ["etcd", "get", key, rest @ ..] => {
            let rev = match rest {
                [] => None,
                ["--rev", n] => Some(n.parse::<i64>().map_err(|_| format!("--rev expects a number, got \"{}\"", n))?),
                _ => return Err("usage: sim etcd get KEY [--rev N]".into()),
            };
            match c.view().etcd_get(key, rev) {
                Ok(Some(kv)) => Ok(format!(
                    "{}\n{}\n",
                    kv.key,
                    kv.value.unwrap_or_default()
                )),
                Ok(None) => Ok(String::new()),
                Err(e) => Err(e.to_string()),
            }
        }
        ["node", "iptables", name] => match c.view().kube_proxy(name) {
            Some(k) => Ok(k.iptables_save()),
            None => Err(format!("no node named \"{}\"", name)),
        },
        ["curl", rest @ ..] => sim_curl(c, rest),
        ["etcd", "keys"] => Ok(c.view().etcd_keys("/registry/").into_iter().map(|k| k + "\n").collect()),
        ["etcd", "keys", prefix] => Ok(c.view().etcd_keys(prefix).into_iter().map(|k| k + "\n").collect()),
        ["time"] => Ok(format!("{} ({})\n", format_ms(c.now()), time::rfc3339(c.now()))),
        _ => Err(SIM_USAGE.into()),
    }
}

/// What a query over the audit log should say when the oldest events are gone: empty while
/// every event is kept.
pub fn audit_dropped_note(c: &Cluster) -> String {
    let v = c.view();
    let dropped = v.audit_total() - v.audit().len() as u64;
    if dropped == 0 {
        return String::new();
    }
    let l = c.limits();
    format!(
        "({} older audit events are no longer kept: kube-apiserver keeps at most {} events or {} MiB of them, the newest)\n",
        dropped,
        l.max_audit_events,
        l.max_audit_bytes / (1024 * 1024)
    )
}

/// Names of the nodes' kubelets, for the shells.
pub fn node_names(c: &Cluster) -> Vec<String> {
    c.components()
        .filter_map(|x| match x.actor() {
            Actor::Kubelet(n) => Some(n),
            _ => None,
        })
        .collect()
}

/// The benchmark's cluster: control plane + `nodes` nodes of 32 CPU / 128Gi / 110 pods, with a
/// shorter trace bound (the benchmark measures throughput, not the trace).
pub fn bench_cluster(seed: u64, nodes: usize) -> Cluster {
    let mut config = ClusterConfig { trace_limit: 200_000, ..ClusterConfig::default() };
    config.limits.max_audit_events = 100_000;
    config.limits.etcd_history = 50_000;
    // room for MAX_NODES /24s (the default 10.244.0.0/16 holds 255 worker nodes)
    config.cluster_cidr = crate::api::net::Cidr::parse("10.128.0.0/9").expect("cidr");
    let mut c = control_plane(seed, config);
    for i in 1..=nodes {
        let mut cfg = NodeConfig::new(&format!("node-{}", i));
        cfg.cpu = "32".into();
        cfg.memory = "128Gi".into();
        add_node(&mut c, cfg);
    }
    c.run_until_settled();
    c
}

/// Creates `deployments` Deployments sharing `pods` replicas (100m CPU / 64Mi each). Returns kubectl's errors.
pub fn bench_apply(c: &mut Cluster, pods: usize, deployments: usize) -> String {
    let mut errors = String::new();
    let deployments = deployments.max(1);
    for d in 0..deployments {
        let replicas = pods / deployments + usize::from(d < pods % deployments);
        let manifest = format!(
            "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: bench-{d}\nspec:\n  replicas: {replicas}\n  selector:\n    matchLabels:\n      app: bench-{d}\n  template:\n    metadata:\n      labels:\n        app: bench-{d}\n    spec:\n      containers:\n      - name: app\n        image: nginx:1.27\n        resources:\n          requests:\n            cpu: 100m\n            memory: 64Mi\n"
        );
        let args: Vec<String> = ["apply", "-f", "-"].iter().map(|s| s.to_string()).collect();
        let out = crate::kubectl::run(c, &args, Some(&manifest), &|_| None);
        errors.push_str(&out.stderr);
    }
    errors
}

/// Pods in phase Running (read directly from storage: a shell-side inspection).
pub fn count_running(c: &Cluster) -> usize {
    let Some(info) = meta::lookup("pods") else { return 0 };
    c.view().objects_shared(info, "").iter().filter(|p| meta::get_str(p, &["status", "phase"]) == "Running").count()
}

/// `sim curl [OPTIONS] URL…`: curl on the machine outside the cluster — the learner's, where the
/// console's own `curl` runs ([`crate::shell`]) — with its options (`-H 'Host: …'`, `-i`, `-I`,
/// `-v`, `-s`): what it prints, as `Err` when it exits non-zero.
fn sim_curl(c: &mut Cluster, rest: &[&str]) -> Result<String, String> {
    let words: Vec<String> = std::iter::once("curl").chain(rest.iter().copied()).map(String::from).collect();
    let r = crate::shell::curl(c, &words);
    let out = r.display();
    if r.code != 0 {
        return Err(out.trim_end_matches('\n').to_string());
    }
    Ok(out)
}

/// The value of `--flag=v` (`inline`) or `--flag v` (the next argument, `i` moves to it).
fn flag_value(rest: &[&str], i: &mut usize, flag: &str, inline: Option<String>) -> Result<String, String> {
    match inline {
        Some(v) => Ok(v),
        None => {
            *i += 1;
            rest.get(*i).map(|s| s.to_string()).ok_or_else(|| format!("flag {} needs a value", flag))
        }
    }
}
