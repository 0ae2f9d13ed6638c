//! The smallest HTTP/1.1 kubectl needs: a request line, headers, a body (`Content-Length` or
//! chunked), keep-alive; responses with `Content-Length`, and chunked ones for watches.

use std::io::{self, BufRead, BufReader, Read, Write};
use std::net::TcpStream;

/// Bound on a request body (kube-apiserver's own limit is 3 MiB).
const MAX_BODY: usize = 3 * 1024 * 1024;

/// One parsed HTTP request.
#[derive(Debug)]
pub struct HttpRequest {
    pub method: String,
    /// Path and query as sent.
    pub target: String,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl HttpRequest {
    /// The first header of that name (case-insensitive), or "".
    pub fn header(&self, name: &str) -> &str {
        self.headers.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str()).unwrap_or("")
    }
    pub fn keep_alive(&self) -> bool {
        !self.header("connection").eq_ignore_ascii_case("close")
    }
}

/// Reads the next request of a connection; `Ok(None)` at a clean end of stream.
pub fn read_request(r: &mut BufReader<TcpStream>) -> io::Result<Option<HttpRequest>> {
    let mut line = String::new();
    loop {
        line.clear();
        if r.read_line(&mut line)? == 0 {
            return Ok(None);
        }
        if !line.trim().is_empty() {
            break;
        }
    }
    let mut parts = line.split_whitespace();
    let (Some(method), Some(target)) = (parts.next(), parts.next()) else {
        return Err(io::Error::new(io::ErrorKind::InvalidData, "bad request line"));
    };
    let (method, target) = (method.to_string(), target.to_string());
    let mut headers = Vec::new();
    loop {
        line.clear();
        if r.read_line(&mut line)? == 0 {
            return Err(io::Error::new(io::ErrorKind::UnexpectedEof, "end of stream in headers"));
        }
        let l = line.trim_end_matches(['\r', '\n']);
        if l.is_empty() {
            break;
        }
        if let Some((k, v)) = l.split_once(':') {
            headers.push((k.trim().to_string(), v.trim().to_string()));
        }
    }
    let mut req = HttpRequest { method, target, headers, body: Vec::new() };
    if req.header("transfer-encoding").eq_ignore_ascii_case("chunked") {
        loop {
            line.clear();
            r.read_line(&mut line)?;
            let size = usize::from_str_radix(line.trim().split(';').next().unwrap_or("0"), 16).map_err(|_| io::Error::new(io::ErrorKind::InvalidData, "bad chunk size"))?;
            if size == 0 {
                // trailers, up to the blank line
                loop {
                    line.clear();
                    if r.read_line(&mut line)? == 0 || line.trim().is_empty() {
                        break;
                    }
                }
                break;
            }
            if req.body.len() + size > MAX_BODY {
                return Err(io::Error::new(io::ErrorKind::InvalidData, "body too large"));
            }
            let start = req.body.len();
            req.body.resize(start + size, 0);
            r.read_exact(&mut req.body[start..])?;
            line.clear();
            r.read_line(&mut line)?;
        }
    } else if let Ok(n) = req.header("content-length").parse::<usize>() {
        if n > MAX_BODY {
            return Err(io::Error::new(io::ErrorKind::InvalidData, "body too large"));
        }
        req.body.resize(n, 0);
        r.read_exact(&mut req.body)?;
    }
    Ok(Some(req))
}

pub fn reason_phrase(code: u16) -> &'static str {
    match code {
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
        422 => "Unprocessable Entity",
        429 => "Too Many Requests",
        500 => "Internal Server Error",
        501 => "Not Implemented",
        503 => "Service Unavailable",
        _ => "Unknown",
    }
}

/// Writes a whole response.
pub fn write_response(w: &mut impl Write, code: u16, content_type: &str, body: &[u8], keep_alive: bool) -> io::Result<()> {
    let head = format!(
        "HTTP/1.1 {} {}\r\nContent-Type: {}\r\nContent-Length: {}\r\nCache-Control: no-cache, private\r\n{}\r\n",
        code,
        reason_phrase(code),
        content_type,
        body.len(),
        if keep_alive { "" } else { "Connection: close\r\n" }
    );
    w.write_all(head.as_bytes())?;
    w.write_all(body)?;
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
    w.write_all(format!("{:x}\r\n", data.len()).as_bytes())?;
    w.write_all(data)?;
    w.write_all(b"\r\n")?;
    w.flush()
}

pub fn write_last_chunk(w: &mut impl Write) -> io::Result<()> {
    w.write_all(b"0\r\n\r\n")?;
    w.flush()
}
