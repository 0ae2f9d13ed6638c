//! `kubesim serve` driven by the real kubectl (`/usr/bin/kubectl`): the server runs in-process on
//! 127.0.0.1:0 with the clock frozen (`speed` 0), time moves with `POST /kubesim/v1/advance`.
//! Without `/usr/bin/kubectl` the test says so on stderr and returns (it does not pretend to pass
//! silently: it fails unless `KUBESIM_ALLOW_SKIP=1`).
#![cfg(not(target_arch = "wasm32"))]

use kubesim::serve::{Options, Server};
use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

const KUBECTL: &str = "/usr/bin/kubectl";

struct Env {
    server: Server,
    dir: PathBuf,
}

impl Env {
    fn kubeconfig(&self) -> PathBuf {
        self.dir.join("kubeconfig")
    }
    fn command(&self, args: &[&str]) -> Command {
        let mut c = Command::new(KUBECTL);
        c.env("KUBECONFIG", self.kubeconfig()).env("HOME", &self.dir).arg("--cache-dir").arg(self.dir.join("cache")).args(args);
        c
    }
    /// Runs kubectl; panics with its output unless it exits 0; returns stdout.
    fn kubectl(&self, args: &[&str]) -> String {
        let out: Output = self.command(args).output().expect("running kubectl");
        let stdout = String::from_utf8_lossy(&out.stdout).to_string();
        let stderr = String::from_utf8_lossy(&out.stderr).to_string();
        eprintln!("$ kubectl {}\n{}{}", args.join(" "), stdout, stderr);
        assert!(out.status.success(), "kubectl {:?} failed ({}):\n{}{}", args, out.status, stdout, stderr);
        stdout
    }
    /// `POST /kubesim/v1/advance?by=DURATION` over a raw HTTP/1.1 connection.
    fn advance(&self, by: &str) -> String {
        let mut s = TcpStream::connect(self.server.addr()).expect("connect");
        write!(s, "POST /kubesim/v1/advance?by={} HTTP/1.1\r\nHost: {}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n", by, self.server.addr()).unwrap();
        let mut out = String::new();
        s.read_to_string(&mut out).unwrap();
        assert!(out.starts_with("HTTP/1.1 200"), "advance: {}", out);
        out
    }
}

/// The non-empty lines of a table, split into whitespace-separated words.
fn rows(table: &str) -> Vec<Vec<String>> {
    table.lines().filter(|l| !l.trim().is_empty()).map(|l| l.split_whitespace().map(str::to_string).collect()).collect()
}

#[test]
fn real_kubectl_drives_kubesim_serve() {
    if !Path::new(KUBECTL).exists() {
        eprintln!("SKIPPED serve_kubectl: {} is missing; install kubectl there to run this test", KUBECTL);
        assert!(std::env::var("KUBESIM_ALLOW_SKIP").is_ok_and(|v| v == "1"), "serve_kubectl needs {} (set KUBESIM_ALLOW_SKIP=1 to skip on purpose)", KUBECTL);
        return;
    }
    let t0 = Instant::now();
    let server = Server::start(&Options { addr: "127.0.0.1:0".into(), seed: 1, speed: 0.0, epoch_ms: kubesim::api::time::EPOCH_MS, ..Options::default() }).expect("start");
    assert_ne!(server.addr().port(), 0);
    let dir = std::env::temp_dir().join(format!("kubesim-serve-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("kubeconfig"), server.kubeconfig()).unwrap();
    let env = Env { server, dir };
    let manifest = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/serve/deployment.yaml");

    let v = env.kubectl(&["version"]);
    assert!(v.contains("Server Version: v1.34.0"), "{}", v);

    let ar = env.kubectl(&["api-resources"]);
    let deploy = rows(&ar).into_iter().find(|r| r[0] == "deployments").expect("deployments in api-resources");
    assert_eq!(deploy, ["deployments", "deploy", "apps/v1", "true", "Deployment"]);
    assert!(rows(&ar).iter().any(|r| r[0] == "pods" && r[1] == "po" && r[2] == "v1"), "{}", ar);

    // validation happens on the server (fieldValidation=Strict), found through /openapi/v3
    let out = env.kubectl(&["apply", "-f", manifest]);
    assert_eq!(out.trim(), "deployment.apps/web created");

    let out = env.kubectl(&["get", "deployments"]);
    let r = rows(&out);
    assert_eq!(r[0], ["NAME", "READY", "UP-TO-DATE", "AVAILABLE", "AGE"]);
    assert_eq!(r[1], ["web", "0/2", "0", "0", "0s"]);

    env.advance("30s");
    let out = env.kubectl(&["get", "pods"]);
    let r = rows(&out);
    assert_eq!(r[0], ["NAME", "READY", "STATUS", "RESTARTS", "AGE"]);
    assert_eq!(r.len(), 3, "{}", out);
    for p in &r[1..] {
        assert!(p[0].starts_with("web-"), "{}", out);
        assert_eq!(&p[1..4], ["1/1", "Running", "0"], "{}", out);
    }
    let out = env.kubectl(&["get", "deployments"]);
    assert_eq!(rows(&out)[1][..4], ["web", "2/2", "2", "2"]);

    let out = env.kubectl(&["scale", "deployment", "web", "--replicas=3"]);
    assert_eq!(out.trim(), "deployment.apps/web scaled");

    // rollout status watches (?watch=true, a chunked stream): advance until it returns
    let mut child = env.command(&["rollout", "status", "deployment/web", "--timeout=15s"]).stdout(std::process::Stdio::piped()).spawn().expect("rollout status");
    let deadline = Instant::now() + Duration::from_secs(12);
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        assert!(Instant::now() < deadline, "rollout status did not return");
        env.advance("1s");
        std::thread::sleep(Duration::from_millis(150));
    };
    let mut rollout = String::new();
    child.stdout.take().unwrap().read_to_string(&mut rollout).unwrap();
    eprintln!("$ kubectl rollout status deployment/web\n{}", rollout);
    assert!(status.success(), "{}", rollout);
    assert!(rollout.trim_end().ends_with("deployment \"web\" successfully rolled out"), "{}", rollout);

    let out = env.kubectl(&["get", "pods", "-o", "wide"]);
    let r = rows(&out);
    assert_eq!(r[0][..5], ["NAME", "READY", "STATUS", "RESTARTS", "AGE"]);
    assert_eq!(r.len(), 4, "{}", out);
    assert!(r[1..].iter().all(|p| p[2] == "Running" && p[6].starts_with("node-")), "{}", out);

    // lists page: --chunk-size=1 makes kubectl follow continue tokens, one Pod per request
    let paged = env.kubectl(&["get", "pods", "-o", "wide", "--chunk-size=1"]);
    assert_eq!(rows(&paged).len(), 4, "{}", paged);
    assert_eq!(rows(&paged).iter().map(|r| r[0].clone()).collect::<Vec<_>>(), r.iter().map(|r| r[0].clone()).collect::<Vec<_>>());

    let out = env.kubectl(&["delete", "deployment", "web"]);
    assert_eq!(out.trim(), "deployment.apps \"web\" deleted");
    env.advance("60s");
    let out = env.command(&["get", "deployments,replicasets,pods"]).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    eprintln!("$ kubectl get deployments,replicasets,pods\n{}", text);
    assert_eq!(text.trim(), "No resources found in default namespace.");

    // errors come back as Status objects, which kubectl prints
    let out = env.command(&["get", "deployment", "nope"]).output().unwrap();
    assert!(!out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stderr).trim(), "Error from server (NotFound): deployments.apps \"nope\" not found");

    // kubectl's typed clients send protobuf, which the server decodes (tests/serve_protobuf.rs)
    let out = env.kubectl(&["create", "deployment", "typed", "--image=nginx:1.27"]);
    assert_eq!(out.trim(), "deployment.apps/typed created");

    // kubectl edit: GET, the editor (here sed), then a strategic merge PATCH of the change
    let mut edit = env.command(&["edit", "deployment", "typed"]);
    edit.env("KUBE_EDITOR", "sed -i 's/^  replicas: 1$/  replicas: 2/'");
    let out = edit.output().expect("kubectl edit");
    let text = String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    eprintln!("$ KUBE_EDITOR=sed kubectl edit deployment typed\n{}", text);
    assert_eq!(text.trim(), "deployment.apps/typed edited");
    assert_eq!(env.kubectl(&["get", "deployment", "typed", "-o", "jsonpath={.spec.replicas}"]), "2");

    // RBAC: ConfigMaps, Secrets, tokens, roles and bindings through kubectl's typed clients
    // (protobuf), authorization with impersonation, and the review resources
    assert_eq!(env.kubectl(&["create", "configmap", "app", "--from-literal=GREETING=hi"]).trim(), "configmap/app created");
    assert_eq!(env.kubectl(&["create", "secret", "generic", "db", "--from-literal=password=s3cr3t"]).trim(), "secret/db created");
    let token = env.kubectl(&["create", "token", "default"]);
    assert_eq!(token.trim().split('.').count(), 3, "a JWT: {}", token);
    assert_eq!(env.kubectl(&["create", "role", "pod-reader", "--verb=get,list", "--resource=pods"]).trim(), "role.rbac.authorization.k8s.io/pod-reader created");
    let denied = env.command(&["get", "pods", "--as=jane"]).output().unwrap();
    assert_eq!(String::from_utf8_lossy(&denied.stderr).trim(), "Error from server (Forbidden): pods is forbidden: User \"jane\" cannot list resource \"pods\" in API group \"\" in the namespace \"default\"");
    let no = env.command(&["auth", "can-i", "list", "pods", "--as=jane"]).output().unwrap();
    assert_eq!((String::from_utf8_lossy(&no.stdout).trim(), no.status.code()), ("no", Some(1)));
    assert_eq!(env.kubectl(&["create", "rolebinding", "jane-reads", "--role=pod-reader", "--user=jane"]).trim(), "rolebinding.rbac.authorization.k8s.io/jane-reads created");
    assert_eq!(env.kubectl(&["auth", "can-i", "list", "pods", "--as=jane"]).trim(), "yes");
    let who = env.kubectl(&["auth", "whoami", "--as=jane"]);
    assert!(rows(&who).iter().any(|r| r[..] == ["Username", "jane"]), "{}", who);
    assert!(env.kubectl(&["auth", "can-i", "--list", "--as=jane"]).lines().any(|l| l.starts_with("pods ") && l.ends_with("[get list]")));
    assert_eq!(env.kubectl(&["run", "one", "--image=busybox", "--", "sleep", "3600"]).trim(), "pod/one created");

    let _ = std::fs::remove_dir_all(&env.dir);
    eprintln!("serve_kubectl: {:.1} s", t0.elapsed().as_secs_f64());
}

/// A CustomResourceDefinition and its custom resources through `serve`, with the real kubectl:
/// discovery of the new group once the CRD is Established, the printer columns of the
/// server-side Table, `explain` from the group's OpenAPI v3 document, `edit` (a merge patch),
/// the strict decoder's unknown-field error, and the CRD's deletion taking its objects.
#[test]
fn real_kubectl_with_custom_resources() {
    if !Path::new(KUBECTL).exists() {
        eprintln!("SKIPPED serve_kubectl: {} is missing; install kubectl there to run this test", KUBECTL);
        assert!(std::env::var("KUBESIM_ALLOW_SKIP").is_ok_and(|v| v == "1"), "serve_kubectl needs {} (set KUBESIM_ALLOW_SKIP=1 to skip on purpose)", KUBECTL);
        return;
    }
    let server = Server::start(&Options { addr: "127.0.0.1:0".into(), seed: 1, speed: 0.0, epoch_ms: kubesim::api::time::EPOCH_MS, ..Options::default() }).expect("start");
    let dir = std::env::temp_dir().join(format!("kubesim-serve-crd-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("kubeconfig"), server.kubeconfig()).unwrap();
    let env = Env { server, dir };
    let crd = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/serve/crontab-crd.yaml");
    let ct = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/serve/crontab.yaml");
    assert_eq!(env.kubectl(&["apply", "-f", crd]).trim(), "customresourcedefinition.apiextensions.k8s.io/crontabs.stable.example.com created");
    // the naming and establishing controllers run as time moves
    env.advance("1s");
    let conds = env.kubectl(&["get", "crd", "crontabs.stable.example.com", "-o", "jsonpath={range .status.conditions[*]}{.type}={.status} {end}"]);
    assert_eq!(conds.trim(), "NamesAccepted=True Established=True");
    let ar = rows(&env.kubectl(&["api-resources", "--api-group=stable.example.com"]));
    assert_eq!(ar[1], ["crontabs", "ct", "stable.example.com/v1", "true", "CronTab"]);
    assert_eq!(env.kubectl(&["apply", "-f", ct]).trim(), "crontab.stable.example.com/my-new-cron-object created");
    let table = rows(&env.kubectl(&["get", "crontabs"]));
    assert_eq!(table[0], ["NAME", "SPEC", "REPLICAS", "AGE"]);
    assert_eq!(&table[1][..6], ["my-new-cron-object", "*", "*", "*", "*", "*/5"]);
    assert_eq!(table[1][6], "2");
    let explained = env.kubectl(&["explain", "crontab.spec"]);
    assert!(explained.contains("KIND:       CronTab") && explained.contains("cronSpec\t<string>") && explained.contains("replicas\t<integer>"), "{}", explained);
    // kubectl edit: the editor changes replicas; kubectl sends a merge patch (no strategic merge for a CR)
    let out = env.command(&["edit", "crontab", "my-new-cron-object"]).env("KUBE_EDITOR", "sed -i s/replicas:\\ 2/replicas:\\ 4/").output().expect("edit");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "crontab.stable.example.com/my-new-cron-object edited");
    assert_eq!(env.kubectl(&["get", "ct", "my-new-cron-object", "-o", "jsonpath={.spec.replicas}"]), "4");
    // the schema and the strict decoder answer as v1.34 does
    let bad = env.command(&["patch", "ct", "my-new-cron-object", "--type=merge", "-p", r#"{"spec":{"replicas":15}}"#]).output().expect("patch");
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(!bad.status.success() && err.contains("spec.replicas: Invalid value: 15: spec.replicas in body should be less than or equal to 10"), "{}", err);
    let strategic = env.command(&["patch", "ct", "my-new-cron-object", "-p", r#"{"spec":{"replicas":3}}"#]).output().expect("patch");
    assert!(String::from_utf8_lossy(&strategic.stderr).contains("application/strategic-merge-patch+json is not supported by stable.example.com/v1, Kind=CronTab"));
    // deleting the CRD deletes its objects first, then the CRD
    let del = env.command(&["delete", "crd", "crontabs.stable.example.com", "--wait=false"]).output().expect("delete");
    assert!(del.status.success());
    env.advance("1s");
    assert_eq!(env.kubectl(&["get", "crd", "-o", "name"]).trim(), "");
}
