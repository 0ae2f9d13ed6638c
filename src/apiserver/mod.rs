//! kube-apiserver: REST semantics over etcd, with admission, validation, audit and watch fan-out.
//!
//! Real counterparts: `staging/src/k8s.io/apiserver/pkg/endpoints/handlers/{create,get,update,patch,delete,watch}.go`,
//! `staging/src/k8s.io/apiserver/pkg/registry/generic/registry/store.go` (the generic registry),
//! the per-resource strategies in `pkg/registry/{apps/deployment,apps/replicaset,core/pod,core/node,core/namespace}`,
//! `pkg/registry/core/pod/storage/storage.go` (the `binding` subresource), the audit filter
//! `staging/src/k8s.io/apiserver/pkg/endpoints/filters/audit.go`, and the watch cache.
//!
//! What kubesim keeps: upstream URL paths, verbs, status codes and `Status` error bodies; strict field
//! validation, defaulting, validation; `generateName`, uid, creationTimestamp, generation,
//! resourceVersion = etcd mod revision; optimistic concurrency; graceful deletion of pods; finalizers
//! for foreground/orphan deletion; one Metadata-level audit event per request; watches with label and
//! field selectors that see ADDED/MODIFIED/DELETED as objects enter and leave the selection.
//!
//! What kubesim simplifies: no authentication or RBAC (identities are given, every request is
//! allowed, and the audit annotation says which RBAC binding would allow it); no protobuf; no
//! managedFields; strategic merge patch is simplified (see [`patch`]).
//!
//! **Architecture invariant:** this is the only module that touches [`crate::etcd`]. Components reach
//! state only through [`ApiServer::handle`] and watch events.

use crate::api::{defaults, field, meta, names, patch, schema, time, validation};
pub use crate::api::request::{EventType, Identity, Method, PatchType, Request, RequestInfo, Response};
use crate::api::meta::ResourceInfo;
use crate::etcd::{Etcd, EtcdError};
use crate::sim::Rng;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::rc::Rc;

/// A change made by a request: what the trace shows as the etcd transaction, and what watches see.
#[derive(Clone, Debug, PartialEq)]
pub struct Change {
    pub op: &'static str,
    pub key: String,
    pub revision: i64,
    pub resource: &'static ResourceInfo,
    /// The object before and after the change, shared with the watch cache and the watch events.
    pub old: Option<Rc<Value>>,
    pub new: Option<Rc<Value>>,
}

/// A registered watch.
#[derive(Clone, Debug)]
pub struct Watcher {
    pub subscriber: usize,
    pub resource: &'static str,
    pub namespace: String,
    pub label_selector: Vec<(String, String, String)>,
    pub field_selector: Vec<(String, String, String)>,
}

/// A watch event to deliver to one subscriber.
#[derive(Clone, Debug, PartialEq)]
pub struct WatchDelivery {
    pub subscriber: usize,
    pub resource: &'static ResourceInfo,
    pub event_type: EventType,
    /// One decoded object shared by every watcher that receives this change.
    pub object: std::rc::Rc<Value>,
}

/// Limits, stated and enforced.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Upper bound on stored objects of all kinds.
    pub max_objects: usize,
    /// Upper bound on a request body (kube-apiserver's limit is 3 MiB).
    pub max_body_bytes: usize,
    /// Audit events kept in memory.
    pub max_audit_events: usize,
    /// kubesim refuses Deployments/ReplicaSets asking for more replicas than this.
    pub max_replicas: i64,
    /// etcd revisions kept before automatic compaction (the page's time travel reads old ones).
    pub etcd_history: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits { max_objects: 250_000, max_body_bytes: 3 * 1024 * 1024, max_audit_events: 200_000, max_replicas: 5_000, etcd_history: 200_000 }
    }
}

pub struct ApiServer {
    etcd: Etcd,
    /// Audit events, one JSON line each (field order as the log backend writes them). Kept as text:
    /// a parsed `Value` per request would cost several KiB each in a long run.
    audit: Vec<String>,
    audit_dropped: u64,
    watchers: Vec<Watcher>,
    /// Watch index (the watch cache's "triggers"): kubelets watch pods with
    /// `fieldSelector=spec.nodeName=NODE`; an event is only offered to the two kubelets whose node
    /// the object was or is on, instead of to every watcher.
    node_watchers: std::collections::BTreeMap<(&'static str, String), Vec<usize>>,
    general_watchers: std::collections::BTreeMap<&'static str, Vec<usize>>,
    limits: Limits,
    /// The watch cache (`staging/src/k8s.io/apiserver/pkg/storage/cacher`): the current object of
    /// every etcd key, decoded once when it is written, with its resourceVersion set. Reads and
    /// lists are served from it and watch events share its objects; etcd keeps the JSON of every
    /// revision for history (time travel, `sim etcd get --rev`).
    cache: BTreeMap<String, (Rc<Value>, i64)>,
}

impl Default for ApiServer {
    fn default() -> Self {
        ApiServer::new(Limits::default())
    }
}

/// Result of one request: the response, the etcd changes, the watch events to deliver.
#[derive(Clone, Debug)]
pub struct Outcome {
    pub response: Response,
    pub changes: Vec<Change>,
    pub deliveries: Vec<(usize, WatchDelivery)>,
    /// Set for `?watch=true` requests: the watcher was registered.
    pub watch_registered: bool,
}

/// A request resolved to the resource it addresses.
#[derive(Clone, Debug)]
struct Target<'a> {
    info: &'static ResourceInfo,
    ri: &'a RequestInfo,
}

impl Target<'_> {
    fn q(&self, k: &str) -> Option<&str> {
        self.ri.query(k)
    }
}

pub fn status_error(code: u16, reason: &str, message: &str, details: Option<Value>) -> Value {
    let mut s = json!({
        "kind": "Status",
        "apiVersion": "v1",
        "metadata": {},
        "status": "Failure",
        "message": message,
        "reason": reason,
        "code": code,
    });
    if let Some(d) = details {
        s["details"] = d;
    }
    s
}

fn err(code: u16, reason: &str, message: String, details: Option<Value>) -> Response {
    Response { code, body: status_error(code, reason, &message, details) }
}

fn not_found(info: &ResourceInfo, name: &str) -> Response {
    err(
        404,
        "NotFound",
        format!("{} \"{}\" not found", info.qualified(), name),
        Some(json!({"name": name, "group": info.group, "kind": info.resource})),
    )
}

fn conflict(info: &ResourceInfo, name: &str) -> Response {
    err(
        409,
        "Conflict",
        format!(
            "Operation cannot be fulfilled on {} \"{}\": the object has been modified; please apply your changes to the latest version and try again",
            info.qualified(),
            name
        ),
        Some(json!({"name": name, "group": info.group, "kind": info.resource})),
    )
}

fn bad_request(message: String) -> Response {
    err(400, "BadRequest", message, None)
}

fn invalid(info: &ResourceInfo, name: &str, errs: &[field::FieldError]) -> Response {
    let causes: Vec<Value> = errs
        .iter()
        .map(|e| e.status_cause())
        .collect();
    err(
        422,
        "Invalid",
        field::invalid_status_message(info.kind, info.group, name, errs),
        Some(json!({"name": name, "group": info.group, "kind": info.kind, "causes": causes})),
    )
}

impl ApiServer {
    pub fn new(limits: Limits) -> ApiServer {
        let mut etcd = Etcd::new();
        etcd.history_limit = limits.etcd_history;
        ApiServer {
            etcd,
            audit: Vec::new(),
            audit_dropped: 0,
            watchers: Vec::new(),
            node_watchers: Default::default(),
            general_watchers: Default::default(),
            limits,
            cache: BTreeMap::new(),
        }
    }

    /// etcd, read-only: for the shells' views (history, keys, revisions), never for components.
    pub fn etcd(&self) -> &Etcd {
        &self.etcd
    }

    /// The audit events kept in memory, oldest first, one JSON line each.
    pub fn audit_log(&self) -> &[String] {
        &self.audit
    }

    /// Forgets the audit events so far, uncounted (the bootstrap's requests are not a learner's).
    pub fn clear_audit(&mut self) {
        self.audit.clear();
    }

    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    pub fn audit_total(&self) -> u64 {
        self.audit.len() as u64 + self.audit_dropped
    }

    /// Resolves a parsed request to a served resource (the REST mapper's part of the handler chain).
    fn resolve<'a>(&self, ri: &'a RequestInfo) -> Result<Target<'a>, Response> {
        let not_found = || err(404, "NotFound", "the server could not find the requested resource".into(), None);
        if !ri.is_resource_request || (ri.api_prefix == "api" && ri.api_version != "v1") {
            return Err(not_found());
        }
        let group = if ri.api_group == "events.k8s.io" { "" } else { ri.api_group.as_str() };
        let info = meta::by_resource(group, &ri.resource).ok_or_else(not_found)?;
        Ok(Target { info, ri })
    }

    fn read(&self, info: &ResourceInfo, ns: &str, name: &str) -> Option<(Value, i64)> {
        self.read_shared(info, ns, name).map(|(v, rev)| (Value::clone(&v), rev))
    }

    /// The cached object of one key, shared (no copy).
    fn read_shared(&self, info: &ResourceInfo, ns: &str, name: &str) -> Option<(Rc<Value>, i64)> {
        self.cache.get(&info.etcd_key(ns, name)).cloned()
    }

    /// Reads an object directly (no request, no audit): for the shells' inspection views only,
    /// never for simulated components.
    pub fn peek(&self, info: &ResourceInfo, ns: &str, name: &str) -> Option<Value> {
        self.read(info, ns, name).map(|(v, _)| v)
    }

    /// Lists objects directly (no request): for the shells' inspection views only.
    pub fn peek_list(&self, info: &ResourceInfo, ns: &str) -> Vec<Value> {
        self.list_objects(info, ns, None)
    }

    /// Lists objects as of `rev` (None = now): the page's time travel uses this.
    pub fn list_objects(&self, info: &ResourceInfo, ns: &str, rev: Option<i64>) -> Vec<Value> {
        let prefix = info.etcd_collection_prefix(ns);
        if rev.is_none() {
            return self.list_shared(&prefix).map(|v| Value::clone(v)).collect();
        }
        self.etcd
            .range(&prefix, rev)
            .unwrap_or_default()
            .into_iter()
            .filter_map(|kv| {
                // a namespaced prefix "/registry/pods/" would also match a namespace named like a prefix; keys are exact so fine
                let mut v: Value = serde_json::from_str(kv.value.as_deref()?).ok()?;
                meta::set(&mut v, &["metadata", "resourceVersion"], json!(kv.mod_revision.to_string()));
                Some(v)
            })
            .collect()
    }

    /// The cached objects under an etcd key prefix, in key order (as etcd's range returns them).
    fn list_shared<'a>(&'a self, prefix: &'a str) -> impl Iterator<Item = &'a Rc<Value>> + 'a {
        self.cache.range(prefix.to_string()..).take_while(move |(k, _)| k.starts_with(prefix)).map(|(_, (v, _))| v)
    }

    /// Number of stored objects of all kinds.
    pub fn object_count(&self) -> usize {
        self.cache.len()
    }

    /// Writes `obj` to etcd if the key's revision is still `expected_rev` (0: the key must not
    /// exist), updates the watch cache, and returns the change (old object from the cache).
    fn store(&mut self, info: &'static ResourceInfo, obj: &mut Value, expected_rev: i64) -> Result<Change, Response> {
        let ns = meta::namespace(obj).to_string();
        let name = meta::name(obj).to_string();
        let key = info.etcd_key(&ns, &name);
        if let Some(m) = obj.get_mut("metadata").and_then(|m| m.as_object_mut()) {
            m.remove("resourceVersion");
        }
        let text = serde_json::to_string(obj).unwrap_or_default();
        match self.etcd.put_if(&key, text, expected_rev) {
            Ok(rev) => {
                meta::set(obj, &["metadata", "resourceVersion"], json!(rev.to_string()));
                let new = Rc::new(obj.clone());
                let old = self.cache.insert(key.clone(), (new.clone(), rev)).map(|(v, _)| v);
                Ok(Change { op: "PUT", key, revision: rev, resource: info, old, new: Some(new) })
            }
            Err(EtcdError::TxnFailed { current }) => {
                if expected_rev == 0 && current.is_some() {
                    Err(err(
                        409,
                        "AlreadyExists",
                        format!("{} \"{}\" already exists", info.qualified(), name),
                        Some(json!({"name": name, "group": info.group, "kind": info.resource})),
                    ))
                } else {
                    Err(conflict(info, &name))
                }
            }
            Err(e) => Err(err(500, "InternalError", format!("Internal error occurred: {}", e), None)),
        }
    }

    fn remove(&mut self, info: &'static ResourceInfo, obj: &Value, rev: i64) -> Result<Change, Response> {
        let key = info.etcd_key(meta::namespace(obj), meta::name(obj));
        match self.etcd.delete_if(&key, rev) {
            Ok(r) => {
                let old = self.cache.remove(&key).map(|(v, _)| v);
                Ok(Change { op: "DELETE", key, revision: r, resource: info, old, new: None })
            }
            Err(_) => Err(conflict(info, meta::name(obj))),
        }
    }

    /// Handles one request at virtual time `now_ms` on behalf of `who`. Returns the response, the
    /// etcd changes made and the watch deliveries they cause. Never panics.
    pub fn handle(&mut self, req: &Request, ri: &RequestInfo, who: &Identity, now_ms: i64, rng: &mut Rng) -> Outcome {
        let audit_id = rng.uuid();
        let mut changes = Vec::new();
        let mut watch_registered = false;
        let target = self.resolve(ri);
        let response = match &target {
            Err(r) => r.clone(),
            Ok(t) => {
                let size = req.body.as_ref().map(|b| serde_json::to_string(b).map(|s| s.len()).unwrap_or(0)).unwrap_or(0);
                if size > self.limits.max_body_bytes {
                    err(413, "RequestEntityTooLarge", "Request entity too large: limit is 3145728".into(), None)
                } else {
                    match self.dispatch(req, t, who, now_ms, rng, &mut changes, &mut watch_registered) {
                        Ok(r) => r,
                        Err(r) => r,
                    }
                }
            }
        };
        self.record_audit(req, ri, target.as_ref().ok(), who, &response, now_ms, audit_id);
        let deliveries = self.fan_out(&changes);
        Outcome { response, changes, deliveries, watch_registered }
    }

    /// Registers a watch for `subscriber` (used by informers after their initial LIST).
    pub fn add_watcher(&mut self, w: Watcher) {
        let idx = self.watchers.len();
        let node_scoped = w.label_selector.is_empty()
            && w.namespace.is_empty()
            && w.field_selector.len() == 1
            && w.field_selector[0].0 == "spec.nodeName"
            && w.field_selector[0].1 == "=";
        if node_scoped {
            self.node_watchers.entry((w.resource, w.field_selector[0].2.clone())).or_default().push(idx);
        } else {
            self.general_watchers.entry(w.resource).or_default().push(idx);
        }
        self.watchers.push(w);
    }

    fn fan_out(&self, changes: &[Change]) -> Vec<(usize, WatchDelivery)> {
        let mut out = Vec::new();
        for ch in changes {
            let new_rc = ch.new.clone();
            let mut deleted_rc: Option<Rc<Value>> = None;
            let mut candidates: Vec<usize> = self.general_watchers.get(ch.resource.resource).cloned().unwrap_or_default();
            for o in [&ch.old, &ch.new].into_iter().flatten() {
                let node = meta::get_str(o, &["spec", "nodeName"]);
                if let Some(ix) = self.node_watchers.get(&(ch.resource.resource, node.to_string())) {
                    candidates.extend(ix.iter().copied());
                }
            }
            candidates.sort_unstable();
            candidates.dedup();
            for w in candidates.iter().filter_map(|i| self.watchers.get(*i)) {
                if w.resource != ch.resource.resource {
                    continue;
                }
                let sel = |o: &Option<Rc<Value>>| -> bool {
                    match o {
                        None => false,
                        Some(v) => {
                            (w.namespace.is_empty() || meta::namespace(v) == w.namespace)
                                && field_selector_matches(&w.field_selector, v)
                                && (w.label_selector.is_empty() || meta::label_selector_matches(&w.label_selector, &meta::labels(v)))
                        }
                    }
                };
                let (was, is) = (sel(&ch.old), sel(&ch.new));
                let ev = match (was, is) {
                    (false, true) => Some((EventType::Added, new_rc.clone())),
                    (true, true) => Some((EventType::Modified, new_rc.clone())),
                    (true, false) => {
                        // the DELETED event carries the last state (with the deletion's revision)
                        if new_rc.is_some() {
                            Some((EventType::Deleted, new_rc.clone()))
                        } else {
                            if deleted_rc.is_none() {
                                deleted_rc = ch.old.as_ref().map(|o| {
                                    let mut o = Value::clone(o);
                                    meta::set(&mut o, &["metadata", "resourceVersion"], json!(ch.revision.to_string()));
                                    Rc::new(o)
                                });
                            }
                            Some((EventType::Deleted, deleted_rc.clone()))
                        }
                    }
                    (false, false) => None,
                };
                if let Some((t, Some(obj))) = ev {
                    out.push((w.subscriber, WatchDelivery { subscriber: w.subscriber, resource: ch.resource, event_type: t, object: obj }));
                }
            }
        }
        out
    }

    fn record_audit(&mut self, req: &Request, ri: &RequestInfo, t: Option<&Target>, who: &Identity, resp: &Response, now_ms: i64, audit_id: String) {
        let verb = ri.verb;
        let mut ev = json!({
            "kind": "Event",
            "apiVersion": "audit.k8s.io/v1",
            "level": "Metadata",
            "auditID": audit_id,
            "stage": if verb == "watch" { "ResponseStarted" } else { "ResponseComplete" },
            "requestURI": req.path,
            "verb": verb,
            "user": {"username": who.username, "uid": who.uid, "groups": who.groups},
            "sourceIPs": [who.source_ip],
            "userAgent": who.user_agent,
            "requestReceivedTimestamp": time::rfc3339_micro(now_ms),
            "stageTimestamp": time::rfc3339_micro(now_ms + 1),
            "annotations": {
                "authorization.k8s.io/decision": "allow",
                "authorization.k8s.io/reason": who.rbac_reason,
            },
        });
        if who.uid.is_empty() {
            meta::remove(&mut ev, &["user", "uid"]);
        }
        if let Some(t) = t {
            let mut oref = json!({"resource": t.info.resource, "apiVersion": t.info.version});
            if !t.ri.namespace.is_empty() {
                oref["namespace"] = json!(t.ri.namespace);
            }
            let name = if t.ri.name.is_empty() && req.method == Method::Post {
                // create: the name comes from the body (audit shows it once known)
                resp.body.get("metadata").and_then(|m| m.get("name")).cloned().unwrap_or(Value::Null)
            } else if t.ri.name.is_empty() {
                Value::Null
            } else {
                json!(t.ri.name)
            };
            if !name.is_null() {
                oref["name"] = name;
            }
            if !t.info.group.is_empty() {
                oref["apiGroup"] = json!(t.info.group);
            }
            if !t.ri.subresource.is_empty() {
                oref["subresource"] = json!(t.ri.subresource);
            }
            ev["objectRef"] = oref;
        }
        let mut rs = json!({"metadata": {}, "code": resp.code});
        if !resp.ok() {
            rs["status"] = json!("Failure");
            rs["message"] = json!(resp.message());
            rs["reason"] = json!(resp.reason());
        }
        ev["responseStatus"] = rs;
        if self.audit.len() >= self.limits.max_audit_events {
            let half = self.audit.len() / 2;
            self.audit.drain(..half);
            self.audit_dropped += half as u64;
        }
        self.audit.push(audit_json(&ev));
    }

    #[allow(clippy::too_many_arguments)]
    fn dispatch(
        &mut self,
        req: &Request,
        t: &Target,
        who: &Identity,
        now_ms: i64,
        rng: &mut Rng,
        changes: &mut Vec<Change>,
        watch_registered: &mut bool,
    ) -> Result<Response, Response> {
        let info = t.info;
        if info.namespaced && t.ri.namespace.is_empty() && req.method != Method::Get {
            return Err(err(404, "NotFound", "the server could not find the requested resource".into(), None));
        }
        match (req.method, t.ri.name.is_empty(), t.ri.subresource.as_str()) {
            (Method::Get, true, _) => {
                if t.q("watch") == Some("true") {
                    *watch_registered = true;
                    return Ok(Response { code: 200, body: json!({}) });
                }
                self.list(t)
            }
            (Method::Get, false, "") => self.read(info, &t.ri.namespace, &t.ri.name).map(|(v, _)| Response { code: 200, body: v }).ok_or_else(|| not_found(info, &t.ri.name)),
            (Method::Get, false, "scale") => {
                let (obj, _) = self.read(info, &t.ri.namespace, &t.ri.name).ok_or_else(|| not_found(info, &t.ri.name))?;
                Ok(Response { code: 200, body: to_scale(&obj) })
            }
            (Method::Post, true, _) => self.create(req, t, who, now_ms, rng, changes),
            (Method::Post, false, "binding") => self.bind(req, t, now_ms, changes),
            (Method::Put, false, sub) => {
                let body = req.body.clone().ok_or_else(|| bad_request("the body of the request was in an unknown format".into()))?;
                self.update(t, sub, body, true, now_ms, changes)
            }
            (Method::Patch, false, sub) => {
                let (current, _) = self.read(info, &t.ri.namespace, &t.ri.name).ok_or_else(|| not_found(info, &t.ri.name))?;
                let patch = req.body.clone().unwrap_or(json!({}));
                let mut target = if sub == "scale" { to_scale(&current) } else { current.clone() };
                match req.patch_type {
                    PatchType::Merge => patch::merge_patch(&mut target, &patch),
                    PatchType::Strategic => patch::strategic_merge_patch(&mut target, &patch),
                }
                self.update(t, sub, target, false, now_ms, changes)
            }
            (Method::Delete, false, "") => self.delete(req, t, now_ms, changes),
            _ => Err(err(405, "MethodNotAllowed", "the server does not allow this method on the requested resource".into(), None)),
        }
    }

    fn list(&self, t: &Target) -> Result<Response, Response> {
        let labels = meta::parse_label_selector(t.q("labelSelector").unwrap_or("")).map_err(bad_request)?;
        let fields = parse_field_selector(t.q("fieldSelector").unwrap_or(""));
        let prefix = t.info.etcd_collection_prefix(&t.ri.namespace);
        let items: Vec<Value> = self
            .list_shared(&prefix)
            .filter(|o| meta::label_selector_matches(&labels, &meta::labels(o)) && field_selector_matches(&fields, o))
            .map(|o| Value::clone(o))
            .collect();
        Ok(Response {
            code: 200,
            body: json!({
                "kind": format!("{}List", t.info.kind),
                "apiVersion": t.info.api_version(),
                "metadata": {"resourceVersion": self.etcd.revision().to_string()},
                "items": items,
            }),
        })
    }

    /// Strict decoding as the JSON serializer does it for `fieldValidation=Strict`.
    fn decode(&self, t: &Target, obj: &Value) -> Result<(), Response> {
        let api_version = meta::get_str(obj, &["apiVersion"]);
        let kind = meta::get_str(obj, &["kind"]);
        if kind.is_empty() {
            return Err(bad_request("Object 'Kind' is missing in '".to_string() + &serde_json::to_string(obj).unwrap_or_default() + "'"));
        }
        if api_version != t.info.api_version() && !(t.info.resource == "events" && api_version == "events.k8s.io/v1") {
            return Err(bad_request(format!(
                "the API version in the data ({}) does not match the expected API version ({})",
                api_version,
                t.info.api_version()
            )));
        }
        if kind != t.info.kind {
            return Err(bad_request(format!("the kind in the data ({}) does not match the expected kind ({})", kind, t.info.kind)));
        }
        if t.q("fieldValidation").map(|v| v.eq_ignore_ascii_case("strict")).unwrap_or(false) {
            if let Err(e) = schema::strict_check(api_version, kind, obj) {
                return Err(bad_request(format!(
                    "{} in version \"{}\" cannot be handled as a {}: {}",
                    kind, t.info.version, kind, e.message
                )));
            }
        }
        Ok(())
    }

    fn create(
        &mut self,
        req: &Request,
        t: &Target,
        _who: &Identity,
        now_ms: i64,
        rng: &mut Rng,
        changes: &mut Vec<Change>,
    ) -> Result<Response, Response> {
        let info = t.info;
        let mut obj = req.body.clone().ok_or_else(|| bad_request("the body of the request was in an unknown format".into()))?;
        if !obj.is_object() {
            return Err(bad_request("the body of the request was in an unknown format".into()));
        }
        if meta::get_str(&obj, &["apiVersion"]) == "events.k8s.io/v1" {
            obj = events_v1_to_core(&obj);
        } else {
            self.decode(t, &obj)?;
        }
        schema::normalize(info.api_version().as_str(), info.kind, &mut obj);
        if self.object_count() >= self.limits.max_objects {
            return Err(err(
                429,
                "TooManyRequests",
                format!("kubesim holds at most {} objects; delete some before creating more", self.limits.max_objects),
                None,
            ));
        }
        // namespace
        let body_ns = meta::namespace(&obj).to_string();
        if info.namespaced {
            if !body_ns.is_empty() && body_ns != t.ri.namespace {
                return Err(bad_request("the namespace of the provided object does not match the namespace sent on the request".into()));
            }
            meta::set(&mut obj, &["metadata", "namespace"], json!(t.ri.namespace));
            if self.read(meta::lookup("namespaces").expect("ns"), "", &t.ri.namespace).is_none() {
                return Err(err(
                    404,
                    "NotFound",
                    format!("namespaces \"{}\" not found", t.ri.namespace),
                    Some(json!({"name": t.ri.namespace, "kind": "namespaces"})),
                ));
            }
        } else if let Some(m) = obj.get_mut("metadata").and_then(|m| m.as_object_mut()) {
            m.remove("namespace");
        }
        // generateName (names.SimpleNameGenerator), before validation as upstream does
        let gen = meta::get_str(&obj, &["metadata", "generateName"]).to_string();
        if meta::name(&obj).is_empty() && !gen.is_empty() {
            let n = names::generate_name(rng, &gen);
            meta::set(&mut obj, &["metadata", "name"], json!(n));
        }
        // system metadata (rest.FillObjectMetaSystemFields)
        {
            let m = meta::entry(&mut obj, &["metadata"]);
            if let Some(m) = m.as_object_mut() {
                m.remove("resourceVersion");
                m.remove("deletionTimestamp");
                m.remove("deletionGracePeriodSeconds");
                m.insert("uid".into(), json!(rng.uuid()));
                m.insert("creationTimestamp".into(), json!(time::rfc3339(now_ms)));
            }
        }
        // strategy.PrepareForCreate + defaulting
        match info.kind {
            "Deployment" => {
                defaults::set_object_defaults_deployment(&mut obj);
                meta::set(&mut obj, &["metadata", "generation"], json!(1));
                meta::remove(&mut obj, &["status"]);
            }
            "ReplicaSet" => {
                defaults::set_object_defaults_replica_set(&mut obj);
                meta::set(&mut obj, &["metadata", "generation"], json!(1));
                meta::remove(&mut obj, &["status"]);
            }
            "Pod" => {
                defaults::set_object_defaults_pod(&mut obj);
                let suffix = names::random_string(rng, 5);
                defaults::admit_pod(&mut obj, &suffix);
                meta::set(&mut obj, &["metadata", "generation"], json!(1));
                let qos = qos_class(&obj);
                meta::set(&mut obj, &["status"], json!({"phase": "Pending", "qosClass": qos}));
            }
            "Node" => defaults::set_object_defaults_node(&mut obj),
            "Namespace" => {
                defaults::set_object_defaults_namespace(&mut obj);
                defaults::prepare_namespace_for_create(&mut obj);
            }
            _ => {}
        }
        let errs = match info.kind {
            "Deployment" => validation::validate_deployment(&obj),
            "ReplicaSet" => validation::validate_replica_set(&obj),
            "Pod" => validation::validate_pod(&obj),
            "Node" => validation::validate_node(&obj),
            "Namespace" => validation::validate_namespace(&obj),
            _ => {
                if meta::name(&obj).is_empty() {
                    vec![field::FieldError::required("metadata.name", "name or generateName is required")]
                } else {
                    vec![]
                }
            }
        };
        if !errs.is_empty() {
            return Err(invalid(info, meta::name(&obj), &errs));
        }
        self.check_replicas_limit(info, &obj)?;
        let change = self.store(info, &mut obj, 0)?;
        changes.push(change);
        Ok(Response { code: 201, body: obj })
    }

    fn check_replicas_limit(&self, info: &ResourceInfo, obj: &Value) -> Result<(), Response> {
        if info.kind == "Deployment" || info.kind == "ReplicaSet" {
            let r = meta::get_i64(obj, &["spec", "replicas"]).unwrap_or(1);
            if r > self.limits.max_replicas {
                return Err(err(
                    422,
                    "Invalid",
                    format!(
                        "{}.{} \"{}\" is invalid: spec.replicas: Invalid value: {}: kubesim simulates at most {} replicas per {}",
                        info.kind,
                        info.group,
                        meta::name(obj),
                        r,
                        self.limits.max_replicas,
                        info.kind
                    ),
                    None,
                ));
            }
        }
        Ok(())
    }

    fn update(&mut self, t: &Target, sub: &str, mut body: Value, is_put: bool, now_ms: i64, changes: &mut Vec<Change>) -> Result<Response, Response> {
        let info = t.info;
        let (old, old_rev) = self.read(info, &t.ri.namespace, &t.ri.name).ok_or_else(|| not_found(info, &t.ri.name))?;
        if sub == "scale" {
            // autoscaling/v1 Scale → spec.replicas
            let replicas = meta::get_i64(&body, &["spec", "replicas"]).unwrap_or(0);
            let rv = meta::resource_version(&body).to_string();
            let mut new = old.clone();
            meta::set(&mut new, &["spec", "replicas"], json!(replicas));
            if !rv.is_empty() {
                meta::set(&mut new, &["metadata", "resourceVersion"], json!(rv));
            }
            let resp = self.update(t, "", new, true, now_ms, changes)?;
            return Ok(Response { code: resp.code, body: to_scale(&resp.body) });
        }
        if is_put {
            self.decode(t, &body)?;
        }
        schema::normalize(info.api_version().as_str(), info.kind, &mut body);
        if meta::name(&body) != t.ri.name {
            return Err(bad_request(format!("the name of the object ({}) does not match the name on the URL ({})", meta::name(&body), t.ri.name)));
        }
        // optimistic concurrency: an update with a resourceVersion must match the stored one
        let rv = meta::resource_version(&body).to_string();
        if !rv.is_empty() && rv != old_rev.to_string() {
            return Err(conflict(info, &t.ri.name));
        }
        let mut new = body;
        // fields the client may not change (rest.FillObjectMetaSystemFields / BeforeUpdate)
        for f in ["uid", "creationTimestamp", "namespace", "deletionTimestamp", "deletionGracePeriodSeconds", "generation"] {
            match meta::get(&old, &["metadata", f]) {
                Some(v) => meta::set(&mut new, &["metadata", f], v.clone()),
                None => {
                    meta::remove(&mut new, &["metadata", f]);
                }
            }
        }
        if sub == "status" {
            // status strategy: only status (and, for Deployments, annotations) change
            let mut merged = old.clone();
            merged["status"] = new.get("status").cloned().unwrap_or(json!({}));
            if info.kind == "Deployment" || info.kind == "ReplicaSet" || info.kind == "Pod" {
                if let Some(a) = meta::get(&new, &["metadata", "annotations"]) {
                    meta::set(&mut merged, &["metadata", "annotations"], a.clone());
                }
            }
            new = merged;
        } else if sub.is_empty() {
            // main resource strategy: status comes from the old object
            match old.get("status") {
                Some(s) => new["status"] = s.clone(),
                None => {
                    if let Some(o) = new.as_object_mut() {
                        o.remove("status");
                    }
                }
            }
            match info.kind {
                "Deployment" => defaults::set_object_defaults_deployment(&mut new),
                "ReplicaSet" => defaults::set_object_defaults_replica_set(&mut new),
                "Pod" => defaults::set_object_defaults_pod(&mut new),
                "Node" => defaults::set_object_defaults_node(&mut new),
                _ => {}
            }
            let spec_changed = old.get("spec") != new.get("spec");
            let ann_changed = meta::get(&old, &["metadata", "annotations"]) != meta::get(&new, &["metadata", "annotations"]);
            let bump = match info.kind {
                "Deployment" => spec_changed || ann_changed,
                "ReplicaSet" | "Pod" => spec_changed,
                _ => false,
            };
            if bump {
                let g = meta::get_i64(&old, &["metadata", "generation"]).unwrap_or(0);
                meta::set(&mut new, &["metadata", "generation"], json!(g + 1));
            }
            let errs = match info.kind {
                "Deployment" => validation::validate_deployment_update(&new, &old),
                "ReplicaSet" => validation::validate_replica_set_update(&new, &old),
                "Pod" => validation::validate_pod_update(&new, &old),
                "Node" => validation::validate_node(&new),
                "Namespace" => validation::validate_namespace(&new),
                _ => vec![],
            };
            if !errs.is_empty() {
                return Err(invalid(info, &t.ri.name, &errs));
            }
            self.check_replicas_limit(info, &new)?;
        } else {
            return Err(err(404, "NotFound", "the server could not find the requested resource".into(), None));
        }
        if new == old {
            // no-op update: etcd is not written (the registry's "unchanged" shortcut)
            return Ok(Response { code: 200, body: old });
        }
        // finalizers emptied on an object being deleted: it goes away now
        if meta::is_deleting(&new) && finalizers(&new).is_empty() && !(info.kind == "Pod" && pod_awaits_kubelet(&new)) {
            let change = self.remove(info, &old, old_rev)?;
            changes.push(change);
            return Ok(Response { code: 200, body: new });
        }
        let change = self.store(info, &mut new, old_rev)?;
        changes.push(change);
        Ok(Response { code: 200, body: new })
    }

    fn bind(&mut self, req: &Request, t: &Target, now_ms: i64, changes: &mut Vec<Change>) -> Result<Response, Response> {
        let pods = t.info;
        let node = req.body.as_ref().map(|b| meta::get_str(b, &["target", "name"]).to_string()).unwrap_or_default();
        let (mut pod, rev) = self.read(pods, &t.ri.namespace, &t.ri.name).ok_or_else(|| not_found(pods, &t.ri.name))?;
        if meta::is_deleting(&pod) {
            return Err(conflict_msg(pods, &t.ri.name, format!("pod {} is being deleted, cannot be assigned to a host", t.ri.name)));
        }
        let existing = meta::get_str(&pod, &["spec", "nodeName"]).to_string();
        if !existing.is_empty() {
            return Err(conflict_msg(pods, &t.ri.name, format!("pod {} is already assigned to node \"{}\"", t.ri.name, existing)));
        }
        meta::set(&mut pod, &["spec", "nodeName"], json!(node));
        let cond = json!({"type": "PodScheduled", "status": "True", "lastProbeTime": null, "lastTransitionTime": time::rfc3339(now_ms), "observedGeneration": meta::get_i64(&pod, &["metadata","generation"]).unwrap_or(1)});
        let conds = meta::entry(&mut pod, &["status", "conditions"]);
        if !conds.is_array() {
            *conds = json!([]);
        }
        if let Some(a) = conds.as_array_mut() {
            a.retain(|c| meta::get_str(c, &["type"]) != "PodScheduled");
            a.push(cond);
        }
        let change = self.store(pods, &mut pod, rev)?;
        changes.push(change);
        Ok(Response { code: 201, body: json!({"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Success", "code": 201}) })
    }

    fn delete(&mut self, req: &Request, t: &Target, now_ms: i64, changes: &mut Vec<Change>) -> Result<Response, Response> {
        let info = t.info;
        if info.kind == "Namespace" && (t.ri.name == "default" || t.ri.name == "kube-system" || t.ri.name == "kube-public" || t.ri.name == "kube-node-lease") {
            return Err(err(
                403,
                "Forbidden",
                format!("namespaces \"{}\" is forbidden: this namespace may not be deleted", t.ri.name),
                Some(json!({"name": t.ri.name, "kind": "namespaces"})),
            ));
        }
        let (mut obj, rev) = self.read(info, &t.ri.namespace, &t.ri.name).ok_or_else(|| not_found(info, &t.ri.name))?;
        let opts = req.body.clone().unwrap_or(json!({}));
        let policy = opts
            .get("propagationPolicy")
            .and_then(|p| p.as_str())
            .or_else(|| t.q("propagationPolicy"))
            .unwrap_or("")
            .to_string();
        let grace_q = t.q("gracePeriodSeconds").and_then(|g| g.parse::<i64>().ok());
        let grace = opts.get("gracePeriodSeconds").and_then(|g| g.as_i64()).or(grace_q);
        // preconditions (the kubelet's final delete sends the pod's uid)
        if let Some(uid) = meta::get(&opts, &["preconditions", "uid"]).and_then(|u| u.as_str()) {
            if uid != meta::uid(&obj) {
                return Err(conflict_msg(
                    info,
                    &t.ri.name,
                    format!("Precondition failed: UID in precondition: {}, UID in object meta: {}", uid, meta::uid(&obj)),
                ));
            }
        }
        // Graceful deletion for pods bound to a node (pod strategy CheckGracefulDelete).
        if info.kind == "Pod" {
            let bound = !meta::get_str(&obj, &["spec", "nodeName"]).is_empty();
            let phase = meta::get_str(&obj, &["status", "phase"]);
            let terminal = phase == "Succeeded" || phase == "Failed";
            let default_grace = meta::get_i64(&obj, &["spec", "terminationGracePeriodSeconds"]).unwrap_or(30);
            let g = if !bound || terminal { 0 } else { grace.unwrap_or(default_grace).max(0) };
            if g > 0 || !finalizers(&obj).is_empty() {
                if !meta::is_deleting(&obj) {
                    let g = if g == 0 { 0 } else { g };
                    meta::set(&mut obj, &["metadata", "deletionTimestamp"], json!(time::rfc3339(now_ms + g * 1000)));
                    meta::set(&mut obj, &["metadata", "deletionGracePeriodSeconds"], json!(g));
                    let change = self.store(info, &mut obj, rev)?;
                    changes.push(change);
                } else if g == 0 && finalizers(&obj).is_empty() {
                    let change = self.remove(info, &obj, rev)?;
                    changes.push(change);
                    return Ok(Response { code: 200, body: obj });
                }
                return Ok(Response { code: 200, body: obj });
            }
        }
        // Foreground / Orphan: set the finalizer and deletionTimestamp; the garbage collector finishes.
        let default_policy = "Background";
        let policy = if policy.is_empty() { default_policy.to_string() } else { policy };
        let fin = match policy.as_str() {
            "Foreground" => Some("foregroundDeletion"),
            "Orphan" => Some("orphan"),
            "Background" => None,
            other => {
                return Err(invalid(
                    info,
                    &t.ri.name,
                    &[field::FieldError::not_supported("propagationPolicy", json!(other), &["Foreground", "Background", "Orphan"])],
                ))
            }
        };
        let mut fins = finalizers(&obj);
        if let Some(f) = fin {
            if !fins.iter().any(|x| x == f) {
                fins.push(f.to_string());
            }
        }
        if !fins.is_empty() {
            if meta::is_deleting(&obj) && fin.is_none() {
                return Ok(Response { code: 202, body: obj });
            }
            meta::set(&mut obj, &["metadata", "finalizers"], json!(fins));
            if !meta::is_deleting(&obj) {
                meta::set(&mut obj, &["metadata", "deletionTimestamp"], json!(time::rfc3339(now_ms)));
                meta::set(&mut obj, &["metadata", "deletionGracePeriodSeconds"], json!(0));
            }
            let change = self.store(info, &mut obj, rev)?;
            changes.push(change);
            return Ok(Response { code: 202, body: obj });
        }
        let change = self.remove(info, &obj, rev)?;
        changes.push(change);
        if info.kind == "Namespace" {
            // simplified namespace controller: remove everything in the namespace at once
            for r in meta::RESOURCES.iter().filter(|r| r.namespaced) {
                for o in self.list_objects(r, &t.ri.name, None) {
                    let rv = meta::resource_version(&o).parse::<i64>().unwrap_or(0);
                    if let Ok(c) = self.remove(r, &o, rv) {
                        changes.push(c);
                    }
                }
            }
        }
        let body = if info.kind == "Pod" { obj } else {
            json!({"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Success", "details": {"name": t.ri.name, "group": info.group, "kind": info.resource, "uid": meta::uid(&obj)}})
        };
        Ok(Response { code: 200, body })
    }


}

fn conflict_msg(info: &ResourceInfo, name: &str, msg: String) -> Response {
    err(
        409,
        "Conflict",
        format!("Operation cannot be fulfilled on {} \"{}\": {}", info.qualified(), name, msg),
        Some(json!({"name": name, "kind": info.resource})),
    )
}

fn finalizers(o: &Value) -> Vec<String> {
    meta::get(o, &["metadata", "finalizers"])
        .and_then(|f| f.as_array())
        .map(|a| a.iter().filter_map(|x| x.as_str().map(String::from)).collect())
        .unwrap_or_default()
}

/// A pod being gracefully deleted stays until its kubelet confirms (the final DELETE with grace 0).
fn pod_awaits_kubelet(p: &Value) -> bool {
    !meta::get_str(p, &["spec", "nodeName"]).is_empty() && meta::get_i64(p, &["metadata", "deletionGracePeriodSeconds"]).unwrap_or(0) > 0
}

/// `fields.ParseSelector` for the equality forms (`spec.nodeName=node-1`, `status.phase!=Failed`).
pub fn parse_field_selector(s: &str) -> Vec<(String, String, String)> {
    s.split(',')
        .filter(|p| !p.is_empty())
        .filter_map(|p| {
            if let Some((k, v)) = p.split_once("!=") {
                Some((k.to_string(), "!=".to_string(), v.to_string()))
            } else {
                let (k, v) = p.split_once("==").or_else(|| p.split_once('='))?;
                Some((k.to_string(), "=".to_string(), v.to_string()))
            }
        })
        .collect()
}

pub fn field_selector_matches(sel: &[(String, String, String)], obj: &Value) -> bool {
    sel.iter().all(|(k, op, v)| {
        let mut cur = Some(obj);
        for seg in k.split('.') {
            cur = cur.and_then(|c| c.get(seg));
        }
        let eq = match cur {
            Some(Value::String(s)) => s == v,
            Some(Value::Number(n)) => n.to_string() == *v,
            Some(Value::Bool(b)) => b.to_string() == *v,
            _ => v.is_empty(),
        };
        if op == "!=" {
            !eq
        } else {
            eq
        }
    })
}

/// `autoscaling/v1` Scale view of a Deployment or ReplicaSet.
fn to_scale(obj: &Value) -> Value {
    json!({
        "kind": "Scale",
        "apiVersion": "autoscaling/v1",
        "metadata": {
            "name": meta::name(obj),
            "namespace": meta::namespace(obj),
            "uid": meta::uid(obj),
            "resourceVersion": meta::resource_version(obj),
            "creationTimestamp": meta::get(obj, &["metadata", "creationTimestamp"]).cloned().unwrap_or(Value::Null),
        },
        "spec": {"replicas": meta::get_i64(obj, &["spec", "replicas"]).unwrap_or(0)},
        "status": {
            "replicas": meta::get_i64(obj, &["status", "replicas"]).unwrap_or(0),
            "selector": meta::selector_string(meta::get(obj, &["spec", "selector"])),
        },
    })
}

/// The QoS class (`pkg/apis/core/helper/qos`): Guaranteed when every container has equal cpu and
/// memory requests and limits, BestEffort when none has any, Burstable otherwise.
pub fn qos_class(pod: &Value) -> &'static str {
    let containers: Vec<&Value> = ["containers", "initContainers"]
        .iter()
        .filter_map(|f| meta::get(pod, &["spec", f]).and_then(|c| c.as_array()))
        .flatten()
        .collect();
    let mut any = false;
    let mut guaranteed = true;
    for c in &containers {
        let req = meta::get(c, &["resources", "requests"]).and_then(|r| r.as_object()).cloned().unwrap_or_default();
        let lim = meta::get(c, &["resources", "limits"]).and_then(|r| r.as_object()).cloned().unwrap_or_default();
        if !req.is_empty() || !lim.is_empty() {
            any = true;
        }
        for r in ["cpu", "memory"] {
            match (req.get(r), lim.get(r)) {
                (Some(a), Some(b)) if a == b => {}
                (None, Some(_)) => {}
                _ => guaranteed = false,
            }
            if lim.get(r).is_none() {
                guaranteed = false;
            }
        }
    }
    if !any {
        "BestEffort"
    } else if guaranteed {
        "Guaranteed"
    } else {
        "Burstable"
    }
}

/// Converts an `events.k8s.io/v1` Event (as the scheduler writes it) to the core/v1 shape
/// stored in etcd (both share `/registry/events`), as the apiserver's conversion does.
fn events_v1_to_core(e: &Value) -> Value {
    let mut m = e.get("metadata").cloned().unwrap_or(json!({}));
    if let Some(o) = m.as_object_mut() {
        o.remove("resourceVersion");
    }
    json!({
        "apiVersion": "v1",
        "kind": "Event",
        "metadata": m,
        "involvedObject": e.get("regarding").cloned().unwrap_or(json!({})),
        "reason": e.get("reason").cloned().unwrap_or(json!("")),
        "message": e.get("note").cloned().unwrap_or(json!("")),
        "type": e.get("type").cloned().unwrap_or(json!("Normal")),
        "eventTime": e.get("eventTime").cloned().unwrap_or(Value::Null),
        "reportingComponent": e.get("reportingController").cloned().unwrap_or(json!("")),
        "reportingInstance": e.get("reportingInstance").cloned().unwrap_or(json!("")),
        "action": e.get("action").cloned().unwrap_or(json!("")),
        "source": {},
        "firstTimestamp": null,
        "lastTimestamp": null,
    })
}

/// An audit event as one JSON line with the field order of `audit.k8s.io/v1` Event (Go struct
/// order), as the log backend writes it.
pub fn audit_json(ev: &Value) -> String {
    const ORDER: &[&str] = &[
        "kind", "apiVersion", "level", "auditID", "stage", "requestURI", "verb", "user", "impersonatedUser", "sourceIPs",
        "userAgent", "objectRef", "responseStatus", "requestObject", "responseObject", "requestReceivedTimestamp",
        "stageTimestamp", "annotations",
        // user
        "username", "uid", "groups", "extra",
        // objectRef
        "resource", "namespace", "name", "apiGroup", "resourceVersion", "subresource",
        // responseStatus
        "metadata", "status", "message", "reason", "details", "code",
    ];
    fn write(v: &Value, out: &mut String) {
        match v {
            Value::Object(m) => {
                out.push('{');
                let rank = |k: &str| ORDER.iter().position(|o| *o == k).unwrap_or(usize::MAX);
                let mut keys: Vec<(usize, &String)> = m.keys().map(|k| (rank(k), k)).collect();
                keys.sort();
                let keys: Vec<&String> = keys.into_iter().map(|(_, k)| k).collect();
                for (i, k) in keys.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    out.push_str(&serde_json::to_string(k).unwrap_or_default());
                    out.push(':');
                    write(&m[k.as_str()], out);
                }
                out.push('}');
            }
            Value::Array(a) => {
                out.push('[');
                for (i, x) in a.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    write(x, out);
                }
                out.push(']');
            }
            other => out.push_str(&other.to_string()),
        }
    }
    let mut s = String::new();
    write(ev, &mut s);
    s
}
