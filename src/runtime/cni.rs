//! The CNI plugin containerd calls when it creates or removes a Pod sandbox: a `bridge` network
//! with `host-local` IPAM over the node's pod CIDR.
//!
//! Real counterparts: the CNI spec's ADD/DEL (`containernetworking/cni`), and the reference
//! plugins `plugins/main/bridge` and `plugins/ipam/host-local` (`backend/allocator/allocator.go`:
//! the range's first usable address is the gateway, `.1`; addresses are handed out after the last
//! one reserved, wrapping around, so a released address comes back only after the others).
//!
//! What kubesim simplifies: no interfaces, MACs or routes are made; the result is the address the
//! kubelet copies into `status.podIP`. The range is the node's `spec.podCIDR`, which the kubelet
//! hands to the runtime (`UpdateRuntimeConfig`) when node IPAM has set it.

use crate::api::net::{self, Cidr, Ipv4};
use std::collections::BTreeMap;

/// The message host-local gives when the range is used up.
pub fn err_exhausted(range: &Cidr) -> String {
    format!("failed to allocate for range 0: no IP addresses available in range set: {}-{}", net::format_ipv4(range.nth(1)), net::format_ipv4(range.nth(range.size() - 2)))
}

#[derive(Clone, Debug, Default)]
pub struct HostLocal {
    range: Option<Cidr>,
    /// address → the sandbox holding it
    allocated: BTreeMap<Ipv4, String>,
    last_reserved: Option<Ipv4>,
}

impl HostLocal {
    /// `UpdateRuntimeConfig`: the pod CIDR the network uses.
    pub fn set_range(&mut self, range: Cidr) {
        if self.range != Some(range) {
            self.range = Some(range);
            self.last_reserved = None;
        }
    }

    pub fn range(&self) -> Option<Cidr> {
        self.range
    }

    /// The gateway (the bridge's address): the range's first usable address.
    pub fn gateway(&self) -> Option<Ipv4> {
        self.range.map(|r| r.nth(1))
    }

    /// ADD: an address for `sandbox`; the same one again if it has one.
    pub fn allocate(&mut self, sandbox: &str) -> Result<Ipv4, String> {
        let Some(range) = self.range else {
            return Err("cni plugin not initialized".into());
        };
        if let Some((ip, _)) = self.allocated.iter().find(|(_, s)| *s == sandbox) {
            return Ok(*ip);
        }
        // usable: .2 … broadcast-1 (.1 is the gateway)
        let (first, last) = (range.nth(2), range.nth(range.size().saturating_sub(2)));
        if last < first {
            return Err(err_exhausted(&range));
        }
        let n = (last - first) as u64 + 1;
        let start = match self.last_reserved {
            Some(l) if l >= first && l <= last => (l - first) as u64 + 1,
            _ => 0,
        };
        for k in 0..n {
            let ip = first + ((start + k) % n) as u32;
            if !self.allocated.contains_key(&ip) {
                self.allocated.insert(ip, sandbox.to_string());
                self.last_reserved = Some(ip);
                return Ok(ip);
            }
        }
        Err(err_exhausted(&range))
    }

    /// DEL: releases whatever `sandbox` holds.
    pub fn release(&mut self, sandbox: &str) -> Option<Ipv4> {
        let ip = self.allocated.iter().find(|(_, s)| *s == sandbox).map(|(ip, _)| *ip)?;
        self.allocated.remove(&ip);
        Some(ip)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Named table: host-local hands out .2, .3, … and reuses a released address only after wrapping.
    #[test]
    fn host_local_allocation_table() {
        let mut h = HostLocal::default();
        assert_eq!(h.allocate("a"), Err("cni plugin not initialized".into()));
        h.set_range(Cidr::parse("10.244.1.0/29").unwrap());
        let got: Vec<String> = ["a", "b", "c"].iter().map(|s| net::format_ipv4(h.allocate(s).unwrap())).collect();
        assert_eq!(got, ["10.244.1.2", "10.244.1.3", "10.244.1.4"]);
        assert_eq!(h.allocate("b").map(net::format_ipv4), Ok("10.244.1.3".into()));
        assert_eq!(h.release("a").map(net::format_ipv4), Some("10.244.1.2".into()));
        let more: Vec<String> = ["d", "e", "f"].iter().map(|s| net::format_ipv4(h.allocate(s).unwrap())).collect();
        assert_eq!(more, ["10.244.1.5", "10.244.1.6", "10.244.1.2"]);
        assert_eq!(h.allocate("g"), Err("failed to allocate for range 0: no IP addresses available in range set: 10.244.1.1-10.244.1.6".into()));
    }
}
