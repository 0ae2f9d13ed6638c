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
        let received = time::rfc3339_micro(now_ms);
        let line = EventLine {
            level: cfg.level,
            audit_id: &audit_id,
            uri: &req.path,
            verb,
            who,
            acting,
            received: &received,
            authz,
        };
        let mut oref: [(&str, String); 8] = Default::default();
        if ri.is_resource_request {
            oref = [
                ("resource", ri.resource.clone()),
                ("namespace", namespace.to_string()),
                ("name", ri.name.clone()),
                ("uid", String::new()),
                ("apiGroup", ri.api_group.clone()),
                ("apiVersion", ri.api_version.clone()),
                ("resourceVersion", String::new()),
                ("subresource", ri.subresource.clone()),
            ];
        }
        // RequestReceived: before the handler ran (no body, no response yet)
        if !cfg.omits(Stage::RequestReceived) {
            let text = line.write(ri.is_resource_request.then_some(&oref), Stage::RequestReceived, &received, None, &Bodies::default(), false);
            self.keep_audit(text, seq);
        }
        // the handler: what it logs of the request
        let body = req.body.as_ref().filter(|b| !b.is_null());
        let mut request_object: Option<Value> = None;
        let mut logged_body: Option<&Value> = None;
        match (req.method, body) {
            // below level Request only objectRef's fields are logged, and decoding does not change
            // them: a request the handler answered with success had a body that decodes
            (Method::Post | Method::Put, Some(b)) if cfg.level < Level::Request && resp.ok() && b.is_object() => {
                if ri.is_resource_request {
                    fill_object_ref(&mut oref, b);
                }
            }
            (Method::Post | Method::Put, Some(_)) => {
                if let Some(obj) = t.and_then(|t| self.decoded_request_object(t, req)) {
                    if ri.is_resource_request {
                        fill_object_ref(&mut oref, &obj);
                    }
                    if cfg.level >= Level::Request {
                        request_object = Some(obj);
                    }
                }
            }
            // ValidatePatchOptions runs before the patch is logged
            (Method::Patch, Some(b)) if cfg.level >= Level::Request && !(req.patch_type != PatchType::Apply && ri.query("force").is_some()) => logged_body = Some(b),
            (Method::Delete, Some(b)) if cfg.level >= Level::Request && b.is_object() => logged_body = Some(b),
            _ => {}
        }
        let long_running = verb == "watch";
        let stage = if long_running { Stage::ResponseStarted } else { Stage::ResponseComplete };
        if cfg.omits(stage) {
            return;
        }
        let object_ref = ri.is_resource_request.then_some(&oref);
        let bodies = Bodies {
            request: request_object.as_ref().or(logged_body),
            // the response writer and LogResponseObject
            response: (cfg.level >= Level::RequestResponse && !long_running && resp.body.is_object()).then_some(&resp.body),
            omit_managed_fields: cfg.omit_managed_fields,
        };
        let stamp = time::rfc3339_micro(now_ms + 1);
        let mut text = line.write(object_ref, stage, &stamp, Some(resp), &bodies, false);
        if text.len() > MAX_EVENT_BYTES {
            // the truncate plugin
            text = line.write(object_ref, stage, &stamp, Some(resp), &Bodies::default(), true);
        }
        self.keep_audit(text, seq);
    }

    /// Keeps one line within the bounds (count and bytes): past either, the oldest lines go until
    /// half the bound is left, and are counted as dropped.
    fn keep_audit(&mut self, mut line: String, seq: u64) {
        // kept for a long time: without the writer's spare capacity (up to half the line)
        line.shrink_to_fit();
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

/// The request and response objects an event logs.
#[derive(Default)]
struct Bodies<'a> {
    request: Option<&'a Value>,
    response: Option<&'a Value>,
    omit_managed_fields: bool,
}

/// One request's audit event (`auditinternal.Event`) as the log backend writes it, straight from
/// the request's parts into its line: no JSON map is built for it and the objects it logs are
/// the handler's own (the response is the stored object), not copies.
struct EventLine<'a> {
    level: Level,
    audit_id: &'a str,
    uri: &'a str,
    verb: &'a str,
    who: &'a Identity,
    acting: Option<&'a Identity>,
    received: &'a str,
    authz: &'a super::authorizer::Authorized,
}

impl EventLine<'_> {
    /// The line of one stage, fields in `Event`'s declaration order ([`Shape::Event`]);
    /// `object_ref`: `objectRef`'s fields in `ObjectReference`'s order (empty ones are left out).
    fn write(&self, object_ref: Option<&[(&str, String); 8]>, stage: Stage, stage_timestamp: &str, resp: Option<&Response>, bodies: &Bodies, truncated: bool) -> String {
        let mut out = String::with_capacity(1024);
        let o = &mut out;
        o.push_str("{\"kind\":\"Event\",\"apiVersion\":\"audit.k8s.io/v1\",\"level\":");
        json_string(self.level.as_str(), o);
        o.push_str(",\"auditID\":");
        json_string(self.audit_id, o);
        o.push_str(",\"stage\":");
        json_string(stage.as_str(), o);
        o.push_str(",\"requestURI\":");
        json_string(self.uri, o);
        o.push_str(",\"verb\":");
        json_string(self.verb, o);
        o.push_str(",\"user\":{\"username\":");
        json_string(&self.who.username, o);
        if !self.who.uid.is_empty() {
            o.push_str(",\"uid\":");
            json_string(&self.who.uid, o);
        }
        o.push_str(",\"groups\":");
        strings(&self.who.groups, o);
        o.push('}');
        if let Some(acting) = self.acting {
            o.push_str(",\"impersonatedUser\":{\"username\":");
            json_string(&acting.username, o);
            o.push_str(",\"groups\":");
            strings(&acting.groups, o);
            o.push('}');
        }
        o.push_str(",\"sourceIPs\":");
        strings(std::slice::from_ref(&self.who.source_ip), o);
        o.push_str(",\"userAgent\":");
        json_string(&self.who.user_agent, o);
        if let Some(oref) = object_ref {
            o.push_str(",\"objectRef\":{");
            let mut first = true;
            for (k, v) in oref.iter().filter(|(_, v)| !v.is_empty()) {
                if !first {
                    o.push(',');
                }
                first = false;
                json_string(k, o);
                o.push(':');
                json_string(v, o);
            }
            o.push('}');
        }
        if let Some(resp) = resp {
            o.push_str(",\"responseStatus\":{\"metadata\":{}");
            if resp.body.is_object() && meta::get_str(&resp.body, &["kind"]) == "Status" {
                for k in ["status", "message", "reason", "details"] {
                    if let Some(v) = resp.body.get(k).filter(|v| !v.is_null() && *v != "") {
                        o.push(',');
                        json_string(k, o);
                        o.push(':');
                        write(v, Shape::Status.child(k), false, o);
                    }
                }
            }
            o.push_str(",\"code\":");
            o.push_str(&resp.code.to_string());
            o.push('}');
        }
        for (k, v) in [("requestObject", bodies.request), ("responseObject", bodies.response)] {
            if let Some(v) = v {
                o.push(',');
                json_string(k, o);
                o.push(':');
                write(v, Shape::Object, bodies.omit_managed_fields, o);
            }
        }
        o.push_str(",\"requestReceivedTimestamp\":");
        json_string(self.received, o);
        o.push_str(",\"stageTimestamp\":");
        json_string(stage_timestamp, o);
        o.push_str(",\"annotations\":{");
        if truncated {
            o.push_str("\"audit.k8s.io/truncated\":\"true\",");
        }
        o.push_str("\"authorization.k8s.io/decision\":");
        json_string(if self.authz.allowed() { "allow" } else { "forbid" }, o);
        o.push_str(",\"authorization.k8s.io/reason\":");
        json_string(&self.authz.reason, o);
        o.push_str("}}");
        out
    }
}

/// `LogRequestObject`: `objectRef`'s empty namespace and name, and its uid and resourceVersion,
/// from the request object's metadata.
fn fill_object_ref(oref: &mut [(&str, String); 8], obj: &Value) {
    for (i, path) in [(1, "namespace"), (2, "name"), (3, "uid"), (6, "resourceVersion")] {
        if oref[i].1.is_empty() {
            oref[i].1 = meta::get_str(obj, &["metadata", path]).to_string();
        }
    }
}

/// A JSON array of strings.
fn strings(v: &[String], out: &mut String) {
    out.push('[');
    for (i, s) in v.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        json_string(s, out);
    }
    out.push(']');
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
    write(ev, Shape::Event, false, &mut s);
    s
}

/// An audit event (any JSON) re-encoded as [`audit_line`] writes it.
pub fn audit_json(ev: &Value) -> String {
    audit_line(ev)
}

/// `omit_managed_fields`: `copyWithoutManagedFields` (an object's or a list's items' metadata
/// without `managedFields`).
fn write(v: &Value, shape: Shape, omit_managed_fields: bool, out: &mut String) {
    match v {
        Value::Object(m) => {
            let kind = m.get("kind").and_then(Value::as_str).unwrap_or("");
            let order = shape.order(kind);
            // StatusDetails' strings are `omitempty`
            let omit = |k: &str, v: &Value| {
                (shape == Shape::StatusDetails && (v == "" || (k == "retryAfterSeconds" && *v == 0))) || (omit_managed_fields && shape == Shape::ObjectMeta && k == "managedFields")
            };
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
                write(v, shape.child(k), omit_managed_fields, out);
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
                write(x, shape, omit_managed_fields, out);
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

    /// The lines written straight from a request's parts are the lines the Value-based writer
    /// makes of the same event: each line of a busy run (creates, binds, status patches, deletes,
    /// an impersonated request, a truncated event, Status answers) re-encodes to itself.
    #[test]
    fn direct_lines_match_the_struct_order_writer() {
        let mut c = crate::sandbox::bench_cluster(3, 3);
        let _ = crate::sandbox::bench_apply(&mut c, 12, 2);
        let big = "x".repeat(MAX_EVENT_BYTES);
        let me = admin();
        c.client_request(&me, Request::new(Method::Post, "/api/v1/namespaces/default/configmaps", Some(json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"}}))));
        c.client_request(&me, Request::new(Method::Post, "/api/v1/namespaces/default/pods", Some(json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "big"}, "spec": {"containers": [{"name": "c", "image": "nginx", "env": [{"name": "A", "value": big}]}]}}))));
        c.client_request(&me, Request::new(Method::Get, "/api/v1/namespaces/default/pods/missing", None));
        c.client_request(&me, Request::new(Method::Post, "/api/v1/namespaces/default/services", Some(json!({"apiVersion": "v1", "kind": "Service", "metadata": {"name": "s"}, "spec": {"ports": [{"port": 80}]}}))));
        c.client_request(&me, Request::new(Method::Delete, "/api/v1/namespaces/default/services/s", Some(json!({"kind": "DeleteOptions", "apiVersion": "v1", "gracePeriodSeconds": 0}))));
        c.set_client_impersonation(Some(crate::api::request::Impersonation { user: "jane".into(), groups: vec![] }));
        c.client_request(&me, Request::new(Method::Get, "/api/v1/namespaces/default/pods", None));
        let view = c.view();
        let lines = view.audit();
        assert!(lines.len() > 100, "{}", lines.len());
        for l in lines.iter() {
            let ev: Value = serde_json::from_str(l).expect("json line");
            assert_eq!(&audit_json(&ev), l);
        }
        let all = lines.join("\n");
        for part in ["\"impersonatedUser\"", "\"audit.k8s.io/truncated\":\"true\"", "\"reason\":\"NotFound\"", "\"requestObject\":{\"kind\":\"DeleteOptions\""] {
            assert!(all.contains(part), "{}", part);
        }
    }
}
