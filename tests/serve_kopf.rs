//! An operator of your own against `kubesim serve`: the kopf example of `examples/kopf-website/`
//! (kopf, pinned in `scripts/setup.sh`'s venv) run unchanged as its README says, against a
//! server whose clock runs at 5× wall time. It must reconcile a `Website` into a Deployment whose
//! Pods become ready, follow a change of `spec.replicas`, and keep doing so after each fault an
//! operator meets in a real cluster, injected through serve's `POST /kubesim/v1/exec` as an
//! operator author would: its watch connections dropped (`sim fault watch-drop kopf`), kube-
//! apiserver restarted (`sim fault restart kube-apiserver`: every stream closes, the new watch
//! cache answers old resourceVersions with 410 Gone), and its own process killed and started
//! again (a Website created meanwhile is reconciled by the new process). Deleting the Website
//! lets the garbage collector delete the Deployment kopf adopted.
//!
//! Without the venv the test says SKIPPED on stderr and fails, unless `KUBESIM_ALLOW_SKIP=1`.
#![cfg(not(target_arch = "wasm32"))]

use kubesim::serve::{Options, Server};
use serde_json::{json, Value};
use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How long one expectation may take (wall time); the whole test takes about 30 s.
const WAIT: Duration = Duration::from_secs(60);

/// One HTTP/1.1 request to the server: (status code, body).
fn http(server: &Server, method: &str, path: &str, body: Option<&Value>) -> (u16, String) {
    http_accept(server, method, path, body, "application/json")
}

/// The same with an `Accept` header.
fn http_accept(server: &Server, method: &str, path: &str, body: Option<&Value>, accept: &str) -> (u16, String) {
    let mut s = TcpStream::connect(server.addr()).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(120))).unwrap();
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    write!(s, "{} {} HTTP/1.1\r\nHost: {}\r\nUser-Agent: serve-kopf-test\r\nAccept: {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{}", method, path, server.addr(), accept, body.len(), body).unwrap();
    let mut raw = Vec::new();
    s.read_to_end(&mut raw).expect("read");
    let text = String::from_utf8_lossy(&raw).to_string();
    let (head, rest) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let code = head
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    (code, rest.to_string())
}

/// A line of kubesim's console (`kubectl …`, `sim …`) through `POST /kubesim/v1/exec`.
fn exec(server: &Server, line: &str, stdin: Option<&str>) -> String {
    let (code, out) = http(
        server,
        "POST",
        "/kubesim/v1/exec",
        Some(&json!({"line": line, "stdin": stdin})),
    );
    assert_eq!(code, 200, "{}: {}", line, out);
    out
}

/// The Deployment `name` in `default`, if any.
fn deployment(server: &Server, name: &str) -> Option<Value> {
    let (code, body) = http(
        server,
        "GET",
        &format!("/apis/apps/v1/namespaces/default/deployments/{}", name),
        None,
    );
    (code == 200).then(|| serde_json::from_str(&body).expect("a Deployment"))
}

/// The kopf process and what it has printed so far.
struct Operator {
    child: Child,
    log: Arc<Mutex<String>>,
}

impl Operator {
    fn start(kopf: &Path, example: &Path, kubeconfig: &Path, home: &Path) -> Operator {
        let mut child = Command::new(kopf)
            .args(["run", "--standalone", "--all-namespaces"])
            .arg(example.join("operator.py"))
            .env("KUBECONFIG", kubeconfig)
            .env("HOME", home)
            .env("PYTHONUNBUFFERED", "1")
            .env("PYTHONDONTWRITEBYTECODE", "1")
            .current_dir(example)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("running kopf");
        let log = Arc::new(Mutex::new(String::new()));
        for pipe in [
            Box::new(child.stdout.take().unwrap()) as Box<dyn Read + Send>,
            Box::new(child.stderr.take().unwrap()),
        ] {
            let log = log.clone();
            std::thread::spawn(move || {
                let mut pipe = pipe;
                let mut buf = [0u8; 4096];
                while let Ok(n) = pipe.read(&mut buf) {
                    if n == 0 {
                        break;
                    }
                    log.lock()
                        .unwrap()
                        .push_str(&String::from_utf8_lossy(&buf[..n]));
                }
            });
        }
        Operator { child, log }
    }

    fn log(&self) -> String {
        self.log.lock().unwrap().clone()
    }

    fn stop(&mut self) -> String {
        let _ = self.child.kill();
        let _ = self.child.wait();
        std::thread::sleep(Duration::from_millis(200));
        self.log()
    }
}

impl Drop for Operator {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Waits until `ok` holds, or fails with what kopf printed.
fn wait_for(what: &str, op: &Operator, mut ok: impl FnMut() -> bool) {
    let t0 = Instant::now();
    while !ok() {
        assert!(
            t0.elapsed() < WAIT,
            "not within {:?}: {}\n--- kopf ---\n{}",
            WAIT,
            what,
            op.log()
        );
        std::thread::sleep(Duration::from_millis(250));
    }
}

/// Patches the Website's `spec.replicas` and waits for the operator to carry it into the
/// Deployment.
fn scale_website(server: &Server, op: &Operator, n: i64, when: &str) {
    exec(server, &format!(r#"kubectl patch website blog --type=merge -p '{{"spec":{{"replicas":{}}}}}'"#, n), None);
    wait_for(&format!("Deployment blog scaled to {} {}", n, when), op, || deployment(server, "blog").is_some_and(|d| replicas(&d, "/spec/replicas") == n));
}

fn replicas(d: &Value, field: &str) -> i64 {
    d.pointer(field).and_then(Value::as_i64).unwrap_or(0)
}

#[test]
fn kopf_operator_reconciles_and_recovers() {
    let root = std::env::var("KUBESIM_ROOT")
        .map(PathBuf::from)
        .unwrap_or_else(|_| PathBuf::from(env!("CARGO_MANIFEST_DIR")));
    let kopf = root.join(".venv/bin/kopf");
    if !kopf.exists() {
        let why = format!(
            "{} is missing; run scripts/setup.sh to install kopf into the venv",
            kopf.display()
        );
        eprintln!("SKIPPED serve_kopf: {}", why);
        assert!(
            std::env::var("KUBESIM_ALLOW_SKIP").is_ok_and(|v| v == "1"),
            "the kopf operator test did not run: {} (set KUBESIM_ALLOW_SKIP=1 to allow skipping)",
            why
        );
        return;
    }
    let t0 = Instant::now();
    let example = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("examples/kopf-website");
    let server = Server::start(&Options {
        addr: "127.0.0.1:0".into(),
        seed: 1,
        speed: 5.0,
        epoch_ms: kubesim::serve::wall_clock_epoch(),
        ..Options::default()
    })
    .expect("start");
    let dir = std::env::temp_dir().join(format!("kubesim-serve-kopf-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let kubeconfig = dir.join("kubeconfig");
    std::fs::write(&kubeconfig, server.kubeconfig()).unwrap();
    let read = |f: &str| std::fs::read_to_string(example.join(f)).unwrap();

    let out = exec(&server, "kubectl apply -f -", Some(&read("crd.yaml")));
    assert_eq!(
        out,
        "customresourcedefinition.apiextensions.k8s.io/websites.example.com created\n"
    );
    // the Established CRD's group in aggregated discovery, as kopf and kubectl read it
    let (code, apis) = http_accept(&server, "GET", "/apis", None, "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json");
    assert_eq!(code, 200);
    let apis: Value = serde_json::from_str(&apis).unwrap();
    let group = apis["items"].as_array().unwrap().iter().find(|g| g["metadata"]["name"] == "example.com").expect("example.com in /apis");
    assert_eq!(group["versions"][0]["resources"][0]["responseKind"], json!({"group": "example.com", "version": "v1", "kind": "Website"}));
    assert_eq!(group["versions"][0]["resources"][0]["shortNames"], json!(["ws"]));
    let mut op = Operator::start(&kopf, &example, &kubeconfig, &dir);
    let out = exec(&server, "kubectl apply -f -", Some(&read("website.yaml")));
    assert_eq!(out, "website.example.com/blog created\n");

    // the operator's Deployment, owned by the Website, whose Pods become ready
    wait_for("Deployment blog with 2 ready replicas", &op, || {
        deployment(&server, "blog").is_some_and(|d| replicas(&d, "/status/readyReplicas") == 2)
    });
    let d = deployment(&server, "blog").unwrap();
    assert_eq!(
        d.pointer("/metadata/ownerReferences/0/kind"),
        Some(&json!("Website")),
        "{}",
        d
    );
    assert_eq!(
        d.pointer("/metadata/ownerReferences/0/name"),
        Some(&json!("blog"))
    );
    wait_for("kopf's handler result in the Website's status", &op, || {
        let (_, w) = http(
            &server,
            "GET",
            "/apis/example.com/v1/namespaces/default/websites/blog",
            None,
        );
        w.contains("\"reconcile\":{\"deployment\":\"blog\"}")
    });

    // its watch connections dropped: it watches again and sees the next change
    let out = exec(&server, "sim fault watch-drop kopf", None);
    assert!(
        out.starts_with("kopf's watches dropped: ") && out.ends_with(" watch stream(s) closed\n"),
        "{}",
        out
    );
    scale_website(&server, &op, 3, "after the watch drop");

    // kube-apiserver restarted: every stream closes; kopf relists on the 410 and goes on
    let out = exec(&server, "sim fault restart kube-apiserver", None);
    assert!(out.starts_with("kube-apiserver restarted: "), "{}", out);
    scale_website(&server, &op, 1, "after kube-apiserver's restart");

    // the operator's own process killed: a Website created meanwhile is only data in etcd, until
    // the new process lists it
    let first = op.stop();
    assert!(
        first.contains("created Deployment blog") && first.contains("patched Deployment blog"),
        "{}",
        first
    );
    let shop = read("website.yaml").replace("name: blog", "name: shop");
    assert_eq!(
        exec(&server, "kubectl apply -f -", Some(&shop)),
        "website.example.com/shop created\n"
    );
    server.advance(30_000);
    assert!(
        deployment(&server, "shop").is_none(),
        "a Deployment without an operator running"
    );
    op = Operator::start(&kopf, &example, &kubeconfig, &dir);
    wait_for(
        "Deployment shop made by the restarted operator",
        &op,
        || deployment(&server, "shop").is_some_and(|d| replicas(&d, "/status/readyReplicas") == 2),
    );

    // its requests are in the audit log with their own user agents: kopf's watches (one per
    // process and one after each break), the Deployments from the operator's Python client
    let audit = exec(&server, "sim audit --resource websites --verb watch", None);
    let watches = audit
        .lines()
        .filter(|l| l.contains("\"userAgent\":\"kopf/1.38.0\""))
        .count();
    assert!(
        watches >= 4,
        "{} watches of websites by kopf:\n{}",
        watches,
        audit
    );
    let audit = exec(
        &server,
        "sim audit --resource deployments --verb create",
        None,
    );
    let created: Vec<&str> = audit
        .lines()
        .filter(|l| {
            l.contains("\"userAgent\":\"OpenAPI-Generator/37.0.2/python\"")
                && l.contains("\"code\":201")
        })
        .collect();
    assert_eq!(created.len(), 2, "{}", audit);

    // deleting the Website: the garbage collector deletes the Deployment kopf adopted
    assert_eq!(
        exec(&server, "kubectl delete website blog", None),
        "website.example.com \"blog\" deleted\n"
    );
    wait_for(
        "Deployment blog deleted by the garbage collector",
        &op,
        || deployment(&server, "blog").is_none(),
    );
    let log = op.stop();
    assert!(log.contains("created Deployment shop"), "{}", log);
    let _ = std::fs::remove_dir_all(&dir);
    eprintln!("serve_kopf: {:.1} s", t0.elapsed().as_secs_f64());
}
