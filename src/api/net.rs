//! IPv4 addresses and CIDRs, the one implementation every component uses.
//!
//! Real counterparts: Go's `net.ParseIP`/`net.ParseCIDR` as `k8s.io/utils/net` wraps them
//! (`ParseIPSloppy`, `ParseCIDRSloppy`), and the address arithmetic of
//! `pkg/registry/core/service/ipallocator` and the node IPAM's `cidrset`.
//!
//! What kubesim simplifies: IPv4 only (the simulated cluster is single-stack IPv4, as kubeadm's
//! and kind's default clusters are).

use std::fmt;

/// An IPv4 address as a number (`10.96.0.1` = `0x0a600001`).
pub type Ipv4 = u32;

/// Parses a dotted-quad IPv4 address. Leading zeros are accepted as `ParseIPSloppy` does.
pub fn parse_ipv4(s: &str) -> Option<Ipv4> {
    let parts: Vec<&str> = s.split('.').collect();
    if parts.len() != 4 {
        return None;
    }
    let mut v: u32 = 0;
    for p in parts {
        if p.is_empty() || p.len() > 3 || !p.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let n: u32 = p.parse().ok()?;
        if n > 255 {
            return None;
        }
        v = (v << 8) | n;
    }
    Some(v)
}

/// `10.96.0.1`.
pub fn format_ipv4(ip: Ipv4) -> String {
    format!("{}.{}.{}.{}", ip >> 24, (ip >> 16) & 255, (ip >> 8) & 255, ip & 255)
}

/// An IPv4 network: `10.96.0.0/12`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Cidr {
    /// The network address (host bits zero).
    pub base: Ipv4,
    pub prefix: u8,
}

impl Cidr {
    /// Parses `a.b.c.d/n`; the host bits are masked off as `net.ParseCIDR` does.
    pub fn parse(s: &str) -> Option<Cidr> {
        let (ip, bits) = s.split_once('/')?;
        let prefix: u8 = bits.parse().ok().filter(|b| *b <= 32)?;
        let ip = parse_ipv4(ip)?;
        Some(Cidr { base: ip & mask(prefix), prefix })
    }
    /// Number of addresses in the network, network and broadcast addresses included.
    pub fn size(&self) -> u64 {
        1u64 << (32 - self.prefix as u32)
    }
    pub fn contains(&self, ip: Ipv4) -> bool {
        ip & mask(self.prefix) == self.base
    }
    /// The `i`-th address of the network (0 = the network address).
    pub fn nth(&self, i: u64) -> Ipv4 {
        self.base.wrapping_add(i as u32)
    }
    /// The offset of `ip` in the network.
    pub fn offset(&self, ip: Ipv4) -> u64 {
        ip.wrapping_sub(self.base) as u64
    }
}

impl fmt::Display for Cidr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", format_ipv4(self.base), self.prefix)
    }
}

fn mask(prefix: u8) -> u32 {
    if prefix == 0 {
        0
    } else {
        u32::MAX << (32 - prefix as u32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_formats() {
        assert_eq!(parse_ipv4("10.96.0.1"), Some(0x0a60_0001));
        assert_eq!(format_ipv4(0x0a60_0001), "10.96.0.1");
        for bad in ["", "10.96.0", "10.96.0.256", "a.b.c.d", "10..0.1", "1.2.3.4.5", "1.2.3.-4"] {
            assert_eq!(parse_ipv4(bad), None, "{}", bad);
        }
        let c = Cidr::parse("10.96.7.3/12").unwrap();
        assert_eq!(c.to_string(), "10.96.0.0/12");
        assert_eq!(c.size(), 1 << 20);
        assert!(c.contains(parse_ipv4("10.111.255.255").unwrap()));
        assert!(!c.contains(parse_ipv4("10.112.0.0").unwrap()));
        assert_eq!(format_ipv4(c.nth(10)), "10.96.0.10");
        assert_eq!(Cidr::parse("10.244.1.0/24").unwrap().offset(parse_ipv4("10.244.1.7").unwrap()), 7);
        assert_eq!(Cidr::parse("10.0.0.0/33"), None);
    }
}
