//! Container lifecycle hooks: the `preStop` handler the kubelet runs before it stops a container.
//!
//! Real counterparts: `pkg/kubelet/lifecycle/handlers.go` (`HandlerRunner.Run`: `exec` through the
//! runtime's ExecSync, `httpGet` from the kubelet, `sleep`) and `kuberuntime/kuberuntime_container.go`
//! (`killContainer`, `executePreStopHook`): the `Killing` event first, then the hook, which may use
//! the whole grace period; the container gets SIGTERM when the hook returns, with what is left of
//! the grace period (whole seconds, at least `minimumGracePeriodInSeconds` = 2) before SIGKILL.
//! A failed hook records `FailedPreStopHook` with the fixed message `PreStopHook failed` (the
//! output is not put in the Event, so secrets do not leak).
//!
//! What kubesim simplifies: an `exec` hook runs as the image catalogue reads a script (`sleep 5`
//! takes five seconds, `exit 1` fails); an `httpGet` hook answers at once, as the container's probe
//! surface would; `postStart` hooks are not run.

use super::prober::{self, Handler};
use crate::api::meta;
use crate::runtime::{self, program::Surface};
use serde_json::Value;

/// A `lifecycle.preStop` handler.
#[derive(Clone, Debug, PartialEq)]
pub enum Hook {
    Exec { command: Vec<String> },
    Http { path: String, port: u16, scheme: String },
    Sleep { ms: i64 },
}

/// Minimum time between SIGTERM and SIGKILL after a hook (`minimumGracePeriodInSeconds`).
pub const MINIMUM_GRACE_PERIOD_MS: i64 = 2_000;
/// How long an `httpGet` hook takes.
const HTTP_HOOK_MS: i64 = 5;

/// The container's `lifecycle.preStop`, if it has one.
pub fn pre_stop_of(container: &Value) -> Option<Hook> {
    let h = meta::get(container, &["lifecycle", "preStop"]).filter(|h| h.is_object())?;
    if let Some(e) = h.get("exec") {
        let command = meta::get(e, &["command"]).and_then(Value::as_array).map(|a| a.iter().filter_map(|x| x.as_str().map(String::from)).collect()).unwrap_or_default();
        return Some(Hook::Exec { command });
    }
    if let Some(g) = h.get("httpGet") {
        let port = match g.get("port") {
            Some(Value::Number(n)) => n.as_u64().unwrap_or(0) as u16,
            Some(Value::String(name)) => meta::get(container, &["ports"])
                .and_then(Value::as_array)
                .and_then(|ps| ps.iter().find(|p| meta::get_str(p, &["name"]) == name))
                .and_then(|p| meta::get_i64(p, &["containerPort"]))
                .unwrap_or(0) as u16,
            _ => 0,
        };
        return Some(Hook::Http { path: meta::get_str(g, &["path"]).to_string(), port, scheme: meta::get_str(g, &["scheme"]).to_lowercase() });
    }
    if let Some(s) = h.get("sleep") {
        return Some(Hook::Sleep { ms: meta::get_i64(s, &["seconds"]).unwrap_or(0).max(0) * 1000 });
    }
    None
}

/// `HandlerRunner.Run`: how long the hook runs and whether it succeeds. A hook that never returns
/// (`sleep infinity`, a server) runs for `i64::MAX` and is cut off by the grace period.
pub fn run(hook: &Hook, surface: &Surface, pod_ip: &str, since_ms: i64) -> (i64, bool) {
    match hook {
        Hook::Sleep { ms } => (*ms, true),
        Hook::Http { path, port, scheme } => {
            let h = Handler::Http { path: path.clone(), port: *port, scheme: scheme.clone() };
            (HTTP_HOOK_MS, prober::run(&h, surface, pod_ip, since_ms).is_ok())
        }
        Hook::Exec { command } => match runtime::program::behavior("", command, &[]) {
            runtime::Behavior::Exit { after_ms, code, .. } => (after_ms, code == 0),
            runtime::Behavior::Serve { .. } => (i64::MAX, true),
        },
    }
}

/// `killContainer`'s arithmetic: when (after the kill starts) SIGTERM is sent, and how long the
/// container then has before SIGKILL. `grace_ms` is the pod's grace period.
pub fn kill_schedule(hook_ms: Option<i64>, grace_ms: i64) -> (i64, i64) {
    match hook_ms {
        Some(ms) if grace_ms > 0 => {
            let used = ms.min(grace_ms);
            // gracePeriod - int64(elapsed.Seconds()): whole seconds
            let left = ((grace_ms / 1000 - used / 1000) * 1000).max(MINIMUM_GRACE_PERIOD_MS);
            (used, left)
        }
        _ => (0, grace_ms.max(MINIMUM_GRACE_PERIOD_MS)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn pre_stop_handlers_table() {
        let c = json!({"ports": [{"name": "http", "containerPort": 8080}], "lifecycle": {"preStop": {"httpGet": {"path": "/drain", "port": "http"}}}});
        assert_eq!(pre_stop_of(&c), Some(Hook::Http { path: "/drain".into(), port: 8080, scheme: String::new() }));
        let c = json!({"lifecycle": {"preStop": {"exec": {"command": ["/bin/sh", "-c", "sleep 5"]}}}});
        let hook = pre_stop_of(&c).expect("exec hook");
        // the catalogue gives every process 20 ms to start and exit
        assert_eq!(run(&hook, &Surface::default(), "10.0.0.1", 0), (5_020, true), "sleep 5 takes 5 s");
        let c = json!({"lifecycle": {"preStop": {"exec": {"command": ["sh", "-c", "exit 1"]}}}});
        assert!(!run(&pre_stop_of(&c).expect("hook"), &Surface::default(), "10.0.0.1", 0).1, "exit 1 fails");
        let c = json!({"lifecycle": {"preStop": {"sleep": {"seconds": 10}}}});
        assert_eq!(pre_stop_of(&c), Some(Hook::Sleep { ms: 10_000 }));
        assert_eq!(pre_stop_of(&json!({"lifecycle": {}})), None);
    }

    /// `killContainer`: the hook eats into the grace period (whole seconds), SIGKILL at least 2 s
    /// after SIGTERM.
    #[test]
    fn kill_schedule_table() {
        let cases = [
            ("no hook", None, 30_000, (0, 30_000)),
            ("5 s hook of 30", Some(5_000), 30_000, (5_000, 25_000)),
            ("5.5 s hook: 24 whole seconds left", Some(5_500), 30_000, (5_500, 25_000)),
            ("hook longer than grace", Some(60_000), 30_000, (30_000, 2_000)),
            ("hook that never returns", Some(i64::MAX), 30_000, (30_000, 2_000)),
            ("grace 0: no hook time", Some(5_000), 0, (0, 2_000)),
        ];
        for (name, hook, grace, want) in cases {
            assert_eq!(kill_schedule(hook, grace), want, "{}", name);
        }
    }
}
