//! What client-go's reflector does when a watch connection breaks: watch again from the last
//! resourceVersion it saw (kube-apiserver replays what it missed), or, when that version is no
//! longer in the watch cache (`410 Gone`: "too old resource version"), LIST again and let the
//! informer tell its handlers the differences.
//!
//! Real counterparts: `staging/src/k8s.io/client-go/tools/cache/reflector.go` (`ListAndWatch`,
//! `watchHandler`, `isExpiredError` → relist), `delta_fifo.go` (`Replace`: updates for what is
//! listed, deletions for what is gone) and, for the API server's restart, the watch cache
//! (`staging/src/k8s.io/apiserver/pkg/storage/cacher/watch_cache.go`), which starts empty at the
//! current revision. kubesim keeps, per component and resource, what its informer holds (the
//! objects delivered to it, shared `Rc`s) and the last resourceVersion, so that the cluster can
//! play the reflector's part; the components themselves only see watch events.

use super::*;
use crate::apiserver::Watcher;
use crate::etcd::ChangeKind;
use crate::trace::FaultKind;
use std::collections::BTreeMap;

/// What each component's informers hold: (subscriber, resource) → key → object, and the last
/// resourceVersion each has seen.
#[derive(Default)]
pub struct Informers {
    held: BTreeMap<(usize, &'static str), BTreeMap<String, Rc<Value>>>,
    last_rv: BTreeMap<(usize, &'static str), i64>,
}

fn key_of(o: &Value) -> String {
    format!("{}/{}", meta::namespace(o), meta::name(o))
}

impl Informers {
    /// After the LIST of `list_and_watch`. A LIST of one object by name (`metadata.name=…`, the
    /// kubelet's per-object reflectors) adds to what the component holds of the resource; any
    /// other replaces it.
    pub fn listed(&mut self, sub: usize, resource: &'static str, items: &[Value], rv: i64, by_name: bool) {
        let m = self.held.entry((sub, resource)).or_default();
        if !by_name {
            m.clear();
        }
        for o in items {
            m.insert(key_of(o), Rc::new(o.clone()));
        }
        self.last_rv.insert((sub, resource), rv);
    }

    /// A watch event reached the component.
    pub fn delivered(&mut self, sub: usize, resource: &'static str, event_type: EventType, object: &Rc<Value>) {
        let m = self.held.entry((sub, resource)).or_default();
        if event_type == EventType::Deleted {
            m.remove(&key_of(object));
        } else {
            m.insert(key_of(object), object.clone());
        }
        if let Ok(rv) = meta::resource_version(object).parse::<i64>() {
            let last = self.last_rv.entry((sub, resource)).or_insert(0);
            *last = (*last).max(rv);
        }
    }

    /// The component restarted: a fresh process holds nothing.
    pub fn forget(&mut self, sub: usize) {
        self.held.retain(|(s, _), _| *s != sub);
        self.last_rv.retain(|(s, _), _| *s != sub);
    }
}

/// Why the watches break.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WatchBreak {
    /// One component's connections drop (a network blip, a proxy closing idle streams).
    Dropped,
    /// kube-apiserver restarted: every watch breaks and its new watch cache starts at the
    /// current revision, so every resume is too old.
    ApiServerRestart,
}

impl Cluster {
    /// `sim fault watch-drop COMPONENT`: the component's watch connections close; the in-flight
    /// events are lost; each reflector watches again from its last resourceVersion.
    pub fn drop_watches(&mut self, actor: &Actor) -> Result<String, String> {
        let Some(idx) = self.components.iter().position(|s| &s.actor == actor && s.component.is_some()) else {
            return Err(format!("no component named \"{}\"", actor));
        };
        let lost = self.lose_in_flight(|d| d == idx);
        let n = self.api.watchers_of(idx).len();
        let what = format!("{}'s {} watch connection(s) dropped, {} event(s) in flight lost; its reflectors watch again from the last resourceVersion they saw", actor, n, lost);
        let id = self.trace.push(self.now, actor.clone(), actor.clone(), MessageKind::Fault { kind: FaultKind::WatchDrop, what, lost }, None);
        let resumed = self.rewatch(idx, Some(id), WatchBreak::Dropped);
        Ok(format!("{} watch(es) resumed, {} relisted", resumed.0, resumed.1))
    }

    /// `sim fault restart kube-apiserver`: every watch breaks (kubectl's too), and the new watch
    /// cache answers every resume with 410 Gone: every informer relists.
    pub fn restart_apiserver(&mut self) -> String {
        let subs: Vec<usize> = self.api.subscribers().into_iter().filter(|s| *s != CLIENT_SUBSCRIBER && self.components.get(*s).map(|c| c.component.is_some()).unwrap_or(false)).collect();
        let lost = self.lose_in_flight(|_| true);
        // a cut-off node's agents will find the new watch cache when they reconnect
        for cut in self.partitioned.values_mut() {
            cut.expired = true;
        }
        self.client_watch_open = false;
        self.api.remove_watchers(CLIENT_SUBSCRIBER);
        self.break_external_watches();
        let what = format!("kube-apiserver restarted: every watch connection closed, {} event(s) in flight lost; its new watch cache starts at revision {}, so every reflector's resume gets 410 Gone and relists", lost, self.api.etcd().revision());
        let id = self.trace.push(self.now, Actor::ApiServer, Actor::ApiServer, MessageKind::Fault { kind: FaultKind::ApiServerRestart, what, lost }, None);
        let (mut resumed, mut relisted) = (0, 0);
        for s in subs {
            let (a, b) = self.rewatch(s, Some(id), WatchBreak::ApiServerRestart);
            resumed += a;
            relisted += b;
        }
        format!("{} watch(es) resumed, {} relisted", resumed, relisted)
    }

    /// Drops queued watch events for the matching subscribers. Returns how many.
    pub(super) fn lose_in_flight(&mut self, to: impl Fn(usize) -> bool) -> usize {
        let lost = self.queue.drain_where(|d| to(d.to) && matches!(d.input, Input::Watch { .. }));
        let fg = lost.iter().filter(|d| !d.background).count();
        self.foreground = self.foreground.saturating_sub(fg);
        lost.len()
    }

    /// The reflectors of subscriber `idx` watch again: (resumed, relisted).
    pub(super) fn rewatch(&mut self, idx: usize, cause: Option<MsgId>, why: WatchBreak) -> (usize, usize) {
        let watchers = self.api.watchers_of(idx);
        self.api.remove_watchers(idx);
        let actor = self.components[idx].actor.clone();
        let head = self.api.etcd().revision();
        let compacted = self.api.etcd().compact_revision();
        let (mut resumed, mut relisted) = (0, 0);
        for w in watchers {
            // a built-in resource, or a custom resource of a CRD still served (a watch on one whose
            // CRD is gone is not resumed: its reflector would get 404s)
            let info = meta::lookup(w.resource).filter(|i| i.resource == w.resource).or_else(|| self.api.crds().crds.iter().filter(|c| c.plural == w.resource).find_map(|c| c.preferred().and_then(|v| v.info)));
            let Some(info) = info else { continue };
            let last = self.informers.last_rv.get(&(idx, w.resource)).copied().unwrap_or(0);
            let base = info.collection_path(&w.namespace);
            let uri = format!("{}?allowWatchBookmarks=true&resourceVersion={}&watch=true", base, last);
            let req = self.trace_request(&actor, &uri, cause);
            let expired = why == WatchBreak::ApiServerRestart && last < head || last + 1 < compacted;
            if expired {
                // 410 Gone: the reflector lists again
                self.trace_response(&actor, 410, "Expired", req);
                let list_req = self.trace_request(&actor, &base, Some(req));
                self.trace_response(&actor, 200, "", list_req);
                self.relist(idx, &w, info, list_req);
                relisted += 1;
            } else {
                self.trace_response(&actor, 200, "", req);
                self.replay(idx, &w, info, last, req);
                resumed += 1;
            }
            self.informers.last_rv.insert((idx, w.resource), head.max(last));
            self.api.add_watcher(w);
        }
        (resumed, relisted)
    }

    fn trace_request(&mut self, actor: &Actor, uri: &str, cause: Option<MsgId>) -> MsgId {
        let (uri, info) = self.api.request_info(Method::Get, uri);
        self.trace.push(self.now, actor.clone(), Actor::ApiServer, MessageKind::Request { method: Method::Get, uri, info }, cause)
    }

    /// The answer, one round trip later; the reconnections follow one another (the trace's
    /// time never goes back).
    fn trace_response(&mut self, actor: &Actor, code: u16, reason: &str, cause: MsgId) {
        self.now += self.config.timing.api_rtt_ms;
        self.trace.push(self.now, Actor::ApiServer, actor.clone(), MessageKind::Response { code, reason: reason.to_string(), authz: None }, Some(cause));
    }

    fn deliver(&mut self, idx: usize, info: &'static meta::ResourceInfo, event_type: EventType, object: Rc<Value>, cause: MsgId) {
        let at = self.now + self.config.timing.watch_delay_ms;
        self.queue.push(at, Delivery { to: idx, input: Input::Watch { resource: info.id, event_type, object }, cause: Some(cause), background: false, visible: None });
        self.foreground += 1;
    }

    /// Resume: kube-apiserver sends every change after `after` that the watch would have seen.
    fn replay(&mut self, idx: usize, w: &Watcher, info: &'static meta::ResourceInfo, after: i64, cause: MsgId) {
        let prefix = format!("/registry/{}/", info.etcd_prefix);
        let Ok(changes) = self.api.etcd().changes_since(after, &prefix) else { return };
        let parse = |kv: &crate::etcd::KeyValue, rev: i64| -> Option<Value> {
            let mut v: Value = serde_json::from_str(kv.value.as_deref()?).ok()?;
            meta::set(&mut v, &["metadata", "resourceVersion"], serde_json::json!(rev.to_string()));
            Some(v)
        };
        for ch in changes {
            let new = if ch.kind == ChangeKind::Put { parse(&ch.kv, ch.revision) } else { None };
            let old = ch.prev.as_ref().and_then(|p| parse(p, ch.revision));
            let was = old.as_ref().map(|o| crate::apiserver::ApiServer::watcher_matches(w, o)).unwrap_or(false);
            let is = new.as_ref().map(|o| crate::apiserver::ApiServer::watcher_matches(w, o)).unwrap_or(false);
            let ev = match (was, is) {
                (false, true) => Some((EventType::Added, new)),
                (true, true) => Some((EventType::Modified, new)),
                (true, false) => Some((EventType::Deleted, new.or(old))),
                _ => None,
            };
            if let Some((t, Some(o))) = ev {
                self.deliver(idx, info, t, Rc::new(o), cause);
            }
        }
    }

    /// Relist: the informer's `Replace` — an update for every listed object it already holds
    /// (an add for new ones), a deletion for every held object the list no longer has.
    fn relist(&mut self, idx: usize, w: &Watcher, info: &'static meta::ResourceInfo, cause: MsgId) {
        let now: Vec<Value> = self.view().objects(info, &w.namespace, None).into_iter().filter(|o| crate::apiserver::ApiServer::watcher_matches(w, o)).collect();
        let held = self.informers.held.get(&(idx, w.resource)).cloned().unwrap_or_default();
        let listed: std::collections::BTreeSet<String> = now.iter().map(key_of).collect();
        for o in now {
            let t = if held.contains_key(&key_of(&o)) { EventType::Modified } else { EventType::Added };
            self.deliver(idx, info, t, Rc::new(o), cause);
        }
        // (only what this watch selects: one component may watch several objects by name)
        for (k, o) in held {
            if !listed.contains(&k) && crate::apiserver::ApiServer::watcher_matches(w, &o) {
                self.deliver(idx, info, EventType::Deleted, o, cause);
            }
        }
    }
}
