//! The smallest HTTP/1.1 kubectl needs: a request line, headers, a body (`Content-Length` or
//! chunked), keep-alive; responses with `Content-Length`, and chunked ones for watches.
//!
//! # Bad requests
//! A request that cannot be read is answered here, before any handler runs, the way Go's
//! `net/http` server under kube-apiserver answers it (`src/net/http/server.go`, `(*conn).serve`),
//! and the connection is closed:
//! - request line and headers over [`MAX_HEADER_BYTES`] (kube-apiserver's `MaxHeaderBytes`,
//!   1 MiB, plus the 4096 bytes of slack Go's reader allows): `431 Request Header Fields Too Large`,
//!   text/plain, that same text as the body;
//! - a request line that is not `METHOD SP TARGET SP HTTP/x.y`, a method that is not a token,
//!   a target that is not a path (or an absolute URL, or `*`), a header line without a colon or
//!   with a name that is not a token, a bad or conflicting `Content-Length`, a bad chunk size:
//!   `400 Bad Request`, text/plain; an HTTP/1.1 request without `Host` (or with two):
//!   `400 Bad Request: missing required Host header` / `too many Host headers`;
//! - a version other than HTTP/1.x: `505 HTTP Version Not Supported: unsupported protocol version`;
//! - a `Transfer-Encoding` other than `chunked`: `501 Not Implemented`, body `Unsupported
//!   transfer encoding`; an `Expect` other than `100-continue`: `417 Expectation Failed`;
//! - a body over [`MAX_BODY`] (kube-apiserver's `--max-request-body-bytes` default, 3 MiB,
//!   which the handlers enforce with `limitedReadBody`): `413` with the `Status` upstream writes,
//!   reason `RequestEntityTooLarge`, message `Request entity too large: limit is 3145728`. A
//!   declared `Content-Length` over the limit is refused before a byte of the body is read; a
//!   chunked body is refused at the chunk that crosses the limit. Either way the rest is read and
//!   discarded (at most [`LINGER_BYTES`], for at most [`LINGER`]) after the answer, so that the
//!   client, still sending, reads the answer instead of a connection reset; nothing of it is kept.
//!
//! Timeouts as kube-apiserver's `http.Server` sets them (`staging/src/k8s.io/apiserver/pkg/server/
//! secure_serving.go`): a keep-alive connection idle for [`IDLE_TIMEOUT`] (90 s) is closed; once a
//! request has begun, its line and headers must arrive within [`READ_HEADER_TIMEOUT`] (32 s).
//! A client that stops sending its body for that long is dropped too.

use serde_json::json;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::net::{Shutdown, TcpStream};
use std::time::{Duration, Instant};

/// Bound on a request body: kube-apiserver's `MaxRequestBodyBytes` (3 MiB).
pub const MAX_BODY: usize = 3 * 1024 * 1024;
/// Bound on the request line and headers together: kube-apiserver's `MaxHeaderBytes` (1 MiB) plus
/// the 4096 bytes Go's server reads beyond it (`initialReadLimitSize`).
pub const MAX_HEADER_BYTES: usize = (1 << 20) + 4096;
/// A keep-alive connection with no new request for this long is closed (`IdleTimeout`).
pub const IDLE_TIMEOUT: Duration = Duration::from_secs(90);
/// Once a request's first byte has arrived, the rest of its head must within this (`ReadHeaderTimeout`).
pub const READ_HEADER_TIMEOUT: Duration = Duration::from_secs(32);
/// After refusing a request, how long the rest of what the client sends is read and discarded.
pub const LINGER: Duration = Duration::from_secs(2);
/// … and how much of it at most.
pub const LINGER_BYTES: u64 = 64 << 20;

/// One parsed HTTP request.
#[derive(Debug)]
pub struct HttpRequest {
    pub method: String,
    /// Path and query as sent (an absolute-form target `http://host/path` is cut to `/path`).
    pub target: String,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl HttpRequest {
    /// The first header of that name (case-insensitive), or "".
    pub fn header(&self, name: &str) -> &str {
        self.headers.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str()).unwrap_or("")
    }
    /// Every value of a repeatable header (`Impersonate-Group`), in order.
    pub fn headers_all(&self, name: &str) -> Vec<String> {
        self.headers.iter().filter(|(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, v)| v.clone()).collect()
    }
    pub fn keep_alive(&self) -> bool {
        !self.header("connection").split(',').any(|t| t.trim().eq_ignore_ascii_case("close"))
    }
}

/// Why a request was refused; [`read_request`] has already answered it.
fn refused(why: &str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, format!("refused: {}", why))
}

/// How reading one line of the head ended.
enum Line {
    Ok(Vec<u8>),
    Eof,
    TooLong,
}

/// Reads up to and including `\n`, within `budget` bytes (decremented). The line is returned
/// without its `\r\n`.
fn read_line_limited(r: &mut BufReader<TcpStream>, budget: &mut usize) -> io::Result<Line> {
    let mut line = Vec::new();
    loop {
        let buf = match r.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            // an end of stream, at a line's start or in its middle
            return Ok(Line::Eof);
        }
        let (take, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (buf.len(), false),
        };
        if take > *budget {
            return Ok(Line::TooLong);
        }
        *budget -= take;
        line.extend_from_slice(&buf[..take]);
        r.consume(take);
        if done {
            line.pop();
            if line.last() == Some(&b'\r') {
                line.pop();
            }
            return Ok(Line::Ok(line));
        }
    }
}

/// RFC 7230 `tchar`.
fn is_token(s: &[u8]) -> bool {
    !s.is_empty() && s.iter().all(|&c| c.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&c))
}

/// Writes one of Go's plain-text protocol answers (`HTTP/1.1 400 Bad Request` + its text).
fn write_plain_error(w: &mut TcpStream, status_line: &str, body: &str) {
    let msg = format!("HTTP/1.1 {}\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n{}", status_line, body);
    let _ = w.write_all(msg.as_bytes());
    let _ = w.flush();
}

/// Half-closes, then reads and discards what the client still sends, for a bounded time and
/// amount, so that it reads the answer rather than a reset.
pub fn linger_close(r: &mut BufReader<TcpStream>) {
    let _ = r.get_ref().shutdown(Shutdown::Write);
    let deadline = Instant::now() + LINGER;
    let _ = r.get_ref().set_read_timeout(Some(Duration::from_millis(200)));
    let mut left = LINGER_BYTES;
    let mut buf = [0u8; 16 * 1024];
    while left > 0 && Instant::now() < deadline {
        match r.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => left = left.saturating_sub(n as u64),
            Err(e) if matches!(e.kind(), io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut | io::ErrorKind::Interrupted) => continue,
            Err(_) => break,
        }
    }
    let _ = r.get_ref().shutdown(Shutdown::Both);
}

/// Answers a refused request the way Go's server does and closes the connection.
fn refuse(r: &mut BufReader<TcpStream>, status_line: &str, body: &str) -> io::Error {
    write_plain_error(r.get_mut(), status_line, body);
    linger_close(r);
    refused(status_line)
}

/// The 413 kube-apiserver's handlers write (`errors.NewRequestEntityTooLargeError`).
fn refuse_too_large(r: &mut BufReader<TcpStream>) -> io::Error {
    let status = json!({
        "kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
        "message": format!("Request entity too large: limit is {}", MAX_BODY),
        "reason": "RequestEntityTooLarge", "code": 413,
    });
    let body = serde_json::to_vec(&status).unwrap_or_default();
    let _ = write_response(r.get_mut(), 413, "application/json", &body, false);
    linger_close(r);
    refused("413")
}

/// `HTTP/1.1` → (1, 1); Go's `ParseHTTPVersion`.
fn parse_http_version(v: &[u8]) -> Option<(u32, u32)> {
    let rest = v.strip_prefix(b"HTTP/")?;
    let s = std::str::from_utf8(rest).ok()?;
    let (maj, min) = s.split_once('.')?;
    let ok = |p: &str| !p.is_empty() && p.len() <= 3 && p.bytes().all(|c| c.is_ascii_digit());
    if !ok(maj) || !ok(min) {
        return None;
    }
    Some((maj.parse().ok()?, min.parse().ok()?))
}

/// The path and query of a request target: origin form as is, absolute form cut after the
/// authority, `*` as is; None for anything else or a target with control characters or spaces.
fn request_path(target: &[u8]) -> Option<String> {
    if target.iter().any(|&c| c < 0x21 || c == 0x7f) {
        return None;
    }
    let t = String::from_utf8_lossy(target).to_string();
    if t.starts_with('/') || t == "*" {
        return Some(t);
    }
    let lower = t.to_ascii_lowercase();
    let rest = lower.strip_prefix("http://").or_else(|| lower.strip_prefix("https://"))?;
    let scheme_len = t.len() - rest.len();
    let path_at = t[scheme_len..].find(['/', '?']).map(|i| i + scheme_len);
    Some(match path_at {
        Some(i) if t[i..].starts_with('/') => t[i..].to_string(),
        Some(i) => format!("/{}", &t[i..]),
        None => "/".to_string(),
    })
}

/// Waits for the first byte of the next request (up to [`IDLE_TIMEOUT`]); false at a clean end
/// of stream or when the connection has been idle too long.
fn wait_for_request(r: &mut BufReader<TcpStream>) -> io::Result<bool> {
    if !r.buffer().is_empty() {
        return Ok(true);
    }
    let _ = r.get_ref().set_read_timeout(Some(IDLE_TIMEOUT));
    loop {
        match r.fill_buf() {
            Ok(b) => return Ok(!b.is_empty()),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) if matches!(e.kind(), io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut) => return Ok(false),
            Err(e) => return Err(e),
        }
    }
}

/// Bytes that cannot begin an HTTP/1.x request.
#[derive(Debug, PartialEq)]
enum WrongProtocol {
    /// A TLS record (`0x16 0x03 …`, a ClientHello): a client speaking HTTPS to this port.
    Tls,
    /// A method that is not a token (binary junk, a stray protocol).
    Junk,
}

/// Looks at the first bytes received: after optional empty lines, a request line starts with a
/// method token and a space. Bytes that break that are refused at once (Go reads on to the end
/// of the line, which a binary client may never send, and answers `400 Bad Request` then).
fn wrong_protocol(buf: &[u8]) -> Option<WrongProtocol> {
    if buf.len() >= 2 && buf[0] == 0x16 && buf[1] == 0x03 {
        return Some(WrongProtocol::Tls);
    }
    let start = buf.iter().position(|&c| c != b'\r' && c != b'\n')?;
    for &c in &buf[start..] {
        if c == b' ' {
            return None;
        }
        if !is_token(&[c]) {
            return Some(WrongProtocol::Junk);
        }
    }
    None
}

/// Reads the next request of a connection; `Ok(None)` at a clean end of stream (or an idle
/// connection's timeout). A request that cannot be served is answered here (see the module
/// doc) and comes back as an `InvalidData` error, after which the connection is done.
pub fn read_request(r: &mut BufReader<TcpStream>) -> io::Result<Option<HttpRequest>> {
    if !wait_for_request(r)? {
        return Ok(None);
    }
    // what cannot start a request line is answered at once, not after a line that may never come
    match wrong_protocol(r.buffer()) {
        Some(WrongProtocol::Tls) => {
            // Go's `net/http` answers the reverse case (plain HTTP to its TLS port) with
            // "HTTP/1.0 400 Bad Request\r\n\r\nClient sent an HTTP request to an HTTPS server.\n";
            // this is that answer turned round. A TLS client reads it as "first record does not
            // look like a TLS handshake".
            let _ = r.get_mut().write_all(b"HTTP/1.0 400 Bad Request\r\n\r\nClient sent an HTTPS request to an HTTP server.\n");
            let _ = r.get_mut().flush();
            linger_close(r);
            return Err(refused("TLS handshake on the plain HTTP port"));
        }
        Some(WrongProtocol::Junk) => return Err(refuse(r, "400 Bad Request", "400 Bad Request")),
        None => {}
    }
    let _ = r.get_ref().set_read_timeout(Some(READ_HEADER_TIMEOUT));
    let mut budget = MAX_HEADER_BYTES;
    // Go skips empty lines before a request line (RFC 7230 §3.5)
    let line = loop {
        match read_line_limited(r, &mut budget)? {
            Line::Eof => return Ok(None),
            Line::TooLong => return Err(refuse(r, "431 Request Header Fields Too Large", "431 Request Header Fields Too Large")),
            Line::Ok(l) if l.is_empty() => continue,
            Line::Ok(l) => break l,
        }
    };
    const BAD: &str = "400 Bad Request";
    // parseRequestLine: METHOD SP TARGET SP PROTO
    let mut parts = line.splitn(3, |&c| c == b' ');
    let (Some(method), Some(target), Some(proto)) = (parts.next(), parts.next(), parts.next()) else {
        return Err(refuse(r, BAD, BAD));
    };
    if !is_token(method) {
        return Err(refuse(r, BAD, BAD));
    }
    let Some((major, minor)) = parse_http_version(proto) else {
        return Err(refuse(r, BAD, BAD));
    };
    if major != 1 {
        let m = "505 HTTP Version Not Supported: unsupported protocol version";
        return Err(refuse(r, m, m));
    }
    let Some(target) = request_path(target) else {
        return Err(refuse(r, BAD, BAD));
    };
    let method = String::from_utf8_lossy(method).to_string();
    let mut headers: Vec<(String, String)> = Vec::new();
    loop {
        let l = match read_line_limited(r, &mut budget)? {
            Line::Eof => return Err(io::Error::new(io::ErrorKind::UnexpectedEof, "end of stream in headers")),
            Line::TooLong => return Err(refuse(r, "431 Request Header Fields Too Large", "431 Request Header Fields Too Large")),
            Line::Ok(l) => l,
        };
        if l.is_empty() {
            break;
        }
        // no obsolete line folding, no space before the colon (textproto.ReadMIMEHeader)
        let Some(colon) = l.iter().position(|&c| c == b':') else {
            return Err(refuse(r, BAD, BAD));
        };
        if !is_token(&l[..colon]) {
            return Err(refuse(r, BAD, BAD));
        }
        let name = String::from_utf8_lossy(&l[..colon]).to_string();
        let value = String::from_utf8_lossy(&l[colon + 1..]).trim_matches([' ', '\t']).to_string();
        headers.push((name, value));
    }
    let mut req = HttpRequest { method, target, headers, body: Vec::new() };
    let hosts = req.headers.iter().filter(|(k, _)| k.eq_ignore_ascii_case("host")).count();
    if hosts == 0 && minor >= 1 {
        let m = "400 Bad Request: missing required Host header";
        return Err(refuse(r, m, m));
    }
    if hosts > 1 {
        let m = "400 Bad Request: too many Host headers";
        return Err(refuse(r, m, m));
    }
    if minor == 0 && !req.header("connection").split(',').any(|t| t.trim().eq_ignore_ascii_case("keep-alive")) {
        // HTTP/1.0 closes after one answer unless it asked to keep the connection
        req.headers.retain(|(k, _)| !k.eq_ignore_ascii_case("connection"));
        req.headers.push(("Connection".into(), "close".into()));
    }

    // the body's length: chunked, or Content-Length (all of them equal), or none
    let te: Vec<&str> = req.headers.iter().filter(|(k, _)| k.eq_ignore_ascii_case("transfer-encoding")).map(|(_, v)| v.as_str()).collect();
    let chunked = match te.as_slice() {
        [] => false,
        [v] if v.eq_ignore_ascii_case("chunked") => true,
        _ => {
            write_plain_error(r.get_mut(), "501 Not Implemented", "Unsupported transfer encoding");
            linger_close(r);
            return Err(refused("501"));
        }
    };
    let mut content_length: Option<u64> = None;
    if !chunked {
        for (_, v) in req.headers.iter().filter(|(k, _)| k.eq_ignore_ascii_case("content-length")) {
            let v = v.trim();
            let n = if !v.is_empty() && v.len() <= 19 && v.bytes().all(|c| c.is_ascii_digit()) { v.parse::<u64>().ok() } else { None };
            match (n, content_length) {
                (None, _) => return Err(refuse(r, BAD, BAD)),
                (Some(n), Some(prev)) if n != prev => return Err(refuse(r, BAD, BAD)),
                (Some(n), _) => content_length = Some(n),
            }
        }
    }
    let expect = req.header("expect").to_ascii_lowercase();
    let has_body = chunked || content_length.unwrap_or(0) > 0;
    if !expect.is_empty() && expect != "100-continue" {
        let _ = write_response(r.get_mut(), 417, "text/plain; charset=utf-8", b"", false);
        linger_close(r);
        return Err(refused("417"));
    }
    if content_length.is_some_and(|n| n > MAX_BODY as u64) {
        return Err(refuse_too_large(r));
    }
    if has_body && expect == "100-continue" {
        let w = r.get_mut();
        w.write_all(b"HTTP/1.1 100 Continue\r\n\r\n")?;
        w.flush()?;
    }
    // the body, with the header timeout still set: a client that stops sending is dropped
    if chunked {
        loop {
            let mut small = 4096usize;
            let size_line = match read_line_limited(r, &mut small)? {
                Line::Ok(l) => l,
                Line::Eof => return Err(io::Error::new(io::ErrorKind::UnexpectedEof, "end of stream in a chunk size")),
                Line::TooLong => return Err(refuse(r, BAD, BAD)),
            };
            let hex = String::from_utf8_lossy(&size_line);
            let hex = hex.split(';').next().unwrap_or("").trim();
            let Ok(size) = u64::from_str_radix(hex, 16) else {
                return Err(refuse(r, BAD, BAD));
            };
            if size == 0 {
                // trailers, up to the blank line
                loop {
                    match read_line_limited(r, &mut budget)? {
                        Line::Ok(l) if !l.is_empty() => continue,
                        Line::TooLong => return Err(refuse(r, "431 Request Header Fields Too Large", "431 Request Header Fields Too Large")),
                        _ => break,
                    }
                }
                break;
            }
            if req.body.len() as u64 + size > MAX_BODY as u64 {
                return Err(refuse_too_large(r));
            }
            let start = req.body.len();
            req.body.resize(start + size as usize, 0);
            r.read_exact(&mut req.body[start..])?;
            let mut small = 16usize;
            match read_line_limited(r, &mut small)? {
                Line::Ok(l) if l.is_empty() => {}
                _ => return Err(refuse(r, BAD, BAD)),
            }
        }
    } else if let Some(n) = content_length {
        req.body.resize(n as usize, 0);
        r.read_exact(&mut req.body)?;
    }
    let _ = r.get_ref().set_read_timeout(None);
    Ok(Some(req))
}

pub fn reason_phrase(code: u16) -> &'static str {
    match code {
        100 => "Continue",
        200 => "OK",
        201 => "Created",
        202 => "Accepted",
        400 => "Bad Request",
        401 => "Unauthorized",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        406 => "Not Acceptable",
        409 => "Conflict",
        410 => "Gone",
        413 => "Request Entity Too Large",
        415 => "Unsupported Media Type",
        417 => "Expectation Failed",
        422 => "Unprocessable Entity",
        429 => "Too Many Requests",
        431 => "Request Header Fields Too Large",
        500 => "Internal Server Error",
        501 => "Not Implemented",
        503 => "Service Unavailable",
        504 => "Gateway Timeout",
        505 => "HTTP Version Not Supported",
        _ => "Unknown",
    }
}

/// Writes a whole response, in one write: a head and a body written apart wait, under Nagle's
/// algorithm, for the client's delayed ACK of the head (40 ms a response on Linux).
pub fn write_response(w: &mut impl Write, code: u16, content_type: &str, body: &[u8], keep_alive: bool) -> io::Result<()> {
    let head = format!(
        "HTTP/1.1 {} {}\r\nContent-Type: {}\r\nContent-Length: {}\r\nCache-Control: no-cache, private\r\n{}\r\n",
        code,
        reason_phrase(code),
        content_type,
        body.len(),
        if keep_alive { "" } else { "Connection: close\r\n" }
    );
    let mut all = Vec::with_capacity(head.len() + body.len());
    all.extend_from_slice(head.as_bytes());
    all.extend_from_slice(body);
    w.write_all(&all)?;
    w.flush()
}

/// Starts a chunked response (a watch).
pub fn write_chunked_head(w: &mut impl Write, content_type: &str) -> io::Result<()> {
    let head = format!("HTTP/1.1 200 OK\r\nContent-Type: {}\r\nTransfer-Encoding: chunked\r\nCache-Control: no-cache, private\r\n\r\n", content_type);
    w.write_all(head.as_bytes())?;
    w.flush()
}

pub fn write_chunk(w: &mut impl Write, data: &[u8]) -> io::Result<()> {
    if data.is_empty() {
        return Ok(());
    }
    let mut all = Vec::with_capacity(data.len() + 12);
    all.extend_from_slice(format!("{:x}\r\n", data.len()).as_bytes());
    all.extend_from_slice(data);
    all.extend_from_slice(b"\r\n");
    w.write_all(&all)?;
    w.flush()
}

pub fn write_last_chunk(w: &mut impl Write) -> io::Result<()> {
    w.write_all(b"0\r\n\r\n")?;
    w.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_and_targets() {
        assert_eq!(parse_http_version(b"HTTP/1.1"), Some((1, 1)));
        assert_eq!(parse_http_version(b"HTTP/1.0"), Some((1, 0)));
        assert_eq!(parse_http_version(b"HTTP/2.0"), Some((2, 0)));
        assert_eq!(parse_http_version(b"HTTP/1"), None);
        assert_eq!(parse_http_version(b"FOO/1.1"), None);
        assert_eq!(request_path(b"/api/v1/pods?watch=true").as_deref(), Some("/api/v1/pods?watch=true"));
        assert_eq!(request_path(b"http://127.0.0.1:6443/api?x=1").as_deref(), Some("/api?x=1"));
        assert_eq!(request_path(b"http://h").as_deref(), Some("/"));
        assert_eq!(request_path(b"api/v1"), None);
        assert_eq!(request_path(b"/a\x01b"), None);
        assert!(is_token(b"GET") && !is_token(b"G T") && !is_token(b""));
    }

    #[test]
    fn wrong_protocols_are_told_from_the_first_bytes() {
        assert_eq!(wrong_protocol(b"\x16\x03\x01\x02\x00\x01"), Some(WrongProtocol::Tls));
        assert_eq!(wrong_protocol(b"\x00\x01junk"), Some(WrongProtocol::Junk));
        assert_eq!(wrong_protocol(b"GE\x01T / HTTP/1.1"), Some(WrongProtocol::Junk));
        assert_eq!(wrong_protocol(b"\r\nGET / HTTP/1.1\r\n"), None);
        // a method still arriving, or a request line to be judged whole
        assert_eq!(wrong_protocol(b"GE"), None);
        assert_eq!(wrong_protocol(b"PRI * HTTP/2.0"), None);
    }
}
