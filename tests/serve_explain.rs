//! `kubectl explain` against `kubesim serve`: the real kubectl (`/usr/bin/kubectl`, v1.32) reads
//! the OpenAPI v3 documents (`/openapi/v3`, `/openapi/v3/api/v1?hash=…`) and, with
//! `--output plaintext-openapiv2`, the protobuf `/openapi/v2`; the output is checked against what
//! a v1.34 cluster prints. Also: `kubectl apply` still validates on the server (an unknown field
//! gets the API server's strict decoding error) and its patches, now computed from the served
//! schemas, still work. A newer kubectl at `KUBECTL_NEW` (default `.venv/bin/kubectl`, from scripts/setup.sh) is
//! run through `explain` too when it is there. Without `/usr/bin/kubectl` the test says
//! "SKIPPED" on stderr and fails, unless `KUBESIM_ALLOW_SKIP=1`.
#![cfg(not(target_arch = "wasm32"))]

use kubesim::serve::{Options, Server};
use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const KUBECTL: &str = "/usr/bin/kubectl";

struct Env {
    server: Server,
    dir: PathBuf,
    kubectl: String,
}

impl Env {
    fn command(&self, args: &[&str]) -> Command {
        let mut c = Command::new(&self.kubectl);
        c.env("KUBECONFIG", self.dir.join("kubeconfig")).env("HOME", &self.dir).arg("--cache-dir").arg(self.dir.join("cache")).args(args);
        c
    }
    /// Runs kubectl; returns (success, stdout, stderr).
    fn run(&self, args: &[&str], stdin: Option<&str>) -> (bool, String, String) {
        let mut c = self.command(args);
        c.stdin(if stdin.is_some() { Stdio::piped() } else { Stdio::null() }).stdout(Stdio::piped()).stderr(Stdio::piped());
        let mut child = c.spawn().expect("running kubectl");
        if let Some(input) = stdin {
            child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
        }
        let out: Output = child.wait_with_output().unwrap();
        let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout).to_string(), String::from_utf8_lossy(&out.stderr).to_string());
        eprintln!("$ {} {}\n{}{}", self.kubectl, args.join(" "), stdout, stderr);
        (out.status.success(), stdout, stderr)
    }
    /// Runs kubectl; panics unless it exits 0 with nothing on stderr; returns stdout.
    fn ok(&self, args: &[&str]) -> String {
        let (ok, stdout, stderr) = self.run(args, None);
        assert!(ok && stderr.is_empty(), "kubectl {:?}:\n{}{}", args, stdout, stderr);
        stdout
    }
    /// A plain GET: (status line, headers, body).
    fn get(&self, target: &str, accept: &str) -> (String, String, Vec<u8>) {
        let mut s = TcpStream::connect(self.server.addr()).expect("connect");
        write!(s, "GET {} HTTP/1.1\r\nHost: {}\r\nAccept: {}\r\nConnection: close\r\n\r\n", target, self.server.addr(), accept).unwrap();
        let mut raw = Vec::new();
        s.read_to_end(&mut raw).unwrap();
        let split = raw.windows(4).position(|w| w == b"\r\n\r\n").expect("end of headers");
        let head = String::from_utf8_lossy(&raw[..split]).to_string();
        let (status, headers) = head.split_once("\r\n").unwrap_or((&head, ""));
        (status.to_string(), headers.to_ascii_lowercase(), raw[split + 4..].to_vec())
    }
}

/// Asserts that `text` has each of `lines` as a whole line, in this order.
fn has_lines(text: &str, lines: &[&str]) {
    let mut it = text.lines();
    for want in lines {
        assert!(it.any(|l| l == *want), "missing line {:?} (in order) in:\n{}", want, text);
    }
}

/// `kubectl explain` checks that hold for kubectl 1.32 and later (the v3 template).
fn explain_v3(env: &Env) {
    let out = env.ok(&["explain", "pods"]);
    assert!(out.starts_with("KIND:       Pod\nVERSION:    v1\n\nDESCRIPTION:\n"), "{}", out);
    has_lines(
        &out,
        &[
            "    Pod is a collection of containers that can run on a host. This resource is",
            "    created by clients and scheduled onto hosts.",
            "FIELDS:",
            "  apiVersion\t<string>",
            "    APIVersion defines the versioned schema of this representation of an object.",
            "  kind\t<string>",
            "  metadata\t<ObjectMeta>",
            "    Standard object's metadata. More info:",
            "  spec\t<PodSpec>",
            "    Specification of the desired behavior of the pod. More info:",
            "  status\t<PodStatus>",
        ],
    );
    assert!(!out.contains("-required-"), "no field of Pod is required:\n{}", out);

    let out = env.ok(&["explain", "deployment.spec.strategy.rollingUpdate"]);
    assert!(out.starts_with("GROUP:      apps\nKIND:       Deployment\nVERSION:    v1\n\nFIELD: rollingUpdate <RollingUpdateDeployment>\n"), "{}", out);
    has_lines(
        &out,
        &[
            "DESCRIPTION:",
            "    Rolling update config params. Present only if DeploymentStrategyType =",
            "    RollingUpdate.",
            "    Spec to control the desired behavior of rolling update.",
            "FIELDS:",
            "  maxSurge\t<IntOrString>",
            "    The maximum number of pods that can be scheduled above the desired number of",
            "  maxUnavailable\t<IntOrString>",
            "    The maximum number of pods that can be unavailable during the update. Value",
        ],
    );

    // `kubectl explain sts.spec --recursive | head`
    let line = format!("'{}' --cache-dir '{}' explain sts.spec --recursive | head -n 16", env.kubectl, env.dir.join("cache").display());
    let o = Command::new("sh").arg("-c").arg(&line).env("KUBECONFIG", env.dir.join("kubeconfig")).env("HOME", &env.dir).output().expect("sh");
    let (ok, out, err) = (o.status.success(), String::from_utf8_lossy(&o.stdout).to_string(), String::from_utf8_lossy(&o.stderr).to_string());
    eprintln!("$ {}\n{}{}", line, out, err);
    assert!(ok && err.is_empty(), "{}{}", out, err);
    assert_eq!(
        out.lines().collect::<Vec<_>>(),
        [
            "GROUP:      apps",
            "KIND:       StatefulSet",
            "VERSION:    v1",
            "",
            "FIELD: spec <StatefulSetSpec>",
            "",
            "",
            "DESCRIPTION:",
            "    Spec defines the desired identities of pods in this set.",
            "    A StatefulSetSpec is the specification of a StatefulSet.",
            "    ",
            "FIELDS:",
            "  minReadySeconds\t<integer>",
            "  ordinals\t<StatefulSetOrdinals>",
            "    start\t<integer>",
            "  persistentVolumeClaimRetentionPolicy\t<StatefulSetPersistentVolumeClaimRetentionPolicy>",
        ]
    );
    let out = env.ok(&["explain", "sts.spec", "--recursive"]);
    has_lines(&out, &["  selector\t<LabelSelector> -required-", "    matchExpressions\t<[]LabelSelectorRequirement>", "      key\t<string> -required-", "  serviceName\t<string>", "  template\t<PodTemplateSpec> -required-"]);

    // a field that does not exist
    let (ok, _, err) = env.run(&["explain", "deployment.spec.nope"], None);
    assert!(!ok);
    assert_eq!(err.trim(), "error: field \"nope\" does not exist");
}

#[test]
fn kubectl_explain_reads_kubesim_openapi() {
    if !Path::new(KUBECTL).exists() {
        eprintln!("SKIPPED serve_explain: {} is missing; install kubectl there to run this test", KUBECTL);
        assert!(std::env::var("KUBESIM_ALLOW_SKIP").is_ok_and(|v| v == "1"), "serve_explain needs {} (set KUBESIM_ALLOW_SKIP=1 to skip on purpose)", KUBECTL);
        return;
    }
    let server = Server::start(&Options { addr: "127.0.0.1:0".into(), seed: 1, speed: 0.0, epoch_ms: kubesim::api::time::EPOCH_MS, ..Options::default() }).expect("start");
    let dir = std::env::temp_dir().join(format!("kubesim-serve-explain-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("kubeconfig"), server.kubeconfig()).unwrap();
    let env = Env { server, dir, kubectl: KUBECTL.into() };

    // the index gives each group version's URL with its hash; the URL answers the document
    let (status, _, body) = env.get("/openapi/v3", "application/json");
    assert!(status.starts_with("HTTP/1.1 200"), "{}", status);
    let index: serde_json::Value = serde_json::from_slice(&body).unwrap();
    let url = index["paths"]["apis/apps/v1"]["serverRelativeURL"].as_str().expect("apps/v1 in the index").to_string();
    assert!(url.starts_with("/openapi/v3/apis/apps/v1?hash=") && url.len() == "/openapi/v3/apis/apps/v1?hash=".len() + 128, "{}", url);
    let (status, headers, body) = env.get(&url, "application/json");
    assert!(status.starts_with("HTTP/1.1 200") && headers.contains("content-type: application/json"), "{} {}", status, headers);
    let doc: serde_json::Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(doc["components"]["schemas"]["io.k8s.api.apps.v1.Deployment"]["x-kubernetes-group-version-kind"][0]["kind"], "Deployment");
    let sizes: Vec<String> = index["paths"].as_object().unwrap().iter().map(|(name, e)| format!("{} {}", name, env.get(e["serverRelativeURL"].as_str().unwrap(), "application/json").2.len())).collect();
    eprintln!("serve_explain: /openapi/v3 documents (bytes): {}", sizes.join(", "));
    let (status, _, _) = env.get("/openapi/v3/apis/nope/v1", "application/json");
    assert!(status.starts_with("HTTP/1.1 404"), "{}", status);
    // /openapi/v2: protobuf for client-go, JSON otherwise
    let (status, headers, body) = env.get("/openapi/v2", "application/com.github.proto-openapi.spec.v2@v1.0+protobuf");
    assert!(status.starts_with("HTTP/1.1 200") && headers.contains("content-type: application/com.github.proto-openapi.spec.v2.v1.0+protobuf"), "{}", headers);
    assert_eq!(&body[..5], b"\x0a\x032.0", "Document.swagger first");
    eprintln!("serve_explain: /openapi/v2: {} bytes of protobuf", body.len());
    let (_, headers, body) = env.get("/openapi/v2", "application/json");
    assert!(headers.contains("content-type: application/json"));
    let v2: serde_json::Value = serde_json::from_slice(&body).unwrap();
    eprintln!("serve_explain: /openapi/v2: {} bytes of JSON", body.len());
    assert_eq!(v2["swagger"], "2.0");

    explain_v3(&env);

    // the v2 fallback (kubectl's old explain, from the protobuf /openapi/v2)
    let out = env.ok(&["explain", "pods", "--output", "plaintext-openapiv2"]);
    has_lines(
        &out,
        &[
            "KIND:     Pod",
            "VERSION:  v1",
            "DESCRIPTION:",
            "     Pod is a collection of containers that can run on a host. This resource is",
            "     created by clients and scheduled onto hosts.",
            "FIELDS:",
            "   apiVersion\t<string>",
            "     APIVersion defines the versioned schema of this representation of an",
            "   metadata\t<Object>",
            "   spec\t<Object>",
            "   status\t<Object>",
        ],
    );
    let out = env.ok(&["explain", "deployment.spec.strategy.rollingUpdate.maxSurge", "--output", "plaintext-openapiv2"]);
    has_lines(
        &out,
        &["KIND:     Deployment", "VERSION:  apps/v1", "FIELD:    maxSurge <string>", "DESCRIPTION:", "     The maximum number of pods that can be scheduled above the desired number"],
    );

    // apply still validates on the server: an unknown field gets the API server's strict error
    let manifest = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/serve/deployment.yaml");
    let text = std::fs::read_to_string(manifest).unwrap();
    let bad = text.replace("  replicas: 2\n", "  replicas: 2\n  replicaz: 2\n");
    assert_ne!(bad, text);
    let (ok, _, err) = env.run(&["apply", "-f", "-"], Some(&bad));
    assert!(!ok);
    assert_eq!(
        err.trim(),
        r#"Error from server (BadRequest): error when creating "STDIN": Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.replicaz""#
    );
    let out = env.ok(&["apply", "-f", manifest]);
    assert_eq!(out.trim(), "deployment.apps/web created");
    // a second apply patches (a strategic merge patch kubectl computes from the served schemas:
    // containers merge by name)
    let changed = text.replace("image: nginx:1.27", "image: nginx:1.28");
    let (ok, out, err) = env.run(&["apply", "-f", "-"], Some(&changed));
    assert!(ok && err.is_empty(), "{}{}", out, err);
    assert_eq!(out.trim(), "deployment.apps/web configured");
    let out = env.ok(&["get", "deployment", "web", "-o", "jsonpath={.spec.template.spec.containers[*].name}={.spec.template.spec.containers[*].image}"]);
    assert_eq!(out, "nginx=nginx:1.28");

    // a newer kubectl reads the same documents
    let newer = std::env::var("KUBECTL_NEW").unwrap_or_else(|_| concat!(env!("CARGO_MANIFEST_DIR"), "/.venv/bin/kubectl").into());
    if Path::new(&newer).exists() {
        let env2 = Env { server: Server::start(&Options { addr: "127.0.0.1:0".into(), seed: 1, speed: 0.0, epoch_ms: kubesim::api::time::EPOCH_MS, ..Options::default() }).expect("start"), dir: env.dir.join("newer"), kubectl: newer.clone() };
        std::fs::create_dir_all(&env2.dir).unwrap();
        std::fs::write(env2.dir.join("kubeconfig"), env2.server.kubeconfig()).unwrap();
        explain_v3(&env2);
    } else {
        eprintln!("serve_explain: no newer kubectl at {} (KUBECTL_NEW), checked {} only", newer, KUBECTL);
    }
    let _ = std::fs::remove_dir_all(&env.dir);
}
