//! The watches of clients outside the simulation — `kubesim serve`'s HTTP watch streams, opened
//! by real kubectl, client libraries and operators (kopf, client-go) — and the faults that break
//! them.
//!
//! Real counterparts: kube-apiserver closes every connection when it restarts, and its new watch
//! cache (`staging/src/k8s.io/apiserver/pkg/storage/cacher/watch_cache.go`) starts at the current
//! revision, so a watch resumed from an older resourceVersion gets `410 Gone` ("too old resource
//! version") and the client relists (client-go's reflector, kopf's watcher); a dropped connection
//! (a load balancer's idle timeout, a network blip) ends one client's streams, which it reopens
//! from the last resourceVersion it saw. kubesim does not own those connections — the serve
//! shell does — so the cluster keeps what the shell needs to act as kube-apiserver would: which
//! clients have streams open (by user agent), a break counter each stream checks on every poll,
//! and the oldest revision its watch cache still holds.

use super::*;
use crate::trace::FaultKind;
use std::collections::BTreeMap;

/// At most this many distinct clients are tracked (their open streams are still served).
const MAX_CLIENTS: usize = 64;

/// The external clients' watch streams and the breaks faults have made in them.
#[derive(Default)]
pub struct ExternalWatches {
    /// Open streams by client (the product token of the User-Agent: `kopf`, `kubectl`).
    open: BTreeMap<String, usize>,
    /// Breaks of every stream (kube-apiserver's restarts).
    all: u64,
    /// Breaks of one client's streams (`sim fault watch-drop CLIENT`).
    by_client: BTreeMap<String, u64>,
    /// The oldest revision the watch cache holds since kube-apiserver's last restart (0: none).
    cache_start: i64,
}

/// What an open stream holds to find out whether a fault broke it.
#[derive(Clone, Debug)]
pub struct WatchTicket {
    client: String,
    all: u64,
    mine: u64,
}

/// The client a User-Agent names: its product token (`kopf/1.38.0` → `kopf`, `kubectl/v1.32.0
/// (linux/amd64) kubernetes/…` → `kubectl`); `unknown` for none.
pub fn client_of(user_agent: &str) -> String {
    let product = user_agent.split(['/', ' ']).next().unwrap_or("").trim();
    if product.is_empty() {
        "unknown".to_string()
    } else {
        product.chars().take(64).collect()
    }
}

impl Cluster {
    /// A stream opened for a client with this User-Agent.
    pub fn external_watch_opened(&mut self, user_agent: &str) -> WatchTicket {
        let client = client_of(user_agent);
        let w = &mut self.external_watches;
        if w.open.contains_key(&client) || w.open.len() < MAX_CLIENTS {
            *w.open.entry(client.clone()).or_default() += 1;
        }
        let mine = w.by_client.get(&client).copied().unwrap_or(0);
        WatchTicket {
            client,
            all: w.all,
            mine,
        }
    }

    /// The stream ended (its client went away, its timeout passed, or a fault broke it).
    pub fn external_watch_closed(&mut self, t: &WatchTicket) {
        let w = &mut self.external_watches;
        if let Some(n) = w.open.get_mut(&t.client) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                w.open.remove(&t.client);
            }
        }
    }

    /// Whether a fault since the stream opened closed it.
    pub fn external_watch_broken(&self, t: &WatchTicket) -> bool {
        let w = &self.external_watches;
        w.all != t.all || w.by_client.get(&t.client).copied().unwrap_or(0) != t.mine
    }

    /// The oldest revision a watch can resume from: etcd's compact revision, or the revision
    /// kube-apiserver's watch cache started at when it last restarted, whichever is newer.
    pub fn watch_cache_oldest(&self) -> i64 {
        self.api
            .etcd()
            .compact_revision()
            .max(self.external_watches.cache_start)
    }

    /// The clients outside the simulation with watch streams open, and how many each.
    pub fn external_watchers(&self) -> Vec<(String, usize)> {
        self.external_watches
            .open
            .iter()
            .map(|(k, v)| (k.clone(), *v))
            .collect()
    }

    /// kube-apiserver restarted: every external stream closes; resumes older than the current
    /// revision get 410 Gone.
    pub(super) fn break_external_watches(&mut self) {
        self.external_watches.all += 1;
        self.external_watches.cache_start = self.api.etcd().revision();
    }

    /// `sim fault watch-drop CLIENT` for a client outside the simulation: its streams close and
    /// it watches again from the last resourceVersion it saw.
    pub fn drop_external_watches(&mut self, client: &str) -> Result<String, String> {
        let Some(n) = self.external_watches.open.get(client).copied() else {
            if self.external_watches.open.is_empty() {
                return Err(format!("no component named \"{}\"", client));
            }
            let open: Vec<&str> = self
                .external_watches
                .open
                .keys()
                .map(String::as_str)
                .collect();
            return Err(format!("no component named \"{}\", and no client with watches open by that name (open: {})", client, open.join(", ")));
        };
        *self
            .external_watches
            .by_client
            .entry(client.to_string())
            .or_default() += 1;
        let what = format!("{}'s {} watch connection(s) dropped; it watches again from the last resourceVersion it saw", client, n);
        self.trace.push(
            self.now,
            Actor::Kubectl,
            Actor::ApiServer,
            MessageKind::Fault {
                kind: FaultKind::WatchDrop,
                what,
                lost: 0,
            },
            None,
        );
        Ok(format!("{} watch stream(s) closed", n))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn client_is_the_user_agents_product() {
        assert_eq!(client_of("kopf/1.38.0"), "kopf");
        assert_eq!(
            client_of("kubectl/v1.32.0 (linux/amd64) kubernetes/70d3cc9"),
            "kubectl"
        );
        assert_eq!(
            client_of("OpenAPI-Generator/37.0.2/python"),
            "OpenAPI-Generator"
        );
        assert_eq!(client_of(""), "unknown");
    }

    #[test]
    fn a_drop_breaks_one_clients_streams_and_a_restart_all() {
        let mut c = Cluster::bare(1, ClusterConfig::default());
        let kopf = c.external_watch_opened("kopf/1.38.0");
        let kubectl = c.external_watch_opened("kubectl/v1.32.0");
        assert_eq!(
            c.external_watchers(),
            vec![("kopf".to_string(), 1), ("kubectl".to_string(), 1)]
        );
        assert_eq!(c.drop_external_watches("nobody").unwrap_err(), "no component named \"nobody\", and no client with watches open by that name (open: kopf, kubectl)");
        assert_eq!(
            c.drop_external_watches("kopf").unwrap(),
            "1 watch stream(s) closed"
        );
        assert!(c.external_watch_broken(&kopf));
        assert!(!c.external_watch_broken(&kubectl));
        c.external_watch_closed(&kopf);
        let again = c.external_watch_opened("kopf/1.38.0");
        assert!(!c.external_watch_broken(&again));
        let head = c.view().etcd_revision();
        c.restart_apiserver();
        assert!(c.external_watch_broken(&again) && c.external_watch_broken(&kubectl));
        assert_eq!(c.watch_cache_oldest(), head);
    }
}
