//! `kubectl config` is client-side: real kubectl reads and writes its kubeconfig file and asks no
//! server. So the family is compared here with real kubectl (v1.32, and v1.37 from the venv when
//! present) run on a kubeconfig file equal to the console's (kubeadm's `admin.conf` for the
//! page's cluster), command by command, each client from the same starting file and through the
//! same sequence: outputs and exit codes must agree, the file path in messages aside.
#![cfg(not(target_arch = "wasm32"))]

use kubesim::cluster::{Cluster, ClusterConfig};
use std::path::Path;
use std::process::Command;

/// The console's kubeconfig as a file (`kubectl config view --raw` of kubesim).
fn console_kubeconfig() -> String {
    let mut c = Cluster::bare(1, ClusterConfig::default());
    let out = kubesim::kubectl::run(&mut c, &["config".into(), "view".into(), "--raw".into()], None, &|_| None);
    assert_eq!(out.code, 0, "{}", out.combined());
    out.stdout
}

/// The sequence: what a learner types, and each error path.
const LINES: &[&str] = &[
    "config view",
    "config view --minify",
    "config view -o json",
    "config view -o jsonpath={.contexts[*].name}",
    "config view -o wide",
    "config view extra",
    "config get-contexts",
    "config get-contexts -o name",
    "config get-contexts --no-headers",
    "config get-contexts -o wide",
    "config get-contexts nope",
    "config current-context",
    "config get-clusters",
    "config get-users",
    "config use-context nope",
    "config use-context",
    "config set-context",
    "config set-context a b",
    "config set-context a --current",
    "config set-context --current --namespace=dev",
    "config get-contexts",
    "config set-context dev --cluster=kubernetes --user=kubernetes-admin --namespace=dev",
    "config set-context dev --namespace=prod",
    "config get-contexts dev",
    "config use-context dev",
    "config current-context",
    "config view --minify",
    "config rename-context dev staging",
    "config rename-context staging kubernetes-admin@kubernetes",
    "config rename-context zz yy",
    "config delete-context staging",
    "config delete-context staging",
    "config use-context kubernetes-admin@kubernetes",
    "config set-context --current --namespace=",
    "config view",
    "config bogus",
    "config",
    "config use-context --help",
    "config set-context --help",
    "config view --help",
];

/// What kubectl changed after v1.34, taken out of both sides when comparing with v1.37: it
/// omits the empty `preferences` and offers the `kyaml` output format.
fn v137(text: &str) -> String {
    text.lines()
        .filter(|l| l.trim() != "preferences: {}" && l.trim() != "\"preferences\": {},")
        .map(|l| l.replace("jsonpath-file,kyaml,name", "jsonpath-file,name"))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn config_family_matches_real_kubectl() {
    let mut clients = vec![("v1.32", "/usr/bin/kubectl".to_string())];
    let venv = concat!(env!("CARGO_MANIFEST_DIR"), "/.venv/bin/kubectl");
    if Path::new(venv).exists() {
        clients.push(("v1.37", venv.to_string()));
    }
    if !Path::new(&clients[0].1).exists() {
        eprintln!("SKIPPED kubectl_config: /usr/bin/kubectl is missing");
        assert!(std::env::var("KUBESIM_ALLOW_SKIP").is_ok_and(|v| v == "1"), "kubectl_config needs /usr/bin/kubectl (set KUBESIM_ALLOW_SKIP=1 to skip)");
        return;
    }
    let start = console_kubeconfig();
    let mut failures = Vec::new();
    for (label, bin) in &clients {
        let dir = std::env::temp_dir().join(format!("kubesim-kubectl-config-{}-{}", std::process::id(), label));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("config");
        std::fs::write(&file, &start).unwrap();
        let mut sim = Cluster::bare(1, ClusterConfig::default());
        for line in LINES {
            let args = kubesim::kubectl::split_args(line).unwrap();
            let real = Command::new(bin).args(&args).env("KUBECONFIG", &file).env("HOME", &dir).output().expect("kubectl");
            let real_text = format!("{}{}", String::from_utf8_lossy(&real.stdout), String::from_utf8_lossy(&real.stderr)).replace(file.to_str().unwrap(), kubesim::client::kubeconfig::KUBECONFIG_PATH);
            let ours = kubesim::kubectl::run(&mut sim, &args, None, &|_| None);
            // stdout then stderr, as the real process's pipes were read
            let ours_text = format!("{}{}", ours.stdout, ours.stderr);
            let (real_code, ours_code) = (real.status.code().unwrap_or(-1), ours.code);
            let norm = |s: &str| s.lines().map(str::trim_end).collect::<Vec<_>>().join("\n");
            let (real_text, ours_text) = if *label == "v1.37" { (v137(&real_text), v137(&ours_text)) } else { (real_text, ours_text) };
            if *label == "v1.37" && (line.contains("--help") || *line == "config set-context a b") && real_code == ours_code {
                // v1.37 rewrote these help texts; kubesim prints v1.34's (= v1.32's)
                continue;
            }
            if norm(&real_text) != norm(&ours_text) || real_code != ours_code {
                failures.push(format!("[{}] $ kubectl {}\n--- real (exit {})\n{}\n--- kubesim (exit {})\n{}", label, line, real_code, real_text, ours_code, ours_text));
            }
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
    assert!(failures.is_empty(), "{} differences:\n{}", failures.len(), failures.join("\n"));
}
