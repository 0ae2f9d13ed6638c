//! `kubesim serve`: the simulated cluster behind an HTTP server speaking the Kubernetes REST API,
//! so that the real `kubectl` drives it (native only; never compiled for wasm).
//!
//! # Why a hand-written HTTP/1.1 server on `std::net`
//! This is a dev-only tool with one client (a kubectl) at a time. hyper/axum would pull a large
//! async dependency tree (tokio, futures, h2, …) into a crate whose simulation is single-threaded
//! and deterministic and needs none of it. [`http`] reads a request line, headers and a body
//! (`Content-Length` or chunked), keeps connections alive, and writes `Content-Length` responses
//! and chunked watch streams. Plain HTTP, meant for loopback only: no TLS, no authentication
//! (every request is `kubernetes-admin`, the identity of kubeadm's admin.conf, with the request's
//! own `User-Agent`).
//!
//! # One owner for the cluster
//! A thread per connection parses and writes HTTP; the [`Cluster`] lives on one thread of its own
//! and the connection threads send it jobs over a channel, one at a time. This is the "one Mutex"
//! serialisation, done by ownership: the cluster holds `Rc`s (shared watch-cache objects), so it
//! is not `Send` and could not sit in a `Mutex` shared between threads anyway.
//!
//! # Time
//! The virtual clock is paced to wall time × `speed`: before each job, and every 100 ms when no
//! job arrives (the owner thread waits on its channel with a 100 ms timeout — that is the
//! background ticker), the cluster is advanced by the wall time elapsed since the last advance ×
//! `speed` ([`Cluster::advance`]). `speed` 0 freezes the clock: it then moves only on
//! `POST /kubesim/v1/advance?by=30s` (a Go duration), plus the one round trip every request costs.
//! `GET /kubesim/v1/time` answers the virtual time.
//!
//! # What is served
//! - `/version`, legacy discovery (`/api`, `/apis`, `/apis/GROUP`, `/api/v1`,
//!   `/apis/GROUP/VERSION`, see [`discovery`]), `/healthz`, `/livez`, `/readyz`;
//! - resource requests (`/api/v1/…`, `/apis/GROUP/VERSION/…`): translated into a
//!   [`crate::api::request::Request`] and sent with [`Cluster::client_request`]; the response's
//!   code and body (errors are already `Status` objects) are written back. PATCH takes
//!   `application/merge-patch+json`, `application/strategic-merge-patch+json` and
//!   `application/json-patch+json`; server-side apply (`application/apply-patch+yaml`) answers 415;
//! - `Accept: application/json;as=Table;v=v1;g=meta.k8s.io`: a `Table` ([`table`]);
//! - `?watch=true`: a chunked stream of `{"type":"ADDED|MODIFIED|DELETED","object":…}` lines
//!   following etcd's history from the request's `resourceVersion` (see [`serve_watch`]); any
//!   number of watches at once. (The cluster's own client watch, `Cluster::client_watch`, is one
//!   at a time and starts "now", which loses the events between kubectl's LIST and WATCH.)
//! - `/openapi/v3`: an index and per-group-version documents with paths and PATCH parameters
//!   only, no schemas — enough for kubectl to see that the server validates fields itself
//!   (`fieldValidation=Strict`), see [`discovery::openapi_v3_root`];
//! - protobuf request bodies (kubectl's typed clients: `kubectl create deployment|job|namespace`,
//!   `drain`): only `DeleteOptions` is decoded ([`protobuf`]); other objects answer 415 with a
//!   message giving the JSON way (`--dry-run=client -o yaml | kubectl apply -f -`);
//! - not served: `/openapi/v2` (404: `kubectl explain` fails), `exec`, `attach`, `port-forward`,
//!   `proxy`, `cp`, server-side apply.

pub mod discovery;
pub mod http;
pub mod protobuf;
pub mod table;

use crate::api::meta::{self, ResourceInfo, RESOURCES};
use crate::api::request::{Identity, Method, PatchType, Request, RequestInfo, Response};
use crate::cluster::{kubectl_identity, Cluster};
use serde_json::{json, Value};
use std::io::{self, BufReader};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

/// Options of `kubesim serve`.
#[derive(Clone, Debug)]
pub struct Options {
    /// Address to listen on, `127.0.0.1:6443` by default; port 0 picks a free one.
    pub addr: String,
    pub seed: u64,
    /// Virtual milliseconds per wall-clock millisecond; 0 = only `POST /kubesim/v1/advance`.
    pub speed: f64,
}

impl Default for Options {
    fn default() -> Self {
        Options { addr: "127.0.0.1:6443".into(), seed: 1, speed: 1.0 }
    }
}

/// The state the owner thread keeps.
struct Sim {
    cluster: Cluster,
    speed: f64,
    last: Instant,
    /// Virtual milliseconds owed but not yet advanced (below 1 ms).
    carry: f64,
}

impl Sim {
    fn pace(&mut self) {
        let now = Instant::now();
        let elapsed = now.duration_since(self.last);
        self.last = now;
        if self.speed <= 0.0 {
            return;
        }
        self.carry += elapsed.as_secs_f64() * 1000.0 * self.speed;
        let ms = self.carry.floor();
        if ms >= 1.0 {
            self.carry -= ms;
            self.cluster.advance(ms as i64);
        }
    }
}

type Job = Box<dyn FnOnce(&mut Sim) + Send>;

/// A connection thread's way to the cluster.
#[derive(Clone)]
struct Handle {
    tx: mpsc::Sender<Job>,
}

impl Handle {
    /// Runs `f` on the owner thread, after pacing the clock; None if the cluster is gone.
    fn call<R: Send + 'static>(&self, f: impl FnOnce(&mut Sim) -> R + Send + 'static) -> Option<R> {
        let (rtx, rrx) = mpsc::channel();
        let job: Job = Box::new(move |s: &mut Sim| {
            let _ = rtx.send(f(s));
        });
        self.tx.send(job).ok()?;
        rrx.recv().ok()
    }
}

/// A running server.
pub struct Server {
    addr: SocketAddr,
    handle: Handle,
}

impl Server {
    /// Binds `opts.addr`, builds the default cluster (seed `opts.seed`) on its owner thread and
    /// starts accepting connections in the background.
    pub fn start(opts: &Options) -> io::Result<Server> {
        let listener = TcpListener::bind(&opts.addr)?;
        let addr = listener.local_addr()?;
        let (tx, rx) = mpsc::channel::<Job>();
        let (ready_tx, ready_rx) = mpsc::channel::<()>();
        let (seed, speed) = (opts.seed, if opts.speed.is_finite() { opts.speed.max(0.0) } else { 0.0 });
        thread::Builder::new().name("kubesim-cluster".into()).spawn(move || {
            let cluster = crate::sandbox::default_cluster(seed);
            let mut sim = Sim { cluster, speed, last: Instant::now(), carry: 0.0 };
            let _ = ready_tx.send(());
            loop {
                match rx.recv_timeout(Duration::from_millis(100)) {
                    Ok(job) => {
                        sim.pace();
                        job(&mut sim);
                    }
                    Err(mpsc::RecvTimeoutError::Timeout) => sim.pace(),
                    Err(mpsc::RecvTimeoutError::Disconnected) => break,
                }
            }
        })?;
        ready_rx.recv().map_err(|_| io::Error::other("the cluster thread failed to start"))?;
        let handle = Handle { tx };
        let h = handle.clone();
        thread::Builder::new().name("kubesim-accept".into()).spawn(move || {
            for conn in listener.incoming() {
                let Ok(stream) = conn else { continue };
                let h = h.clone();
                let _ = thread::Builder::new().name("kubesim-conn".into()).spawn(move || {
                    let _ = serve_connection(&h, stream, addr);
                });
            }
        })?;
        Ok(Server { addr, handle })
    }

    /// The bound address (with the real port when started on port 0).
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// A kubeconfig for this server: cluster `kubesim` at `http://ADDR`, user `kubernetes-admin`.
    pub fn kubeconfig(&self) -> String {
        kubeconfig(&self.addr.to_string())
    }

    /// Advances the virtual clock by `ms` (what `POST /kubesim/v1/advance` does).
    pub fn advance(&self, ms: i64) -> i64 {
        self.handle.call(move |s| s.cluster.advance(ms).time_ms).unwrap_or(0)
    }

    /// Virtual time, in milliseconds.
    pub fn now(&self) -> i64 {
        self.handle.call(|s| s.cluster.now()).unwrap_or(0)
    }
}

/// The kubeconfig text for a server at `addr` (`host:port`).
pub fn kubeconfig(addr: &str) -> String {
    format!(
        "apiVersion: v1
kind: Config
clusters:
- cluster:
    server: http://{addr}
  name: kubesim
contexts:
- context:
    cluster: kubesim
    namespace: default
    user: kubernetes-admin
  name: kubernetes-admin@kubesim
current-context: kubernetes-admin@kubesim
preferences: {{}}
users:
- name: kubernetes-admin
  user: {{}}
"
    )
}

/// `kubesim serve`: starts, writes the kubeconfig, prints where, and serves until killed.
pub fn run(opts: &Options, kubeconfig_out: &std::path::Path) -> Result<(), String> {
    let server = Server::start(opts).map_err(|e| format!("listening on {}: {}", opts.addr, e))?;
    std::fs::write(kubeconfig_out, server.kubeconfig()).map_err(|e| format!("writing {}: {}", kubeconfig_out.display(), e))?;
    let addr = server.addr();
    println!("kubesim serve: Kubernetes {} API (simulated, seed {}) on http://{}", crate::KUBE_VERSION, opts.seed, addr);
    if addr.ip().is_loopback() {
        println!("  plain HTTP on loopback, no TLS and no authentication: every request is kubernetes-admin");
    } else {
        println!("  WARNING: plain HTTP on a non-loopback address ({}), no TLS and no authentication", addr.ip());
    }
    if opts.speed > 0.0 {
        println!("  virtual time runs at {} x wall time", opts.speed);
    } else {
        println!("  virtual time is frozen (--speed 0): curl -X POST 'http://{}/kubesim/v1/advance?by=30s'", addr);
    }
    println!("  kubeconfig: {}", kubeconfig_out.display());
    println!("  try: KUBECONFIG={} kubectl get nodes", kubeconfig_out.display());
    loop {
        thread::park();
    }
}

fn status(code: u16, reason: &str, message: &str) -> Value {
    json!({"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure", "message": message, "reason": reason, "code": code})
}

/// `30s`, `1m30s`, `500ms`, `2h` → milliseconds.
fn parse_go_duration(s: &str) -> Option<i64> {
    let s = s.trim();
    if s.is_empty() {
        return None;
    }
    let mut total = 0f64;
    let mut rest = s;
    while !rest.is_empty() {
        let n = rest.find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(rest.len());
        if n == 0 {
            return None;
        }
        let v: f64 = rest[..n].parse().ok()?;
        rest = &rest[n..];
        let u = rest.find(|c: char| c.is_ascii_digit() || c == '.').unwrap_or(rest.len());
        let mult = match &rest[..u] {
            "ms" => 1.0,
            "s" => 1000.0,
            "m" => 60_000.0,
            "h" => 3_600_000.0,
            _ => return None,
        };
        rest = &rest[u..];
        total += v * mult;
    }
    Some(total.round() as i64)
}

/// A complete answer.
struct Reply {
    code: u16,
    content_type: &'static str,
    body: Vec<u8>,
}

impl Reply {
    fn json(code: u16, v: &Value) -> Reply {
        Reply { code, content_type: "application/json", body: serde_json::to_vec(v).unwrap_or_default() }
    }
    fn text(code: u16, s: &str) -> Reply {
        Reply { code, content_type: "text/plain; charset=utf-8", body: s.as_bytes().to_vec() }
    }
}

fn serve_connection(h: &Handle, stream: TcpStream, server_addr: SocketAddr) -> io::Result<()> {
    let peer = stream.peer_addr().map(|a| a.ip().to_string()).unwrap_or_default();
    let mut writer = stream.try_clone()?;
    let mut reader = BufReader::new(stream);
    while let Some(req) = http::read_request(&mut reader)? {
        let keep = req.keep_alive();
        let path = req.target.split_once('?').map(|(p, _)| p).unwrap_or(req.target.as_str());
        let is_watch = req.method == "GET" && RequestInfo::parse(Method::Get, &req.target).query("watch").is_some_and(|w| w == "true" || w == "1");
        if is_watch && is_resource_path(path) {
            serve_watch(h, &req, &peer, &mut writer)?;
            return Ok(());
        }
        let reply = route(h, &req, path, &peer, server_addr);
        http::write_response(&mut writer, reply.code, reply.content_type, &reply.body, keep)?;
        if !keep {
            break;
        }
    }
    Ok(())
}

/// `/api/v1/…` or `/apis/GROUP/VERSION/…` with a resource after the group version.
fn is_resource_path(path: &str) -> bool {
    let segs: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    match segs.first() {
        Some(&"api") => segs.len() >= 3,
        Some(&"apis") => segs.len() >= 4,
        _ => false,
    }
}

fn identity(req: &http::HttpRequest, peer: &str) -> Identity {
    let mut id = kubectl_identity();
    let ua = req.header("user-agent");
    id.user_agent = if ua.is_empty() { "unknown".into() } else { ua.to_string() };
    if !peer.is_empty() {
        id.source_ip = peer.to_string();
    }
    id
}

fn route(h: &Handle, req: &http::HttpRequest, path: &str, peer: &str, server_addr: SocketAddr) -> Reply {
    let path = if path.len() > 1 { path.trim_end_matches('/') } else { path };
    let get = req.method == "GET";
    match path {
        "/version" if get => return Reply::json(200, &discovery::version()),
        "/api" if get => return Reply::json(200, &discovery::api_versions(&server_addr.to_string())),
        "/apis" if get => return Reply::json(200, &discovery::api_group_list()),
        "/api/v1" if get => return Reply::json(200, &discovery::api_resource_list("", "v1").unwrap_or(json!({}))),
        "/healthz" | "/livez" | "/readyz" if get => return Reply::text(200, "ok"),
        "/openapi/v3" if get => return Reply::json(200, &discovery::openapi_v3_root()),
        "/kubesim/v1/time" if get => {
            let now = h.call(|s| s.cluster.now()).unwrap_or(0);
            return Reply::json(200, &json!({"nowMs": now}));
        }
        "/kubesim/v1/advance" => {
            if req.method != "POST" {
                return Reply::json(405, &status(405, "MethodNotAllowed", "use POST /kubesim/v1/advance?by=30s"));
            }
            let ri = RequestInfo::parse(Method::Post, &req.target);
            let Some(ms) = ri.query("by").and_then(parse_go_duration) else {
                return Reply::json(400, &status(400, "BadRequest", "advance needs ?by=DURATION (a Go duration: 500ms, 30s, 2m, 1h)"));
            };
            let now = h.call(move |s| s.cluster.advance(ms).time_ms).unwrap_or(0);
            return Reply::json(200, &json!({"advancedMs": ms, "nowMs": now}));
        }
        _ => {}
    }
    if let (Some(name), true) = (path.strip_prefix("/openapi/v3/"), get) {
        return discovery::openapi_v3_group_version(name).map(|v| Reply::json(200, &v)).unwrap_or_else(not_found);
    }
    let segs: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    if segs.first() == Some(&"apis") && get {
        match segs.len() {
            2 => return discovery::api_group(segs[1]).map(|v| Reply::json(200, &v)).unwrap_or_else(not_found),
            3 => return discovery::api_resource_list(segs[1], segs[2]).map(|v| Reply::json(200, &v)).unwrap_or_else(not_found),
            _ => {}
        }
    }
    if !is_resource_path(path) {
        return not_found();
    }
    resource_request(h, req, peer)
}

fn not_found() -> Reply {
    Reply::json(404, &status(404, "NotFound", "the server could not find the requested resource"))
}

/// The request kubesim's API server takes, or the error reply.
fn to_request(req: &http::HttpRequest) -> Result<Request, Reply> {
    let method = match req.method.as_str() {
        "GET" => Method::Get,
        "POST" => Method::Post,
        "PUT" => Method::Put,
        "PATCH" => Method::Patch,
        "DELETE" => Method::Delete,
        _ => return Err(Reply::json(405, &status(405, "MethodNotAllowed", "the server does not allow this method on the requested resource"))),
    };
    let ct = req.header("content-type").split(';').next().unwrap_or("").trim().to_ascii_lowercase();
    let patch_type = match ct.as_str() {
        "application/merge-patch+json" => PatchType::Merge,
        "application/json-patch+json" => PatchType::Json,
        "application/apply-patch+yaml" | "application/apply-patch+cbor" if method == Method::Patch => {
            return Err(Reply::json(415, &status(415, "UnsupportedMediaType", "kubesim serve does not implement server-side apply; use client-side kubectl apply")));
        }
        _ => PatchType::Strategic,
    };
    let body = if req.body.is_empty() {
        None
    } else if ct == "application/vnd.kubernetes.protobuf" {
        match protobuf::decode(&req.body) {
            Ok(v) => Some(v),
            Err(kind) => {
                let msg = format!(
                    "kubesim serve reads JSON request bodies only, and this {} came as application/vnd.kubernetes.protobuf (kubectl's typed clients, e.g. `kubectl create deployment`, send protobuf): send it as JSON instead, e.g. `kubectl create deployment NAME --image=IMAGE --dry-run=client -o yaml | kubectl apply -f -`",
                    kind
                );
                return Err(Reply::json(415, &status(415, "UnsupportedMediaType", &msg)));
            }
        }
    } else {
        match serde_json::from_slice::<Value>(&req.body) {
            Ok(v) => Some(v),
            Err(e) => return Err(Reply::json(400, &status(400, "BadRequest", &format!("the body of the request was in an unknown format (kubesim serve reads JSON): {}", e)))),
        }
    };
    let mut r = Request::new(method, req.target.clone(), body);
    r.patch_type = patch_type;
    Ok(r)
}

fn resource_info(ri: &RequestInfo) -> Option<&'static ResourceInfo> {
    RESOURCES.iter().find(|r| r.resource == ri.resource && r.group == ri.api_group)
}

fn resource_request(h: &Handle, req: &http::HttpRequest, peer: &str) -> Reply {
    let r = match to_request(req) {
        Ok(r) => r,
        Err(reply) => return reply,
    };
    let id = identity(req, peer);
    let ri = RequestInfo::parse(r.method, &r.path);
    if matches!(ri.subresource.as_str(), "exec" | "attach" | "portforward" | "proxy") {
        let msg = format!("kubesim serve does not implement {}/{} (it needs a streaming upgrade to the kubelet); kubesim's own kubectl simulates exec", ri.resource, ri.subresource);
        return Reply::json(501, &status(501, "NotImplemented", &msg));
    }
    let as_table = r.method == Method::Get && ri.subresource.is_empty() && table::wants_table(req.header("accept"));
    let info = resource_info(&ri);
    let include = ri.query("includeObject").unwrap_or("").to_string();
    let is_list = ri.name.is_empty();
    h.call(move |s| {
        let resp: Response = s.cluster.client_request(&id, r);
        if let Value::String(text) = &resp.body {
            return Reply::text(resp.code, text);
        }
        if as_table && resp.ok() {
            if let Some(info) = info {
                let now = crate::api::time::EPOCH_MS + s.cluster.now();
                let (objs, rv) = if is_list {
                    (resp.body.get("items").and_then(Value::as_array).cloned().unwrap_or_default(), meta::get_str(&resp.body, &["metadata", "resourceVersion"]).to_string())
                } else {
                    (vec![resp.body.clone()], meta::resource_version(&resp.body).to_string())
                };
                return Reply::json(200, &table::table(info, &objs, now, &include, &rv));
            }
        }
        Reply::json(resp.code, &resp.body)
    })
    .unwrap_or_else(|| Reply::json(503, &status(503, "ServiceUnavailable", "the simulated cluster stopped")))
}

/// Whether the client closed its end (a watch has nothing to read from it otherwise).
fn client_gone(stream: &TcpStream) -> bool {
    let _ = stream.set_nonblocking(true);
    let mut b = [0u8; 1];
    let gone = matches!(stream.peek(&mut b), Ok(0));
    let _ = stream.set_nonblocking(false);
    gone
}

/// One watch stream's cursor: the etcd revision it has sent up to, and its selectors.
struct WatchCursor {
    info: &'static ResourceInfo,
    prefix: String,
    rev: i64,
    labels: Vec<(String, String, String)>,
    fields: Vec<(String, String, String)>,
}

impl WatchCursor {
    fn matches(&self, o: &Value) -> bool {
        meta::label_selector_matches(&self.labels, &meta::labels(o)) && crate::apiserver::field_selector_matches(&self.fields, o)
    }

    /// The events since the cursor, as upstream's watch cache turns etcd changes into them
    /// (an update that leaves the selector is a DELETED, one that enters it an ADDED).
    fn poll(&mut self, c: &Cluster) -> Vec<(&'static str, Value)> {
        let view = c.view();
        let head = view.etcd_revision();
        let mut out = Vec::new();
        while self.rev < head {
            self.rev += 1;
            let Some(ch) = view.etcd_change_at(self.rev) else { continue };
            if !ch.kv.key.starts_with(&self.prefix) {
                continue;
            }
            let parse = |s: &Option<String>| s.as_deref().and_then(|s| serde_json::from_str::<Value>(s).ok());
            let (new, old) = (parse(&ch.kv.value), ch.prev.as_ref().and_then(|p| parse(&p.value)));
            let new_matches = new.as_ref().is_some_and(|o| self.matches(o));
            let old_matches = old.as_ref().is_some_and(|o| self.matches(o));
            let (event, obj) = match (new, new_matches, old_matches) {
                (Some(n), true, true) => ("MODIFIED", n),
                (Some(n), true, false) => ("ADDED", n),
                (Some(n), false, true) => ("DELETED", n),
                (None, _, true) => ("DELETED", old.unwrap_or_default()),
                _ => continue,
            };
            let mut obj = obj;
            meta::set(&mut obj, &["metadata", "resourceVersion"], json!(self.rev.to_string()));
            if obj.get("kind").is_none() {
                obj["kind"] = json!(self.info.kind);
                obj["apiVersion"] = json!(self.info.api_version());
            }
            out.push((event, obj));
        }
        out
    }
}

/// `?watch=true`: the WATCH request goes through [`Cluster::client_request`] (trace, audit), then
/// the stream follows etcd's history from the request's `resourceVersion` (absent or "0": the
/// current objects as ADDED first, then from now), read through [`Cluster::view`] every 100 ms.
/// Each stream has its own cursor, so any number of watches run at once and none loses the
/// events between kubectl's LIST and its WATCH. Changes compacted away before a stream reads
/// them are skipped (the stream polls far more often than kubesim compacts).
fn serve_watch(h: &Handle, req: &http::HttpRequest, peer: &str, w: &mut TcpStream) -> io::Result<()> {
    let r = match to_request(req) {
        Ok(r) => r,
        Err(reply) => return http::write_response(w, reply.code, reply.content_type, &reply.body, false),
    };
    let ri = RequestInfo::parse(Method::Get, &r.path);
    let Some(info) = resource_info(&ri) else {
        let reply = not_found();
        return http::write_response(w, reply.code, reply.content_type, &reply.body, false);
    };
    let labels = match meta::parse_label_selector(ri.query("labelSelector").unwrap_or("")) {
        Ok(l) => l,
        Err(e) => return http::write_response(w, 400, "application/json", &serde_json::to_vec(&status(400, "BadRequest", &e)).unwrap_or_default(), false),
    };
    let as_table = table::wants_table(req.header("accept"));
    let include = ri.query("includeObject").unwrap_or("").to_string();
    let timeout = ri.query("timeoutSeconds").and_then(|t| t.parse::<u64>().ok()).map(Duration::from_secs).unwrap_or(Duration::from_secs(1800));
    let id = identity(req, peer);
    let from: Option<i64> = ri.query("resourceVersion").and_then(|v| v.parse().ok()).filter(|v| *v > 0);
    let mut cursor = WatchCursor {
        info,
        prefix: info.etcd_collection_prefix(&ri.namespace),
        rev: 0,
        labels,
        fields: crate::apiserver::parse_field_selector(ri.query("fieldSelector").unwrap_or("")),
    };
    let encode = move |events: Vec<(&'static str, Value)>, now: i64| -> Vec<u8> {
        let mut bytes = Vec::new();
        for (t, o) in events {
            let object = if as_table { table::table(info, std::slice::from_ref(&o), now, &include, meta::resource_version(&o)) } else { o };
            bytes.extend(serde_json::to_vec(&json!({"type": t, "object": object})).unwrap_or_default());
            bytes.push(b'\n');
        }
        bytes
    };
    let started = h.call(move |s| {
        let resp = s.cluster.client_request(&id, r);
        let now = crate::api::time::EPOCH_MS + s.cluster.now();
        let mut initial = Vec::new();
        match from {
            Some(rv) => cursor.rev = rv,
            None => {
                cursor.rev = s.cluster.view().etcd_revision();
                let ns = if cursor.info.namespaced { ri.namespace.as_str() } else { "" };
                for o in s.cluster.view().objects(cursor.info, ns, None) {
                    if cursor.matches(&o) {
                        initial.push(("ADDED", o));
                    }
                }
            }
        }
        (resp, cursor, initial, now)
    });
    let Some((resp, mut cursor, initial, now)) = started else { return Ok(()) };
    if !resp.ok() {
        return http::write_response(w, resp.code, "application/json", &serde_json::to_vec(&resp.body).unwrap_or_default(), false);
    }
    http::write_chunked_head(w, "application/json")?;
    http::write_chunk(w, &encode(initial, now))?;
    let deadline = Instant::now() + timeout;
    loop {
        let Some((events, cur, now)) = h.call(move |s| {
            let ev = cursor.poll(&s.cluster);
            (ev, cursor, crate::api::time::EPOCH_MS + s.cluster.now())
        }) else {
            break;
        };
        cursor = cur;
        http::write_chunk(w, &encode(events, now))?;
        if Instant::now() >= deadline || client_gone(w) {
            break;
        }
        thread::sleep(Duration::from_millis(100));
    }
    http::write_last_chunk(w)
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn go_durations() {
        assert_eq!(parse_go_duration("30s"), Some(30_000));
        assert_eq!(parse_go_duration("1m30s"), Some(90_000));
        assert_eq!(parse_go_duration("500ms"), Some(500));
        assert_eq!(parse_go_duration("2h"), Some(7_200_000));
        assert_eq!(parse_go_duration("x"), None);
    }
}
