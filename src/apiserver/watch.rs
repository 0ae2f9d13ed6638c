//! Watches: registered watchers and the fan-out of each change to them.
//!
//! Real counterparts: `staging/src/k8s.io/apiserver/pkg/storage/cacher/cacher.go` (the watch cache's
//! dispatch, with "triggers" indexing watchers by `spec.nodeName`), `cache_watcher.go`
//! (ADDED/MODIFIED/DELETED as an object enters, changes in or leaves a watcher's selection) and
//! the field selectors of [`super::fields`].
//!
//! What kubesim simplifies: no bookmarks and no resourceVersion replay; a watcher receives the
//! events of changes made after it registered.

use super::*;

/// A registered watch.
#[derive(Clone, Debug)]
pub struct Watcher {
    pub subscriber: usize,
    pub resource: &'static str,
    pub namespace: String,
    pub label_selector: Vec<(String, String, String)>,
    pub field_selector: Vec<(String, String, String)>,
}

/// A watch event to deliver to one subscriber.
#[derive(Clone, Debug, PartialEq)]
pub struct WatchDelivery {
    pub subscriber: usize,
    pub resource: &'static ResourceInfo,
    pub event_type: EventType,
    /// One decoded object shared by every watcher that receives this change.
    pub object: std::rc::Rc<Value>,
}

impl ApiServer {
    /// Registers a watch for `subscriber` (used by informers after their initial LIST).
    pub fn add_watcher(&mut self, w: Watcher) {
        let idx = self.watchers.len();
        let node_scoped = w.label_selector.is_empty()
            && w.namespace.is_empty()
            && w.field_selector.len() == 1
            && w.field_selector[0].0 == "spec.nodeName"
            && w.field_selector[0].1 == "=";
        if node_scoped {
            self.node_watchers.entry((w.resource, w.field_selector[0].2.clone())).or_default().push(idx);
        } else {
            self.general_watchers.entry(w.resource).or_default().push(idx);
        }
        self.watchers.push(w);
    }

    /// Ends every watch of `subscriber` (a client closing its watch). The slots stay so the
    /// indexes of the others hold; an ended watch matches no resource.
    /// The watches a subscriber has open (the reflector's view of its connections).
    pub fn watchers_of(&self, subscriber: usize) -> Vec<Watcher> {
        self.watchers.iter().filter(|w| w.subscriber == subscriber && !w.resource.is_empty()).cloned().collect()
    }

    /// Subscribers with open watches.
    pub fn subscribers(&self) -> Vec<usize> {
        let mut s: Vec<usize> = self.watchers.iter().filter(|w| !w.resource.is_empty()).map(|w| w.subscriber).collect();
        s.sort_unstable();
        s.dedup();
        s
    }

    /// Whether an object matches a watch's namespace and selectors.
    pub fn watcher_matches(w: &Watcher, v: &Value) -> bool {
        (w.namespace.is_empty() || meta::namespace(v) == w.namespace)
            && field_selector_matches(w.resource, &w.field_selector, v)
            && (w.label_selector.is_empty() || meta::label_selector_matches(&w.label_selector, &meta::labels(v)))
    }

    /// Ends one watch of `subscriber`: the one on `resource` in `namespace` with exactly this
    /// field selector (the kubelet's watch of one ConfigMap or Secret no Pod needs any more).
    pub fn remove_watcher(&mut self, subscriber: usize, resource: &'static str, namespace: &str, field_selector: &[(String, String, String)]) {
        if let Some(w) = self.watchers.iter_mut().find(|w| w.subscriber == subscriber && w.resource == resource && w.namespace == namespace && w.field_selector == field_selector) {
            w.resource = "";
        }
    }

    pub fn remove_watchers(&mut self, subscriber: usize) {
        for w in self.watchers.iter_mut().filter(|w| w.subscriber == subscriber) {
            w.resource = "";
        }
    }

    pub(super) fn fan_out(&self, changes: &[Change]) -> Vec<(usize, WatchDelivery)> {
        let mut out = Vec::new();
        for ch in changes {
            let new_rc = ch.new.clone();
            let mut deleted_rc: Option<Rc<Value>> = None;
            let mut candidates: Vec<usize> = self.general_watchers.get(ch.resource.resource).cloned().unwrap_or_default();
            for o in [&ch.old, &ch.new].into_iter().flatten() {
                let node = meta::get_str(o, &["spec", "nodeName"]);
                if let Some(ix) = self.node_watchers.get(&(ch.resource.resource, node.to_string())) {
                    candidates.extend(ix.iter().copied());
                }
            }
            candidates.sort_unstable();
            candidates.dedup();
            for w in candidates.iter().filter_map(|i| self.watchers.get(*i)) {
                if w.resource != ch.resource.resource {
                    continue;
                }
                let sel = |o: &Option<Rc<Value>>| -> bool {
                    match o {
                        None => false,
                        Some(v) => {
                            (w.namespace.is_empty() || meta::namespace(v) == w.namespace)
                                && field_selector_matches(w.resource, &w.field_selector, v)
                                && (w.label_selector.is_empty() || meta::label_selector_matches(&w.label_selector, &meta::labels(v)))
                        }
                    }
                };
                let (was, is) = (sel(&ch.old), sel(&ch.new));
                let ev = match (was, is) {
                    (false, true) => Some((EventType::Added, new_rc.clone())),
                    (true, true) => Some((EventType::Modified, new_rc.clone())),
                    (true, false) => {
                        // the DELETED event carries the last state (with the deletion's revision)
                        if new_rc.is_some() {
                            Some((EventType::Deleted, new_rc.clone()))
                        } else {
                            if deleted_rc.is_none() {
                                deleted_rc = ch.old.as_ref().map(|o| {
                                    let mut o = Value::clone(o);
                                    meta::set(&mut o, &["metadata", "resourceVersion"], json!(ch.revision.to_string()));
                                    Rc::new(o)
                                });
                            }
                            Some((EventType::Deleted, deleted_rc.clone()))
                        }
                    }
                    (false, false) => None,
                };
                if let Some((t, Some(obj))) = ev {
                    out.push((w.subscriber, WatchDelivery { subscriber: w.subscriber, resource: ch.resource, event_type: t, object: obj }));
                }
            }
        }
        out
    }
}
