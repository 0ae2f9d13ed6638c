//! The audit log: one `audit.k8s.io/v1` Event per request at the Metadata level.
//!
//! Real counterparts: `staging/src/k8s.io/apiserver/pkg/endpoints/filters/audit.go` (the filter),
//! `pkg/audit/request.go` (`NewEventFromRequest`, `LogRequestObject`, `LogResponseObject`) and the
//! log backend's JSON encoding (field order as in the Go struct).

use super::*;
use crate::sim::sort::CompactSort;

impl ApiServer {
    pub(super) fn record_audit(&mut self, req: &Request, ri: &RequestInfo, t: Option<&Target>, who: &Identity, resp: &Response, now_ms: i64, audit_id: String) {
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
                keys.csort();
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
