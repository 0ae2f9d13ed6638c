//! kube-apiserver: REST semantics over etcd, with admission, validation, audit and watch fan-out.
//!
//! Real counterparts: `staging/src/k8s.io/apiserver/pkg/endpoints/handlers/{create,get,update,patch,delete,watch}.go`,
//! `staging/src/k8s.io/apiserver/pkg/registry/generic/registry/store.go` (the generic registry),
//! the per-resource strategies in `pkg/registry/{apps/deployment,apps/replicaset,core/pod,core/node,core/namespace}`,
//! `pkg/registry/core/pod/storage/storage.go` (the `binding` subresource), the audit filter
//! `staging/src/k8s.io/apiserver/pkg/endpoints/filters/audit.go`, and the watch cache. Files: this one
//! (the server, request dispatch, storage and the watch cache), `create.rs`, `update.rs`,
//! `delete.rs`, `binding.rs`, `watch.rs` (watchers and fan-out), `audit/` (the audit policy, events and
//! the Logs Insights queries over them).
//!
//! What kubesim keeps: upstream URL paths, verbs, status codes and `Status` error bodies; strict field
//! validation, defaulting, validation; `generateName`, uid, creationTimestamp, generation,
//! resourceVersion = etcd mod revision; optimistic concurrency; graceful deletion of pods; finalizers
//! for foreground/orphan deletion; audit events at the level EKS's audit policy gives each request; watches with label and
//! field selectors that see ADDED/MODIFIED/DELETED as objects enter and leave the selection.
//!
//! What kubesim simplifies: no authentication or RBAC (identities are given, every request is
//! allowed, and the audit annotation says which RBAC binding would allow it); no protobuf; no
//! managedFields; strategic merge patch is simplified (see [`patch`]).
//!
//! **Architecture invariant:** this is the only module that touches [`crate::etcd`]. Components reach
//! state only through [`ApiServer::handle`] and watch events.

use crate::api::{defaults, field, meta, names, patch, quota, schema, time, validation};
use crate::api::request::{EventType, Identity, Method, PatchType, Request, RequestInfo, Response};

pub mod apply;
pub mod audit;
pub mod authorizer;
pub mod aggregator;
mod binding;
mod create;
mod delete;
mod eviction;
pub mod fields;
pub mod fault;
mod rbac;
pub mod review;
mod service;
pub mod token;
mod update;
mod watch;

pub use audit::audit_json;
use delete::{finalizers, pod_awaits_kubelet};
use update::to_scale;
pub use create::qos_class;
pub use service::{KUBERNETES_SERVICE_IP, NODE_PORT_MAX, NODE_PORT_MIN, SERVICE_CIDR};
pub use fields::{convert_field_selector, field_selector_matches, parse_field_selector};
pub use watch::{WatchDelivery, Watcher};
/// `apps/v1` DaemonSets carry the internal `spec.templateGeneration` as this annotation.
pub const DS_TEMPLATE_GENERATION: &str = "deprecated.daemonset.template.generation";
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

/// kube-apiserver's `--event-ttl` (default one hour): every write of an Event attaches an etcd
/// lease of this length (`registry/core/event/storage`'s TTLFunc), so an Event not written again
/// is deleted by etcd an hour later. kubesim expires it exactly then (upstream's lease manager
/// reuses a lease for a minute of writes, so a real Event lives up to a minute longer).
pub const EVENT_TTL_MS: i64 = 60 * 60 * 1000;

/// Limits, stated and enforced.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Upper bound on stored objects of all kinds.
    pub max_objects: usize,
    /// Upper bound on a request body (kube-apiserver's limit is 3 MiB).
    pub max_body_bytes: usize,
    /// Audit events kept in memory.
    pub max_audit_events: usize,
    /// Bytes of audit events kept in memory (the request and response bodies make lines of a
    /// few KiB): past it the oldest half goes, counted in `audit_total`.
    pub max_audit_bytes: usize,
    /// kubesim refuses Deployments/ReplicaSets asking for more replicas than this.
    pub max_replicas: i64,
    /// etcd revisions kept before automatic compaction (the page's time travel reads old ones).
    pub etcd_history: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits { max_objects: 250_000, max_body_bytes: 3 * 1024 * 1024, max_audit_events: 200_000, max_audit_bytes: 128 * 1024 * 1024, max_replicas: 5_000, etcd_history: 200_000 }
    }
}

/// How many URIs [`ApiServer::request_info`] keeps parsed.
pub const REQUEST_INFO_CACHE: usize = 4_096;

pub struct ApiServer {
    etcd: Etcd,
    /// Audit events, one JSON line each (field order as the log backend writes them). Kept as text:
    /// a parsed `Value` per request would cost several KiB each in a long run.
    audit: Vec<String>,
    /// For each kept line, the number of the request it records (see [`ApiServer::requests_handled`]).
    audit_seq: Vec<u64>,
    audit_bytes: usize,
    audit_dropped: u64,
    /// The audit policy ([`audit::policy::Policy::eks`]).
    audit_policy: audit::policy::Policy,
    /// Requests handled so far (including those the policy does not log).
    requests: u64,
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
    /// The kubelet call a `pods/log` request resolved to, taken into its [`Outcome`].
    pending_proxy: Option<Proxy>,
    /// Injected API errors waiting for their requests ([`fault`]).
    faults: Vec<fault::ApiFault>,
    /// The RBAC authorizer's view of the RBAC objects, rebuilt after one of them changes.
    rbac: Option<Rc<authorizer::rbac::Policy>>,
    /// Decisions already made under the current policy (the same component asks the same
    /// question many times); cleared with it.
    decisions: std::collections::HashMap<u64, Vec<(authorizer::Attributes, Rc<authorizer::Authorized>)>>,
    /// `NewRequestInfo`'s parse of the URIs seen lately, shared with the trace's messages (a
    /// Lease renewal or a status patch sends the same URI again and again).
    request_infos: std::collections::HashMap<Rc<str>, Vec<(Method, Rc<RequestInfo>)>>,
    /// The first requests of the control plane's own users (`system:…`) that authorization
    /// refused, as `USER VERB URI` (at most 32): the bootstrap policy must let them all through.
    system_denials: Vec<String>,
    /// Set while a request with `dryRun=All` is handled: [`ApiServer::store`] and
    /// [`ApiServer::remove`] check their preconditions and answer as if they wrote, but etcd and
    /// the watch cache are untouched (the registry's `DryRunnableStorage`).
    dry_run: bool,
    /// `apiserver_request_total`: requests by (verb, dry run, group, version, resource,
    /// subresource, scope, code), as the metrics filter counts them (`kubesim serve`'s
    /// `/metrics`; not in the page's build).
    #[cfg(not(target_arch = "wasm32"))]
    request_counts: BTreeMap<RequestKey, u64>,
    /// apiextensions-apiserver's view of the CRDs (what custom resources are served), rebuilt
    /// after each write of a CRD.
    crds: crate::apiextensions::CrdRegistry,
}

/// The labels of one `apiserver_request_total` series.
/// (For a served resource the names are the table's: no allocation per request on the hot path;
/// an `events.k8s.io` request counts under the core Event storage it is served by.)
pub type RequestKey = (&'static str, bool, &'static str, &'static str, &'static str, String, &'static str, u16);

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
    /// Set for `pods/log`: the call to make to the node's kubelet (the cluster makes it).
    pub proxy: Option<Proxy>,
    /// The authorizers' decision on the request (shared with the decision cache).
    pub authz: Option<Rc<authorizer::Authorized>>,
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
    if let Some(mut d) = details {
        // StatusDetails' fields are all omitempty: no `"group": ""` for the core group
        if let Some(o) = d.as_object_mut() {
            o.retain(|_, v| v.as_str() != Some(""));
        }
        s["details"] = d;
    }
    s
}

fn err(code: u16, reason: &str, message: String, details: Option<Value>) -> Response {
    Response { code, body: status_error(code, reason, &message, details) }
}

/// The authorization filter's 403 (`responsewriters.Forbidden`).
fn forbidden(attrs: &authorizer::Attributes, reason: &str) -> Response {
    let mut details = serde_json::Map::new();
    if !attrs.name.is_empty() {
        details.insert("name".into(), json!(attrs.name));
    }
    if !attrs.api_group.is_empty() {
        details.insert("group".into(), json!(attrs.api_group));
    }
    if !attrs.resource.is_empty() {
        details.insert("kind".into(), json!(attrs.resource));
    }
    err(403, "Forbidden", authorizer::forbidden_message(attrs, reason), Some(Value::Object(details)))
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

/// The API server's `NotFoundHandler` (an unknown path, resource or subresource): a Status whose
/// `details` is present and empty, as `NewGenericServerResponse` makes it — clients read
/// `details.name` (kubectl debug tells "ephemeral containers are disabled" by it).
pub(crate) fn resource_not_found() -> Response {
    err(404, "NotFound", "the server could not find the requested resource".into(), Some(json!({})))
}

fn already_exists(info: &ResourceInfo, name: &str) -> Response {
    err(409, "AlreadyExists", format!("{} \"{}\" already exists", info.qualified(), name), Some(json!({"name": name, "group": info.group, "kind": info.resource})))
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
            audit_seq: Vec::new(),
            audit_bytes: 0,
            audit_dropped: 0,
            audit_policy: audit::policy::Policy::eks(),
            requests: 0,
            watchers: Vec::new(),
            node_watchers: Default::default(),
            general_watchers: Default::default(),
            limits,
            cache: BTreeMap::new(),
            pending_proxy: None,
            faults: Vec::new(),
            rbac: None,
            decisions: Default::default(),
            request_infos: Default::default(),
            system_denials: Vec::new(),
            dry_run: false,
            #[cfg(not(target_arch = "wasm32"))]
            request_counts: BTreeMap::new(),
            crds: Default::default(),
        }
    }

    /// The CRDs as apiextensions-apiserver serves them (discovery: what custom resources exist).
    pub fn crds(&self) -> &crate::apiextensions::CrdRegistry {
        &self.crds
    }

    /// After a write of a CRD: the served custom resources again.
    fn crd_changed(&mut self, info: &ResourceInfo) {
        if info.id == meta::Resource::CustomResourceDefinitions {
            let objs: Vec<Rc<Value>> = self.list_shared(&info.etcd_collection_prefix("")).cloned().collect();
            self.crds = crate::apiextensions::CrdRegistry::rebuild(&objs);
        }
    }

    /// etcd, read-only: for the shells' views (history, keys, revisions), never for components.
    pub fn etcd(&self) -> &Etcd {
        &self.etcd
    }

    /// Compacts etcd's history up to `rev` (at most the current revision), as kube-apiserver's
    /// compactor does every `--etcd-compaction-interval`; returns the compact revision. The watch
    /// cache keeps the current objects: only older revisions go. Used by `kubesim serve`'s dev
    /// endpoint `POST /kubesim/v1/compact`; kubesim otherwise compacts by count (`etcd_history`).
    pub fn compact_etcd(&mut self, rev: i64) -> i64 {
        self.etcd.compact(rev);
        self.etcd.compact_revision()
    }

    /// The audit events kept in memory, oldest first, one JSON line each.
    pub fn audit_log(&self) -> &[String] {
        &self.audit
    }

    /// Forgets the audit events so far, uncounted (the bootstrap's requests are not a learner's).
    pub fn clear_audit(&mut self) {
        self.audit.clear();
        self.audit_seq.clear();
        self.audit_bytes = 0;
    }

    /// For each kept audit line, the number of the request it records: the n-th call of
    /// [`ApiServer::handle`] is request n (from 1). A request the policy does not log has no
    /// line; one whose `RequestReceived` stage is logged has two.
    pub fn audit_request_seqs(&self) -> &[u64] {
        &self.audit_seq
    }

    /// `apiserver_request_total`'s series so far.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn request_counts(&self) -> &BTreeMap<RequestKey, u64> {
        &self.request_counts
    }

    /// Requests of the control plane's own users that authorization refused (see
    /// `system_denials`): none in a healthy cluster.
    pub fn system_denials(&self) -> &[String] {
        &self.system_denials
    }

    pub fn requests_handled(&self) -> u64 {
        self.requests
    }

    /// Bytes of the audit lines kept.
    pub fn audit_bytes(&self) -> usize {
        self.audit_bytes
    }

    pub fn audit_total(&self) -> u64 {
        self.audit.len() as u64 + self.audit_dropped
    }

    /// Resolves a parsed request to a served resource (the REST mapper's part of the handler chain).
    fn resolve<'a>(&self, ri: &'a RequestInfo) -> Result<Target<'a>, Response> {
        let not_found = resource_not_found;
        if !ri.is_resource_request || (ri.api_prefix == "api" && ri.api_version != "v1") {
            return Err(not_found());
        }
        let group = if ri.api_group == "events.k8s.io" { "" } else { ri.api_group.as_str() };
        if let Some(info) = meta::by_resource(group, &ri.resource) {
            return Ok(Target { info, ri });
        }
        // apiextensions-apiserver's handler: a served version of an accepted CRD, in its scope
        let crd = self.crds.by_resource(group, &ri.resource).ok_or_else(not_found)?;
        let info = crd.serving(&ri.api_version).and_then(|v| v.info).ok_or_else(not_found)?;
        if !info.namespaced && !ri.namespace.is_empty() {
            return Err(not_found());
        }
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

    /// The objects of a resource in `ns` as they are now, shared with the watch cache (no copy).
    pub fn list_objects_shared(&self, info: &ResourceInfo, ns: &str) -> Vec<Rc<Value>> {
        let prefix = info.etcd_collection_prefix(ns);
        self.list_shared(&prefix).cloned().collect()
    }

    /// An Event's etcd lease ran out (`--event-ttl`): etcd deletes the key and the watch cache
    /// sends every watcher its DELETED event, as kube-apiserver's cacher does when etcd's watch
    /// reports the lease's deletion. Nothing happens if the key was written again since
    /// `revision` (the new write has its own lease) or is gone.
    pub fn expire_lease(&mut self, key: &str, revision: i64) -> Option<(Change, Vec<(usize, WatchDelivery)>)> {
        let info = meta::lookup("events")?;
        if self.cache.get(key).map(|(_, r)| *r) != Some(revision) {
            return None;
        }
        let r = self.etcd.delete_if(key, revision).ok()?;
        let old = self.cache.remove(key).map(|(v, _)| v);
        let change = Change { op: "DELETE", key: key.to_string(), revision: r, resource: info, old, new: None };
        let deliveries = self.fan_out(std::slice::from_ref(&change));
        Some((change, deliveries))
    }

    /// The cached objects under an etcd key prefix, in key order (as etcd's range returns them).
    fn list_shared<'a>(&'a self, prefix: &'a str) -> impl Iterator<Item = &'a Rc<Value>> + 'a {
        self.cache.range(prefix.to_string()..).take_while(move |(k, _)| k.starts_with(prefix)).map(|(_, (v, _))| v)
    }

    /// Number of stored objects of all kinds.
    pub fn object_count(&self) -> usize {
        self.cache.len()
    }

    /// The request info of `method uri` (`NewRequestInfo`), parsed once for every request that
    /// sends the same URI, and the URI, shared with the trace. The table starts afresh past
    /// [`REQUEST_INFO_CACHE`] URIs.
    pub fn request_info(&mut self, method: Method, uri: &str) -> (Rc<str>, Rc<RequestInfo>) {
        if let Some((k, parsed)) = self.request_infos.get_key_value(uri) {
            if let Some((_, info)) = parsed.iter().find(|(m, _)| *m == method) {
                return (k.clone(), info.clone());
            }
        }
        if self.request_infos.len() >= REQUEST_INFO_CACHE {
            self.request_infos.clear();
        }
        let info = Rc::new(RequestInfo::parse(method, uri));
        let key = match self.request_infos.get_key_value(uri) {
            Some((k, _)) => k.clone(),
            None => Rc::from(uri),
        };
        self.request_infos.entry(key.clone()).or_default().push((method, info.clone()));
        (key, info)
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
        if self.dry_run {
            return self.dry_run_store(info, obj, key, name, expected_rev);
        }
        let mut text = serde_json::to_string(obj).unwrap_or_default();
        // etcd keeps it for its history: without the encoder's spare capacity (up to half)
        text.shrink_to_fit();
        match self.etcd.put_if(&key, text, expected_rev) {
            Ok(rev) => {
                self.rbac_changed(info);
                meta::set(obj, &["metadata", "resourceVersion"], json!(rev.to_string()));
                let new = Rc::new(obj.clone());
                let old = self.cache.insert(key.clone(), (new.clone(), rev)).map(|(v, _)| v);
                self.crd_changed(info);
                Ok(Change { op: "PUT", key, revision: rev, resource: info, old, new: Some(new) })
            }
            Err(EtcdError::TxnFailed { current }) => {
                if expected_rev == 0 && current.is_some() {
                    Err(already_exists(info, &name))
                } else {
                    Err(conflict(info, &name))
                }
            }
            Err(e) => Err(err(500, "InternalError", format!("Internal error occurred: {}", e), None)),
        }
    }

    /// `DryRunnableStorage`'s Create and GuaranteedUpdate with `dryRun`: the same precondition
    /// answers as a write (`AlreadyExists`, `Conflict`), nothing written. A created object has no
    /// resourceVersion (upstream copies the object it would have stored); an updated one keeps
    /// the stored one.
    fn dry_run_store(&mut self, info: &'static ResourceInfo, obj: &mut Value, key: String, name: String, expected_rev: i64) -> Result<Change, Response> {
        let current = self.cache.get(&key).map(|(v, r)| (v.clone(), *r));
        match (&current, expected_rev) {
            (None, 0) => {}
            (Some(_), 0) => return Err(already_exists(info, &name)),
            (Some((_, r)), e) if *r == e => {
                meta::set(obj, &["metadata", "resourceVersion"], json!(e.to_string()));
            }
            _ => return Err(conflict(info, &name)),
        }
        Ok(Change { op: "PUT", key, revision: 0, resource: info, old: current.map(|(v, _)| v), new: Some(Rc::new(obj.clone())) })
    }

    fn remove(&mut self, info: &'static ResourceInfo, obj: &Value, rev: i64) -> Result<Change, Response> {
        let key = info.etcd_key(meta::namespace(obj), meta::name(obj));
        if self.dry_run {
            // DryRunnableStorage.Delete: the object must exist and the preconditions hold
            return match self.cache.get(&key) {
                Some((old, r)) if *r == rev => Ok(Change { op: "DELETE", key, revision: 0, resource: info, old: Some(old.clone()), new: None }),
                _ => Err(conflict(info, meta::name(obj))),
            };
        }
        match self.etcd.delete_if(&key, rev) {
            Ok(r) => {
                self.rbac_changed(info);
                let old = self.cache.remove(&key).map(|(v, _)| v);
                self.crd_changed(info);
                Ok(Change { op: "DELETE", key, revision: r, resource: info, old, new: None })
            }
            Err(_) => Err(conflict(info, meta::name(obj))),
        }
    }

    /// `WithImpersonation`: a request with `Impersonate-*` headers is made as that user if its
    /// requester may `impersonate` the user (or service account) and each group; the user gets
    /// `system:authenticated` (a service account also its two groups). Returns the identity to
    /// act as (None: no impersonation), or the attributes and decision of the first denial.
    fn impersonate(&mut self, who: &Identity) -> Result<Option<Identity>, (authorizer::Attributes, Rc<authorizer::Authorized>)> {
        let Some(imp) = &who.impersonate else { return Ok(None) };
        let ask = |resource: &str, namespace: &str, name: &str| authorizer::Attributes {
            user: who.username.clone(),
            groups: who.groups.clone(),
            verb: "impersonate".into(),
            namespace: namespace.into(),
            resource: resource.into(),
            name: name.into(),
            resource_request: true,
            ..authorizer::Attributes::default()
        };
        let sa = imp.user.strip_prefix("system:serviceaccount:").and_then(|r| r.split_once(':'));
        let mut checks = vec![match sa {
            Some((ns, name)) => ask("serviceaccounts", ns, name),
            None => ask("users", "", &imp.user),
        }];
        checks.extend(imp.groups.iter().map(|g| ask("groups", "", g)));
        for a in checks {
            let d = self.authorize(&a);
            if !d.allowed() {
                return Err((a, d));
            }
        }
        let mut groups = imp.groups.clone();
        if let (Some((ns, _)), true) = (sa, imp.groups.is_empty()) {
            groups = vec!["system:serviceaccounts".into(), format!("system:serviceaccounts:{}", ns)];
        }
        let anonymous = imp.user == "system:anonymous";
        let marker = if anonymous { "system:unauthenticated" } else { "system:authenticated" };
        if !groups.iter().any(|g| g == "system:authenticated" || g == "system:unauthenticated") {
            groups.push(marker.into());
        }
        Ok(Some(Identity { username: imp.user.clone(), uid: String::new(), groups, user_agent: who.user_agent.clone(), source_ip: who.source_ip.clone(), impersonate: None }))
    }

    /// An RBAC object was written or removed: the authorizer's view is rebuilt on next use.
    fn rbac_changed(&mut self, info: &ResourceInfo) {
        if info.group == authorizer::rbac::GROUP {
            self.rbac = None;
            self.decisions.clear();
        }
    }

    /// The RBAC authorizer's view of the RBAC objects (built from the watch cache when stale).
    pub fn rbac_policy(&mut self) -> Rc<authorizer::rbac::Policy> {
        if let Some(p) = &self.rbac {
            return p.clone();
        }
        let objs: Vec<Rc<Value>> = ["clusterroles", "roles", "clusterrolebindings", "rolebindings"]
            .iter()
            .filter_map(|r| meta::by_resource(authorizer::rbac::GROUP, r))
            .flat_map(|info| self.list_shared(&info.etcd_collection_prefix("")).cloned().collect::<Vec<_>>())
            .collect();
        let p = Rc::new(authorizer::rbac::Policy::from_objects(objs.iter().map(|o| o.as_ref())));
        self.rbac = Some(p.clone());
        p
    }

    /// The authorizer chain's decision on a request ([`authorizer::authorize`]), remembered
    /// until the policy changes.
    pub fn authorize(&mut self, attrs: &authorizer::Attributes) -> Rc<authorizer::Authorized> {
        let h = attrs.cache_key();
        if let Some(d) = self.decisions.get(&h).and_then(|b| b.iter().find(|(a, _)| a == attrs)) {
            return d.1.clone();
        }
        self.decide(h, attrs.clone())
    }

    /// [`ApiServer::authorize`] for a parsed request, with no allocation when the question was
    /// asked before (the usual case: components repeat their requests).
    fn authorize_request(&mut self, ri: &RequestInfo, user: &Identity) -> Rc<authorizer::Authorized> {
        let h = authorizer::Attributes::request_cache_key(ri, &user.username, &user.groups);
        if let Some(d) = self.decisions.get(&h).and_then(|b| b.iter().find(|(a, _)| a.is_request(ri, &user.username, &user.groups))) {
            return d.1.clone();
        }
        self.decide(h, authorizer::Attributes::of_request(ri, &user.username, &user.groups))
    }

    fn decide(&mut self, h: u64, attrs: authorizer::Attributes) -> Rc<authorizer::Authorized> {
        let d = Rc::new(authorizer::Authorized { user: attrs.user.clone(), ..authorizer::authorize(&attrs, &mut || self.rbac_policy()) });
        if self.decisions.len() >= 4096 {
            self.decisions.clear();
        }
        self.decisions.entry(h).or_default().push((attrs, d.clone()));
        d
    }

    /// Handles one request at virtual time `now_ms` on behalf of `who`. Returns the response, the
    /// etcd changes made and the watch deliveries they cause. Never panics.
    pub fn handle(&mut self, req: &Request, ri: &RequestInfo, who: &Identity, now_ms: i64, rng: &mut Rng) -> Outcome {
        // autoscaling/v1 HorizontalPodAutoscalers: converted to and from the storage version
        // (`kubesim serve` only: the page's kubectl sends v2, and no other client reaches it)
        #[cfg(not(target_arch = "wasm32"))]
        if ri.verb != "watch" && matches!(ri.subresource.as_str(), "" | "status") && crate::api::hpa_conversion::is_v1_path(&req.path) {
            let v2 = Request { method: req.method, path: crate::api::hpa_conversion::v2_path(&req.path), body: req.body.as_ref().map(crate::api::hpa_conversion::v1_to_v2), patch_type: req.patch_type };
            let ri2 = RequestInfo::parse(v2.method, &v2.path);
            let mut out = self.handle(&v2, &ri2, who, now_ms, rng);
            out.response.body = crate::api::hpa_conversion::response_to_v1(&out.response.body);
            return out;
        }
        let audit_id = rng.uuid();
        self.requests += 1;
        let mut changes = Vec::new();
        let mut watch_registered = false;
        let target = self.resolve(ri);
        // the impersonation filter, then authorization as the impersonated user
        let (acting, impersonation_denied) = match self.impersonate(who) {
            Ok(acting) => (acting, None),
            Err((a, d)) => (None, Some(forbidden(&a, &d.reason)).map(|r| (r, d))),
        };
        let user = acting.as_ref().unwrap_or(who);
        let authz = match &impersonation_denied {
            Some((_, d)) => d.clone(),
            None => self.authorize_request(ri, user),
        };
        let attrs = || authorizer::Attributes::of_request(ri, &user.username, &user.groups);
        let response = match &target {
            _ if impersonation_denied.is_some() => impersonation_denied.as_ref().map(|(r, _)| r.clone()).unwrap_or_else(|| forbidden(&attrs(), "")),
            _ if !authz.allowed() => {
                if who.username.starts_with("system:") && self.system_denials.len() < 32 {
                    self.system_denials.push(format!("{} {} {}", who.username, ri.verb, req.path));
                }
                forbidden(&attrs(), &authz.reason)
            }
            Err(_) if ri.is_resource_request && req.method == Method::Post && review::REVIEWS.iter().any(|(g, r, ..)| *g == ri.api_group && *r == ri.resource) => {
                self.review(&ri.resource, req.body.as_ref(), &ri.namespace, user, now_ms).unwrap_or_else(|r| r)
            }
            Err(r) => match req.method {
                Method::Get => self.aggregate(req).unwrap_or_else(|| r.clone()),
                _ => r.clone(),
            },
            Ok(t) => {
                let size = req.body.as_ref().map(encoded_len).unwrap_or(0);
                if size > self.limits.max_body_bytes {
                    err(413, "RequestEntityTooLarge", "Request entity too large: limit is 3145728".into(), None)
                } else {
                    match dry_run_option(req, ri) {
                        Err(r) => r,
                        Ok(dry_run) => {
                            self.dry_run = dry_run;
                            let r = self.dispatch(req, t, user, now_ms, rng, &mut changes, &mut watch_registered);
                            if std::mem::take(&mut self.dry_run) {
                                // nothing was stored: no etcd transaction, no watch event
                                changes.clear();
                            }
                            r.unwrap_or_else(|r| r)
                        }
                    }
                }
            }
        };
        self.record_audit(req, ri, target.as_ref().ok(), who, acting.as_ref(), &authz, &response, now_ms, audit_id, self.requests);
        #[cfg(not(target_arch = "wasm32"))]
        if let Ok(t) = &target {
            let key = request_key(req, ri, t.info, response.code);
            *self.request_counts.entry(key).or_insert(0) += 1;
        }
        let deliveries = self.fan_out(&changes);
        Outcome { response, changes, deliveries, watch_registered, proxy: self.pending_proxy.take(), authz: Some(authz) }
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
            return Err(resource_not_found());
        }
        let custom = matches!(info.id, meta::Resource::Custom(_));
        let sub_ok = if custom {
            let v = self.crds.version_of(info);
            match t.ri.subresource.as_str() {
                "" => true,
                "status" => v.map(|v| v.status_subresource).unwrap_or(false),
                "scale" => v.map(|v| v.scale_subresource).unwrap_or(false),
                _ => false,
            }
        } else {
            t.ri.subresource.is_empty() || has_subresource(info, &t.ri.subresource)
        };
        if !sub_ok {
            // no handler is registered for it: the mux's NotFoundHandler
            return Err(resource_not_found());
        }
        match (req.method, t.ri.name.is_empty(), t.ri.subresource.as_str()) {
            (Method::Get, true, _) => {
                if t.q("watch") == Some("true") {
                    convert_field_selector(info.resource, t.q("fieldSelector").unwrap_or("")).map_err(bad_request)?;
                    *watch_registered = true;
                    return Ok(Response { code: 200, body: json!({}) });
                }
                self.list(t)
            }
            (Method::Get, false, "") => self.read(info, &t.ri.namespace, &t.ri.name).map(|(v, _)| Response { code: 200, body: v }).ok_or_else(|| not_found(info, &t.ri.name)),
            // the status subresource's GET answers the whole object (its REST storage shares the
            // object's store: `StatusREST.Get`)
            (Method::Get, false, "status" | "ephemeralcontainers") => self.read(info, &t.ri.namespace, &t.ri.name).map(|(v, _)| Response { code: 200, body: v }).ok_or_else(|| not_found(info, &t.ri.name)),
            (Method::Get, false, "log") if info.resource == "pods" => {
                let (pod, _) = self.read_shared(info, &t.ri.namespace, &t.ri.name).ok_or_else(|| not_found(info, &t.ri.name))?;
                let proxy = LogProxy::for_pod(&pod, t.q("container"), t.q("previous") == Some("true")).map_err(bad_request)?;
                self.pending_proxy = Some(Proxy::Logs(proxy));
                // the body is the kubelet's answer, which the cluster puts in
                Ok(Response { code: 200, body: Value::String(String::new()) })
            }
            #[cfg(not(target_arch = "wasm32"))]
            (Method::Get, false, "proxy") if matches!(info.resource, "pods" | "services") => {
                let proxy = self.proxy_location(t)?;
                self.pending_proxy = Some(Proxy::Http(proxy));
                Ok(Response { code: 200, body: Value::String(String::new()) })
            }
            (Method::Get, false, "scale") => {
                let (obj, _) = self.read_shared(info, &t.ri.namespace, &t.ri.name).ok_or_else(|| not_found(info, &t.ri.name))?;
                Ok(Response { code: 200, body: to_scale(&obj) })
            }
            (Method::Post, true, _) => self.create(req, t, who, now_ms, rng, changes),
            // the streaming subresources: kube-apiserver upgrades the connection and proxies it
            // to the kubelet of the Pod's node (`PortForwardLocation`, `AttachLocation`), whose
            // streams the shells draw
            (Method::Post, false, "portforward" | "attach" | "exec") if info.resource == "pods" => {
                let (pod, _) = self.read_shared(info, &t.ri.namespace, &t.ri.name).ok_or_else(|| not_found(info, &t.ri.name))?;
                if meta::get_str(&pod, &["spec", "nodeName"]).is_empty() {
                    return Err(bad_request(format!("pod {} does not have a host assigned", t.ri.name)));
                }
                Ok(Response { code: 200, body: Value::String(String::new()) })
            }
            (Method::Post, false, "binding") => self.bind(req, t, now_ms, changes),
            (Method::Post, false, "eviction") => self.evict(req, t, now_ms, changes),
            (Method::Post, false, "token") if info.resource == "serviceaccounts" => self.create_token(req, t, now_ms, rng),
            (Method::Put, false, sub) => {
                let body = req.body.clone().ok_or_else(|| bad_request("the body of the request was in an unknown format".into()))?;
                if info.group == authorizer::rbac::GROUP && sub.is_empty() {
                    let mut checked = body.clone();
                    meta::set(&mut checked, &["metadata", "namespace"], json!(t.ri.namespace));
                    self.confirm_no_escalation(info, &checked, who)?;
                }
                self.update(t, sub, body, true, now_ms, rng, changes)
            }
            (Method::Patch, false, sub) if req.patch_type == PatchType::Apply => self.server_side_apply(req, t, sub, who, now_ms, rng, changes),
            (Method::Patch, false, _) if custom && req.patch_type == PatchType::Strategic => {
                // the custom resource handler's patch types: no strategic merge
                Err(err(415, "UnsupportedMediaType", "the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml".into(), None))
            }
            (Method::Patch, false, sub) => {
                if t.q("force").is_some() {
                    return Err(patch_options_invalid("force", "Forbidden: may not be specified for non-apply patch", "FieldValueForbidden"));
                }
                let (current, _) = self.read_shared(info, &t.ri.namespace, &t.ri.name).ok_or_else(|| not_found(info, &t.ri.name))?;
                let empty = json!({});
                let patch = req.body.as_ref().unwrap_or(&empty);
                let mut target = if sub == "scale" { to_scale(&current) } else { Value::clone(&current) };
                drop(current);
                match req.patch_type {
                    PatchType::Merge => patch::merge_patch(&mut target, patch),
                    PatchType::Strategic => patch::strategic_merge_patch(&mut target, patch),
                    PatchType::Json => patch::json_patch(&mut target, patch).map_err(|e| err(422, "Invalid", e, None))?,
                    PatchType::Apply => unreachable!("server-side apply is the arm above"),
                }
                // the patched JSON is decoded into the typed object: a value of the wrong type
                // fails as the decoder words it (`json: cannot unmarshal string into Go struct
                // field DeploymentSpec.spec.replicas of type int32`)
                if sub.is_empty() || sub == "status" || sub == "ephemeralcontainers" {
                    if let Err(e) = crate::api::schema::type_check(&info.api_version(), info.kind, &target) {
                        return Err(bad_request(e.message));
                    }
                }
                self.update(t, sub, target, false, now_ms, rng, changes)
            }
            (Method::Delete, false, "") => self.delete(req, t, now_ms, changes),
            (Method::Delete, true, "") if info.namespaced || custom => self.delete_collection(req, t, now_ms, changes),
            // errors.NewMethodNotSupported
            _ => Err(err(405, "MethodNotAllowed", "the server does not allow this method on the requested resource".into(), Some(json!({"group": info.group, "kind": info.resource})))),
        }
    }

    /// `PATCH` with `application/apply-patch+yaml` ([`apply`]): create-on-apply (201) or merge
    /// into the live object, then the same update path as every write.
    #[allow(clippy::too_many_arguments)]
    fn server_side_apply(&mut self, req: &Request, t: &Target, sub: &str, who: &Identity, now_ms: i64, rng: &mut Rng, changes: &mut Vec<Change>) -> Result<Response, Response> {
        let info = t.info;
        let manager = t.q("fieldManager").unwrap_or("").to_string();
        if manager.is_empty() {
            return Err(patch_options_invalid("fieldManager", "Required value: is required for apply patch", "FieldValueRequired"));
        }
        let applied = req.body.clone().filter(Value::is_object).ok_or_else(|| bad_request("the body of the request was in an unknown format".into()))?;
        let force = t.q("force") == Some("true");
        let now = crate::api::time::rfc3339(now_ms);
        match self.read(info, &t.ri.namespace, &t.ri.name) {
            None if sub.is_empty() => {
                if meta::name(&applied) != t.ri.name {
                    return Err(bad_request(format!("the name of the object ({}) does not match the name on the URL ({})", meta::name(&applied), t.ri.name)));
                }
                let obj = apply::apply(None, &applied, &manager, force, &now).unwrap_or(applied);
                let create = Request { method: Method::Post, path: req.path.clone(), body: Some(obj), patch_type: PatchType::Apply };
                self.create(&create, t, who, now_ms, rng, changes)
            }
            None => Err(not_found(info, &t.ri.name)),
            Some((live, _)) => match apply::apply(Some(&live), &applied, &manager, force, &now) {
                // the merged object keeps the live resourceVersion unless the configuration sets one
                Ok(target) => self.update(t, sub, target, false, now_ms, rng, changes),
                Err(conflicts) => {
                    let causes: Vec<Value> = conflicts.iter().map(|c| json!({"reason": "FieldManagerConflict", "message": format!("conflict with \"{}\" using {}", c.manager, c.api_version), "field": c.path})).collect();
                    Err(err(409, "Conflict", apply::conflict_message(&conflicts), Some(json!({"causes": causes}))))
                }
            },
        }
    }

    /// A list, served from the watch cache in key order. With `limit`, one page: the cache is
    /// read from the continue token's key and stops once the page is full (objects copied and
    /// selectors evaluated for the page only; without a selector the keys after it are counted
    /// for `remainingItemCount`), as the etcd3 store's `GetList` pages; `continue` is upstream's token
    /// (`storage.EncodeContinue`: base64url of `{"v":"meta.k8s.io/v1","rv":N,"start":KEY}`, the
    /// key relative to the list's prefix) and `remainingItemCount` is set when no selector
    /// filters the list. What kubesim simplifies: a continued page reads the objects as they are
    /// now (upstream reads at the token's revision) and carries the token's resourceVersion.
    fn list(&self, t: &Target) -> Result<Response, Response> {
        let labels = meta::parse_label_selector(t.q("labelSelector").unwrap_or("")).map_err(bad_request)?;
        let fields = convert_field_selector(t.info.resource, t.q("fieldSelector").unwrap_or("")).map_err(bad_request)?;
        let prefix = t.info.etcd_collection_prefix(&t.ri.namespace);
        let limit = t.q("limit").and_then(|l| l.parse::<i64>().ok()).filter(|l| *l > 0).map(|l| l as usize);
        let (start, rv) = match t.q("continue").filter(|c| !c.is_empty()) {
            None => (String::new(), self.etcd.revision()),
            Some(token) => decode_continue(token)?,
        };
        let selective = !labels.is_empty() || !fields.is_empty();
        let mut cursor = self.cache.range(format!("{}{}", prefix, start)..).take_while(|(k, _)| k.starts_with(&prefix));
        let mut items: Vec<Value> = Vec::new();
        let mut last: Option<&str> = None;
        for (k, (o, _)) in cursor.by_ref() {
            if meta::label_selector_matches(&labels, &meta::labels(o)) && field_selector_matches(t.info.resource, &fields, o) {
                items.push(Value::clone(o));
                if limit == Some(items.len()) {
                    last = Some(k);
                    break;
                }
            }
        }
        let mut metadata = json!({"resourceVersion": rv.to_string()});
        if let Some(last) = last {
            let remaining = if selective { usize::from(cursor.next().is_some()) } else { cursor.count() };
            if remaining > 0 {
                let token = json!({"v": "meta.k8s.io/v1", "rv": rv, "start": format!("{}\u{0}", &last[prefix.len()..])});
                metadata["continue"] = json!(crate::api::base64::encode_url(token.to_string().as_bytes()));
                if !selective {
                    metadata["remainingItemCount"] = json!(remaining);
                }
            }
        }
        Ok(Response {
            code: 200,
            body: json!({
                "kind": format!("{}List", t.info.kind),
                "apiVersion": t.info.api_version(),
                "metadata": metadata,
                "items": items,
            }),
        })
    }

}

/// The length of a value's compact JSON encoding, counted without building the text.
fn encoded_len(v: &Value) -> usize {
    struct Count(usize);
    impl std::io::Write for Count {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            self.0 += b.len();
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut c = Count(0);
    let _ = serde_json::to_writer(&mut c, v);
    c.0
}

/// `storage.DecodeContinue`: the token's start key (relative to the list's prefix) and
/// resourceVersion, or its errors as the 400 the list handler answers.
fn decode_continue(token: &str) -> Result<(String, i64), Response> {
    let bad = |why: String| bad_request(format!("continue key is not valid{}", why));
    let bytes = crate::api::base64::decode(token).ok_or_else(|| bad(": illegal base64 data".into()))?;
    let v: Value = serde_json::from_slice(&bytes).map_err(|e| bad(format!(": {}", e)))?;
    let version = meta::get_str(&v, &["v"]);
    if version != "meta.k8s.io/v1" {
        return Err(bad(format!(": server does not recognize this encoded version {}", version)));
    }
    let rv = v.get("rv").and_then(Value::as_i64).unwrap_or(0);
    if rv == 0 {
        return Err(bad(": incorrect encoded start resourceVersion (version meta.k8s.io/v1)".into()));
    }
    let start = meta::get_str(&v, &["start"]);
    if start.is_empty() {
        return Err(bad(": encoded start key empty (version meta.k8s.io/v1)".into()));
    }
    // path.Clean must leave "/" + start unchanged: the key cannot climb out of the list's prefix
    let key = if start.starts_with('/') { start.to_string() } else { format!("/{}", start) };
    if key.split('/').skip(1).any(|s| s.is_empty() || s == "." || s == "..") {
        return Err(bad(format!(": {}", start)));
    }
    Ok((key[1..].to_string(), rv))
}

/// The subresources kubesim's API server has handlers for (`kubesim serve` lists the same in
/// discovery; `exec`, `attach` and `portforward` are answered by the shells).
pub fn has_subresource(info: &ResourceInfo, sub: &str) -> bool {
    match (info.kind, sub) {
        ("Deployment" | "ReplicaSet" | "StatefulSet" | "ReplicationController", "scale") => true,
        ("Pod", "binding" | "eviction" | "log" | "proxy" | "exec" | "attach" | "portforward" | "ephemeralcontainers") => true,
        ("Service", "proxy") => true,
        ("Namespace", "finalize") => true,
        ("ServiceAccount", "token") => true,
        (kind, "status") => !no_status_subresource(kind),
        _ => false,
    }
}

/// Kinds whose storage has no `status` subresource.
pub fn no_status_subresource(kind: &str) -> bool {
    matches!(kind, "Event" | "Lease" | "Endpoints" | "ControllerRevision" | "StorageClass" | "PriorityClass" | "EndpointSlice" | "ConfigMap" | "Secret" | "ServiceAccount" | "Role" | "ClusterRole" | "RoleBinding" | "ClusterRoleBinding" | "IngressClass")
}

/// The labels the metrics filter gives a request (`metrics.CleanVerb`, `CleanScope`).
#[cfg(not(target_arch = "wasm32"))]
fn request_key(req: &Request, ri: &RequestInfo, info: &'static ResourceInfo, code: u16) -> RequestKey {
    let verb = match (req.method, ri.verb) {
        (_, "watch") => "WATCH",
        (_, "list") => "LIST",
        (Method::Get, _) => "GET",
        (Method::Post, _) => "POST",
        (Method::Put, _) => "PUT",
        (Method::Patch, _) if req.patch_type == PatchType::Apply => "APPLY",
        (Method::Patch, _) => "PATCH",
        (Method::Delete, _) => "DELETE",
    };
    let scope = if !ri.name.is_empty() || ri.verb == "create" {
        "resource"
    } else if !ri.namespace.is_empty() {
        "namespace"
    } else {
        "cluster"
    };
    let dry_run = ri.query("dryRun").is_some();
    (verb, dry_run, info.group, info.version, info.resource, ri.subresource.clone(), scope, code)
}

/// The `dryRun` query parameter of a write (`CreateOptions`, `UpdateOptions`, `PatchOptions`,
/// `DeleteOptions`): only `All` is accepted (`ValidateDryRun`); reads ignore it.
fn dry_run_option(req: &Request, ri: &RequestInfo) -> Result<bool, Response> {
    let method = req.method;
    let options = match method {
        Method::Get => return Ok(false),
        Method::Post => "CreateOptions",
        Method::Put => "UpdateOptions",
        Method::Patch => "PatchOptions",
        Method::Delete => "DeleteOptions",
    };
    let mut values: Vec<&str> = ri.query.iter().filter(|(k, _)| k == "dryRun").map(|(_, v)| v.as_str()).collect();
    // a DELETE's DeleteOptions body carries it too (client-go's `Delete` sends it there)
    if method == Method::Delete {
        if let Some(a) = req.body.as_ref().and_then(|b| b.get("dryRun")).and_then(|d| d.as_array()) {
            values.extend(a.iter().filter_map(|v| v.as_str()));
        }
    }
    if values.iter().all(|v| *v == "All") {
        return Ok(!values.is_empty());
    }
    let list = values.iter().map(|v| format!("{:?}", v)).collect::<Vec<_>>().join(", ");
    let detail = format!("Unsupported value: []string{{{}}}: supported values: \"All\"", list);
    Err(err(
        422,
        "Invalid",
        format!("{}.meta.k8s.io \"\" is invalid: dryRun: {}", options, detail),
        Some(json!({"group": "meta.k8s.io", "kind": options, "causes": [{"reason": "FieldValueNotSupported", "message": detail, "field": "dryRun"}]})),
    ))
}

/// `PatchOptions.meta.k8s.io "" is invalid: …` (ValidatePatchOptions), 422.
fn patch_options_invalid(field: &str, detail: &str, reason: &str) -> Response {
    err(
        422,
        "Invalid",
        format!("PatchOptions.meta.k8s.io \"\" is invalid: {}: {}", field, detail),
        Some(json!({"group": "meta.k8s.io", "kind": "PatchOptions", "causes": [{"reason": reason, "message": detail, "field": field}]})),
    )
}

fn conflict_msg(info: &ResourceInfo, name: &str, msg: String) -> Response {
    err(
        409,
        "Conflict",
        format!("Operation cannot be fulfilled on {} \"{}\": {}", info.qualified(), name, msg),
        Some(json!({"name": name, "kind": info.resource})),
    )
}


/// A call the API server makes on a client's behalf (the cluster, which is the network, makes it).
#[derive(Clone, Debug, PartialEq)]
pub enum Proxy {
    /// `pods/log`: to the kubelet of the Pod's node.
    Logs(LogProxy),
    /// A group an `APIService` hands to an extension API server (`metrics.k8s.io`).
    Aggregated(aggregator::AggregatedProxy),
    /// `pods/NAME/proxy/…`, `services/NAME/proxy/…`: an HTTP GET to a Pod's IP and port
    /// (`kubesim serve` only: the page's console has no `get --raw` nor `kubectl proxy`).
    #[cfg(not(target_arch = "wasm32"))]
    Http(HttpProxy),
}

/// Where `pods/NAME[:PORT]/proxy/PATH` and `services/NAME[:PORT]/proxy/PATH` go: the Pod's IP
/// (for a Service, an address of its Endpoints picked at random, as `ResourceLocation` does,
/// not its ClusterIP) and port, and the path after `/proxy`.
#[derive(Clone, Debug, PartialEq)]
pub struct HttpProxy {
    pub ip: String,
    pub port: i64,
    pub path: String,
}

#[cfg(not(target_arch = "wasm32"))]
impl ApiServer {
    /// The registries' `ResourceLocation` (`pkg/registry/core/pod/strategy.go`,
    /// `pkg/registry/core/service/storage/storage.go`) for the proxy subresources.
    fn proxy_location(&self, t: &Target) -> Result<HttpProxy, Response> {
        let info = t.info;
        // [scheme:]name[:port]
        let id = t.ri.name.as_str();
        let parts: Vec<&str> = id.split(':').collect();
        let (name, port) = match parts.as_slice() {
            [n] => (*n, ""),
            [n, p] => (*n, *p),
            [_, n, p] => (*n, *p),
            _ => return Err(bad_request(format!("invalid request {:?}", id))),
        };
        let marker = format!("/{}/{}/proxy", info.resource, id);
        let path = t.ri.path.find(&marker).map(|i| &t.ri.path[i + marker.len()..]).unwrap_or("");
        let path = if path.is_empty() { "/".to_string() } else { path.to_string() };
        let unavailable = |msg: String| err(503, "ServiceUnavailable", msg, None);
        let (obj, _) = self.read(info, &t.ri.namespace, name).ok_or_else(|| not_found(info, name))?;
        if info.resource == "pods" {
            let port = if port.is_empty() {
                meta::get_array(&obj, &["spec", "containers"]).iter().find_map(|c| meta::get_array(c, &["ports"]).first().and_then(|p| meta::get_i64(p, &["containerPort"]))).unwrap_or(80)
            } else {
                port.parse().map_err(|_| bad_request(format!("invalid port {:?}", port)))?
            };
            let ip = meta::get_str(&obj, &["status", "podIP"]).to_string();
            if ip.is_empty() {
                return Err(bad_request("address not allowed".into()));
            }
            return Ok(HttpProxy { ip, port, path });
        }
        let mut port_name = port.to_string();
        if let Ok(n) = port.parse::<i64>() {
            match meta::get_array(&obj, &["spec", "ports"]).iter().find(|p| meta::get_i64(p, &["port"]) == Some(n)) {
                Some(p) => port_name = meta::get_str(p, &["name"]).to_string(),
                None => return Err(unavailable(format!("no service port {} found for service \"{}\"", n, name))),
            }
        }
        let eps = self.read(meta::lookup("endpoints").expect("endpoints"), &t.ri.namespace, name).map(|(e, _)| e);
        let subsets = eps.as_ref().map(|e| meta::get_array(e, &["subsets"]).to_vec()).unwrap_or_default();
        if subsets.is_empty() {
            return Err(unavailable(format!("no endpoints available for service \"{}\"", name)));
        }
        for ss in &subsets {
            let addrs = meta::get_array(ss, &["addresses"]);
            if addrs.is_empty() {
                continue;
            }
            if let Some(p) = meta::get_array(ss, &["ports"]).iter().find(|p| meta::get_str(p, &["name"]) == port_name) {
                let ip = meta::get_str(&addrs[0], &["ip"]).to_string();
                return Ok(HttpProxy { ip, port: meta::get_i64(p, &["port"]).unwrap_or(0), path });
            }
        }
        Err(unavailable(format!("no endpoints available for service \"{}\"", id)))
    }
}

/// `pods/log`: kube-apiserver validates the request (`pkg/registry/core/pod/strategy.go`
/// `LogLocation`) and proxies it to the kubelet of the pod's node. The handler returns this in its
/// [`Outcome`]; the cluster, which is the network, makes the proxied call.
#[derive(Clone, Debug, PartialEq)]
pub struct LogProxy {
    pub node: String,
    pub namespace: String,
    pub pod: String,
    pub container: String,
    pub previous: bool,
}

impl LogProxy {
    /// Picks and checks the container as `LogLocation` does.
    pub fn for_pod(pod: &Value, container: Option<&str>, previous: bool) -> Result<LogProxy, String> {
        let names = |field: &str| -> Vec<String> {
            meta::get(pod, &["spec", field]).and_then(Value::as_array).map(|a| a.iter().map(|c| meta::get_str(c, &["name"]).to_string()).collect()).unwrap_or_default()
        };
        let (containers, inits, ephemerals) = (names("containers"), names("initContainers"), names("ephemeralContainers"));
        let name = meta::name(pod);
        let container = match container.filter(|c| !c.is_empty()) {
            Some(c) => c.to_string(),
            None if containers.len() == 1 => containers[0].clone(),
            None => {
                let mut msg = format!("a container name must be specified for pod {}, choose one of: [{}]", name, containers.join(" "));
                if !inits.is_empty() {
                    msg.push_str(&format!(" or one of the init containers: [{}]", inits.join(" ")));
                }
                if !ephemerals.is_empty() {
                    msg.push_str(&format!(" or one of the ephemeral containers: [{}]", ephemerals.join(" ")));
                }
                return Err(msg);
            }
        };
        if !containers.contains(&container) && !inits.contains(&container) && !ephemerals.contains(&container) {
            return Err(format!("container {} is not valid for pod {}", container, name));
        }
        let node = meta::get_str(pod, &["spec", "nodeName"]).to_string();
        if node.is_empty() {
            // not scheduled yet: there is no kubelet to ask
            return Err(format!("pod {} does not have a host assigned", name));
        }
        Ok(LogProxy { node, namespace: meta::namespace(pod).to_string(), pod: name.to_string(), container, previous })
    }

    /// The kubelet's endpoint for it.
    pub fn kubelet_path(&self) -> String {
        let mut p = format!("/containerLogs/{}/{}/{}", self.namespace, self.pod, self.container);
        if self.previous {
            p.push_str("?previous=true");
        }
        p
    }
}
