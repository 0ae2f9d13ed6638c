//! etcd: the revisioned key-value store behind kube-apiserver.
//!
//! Real counterpart: etcd v3's MVCC store (`server/mvcc`), used by kube-apiserver through
//! `staging/src/k8s.io/apiserver/pkg/storage/etcd3/store.go`. What kubesim keeps:
//! - one cluster-global `revision` that every write increments;
//! - per key: `create_revision`, `mod_revision` and `version` (number of writes since creation);
//! - the full history, so any key can be read "as of" a past revision (the page uses this to show
//!   what etcd held at each step), until compaction discards old revisions;
//! - watch from a revision: every change after it, in revision order;
//! - `OptimisticPut`-style guarded writes (create only if absent, update only if `mod_revision` matches).
//!
//! What kubesim simplifies: values are the object's JSON (real kube-apiserver stores protobuf with a
//! `k8s\0` prefix); there is no Raft, no leases (event TTL is not simulated) and one member.

use std::collections::BTreeMap;

/// One version of a key.
#[derive(Clone, Debug, PartialEq)]
pub struct KeyValue {
    pub key: String,
    pub create_revision: i64,
    pub mod_revision: i64,
    pub version: i64,
    /// The stored JSON; `None` is a deletion (tombstone).
    pub value: Option<String>,
}

/// A change, as an etcd watch reports it.
#[derive(Clone, Debug, PartialEq)]
pub struct WatchEvent {
    pub revision: i64,
    pub kind: ChangeKind,
    pub kv: KeyValue,
    /// The previous version (etcd's `prev_kv` option), if there was one.
    pub prev: Option<KeyValue>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChangeKind {
    Put,
    Delete,
}

/// Errors with etcd's own wording where it has one.
#[derive(Clone, Debug, PartialEq)]
pub enum EtcdError {
    /// The guarded write's condition failed (key exists / mod revision differs).
    TxnFailed { current: Option<KeyValue> },
    /// `etcdserver: mvcc: required revision has been compacted`
    Compacted { compact_revision: i64 },
    /// `etcdserver: mvcc: required revision is a future revision`
    FutureRevision,
    /// A limit was reached; the message says which.
    Limit(String),
}

impl std::fmt::Display for EtcdError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EtcdError::TxnFailed { .. } => write!(f, "etcd transaction condition failed"),
            EtcdError::Compacted { .. } => write!(f, "etcdserver: mvcc: required revision has been compacted"),
            EtcdError::FutureRevision => write!(f, "etcdserver: mvcc: required revision is a future revision"),
            EtcdError::Limit(m) => write!(f, "{}", m),
        }
    }
}

/// The store. Everything is in `BTreeMap`s so iteration order is deterministic.
#[derive(Clone, Debug)]
pub struct Etcd {
    revision: i64,
    compact_revision: i64,
    /// key -> versions, oldest first (a tombstone ends a generation).
    history: BTreeMap<String, Vec<KeyValue>>,
    /// revision -> key written at that revision (exactly one key per revision here).
    log: BTreeMap<i64, String>,
    /// Bound on the number of revisions kept before automatic compaction.
    pub history_limit: usize,
    /// Bound on the size of one value (etcd's default `--max-request-bytes` is 1.5 MiB).
    pub max_value_bytes: usize,
}

impl Default for Etcd {
    fn default() -> Self {
        Etcd::new()
    }
}

pub const MAX_REQUEST_BYTES: usize = 1_572_864;

impl Etcd {
    pub fn new() -> Etcd {
        Etcd {
            revision: 1, // a fresh etcd cluster starts at revision 1
            compact_revision: 0,
            history: BTreeMap::new(),
            log: BTreeMap::new(),
            history_limit: 200_000,
            max_value_bytes: MAX_REQUEST_BYTES,
        }
    }

    /// The current (latest) revision.
    pub fn revision(&self) -> i64 {
        self.revision
    }

    pub fn compact_revision(&self) -> i64 {
        self.compact_revision
    }

    fn latest(&self, key: &str) -> Option<&KeyValue> {
        self.history.get(key).and_then(|v| v.last()).filter(|kv| kv.value.is_some())
    }

    fn check_rev(&self, rev: Option<i64>) -> Result<i64, EtcdError> {
        let r = rev.unwrap_or(self.revision);
        if r > self.revision {
            return Err(EtcdError::FutureRevision);
        }
        if r < self.compact_revision {
            return Err(EtcdError::Compacted { compact_revision: self.compact_revision });
        }
        Ok(r)
    }

    /// Range request for one key at `rev` (latest when `None`).
    pub fn get(&self, key: &str, rev: Option<i64>) -> Result<Option<KeyValue>, EtcdError> {
        let r = self.check_rev(rev)?;
        Ok(self.get_at(key, r))
    }

    fn get_at(&self, key: &str, r: i64) -> Option<KeyValue> {
        let versions = self.history.get(key)?;
        let kv = versions.iter().rev().find(|kv| kv.mod_revision <= r)?;
        if kv.value.is_some() {
            Some(kv.clone())
        } else {
            None
        }
    }

    /// Range request over a prefix at `rev`, sorted by key.
    pub fn range(&self, prefix: &str, rev: Option<i64>) -> Result<Vec<KeyValue>, EtcdError> {
        let r = self.check_rev(rev)?;
        Ok(self
            .history
            .range(prefix.to_string()..)
            .take_while(|(k, _)| k.starts_with(prefix))
            .filter_map(|(k, _)| self.get_at(k, r))
            .collect())
    }

    /// Keys under a prefix at `rev` with their mod revision, values left where they are (the
    /// page's etcd panel lists thousands of keys at every scrub: no value is copied).
    pub fn range_revisions(&self, prefix: &str, rev: Option<i64>) -> Result<Vec<(String, i64)>, EtcdError> {
        let r = self.check_rev(rev)?;
        Ok(self
            .history
            .range(prefix.to_string()..)
            .take_while(|(k, _)| k.starts_with(prefix))
            .filter_map(|(k, versions)| {
                // versions are in revision order
                let i = versions.partition_point(|kv| kv.mod_revision <= r);
                let kv = versions.get(i.checked_sub(1)?)?;
                kv.value.is_some().then(|| (k.clone(), kv.mod_revision))
            })
            .collect())
    }

    /// Keys under a prefix at the latest revision.
    pub fn keys(&self, prefix: &str) -> Vec<String> {
        self.history
            .range(prefix.to_string()..)
            .take_while(|(k, _)| k.starts_with(prefix))
            .filter(|(k, _)| self.latest(k).is_some())
            .map(|(k, _)| k.clone())
            .collect()
    }

    /// What the store holds: the number of stored versions (tombstones included) and the bytes of
    /// their values, every revision not yet compacted.
    pub fn stored(&self) -> (usize, usize) {
        let versions = self.history.values().map(Vec::len).sum();
        let bytes = self.history.values().flatten().map(|kv| kv.value.as_ref().map_or(0, |v| v.len())).sum();
        (versions, bytes)
    }

    /// Count of live keys under a prefix.
    pub fn count(&self, prefix: &str) -> usize {
        self.keys(prefix).len()
    }

    /// A transaction `If(mod_revision(key) == expected) Then(Put) Else(Get)`, as the apiserver's
    /// `GuaranteedUpdate`/`Create` issue it. `expected = 0` means "the key must not exist".
    /// Returns the new revision.
    pub fn put_if(&mut self, key: &str, value: String, expected_mod_revision: i64) -> Result<i64, EtcdError> {
        let current_mod = self.latest(key).map(|kv| kv.mod_revision).unwrap_or(0);
        if current_mod != expected_mod_revision {
            return Err(EtcdError::TxnFailed { current: self.latest(key).cloned() });
        }
        if value.len() > self.max_value_bytes {
            return Err(EtcdError::Limit("etcdserver: request is too large".into()));
        }
        Ok(self.write(key, Some(value)))
    }

    /// An unconditional put. Returns the new revision.
    pub fn put(&mut self, key: &str, value: String) -> i64 {
        self.write(key, Some(value))
    }

    /// Delete guarded by mod revision (0 = unconditional). Returns the revision of the deletion.
    pub fn delete_if(&mut self, key: &str, expected_mod_revision: i64) -> Result<i64, EtcdError> {
        let current = self.latest(key).cloned();
        match &current {
            None => Err(EtcdError::TxnFailed { current: None }),
            Some(kv) if expected_mod_revision != 0 && kv.mod_revision != expected_mod_revision => {
                Err(EtcdError::TxnFailed { current })
            }
            Some(_) => Ok(self.write(key, None)),
        }
    }

    fn write(&mut self, key: &str, value: Option<String>) -> i64 {
        self.revision += 1;
        let rev = self.revision;
        // the previous version's counters only (not a copy of its value)
        let prev = self.latest(key).map(|p| (p.create_revision, p.version));
        let kv = KeyValue {
            key: key.to_string(),
            create_revision: if value.is_none() {
                0
            } else {
                prev.map(|p| p.0).unwrap_or(rev)
            },
            mod_revision: rev,
            version: if value.is_none() { 0 } else { prev.map(|p| p.1).unwrap_or(0) + 1 },
            value,
        };
        self.history.entry(key.to_string()).or_default().push(kv);
        self.log.insert(rev, key.to_string());
        if self.log.len() > self.history_limit {
            let target = self.revision - (self.history_limit as i64) / 2;
            self.compact(target);
        }
        rev
    }

    /// Every change with revision > `after`, optionally restricted to a key prefix, in revision order.
    pub fn changes_since(&self, after: i64, prefix: &str) -> Result<Vec<WatchEvent>, EtcdError> {
        if after + 1 < self.compact_revision {
            return Err(EtcdError::Compacted { compact_revision: self.compact_revision });
        }
        let mut out = Vec::new();
        for (rev, key) in self.log.range(after + 1..) {
            if !key.starts_with(prefix) {
                continue;
            }
            if let Some(ev) = self.change_at(*rev) {
                out.push(ev);
            }
        }
        Ok(out)
    }

    /// The change made at exactly `rev` without copying it: the key, its value after the change
    /// (None: a delete) and the value before it. A caller that skips most keys (a watch on one
    /// prefix) looks at the key first.
    pub fn change_ref(&self, rev: i64) -> Option<(&str, Option<&str>, Option<&str>)> {
        let key = self.log.get(&rev)?;
        let versions = self.history.get(key)?;
        let idx = versions.iter().rposition(|kv| kv.mod_revision == rev)?;
        let prev = if idx > 0 { versions[idx - 1].value.as_deref() } else { None };
        Some((key.as_str(), versions[idx].value.as_deref(), prev))
    }

    /// The change made at exactly `rev`, if it is still in history.
    pub fn change_at(&self, rev: i64) -> Option<WatchEvent> {
        let key = self.log.get(&rev)?;
        let versions = self.history.get(key)?;
        let idx = versions.iter().position(|kv| kv.mod_revision == rev)?;
        let kv = versions[idx].clone();
        let prev = if idx > 0 { Some(versions[idx - 1].clone()).filter(|p| p.value.is_some()) } else { None };
        Some(WatchEvent {
            revision: rev,
            kind: if kv.value.is_some() { ChangeKind::Put } else { ChangeKind::Delete },
            kv,
            prev,
        })
    }

    /// Discards history older than `rev` (keeping, per key, the version visible at `rev`).
    pub fn compact(&mut self, rev: i64) {
        let rev = rev.min(self.revision);
        if rev <= self.compact_revision {
            return;
        }
        for versions in self.history.values_mut() {
            // keep the newest version with mod_revision <= rev, and all newer ones
            let keep_from = versions.iter().rposition(|kv| kv.mod_revision <= rev).unwrap_or(0);
            versions.drain(..keep_from);
            if versions.len() == 1 && versions[0].value.is_none() && versions[0].mod_revision <= rev {
                versions.clear();
            }
        }
        self.history.retain(|_, v| !v.is_empty());
        let old: Vec<i64> = self.log.range(..rev).map(|(r, _)| *r).collect();
        for r in old {
            self.log.remove(&r);
        }
        self.compact_revision = rev;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn revisions_and_versions() {
        let mut e = Etcd::new();
        let r1 = e.put_if("/registry/pods/default/a", "{\"v\":1}".into(), 0).unwrap();
        let r2 = e.put_if("/registry/pods/default/b", "{}".into(), 0).unwrap();
        let r3 = e.put_if("/registry/pods/default/a", "{\"v\":2}".into(), r1).unwrap();
        assert_eq!((r1, r2, r3), (2, 3, 4));
        let a = e.get("/registry/pods/default/a", None).unwrap().unwrap();
        assert_eq!((a.create_revision, a.mod_revision, a.version), (2, 4, 2));
        // read in the past
        let old = e.get("/registry/pods/default/a", Some(3)).unwrap().unwrap();
        assert_eq!(old.value.as_deref(), Some("{\"v\":1}"));
        // stale guarded write fails
        assert!(matches!(e.put_if("/registry/pods/default/a", "x".into(), r1), Err(EtcdError::TxnFailed { .. })));
        // create of existing fails
        assert!(e.put_if("/registry/pods/default/b", "x".into(), 0).is_err());
    }

    #[test]
    fn delete_history_watch_and_compaction() {
        let mut e = Etcd::new();
        e.put("/registry/pods/default/a", "1".into());
        e.put("/registry/minions/n1", "n".into());
        let d = e.delete_if("/registry/pods/default/a", 0).unwrap();
        assert_eq!(e.get("/registry/pods/default/a", None).unwrap(), None);
        assert!(e.get("/registry/pods/default/a", Some(d - 1)).unwrap().is_some());
        let ch = e.changes_since(1, "/registry/pods/").unwrap();
        assert_eq!(ch.len(), 2);
        assert_eq!(ch[1].kind, ChangeKind::Delete);
        assert_eq!(ch[1].prev.as_ref().unwrap().value.as_deref(), Some("1"));
        e.compact(d);
        assert!(matches!(e.get("/registry/minions/n1", Some(2)), Err(EtcdError::Compacted { .. })));
        assert_eq!(e.get("/registry/minions/n1", None).unwrap().unwrap().value.as_deref(), Some("n"));
        assert_eq!(e.keys("/registry/"), vec!["/registry/minions/n1".to_string()]);
    }

    #[test]
    fn automatic_compaction_bounds_history() {
        let mut e = Etcd::new();
        e.history_limit = 10;
        for i in 0..25 {
            e.put("/registry/k", format!("{}", i));
        }
        assert!(e.compact_revision() > 0);
        assert_eq!(e.get("/registry/k", None).unwrap().unwrap().value.as_deref(), Some("24"));
        assert_eq!(e.get("/registry/k", None).unwrap().unwrap().version, 25);
    }
}
