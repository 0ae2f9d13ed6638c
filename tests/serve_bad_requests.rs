//! `kubesim serve` against requests a real client can send by mistake (or on purpose): raw TCP
//! requests to an in-process server on 127.0.0.1:0 with the clock frozen (`speed` 0). Each must
//! get kube-apiserver's status code and message (or Go's `net/http` answer, for requests that
//! never reach a handler), and the server must go on serving: no panic, no stalled cluster
//! thread. The table holds the one-request cases; watches and a client that never reads have
//! tests of their own below.
#![cfg(not(target_arch = "wasm32"))]

use kubesim::serve::{Options, Server};
use std::io::{ErrorKind, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

fn start() -> Server {
    Server::start(&Options { addr: "127.0.0.1:0".into(), seed: 1, speed: 0.0, epoch_ms: kubesim::api::time::EPOCH_MS, ..Options::default() }).expect("start")
}

/// A response: status code, headers (lower-cased names), body (de-chunked if chunked).
#[derive(Debug)]
struct Resp {
    code: u16,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

impl Resp {
    fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).to_string()
    }
    fn header(&self, name: &str) -> &str {
        self.headers.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str()).unwrap_or("")
    }
}

/// Parses one response from raw bytes (everything the server sent before closing).
fn parse(raw: &[u8]) -> Resp {
    let head_end = raw.windows(4).position(|w| w == b"\r\n\r\n").unwrap_or_else(|| panic!("no response head in {:?}", String::from_utf8_lossy(raw)));
    let head = String::from_utf8_lossy(&raw[..head_end]).to_string();
    let mut lines = head.split("\r\n");
    let status = lines.next().unwrap_or("");
    let code = status.split(' ').nth(1).and_then(|c| c.parse().ok()).unwrap_or_else(|| panic!("bad status line {:?}", status));
    let headers: Vec<(String, String)> = lines.filter_map(|l| l.split_once(':')).map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string())).collect();
    let rest = &raw[head_end + 4..];
    let chunked = headers.iter().any(|(k, v)| k == "transfer-encoding" && v == "chunked");
    let body = if chunked { dechunk(rest) } else { rest.to_vec() };
    Resp { code, headers, body }
}

/// The data of a chunked body (as much as is complete).
fn dechunk(mut b: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    while let Some(i) = b.windows(2).position(|w| w == b"\r\n") {
        let Ok(n) = usize::from_str_radix(String::from_utf8_lossy(&b[..i]).trim(), 16) else { break };
        if n == 0 || b.len() < i + 2 + n {
            break;
        }
        out.extend_from_slice(&b[i + 2..i + 2 + n]);
        b = &b[(i + 2 + n + 2).min(b.len())..];
    }
    out
}

/// Sends raw bytes and reads until the server closes (or 10 s pass).
fn raw(addr: SocketAddr, request: &[u8]) -> Resp {
    let mut s = TcpStream::connect(addr).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    s.write_all(request).expect("write");
    let mut out = Vec::new();
    let mut buf = [0u8; 65536];
    loop {
        match s.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => out.extend_from_slice(&buf[..n]),
            Err(e) if e.kind() == ErrorKind::ConnectionReset && !out.is_empty() => break,
            Err(e) => panic!("reading the answer to {:?}: {} (got {:?})", String::from_utf8_lossy(&request[..request.len().min(200)]), e, String::from_utf8_lossy(&out)),
        }
    }
    parse(&out)
}

/// A request with `Connection: close`, a Host and, if there is a body, its length.
fn req(method: &str, path: &str, content_type: &str, body: &str) -> Vec<u8> {
    let mut r = format!("{} {} HTTP/1.1\r\nHost: kubesim\r\nUser-Agent: serve_bad_requests\r\nConnection: close\r\n", method, path);
    if !content_type.is_empty() {
        r.push_str(&format!("Content-Type: {}\r\n", content_type));
    }
    if !body.is_empty() || method != "GET" {
        r.push_str(&format!("Content-Length: {}\r\n", body.len()));
    }
    r.push_str("\r\n");
    r.push_str(body);
    r.into_bytes()
}

const PODS: &str = "/api/v1/namespaces/default/pods";
const JSON: &str = "application/json";

/// The `message` of a Status body, or the whole body when it is not JSON.
fn message(r: &Resp) -> String {
    serde_json::from_slice::<serde_json::Value>(&r.body).ok().and_then(|v| v.get("message").and_then(|m| m.as_str()).map(str::to_string)).unwrap_or_else(|| r.text())
}

#[test]
fn bad_requests_get_upstream_answers() {
    let server = start();
    let addr = server.addr();
    // a Lease to update and patch
    let lease = r#"{"apiVersion":"coordination.k8s.io/v1","kind":"Lease","metadata":{"name":"l1","namespace":"default"}}"#;
    let r = raw(addr, &req("POST", "/apis/coordination.k8s.io/v1/namespaces/default/leases", JSON, lease));
    assert_eq!(r.code, 201, "{}", r.text());
    let leases = "/apis/coordination.k8s.io/v1/namespaces/default/leases";
    let l1 = format!("{}/l1", leases);
    let big_header = format!("GET /version HTTP/1.1\r\nHost: kubesim\r\nX-Big: {}\r\n\r\n", "a".repeat(1_100_000));
    let over = 3 * 1024 * 1024 + 1;

    // (name, request, expected code, expected substring of the message or body)
    let table: Vec<(&str, Vec<u8>, u16, String)> = vec![
        ("control: a good create", req("POST", leases, JSON, r#"{"apiVersion":"coordination.k8s.io/v1","kind":"Lease","metadata":{"name":"l2"}}"#), 201, "\"name\":\"l2\"".into()),
        ("control: YAML is a body type too", req("POST", leases, "application/yaml", "apiVersion: coordination.k8s.io/v1\nkind: Lease\nmetadata:\n  name: l3\n"), 201, "\"name\":\"l3\"".into()),
        ("truncated JSON on create", req("POST", leases, JSON, r#"{"apiVersion":"coordination.k8s.io/v1","kind":"Lease","#), 400,
            r#"the object provided is unrecognized (must be of type Lease): couldn't get version/kind; json parse error: unexpected end of JSON input ({"apiVersion":"coordination.k8 ...)"#.into()),
        ("unquoted key on create", req("POST", leases, JSON, "{apiVersion: v1}"), 400,
            "the object provided is unrecognized (must be of type Lease): couldn't get version/kind; json parse error: invalid character 'a' looking for beginning of object key string ({apiVersion: v1})".into()),
        ("not JSON at all on create", req("POST", leases, JSON, "hello"), 400,
            "couldn't get version/kind; json parse error: invalid character 'h' looking for beginning of value (68656c6c6f)".into()),
        ("an array on create", req("POST", leases, JSON, "[1,2]"), 400,
            "json parse error: json: cannot unmarshal array into Go value of type struct { APIVersion string \"json:\\\"apiVersion,omitempty\\\"\"; Kind string \"json:\\\"kind,omitempty\\\"\" } (5b312c325d)".into()),
        ("trailing garbage on update", req("PUT", &l1, JSON, r#"{"kind":"Lease"} x"#), 400,
            "(must be of type Lease): couldn't get version/kind; json parse error: invalid character 'x' after top-level value".into()),
        ("malformed merge patch", req("PATCH", &l1, "application/merge-patch+json", r#"{"metadata":"#), 400, "error decoding patch: unexpected end of JSON input".into()),
        ("malformed strategic merge patch", req("PATCH", &l1, "application/strategic-merge-patch+json", r#"{"a" 1}"#), 400, "invalid character '1' after object key".into()),
        ("JSON patch that is not a list", req("PATCH", &l1, "application/json-patch+json", r#"{"op":"add"}"#), 400,
            "error decoding patch: json: cannot unmarshal object into Go value of type []handlers.jsonPatchOp".into()),
        ("malformed DeleteOptions", req("DELETE", &l1, JSON, "{"), 500, "couldn't get version/kind; json parse error: unexpected end of JSON input".into()),
        ("create as text/plain", req("POST", leases, "text/plain", lease), 415,
            "the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf".into()),
        ("create as a form (curl -d)", req("POST", leases, "application/x-www-form-urlencoded", lease), 415, "accepted media types include: application/json, application/yaml".into()),
        ("patch as application/json", req("PATCH", &l1, JSON, "{}"), 415,
            "the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json, application/apply-patch+yaml".into()),
        ("unknown resource", req("GET", "/api/v1/foos", "", ""), 404, "the server could not find the requested resource".into()),
        ("unknown namespaced resource", req("GET", "/api/v1/namespaces/default/foos/x", "", ""), 404, "the server could not find the requested resource".into()),
        ("unknown group", req("GET", "/apis/example.com/v1/widgets", "", ""), 404, "the server could not find the requested resource".into()),
        ("unknown method", req("BREW", PODS, "", ""), 405, "the server does not allow this method on the requested resource".into()),
        ("body over the limit (declared)", format!("POST {} HTTP/1.1\r\nHost: kubesim\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{{", leases, over).into_bytes(), 413,
            "Request entity too large: limit is 3145728".into()),
        ("request line that is not HTTP", b"HELLO\r\n\r\n".to_vec(), 400, "400 Bad Request".into()),
        ("TLS ClientHello on the plain port", b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03 \r\n\r\n".to_vec(), 400, "Client sent an HTTPS request to an HTTP server.".into()),
        ("binary garbage, no line end", b"\x00\x01\x02junk".to_vec(), 400, "400 Bad Request".into()),
        ("method that is not a token", b"G(T /version HTTP/1.1\r\nHost: x\r\n\r\n".to_vec(), 400, "400 Bad Request".into()),
        ("target that is not a path", b"GET version HTTP/1.1\r\nHost: x\r\n\r\n".to_vec(), 400, "400 Bad Request".into()),
        ("HTTP/2 over HTTP/1 framing", b"GET /version HTTP/2.0\r\nHost: x\r\n\r\n".to_vec(), 505, "505 HTTP Version Not Supported: unsupported protocol version".into()),
        ("no Host header", b"GET /version HTTP/1.1\r\n\r\n".to_vec(), 400, "400 Bad Request: missing required Host header".into()),
        ("two Host headers", b"GET /version HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n".to_vec(), 400, "400 Bad Request: too many Host headers".into()),
        ("header without a colon", b"GET /version HTTP/1.1\r\nHost: x\r\nNoColonHere\r\n\r\n".to_vec(), 400, "400 Bad Request".into()),
        ("space before a header's colon", b"GET /version HTTP/1.1\r\nHost : x\r\n\r\n".to_vec(), 400, "400 Bad Request".into()),
        ("headers over 1 MiB", big_header.into_bytes(), 431, "431 Request Header Fields Too Large".into()),
        ("request line over 1 MiB", format!("GET /{} HTTP/1.1\r\nHost: x\r\n\r\n", "a".repeat(1_100_000)).into_bytes(), 431, "431 Request Header Fields Too Large".into()),
        ("Content-Length that is not a number", b"POST /api/v1/namespaces HTTP/1.1\r\nHost: x\r\nContent-Length: ten\r\n\r\n".to_vec(), 400, "400 Bad Request".into()),
        ("two different Content-Lengths", b"POST /api/v1/namespaces HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}".to_vec(), 400, "400 Bad Request".into()),
        ("Transfer-Encoding gzip", b"POST /api/v1/namespaces HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n".to_vec(), 501, "Unsupported transfer encoding".into()),
        ("bad chunk size", b"POST /api/v1/namespaces HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n".to_vec(), 400, "400 Bad Request".into()),
        ("Expect other than 100-continue", b"POST /api/v1/namespaces HTTP/1.1\r\nHost: x\r\nExpect: tea\r\nContent-Length: 2\r\n\r\n{}".to_vec(), 417, "".into()),
        ("server-side apply without a fieldManager", req("PATCH", &l1, "application/apply-patch+yaml", "kind: Lease"), 422,
            "PatchOptions.meta.k8s.io \"\" is invalid: fieldManager: Required value: is required for apply patch".into()),
    ];
    let mut failures = Vec::new();
    for (name, request, code, want) in &table {
        let t = Instant::now();
        let r = raw(addr, request);
        let msg = message(&r);
        let ok = r.code == *code && msg.contains(want.as_str());
        eprintln!("{} {:<45} {} {:?} ({} ms)", if ok { "ok  " } else { "FAIL" }, name, r.code, &msg[..msg.len().min(160)], t.elapsed().as_millis());
        if !ok {
            failures.push(format!("{}: got {} {:?}, want {} containing {:?}", name, r.code, msg, code, want));
        }
    }
    // Go's protocol answers are text/plain and close the connection
    let r = raw(addr, b"HELLO\r\n\r\n");
    assert_eq!(r.header("content-type"), "text/plain; charset=utf-8");
    assert_eq!(r.header("connection"), "close");
    let r = raw(addr, &req("POST", leases, JSON, "{"));
    let st: serde_json::Value = serde_json::from_slice(&r.body).unwrap();
    assert_eq!((st["kind"].as_str(), st["reason"].as_str(), st["code"].as_i64()), (Some("Status"), Some("BadRequest"), Some(400)), "{}", st);
    // still serving, and the cluster thread is alive
    let r = raw(addr, &req("GET", "/version", "", ""));
    assert_eq!(r.code, 200, "{}", r.text());
    let r = raw(addr, &req("GET", leases, "", ""));
    assert_eq!(r.code, 200, "{}", r.text());
    assert!(r.text().contains("\"l1\"") && r.text().contains("\"l2\"") && r.text().contains("\"l3\""), "{}", r.text());
    assert!(failures.is_empty(), "{} of {} cases failed:\n{}", failures.len(), table.len(), failures.join("\n"));
}

#[test]
fn keep_alive_survives_a_bad_body_and_chunked_bodies_work() {
    let server = start();
    let mut s = TcpStream::connect(server.addr()).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    // a chunked create, then a malformed one, then a GET, on one connection
    let body = r#"{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"chunky"}}"#;
    let (a, b) = body.split_at(20);
    write!(s, "POST /api/v1/namespaces HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n{:x}\r\n{}\r\n{:x}\r\n{}\r\n0\r\n\r\n", a.len(), a, b.len(), b).unwrap();
    write!(s, "POST /api/v1/namespaces HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1\r\n\r\n{{").unwrap();
    write!(s, "GET /api/v1/namespaces/chunky HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").unwrap();
    let mut out = Vec::new();
    s.read_to_end(&mut out).unwrap();
    let text = String::from_utf8_lossy(&out);
    let codes: Vec<&str> = text.match_indices("HTTP/1.1 ").map(|(i, _)| &text[i + 9..i + 12]).collect();
    assert_eq!(codes, ["201", "400", "200"], "{}", text);
    assert!(text.contains("must be of type Namespace"), "{}", text);
}

#[test]
fn a_ten_megabyte_body_is_refused_before_it_is_read() {
    let server = start();
    let mut s = TcpStream::connect(server.addr()).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    let len = 10 * 1024 * 1024;
    write!(s, "POST /api/v1/namespaces HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n", len).unwrap();
    // the answer comes before a byte of the body is sent
    let t = Instant::now();
    let mut answer = Vec::new();
    s.read_to_end(&mut answer).expect("the 413 arrives without the body, then the server's end closes");
    let r = parse(&answer);
    assert_eq!(r.code, 413, "{}", r.text());
    assert!(message(&r).contains("Request entity too large: limit is 3145728"), "{}", r.text());
    assert_eq!(r.header("connection"), "close");
    assert!(t.elapsed() < Duration::from_secs(2));
    // sending it anyway is harmless: it is read and dropped, or the connection is closed
    let chunk = vec![b' '; 1024 * 1024];
    for _ in 0..10 {
        if s.write_all(&chunk).is_err() {
            break;
        }
    }
    // a chunked body is cut at the chunk that crosses the limit
    let mut s = TcpStream::connect(server.addr()).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    write!(s, "POST /api/v1/namespaces HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n").unwrap();
    let mut sent = 0;
    while sent < len {
        let piece = vec![b' '; 512 * 1024];
        if write!(s, "{:x}\r\n", piece.len()).is_err() || s.write_all(&piece).is_err() || s.write_all(b"\r\n").is_err() {
            break;
        }
        sent += piece.len();
    }
    let mut out = Vec::new();
    let _ = s.read_to_end(&mut out);
    let r = parse(&out);
    assert_eq!(r.code, 413, "{}", r.text());
    // the server goes on
    let r = raw(server.addr(), &req("GET", "/version", "", ""));
    assert_eq!(r.code, 200);
}

/// A watch stream being read: the raw bytes, de-chunked and split into events as they come.
struct Watch {
    s: TcpStream,
    raw: Vec<u8>,
    /// Where the next chunk starts in `raw` (0 until the head is complete).
    pos: usize,
    /// De-chunked data not yet ended by a newline.
    pending: Vec<u8>,
    events: Vec<serde_json::Value>,
    ended: bool,
}

impl Watch {
    fn open(addr: SocketAddr, path_and_query: &str) -> Watch {
        let mut s = TcpStream::connect(addr).unwrap();
        write!(s, "GET {} HTTP/1.1\r\nHost: x\r\nAccept: application/json\r\n\r\n", path_and_query).unwrap();
        Watch { s, raw: Vec::new(), pos: 0, pending: Vec::new(), events: Vec::new(), ended: false }
    }

    /// The response's head (and, for an answer that is not a stream, its body).
    fn resp(&self) -> Resp {
        parse(&self.raw)
    }

    /// Takes the complete chunks received so far.
    fn pump(&mut self) {
        if self.pos == 0 {
            match self.raw.windows(4).position(|w| w == b"\r\n\r\n") {
                Some(i) => self.pos = i + 4,
                None => return,
            }
        }
        loop {
            let rest = &self.raw[self.pos..];
            let Some(i) = rest.windows(2).position(|w| w == b"\r\n") else { break };
            let Ok(n) = usize::from_str_radix(String::from_utf8_lossy(&rest[..i]).trim(), 16) else { break };
            if n == 0 || rest.len() < i + 2 + n + 2 {
                break;
            }
            self.pending.extend_from_slice(&rest[i + 2..i + 2 + n]);
            self.pos += i + 2 + n + 2;
        }
        while let Some(nl) = self.pending.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = self.pending.drain(..=nl).collect();
            if let Ok(v) = serde_json::from_slice(&line[..nl]) {
                self.events.push(v);
            }
        }
    }

    /// Reads until `done(events)`, the end of the stream, or `limit`; returns all events so far.
    fn read_until(&mut self, limit: Duration, done: impl Fn(&[serde_json::Value]) -> bool) -> Vec<serde_json::Value> {
        let deadline = Instant::now() + limit;
        self.s.set_read_timeout(Some(Duration::from_millis(100))).unwrap();
        let mut buf = vec![0u8; 1 << 20];
        while !self.ended && Instant::now() < deadline && !done(&self.events) {
            match self.s.read(&mut buf) {
                Ok(0) => self.ended = true,
                Ok(n) => self.raw.extend_from_slice(&buf[..n]),
                Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {}
                Err(_) => self.ended = true,
            }
            self.pump();
        }
        self.events.clone()
    }
}

fn types(events: &[serde_json::Value]) -> Vec<String> {
    events.iter().map(|e| e["type"].as_str().unwrap_or("").to_string()).collect()
}

fn post_json(addr: SocketAddr, path: &str, body: &str) -> serde_json::Value {
    let r = raw(addr, &req("POST", path, JSON, body));
    assert!(r.code < 300, "POST {}: {} {}", path, r.code, r.text());
    serde_json::from_slice(&r.body).unwrap()
}

fn rv(v: &serde_json::Value) -> i64 {
    v["metadata"]["resourceVersion"].as_str().unwrap().parse().unwrap()
}

#[test]
fn watch_from_a_compacted_revision_gets_410_expired() {
    let server = start();
    let addr = server.addr();
    let ns = "/api/v1/namespaces";
    let first = post_json(addr, ns, r#"{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"w1"}}"#);
    let old = rv(&first);
    post_json(addr, ns, r#"{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"w2"}}"#);
    // still in history: the watch replays w2's ADDED
    let mut w = Watch::open(addr, &format!("{}?watch=true&resourceVersion={}&timeoutSeconds=5", ns, old));
    let events = w.read_until(Duration::from_secs(5), |e| !e.is_empty());
    assert_eq!(w.resp().code, 200);
    assert_eq!(events[0]["type"], "ADDED", "{:?}", events);
    assert_eq!(events[0]["object"]["metadata"]["name"], "w2");

    let c = post_json(addr, "/kubesim/v1/compact", "");
    let compacted = c["compactRevision"].as_i64().unwrap();
    assert!(compacted > old, "{}", c);
    let mut w = Watch::open(addr, &format!("{}?watch=true&resourceVersion={}", ns, old));
    let events = w.read_until(Duration::from_secs(5), |_| false);
    assert_eq!(w.resp().code, 200, "the stream starts, as the watch cache's newErrWatcher does");
    assert!(w.ended, "the stream ends after the error");
    assert_eq!(events.len(), 1, "{:?}", events);
    assert_eq!(events[0]["type"], "ERROR");
    let st = &events[0]["object"];
    assert_eq!((st["kind"].as_str(), st["status"].as_str(), st["reason"].as_str(), st["code"].as_i64()), (Some("Status"), Some("Failure"), Some("Expired"), Some(410)), "{}", st);
    assert_eq!(st["message"], format!("too old resource version: {} ({})", old, compacted));
    eprintln!("{}", events[0]);
    // from the compact revision on, it works
    let mut w = Watch::open(addr, &format!("{}?watch=true&resourceVersion={}&timeoutSeconds=2", ns, compacted));
    let events = w.read_until(Duration::from_secs(4), |_| false);
    assert!(w.ended && events.iter().all(|e| e["type"] != "ERROR"), "{:?}", events);
    // a resourceVersion from the future: 504 Timeout after the watch cache's 3 s
    let t = Instant::now();
    let mut w = Watch::open(addr, &format!("{}?watch=true&resourceVersion={}", ns, compacted + 1_000_000));
    let events = w.read_until(Duration::from_secs(8), |_| false);
    assert!(w.ended && t.elapsed() >= Duration::from_millis(2900), "{:?}", t.elapsed());
    assert_eq!(events[0]["type"], "ERROR");
    assert_eq!(events[0]["object"]["code"], 504);
    assert!(events[0]["object"]["message"].as_str().unwrap().starts_with("Timeout: Too large resource version: "), "{}", events[0]);
}

#[test]
fn bookmarks_every_virtual_minute_and_before_the_deadline() {
    let server = start();
    let addr = server.addr();
    let has_bookmark = |e: &[serde_json::Value]| e.iter().any(|e| e["type"] == "BOOKMARK");
    let mut w = Watch::open(addr, "/api/v1/namespaces?watch=true&allowWatchBookmarks=true&timeoutSeconds=60");
    let events = w.read_until(Duration::from_secs(2), has_bookmark);
    assert!(!events.is_empty() && events.iter().all(|e| e["type"] == "ADDED"), "no bookmark before a virtual minute: {:?}", types(&events));
    server.advance(61_000);
    let events = w.read_until(Duration::from_secs(5), has_bookmark);
    let bm = events.iter().find(|e| e["type"] == "BOOKMARK").expect("a bookmark after a virtual minute");
    eprintln!("{}", bm);
    assert_eq!(bm["object"]["kind"], "Namespace");
    assert_eq!(bm["object"]["apiVersion"], "v1");
    assert!(rv(&bm["object"]) > 0, "{}", bm);
    // timeoutSeconds=3: one 2 s before the end, then the stream ends
    let t = Instant::now();
    let mut w = Watch::open(addr, "/api/v1/namespaces?watch=true&allowWatchBookmarks=true&timeoutSeconds=3&resourceVersion=0");
    let events = w.read_until(Duration::from_secs(6), |_| false);
    assert!(w.ended);
    assert!(t.elapsed() >= Duration::from_millis(2900));
    assert_eq!(events.iter().filter(|e| e["type"] == "BOOKMARK").count(), 1, "{:?}", types(&events));
    // sendInitialEvents: the initial list ends with an annotated bookmark
    let mut w = Watch::open(addr, "/api/v1/namespaces?watch=true&allowWatchBookmarks=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&timeoutSeconds=2");
    let events = w.read_until(Duration::from_secs(4), has_bookmark);
    let last = events.last().unwrap();
    assert_eq!(last["type"], "BOOKMARK", "{:?}", types(&events));
    assert_eq!(last["object"]["metadata"]["annotations"]["k8s.io/initial-events-end"], "true");
    // without allowWatchBookmarks, none
    let mut w = Watch::open(addr, "/api/v1/namespaces?watch=true&timeoutSeconds=3");
    server.advance(61_000);
    let events = w.read_until(Duration::from_secs(5), |_| false);
    assert!(events.iter().all(|e| e["type"] != "BOOKMARK"));
}

#[test]
fn a_watch_that_is_never_read_is_dropped_and_stalls_nobody() {
    let server = start();
    let addr = server.addr();
    server.set_watch_write_timeout(Duration::from_secs(1));
    let leases = "/apis/coordination.k8s.io/v1/namespaces/default/leases";
    // the stalled client: asks, then never reads
    let mut stalled = Watch::open(addr, &format!("{}?watch=true&timeoutSeconds=600", leases));
    std::thread::sleep(Duration::from_millis(300));
    // 100 Leases of 200 KB each: 20 MB of events, more than the socket buffers hold
    let pad = "x".repeat(200_000);
    let t = Instant::now();
    for i in 0..100 {
        let body = format!(r#"{{"apiVersion":"coordination.k8s.io/v1","kind":"Lease","metadata":{{"name":"big-{}","annotations":{{"pad":"{}"}}}}}}"#, i, pad);
        post_json(addr, leases, &body);
    }
    eprintln!("100 writes in {} ms", t.elapsed().as_millis());
    // everyone else is served promptly while the stalled watch's writes block
    for _ in 0..5 {
        let t = Instant::now();
        let r = raw(addr, &req("GET", PODS, "", ""));
        assert_eq!(r.code, 200);
        assert!(t.elapsed() < Duration::from_secs(2), "a list took {:?}", t.elapsed());
        std::thread::sleep(Duration::from_millis(300));
    }
    let mut other = Watch::open(addr, &format!("{}?watch=true&resourceVersion=0&timeoutSeconds=5", leases));
    let events = other.read_until(Duration::from_secs(10), |e| e.len() >= 100);
    assert_eq!(events.len(), 100, "another watch gets every Lease");
    // the stalled one was dropped: what it can still read ends well short of 20 MB, without the
    // stream's last chunk
    std::thread::sleep(Duration::from_secs(2));
    stalled.read_until(Duration::from_secs(20), |_| false);
    eprintln!("the stalled watch read {} bytes before the close", stalled.raw.len());
    assert!(stalled.ended, "the server closed the stalled watch");
    assert!(stalled.raw.len() < 20_000_000, "{}", stalled.raw.len());
    assert!(!stalled.raw.ends_with(b"0\r\n\r\n"), "dropped, not ended");
    let r = raw(addr, &req("GET", "/version", "", ""));
    assert_eq!(r.code, 200);
}

#[test]
fn connections_over_the_cap_get_max_in_flights_429() {
    let server = Server::start(&Options { addr: "127.0.0.1:0".into(), seed: 1, speed: 0.0, epoch_ms: kubesim::api::time::EPOCH_MS, max_connections: 3 }).expect("start");
    let addr = server.addr();
    // three idle keep-alive connections take every place
    let held: Vec<TcpStream> = (0..3).map(|_| TcpStream::connect(addr).expect("connect")).collect();
    std::thread::sleep(Duration::from_millis(300));
    let r = raw(addr, &req("GET", "/version", "", ""));
    assert_eq!(r.code, 429);
    assert_eq!(r.header("retry-after"), "1");
    assert_eq!(r.text(), "Too many requests, please try again later.\n");
    // a place frees when a connection closes
    drop(held);
    let t = Instant::now();
    loop {
        let r = raw(addr, &req("GET", "/version", "", ""));
        if r.code == 200 {
            break;
        }
        assert!(t.elapsed() < Duration::from_secs(10), "still {} after the connections closed", r.code);
        std::thread::sleep(Duration::from_millis(100));
    }
}
