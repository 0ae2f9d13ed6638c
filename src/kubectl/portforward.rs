//! `kubectl port-forward TYPE/NAME [LOCAL:]REMOTE…` and `kubectl proxy`.
//!
//! Upstream: `staging/src/k8s.io/kubectl/pkg/cmd/portforward/portforward.go` (`Complete`:
//! `AttachablePodForObjectFn` picks the Pod — for a Service the first of its Pods by
//! `sort.Reverse(podutils.ActivePods)` — and `translateServicePortToTargetPort` turns a Service
//! port into the container port; `RunPortForward`: the Pod must be Running, then one
//! `POST pods/NAME/portforward` upgrade) and `pkg/cmd/proxy/proxy.go` (`Starting to serve on
//! 127.0.0.1:8001`). What kubesim simplifies: the console cannot block, so both keep running as
//! a background job of the console (`jobs`, `kill %N`), as `&` would run them; the console's
//! `curl localhost:PORT` connects to them (`shell.rs`), each connection drawn hop by hop. Local
//! ports below 1024 are refused as Linux refuses them to a user that is not root.

use super::*;
use crate::client::workstation::Target;

/// `port-forward`.
pub(super) fn port_forward(cluster: &mut Cluster, f: &Flags, ns: &str, line: &str, out: &mut Output) {
    if f.positional.len() < 2 {
        return out.err("error: TYPE/NAME and list of ports are required for port-forward\nSee 'kubectl port-forward -h' for help and examples");
    }
    let target = &f.positional[0];
    let ports = &f.positional[1..];
    let address = f.address.clone().unwrap_or_else(|| "localhost".into());
    let addresses: Vec<&str> = address.split(',').map(str::trim).collect();
    for a in &addresses {
        if !matches!(*a, "localhost" | "127.0.0.1" | "::1" | "0.0.0.0") {
            return out.err(&format!("error: kubesim's console listens on its loopback addresses (localhost, 127.0.0.1, ::1) or 0.0.0.0, not {}", a));
        }
    }
    // the Pod: TYPE/NAME through its selector, or the Pod itself
    let (kind, name) = target.split_once('/').unwrap_or(("pod", target));
    let Some(info) = meta::lookup(kind) else { return out.err(&unknown_resource(kind)) };
    let got = kubectl(cluster, Method::Get, &info.object_path(ns, name), None);
    if !got.ok() {
        return out.err(&server_error(&got, None));
    }
    let pod_name = match attachable::attachable_pod(cluster, info, &got.body, ns) {
        Ok((pod, _)) => meta::name(&pod).to_string(),
        Err(e) => return out.err(&e),
    };
    // a Service's ports are translated to the Pod's (translateServicePortToTargetPort)
    let service = (info.kind == "Service").then_some(got.body);
    // RunPortForward reads the Pod again
    let got = kubectl(cluster, Method::Get, &format!("/api/v1/namespaces/{}/pods/{}", ns, pod_name), None);
    if !got.ok() {
        return out.err(&server_error(&got, None));
    }
    let pod = got.body;
    // [LOCAL:]REMOTE, a Service's port turned into the container's
    let mut pairs: Vec<(String, u16)> = Vec::new();
    for p in ports {
        let (local, remote) = p.split_once(':').unwrap_or((p, p));
        let pair = match &service {
            Some(svc) => translate_service_port(svc, &pod, local, remote),
            None => match remote.parse::<u16>() {
                Ok(n) => Ok((local.to_string(), n)),
                Err(_) => container_port(&pod, remote).map(|n| (if local == remote { n.to_string() } else { local.to_string() }, n)).ok_or_else(|| format!("Pod '{}' does not have a named port '{}'", pod_name, remote)),
            },
        };
        match pair {
            Ok(pair) => pairs.push(pair),
            Err(e) => return out.err(&format!("error: {}", e)),
        }
    }
    let phase = meta::get_str(&pod, &["status", "phase"]).to_string();
    if phase != "Running" {
        return out.err(&format!("error: unable to forward port because pod is not running. Current status={}", phase));
    }
    // the upgrade: one request, which kube-apiserver authorizes as `create pods/portforward`
    let resp = kubectl(cluster, Method::Post, &format!("/api/v1/namespaces/{}/pods/{}/portforward", ns, pod_name), None);
    if !resp.ok() {
        return out.err(&server_error(&resp, None));
    }
    let mut forwards: Vec<(u16, u16)> = Vec::new();
    let mut lines = Vec::new();
    let mut failed: Vec<String> = Vec::new();
    for (local, remote) in &pairs {
        // an empty local port: one the kernel picks
        let port: u16 = if local.is_empty() {
            free_port(cluster, &forwards)
        } else {
            match local.parse::<u16>() {
                Ok(p) if p > 0 => p,
                _ => return out.err(&format!("error: Error parsing local port '{}': strconv.ParseUint: parsing \"{}\": invalid syntax", local, local)),
            }
        };
        let reason = if cluster.workstation().listener(port).is_some() || forwards.iter().any(|(l, _)| *l == port) {
            Some("address already in use")
        } else if port < 1024 {
            Some("permission denied")
        } else {
            None
        };
        if let Some(reason) = reason {
            let errs: Vec<String> = listen_addresses(&addresses).iter().map(|(proto, a)| format!("unable to create listener: Error listen {} {}:{}: bind: {}", proto, a, port, reason)).collect();
            lines.push(format!("Unable to listen on port {}: Listeners failed to create with the following errors: [{}]", port, errs.join(" ")));
            failed.push(format!("{{{} {}}}", port, remote));
            continue;
        }
        for (_, a) in listen_addresses(&addresses) {
            lines.push(format!("Forwarding from {}:{} -> {}", a, port, remote));
        }
        forwards.push((port, *remote));
    }
    if forwards.is_empty() {
        for l in lines {
            out.out(&l);
        }
        return out.err(&format!("error: unable to listen on any of the requested ports: [{}]", failed.join(" ")));
    }
    let locals = forwards.iter().map(|(l, _)| *l).collect();
    match cluster.workstation_mut().start_job(line, locals, Target::PortForward { namespace: ns.to_string(), pod: pod_name.clone(), forwards }) {
        // what bash prints for a job it runs in the background
        Ok(n) => out.note(&format!("[{}] {}", n, 4100 + n)),
        Err(e) => return out.err(&format!("error: {}", e)),
    }
    for l in lines {
        out.out(&l);
    }
}

/// A local port the kernel would pick (`:REMOTE`, `--port=0`), from kubectl's own random source.
fn free_port(cluster: &mut Cluster, taken: &[(u16, u16)]) -> u16 {
    let mut p = 32_768 + (cluster.kubectl_random_suffix().bytes().map(u32::from).sum::<u32>() * 97 % 28_000) as u16;
    while cluster.workstation().listener(p).is_some() || taken.iter().any(|(l, _)| *l == p) {
        p += 1;
    }
    p
}

/// `util.LookupContainerPortNumberByName`: a named port of the Pod's containers.
fn container_port(pod: &Value, name: &str) -> Option<u16> {
    meta::get_array(pod, &["spec", "containers"]).iter().flat_map(|c| meta::get_array(c, &["ports"]).iter()).find(|cp| meta::get_str(cp, &["name"]) == name).and_then(|cp| cp.get("containerPort").and_then(Value::as_i64)).and_then(|n| u16::try_from(n).ok())
}

/// `translateServicePortToTargetPort`: `[LOCAL:]REMOTE` where REMOTE is a Service port (by number
/// or name) becomes (LOCAL, the container port its targetPort names); LOCAL defaults to the
/// Service port.
fn translate_service_port(svc: &Value, pod: &Value, local: &str, remote: &str) -> Result<(String, u16), String> {
    let svc_name = meta::name(svc);
    let sports = meta::get_array(svc, &["spec", "ports"]);
    let (local, port_num) = match remote.parse::<i64>() {
        Ok(n) => (local.to_string(), n),
        Err(_) => {
            let sp = sports.iter().find(|sp| meta::get_str(sp, &["name"]) == remote).ok_or_else(|| format!("Service '{}' does not have a named port '{}'", svc_name, remote))?;
            let n = sp.get("port").and_then(Value::as_i64).unwrap_or(0);
            (if local == remote { n.to_string() } else { local.to_string() }, n)
        }
    };
    let sp = sports.iter().find(|sp| sp.get("port").and_then(Value::as_i64) == Some(port_num)).ok_or_else(|| format!("Service {} does not have a service port {}", svc_name, port_num))?;
    let target = match sp.get("targetPort") {
        Some(Value::String(pname)) => container_port(pod, pname).ok_or_else(|| format!("Pod '{}' does not have a named port '{}'", meta::name(pod), pname))?,
        Some(v) => v.as_i64().and_then(|n| u16::try_from(n).ok()).unwrap_or(0),
        None => u16::try_from(port_num).unwrap_or(0),
    };
    Ok((local, target))
}

/// The addresses `--address` listens on: `localhost` is 127.0.0.1 and ::1.
fn listen_addresses(addresses: &[&str]) -> Vec<(&'static str, String)> {
    let mut out = Vec::new();
    for a in addresses {
        match *a {
            "localhost" => {
                out.push(("tcp4", "127.0.0.1".to_string()));
                out.push(("tcp6", "[::1]".to_string()));
            }
            "::1" => out.push(("tcp6", "[::1]".to_string())),
            a => out.push(("tcp4", a.to_string())),
        }
    }
    out
}

/// `proxy`: kube-apiserver on a loopback port, with the kubeconfig's credentials.
pub(super) fn proxy(cluster: &mut Cluster, f: &Flags, line: &str, out: &mut Output) {
    let address = f.address.clone().unwrap_or_else(|| "127.0.0.1".into());
    if !matches!(address.as_str(), "127.0.0.1" | "localhost" | "0.0.0.0") {
        return out.err(&format!("error: kubesim's console listens on its loopback address (127.0.0.1) or 0.0.0.0, not {}", address));
    }
    let port: u16 = match f.port.as_deref() {
        None => 8001,
        Some(p) => match p.parse::<u16>() {
            Ok(0) => free_port(cluster, &[]),
            Ok(p) => p,
            Err(_) => return out.err(&format!("error: invalid argument \"{}\" for \"-p, --port\" flag: strconv.ParseInt: parsing \"{}\": invalid syntax", p, p)),
        },
    };
    if cluster.workstation().listener(port).is_some() || port < 1024 {
        let why = if port < 1024 { "permission denied" } else { "address already in use" };
        return out.err(&format!("error: listen tcp {}:{}: bind: {}", address, port, why));
    }
    match cluster.workstation_mut().start_job(line, vec![port], Target::Proxy) {
        Ok(n) => out.note(&format!("[{}] {}", n, 4100 + n)),
        Err(e) => return out.err(&format!("error: {}", e)),
    }
    out.out(&format!("Starting to serve on {}:{}", address, port));
}
