//! A node cut off from the control plane (`sim node partition NODE`, `sim node heal NODE`).
//!
//! No upstream counterpart: this is the network failing, not a component. What it shows is how
//! Kubernetes components behave on either side of it: the kubelet and kube-proxy keep running
//! (and so do the containers, their probes and restarts), but their requests fail before reaching
//! kube-apiserver and their watch connections are gone; the control plane sees only the silence
//! (the node's Lease is not renewed), which the node lifecycle controller turns into `Unknown`, the
//! unreachable taint and, 300 s later, evictions the kubelet cannot hear of. When the network
//! heals, each reflector watches again from the last resourceVersion it saw (client-go's
//! `reflector.go`), as after any broken watch: what changed meanwhile is replayed, or, if
//! compacted, relisted.
//!
//! What kubesim simplifies: a failed request fails at once (upstream's client waits for its
//! time-out: 10 s for the Lease, the node status and the status manager); the reflectors resume
//! the moment the network heals (upstream: at their next retry, within their back-off).

use super::*;
use super::reflector::WatchBreak;

/// A cut-off node's agents: the watches they had, and whether kube-apiserver restarted meanwhile
/// (then their resumes are too old for the new watch cache: 410, relist).
pub(super) struct Cut {
    severed: Vec<(usize, Vec<Watcher>)>,
    pub(super) expired: bool,
}

impl Cluster {
    /// The components that run on `node` (kubelet, kube-proxy): their slots.
    fn node_agents(&self, node: &str) -> Vec<usize> {
        (0..self.components.len()).filter(|&i| self.components[i].component.is_some() && self.components[i].actor.node() == Some(node)).collect()
    }

    /// `sim node partition NODE`: the node's agents lose their watches (the events in flight to
    /// them are lost) and every request they send fails until [`Cluster::heal_node`].
    pub fn partition_node(&mut self, node: &str) -> Result<String, String> {
        let agents = self.node_agents(node);
        if agents.is_empty() {
            return Err(format!("no node named \"{}\"", node));
        }
        if self.partitioned.contains_key(node) {
            return Err(format!("node \"{}\" is already cut off: sim node heal {}", node, node));
        }
        let mut lost = 0;
        let mut severed = Vec::new();
        for &i in &agents {
            lost += self.lose_in_flight(|d| d == i);
            severed.push((i, self.api.watchers_of(i)));
            self.api.remove_watchers(i);
        }
        let n = severed.iter().map(|(_, w)| w.len()).sum::<usize>();
        self.partitioned.insert(node.to_string(), Cut { severed, expired: false });
        let kubelet = Actor::Kubelet(node.to_string());
        let what = format!("{}'s network to the control plane is cut: its kubelet and kube-proxy keep running but their {} watch connection(s) are gone ({} event(s) in flight lost) and their requests time out", node, n, lost);
        self.trace.push(self.now, kubelet.clone(), kubelet, MessageKind::Fault { kind: FaultKind::Partition, what, lost }, None);
        Ok(format!("node/{} cut off from the control plane: its kubelet and kube-proxy keep running, their requests fail\n", node))
    }

    /// `sim node heal NODE`: the network is back; each of the node's reflectors watches again
    /// from its last resourceVersion.
    pub fn heal_node(&mut self, node: &str) -> Result<String, String> {
        let Some(Cut { severed, expired }) = self.partitioned.remove(node) else {
            return Err(format!("node \"{}\" is not cut off", node));
        };
        let kubelet = Actor::Kubelet(node.to_string());
        let what = format!("{}'s network to the control plane is back: its reflectors watch again from the last resourceVersion they saw", node);
        let id = self.trace.push(self.now, kubelet.clone(), kubelet, MessageKind::Fault { kind: FaultKind::Heal, what, lost: 0 }, None);
        let (mut resumed, mut relisted) = (0, 0);
        for (i, watchers) in severed {
            for w in watchers {
                self.api.add_watcher(w);
            }
            let why = if expired { WatchBreak::ApiServerRestart } else { WatchBreak::Dropped };
            let (a, b) = self.rewatch(i, Some(id), why);
            resumed += a;
            relisted += b;
        }
        Ok(format!("node/{} reaches the control plane again: {} watch(es) resumed, {} relisted\n", node, resumed, relisted))
    }

    /// Whether `node` is cut off.
    pub fn is_partitioned(&self, node: &str) -> bool {
        self.partitioned.contains_key(node)
    }
}
