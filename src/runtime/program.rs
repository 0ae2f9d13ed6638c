//! What a container does when it runs: kubesim's stand-in for the image's entrypoint.
//!
//! No upstream counterpart: a real runtime runs the image's binary. kubesim reads the image name
//! and the container's `command`/`args` (together: the program, as `docker run` would exec it) and
//! says how long it runs, what it prints and its exit code, so the kubelet has something to
//! restart, back off from and report (`lastState.terminated`, CrashLoopBackOff).
//!
//! - Servers (`nginx`, `httpd`, `redis`, `postgres`, `coredns`, …) with no `command`, and `args`
//!   that are flags to their entrypoint (not a script), run until stopped.
//! - Shell images (`busybox`, `alpine`, `ubuntu`) and language images (`python`, `node`) with no
//!   program run their default shell or REPL, which exits at once with code 0 when there is no
//!   terminal: a Deployment of plain `busybox` goes into CrashLoopBackOff with `Completed`.
//! - A program is read as a small shell script (`sh -c "…"` or the words themselves): `sleep N`
//!   (`infinity` runs forever), `echo …` (printed to the log), `exit N`, `true`, `false`, `;`, `&&`,
//!   `||`, `date`, `touch`/`rm` (files an exec probe can look for), and `while true; do …; done` /
//!   `tail -f`/`tail -F …` (forever). An unknown command prints `sh: NAME: not found` and sets 127.
//! - [`Surface`]: what probes see — the ports and HTTP paths a server answers, the files a script
//!   creates and removes, whether the process stops on SIGTERM.

/// How a container behaves once started.
#[derive(Clone, Debug, PartialEq)]
pub enum Behavior {
    /// Runs until it is stopped (a server, `sleep infinity`, a `while true` loop).
    Serve { output: Vec<LogLine> },
    /// Runs for `after_ms`, prints `output`, then exits with `code`.
    Exit { after_ms: i64, code: i32, output: Vec<LogLine> },
}

/// A line of a container's output and when it prints it (ms after the container starts).
pub type LogLine = (i64, String);

/// Images whose default command is a shell or a REPL (exits at once without a terminal).
const INTERACTIVE_IMAGES: &[&str] = &["busybox", "alpine", "ubuntu", "debian", "python", "node"];
/// Time a process takes to start and exit when it does nothing else.
const MIN_RUN_MS: i64 = 20;
/// A `sleep` longer than this is treated as forever (a week of cluster time).
const FOREVER_MS: i64 = 7 * 24 * 3600 * 1000;

/// The behaviour of `image` run with `command` and `args` (the container spec's fields).
pub fn behavior(image: &str, command: &[String], args: &[String]) -> Behavior {
    let words: Vec<String> = command.iter().chain(args.iter()).cloned().collect();
    if words.is_empty() {
        let repo = image.rsplit('/').next().unwrap_or(image).split([':', '@']).next().unwrap_or("");
        return if INTERACTIVE_IMAGES.contains(&repo) {
            Behavior::Exit { after_ms: MIN_RUN_MS, code: 0, output: Vec::new() }
        } else {
            Behavior::Serve { output: Vec::new() }
        };
    }
    // a server image given only `args` (`-conf /etc/coredns/Corefile`): flags to its entrypoint
    let repo = image.rsplit('/').next().unwrap_or(image).split([':', '@']).next().unwrap_or("");
    if command.is_empty() && SERVERS.iter().any(|(r, _, _)| *r == repo) && !args.first().map(|a| is_shell(a) || is_script_word(a)).unwrap_or(false) {
        return Behavior::Serve { output: Vec::new() };
    }
    // an image kubesim does not know, run with its own program (`stress --vm 1 …`): what that
    // program does is unknown, so it runs until it is stopped (shell words still run as a script)
    if !crate::runtime::is_known(image) && !words.first().map(|w| is_shell(w) || is_script_word(w)).unwrap_or(false) {
        return Behavior::Serve { output: Vec::new() };
    }
    let script = match words.as_slice() {
        [sh, flag, script, ..] if is_shell(sh) && flag == "-c" => script.clone(),
        [sh] if is_shell(sh) => return Behavior::Exit { after_ms: MIN_RUN_MS, code: 0, output: Vec::new() },
        _ => words.join(" "),
    };
    run_script(&script)
}

/// The words kubesim's shell stand-in runs as a script.
fn is_script_word(w: &str) -> bool {
    matches!(w, "sleep" | "echo" | "exit" | "true" | "false")
}

/// What `date` prints until the container's start time is known.
pub const DATE_MARKER: &str = "\u{1}date";

/// busybox `date`: `Thu Jan  1 00:01:00 UTC 2026`, for each line `date` printed, at the wall
/// time the line is printed (`start_wall_ms` plus its offset).
pub fn resolve_dates(output: &mut [LogLine], start_wall_ms: i64) {
    for (t, line) in output.iter_mut() {
        if line == DATE_MARKER {
            let ms = start_wall_ms + *t;
            let c = Civil::of(ms);
            let (wd, mon) = (crate::api::time::WEEKDAYS[crate::api::time::weekday(ms)], crate::api::time::MONTHS[c.month as usize - 1]);
            *line = format!("{} {} {:>2} {:02}:{:02}:{:02} UTC {}", wd, mon, c.day, c.hour, c.minute, c.second, c.year);
        }
    }
}

fn is_shell(w: &str) -> bool {
    matches!(w.rsplit('/').next().unwrap_or(w), "sh" | "bash" | "ash")
}

/// Interprets the few shell forms learners write (see the module docs).
fn run_script(script: &str) -> Behavior {
    let mut output = Vec::new();
    if script.contains("while true") || script.contains("while :") || script.contains("until ") || script.contains("tail -f") || script.contains("tail -F") {
        // print what comes before the loop, then loop forever
        return Behavior::Serve { output: echo_lines(script) };
    }
    let mut elapsed = MIN_RUN_MS;
    let mut code = 0;
    // split into (connector before, command): ";" and newlines always run, "&&" on success, "||" on failure
    let mut rest = script;
    let mut connector = ";";
    loop {
        let next = [";", "\n", "&&", "||"].iter().filter_map(|c| rest.find(c).map(|i| (i, *c))).min();
        let (cmd, next_conn, tail) = match next {
            Some((i, c)) => (&rest[..i], c, &rest[i + c.len()..]),
            None => (rest, "", ""),
        };
        let run = match connector {
            "&&" => code == 0,
            "||" => code != 0,
            _ => true,
        };
        if run {
            let parts: Vec<&str> = cmd.split_whitespace().collect();
            match parts.as_slice() {
                [] => {}
                ["sleep", n, ..] => {
                    if *n == "infinity" {
                        return Behavior::Serve { output };
                    }
                    match n.trim_end_matches('s').parse::<f64>() {
                        Ok(s) if s >= 0.0 => {
                            elapsed = elapsed.saturating_add((s * 1000.0) as i64);
                            if elapsed > FOREVER_MS {
                                return Behavior::Serve { output };
                            }
                            code = 0;
                        }
                        _ => {
                            output.push((elapsed, format!("sleep: invalid number '{}'", n)));
                            code = 1;
                        }
                    }
                }
                ["exit"] => return Behavior::Exit { after_ms: elapsed, code, output },
                ["exit", n, ..] => return Behavior::Exit { after_ms: elapsed, code: n.parse::<i32>().map(|c| c & 0xff).unwrap_or(2), output },
                ["echo", ..] => {
                    output.push((elapsed, unquote(cmd.trim_start().trim_start_matches("echo").trim())));
                    code = 0;
                }
                ["date", ..] => {
                    // the time is the container's: filled in when it starts (`resolve_dates`)
                    output.push((elapsed, DATE_MARKER.to_string()));
                    code = 0;
                }
                ["true"] | [":"] | ["touch", ..] | ["rm", ..] | ["mkdir", ..] | ["cd", ..] | ["export", ..] => code = 0,
                ["false"] => code = 1,
                [other, ..] => {
                    output.push((elapsed, format!("sh: {}: not found", other)));
                    code = 127;
                }
            }
        }
        if next_conn.is_empty() {
            break;
        }
        connector = if next_conn == "\n" { ";" } else { next_conn };
        rest = tail;
    }
    Behavior::Exit { after_ms: elapsed, code, output }
}

fn unquote(s: &str) -> String {
    let s = s.trim();
    if s.len() >= 2 && ((s.starts_with('"') && s.ends_with('"')) || (s.starts_with('\'') && s.ends_with('\''))) {
        s[1..s.len() - 1].to_string()
    } else {
        s.to_string()
    }
}

fn echo_lines(script: &str) -> Vec<LogLine> {
    let head = script.split("while").next().unwrap_or("");
    head.split([';', '\n']).filter_map(|c| c.trim().strip_prefix("echo").map(|e| (MIN_RUN_MS, unquote(e.trim())))).collect()
}

/// A Unix time in ms as UTC calendar fields.
struct Civil {
    year: i64,
    month: u32,
    day: u32,
    hour: i64,
    minute: i64,
    second: i64,
}

impl Civil {
    fn of(wall_ms: i64) -> Civil {
        let (year, month, day) = crate::api::time::civil_from_days(wall_ms.div_euclid(86_400_000));
        let secs = wall_ms.div_euclid(1000).rem_euclid(86_400);
        Civil { year, month, day, hour: secs / 3600, minute: secs / 60 % 60, second: secs % 60 }
    }
}

/// The nginx release an `nginx` image tag holds (what its `Server` header and start-up notices say).
pub fn nginx_version(tag: &str) -> &str {
    match tag {
        "1.25" => "1.25.5",
        "1.27" | "stable" => "1.27.5",
        "1.29" | "latest" | "alpine" => "1.29.1",
        other => other,
    }
}

/// What a server image prints when it starts with its default command, as its Docker Hub image
/// does (`docker-entrypoint.sh`, the server's own startup notices), with the start time (`wall_ms`,
/// Unix ms) where the real lines carry one. Other images print nothing until asked.
pub fn startup_log(image: &str, wall_ms: i64, pod_ip: &str) -> Vec<LogLine> {
    let (repo, tag) = image.rsplit_once(':').filter(|(r, _)| !r.ends_with('/')).unwrap_or((image, "latest"));
    let repo = repo.rsplit('/').next().unwrap_or(repo);
    let t = Civil::of(wall_ms);
    let at = |ms: i64, s: String| (ms, s);
    match repo {
        // nginx images before 1.19 had no entrypoint script and logged notices nowhere
        "nginx" if !matches!(tag, "1.14.2" | "1.16.1") => {
            let version = nginx_version(tag);
            let stamp = format!("{:04}/{:02}/{:02} {:02}:{:02}:{:02}", t.year, t.month, t.day, t.hour, t.minute, t.second);
            let mut v: Vec<LogLine> = [
                "/docker-entrypoint.sh: /docker-entrypoint.d/ is not empty, will attempt to perform configuration",
                "/docker-entrypoint.sh: Looking for shell scripts in /docker-entrypoint.d/",
                "/docker-entrypoint.sh: Launching /docker-entrypoint.d/10-listen-on-ipv6-by-default.sh",
                "10-listen-on-ipv6-by-default.sh: info: Getting the checksum of /etc/nginx/conf.d/default.conf",
                "10-listen-on-ipv6-by-default.sh: info: Enabled listen on IPv6 in /etc/nginx/conf.d/default.conf",
                "/docker-entrypoint.sh: Sourcing /docker-entrypoint.d/15-local-resolvers.envsh",
                "/docker-entrypoint.sh: Launching /docker-entrypoint.d/20-envsubst-on-templates.sh",
                "/docker-entrypoint.sh: Launching /docker-entrypoint.d/30-tune-worker-processes.sh",
                "/docker-entrypoint.sh: Configuration complete; ready for start up",
            ]
            .iter()
            .map(|l| at(0, l.to_string()))
            .collect();
            for n in ["using the \"epoll\" event method".to_string(), format!("nginx/{}", version), "built by gcc 12.2.0 (Debian 12.2.0-14) ".into(), "OS: Linux 6.8.0-1015-gcp".into(), "getrlimit(RLIMIT_NOFILE): 1048576:1048576".into(), "start worker processes".into(), "start worker process 29".into(), "start worker process 30".into()] {
                v.push(at(MIN_RUN_MS, format!("{} [notice] 1#1: {}", stamp, n)));
            }
            v
        }
        "httpd" => {
            const DAYS: [&str; 7] = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"];
            const MONTHS: [&str; 12] = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
            let day = DAYS[(wall_ms.div_euclid(86_400_000).rem_euclid(7)) as usize];
            let stamp = format!("{} {} {:02} {:02}:{:02}:{:02}.{:06} {}", day, MONTHS[(t.month as usize).clamp(1, 12) - 1], t.day, t.hour, t.minute, t.second, wall_ms.rem_euclid(1000) * 1000, t.year);
            let fqdn = format!("AH00558: httpd: Could not reliably determine the server's fully qualified domain name, using {}. Set the 'ServerName' directive globally to suppress this message", pod_ip);
            vec![
                at(0, fqdn.clone()),
                at(0, fqdn),
                at(MIN_RUN_MS, format!("[{}] [mpm_event:notice] [pid 1:tid 1] AH00489: Apache/2.4.65 (Unix) configured -- resuming normal operations", stamp)),
                at(MIN_RUN_MS, format!("[{}] [core:notice] [pid 1:tid 1] AH00094: Command line: 'httpd -D FOREGROUND'", stamp)),
            ]
        }
        "redis" => {
            const MONTHS: [&str; 12] = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
            let version = match tag {
                "6.2" => "6.2.19",
                "7" | "7.2" => "7.2.10",
                _ => "8.2.1",
            };
            let stamp = format!("{:02} {} {} {:02}:{:02}:{:02}.{:03}", t.day, MONTHS[(t.month as usize).clamp(1, 12) - 1], t.year, t.hour, t.minute, t.second, wall_ms.rem_euclid(1000));
            [
                ("C", "* oO0OoO0OoO0Oo Redis is starting oO0OoO0OoO0Oo".to_string()),
                ("C", format!("* Redis version={}, bits=64, commit=00000000, modified=0, pid=1, just started", version)),
                ("C", "# Warning: no config file specified, using the default config. In order to specify a config file use redis-server /path/to/redis.conf".into()),
                ("M", "* monotonic clock: POSIX clock_gettime".into()),
                ("M", "* Running mode=standalone, port=6379.".into()),
                ("M", "* Server initialized".into()),
                ("M", "* Ready to accept connections tcp".into()),
            ]
            .into_iter()
            .map(|(role, l)| at(MIN_RUN_MS, format!("1:{} {} {}", role, stamp, l)))
            .collect()
        }
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &[&str]) -> Vec<String> {
        s.iter().map(|x| x.to_string()).collect()
    }

    /// What the catalogue says each container does.
    #[test]
    fn behavior_table() {
        let serve = Behavior::Serve { output: vec![] };
        let lines = |out: &[&str], at: i64| out.iter().map(|l| (at, l.to_string())).collect::<Vec<_>>();
        let exit = |after_ms: i64, code: i32, out: &[&str]| Behavior::Exit { after_ms, code, output: lines(out, 20) };
        let cases: Vec<(&str, &str, Vec<String>, Vec<String>, Behavior)> = vec![
            ("a server runs until stopped", "nginx:1.25", v(&[]), v(&[]), serve.clone()),
            ("a registry path", "registry.k8s.io/pause:3.10", v(&[]), v(&[]), serve.clone()),
            ("plain busybox exits at once with 0", "busybox:1.36", v(&[]), v(&[]), exit(20, 0, &[])),
            ("python's REPL exits too", "python:3.12-slim", v(&[]), v(&[]), exit(20, 0, &[])),
            ("exec form sleep", "busybox", v(&["sleep", "30"]), v(&[]), exit(30_020, 0, &[])),
            ("command and args together", "busybox", v(&["sleep"]), v(&["3600"]), exit(3_600_020, 0, &[])),
            ("sh -c with exit", "busybox", v(&["sh", "-c", "echo starting; sleep 5; exit 3"]), v(&[]), exit(5_020, 3, &["starting"])),
            ("args only on busybox", "busybox", v(&[]), v(&["/bin/sh", "-c", "echo hi"]), exit(20, 0, &["hi"])),
            ("&& stops on failure", "busybox", v(&["sh", "-c", "false && echo never"]), v(&[]), exit(20, 1, &[])),
            ("|| runs on failure", "busybox", v(&["sh", "-c", "false || echo recovered"]), v(&[]), exit(20, 0, &["recovered"])),
            ("unknown command", "busybox", v(&["sh", "-c", "nginx-start"]), v(&[]), exit(20, 127, &["sh: nginx-start: not found"])),
            ("sleep infinity", "busybox", v(&["sleep", "infinity"]), v(&[]), serve.clone()),
            ("a loop runs forever", "busybox", v(&["sh", "-c", "echo up; while true; do sleep 1; done"]), v(&[]), Behavior::Serve { output: vec![(20, "up".to_string())] }),
            ("exit codes wrap at 256", "busybox", v(&["sh", "-c", "exit 257"]), v(&[]), exit(20, 1, &[])),
            ("a bare shell", "busybox", v(&["sh"]), v(&[]), exit(20, 0, &[])),
            ("a server's args are its flags", "registry.k8s.io/coredns/coredns:v1.12.1", v(&[]), v(&["-conf", "/etc/coredns/Corefile"]), serve.clone()),
            ("a script as a server's args still runs", "nginx", v(&[]), v(&["sh", "-c", "exit 2"]), exit(20, 2, &[])),
        ];
        for (name, image, command, args, want) in cases {
            assert_eq!(behavior(image, &command, &args), want, "{}", name);
        }
    }
}

/// What a running container answers on the network and in its file system: what probes see.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Surface {
    /// TCP ports it listens on
    pub ports: Vec<u16>,
    /// an HTTP server on these ports: `None` = any path answers 200, else only these paths
    /// (others get 404, as nginx's and httpd's default sites do)
    pub http: Option<Option<Vec<&'static str>>>,
    /// files a script creates (`touch`) or removes (`rm`), at ms since start: (ms, path, exists)
    pub files: Vec<(i64, String, bool)>,
    /// the process stops on SIGTERM (a server): exit code 0 at once; a shell script as PID 1
    /// ignores it and is killed at the end of the grace period (137)
    pub stops_on_sigterm: bool,
    /// the teaching image: its HTTP answers depend on time and env
    pub app: Option<TeachingApp>,
}

/// Server images: (repository, ports, HTTP paths that answer 200 (`None`: every path)).
const SERVERS: &[(&str, &[u16], Option<&[&str]>)] = &[
    ("nginx", &[80], Some(&["/", "/index.html"])),
    ("nginx-slim", &[80], Some(&["/", "/index.html"])),
    ("httpd", &[80], Some(&["/", "/index.html"])),
    ("redis", &[6379], None),
    ("postgres", &[5432], None),
    ("mysql", &[3306, 33060], None),
    ("memcached", &[11211], None),
    ("traefik", &[80, 8080], None),
    ("echoserver", &[8080], None),
    ("hello-app", &[8080], None),
    ("agnhost", &[8080], None),
    // 53: DNS; 8080: health (/health); 8181: ready (/ready); 9153: metrics
    ("coredns", &[53, 8080, 8181, 9153], None),
    // fluentd: forward input; stops on SIGTERM like the other servers
    ("fluentd", &[24224], None),
    // 10250: the metrics API and its /livez and /readyz (HTTPS)
    ("metrics-server", &[10250], None),
    // ingress-nginx's controller: nginx on 80 and 443, its /healthz on 10254
    ("controller", &[80, 443, 10254], None),
];
/// Of those, the ones that speak HTTP.
const HTTP_SERVERS: &[&str] = &["nginx", "nginx-slim", "httpd", "traefik", "echoserver", "hello-app", "agnhost", "coredns", "metrics-server", "controller"];

impl Surface {
    /// What `image` run with `command`/`args` shows to probes.
    pub fn of(image: &str, command: &[String], args: &[String]) -> Surface {
        let repo = image.rsplit('/').next().unwrap_or(image).split([':', '@']).next().unwrap_or("");
        let words: Vec<&str> = command.iter().chain(args.iter()).map(String::as_str).collect();
        let server = SERVERS.iter().find(|(r, _, _)| *r == repo);
        // a server runs its own program unless the command replaces it with a shell script
        let scripted = words.first().map(|w| is_shell(w) || is_script_word(w)).unwrap_or(false);
        match server {
            Some((r, ports, paths)) if !scripted => Surface {
                ports: ports.to_vec(),
                http: HTTP_SERVERS.contains(r).then(|| paths.map(|p| p.to_vec())),
                files: Vec::new(),
                stops_on_sigterm: true,
                app: None,
            },
            _ => Surface { ports: Vec::new(), http: None, files: script_files(&words.join(" ")), stops_on_sigterm: false, app: None },
        }
    }

    /// The teaching image's surface: port 8080, HTTP, stops on SIGTERM.
    pub fn of_app(app: TeachingApp) -> Surface {
        Surface { ports: vec![8080], http: Some(None), files: Vec::new(), stops_on_sigterm: true, app: Some(app) }
    }

    /// Does `path` exist `since_ms` after the container started?
    pub fn file_exists(&self, path: &str, since_ms: i64) -> bool {
        self.files.iter().filter(|(t, p, _)| p == path && *t <= since_ms).last().map(|(_, _, e)| *e).unwrap_or(false)
    }
}

/// `touch F` and `rm [-f] F` in a script, with the time each runs (after the sleeps before it).
fn script_files(script: &str) -> Vec<(i64, String, bool)> {
    let script = match script.split_once(" -c ") {
        Some((sh, rest)) if is_shell(sh.split_whitespace().last().unwrap_or("")) => rest,
        _ => script,
    };
    let mut t = 0i64;
    let mut out = Vec::new();
    for cmd in script.split([';', '\n']).flat_map(|c| c.split("&&")) {
        let parts: Vec<&str> = cmd.split_whitespace().collect();
        match parts.as_slice() {
            ["sleep", n, ..] => t += n.trim_end_matches('s').parse::<f64>().map(|s| (s * 1000.0) as i64).unwrap_or(0),
            ["touch", files @ ..] => out.extend(files.iter().map(|f| (t, f.to_string(), true))),
            ["rm", rest @ ..] => out.extend(rest.iter().filter(|f| !f.starts_with('-')).map(|f| (t, f.to_string(), false))),
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod surface_tests {
    use super::*;

    #[test]
    fn surface_table() {
        let v = |s: &[&str]| s.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        let nginx = Surface::of("nginx:1.25", &[], &[]);
        assert_eq!((nginx.ports.clone(), nginx.http.clone(), nginx.stops_on_sigterm), (vec![80], Some(Some(vec!["/", "/index.html"])), true));
        assert_eq!(Surface::of("redis:7", &[], &[]).http, None);
        assert_eq!(Surface::of("gcr.io/google-samples/hello-app:1.0", &[], &[]).http, Some(None));
        // nginx whose command is a shell script serves nothing
        assert!(Surface::of("nginx:1.25", &v(&["sh", "-c", "sleep 10"]), &[]).ports.is_empty());
        // the liveness example of the Kubernetes docs
        let s = Surface::of("busybox:1.36", &[], &v(&["/bin/sh", "-c", "touch /tmp/healthy; sleep 30; rm -f /tmp/healthy; sleep 600"]));
        assert_eq!(s.files, vec![(0, "/tmp/healthy".to_string(), true), (30_000, "/tmp/healthy".to_string(), false)]);
        assert!(s.file_exists("/tmp/healthy", 29_999) && !s.file_exists("/tmp/healthy", 30_000) && !s.file_exists("/tmp/other", 0));
        assert!(!s.stops_on_sigterm);
    }
}

/// The teaching image `kubesim/app:TAG`: an HTTP server on port 8080 whose behaviour is set by
/// its environment, so a manifest can show each lifecycle case on purpose:
///
/// | env | effect |
/// |---|---|
/// | `READY_AFTER=N` | `/ready` answers 503 for the first N seconds, then 200 |
/// | `HEALTHY_FOR=N` | `/healthz` answers 200 for N seconds, then 500 (a hung app) |
/// | `EXIT_AFTER=N`, `EXIT_CODE=C` | exits with code C (default 1) after N seconds |
/// | `LEAK_MB_PER_S=N` | allocates N MiB a second; with a memory limit it is `OOMKilled` (137) when it reaches it |
/// | `FAILURES=N` (with `EXIT_AFTER`) | its first N runs in a Pod exit with `EXIT_CODE`, later ones with 0 (a batch job whose dependency is not ready at first) |
///
/// `/` always answers 200 with the tag (`kubesim/app:2` says `hello from v2`).
#[derive(Clone, Debug, PartialEq, Default)]
pub struct TeachingApp {
    pub ready_after_ms: i64,
    pub healthy_for_ms: Option<i64>,
    pub exit: Option<(i64, i32)>,
    /// ms after start at which the memory limit is reached
    pub oom_after_ms: Option<i64>,
    /// `FAILURES`: runs (restarts in one Pod) that exit with the error code before one succeeds
    pub failures: Option<i64>,
    pub tag: String,
}

/// The repository of the teaching image.
pub const TEACHING_IMAGE: &str = "kubesim/app";

impl TeachingApp {
    /// `None` unless `image` is the teaching image. `env` is the container's `env` as (name,
    /// value); `memory_limit_bytes` its `resources.limits.memory`.
    pub fn of(image: &str, env: &[(String, String)], memory_limit_bytes: Option<i64>) -> Option<TeachingApp> {
        let (repo, tag) = image.rsplit_once(':').filter(|(r, _)| !r.ends_with('/')).unwrap_or((image, "latest"));
        let repo = repo.trim_start_matches("docker.io/");
        if repo != TEACHING_IMAGE {
            return None;
        }
        let num = |k: &str| env.iter().find(|(n, _)| n == k).and_then(|(_, v)| v.trim().parse::<f64>().ok());
        let leak = num("LEAK_MB_PER_S").filter(|l| *l > 0.0);
        Some(TeachingApp {
            ready_after_ms: num("READY_AFTER").map(|s| (s * 1000.0) as i64).unwrap_or(0),
            healthy_for_ms: num("HEALTHY_FOR").map(|s| (s * 1000.0) as i64),
            exit: num("EXIT_AFTER").map(|s| ((s * 1000.0) as i64, num("EXIT_CODE").map(|c| c as i32).unwrap_or(1))),
            failures: num("FAILURES").filter(|f| *f >= 0.0).map(|f| f as i64),
            oom_after_ms: match (leak, memory_limit_bytes) {
                (Some(l), Some(limit)) => Some(((limit as f64 / (l * 1024.0 * 1024.0)) * 1000.0) as i64),
                _ => None,
            },
            tag: tag.to_string(),
        })
    }

    /// Its behaviour: a server, unless it exits or runs out of memory first (the earlier wins).
    /// The behaviour of its run `run` (0 for the first start in a Pod): after `FAILURES` failed
    /// runs, a run that exits says it succeeded and exits with 0.
    pub fn behavior_of_run(&self, run: i64) -> Behavior {
        match (self.failures, self.exit) {
            (Some(n), Some((at, _))) if run >= n => {
                let mut app = self.clone();
                app.exit = Some((at, 0));
                app.failures = None;
                let mut b = app.behavior();
                if let Behavior::Exit { output, .. } = &mut b {
                    if let Some(last) = output.last_mut() {
                        last.1 = "dependency ready, work done: exiting with code 0".to_string();
                    }
                }
                b
            }
            _ => self.behavior(),
        }
    }

    pub fn behavior(&self) -> Behavior {
        let mut output = vec![(0, format!("kubesim/app {} listening on :8080", self.tag))];
        if self.ready_after_ms > 0 {
            output.push((0, format!("warming up: ready in {}s", self.ready_after_ms / 1000)));
            output.push((self.ready_after_ms, "ready".to_string()));
        }
        match (self.exit, self.oom_after_ms) {
            (Some((at, code)), oom) if oom.map(|o| at <= o).unwrap_or(true) => {
                output.push((at.max(MIN_RUN_MS), format!("exiting with code {}", code)));
                Behavior::Exit { after_ms: at.max(MIN_RUN_MS), code, output }
            }
            (_, Some(oom)) => {
                output.push((0, "allocating memory…".to_string()));
                Behavior::Exit { after_ms: oom.max(MIN_RUN_MS), code: 137, output }
            }
            _ => Behavior::Serve { output },
        }
    }

    /// The status code of `GET path`, `since_ms` after start.
    pub fn http_status(&self, path: &str, since_ms: i64) -> u16 {
        match path {
            "/ready" if since_ms < self.ready_after_ms => 503,
            "/healthz" if self.healthy_for_ms.map(|h| since_ms >= h).unwrap_or(false) => 500,
            "/" | "" | "/ready" | "/healthz" => 200,
            _ => 404,
        }
    }
}

#[cfg(test)]
mod teaching_tests {
    use super::*;

    #[test]
    fn teaching_app_table() {
        let env = |pairs: &[(&str, &str)]| pairs.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect::<Vec<_>>();
        assert_eq!(TeachingApp::of("nginx:1.25", &[], None), None);
        let a = TeachingApp::of("kubesim/app:2", &env(&[("READY_AFTER", "20"), ("HEALTHY_FOR", "60")]), None).unwrap();
        assert_eq!((a.http_status("/ready", 19_999), a.http_status("/ready", 20_000)), (503, 200));
        assert_eq!((a.http_status("/healthz", 59_999), a.http_status("/healthz", 60_000)), (200, 500));
        assert_eq!(a.http_status("/nope", 0), 404);
        assert!(matches!(a.behavior(), Behavior::Serve { .. }));
        let crash = TeachingApp::of("docker.io/kubesim/app:1", &env(&[("EXIT_AFTER", "5"), ("EXIT_CODE", "3")]), None).unwrap();
        assert!(matches!(crash.behavior(), Behavior::Exit { after_ms: 5000, code: 3, .. }));
        // 64 MiB limit, 8 MiB a second: OOMKilled after 8 s
        let leak = TeachingApp::of("kubesim/app:1", &env(&[("LEAK_MB_PER_S", "8")]), Some(64 * 1024 * 1024)).unwrap();
        assert!(matches!(leak.behavior(), Behavior::Exit { after_ms: 8000, code: 137, .. }));
        // no limit: it just grows
        assert!(matches!(TeachingApp::of("kubesim/app:1", &env(&[("LEAK_MB_PER_S", "8")]), None).unwrap().behavior(), Behavior::Serve { .. }));
    }
}
