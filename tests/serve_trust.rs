//! `kubesim serve` a tool can trust (issue 29), checked with clients nobody here wrote: real
//! kubectl v1.32 (`/usr/bin/kubectl`) and v1.37 (`.venv/bin/kubectl`), each against a fresh
//! server, and the official Python client's own examples (`serve_python_examples`).
//!
//! For each kubectl:
//! - every `--dry-run=server` verb (create, apply, delete, set image, scale, label, annotate,
//!   patch) prints `(server dry run)` and leaves etcd's revision where it was (read from
//!   `/metrics`, `kubesim_etcd_revision`), and the object unchanged;
//! - `kubectl diff -f` shows exactly what would change (exit 1) and changes nothing; a file equal
//!   to the live state diffs empty (exit 0) — empty maps are not stored, so no
//!   `annotations: {}` — and a deleted Service is not re-created by a diff;
//! - `kubectl apply --prune -l app=web` prunes an applied object the file no longer has;
//! - `kubectl debug POD -it` adds an ephemeral container (`pods/ephemeralcontainers`), and the
//!   attach that follows falls back to the container's log (serve does not stream), no panic;
//! - field selectors: `spec.unschedulable=false` lists the three nodes; an unsupported label is
//!   the 400 `field label not supported`;
//! - a kind kubesim does not serve, sent as protobuf (`kubectl create poddisruptionbudget`), is a
//!   404, not a 415;
//! - `services/NAME/proxy/` and `pods/NAME/proxy/` reach nginx (also through `kubectl proxy`);
//! - `kubectl wait --for=condition=Available` returns once the rollout is done;
//! - with the clock starting at the host's time, ages are seconds, not 330 days (`get`,
//!   `events`, `describe`'s Events);
//! - `/metrics` counts the dry runs (`dry_run="All"`);
//! - an HTTPS client is told at once (`server gave HTTP response to HTTPS client`), and junk
//!   gets a 400 at once.
//!
//! Without `/usr/bin/kubectl` the test says SKIPPED and fails unless `KUBESIM_ALLOW_SKIP=1`.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use common::Run;
use kubesim::serve::{Options, Server};
use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

struct Env {
    server: Server,
    dir: PathBuf,
    kubectl: String,
}

impl Env {
    fn start(kubectl: &str, tag: &str, opts: Options) -> Env {
        let server = Server::start(&opts).expect("start");
        let dir = std::env::temp_dir().join(format!("kubesim-trust-{}-{}", tag, std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("kubeconfig"), server.kubeconfig()).unwrap();
        Env { server, dir, kubectl: kubectl.to_string() }
    }

    /// Runs kubectl; on a frozen clock, a command still running after half a second gets a
    /// virtual second every 20 ms, for at most `max_s` of them.
    fn kubectl_with(&self, args: &[&str], stdin: Option<&str>, max_s: u32) -> Run {
        common::run_kubectl(&self.server, &self.kubectl, &self.dir, args, stdin, common::Pace { patience: Duration::from_millis(500), tick: Duration::from_millis(20), max_seconds: max_s })
    }

    fn kubectl(&self, args: &[&str]) -> Run {
        self.kubectl_with(args, None, 60)
    }

    fn raw_get(&self, path: &str) -> (u16, String) {
        let mut s = TcpStream::connect(self.server.addr()).expect("connect");
        write!(s, "GET {} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", path).unwrap();
        let mut raw = Vec::new();
        s.read_to_end(&mut raw).unwrap();
        let text = String::from_utf8_lossy(&raw).to_string();
        let code = text.get(9..12).and_then(|c| c.parse().ok()).unwrap_or(0);
        (code, text.split_once("\r\n\r\n").map(|(_, b)| b.to_string()).unwrap_or_default())
    }

    fn etcd_revision(&self) -> i64 {
        let (_, metrics) = self.raw_get("/metrics");
        metrics.lines().find_map(|l| l.strip_prefix("kubesim_etcd_revision ")).and_then(|v| v.trim().parse().ok()).expect("kubesim_etcd_revision in /metrics")
    }
}

impl Drop for Env {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

const DEPLOYMENT: &str = "apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels:
    app: web
spec:
  replicas: 5
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
      - name: nginx
        image: nginx:1.27
";

const SERVICE: &str = "apiVersion: v1
kind: Service
metadata:
  name: web
spec:
  selector:
    app: web
  ports:
  - port: 80
";

fn kubectls() -> Vec<(&'static str, String)> {
    let mut v = vec![("v1.32", "/usr/bin/kubectl".to_string())];
    let venv = concat!(env!("CARGO_MANIFEST_DIR"), "/.venv/bin/kubectl");
    if Path::new(venv).exists() {
        v.push(("v1.37", venv.to_string()));
    } else {
        eprintln!("serve_trust: {} is missing (scripts/setup.sh installs it): kubectl v1.32 only", venv);
    }
    v
}

fn skip_without_kubectl() -> bool {
    if Path::new("/usr/bin/kubectl").exists() {
        return false;
    }
    eprintln!("SKIPPED serve_trust: /usr/bin/kubectl is missing");
    assert!(std::env::var("KUBESIM_ALLOW_SKIP").is_ok_and(|v| v == "1"), "serve_trust needs /usr/bin/kubectl (set KUBESIM_ALLOW_SKIP=1 to skip)");
    true
}

#[test]
fn real_kubectl_can_trust_kubesim_serve() {
    if skip_without_kubectl() {
        return;
    }
    let t0 = Instant::now();
    let mut checks = 0;
    for (label, bin) in kubectls() {
        let frozen = Options { addr: "127.0.0.1:0".into(), seed: 3, speed: 0.0, epoch_ms: kubesim::serve::wall_clock_epoch(), ..Options::default() };
        let env = Env::start(&bin, label, frozen);
        let dir = env.dir.clone();
        std::fs::write(dir.join("deploy.yaml"), DEPLOYMENT.replace("replicas: 5", "replicas: 2")).unwrap();
        std::fs::write(dir.join("deploy5.yaml"), DEPLOYMENT).unwrap();
        std::fs::write(dir.join("svc.yaml"), SERVICE).unwrap();
        let f = |n: &str| dir.join(n).to_string_lossy().to_string();
        let ok = |r: &Run, what: &str| assert_eq!(r.code, 0, "[{}] {}: {}", label, what, r.out);
        ok(&env.kubectl(&["apply", "-f", &f("deploy.yaml"), "-f", &f("svc.yaml")]), "apply");
        ok(&env.kubectl(&["rollout", "status", "deployment/web", "--timeout=60s"]), "rollout status");

        // --dry-run=server: each verb answers as the real one would, and etcd does not move
        let dry: &[(&[&str], &str)] = &[
            (&["create", "configmap", "x", "--from-literal=a=b", "--dry-run=server"], "configmap/x created (server dry run)"),
            (&["apply", "-f", &f("deploy5.yaml"), "--dry-run=server"], "deployment.apps/web configured (server dry run)"),
            (&["delete", "service", "web", "--dry-run=server"], "service \"web\" deleted"),
            (&["set", "image", "deployment/web", "nginx=nginx:1.28", "--dry-run=server"], "deployment.apps/web image updated (server dry run)"),
            (&["scale", "deployment/web", "--replicas=4", "--dry-run=server"], "deployment.apps/web scaled (server dry run)"),
            (&["label", "deployment", "web", "tier=front", "--dry-run=server"], "deployment.apps/web labeled (server dry run)"),
            (&["annotate", "deployment", "web", "note=x", "--dry-run=server"], "deployment.apps/web annotated (server dry run)"),
            (&["patch", "deployment", "web", "-p", "{\"spec\":{\"replicas\":7}}", "--dry-run=server"], "deployment.apps/web patched"),
            (&["create", "deployment", "api", "--image=nginx", "--dry-run=server"], "deployment.apps/api created (server dry run)"),
        ];
        for (args, want) in dry {
            let before = env.etcd_revision();
            let r = env.kubectl(args);
            assert!(r.out.contains(want), "[{}] kubectl {}: {}", label, args.join(" "), r.out);
            // (kubectl patch prints no dry-run suffix; v1.37's delete adds "from default namespace")
            assert!(args[0] == "patch" || r.out.trim_end().ends_with("(server dry run)"), "[{}] kubectl {}: {}", label, args.join(" "), r.out);
            assert_eq!(env.etcd_revision(), before, "[{}] kubectl {} changed etcd", label, args.join(" "));
            checks += 1;
        }
        let replicas = env.kubectl(&["get", "deployment", "web", "-o", "jsonpath={.spec.replicas} {.spec.template.spec.containers[0].image} {.metadata.labels.tier}"]);
        assert_eq!(replicas.out.trim(), "2 nginx:1.27", "[{}] the dry runs changed the Deployment", label);
        assert!(env.kubectl(&["get", "configmap", "x"]).out.contains("NotFound"), "[{}] a dry-run create stored the ConfigMap", label);
        assert_eq!(env.kubectl(&["get", "service", "web", "-o", "name"]).out.trim(), "service/web", "[{}] a dry-run delete deleted the Service", label);

        // kubectl diff: exactly what would change, nothing changed
        let before = env.etcd_revision();
        let d = env.kubectl(&["diff", "-f", &f("deploy5.yaml")]);
        assert_eq!(d.code, 1, "[{}] diff of a changed file exits 1: {}", label, d.out);
        assert!(d.out.contains("-  replicas: 2") && d.out.contains("+  replicas: 5"), "[{}] diff: {}", label, d.out);
        let changed: Vec<&str> = d.out.lines().filter(|l| (l.starts_with('+') || l.starts_with('-')) && !l.starts_with("+++") && !l.starts_with("---")).collect();
        assert_eq!(changed.len(), 4, "[{}] diff shows only replicas and generation: {:?}", label, changed);
        let same = env.kubectl(&["diff", "-f", &f("deploy.yaml")]);
        assert_eq!((same.code, same.out.as_str()), (0, ""), "[{}] diff of the live state is empty", label);
        assert_eq!(env.etcd_revision(), before, "[{}] kubectl diff changed etcd", label);
        ok(&env.kubectl(&["delete", "service", "web"]), "delete service");
        let before = env.etcd_revision();
        let d = env.kubectl(&["diff", "-f", &f("svc.yaml")]);
        assert_eq!(d.code, 1, "[{}] diff of a deleted Service: {}", label, d.out);
        assert!(env.kubectl(&["get", "service", "web"]).out.contains("NotFound"), "[{}] kubectl diff re-created the Service", label);
        assert_eq!(env.etcd_revision(), before, "[{}] kubectl diff of a deleted Service changed etcd", label);
        ok(&env.kubectl(&["apply", "-f", &f("svc.yaml")]), "apply service");
        checks += 3;

        // no-op apply: nothing written, no generation bump (empty maps are not stored)
        let with_empty = DEPLOYMENT.replace("replicas: 5", "replicas: 2").replace("  labels:\n    app: web\nspec:", "  labels:\n    app: web\n  annotations: {}\nspec:").replace("    spec:\n      containers:", "    spec:\n      nodeSelector: {}\n      containers:");
        std::fs::write(dir.join("empty.yaml"), with_empty).unwrap();
        let r = env.kubectl(&["apply", "-f", &f("empty.yaml")]);
        ok(&r, "apply with empty maps");
        let d = env.kubectl(&["diff", "-f", &f("empty.yaml")]);
        assert_eq!((d.code, d.out.as_str()), (0, ""), "[{}] diff after applying empty maps", label);
        // (client-side apply changes the last-applied annotation, which bumps a Deployment's
        // generation in a real cluster too; a patch of an empty map changes nothing)
        let generation = env.kubectl(&["get", "deployment", "web", "-o", "jsonpath={.metadata.generation}"]).out;
        let before = env.etcd_revision();
        let r = env.kubectl(&["patch", "deployment", "web", "--type=merge", "-p", "{\"metadata\":{\"labels\":{}},\"spec\":{\"template\":{\"spec\":{\"nodeSelector\":{}}}}}"]);
        assert!(r.out.contains("deployment.apps/web patched (no change)"), "[{}] {}", label, r.out);
        assert_eq!(env.etcd_revision(), before, "[{}] a patch of empty maps wrote to etcd", label);
        assert_eq!(env.kubectl(&["get", "deployment", "web", "-o", "jsonpath={.metadata.generation}"]).out, generation, "[{}] an empty nodeSelector bumped generation", label);
        checks += 1;

        // apply --prune: kubectl's default allowlist maps (ReplicationController and Ingress are
        // served), and an applied object the file no longer has is pruned
        std::fs::write(dir.join("cm.yaml"), "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: extra\n  labels:\n    app: web\ndata:\n  a: b\n").unwrap();
        ok(&env.kubectl(&["apply", "-f", &f("cm.yaml")]), "apply configmap");
        let r = env.kubectl(&["apply", "--prune", "-l", "app=web", "-f", &f("empty.yaml")]);
        assert!(r.code == 0 && r.out.contains("configmap/extra pruned"), "[{}] apply --prune: {}", label, r.out);
        assert!(env.kubectl(&["get", "configmap", "extra"]).out.contains("NotFound"), "[{}] prune left the ConfigMap", label);
        checks += 1;

        // debug: an ephemeral container through pods/ephemeralcontainers; the attach that
        // follows gets serve's 501 and kubectl falls back to the container's log
        let pod = env.kubectl(&["get", "pods", "-l", "app=web", "-o", "jsonpath={.items[0].metadata.name}"]).out;
        let r = env.kubectl_with(&["debug", &pod, "-it", "--image=busybox"], Some(""), 5);
        assert!(!r.out.contains("panic"), "[{}] kubectl debug panicked: {}", label, r.out);
        assert!(r.out.contains("Defaulting debug container name to debugger-"), "[{}] kubectl debug: {}", label, r.out);
        let names = env.kubectl(&["get", "pod", &pod, "-o", "jsonpath={.spec.ephemeralContainers[*].name}"]).out;
        assert!(names.contains("debugger-"), "[{}] no ephemeral container in the Pod: {:?}", label, names);
        checks += 1;

        // field selectors
        let r = env.kubectl(&["get", "nodes", "--field-selector", "spec.unschedulable=false", "-o", "name"]);
        assert_eq!(r.out.lines().count(), 3, "[{}] {}", label, r.out);
        let r = env.kubectl(&["get", "pods", "--field-selector", "foo=bar"]);
        assert!(r.out.contains("Error from server (BadRequest): Unable to find \"/v1, Resource=pods\" that match label selector \"\", field selector \"foo=bar\": field label not supported: foo"), "[{}] {}", label, r.out);
        checks += 2;

        // a PodDisruptionBudget sent as protobuf by kubectl's typed client: decoded and stored,
        // and its status kept by the disruption controller
        let r = env.kubectl(&["create", "poddisruptionbudget", "pdb", "--selector=app=web", "--min-available=1"]);
        assert!(r.code == 0 && r.out.contains("poddisruptionbudget.policy/pdb created"), "[{}] {}", label, r.out);
        let r = env.kubectl(&["delete", "pdb", "pdb"]);
        assert!(r.code == 0, "[{}] {}", label, r.out);
        // kubectl autoscale: v1.32 sends an autoscaling/v1 HorizontalPodAutoscaler as protobuf
        // (converted to the v2 storage version by the API server), v1.37 an autoscaling/v2 one;
        // either way `get hpa` reads it back as v2, its target CPU utilization kept
        let r = env.kubectl(&["autoscale", "deployment", "web", "--max=3", "--cpu-percent=60"]);
        assert!(r.code == 0 && r.out.contains("horizontalpodautoscaler.autoscaling/web autoscaled"), "[{}] {}", label, r.out);
        let r = env.kubectl(&["get", "hpa", "web", "-o", "jsonpath={.spec.metrics[0].resource.target.averageUtilization} {.spec.maxReplicas}"]);
        assert!(r.code == 0 && r.out.trim() == "60 3", "[{}] {}", label, r.out);
        let r = env.kubectl(&["get", "--raw", "/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers/web"]);
        assert!(r.out.contains("\"targetCPUUtilizationPercentage\":60") && r.out.contains("\"apiVersion\":\"autoscaling/v1\""), "[{}] {}", label, r.out);
        let r = env.kubectl(&["delete", "hpa", "web"]);
        assert!(r.code == 0, "[{}] {}", label, r.out);
        checks += 2;

        // proxy subresources, directly and through kubectl proxy
        let r = env.kubectl(&["get", "--raw", "/api/v1/namespaces/default/services/web/proxy/"]);
        assert!(r.out.contains("Welcome to nginx!"), "[{}] service proxy: {}", label, r.out);
        let r = env.kubectl(&["get", "--raw", &format!("/api/v1/namespaces/default/pods/{}/proxy/", pod)]);
        assert!(r.out.contains("Welcome to nginx!"), "[{}] pod proxy: {}", label, r.out);
        let r = env.kubectl(&["get", "--raw", "/api/v1/namespaces/default/services/nope/proxy/"]);
        assert!(r.out.contains("NotFound"), "[{}] proxy to a missing Service: {}", label, r.out);
        let port = 20000 + (std::process::id() % 20000) as u16 + if label == "v1.32" { 0 } else { 1 };
        let mut proxy = Command::new(&bin)
            .env("KUBECONFIG", dir.join("kubeconfig"))
            .env("HOME", &dir)
            .args(["proxy", &format!("--port={}", port)])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("kubectl proxy");
        let mut page = String::new();
        for _ in 0..50 {
            std::thread::sleep(Duration::from_millis(100));
            if let Ok(mut s) = TcpStream::connect(("127.0.0.1", port)) {
                write!(s, "GET /api/v1/namespaces/default/services/web/proxy/ HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n").unwrap();
                let _ = s.read_to_string(&mut page);
                break;
            }
        }
        let _ = proxy.kill();
        let _ = proxy.wait();
        assert!(page.starts_with("HTTP/1.1 200") && page.contains("Welcome to nginx!"), "[{}] through kubectl proxy: {}", label, page);
        checks += 4;

        // wait: the clock moves while kubectl waits
        ok(&env.kubectl(&["scale", "deployment/web", "--replicas=3"]), "scale");
        let r = env.kubectl(&["wait", "--for=condition=Available", "deployment/web", "--timeout=60s"]);
        assert!(r.code == 0 && r.out.contains("deployment.apps/web condition met"), "[{}] wait: {}", label, r.out);
        checks += 1;

        // ages computed by the client from the server's timestamps
        for args in [&["get", "nodes"][..], &["events"][..], &["describe", "deployment", "web"][..]] {
            let r = env.kubectl(args);
            assert!(!r.out.contains("330d") && !r.out.contains("331d") && !r.out.lines().any(|l| l.split_whitespace().any(|w| w.ends_with('d') && w[..w.len() - 1].parse::<u32>().is_ok_and(|n| n > 0))), "[{}] kubectl {}: ages in days:\n{}", label, args.join(" "), r.out);
            checks += 1;
        }

        // /metrics counts what was asked, dry runs apart
        let (code, metrics) = env.raw_get("/metrics");
        assert_eq!(code, 200);
        assert!(metrics.contains("dry_run=\"All\",group=\"apps\",resource=\"deployments\""), "[{}] /metrics has no dry-run series", label);
        checks += 1;

        // the wrong protocol is told at once
        let https = format!(
            "apiVersion: v1\nkind: Config\nclusters:\n- cluster: {{server: \"https://{}\", insecure-skip-tls-verify: true}}\n  name: s\ncontexts:\n- context: {{cluster: s, user: u}}\n  name: s\ncurrent-context: s\nusers:\n- name: u\n  user: {{token: t}}\n",
            env.server.addr()
        );
        std::fs::write(dir.join("https"), https).unwrap();
        let t = Instant::now();
        let r = Command::new(&bin).env("KUBECONFIG", dir.join("https")).env("HOME", &dir).args(["get", "pods"]).output().expect("kubectl");
        let text = String::from_utf8_lossy(&r.stderr);
        assert!(text.contains("server gave HTTP response to HTTPS client") || text.contains("first record does not look like a TLS handshake"), "[{}] https: {}", label, text);
        assert!(t.elapsed() < Duration::from_secs(5), "[{}] the TLS client waited {:?}", label, t.elapsed());
        checks += 1;
    }
    let env = Env::start("/usr/bin/kubectl", "junk", Options { addr: "127.0.0.1:0".into(), seed: 1, speed: 0.0, epoch_ms: kubesim::api::time::EPOCH_MS, ..Options::default() });
    let mut s = TcpStream::connect(env.server.addr()).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    s.write_all(b"\x00\x01\x02junk").unwrap();
    let mut answer = String::new();
    let _ = s.read_to_string(&mut answer);
    assert!(answer.starts_with("HTTP/1.1 400 Bad Request"), "junk: {:?}", answer);
    eprintln!("serve_trust: {} checks in {:.1} s", checks + 1, t0.elapsed().as_secs_f64());
}
