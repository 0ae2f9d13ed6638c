//! client-go, the parts every component uses: informer caches, work queues and event recorders.
//!
//! Real counterparts: `staging/src/k8s.io/client-go/tools/cache` (Reflector, Indexer/informer
//! store), `util/workqueue` (deduplicating queue), `tools/record` (core/v1 EventRecorder with the
//! events cache that aggregates repeats) and `tools/events` (the events.k8s.io/v1 recorder the
//! scheduler uses).
//!
//! What kubesim simplifies: informers keep one `BTreeMap` store and no indexers (a controller
//! that needs an index keeps its own, e.g. `expectations::OwnerIndex` or the ReplicaSet
//! controller's Pod facts); the work queue's rate
//! limiter is the per-item exponential back-off only (its overall 10 qps bucket is not
//! modelled); the spam filter is not simulated. Each client's token bucket is [`flowcontrol`].

pub mod flowcontrol;
pub mod kubeconfig;
pub mod leaderelection;
pub mod workstation;

use crate::api::request::EventType;
use crate::api::{meta, time};
use crate::api::request::Method;
use crate::cluster::Ctx;
use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::fmt;
use std::rc::Rc;

/// An informer's store: `namespace/name` → latest object seen through list + watch.
///
/// Objects are shared (`Rc`) with the watch event that delivered them and with the other
/// informers that got the same event, the way client-go's informers share pointers to one decoded
/// object: objects in a store are read-only, a component that wants to change one clones it first.
#[derive(Clone, Debug, Default)]
pub struct Store {
    pub items: BTreeMap<String, Rc<Value>>,
}

impl Store {
    pub fn replace(&mut self, items: Vec<Value>) {
        self.items = items.into_iter().map(|o| (meta::key(&o), Rc::new(o))).collect();
    }
    /// Applies a watch event (or a write's response); returns the previous version.
    pub fn apply(&mut self, event_type: EventType, obj: &Value) -> Option<Rc<Value>> {
        self.apply_shared(event_type, Rc::new(obj.clone()))
    }
    /// Like [`Store::apply`] without copying the object.
    pub fn apply_shared(&mut self, event_type: EventType, obj: Rc<Value>) -> Option<Rc<Value>> {
        let k = meta::key(&obj);
        if event_type == EventType::Deleted {
            self.items.remove(&k)
        } else {
            self.items.insert(k, obj)
        }
    }
    /// The shared object itself (cloning it is cheap).
    pub fn get_shared(&self, key: &str) -> Option<&Rc<Value>> {
        self.items.get(key)
    }
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.items.get(key).map(|v| &**v)
    }
    pub fn in_namespace<'a>(&'a self, ns: &'a str) -> impl Iterator<Item = &'a Value> + 'a {
        self.in_namespace_shared(ns).map(|v| &**v)
    }
    /// Like [`Store::in_namespace`], the shared objects (cloning one is cheap).
    pub fn in_namespace_shared<'a>(&'a self, ns: &'a str) -> impl Iterator<Item = &'a Rc<Value>> + 'a {
        let prefix = format!("{}/", ns);
        self.items.range(prefix.clone()..).take_while(move |(k, _)| k.starts_with(&prefix)).map(|(_, v)| v)
    }
    pub fn values(&self) -> impl Iterator<Item = &Value> {
        self.items.values().map(|v| &**v)
    }
    pub fn len(&self) -> usize {
        self.items.len()
    }
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }
}

/// `workqueue`: FIFO of keys, each key at most once in the queue.
#[derive(Clone, Debug, Default)]
pub struct WorkQueue {
    queue: VecDeque<String>,
    set: BTreeSet<String>,
    /// Whether a worker wake-up timer is pending.
    armed: bool,
    /// Failed syncs per key since its last success (the rate limiter's `NumRequeues`).
    failures: BTreeMap<String, u32>,
}

/// `workqueue.DefaultTypedControllerRateLimiter`'s per-item exponential back-off: 5 ms doubling
/// per failure, at most 1000 s (its overall 10 qps bucket is not modelled).
pub const BACKOFF_BASE_MS: i64 = 5;
pub const BACKOFF_MAX_MS: i64 = 1_000_000;
/// Retries this early keep `sim settle` going (5 ms … 640 ms); later ones wait in the
/// background, so that a lasting failure (a quota) does not hold a settle forever.
pub const BACKOFF_FOREGROUND_RETRIES: u32 = 8;

impl WorkQueue {
    pub fn add(&mut self, key: &str) -> bool {
        if self.set.insert(key.to_string()) {
            self.queue.push_back(key.to_string());
            true
        } else {
            false
        }
    }
    pub fn pop(&mut self) -> Option<String> {
        let k = self.queue.pop_front()?;
        self.set.remove(&k);
        Some(k)
    }
    pub fn len(&self) -> usize {
        self.queue.len()
    }
    pub fn is_empty(&self) -> bool {
        self.queue.is_empty()
    }
    /// `AddRateLimited`'s delay for a key whose sync failed: 5 ms, 10 ms, 20 ms… per failure,
    /// and whether the retry is early enough to keep a settle going.
    pub fn backoff(&mut self, key: &str) -> (i64, bool) {
        let n = self.failures.entry(key.to_string()).or_insert(0);
        *n += 1;
        let delay = (BACKOFF_BASE_MS << (*n - 1).min(40)).min(BACKOFF_MAX_MS);
        (delay, *n <= BACKOFF_FOREGROUND_RETRIES)
    }

    /// `Forget`: the key synced; its back-off starts over.
    pub fn forget(&mut self, key: &str) {
        self.failures.remove(key);
    }

    /// Adds a key and, unless a worker wake-up is pending, schedules one (`wake`, the
    /// component's own timer for it) a work-queue delay from now.
    pub fn enqueue<T: fmt::Display + 'static>(&mut self, ctx: &mut Ctx<T>, key: &str, wake: T) {
        self.add(key);
        self.arm(ctx, wake);
    }

    /// A worker wakes up (`processNextWorkItem`): takes the next key to sync. Call
    /// [`WorkQueue::done`] after the sync.
    pub fn start_work(&mut self) -> Option<String> {
        self.armed = false;
        self.pop()
    }

    /// After a sync: while keys remain, the worker wakes up again a work-queue delay later.
    pub fn done<T: fmt::Display + 'static>(&mut self, ctx: &mut Ctx<T>, wake: T) {
        if !self.is_empty() {
            self.arm(ctx, wake);
        }
    }

    fn arm<T: fmt::Display + 'static>(&mut self, ctx: &mut Ctx<T>, wake: T) {
        if !self.armed {
            self.armed = true;
            let d = ctx.timing().workqueue_delay_ms;
            ctx.after(d, wake, false);
        }
    }
}

/// Who records events (the `source` of core/v1 events).
#[derive(Clone, Debug, Default)]
pub struct Recorder {
    pub component: String,
    pub host: String,
    /// events cache: aggregation key → (event name, namespace, count)
    seen: BTreeMap<String, (String, String, i64)>,
    counter: u64,
    /// events.k8s.io/v1: the broadcaster's `eventCache` of isomorphic events and their series.
    series: BTreeMap<String, Isomorphic>,
    /// When the v1 broadcaster's tickers started, and how many finish ticks have been handled.
    ticks_from: Option<i64>,
    finish_ticks_done: i64,
}

/// One entry of the events.k8s.io/v1 broadcaster's cache: the Event it wrote and its series.
#[derive(Clone, Debug)]
struct Isomorphic {
    name: String,
    namespace: String,
    event_time: i64,
    /// `series.count` (0: a singleton, no series yet) and `series.lastObservedTime`.
    count: i64,
    last_observed: i64,
}

/// `tools/events`' `finishTime`: a series not observed for this long is finished, and a
/// singleton Event this old leaves the cache.
pub const EVENT_SERIES_FINISH_MS: i64 = 6 * 60 * 1000;
/// `tools/events`' `refreshTime`: how often every open series' count is written.
pub const EVENT_SERIES_REFRESH_MS: i64 = 30 * 60 * 1000;

/// `{kind, namespace, name, uid, apiVersion, resourceVersion}` of an object (`ref.GetReference`).
pub fn object_reference(obj: &Value, field_path: Option<&str>) -> Value {
    let mut r = json!({
        "kind": meta::kind(obj),
        "name": meta::name(obj),
        "uid": meta::uid(obj),
        "apiVersion": meta::get_str(obj, &["apiVersion"]),
        "resourceVersion": meta::resource_version(obj),
    });
    if !meta::namespace(obj).is_empty() {
        r["namespace"] = json!(meta::namespace(obj));
    }
    if let Some(fp) = field_path {
        r["fieldPath"] = json!(fp);
    }
    r
}

/// Bound on the recorder's aggregation cache (upstream: an LRU of 4096 entries).
pub const EVENT_CACHE_SIZE: usize = 4096;

impl Recorder {
    pub fn new(component: &str, host: &str) -> Recorder {
        Recorder { component: component.into(), host: host.into(), ..Default::default() }
    }

    /// `recorder.Eventf`: POST a new Event, or PATCH the count of an identical earlier one.
    pub fn event<T: fmt::Display + 'static>(&mut self, ctx: &mut Ctx<T>, involved: &Value, field_path: Option<&str>, type_: &str, reason: &str, message: &str) {
        let mut obj_ref = object_reference(involved, field_path);
        if obj_ref["apiVersion"].as_str().unwrap_or("").is_empty() {
            obj_ref["apiVersion"] = json!(api_version_of(meta::kind(involved)));
        }
        let ns = match meta::namespace(involved) {
            "" => "default".to_string(),
            n => n.to_string(),
        };
        let agg_key = format!(
            "{}|{}|{}|{}|{}|{}|{}|{}",
            self.component,
            self.host,
            meta::kind(involved),
            ns,
            meta::name(involved),
            field_path.unwrap_or(""),
            type_,
            reason
        ) + "|" + message;
        let ts = time::rfc3339(ctx.now);
        if let Some((name, ens, count)) = self.seen.get(&agg_key).cloned() {
            let patch = json!({"count": count + 1, "lastTimestamp": ts, "message": message});
            let resp = ctx.merge_patch(&format!("/api/v1/namespaces/{}/events/{}", ens, name), patch);
            if resp.ok() {
                self.seen.insert(agg_key, (name, ens, count + 1));
                return;
            }
        }
        // event name: involvedObject name + "." + hex unix nanoseconds
        self.counter += 1;
        let nanos = (time::EPOCH_MS + ctx.now) as u64 * 1_000_000 + self.counter % 1_000_000;
        let name = format!("{}.{:x}", meta::name(involved), nanos);
        let mut source = json!({"component": self.component});
        if !self.host.is_empty() {
            source["host"] = json!(self.host);
        }
        let ev = json!({
            "apiVersion": "v1",
            "kind": "Event",
            "metadata": {"name": name, "namespace": ns},
            "involvedObject": obj_ref,
            "reason": reason,
            "message": message,
            "source": source,
            "firstTimestamp": ts,
            "lastTimestamp": ts,
            "count": 1,
            "type": type_,
            "eventTime": null,
            "reportingComponent": self.component,
            "reportingInstance": self.host,
        });
        let resp = ctx.request(Method::Post, &format!("/api/v1/namespaces/{}/events", ns), Some(ev));
        if resp.ok() {
            if self.seen.len() >= EVENT_CACHE_SIZE {
                self.seen.clear();
            }
            self.seen.insert(agg_key, (name, ns, 1));
        }
    }

    /// The events.k8s.io/v1 recorder (`tools/events`), used by kube-scheduler: the first of
    /// isomorphic Events (same action, reason, controller, regarding object at the same
    /// resourceVersion, note) is created; the second gives it a `series` (count 2), written at
    /// once; later ones only count, written when the series is refreshed (every 30 min) or
    /// finished (not seen for 6 min, looked at every 6 min). kubesim writes what a tick would have
    /// written when the recorder is next used (upstream: on the tick itself).
    pub fn event_v1<T: fmt::Display + 'static>(&mut self, ctx: &mut Ctx<T>, regarding: &Value, type_: &str, reason: &str, action: &str, note: &str) {
        self.run_series_ticks(ctx);
        let note: String = note.chars().take(1024).collect();
        let key = format!("{}|{}|{}|{}|{}|{}|{}|{}", action, reason, self.component, meta::kind(regarding), meta::namespace(regarding), meta::name(regarding), meta::resource_version(regarding), note);
        if let Some(e) = self.series.get_mut(&key) {
            e.last_observed = ctx.now;
            e.count = if e.count == 0 { 2 } else { e.count + 1 };
            if e.count == 2 {
                let e = e.clone();
                self.write_series(ctx, &e);
            }
            return;
        }
        self.counter += 1;
        let nanos = (time::EPOCH_MS + ctx.now) as u64 * 1_000_000 + self.counter % 1_000_000;
        let ns = match meta::namespace(regarding) {
            "" => "default".to_string(),
            n => n.to_string(),
        };
        let mut r = object_reference(regarding, None);
        if r["apiVersion"].as_str().unwrap_or("").is_empty() {
            r["apiVersion"] = json!(api_version_of(meta::kind(regarding)));
        }
        // the note is truncated to the 1 KiB event message limit (above)
        let name = format!("{}.{:x}", meta::name(regarding), nanos);
        let ev = json!({
            "apiVersion": "events.k8s.io/v1",
            "kind": "Event",
            "metadata": {"name": name, "namespace": ns},
            "eventTime": time::rfc3339_micro(ctx.now),
            "reportingController": self.component,
            "reportingInstance": self.host,
            "action": action,
            "reason": reason,
            "regarding": r,
            "note": note,
            "type": type_,
        });
        let resp = ctx.request(Method::Post, &format!("/apis/events.k8s.io/v1/namespaces/{}/events", ns), Some(ev));
        if resp.ok() {
            if self.series.len() >= EVENT_CACHE_SIZE {
                self.series.clear();
            }
            self.series.insert(key, Isomorphic { name, namespace: ns, event_time: ctx.now, count: 0, last_observed: ctx.now });
        }
    }

    /// The series' count and last observation, as `createPatchBytesForSeries`' strategic merge
    /// patch.
    fn write_series<T: fmt::Display + 'static>(&mut self, ctx: &mut Ctx<T>, e: &Isomorphic) {
        let patch = json!({"series": {"count": e.count, "lastObservedTime": time::rfc3339_micro(e.last_observed)}});
        let _ = ctx.request_with(crate::api::request::Request {
            method: Method::Patch,
            path: format!("/apis/events.k8s.io/v1/namespaces/{}/events/{}", e.namespace, e.name),
            body: Some(patch),
            patch_type: crate::api::request::PatchType::Strategic,
        });
    }

    /// The broadcaster's tickers since the last look: `refreshExistingEventSeries` every 30 min
    /// (every open series written) and `finishSeries` every 6 min (a series not observed for 6
    /// min written a last time and dropped; a singleton older than 6 min dropped).
    fn run_series_ticks<T: fmt::Display + 'static>(&mut self, ctx: &mut Ctx<T>) {
        let origin = *self.ticks_from.get_or_insert(ctx.now);
        let due = (ctx.now - origin) / EVENT_SERIES_FINISH_MS;
        while self.finish_ticks_done < due {
            self.finish_ticks_done += 1;
            let tick = origin + self.finish_ticks_done * EVENT_SERIES_FINISH_MS;
            let refresh = (tick - origin) % EVENT_SERIES_REFRESH_MS == 0;
            let entries: Vec<(String, Isomorphic)> = self.series.iter().map(|(k, e)| (k.clone(), e.clone())).collect();
            for (k, e) in entries {
                let stale = if e.count > 0 { e.last_observed } else { e.event_time } < tick - EVENT_SERIES_FINISH_MS;
                if e.count > 0 && (refresh || stale) {
                    self.write_series(ctx, &e);
                }
                if stale {
                    self.series.remove(&k);
                }
            }
        }
    }
}

fn api_version_of(kind: &str) -> &'static str {
    match kind {
        "Deployment" | "ReplicaSet" | "DaemonSet" | "StatefulSet" | "ControllerRevision" => "apps/v1",
        "Job" | "CronJob" => "batch/v1",
        "StorageClass" => "storage.k8s.io/v1",
        _ => "v1",
    }
}
