//! `kubectl expose` (`staging/src/k8s.io/kubectl/pkg/cmd/expose/expose.go`) and `kubectl create
//! service clusterip|nodeport` (`pkg/cmd/create/create_service.go`).
//!
//! `expose` reads the object, takes its selector (a Deployment's or ReplicaSet's
//! `matchLabels`, a Pod's labels), its labels, and its ports (`--port`, else the containers'
//! ports: one port unnamed, several named `port-1`, `port-2`…), and POSTs a Service with
//! `fieldManager=kubectl-expose`. What kubesim simplifies: no `--load-balancer-ip`,
//! `--external-ip`, `--session-affinity` or `--cluster-ip` on `expose`.

use super::*;

/// The selector `expose` puts on the Service (`MapBasedSelectorForObject`).
fn selector_for(obj: &Value, kind: &str) -> Result<Value, String> {
    match kind {
        "Pod" => {
            let labels = meta::labels(obj);
            if labels.is_empty() {
                return Err("error: the pod has no labels and cannot be exposed\nSee 'kubectl expose -h' for help and examples".into());
            }
            Ok(Value::Object(labels))
        }
        "Service" => Ok(meta::get(obj, &["spec", "selector"]).cloned().unwrap_or(json!({}))),
        _ => {
            let sel = meta::get(obj, &["spec", "selector"]);
            if sel.and_then(|s| s.get("matchExpressions")).and_then(|e| e.as_array()).map(|e| !e.is_empty()).unwrap_or(false) {
                return Err(format!("error: couldn't convert expressions - \"{}\" to map-based selector format", meta::selector_string(sel)));
            }
            Ok(sel.and_then(|s| s.get("matchLabels")).cloned().unwrap_or(json!({})))
        }
    }
}

/// The containers' ports with their protocols (`PortsForObject`/`ProtocolsForObject`).
fn container_ports(obj: &Value, kind: &str) -> Vec<(i64, String)> {
    let spec = match kind {
        "Pod" => meta::get(obj, &["spec"]),
        "Service" => {
            return meta::get(obj, &["spec", "ports"])
                .and_then(|p| p.as_array())
                .map(|ps| ps.iter().map(|p| (meta::get_i64(p, &["port"]).unwrap_or(0), meta::get_str(p, &["protocol"]).to_string())).collect())
                .unwrap_or_default()
        }
        _ => meta::get(obj, &["spec", "template", "spec"]),
    };
    let mut out = Vec::new();
    for c in spec.and_then(|s| s.get("containers")).and_then(|c| c.as_array()).into_iter().flatten() {
        for p in c.get("ports").and_then(|p| p.as_array()).into_iter().flatten() {
            let proto = meta::get_str(p, &["protocol"]);
            out.push((meta::get_i64(p, &["containerPort"]).unwrap_or(0), if proto.is_empty() { "TCP".into() } else { proto.to_string() }));
        }
    }
    out
}

fn int_or_string(s: &str) -> Value {
    match s.parse::<i64>() {
        Ok(n) => json!(n),
        Err(_) => json!(s),
    }
}

pub(super) fn expose(cluster: &mut Cluster, f: &Flags, ns: &str, out: &mut Output) {
    let (info, name) = match f.positional.as_slice() {
        [one] if one.contains('/') => {
            let (r, n) = one.split_once('/').unwrap_or_default();
            match meta::lookup(r) {
                Some(i) => (i, n.to_string()),
                None => return out.err(&unknown_resource(r)),
            }
        }
        [r, n, ..] => match meta::lookup(r) {
            Some(i) => (i, n.clone()),
            None => return out.err(&unknown_resource(r)),
        },
        _ => return out.err("error: You must provide one or more resources by argument or filename.\nExample resource specifications include:\n   '-f rsrc.yaml'\n   '--filename=rsrc.json'\n   '<resource> <name>'\n   '<resource>'"),
    };
    if !matches!(info.kind, "Pod" | "Service" | "Deployment" | "ReplicaSet") {
        return out.err(&format!("error: cannot expose a {}", info.kind));
    }
    let resp = kubectl(cluster, Method::Get, &info.object_path(ns, &name), None);
    if !resp.ok() {
        return out.err(&server_error(&resp, None));
    }
    let obj = resp.body;
    let selector = match selector_for(&obj, info.kind) {
        Ok(s) => s,
        Err(e) => return out.err(&e),
    };
    let introspected = container_ports(&obj, info.kind);
    let ports: Vec<Value> = match &f.port {
        Some(p) => {
            let Ok(n) = p.parse::<i64>() else {
                return out.err(&format!("error: invalid argument \"{}\" for \"--port\" flag: strconv.ParseInt: parsing \"{}\": invalid syntax", p, p));
            };
            let proto = f.protocol.clone().or_else(|| introspected.iter().find(|(cp, _)| *cp == n).map(|(_, pr)| pr.clone())).unwrap_or_else(|| "TCP".into());
            vec![json!({"port": n, "protocol": proto})]
        }
        // expose.go: a plain fmt.Errorf here, not UsageErrorf
        None if introspected.is_empty() => return out.err("error: couldn't find port via --port flag or introspection"),
        None => {
            let many = introspected.len() > 1;
            introspected
                .iter()
                .enumerate()
                .map(|(i, (n, proto))| {
                    let mut p = json!({"port": n, "protocol": f.protocol.clone().unwrap_or_else(|| proto.clone())});
                    if many {
                        p["name"] = json!(format!("port-{}", i + 1));
                    }
                    p
                })
                .collect()
        }
    };
    let ports: Vec<Value> = ports
        .into_iter()
        .map(|mut p| {
            p["targetPort"] = match &f.target_port {
                Some(t) => int_or_string(t),
                None => p["port"].clone(),
            };
            p
        })
        .collect();
    let svc_name = f.name.clone().unwrap_or_else(|| name.clone());
    let mut svc = json!({
        "apiVersion": "v1",
        "kind": "Service",
        "metadata": {"name": svc_name},
        "spec": {"ports": ports, "selector": selector},
    });
    let labels = meta::labels(&obj);
    if !labels.is_empty() {
        svc["metadata"]["labels"] = Value::Object(labels);
    }
    if let Some(t) = &f.svc_type {
        svc["spec"]["type"] = json!(t);
    }
    let path = format!("/api/v1/namespaces/{}/services?fieldManager=kubectl-expose&fieldValidation=Strict", ns);
    let resp = kubectl(cluster, Method::Post, &path, Some(svc));
    if resp.ok() {
        out.out(&format!("service/{} exposed", svc_name));
    } else {
        out.err(&server_error(&resp, None));
    }
}

/// `kubectl create service clusterip|nodeport NAME [--tcp=port:targetPort] …`.
pub(super) fn create_service(cluster: &mut Cluster, f: &Flags, ns: &str, out: &mut Output) {
    let Some(ty_word) = f.positional.get(1) else {
        return out.err("error: must specify a type of service: clusterip, externalname, loadbalancer, nodeport\nSee 'kubectl create service -h' for help and examples");
    };
    let ty = match ty_word.as_str() {
        "clusterip" => "ClusterIP",
        "nodeport" => "NodePort",
        other => return out.err(&format!("error: unknown command \"{}\" for \"kubectl create service\"", other)),
    };
    let Some(name) = f.positional.get(2) else {
        return out.err("error: exactly one NAME is required, got 0\nSee 'kubectl create service -h' for help and examples");
    };
    let headless = f.cluster_ip.as_deref() == Some("None");
    if f.tcp.is_empty() && !headless {
        return out.err("error: at least one tcp port specifier must be provided\nSee 'kubectl create service -h' for help and examples");
    }
    let mut ports = Vec::new();
    for spec in &f.tcp {
        let (p, t) = spec.split_once(':').unwrap_or((spec.as_str(), spec.as_str()));
        let Ok(port) = p.parse::<i64>() else {
            return out.err(&format!("error: strconv.Atoi: parsing \"{}\": invalid syntax", p));
        };
        let mut sp = json!({"name": format!("{}-{}", p, t), "port": port, "protocol": "TCP", "targetPort": int_or_string(t)});
        if let Some(np) = f.node_port.as_deref().and_then(|n| n.parse::<i64>().ok()) {
            sp["nodePort"] = json!(np);
        }
        ports.push(sp);
    }
    let mut svc = json!({
        "apiVersion": "v1",
        "kind": "Service",
        "metadata": {"name": name, "labels": {"app": name}},
        "spec": {"ports": ports, "selector": {"app": name}, "type": ty},
    });
    if let Some(ip) = &f.cluster_ip {
        svc["spec"]["clusterIP"] = json!(ip);
    }
    let path = format!("/api/v1/namespaces/{}/services?fieldManager=kubectl-create&fieldValidation=Strict", ns);
    let resp = kubectl(cluster, Method::Post, &path, Some(svc));
    if resp.ok() {
        out.out(&format!("service/{} created", name));
    } else {
        // create_service.go: fmt.Errorf("failed to create %s service: %v", o.Type, err)
        out.err(&format!("error: failed to create {} service: {}", ty, meta::get_str(&resp.body, &["message"])));
    }
}

/// `kubectl exec POD [-c C] -- CMD`: `curl|wget URL` sends a request from the Pod (see
/// `cluster::network`); any other command runs in the container's view its kubelet keeps
/// (`runtime::exec`: env, files, a small shell). kubesim does not simulate the `pods/exec`
/// streaming request itself.
pub(super) fn exec(cluster: &mut Cluster, f: &Flags, ns: &str, out: &mut Output) {
    let Some(pod) = f.positional.first() else {
        return out.err("error: expected 'exec POD_NAME COMMAND [ARG1] [ARG2] ... [ARGN]'.\nPOD_NAME and COMMAND are required arguments for the exec command\nSee 'kubectl exec -h' for help and examples");
    };
    let pod = pod.strip_prefix("pod/").or_else(|| pod.strip_prefix("pods/")).unwrap_or(pod).to_string();
    // `deploy/NAME`: the first of its Pods (kubectl's `GetFirstPod`, simplified to name order)
    let pod = match pod.split_once('/') {
        Some((kind, name)) if meta::lookup(kind).map(|i| i.kind == "Deployment").unwrap_or(false) => {
            let resp = kubectl(cluster, Method::Get, &format!("/apis/apps/v1/namespaces/{}/deployments/{}", ns, name), None);
            if !resp.ok() {
                return out.err(&server_error(&resp, None));
            }
            let sel = meta::selector_string(meta::get(&resp.body, &["spec", "selector"])).replace('=', "%3D").replace(',', "%2C");
            let pods = list_items(cluster, &format!("/api/v1/namespaces/{}/pods?labelSelector={}", ns, sel));
            match pods.iter().filter(|p| meta::get_str(p, &["status", "phase"]) == "Running").map(|p| meta::name(p).to_string()).min() {
                Some(p) => p,
                None => return out.err(&format!("error: unable to upgrade connection: no running pod found for deployment {}", name)),
            }
        }
        Some((kind, _)) => return out.err(&format!("error: cannot attach to *v1.{}: selector for *v1.{} not implemented", kind, kind)),
        None => pod,
    };
    let pod = pod.as_str();
    if f.command.is_empty() {
        return out.err("error: you must specify at least one command for the container");
    }
    let words: Vec<&str> = f.command.iter().map(|s| s.as_str()).collect();
    let is_net = matches!(words.first(), Some(&"curl") | Some(&"wget"));
    if !is_net {
        // ExecSync in the container: the kubelet's view of it
        let resp = kubectl(cluster, Method::Get, &format!("/api/v1/namespaces/{}/pods/{}", ns, pod), None);
        if !resp.ok() {
            return out.err(&server_error(&resp, None));
        }
        let node = meta::get_str(&resp.body, &["spec", "nodeName"]).to_string();
        let view = match cluster.view().container_view(&node, ns, pod, f.container.as_deref()) {
            Ok(v) => v,
            Err(e) => return out.err(&format!("error: {}", e)),
        };
        let r = view.run(&f.command);
        return exec_output(out, crate::runtime::nettools::Run { stdout: r.stdout, stderr: r.stderr, code: r.code as i64 });
    }
    // wget and curl as the container runs them: their options, then the request through the
    // data path, then what the program prints
    let fetch = match crate::runtime::nettools::parse(&f.command) {
        Ok(x) => x,
        Err(run) => return exec_output(out, run),
    };
    let image = cluster
        .view()
        .object(meta::lookup("pods").expect("pods"), ns, pod)
        .and_then(|p| meta::get_array(&p, &["spec", "containers"]).iter().find(|c| f.container.as_deref().map(|n| meta::get_str(c, &["name"]) == n).unwrap_or(true)).map(|c| meta::get_str(c, &["image"]).to_string()))
        .unwrap_or_default();
    let musl = image.contains("alpine") || image.contains("musl");
    let method = if fetch.head { "HEAD" } else { "GET" };
    let mut run = crate::runtime::nettools::Run::default();
    for url in &fetch.urls {
        // `--resolve`: the address given, the URL's host as the Host header and server name
        let (target, host) = match fetch.resolved(url) {
            Some((u, h)) => (u, Some(h)),
            None => (url.clone(), None),
        };
        let reply = cluster.http_request_with(Some((ns, pod)), method, &target, fetch.options(host.as_deref()));
        let date = crate::api::time::unix_http_date(crate::api::time::EPOCH_MS + cluster.now());
        let r = crate::runtime::nettools::render(&fetch, url, &reply, &date, musl);
        run.stdout.push_str(&r.stdout);
        run.stderr.push_str(&r.stderr);
        run.code = r.code;
        if r.code != 0 {
            break;
        }
    }
    exec_output(out, run)
}

/// What `kubectl exec` shows of a command's run: its stdout, its stderr, and kubectl's line for
/// a non-zero exit status.
fn exec_output(out: &mut Output, run: crate::runtime::nettools::Run) {
    if !run.stdout.is_empty() {
        out.out(run.stdout.trim_end_matches('\n'));
    }
    let mut err = run.stderr.trim_end_matches('\n').to_string();
    if run.code != 0 {
        if !err.is_empty() {
            err.push('\n');
        }
        err.push_str(&format!("command terminated with exit code {}", run.code));
    }
    if !err.is_empty() {
        out.err(&err);
    }
}
