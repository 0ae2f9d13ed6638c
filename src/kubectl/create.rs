//! `kubectl create namespace|deployment|service` (`staging/src/k8s.io/kubectl/pkg/cmd/create`).

use super::*;

pub(super) fn create(cluster: &mut Cluster, f: &Flags, _ns: &str, out: &mut Output) {
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
            let mut container = json!({"name": cname, "image": image, "resources": {}});
            if !f.command.is_empty() {
                container["command"] = json!(f.command);
            }
            let body = json!({
                "apiVersion": "apps/v1", "kind": "Deployment",
                "metadata": {"name": name, "labels": {"app": name}},
                "spec": {"replicas": replicas, "selector": {"matchLabels": {"app": name}},
                         "template": {"metadata": {"labels": {"app": name}}, "spec": {"containers": [container]}},
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
        Some("service") | Some("svc") => {
            let ns = f.namespace.clone().unwrap_or_else(|| "default".into());
            create_service(cluster, f, &ns, out)
        }
        Some(other) => out.err(&format!("error: unknown command \"{}\" for \"kubectl create\"", other)),
        None => out.err("error: must specify one of -f and -k"),
    }
}
