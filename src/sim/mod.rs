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

pub mod sort;

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
        uuid_v4(a, b)
    }
}

/// 128 bits as an RFC 4122 version-4 UUID string (version and variant bits set).
pub fn uuid_v4(a: u64, b: u64) -> String {
    let mut bytes = [0u8; 16];
    bytes[..8].copy_from_slice(&a.to_be_bytes());
    bytes[8..].copy_from_slice(&b.to_be_bytes());
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    let h: String = bytes.iter().map(|b| format!("{:02x}", b)).collect();
    format!("{}-{}-{}-{}-{}", &h[0..8], &h[8..12], &h[12..16], &h[16..20], &h[20..32])
}

/// One record of the trace: who sent what to whom, when, and which earlier message caused it.
/// `A` names the actors and `K` the kinds of message; the kernel knows neither (kubesim's are in
/// [`crate::trace`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Message<A, K> {
    pub id: MsgId,
    pub time_ms: i64,
    pub from: A,
    pub to: A,
    pub kind: K,
    pub cause: Option<MsgId>,
}

/// Milliseconds since the simulation epoch as `12.345s`.
pub fn format_ms(ms: i64) -> String {
    format!("{}.{:03}s", ms / 1000, (ms % 1000).abs())
}

/// How many strings a trace's [`Interner`] keeps.
pub const INTERNED_STRINGS: usize = 16_384;

/// The append-only list of messages.
#[derive(Clone, Debug)]
pub struct Trace<A, K> {
    messages: Vec<Message<A, K>>,
    /// The strings its messages share (see [`Interner`]).
    pub strings: Interner,
    /// Bound on the number of kept messages (older ones are still counted).
    pub limit: usize,
    dropped: u64,
}

impl<A, K> Trace<A, K> {
    pub fn new(limit: usize) -> Trace<A, K> {
        Trace { messages: Vec::new(), strings: Interner::new(INTERNED_STRINGS), limit, dropped: 0 }
    }
    pub fn push(&mut self, time_ms: i64, from: A, to: A, kind: K, cause: Option<MsgId>) -> MsgId {
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
    pub fn messages(&self) -> &[Message<A, K>] {
        &self.messages
    }
    /// Drops the messages with ids up to `last` (they stay counted as dropped).
    pub fn forget_through(&mut self, last: MsgId) {
        let n = self.messages.partition_point(|m| m.id <= last);
        self.messages.drain(..n);
        self.dropped += n as u64;
    }
    pub fn total(&self) -> u64 {
        self.messages.len() as u64 + self.dropped
    }
    pub fn dropped(&self) -> u64 {
        self.dropped
    }
}

/// Shared copies of the strings the trace repeats (object names, namespaces, request URIs): a
/// string seen before is handed out again as the same `Rc`, so a message costs a pointer, not an
/// allocation. Bounded: past `limit` strings the table starts afresh (strings already handed out
/// stay valid).
#[derive(Clone, Debug, Default)]
pub struct Interner {
    strings: std::collections::HashSet<std::rc::Rc<str>>,
    limit: usize,
}

impl Interner {
    pub fn new(limit: usize) -> Interner {
        Interner { strings: Default::default(), limit }
    }
    pub fn intern(&mut self, s: &str) -> std::rc::Rc<str> {
        if let Some(r) = self.strings.get(s) {
            return r.clone();
        }
        if self.strings.len() >= self.limit.max(1) {
            self.strings.clear();
        }
        let r: std::rc::Rc<str> = s.into();
        self.strings.insert(r.clone());
        r
    }
}

/// A priority queue of future deliveries ordered by (time, insertion sequence): ties keep FIFO
/// order, so the run does not depend on heap internals.
#[derive(Debug)]
pub struct Queue<T> {
    heap: BinaryHeap<Reverse<(i64, u64)>>,
    items: std::collections::BTreeMap<u64, (i64, T)>,
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
        self.items.insert(self.seq, (at_ms, item));
    }
    pub fn peek_time(&self) -> Option<i64> {
        self.heap.peek().map(|Reverse((t, _))| *t)
    }
    pub fn pop(&mut self) -> Option<(i64, T)> {
        let Reverse((t, s)) = self.heap.pop()?;
        let (_, item) = self.items.remove(&s)?;
        Some((t, item))
    }
    pub fn len(&self) -> usize {
        self.items.len()
    }
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }
    /// Drops the items `keep` refuses (a crashed component's timers and in-flight watch events)
    /// and returns them, in queue order.
    pub fn drain_where(&mut self, mut drop: impl FnMut(&T) -> bool) -> Vec<T> {
        let seqs: Vec<u64> = self.items.iter().filter(|(_, (_, v))| drop(v)).map(|(s, _)| *s).collect();
        let out = seqs.iter().filter_map(|s| self.items.remove(s)).map(|(_, v)| v).collect();
        self.heap = self.items.iter().map(|(s, (t, _))| Reverse((*t, *s))).collect();
        out
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
    fn interned_strings_are_shared_and_bounded() {
        let mut i = Interner::new(2);
        let a = i.intern("default");
        assert!(std::rc::Rc::ptr_eq(&a, &i.intern("default")));
        i.intern("kube-system");
        // the third string starts a fresh table; what was handed out stays valid
        let c = i.intern("shop");
        assert_eq!((&*a, &*c), ("default", "shop"));
        assert!(!std::rc::Rc::ptr_eq(&a, &i.intern("default")));
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
