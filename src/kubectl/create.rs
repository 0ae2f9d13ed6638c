//! `kubectl create namespace|deployment|job|service|configmap|secret|serviceaccount`
//! (`staging/src/k8s.io/kubectl/pkg/cmd/create`; ConfigMaps, Secrets and ServiceAccounts in
//! `create_configmap.rs` and `create_secret.rs`).

use super::*;

pub(super) fn create(cluster: &mut Cluster, f: &Flags, ns: &str, read_file: &dyn Fn(&str) -> Option<String>, out: &mut Output) {
    match f.positional.first().map(|s| s.as_str()) {
        Some("configmap") | Some("cm") => super::create_configmap::create_configmap(cluster, f, ns, read_file, out),
        Some("secret") => super::create_secret::create_secret(cluster, f, ns, read_file, out),
        Some("serviceaccount") | Some("sa") => super::create_configmap::create_serviceaccount(cluster, f, ns, out),
        Some("role") => super::create_role::create_role(cluster, f, ns, false, out),
        Some("clusterrole") => super::create_role::create_role(cluster, f, ns, true, out),
        Some("rolebinding") => super::create_role::create_binding(cluster, f, ns, false, out),
        Some("clusterrolebinding") => super::create_role::create_binding(cluster, f, ns, true, out),
        Some("token") => super::create_token::create_token(cluster, f, ns, out),
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
        Some("job") => create_job(cluster, f, ns, out),
        Some("deployment") | Some("deploy") => {
            let Some(name) = f.positional.get(1) else {
                return out.err("error: exactly one NAME is required, got 0");
            };
            let Some(image) = f.image.clone() else {
                return out.err("error: required flag(s) \"image\" not set");
            };
            let replicas: i64 = f.replicas.as_deref().unwrap_or("1").parse().unwrap_or(1);
            let cname = image.rsplit('/').next().unwrap_or(&image).split([':', '@']).next().unwrap_or("app").to_string();
            let ns = ns.to_string();
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
                // create_deployment.go: fmt.Errorf("failed to create deployment: %v", err)
                out.err(&format!("error: failed to create deployment: {}", meta::get_str(&resp.body, &["message"])));
            }
        }
        Some("service") | Some("svc") => {
            create_service(cluster, f, ns, out)
        }
        Some(other) => out.err(&format!("error: unknown command \"{}\" for \"kubectl create\"", other)),
        None => out.err("error: must specify one of -f and -k"),
    }
}

/// `kubectl create job NAME --image=IMAGE [-- COMMAND…]` or `--from=cronjob/NAME`
/// (`pkg/cmd/create/create_job.go`): from a CronJob, the Job is its template with the annotation
/// `cronjob.kubernetes.io/instantiate: manual` and the CronJob as its controller.
fn create_job(cluster: &mut Cluster, f: &Flags, ns: &str, out: &mut Output) {
    let Some(name) = f.positional.get(1) else {
        return out.err("error: exactly one NAME is required, got 0\nSee 'kubectl create job -h' for help and examples");
    };
    let body = match (&f.image, &f.from) {
        (Some(_), Some(_)) => return out.err("error: either --image or --from must be specified"),
        (None, None) => return out.err("error: either --image or --from must be specified"),
        (Some(image), None) => {
            let mut container = json!({"name": name, "image": image, "resources": {}});
            if !f.command.is_empty() {
                container["command"] = json!(f.command);
            }
            json!({"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": name}, "spec": {"template": {"metadata": {}, "spec": {"containers": [container], "restartPolicy": "Never"}}}, "status": {}})
        }
        (None, Some(from)) => {
            let Some((kind, src)) = from.split_once('/') else {
                return out.err(&format!("error: from must be of the form <resource>/<name>"));
            };
            if !matches!(kind, "cronjob" | "cronjobs" | "cj" | "cronjob.batch" | "cronjobs.batch") {
                return out.err(&format!("error: unknown object type {}", kind));
            }
            let got = kubectl(cluster, Method::Get, &format!("/apis/batch/v1/namespaces/{}/cronjobs/{}", ns, src), None);
            if !got.ok() {
                return out.err(&server_error(&got, None));
            }
            let cj = got.body;
            let mut ann = meta::get(&cj, &["spec", "jobTemplate", "metadata", "annotations"]).cloned().filter(Value::is_object).unwrap_or(json!({}));
            ann["cronjob.kubernetes.io/instantiate"] = json!("manual");
            let mut md = json!({"name": name, "annotations": ann, "ownerReferences": [meta::new_controller_ref(&cj, "batch/v1", "CronJob")]});
            if let Some(l) = meta::get(&cj, &["spec", "jobTemplate", "metadata", "labels"]) {
                md["labels"] = l.clone();
            }
            json!({"apiVersion": "batch/v1", "kind": "Job", "metadata": md, "spec": meta::get(&cj, &["spec", "jobTemplate", "spec"]).cloned().unwrap_or(json!({})), "status": {}})
        }
    };
    let resp = kubectl(cluster, Method::Post, &format!("/apis/batch/v1/namespaces/{}/jobs?fieldManager=kubectl-create&fieldValidation=Strict", ns), Some(body));
    if resp.ok() {
        out.out(&format!("job.batch/{} created", name));
    } else {
        // create_job.go: fmt.Errorf("failed to create job: %v", err)
        out.err(&format!("error: failed to create job: {}", meta::get_str(&resp.body, &["message"])));
    }
}
