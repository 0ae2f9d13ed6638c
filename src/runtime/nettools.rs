//! `wget` and `curl` as a container runs them (`kubectl exec POD -- wget -qO- http://web`): their
//! command lines parsed as the real programs parse them, and what they print for an answer the
//! data path (`cluster/network.rs`) brought back.
//!
//! Real counterparts: BusyBox 1.36's `networking/wget.c` (its options `cqSO:o:P:Y:U:T:+t:n::` and
//! long options, the `Connecting to HOST (ADDR)` / `writing to stdout` / `written to stdout`
//! lines, `libbb/progress.c`'s one progress line when stderr is not a terminal — 80 columns, a
//! 32-star bar — and its error texts: `bad address`, `can't connect to remote host (IP): …`,
//! `server returned error: HTTP/1.1 404 Not Found`, `download timed out`), and curl 7.88's
//! `src/tool_getparam.c` (options and their errors, exit code 2) and `lib/` error texts
//! (`curl: (6) Could not resolve host`, `(7) Failed to connect`, `(22) The requested URL returned
//! error`, `(28) Connection timed out after N milliseconds`), its `-v` trace and `-I`/`-i` headers.
//!
//! What kubesim simplifies: GET and HEAD only (`--post-data`, `-d`, `-X POST` are refused with a
//! note); a file named by `-O FILE`/`-o FILE` or wget's default `index.html` is not written into
//! the container (the output says where it went, as the programs do); curl's progress meter
//! (drawn when its output is not a terminal and `-s` is not given) is not drawn; `kubectl exec`
//! gives no terminal, so wget's progress is its one non-terminal line.

use crate::cluster::{HttpReply, HttpResult};

/// Which program.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tool {
    Wget,
    Curl,
}

/// Where the body goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Output {
    /// wget: `index.html` or the URL's last path component; curl: standard output.
    Default,
    Stdout,
    File(String),
}

/// A parsed command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fetch {
    pub tool: Tool,
    pub urls: Vec<String>,
    /// wget `-q`; curl `-s`.
    pub quiet: bool,
    /// curl `-S`: errors even when `-s`.
    pub show_error: bool,
    pub output: Output,
    /// wget `-T SEC`; curl `-m SEC` / `--max-time` / `--connect-timeout`.
    pub timeout_s: Option<u64>,
    /// curl `-I`: HEAD, headers only.
    pub head: bool,
    /// curl `-i`: headers before the body.
    pub include: bool,
    /// curl `-v`.
    pub verbose: bool,
    /// curl `-f`.
    pub fail: bool,
    /// curl `-w FORMAT`.
    pub write_out: Option<String>,
    /// wget `-S`.
    pub server_response: bool,
    /// wget `--spider`.
    pub spider: bool,
    /// wget `-U`; curl `-A`.
    pub user_agent: Option<String>,
    /// curl `-H`; wget `--header`: extra request headers (`Host: …` replaces the URL's host).
    pub headers: Vec<String>,
    /// curl `--resolve HOST:PORT:ADDR`: where a name is, without asking a resolver.
    pub resolve: Vec<(String, i64, String)>,
    /// curl `-k`/`--insecure`; wget `--no-check-certificate`: no certificate verification.
    pub insecure: bool,
}

impl Fetch {
    /// `--resolve`: `url` with its host replaced by the address given for it (and that host),
    /// when an entry names the URL's host and port.
    pub fn resolved(&self, url: &str) -> Option<(String, String)> {
        let (host, port, path) = crate::cluster::parse_url(url).ok()?;
        let (_, _, addr) = self.resolve.iter().find(|(h, p, _)| *h == host && *p == port)?;
        let scheme = if crate::cluster::is_https(url) { "https" } else { "http" };
        let default_port = if scheme == "https" { 443 } else { 80 };
        Some((format!("{}://{}:{}{}", scheme, addr, port, path), if port == default_port { host } else { format!("{}:{}", host, port) }))
    }

    /// What the client asks of the data path beside the URL: its `Host` header (`-H`, or the
    /// name `--resolve` replaced), TLS's server name, and whether it verifies the certificate.
    /// BusyBox wget never verifies one (it says so).
    pub fn options<'a>(&'a self, resolved_host: Option<&'a str>) -> crate::cluster::RequestOptions<'a> {
        let sni = resolved_host.map(|h| h.split(':').next().unwrap_or(h));
        crate::cluster::RequestOptions { host_header: self.host_header().or(resolved_host), sni, insecure: self.insecure || self.tool == Tool::Wget }
    }

    /// The `Host` header a `-H 'Host: …'` gives, if any.
    pub fn host_header(&self) -> Option<&str> {
        self.headers.iter().find_map(|h| h.split_once(':').filter(|(k, _)| k.trim().eq_ignore_ascii_case("host")).map(|(_, v)| v.trim()))
    }
}

/// What the program printed and its exit status.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Run {
    pub stdout: String,
    pub stderr: String,
    pub code: i64,
}

const CURL_VERSION: &str = "7.88.1";
const CURL_TRY: &str = "curl: try 'curl --help' or 'curl --manual' for more information";
const WGET_USAGE: &str = "Usage: wget [-cqS] [--spider] [-O FILE] [-o LOGFILE] [--header STR]\n\t[--post-data STR | --post-file FILE] [-Y on/off]\n\t[--no-check-certificate] [-P DIR] [-U AGENT] [-T SEC] URL...";

/// Parses `words` (the program's name first). Err: what the program prints and its exit code.
pub fn parse(words: &[String]) -> Result<Fetch, Run> {
    let tool = match words.first().map(|s| s.as_str()) {
        Some("wget") => Tool::Wget,
        _ => Tool::Curl,
    };
    let mut f = Fetch {
        tool,
        urls: Vec::new(),
        quiet: false,
        show_error: false,
        output: Output::Default,
        timeout_s: None,
        head: false,
        include: false,
        verbose: false,
        fail: false,
        write_out: None,
        server_response: false,
        spider: false,
        user_agent: None,
        headers: Vec::new(),
        resolve: Vec::new(),
        insecure: false,
    };
    let args = &words[1.min(words.len())..];
    match tool {
        Tool::Wget => parse_wget(args, &mut f)?,
        Tool::Curl => parse_curl(args, &mut f)?,
    }
    if f.urls.is_empty() {
        return Err(match tool {
            Tool::Wget => Run { stderr: WGET_USAGE.to_string(), code: 1, ..Run::default() },
            Tool::Curl => Run { stderr: format!("curl: no URL specified!\n{}", CURL_TRY), code: 2, ..Run::default() },
        });
    }
    Ok(f)
}

fn wget_err(msg: String) -> Run {
    Run { stderr: format!("{}\n{}", msg, WGET_USAGE), code: 1, ..Run::default() }
}

fn parse_wget(args: &[String], f: &mut Fetch) -> Result<(), Run> {
    let number = |v: &str| -> Result<u64, Run> { v.parse::<u64>().map_err(|_| Run { stderr: format!("wget: invalid number '{}'", v), code: 1, ..Run::default() }) };
    let unsupported = |o: &str| Run { stderr: format!("wget: {}: kubesim's containers send GET requests only", o), code: 1, ..Run::default() };
    let mut i = 0;
    let mut only_urls = false;
    while i < args.len() {
        let a = args[i].as_str();
        i += 1;
        if only_urls || !a.starts_with('-') || a == "-" {
            f.urls.push(a.to_string());
            continue;
        }
        if a == "--" {
            only_urls = true;
            continue;
        }
        if let Some(long) = a.strip_prefix("--") {
            let (name, inline) = match long.split_once('=') {
                Some((n, v)) => (n, Some(v.to_string())),
                None => (long, None),
            };
            let takes = matches!(name, "output-document" | "output-file" | "directory-prefix" | "proxy" | "user-agent" | "timeout" | "tries" | "header" | "post-data" | "post-file");
            let known = takes || matches!(name, "continue" | "quiet" | "server-response" | "spider" | "no-check-certificate" | "passive-ftp" | "no-cache" | "no-verbose" | "no-clobber" | "no-host-directories" | "no-parent");
            if !known {
                return Err(wget_err(format!("wget: unrecognized option '{}'", a)));
            }
            let value = if takes {
                match inline {
                    Some(v) => Some(v),
                    None if i < args.len() => {
                        i += 1;
                        Some(args[i - 1].clone())
                    }
                    None => return Err(wget_err(format!("wget: option '--{}' requires an argument", name))),
                }
            } else {
                None
            };
            match name {
                "quiet" => f.quiet = true,
                "server-response" => f.server_response = true,
                "spider" => f.spider = true,
                "output-document" => f.output = out_of(value.unwrap_or_default()),
                "timeout" => f.timeout_s = Some(number(&value.unwrap_or_default())?),
                "user-agent" => f.user_agent = value,
                "header" => f.headers.extend(value),
                "no-check-certificate" => f.insecure = true,
                "post-data" | "post-file" => return Err(unsupported(a)),
                _ => {}
            }
            continue;
        }
        // a cluster of short options: `-qO-`, `-qO -`, `-T5`
        let cluster: Vec<char> = a[1..].chars().collect();
        let mut k = 0;
        while k < cluster.len() {
            let c = cluster[k];
            k += 1;
            match c {
                'c' => {}
                'q' => f.quiet = true,
                'S' => f.server_response = true,
                'O' | 'o' | 'P' | 'Y' | 'U' | 'T' | 't' => {
                    let rest: String = cluster[k..].iter().collect();
                    k = cluster.len();
                    let value = if !rest.is_empty() {
                        rest
                    } else if i < args.len() {
                        i += 1;
                        args[i - 1].clone()
                    } else {
                        return Err(wget_err(format!("wget: option requires an argument -- '{}'", c)));
                    };
                    match c {
                        'O' => f.output = out_of(value),
                        'T' => f.timeout_s = Some(number(&value)?),
                        'U' => f.user_agent = Some(value),
                        _ => {}
                    }
                }
                // `-n[ARG]`: -nv, -nc, -nH, -np, ignored
                'n' => k = cluster.len(),
                other => return Err(wget_err(format!("wget: invalid option -- '{}'", other))),
            }
        }
    }
    Ok(())
}

fn out_of(v: String) -> Output {
    if v == "-" {
        Output::Stdout
    } else {
        Output::File(v)
    }
}

fn parse_curl(args: &[String], f: &mut Fetch) -> Result<(), Run> {
    let bad = |msg: String| Run { stderr: format!("{}\n{}", msg, CURL_TRY), code: 2, ..Run::default() };
    let seconds = |opt: &str, v: &str| -> Result<u64, Run> {
        v.parse::<f64>()
            .ok()
            .filter(|s| *s >= 0.0 && s.is_finite())
            .map(|s| s.ceil() as u64)
            .ok_or_else(|| Run { stderr: format!("curl: option {}: expected a proper numerical parameter\n{}", opt, CURL_TRY), code: 2, ..Run::default() })
    };
    let mut i = 0;
    let mut only_urls = false;
    while i < args.len() {
        let a = args[i].as_str();
        i += 1;
        if only_urls || !a.starts_with('-') || a == "-" {
            f.urls.push(a.to_string());
            continue;
        }
        if a == "--" {
            only_urls = true;
            continue;
        }
        // (long name, takes a value)
        let mut opts: Vec<(String, Option<String>)> = Vec::new();
        if let Some(long) = a.strip_prefix("--") {
            let long = long.to_string();
            let takes = matches!(long.as_str(), "output" | "max-time" | "connect-timeout" | "write-out" | "header" | "request" | "user-agent" | "data" | "data-raw" | "retry" | "resolve");
            let known = takes || matches!(long.as_str(), "silent" | "show-error" | "verbose" | "head" | "include" | "location" | "fail" | "insecure" | "remote-name" | "no-progress-meter" | "http1.1" | "compressed");
            if !known {
                return Err(bad(format!("curl: option {}: is unknown", a)));
            }
            let value = if takes {
                if i < args.len() {
                    i += 1;
                    Some(args[i - 1].clone())
                } else {
                    return Err(bad(format!("curl: option {}: requires parameter", a)));
                }
            } else {
                None
            };
            opts.push((long, value));
        } else {
            let cluster: Vec<char> = a[1..].chars().collect();
            let mut k = 0;
            while k < cluster.len() {
                let c = cluster[k];
                k += 1;
                let long = match c {
                    's' => "silent",
                    'S' => "show-error",
                    'v' => "verbose",
                    'I' => "head",
                    'i' => "include",
                    'L' => "location",
                    'f' => "fail",
                    'k' => "insecure",
                    'O' => "remote-name",
                    'o' => "output",
                    'm' => "max-time",
                    'w' => "write-out",
                    'H' => "header",
                    'X' => "request",
                    'A' => "user-agent",
                    'd' => "data",
                    _ => return Err(bad(format!("curl: option -{}: is unknown", c))),
                };
                let takes = matches!(c, 'o' | 'm' | 'w' | 'H' | 'X' | 'A' | 'd');
                let value = if takes {
                    let rest: String = cluster[k..].iter().collect();
                    k = cluster.len();
                    if !rest.is_empty() {
                        Some(rest)
                    } else if i < args.len() {
                        i += 1;
                        Some(args[i - 1].clone())
                    } else {
                        return Err(bad(format!("curl: option -{}: requires parameter", c)));
                    }
                } else {
                    None
                };
                opts.push((long.to_string(), value));
            }
        }
        for (name, value) in opts {
            let v = value.unwrap_or_default();
            match name.as_str() {
                "silent" => f.quiet = true,
                "show-error" => f.show_error = true,
                "verbose" => f.verbose = true,
                "head" => f.head = true,
                "include" => f.include = true,
                "fail" => f.fail = true,
                "insecure" => f.insecure = true,
                "output" => f.output = if v == "-" { Output::Stdout } else { Output::File(v) },
                "remote-name" => f.output = Output::File(String::new()),
                "max-time" | "connect-timeout" => {
                    let s = seconds(&format!("--{}", name), &v)?;
                    f.timeout_s = Some(f.timeout_s.map(|t| t.min(s)).unwrap_or(s));
                }
                "write-out" => f.write_out = Some(v),
                "user-agent" => f.user_agent = Some(v),
                "header" => f.headers.push(v),
                "resolve" => {
                    let parts: Vec<&str> = v.splitn(3, ':').collect();
                    match parts.as_slice() {
                        [h, p, a] if p.parse::<i64>().is_ok() => f.resolve.push((h.to_string(), p.parse().unwrap_or(80), a.to_string())),
                        _ => return Err(Run { stderr: format!("curl: option --resolve: error encountered when reading a file\n{}", CURL_TRY), code: 2, ..Run::default() }),
                    }
                }
                "request" if v == "GET" => {}
                "request" if v == "HEAD" => f.head = true,
                "request" | "data" | "data-raw" => {
                    return Err(Run { stderr: format!("curl: --{} {}: kubesim's containers send GET and HEAD requests only", name, v), code: 2, ..Run::default() });
                }
                _ => {}
            }
        }
    }
    Ok(())
}

/// An HTTP status line's reason phrase (what nginx sends).
pub fn reason(code: u16) -> &'static str {
    match code {
        200 => "OK",
        201 => "Created",
        204 => "No Content",
        301 => "Moved Permanently",
        302 => "Found",
        304 => "Not Modified",
        308 => "Permanent Redirect",
        400 => "Bad Request",
        401 => "Unauthorized",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Not Allowed",
        500 => "Internal Server Error",
        502 => "Bad Gateway",
        503 => "Service Temporarily Unavailable",
        504 => "Gateway Time-out",
        _ => "",
    }
}

/// The response's header lines as the server sends them (no CRLF).
fn header_lines(r: &HttpReply, status: u16, len: usize, date: &str, connection: &str) -> Vec<String> {
    let mut h = vec![format!("HTTP/1.1 {} {}", status, reason(status))];
    if let Some(s) = &r.server {
        h.push(format!("Server: {}", s));
    }
    h.push(format!("Date: {}", date));
    h.push(format!("Content-Type: {}", r.content_type));
    h.push(format!("Content-Length: {}", len));
    if let Some(l) = &r.location {
        h.push(format!("Location: {}", l));
    }
    h.push(format!("Connection: {}", connection));
    h
}

/// The curl error code in `curl: (N) …`.
pub fn curl_code(e: &str) -> i64 {
    e.strip_prefix("curl: (").and_then(|r| r.split(')').next()).and_then(|n| n.parse().ok()).unwrap_or(1)
}

/// What `f` prints for the answer to `url`. `date` is the `Date` header (the server's clock);
/// `musl` says the container's libc words a timeout as `Operation timed out` (Alpine) rather than
/// glibc's `Connection timed out`.
pub fn render(f: &Fetch, url: &str, r: &HttpReply, date: &str, musl: bool) -> Run {
    let (host, port, path) = crate::cluster::parse_url(url).unwrap_or_default();
    match f.tool {
        Tool::Wget => render_wget(f, url, &host, port, r, date, musl),
        Tool::Curl => render_curl(f, &host, port, &path, r, date),
    }
}

fn render_wget(f: &Fetch, url: &str, host: &str, port: i64, r: &HttpReply, date: &str, musl: bool) -> Run {
    let mut out = Run::default();
    let say = |out: &mut Run, s: &str| {
        if !f.quiet {
            out.stderr.push_str(s);
            out.stderr.push('\n');
        }
    };
    let fail = |mut out: Run, msg: String| {
        out.stderr.push_str(&format!("wget: {}", msg));
        out.code = 1;
        out
    };
    let ip = match (&r.result, &r.peer) {
        (HttpResult::Failed(e), None) => {
            return match curl_code(e) {
                6 => fail(out, format!("bad address '{}'", host)),
                _ => fail(out, e.trim_start_matches("curl: ").to_string()),
            };
        }
        (_, peer) => peer.clone().unwrap_or_default(),
    };
    say(&mut out, &format!("Connecting to {} ({}:{})", host, ip, port));
    if crate::cluster::is_https(url) && !f.insecure {
        // `spawn_ssl_client`: printed whether or not -q is given
        out.stderr.push_str("wget: note: TLS certificate validation not implemented\n");
    }
    let (status, body) = match &r.result {
        HttpResult::Ok(b) => (200, b.as_str()),
        HttpResult::Status(c, b) => (*c, b.as_str()),
        HttpResult::Failed(e) => {
            let timed_out = if musl { "Operation timed out" } else { "Connection timed out" };
            return match curl_code(e) {
                7 => fail(out, format!("can't connect to remote host ({}): Connection refused", ip)),
                // the connect hangs: wget's alarm (-T) fires before the kernel gives up (~130 s)
                28 if f.timeout_s.map(|t| t < 130).unwrap_or(false) => fail(out, "download timed out".to_string()),
                28 => fail(out, format!("can't connect to remote host ({}): {}", ip, timed_out)),
                _ => fail(out, e.trim_start_matches("curl: ").to_string()),
            };
        }
    };
    if f.server_response {
        for h in header_lines(r, status, body.len(), date, "close") {
            out.stderr.push_str(&format!("  {}\n", h));
        }
    }
    if !(200..400).contains(&status) {
        return fail(out, format!("server returned error: HTTP/1.1 {} {}", status, reason(status)));
    }
    if f.spider {
        say(&mut out, "remote file exists");
        return out;
    }
    let (name, to_stdout) = match &f.output {
        Output::Stdout => ("-".to_string(), true),
        Output::File(p) => (p.clone(), false),
        Output::Default => {
            let path = crate::cluster::parse_url(url).map(|(_, _, p)| p).unwrap_or_default();
            let last = path.rsplit('/').next().unwrap_or("").split('?').next().unwrap_or("").to_string();
            (if last.is_empty() { "index.html".to_string() } else { last }, false)
        }
    };
    say(&mut out, &if to_stdout { "writing to stdout".to_string() } else { format!("saving to '{}'", name) });
    if to_stdout {
        out.stdout.push_str(body);
    }
    if !f.quiet {
        // libbb/progress.c without a terminal: one line at the end, 80 columns (a 32-star bar)
        let file = name.rsplit('/').next().unwrap_or(&name);
        let file: String = file.chars().take(20).collect();
        out.stderr.push_str(&format!("{:<20} 100% |{}| {}{:>3}:00:00 ETA\n", file, "*".repeat(32), size5(body.len() as u64), 0));
    }
    say(&mut out, &if to_stdout { "written to stdout".to_string() } else { format!("'{}' saved", name) });
    out
}

/// BusyBox's `smart_ulltoa5`: a size in 5 columns, scaled by 1024 with a unit letter past 99999.
fn size5(mut n: u64) -> String {
    let units = [' ', 'k', 'M', 'G', 'T'];
    let mut u = 0;
    while n > 99_999 && u + 1 < units.len() {
        n /= 1024;
        u += 1;
    }
    if u == 0 {
        format!("{:>5}", n)
    } else {
        format!("{:>4}{}", n, units[u])
    }
}

fn render_curl(f: &Fetch, host: &str, port: i64, path: &str, r: &HttpReply, date: &str) -> Run {
    let mut out = Run::default();
    let errors = !f.quiet || f.show_error;
    let trace = |out: &mut Run, s: String| {
        if f.verbose {
            out.stderr.push_str(&s);
            out.stderr.push('\n');
        }
    };
    let fail = |mut out: Run, msg: String, code: i64| {
        if errors {
            out.stderr.push_str(&msg);
        }
        out.code = code;
        out
    };
    if let Some(ip) = &r.peer {
        trace(&mut out, format!("*   Trying {}:{}...", ip, port));
    }
    let (status, body) = match &r.result {
        HttpResult::Ok(b) => (200u16, b.clone()),
        HttpResult::Status(c, b) => (*c, b.clone()),
        HttpResult::Failed(e) => {
            let code = curl_code(e);
            let msg = match (code, f.timeout_s) {
                (28, Some(t)) if t < 130 => format!("curl: (28) Connection timed out after {} milliseconds", t * 1000 + 1),
                _ => e.clone(),
            };
            if code == 6 {
                trace(&mut out, format!("* Could not resolve host: {}", host));
            } else {
                trace(&mut out, format!("* {}", msg.split_once(") ").map(|(_, m)| m).unwrap_or(&msg)));
            }
            trace(&mut out, "* Closing connection 0".to_string());
            return fail(out, msg, code);
        }
    };
    let ip = r.peer.clone().unwrap_or_default();
    trace(&mut out, format!("* Connected to {} ({}) port {} (#0)", host, ip, port));
    let ua = f.user_agent.clone().unwrap_or_else(|| format!("curl/{}", CURL_VERSION));
    let host_header = match f.host_header() {
        Some(h) => h.to_string(),
        None if port == 80 => host.to_string(),
        None => format!("{}:{}", host, port),
    };
    for l in [format!("> {} {} HTTP/1.1", if f.head { "HEAD" } else { "GET" }, path), format!("> Host: {}", host_header), format!("> User-Agent: {}", ua), "> Accept: */*".to_string(), "> ".to_string()] {
        trace(&mut out, l);
    }
    let headers = header_lines(r, status, body.len(), date, "keep-alive");
    for h in &headers {
        trace(&mut out, format!("< {}", h));
    }
    trace(&mut out, "< ".to_string());
    if f.fail && status >= 400 {
        trace(&mut out, format!("* The requested URL returned error: {}", status));
        trace(&mut out, "* Closing connection 0".to_string());
        return fail(out, format!("curl: (22) The requested URL returned error: {}", status), 22);
    }
    let mut shown = String::new();
    if f.head || f.include {
        for h in &headers {
            shown.push_str(h);
            shown.push_str("\r\n");
        }
        shown.push_str("\r\n");
    }
    if !f.head {
        shown.push_str(&body);
    }
    if f.output == Output::Default || f.output == Output::Stdout {
        out.stdout.push_str(&shown);
    }
    trace(&mut out, format!("* Connection #0 to host {} left intact", host));
    if let Some(w) = &f.write_out {
        out.stdout.push_str(&write_out(w, status));
    }
    out
}

/// curl's `-w` format: `%{http_code}`, `%{response_code}`, `\n`; other variables print empty.
fn write_out(fmt: &str, status: u16) -> String {
    let mut s = fmt.replace("\\n", "\n").replace("\\t", "\t");
    for v in ["%{http_code}", "%{response_code}"] {
        s = s.replace(v, &format!("{:03}", status));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    fn ok(body: &str) -> HttpReply {
        HttpReply { result: HttpResult::Ok(body.to_string()), peer: Some("10.96.0.20".into()), server: Some("nginx/1.25.5".into()), content_type: "text/html", location: None }
    }

    const DATE: &str = "Thu, 01 Jan 2026 00:00:05 GMT";

    /// The command lines learners type, read as BusyBox reads them (`wget -T 2 URL` took `2` for
    /// the URL before).
    #[test]
    fn wget_reads_its_options_as_busybox_does() {
        let f = parse(&w("wget -T 2 -qO- http://web")).expect("parses");
        assert_eq!((f.urls.as_slice(), f.quiet, &f.output, f.timeout_s), (&["http://web".to_string()][..], true, &Output::Stdout, Some(2)));
        let f = parse(&w("wget -q -O - --timeout=3 http://web:8080/x")).expect("parses");
        assert_eq!((f.quiet, &f.output, f.timeout_s, f.urls[0].as_str()), (true, &Output::Stdout, Some(3), "http://web:8080/x"));
        let f = parse(&w("wget -qO /tmp/page http://web")).expect("parses");
        assert_eq!(f.output, Output::File("/tmp/page".into()));
        assert_eq!(parse(&w("wget --spider -S -nv http://web")).map(|f| (f.spider, f.server_response)), Ok((true, true)));
        assert_eq!(parse(&w("wget -T two http://web")).unwrap_err().stderr, "wget: invalid number 'two'");
        assert!(parse(&w("wget --bogus http://web")).unwrap_err().stderr.starts_with("wget: unrecognized option '--bogus'\nUsage: wget"));
        assert!(parse(&w("wget -z http://web")).unwrap_err().stderr.starts_with("wget: invalid option -- 'z'\n"));
        assert_eq!(parse(&w("wget -q")).unwrap_err().code, 1);
    }

    #[test]
    fn curl_reads_its_options_as_curl_does() {
        let f = parse(&w("curl -sS --max-time 2 http://web")).expect("parses");
        assert_eq!((f.quiet, f.show_error, f.timeout_s), (true, true, Some(2)));
        let f = parse(&w("curl -m 1.5 -sI http://web")).expect("parses");
        assert_eq!((f.timeout_s, f.head, f.quiet), (Some(2), true, true));
        let f = parse(&w("curl -s -o /dev/null -w %{http_code} http://web")).expect("parses");
        assert_eq!((&f.output, f.write_out.as_deref()), (&Output::File("/dev/null".into()), Some("%{http_code}")));
        assert_eq!(parse(&w("curl -fsSL http://web")).map(|f| (f.fail, f.quiet, f.show_error)), Ok((true, true, true)));
        let e = parse(&w("curl --bogus http://web")).unwrap_err();
        assert_eq!((e.stderr.as_str(), e.code), ("curl: option --bogus: is unknown\ncurl: try 'curl --help' or 'curl --manual' for more information", 2));
        assert_eq!(parse(&w("curl -s")).unwrap_err().stderr, format!("curl: no URL specified!\n{}", CURL_TRY));
        assert_eq!(parse(&w("curl --max-time soon http://web")).unwrap_err().stderr, format!("curl: option --max-time: expected a proper numerical parameter\n{}", CURL_TRY));
        // the Ingress tutorials' options: a Host header, and --resolve HOST:PORT:ADDR
        let f = parse(&w("curl -H Host:hello.example --resolve hello.example:80:192.168.49.2 -i http://hello.example/v2")).expect("parses");
        assert_eq!(f.host_header(), Some("hello.example"));
        assert_eq!(f.resolved("http://hello.example/v2"), Some(("http://192.168.49.2:80/v2".to_string(), "hello.example".to_string())));
        assert_eq!(f.resolved("http://other.example/"), None);
    }

    /// `wget -O- URL` without `-q`: busybox's lines around the body, its one progress line
    /// (libbb/progress.c without a terminal: 20-column name, 100%, a 32-star bar, size, ETA).
    #[test]
    fn wget_without_q_says_where_it_connected_and_wrote() {
        let body = "x".repeat(615);
        let f = parse(&w("wget -O- http://web")).expect("parses");
        let r = render(&f, "http://web", &ok(&body), DATE, false);
        assert_eq!(r.stdout, body);
        assert_eq!(r.stderr, "Connecting to web (10.96.0.20:80)\nwriting to stdout\n-                    100% |********************************|   615  0:00:00 ETA\nwritten to stdout\n");
        let f = parse(&w("wget http://web/")).expect("parses");
        let r = render(&f, "http://web/", &ok(&body), DATE, false);
        assert_eq!((r.stdout.as_str(), r.code), ("", 0));
        assert!(r.stderr.contains("saving to 'index.html'\nindex.html           100% |") && r.stderr.ends_with("'index.html' saved\n"), "{}", r.stderr);
        assert_eq!(size5(123_456), " 120k");
    }

    #[test]
    fn wget_errors_are_busyboxs() {
        let f = parse(&w("wget -qO- -T 2 http://web")).expect("parses");
        let failed = |e: &str, peer: Option<&str>| HttpReply { result: HttpResult::Failed(e.to_string()), peer: peer.map(String::from), server: None, content_type: "text/html", location: None };
        assert_eq!(render(&f, "http://web", &failed("curl: (6) Could not resolve host: web", None), DATE, false).stderr, "wget: bad address 'web'");
        assert_eq!(render(&f, "http://web", &failed("curl: (7) Failed to connect to web port 80 after 1 ms: Couldn't connect to server", Some("10.96.0.20")), DATE, false).stderr, "wget: can't connect to remote host (10.96.0.20): Connection refused");
        assert_eq!(render(&f, "http://web", &failed("curl: (28) Failed to connect to web port 80 after 130000 ms: Couldn't connect to server", Some("10.96.0.20")), DATE, false).stderr, "wget: download timed out");
        let no_t = parse(&w("wget -qO- http://web")).expect("parses");
        assert_eq!(render(&no_t, "http://web", &failed("curl: (28) Failed to connect to web port 80 after 130000 ms: Couldn't connect to server", Some("10.96.0.20")), DATE, true).stderr, "wget: can't connect to remote host (10.96.0.20): Operation timed out");
        let nf = HttpReply { result: HttpResult::Status(404, "<html>".into()), ..ok("") };
        let r = render(&f, "http://web/x", &nf, DATE, false);
        assert_eq!((r.stderr.as_str(), r.code), ("wget: server returned error: HTTP/1.1 404 Not Found", 1));
        let s = parse(&w("wget -S --spider http://web")).expect("parses");
        assert_eq!(
            render(&s, "http://web", &ok("hello"), DATE, false).stderr,
            "Connecting to web (10.96.0.20:80)\n  HTTP/1.1 200 OK\n  Server: nginx/1.25.5\n  Date: Thu, 01 Jan 2026 00:00:05 GMT\n  Content-Type: text/html\n  Content-Length: 5\n  Connection: close\nremote file exists\n"
        );
    }

    #[test]
    fn curl_prints_what_curl_prints() {
        let quiet_fail = parse(&w("curl -s http://web")).expect("parses");
        let failed = HttpReply { result: HttpResult::Failed("curl: (6) Could not resolve host: web".into()), peer: None, server: None, content_type: "text/html", location: None };
        let r = render(&quiet_fail, "http://web", &failed, DATE, false);
        assert_eq!((r.stderr.as_str(), r.code), ("", 6), "-s hides the error, the exit code stays");
        let shown = parse(&w("curl -sS http://web")).expect("parses");
        assert_eq!(render(&shown, "http://web", &failed, DATE, false).stderr, "curl: (6) Could not resolve host: web");
        let hang = HttpReply { result: HttpResult::Failed("curl: (28) Failed to connect to web port 80 after 130000 ms: Couldn't connect to server".into()), peer: Some("10.96.0.20".into()), server: None, content_type: "text/html", location: None };
        let m = parse(&w("curl --max-time 2 http://web")).expect("parses");
        assert_eq!(render(&m, "http://web", &hang, DATE, false), Run { stdout: String::new(), stderr: "curl: (28) Connection timed out after 2001 milliseconds".into(), code: 28 });
        let head = parse(&w("curl -I http://web")).expect("parses");
        assert_eq!(render(&head, "http://web", &ok("hello"), DATE, false).stdout, "HTTP/1.1 200 OK\r\nServer: nginx/1.25.5\r\nDate: Thu, 01 Jan 2026 00:00:05 GMT\r\nContent-Type: text/html\r\nContent-Length: 5\r\nConnection: keep-alive\r\n\r\n");
        let v = parse(&w("curl -sv http://web")).expect("parses");
        let r = render(&v, "http://web", &ok("hello"), DATE, false);
        assert_eq!(r.stdout, "hello");
        assert!(r.stderr.starts_with("*   Trying 10.96.0.20:80...\n* Connected to web (10.96.0.20) port 80 (#0)\n> GET / HTTP/1.1\n> Host: web\n> User-Agent: curl/7.88.1\n> Accept: */*\n> \n< HTTP/1.1 200 OK\n"), "{}", r.stderr);
        assert!(r.stderr.ends_with("< \n* Connection #0 to host web left intact\n"), "{}", r.stderr);
        let code = parse(&w("curl -s -o /dev/null -w %{http_code} http://web")).expect("parses");
        assert_eq!(render(&code, "http://web", &HttpReply { result: HttpResult::Status(404, "nf".into()), ..ok("") }, DATE, false).stdout, "404");
        let f = parse(&w("curl -sf http://web")).expect("parses");
        assert_eq!(render(&f, "http://web", &HttpReply { result: HttpResult::Status(503, "x".into()), ..ok("") }, DATE, false).code, 22);
    }
}
