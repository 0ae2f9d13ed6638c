//! `kubectl run NAME --image=IMAGE [--restart=…] [--env=K=V]… [--port=N] [-l k=v,…]
//! [--command] [-- ARGS…]` (`staging/src/k8s.io/kubectl/pkg/cmd/run/run.go` with the
//! `generateversioned.BasicPod` generator): one Pod, labelled `run=NAME` unless `--labels` says
//! otherwise, its one container named after it, `dnsPolicy: ClusterFirst`, created with the field
//! manager `kubectl-run`.
//!
//! What kubesim simplifies: `-i`/`-t`/`--attach`/`--rm` (an interactive session) are accepted and
//! ignored; `--dry-run=client` prints the Pod it would create (`-o yaml|json`) or
//! `pod/NAME created (dry run)` and sends nothing; `--overrides`, `--expose`,
//! `--serviceaccount` and `--image-pull-policy` are not modelled.

use super::*;

pub(super) fn run_pod(cluster: &mut Cluster, f: &Flags, ns: &str, out: &mut Output) {
    // cobra checks the required flags before the command runs
    let Some(image) = f.image.clone() else {
        return out.err("error: required flag(s) \"image\" not set");
    };
    let Some(name) = f.positional.first() else {
        return out.err("error: NAME is required for run\nSee 'kubectl run -h' for help and examples");
    };
    let restart = f.restart.clone().unwrap_or_else(|| "Always".into());
    // getRestartPolicy: the policy's name, any case
    let restart = match restart.to_lowercase().as_str() {
        "always" => "Always",
        "onfailure" => "OnFailure",
        "never" => "Never",
        _ => return out.err(&format!("error: invalid restart policy: {}\nSee 'kubectl run -h' for help and examples", restart)),
    };
    let labels = if f.selector.is_empty() {
        json!({"run": name})
    } else {
        // generate.ParseLabels: comma-separated key=value pairs
        let mut m = serde_json::Map::new();
        for pair in f.selector.split(',') {
            match pair.split_once('=') {
                Some((k, v)) if !k.is_empty() => {
                    m.insert(k.to_string(), json!(v));
                }
                _ => return out.err(&format!("error: invalid label spec: {}", pair)),
            }
        }
        Value::Object(m)
    };
    let mut container = json!({"name": name, "image": image, "resources": {}});
    if !f.command.is_empty() {
        container[if f.run_command { "command" } else { "args" }] = json!(f.command);
    }
    if !f.env.is_empty() {
        let mut env = Vec::new();
        for e in &f.env {
            match e.split_once('=') {
                Some((k, v)) if !k.is_empty() => env.push(json!({"name": k, "value": v})),
                _ => return out.err(&format!("error: invalid env: {}", e)),
            }
        }
        container["env"] = json!(env);
    }
    if let Some(p) = &f.port {
        match p.parse::<i32>() {
            Ok(port) => container["ports"] = json!([{"containerPort": port}]),
            Err(_) => return out.err(&format!("error: strconv.Atoi: parsing \"{}\": invalid syntax", p)),
        }
    }
    let pod = json!({
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": name, "labels": labels},
        "spec": {"containers": [container], "dnsPolicy": "ClusterFirst", "restartPolicy": restart},
        "status": {},
    });
    if f.dry_run.as_deref() == Some("client") {
        return match f.output.as_str() {
            "yaml" => out.out(printers::to_yaml(&pod).trim_end()),
            "json" => out.out(&printers::to_json(&pod)),
            _ => out.out(&format!("pod/{} created (dry run)", name)),
        };
    }
    let path = format!("/api/v1/namespaces/{}/pods?fieldManager=kubectl-run&fieldValidation=Strict", ns);
    let resp = kubectl(cluster, Method::Post, &path, Some(pod));
    if resp.ok() {
        out.out(&format!("pod/{} created", name));
    } else {
        out.err(&server_error(&resp, None));
    }
}
