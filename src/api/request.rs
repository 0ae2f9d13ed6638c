//! The request vocabulary both sides of the API use: what a client sends, what the server answers,
//! who is asking, and the server's parsed view of a request URI.
//!
//! Real counterparts: client-go's `rest.Request`/`rest.Result` (`staging/src/k8s.io/client-go/rest/request.go`),
//! `user.Info` (`staging/src/k8s.io/apiserver/pkg/authentication/user/user.go`),
//! `RequestInfoFactory.NewRequestInfo` (`staging/src/k8s.io/apiserver/pkg/endpoints/request/requestinfo.go`)
//! and `watch.EventType` (`staging/src/k8s.io/apimachinery/pkg/watch/watch.go`).
//!
//! Components and kubectl build [`Request`]s and read [`Response`]s; the API server parses each
//! request's URI once into a [`RequestInfo`], which travels with the request's message in the
//! trace (the page and the audit log read it from there, nobody splits the path again).
//!
//! What kubesim simplifies: bodies are decoded JSON values (no wire encoding, no protobuf); the
//! request info knows only the `/api` and `/apis` prefixes (no `/openapi`, `/healthz`).

use super::meta;
use serde_json::Value;
use std::fmt;

/// Who is making a request: what authentication would have established (`user.Info`), plus the
/// client's user agent and address as the audit log records them.
#[derive(Clone, Debug, PartialEq)]
pub struct Identity {
    pub username: String,
    pub uid: String,
    pub groups: Vec<String>,
    pub user_agent: String,
    pub source_ip: String,
    /// The `Impersonate-User` and `Impersonate-Group` headers (`kubectl --as`, `--as-group`):
    /// the user the request is to be made as, if the requester may impersonate them.
    pub impersonate: Option<Box<Impersonation>>,
}

/// Whom a request asks to act as.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Impersonation {
    pub user: String,
    pub groups: Vec<String>,
}

/// The HTTP method of a request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    Get,
    Post,
    Put,
    Patch,
    Delete,
}

impl Method {
    pub fn as_str(&self) -> &'static str {
        match self {
            Method::Get => "GET",
            Method::Post => "POST",
            Method::Put => "PUT",
            Method::Patch => "PATCH",
            Method::Delete => "DELETE",
        }
    }
}

impl fmt::Display for Method {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The `Content-Type` of a PATCH: `application/merge-patch+json`,
/// `application/strategic-merge-patch+json` or `application/json-patch+json`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PatchType {
    Merge,
    Strategic,
    /// RFC 6902: a list of operations (`kubectl rollout undo` sends one).
    Json,
    /// `application/apply-patch+yaml`: server-side apply ([`crate::apiserver::apply`]).
    Apply,
}

/// One request to kube-apiserver.
#[derive(Clone, Debug, PartialEq)]
pub struct Request {
    pub method: Method,
    /// Path and query, e.g. `/apis/apps/v1/namespaces/default/deployments?fieldManager=kubectl-client-side-apply`.
    pub path: String,
    pub body: Option<Value>,
    pub patch_type: PatchType,
}

impl Request {
    pub fn new(method: Method, path: impl Into<String>, body: Option<Value>) -> Request {
        Request { method, path: path.into(), body, patch_type: PatchType::Strategic }
    }
    pub fn get(path: impl Into<String>) -> Request {
        Request::new(Method::Get, path, None)
    }
}

/// The response: status code and body (the object, a list, or a `Status`).
#[derive(Clone, Debug, PartialEq)]
pub struct Response {
    pub code: u16,
    pub body: Value,
}

impl Response {
    pub fn ok(&self) -> bool {
        (200..300).contains(&self.code)
    }
    pub fn reason(&self) -> &str {
        meta::get_str(&self.body, &["reason"])
    }
    /// No answer: the request never reached kube-apiserver (a cut-off node's client error,
    /// `dial tcp …: i/o timeout`). Its code is 0, as no HTTP status came back.
    pub fn unreachable(&self) -> bool {
        self.code == 0
    }
    pub fn message(&self) -> &str {
        meta::get_str(&self.body, &["message"])
    }
}

/// The type of a watch event (`watch.EventType`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum EventType {
    Added,
    Modified,
    Deleted,
}

impl EventType {
    /// `ADDED`, `MODIFIED`, `DELETED`, as on the wire.
    pub fn as_str(&self) -> &'static str {
        match self {
            EventType::Added => "ADDED",
            EventType::Modified => "MODIFIED",
            EventType::Deleted => "DELETED",
        }
    }
}

impl fmt::Display for EventType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The server's view of a request URI (`request.RequestInfo`), parsed once.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RequestInfo {
    /// False for paths outside `/api/v1` and `/apis/GROUP/VERSION`.
    pub is_resource_request: bool,
    /// The path without the query.
    pub path: String,
    /// The Kubernetes verb: get, list, watch, create, update, patch, delete, deletecollection.
    pub verb: &'static str,
    /// `api` or `apis`.
    pub api_prefix: &'static str,
    /// "" for the core group.
    pub api_group: String,
    pub api_version: String,
    /// "" for cluster-scoped resources and all-namespace collections.
    pub namespace: String,
    pub resource: String,
    pub subresource: String,
    pub name: String,
    /// The query, percent-decoded, in order.
    pub query: Vec<(String, String)>,
}

impl RequestInfo {
    /// `NewRequestInfo`: splits `/apis/GROUP/VERSION/namespaces/NS/RESOURCE/NAME/SUBRESOURCE?QUERY`
    /// and derives the verb from the method, the name and `watch=true`.
    pub fn parse(method: Method, uri: &str) -> RequestInfo {
        let (p, q) = uri.split_once('?').unwrap_or((uri, ""));
        let query: Vec<(String, String)> = q
            .split('&')
            .filter(|s| !s.is_empty())
            .map(|kv| {
                let (k, v) = kv.split_once('=').unwrap_or((kv, ""));
                (percent_decode(k), percent_decode(v))
            })
            .collect();
        let mut info = RequestInfo { path: p.to_string(), query, ..RequestInfo::default() };
        let segs: Vec<&str> = p.split('/').filter(|s| !s.is_empty()).collect();
        let rest: &[&str] = match segs.first() {
            // `/api/v1` and `/apis/GROUP/VERSION` are discovery: non-resource requests
            Some(&"api") if segs.len() >= 3 => {
                info.api_prefix = "api";
                info.api_version = segs[1].to_string();
                &segs[2..]
            }
            Some(&"apis") if segs.len() >= 4 => {
                info.api_prefix = "apis";
                info.api_group = segs[1].to_string();
                info.api_version = segs[2].to_string();
                &segs[3..]
            }
            _ => {
                info.verb = method_verb(method);
                return info;
            }
        };
        info.is_resource_request = true;
        // /namespaces/NS/RESOURCE/... ; /namespaces and /namespaces/NAME are the namespace resource
        // itself, and so are its subresources /namespaces/NAME/status and /finalize
        let ns_subresource = rest.len() == 3 && matches!(rest[2], "status" | "finalize");
        let rest = if rest.first() == Some(&"namespaces") && rest.len() >= 3 && !ns_subresource {
            info.namespace = rest[1].to_string();
            &rest[2..]
        } else {
            rest
        };
        info.resource = rest.first().map(|s| s.to_string()).unwrap_or_default();
        info.name = rest.get(1).map(|s| s.to_string()).unwrap_or_default();
        info.subresource = rest.get(2).map(|s| s.to_string()).unwrap_or_default();
        let watch = info.query("watch").map(|w| w == "true" || w == "1").unwrap_or(false);
        info.verb = match method {
            Method::Get if watch => "watch",
            Method::Get if info.name.is_empty() => "list",
            Method::Delete if info.name.is_empty() => "deletecollection",
            m => method_verb(m),
        };
        info
    }

    /// The first value of a query parameter.
    pub fn query(&self, key: &str) -> Option<&str> {
        self.query.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }

    /// `pods`, `pods/binding`: the resource as the page's packets and the audit's subresource read it.
    pub fn resource_path(&self) -> String {
        if self.subresource.is_empty() {
            self.resource.clone()
        } else {
            format!("{}/{}", self.resource, self.subresource)
        }
    }
}

fn method_verb(m: Method) -> &'static str {
    match m {
        Method::Get => "get",
        Method::Post => "create",
        Method::Put => "update",
        Method::Patch => "patch",
        Method::Delete => "delete",
    }
}

/// Percent-decoding of a query component (`+` is a space).
/// A label or field selector as it goes in a query (`app%3Dweb%2Ctier%21%3Ddb`).
pub fn encode_selector(s: &str) -> String {
    s.replace('=', "%3D").replace(',', "%2C").replace('!', "%21").replace(' ', "+")
}

pub fn percent_decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' && i + 2 < b.len() {
            if let Some(v) = s.get(i + 1..i + 3).and_then(|h| u8::from_str_radix(h, 16).ok()) {
                out.push(v);
                i += 3;
                continue;
            }
        }
        out.push(if b[i] == b'+' { b' ' } else { b[i] });
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// (method, uri, verb, group, version, namespace, resource, name, subresource)
    const REQUEST_INFO_TABLE: &[(Method, &str, &str, &str, &str, &str, &str, &str, &str)] = &[
        (Method::Get, "/api/v1/namespaces/default/pods", "list", "", "v1", "default", "pods", "", ""),
        (Method::Get, "/api/v1/pods?watch=true&resourceVersion=10", "watch", "", "v1", "", "pods", "", ""),
        (Method::Get, "/api/v1/namespaces/default/pods/nginx", "get", "", "v1", "default", "pods", "nginx", ""),
        (Method::Post, "/api/v1/namespaces/default/pods/nginx/binding", "create", "", "v1", "default", "pods", "nginx", "binding"),
        (Method::Patch, "/api/v1/namespaces/default/pods/nginx/status", "patch", "", "v1", "default", "pods", "nginx", "status"),
        (Method::Put, "/apis/apps/v1/namespaces/default/deployments/web/scale", "update", "apps", "v1", "default", "deployments", "web", "scale"),
        (Method::Delete, "/apis/apps/v1/namespaces/default/replicasets/web-1", "delete", "apps", "v1", "default", "replicasets", "web-1", ""),
        (Method::Delete, "/apis/apps/v1/namespaces/default/replicasets", "deletecollection", "apps", "v1", "default", "replicasets", "", ""),
        (Method::Get, "/api/v1/namespaces", "list", "", "v1", "", "namespaces", "", ""),
        (Method::Get, "/api/v1/namespaces/kube-system", "get", "", "v1", "", "namespaces", "kube-system", ""),
        (Method::Put, "/api/v1/namespaces/shop/finalize", "update", "", "v1", "", "namespaces", "shop", "finalize"),
        (Method::Put, "/api/v1/namespaces/shop/status", "update", "", "v1", "", "namespaces", "shop", "status"),
        (Method::Post, "/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases", "create", "coordination.k8s.io", "v1", "kube-node-lease", "leases", "", ""),
        (Method::Get, "/api/v1/nodes/node-1", "get", "", "v1", "", "nodes", "node-1", ""),
    ];

    #[test]
    fn request_info_table() {
        for (m, uri, verb, group, version, ns, res, name, sub) in REQUEST_INFO_TABLE {
            let i = RequestInfo::parse(*m, uri);
            assert!(i.is_resource_request, "{}", uri);
            assert_eq!(
                (i.verb, i.api_group.as_str(), i.api_version.as_str(), i.namespace.as_str(), i.resource.as_str(), i.name.as_str(), i.subresource.as_str()),
                (*verb, *group, *version, *ns, *res, *name, *sub),
                "{}",
                uri
            );
        }
    }

    #[test]
    fn non_resource_paths_and_queries() {
        let i = RequestInfo::parse(Method::Get, "/healthz");
        assert!(!i.is_resource_request);
        assert_eq!(i.verb, "get");
        let i = RequestInfo::parse(Method::Get, "/api/v1/pods?fieldSelector=spec.nodeName%3Dnode-1&labelSelector=a+b");
        assert_eq!(i.query("fieldSelector"), Some("spec.nodeName=node-1"));
        assert_eq!(i.query("labelSelector"), Some("a b"));
        assert_eq!(percent_decode("%zz%4"), "%zz%4");
    }
}
