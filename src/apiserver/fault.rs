//! Injected API errors (`sim fault api-error`): kube-apiserver answers the next matching requests
//! with a 409, 429, 500 or 504 instead of handling them.
//!
//! No single upstream counterpart: the answers are the ones kube-apiserver gives in those cases —
//! 409 `Conflict` from the registry's optimistic concurrency (`staging/.../registry/generic/registry/store.go`),
//! 429 `TooManyRequests` with `Retry-After` from API Priority and Fairness
//! (`staging/.../server/filters/priority-and-fairness.go`, `tooManyRequests`), 500 `InternalError`
//! when etcd times out (`errors.NewInternalError`), 504 `Timeout` from the request timeout filter
//! (`staging/.../server/filters/timeout.go`). kubesim simplifies: an injected answer is decided
//! before the handlers run, so nothing is written (a real 504 may leave the write done).

use super::*;

/// One injected fault: which requests it hits and how many more times.
#[derive(Clone, Debug, PartialEq)]
pub struct ApiFault {
    /// The sender's component name (`replicaset-controller`, `kubelet@node-1`, `kubectl`); any if `None`.
    pub component: Option<String>,
    /// The resource (`pods`); any if `None`.
    pub resource: Option<String>,
    /// The verb (`create`, `update`, `patch`, `delete`, `get`, `list`); any if `None`. Watches are never hit.
    pub verb: Option<String>,
    pub code: u16,
    pub remaining: u32,
}

/// The codes `sim fault api-error` injects.
pub const FAULT_CODES: [u16; 4] = [409, 429, 500, 504];

/// Seconds a 429 asks the client to wait (`Retry-After`), as API Priority and Fairness does.
pub const RETRY_AFTER_SECONDS: i64 = 1;

impl ApiServer {
    pub fn inject_fault(&mut self, f: ApiFault) {
        self.faults.push(f);
    }

    /// Faults still pending (the page and the tests read them).
    pub fn faults(&self) -> &[ApiFault] {
        &self.faults
    }

    /// The injected answer to this request, if a pending fault matches it (and counts it).
    pub fn injected(&mut self, component: &str, ri: &RequestInfo) -> Option<Response> {
        if ri.verb == "watch" || !ri.is_resource_request {
            return None;
        }
        let i = self.faults.iter().position(|f| {
            f.remaining > 0
                && f.component.as_deref().map(|c| c == component).unwrap_or(true)
                && f.resource.as_deref().map(|r| r == ri.resource).unwrap_or(true)
                && f.verb.as_deref().map(|v| v == ri.verb).unwrap_or(true)
        })?;
        let code = self.faults[i].code;
        self.faults[i].remaining -= 1;
        if self.faults[i].remaining == 0 {
            self.faults.remove(i);
        }
        let info = meta::lookup(&ri.resource);
        let qualified = info.map(|i| i.qualified()).unwrap_or_else(|| ri.resource.clone());
        let (reason, message, details) = match code {
            409 => (
                "Conflict",
                format!("Operation cannot be fulfilled on {} \"{}\": the object has been modified; please apply your changes to the latest version and try again", qualified, ri.name),
                Some(json!({"name": ri.name, "group": info.map(|i| i.group).unwrap_or(""), "kind": ri.resource})),
            ),
            429 => ("TooManyRequests", "Too many requests, please try again later.".to_string(), Some(json!({"retryAfterSeconds": RETRY_AFTER_SECONDS}))),
            504 => ("Timeout", "Timeout: request did not complete within requested timeout - context deadline exceeded".to_string(), Some(json!({}))),
            _ => ("InternalError", "Internal error occurred: etcdserver: request timed out".to_string(), Some(json!({"causes": [{"message": "etcdserver: request timed out"}]}))),
        };
        Some(Response { code, body: status_error(code, reason, &message, details) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn injected_answers_match_and_count_down() {
        let mut api = ApiServer::default();
        api.inject_fault(ApiFault { component: Some("replicaset-controller".into()), resource: Some("pods".into()), verb: Some("create".into()), code: 500, remaining: 2 });
        let create = RequestInfo::parse(Method::Post, "/api/v1/namespaces/default/pods");
        let get = RequestInfo::parse(Method::Get, "/api/v1/namespaces/default/pods/x");
        assert!(api.injected("deployment-controller", &create).is_none(), "another component");
        assert!(api.injected("replicaset-controller", &get).is_none(), "another verb");
        let r = api.injected("replicaset-controller", &create).unwrap();
        assert_eq!((r.code, r.body["reason"].as_str(), r.body["message"].as_str()), (500, Some("InternalError"), Some("Internal error occurred: etcdserver: request timed out")));
        assert!(api.injected("replicaset-controller", &create).is_some());
        assert!(api.injected("replicaset-controller", &create).is_none(), "two, then none");
        assert!(api.faults().is_empty());
        api.inject_fault(ApiFault { component: None, resource: None, verb: None, code: 429, remaining: 1 });
        let r = api.injected("kubectl", &get).unwrap();
        assert_eq!(r.body["details"]["retryAfterSeconds"], 1);
        api.inject_fault(ApiFault { component: None, resource: None, verb: None, code: 409, remaining: 1 });
        let put = RequestInfo::parse(Method::Put, "/apis/apps/v1/namespaces/default/replicasets/web-1");
        let r = api.injected("deployment-controller", &put).unwrap();
        assert_eq!(r.body["message"], "Operation cannot be fulfilled on replicasets.apps \"web-1\": the object has been modified; please apply your changes to the latest version and try again");
    }
}
