//! The cluster: the boundary between the deterministic core and the shells.
//!
//! There is no single upstream counterpart: in a real cluster these are separate processes
//! (kube-apiserver, etcd, kube-controller-manager, kube-scheduler, one kubelet per node) that talk
//! over HTTP. Here they are [`Component`]s driven by one loop over a virtual clock. A component
//! can only (a) send requests to the API server through [`Ctx::request`], (b) receive watch events
//! for the watches it opened, and (c) set timers. Every one of those interactions is a
//! [`Message`](crate::trace::Message) in the trace, with the message that caused it.
//!
//! **Architecture invariant:** no component holds a reference to another component, to etcd, or to
//! the API server's storage. `Cluster` is the only owner of all of them; shells read it through
//! the read-only [`ClusterView`] (`view.rs`).

use crate::sim::sort::CompactSort;
use crate::api::meta::{self, Resource};
use crate::client::flowcontrol::Limiters;
use crate::api::request::{EventType, Identity, Method, PatchType, Request, RequestInfo, Response};
use crate::apiserver::{ApiServer, Limits, Outcome, Watcher};
use crate::sim::{MsgId, Queue, Rng};
use crate::trace::{Actor, FaultKind, MessageKind, Trace};

pub mod external_watch;
mod network;
mod partition;
pub mod reflector;
mod view;
pub use network::{is_https, parse_url, HttpReply, HttpResult, RequestOptions, NGINX_WELCOME};
pub use view::ClusterView;
use serde_json::{json, Value};
use std::any::Any;
use std::fmt;
use std::marker::PhantomData;
use std::rc::Rc;

/// Latencies of the simulated hops, in virtual milliseconds. All configurable.
#[derive(Clone, Debug)]
pub struct Timing {
    /// Client → apiserver → client round trip of one request.
    pub api_rtt_ms: i64,
    /// apiserver → etcd write.
    pub etcd_write_ms: i64,
    /// Time from an etcd write to the watch event reaching a watcher.
    pub watch_delay_ms: i64,
    /// Time a key waits in a controller's work queue before a worker picks it up.
    pub workqueue_delay_ms: i64,
    /// CRI RunPodSandbox.
    pub sandbox_ms: i64,
    /// Registry throughput for image pulls, bytes per virtual millisecond (25_000 = 25 MB/s).
    pub pull_bytes_per_ms: i64,
    /// Fixed cost of a pull (manifest resolution, unpack).
    pub pull_overhead_ms: i64,
    pub create_container_ms: i64,
    pub start_container_ms: i64,
}

impl Default for Timing {
    fn default() -> Self {
        Timing {
            api_rtt_ms: 4,
            etcd_write_ms: 1,
            watch_delay_ms: 2,
            workqueue_delay_ms: 1,
            sandbox_ms: 350,
            pull_bytes_per_ms: 25_000,
            pull_overhead_ms: 400,
            create_container_ms: 60,
            start_container_ms: 120,
        }
    }
}

/// What the kernel delivers to a component. `T` is the component's own timer type.
#[derive(Clone, Debug)]
pub enum Input<T> {
    /// A watch event: the resource it is about (components match on it), its type and the
    /// object, shared with the API server's watch cache and every other watcher.
    Watch { resource: Resource, event_type: EventType, object: std::rc::Rc<Value> },
    /// One of the component's timers fired.
    Timer(T),
}

/// A component's timers, as the queue holds them before delivery (each component gets back its
/// own [`Component::Timer`] values).
type AnyTimer = Box<dyn Any>;

/// A simulated control-plane or node component.
pub trait Component: 'static {
    /// The component's timers: one enum per component (work-queue wake-ups, back-offs,
    /// heartbeats), never strings to be split again. `Display` gives the trace's text.
    type Timer: fmt::Display + 'static;
    fn actor(&self) -> Actor;
    fn identity(&self) -> Identity;
    /// Called once when the cluster starts (informers list and watch here).
    fn start(&mut self, ctx: &mut Ctx<Self::Timer>);
    fn handle(&mut self, ctx: &mut Ctx<Self::Timer>, input: Input<Self::Timer>);
    /// Stops or resumes the component (a failed node's kubelet).
    fn set_running(&mut self, _running: bool) {}
    /// The component as a fresh process starts it after a crash (`sim fault restart`): its
    /// configuration, none of its state. None: kubesim does not restart this component.
    fn restarted(&self) -> Option<Self>
    where
        Self: Sized,
    {
        None
    }
    /// The kubelet's `/containerLogs/{ns}/{pod}/{container}` endpoint, which kube-apiserver
    /// proxies `pods/log` to. Other components serve none.
    fn container_logs(&self, _namespace: &str, _pod: &str, _container: &str, _previous: bool, _now: i64) -> Option<Result<String, String>> {
        None
    }
    /// The kubelet's streaming server running `tar xf -` in a container (`kubectl cp` into a
    /// Pod, through `pods/exec`): the file lands in the container's writable layer. Other
    /// components serve none.
    fn copy_into_container(&mut self, _namespace: &str, _pod: &str, _container: Option<&str>, _path: &str, _content: &str) -> Option<Result<(), String>> {
        None
    }
    /// Whether the component's timers survive its restart (the kubelet's stand for the
    /// container runtime's work, which goes on without it). Otherwise they are lost.
    fn restart_keeps_timers(&self) -> bool {
        false
    }
    /// The kubelet's `/metrics/resource` (port 10250), which metrics-server scrapes: its
    /// counters advanced to `now`, each Pod serving the requests a second `rps_of(pod IP)` gives.
    fn resource_metrics(&mut self, _now: i64, _rps_of: &dyn Fn(&str) -> f64) -> Option<crate::kubelet::stats::ResourceMetrics> {
        None
    }
    /// An extension API server's answer to a request kube-apiserver's aggregation layer proxies
    /// to it (metrics-server's `metrics.k8s.io`): `None` unless this component serves `path`.
    fn aggregated(&self, _path: &str, _now: i64) -> Option<Response> {
        None
    }
}

/// The object-safe face of a [`Component`], whatever its timer type: what the cluster's table
/// holds and what shells may touch.
pub trait Hosted {
    fn actor(&self) -> Actor;
    fn identity(&self) -> Identity;
    /// For the read-only view: the component as its own type (the scheduler's attempts).
    fn as_any(&self) -> &dyn Any;
    fn set_running(&mut self, running: bool);
    fn container_logs(&self, namespace: &str, pod: &str, container: &str, previous: bool, now: i64) -> Option<Result<String, String>>;
    fn copy_into_container(&mut self, namespace: &str, pod: &str, container: Option<&str>, path: &str, content: &str) -> Option<Result<(), String>>;
    fn start_erased(&mut self, ctx: &mut Ctx<AnyTimer>);
    fn restarted_erased(&self) -> Option<Box<dyn Hosted>>;
    fn restart_keeps_timers(&self) -> bool;
    fn resource_metrics(&mut self, now: i64, rps_of: &dyn Fn(&str) -> f64) -> Option<crate::kubelet::stats::ResourceMetrics>;
    fn aggregated(&self, path: &str, now: i64) -> Option<Response>;
    /// One of this component's queued timers as the trace would print it (for the busy report
    /// of a settle that hit its bound).
    fn timer_label(&self, timer: &dyn Any) -> String;
    fn handle_erased(&mut self, ctx: &mut Ctx<AnyTimer>, input: Input<AnyTimer>);
}

impl<C: Component> Hosted for C {
    fn actor(&self) -> Actor {
        Component::actor(self)
    }
    fn identity(&self) -> Identity {
        Component::identity(self)
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn set_running(&mut self, running: bool) {
        Component::set_running(self, running)
    }
    fn container_logs(&self, namespace: &str, pod: &str, container: &str, previous: bool, now: i64) -> Option<Result<String, String>> {
        Component::container_logs(self, namespace, pod, container, previous, now)
    }
    fn copy_into_container(&mut self, namespace: &str, pod: &str, container: Option<&str>, path: &str, content: &str) -> Option<Result<(), String>> {
        Component::copy_into_container(self, namespace, pod, container, path, content)
    }
    fn start_erased(&mut self, ctx: &mut Ctx<AnyTimer>) {
        ctx.typed(|ctx| self.start(ctx));
    }
    fn restarted_erased(&self) -> Option<Box<dyn Hosted>> {
        Component::restarted(self).map(|c| Box::new(c) as Box<dyn Hosted>)
    }
    fn restart_keeps_timers(&self) -> bool {
        Component::restart_keeps_timers(self)
    }
    fn resource_metrics(&mut self, now: i64, rps_of: &dyn Fn(&str) -> f64) -> Option<crate::kubelet::stats::ResourceMetrics> {
        Component::resource_metrics(self, now, rps_of)
    }
    fn aggregated(&self, path: &str, now: i64) -> Option<Response> {
        Component::aggregated(self, path, now)
    }
    fn timer_label(&self, timer: &dyn Any) -> String {
        timer.downcast_ref::<C::Timer>().map(|t| t.to_string()).unwrap_or_default()
    }
    fn handle_erased(&mut self, ctx: &mut Ctx<AnyTimer>, input: Input<AnyTimer>) {
        let input = match input {
            Input::Watch { resource, event_type, object } => Input::Watch { resource, event_type, object },
            // A timer is only ever delivered to the component that set it, so the downcast holds.
            Input::Timer(t) => match t.downcast::<C::Timer>() {
                Ok(t) => Input::Timer(*t),
                Err(_) => return,
            },
        };
        ctx.typed(|ctx| self.handle(ctx, input));
    }
}

struct Delivery {
    to: usize,
    input: Input<AnyTimer>,
    cause: Option<MsgId>,
    /// Background work (heartbeats, resyncs) does not keep `settle` running.
    background: bool,
    /// For a visible timer: its text, recorded as a Timer message when it fires.
    visible: Option<String>,
}

/// A component's place in the cluster: its actor and identity (fixed for its life) and the
/// component itself (taken out while it handles an input).
struct Slot {
    actor: Actor,
    identity: Identity,
    /// The client its informers list and watch with: kube-controller-manager's controllers share
    /// its informer factory, whose client is the process's own (`…/shared-informers`); others
    /// use their own identity.
    informer_identity: Option<Identity>,
    component: Option<Box<dyn Hosted>>,
    /// The slot of the process's leader elector whose leadership starts this component
    /// (kube-controller-manager's controllers), if any.
    gate: Option<usize>,
    /// `start` has run (a gated component waits for its process to lead).
    started: bool,
    /// Its clients' token buckets (a restarted process starts with full ones).
    limiters: Limiters,
}

/// What a handler asks of its process, carried out by the cluster once the handler returns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Signal {
    /// `OnStartedLeading`: the process won its Lease; start the components it gates.
    StartedLeading(usize, Option<MsgId>),
    /// `OnStoppedLeading` → `klog.FlushAndExit`: the process exits and a fresh one starts.
    Exit(usize, Option<MsgId>),
}

/// Everything a component may touch while handling one input. `T` is the component's timer type.
pub struct Ctx<'a, T> {
    pub now: i64,
    pub rng: &'a mut Rng,
    api: &'a mut ApiServer,
    trace: &'a mut Trace,
    queue: &'a mut Queue<Delivery>,
    timing: &'a Timing,
    me: usize,
    actor: &'a Actor,
    identity: &'a Identity,
    /// The message being handled: the cause of everything this handler does.
    pub cause: Option<MsgId>,
    foreground: &'a mut usize,
    informers: &'a mut reflector::Informers,
    signals: &'a mut Vec<Signal>,
    /// The token buckets of the component's clients (client-go's client-side rate limiter).
    limiters: &'a mut Limiters,
    /// This component's node is cut off from the control plane (`sim node partition`): its
    /// requests fail before reaching kube-apiserver.
    cut_off: bool,
    /// The client of the component's informers (see `Slot::informer_identity`).
    informer_identity: &'a Identity,
    /// The other components, reachable only over the network (the aggregation layer's proxy,
    /// a scrape of a kubelet), and the traffic `sim load` sends.
    peers: Peers<'a>,
    _timer: PhantomData<fn(T)>,
}

/// What a handler reaches besides the API server: the other components' network endpoints.
struct Peers<'a> {
    before: &'a mut [Slot],
    after: &'a mut [Slot],
    loads: &'a [Load],
}

impl Peers<'_> {
    fn find(&mut self, pred: impl Fn(&Slot) -> bool) -> Option<&mut Slot> {
        self.before.iter_mut().chain(self.after.iter_mut()).find(|s| pred(s))
    }
}

/// Traffic `sim load SERVICE --rps N` sends at a Service: spread over its ready endpoints as
/// kube-proxy's rules spread connections.
#[derive(Clone, Debug, PartialEq)]
pub struct Load {
    pub namespace: String,
    pub service: String,
    pub rps: f64,
}

/// kube-apiserver's aggregation layer hands the request to the extension API server behind the
/// `APIService`'s Service (the component that serves the path) and relays its answer.
fn proxy_aggregated<'s>(mut slots: impl Iterator<Item = &'s Slot>, trace: &mut Trace, p: &crate::apiserver::aggregator::AggregatedProxy, at: i64, cause: MsgId) -> Response {
    let found = slots.find_map(|s| s.component.as_ref().and_then(|c| c.aggregated(&p.path, at).map(|r| (s.actor.clone(), r))));
    let Some((actor, resp)) = found else {
        return Response { code: 503, body: Value::String("service unavailable\n".into()) };
    };
    let info = Rc::new(RequestInfo::parse(Method::Get, &p.path));
    let uri: Rc<str> = Rc::from(p.path.as_str());
    let req_id = trace.push(at, Actor::ApiServer, actor.clone(), MessageKind::Request { method: Method::Get, uri, info }, Some(cause));
    trace.push(at, actor, Actor::ApiServer, MessageKind::Response { code: resp.code, reason: if resp.ok() { String::new() } else { resp.reason().to_string() }, authz: None }, Some(req_id));
    resp
}

/// Requests a second each Pod IP receives from `loads`, read from the Services' EndpointSlices.
fn rps_by_ip(api: &ApiServer, loads: &[Load]) -> std::collections::BTreeMap<String, f64> {
    let mut out = std::collections::BTreeMap::new();
    for l in loads {
        let mut ips: Vec<String> = Vec::new();
        for slice in api.list_objects_shared(Resource::EndpointSlices.info(), &l.namespace) {
            if meta::get_str(&slice, &["metadata", "labels", "kubernetes.io/service-name"]) != l.service {
                continue;
            }
            for ep in meta::get_array(&slice, &["endpoints"]) {
                if meta::get(ep, &["conditions", "ready"]).and_then(Value::as_bool).unwrap_or(false) {
                    ips.extend(meta::get_array(ep, &["addresses"]).iter().filter_map(Value::as_str).map(String::from));
                }
            }
        }
        ips.sort();
        ips.dedup();
        for ip in &ips {
            *out.entry(ip.clone()).or_insert(0.0) += l.rps / ips.len() as f64;
        }
    }
    out
}

impl Ctx<'_, AnyTimer> {
    /// Runs `f` with this context retyped to a component's own timer type.
    fn typed<U>(&mut self, f: impl FnOnce(&mut Ctx<U>)) {
        let mut t = Ctx {
            now: self.now,
            rng: &mut *self.rng,
            api: &mut *self.api,
            trace: &mut *self.trace,
            queue: &mut *self.queue,
            timing: self.timing,
            me: self.me,
            actor: self.actor,
            identity: self.identity,
            informer_identity: self.informer_identity,
            cause: self.cause,
            foreground: &mut *self.foreground,
            informers: &mut *self.informers,
            signals: &mut *self.signals,
            limiters: &mut *self.limiters,
            cut_off: self.cut_off,
            peers: Peers { before: &mut *self.peers.before, after: &mut *self.peers.after, loads: self.peers.loads },
            _timer: PhantomData,
        };
        f(&mut t);
        let (now, cause) = (t.now, t.cause);
        self.now = now;
        self.cause = cause;
    }
}

impl<'a, T: fmt::Display + 'static> Ctx<'a, T> {
    pub fn timing(&self) -> &Timing {
        self.timing
    }

    /// The process won its Lease (`OnStartedLeading`): once this handler returns, the cluster
    /// starts the components this one gates (kube-controller-manager's controllers).
    pub fn started_leading(&mut self) {
        self.signals.push(Signal::StartedLeading(self.me, self.cause));
    }

    /// The process exits (`leaderelection lost`): once this handler returns, the cluster
    /// restarts it as `sim fault restart` would (kubelet restarts the static Pod's container).
    pub fn exit_process(&mut self) {
        self.signals.push(Signal::Exit(self.me, self.cause));
    }

    /// Sends a request to kube-apiserver and waits for the response (like a blocking client-go call).
    /// The clock advances by one round trip.
    pub fn request(&mut self, method: Method, path: &str, body: Option<Value>) -> Response {
        self.request_with(Request { method, path: path.to_string(), body, patch_type: PatchType::Strategic })
    }

    pub fn merge_patch(&mut self, path: &str, body: Value) -> Response {
        self.request_with(Request { method: Method::Patch, path: path.to_string(), body: Some(body), patch_type: PatchType::Merge })
    }

    /// A request from a cut-off node: the client's dial times out and nothing reaches
    /// kube-apiserver. Recorded as a Fault from the component to itself. (kubesim does not make
    /// the handler wait out the client's time-out.)
    fn unreachable(&mut self, req: &Request) -> Response {
        let what = format!("{} https://{}:{}{}: dial tcp {}:{}: i/o timeout", req.method.as_str(), APISERVER_ADDRESS, APISERVER_PORT, req.path, APISERVER_ADDRESS, APISERVER_PORT);
        let id = self.trace.push(self.now, self.actor.clone(), self.actor.clone(), MessageKind::Fault { kind: FaultKind::Unreachable, what: what.clone(), lost: 0 }, self.cause);
        self.cause = Some(id);
        Response { code: 0, body: json!({"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure", "message": what, "reason": "", "code": 0}) }
    }

    /// This component's identity (user, groups, user agent).
    pub fn identity(&self) -> &Identity {
        self.identity
    }

    /// A request from another client of the same process (the leader-election client, whose user
    /// agent ends in `/leader-election`).
    pub fn request_as(&mut self, identity: &Identity, req: Request) -> Response {
        if self.cut_off {
            return self.unreachable(&req);
        }
        let (mut resp, id, proxy) = send(self.api, self.trace, self.queue, self.timing, self.rng, &mut self.now, self.actor, identity, req, self.cause, self.foreground);
        if let Some(crate::apiserver::Proxy::Aggregated(p)) = proxy {
            let slots = self.peers.before.iter().chain(self.peers.after.iter());
            resp = proxy_aggregated(slots, self.trace, &p, self.now - self.timing.api_rtt_ms / 2, id);
        }
        self.cause = Some(id).or(self.cause);
        resp
    }

    /// A GET of `https://ENDPOINT/metrics/resource` (the kubelet's `IP:10250`) from this
    /// component (metrics-server) to the kubelet of `node`: its samples, or the error the scrape
    /// met. One round trip.
    pub fn scrape_kubelet(&mut self, node: &str, endpoint: &str) -> Result<crate::kubelet::stats::ResourceMetrics, String> {
        let kubelet = Actor::Kubelet(node.to_string());
        let (uri, info) = self.api.request_info(Method::Get, "/metrics/resource");
        let req_id = self.trace.push(self.now, self.actor.clone(), kubelet.clone(), MessageKind::Request { method: Method::Get, uri, info }, self.cause);
        let rps = rps_by_ip(self.api, self.peers.loads);
        let now = self.now + self.timing.api_rtt_ms / 2;
        let answer = self.peers.find(|s| s.actor == kubelet).and_then(|s| s.component.as_mut()).and_then(|c| c.resource_metrics(now, &|ip| rps.get(ip).copied().unwrap_or(0.0)));
        self.now += self.timing.api_rtt_ms;
        let code = if answer.is_some() { 200 } else { 0 };
        let id = self.trace.push(self.now, if answer.is_some() { kubelet } else { self.actor.clone() }, self.actor.clone(), MessageKind::Response { code, reason: String::new(), authz: None }, Some(req_id));
        self.cause = Some(id);
        answer.ok_or_else(|| format!("request failed, error: Get \"https://{}/metrics/resource\": context deadline exceeded", endpoint))
    }

    /// Sends a request through the component's own client: it first waits for its token
    /// (client-go's rate limiter, [`crate::client::flowcontrol`]), then for the response.
    pub fn request_with(&mut self, req: Request) -> Response {
        let (_, info) = self.api.request_info(req.method, &req.path);
        let wait = self.limiters.take(self.actor, &info, self.now);
        self.now += wait;
        let identity = self.identity;
        self.request_as(identity, req)
    }

    /// Sends `reqs` together and waits for all of them (see `send_batch`): one round trip. Each
    /// request has this handler's cause; what the handler does next follows the last of them.
    pub fn request_batch(&mut self, reqs: Vec<Request>) -> Vec<Response> {
        if self.cut_off {
            return reqs.iter().map(|r| self.unreachable(r)).collect();
        }
        // each request waits for its own token: the ones that have it leave together, the others
        // in waves as their tokens come (a token comes at most every 200 ms and at least every
        // 20 ms, longer than a round trip, so the waves do not overlap)
        let start = self.now;
        let mut waves: Vec<(i64, Vec<Request>)> = Vec::new();
        for req in reqs {
            let (_, info) = self.api.request_info(req.method, &req.path);
            let at = start + self.limiters.take(self.actor, &info, start);
            match waves.last_mut() {
                Some((t, w)) if *t == at => w.push(req),
                _ => waves.push((at, vec![req])),
            }
        }
        let cause = self.cause;
        let mut out = Vec::new();
        for (at, wave) in waves {
            self.now = self.now.max(at);
            let sent = send_batch(self.api, self.trace, self.queue, self.timing, self.rng, &mut self.now, self.actor, self.identity, wave, cause, self.foreground);
            if let Some((_, id, _)) = sent.last() {
                self.cause = Some(*id);
            }
            out.extend(sent.into_iter().map(|(r, _, _)| r));
        }
        out
    }

    /// The informer pattern: LIST the collection, then WATCH from that point on.
    pub fn list_and_watch(&mut self, info: &'static meta::ResourceInfo, namespace: &str, label_selector: &str, field_selector: &str) -> Vec<Value> {
        let mut q = Vec::new();
        let enc = crate::api::request::encode_selector;
        if !label_selector.is_empty() {
            q.push(format!("labelSelector={}", enc(label_selector)));
        }
        if !field_selector.is_empty() {
            q.push(format!("fieldSelector={}", enc(field_selector)));
        }
        let base = info.collection_path(namespace);
        let list_path = if q.is_empty() { base.clone() } else { format!("{}?{}", base, q.join("&")) };
        // the reflector retries a failed LIST with back-off (800 ms doubling, at most 30 s) before
        // it watches: an informer never starts from a list it did not get
        let informer = self.informer_identity;
        let mut resp = self.request_as(informer, Request::get(&list_path));
        let mut wait = REFLECTOR_BACKOFF_MS;
        for _ in 0..REFLECTOR_MAX_RELISTS {
            if resp.ok() {
                break;
            }
            self.now += wait;
            wait = (wait * 2).min(REFLECTOR_BACKOFF_MAX_MS);
            resp = self.request_as(informer, Request::get(&list_path));
        }
        let items = resp.body.get("items").and_then(|i| i.as_array()).cloned().unwrap_or_default();
        let rv = meta::get_str(&resp.body, &["metadata", "resourceVersion"]).to_string();
        self.informers.listed(self.me, info.resource, &items, rv.parse().unwrap_or(0), field_selector.starts_with("metadata.name="));
        let mut wq = q.clone();
        wq.push("allowWatchBookmarks=true".into());
        wq.push(format!("resourceVersion={}", rv));
        wq.push("watch=true".into());
        if !self.request_as(informer, Request::get(format!("{}?{}", base, wq.join("&")))).ok() {
            return items;
        }
        self.api.add_watcher(Watcher {
            subscriber: self.me,
            resource: info.resource,
            namespace: namespace.to_string(),
            label_selector: meta::parse_label_selector(label_selector).unwrap_or_default(),
            field_selector: crate::apiserver::parse_field_selector(field_selector),
        });
        items
    }

    /// Closes the watch [`Ctx::list_and_watch`] opened with this namespace and field selector
    /// (nothing is sent: the client drops the connection).
    pub fn stop_watch(&mut self, info: &'static meta::ResourceInfo, namespace: &str, field_selector: &str) {
        let sel = crate::apiserver::parse_field_selector(field_selector);
        self.api.remove_watcher(self.me, info.resource, namespace, &sel);
    }

    /// Sets a timer that fires `delay_ms` from now. Foreground timers keep `settle` going, so a
    /// timer is foreground only when its firing is bound to change something (a work queue's
    /// wake-up for queued keys, a CRI call finishing, a Ready Pod becoming available): a re-check
    /// that may find nothing changed (a periodic requeue, a resync, a back-off retry) is
    /// [`Ctx::after_background`], or a stuck workload would keep `settle` running forever. A
    /// visible timer is recorded in the trace when it fires.
    pub fn after(&mut self, delay_ms: i64, timer: T, visible: bool) {
        let visible = visible.then(|| timer.to_string());
        self.queue.push(self.now + delay_ms.max(0), Delivery { to: self.me, input: Input::Timer(Box::new(timer)), cause: self.cause, background: false, visible });
        *self.foreground += 1;
    }

    /// A periodic/background timer (heartbeats): does not keep `settle` running.
    pub fn after_background(&mut self, delay_ms: i64, timer: T) {
        self.queue.push(self.now + delay_ms.max(0), Delivery { to: self.me, input: Input::Timer(Box::new(timer)), cause: self.cause, background: true, visible: None });
    }

    /// Records a call to the container runtime (CRI) and its reply; returns the call's message id.
    pub fn runtime_call(&mut self, node: &str, call: &str, detail: &str) -> MsgId {
        let id = self.trace.push(
            self.now,
            self.actor.clone(),
            Actor::Runtime(node.to_string()),
            MessageKind::Runtime { call: call.to_string(), detail: detail.to_string() },
            self.cause,
        );
        self.cause = Some(id);
        id
    }

    /// Records the runtime's reply to an earlier call.
    /// Something the runtime reports without being asked (the PLEG's relist finding a dead
    /// container: `ContainerDied`), recorded from the node's runtime to this component.
    pub fn runtime_event(&mut self, node: &str, what: &str, detail: &str) -> MsgId {
        let id = self.trace.push(
            self.now,
            Actor::Runtime(node.to_string()),
            self.actor.clone(),
            MessageKind::Runtime { call: what.to_string(), detail: detail.to_string() },
            self.cause,
        );
        self.cause = Some(id);
        id
    }

    pub fn runtime_reply(&mut self, node: &str, call: &str, detail: &str) -> MsgId {
        let id = self.trace.push(
            self.now,
            Actor::Runtime(node.to_string()),
            self.actor.clone(),
            MessageKind::Runtime { call: format!("{} done", call), detail: detail.to_string() },
            self.cause,
        );
        self.cause = Some(id);
        id
    }

    /// A step on the node's network that the runtime takes while serving a call (the CNI
    /// plugin's ADD or DEL inside `RunPodSandbox` / `StopPodSandbox`).
    pub fn runtime_net(&mut self, node: &str, hop: crate::trace::NetHop, what: String) -> MsgId {
        let runtime = Actor::Runtime(node.to_string());
        let id = self.trace.push(self.now, runtime.clone(), runtime, MessageKind::Net { hop, what }, self.cause);
        self.cause = Some(id);
        id
    }
}

#[allow(clippy::too_many_arguments)]
fn send(
    api: &mut ApiServer,
    trace: &mut Trace,
    queue: &mut Queue<Delivery>,
    timing: &Timing,
    rng: &mut Rng,
    now: &mut i64,
    actor: &Actor,
    identity: &Identity,
    req: Request,
    cause: Option<MsgId>,
    foreground: &mut usize,
) -> (Response, MsgId, Option<crate::apiserver::Proxy>) {
    let mut sent = send_batch(api, trace, queue, timing, rng, now, actor, identity, vec![req], cause, foreground);
    sent.pop().unwrap_or_else(|| (Response { code: 500, body: Value::Null }, 0, None))
}

/// Sends requests that leave together, as goroutines do (`slowStartBatch`, the ReplicaSet
/// controller's parallel deletes): every request leaves at the same instant, the API server
/// handles them in arrival order, and the sender resumes when the last response is back (one
/// round trip, not one per request). The trace lists the requests, then the etcd writes, then
/// the responses, so its times never go backwards.
#[allow(clippy::too_many_arguments)]
fn send_batch(
    api: &mut ApiServer,
    trace: &mut Trace,
    queue: &mut Queue<Delivery>,
    timing: &Timing,
    rng: &mut Rng,
    now: &mut i64,
    actor: &Actor,
    identity: &Identity,
    reqs: Vec<Request>,
    cause: Option<MsgId>,
    foreground: &mut usize,
) -> Vec<(Response, MsgId, Option<crate::apiserver::Proxy>)> {
    let mut t0 = *now;
    let n = reqs.len();
    // injected API errors (`sim fault api-error`) answer before the handlers run; a 429 makes
    // client-go wait its Retry-After and send the request again (the batch waits with it)
    // the sender's name only when a fault waits for it (this is every request's path)
    let who = if api.faults().is_empty() { String::new() } else { actor.name() };
    let mut failed: Vec<(usize, Response, MsgId)> = Vec::new();
    let mut todo: Vec<(usize, Request, std::rc::Rc<str>, std::rc::Rc<RequestInfo>)> = Vec::with_capacity(n);
    for (k, req) in reqs.into_iter().enumerate() {
        let (uri, info) = api.request_info(req.method, &req.path);
        let mut tries = 0;
        loop {
            let injected = if who.is_empty() { None } else { api.injected(&who, &info) };
            let Some(resp) = injected else {
                todo.push((k, req, uri, info));
                break;
            };
            let req_id = trace.push(t0, actor.clone(), Actor::ApiServer, MessageKind::Request { method: req.method, uri: uri.clone(), info: info.clone() }, cause);
            tries += 1;
            if resp.code == 429 && tries <= CLIENT_MAX_RETRIES {
                trace.push(t0 + timing.api_rtt_ms, Actor::ApiServer, actor.clone(), MessageKind::Response { code: 429, reason: resp.reason().to_string(), authz: None }, Some(req_id));
                t0 += timing.api_rtt_ms + crate::apiserver::fault::RETRY_AFTER_SECONDS * 1000;
                continue;
            }
            failed.push((k, resp, req_id));
            break;
        }
    }
    let mut handled = Vec::with_capacity(todo.len());
    let mut order = Vec::with_capacity(n);
    for (k, req, uri, info) in todo {
        let outcome = api.handle(&req, &info, identity, t0 + 1, rng);
        let req_id = trace.push(t0, actor.clone(), Actor::ApiServer, MessageKind::Request { method: req.method, uri, info }, cause);
        handled.push((outcome, req_id));
        order.push(k);
    }
    for (outcome, req_id) in &handled {
        for ch in &outcome.changes {
            trace.push(
                t0 + 1 + timing.etcd_write_ms.min(timing.api_rtt_ms / 2),
                Actor::ApiServer,
                Actor::Etcd,
                MessageKind::EtcdTxn { op: ch.op, key: ch.key.clone(), revision: ch.revision },
                Some(*req_id),
            );
            if ch.op == "PUT" && ch.revision > 0 && ch.resource.id == Resource::Events {
                let expiry = LeaseExpiry { key: ch.key.clone(), revision: ch.revision };
                queue.push(
                    t0 + 1 + crate::apiserver::EVENT_TTL_MS,
                    Delivery { to: LEASE_EXPIRY, input: Input::Timer(Box::new(expiry)), cause: Some(*req_id), background: true, visible: None },
                );
            }
        }
    }
    let t1 = t0 + timing.api_rtt_ms;
    let mut out = Vec::with_capacity(n);
    for (_, resp, req_id) in &failed {
        trace.push(t1, Actor::ApiServer, actor.clone(), MessageKind::Response { code: resp.code, reason: resp.reason().to_string(), authz: None }, Some(*req_id));
    }
    for (outcome, req_id) in handled {
        let Outcome { response, deliveries, proxy, authz, .. } = outcome;
        trace.push(
            t1,
            Actor::ApiServer,
            actor.clone(),
            MessageKind::Response { code: response.code, reason: if response.ok() { String::new() } else { response.reason().to_string() }, authz },
            Some(req_id),
        );
        for (sub, d) in deliveries {
            queue.push(
                t0 + timing.etcd_write_ms + timing.watch_delay_ms,
                Delivery { to: sub, input: Input::Watch { resource: d.resource.id, event_type: d.event_type, object: d.object }, cause: Some(req_id), background: false, visible: None },
            );
            *foreground += 1;
        }
        out.push((response, req_id, proxy));
    }
    *now = t1;
    if failed.is_empty() {
        return out;
    }
    // answers in the order the requests were given
    let mut all: Vec<(usize, (Response, MsgId, Option<crate::apiserver::Proxy>))> = order.into_iter().zip(out).collect();
    all.extend(failed.into_iter().map(|(k, r, id)| (k, (r, id, None))));
    all.sort_by_key(|(k, _)| *k);
    all.into_iter().map(|(_, x)| x).collect()
}

/// The reflector's back-off after a failed LIST (`reflector.go`: 800 ms initial, 30 s cap), and
/// how many LISTs kubesim tries before giving up (a bound; client-go goes on forever).
const REFLECTOR_BACKOFF_MS: i64 = 800;
const REFLECTOR_BACKOFF_MAX_MS: i64 = 30_000;
const REFLECTOR_MAX_RELISTS: usize = 20;

/// How often client-go's REST client resends a request answered 429 with Retry-After
/// (`rest.Config`'s default `maxRetries`, 10) before giving the error to its caller.
const CLIENT_MAX_RETRIES: u32 = 10;

/// Outcome of [`Cluster::run_until_settled`].
#[derive(Clone, Debug, PartialEq)]
pub struct Settle {
    pub steps: u64,
    pub settled: bool,
    pub time_ms: i64,
    /// When the bound was hit (`settled` false): what kept the cluster busy over the last
    /// [`BUSY_WINDOW`] deliveries, most frequent first (at most [`BUSY_TOP`]).
    pub busy: Vec<Busy>,
}

/// One line of a settle's busy report: a component and what it kept being handed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Busy {
    /// The component's name (`kube-scheduler`, `kubelet@node-1`, …).
    pub component: String,
    /// A timer as the trace prints it (`workqueue:default/web`), or a watch event
    /// (`watch MODIFIED Pod`).
    pub what: String,
    /// How many of the window's foreground deliveries it was.
    pub count: u64,
}

impl Busy {
    /// The report as the CLI and the page print it: `kube-scheduler: Backoff(default/web-0) ×812`.
    pub fn describe(busy: &[Busy]) -> String {
        busy.iter().map(|b| format!("{}: {} ×{}", b.component, b.what, b.count)).collect::<Vec<_>>().join(", ")
    }
}

/// How many of a bounded settle's last foreground deliveries its busy report counts.
pub const BUSY_WINDOW: u64 = 5_000;
/// How many lines a busy report keeps.
pub const BUSY_TOP: usize = 5;
/// How many distinct (component, what) pairs a busy report counts.
const BUSY_DISTINCT: usize = 256;

/// Cluster-level configuration.
#[derive(Clone, Debug)]
pub struct ClusterConfig {
    pub timing: Timing,
    /// Bound on deliveries processed by one `run_until_settled`.
    pub max_steps_per_settle: u64,
    /// Bound on kept trace messages.
    pub trace_limit: usize,
    /// The API server's limits (objects, body size, audit events kept, etcd history).
    pub limits: Limits,
    /// kube-controller-manager's `--cluster-cidr`, which node IPAM cuts into pod CIDRs.
    pub cluster_cidr: crate::api::net::Cidr,
    /// kube-controller-manager's `--node-cidr-mask-size`.
    pub node_cidr_mask_size: u8,
    /// The virtual time the cluster starts at, in milliseconds after kubesim's epoch
    /// ([`crate::api::time::EPOCH_MS`], 2026-01-01T00:00:00Z). 0 for the page and the scenario
    /// scripts (their transcripts are stable); `kubesim serve` starts at the host's wall time, so
    /// that the ages a real client computes from timestamps are right.
    pub start_ms: i64,
    /// kube-apiserver's `--etcd-compaction-interval` (5 minutes upstream): every interval its
    /// compactor compacts etcd to the revision it saw at the interval before, so a watch can
    /// resume from anything younger than one interval. 0 = never: the page and the scripts
    /// keep every revision for time travel and `sim etcd get --rev` (bounded by
    /// `limits.etcd_history`); `kubesim serve` compacts as kube-apiserver does.
    pub etcd_compaction_interval_ms: i64,
}

/// kube-apiserver's default `--etcd-compaction-interval`.
pub const ETCD_COMPACTION_INTERVAL_MS: i64 = 5 * 60 * 1000;

impl Default for ClusterConfig {
    fn default() -> Self {
        ClusterConfig {
            timing: Timing::default(),
            max_steps_per_settle: 2_000_000,
            trace_limit: 2_000_000,
            limits: Limits::default(),
            cluster_cidr: crate::api::net::Cidr::parse(crate::controllers::nodeipam::DEFAULT_CLUSTER_CIDR).expect("cluster CIDR"),
            node_cidr_mask_size: crate::controllers::nodeipam::DEFAULT_NODE_CIDR_MASK_SIZE,
            start_ms: 0,
            etcd_compaction_interval_ms: 0,
        }
    }
}

/// The whole simulated cluster. Shells drive it (`client_request`, `step`, `run_until_settled`,
/// `advance`, `add_component`) and read it through [`Cluster::view`]; nothing outside reaches
/// into its parts.
pub struct Cluster {
    now: i64,
    /// The seed the cluster was made with.
    seed: u64,
    rng: Rng,
    api: ApiServer,
    trace: Trace,
    queue: Queue<Delivery>,
    components: Vec<Slot>,
    config: ClusterConfig,
    foreground: usize,
    /// Events of kubectl's open watch (`rollout status`), in the order they arrived.
    client_events: Vec<(EventType, Rc<Value>)>,
    client_watch_open: bool,
    /// What each component's informers hold, for the reflector's resume and relist.
    informers: reflector::Informers,
    /// Handlers' requests to their process (see [`Signal`]), drained after each handler.
    signals: Vec<Signal>,
    /// Nodes cut off from the control plane, and the watches their components had (`partition.rs`).
    partitioned: std::collections::BTreeMap<String, partition::Cut>,
    /// While a settle nears its bound: foreground deliveries counted by component and what
    /// (its busy report; a few distinct entries, so a list). None otherwise, so the hot path
    /// pays nothing.
    busy: Option<Vec<(usize, String, u64)>>,
    /// kubectl's `--as`/`--as-group` for the command being run: the `Impersonate-*` headers its
    /// requests carry ([`Cluster::set_client_impersonation`]).
    client_impersonation: Option<crate::api::request::Impersonation>,
    /// kubectl's `--dry-run=server`: its writes carry `dryRun=All`
    /// ([`Cluster::set_client_dry_run`]).
    client_dry_run: bool,
    /// The traffic `sim load` sends at Services.
    loads: Vec<Load>,
    /// ingress-nginx's Lua balancer: the next endpoint of each upstream (round robin).
    ingress_rr: std::collections::BTreeMap<String, usize>,
    /// kubectl's discovery cache (`~/.kube/cache/discovery`, 6 hours): the custom resources it has
    /// mapped, which it keeps using after their CRD is gone (the list then answers 404).
    kubectl_discovery: std::cell::RefCell<Vec<&'static crate::api::meta::ResourceInfo>>,
    /// The watch streams of clients outside the simulation (`kubesim serve`) and the faults
    /// that break them.
    external_watches: external_watch::ExternalWatches,
    /// kubectl's kubeconfig (`~/.kube/config`): client state like its discovery cache, kept
    /// with the cluster so that `kubectl config use-context` lasts from one command to the next.
    kubeconfig: crate::client::kubeconfig::Config,
    /// The learner's machine kubectl runs on: the console's files and loopback listeners.
    workstation: crate::client::workstation::Workstation,
    /// kubectl's own random source (`utilrand.String`: `kubectl debug`'s container names), apart
    /// from the cluster's so that what kubectl draws does not change what the cluster draws.
    kubectl_rng: Rng,
}

/// The subscriber number of kubectl's watch: not a component, so its deliveries go to
/// [`Cluster::take_client_events`].
const CLIENT_SUBSCRIBER: usize = usize::MAX;
/// The queue's address for etcd's lease expiries (an Event's `--event-ttl`).
const LEASE_EXPIRY: usize = usize::MAX - 1;

/// The queue's address for kube-apiserver's etcd compactor.
const COMPACTOR: usize = usize::MAX - 2;

/// The compactor's next tick: the revision it saw at the tick before (0: none yet).
struct CompactorTick {
    previous: i64,
}

/// An etcd lease that runs out: the key it was attached to by the write at `revision`.
struct LeaseExpiry {
    key: String,
    revision: i64,
}

/// kube-apiserver's loopback client (its bootstrap hooks and in-process controllers).
pub fn apiserver_identity() -> Identity {
    Identity {
        username: "system:apiserver".into(),
        uid: String::new(),
        groups: vec!["system:authenticated".into(), "system:masters".into()],
        user_agent: format!("kube-apiserver/{} (linux/amd64) kubernetes/{}", crate::KUBE_VERSION, crate::KUBE_COMMIT),
        source_ip: "::1".into(),
        impersonate: None,
    }
}

/// The identity kubectl uses in a kubeadm cluster (facts §9).
pub fn kubectl_identity() -> Identity {
    Identity {
        username: "kubernetes-admin".into(),
        uid: String::new(),
        groups: vec!["kubeadm:cluster-admins".into(), "system:authenticated".into()],
        user_agent: format!("kubectl/{} (linux/amd64) kubernetes/{}", crate::KUBE_VERSION, crate::KUBE_COMMIT),
        source_ip: "192.168.49.1".into(),
        impersonate: None,
    }
}

impl Cluster {
    /// The seed the cluster was made with (its runs repeat with it).
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The API server's limits, as configured.
    pub fn limits(&self) -> &Limits {
        &self.config.limits
    }

    /// An empty control plane (namespaces default and kube-system exist), no components.
    pub fn bare(seed: u64, config: ClusterConfig) -> Cluster {
        let trace = Trace::new(config.trace_limit);
        let api = ApiServer::new(config.limits.clone());
        let mut c = Cluster {
            now: config.start_ms,
            seed,
            rng: Rng::new(seed),
            api,
            trace,
            queue: Queue::default(),
            components: Vec::new(),
            config,
            foreground: 0,
            client_events: Vec::new(),
            client_watch_open: false,
            informers: reflector::Informers::default(),
            signals: Vec::new(),
            partitioned: std::collections::BTreeMap::new(),
            busy: None,
            client_impersonation: None,
            client_dry_run: false,
            loads: Vec::new(),
            ingress_rr: std::collections::BTreeMap::new(),
            kubectl_discovery: Default::default(),
            external_watches: Default::default(),
            kubeconfig: Default::default(),
            workstation: Default::default(),
            kubectl_rng: Rng::new(seed ^ 0x6b75_6265_6374_6c00),
        };
        // kube-apiserver's compactor, when configured (its first tick only records a revision)
        if c.config.etcd_compaction_interval_ms > 0 {
            c.compactor_tick(0);
        }
        // kube-apiserver's bootstrap controller creates the system namespaces.
        let apiserver_id = apiserver_identity();
        let mut bootstrap: Vec<(&str, Value)> = ["default", "kube-system", "kube-public", "kube-node-lease"]
            .iter()
            .map(|ns| ("/api/v1/namespaces", json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": ns}})))
            .collect();
        // the `kubernetes` Service, and the endpoints the apiserver's lease reconciler keeps for it
        bootstrap.extend(kubernetes_service_objects());
        // the system PriorityClasses (the `scheduling/bootstrap-system-priority-classes` hook)
        for (name, value, description) in crate::api::validation::SYSTEM_PRIORITY_CLASSES {
            bootstrap.push(("/apis/scheduling.k8s.io/v1/priorityclasses", json!({"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass", "metadata": {"name": name}, "value": value, "description": description})));
        }
        // the default StorageClass, as minikube's storage addon creates it
        bootstrap.push(("/apis/storage.k8s.io/v1/storageclasses", crate::provisioner::default_storage_class()));
        let post = |c: &mut Cluster, path: &str, body: Value| {
            let req = Request::new(Method::Post, path, Some(body));
            let info = RequestInfo::parse(req.method, &req.path);
            c.api.handle(&req, &info, &apiserver_id, 0, &mut c.rng);
        };
        for (path, body) in bootstrap {
            post(&mut c, path, body);
        }
        // the RBAC policy (the `rbac/bootstrap-roles` hook, then kubeadm's and minikube's bindings)
        c.api.ensure_bootstrap_policy(&mut c.rng);
        // the distribution's kube-system ServiceAccounts (kube-proxy's DaemonSet, minikube's storage-provisioner)
        for n in crate::apiserver::authorizer::bootstrappolicy::SYSTEM_SERVICE_ACCOUNTS {
            post(&mut c, "/api/v1/namespaces/kube-system/serviceaccounts", json!({"apiVersion": "v1", "kind": "ServiceAccount", "metadata": {"name": n}}));
        }
        c.api.clear_audit();
        c
    }

    pub fn add_component<C: Component>(&mut self, comp: C) -> usize {
        let actor = Component::actor(&comp);
        let limiters = Limiters::for_actor(&actor);
        let slot = Slot { actor, identity: comp.identity(), informer_identity: None, component: Some(Box::new(comp)), gate: None, started: true, limiters };
        // a component removed earlier (`sim addon remove`) comes back in its old slot
        let idx = match self.components.iter().position(|s| s.actor == slot.actor && s.component.is_none() && s.gate.is_none()) {
            Some(i) => {
                self.components[i] = slot;
                i
            }
            None => {
                self.components.push(slot);
                self.components.len() - 1
            }
        };
        self.with_component(idx, None, |comp, ctx| comp.start_erased(ctx));
        idx
    }

    /// A process whose `members` start only once its `leader` (a leader elector) wins its Lease:
    /// kube-controller-manager runs its controllers in `OnStartedLeading`. The members are added
    /// first (not started), then the leader, which starts at once. Returns the leader's slot.
    pub fn add_process<C: Component>(&mut self, leader: C, members: Vec<Box<dyn Hosted>>) -> usize {
        let leader_idx = self.components.len() + members.len();
        let mut shared = Component::identity(&leader);
        shared.user_agent = format!("{}/shared-informers", shared.user_agent.rsplit_once('/').map(|(a, _)| a).unwrap_or(&shared.user_agent));
        for m in members {
            let actor = m.actor();
            let limiters = Limiters::for_actor(&actor);
            self.components.push(Slot { actor, identity: m.identity(), informer_identity: Some(shared.clone()), component: Some(m), gate: Some(leader_idx), started: false, limiters });
        }
        self.add_component(leader)
    }

    /// Runs `f` on component `idx` with a context, then what its handler asked of its process.
    fn with_component(&mut self, idx: usize, cause: Option<MsgId>, f: impl FnOnce(&mut dyn Hosted, &mut Ctx<AnyTimer>)) {
        self.with_component_only(idx, cause, f);
        self.run_signals();
    }

    fn with_component_only(&mut self, idx: usize, cause: Option<MsgId>, f: impl FnOnce(&mut dyn Hosted, &mut Ctx<AnyTimer>)) {
        if idx >= self.components.len() {
            return;
        }
        let (before, rest) = self.components.split_at_mut(idx);
        let Some((slot, after)) = rest.split_first_mut() else { return };
        let Some(mut comp) = slot.component.take() else { return };
        let mut ctx = Ctx {
            now: self.now,
            rng: &mut self.rng,
            api: &mut self.api,
            trace: &mut self.trace,
            queue: &mut self.queue,
            timing: &self.config.timing,
            me: idx,
            actor: &slot.actor,
            identity: &slot.identity,
            informer_identity: slot.informer_identity.as_ref().unwrap_or(&slot.identity),
            cause,
            foreground: &mut self.foreground,
            informers: &mut self.informers,
            signals: &mut self.signals,
            limiters: &mut slot.limiters,
            cut_off: !self.partitioned.is_empty() && slot.actor.node().map(|n| self.partitioned.contains_key(n)).unwrap_or(false),
            peers: Peers { before, after, loads: &self.loads },
            _timer: PhantomData,
        };
        f(comp.as_mut(), &mut ctx);
        let now = ctx.now;
        self.now = self.now.max(now);
        self.components[idx].component = Some(comp);
    }

    /// Carries out the handlers' [`Signal`]s, in order (a started member may signal in turn).
    fn run_signals(&mut self) {
        while !self.signals.is_empty() {
            match self.signals.remove(0) {
                Signal::StartedLeading(leader, cause) => {
                    let members: Vec<usize> = (0..self.components.len()).filter(|&i| self.components[i].gate == Some(leader) && !self.components[i].started).collect();
                    for m in members {
                        self.components[m].started = true;
                        self.with_component_only(m, cause, |comp, ctx| comp.start_erased(ctx));
                    }
                }
                Signal::Exit(who, cause) => {
                    let actor = self.components[who].actor.clone();
                    let what = |lost: usize| format!("{} lost its Lease (leaderelection lost) and exited, {} queued inputs lost; kubelet starts its static Pod's container again", actor, lost);
                    // both electing processes restart (kube-controller-manager, kube-scheduler)
                    let _ = self.restart_slot(who, FaultKind::LeaseLost, what, cause);
                }
            }
        }
    }

    /// A fault: the component crashes and a fresh process starts (`sim fault restart NAME`).
    /// Its watches close, its timers and the watch events in flight to it are lost (its work
    /// queue starts empty), and the new process lists and watches again from its `start`, as
    /// informers do after a restart. The trace records the crash as a Fault message.
    /// `sim fault api-error`: kube-apiserver answers the next matching requests with an error.
    pub fn inject_api_fault(&mut self, f: crate::apiserver::fault::ApiFault) {
        self.api.inject_fault(f);
    }

    /// Stops a component for good (an addon removed): its watches close, its informers, timers
    /// and the inputs queued for it are dropped. Its slot stays (indices are stable) and
    /// `add_component` reuses it.
    pub fn remove_component(&mut self, actor: &Actor) -> bool {
        let Some(idx) = self.components.iter().position(|s| &s.actor == actor && s.component.is_some()) else {
            return false;
        };
        self.api.remove_watchers(idx);
        self.informers.forget(idx);
        let drained = self.queue.drain_where(|d| d.to == idx);
        self.foreground = self.foreground.saturating_sub(drained.iter().filter(|d| !d.background).count());
        self.components[idx].component = None;
        true
    }

    pub fn restart_component(&mut self, actor: &Actor) -> Result<(), String> {
        let Some(idx) = self.components.iter().position(|s| &s.actor == actor) else {
            return Err(format!("no component named \"{}\"", actor));
        };
        let members = self.components.iter().filter(|s| s.gate == Some(idx)).count();
        if let Actor::Kubelet(node) = actor {
            if self.partitioned.contains_key(node) {
                return Err(format!("node {} is cut off from the control plane: heal it first (sim node heal {})", node, node));
            }
            let what = |lost: usize| format!("{} restarted: its watches closed, {} watch event(s) in flight lost; containerd keeps the containers running and the new kubelet finds them", actor, lost);
            return self.restart_slot(idx, FaultKind::KubeletRestart, what, None);
        }
        let what = |lost: usize| {
            if members > 0 {
                format!("{} crashed and restarted with its {} controllers: their watches closed, {} queued inputs lost; the new process must win the Lease before its controllers list and watch again", actor, members, lost)
            } else {
                format!("{} crashed and restarted: its watches closed, {} queued inputs lost; the new process lists and watches again", actor, lost)
            }
        };
        let kind = if members > 0 { FaultKind::CrashProcess } else { FaultKind::Crash };
        self.restart_slot(idx, kind, what, None)
    }

    /// Replaces the process in slot `idx` (and the components it gates) with fresh ones: watches
    /// closed, informers forgotten, queued inputs lost. Records the Fault, then starts the new
    /// process (gated members wait for its leadership; an ungated member whose leader leads
    /// starts at once).
    /// Err (and nothing changed) when kubesim does not restart that component.
    fn restart_slot(&mut self, idx: usize, kind: FaultKind, what: impl FnOnce(usize) -> String, cause: Option<MsgId>) -> Result<(), String> {
        let mut slots: Vec<usize> = vec![idx];
        slots.extend((0..self.components.len()).filter(|&i| self.components[i].gate == Some(idx)));
        let mut fresh: Vec<(usize, Box<dyn Hosted>, bool)> = Vec::new();
        for &i in &slots {
            if let Some(c) = self.components[i].component.as_ref() {
                if let Some(f) = c.restarted_erased() {
                    fresh.push((i, f, c.restart_keeps_timers()));
                }
            }
        }
        if fresh.first().map(|f| f.0) != Some(idx) {
            return Err(format!("kubesim does not restart {}", self.components[idx].actor));
        }
        let mut lost = 0;
        for (i, _, keeps_timers) in &fresh {
            self.api.remove_watchers(*i);
            self.informers.forget(*i);
            let drained = self.queue.drain_where(|d| d.to == *i && !(*keeps_timers && matches!(d.input, Input::Timer(_))));
            self.foreground = self.foreground.saturating_sub(drained.iter().filter(|d| !d.background).count());
            lost += drained.len();
        }
        let what = what(lost);
        let actor = self.components[idx].actor.clone();
        let id = self.trace.push(self.now, actor.clone(), actor, MessageKind::Fault { kind, what, lost }, cause);
        for (i, f, _) in fresh {
            self.components[i].component = Some(f);
            self.components[i].limiters = Limiters::for_actor(&self.components[i].actor);
            // the process's members wait for its new leadership
            if i != idx {
                self.components[i].started = false;
            }
        }
        // a gated member restarted alone starts only if its process leads (it was started)
        if self.components[idx].started {
            self.with_component(idx, Some(id), |comp, ctx| comp.start_erased(ctx));
        }
        Ok(())
    }

    /// The read-only view shells use.
    /// kubectl's discovery cache: a custom resource by a name kubectl accepts, from what the
    /// API server's discovery lists now, else from what kubectl cached earlier.
    pub fn kubectl_discover(&self, name: &str) -> Option<&'static crate::api::meta::ResourceInfo> {
        if let Some(info) = self.api.crds().lookup(name) {
            let mut cache = self.kubectl_discovery.borrow_mut();
            if !cache.iter().any(|i| std::ptr::eq(*i, info)) {
                cache.push(info);
            }
            return Some(info);
        }
        self.kubectl_discovery.borrow().iter().copied().find(|i| i.answers_to(name))
    }

    pub fn view(&self) -> ClusterView<'_> {
        ClusterView::new(self)
    }

    /// Virtual time, in milliseconds since the simulation started.
    pub fn now(&self) -> i64 {
        self.now
    }

    pub fn components(&self) -> impl Iterator<Item = &dyn Hosted> {
        self.components.iter().filter_map(|c| c.component.as_deref())
    }

    /// `kubectl cp` into a container: kube-apiserver has authorized the `pods/exec` upgrade, and
    /// the kubelet of `node` runs `tar xf -` there.
    pub fn copy_into_container(&mut self, node: &str, namespace: &str, pod: &str, container: Option<&str>, path: &str, content: &str) -> Result<(), String> {
        let kubelet = Actor::Kubelet(node.to_string());
        match self.component_mut(&kubelet) {
            Some(k) => k.copy_into_container(namespace, pod, container, path, content).unwrap_or_else(|| Err(format!("no kubelet on node \"{}\"", node))),
            None => Err(format!("no kubelet on node \"{}\"", node)),
        }
    }

    pub fn component_mut(&mut self, actor: &Actor) -> Option<&mut (dyn Hosted + 'static)> {
        self.components.iter_mut().find(|c| &c.actor == actor).and_then(|c| c.component.as_deref_mut())
    }

    /// A request from outside the simulated components (kubectl). Advances the clock by one round trip.
    /// kubectl's `--as USER [--as-group G]…` for the requests that follow (None: none).
    pub fn set_client_impersonation(&mut self, imp: Option<crate::api::request::Impersonation>) {
        self.client_impersonation = imp;
    }

    /// The API server's `apiserver_request_total` series (for `kubesim serve`'s `/metrics`).
    #[cfg(not(target_arch = "wasm32"))]
    pub fn api_request_counts(&self) -> &std::collections::BTreeMap<crate::apiserver::RequestKey, u64> {
        self.api.request_counts()
    }

    /// kubectl's `--dry-run=server` for the requests that follow: every write gets `dryRun=All`.
    /// `sim load`: `rps` requests a second at a Service from now on (0 stops it).
    pub fn set_load(&mut self, namespace: &str, service: &str, rps: f64) {
        self.loads.retain(|l| !(l.namespace == namespace && l.service == service));
        if rps > 0.0 {
            self.loads.push(Load { namespace: namespace.to_string(), service: service.to_string(), rps });
        }
    }

    /// The traffic `sim load` sends.
    pub fn loads(&self) -> &[Load] {
        &self.loads
    }

    pub fn set_client_dry_run(&mut self, on: bool) {
        self.client_dry_run = on;
    }

    pub fn client_request(&mut self, identity: &Identity, mut req: Request) -> Response {
        if self.client_dry_run && req.method != Method::Get && !req.path.contains("dryRun=") {
            let sep = if req.path.contains('?') { '&' } else { '?' };
            req.path = format!("{}{}dryRun=All", req.path, sep);
        }
        let with_headers;
        let identity = match (&self.client_impersonation, &identity.impersonate) {
            (Some(imp), None) => {
                with_headers = Identity { impersonate: Some(Box::new(imp.clone())), ..identity.clone() };
                &with_headers
            }
            _ => identity,
        };
        let mut now = self.now;
        let (mut resp, id, proxy) = send(&mut self.api, &mut self.trace, &mut self.queue, &self.config.timing, &mut self.rng, &mut now, &Actor::Kubectl, identity, req, None, &mut self.foreground);
        self.now = now;
        match proxy {
            Some(crate::apiserver::Proxy::Logs(p)) => resp = self.proxy_logs(&p, id),
            Some(crate::apiserver::Proxy::Aggregated(p)) => resp = proxy_aggregated(self.components.iter(), &mut self.trace, &p, self.now - self.config.timing.api_rtt_ms / 2, id),
            #[cfg(not(target_arch = "wasm32"))]
            Some(crate::apiserver::Proxy::Http(p)) => resp = self.proxy_http(&p, id),
            None => {}
        }
        resp
    }

    /// kube-apiserver proxies `pods/log` to the kubelet of the pod's node (HTTPS to port 10250):
    /// the kubelet answers with the container's log, or a 400 saying why it has none.
    fn proxy_logs(&mut self, p: &crate::apiserver::LogProxy, cause: MsgId) -> Response {
        let kubelet = Actor::Kubelet(p.node.clone());
        let at = self.now - self.config.timing.api_rtt_ms / 2;
        let (uri, info) = self.api.request_info(Method::Get, &p.kubelet_path());
        let req_id = self.trace.push(at, Actor::ApiServer, kubelet.clone(), MessageKind::Request { method: Method::Get, uri, info }, Some(cause));
        if self.partitioned.contains_key(&p.node) {
            // kube-apiserver cannot reach the kubelet's port either
            let ip = self.components.iter().find(|c| c.actor == kubelet).map(|c| c.identity.source_ip.clone()).unwrap_or_default();
            let msg = format!("Get \"https://{}:10250/containerLogs/{}/{}/{}\": dial tcp {}:10250: i/o timeout", ip, p.namespace, p.pod, p.container, ip);
            self.trace.push(at, Actor::ApiServer, Actor::ApiServer, MessageKind::Fault { kind: FaultKind::Unreachable, what: msg.clone(), lost: 0 }, Some(req_id));
            // not a metav1.Status error: ErrorToAPIStatus makes it a 500 with no reason
            return Response { code: 500, body: json!({"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure", "message": msg, "code": 500}) };
        }
        let answer = self
            .components
            .iter()
            .find(|c| c.actor == kubelet)
            .and_then(|c| c.component.as_ref())
            .and_then(|c| c.container_logs(&p.namespace, &p.pod, &p.container, p.previous, self.now))
            .unwrap_or_else(|| Err(format!("Get \"https://{}:10250/containerLogs/{}/{}/{}\": dial tcp: lookup {}: no such host", p.node, p.namespace, p.pod, p.container, p.node)));
        let code = if answer.is_ok() { 200 } else { 400 };
        self.trace.push(at, kubelet, Actor::ApiServer, MessageKind::Response { code, reason: if code == 200 { String::new() } else { "BadRequest".into() }, authz: None }, Some(req_id));
        match answer {
            Ok(text) => Response { code: 200, body: Value::String(text) },
            Err(msg) => Response { code: 400, body: json!({"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure", "message": msg, "reason": "BadRequest", "code": 400}) },
        }
    }

    /// kubectl's watch (`rollout status`): `req` is the WATCH request (`...&watch=true`), sent
    /// like any request; from then on the changes that match arrive in the trace as watch events
    /// to kubectl and are read with [`Cluster::take_client_events`]. One client watch at a time.
    pub fn client_watch(&mut self, identity: &Identity, req: Request, info: &'static meta::ResourceInfo, namespace: &str, field_selector: &str) -> Response {
        let resp = self.client_request(identity, req);
        if resp.ok() {
            self.api.remove_watchers(CLIENT_SUBSCRIBER);
            self.api.add_watcher(Watcher {
                subscriber: CLIENT_SUBSCRIBER,
                resource: info.resource,
                namespace: namespace.to_string(),
                label_selector: Vec::new(),
                field_selector: crate::apiserver::parse_field_selector(field_selector),
            });
            self.client_watch_open = true;
            self.client_events.clear();
        }
        resp
    }

    /// The watch events kubectl's watch received since the last call.
    pub fn take_client_events(&mut self) -> Vec<(EventType, Rc<Value>)> {
        std::mem::take(&mut self.client_events)
    }

    /// kubectl closes its watch: events still on their way are dropped.
    pub fn close_client_watch(&mut self) {
        self.api.remove_watchers(CLIENT_SUBSCRIBER);
        self.client_watch_open = false;
        self.client_events.clear();
    }

    /// Delivers the next queued input. Returns false when the queue is empty.
    pub fn step(&mut self) -> bool {
        let Some((t, d)) = self.queue.pop() else { return false };
        if !d.background {
            self.foreground = self.foreground.saturating_sub(1);
            if self.busy.is_some() {
                self.count_busy(&d);
            }
        }
        self.now = self.now.max(t);
        if d.to == CLIENT_SUBSCRIBER {
            if let (true, Input::Watch { resource, event_type, object }) = (self.client_watch_open, d.input) {
                let kind = MessageKind::watch(&mut self.trace.strings, event_type, resource.info().kind, &object);
                self.trace.push(self.now, Actor::ApiServer, Actor::Kubectl, kind, d.cause);
                self.client_events.push((event_type, object));
            }
            return true;
        }
        if d.to == COMPACTOR {
            if let Input::Timer(t) = d.input {
                if let Ok(tick) = t.downcast::<CompactorTick>() {
                    self.compactor_tick(tick.previous);
                }
            }
            return true;
        }
        if d.to == LEASE_EXPIRY {
            if let Input::Timer(t) = d.input {
                if let Ok(lease) = t.downcast::<LeaseExpiry>() {
                    self.expire_lease(&lease, d.cause);
                }
            }
            return true;
        }
        let actor = match self.components.get(d.to) {
            Some(c) if c.component.is_some() => c.actor.clone(),
            _ => return true,
        };
        if let Input::Watch { resource, event_type, object } = &d.input {
            self.informers.delivered(d.to, resource.info().resource, *event_type, object);
        }
        let cause = match &d.input {
            Input::Watch { resource, event_type, object } => {
                let kind = MessageKind::watch(&mut self.trace.strings, *event_type, resource.info().kind, object);
                Some(self.trace.push(self.now, Actor::ApiServer, actor, kind, d.cause))
            }
            Input::Timer(_) => match d.visible {
                Some(what) => Some(self.trace.push(self.now, actor.clone(), actor, MessageKind::Timer { what }, d.cause)),
                None => d.cause,
            },
        };
        let input = d.input;
        self.with_component(d.to, cause, |comp, ctx| comp.handle_erased(ctx, input));
        true
    }

    /// etcd deletes a key whose lease ran out (in the trace: etcd's DELETE, sent to the API
    /// server's watch on etcd) and the watch cache tells the watchers, in the background.
    fn expire_lease(&mut self, lease: &LeaseExpiry, cause: Option<MsgId>) {
        let Some((change, deliveries)) = self.api.expire_lease(&lease.key, lease.revision) else { return };
        let id = self.trace.push(self.now, Actor::Etcd, Actor::ApiServer, MessageKind::EtcdTxn { op: change.op, key: change.key, revision: change.revision }, cause);
        for (sub, d) in deliveries {
            let input = Input::Watch { resource: d.resource.id, event_type: d.event_type, object: d.object };
            self.queue.push(self.now + self.config.timing.watch_delay_ms, Delivery { to: sub, input, cause: Some(id), background: true, visible: None });
        }
    }

    /// One tick of kube-apiserver's compactor (`storage/etcd3/compact.go`): compact to the
    /// revision of the tick before, remember this one, come back in an interval.
    fn compactor_tick(&mut self, previous: i64) {
        if previous > 0 {
            self.api.compact_etcd(previous);
        }
        let interval = self.config.etcd_compaction_interval_ms;
        if interval > 0 {
            let tick = CompactorTick { previous: self.api.etcd().revision() };
            self.queue.push(self.now + interval, Delivery { to: COMPACTOR, input: Input::Timer(Box::new(tick)), cause: None, background: true, visible: None });
        }
    }

    /// Foreground work is pending: `settle` would go on.
    pub fn has_foreground_work(&self) -> bool {
        self.foreground > 0
    }

    /// Runs until no foreground work is pending (only heartbeats remain), or the step bound is hit.
    pub fn run_until_settled(&mut self) -> Settle {
        self.run_steps_reporting(self.config.max_steps_per_settle)
    }

    /// Like [`Cluster::run_until_settled`] but delivers at most `max` inputs: a shell that must
    /// stay responsive (the page) settles in slices. `settled` is false while work remains.
    pub fn run_steps(&mut self, max: u64) -> Settle {
        self.run_steps_inner(max, false)
    }

    /// [`Cluster::run_steps`] for a call that ends at a settle's bound: if it reaches `max`, its
    /// `busy` says what kept the cluster busy over its last [`BUSY_WINDOW`] deliveries, or over
    /// its last half when that is shorter. Counting costs a label per delivery, so only those last
    /// deliveries are counted, and only in such a call.
    pub fn run_steps_reporting(&mut self, max: u64) -> Settle {
        self.run_steps_inner(max, true)
    }

    fn run_steps_inner(&mut self, max: u64, report: bool) -> Settle {
        let mut steps = 0;
        self.busy = None;
        let window = BUSY_WINDOW.min(max / 2).max(1);
        while self.foreground > 0 {
            if steps >= max {
                let busy = self.take_busy();
                return Settle { steps, settled: false, time_ms: self.now, busy };
            }
            if report && self.busy.is_none() && steps + window >= max {
                self.busy = Some(Default::default());
            }
            if !self.step() {
                break;
            }
            steps += 1;
        }
        self.busy = None;
        Settle { steps, settled: true, time_ms: self.now, busy: Vec::new() }
    }

    /// Counts one foreground delivery for the busy report.
    fn count_busy(&mut self, d: &Delivery) {
        let what = match &d.input {
            Input::Watch { resource, event_type, .. } => format!("watch {} {}", event_type.as_str(), resource.info().kind),
            Input::Timer(t) => match self.components.get(d.to).and_then(|s| s.component.as_ref()) {
                Some(c) => c.timer_label(t.as_ref()),
                None => return,
            },
        };
        if let Some(b) = self.busy.as_mut() {
            match b.iter().position(|(to, w, _)| *to == d.to && *w == what) {
                Some(i) => b[i].2 += 1,
                // a bound on distinct entries: a loop repeats itself, so the first ones name it
                None if b.len() < BUSY_DISTINCT => b.push((d.to, what, 1)),
                None => {}
            }
        }
    }

    /// The busy report counted since the window opened: the most frequent first.
    fn take_busy(&mut self) -> Vec<Busy> {
        let Some(tally) = self.busy.take() else { return Vec::new() };
        let mut all: Vec<Busy> = tally
            .into_iter()
            .map(|(to, what, count)| Busy { component: self.components.get(to).map(|s| s.actor.name()).unwrap_or_else(|| "kubectl".into()), what, count })
            .collect();
        all.csort_by(|a, b| b.count.cmp(&a.count));
        all.truncate(BUSY_TOP);
        all
    }

    /// Advances virtual time by `ms`, processing everything due, background work included.
    pub fn advance(&mut self, ms: i64) -> Settle {
        let until = self.now + ms.max(0);
        let mut steps = 0;
        while let Some(t) = self.queue.peek_time() {
            if t > until {
                break;
            }
            if steps >= self.config.max_steps_per_settle {
                return Settle { steps, settled: false, time_ms: self.now, busy: Vec::new() };
            }
            self.step();
            steps += 1;
        }
        self.now = self.now.max(until);
        Settle { steps, settled: true, time_ms: self.now, busy: Vec::new() }
    }

    /// Compacts etcd's history up to revision `rev` (clamped to the current one); returns the
    /// compact revision. For `kubesim serve`'s dev endpoint `POST /kubesim/v1/compact`: clients
    /// watching from an older resourceVersion then get `410 Expired` and relist.
    pub fn compact_etcd(&mut self, rev: i64) -> i64 {
        self.api.compact_etcd(rev)
    }

    /// The bound on deliveries of one settle.
    pub fn config(&self) -> &ClusterConfig {
        &self.config
    }

    pub fn max_steps_per_settle(&self) -> u64 {
        self.config.max_steps_per_settle
    }

    pub fn pending(&self) -> usize {
        self.queue.len()
    }

    pub fn trace(&self) -> &Trace {
        &self.trace
    }

    /// Five characters of `utilrand.String` from kubectl's own random source.
    pub fn kubectl_random_suffix(&mut self) -> String {
        crate::api::names::random_string(&mut self.kubectl_rng, 5)
    }

    /// kubectl's kubeconfig.
    pub fn kubeconfig(&self) -> &crate::client::kubeconfig::Config {
        &self.kubeconfig
    }

    /// kubectl's kubeconfig, to change (`kubectl config set-context|use-context|…`).
    pub fn kubeconfig_mut(&mut self) -> &mut crate::client::kubeconfig::Config {
        &mut self.kubeconfig
    }

    /// The console's machine: its files and background jobs.
    pub fn workstation(&self) -> &crate::client::workstation::Workstation {
        &self.workstation
    }

    /// The console's machine, to change (`cat > FILE`, `kubectl port-forward`, `kill %1`).
    pub fn workstation_mut(&mut self) -> &mut crate::client::workstation::Workstation {
        &mut self.workstation
    }

    /// Lets the trace drop its messages up to id `last` (still counted): a shell that keeps them
    /// itself (the page's timeline) needs no second copy.
    pub fn forget_trace_through(&mut self, last: MsgId) {
        self.trace.forget_through(last);
    }
}

/// The address kube-apiserver advertises (`--advertise-address`), which the `kubernetes`
/// Service's endpoints hold.
pub const APISERVER_ADDRESS: &str = "192.168.49.2";
/// kube-apiserver's secure port.
pub const APISERVER_PORT: i64 = 6443;

/// The objects kube-apiserver's bootstrap controllers create in `default`: the `kubernetes`
/// Service at the first address of the service range (`pkg/controlplane/controller/kubernetesservice`)
/// and its Endpoints and EndpointSlice (the lease endpoint reconciler,
/// `pkg/controlplane/reconcilers`), as (collection path, object).
fn kubernetes_service_objects() -> Vec<(&'static str, Value)> {
    let port = json!([{"name": "https", "port": APISERVER_PORT, "protocol": "TCP"}]);
    vec![
        (
            "/api/v1/namespaces/default/services",
            json!({
                "apiVersion": "v1", "kind": "Service",
                "metadata": {"name": "kubernetes", "namespace": "default", "labels": {"component": "apiserver", "provider": "kubernetes"}},
                "spec": {"clusterIP": crate::apiserver::KUBERNETES_SERVICE_IP, "ports": [{"name": "https", "port": 443, "protocol": "TCP", "targetPort": APISERVER_PORT}], "sessionAffinity": "None", "type": "ClusterIP"},
            }),
        ),
        (
            "/api/v1/namespaces/default/endpoints",
            json!({
                "apiVersion": "v1", "kind": "Endpoints",
                "metadata": {"name": "kubernetes", "namespace": "default", "labels": {"endpointslice.kubernetes.io/skip-mirror": "true"}},
                "subsets": [{"addresses": [{"ip": APISERVER_ADDRESS}], "ports": port}],
            }),
        ),
        (
            "/apis/discovery.k8s.io/v1/namespaces/default/endpointslices",
            json!({
                "apiVersion": "discovery.k8s.io/v1", "kind": "EndpointSlice",
                "metadata": {"name": "kubernetes", "namespace": "default", "labels": {"kubernetes.io/service-name": "kubernetes"}},
                "addressType": "IPv4",
                "endpoints": [{"addresses": [APISERVER_ADDRESS], "conditions": {"ready": true}}],
                "ports": port,
            }),
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A component whose timer re-arms itself forever: foreground (a bug: a re-check marked as
    /// work in progress) or background (a periodic retry, as it should be).
    struct Looper {
        foreground: bool,
    }

    #[derive(Debug)]
    struct Tick(u32);

    impl fmt::Display for Tick {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            write!(f, "requeue:default/web-{}", self.0)
        }
    }

    impl Component for Looper {
        type Timer = Tick;
        fn actor(&self) -> Actor {
            Actor::StatefulSetController
        }
        fn identity(&self) -> Identity {
            crate::controllers::deployment::controller_identity("statefulset-controller", "statefulset-controller")
        }
        fn start(&mut self, ctx: &mut Ctx<Tick>) {
            ctx.after(10_000, Tick(0), false);
        }
        fn handle(&mut self, ctx: &mut Ctx<Tick>, input: Input<Tick>) {
            if let Input::Timer(Tick(n)) = input {
                if self.foreground {
                    ctx.after(10_000, Tick(n % 2), false);
                } else {
                    ctx.after_background(10_000, Tick(n % 2));
                }
            }
        }
    }

    #[test]
    fn a_settle_at_its_bound_names_what_kept_the_cluster_busy() {
        let config = ClusterConfig { max_steps_per_settle: 20_000, ..ClusterConfig::default() };
        let mut c = Cluster::bare(1, config);
        c.add_component(Looper { foreground: true });
        let s = c.run_until_settled();
        assert!(!s.settled);
        assert_eq!(s.steps, 20_000);
        assert_eq!(
            s.busy,
            vec![Busy { component: "statefulset-controller".into(), what: "requeue:default/web-0".into(), count: BUSY_WINDOW }]
        );
        assert_eq!(Busy::describe(&s.busy), format!("statefulset-controller: requeue:default/web-0 ×{}", BUSY_WINDOW));
        // the page's slices: the last stretch before the bound reports its last window whole;
        // a slice that does not end at the bound counts nothing
        let t = c.run_steps_reporting(2 * BUSY_WINDOW);
        assert!(!t.settled && t.busy[0].count == BUSY_WINDOW);
        let u = c.run_steps(2 * BUSY_WINDOW);
        assert!(!u.settled && u.busy.is_empty());
        // a short bound (the fault run's, for a small workload) reports its last half
        let v = c.run_steps_reporting(3_000);
        assert_eq!(v.busy[0].count, 1_500);
    }

    #[test]
    fn a_periodic_retry_is_background_and_the_settle_ends() {
        let mut c = Cluster::bare(1, ClusterConfig::default());
        c.add_component(Looper { foreground: false });
        // the first timer is foreground (set at start), the retries it arms are not
        let s = c.run_until_settled();
        assert!(s.settled && s.steps == 1 && s.busy.is_empty(), "{:?}", s);
        let a = c.advance(60_000);
        assert_eq!(a.steps, 6);
        assert_eq!(c.run_until_settled().steps, 0);
    }
}
