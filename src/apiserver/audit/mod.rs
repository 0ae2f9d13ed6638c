//! The audit log: `audit.k8s.io/v1` Events for the requests the audit policy selects, at the
//! level it gives them.
//!
//! Real counterparts: `staging/src/k8s.io/apiserver/pkg/endpoints/filters/audit.go` (`WithAudit`:
//! evaluate the policy, skip level `None`, emit `RequestReceived` unless omitted, `ResponseStarted`
//! for long-running requests, then `ResponseComplete`; the response writer sets
//! `responseStatus.code`), `pkg/audit/request.go` (`LogRequestMetadata`: user, verb, URI, user
//! agent, `objectRef` from the request info; `LogRequestObject`, called by the create and update
//! handlers with the decoded and defaulted body and by delete with its `DeleteOptions`: fills
//! `objectRef`'s empty namespace and name and its uid and resourceVersion from the body's
//! metadata at every level, and logs `requestObject` from level Request; `LogRequestPatch`: a
//! patch's body; `LogResponseObject`, called whenever a response object is written: a `Status`
//! fills `responseStatus` (status, message, reason, details, code) and from level
//! RequestResponse the object is `responseObject`), the log backend's JSON encoding (fields in the
//! Go struct's order, HTML-safe escaping, `\u0026` for `&`) and `plugin/pkg/audit/truncate`
//! (an event over the size bound loses its request and response objects and is annotated
//! `audit.k8s.io/truncated: "true"`). The policy is [`policy`]; the queries of the learner's
//! CloudWatch console are [`insights`].
//!
//! What kubesim simplifies: a watch gets its `ResponseStarted` event only (kubesim's watches do
//! not end, so there is no `ResponseComplete`); the request object is kubesim's decoded and
//! defaulted body, and objects inside `requestObject`/`responseObject` list `kind`,
//! `apiVersion`, `metadata` (in `ObjectMeta`'s order), `spec`, `status` first and the fields
//! below them in alphabetical order (kubesim holds objects as JSON maps, kube-apiserver encodes
//! its Go structs); a Go zero struct the client did not send (`"status":{}`,
//! `"creationTimestamp":null`) is not added; the truncation bound is 256 KiB, the largest
//! CloudWatch Logs entry (EKS truncates larger events, says its best-practices guide).

pub mod insights;
pub mod policy;
pub mod regex;

use super::*;
use crate::kubectl::printers::{push_json_number, json_string};
use policy::{Attributes, Level, Stage};

/// `--audit-log-truncate-max-event-size` as kubesim sets it: CloudWatch Logs' 256 KiB entry limit.
pub const MAX_EVENT_BYTES: usize = 256 * 1024;

impl ApiServer {
    /// The audit policy kube-apiserver applies.
    pub fn audit_policy(&self) -> &policy::Policy {
        &self.audit_policy
    }

    /// Records the audit events of one request (none when the policy says `None`). `seq` is the
    /// request's number (`requests_handled`), kept beside each line for the shells.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn record_audit(&mut self, req: &Request, ri: &RequestInfo, t: Option<&Target>, who: &Identity, acting: Option<&Identity>, authz: &super::authorizer::Authorized, resp: &Response, now_ms: i64, audit_id: String, seq: u64) {
        let verb = ri.verb;
        // the request info treats a namespace as living in itself
        let namespace = if ri.resource == "namespaces" && !ri.name.is_empty() { ri.name.as_str() } else { ri.namespace.as_str() };
        let attrs = Attributes {
            user: &who.username,
            groups: &who.groups,
            verb,
            resource_request: ri.is_resource_request,
            namespace,
            api_group: &ri.api_group,
            resource: &ri.resource,
            subresource: &ri.subresource,
            name: &ri.name,
            path: &ri.path,
        };
        let cfg = self.audit_policy.evaluate(&attrs);
        if cfg.level == Level::None {
            return;
        }
        let mut ev = json!({
            "kind": "Event",
            "apiVersion": "audit.k8s.io/v1",
            "level": cfg.level.as_str(),
            "auditID": audit_id,
            "stage": Stage::RequestReceived.as_str(),
            "requestURI": req.path,
            "verb": verb,
            "user": {"username": who.username, "uid": who.uid, "groups": who.groups},
            "sourceIPs": [who.source_ip],
            "userAgent": who.user_agent,
            "requestReceivedTimestamp": time::rfc3339_micro(now_ms),
            "stageTimestamp": time::rfc3339_micro(now_ms),
            "annotations": {
                "authorization.k8s.io/decision": if authz.allowed() { "allow" } else { "forbid" },
                "authorization.k8s.io/reason": authz.reason,
            },
        });
        if who.uid.is_empty() {
            meta::remove(&mut ev, &["user", "uid"]);
        }
        if let (Some(acting), Some(m)) = (acting, ev.as_object_mut()) {
            // `impersonatedUser` follows `user`
            let entries: Vec<(String, Value)> = std::mem::take(m).into_iter().collect();
            for (k, v) in entries {
                let after_user = k == "user";
                m.insert(k, v);
                if after_user {
                    m.insert("impersonatedUser".into(), json!({"username": acting.username, "groups": acting.groups}));
                }
            }
        }
        if ri.is_resource_request {
            let mut oref = serde_json::Map::new();
            for (k, v) in [("resource", &ri.resource), ("namespace", &namespace.to_string()), ("name", &ri.name), ("apiGroup", &ri.api_group), ("apiVersion", &ri.api_version), ("subresource", &ri.subresource)] {
                if !v.is_empty() {
                    oref.insert(k.into(), json!(v));
                }
            }
            ev["objectRef"] = Value::Object(oref);
        }
        // RequestReceived: before the handler ran (no body, no response yet)
        if !cfg.omits(Stage::RequestReceived) {
            self.keep_audit(audit_line(&ev), seq);
        }
        // the handler: what it logs of the request
        let body = req.body.as_ref().filter(|b| !b.is_null());
        match (req.method, body) {
            (Method::Post | Method::Put, Some(_)) => {
                if let Some(obj) = t.and_then(|t| self.decoded_request_object(t, req)) {
                    if let Some(oref) = ev.get_mut("objectRef").and_then(Value::as_object_mut) {
                        for (k, path) in [("namespace", "namespace"), ("name", "name"), ("uid", "uid"), ("resourceVersion", "resourceVersion")] {
                            let v = meta::get_str(&obj, &["metadata", path]);
                            if !v.is_empty() && oref.get(k).is_none() {
                                oref.insert(k.into(), json!(v));
                            }
                        }
                    }
                    if cfg.level >= Level::Request {
                        ev["requestObject"] = omit_managed_fields(obj, cfg.omit_managed_fields);
                    }
                }
            }
            // ValidatePatchOptions runs before the patch is logged
            (Method::Patch, Some(b)) if cfg.level >= Level::Request && !(req.patch_type != PatchType::Apply && ri.query("force").is_some()) => {
                ev["requestObject"] = b.clone();
            }
            (Method::Delete, Some(b)) if cfg.level >= Level::Request && b.is_object() => ev["requestObject"] = b.clone(),
            _ => {}
        }
        // the response writer and LogResponseObject
        let status = resp.body.is_object() && meta::get_str(&resp.body, &["kind"]) == "Status";
        let mut rs = json!({"metadata": {}, "code": resp.code});
        if status {
            for k in ["status", "message", "reason", "details"] {
                if let Some(v) = resp.body.get(k).filter(|v| !v.is_null() && *v != "") {
                    rs[k] = v.clone();
                }
            }
        }
        ev["responseStatus"] = rs;
        let long_running = verb == "watch";
        if cfg.level >= Level::RequestResponse && !long_running && resp.body.is_object() {
            ev["responseObject"] = omit_managed_fields(resp.body.clone(), cfg.omit_managed_fields);
        }
        let stage = if long_running { Stage::ResponseStarted } else { Stage::ResponseComplete };
        if cfg.omits(stage) {
            return;
        }
        ev["stage"] = json!(stage.as_str());
        ev["stageTimestamp"] = json!(time::rfc3339_micro(now_ms + 1));
        let mut line = audit_line(&ev);
        if line.len() > MAX_EVENT_BYTES {
            // the truncate plugin
            if let Some(m) = ev.as_object_mut() {
                m.remove("requestObject");
                m.remove("responseObject");
            }
            ev["annotations"]["audit.k8s.io/truncated"] = json!("true");
            line = audit_line(&ev);
        }
        self.keep_audit(line, seq);
    }

    /// Keeps one line within the bounds (count and bytes): past either, the oldest lines go until
    /// half the bound is left, and are counted as dropped.
    fn keep_audit(&mut self, line: String, seq: u64) {
        let (max_n, max_b) = (self.limits.max_audit_events.max(2), self.limits.max_audit_bytes.max(2 * MAX_EVENT_BYTES));
        if self.audit.len() >= max_n || self.audit_bytes + line.len() > max_b {
            let mut drop = 0;
            let mut bytes = self.audit_bytes;
            while drop < self.audit.len() && (self.audit.len() - drop >= max_n / 2 || bytes + line.len() > max_b / 2) {
                bytes -= self.audit[drop].len();
                drop += 1;
            }
            self.audit.drain(..drop);
            self.audit_seq.drain(..drop);
            self.audit_bytes = bytes;
            self.audit_dropped += drop as u64;
        }
        self.audit_bytes += line.len();
        self.audit.push(line);
        self.audit_seq.push(seq);
    }

    /// The request body as the create and update handlers decode it (`apiVersion` and `kind`
    /// from the URL when absent, strict field validation, Go's round trip, the scheme's
    /// defaults), before the registry fills in names, uids and timestamps; `None` when decoding
    /// fails (the handler answers 400 before logging it).
    fn decoded_request_object(&self, t: &Target, req: &Request) -> Option<Value> {
        let mut obj = req.body.clone().filter(Value::is_object)?;
        match t.ri.subresource.as_str() {
            // binding, scale, eviction: their own kinds, logged as sent
            "binding" | "scale" | "eviction" => {
                let (av, kind) = (meta::get_str(&obj, &["apiVersion"]).to_string(), meta::get_str(&obj, &["kind"]).to_string());
                schema::normalize(&av, &kind, &mut obj);
                return Some(obj);
            }
            _ => {}
        }
        // an events.k8s.io/v1 Event is logged in the version it was sent in
        if meta::get_str(&obj, &["apiVersion"]) == "events.k8s.io/v1" {
            return Some(obj);
        }
        self.decode(t, &mut obj).ok()?;
        schema::normalize(t.info.api_version().as_str(), t.info.kind, &mut obj);
        scheme_defaults(t.info.kind, &mut obj);
        Some(obj)
    }
}

/// `SetObjectDefaults_<Kind>`: what decoding a body defaults, before any strategy runs.
fn scheme_defaults(kind: &str, obj: &mut Value) {
    match kind {
        "Deployment" => defaults::set_object_defaults_deployment(obj),
        "ReplicaSet" => defaults::set_object_defaults_replica_set(obj),
        "DaemonSet" => defaults::set_object_defaults_daemon_set(obj),
        "StatefulSet" => defaults::set_object_defaults_stateful_set(obj),
        "Job" => defaults::set_object_defaults_job(obj),
        "CronJob" => defaults::set_object_defaults_cron_job(obj),
        "Pod" => defaults::set_object_defaults_pod(obj),
        "Node" => defaults::set_object_defaults_node(obj),
        "Namespace" => defaults::set_object_defaults_namespace(obj),
        "Service" => defaults::set_object_defaults_service(obj),
        "Endpoints" => defaults::set_object_defaults_endpoints(obj),
        "EndpointSlice" => defaults::set_object_defaults_endpoint_slice(obj),
        "PersistentVolumeClaim" => defaults::set_object_defaults_pvc(obj),
        "PersistentVolume" => defaults::set_object_defaults_pv(obj),
        "StorageClass" => defaults::set_object_defaults_storage_class(obj),
        "PriorityClass" => defaults::set_object_defaults_priority_class(obj),
        "Secret" => defaults::set_object_defaults_secret(obj),
        _ => {}
    }
}

/// `copyWithoutManagedFields`: the object (or a list's items) without `metadata.managedFields`.
fn omit_managed_fields(mut v: Value, omit: bool) -> Value {
    if omit {
        meta::remove(&mut v, &["metadata", "managedFields"]);
        if let Some(items) = v.get_mut("items").and_then(Value::as_array_mut) {
            for i in items {
                meta::remove(i, &["metadata", "managedFields"]);
            }
        }
    }
    v
}

/// The Go struct an object of the event is, for its field order.
#[derive(Clone, Copy, PartialEq)]
enum Shape {
    Event,
    UserInfo,
    ObjectReference,
    /// `metav1.Status` as `responseStatus`.
    Status,
    StatusDetails,
    StatusCause,
    /// A Kubernetes object (`requestObject`, `responseObject`, list items).
    Object,
    ObjectMeta,
    OwnerReference,
    /// core/v1 `ObjectReference` (a Binding's `target`).
    CoreReference,
    /// Maps (Go sorts their keys) and structs kubesim does not order.
    Sorted,
}

impl Shape {
    fn order(self, kind: &str) -> &'static [&'static str] {
        match self {
            Shape::Event => &[
                "kind", "apiVersion", "level", "auditID", "stage", "requestURI", "verb", "user", "impersonatedUser", "authenticationMetadata", "sourceIPs", "userAgent",
                "objectRef", "responseStatus", "requestObject", "responseObject", "requestReceivedTimestamp", "stageTimestamp", "annotations",
            ],
            Shape::UserInfo => &["username", "uid", "groups", "extra"],
            Shape::ObjectReference => &["resource", "namespace", "name", "uid", "apiGroup", "apiVersion", "resourceVersion", "subresource"],
            Shape::Status => &["kind", "apiVersion", "metadata", "status", "message", "reason", "details", "code"],
            Shape::StatusDetails => &["name", "group", "kind", "uid", "causes", "retryAfterSeconds"],
            Shape::StatusCause => &["reason", "message", "field"],
            Shape::Object => match kind {
                "Status" => Shape::Status.order(""),
                "DeleteOptions" => &["kind", "apiVersion", "gracePeriodSeconds", "preconditions", "orphanDependents", "propagationPolicy", "dryRun"],
                "Binding" => &["kind", "apiVersion", "metadata", "target"],
                _ if kind.ends_with("List") => &["kind", "apiVersion", "metadata", "items"],
                _ => &["kind", "apiVersion", "metadata", "spec", "status"],
            },
            Shape::ObjectMeta => &[
                "name", "generateName", "namespace", "selfLink", "uid", "resourceVersion", "generation", "creationTimestamp", "deletionTimestamp",
                "deletionGracePeriodSeconds", "labels", "annotations", "ownerReferences", "finalizers", "managedFields",
                // ListMeta
                "continue", "remainingItemCount",
            ],
            Shape::OwnerReference => &["apiVersion", "kind", "name", "uid", "controller", "blockOwnerDeletion"],
            Shape::CoreReference => &["kind", "namespace", "name", "uid", "apiVersion", "resourceVersion", "fieldPath"],
            Shape::Sorted => &[],
        }
    }

    /// The shape of the value under `key` (array elements take the array's).
    fn child(self, key: &str) -> Shape {
        match (self, key) {
            (Shape::Event, "user" | "impersonatedUser") => Shape::UserInfo,
            (Shape::Event, "objectRef") => Shape::ObjectReference,
            (Shape::Event, "responseStatus") => Shape::Status,
            (Shape::Event, "requestObject" | "responseObject") => Shape::Object,
            (Shape::Status, "details") => Shape::StatusDetails,
            (Shape::StatusDetails, "causes") => Shape::StatusCause,
            (Shape::Object, "metadata") => Shape::ObjectMeta,
            (Shape::Object, "items") => Shape::Object,
            (Shape::Object, "target") => Shape::CoreReference,
            (Shape::Object, "details") => Shape::StatusDetails,
            (Shape::ObjectMeta, "ownerReferences") => Shape::OwnerReference,
            _ => Shape::Sorted,
        }
    }
}

/// An event as the log backend writes it: one compact JSON line, each struct's fields in its Go
/// declaration order, map keys sorted, `<`, `>` and `&` escaped as Go's encoder does.
fn audit_line(ev: &Value) -> String {
    let mut s = String::with_capacity(1024);
    write(ev, Shape::Event, &mut s);
    s
}

/// An audit event (any JSON) re-encoded as [`audit_line`] writes it.
pub fn audit_json(ev: &Value) -> String {
    audit_line(ev)
}

fn write(v: &Value, shape: Shape, out: &mut String) {
    match v {
        Value::Object(m) => {
            let kind = m.get("kind").and_then(Value::as_str).unwrap_or("");
            let order = shape.order(kind);
            // StatusDetails' strings are `omitempty`
            let omit = |k: &str, v: &Value| shape == Shape::StatusDetails && (v == "" || (k == "retryAfterSeconds" && *v == 0));
            out.push('{');
            let mut first = true;
            let mut field = |k: &str, v: &Value, out: &mut String| {
                if omit(k, v) {
                    return;
                }
                if !first {
                    out.push(',');
                }
                first = false;
                json_string(k, out);
                out.push(':');
                write(v, shape.child(k), out);
            };
            // the struct's fields in declaration order, then the rest in key order (the map's)
            for name in order {
                if let Some(v) = m.get(*name) {
                    field(name, v, out);
                }
            }
            for (k, v) in m {
                if !order.contains(&k.as_str()) {
                    field(k, v, out);
                }
            }
            out.push('}');
        }
        Value::Array(a) => {
            out.push('[');
            for (i, x) in a.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write(x, shape, out);
            }
            out.push(']');
        }
        Value::String(s) => json_string(s, out),
        Value::Number(n) => push_json_number(n, out),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Null => out.push_str("null"),
    }
}

#[cfg(test)]
mod tests {
    use super::policy::{Policy, PolicyRule};
    use super::*;

    fn admin() -> Identity {
        crate::cluster::kubectl_identity()
    }

    fn send(api: &mut ApiServer, rng: &mut Rng, method: Method, path: &str, body: Option<Value>) -> Response {
        let req = Request::new(method, path, body);
        let ri = RequestInfo::parse(method, path);
        api.handle(&req, &ri, &admin(), 1_000, rng).response
    }

    fn events(api: &ApiServer) -> Vec<Value> {
        api.audit_log().iter().map(|l| serde_json::from_str(l).expect("json line")).collect()
    }

    #[test]
    fn levels_bodies_stages_and_truncation() {
        let mut api = ApiServer::default();
        let mut rng = Rng::new(1);
        api.ensure_bootstrap_policy(&mut rng);
        api.clear_audit();
        let base = api.requests_handled();
        send(&mut api, &mut rng, Method::Post, "/api/v1/namespaces", Some(json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "default"}})));
        // a Pod whose event is over the bound: its bodies go, the annotation says so
        let big = "x".repeat(MAX_EVENT_BYTES);
        let pod = json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "big"}, "spec": {"containers": [{"name": "c", "image": "nginx:1.27", "env": [{"name": "A", "value": big}]}]}});
        assert_eq!(send(&mut api, &mut rng, Method::Post, "/api/v1/namespaces/default/pods", Some(pod)).code, 201);
        let ev = events(&api).pop().expect("event");
        assert_eq!((ev["level"].as_str(), ev["annotations"]["audit.k8s.io/truncated"].as_str()), (Some("RequestResponse"), Some("true")));
        assert!(ev.get("requestObject").is_none() && ev.get("responseObject").is_none());
        assert_eq!(ev["objectRef"]["name"], "big");
        // a read is logged at Request without bodies; a 404's Status fills responseStatus
        assert_eq!(send(&mut api, &mut rng, Method::Get, "/api/v1/namespaces/default/pods/none", None).code, 404);
        let ev = events(&api).pop().expect("event");
        assert_eq!(ev["level"], "Request");
        assert_eq!(ev["responseStatus"], json!({"metadata": {}, "status": "Failure", "message": "pods \"none\" not found", "reason": "NotFound", "details": {"name": "none", "kind": "pods"}, "code": 404}));
        assert!(ev.get("responseObject").is_none());
        // core Events are not logged at all
        let n = api.audit_log().len();
        send(&mut api, &mut rng, Method::Post, "/api/v1/namespaces/default/events", Some(json!({"apiVersion": "v1", "kind": "Event", "metadata": {"name": "e"}, "involvedObject": {"kind": "Pod", "name": "big"}})));
        assert_eq!(api.audit_log().len(), n);
        assert_eq!(api.requests_handled(), base + 4);
        assert_eq!(api.audit_request_seqs(), &[base + 1, base + 2, base + 3]);
        // a policy that keeps RequestReceived: two events for one request, the first without a response
        let mut rule: PolicyRule = Policy::eks().rules.pop().expect("rule");
        rule.omit_stages.clear();
        rule.level = Level::Request;
        api.audit_policy = Policy { rules: vec![rule], omit_stages: vec![], omit_managed_fields: false };
        send(&mut api, &mut rng, Method::Put, "/api/v1/namespaces/default", Some(json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "default", "labels": {"a": "b"}}})));
        let evs = events(&api);
        let (rr, rc) = (&evs[evs.len() - 2], &evs[evs.len() - 1]);
        assert_eq!((rr["stage"].as_str(), rc["stage"].as_str()), (Some("RequestReceived"), Some("ResponseComplete")));
        assert!(rr.get("responseStatus").is_none() && rr.get("requestObject").is_none() && rr["requestReceivedTimestamp"] == rr["stageTimestamp"]);
        assert_eq!(rc["requestObject"]["metadata"]["labels"]["a"], "b");
        assert_eq!((rc["objectRef"]["namespace"].as_str(), rc["objectRef"]["name"].as_str()), (Some("default"), Some("default")));
        assert_eq!(&api.audit_request_seqs()[3..], &[base + 5, base + 5]);
    }

    #[test]
    fn lines_follow_the_go_structs() {
        let ev = json!({
            "annotations": {"b": "1", "a": "2"}, "stageTimestamp": "t", "objectRef": {"subresource": "binding", "apiVersion": "v1", "name": "p", "resource": "pods", "uid": "u"},
            "kind": "Event", "requestURI": "/x?a=1&b=<2>", "user": {"groups": ["g"], "username": "u"},
            "responseStatus": {"code": 404, "metadata": {}, "details": {"kind": "pods", "group": "", "name": "p"}, "reason": "NotFound"},
            "requestObject": {"spec": {"b": 1, "a": 2}, "metadata": {"namespace": "d", "name": "n", "uid": "x"}, "apiVersion": "v1", "kind": "Pod", "status": {}}
        });
        assert_eq!(
            audit_json(&ev),
            r#"{"kind":"Event","requestURI":"/x?a=1\u0026b=\u003c2\u003e","user":{"username":"u","groups":["g"]},"objectRef":{"resource":"pods","name":"p","uid":"u","apiVersion":"v1","subresource":"binding"},"responseStatus":{"metadata":{},"reason":"NotFound","details":{"name":"p","kind":"pods"},"code":404},"requestObject":{"kind":"Pod","apiVersion":"v1","metadata":{"name":"n","namespace":"d","uid":"x"},"spec":{"a":2,"b":1},"status":{}},"stageTimestamp":"t","annotations":{"a":"2","b":"1"}}"#
        );
    }
}
