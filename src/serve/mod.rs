//! `kubesim serve`: the simulated cluster behind an HTTP server speaking the Kubernetes REST API,
//! so that the real `kubectl` drives it (native only; never compiled for wasm).
//!
//! # Why a hand-written HTTP/1.1 server on `std::net`
//! This is a dev-only tool with one client (a kubectl) at a time. hyper/axum would pull a large
//! async dependency tree (tokio, futures, h2, …) into a crate whose simulation is single-threaded
//! and deterministic and needs none of it. [`http`] reads a request line, headers and a body
//! (`Content-Length` or chunked), keeps connections alive, and writes `Content-Length` responses
//! and chunked watch streams; what it cannot read it answers as Go's `net/http` under
//! kube-apiserver does (see "Bad requests" below). Plain HTTP, meant for loopback only: no TLS, no authentication
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
//! The cluster's clock starts at [`Options::epoch_ms`]: the host's wall time by default, so that
//! the ages real clients compute from timestamps are right (the page and the scenario scripts
//! start at kubesim's fixed epoch instead). The virtual clock is paced to wall time × `speed`: before each job, and every 100 ms when no
//! job arrives (the owner thread waits on its channel with a 100 ms timeout — that is the
//! background ticker), the cluster is advanced by the wall time elapsed since the last advance ×
//! `speed` ([`Cluster::advance`]). `speed` 0 freezes the clock: it then moves only on
//! `POST /kubesim/v1/advance?by=30s` (a Go duration), plus the one round trip every request costs.
//! `GET /kubesim/v1/time` answers the virtual time. Watch BOOKMARKs (upstream: about once a
//! minute) come once per virtual minute, so at `speed` 0 after an advance of 60 s.
//!
//! # Compaction (dev endpoint)
//! kube-apiserver has etcd compacted every 5 minutes (`--etcd-compaction-interval`); kubesim's
//! etcd compacts by count (after 200 000 revisions), which a client suite never reaches. So
//! `POST /kubesim/v1/compact[?revision=N]` compacts etcd's history now, up to N (default: the
//! current revision), and answers `{"compactRevision": C, "revision": HEAD}`: a watch from an
//! older resourceVersion then gets `410 Expired` and an informer relists
//! (tests/serve/python_client.py does). Not part of the Kubernetes API.
//!
//! # What is served
//! - `/version`, legacy discovery (`/api`, `/apis`, `/apis/GROUP`, `/api/v1`,
//!   `/apis/GROUP/VERSION`, see [`discovery`]), `/healthz`, `/livez`, `/readyz`;
//! - resource requests (`/api/v1/…`, `/apis/GROUP/VERSION/…`): translated into a
//!   [`crate::api::request::Request`] and sent with [`Cluster::client_request`]; the response's
//!   code and body (errors are already `Status` objects) are written back. PATCH takes
//!   `application/merge-patch+json`, `application/strategic-merge-patch+json` and
//!   `application/json-patch+json`, and server-side apply (`application/apply-patch+yaml`, see
//!   [`crate::apiserver::apply`]: create-on-apply, managedFields of the appliers, conflicts, `force`);
//! - `Accept: application/json;as=Table;v=v1;g=meta.k8s.io`: a `Table` ([`table`]);
//! - `?watch=true`: a chunked stream of `{"type":"ADDED|MODIFIED|DELETED","object":…}` lines
//!   following etcd's history from the request's `resourceVersion` (see [`serve_watch`]); any
//!   number of watches at once, on a collection or one object, with label and field selectors.
//!   As the watch cache: a compacted `resourceVersion` gets one `ERROR` event `410 Expired` `too
//!   old resource version: RV (COMPACT)` in a 200 stream; `allowWatchBookmarks=true` gets
//!   `BOOKMARK`s (every virtual minute, 2 s before `timeoutSeconds`, after `sendInitialEvents`);
//!   a client that stops reading is dropped after [`WATCH_WRITE_TIMEOUT`] without holding the
//!   cluster thread. (The cluster's own client watch, `Cluster::client_watch`, is one
//!   at a time and starts "now", which loses the events between kubectl's LIST and WATCH.)
//! - `/openapi/v3` (an index, `?hash=` URLs) and `/openapi/v3/api/v1`,
//!   `/openapi/v3/apis/GROUP/VERSION`: OpenAPI 3.0 documents with paths and upstream's v1.34
//!   schemas (`kubectl explain`, `kubectl apply`'s strategic merge patches; the PATCH operations'
//!   `fieldValidation` parameter tells kubectl the server validates fields itself), and
//!   `/openapi/v2`: Swagger 2.0, gnostic protobuf or JSON by `Accept` (`kubectl explain --output
//!   plaintext-openapiv2`);
//!   built from the generated `src/serve/openapi/definitions.json`, see
//!   [`discovery::openapi_v3_root`];
//! - protobuf request bodies (`application/vnd.kubernetes.protobuf`, what kubectl's typed clients
//!   send: `kubectl create deployment|job|cronjob|namespace|service …|priorityclass|quota`,
//!   `create job --from=cronjob/…`, `drain`'s DeleteOptions): decoded into the JSON the API
//!   server takes by one table-driven walker ([`protobuf`]) over a field table generated from
//!   Kubernetes v1.34's `generated.proto` files (`tools/genproto`), for every kind kubesim serves
//!   plus DeleteOptions, Eviction, Scale and Binding (and ConfigMap, Secret, ServiceAccount, so
//!   that the API server answers for those); malformed bytes answer 400, a kind outside the
//!   table 415;
//! - `limit`/`continue` on lists (paged by the API server's list from its watch cache), `GET /apis/apiextensions.k8s.io/v1/
//!   customresourcedefinitions` (empty: where kubectl looks for a kind it does not know), and
//!   `POST /kubesim/v1/exec` (one script line through kubesim's own kubectl, for
//!   tests/serve_compare.rs);
//! - `services/NAME/proxy/…` and `pods/NAME/proxy/…` (the API server's `Proxy::Http`, answered
//!   through the cluster's data path), `/metrics` ([`metrics`]);
//! - aggregated discovery: `/api` and `/apis` with `Accept:
//!   application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList` answer an
//!   `APIGroupDiscoveryList` (see [`discovery`]);
//! - not served: `exec`, `attach`, `port-forward`, `cp` (501).
//!
//! # Bad requests
//! A client's mistakes get kube-apiserver's code and message, and nothing a client sends makes
//! the server panic or stall (tests/serve_bad_requests.rs holds the table):
//! - protocol errors, before any handler ([`http`]): garbage or non-HTTP/1.x request lines,
//!   headers without colons or `Host` → `400 Bad Request` (Go's plain text), head over 1 MiB →
//!   `431`, unknown `Transfer-Encoding` → `501`, HTTP/2 framing → `505`, each closing the
//!   connection; a body over 3 MiB → `413` `Request entity too large: limit is 3145728`, refused
//!   from its `Content-Length` before it is read (the rest is drained, not kept);
//! - bodies ([`json_body`], the JSON branch of [`to_request`]): malformed JSON →
//!   `400` with `encoding/json`'s own error ([`gojson`]) wrapped as the create/update/patch
//!   handlers wrap it, a media type the handler does not take → `415` listing the ones it does;
//! - an unknown resource or path → `404` `the server could not find the requested resource`;
//! - watches: see above (410 Expired, 504 for a resourceVersion from the future, slow clients).

pub mod discovery;
pub use crate::api::gojson;
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
    /// When the simulated clock starts, in Unix milliseconds: the host's wall time by default
    /// (`--epoch now`, whole seconds), so that every age a client computes from a timestamp is
    /// right; `--epoch fixed` is kubesim's own epoch (2026-01-01T00:00:00Z, as the page and the
    /// scenario scripts use), or an RFC 3339 time.
    pub epoch_ms: i64,
    /// Connections served at once ([`MAX_CONNECTIONS`]).
    pub max_connections: usize,
}

/// The host's wall time in Unix milliseconds, rounded down to the second.
pub fn wall_clock_epoch() -> i64 {
    let ms = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_millis() as i64).unwrap_or(crate::api::time::EPOCH_MS);
    ms - ms % 1000
}

/// `--epoch`: `now`, `fixed` or an RFC 3339 time at or after kubesim's epoch.
pub fn parse_epoch(s: &str) -> Result<i64, String> {
    match s {
        "now" => Ok(wall_clock_epoch().max(crate::api::time::EPOCH_MS)),
        "fixed" => Ok(crate::api::time::EPOCH_MS),
        t => match crate::api::time::parse_rfc3339_unix(t) {
            Some(ms) if ms >= crate::api::time::EPOCH_MS => Ok(ms),
            Some(_) => Err(format!("--epoch {}: kubesim's clock cannot start before {}", t, crate::api::time::unix_rfc3339(crate::api::time::EPOCH_MS))),
            None => Err(format!("--epoch expects now, fixed or an RFC 3339 time (2026-01-01T00:00:00Z), got \"{}\"", t)),
        },
    }
}

impl Default for Options {
    fn default() -> Self {
        Options { addr: "127.0.0.1:6443".into(), seed: 1, speed: 1.0, epoch_ms: wall_clock_epoch().max(crate::api::time::EPOCH_MS), max_connections: MAX_CONNECTIONS }
    }
}

/// A watch whose client has taken no write for this long is dropped, as kube-apiserver drops a
/// watcher that does not keep up ([`Server::set_watch_write_timeout`] changes it).
pub const WATCH_WRITE_TIMEOUT: Duration = Duration::from_secs(10);

/// Trace messages a long-running `kubesim serve` keeps (the newest).
pub const SERVE_TRACE_LIMIT: usize = 200_000;

/// The audit log `kubesim serve` keeps in memory (the newest events; kube-apiserver writes its
/// log to a file or a webhook): 32 MiB, where the page keeps 128 MiB.
pub const SERVE_AUDIT_BYTES: usize = 32 * 1024 * 1024;

/// Connections served at once (each has a thread). One more is answered as kube-apiserver's
/// max-in-flight filter answers a request over `--max-requests-inflight` (400, plus 200
/// mutating): `429 Too many requests, please try again later.` with `Retry-After: 1`, and
/// closed; client-go waits and retries.
pub const MAX_CONNECTIONS: usize = 1000;

/// The state the owner thread keeps.
struct Sim {
    cluster: Cluster,
    /// The cursors of `sim trace` / `sim audit` for [`exec_script_line`].
    sandbox: crate::sandbox::Sandbox,
    speed: f64,
    last: Instant,
    /// Virtual milliseconds owed but not yet advanced (below 1 ms).
    carry: f64,
    /// The objects of recent revisions as watches send them, decoded from etcd's JSON once for
    /// every watch stream (20 `kubectl get -w` decode a Pod's change once, not 20 times).
    decoded: Decoded,
}

/// [`Sim::decoded`]: revision → (the value after, the value before), at most
/// [`DECODED_REVISIONS`] revisions (the oldest go first).
#[derive(Default)]
struct Decoded(std::collections::BTreeMap<i64, (Option<std::rc::Rc<Value>>, Option<std::rc::Rc<Value>>)>);

/// How many revisions' decoded objects serve keeps for its watch streams (streams poll every
/// 100 ms, so they read within a few hundred revisions of the head; a Pod decoded is about
/// 20 KB, so 1,024 revisions of two objects is up to about 40 MB).
const DECODED_REVISIONS: usize = 1024;

impl Decoded {
    fn get(&mut self, rev: i64, value: Option<&str>, prev: Option<&str>) -> (Option<std::rc::Rc<Value>>, Option<std::rc::Rc<Value>>) {
        if let Some(hit) = self.0.get(&rev) {
            return hit.clone();
        }
        let parse = |s: Option<&str>| s.and_then(|s| serde_json::from_str::<Value>(s).ok()).map(std::rc::Rc::new);
        let entry = (parse(value), parse(prev));
        self.0.insert(rev, entry.clone());
        while self.0.len() > DECODED_REVISIONS {
            self.0.pop_first();
        }
        entry
    }
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
    /// The watch write timeout in milliseconds ([`WATCH_WRITE_TIMEOUT`]).
    watch_write_timeout_ms: std::sync::Arc<std::sync::atomic::AtomicU64>,
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
        let epoch_ms = opts.epoch_ms.max(crate::api::time::EPOCH_MS);
        let max_connections = opts.max_connections.max(1);
        thread::Builder::new().name("kubesim-cluster".into()).spawn(move || {
            let config = crate::cluster::ClusterConfig {
                start_ms: epoch_ms - crate::api::time::EPOCH_MS,
                etcd_compaction_interval_ms: crate::cluster::ETCD_COMPACTION_INTERVAL_MS,
                // `sim trace` through /kubesim/v1/exec reads the last messages; a long-running
                // server keeps the last SERVE_TRACE_LIMIT, not the page's two million
                trace_limit: SERVE_TRACE_LIMIT,
                limits: crate::apiserver::Limits { max_audit_bytes: SERVE_AUDIT_BYTES, ..Default::default() },
                ..Default::default()
            };
            let mut cluster = crate::sandbox::default_cluster_with(seed, config);
            // kubesim's own kubectl (`/kubesim/v1/exec`) talks to this server, as the kubeconfig
            // serve writes says: `cluster-info` prints its address
            for k in &mut cluster.kubeconfig_mut().clusters {
                k.server = format!("http://{}", addr);
            }
            let sandbox = crate::sandbox::Sandbox::attach(&cluster);
            let mut sim = Sim { cluster, sandbox, speed, last: Instant::now(), carry: 0.0, decoded: Decoded::default() };
            let _ = ready_tx.send(());
            loop {
                match rx.recv_timeout(Duration::from_millis(100)) {
                    Ok(job) => {
                        sim.pace();
                        // a request that panics (a kubesim bug) fails alone, as kube-apiserver's
                        // handlers recover from a panic: its caller gets no answer (503)
                        if std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| job(&mut sim))).is_err() {
                            eprintln!("kubesim serve: a request panicked on the cluster thread; serving on");
                        }
                    }
                    Err(mpsc::RecvTimeoutError::Timeout) => sim.pace(),
                    Err(mpsc::RecvTimeoutError::Disconnected) => break,
                }
            }
        })?;
        ready_rx.recv().map_err(|_| io::Error::other("the cluster thread failed to start"))?;
        let handle = Handle { tx, watch_write_timeout_ms: std::sync::Arc::new(std::sync::atomic::AtomicU64::new(WATCH_WRITE_TIMEOUT.as_millis() as u64)) };
        let h = handle.clone();
        thread::Builder::new().name("kubesim-accept".into()).spawn(move || {
            use std::io::Write as _;
            let open = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
            for conn in listener.incoming() {
                let Ok(mut stream) = conn else { continue };
                if open.load(std::sync::atomic::Ordering::Acquire) >= max_connections {
                    let body = "Too many requests, please try again later.\n";
                    let _ = write!(
                        stream,
                        "HTTP/1.1 429 Too Many Requests\r\nContent-Type: text/plain; charset=utf-8\r\nRetry-After: 1\r\nX-Content-Type-Options: nosniff\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{}",
                        body.len(),
                        body
                    );
                    continue;
                }
                open.fetch_add(1, std::sync::atomic::Ordering::AcqRel);
                let (h, mine) = (h.clone(), open.clone());
                let spawned = thread::Builder::new().name("kubesim-conn".into()).spawn(move || {
                    // counted down even if the connection's thread panics
                    let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| serve_connection(&h, stream, addr)));
                    mine.fetch_sub(1, std::sync::atomic::Ordering::AcqRel);
                });
                if spawned.is_err() {
                    open.fetch_sub(1, std::sync::atomic::Ordering::AcqRel);
                }
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

    /// Sets how long a watch may wait for its client to take a write before it is dropped
    /// ([`WATCH_WRITE_TIMEOUT`] by default); for watches started from then on.
    pub fn set_watch_write_timeout(&self, d: Duration) {
        self.handle.watch_write_timeout_ms.store(d.as_millis().max(1) as u64, std::sync::atomic::Ordering::Relaxed);
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
    println!("  the simulated clock started at {}", crate::api::time::unix_rfc3339(opts.epoch_ms.max(crate::api::time::EPOCH_MS)));
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

/// `/metrics`: a few of kube-apiserver's own series in the Prometheus text format —
/// `apiserver_request_total` (every request the simulated API server handled, the control
/// plane's own included, by verb, resource and code), `apiserver_storage_objects` (objects
/// stored per resource), `etcd_current_revision`-style head revision and the virtual clock.
fn metrics(c: &Cluster) -> String {
    let mut out = String::new();
    out.push_str("# HELP apiserver_request_total [STABLE] Counter of apiserver requests broken out for each verb, dry run value, group, version, resource, scope, component, and HTTP response code.\n# TYPE apiserver_request_total counter\n");
    for ((verb, dry, group, version, resource, sub, scope, code), n) in c.api_request_counts() {
        out.push_str(&format!(
            "apiserver_request_total{{code=\"{}\",component=\"apiserver\",dry_run=\"{}\",group=\"{}\",resource=\"{}\",scope=\"{}\",subresource=\"{}\",verb=\"{}\",version=\"{}\"}} {}\n",
            code, if *dry { "All" } else { "" }, group, resource, scope, sub, verb, version, n
        ));
    }
    out.push_str("# HELP apiserver_storage_objects [STABLE] Number of stored objects at the time of last check split by kind. In case of a fetching error, the value will be -1.\n# TYPE apiserver_storage_objects gauge\n");
    let v = c.view();
    for info in RESOURCES.iter() {
        let prefix = info.etcd_collection_prefix("");
        let n = v.etcd_keys(&prefix).len();
        let name = if info.group.is_empty() { info.resource.to_string() } else { format!("{}.{}", info.resource, info.group) };
        out.push_str(&format!("apiserver_storage_objects{{resource=\"{}\"}} {}\n", name, n));
    }
    out.push_str(&format!("# HELP kubesim_etcd_revision The simulated etcd's head revision (not a kube-apiserver metric).\n# TYPE kubesim_etcd_revision gauge\nkubesim_etcd_revision {}\n", v.etcd_revision()));
    out.push_str(&format!("# HELP kubesim_virtual_time_seconds The simulated clock, in Unix seconds (not a kube-apiserver metric).\n# TYPE kubesim_virtual_time_seconds gauge\nkubesim_virtual_time_seconds {}\n", (crate::api::time::EPOCH_MS + c.now()) / 1000));
    out
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
    /// Aggregated discovery (`apidiscovery.k8s.io/v2`), answered with its own media type.
    fn aggregated(v: &Value) -> Reply {
        Reply { code: 200, content_type: discovery::AGGREGATED_V2, body: serde_json::to_vec(v).unwrap_or_default() }
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
    // `kubectl --as USER --as-group G`: the impersonation filter decides in kube-apiserver
    let user = req.header("impersonate-user");
    if !user.is_empty() {
        let groups = req.headers_all("impersonate-group");
        id.impersonate = Some(Box::new(crate::api::request::Impersonation { user: user.to_string(), groups }));
    }
    id
}

/// The groups the cluster's `APIService`s hand to extension API servers (`metrics.k8s.io`).
fn aggregated_groups(c: &crate::cluster::Cluster) -> Vec<(String, String)> {
    c.view()
        .objects(crate::api::meta::Resource::ApiServices.info(), "", None)
        .iter()
        .filter(|a| crate::api::meta::get(a, &["spec", "service"]).map(|s| !s.is_null()).unwrap_or(false))
        .map(|a| (crate::api::meta::get_str(a, &["spec", "group"]).to_string(), crate::api::meta::get_str(a, &["spec", "version"]).to_string()))
        .collect()
}

/// Whether `/apis/GROUP/VERSION/…` belongs to a group an `APIService` hands on.
fn is_aggregated(h: &Handle, path: &str) -> bool {
    let segs: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    segs.len() >= 3 && segs[0] == "apis" && h.call(|s| aggregated_groups(&s.cluster)).unwrap_or_default().iter().any(|(g, v)| g == segs[1] && v == segs[2])
}

fn route(h: &Handle, req: &http::HttpRequest, path: &str, peer: &str, server_addr: SocketAddr) -> Reply {
    let path = if path.len() > 1 { path.trim_end_matches('/') } else { path };
    let get = req.method == "GET";
    match path {
        "/version" if get => return Reply::json(200, &discovery::version()),
        "/api" if get && discovery::wants_aggregated(req.header("accept")) => return Reply::aggregated(&discovery::aggregated_core()),
        "/api" if get => return Reply::json(200, &discovery::api_versions(&server_addr.to_string())),
        "/apis" if get && discovery::wants_aggregated(req.header("accept")) => {
            // kube-aggregator publishes an APIService's group from its extension API server's
            // answer (a request through kube-apiserver's proxy, as any)
            let id = identity(req, peer);
            let doc = h.call(move |s| {
                let mut extension = Vec::new();
                for (g, v) in aggregated_groups(&s.cluster) {
                    let r = Request::get(format!("/apis/{}/{}", g, v));
                    let resp = s.cluster.client_request(&id, r);
                    if resp.ok() {
                        extension.push((g, v, resp.body));
                    }
                }
                discovery::aggregated_groups(&extension, s.cluster.view().crds())
            });
            return Reply::aggregated(&doc.unwrap_or_default());
        }
        "/apis" if get => {
            let list = h.call(|s| discovery::api_group_list(&aggregated_groups(&s.cluster), s.cluster.view().crds())).unwrap_or_default();
            return Reply::json(200, &list);
        }
        "/api/v1" if get => return Reply::json(200, &discovery::api_resource_list("", "v1").unwrap_or(json!({}))),
        "/healthz" | "/livez" | "/readyz" if get => return Reply::text(200, "ok"),
        "/metrics" if get => return h.call(|s| Reply::text(200, &metrics(&s.cluster))).unwrap_or_else(|| Reply::json(503, &status(503, "ServiceUnavailable", "the simulated cluster stopped"))),
        "/openapi/v3" if get => return Reply::json(200, &h.call(|s| discovery::openapi_v3_root(s.cluster.view().crds())).unwrap_or_default()),
        "/openapi/v2" if get => {
            let (content_type, body) = discovery::openapi_v2(req.header("accept"));
            return Reply { code: 200, content_type, body: body.to_vec() };
        }
        "/kubesim/v1/time" if get => {
            let now = h.call(|s| s.cluster.now()).unwrap_or(0);
            return Reply::json(200, &json!({"nowMs": now}));
        }
        "/kubesim/v1/exec" => {
            if req.method != "POST" {
                return Reply::json(405, &status(405, "MethodNotAllowed", "use POST /kubesim/v1/exec with {\"line\": \"kubectl get pods\", \"stdin\": null}"));
            }
            return exec_script_line(h, &req.body);
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
        "/kubesim/v1/compact" => return compact(h, req),
        _ => {}
    }
    if let (Some(name), true) = (path.strip_prefix("/openapi/v3/"), get) {
        if let Some(b) = discovery::openapi_v3_group_version(name) {
            return Reply { code: 200, content_type: "application/json", body: b.to_vec() };
        }
        let n = name.to_string();
        return h.call(move |s| discovery::openapi_v3_custom(s.cluster.view().crds(), &n)).flatten().map(|b| Reply { code: 200, content_type: "application/json", body: b }).unwrap_or_else(not_found);
    }
    let segs: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    if segs.first() == Some(&"apis") && get {
        match segs.len() {
            2 => {
                let g = segs[1].to_string();
                return h.call(move |s| discovery::api_group(&g, &aggregated_groups(&s.cluster), s.cluster.view().crds())).flatten().map(|v| Reply::json(200, &v)).unwrap_or_else(not_found);
            }
            // an aggregated group's resource list is its extension API server's answer, through
            // kube-apiserver like any request
            3 => {
                if let Some(v) = discovery::api_resource_list(segs[1], segs[2]) {
                    return Reply::json(200, &v);
                }
                let (g, v) = (segs[1].to_string(), segs[2].to_string());
                if let Some(list) = h.call(move |s| discovery::custom_resource_list(s.cluster.view().crds(), &g, &v)).flatten() {
                    return Reply::json(200, &list);
                }
                if !is_aggregated(h, path) {
                    return not_found();
                }
            }
            _ => {}
        }
    }
    if !is_resource_path(path) && !(get && segs.len() == 3 && is_aggregated(h, path)) {
        return not_found();
    }
    resource_request(h, req, peer)
}

/// `POST /kubesim/v1/exec` with `{"line": "kubectl get pods", "stdin": "…"}`: one line of a
/// kubesim script (`kubectl …` through kubesim's own kubectl emulation, or `sim …`) run on the
/// served cluster, answered as text/plain. This is how the comparison suite
/// (tests/serve_compare.rs) puts real kubectl and kubesim's kubectl side by side on one state.
fn exec_script_line(h: &Handle, body: &[u8]) -> Reply {
    let v: Value = match serde_json::from_slice(body) {
        Ok(v) => v,
        Err(e) => return Reply::json(400, &status(400, "BadRequest", &format!("exec takes {{\"line\": \"…\", \"stdin\": \"…\"}}: {}", e))),
    };
    let Some(line) = v.get("line").and_then(Value::as_str).map(str::to_string) else {
        return Reply::json(400, &status(400, "BadRequest", "exec takes {\"line\": \"kubectl get pods\"}"));
    };
    let stdin = v.get("stdin").and_then(Value::as_str).map(str::to_string);
    let cmd = crate::script::Command { line, line_no: 1, stdin };
    h.call(move |s| {
        let read_file = |p: &str| std::fs::read_to_string(p).ok();
        Reply::text(200, &crate::script::exec(&mut s.cluster, &mut s.sandbox, &cmd, &read_file))
    })
    .unwrap_or_else(|| Reply::json(503, &status(503, "ServiceUnavailable", "the simulated cluster stopped")))
}

/// `POST /kubesim/v1/compact[?revision=N]` (dev only): compacts etcd's history up to revision N
/// (default: the current revision), as kube-apiserver's compactor does every
/// `--etcd-compaction-interval` (5 minutes); kubesim otherwise compacts only by count, after
/// 200 000 revisions. A watch from an older resourceVersion then gets `410 Expired`; this is
/// how the client suites make an informer relist without writing that much.
fn compact(h: &Handle, req: &http::HttpRequest) -> Reply {
    if req.method != "POST" {
        return Reply::json(405, &status(405, "MethodNotAllowed", "use POST /kubesim/v1/compact[?revision=N]"));
    }
    let ri = RequestInfo::parse(Method::Post, &req.target);
    let rev = match ri.query("revision") {
        None => None,
        Some(v) => match v.parse::<i64>() {
            Ok(n) if n > 0 => Some(n),
            _ => return Reply::json(400, &status(400, "BadRequest", "compact takes ?revision=N, a positive etcd revision")),
        },
    };
    h.call(move |s| {
        let head = s.cluster.view().etcd_revision();
        let compacted = s.cluster.compact_etcd(rev.unwrap_or(head));
        Reply::json(200, &json!({"compactRevision": compacted, "revision": head}))
    })
    .unwrap_or_else(|| Reply::json(503, &status(503, "ServiceUnavailable", "the simulated cluster stopped")))
}

fn not_found() -> Reply {
    Reply::json(404, &crate::apiserver::resource_not_found().body)
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
        "application/apply-patch+yaml" if method == Method::Patch => PatchType::Apply,
        _ => PatchType::Strategic,
    };
    let body = if req.body.is_empty() {
        None
    } else if patch_type == PatchType::Apply {
        // YAML (JSON is YAML too), as the apply patcher decodes it
        match serde_yaml::from_slice::<Value>(&req.body) {
            Ok(v) => Some(v),
            Err(e) => return Err(Reply::json(400, &status(400, "BadRequest", &format!("error decoding YAML: {}", e)))),
        }
    } else if ct == "application/vnd.kubernetes.protobuf" {
        match protobuf::decode(&req.body) {
            Ok(v) => Some(v),
            Err(e) => return Err(Reply::json(e.code, &status(e.code, e.reason, &e.message))),
        }
    } else {
        Some(json_body(req, method, &ct)?)
    };
    let mut r = Request::new(method, req.target.clone(), body);
    r.patch_type = patch_type;
    Ok(r)
}

/// The media types kube-apiserver decodes a body of a built-in resource from (with the
/// CBORServingAndStorage feature off, as in v1.34).
const BODY_MEDIA_TYPES: &str = "application/json, application/yaml, application/vnd.kubernetes.protobuf";
/// The patch types it takes for a built-in resource (`installer.go`'s `supportedTypes`).
const PATCH_MEDIA_TYPES: &str = "application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json, application/apply-patch+yaml";

/// The JSON branch of [`to_request`]: a non-empty body that is not protobuf, checked and decoded
/// as kube-apiserver's handlers do it, with their errors:
/// - a media type it does not take: `415 UnsupportedMediaType`, `the body of the request was in
///   an unknown format - accepted media types include: …` (`negotiation.NewUnsupportedMediaTypeError`;
///   PATCH lists the patch types);
/// - POST/PUT: the serializer reads apiVersion/kind first (`json.SimpleMetaFactory.Interpret`),
///   so a body that is not JSON is `400 BadRequest` `the object provided is unrecognized (must be
///   of type KIND): couldn't get version/kind; json parse error: GO-ERROR (FIRST-30-BYTES ...)`
///   (`transformDecodeError` and `summarizeData` in `endpoints/handlers/rest.go`), GO-ERROR
///   being `encoding/json`'s own message ([`gojson`]);
/// - DELETE: the DeleteOptions decoder's error as it is, which `ErrorToAPIStatus` makes a 500;
/// - PATCH: `error decoding patch: GO-ERROR` (JSON and merge patches), `GO-ERROR`
///   (strategic merge patches), from `kjson.UnmarshalStrict` in `endpoints/handlers/patch.go`.
///
/// `application/yaml` bodies are read too (through serde_yaml). A GET's body is ignored.
fn json_body(req: &http::HttpRequest, method: Method, ct: &str) -> Result<Value, Reply> {
    let unsupported = |accepted: &str| {
        let msg = format!("the body of the request was in an unknown format - accepted media types include: {}", accepted);
        Err(Reply::json(415, &status(415, "UnsupportedMediaType", &msg)))
    };
    let body = &req.body;
    match method {
        Method::Get => return Ok(serde_json::from_slice(body).unwrap_or(Value::Null)),
        Method::Patch => {
            if !matches!(ct, "application/json-patch+json" | "application/merge-patch+json" | "application/strategic-merge-patch+json") {
                return unsupported(PATCH_MEDIA_TYPES);
            }
            let (prefix, go_type) = match ct {
                "application/json-patch+json" => ("error decoding patch: ", "[]handlers.jsonPatchOp"),
                "application/merge-patch+json" => ("error decoding patch: ", "map[string]interface {}"),
                _ => ("", "map[string]interface {}"),
            };
            let err = match gojson::syntax_error(body) {
                Some(e) => e,
                None => match serde_json::from_slice::<Value>(body) {
                    Ok(v) => {
                        let fits = v.is_null() || if go_type.starts_with("[]") { v.is_array() } else { v.is_object() };
                        if fits {
                            return Ok(v);
                        }
                        format!("json: cannot unmarshal {} into Go value of type {}", gojson::json_type_name(&v), go_type)
                    }
                    Err(e) => return Err(Reply::json(400, &status(400, "BadRequest", &format!("kubesim serve cannot read this JSON: {}", e)))),
                },
            };
            return Err(Reply::json(400, &status(400, "BadRequest", &format!("{}{}", prefix, err))));
        }
        _ => {}
    }
    let yaml = match ct {
        "" | "application/json" => false,
        "application/yaml" => true,
        _ => return unsupported(BODY_MEDIA_TYPES),
    };
    const FIND_KIND: &str = r#"struct { APIVersion string "json:\"apiVersion,omitempty\""; Kind string "json:\"kind,omitempty\"" }"#;
    let decoded: Result<Value, String> = if yaml {
        serde_yaml::from_slice::<Value>(body).map_err(|e| format!("error converting YAML to JSON: yaml: {}", e))
    } else {
        match gojson::syntax_error(body) {
            Some(e) => Err(format!("couldn't get version/kind; json parse error: {}", e)),
            None => match serde_json::from_slice::<Value>(body) {
                Ok(v) if v.is_object() || v.is_null() => Ok(v),
                Ok(v) => Err(format!("couldn't get version/kind; json parse error: json: cannot unmarshal {} into Go value of type {}", gojson::json_type_name(&v), FIND_KIND)),
                Err(e) => return Err(Reply::json(400, &status(400, "BadRequest", &format!("kubesim serve cannot read this JSON: {}", e)))),
            },
        }
    };
    let err = match decoded {
        Ok(v) => return Ok(v),
        Err(e) => e,
    };
    if method == Method::Delete {
        // not an APIStatus: ErrorToAPIStatus answers 500 with an empty (omitted) reason
        let st = json!({"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure", "message": err, "code": 500});
        return Err(Reply::json(500, &st));
    }
    let ri = RequestInfo::parse(method, &req.target);
    // (a custom resource's body that is not JSON is named by its resource)
    let static_kind = RESOURCES.iter().find(|r| r.resource == ri.resource && r.group == ri.api_group).map(|r| r.kind.to_string());
    let Some(base_kind) = static_kind.or_else(|| (!ri.resource.is_empty() && !ri.api_group.is_empty()).then(|| ri.resource.clone())) else { return Err(not_found()) };
    let kind = match ri.subresource.as_str() {
        "scale" => "Scale",
        "binding" => "Binding",
        "eviction" => "Eviction",
        _ => base_kind.as_str(),
    };
    // summarizeData(body, 30): an object's first bytes as text, anything else in hex
    let head = &body[..body.len().min(30)];
    let mut summary = if body.first() == Some(&b'{') { String::from_utf8_lossy(head).to_string() } else { head.iter().map(|b| format!("{:02x}", b)).collect() };
    if body.len() > 30 {
        summary.push_str(" ...");
    }
    let msg = format!("the object provided is unrecognized (must be of type {}): {} ({})", kind, err, summary);
    Err(Reply::json(400, &status(400, "BadRequest", &msg)))
}

/// The resource a request names, and for a custom resource its printer columns (the Table's).
fn resource_info(h: &Handle, ri: &RequestInfo) -> Option<(&'static ResourceInfo, Option<Vec<crate::apiextensions::Column>>)> {
    if let Some(r) = RESOURCES.iter().find(|r| r.resource == ri.resource && r.group == ri.api_group) {
        return Some((r, None));
    }
    let (g, res, v) = (ri.api_group.clone(), ri.resource.clone(), ri.api_version.clone());
    h.call(move |s| s.cluster.view().crds().by_resource(&g, &res).and_then(|c| c.serving(&v)).and_then(|v| Some((v.info?, Some(v.columns.clone()))))).flatten()
}

/// Whether kube-apiserver has a handler for the request's resource (the REST mapper's part):
/// one that does not is a 404 before its body is read, whatever its content type.
fn served(h: &Handle, ri: &RequestInfo) -> bool {
    let group = if ri.api_group == "events.k8s.io" { "" } else { ri.api_group.as_str() };
    ri.is_resource_request && (meta::by_resource(group, &ri.resource).is_some() || crate::apiserver::review::REVIEWS.iter().any(|(g, r, ..)| *g == ri.api_group && *r == ri.resource) || resource_info(h, ri).is_some())
}

fn resource_request(h: &Handle, req: &http::HttpRequest, peer: &str) -> Reply {
    if let Some(m) = [Method::Get, Method::Post, Method::Put, Method::Patch, Method::Delete].into_iter().find(|m| m.as_str() == req.method) {
        let ri = RequestInfo::parse(m, &req.target);
        // a group an APIService hands to an extension API server: kube-apiserver proxies it
        if !served(h, &ri) && !(m == Method::Get && is_aggregated(h, &ri.path)) {
            return not_found();
        }
    }
    let r = match to_request(req) {
        Ok(r) => r,
        Err(reply) => return reply,
    };
    let id = identity(req, peer);
    let ri = RequestInfo::parse(r.method, &r.path);
    if matches!(ri.subresource.as_str(), "exec" | "attach" | "portforward") {
        let msg = format!("kubesim serve does not implement {}/{} (it needs a streaming upgrade to the kubelet); kubesim's own kubectl simulates exec", ri.resource, ri.subresource);
        return Reply::json(501, &status(501, "NotImplemented", &msg));
    }
    let as_table = r.method == Method::Get && ri.subresource.is_empty() && table::wants_table(req.header("accept"));
    let info = resource_info(h, &ri);
    let include = ri.query("includeObject").unwrap_or("").to_string();
    let is_list = ri.name.is_empty();
    // the cluster thread answers; the Table and the JSON text are made on this connection's
    // thread, so the cluster serves other clients meanwhile
    let Some((mut resp, now)) = h.call(move |s| {
        let resp: Response = s.cluster.client_request(&id, r);
        (resp, crate::api::time::EPOCH_MS + s.cluster.now())
    }) else {
        return Reply::json(503, &status(503, "ServiceUnavailable", "the simulated cluster stopped"));
    };
    if let Value::String(text) = &resp.body {
        let mut reply = Reply::text(resp.code, text);
        if text.starts_with("<!DOCTYPE html") || text.starts_with("<html") {
            // a proxied web page, as nginx labels it
            reply.content_type = "text/html";
        }
        return reply;
    }
    if as_table && resp.ok() {
        if let Some((info, columns)) = info {
            let (objs, rv) = if is_list {
                let items = match resp.body.get_mut("items") {
                    Some(Value::Array(items)) => std::mem::take(items),
                    _ => Vec::new(),
                };
                (items, meta::get_str(&resp.body, &["metadata", "resourceVersion"]).to_string())
            } else {
                let rv = meta::resource_version(&resp.body).to_string();
                (vec![std::mem::take(&mut resp.body)], rv)
            };
            let mut t = match &columns {
                Some(cols) => table::custom_table(cols, &objs, now, &include, &rv),
                None => table::table(info, &objs, now, &include, &rv),
            };
            for k in ["continue", "remainingItemCount"] {
                if let Some(v) = resp.body.pointer(&format!("/metadata/{}", k)) {
                    t["metadata"][k] = v.clone();
                }
            }
            return Reply::json(200, &t);
        }
    }
    Reply::json(resp.code, &resp.body)
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
    /// A watch on one object (`…/configmaps/NAME?watch=true`): its name; "" for a collection.
    name: String,
    rev: i64,
    labels: Vec<(String, String, String)>,
    fields: Vec<(String, String, String)>,
}

/// kube-apiserver's watch cache sends a BOOKMARK to a watcher that allows them about once a
/// minute (`defaultBookmarkFrequency` in `storage/cacher`); kubesim counts that minute on the
/// virtual clock.
pub const BOOKMARK_EVERY_MS: i64 = 60_000;

/// The `Status` of an `ERROR` event for a watch from a compacted resourceVersion: the watch
/// cache's `errors.NewResourceExpired(fmt.Sprintf("too old resource version: %d (%d)", rv, oldest-1))`.
fn expired_status(rv: i64, compacted: i64) -> Value {
    status(410, "Expired", &format!("too old resource version: {} ({})", rv, compacted))
}

/// The `Status` of an `ERROR` event for a watch from a resourceVersion etcd has not reached
/// within 3 s: `storage.NewTooLargeResourceVersionError` (a `NewTimeoutError`, retry after 1 s).
fn too_large_status(rv: i64, current: i64) -> Value {
    let mut st = status(504, "Timeout", &format!("Timeout: Too large resource version: {}, current: {}", rv, current));
    st["details"] = json!({"causes": [{"reason": "ResourceVersionTooLarge", "message": "Too large resource version"}], "retryAfterSeconds": 1});
    st
}

impl WatchCursor {
    fn matches(&self, o: &Value) -> bool {
        (self.name.is_empty() || meta::name(o) == self.name)
            && meta::label_selector_matches(&self.labels, &meta::labels(o))
            && crate::apiserver::field_selector_matches(self.info.resource, &self.fields, o)
    }

    /// A BOOKMARK's object: the watched kind with only the resourceVersion the cursor has sent
    /// everything up to (the cacher's `newFunc()` object with `UpdateObject(rv)`); the end of a
    /// `sendInitialEvents` list carries the `k8s.io/initial-events-end` annotation.
    fn bookmark(&self, initial_events_end: bool) -> Value {
        let mut metadata = json!({"resourceVersion": self.rev.to_string()});
        if initial_events_end {
            metadata["annotations"] = json!({"k8s.io/initial-events-end": "true"});
        }
        json!({"kind": self.info.kind, "apiVersion": self.info.api_version(), "metadata": metadata})
    }

    /// The events since the cursor, as upstream's watch cache turns etcd changes into them
    /// (an update that leaves the selector is a DELETED, one that enters it an ADDED). None when
    /// etcd has compacted revisions the cursor had not read: the stream must end.
    fn poll(&mut self, c: &Cluster, decoded: &mut Decoded) -> Option<Vec<(&'static str, Value)>> {
        let view = c.view();
        if self.rev < view.etcd_compact_revision() {
            return None;
        }
        let head = view.etcd_revision();
        let mut out = Vec::new();
        while self.rev < head {
            self.rev += 1;
            let Some((key, value, prev)) = view.etcd_change_ref(self.rev) else { continue };
            if !key.starts_with(&self.prefix) {
                continue;
            }
            let (new, old) = decoded.get(self.rev, value, prev);
            let new_matches = new.as_ref().is_some_and(|o| self.matches(o));
            let old_matches = old.as_ref().is_some_and(|o| self.matches(o));
            let (event, obj) = match (new, new_matches, old_matches) {
                (Some(n), true, true) => ("MODIFIED", n),
                (Some(n), true, false) => ("ADDED", n),
                (Some(n), false, true) => ("DELETED", n),
                (None, _, true) => ("DELETED", old.unwrap_or_default()),
                _ => continue,
            };
            let mut obj = Value::clone(&obj);
            meta::set(&mut obj, &["metadata", "resourceVersion"], json!(self.rev.to_string()));
            if obj.get("kind").is_none() {
                obj["kind"] = json!(self.info.kind);
                obj["apiVersion"] = json!(self.info.api_version());
            }
            out.push((event, obj));
        }
        Some(out)
    }
}

/// An external watch stream the cluster counts as open ([`Cluster::external_watch_opened`]);
/// dropping it tells the cluster the stream ended.
struct OpenWatch<'a> {
    h: &'a Handle,
    ticket: Option<crate::cluster::external_watch::WatchTicket>,
}

impl Drop for OpenWatch<'_> {
    fn drop(&mut self) {
        if let Some(t) = self.ticket.take() {
            let _ = self.h.call(move |s| s.cluster.external_watch_closed(&t));
        }
    }
}

/// How a watch starts, decided on the cluster thread.
enum WatchStart {
    Ok,
    /// `resourceVersion` older than etcd's compact revision: (rv, compact revision).
    Expired(i64, i64),
    /// `resourceVersion` newer than etcd's revision.
    TooLarge(i64),
}

/// `?watch=true`: the WATCH request goes through [`Cluster::client_request`] (trace, audit), then
/// the stream follows etcd's history from the request's `resourceVersion` (absent or "0", or
/// `sendInitialEvents=true`: the current objects as ADDED first, then from now), read through
/// [`Cluster::view`] every 100 ms. Each stream has its own cursor, so any number of watches run
/// at once and none loses the events between kubectl's LIST and its WATCH.
///
/// As kube-apiserver's watch cache (`storage/cacher`): a `resourceVersion` older than etcd's
/// compact revision starts the stream (200) and sends one `ERROR` event, `410 Expired` `too old
/// resource version: RV (COMPACT)`, then ends it; one newer than etcd's revision waits up to 3 s
/// and then sends `ERROR` `504 Timeout` `Too large resource version`. A stream whose cursor
/// falls behind a compaction ends (as the cacher ends a watcher that does not keep up); the
/// client's next watch from its last resourceVersion gets the 410. With
/// `allowWatchBookmarks=true`: a `BOOKMARK` every [`BOOKMARK_EVERY_MS`] of virtual time, one
/// 2 s (wall time) before the `timeoutSeconds` deadline, and after the initial events of a
/// `sendInitialEvents=true` watch (annotated `k8s.io/initial-events-end`). A client that takes
/// no write for the watch write timeout ([`WATCH_WRITE_TIMEOUT`]) is dropped; its connection
/// thread never holds the cluster thread, which only fills the cursor. Faults end streams as
/// they end kube-apiserver's connections: `sim fault restart kube-apiserver` every stream (and a
/// resume older than the revision the new watch cache started at gets the 410), `sim fault
/// watch-drop CLIENT` those of one client, named by its User-Agent's product (`kopf`)
/// ([`crate::cluster::external_watch`]).
fn serve_watch(h: &Handle, req: &http::HttpRequest, peer: &str, w: &mut TcpStream) -> io::Result<()> {
    let r = match to_request(req) {
        Ok(r) => r,
        Err(reply) => return http::write_response(w, reply.code, reply.content_type, &reply.body, false),
    };
    let ri = RequestInfo::parse(Method::Get, &r.path);
    let Some((info, columns)) = resource_info(h, &ri) else {
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
    let bookmarks = ri.query("allowWatchBookmarks") == Some("true");
    let send_initial = ri.query("sendInitialEvents") == Some("true");
    let id = identity(req, peer);
    let from: Option<i64> = ri.query("resourceVersion").and_then(|v| v.parse().ok()).filter(|v| *v > 0);
    let cursor = WatchCursor {
        info,
        prefix: info.etcd_collection_prefix(&ri.namespace),
        name: ri.name.clone(),
        rev: 0,
        labels,
        fields: crate::apiserver::parse_field_selector(ri.query("fieldSelector").unwrap_or("")),
    };
    let encode = move |events: Vec<(&'static str, Value)>, now: i64| -> Vec<u8> {
        let mut bytes = Vec::new();
        for (t, o) in events {
            let object = match t {
                "ERROR" => o,
                "BOOKMARK" if as_table => table::table(info, &[], now, &include, meta::resource_version(&o)),
                _ if as_table => match &columns {
                    Some(cols) => table::custom_table(cols, std::slice::from_ref(&o), now, &include, meta::resource_version(&o)),
                    None => table::table(info, std::slice::from_ref(&o), now, &include, meta::resource_version(&o)),
                },
                _ => o,
            };
            bytes.extend(serde_json::to_vec(&json!({"type": t, "object": object})).unwrap_or_default());
            bytes.push(b'\n');
        }
        bytes
    };
    let ns = if info.namespaced { ri.namespace.clone() } else { String::new() };
    let started = h.call(move |s| {
        let mut cursor = cursor;
        let resp = s.cluster.client_request(&id, r);
        let now = crate::api::time::EPOCH_MS + s.cluster.now();
        // the oldest revision the watch cache holds (newer than etcd's compaction after
        // kube-apiserver's restart)
        let compacted = s.cluster.watch_cache_oldest();
        let ticket = resp.ok().then(|| s.cluster.external_watch_opened(&id.user_agent));
        let view = s.cluster.view();
        let head = view.etcd_revision();
        let mut initial = Vec::new();
        let mut start = WatchStart::Ok;
        match from {
            Some(rv) if !send_initial => {
                cursor.rev = rv;
                if rv < compacted {
                    start = WatchStart::Expired(rv, compacted);
                } else if rv > head {
                    start = WatchStart::TooLarge(rv);
                }
            }
            _ => {
                cursor.rev = head;
                for o in view.objects_shared(cursor.info, &ns) {
                    if cursor.matches(&o) {
                        initial.push(("ADDED", Value::clone(&o)));
                    }
                }
            }
        }
        (resp, cursor, initial, now, s.cluster.now(), start, ticket)
    });
    let Some((resp, mut cursor, mut initial, now, mut virtual_now, start, ticket)) = started else { return Ok(()) };
    let Some(ticket) = ticket else {
        return http::write_response(w, resp.code, "application/json", &serde_json::to_vec(&resp.body).unwrap_or_default(), false);
    };
    // the cluster counts the stream open until it ends, however it ends
    let _open = OpenWatch { h, ticket: Some(ticket.clone()) };
    // a client that does not read is dropped, not waited for
    let write_timeout = Duration::from_millis(h.watch_write_timeout_ms.load(std::sync::atomic::Ordering::Relaxed).max(1));
    let _ = w.set_write_timeout(Some(write_timeout));
    http::write_chunked_head(w, "application/json")?;
    match start {
        WatchStart::Ok => {}
        WatchStart::Expired(rv, compacted) => {
            http::write_chunk(w, &encode(vec![("ERROR", expired_status(rv, compacted))], now))?;
            return http::write_last_chunk(w);
        }
        WatchStart::TooLarge(rv) => {
            // the watch cache waits up to 3 s (`blockTimeout`) for etcd to get there
            let until = Instant::now() + Duration::from_secs(3);
            let mut current = 0;
            while Instant::now() < until {
                current = h.call(|s| s.cluster.view().etcd_revision()).unwrap_or(0);
                if current >= rv {
                    break;
                }
                thread::sleep(Duration::from_millis(100));
            }
            if current < rv {
                http::write_chunk(w, &encode(vec![("ERROR", too_large_status(rv, current))], now))?;
                return http::write_last_chunk(w);
            }
        }
    }
    if send_initial && bookmarks {
        initial.push(("BOOKMARK", cursor.bookmark(true)));
    }
    http::write_chunk(w, &encode(initial, now))?;
    let started_at = Instant::now();
    let deadline = started_at + timeout;
    // the bookmark 2 s before the deadline, if the deadline is that far
    let mut pre_deadline = timeout.checked_sub(Duration::from_secs(2)).filter(|d| !d.is_zero()).map(|d| started_at + d);
    let mut last_bookmark = virtual_now;
    while let Some((polled, cur, now, virt)) = {
        let ticket = ticket.clone();
        h.call(move |s| {
            // kube-apiserver restarted or the client's connection dropped (`sim fault …`): the
            // stream ends and the client watches again
            let ev = if s.cluster.external_watch_broken(&ticket) { None } else { cursor.poll(&s.cluster, &mut s.decoded) };
            (ev, cursor, crate::api::time::EPOCH_MS + s.cluster.now(), s.cluster.now())
        })
    } {
        cursor = cur;
        virtual_now = virt;
        let Some(mut events) = polled else { break };
        if bookmarks {
            let periodic = virtual_now - last_bookmark >= BOOKMARK_EVERY_MS;
            let before_deadline = pre_deadline.is_some_and(|t| Instant::now() >= t);
            if periodic || before_deadline {
                events.push(("BOOKMARK", cursor.bookmark(false)));
                last_bookmark = virtual_now;
                if before_deadline {
                    pre_deadline = None;
                }
            }
        }
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
