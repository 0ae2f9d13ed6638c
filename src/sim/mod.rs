//! The simulation kernel: virtual clock, seeded RNG, message queue and trace.
//!
//! Kubernetes itself has no such thing — its components are separate processes talking over HTTP.
//! kubesim runs them all in one deterministic loop instead, in the spirit of TigerBeetle's VOPR,
//! turmoil and madsim: time only moves when the kernel says so, randomness comes from one seeded
//! generator, and every interaction between components is written to the [`Trace`] as a
//! [`Message`] that names its sender, receiver, virtual time and the earlier message that caused it.
//!
//! **Architecture invariant:** this module knows nothing about Kubernetes objects. It never reads a
//! wall clock, never prints, never touches the DOM or the file system.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::fmt;

/// Identifier of a message in the trace (its index + 1; 0 is never used).
pub type MsgId = u64;

/// A small, fast, seedable PRNG (SplitMix64). Deterministic across native and wasm targets.
#[derive(Clone, Debug)]
pub struct Rng {
    state: u64,
}

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng { state: seed ^ 0x9E37_79B9_7F4A_7C15 }
    }
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform integer in `0..n` (n > 0), by rejection so there is no modulo bias.
    pub fn below(&mut self, n: u64) -> u64 {
        if n <= 1 {
            return 0;
        }
        let zone = u64::MAX - (u64::MAX % n);
        loop {
            let v = self.next_u64();
            if v < zone {
                return v % n;
            }
        }
    }
    /// A random RFC 4122 version-4 UUID string, as Kubernetes uses for `metadata.uid` and audit IDs.
    pub fn uuid(&mut self) -> String {
        let a = self.next_u64();
        let b = self.next_u64();
        let mut bytes = [0u8; 16];
        bytes[..8].copy_from_slice(&a.to_be_bytes());
        bytes[8..].copy_from_slice(&b.to_be_bytes());
        bytes[6] = (bytes[6] & 0x0f) | 0x40;
        bytes[8] = (bytes[8] & 0x3f) | 0x80;
        let h: String = bytes.iter().map(|b| format!("{:02x}", b)).collect();
        format!("{}-{}-{}-{}-{}", &h[0..8], &h[8..12], &h[12..16], &h[16..20], &h[20..32])
    }
}

/// Who sends or receives a message. These are the boxes on the page's diagram.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Actor {
    Kubectl,
    ApiServer,
    Etcd,
    DeploymentController,
    ReplicaSetController,
    GarbageCollector,
    NodeController,
    Scheduler,
    Kubelet(String),
    Runtime(String),
}

impl Actor {
    /// The label used in the trace and the diagram.
    pub fn name(&self) -> String {
        match self {
            Actor::Kubectl => "kubectl".into(),
            Actor::ApiServer => "kube-apiserver".into(),
            Actor::Etcd => "etcd".into(),
            Actor::DeploymentController => "deployment-controller".into(),
            Actor::ReplicaSetController => "replicaset-controller".into(),
            Actor::GarbageCollector => "garbage-collector".into(),
            Actor::NodeController => "node-controller".into(),
            Actor::Scheduler => "kube-scheduler".into(),
            Actor::Kubelet(n) => format!("kubelet@{}", n),
            Actor::Runtime(n) => format!("containerd@{}", n),
        }
    }
}

impl fmt::Display for Actor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

/// What a message carries.
#[derive(Clone, Debug, PartialEq)]
pub enum MessageKind {
    /// An HTTP request to kube-apiserver. `verb` is the HTTP method, `path` includes the query.
    Request { verb: String, path: String },
    /// The HTTP response to a request; `code` is the status code.
    Response { code: u16, reason: String },
    /// An etcd transaction written by the apiserver's storage layer.
    EtcdTxn { op: String, key: String, revision: i64 },
    /// A watch event delivered by kube-apiserver to a watching component.
    Watch { event_type: String, kind: String, namespace: String, name: String, resource_version: String },
    /// A CRI call from the kubelet to the container runtime.
    Runtime { call: String, detail: String },
    /// A timer firing inside a component (resync, back-off, grace period).
    Timer { what: String },
}

/// One record of the trace: the unit the page animates and the tests compare.
#[derive(Clone, Debug, PartialEq)]
pub struct Message {
    pub id: MsgId,
    pub time_ms: i64,
    pub from: Actor,
    pub to: Actor,
    pub kind: MessageKind,
    pub cause: Option<MsgId>,
}

impl Message {
    /// A short label for the packet drawn on the diagram, e.g. `POST deployments`, `WATCH ADDED ReplicaSet`.
    pub fn label(&self) -> String {
        match &self.kind {
            MessageKind::Request { verb, path } => {
                let p = path.split('?').next().unwrap_or("");
                let segs: Vec<&str> = p.split('/').filter(|s| !s.is_empty()).collect();
                // /api/v1/namespaces/default/pods/x/binding -> "POST pods/binding"
                let mut res = String::new();
                let mut i = if segs.first() == Some(&"api") { 2 } else { 3 };
                if segs.get(i) == Some(&"namespaces") && segs.len() > i + 2 {
                    i += 2;
                }
                if let Some(r) = segs.get(i) {
                    res.push_str(r);
                }
                if let Some(sub) = segs.get(i + 2) {
                    res.push('/');
                    res.push_str(sub);
                }
                let watch = path.contains("watch=true");
                if watch {
                    format!("WATCH {}", res)
                } else {
                    format!("{} {}", verb, res)
                }
            }
            MessageKind::Response { code, .. } => format!("{}", code),
            MessageKind::EtcdTxn { op, key, revision } => format!("{} {} (rev {})", op, key, revision),
            MessageKind::Watch { event_type, kind, .. } => format!("WATCH {} {}", event_type, kind),
            MessageKind::Runtime { call, detail } => {
                if detail.is_empty() {
                    call.clone()
                } else {
                    format!("{} {}", call, detail)
                }
            }
            MessageKind::Timer { what } => format!("timer {}", what),
        }
    }

    /// One fixed-column line for the transcript (`sim trace`).
    pub fn line(&self) -> String {
        let detail = match &self.kind {
            MessageKind::Request { verb, path } => format!("{} {}", verb, path),
            MessageKind::Response { code, reason } => {
                if reason.is_empty() {
                    format!("{}", code)
                } else {
                    format!("{} {}", code, reason)
                }
            }
            MessageKind::EtcdTxn { op, key, revision } => format!("{} {} rev={}", op, key, revision),
            MessageKind::Watch { event_type, kind, namespace, name, resource_version } => {
                let n = if namespace.is_empty() { name.clone() } else { format!("{}/{}", namespace, name) };
                format!("{} {} {} rv={}", event_type, kind, n, resource_version)
            }
            MessageKind::Runtime { call, detail } => format!("{} {}", call, detail).trim_end().to_string(),
            MessageKind::Timer { what } => what.clone(),
        };
        let cause = self.cause.map(|c| format!("#{}", c)).unwrap_or_else(|| "-".into());
        format!(
            "#{:<5} {:>9} {:<22} -> {:<22} {:<6} {}",
            self.id,
            format_ms(self.time_ms),
            self.from.name(),
            self.to.name(),
            cause,
            detail
        )
    }
}

/// Milliseconds since the simulation epoch as `12.345s`.
pub fn format_ms(ms: i64) -> String {
    format!("{}.{:03}s", ms / 1000, (ms % 1000).abs())
}

/// The append-only list of messages.
#[derive(Clone, Debug, Default)]
pub struct Trace {
    messages: Vec<Message>,
    /// Bound on the number of kept messages (older ones are still counted).
    pub limit: usize,
    dropped: u64,
}

impl Trace {
    pub fn new(limit: usize) -> Trace {
        Trace { messages: Vec::new(), limit, dropped: 0 }
    }
    pub fn push(&mut self, time_ms: i64, from: Actor, to: Actor, kind: MessageKind, cause: Option<MsgId>) -> MsgId {
        let id = self.messages.len() as u64 + self.dropped + 1;
        if self.limit > 0 && self.messages.len() >= self.limit {
            // Keep memory bounded in long benchmark runs: drop the oldest half.
            let half = self.messages.len() / 2;
            self.messages.drain(..half);
            self.dropped += half as u64;
        }
        self.messages.push(Message { id, time_ms, from, to, kind, cause });
        id
    }
    pub fn messages(&self) -> &[Message] {
        &self.messages
    }
    pub fn total(&self) -> u64 {
        self.messages.len() as u64 + self.dropped
    }
    pub fn dropped(&self) -> u64 {
        self.dropped
    }
}

/// A priority queue of future deliveries ordered by (time, insertion sequence): ties keep FIFO
/// order, so the run does not depend on heap internals.
#[derive(Debug)]
pub struct Queue<T> {
    heap: BinaryHeap<Reverse<(i64, u64)>>,
    items: std::collections::BTreeMap<u64, T>,
    seq: u64,
}

impl<T> Default for Queue<T> {
    fn default() -> Self {
        Queue { heap: BinaryHeap::new(), items: Default::default(), seq: 0 }
    }
}

impl<T> Queue<T> {
    pub fn push(&mut self, at_ms: i64, item: T) {
        self.seq += 1;
        self.heap.push(Reverse((at_ms, self.seq)));
        self.items.insert(self.seq, item);
    }
    pub fn peek_time(&self) -> Option<i64> {
        self.heap.peek().map(|Reverse((t, _))| *t)
    }
    pub fn pop(&mut self) -> Option<(i64, T)> {
        let Reverse((t, s)) = self.heap.pop()?;
        let item = self.items.remove(&s)?;
        Some((t, item))
    }
    pub fn len(&self) -> usize {
        self.items.len()
    }
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rng_is_deterministic_and_seed_dependent() {
        let mut a = Rng::new(7);
        let mut b = Rng::new(7);
        let mut c = Rng::new(8);
        let va: Vec<u64> = (0..5).map(|_| a.next_u64()).collect();
        let vb: Vec<u64> = (0..5).map(|_| b.next_u64()).collect();
        let vc: Vec<u64> = (0..5).map(|_| c.next_u64()).collect();
        assert_eq!(va, vb);
        assert_ne!(va, vc);
    }

    #[test]
    fn uuid_has_v4_shape() {
        let u = Rng::new(1).uuid();
        assert_eq!(u.len(), 36);
        assert_eq!(&u[14..15], "4");
    }

    #[test]
    fn queue_is_fifo_for_equal_times() {
        let mut q = Queue::default();
        q.push(5, "b");
        q.push(1, "a");
        q.push(5, "c");
        assert_eq!(q.pop(), Some((1, "a")));
        assert_eq!(q.pop(), Some((5, "b")));
        assert_eq!(q.pop(), Some((5, "c")));
    }
}
