//! kubectl's typed clients against `kubesim serve`: `kubectl create deployment|job|cronjob|
//! namespace|service clusterip|priorityclass|quota` and `drain` send their bodies as
//! `application/vnd.kubernetes.protobuf`, which the server decodes (src/serve/protobuf.rs).
//! The server runs in-process on 127.0.0.1:0 with the clock frozen (`speed` 0); the real kubectl
//! is `/usr/bin/kubectl`. Without it the test says SKIPPED on stderr and fails, unless
//! `KUBESIM_ALLOW_SKIP=1`.
#![cfg(not(target_arch = "wasm32"))]

use kubesim::serve::{Options, Server};
use serde_json::Value;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const KUBECTL: &str = "/usr/bin/kubectl";

struct Env {
    server: Server,
    dir: PathBuf,
}

impl Env {
    fn command(&self, args: &[&str]) -> Command {
        let mut c = Command::new(KUBECTL);
        c.env("KUBECONFIG", self.dir.join("kubeconfig")).env("HOME", &self.dir).arg("--cache-dir").arg(self.dir.join("cache")).args(args);
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
    /// `kubectl get … -o json`, parsed.
    fn get(&self, args: &[&str]) -> Value {
        let args: Vec<&str> = ["get"].iter().chain(args).chain(&["-o", "json"]).copied().collect();
        let out = self.command(&args).output().expect("running kubectl");
        assert!(out.status.success(), "kubectl {:?}: {}", args, String::from_utf8_lossy(&out.stderr));
        serde_json::from_slice(&out.stdout).expect("kubectl -o json prints JSON")
    }
    /// `POST /kubesim/v1/advance?by=DURATION` over a raw HTTP/1.1 connection.
    fn advance(&self, by: &str) {
        let mut s = TcpStream::connect(self.server.addr()).expect("connect");
        write!(s, "POST /kubesim/v1/advance?by={} HTTP/1.1\r\nHost: {}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n", by, self.server.addr()).unwrap();
        let mut out = String::new();
        s.read_to_string(&mut out).unwrap();
        assert!(out.starts_with("HTTP/1.1 200"), "advance: {}", out);
    }
    /// Runs a kubectl that waits for the cluster, advancing virtual time until it exits.
    fn kubectl_advancing(&self, args: &[&str]) -> String {
        let mut child = self.command(args).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("running kubectl");
        let deadline = Instant::now() + Duration::from_secs(30);
        let status = loop {
            if let Some(s) = child.try_wait().unwrap() {
                break s;
            }
            assert!(Instant::now() < deadline, "kubectl {:?} did not return", args);
            self.advance("2s");
            std::thread::sleep(Duration::from_millis(100));
        };
        let (mut stdout, mut stderr) = (String::new(), String::new());
        child.stdout.take().unwrap().read_to_string(&mut stdout).unwrap();
        child.stderr.take().unwrap().read_to_string(&mut stderr).unwrap();
        eprintln!("$ kubectl {}\n{}{}", args.join(" "), stdout, stderr);
        assert!(status.success(), "kubectl {:?} failed ({}):\n{}{}", args, status, stdout, stderr);
        stdout
    }
}

fn s<'a>(v: &'a Value, path: &[&str]) -> &'a Value {
    path.iter().fold(v, |v, k| match k.parse::<usize>() {
        Ok(i) => &v[i],
        Err(_) => &v[*k],
    })
}

#[test]
fn kubectl_typed_clients_send_protobuf() {
    if !Path::new(KUBECTL).exists() {
        eprintln!("SKIPPED serve_protobuf: {} is missing; install kubectl there to run this test", KUBECTL);
        assert!(std::env::var("KUBESIM_ALLOW_SKIP").is_ok_and(|v| v == "1"), "serve_protobuf needs {} (set KUBESIM_ALLOW_SKIP=1 to skip on purpose)", KUBECTL);
        return;
    }
    let t0 = Instant::now();
    let server = Server::start(&Options { addr: "127.0.0.1:0".into(), seed: 1, speed: 0.0, epoch_ms: kubesim::api::time::EPOCH_MS, ..Options::default() }).expect("start");
    let dir = std::env::temp_dir().join(format!("kubesim-serve-protobuf-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("kubeconfig"), server.kubeconfig()).unwrap();
    let env = Env { server, dir };

    // Deployment
    let out = env.kubectl(&["create", "deployment", "web", "--image=nginx:1.27", "--replicas=2"]);
    assert_eq!(out.trim(), "deployment.apps/web created");
    let d = env.get(&["deployment", "web"]);
    assert_eq!(s(&d, &["spec", "replicas"]), 2);
    assert_eq!(s(&d, &["metadata", "labels", "app"]), "web");
    assert_eq!(s(&d, &["spec", "selector", "matchLabels", "app"]), "web");
    assert_eq!(s(&d, &["spec", "template", "metadata", "labels", "app"]), "web");
    assert_eq!(s(&d, &["spec", "template", "spec", "containers", "0", "image"]), "nginx:1.27");
    assert_eq!(s(&d, &["spec", "template", "spec", "containers", "0", "name"]), "nginx");
    // the empty fields gogo-protobuf writes are not there (paused: false, minReadySeconds: 0, …)
    assert!(s(&d, &["spec"]).get("paused").is_none() && s(&d, &["spec"]).get("minReadySeconds").is_none(), "{}", d["spec"]);
    env.advance("30s");
    let d = env.get(&["deployment", "web"]);
    assert_eq!(s(&d, &["status", "readyReplicas"]), 2, "{}", d["status"]);

    // a pointer's zero stays
    let out = env.kubectl(&["create", "deployment", "zero", "--image=nginx:1.27", "--replicas=0"]);
    assert_eq!(out.trim(), "deployment.apps/zero created");
    assert_eq!(s(&env.get(&["deployment", "zero"]), &["spec", "replicas"]), 0);

    // Job and CronJob
    let out = env.kubectl(&["create", "job", "pi", "--image=busybox:1.36", "--", "echo", "hi"]);
    assert_eq!(out.trim(), "job.batch/pi created");
    let j = env.get(&["job", "pi"]);
    assert_eq!(s(&j, &["spec", "template", "spec", "containers", "0", "command"]), &serde_json::json!(["echo", "hi"]));
    assert_eq!(s(&j, &["spec", "template", "spec", "restartPolicy"]), "Never");
    let out = env.kubectl(&["create", "cronjob", "tick", "--image=busybox:1.36", "--schedule=*/5 * * * *", "--", "date"]);
    assert_eq!(out.trim(), "cronjob.batch/tick created");
    let cj = env.get(&["cronjob", "tick"]);
    assert_eq!(s(&cj, &["spec", "schedule"]), "*/5 * * * *");
    assert_eq!(s(&cj, &["spec", "jobTemplate", "spec", "template", "spec", "containers", "0", "image"]), "busybox:1.36");
    let out = env.kubectl(&["create", "job", "manual", "--from=cronjob/tick"]);
    assert_eq!(out.trim(), "job.batch/manual created");
    assert_eq!(s(&env.get(&["job", "manual"]), &["metadata", "ownerReferences", "0", "name"]), "tick");

    // Namespace, Service, PriorityClass, ResourceQuota
    let out = env.kubectl(&["create", "namespace", "team-a"]);
    assert_eq!(out.trim(), "namespace/team-a created");
    assert_eq!(s(&env.get(&["namespace", "team-a"]), &["status", "phase"]), "Active");
    let out = env.kubectl(&["create", "service", "clusterip", "svc", "--tcp=80:8080"]);
    assert_eq!(out.trim(), "service/svc created");
    let svc = env.get(&["service", "svc"]);
    assert_eq!(s(&svc, &["spec", "ports", "0", "port"]), 80);
    assert_eq!(s(&svc, &["spec", "ports", "0", "targetPort"]), 8080);
    assert_eq!(s(&svc, &["spec", "ports", "0", "protocol"]), "TCP");
    assert_eq!(s(&svc, &["spec", "selector", "app"]), "svc");
    assert!(s(&svc, &["spec", "clusterIP"]).as_str().is_some_and(|ip| ip.starts_with("10.")), "{}", svc["spec"]);
    let out = env.kubectl(&["create", "priorityclass", "high", "--value=1000", "--description=important"]);
    assert_eq!(out.trim(), "priorityclass.scheduling.k8s.io/high created");
    let pc = env.get(&["priorityclass", "high"]);
    assert_eq!((s(&pc, &["value"]), s(&pc, &["description"]), s(&pc, &["preemptionPolicy"])), (&1000.into(), &"important".into(), &"PreemptLowerPriority".into()));
    let out = env.kubectl(&["create", "quota", "q", "-n", "team-a", "--hard=pods=10,cpu=4,memory=8Gi"]);
    assert_eq!(out.trim(), "resourcequota/q created");
    let q = env.get(&["quota", "q", "-n", "team-a"]);
    assert_eq!(s(&q, &["spec", "hard"]), &serde_json::json!({"pods": "10", "cpu": "4", "memory": "8Gi"}));

    // the body of a kind kubesim does not serve is decoded too: the API server answers for it
    let out = env.command(&["create", "configmap", "cfg", "--from-literal=a=1"]).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    eprintln!("$ kubectl create configmap cfg --from-literal=a=1\n{}", err);
    assert!(!err.contains("UnsupportedMediaType") && !err.contains("protobuf"), "{}", err);

    // DeleteOptions: kubectl delete sends them as JSON, drain as protobuf
    let out = env.kubectl_advancing(&["delete", "deployment", "zero", "--cascade=orphan"]);
    assert_eq!(out.trim(), "deployment.apps \"zero\" deleted");
    env.advance("5s");
    let rs = env.get(&["replicasets", "-l", "app=zero"]);
    assert_eq!(s(&rs, &["items"]).as_array().map(Vec::len), Some(1), "orphaned ReplicaSet: {}", rs);
    assert!(s(&rs, &["items", "0", "metadata"]).get("ownerReferences").is_none_or(|o| o.as_array().is_some_and(Vec::is_empty)), "{}", rs);
    let out = env.kubectl_advancing(&["delete", "job", "pi", "--cascade=foreground"]);
    assert_eq!(out.trim(), "job.batch \"pi\" deleted");

    let pods = env.get(&["pods", "-l", "app=web"]);
    let node = s(&pods, &["items", "0", "spec", "nodeName"]).as_str().expect("a web pod on a node").to_string();
    let out = env.kubectl_advancing(&["drain", &node, "--ignore-daemonsets", "--delete-emptydir-data", "--grace-period=5", "--timeout=25s"]);
    assert!(out.contains(&format!("node/{} drained", node)), "{}", out);
    let pods = env.get(&["pods", "-l", "app=web", "--field-selector", &format!("spec.nodeName={}", node)]);
    assert_eq!(s(&pods, &["items"]).as_array().map(Vec::len), Some(0), "{}", pods);

    let _ = std::fs::remove_dir_all(&env.dir);
    eprintln!("serve_protobuf: {:.1} s", t0.elapsed().as_secs_f64());
}
