//! Real kubectl beside kubesim's own kubectl emulation, on one cluster state.
//!
//! For every scenario of `tests/scenarios/` an in-process `kubesim serve` starts with the
//! scenario's seed and a frozen clock (`speed` 0), and the script runs line by line:
//! - `sim …` lines run on the served cluster through `POST /kubesim/v1/exec`;
//! - read-only kubectl commands (`get`, `describe`, `logs`, `events`, `api-resources`,
//!   `rollout history`) run twice on the same state: first the real kubectl (`/usr/bin/kubectl`,
//!   v1.32, and the PyPI kubectl 1.37 in `.venv` when installed), then kubesim's emulation
//!   through `POST /kubesim/v1/exec`; their outputs are compared line by line and, in tables,
//!   cell by cell with the AGE-like columns left out (the two run a round trip apart);
//! - commands that change the cluster run once, with the real kubectl, and what it prints is
//!   compared with what kubesim's emulation printed for the same line in the scenario's
//!   transcript (`NAME.out`);
//! - commands real kubectl cannot run against kubesim serve are listed in [`NOT_RUN`] with the
//!   reason; they run through the emulation so that the state stays the scenario's.
//!
//! Every difference found must be listed in [`ACCEPTED`] with its reason (the README repeats the
//! list); anything else fails the test, which prints a report of every command either way.
//! Without `/usr/bin/kubectl` the test prints SKIPPED and fails unless `KUBESIM_ALLOW_SKIP=1`.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use kubesim::serve::{Options, Server};
use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};

const KUBECTL_132: &str = "/usr/bin/kubectl";

/// Lines real kubectl does not run here, and why (matched as prefixes of the script line).
const NOT_RUN: &[(&str, &str)] = &[
    ("kubectl exec", "exec needs a streaming upgrade (SPDY/WebSocket) to the kubelet, which kubesim serve does not implement"),
    ("kubectl rollout status", "real kubectl watches until the rollout ends, which on a frozen clock needs the test to advance time; tests/serve_kubectl.rs does that"),
    ("kubectl help", "console help is kubesim's own page text"),
    ("kubectl explain", "compared in tests/serve_explain.rs"),
    ("kubectl config", "client-side: the console's kubeconfig is kubeadm's admin.conf, real kubectl's is the one serve writes; tests/kubectl_config.rs compares the config family with real kubectl on a copy of the console's kubeconfig"),
    ("kubectl port-forward", "port-forward needs a streaming upgrade (SPDY/WebSocket) to the kubelet, which kubesim serve does not implement; and real kubectl blocks while it forwards, where the console keeps it as a background job"),
    ("kubectl attach", "attach needs a streaming upgrade (SPDY/WebSocket) to the kubelet, which kubesim serve does not implement"),
    ("kubectl cp", "cp runs tar in the container through exec's streaming upgrade, which kubesim serve does not implement"),
    ("kubectl proxy", "real kubectl proxy serves until it is killed, on a real loopback port of the test machine; the console keeps it as a background job its own curl connects to"),
    ("kubectl edit", "real kubectl opens an editor; kubesim's kubectl edit takes the edited object as its input (the page opens it in its editor); src/kubectl/edit.rs tests it"),
];

/// Scenarios about the console's own kubeconfig (contexts, their namespaces), which real kubectl
/// does not share: it reads the kubeconfig serve writes.
const SKIPPED_SCENARIOS: &[(&str, &str)] = &[("kubectl_config", "the console's kubeconfig; tests/kubectl_config.rs compares the config family with real kubectl on a copy of it")];

/// `get -w`: real kubectl watches until killed; the emulation prints what arrives while it runs
/// the cluster for a bounded time.
const WATCH: (&str, &str) = ("kubectl get -w, kubectl logs -f", "a watch or a follow never ends by itself, and on a frozen clock nothing arrives; tests/serve_kubectl.rs watches with real kubectl");

/// Differences accepted, as (kubectl, script line prefix, text in the first differing line,
/// reason). kubesim's kubectl emulates kubectl v1.34, the server's version: v1.32 and v1.37
/// differ from it where kubectl itself changed between versions. The README lists these.
const ACCEPTED: &[(&str, &str, &str, &str)] = &[
    ("*", "kubectl debug", "Defaulting debug container name to debugger-", "kubectl draws the debug container's name at random (utilrand.String(5)); kubesim's kubectl from its own seeded source"),
    ("*", "kubectl debug node/", "Creating debugging pod node-debugger-", "kubectl draws the node debugging Pod's name at random; kubesim's kubectl from its own seeded source"),
    ("*", "kubectl debug", "Unable to use a TTY - input is not a terminal", "the test runs real kubectl without a terminal on its stdin, so its -t falls back; the console is the learner's terminal"),
    ("*", "kubectl debug", "If you don't see a command prompt", "real kubectl then attaches to the container through serve, which does not stream (501); the console says how to exec instead"),
    ("*", "kubectl diff -k", "uid: ", "a dry-run create gives the object a fresh uid each time it is asked, so real kubectl's diff and kubesim's differ there"),
    ("*", "kubectl diff -f -", "uid: ", "a dry-run create gives the object a fresh uid each time it is asked, so real kubectl's diff and kubesim's differ there"),
    ("*", "kubectl wait --for=condition=Ready pods -l app=web", "pod/web-", "a changing command is compared with the transcript, whose Pod names the in-process run drew; the served cluster draws them after real kubectl's own requests, so the generated suffixes differ (the read-only `get pods` around it agree)"),
    ("v1.32", "kubectl describe pod", "ConfigMapOptional:", "kubectl v1.32 prints a projected volume's ConfigMapOptional; v1.34 prints Optional"),
    ("v1.32", "kubectl describe ds", "Selector:", "kubectl v1.32's DaemonSet describer has no Namespace line; v1.34's has"),
    ("v1.32", "kubectl ", "Error: unknown", "kubectl v1.32 lets cobra print `Error:`; v1.34 prints kubectl's lowercase `error:`"),
    ("v1.32", "kubectl create clusterrolebinding", "\"command failed\" err=\"required flag(s)", "kubectl v1.32 reports a missing required flag through klog; v1.37 prints `error: required flag(s) \"clusterrole\" not set`, as kubesim does"),
    ("v1.32", "kubectl kustomize", "\"command failed\" err=", "kubectl v1.32 reports kustomize's errors through klog (`E… run.go:72] \"command failed\" err=…`); v1.37 prints `error: …`, as kubesim does"),
    ("v1.32", "kubectl run", "\"command failed\" err=\"required flag(s)", "kubectl v1.32 reports a missing required flag through klog (`E… run.go:72] \"command failed\" err=…`); v1.37 prints `error: required flag(s) \"image\" not set`, as kubesim does"),
    ("v1.32", "kubectl run", "creationTimestamp: null", "kubectl v1.32 prints `creationTimestamp: null` for an object not yet created; since kubernetes PR 130989 (v1.33) a zero creationTimestamp is omitted, as v1.37 shows"),
    ("v1.37", "kubectl describe", "| kubelet | spec.", "kubectl v1.37 prefixes an Event's message with its fieldPath (spec.containers{…} or spec.initContainers{…}) in describe; v1.34 does not"),
    ("v1.37", "kubectl describe", "| default-scheduler | Successfully assigned", "kubectl v1.37 orders describe's Events differently from v1.34"),
    ("v1.37", "kubectl describe pod", "successThreshold=", "kubectl v1.37 spells probe thresholds out; v1.34 prints #success/#failure"),
    ("v1.37", "kubectl describe node", "PodCIDR:", "kubectl v1.37 no longer prints Kube-Proxy Version for a node"),
    ("v1.37", "kubectl describe cronjob", "Time Zone:", "kubectl v1.37 prints a CronJob's Time Zone; v1.34 does not"),
    ("v1.37", "kubectl describe statefulset", "Name:", "kubectl v1.37's StatefulSet describer has more fields, so its columns are wider"),
    ("v1.37", "kubectl logs", "out of:", "kubectl v1.37 lists the pod's containers when -c names none of them"),
    ("*", "kubectl delete", "still waiting", "kubectl delete waits (--wait=true) until the object is gone; a PVC a Pod still uses stays Terminating (pvc-protection) as long as the Pod runs, in kubesim as in a real cluster; kubesim's emulation prints the same line and does not wait"),
    ("v1.32", "kubectl create deployment api --image=nginx:1.27 -n shop", "namespaces \"shop\" not found", "real kubectl's `delete namespace shop` waits until the namespace is gone (the suite advances the clock meanwhile); the transcript's kubectl does not wait, so there the namespace is still Terminating"),
    ("*", "kubectl get --help", "", "kubesim's --help is a summary (usage and the flags it implements), not kubectl's whole help text"),
    ("v1.32", "kubectl delete pod -l", "deleted", "pod names come from the cluster's seeded RNG, which every request also draws from (audit IDs): real kubectl sends other requests than kubesim's emulation, and the suite runs each read twice, so the served cluster's pods are not the transcript's"),
    ("*", "kubectl get pods", "Timeout: request did not complete", "a fault injected for kubectl's next request (`sim fault api-error 504 kubectl`) is taken by whichever client asks first: the suite runs real kubectl first, so kubesim's kubectl, asking second, gets the normal answer"),
    ("*", "kubectl set env deployment/web --from=configmap/app", "Warning: key", "kubectl ranges over the ConfigMap's data (a Go map), so its `key … transferred to …` warnings come in a random order; kubesim prints them sorted"),
    ("v1.32", "kubectl describe secret", "", "kubectl v1.32's Secret describer ranges over the data's Go map, so its keys come in a random order; v1.34's sorts them (slices.Sorted(maps.Keys(secret.Data))), as kubesim does"),
    ("*", "kubectl describe configmap", "", "kubectl v1.32's ConfigMap describer ranges over the data's Go map, so its keys come in a random order; kubesim prints them sorted"),
    ("*", "kubectl drain", "evicting pod", "kubectl evicts a node's Pods in parallel goroutines, so its `evicting pod …` lines come in whatever order the goroutines run; kubesim's rounds go in the order the Pods were listed"),
    ("*", "kubectl set env deployment/web --list", "from configmap", "the env list is in the order `set env --from=configmap/app` wrote it, and kubectl ranged over the ConfigMap's data (a Go map) to write it: a random order in the served cluster, sorted in kubesim's"),
    ("*", "kubectl top pod", "Metrics not available for pod", "kubectl top judges a Pod's age by the machine's clock (time.Since its creationTimestamp), and the served cluster's clock starts at 2026-01-01: real kubectl finds every Pod older than its 2-minute metricsCreationDelay; kubesim's kubectl reads the cluster's clock, where the Pod is seconds old"),
    ("v1.32", "kubectl autoscale", "could not find scale subresource", "kubectl v1.32 looks a kind's scale subresource up in discovery first; v1.34 asks CanBeAutoscaled first (`cannot autoscale a Service: cannot autoscale a Service`, which v1.37 prints too)"),
    ("*", "kubectl drain node-3", "Warning: deleting Pods that declare no controller: default/box", "kubesim's transcript also warns of deleting the metrics-server Pod's local storage: the metrics-server Pod evicted by the first drain is placed again by the scheduler's seeded tie-break, and every request draws from the same RNG (audit IDs): real kubectl sends other requests than kubesim's emulation, so in the served cluster it lands on another node than in the transcript"),
    ("*", "kubectl rollout restart", "restarted", "kubectl refuses a second restart within one second of its own clock (restartedAt): real kubectl reads the machine's clock, so whether the transcript's quick second restart falls in the first one's second depends on when the suite runs it"),
];

fn accepted(f: &Finding) -> bool {
    let first_line = f.diff.lines().nth(1).unwrap_or("");
    ACCEPTED.iter().any(|(k, prefix, text, _)| (*k == "*" || *k == f.kubectl) && f.line.starts_with(prefix) && first_line.contains(text))
}

struct Env {
    server: Server,
    dir: PathBuf,
}

impl Env {
    fn start(seed: u64, dir: &Path) -> Env {
        let server = Server::start(&Options { addr: "127.0.0.1:0".into(), seed, speed: 0.0, epoch_ms: kubesim::api::time::EPOCH_MS, ..Options::default() }).expect("start");
        std::fs::create_dir_all(dir).unwrap();
        std::fs::write(dir.join("kubeconfig"), server.kubeconfig()).unwrap();
        Env { server, dir: dir.to_path_buf() }
    }

    /// Runs a real kubectl with stdout and stderr on one pipe, interleaved as a terminal shows
    /// them (kubesim's emulation records the same order). A command that waits (`delete` waits
    /// for the object to be gone, finalizers included) gets the time it waits for: after 1 s of
    /// wall time the clock moves 1 s every 50 ms; after 2 minutes of cluster time it is stopped.
    fn real(&self, kubectl: &str, args: &[String], stdin: Option<&str>) -> String {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let pace = common::Pace { patience: std::time::Duration::from_secs(1), tick: std::time::Duration::from_millis(50), max_seconds: 120 };
        let run = common::run_kubectl(&self.server, kubectl, &self.dir, &args, stdin, pace);
        let mut text = run.out;
        if run.stopped {
            // e.g. a PVC a Pod still uses: Terminating until the Pod goes, as in a real cluster
            text.push_str("<still waiting after 2 minutes of cluster time: stopped>\n");
        }
        text
    }

    /// One script line through kubesim's own kubectl (or `sim`), on the served cluster.
    fn emulated(&self, line: &str, stdin: Option<&str>) -> String {
        let body = serde_json::json!({"line": line, "stdin": stdin}).to_string();
        let mut s = TcpStream::connect(self.server.addr()).expect("connect");
        write!(s, "POST /kubesim/v1/exec HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{}", self.server.addr(), body.len(), body).unwrap();
        let mut raw = Vec::new();
        s.read_to_end(&mut raw).unwrap();
        let text = String::from_utf8_lossy(&raw).to_string();
        let (head, body) = text.split_once("\r\n\r\n").expect("an HTTP response");
        assert!(head.starts_with("HTTP/1.1 200"), "exec {}: {}", line, text);
        body.to_string()
    }
}

/// Whether a kubectl command only reads.
fn read_only(args: &[String]) -> bool {
    let words: Vec<&str> = args.iter().map(String::as_str).filter(|a| !a.starts_with('-')).collect();
    match words.get(1).copied() {
        Some("get" | "describe" | "logs" | "events" | "api-resources" | "api-versions" | "cluster-info" | "top" | "diff" | "kustomize") => true,
        Some("rollout") => words.get(2) == Some(&"history"),
        _ => false,
    }
}

const AGE_COLUMNS: &[&str] = &["AGE", "LAST SEEN", "FIRST SEEN", "LAST SCHEDULE", "DURATION", "Age"];

/// Column start offsets of a table header (columns are separated by two or more spaces), when
/// the line is one: at least two columns and an AGE-like column among them.
fn header_columns(line: &str) -> Option<Vec<(usize, String)>> {
    let mut cols = Vec::new();
    let b = line.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b' ' {
            i += 1;
            continue;
        }
        let start = i;
        while i < b.len() && !(b[i] == b' ' && (i + 1 >= b.len() || b[i + 1] == b' ')) {
            i += 1;
        }
        cols.push((start, line[start..i].to_string()));
    }
    (cols.len() >= 2 && cols.iter().any(|(_, n)| AGE_COLUMNS.contains(&n.as_str()))).then_some(cols)
}

/// Output made comparable: trailing spaces trimmed, and table rows under a header with an
/// AGE-like column cut into cells at the header's offsets, the AGE-like cells replaced by `<age>`.
fn normalize(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut header: Option<Vec<(usize, String)>> = None;
    for line in text.lines() {
        let line = line.trim_end();
        // `kubectl diff`: its temporary directories' random numbers and the files' times
        let masked;
        let line = if line.contains("/tmp/LIVE-") || line.contains("/tmp/MERGED-") {
            masked = mask_diff_paths(line);
            masked.as_str()
        } else {
            line
        };
        // the directory real kubectl ran in is the console's home
        let homed;
        let line = if line.contains("kubesim-compare-") {
            homed = mask_work_dir(line);
            homed.as_str()
        } else {
            line
        };
        if let Some(cols) = header_columns(line) {
            out.push(cols.iter().map(|(_, n)| n.as_str()).collect::<Vec<_>>().join(" | "));
            header = Some(cols);
            continue;
        }
        if line.is_empty() || line.starts_with("Events:") || !line.starts_with(' ') && header.as_ref().is_some_and(|h| h[0].0 > 0) {
            header = None;
        }
        match &header {
            Some(cols) if line.len() > cols[0].0 => {
                let mut cells = Vec::new();
                for (k, (start, name)) in cols.iter().enumerate() {
                    let end = cols.get(k + 1).map(|c| c.0).unwrap_or(usize::MAX);
                    let cell = line.get(*start..end.min(line.len())).or_else(|| line.get(*start..)).unwrap_or("").trim();
                    cells.push(if AGE_COLUMNS.contains(&name.as_str()) { "<age>".to_string() } else { cell.to_string() });
                }
                out.push(cells.join(" | "));
            }
            _ => out.push(line.to_string()),
        }
    }
    out
}

/// `/tmp/kubesim-compare-12/kustomize/work/base` → `/home/learner/base`.
fn mask_work_dir(line: &str) -> String {
    let mut out = String::new();
    let mut rest = line;
    while let Some(i) = rest.find("kubesim-compare-") {
        let start = rest[..i].rfind([' ', '\'', '"']).map(|j| j + 1).unwrap_or(0);
        let Some(w) = rest[i..].find("/work") else { break };
        out.push_str(&rest[..start]);
        out.push_str("/home/learner");
        rest = &rest[i + w + "/work".len()..];
    }
    out.push_str(rest);
    out
}

/// `/tmp/LIVE-123/x` → `/tmp/LIVE-N/x` (and MERGED), and the file time after a tab dropped.
fn mask_diff_paths(line: &str) -> String {
    let line = line.split('\t').next().unwrap_or(line);
    let mut out = String::new();
    let mut rest = line;
    while let Some(i) = ["/tmp/LIVE-", "/tmp/MERGED-"].iter().filter_map(|p| rest.find(p).map(|i| (i, p.len()))).min() {
        out.push_str(&rest[..i.0 + i.1]);
        out.push('N');
        rest = rest[i.0 + i.1..].trim_start_matches(|c: char| c.is_ascii_digit());
    }
    out.push_str(rest);
    out
}

/// The first difference between two outputs, or None when they agree.
fn difference(real: &str, emulated: &str) -> Option<String> {
    let (a, b) = (normalize(real), normalize(emulated));
    if a == b {
        return None;
    }
    for i in 0..a.len().max(b.len()) {
        let (x, y) = (a.get(i).map(String::as_str).unwrap_or("<end>"), b.get(i).map(String::as_str).unwrap_or("<end>"));
        if x != y {
            return Some(format!("line {}:\n      real kubectl: {}\n      kubesim:      {}", i + 1, x, y));
        }
    }
    None
}

/// The transcript's output for each command, in order.
fn transcript_blocks(out: &str, cmds: &[kubesim::script::Command]) -> Vec<String> {
    let mut blocks = vec![String::new(); cmds.len()];
    let mut k: Option<usize> = None;
    for line in out.lines() {
        let next = k.map(|k| k + 1).unwrap_or(0);
        if let Some(c) = cmds.get(next) {
            let echo = if c.stdin.is_some() { format!("$ {} <<EOF", c.line) } else { format!("$ {}", c.line) };
            if line == echo {
                k = Some(next);
                continue;
            }
        }
        if let Some(k) = k {
            blocks[k].push_str(line);
            blocks[k].push('\n');
        }
    }
    blocks
}

/// Both outputs of a difference, for reading: target/serve_compare/SCENARIO.N.{real,kubesim}.
fn keep(scenario: &str, label: &str, line: &str, real: &str, emulated: &str) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/serve_compare");
    let _ = std::fs::create_dir_all(&dir);
    let n = std::fs::read_dir(&dir).map(|d| d.count()).unwrap_or(0);
    let head = format!("# {} [{}] $ {}\n", scenario, label, line);
    let _ = std::fs::write(dir.join(format!("{:03}.{}.real", n / 2, scenario)), head.clone() + real);
    let _ = std::fs::write(dir.join(format!("{:03}.{}.kubesim", n / 2, scenario)), head + emulated);
}

struct Finding {
    scenario: String,
    line: String,
    kubectl: &'static str,
    diff: String,
}

fn kubectls() -> Vec<(&'static str, String)> {
    let mut v = vec![("v1.32", KUBECTL_132.to_string())];
    let venv = concat!(env!("CARGO_MANIFEST_DIR"), "/.venv/bin/kubectl");
    if Path::new(venv).exists() {
        v.push(("v1.37", venv.to_string()));
    } else {
        eprintln!("serve_compare: {} is missing (scripts/setup.sh installs it): comparing with kubectl v1.32 only", venv);
    }
    v
}

#[test]
fn real_kubectl_matches_kubesim_kubectl() {
    if !Path::new(KUBECTL_132).exists() {
        eprintln!("SKIPPED serve_compare: {} is missing; install kubectl there to run this test", KUBECTL_132);
        assert!(std::env::var("KUBESIM_ALLOW_SKIP").is_ok_and(|v| v == "1"), "serve_compare needs {} (set KUBESIM_ALLOW_SKIP=1 to skip)", KUBECTL_132);
        return;
    }
    let t0 = std::time::Instant::now();
    let clients = kubectls();
    let _ = std::fs::remove_dir_all(Path::new(env!("CARGO_MANIFEST_DIR")).join("target/serve_compare"));
    let root = std::env::temp_dir().join(format!("kubesim-compare-{}", std::process::id()));
    let mut findings: Vec<Finding> = Vec::new();
    let (mut compared, mut mutating, mut not_run) = (0, 0, 0);
    // CI's slice (`KUBESIM_COMPARE_CLIENTS=alternate`, scripts/test.sh): each scenario's read-only
    // commands with one client, v1.32 and v1.37 in turn; by default every client on every one
    let alternate = std::env::var("KUBESIM_COMPARE_CLIENTS").is_ok_and(|v| v == "alternate");
    for (index, &(name, script, expected)) in kubesim::testing::SCENARIOS.iter().enumerate() {
        // `KUBESIM_COMPARE_ONLY=NAME[,NAME…]`: a developer's run of some scenarios
        if std::env::var("KUBESIM_COMPARE_ONLY").is_ok_and(|only| !only.split(',').any(|o| o == name)) {
            continue;
        }
        if let Some((_, why)) = SKIPPED_SCENARIOS.iter().find(|(s, _)| *s == name) {
            eprintln!("== {}: not compared ({})", name, why);
            continue;
        }
        let readers: Vec<&(&str, String)> = if alternate { vec![&clients[index % clients.len()]] } else { clients.iter().collect() };
        let cmds = kubesim::script::parse(script).expect("scenario parses");
        let blocks = transcript_blocks(expected, &cmds);
        let env = Env::start(kubesim::testing::seed_of(script), &root.join(name));
        eprintln!("== {}", name);
        for (c, want) in cmds.iter().zip(&blocks) {
            let Ok(args) = kubesim::kubectl::split_args(&c.line) else { continue };
            let is_kubectl = matches!(args.first().map(String::as_str), Some("kubectl" | "k"));
            // the console's shell lines that write files run in bash too, in the directory real
            // kubectl starts in, so both read the same kustomizations
            if matches!(args.first().map(String::as_str), Some("mkdir" | "cat" | "rm")) {
                let work = env.dir.join("work");
                std::fs::create_dir_all(&work).unwrap();
                let mut sh = std::process::Command::new("bash");
                sh.current_dir(&work).arg("-c").arg(&c.line).stdin(std::process::Stdio::piped()).stdout(std::process::Stdio::null());
                let mut child = sh.spawn().expect("bash");
                child.stdin.take().unwrap().write_all(c.stdin.as_deref().unwrap_or("").as_bytes()).unwrap();
                child.wait().unwrap();
            }
            let watch = args.iter().any(|a| ["-w", "--watch", "-f", "--follow"].contains(&a.as_str()) || a.starts_with("--watch=") || a.starts_with("--follow="))
                && matches!(args.get(1).map(String::as_str), Some("get" | "logs"));
            let skip = NOT_RUN.iter().find(|(p, _)| c.line.starts_with(p)).or(watch.then_some(&WATCH));
            if !is_kubectl || skip.is_some() || args.len() < 2 {
                env.emulated(&c.line, c.stdin.as_deref());
                if is_kubectl {
                    not_run += 1;
                }
                continue;
            }
            if read_only(&args) {
                for (label, bin) in readers.iter().map(|c| (&c.0, &c.1)) {
                    let real = env.real(bin, &args[1..], c.stdin.as_deref());
                    let emu = env.emulated(&c.line, c.stdin.as_deref());
                    compared += 1;
                    if let Some(diff) = difference(&real, &emu) {
                        eprintln!("  DIFF [{}] $ {}\n    {}", label, c.line, diff);
                        keep(name, label, &c.line, &real, &emu);
                        findings.push(Finding { scenario: name.into(), line: c.line.clone(), kubectl: label, diff });
                    }
                }
            } else {
                mutating += 1;
                let real = env.real(&clients[0].1, &args[1..], c.stdin.as_deref());
                if let Some(diff) = difference(&real, want) {
                    keep(name, "v1.32", &c.line, &real, want);
                    eprintln!("  DIFF [v1.32, vs transcript] $ {}\n    {}", c.line, diff);
                    findings.push(Finding { scenario: name.into(), line: c.line.clone(), kubectl: "v1.32", diff });
                }
            }
        }
    }
    let _ = std::fs::remove_dir_all(&root);
    let unexpected: Vec<&Finding> = findings.iter().filter(|f| !accepted(f)).collect();
    eprintln!(
        "serve_compare: {} read-only comparisons, {} changing commands checked against the transcripts, {} lines not run by real kubectl; {} differences ({} accepted) in {:.1} s",
        compared,
        mutating,
        not_run,
        findings.len(),
        findings.len() - unexpected.len(),
        t0.elapsed().as_secs_f64()
    );
    let report: Vec<String> = unexpected.iter().map(|f| format!("{} [{}] $ {}\n    {}", f.scenario, f.kubectl, f.line, f.diff)).collect();
    assert!(unexpected.is_empty(), "{} differences between real kubectl and kubesim's kubectl:\n{}", unexpected.len(), report.join("\n"));
}
