//! The data path: an HTTP request from a Pod (`kubectl exec … -- curl`) or from outside the
//! cluster (`sim curl NODE:NODEPORT`) followed hop by hop, each hop a message in the trace.
//!
//! There is no single upstream counterpart: this is the Linux kernel running the rules kube-proxy
//! wrote (`pkg/proxy/iptables/proxier.go`): `KUBE-SERVICES` matches the ClusterIP (or
//! `KUBE-NODEPORTS` the node port), `KUBE-SVC-…` picks an endpoint with
//! `-m statistic --mode random --probability p` (drawn here from the cluster's seeded RNG),
//! `KUBE-SEP-…` DNATs to the Pod's IP, and the container answers if it listens on the port.
//! A Service without endpoints is `REJECT`ed (connection refused at once).
//!
//! A name is first looked up as the Pod's `/etc/resolv.conf` says (`kubelet/dns.rs`): each
//! candidate of the search list is an A query to the kube-dns Service, DNATed by the same rules
//! to a CoreDNS Pod, whose kubernetes plugin (`coredns/`) answers from its informers.
//!
//! What kubesim simplifies: A queries only (no AAAA), no resolver retries or caching; no conntrack (each request is balanced afresh), no
//! masquerade shown, HTTP GET and HEAD only; nginx's `Last-Modified`, `ETag` and `Accept-Ranges`
//! headers are not sent (their values come from the image's file times, which kubesim does not know).

use super::*;
use crate::api::net;
use crate::trace::NetHop;
use crate::proxy::iptables::proxier::{self, Endpoint, ServicePort};
use crate::runtime::program::{Surface, TeachingApp};

/// A request's answer and what a verbose client prints beside it.
#[derive(Clone, Debug, PartialEq)]
pub struct HttpReply {
    pub result: HttpResult,
    /// The address the client connected to (the name resolved, or the IP it was given).
    pub peer: Option<String>,
    /// The `Server` header (`nginx/1.25.5`), when the server sends one kubesim knows.
    pub server: Option<String>,
    /// The `Content-Type` header.
    pub content_type: &'static str,
    /// The `Location` header of a redirect.
    pub location: Option<String>,
}

/// What a request got back.
#[derive(Clone, Debug, PartialEq)]
pub enum HttpResult {
    /// The response body (HTTP 200).
    Ok(String),
    /// An HTTP error status and its body.
    Status(u16, String),
    /// curl's error line (`curl: (7) Failed to connect …`).
    Failed(String),
}

/// The default nginx page (`/usr/share/nginx/html/index.html`).
pub const NGINX_WELCOME: &str = "<!DOCTYPE html>\n<html>\n<head>\n<title>Welcome to nginx!</title>\n<style>\nhtml { color-scheme: light dark; }\nbody { width: 35em; margin: 0 auto;\nfont-family: Tahoma, Verdana, Arial, sans-serif; }\n</style>\n</head>\n<body>\n<h1>Welcome to nginx!</h1>\n<p>If you see this page, the nginx web server is successfully installed and\nworking. Further configuration is required.</p>\n\n<p>For online documentation and support please refer to\n<a href=\"http://nginx.org/\">nginx.org</a>.<br/>\nCommercial support is available at\n<a href=\"http://nginx.com/\">nginx.com</a>.</p>\n\n<p><em>Thank you for using nginx.</em></p>\n</body>\n</html>\n";

/// What the far end of a connection sees of it: the `Host` header and the source address
/// (a Pod's IP, the outside machine's, or a node's after kube-proxy's masquerade).
pub(crate) struct Conn<'a> {
    pub vhost: &'a str,
    pub src: &'a str,
    /// An `https://` request: TLS first, with this server name (SNI; None for an address).
    pub tls: Option<Tls<'a>>,
}

/// The TLS side of a connection.
#[derive(Clone, Copy)]
pub(crate) struct Tls<'a> {
    pub sni: Option<&'a str>,
    pub insecure: bool,
}

/// What a client asks beside the URL.
#[derive(Clone, Copy, Debug, Default)]
pub struct RequestOptions<'a> {
    /// `-H 'Host: …'` (the URL's host otherwise): what an Ingress controller routes on.
    pub host_header: Option<&'a str>,
    /// TLS's server name when the URL names an address in its place (`--resolve`).
    pub sni: Option<&'a str>,
    /// curl `-k`: the server's certificate is not verified.
    pub insecure: bool,
}

/// curl's text for a certificate no CA it trusts signed (`CURLE_PEER_FAILED_VERIFICATION` and
/// `CURL_CA_CERT_ERRORMSG`, curl 7.88 with OpenSSL 3).
pub const CURL_SELF_SIGNED: &str = "curl: (60) SSL certificate problem: self-signed certificate\nMore details here: https://curl.se/docs/sslcerts.html\n\ncurl failed to verify the legitimacy of the server and therefore could not\nestablish a secure connection to it. To learn more about this situation and\nhow to fix it, please visit the web page mentioned above.";

/// nginx's answer to plain HTTP on a `listen … ssl` port (`ngx_http_special_response.c`'s
/// `NGX_HTTP_TO_HTTPS` page).
pub fn nginx_plain_http_to_https_page() -> String {
    "<html>\r\n<head><title>400 The plain HTTP request was sent to HTTPS port</title></head>\r\n<body>\r\n<center><h1>400 Bad Request</h1></center>\r\n<center>The plain HTTP request was sent to HTTPS port</center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n".to_string()
}

/// Whether `url` asks for TLS.
pub fn is_https(url: &str) -> bool {
    url.starts_with("https://")
}

/// The address of the machine outside the cluster (`sim curl`), as the audit log shows kubectl's.
pub const OUTSIDE_IP: &str = "192.168.49.1";

/// nginx's built-in error page for `code` (`ngx_http_special_response.c`, CRLF line ends,
/// `server_tokens off`: no version in the footer).
pub fn nginx_error_page(code: u16) -> String {
    let title = format!("{} {}", code, crate::runtime::nettools::reason(code));
    format!("<html>\r\n<head><title>{t}</title></head>\r\n<body>\r\n<center><h1>{t}</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n", t = title)
}

/// `http[s]://host[:port][/path]` → (host, port, path); the port defaults to the scheme's.
pub fn parse_url(url: &str) -> Result<(String, i64, String), String> {
    let default_port = if is_https(url) { 443 } else { 80 };
    let rest = url.strip_prefix("http://").or_else(|| url.strip_prefix("https://")).unwrap_or(url);
    let (hostport, path) = match rest.find('/') {
        Some(i) => (&rest[..i], rest[i..].to_string()),
        None => (rest, "/".to_string()),
    };
    let (host, port) = match hostport.rsplit_once(':') {
        Some((h, p)) => (h, p.parse::<i64>().map_err(|_| format!("curl: (3) URL rejected: Port number was not a decimal number between 0 and 65535"))?),
        None => (hostport, default_port),
    };
    if host.is_empty() {
        return Err("curl: (3) URL rejected: No host part in the URL".into());
    }
    Ok((host.to_string(), port, path))
}

impl Cluster {
    fn hop(&mut self, from: &Actor, to: &Actor, hop: NetHop, what: String, cause: Option<MsgId>) -> MsgId {
        self.now += 1;
        self.trace.push(self.now, from.clone(), to.clone(), MessageKind::Net { hop, what }, cause)
    }

    fn node_ip_of(&self, node: &str) -> Option<String> {
        let n = self.api.peek(meta::lookup("nodes").expect("nodes"), "", node)?;
        meta::get(&n, &["status", "addresses"])?
            .as_array()?
            .iter()
            .find(|a| meta::get_str(a, &["type"]) == "InternalIP")
            .map(|a| meta::get_str(a, &["address"]).to_string())
    }

    /// The node whose InternalIP is `ip`.
    fn node_with_ip(&self, ip: &str) -> Option<String> {
        let nodes = self.api.list_objects(meta::lookup("nodes").expect("nodes"), "", None);
        nodes.iter().map(|n| meta::name(n).to_string()).find(|n| self.node_ip_of(n).as_deref() == Some(ip))
    }

    /// An HTTP request (`GET`, or `HEAD` for `curl -I`) of `url`, with what a client's verbose
    /// output reports beside the answer: the address it connected to and the server's headers.
    pub fn http_request(&mut self, from: Option<(&str, &str)>, method: &str, url: &str) -> HttpReply {
        self.http_request_with(from, method, url, RequestOptions::default())
    }

    /// [`Cluster::http_request`] with what the client sets beside the URL: the `Host` header a
    /// `-H 'Host: …'` sets (what an Ingress controller routes on), TLS's server name and
    /// whether the certificate is verified.
    pub fn http_request_with(&mut self, from: Option<(&str, &str)>, method: &str, url: &str, opts: RequestOptions) -> HttpReply {
        let mut x = HttpReply { result: HttpResult::Failed(String::new()), peer: None, server: None, content_type: "text/html", location: None };
        x.result = self.http_inner(from, method, url, opts, &mut x);
        x
    }

    fn http_inner(&mut self, from: Option<(&str, &str)>, method: &str, url: &str, opts: RequestOptions, x: &mut HttpReply) -> HttpResult {
        let (host, port, path) = match parse_url(url) {
            Ok(x) => x,
            Err(e) => return HttpResult::Failed(e),
        };
        let https = is_https(url);
        let scheme = if https { "https" } else { "http" };
        let default_port = if https { 443 } else { 80 };
        let vhost = opts.host_header.map(String::from).unwrap_or_else(|| if port == default_port { host.clone() } else { format!("{}:{}", host, port) });
        // SNI: the name the URL gives (or `--resolve` replaced); an address sends none
        let sni_name = opts.sni.map(String::from).or_else(|| net::parse_ipv4(&host).is_none().then(|| host.clone()));
        let tls = https.then_some(Tls { sni: sni_name.as_deref(), insecure: opts.insecure });
        let pods_info = meta::lookup("pods").expect("pods");
        let (client, client_node) = match from {
            Some((ns, name)) => match self.api.peek(pods_info, ns, name) {
                Some(p) => {
                    let node = meta::get_str(&p, &["spec", "nodeName"]).to_string();
                    (Actor::Runtime(node.clone()), Some(node))
                }
                None => return HttpResult::Failed(format!("Error from server (NotFound): pods \"{}\" not found", name)),
            },
            None => (Actor::Kubectl, None),
        };
        let client_ip = match from {
            Some((ns, name)) => self.api.peek(pods_info, ns, name).map(|p| meta::get_str(&p, &["status", "podIP"]).to_string()).unwrap_or_default(),
            None => OUTSIDE_IP.to_string(),
        };
        let start = self.trace.push(self.now, client.clone(), client.clone(), MessageKind::Net { hop: NetHop::Request, what: format!("{} {}://{}:{}{}", method, scheme, host, port, path) }, None);
        // name resolution: the Pod's resolver asks CoreDNS through the kube-dns Service
        let nodes = meta::lookup("nodes").expect("nodes");
        let mut via_node: Option<String> = None;
        let ip = if net::parse_ipv4(&host).is_some() {
            if from.is_none() {
                // from outside, a node's address enters the cluster at that node
                via_node = self.node_with_ip(&host);
            }
            host.clone()
        } else if from.is_none() {
            // a machine outside the cluster knows the nodes (its /etc/hosts), not cluster names
            if self.api.peek(nodes, "", &host).is_some() {
                via_node = Some(host.clone());
                self.node_ip_of(&host).unwrap_or_default()
            } else if let Some((ip, ing)) = self.hosts_file_entry(&host) {
                // …and the Ingress hosts a tutorial has you add to it, at the Ingress's ADDRESS
                self.hop(&client, &client, NetHop::HostsFile, format!("/etc/hosts of the machine outside: {} → {} (the ADDRESS of ingress {})", host, ip, ing), Some(start));
                via_node = self.node_with_ip(&ip);
                ip
            } else {
                self.hop(&client, &client, NetHop::DnsNxDomain, format!("DNS {}: NXDOMAIN (cluster names do not resolve outside the cluster)", host), Some(start));
                return HttpResult::Failed(format!("curl: (6) Could not resolve host: {}", host));
            }
        } else {
            let pod = from.and_then(|(ns, name)| self.api.peek(pods_info, ns, name)).expect("client pod");
            match self.resolve(&client, client_node.as_deref().unwrap_or(""), start, &pod, &host) {
                Some(ip) => ip,
                None => return HttpResult::Failed(format!("curl: (6) Could not resolve host: {}", host)),
            }
        };
        x.peer = Some(ip.clone());
        // the rules of the node the packet enters: the client's node, or the node addressed
        let rules_node = via_node.clone().or(client_node.clone());
        let Some(rules_node) = rules_node else {
            return self.direct(&client, start, &ip, port, &path, &host, x, &Conn { vhost: &vhost, src: &client_ip, tls });
        };
        if via_node.is_some() {
            // the CNI portmap plugin's DNAT of a Pod's hostPort on the node addressed
            if let Some((pod_ip, cport, pod_name)) = self.host_port_pod(&rules_node, port) {
                let runtime = Actor::Runtime(rules_node.clone());
                let hop = self.hop(&client, &runtime, NetHop::HostPort, format!("CNI portmap on {}: hostPort {} → DNAT to {}:{} (pod {})", rules_node, port, pod_ip, cport, pod_name), Some(start));
                return self.answer(&client, &runtime, hop, &pod_ip, cport, &path, &host, port, x, &Conn { vhost: &vhost, src: &client_ip, tls });
            }
        }
        let ports: Vec<ServicePort> = self.view().kube_proxy(&rules_node).map(|k| k.service_ports().to_vec()).unwrap_or_default();
        let matched = ports.iter().find(|sp| {
            if via_node.is_some() {
                sp.node_port == port && sp.protocol == "tcp"
            } else {
                sp.cluster_ip == ip && sp.port == port && sp.protocol == "tcp"
            }
        });
        let proxy = Actor::KubeProxy(rules_node.clone());
        let Some(sp) = matched.cloned() else {
            if net::Cidr::parse(crate::apiserver::SERVICE_CIDR).map(|c| net::parse_ipv4(&ip).map(|i| c.contains(i)).unwrap_or(false)).unwrap_or(false) {
                self.hop(&client, &proxy, NetHop::NoRule, format!("iptables on {}: no rule for {}:{}", rules_node, ip, port), Some(start));
                return HttpResult::Failed(format!("curl: (28) Failed to connect to {} port {} after 130000 ms: Couldn't connect to server", host, port));
            }
            return self.direct(&client, start, &ip, port, &path, &host, x, &Conn { vhost: &vhost, src: &client_ip, tls });
        };
        let name = sp.port_name_string();
        if sp.endpoints.is_empty() {
            self.hop(&client, &proxy, NetHop::Reject, format!("iptables on {}: \"{} has no endpoints\" -j REJECT", rules_node, name), Some(start));
            return HttpResult::Failed(format!("curl: (7) Failed to connect to {} port {} after 1 ms: Couldn't connect to server", host, port));
        }
        let n = sp.endpoints.len();
        let chosen = self.pick_endpoint(n);
        let ep: Endpoint = sp.endpoints[chosen].clone();
        let entry = if via_node.is_some() { format!("KUBE-NODEPORTS → {}", sp.ext_chain()) } else { "KUBE-SERVICES".to_string() };
        let rule = self.hop(
            &client,
            &proxy,
            NetHop::Rule,
            format!("iptables on {}: {} → {} → {} (endpoint {} of {}), DNAT to {}", rules_node, entry, sp.svc_chain(), sp.sep_chain(&ep), chosen + 1, n, ep.addr()),
            Some(start),
        );
        // a node port from outside is masqueraded: the Pod sees the node's address
        let src = if via_node.is_some() { self.node_ip_of(&rules_node).unwrap_or_default() } else { client_ip };
        self.answer(&client, &proxy, rule, &ep.ip, ep.port, &path, &host, port, x, &Conn { vhost: &vhost, src: &src, tls })
    }

    /// kube-network-policies judges a connection's first packet. Ok: it passes (the hop that
    /// says which policy allows it, when an end is isolated, else `cause`); Err: dropped (the
    /// DROP hop).
    fn policy_check(&mut self, from: &Actor, cause: MsgId, src: &str, dst: &str, port: i64, protocol: &str) -> Result<MsgId, MsgId> {
        use crate::networkpolicy::{Packet, Verdict};
        let Some(verdict) = self.view().network_policies().map(|a| a.evaluate(&Packet { src_ip: src, dst_ip: dst, dst_port: port, protocol })) else { return Ok(cause) };
        let node_of = |c: &Cluster, pod: &str| {
            let (ns, name) = pod.split_once('/').unwrap_or(("", pod));
            c.api.peek(meta::lookup("pods").expect("pods"), ns, name).map(|p| meta::get_str(&p, &["spec", "nodeName"]).to_string()).unwrap_or_default()
        };
        match verdict {
            Verdict::NotIsolated => Ok(cause),
            Verdict::Allowed { egress, ingress } => {
                let mut by: Vec<String> = egress.iter().map(|p| format!("{} (egress)", p)).collect();
                by.extend(ingress.iter().map(|p| format!("{} (ingress)", p)));
                Ok(self.hop(from, from, NetHop::PolicyAccept, format!("kube-network-policies: ACCEPT {} → {}:{}/{}: allowed by NetworkPolicy {}", src, dst, port, protocol, by.join(", ")), Some(cause)))
            }
            Verdict::Dropped { direction, pod, policies } => {
                let node = node_of(self, &pod);
                Err(self.hop(
                    from,
                    &Actor::Runtime(node.clone()),
                    NetHop::PolicyDrop,
                    format!("kube-network-policies on {}: DROP {} → {}:{}/{}: pod {} is isolated for {} by NetworkPolicy {} and no rule allows this; the client waits until it times out", node, src, dst, port, protocol, pod, direction, policies.join(", ")),
                    Some(cause),
                ))
            }
        }
    }

    /// The outside machine's `/etc/hosts` line for an Ingress host: the ADDRESS of the oldest
    /// Ingress with a rule for it (exact or wildcard) and an address, and that Ingress.
    fn hosts_file_entry(&self, host: &str) -> Option<(String, String)> {
        let info = meta::lookup("ingresses").expect("ingresses");
        let ings = self.api.list_objects(info, "", None);
        let mut refs: Vec<&Value> = ings.iter().collect();
        crate::ingressnginx::controller::sort_ingresses(&mut refs);
        refs.into_iter().find_map(|i| {
            let names = meta::get_array(i, &["spec", "rules"]).iter().any(|r| {
                let h = meta::get_str(r, &["host"]);
                !h.is_empty() && (h == host || crate::ingressnginx::controller::host_matches(h, host))
            });
            let ip = meta::get_array(i, &["status", "loadBalancer", "ingress"]).iter().find_map(|a| a.get("ip").and_then(Value::as_str).map(String::from));
            names.then_some(ip).flatten().map(|ip| (ip, format!("{}/{}", meta::namespace(i), meta::name(i))))
        })
    }

    /// A Running Pod on `node` whose container publishes `port` as a hostPort: (its IP, the
    /// container port, its name).
    fn host_port_pod(&self, node: &str, port: i64) -> Option<(String, i64, String)> {
        let pods = self.api.list_objects(meta::lookup("pods").expect("pods"), "", None);
        pods.iter().filter(|p| meta::get_str(p, &["spec", "nodeName"]) == node && meta::get_str(p, &["status", "phase"]) == "Running").find_map(|p| {
            meta::get_array(p, &["spec", "containers"]).iter().flat_map(|c| meta::get_array(c, &["ports"]).iter()).find_map(|cp| {
                let tcp = matches!(meta::get_str(cp, &["protocol"]), "" | "TCP");
                (tcp && meta::get_i64(cp, &["hostPort"]) == Some(port)).then(|| (meta::get_str(p, &["status", "podIP"]).to_string(), meta::get_i64(cp, &["containerPort"]).unwrap_or(port), meta::name(p).to_string()))
            })
        })
    }

    /// nginx in an ingress-nginx controller Pod serves a request: the server for its `Host`, the
    /// location for its path, then the upstream's next endpoint (the Lua balancer's round
    /// robin), or the default server's 404, a 503 for an upstream without ready endpoints, a 308
    /// to HTTPS for a TLS host, a 502 when the endpoint does not answer.
    #[allow(clippy::too_many_arguments)]
    fn ingress_serve(&mut self, client: &Actor, me: &Actor, cause: MsgId, pod_name: &str, pod_ip: &str, path: &str, vhost: &str, https: bool, x: &mut HttpReply) -> HttpResult {
        x.server = Some("nginx".into());
        x.content_type = "text/html";
        let host = vhost.split(':').next().unwrap_or(vhost).to_string();
        let cfg = self.view().ingress_nginx().and_then(|c| c.config().cloned());
        let back = |c: &mut Cluster, code: u16, h: MsgId| {
            c.hop(me, client, NetHop::Answer, format!("HTTP/1.1 {} from {} (ingress-nginx)", code, pod_name), Some(h));
        };
        let Some(cfg) = cfg else {
            let h = self.hop(me, me, NetHop::IngressNotFound, format!("nginx in {}: no configuration synced yet: the default server answers 404", pod_name), Some(cause));
            back(self, 404, h);
            return HttpResult::Status(404, nginx_error_page(404));
        };
        let Some(route) = cfg.route(&host, path) else {
            let h = self.hop(me, me, NetHop::IngressNotFound, format!("nginx in {}: Host {}: no server: 404", pod_name, host), Some(cause));
            back(self, 404, h);
            return HttpResult::Status(404, nginx_error_page(404));
        };
        use crate::ingressnginx::controller::Backend;
        let server = if route.server.hostname == "_" { "_ (catch-all)".to_string() } else { route.server.hostname.clone() };
        let loc = match route.location {
            Some(l) => format!("location {} ({}, ingress {})", l.path, l.path_type.as_str(), l.ingress),
            None => "location / (the server's default backend)".to_string(),
        };
        if route.server.ssl_redirect && !https {
            x.location = Some(format!("https://{}{}", host, path));
            let h = self.hop(me, me, NetHop::IngressRedirect, format!("nginx in {}: Host {} → server {}: TLS configured, ssl-redirect: 308 to https://{}{}", pod_name, host, server, host, path), Some(cause));
            back(self, 308, h);
            return HttpResult::Status(308, nginx_error_page(308));
        }
        match route.backend().clone() {
            Backend::Default => {
                let h = self.hop(me, me, NetHop::IngressNotFound, format!("nginx in {}: Host {}, path {} → server {}, {} → the default backend: 404", pod_name, host, path, server, loc), Some(cause));
                back(self, 404, h);
                HttpResult::Status(404, nginx_error_page(404))
            }
            Backend::Upstream(u) if u.endpoints.is_empty() => {
                let h = self.hop(me, me, NetHop::IngressNoEndpoints, format!("nginx in {}: Host {}, path {} → server {}, {} → upstream {}: no ready endpoint (service {}/{}): 503", pod_name, host, path, server, loc, u.name, u.namespace, u.service), Some(cause));
                back(self, 503, h);
                HttpResult::Status(503, nginx_error_page(503))
            }
            Backend::Upstream(u) => {
                let n = u.endpoints.len();
                let k = self.ingress_rr.entry(u.name.clone()).or_insert(0);
                let i = *k % n;
                *k = k.wrapping_add(1);
                let (ip, port) = u.endpoints[i].clone();
                let h = self.hop(me, me, NetHop::IngressRoute, format!("nginx in {}: Host {}, path {} → server {}, {} → upstream {}: {}:{} (round robin, endpoint {} of {})", pod_name, host, path, server, loc, u.name, ip, port, i + 1, n), Some(cause));
                let mut inner = HttpReply { result: HttpResult::Failed(String::new()), peer: None, server: None, content_type: "text/html", location: None };
                let r = self.answer(me, me, h, &ip, port, path, &ip, port, &mut inner, &Conn { vhost, src: pod_ip, tls: None });
                match r {
                    // proxy_connect_timeout: a dropped connection is a 504
                    HttpResult::Failed(e) if e.starts_with("curl: (28)") => {
                        let h = self.hop(me, me, NetHop::IngressNoEndpoints, format!("nginx in {}: upstream {} endpoint {}:{} timed out: 504", pod_name, u.name, ip, port), Some(h));
                        back(self, 504, h);
                        HttpResult::Status(504, nginx_error_page(504))
                    }
                    HttpResult::Failed(_) => {
                        let h = self.hop(me, me, NetHop::IngressNoEndpoints, format!("nginx in {}: upstream {} endpoint {}:{} did not answer: 502", pod_name, u.name, ip, port), Some(h));
                        back(self, 502, h);
                        HttpResult::Status(502, nginx_error_page(502))
                    }
                    other => {
                        x.content_type = inner.content_type;
                        let code = match &other {
                            HttpResult::Status(c, _) => *c,
                            _ => 200,
                        };
                        back(self, code, h);
                        other
                    }
                }
            }
        }
    }

    /// `KUBE-SVC-…`: rule i of n matches with probability 1/(n-i), drawn from the seeded RNG.
    /// The TLS handshake with nginx in an ingress-nginx Pod: the certificate of the server the
    /// SNI names (its Ingress's TLS Secret, or the controller's self-signed default), then the
    /// client's verification — which no certificate in the simulated cluster passes, as no CA
    /// the client trusts signed any (`curl -k` skips it). Ok: the handshake's hop.
    fn tls_handshake(&mut self, client: &Actor, me: &Actor, cause: MsgId, pod_name: &str, tls: Tls) -> Result<MsgId, String> {
        use crate::ingressnginx::controller::{Cert, FAKE_CERTIFICATE_SUBJECT};
        let cfg = self.view().ingress_nginx().and_then(|c| c.config().cloned());
        let sni = tls.sni.unwrap_or("");
        let cert = match &tls.sni {
            Some(name) => cfg.as_ref().and_then(|c| c.route(name, "/")).and_then(|r| r.server.cert.clone()),
            None => None,
        };
        let (presented, why) = match cert {
            Some(Cert::Secret(k)) => (format!("the certificate of Secret {}", k), String::new()),
            Some(Cert::Default(why)) => (format!("its default certificate ({})", FAKE_CERTIFICATE_SUBJECT), format!(" — {}", why)),
            None => (format!("its default certificate ({})", FAKE_CERTIFICATE_SUBJECT), if sni.is_empty() { " — no server name was sent".to_string() } else { format!(" — no TLS section names {}", sni) }),
        };
        let server_name = if sni.is_empty() { "no SNI".to_string() } else { format!("SNI {}", sni) };
        let h = self.hop(me, me, NetHop::TlsHandshake, format!("TLS handshake with nginx in {}: {} → it presents {}{}", pod_name, server_name, presented, why), Some(cause));
        if tls.insecure {
            return Ok(h);
        }
        self.hop(me, client, NetHop::TlsFailed, "the client verifies the certificate: self-signed, no CA it trusts signed it: it closes the connection (curl -k skips this check)".to_string(), Some(h));
        Err(CURL_SELF_SIGNED.to_string())
    }

    fn pick_endpoint(&mut self, n: usize) -> usize {
        for i in 0..n.saturating_sub(1) {
            let p: f64 = proxier::probability(i, n).parse().unwrap_or(1.0);
            let draw = self.rng.below(1 << 31) as f64 / 2_147_483_648.0;
            if draw < p {
                return i;
            }
        }
        n.saturating_sub(1)
    }

    /// The stub resolver of the Pod `pod` on `node` looks `host` up, as its `/etc/resolv.conf`
    /// says: each name of the search list in turn, as a UDP query to the nameserver, which for
    /// `ClusterFirst` is the kube-dns Service (DNATed by kube-proxy's rules to a CoreDNS Pod).
    fn resolve(&mut self, client: &Actor, node: &str, start: MsgId, pod: &Value, host: &str) -> Option<String> {
        let conf = crate::kubelet::dns::resolv_conf(pod);
        let names = crate::coredns::query_names(host, &conf.search, conf.ndots());
        let Some(server) = conf.nameservers.first().cloned() else {
            self.hop(client, client, NetHop::DnsNoServer, format!("DNS {}: no nameserver in /etc/resolv.conf", host), Some(start));
            return None;
        };
        if server != crate::kubelet::dns::CLUSTER_DNS {
            // the node's resolver: it knows the nodes, not the cluster's names
            let known = self.api.peek(meta::lookup("nodes").expect("nodes"), "", host).is_some();
            let answer = if known { self.node_ip_of(host) } else { None };
            let what = match &answer {
                Some(ip) => format!("DNS A {}? → {} (the node's resolver): {}. IN A {}", host, server, host, ip),
                None => format!("DNS A {}? → {} (the node's resolver): NXDOMAIN", host, server),
            };
            self.hop(client, client, NetHop::NodeResolver, what, Some(start));
            return answer;
        }
        let proxy = Actor::KubeProxy(node.to_string());
        let sp = self
            .view()
            .kube_proxy(node)
            .and_then(|k| k.service_ports().iter().find(|sp| sp.cluster_ip == server && sp.port == 53 && sp.protocol == "udp").cloned());
        let Some(sp) = sp else {
            self.hop(client, &proxy, NetHop::DnsNoRule, format!("DNS {}:53/udp: iptables on {} has no rule for it (no kube-dns Service: is CoreDNS installed? `sim addon coredns`); the resolver times out", server, node), Some(start));
            return None;
        };
        if sp.endpoints.is_empty() {
            self.hop(client, &proxy, NetHop::DnsReject, format!("DNS {}:53/udp: \"{} has no endpoints\" -j REJECT; the resolver gives up", server, sp.port_name_string()), Some(start));
            return None;
        }
        let n = sp.endpoints.len();
        let chosen = self.pick_endpoint(n);
        let ep = sp.endpoints[chosen].clone();
        let rule = self.hop(client, &proxy, NetHop::DnsRule, format!("DNS to {}:53/udp: iptables on {}: {} → {} (endpoint {} of {}), DNAT to {}", server, node, sp.svc_chain(), sp.sep_chain(&ep), chosen + 1, n, ep.addr()), Some(start));
        // an egress policy can drop the query itself: the lookup times out
        let rule = match self.policy_check(client, rule, meta::get_str(pod, &["status", "podIP"]), &ep.ip, ep.port, "UDP") {
            Ok(h) => h,
            Err(_) => return None,
        };
        let dns_pod = self
            .api
            .list_objects(meta::lookup("pods").expect("pods"), "", None)
            .into_iter()
            .find(|p| meta::get_str(p, &["status", "podIP"]) == ep.ip && meta::get_str(p, &["status", "phase"]) == "Running");
        let dns_node = dns_pod.as_ref().map(|p| meta::get_str(p, &["spec", "nodeName"]).to_string()).unwrap_or_default();
        let dns_name = dns_pod.as_ref().map(|p| meta::name(p).to_string()).unwrap_or_default();
        let server_actor = Actor::Runtime(dns_node.clone());
        let mut cause = rule;
        for q in names {
            let asked = self.hop(client, &server_actor, NetHop::DnsQuery, format!("DNS query A {}. → {} ({})", q, dns_name, ep.ip), Some(cause));
            let answer = match self.view().coredns() {
                Some(dns) => dns.lookup(&q),
                None => crate::coredns::Answer::NxDomain,
            };
            match answer {
                crate::coredns::Answer::A(mut ips) => {
                    if ips.len() > 1 {
                        // the loadbalance plugin shuffles the records
                        let k = self.rng.below(ips.len() as u64) as usize;
                        ips.rotate_left(k);
                    }
                    let records: Vec<String> = ips.iter().map(|ip| format!("{}. {} IN A {}", q, crate::coredns::TTL, ip)).collect();
                    self.hop(&server_actor, client, NetHop::DnsAnswer, format!("DNS answer: {}", records.join("; ")), Some(asked));
                    return ips.into_iter().next();
                }
                crate::coredns::Answer::NxDomain => {
                    cause = self.hop(&server_actor, client, NetHop::DnsNxDomain, format!("DNS answer: {}.: NXDOMAIN", q), Some(asked));
                }
                crate::coredns::Answer::Forwarded => {
                    let node_ip = if q == host { self.api.peek(meta::lookup("nodes").expect("nodes"), "", host).and_then(|_| self.node_ip_of(host)) } else { None };
                    match node_ip {
                        Some(ip) => {
                            self.hop(&server_actor, client, NetHop::DnsAnswer, format!("DNS answer (forwarded to {}): {}. IN A {}", crate::kubelet::dns::NODE_NAMESERVER, q, ip), Some(asked));
                            return Some(ip);
                        }
                        None => {
                            cause = self.hop(&server_actor, client, NetHop::DnsNxDomain, format!("DNS answer (forwarded to {}): {}.: NXDOMAIN", crate::kubelet::dns::NODE_NAMESERVER, q), Some(asked));
                        }
                    }
                }
            }
        }
        None
    }

    /// A request to an address no Service rule matches: straight to a Pod IP, or nowhere.
    #[cfg(not(target_arch = "wasm32"))]
    /// kube-apiserver's proxy subresources: the API server dials the Pod's IP and port itself
    /// (from the control-plane node, no Service rules) and passes the answer back; a failed dial
    /// is a 503 (`error trying to reach service: …`).
    pub(crate) fn proxy_http(&mut self, p: &crate::apiserver::HttpProxy, cause: MsgId) -> Response {
        let me = Actor::ApiServer;
        let start = self.trace.push(self.now, me.clone(), me.clone(), MessageKind::Net { hop: NetHop::Request, what: format!("GET http://{}:{}{} (proxy)", p.ip, p.port, p.path) }, Some(cause));
        let mut x = HttpReply { result: HttpResult::Failed(String::new()), peer: None, server: None, content_type: "text/html", location: None };
        match self.direct(&me, start, &p.ip, p.port, &p.path, &p.ip, &mut x, &Conn { vhost: &p.ip, src: "", tls: None }) {
            HttpResult::Ok(body) => Response { code: 200, body: Value::String(body) },
            HttpResult::Status(code, body) => Response { code, body: Value::String(body) },
            HttpResult::Failed(_) => {
                let msg = format!("error trying to reach service: dial tcp {}:{}: connect: connection refused", p.ip, p.port);
                Response { code: 503, body: json!({"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure", "message": msg, "reason": "ServiceUnavailable", "code": 503}) }
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn direct(&mut self, client: &Actor, start: MsgId, ip: &str, port: i64, path: &str, host: &str, x: &mut HttpReply, conn: &Conn) -> HttpResult {
        let pod_ip = net::Cidr::parse(proxier::CLUSTER_CIDR).map(|c| net::parse_ipv4(ip).map(|i| c.contains(i)).unwrap_or(false)).unwrap_or(false);
        if !pod_ip {
            self.hop(client, client, NetHop::NoRoute, format!("no route to {}", ip), Some(start));
            return HttpResult::Failed(format!("curl: (28) Failed to connect to {} port {} after 130000 ms: Couldn't connect to server", host, port));
        }
        self.answer(client, client, start, ip, port, path, host, port, x, conn)
    }

    /// The Pod at `ip` answers on `port`, if a container of it listens there.
    #[allow(clippy::too_many_arguments)]
    fn answer(&mut self, client: &Actor, from: &Actor, cause: MsgId, ip: &str, port: i64, path: &str, host: &str, host_port: i64, x: &mut HttpReply, conn: &Conn) -> HttpResult {
        let pods = self.api.list_objects(meta::lookup("pods").expect("pods"), "", None);
        let Some(pod) = pods.into_iter().find(|p| meta::get_str(p, &["status", "podIP"]) == ip && !matches!(meta::get_str(p, &["status", "phase"]), "Succeeded" | "Failed")) else {
            return HttpResult::Failed(format!("curl: (28) Failed to connect to {} port {} after 130000 ms: Couldn't connect to server", host, host_port));
        };
        // a connection from the Pod's own address never leaves its network namespace (it goes
        // over loopback), so no NetworkPolicy sees it: `kubectl port-forward`'s tunnel ends there
        let cause = if conn.src == ip {
            cause
        } else {
            match self.policy_check(from, cause, conn.src, ip, port, "TCP") {
                Ok(c) => c,
                Err(_) => return HttpResult::Failed(format!("curl: (28) Failed to connect to {} port {} after 130000 ms: Couldn't connect to server", host, host_port)),
            }
        };
        let vhost = conn.vhost;
        let node = meta::get_str(&pod, &["spec", "nodeName"]).to_string();
        let runtime = Actor::Runtime(node.clone());
        let pod_name = meta::name(&pod).to_string();
        let running: Vec<String> = meta::get(&pod, &["status", "containerStatuses"])
            .and_then(|c| c.as_array())
            .map(|cs| cs.iter().filter(|c| meta::get(c, &["state", "running"]).is_some()).map(|c| meta::get_str(c, &["name"]).to_string()).collect())
            .unwrap_or_default();
        let strs = |v: Option<&Value>| -> Vec<String> { v.and_then(|a| a.as_array()).map(|a| a.iter().filter_map(|x| x.as_str().map(String::from)).collect()).unwrap_or_default() };
        for c in meta::get(&pod, &["spec", "containers"]).and_then(|c| c.as_array()).cloned().unwrap_or_default() {
            let cname = meta::get_str(&c, &["name"]).to_string();
            if !running.contains(&cname) {
                continue;
            }
            let image = meta::get_str(&c, &["image"]).to_string();
            let env: Vec<(String, String)> = meta::get(&c, &["env"])
                .and_then(|e| e.as_array())
                .map(|es| es.iter().map(|e| (meta::get_str(e, &["name"]).to_string(), meta::get_str(e, &["value"]).to_string())).collect())
                .unwrap_or_default();
            let app = TeachingApp::of(&image, &env, None);
            let surface = match &app {
                Some(a) => Surface::of_app(a.clone()),
                None => Surface::of(&image, &strs(c.get("command")), &strs(c.get("args"))),
            };
            if !surface.ports.iter().any(|p| *p as i64 == port) {
                continue;
            }
            let to_pod = self.hop(from, &runtime, NetHop::ToPod, format!("TCP {}:{} → pod {} on {} (container {})", ip, port, pod_name, node, cname), Some(cause));
            let ingress_nginx = image.contains("ingress-nginx/controller");
            if let Some(tls) = conn.tls {
                if ingress_nginx && port == 443 {
                    return match self.tls_handshake(client, &runtime, to_pod, &pod_name, tls) {
                        Ok(h) => self.ingress_serve(client, &runtime, h, &pod_name, ip, path, vhost, true, x),
                        Err(e) => HttpResult::Failed(e),
                    };
                }
                // a plain HTTP server reads the ClientHello as a bad request and answers in HTTP
                self.hop(&runtime, client, NetHop::TlsFailed, format!("TLS ClientHello to {}:{} (pod {}): the server speaks plain HTTP on this port and answers with an HTTP error, not a ServerHello", ip, port, pod_name), Some(to_pod));
                return HttpResult::Failed("curl: (35) error:0A00010B:SSL routines::wrong version number".to_string());
            }
            if ingress_nginx && port == 80 {
                return self.ingress_serve(client, &runtime, to_pod, &pod_name, ip, path, vhost, false, x);
            }
            if ingress_nginx && port == 443 {
                x.server = Some("nginx".into());
                let h = self.hop(&runtime, &runtime, NetHop::TlsFailed, format!("nginx in {}: plain HTTP on its TLS port 443: 400", pod_name), Some(to_pod));
                self.hop(&runtime, client, NetHop::Answer, format!("HTTP/1.1 400 from {} (ingress-nginx)", pod_name), Some(h));
                return HttpResult::Status(400, nginx_plain_http_to_https_page());
            }
            let tag = image.rsplit_once(':').filter(|(r, _)| !r.ends_with('/')).map(|(_, t)| t).unwrap_or("latest");
            if app.is_none() && image.contains("nginx") {
                x.server = Some(format!("nginx/{}", crate::runtime::program::nginx_version(tag)));
            }
            let (status, body) = match &app {
                Some(a) => {
                    let code = a.http_status(path, i64::MAX / 4);
                    x.content_type = "text/plain; charset=utf-8";
                    (code, format!("kubesim/app:{} answered from {}\n", a.tag, pod_name))
                }
                None if image.contains("nginx") => match &surface.http {
                    Some(Some(paths)) if !paths.iter().any(|p| *p == path) => (404, nginx_error_page(404)),
                    _ => (200, NGINX_WELCOME.to_string()),
                },
                None if image.contains("httpd") => (200, "<html><body><h1>It works!</h1></body></html>\n".to_string()),
                // the Kubernetes docs' sample (`google-samples/hello-app`'s main.go): any path
                None if image.contains("hello-app") => {
                    x.content_type = "text/plain; charset=utf-8";
                    let version = if tag.matches('.').count() == 1 { format!("{}.0", tag) } else { tag.to_string() };
                    (200, format!("Hello, world!\nVersion: {}\nHostname: {}\n", version, pod_name))
                }
                None => (200, String::new()),
            };
            self.hop(&runtime, client, NetHop::Answer, format!("HTTP/1.1 {} from {}", status, pod_name), Some(to_pod));
            return if status == 200 { HttpResult::Ok(body) } else { HttpResult::Status(status, body) };
        }
        self.hop(from, &runtime, NetHop::NothingListens, format!("TCP {}:{} → pod {}: nothing listens, RST", ip, port, pod_name), Some(cause));
        HttpResult::Failed(format!("curl: (7) Failed to connect to {} port {} after 1 ms: Couldn't connect to server", host, host_port))
    }
}

/// The learner's machine's loopback listeners: `kubectl port-forward`'s tunnel and `kubectl
/// proxy` (upstream: `staging/src/k8s.io/kubectl/pkg/cmd/portforward` with client-go's
/// `tools/portforward`, the kubelet's streaming server `pkg/kubelet/cri/streaming/portforward`
/// and the runtime's `PortForward`; `kubectl/pkg/proxy`). What kubesim simplifies: the tunnel's
/// upgrade is the one `pods/portforward` request `kubectl port-forward` sent when it started;
/// each connection is a stream over it, drawn hop by hop.
impl Cluster {
    /// A connection to a loopback port `kubectl port-forward` listens on, carrying one HTTP
    /// request to `port` of Pod `ns/pod`.
    #[allow(clippy::too_many_arguments)]
    pub fn port_forward_request(&mut self, local_port: u16, ns: &str, pod: &str, port: u16, method: &str, path: &str, opts: RequestOptions) -> HttpReply {
        let mut x = HttpReply { result: HttpResult::Failed(String::new()), peer: Some("127.0.0.1".into()), server: None, content_type: "text/html", location: None };
        let client = Actor::Kubectl;
        let start = self.hop(&client, &client, NetHop::LocalPort, format!("{} http://localhost:{}{} → kubectl port-forward (to pod {}/{} port {})", method, local_port, path, ns, pod, port), None);
        let pods_info = meta::lookup("pods").expect("pods");
        let found = self.api.peek(pods_info, ns, pod);
        let Some(p) = found.filter(|p| meta::get_str(p, &["status", "phase"]) == "Running") else {
            // the stream fails at the kubelet: kubectl logs the error and closes the connection
            self.hop(&client, &Actor::ApiServer, NetHop::PortForward, format!("port-forward stream for port {}: pod {}/{} is gone or not running, the stream fails", port, ns, pod), Some(start));
            x.result = HttpResult::Failed("curl: (52) Empty reply from server".into());
            return x;
        };
        let node = meta::get_str(&p, &["spec", "nodeName"]).to_string();
        let ip = meta::get_str(&p, &["status", "podIP"]).to_string();
        let a = self.hop(&client, &Actor::ApiServer, NetHop::PortForward, format!("stream for port {} over kubectl's upgraded connection (POST /api/v1/namespaces/{}/pods/{}/portforward)", port, ns, pod), Some(start));
        let kubelet = Actor::Kubelet(node.clone());
        let b = self.hop(&Actor::ApiServer, &kubelet, NetHop::PortForward, format!("kube-apiserver → the kubelet's streaming server on {} (:10250): the stream for port {}", node, port), Some(a));
        let runtime = Actor::Runtime(node.clone());
        let c = self.hop(&kubelet, &runtime, NetHop::PortForward, format!("CRI PortForward: connect to 127.0.0.1:{} inside pod {}'s network namespace", port, pod), Some(b));
        let host = "localhost".to_string();
        let vhost = opts.host_header.map(String::from).unwrap_or_else(|| host.clone());
        // the connection comes from inside the Pod's own network namespace: no NetworkPolicy
        let result = self.answer(&client, &runtime, c, &ip, i64::from(port), path, &host, i64::from(port), &mut x, &Conn { vhost: &vhost, src: &ip, tls: None });
        x.result = match result {
            HttpResult::Failed(_) => HttpResult::Failed("curl: (52) Empty reply from server".into()),
            r => r,
        };
        x
    }

    /// A connection to the loopback port `kubectl proxy` listens on: the request goes on to
    /// kube-apiserver with the kubeconfig's credentials, and the API's answer comes back.
    pub fn kubectl_proxy_request(&mut self, local_port: u16, method: &str, path: &str) -> HttpReply {
        let mut x = HttpReply { result: HttpResult::Failed(String::new()), peer: Some("127.0.0.1".into()), server: None, content_type: "application/json", location: None };
        let client = Actor::Kubectl;
        self.hop(&client, &client, NetHop::LocalPort, format!("{} http://localhost:{}{} → kubectl proxy (to kube-apiserver, as kubernetes-admin)", method, local_port, path), None);
        let resp = self.client_request(&kubectl_identity(), Request::new(Method::Get, path, None));
        // kube-apiserver indents JSON for a client whose User-Agent is curl's
        let body = match &resp.body {
            Value::String(s) => {
                x.content_type = "text/plain; charset=utf-8";
                s.clone()
            }
            v => format!("{}\n", serde_json::to_string_pretty(v).unwrap_or_default()),
        };
        x.result = if resp.code == 200 { HttpResult::Ok(body) } else { HttpResult::Status(resp.code, body) };
        x
    }
}
