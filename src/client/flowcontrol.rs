//! client-go's client-side rate limiter: each REST client's token bucket, with the QPS and burst
//! each component of a v1.34 cluster gives its clients.
//!
//! Real counterparts: `staging/src/k8s.io/client-go/util/flowcontrol/throttle.go`
//! (`NewTokenBucketRateLimiter` over `golang.org/x/time/rate`: a bucket of `burst` tokens
//! refilled at `qps`; `Wait` reserves a token and sleeps until it is due, so waiting requests
//! queue behind each other), `rest/request.go` (`tryThrottle`: every request of a client waits on
//! its limiter before it is sent), `kubernetes.NewForConfig` (one limiter per clientset, made from
//! the config's QPS and burst when it carries none) and the components' defaults:
//! kube-controller-manager 20/30 (`pkg/controller/apis/config/v1alpha1/defaults.go`, each
//! controller has its own clientset from the client builder), kube-scheduler and the kubelet 50/100
//! (`pkg/scheduler/apis/config/v1/defaults.go`, `pkg/kubelet/apis/config/v1beta1/defaults.go`:
//! `kubeAPIQPS`/`kubeAPIBurst`; the kubelet's Event client has `eventRecordQPS` 50 and
//! `eventBurst` 100 and its heartbeat client — the node Lease and node status — no limiter,
//! `cmd/kubelet/app/server.go`), kube-proxy 5/10 (`pkg/proxy/apis/config/v1alpha1/defaults.go`)
//! and client-go's own 5/10 (`rest.DefaultQPS`, `DefaultBurst`) for clients that set nothing
//! (CoreDNS, minikube's storage-provisioner).
//!
//! What kubesim simplifies: a component waiting for its token holds up the cluster's one virtual
//! clock, as its round trips do (the components take turns; in a real cluster the scheduler
//! binds Pods while the replicaset controller waits for its tokens); a bucket is kept in integer
//! microseconds of the virtual clock (the
//! "theoretical arrival time" form of the same bucket, which `rate.Limiter`'s reservations
//! amount to); the informers' LIST and WATCH and the leader-election client (their own
//! clientsets, a few requests each) are not throttled; kubectl, which the learner drives, is not
//! throttled either (its 5 QPS after a burst of 10 would only slow a long `apply`).

use crate::api::request::RequestInfo;
use crate::trace::Actor;

/// A client's QPS and burst (`rest.Config.QPS`, `Burst`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    pub qps: u32,
    pub burst: u32,
}

/// kube-controller-manager's `--kube-api-qps` / `--kube-api-burst` defaults.
pub const CONTROLLER_MANAGER: Limits = Limits { qps: 20, burst: 30 };
/// kube-scheduler's `clientConnection` defaults.
pub const SCHEDULER: Limits = Limits { qps: 50, burst: 100 };
/// The kubelet's `kubeAPIQPS` / `kubeAPIBurst`.
pub const KUBELET: Limits = Limits { qps: 50, burst: 100 };
/// The kubelet's Event client: `eventRecordQPS` / `eventBurst`.
pub const KUBELET_EVENTS: Limits = Limits { qps: 50, burst: 100 };
/// kube-proxy's `clientConnection` defaults.
pub const KUBE_PROXY: Limits = Limits { qps: 5, burst: 10 };
/// client-go's defaults for a config that sets none (`rest.DefaultQPS`, `rest.DefaultBurst`).
pub const CLIENT_GO_DEFAULT: Limits = Limits { qps: 5, burst: 10 };

/// Which of a process's clients a request goes through.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Client {
    /// The component's own clientset.
    Main,
    /// The kubelet's Event client.
    Events,
    /// The kubelet's heartbeat client (node Lease, node status): no limiter.
    Heartbeat,
}

/// The limits of a component's main client.
pub fn limits_of(actor: &Actor) -> Limits {
    match actor {
        Actor::Kubelet(_) => KUBELET,
        Actor::Scheduler => SCHEDULER,
        Actor::KubeProxy(_) => KUBE_PROXY,
        Actor::CoreDns | Actor::StorageProvisioner => CLIENT_GO_DEFAULT,
        // every kube-controller-manager controller (and its leader-election client)
        _ => CONTROLLER_MANAGER,
    }
}

/// The client a request of `actor` for `resource`/`subresource` (the request info's) goes
/// through: the kubelet sends its Events through its Event client and its node Lease and node
/// status through its heartbeat client; every other component has one clientset (its Event
/// broadcaster writes through it too).
pub fn client_of(actor: &Actor, resource: &str, subresource: &str) -> Client {
    match (actor, resource, subresource) {
        (Actor::Kubelet(_), "events", _) => Client::Events,
        (Actor::Kubelet(_), "leases", _) | (Actor::Kubelet(_), "nodes", "status") => Client::Heartbeat,
        _ => Client::Main,
    }
}

/// One token bucket (`tokenBucketRateLimiter`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TokenBucket {
    /// Microseconds between two tokens (1 s / QPS).
    interval_us: i64,
    burst: i64,
    /// When the bucket would next be empty, given the tokens taken so far ("theoretical arrival
    /// time"); at or before now the bucket is full.
    tat_us: i64,
}

impl TokenBucket {
    pub fn new(l: Limits) -> TokenBucket {
        TokenBucket { interval_us: 1_000_000 / l.qps.max(1) as i64, burst: l.burst.max(1) as i64, tat_us: i64::MIN / 2 }
    }

    /// `Wait`: takes a token for a request at `now_ms` and returns how long the request waits for
    /// it (0 while the burst lasts), in whole virtual milliseconds.
    pub fn take(&mut self, now_ms: i64) -> i64 {
        let now = now_ms.saturating_mul(1000);
        let tat = self.tat_us.max(now) + self.interval_us;
        self.tat_us = tat;
        let wait_us = tat - now - self.burst * self.interval_us;
        if wait_us <= 0 {
            0
        } else {
            (wait_us + 999) / 1000
        }
    }
}

/// The limiters of one process's clients.
#[derive(Clone, Debug)]
pub struct Limiters {
    main: TokenBucket,
    events: TokenBucket,
}

impl Limiters {
    pub fn for_actor(actor: &Actor) -> Limiters {
        Limiters { main: TokenBucket::new(limits_of(actor)), events: TokenBucket::new(KUBELET_EVENTS) }
    }

    /// The wait of a request of `actor` with request info `info` sent at `now_ms` (0 for the
    /// heartbeat client, which has no limiter).
    pub fn take(&mut self, actor: &Actor, info: &RequestInfo, now_ms: i64) -> i64 {
        match client_of(actor, &info.resource, &info.subresource) {
            Client::Main => self.main.take(now_ms),
            Client::Events => self.events.take(now_ms),
            Client::Heartbeat => 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::request::Method;

    #[test]
    fn burst_then_one_token_per_interval() {
        // 20 qps, burst 30: 30 requests at once, then one every 50 ms
        let mut b = TokenBucket::new(CONTROLLER_MANAGER);
        let waits: Vec<i64> = (0..33).map(|_| b.take(1000)).collect();
        assert!(waits[..30].iter().all(|w| *w == 0), "{:?}", waits);
        assert_eq!(&waits[30..], &[50, 100, 150]);
    }

    #[test]
    fn the_bucket_refills_at_qps() {
        let mut b = TokenBucket::new(KUBE_PROXY);
        for _ in 0..10 {
            assert_eq!(b.take(0), 0);
        }
        assert_eq!(b.take(0), 200);
        // 1 s later five tokens are back, less the one the waiting request took
        let mut b = TokenBucket::new(KUBE_PROXY);
        for _ in 0..10 {
            b.take(0);
        }
        let free = (0..10).take_while(|_| b.take(1000) == 0).count();
        assert_eq!(free, 5);
    }

    #[test]
    fn the_kubelets_heartbeats_are_not_throttled() {
        let node = Actor::Kubelet("node-1".into());
        let mut l = Limiters::for_actor(&node);
        let info = |method, uri| RequestInfo::parse(method, uri);
        let lease = info(Method::Put, "/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/node-1");
        let status = info(Method::Patch, "/api/v1/nodes/node-1/status?fieldManager=kubelet");
        assert!((0..1000).all(|_| l.take(&node, &lease, 0) == 0 && l.take(&node, &status, 0) == 0));
        let client = |actor: &Actor, method, uri| {
            let i = info(method, uri);
            client_of(actor, &i.resource, &i.subresource)
        };
        assert_eq!(client(&node, Method::Post, "/api/v1/namespaces/default/events"), Client::Events);
        assert_eq!(client(&node, Method::Patch, "/apis/events.k8s.io/v1/namespaces/default/events/x"), Client::Events);
        assert_eq!(client(&node, Method::Post, "/api/v1/nodes"), Client::Main);
        assert_eq!(client(&node, Method::Get, "/api/v1/nodes/node-1"), Client::Main);
        assert_eq!(client(&node, Method::Patch, "/api/v1/namespaces/default/pods/web/status"), Client::Main);
        assert_eq!(client(&Actor::ReplicaSetController, Method::Post, "/api/v1/namespaces/default/events"), Client::Main);
        assert_eq!(limits_of(&Actor::ReplicaSetController), Limits { qps: 20, burst: 30 });
    }
}
