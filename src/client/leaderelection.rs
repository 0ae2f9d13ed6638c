//! Leader election with a Lease lock, as kube-controller-manager and kube-scheduler run it.
//!
//! Real counterparts: `staging/src/k8s.io/client-go/tools/leaderelection/leaderelection.go`
//! (`LeaderElector`: `acquire`, `renew`, `tryAcquireOrRenew`, `isLeaseValid`) and
//! `resourcelock/leaselock.go` (`LeaseLock`: `Get`, `Create`, `Update`, `RecordEvent`). With
//! `--leader-elect` (kubeadm's default) each component holds a Lease in `kube-system` named after
//! itself: LeaseDuration 15 s, RenewDeadline 10 s, RetryPeriod 2 s.
//!
//! - **Acquire** (`tryAcquireOrRenew`, slow path): GET the Lease; if there is none, CREATE it with
//!   this identity. If another identity holds it, the lease is valid while the *observed* record
//!   is younger than `leaseDurationSeconds` — counted from when this process first saw that
//!   record, not from its `renewTime` (clocks are not compared across machines) — so a new process
//!   waits a full lease duration after its first GET. Then UPDATE it: new holder, `acquireTime`
//!   now, `leaseTransitions` + 1. Tries are `JitterUntil(RetryPeriod, 1.2)` apart: 2 to 4.4 s.
//! - **Renew** (the leader's fast path): UPDATE the Lease last written (its resourceVersion makes it
//!   optimistic) with `renewTime` now, every RetryPeriod. On failure, the slow path; when renewals
//!   fail for RenewDeadline, leadership is lost and the process exits.
//! - On winning, the Event `LeaderElection` "IDENTITY became leader" about the Lease.
//!
//! What kubesim simplifies: a crashed process never releases its Lease (neither does upstream on
//! a crash; `ReleaseOnCancel` only matters on a clean shutdown, which kubesim does not simulate);
//! the identity's UUID is derived from the Lease's name and the time, not drawn at random, so
//! that electing a leader does not move the cluster's random sequence.

use super::Recorder;
use crate::api::request::Method;
use crate::api::{meta, time};
use crate::cluster::Ctx;
use serde_json::{json, Value};
use std::fmt;

/// `--leader-elect-lease-duration`, `--leader-elect-renew-deadline`, `--leader-elect-retry-period`
/// (component-base's defaults for kube-controller-manager and kube-scheduler).
pub const LEASE_DURATION_SECONDS: i64 = 15;
pub const RENEW_DEADLINE_MS: i64 = 10_000;
pub const RETRY_PERIOD_MS: i64 = 2_000;
/// `JitterFactor` of the acquire loop: a try waits RetryPeriod × [1, 2.2).
pub const JITTER_FACTOR: f64 = 1.2;
/// The control plane's host name (kubeadm's node name for it): identities are `HOST_UUID`.
pub const CONTROL_PLANE_HOST: &str = "control-plane";

/// The Lease's spec as `LeaderElectionRecord` reads it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    pub holder: String,
    pub lease_duration_seconds: i64,
    pub acquire_time: String,
    pub renew_time: String,
    pub transitions: i64,
}

impl Record {
    fn from_lease(lease: &Value) -> Record {
        Record {
            holder: meta::get_str(lease, &["spec", "holderIdentity"]).to_string(),
            lease_duration_seconds: meta::get_i64(lease, &["spec", "leaseDurationSeconds"]).unwrap_or(0),
            acquire_time: meta::get_str(lease, &["spec", "acquireTime"]).to_string(),
            renew_time: meta::get_str(lease, &["spec", "renewTime"]).to_string(),
            transitions: meta::get_i64(lease, &["spec", "leaseTransitions"]).unwrap_or(0),
        }
    }

    /// `LeaderElectionRecordToLeaseSpec`.
    fn spec(&self) -> Value {
        json!({
            "holderIdentity": self.holder,
            "leaseDurationSeconds": self.lease_duration_seconds,
            "acquireTime": self.acquire_time,
            "renewTime": self.renew_time,
            "leaseTransitions": self.transitions,
        })
    }
}

/// What one `tryAcquireOrRenew` came to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Attempt {
    /// This process leads (it created, took over or renewed the Lease).
    Leading,
    /// Another identity holds a lease that has not expired (as this process has observed it).
    HeldBy(String),
    /// A request failed (an API error).
    Failed,
}

/// One process's elector.
pub struct LeaderElector {
    /// The Lease's name in kube-system.
    pub name: &'static str,
    /// `HOST_UUID`, fixed for the process's life.
    pub identity: String,
    /// The Lease as last read or written: `Update` sends it back with its resourceVersion.
    lease: Option<Value>,
    observed: Option<Record>,
    /// When the observed record last changed (this process's clock).
    observed_time: i64,
    leading: bool,
    recorder: Recorder,
    /// The leader-election client's identity: the process's, user agent `…/leader-election`.
    client: Option<crate::api::request::Identity>,
}

/// A version-4-shaped UUID derived from `seed` (FNV-1a + SplitMix64), not from the cluster's RNG.
fn derived_uuid(seed: &str) -> String {
    crate::sim::uuid_v4(crate::runtime::fnv64(&format!("{}#a", seed)), crate::runtime::fnv64(&format!("{}#b", seed)))
}

impl LeaderElector {
    /// A new process's elector for the Lease `kube-system/NAME`; its Events come from
    /// `event_component`. `process` tells processes started at the same instant apart.
    pub fn new(name: &'static str, event_component: &str, started_at: i64, process: u64) -> LeaderElector {
        let identity = format!("{}_{}", CONTROL_PLANE_HOST, derived_uuid(&format!("{}@{}#{}", name, started_at, process)));
        LeaderElector { name, identity, lease: None, observed: None, observed_time: 0, leading: false, recorder: Recorder::new(event_component, ""), client: None }
    }

    /// `AddUserAgent(cfg, "leader-election")` on the process's own identity.
    fn client<T: fmt::Display + 'static>(&mut self, ctx: &Ctx<T>) -> crate::api::request::Identity {
        self.client
            .get_or_insert_with(|| {
                let mut id = ctx.identity().clone();
                if !id.user_agent.ends_with("/leader-election") {
                    let base = id.user_agent.rsplit_once('/').map(|(b, _)| b.to_string()).unwrap_or_default();
                    id.user_agent = format!("{}/leader-election", base);
                }
                id
            })
            .clone()
    }

    fn send<T: fmt::Display + 'static>(&mut self, ctx: &mut Ctx<T>, method: Method, path: &str, body: Option<Value>) -> crate::api::request::Response {
        let id = self.client(ctx);
        ctx.request_as(&id, crate::api::request::Request::new(method, path, body))
    }

    /// This process leads (it won the Lease and has not lost it).
    pub fn is_leader(&self) -> bool {
        self.leading
    }

    /// `IsLeader()`: the record last observed names this process as holder.
    fn observed_me(&self) -> bool {
        self.observed.as_ref().map(|r| r.holder == self.identity).unwrap_or(false)
    }

    /// `Describe()`: `kube-system/NAME`.
    pub fn describe(&self) -> String {
        format!("kube-system/{}", self.name)
    }

    fn path(&self) -> String {
        format!("/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/{}", self.name)
    }

    /// `isLeaseValid`: the observed record is younger than its lease duration.
    fn is_lease_valid(&self, now: i64) -> bool {
        self.observed.as_ref().map(|r| self.observed_time + r.lease_duration_seconds * 1000 > now).unwrap_or(false)
    }

    fn set_observed(&mut self, r: Record, now: i64) {
        self.observed = Some(r);
        self.observed_time = now;
    }

    /// The wait before the next acquire try: `wait.Jitter(RetryPeriod, 1.2)`.
    pub fn acquire_wait<T: fmt::Display + 'static>(ctx: &mut Ctx<T>) -> i64 {
        RETRY_PERIOD_MS + ctx.rng.below((RETRY_PERIOD_MS as f64 * JITTER_FACTOR) as u64) as i64
    }

    /// `tryAcquireOrRenew`. On winning the Lease (not on a renewal), records `became leader`.
    pub fn try_acquire_or_renew<T: fmt::Display + 'static>(&mut self, ctx: &mut Ctx<T>) -> Attempt {
        let now = time::rfc3339_micro(ctx.now);
        let mut record = Record { holder: self.identity.clone(), lease_duration_seconds: LEASE_DURATION_SECONDS, acquire_time: now.clone(), renew_time: now, transitions: 0 };
        // 1. the leader's fast path: update the Lease it last wrote
        if self.observed_me() && self.is_lease_valid(ctx.now) {
            if let (Some(old), Some(lease)) = (self.observed.clone(), self.lease.clone()) {
                record.acquire_time = old.acquire_time;
                record.transitions = old.transitions;
                if let Some(l) = self.update(ctx, lease, &record) {
                    self.lease = Some(l);
                    self.set_observed(record, ctx.now);
                    return Attempt::Leading;
                }
            }
        }
        // 2. get or create
        let path = self.path();
        let got = self.send(ctx, Method::Get, &path, None);
        if got.code == 404 {
            let lease = json!({
                "apiVersion": "coordination.k8s.io/v1",
                "kind": "Lease",
                "metadata": {"name": self.name, "namespace": "kube-system"},
                "spec": record.spec(),
            });
            let resp = self.send(ctx, Method::Post, "/apis/coordination.k8s.io/v1/namespaces/kube-system/leases", Some(lease));
            if !resp.ok() {
                return Attempt::Failed;
            }
            self.lease = Some(resp.body);
            self.set_observed(record, ctx.now);
            // a leader whose Lease was deleted creates it again in its renew loop: no Event
            return self.led(ctx);
        }
        if !got.ok() {
            return Attempt::Failed;
        }
        // 3. the record as read: a change restarts this process's count of its age
        let old = Record::from_lease(&got.body);
        if self.observed.as_ref() != Some(&old) {
            self.set_observed(old.clone(), ctx.now);
        }
        self.lease = Some(got.body.clone());
        // held by another identity (even one written over this leader's: it loses at its
        // renew deadline, as upstream)
        if !old.holder.is_empty() && self.is_lease_valid(ctx.now) && !self.observed_me() {
            return Attempt::HeldBy(old.holder);
        }
        // 4. take it over (or renew by the slow path)
        if self.observed_me() {
            record.acquire_time = old.acquire_time;
            record.transitions = old.transitions;
        } else {
            record.transitions = old.transitions + 1;
        }
        let Some(l) = self.update(ctx, got.body, &record) else { return Attempt::Failed };
        self.lease = Some(l);
        self.set_observed(record, ctx.now);
        self.led(ctx)
    }

    /// The Lease is this process's: a renewal, or (the first time) the win.
    fn led<T: fmt::Display + 'static>(&mut self, ctx: &mut Ctx<T>) -> Attempt {
        if self.leading {
            Attempt::Leading
        } else {
            self.won(ctx)
        }
    }

    fn won<T: fmt::Display + 'static>(&mut self, ctx: &mut Ctx<T>) -> Attempt {
        self.leading = true;
        // `RecordEvent("became leader")`
        if let Some(lease) = self.lease.clone() {
            let msg = format!("{} became leader", self.identity);
            self.recorder.event(ctx, &lease, None, "Normal", "LeaderElection", &msg);
        }
        Attempt::Leading
    }

    /// `LeaseLock.Update`: PUT the Lease with the new spec; the updated Lease, or None.
    fn update<T: fmt::Display + 'static>(&mut self, ctx: &mut Ctx<T>, mut lease: Value, record: &Record) -> Option<Value> {
        lease["spec"] = record.spec();
        let path = self.path();
        let resp = self.send(ctx, Method::Put, &path, Some(lease));
        resp.ok().then_some(resp.body)
    }

    /// Leadership is lost (renewals failed for RenewDeadline): `renew` ends with
    /// `RecordEvent("stopped leading")`.
    pub fn lose<T: fmt::Display + 'static>(&mut self, ctx: &mut Ctx<T>) {
        self.leading = false;
        if let Some(lease) = self.lease.clone() {
            let msg = format!("{} stopped leading", self.identity);
            self.recorder.event(ctx, &lease, None, "Normal", "LeaderElection", &msg);
        }
    }
}

/// Tries to acquire that keep `sim settle` going; later ones wait in the background (a Lease that
/// can never be taken, under injected API errors, must not hold a settle forever).
pub const FOREGROUND_ACQUIRE_TRIES: u32 = 30;

/// `LeaderElector.Run`'s two loops for one process: `acquire` (try every RetryPeriod, jittered,
/// until the Lease is won) and `renew` (every RetryPeriod; lost after RenewDeadline of failures).
pub struct Election {
    pub elector: LeaderElector,
    tries: u32,
    /// When the current run of failed renewals began (`PollUntilContextTimeout`'s start).
    failing_since: Option<i64>,
}

/// What a tick of the election asks of its process.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Nothing changes.
    Same,
    /// The Lease was won: start leading.
    StartedLeading,
    /// Renewals failed for RenewDeadline: leadership is lost, the process exits.
    Lost,
}

impl Election {
    pub fn new(lease: &'static str, event_component: &str, now: i64, process: u64) -> Election {
        Election { elector: LeaderElector::new(lease, event_component, now, process), tries: 0, failing_since: None }
    }

    /// One try to acquire; arms the next try or the first renewal.
    pub fn acquire<T: std::fmt::Display + Clone + 'static>(&mut self, ctx: &mut Ctx<T>, acquire: T, renew: T) -> Step {
        self.tries += 1;
        match self.elector.try_acquire_or_renew(ctx) {
            Attempt::Leading => {
                // `Run` goes on to `renew`, whose poll tries at once
                ctx.after_background(0, renew);
                Step::StartedLeading
            }
            Attempt::HeldBy(_) | Attempt::Failed => {
                let wait = LeaderElector::acquire_wait(ctx);
                if self.tries < FOREGROUND_ACQUIRE_TRIES {
                    ctx.after(wait, acquire, false);
                } else {
                    ctx.after_background(wait, acquire);
                }
                Step::Same
            }
        }
    }

    /// One renewal; arms the next. Lost when renewals have failed for RenewDeadline.
    pub fn renew<T: std::fmt::Display + Clone + 'static>(&mut self, ctx: &mut Ctx<T>, renew: T) -> Step {
        match self.elector.try_acquire_or_renew(ctx) {
            Attempt::Leading => {
                self.failing_since = None;
                ctx.after_background(RETRY_PERIOD_MS, renew);
                Step::Same
            }
            Attempt::HeldBy(_) | Attempt::Failed => {
                let since = *self.failing_since.get_or_insert(ctx.now);
                if ctx.now - since >= RENEW_DEADLINE_MS {
                    self.elector.lose(ctx);
                    return Step::Lost;
                }
                ctx.after_background(RETRY_PERIOD_MS, renew);
                Step::Same
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identities_are_host_underscore_uuid_and_differ_per_process() {
        let a = LeaderElector::new("kube-controller-manager", "kube-controller-manager", 0, 0);
        let b = LeaderElector::new("kube-controller-manager", "kube-controller-manager", 60_000, 0);
        let c = LeaderElector::new("kube-controller-manager", "kube-controller-manager", 60_000, 7);
        assert_ne!(b.identity, c.identity, "processes started at the same instant differ");
        assert!(a.identity.starts_with("control-plane_"));
        let uuid = &a.identity["control-plane_".len()..];
        assert_eq!(uuid.len(), 36);
        assert_eq!(&uuid[14..15], "4");
        assert_ne!(a.identity, b.identity);
        assert_eq!(a.describe(), "kube-system/kube-controller-manager");
    }
}
