//! Probes: startup, liveness and readiness, as the kubelet's prober runs them.
//!
//! Real counterparts: `pkg/kubelet/prober/worker.go` (one worker per container and probe type:
//! initial results, thresholds, on hold after a liveness/startup failure), `prober.go` (the
//! handlers and the `Liveness probe failed: …` texts), `pkg/probe/http`, `pkg/probe/tcp`,
//! `pkg/probe/exec` (what a failure says).
//!
//! What kubesim simplifies: a probe's answer comes from the image catalogue
//! ([`runtime::program::Surface`]: the ports and HTTP paths a server answers, the files a script
//! touches and removes) instead of a real connection; a gRPC probe succeeds when the port is open;
//! timeouts never happen; the random start delay a worker takes right after a kubelet restart is
//! not simulated (kubelets here do not restart).
//!
//! When probes run ([`first_probe_at`]): the worker starts when the kubelet first syncs the Pod
//! (before the image pull) and ticks every `periodSeconds` from then on; a tick before the
//! container has run `initialDelaySeconds` (whole seconds) is skipped. So the first probe comes at
//! the first tick at or after the delay, up to a period later, and a restarted container is
//! probed on the same ticks. A readiness probe without a delay also runs at once when the
//! container starts (`UpdatePodStatus` triggers it manually while it has no result).

use crate::api::meta;
use crate::runtime::program::Surface;
use serde_json::Value;

/// The three probe types, in the order the worker checks them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProbeKind {
    Startup,
    Liveness,
    Readiness,
}

impl ProbeKind {
    pub const ALL: [ProbeKind; 3] = [ProbeKind::Startup, ProbeKind::Liveness, ProbeKind::Readiness];
    pub fn field(self) -> &'static str {
        match self {
            ProbeKind::Startup => "startupProbe",
            ProbeKind::Liveness => "livenessProbe",
            ProbeKind::Readiness => "readinessProbe",
        }
    }
    /// `Liveness`, as the event texts say it.
    pub fn word(self) -> &'static str {
        match self {
            ProbeKind::Startup => "Startup",
            ProbeKind::Liveness => "Liveness",
            ProbeKind::Readiness => "Readiness",
        }
    }
}

/// A probe's handler.
#[derive(Clone, Debug, PartialEq)]
pub enum Handler {
    Http { path: String, port: u16, scheme: String },
    Tcp { port: u16 },
    Exec { command: Vec<String> },
    Grpc { port: u16 },
}

/// One probe of a container, as the spec sets it (defaults already applied by the API server).
#[derive(Clone, Debug, PartialEq)]
pub struct Probe {
    pub kind: ProbeKind,
    pub handler: Handler,
    pub initial_delay_ms: i64,
    pub period_ms: i64,
    pub success_threshold: i64,
    pub failure_threshold: i64,
}

/// The probes of a container spec; a named port resolves through the container's ports.
pub fn probes_of(container: &Value) -> Vec<Probe> {
    let port_of = |v: Option<&Value>| -> u16 {
        match v {
            Some(Value::Number(n)) => n.as_u64().unwrap_or(0) as u16,
            Some(Value::String(name)) => meta::get(container, &["ports"])
                .and_then(Value::as_array)
                .and_then(|ps| ps.iter().find(|p| meta::get_str(p, &["name"]) == name))
                .and_then(|p| meta::get_i64(p, &["containerPort"]))
                .unwrap_or(0) as u16,
            _ => 0,
        }
    };
    let secs = |p: &Value, k: &str, d: i64| meta::get_i64(p, &[k]).unwrap_or(d);
    ProbeKind::ALL
        .iter()
        .filter_map(|kind| {
            let p = meta::get(container, &[kind.field()]).filter(|p| p.is_object())?;
            let handler = if let Some(h) = meta::get(p, &["httpGet"]) {
                Handler::Http { path: meta::get_str(h, &["path"]).to_string(), port: port_of(h.get("port")), scheme: meta::get_str(h, &["scheme"]).to_lowercase() }
            } else if let Some(t) = meta::get(p, &["tcpSocket"]) {
                Handler::Tcp { port: port_of(t.get("port")) }
            } else if let Some(e) = meta::get(p, &["exec"]) {
                Handler::Exec { command: meta::get(e, &["command"]).and_then(Value::as_array).map(|a| a.iter().filter_map(|x| x.as_str().map(String::from)).collect()).unwrap_or_default() }
            } else if let Some(g) = meta::get(p, &["grpc"]) {
                Handler::Grpc { port: port_of(g.get("port")) }
            } else {
                return None;
            };
            Some(Probe {
                kind: *kind,
                handler,
                initial_delay_ms: secs(p, "initialDelaySeconds", 0) * 1000,
                period_ms: secs(p, "periodSeconds", 10).max(1) * 1000,
                success_threshold: secs(p, "successThreshold", 1).max(1),
                failure_threshold: secs(p, "failureThreshold", 3).max(1),
            })
        })
        .collect()
}

/// Runs a probe against what the container shows `since_ms` after it started. `Err` carries
/// the text upstream's prober puts after `Liveness probe failed: `.
pub fn run(handler: &Handler, surface: &Surface, pod_ip: &str, since_ms: i64) -> Result<(), String> {
    let refused = |port: u16| format!("dial tcp {}:{}: connect: connection refused", pod_ip, port);
    match handler {
        Handler::Http { path, port, scheme } => {
            let url = format!("{}://{}:{}{}", if scheme.is_empty() { "http" } else { scheme }, pod_ip, port, path);
            if !surface.ports.contains(port) {
                return Err(format!("Get \"{}\": {}", url, refused(*port)));
            }
            if let Some(app) = &surface.app {
                let code = app.http_status(path, since_ms);
                return if (200..400).contains(&code) { Ok(()) } else { Err(format!("HTTP probe failed with statuscode: {}", code)) };
            }
            match &surface.http {
                None => Err(format!("Get \"{}\": net/http: HTTP/1.x transport connection broken: malformed HTTP response", url)),
                Some(None) => Ok(()),
                Some(Some(ok)) if ok.contains(&path.as_str()) || path.is_empty() => Ok(()),
                Some(Some(_)) => Err("HTTP probe failed with statuscode: 404".to_string()),
            }
        }
        Handler::Tcp { port } | Handler::Grpc { port } => {
            if surface.ports.contains(port) {
                Ok(())
            } else {
                Err(refused(*port))
            }
        }
        Handler::Exec { command } => {
            let words: Vec<&str> = command.iter().map(String::as_str).collect();
            // `sh -c "cat /tmp/healthy"` or the words themselves
            let line = match words.as_slice() {
                [sh, "-c", script, ..] if sh.ends_with("sh") => script.to_string(),
                _ => words.join(" "),
            };
            let parts: Vec<&str> = line.split_whitespace().collect();
            match parts.as_slice() {
                ["cat", file, ..] | ["test", "-f", file] | ["test", "-e", file] | ["ls", file] => {
                    if surface.file_exists(file, since_ms) {
                        Ok(())
                    } else if parts[0] == "cat" {
                        Err(format!("cat: can't open '{}': No such file or directory\n", file))
                    } else if parts[0] == "ls" {
                        Err(format!("ls: {}: No such file or directory\n", file))
                    } else {
                        Err(String::new())
                    }
                }
                ["false"] | ["exit", "1"] => Err(String::new()),
                // anything else the image runs (pg_isready, redis-cli ping, true…) succeeds
                _ => Ok(()),
            }
        }
    }
}

/// When a container started at `container_start_ms` is first probed by a worker that started at
/// `worker_start_ms` (see the module docs).
pub fn first_probe_at(probe: &Probe, worker_start_ms: i64, container_start_ms: i64) -> i64 {
    if probe.kind == ProbeKind::Readiness && probe.initial_delay_ms == 0 {
        return container_start_ms;
    }
    let earliest = container_start_ms + probe.initial_delay_ms;
    if earliest <= worker_start_ms {
        return worker_start_ms;
    }
    let period = probe.period_ms.max(1);
    let ticks = (earliest - worker_start_ms + period - 1) / period;
    worker_start_ms + ticks * period
}

/// A probe worker's state (`worker.go`): consecutive results and the last result it set.
#[derive(Clone, Debug, PartialEq)]
pub struct Worker {
    pub probe: Probe,
    /// the result the worker reports: readiness starts Failure, liveness Success, startup Unknown
    pub result: Option<bool>,
    last: Option<bool>,
    run: i64,
    /// probes run so far (the early ones are foreground work for `sim settle`)
    pub count: i64,
    /// liveness/startup failed: on hold until the container restarts
    pub on_hold: bool,
}

impl Worker {
    /// A new kubelet's worker for a container that already runs: the initial result again (its
    /// ticks go on).
    pub fn forget_result(&mut self) {
        let fresh = Worker::new(self.probe.clone());
        self.result = fresh.result;
        self.last = None;
    }

    pub fn new(probe: Probe) -> Worker {
        let result = match probe.kind {
            ProbeKind::Readiness => Some(false),
            ProbeKind::Liveness => Some(true),
            ProbeKind::Startup => None,
        };
        Worker { probe, result, last: None, run: 0, count: 0, on_hold: false }
    }

    /// Records one probe's outcome; returns true when the reported result flipped.
    pub fn observe(&mut self, ok: bool) -> bool {
        self.count += 1;
        if self.last == Some(ok) {
            self.run += 1;
        } else {
            self.last = Some(ok);
            self.run = 1;
        }
        let threshold = if ok { self.probe.success_threshold } else { self.probe.failure_threshold };
        if self.run < threshold || self.result == Some(ok) {
            return false;
        }
        self.result = Some(ok);
        if !ok && self.probe.kind != ProbeKind::Readiness {
            self.on_hold = true;
        }
        true
    }

    /// A new container: results start again.
    pub fn reset(&mut self) {
        *self = Worker::new(self.probe.clone());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The first probe: the first worker tick at or after the initial delay; readiness without a
    /// delay at once.
    #[test]
    fn first_probe_table() {
        let probe = |kind, delay_s: i64, period_s: i64| Probe { kind, handler: Handler::Tcp { port: 80 }, initial_delay_ms: delay_s * 1000, period_ms: period_s * 1000, success_threshold: 1, failure_threshold: 3 };
        // (name, probe, worker start, container start, first probe)
        let cases = [
            ("liveness, no delay: the next tick", probe(ProbeKind::Liveness, 0, 10), 1_000, 4_500, 11_000),
            ("liveness, delay 5 s, period 10 s", probe(ProbeKind::Liveness, 5, 10), 1_000, 4_500, 11_000),
            ("liveness, delay 15 s: two ticks later", probe(ProbeKind::Liveness, 15, 10), 1_000, 4_500, 21_000),
            ("a tick exactly at the delay", probe(ProbeKind::Liveness, 3, 1), 0, 2_000, 5_000),
            ("readiness, no delay: at once", probe(ProbeKind::Readiness, 0, 10), 1_000, 4_500, 4_500),
            ("readiness, delay 5 s", probe(ProbeKind::Readiness, 5, 5), 1_000, 4_500, 11_000),
            ("startup, no delay: the next tick", probe(ProbeKind::Startup, 0, 2), 0, 3_100, 4_000),
            ("a restart on the same ticks", probe(ProbeKind::Liveness, 0, 10), 1_000, 64_200, 71_000),
        ];
        for (name, p, worker, start, want) in cases {
            assert_eq!(first_probe_at(&p, worker, start), want, "{}", name);
        }
    }

    /// When a probe's result flips: after failureThreshold failures or successThreshold
    /// successes in a row, from each type's initial result.
    #[test]
    fn probe_timing_table() {
        let probe = |kind, success_threshold, failure_threshold| Probe {
            kind,
            handler: Handler::Tcp { port: 80 },
            initial_delay_ms: 0,
            period_ms: 10_000,
            success_threshold,
            failure_threshold,
        };
        // (name, probe, outcomes, the index at which the result flips, the final result)
        let cases: Vec<(&str, Probe, Vec<bool>, Vec<usize>, Option<bool>)> = vec![
            ("readiness: first success makes it ready", probe(ProbeKind::Readiness, 1, 3), vec![true, true], vec![0], Some(true)),
            ("readiness: three failures make it unready", probe(ProbeKind::Readiness, 1, 3), vec![true, false, false, false], vec![0, 3], Some(false)),
            ("readiness: a success resets the failures", probe(ProbeKind::Readiness, 1, 3), vec![true, false, false, true, false, false], vec![0], Some(true)),
            ("readiness: successThreshold 2", probe(ProbeKind::Readiness, 2, 3), vec![true, false, true, true], vec![3], Some(true)),
            ("liveness: three failures in a row", probe(ProbeKind::Liveness, 1, 3), vec![false, false, false], vec![2], Some(false)),
            ("liveness: failureThreshold 1", probe(ProbeKind::Liveness, 1, 1), vec![true, false], vec![1], Some(false)),
            ("startup: unknown until it succeeds", probe(ProbeKind::Startup, 1, 3), vec![false, false, true], vec![2], Some(true)),
        ];
        for (name, p, outcomes, flips, result) in cases {
            let mut w = Worker::new(p);
            let got: Vec<usize> = outcomes.iter().enumerate().filter_map(|(i, ok)| w.observe(*ok).then_some(i)).collect();
            assert_eq!(got, flips, "{}", name);
            assert_eq!(w.result, result, "{}", name);
        }
    }

    #[test]
    fn handlers_table() {
        let nginx = Surface::of("nginx:1.25", &[], &[]);
        let ip = "10.244.1.5";
        let http = |path: &str, port: u16| Handler::Http { path: path.into(), port, scheme: String::new() };
        assert_eq!(run(&http("/", 80), &nginx, ip, 0), Ok(()));
        assert_eq!(run(&http("/healthz", 80), &nginx, ip, 0), Err("HTTP probe failed with statuscode: 404".into()));
        assert_eq!(run(&http("/healthz", 8080), &nginx, ip, 0), Err("Get \"http://10.244.1.5:8080/healthz\": dial tcp 10.244.1.5:8080: connect: connection refused".into()));
        assert_eq!(run(&Handler::Tcp { port: 3306 }, &nginx, ip, 0), Err("dial tcp 10.244.1.5:3306: connect: connection refused".into()));
        let docs = Surface::of("busybox:1.36", &[], &["/bin/sh".into(), "-c".into(), "touch /tmp/healthy; sleep 30; rm -f /tmp/healthy; sleep 600".into()]);
        let cat = Handler::Exec { command: vec!["cat".into(), "/tmp/healthy".into()] };
        assert_eq!(run(&cat, &docs, ip, 10_000), Ok(()));
        assert_eq!(run(&cat, &docs, ip, 35_000), Err("cat: can't open '/tmp/healthy': No such file or directory\n".into()));
        // named ports resolve through the container's ports
        let c = json!({"ports": [{"name": "http", "containerPort": 80}], "readinessProbe": {"httpGet": {"path": "/", "port": "http"}, "periodSeconds": 5}});
        let ps = probes_of(&c);
        assert_eq!(ps.len(), 1);
        assert_eq!((ps[0].handler.clone(), ps[0].period_ms, ps[0].failure_threshold), (http("/", 80), 5_000, 3));
    }
}
