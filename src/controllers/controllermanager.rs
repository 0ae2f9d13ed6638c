//! kube-controller-manager's process: leader election, then the controllers.
//!
//! Real counterpart: `cmd/kube-controller-manager/app/controllermanager.go` (`Run`: with
//! `--leader-elect`, `leaderelection.RunOrDie` on the Lease `kube-system/kube-controller-manager`;
//! `OnStartedLeading` → `run`: build the controller context, start every controller and the
//! shared informers; `OnStoppedLeading` → `klog.ErrorS(nil, "leaderelection lost")` and exit).
//!
//! In kubesim this component is the process's leader-election client; the controllers are
//! components of their own, installed with [`Cluster::add_process`](crate::cluster::Cluster::add_process)
//! so that the cluster starts them when this one calls `started_leading` (they share a process,
//! not memory: they still talk only through the API server). Restarting `kube-controller-manager`
//! restarts them all, and the new process waits for the old one's Lease to expire.
//!
//! What kubesim simplifies: the process starts at once after a crash (upstream: kubelet restarts
//! the static Pod's container, with its crash-loop back-off after repeated exits).

use crate::api::request::Identity;
use crate::client::leaderelection::{Election, Step};
use crate::cluster::{self, Component};
use crate::trace::Actor;

/// The elector's timers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Timer {
    /// The next try to acquire the Lease (`acquire`'s `JitterUntil`).
    Acquire,
    /// The next renewal (`renew`'s `wait.Until(RetryPeriod)`).
    Renew,
}

impl std::fmt::Display for Timer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Timer::Acquire => f.write_str("leader-election:acquire"),
            Timer::Renew => f.write_str("leader-election:renew"),
        }
    }
}

type Ctx<'a> = cluster::Ctx<'a, Timer>;
type Input = cluster::Input<Timer>;

/// kube-controller-manager's leader-election client.
pub struct ControllerManager {
    election: Option<Election>,
}

impl Default for ControllerManager {
    fn default() -> Self {
        ControllerManager { election: None }
    }
}

impl ControllerManager {
    /// The elector, made at the process's start (`process`: the message that started it, which
    /// tells two processes started at the same instant apart).
    fn election(&mut self, now: i64, process: u64) -> &mut Election {
        self.election.get_or_insert_with(|| Election::new("kube-controller-manager", "kube-controller-manager", now, process))
    }
}

impl Component for ControllerManager {
    type Timer = Timer;

    fn restarted(&self) -> Option<Self> {
        Some(Self::default())
    }

    fn actor(&self) -> Actor {
        Actor::ControllerManager
    }

    fn identity(&self) -> Identity {
        Identity {
            username: "system:kube-controller-manager".into(),
            uid: String::new(),
            groups: vec!["system:authenticated".into()],
            // its Events go out with this agent; the Lease requests add `/leader-election`
            user_agent: format!("kube-controller-manager/{} (linux/amd64) kubernetes/{}/kube-controller-manager", crate::KUBE_VERSION, crate::KUBE_COMMIT),
            source_ip: "192.168.49.2".into(),
            impersonate: None,
        }
    }

    fn start(&mut self, ctx: &mut Ctx) {
        let (now, process) = (ctx.now, ctx.cause.unwrap_or(0));
        if self.election(now, process).acquire(ctx, Timer::Acquire, Timer::Renew) == Step::StartedLeading {
            ctx.started_leading();
        }
    }

    fn handle(&mut self, ctx: &mut Ctx, input: Input) {
        let (now, process) = (ctx.now, ctx.cause.unwrap_or(0));
        match input {
            Input::Timer(Timer::Acquire) => {
                if self.election(now, process).acquire(ctx, Timer::Acquire, Timer::Renew) == Step::StartedLeading {
                    ctx.started_leading();
                }
            }
            Input::Timer(Timer::Renew) => {
                if self.election(now, process).renew(ctx, Timer::Renew) == Step::Lost {
                    ctx.exit_process();
                }
            }
            Input::Watch { .. } => {}
        }
    }
}
