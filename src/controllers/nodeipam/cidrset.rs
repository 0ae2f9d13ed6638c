//! The set of pod CIDRs a cluster CIDR is cut into, and which of them are taken.
//!
//! Real counterpart: `pkg/controller/nodeipam/ipam/cidrset/cidr_set.go` (`CidrSet`,
//! `AllocateNext`, `Occupy`, `Release`). Allocation is next-fit as upstream's: the search starts
//! after the last CIDR handed out and wraps around, so a released CIDR is reused only after the
//! others. kubesim simplifies: IPv4 only, and `Occupy` takes exactly one subnet-sized CIDR.

use crate::api::net::Cidr;

/// `ErrCIDRRangeNoCIDRsRemaining`.
pub const ERR_NO_CIDRS_REMAINING: &str = "CIDR allocation failed; there are no remaining CIDRs left to allocate in the accepted range";

#[derive(Clone, Debug)]
pub struct CidrSet {
    cluster: Cidr,
    subnet_prefix: u8,
    used: Vec<bool>,
    allocated: usize,
    next_candidate: usize,
}

impl CidrSet {
    /// `NewCIDRSet`: `cluster` cut into subnets of `subnet_prefix` bits (`--node-cidr-mask-size`).
    pub fn new(cluster: Cidr, subnet_prefix: u8) -> CidrSet {
        let bits = subnet_prefix.saturating_sub(cluster.prefix).min(20);
        CidrSet { cluster, subnet_prefix, used: vec![false; 1usize << bits], allocated: 0, next_candidate: 0 }
    }

    /// The prefix length of the CIDRs it hands out (`--node-cidr-mask-size`).
    pub fn mask_size(&self) -> u8 {
        self.subnet_prefix
    }

    pub fn max_cidrs(&self) -> usize {
        self.used.len()
    }

    fn subnet(&self, i: usize) -> Cidr {
        Cidr { base: self.cluster.nth((i as u64) << (32 - self.subnet_prefix as u32)), prefix: self.subnet_prefix }
    }

    fn index_of(&self, c: &Cidr) -> Option<usize> {
        if c.prefix != self.subnet_prefix || !self.cluster.contains(c.base) {
            return None;
        }
        let i = (self.cluster.offset(c.base) >> (32 - self.subnet_prefix as u32)) as usize;
        (i < self.used.len()).then_some(i)
    }

    /// `AllocateNext`.
    pub fn allocate_next(&mut self) -> Result<Cidr, &'static str> {
        if self.allocated == self.used.len() {
            return Err(ERR_NO_CIDRS_REMAINING);
        }
        let n = self.used.len();
        let mut candidate = self.next_candidate;
        while self.used[candidate] {
            candidate = (candidate + 1) % n;
        }
        self.next_candidate = (candidate + 1) % n;
        self.used[candidate] = true;
        self.allocated += 1;
        Ok(self.subnet(candidate))
    }

    /// `Occupy`: marks a CIDR a node already has (or one kept out of use) as taken.
    pub fn occupy(&mut self, c: &Cidr) -> Result<(), String> {
        let i = self.index_of(c).ok_or_else(|| format!("cidr {} is out the range of cluster cidr {}", c, self.cluster))?;
        if !self.used[i] {
            self.used[i] = true;
            self.allocated += 1;
        }
        Ok(())
    }

    /// `Release`.
    pub fn release(&mut self, c: &Cidr) -> Result<(), String> {
        let i = self.index_of(c).ok_or_else(|| format!("cidr {} is out the range of cluster cidr {}", c, self.cluster))?;
        if self.used[i] {
            self.used[i] = false;
            self.allocated -= 1;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Named table: next-fit allocation, release and exhaustion over a /22 cut into /24s.
    #[test]
    fn next_fit_allocation_table() {
        let mut s = CidrSet::new(Cidr::parse("10.244.0.0/22").unwrap(), 24);
        assert_eq!(s.max_cidrs(), 4);
        s.occupy(&Cidr::parse("10.244.0.0/24").unwrap()).unwrap();
        let a = s.allocate_next().unwrap().to_string();
        let b = s.allocate_next().unwrap().to_string();
        assert_eq!((a.as_str(), b.as_str()), ("10.244.1.0/24", "10.244.2.0/24"));
        s.release(&Cidr::parse("10.244.1.0/24").unwrap()).unwrap();
        // next-fit: the search goes on after the last one handed out before reusing a released one
        assert_eq!(s.allocate_next().unwrap().to_string(), "10.244.3.0/24");
        assert_eq!(s.allocate_next().unwrap().to_string(), "10.244.1.0/24");
        assert_eq!(s.allocate_next(), Err(ERR_NO_CIDRS_REMAINING));
        assert!(s.occupy(&Cidr::parse("10.245.0.0/24").unwrap()).is_err());
    }
}
