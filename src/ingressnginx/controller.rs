//! The configuration ingress-nginx builds from the Ingresses it handles, and how nginx running
//! that configuration picks a server, a location and an endpoint for a request.
//!
//! Real counterparts: ingress-nginx `internal/ingress/controller/controller.go`
//! (`getBackendServers`, `createUpstreams`, `createServers`, `serviceEndpoints`: one server per
//! host, the catch-all server `_`, one location per path with its upstream
//! `<namespace>-<service>-<port>`; the older Ingress wins a host and path both define),
//! `internal/ingress/controller/endpointslices.go` (`getEndpointsFromSlices`: the ready
//! endpoints of the Service's slices, on the slice port named as the Service port), the
//! template's `buildServerName` (`*.foo.com` matches one label) and `buildLocation` (a `Prefix`
//! path `/foo` is `location /foo/` plus `location = /foo`; `Exact` is `location = /foo`;
//! `ImplementationSpecific` a plain nginx prefix `location /foo`), nginx's own location
//! selection (exact locations first, then the longest prefix) and `ssl-redirect` (a host with a
//! TLS section answers plain HTTP with `308 Permanent Redirect`).
//!
//! What kubesim simplifies: no annotations (rewrite-target, use-regex, canary, auth…); the
//! configuration is compared as a whole to decide a reload (upstream compares the rendered
//! template and sends endpoint changes to Lua without one, as kubesim does); the catch-all
//! server's backend is the oldest rule-less Ingress's `defaultBackend`. A TLS host's certificate
//! (`createServers`: the Secret its TLS section names, else the controller's default — the
//! self-signed "Kubernetes Ingress Controller Fake Certificate") is taken from a Secret of type
//! `kubernetes.io/tls` with `tls.crt` and `tls.key` without parsing it: its hostnames (SAN/CN,
//! upstream's `VerifyHostname`) and expiry are not checked, and `extractTLSSecretName`'s search of
//! other TLS sections by SAN is left out.

use crate::api::meta;
use crate::client::Store;
use serde_json::Value;

/// `spec.rules[].http.paths[].pathType`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PathType {
    Exact,
    Prefix,
    ImplementationSpecific,
}

impl PathType {
    pub fn parse(s: &str) -> PathType {
        match s {
            "Exact" => PathType::Exact,
            "Prefix" => PathType::Prefix,
            _ => PathType::ImplementationSpecific,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            PathType::Exact => "Exact",
            PathType::Prefix => "Prefix",
            PathType::ImplementationSpecific => "ImplementationSpecific",
        }
    }
}

/// An upstream: a Service port and the ready endpoints nginx's Lua balancer spreads over.
#[derive(Clone, Debug, PartialEq)]
pub struct Upstream {
    /// `<namespace>-<service>-<port>` (`upstreamName`).
    pub name: String,
    pub namespace: String,
    pub service: String,
    /// The backend's port as the Ingress names it (a number or a port name).
    pub port: String,
    /// Ready endpoints: (IP, port).
    pub endpoints: Vec<(String, i64)>,
}

/// Where a location sends a request.
#[derive(Clone, Debug, PartialEq)]
pub enum Backend {
    Upstream(Upstream),
    /// The controller's built-in default server (`return 404;`).
    Default,
}

/// One `location` of a server.
#[derive(Clone, Debug, PartialEq)]
pub struct Location {
    pub path: String,
    pub path_type: PathType,
    pub backend: Backend,
    /// The Ingress that defined it (`namespace/name`).
    pub ingress: String,
}

/// One `server` block.
#[derive(Clone, Debug, PartialEq)]
pub struct Server {
    /// The host, or `_` for the catch-all server.
    pub hostname: String,
    /// A TLS section names the host: plain HTTP is redirected (`ssl-redirect`).
    pub ssl_redirect: bool,
    /// The certificate nginx presents for the host (`SSLCert`): None for a host without TLS
    /// section (nginx then presents the default certificate too).
    pub cert: Option<Cert>,
    /// The `location /` every server has: the Ingress's `defaultBackend`, or the 404 server.
    pub root: Backend,
    pub locations: Vec<Location>,
}

/// A server's certificate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Cert {
    /// The TLS Secret (`namespace/name`) its Ingress names.
    Secret(String),
    /// The controller's default certificate, and why (`createServers`' warning).
    Default(String),
}

/// The certificate of the controller's default server (`--default-ssl-certificate` unset).
pub const FAKE_CERTIFICATE_SUBJECT: &str = "O=Acme Co; CN=Kubernetes Ingress Controller Fake Certificate";

/// `GetLocalSSLCert`: a Secret ingress-nginx can make a certificate of (type
/// `kubernetes.io/tls`, or any type with both keys, as `syncSecret` accepts).
fn tls_secret_usable(secret: &Value) -> Result<(), String> {
    let has = |k: &str| !meta::get_str(secret, &["data", k]).is_empty();
    if has("tls.crt") && has("tls.key") {
        Ok(())
    } else {
        Err("local SSL certificate was not found".to_string())
    }
}

/// What nginx runs: its servers (the catch-all `_` last).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Config {
    pub servers: Vec<Server>,
}

/// How a request was routed.
#[derive(Clone, Debug, PartialEq)]
pub struct Route<'a> {
    pub server: &'a Server,
    /// None: the server's root location (its default backend).
    pub location: Option<&'a Location>,
}

impl<'a> Route<'a> {
    pub fn backend(&self) -> &'a Backend {
        match self.location {
            Some(l) => &l.backend,
            None => &self.server.root,
        }
    }
}

/// `Prefix` paths are element-wise: a trailing slash does not count.
fn prefix_key(path: &str) -> &str {
    if path == "/" {
        path
    } else {
        path.trim_end_matches('/')
    }
}

/// Does `loc` match the request path `path` (nginx's view of the generated locations)?
/// Returns the length nginx compares for the longest prefix; exact locations return `usize::MAX`.
pub fn location_matches(path_type: PathType, loc: &str, path: &str) -> Option<usize> {
    match path_type {
        PathType::Exact => (path == loc).then_some(usize::MAX),
        PathType::Prefix => {
            let p = prefix_key(loc);
            if p == "/" {
                return Some(1);
            }
            // `location = /foo` and `location /foo/`
            if path == p {
                Some(usize::MAX - 1)
            } else if path.starts_with(p) && path[p.len()..].starts_with('/') {
                Some(p.len() + 1)
            } else {
                None
            }
        }
        PathType::ImplementationSpecific => path.starts_with(loc).then_some(loc.len()),
    }
}

/// `buildServerName`: `*.foo.com` matches exactly one more label.
pub fn host_matches(server: &str, host: &str) -> bool {
    match server.strip_prefix("*.") {
        Some(suffix) => host.strip_suffix(suffix).and_then(|h| h.strip_suffix('.')).map(|label| !label.is_empty() && !label.contains('.')).unwrap_or(false),
        None => server == host,
    }
}

impl Config {
    /// The server for `host` (the `Host` header without its port, lowercased): an exact name,
    /// then a wildcard, then the catch-all.
    pub fn server_for(&self, host: &str) -> Option<&Server> {
        let host = host.split(':').next().unwrap_or(host).to_ascii_lowercase();
        self.servers
            .iter()
            .find(|s| s.hostname == host)
            .or_else(|| self.servers.iter().find(|s| s.hostname.starts_with("*.") && host_matches(&s.hostname, &host)))
            .or_else(|| self.servers.iter().find(|s| s.hostname == "_"))
    }

    /// The server and location nginx picks for `host` and `path` (its query string ignored).
    pub fn route(&self, host: &str, path: &str) -> Option<Route<'_>> {
        let server = self.server_for(host)?;
        let path = path.split(['?', '#']).next().unwrap_or("/");
        let mut best: Option<(usize, &Location)> = None;
        for l in &server.locations {
            if let Some(score) = location_matches(l.path_type, &l.path, path) {
                // an Exact path beats a Prefix one of the same string (`location =` first)
                let score = if l.path_type == PathType::Exact { score } else { score.min(usize::MAX - 1) };
                if best.map(|(b, _)| score > b).unwrap_or(true) {
                    best = Some((score, l));
                }
            }
        }
        Some(Route { server, location: best.map(|(_, l)| l) })
    }
}

impl Config {
    /// The servers, locations and upstreams as the page's Network panel lists them.
    pub fn describe(&self) -> String {
        let backend = |b: &Backend| match b {
            Backend::Default => "default backend: 404".to_string(),
            Backend::Upstream(u) if u.endpoints.is_empty() => format!("upstream {} (no ready endpoint: 503)", u.name),
            Backend::Upstream(u) => format!("upstream {} [{}]", u.name, u.endpoints.iter().map(|(ip, p)| format!("{}:{}", ip, p)).collect::<Vec<_>>().join(", ")),
        };
        let mut out = String::new();
        for s in &self.servers {
            let name = if s.hostname == "_" { "_ (catch-all)" } else { s.hostname.as_str() };
            let tls = match &s.cert {
                Some(Cert::Secret(k)) => format!(" (TLS: certificate of Secret {}; http → 308 https)", k),
                Some(Cert::Default(_)) => " (TLS: the default fake certificate; http → 308 https)".to_string(),
                None => String::new(),
            };
            out.push_str(&format!("server {}{}\n", name, tls));
            for l in &s.locations {
                out.push_str(&format!("  {} {} ({}) → {}\n", l.path_type.as_str(), l.path, l.ingress, backend(&l.backend)));
            }
            out.push_str(&format!("  anything else → {}\n", backend(&s.root)));
        }
        out
    }
}

/// The Ingresses' creation order, as ingress-nginx sorts them (`sortIngressSlice`: oldest first,
/// then namespace/name).
pub fn sort_ingresses(ings: &mut [&Value]) {
    ings.sort_by(|a, b| {
        meta::get_str(a, &["metadata", "creationTimestamp"])
            .cmp(meta::get_str(b, &["metadata", "creationTimestamp"]))
            .then_with(|| meta::namespace(a).cmp(meta::namespace(b)))
            .then_with(|| meta::name(a).cmp(meta::name(b)))
    });
}

/// The backend port as the Ingress gives it: `number` or `name`.
fn backend_port(b: &Value) -> String {
    match meta::get_i64(b, &["service", "port", "number"]) {
        Some(n) if n != 0 => n.to_string(),
        _ => meta::get_str(b, &["service", "port", "name"]).to_string(),
    }
}

/// `serviceEndpoints`: the ready endpoints of the Service port the backend names.
fn upstream(ns: &str, b: &Value, services: &Store, slices: &Store) -> Option<Upstream> {
    let svc_name = meta::get_str(b, &["service", "name"]);
    if svc_name.is_empty() {
        return None;
    }
    let port = backend_port(b);
    let mut up = Upstream { name: format!("{}-{}-{}", ns, svc_name, port), namespace: ns.to_string(), service: svc_name.to_string(), port: port.clone(), endpoints: Vec::new() };
    let Some(svc) = services.get(&format!("{}/{}", ns, svc_name)) else { return Some(up) };
    let sp = meta::get_array(svc, &["spec", "ports"]).iter().find(|p| meta::get_i64(p, &["port"]).map(|n| n.to_string()) == Some(port.clone()) || (meta::get_str(p, &["name"]) == port && !port.is_empty()));
    let Some(sp) = sp else { return Some(up) };
    let port_name = meta::get_str(sp, &["name"]);
    let target = meta::get(sp, &["targetPort"]).and_then(Value::as_i64);
    for s in slices.in_namespace(ns) {
        if meta::get_str(s, &["metadata", "labels", "kubernetes.io/service-name"]) != svc_name {
            continue;
        }
        let slice_port = meta::get_array(s, &["ports"]).iter().find(|p| meta::get_str(p, &["name"]) == port_name).and_then(|p| meta::get_i64(p, &["port"])).or(target);
        let Some(ep_port) = slice_port else { continue };
        for e in meta::get_array(s, &["endpoints"]) {
            if meta::get(e, &["conditions", "ready"]).and_then(Value::as_bool) == Some(false) {
                continue;
            }
            for a in meta::get_array(e, &["addresses"]) {
                if let Some(a) = a.as_str() {
                    if !up.endpoints.iter().any(|(ip, p)| ip == a && *p == ep_port) {
                        up.endpoints.push((a.to_string(), ep_port));
                    }
                }
            }
        }
    }
    up.endpoints.sort();
    Some(up)
}

/// `getBackendServers`: the servers of the Ingresses the controller handles (`ings`, oldest
/// first).
pub fn build(ings: &[&Value], services: &Store, slices: &Store, secrets: &Store) -> Config {
    let mut servers: Vec<Server> = Vec::new();
    let mut catch_all = Server { hostname: "_".into(), ssl_redirect: false, cert: None, root: Backend::Default, locations: Vec::new() };
    let backend_of = |ns: &str, b: &Value| upstream(ns, b, services, slices).map(Backend::Upstream).unwrap_or(Backend::Default);
    for ing in ings {
        let ns = meta::namespace(ing);
        let key = format!("{}/{}", ns, meta::name(ing));
        let default = meta::get(ing, &["spec", "defaultBackend"]).map(|b| backend_of(ns, b));
        let rules = meta::get_array(ing, &["spec", "rules"]);
        if rules.is_empty() {
            if let (Some(d), Backend::Default) = (&default, &catch_all.root) {
                catch_all.root = d.clone();
            }
        }
        let tls_hosts: Vec<&str> = meta::get_array(ing, &["spec", "tls"]).iter().flat_map(|t| meta::get_array(t, &["hosts"]).iter().filter_map(Value::as_str)).collect();
        for rule in rules {
            let host = meta::get_str(rule, &["host"]);
            let server = if host.is_empty() {
                &mut catch_all
            } else {
                match servers.iter().position(|s| s.hostname == host) {
                    Some(i) => &mut servers[i],
                    None => {
                        servers.push(Server { hostname: host.to_string(), ssl_redirect: false, cert: None, root: default.clone().unwrap_or(Backend::Default), locations: Vec::new() });
                        servers.last_mut().expect("just pushed")
                    }
                }
            };
            if tls_hosts.contains(&host) && !host.is_empty() {
                server.ssl_redirect = true;
                // only a server without a certificate takes one (the oldest Ingress's)
                if server.cert.is_none() {
                    server.cert = Some(certificate(ing, host, secrets));
                }
            }
            for p in meta::get_array(rule, &["http", "paths"]) {
                let path_type = PathType::parse(meta::get_str(p, &["pathType"]));
                let path = match meta::get_str(p, &["path"]) {
                    "" => "/".to_string(),
                    s => s.to_string(),
                };
                // the older Ingress keeps a path both define
                if server.locations.iter().any(|l| l.path == path && l.path_type == path_type) {
                    continue;
                }
                let backend = meta::get(p, &["backend"]).map(|b| backend_of(ns, b)).unwrap_or(Backend::Default);
                server.locations.push(Location { path, path_type, backend, ingress: key.clone() });
            }
        }
    }
    servers.sort_by(|a, b| a.hostname.cmp(&b.hostname));
    servers.push(catch_all);
    Config { servers }
}

/// `createServers`' certificate for a host of `ing`'s TLS section.
fn certificate(ing: &Value, host: &str, secrets: &Store) -> Cert {
    let name = meta::get_array(ing, &["spec", "tls"])
        .iter()
        .find(|t| meta::get_array(t, &["hosts"]).iter().any(|h| h.as_str().map(|h| h.eq_ignore_ascii_case(host)).unwrap_or(false)))
        .map(|t| meta::get_str(t, &["secretName"]))
        .unwrap_or("");
    if name.is_empty() {
        return Cert::Default(format!("Host {:?} is listed in the TLS section but secretName is empty. Using default certificate", host));
    }
    let key = format!("{}/{}", meta::namespace(ing), name);
    let found = match secrets.get(&key) {
        Some(s) => tls_secret_usable(s),
        None => Err(format!("local SSL certificate {} was not found", key)),
    };
    match found {
        Ok(()) => Cert::Secret(key),
        Err(e) => Cert::Default(format!("Error getting SSL certificate {:?}: {}. Using default certificate", key, e)),
    }
}

/// The configuration without its endpoints and certificates: what a reload is decided on
/// (`IsDynamicConfigurationEnough`: endpoint changes go to the Lua balancer and certificates
/// to the dynamic-certificates Lua module, without one).
pub fn shape(c: &Config) -> Config {
    let strip = |b: &Backend| match b {
        Backend::Upstream(u) => Backend::Upstream(Upstream { endpoints: Vec::new(), ..u.clone() }),
        Backend::Default => Backend::Default,
    };
    Config {
        servers: c
            .servers
            .iter()
            .map(|s| Server { root: strip(&s.root), cert: None, locations: s.locations.iter().map(|l| Location { backend: strip(&l.backend), ..l.clone() }).collect(), ..s.clone() })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Named table: the "Examples" of path matching in the Kubernetes documentation's Ingress
    /// page (`content/en/docs/concepts/services-networking/ingress.md`), each row's paths in one
    /// Ingress, the request path, and the path that matches (None: the default backend).
    #[test]
    fn ingress_docs_path_matching_examples() {
        use PathType::*;
        let rows: &[(&[(PathType, &str)], &str, Option<(PathType, &str)>)] = &[
            (&[(Prefix, "/")], "/anything/at/all", Some((Prefix, "/"))),
            (&[(Exact, "/foo")], "/foo", Some((Exact, "/foo"))),
            (&[(Exact, "/foo")], "/bar", None),
            (&[(Exact, "/foo")], "/foo/", None),
            (&[(Exact, "/foo/")], "/foo", None),
            (&[(Prefix, "/foo")], "/foo", Some((Prefix, "/foo"))),
            (&[(Prefix, "/foo")], "/foo/", Some((Prefix, "/foo"))),
            (&[(Prefix, "/foo/")], "/foo", Some((Prefix, "/foo/"))),
            (&[(Prefix, "/foo/")], "/foo/", Some((Prefix, "/foo/"))),
            (&[(Prefix, "/aaa/bb")], "/aaa/bbb", None),
            (&[(Prefix, "/aaa/bbb")], "/aaa/bbb", Some((Prefix, "/aaa/bbb"))),
            (&[(Prefix, "/aaa/bbb/")], "/aaa/bbb", Some((Prefix, "/aaa/bbb/"))),
            (&[(Prefix, "/aaa/bbb")], "/aaa/bbb/", Some((Prefix, "/aaa/bbb"))),
            (&[(Prefix, "/aaa/bbb")], "/aaa/bbb/ccc", Some((Prefix, "/aaa/bbb"))),
            (&[(Prefix, "/aaa/bbb")], "/aaa/bbbxyz", None),
            (&[(Prefix, "/"), (Prefix, "/aaa")], "/aaa/ccc", Some((Prefix, "/aaa"))),
            (&[(Prefix, "/"), (Prefix, "/aaa"), (Prefix, "/aaa/bbb")], "/aaa/bbb", Some((Prefix, "/aaa/bbb"))),
            (&[(Prefix, "/"), (Prefix, "/aaa"), (Prefix, "/aaa/bbb")], "/ccc", Some((Prefix, "/"))),
            (&[(Prefix, "/aaa")], "/ccc", None),
            (&[(Prefix, "/foo"), (Exact, "/foo")], "/foo", Some((Exact, "/foo"))),
            // ingress-nginx: ImplementationSpecific is nginx's own string prefix
            (&[(ImplementationSpecific, "/aaa/bb")], "/aaa/bbb", Some((ImplementationSpecific, "/aaa/bb"))),
            (&[(Prefix, "/"), (ImplementationSpecific, "/api")], "/api/v1?x=1", Some((ImplementationSpecific, "/api"))),
        ];
        for (paths, request, want) in rows {
            let server = Server {
                hostname: "foo.bar.com".into(),
                ssl_redirect: false,
                cert: None,
                root: Backend::Default,
                locations: paths.iter().map(|(t, p)| Location { path: p.to_string(), path_type: *t, backend: Backend::Default, ingress: "default/x".into() }).collect(),
            };
            let c = Config { servers: vec![server] };
            let got = c.route("foo.bar.com", request).and_then(|r| r.location.map(|l| (l.path_type, l.path.as_str())));
            assert_eq!(got, *want, "paths {:?}, request {}", paths, request);
        }
    }

    /// Named table: the documentation's host wildcard examples (`*.foo.com`).
    #[test]
    fn ingress_docs_wildcard_hosts() {
        let rows = [("*.foo.com", "bar.foo.com", true), ("*.foo.com", "baz.bar.foo.com", false), ("*.foo.com", "foo.com", false), ("foo.bar.com", "foo.bar.com", true)];
        for (server, host, want) in rows {
            assert_eq!(host_matches(server, host), want, "{} {}", server, host);
        }
    }

    /// `createServers`' certificate: the Secret a TLS section names when it holds a certificate
    /// and key, else the default (fake) certificate with upstream's warning; a certificate change
    /// alone is no reload (`IsDynamicConfigurationEnough` clears certificates).
    #[test]
    fn tls_server_certificate() {
        let ing = serde_json::json!({"metadata": {"namespace": "default", "name": "secure", "creationTimestamp": "2026-01-01T00:00:00Z"}, "spec": {
            "tls": [{"hosts": ["secure.example"], "secretName": "secure-tls"}],
            "rules": [{"host": "secure.example", "http": {"paths": [{"path": "/", "pathType": "Prefix", "backend": {"service": {"name": "web", "port": {"number": 80}}}}]}}]}});
        let none = Store::default();
        let without = build(&[&ing], &none, &none, &none);
        let server = &without.servers[0];
        assert!(server.ssl_redirect);
        assert_eq!(server.cert, Some(Cert::Default("Error getting SSL certificate \"default/secure-tls\": local SSL certificate default/secure-tls was not found. Using default certificate".into())));
        let mut secrets = Store::default();
        secrets.replace(vec![serde_json::json!({"metadata": {"namespace": "default", "name": "secure-tls"}, "type": "kubernetes.io/tls", "data": {"tls.crt": "LS0t", "tls.key": "LS0t"}})]);
        let with = build(&[&ing], &none, &none, &secrets);
        assert_eq!(with.servers[0].cert, Some(Cert::Secret("default/secure-tls".into())));
        assert_eq!(shape(&with), shape(&without));
        // the catch-all server has no TLS section
        assert_eq!(with.servers.last().map(|s| s.cert.clone()), Some(None));
    }
}
