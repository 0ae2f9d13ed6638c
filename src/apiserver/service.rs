//! Services: ClusterIP and NodePort allocation, as the Service REST storage does it before the
//! create and update strategies validate.
//!
//! Real counterparts: `pkg/registry/core/service/storage/storage.go` (`beginCreate`,
//! `beginUpdate`, the allocation on delete), `storage/alloc.go` (`allocateCreate`,
//! `allocateUpdate`, `initIPFamilyFields`, `allocClusterIPs`, `initNodePorts`,
//! `updateNodePorts`), `pkg/registry/core/service/ipallocator` (random allocation from the
//! upper band of the range, the lower band kept for addresses users choose) and
//! `pkg/registry/core/service/portallocator` (the same for `--service-node-port-range`).
//!
//! What kubesim simplifies: the allocated addresses and ports are read from the stored Services
//! instead of being kept in `networking.k8s.io/v1` `IPAddress` objects (v1.34's
//! MultiCIDRServiceAllocator) or a bitmap; a Service's address and ports are therefore released
//! in the same etcd transaction that deletes it. One IPv4 service CIDR (kubeadm's default
//! `10.96.0.0/12`) and the default node-port range `30000-32767`; no LoadBalancer, no
//! `healthCheckNodePort`.

use super::*;
use crate::api::net::{self, Cidr};
use std::collections::BTreeSet;

/// kube-apiserver `--service-cluster-ip-range` (kubeadm's default).
pub const SERVICE_CIDR: &str = "10.96.0.0/12";
/// kube-apiserver `--service-node-port-range` (the default).
pub const NODE_PORT_MIN: i64 = 30000;
pub const NODE_PORT_MAX: i64 = 32767;
/// The `kubernetes` Service's address: the first of the range.
pub const KUBERNETES_SERVICE_IP: &str = "10.96.0.1";

pub fn service_cidr() -> Cidr {
    Cidr::parse(SERVICE_CIDR).expect("the service CIDR parses")
}

/// `calculateRangeOffset` of the IP allocator: the lower band of `min(max(16, size/16), 256)`
/// addresses is kept for addresses users choose; dynamic allocation prefers the rest.
pub fn ip_range_offset(usable: u64) -> u64 {
    (usable / 16).clamp(16, 256).min(usable)
}

/// The port allocator's band: `min(max(16, size/32), 128)` ports.
pub fn port_range_offset(size: u64) -> u64 {
    (size / 32).clamp(16, 128).min(size)
}

/// Picks a free slot in `0..size` as the allocators do: a random start in the upper band,
/// scanning up and wrapping within it, then the lower band from its start.
pub fn allocate_next(size: u64, offset: u64, taken: &dyn Fn(u64) -> bool, rng: &mut Rng) -> Option<u64> {
    if size == 0 {
        return None;
    }
    let upper = size - offset;
    if upper > 0 {
        let start = rng.below(upper);
        for i in 0..upper {
            let slot = offset + (start + i) % upper;
            if !taken(slot) {
                return Some(slot);
            }
        }
    }
    (0..offset).find(|s| !taken(*s))
}

/// A Service's type, as the allocation reads it.
fn svc_type(svc: &Value) -> &str {
    meta::get_str(svc, &["spec", "type"])
}

fn needs_cluster_ip(svc: &Value) -> bool {
    svc_type(svc) != "ExternalName" && meta::get_str(svc, &["spec", "clusterIP"]) != "None"
}

fn needs_node_ports(svc: &Value) -> bool {
    matches!(svc_type(svc), "NodePort" | "LoadBalancer")
}

impl ApiServer {
    /// Every stored Service but the one named `except` (namespace/name).
    fn other_services(&self, except: &str) -> Vec<Rc<Value>> {
        let prefix = meta::lookup("services").expect("services").etcd_collection_prefix("");
        self.list_shared(&prefix).filter(|s| meta::key(s) != except).cloned().collect()
    }

    /// `initIPFamilyFields` for a single-stack IPv4 cluster, then `allocClusterIPs` and
    /// `initNodePorts`. Errors are the allocators' (`Service "x" is invalid: …`).
    pub(super) fn service_allocate(&self, svc: &mut Value, old: Option<&Value>, rng: &mut Rng) -> Result<(), Vec<field::FieldError>> {
        let others = self.other_services(&meta::key(svc));
        init_ip_family_fields(svc, old);
        if needs_cluster_ip(svc) {
            let kept = old.map(|o| meta::get_str(o, &["spec", "clusterIP"]).to_string()).filter(|ip| !ip.is_empty() && ip != "None");
            let wanted = meta::get_str(svc, &["spec", "clusterIP"]).to_string();
            let ip = match (kept, wanted.is_empty()) {
                // an update keeps the address (validation reports a change as immutable)
                (Some(k), true) => k,
                (Some(_), false) => wanted,
                (None, _) => allocate_cluster_ip(&wanted, &others, rng)?,
            };
            meta::set(svc, &["spec", "clusterIP"], json!(ip));
            meta::set(svc, &["spec", "clusterIPs"], json!([ip]));
        }
        if needs_node_ports(svc) {
            // `patchAllocatedValues`: a port an update leaves without a nodePort keeps the one
            // it had (matched by port and protocol)
            if let Some(o) = old.filter(|o| needs_node_ports(o)) {
                let old_ports = meta::get(o, &["spec", "ports"]).and_then(|p| p.as_array()).cloned().unwrap_or_default();
                if let Some(ports) = svc.pointer_mut("/spec/ports").and_then(|p| p.as_array_mut()) {
                    for p in ports.iter_mut() {
                        if meta::get_i64(p, &["nodePort"]).unwrap_or(0) != 0 {
                            continue;
                        }
                        let same = |q: &&Value| meta::get_i64(q, &["port"]) == meta::get_i64(p, &["port"]) && meta::get_str(q, &["protocol"]) == meta::get_str(p, &["protocol"]);
                        if let Some(np) = old_ports.iter().find(same).and_then(|q| meta::get_i64(q, &["nodePort"])) {
                            p["nodePort"] = json!(np);
                        }
                    }
                }
            }
            self.allocate_node_ports(svc, &others, rng)?;
        }
        Ok(())
    }

    fn allocate_node_ports(&self, svc: &mut Value, others: &[Rc<Value>], rng: &mut Rng) -> Result<(), Vec<field::FieldError>> {
        let mut taken: BTreeSet<i64> = others.iter().flat_map(|s| node_ports_of(s)).collect();
        let n = meta::get(svc, &["spec", "ports"]).and_then(|p| p.as_array()).map(|p| p.len()).unwrap_or(0);
        // first the ports the user chose, then the rest (the allocator's two passes)
        for i in 0..n {
            let np = meta::get_i64(&svc["spec"]["ports"][i], &["nodePort"]).unwrap_or(0);
            if np == 0 {
                continue;
            }
            let path = format!("spec.ports[{}].nodePort", i);
            if !(NODE_PORT_MIN..=NODE_PORT_MAX).contains(&np) {
                return Err(vec![field::FieldError::invalid(
                    &path,
                    json!(np),
                    &format!("provided port is not in the valid range. The range of valid ports is {}-{}", NODE_PORT_MIN, NODE_PORT_MAX),
                )]);
            }
            // `taken` holds the other Services' ports: one this Service holds stays its own
            if taken.contains(&np) {
                return Err(vec![field::FieldError::invalid(&path, json!(np), "provided port is already allocated")]);
            }
            taken.insert(np);
        }
        let size = (NODE_PORT_MAX - NODE_PORT_MIN + 1) as u64;
        for i in 0..n {
            if meta::get_i64(&svc["spec"]["ports"][i], &["nodePort"]).unwrap_or(0) != 0 {
                continue;
            }
            let slot = allocate_next(size, port_range_offset(size), &|s| taken.contains(&(NODE_PORT_MIN + s as i64)), rng)
                .ok_or_else(|| vec![field::FieldError::internal(&format!("spec.ports[{}].nodePort", i), "failed to allocate a nodePort: range is full")])?;
            let np = NODE_PORT_MIN + slot as i64;
            taken.insert(np);
            svc["spec"]["ports"][i]["nodePort"] = json!(np);
        }
        Ok(())
    }
}

fn node_ports_of(svc: &Value) -> Vec<i64> {
    meta::get(svc, &["spec", "ports"])
        .and_then(|p| p.as_array())
        .map(|ps| ps.iter().filter_map(|p| meta::get_i64(p, &["nodePort"])).filter(|n| *n != 0).collect())
        .unwrap_or_default()
}

/// `initIPFamilyFields` on a single-stack IPv4 cluster: `ipFamilyPolicy` defaults to
/// `SingleStack` (`RequireDualStack` for a headless Service without a selector, whose families
/// are then every family), `ipFamilies` to `[IPv4]`.
fn init_ip_family_fields(svc: &mut Value, old: Option<&Value>) {
    if svc_type(svc) == "ExternalName" {
        return;
    }
    if let Some(o) = old {
        for f in ["ipFamilyPolicy", "ipFamilies"] {
            if meta::get(svc, &["spec", f]).map(|v| v.is_null()).unwrap_or(true) {
                if let Some(v) = meta::get(o, &["spec", f]) {
                    meta::set(svc, &["spec", f], v.clone());
                }
            }
        }
    }
    let headless = meta::get_str(svc, &["spec", "clusterIP"]) == "None";
    let has_selector = meta::get(svc, &["spec", "selector"]).and_then(|s| s.as_object()).map(|m| !m.is_empty()).unwrap_or(false);
    if meta::get_str(svc, &["spec", "ipFamilyPolicy"]).is_empty() {
        let policy = if headless && !has_selector { "RequireDualStack" } else { "SingleStack" };
        meta::set(svc, &["spec", "ipFamilyPolicy"], json!(policy));
    }
    let families = meta::get(svc, &["spec", "ipFamilies"]).and_then(|f| f.as_array()).map(|f| f.len()).unwrap_or(0);
    if families == 0 {
        let fams = if headless && !has_selector { json!(["IPv4", "IPv6"]) } else { json!(["IPv4"]) };
        meta::set(svc, &["spec", "ipFamilies"], fams);
    }
}

/// `allocClusterIPs`: the address the user asked for, or the next free one.
fn allocate_cluster_ip(wanted: &str, others: &[Rc<Value>], rng: &mut Rng) -> Result<String, Vec<field::FieldError>> {
    let cidr = service_cidr();
    let taken: BTreeSet<u32> = others
        .iter()
        .filter_map(|s| net::parse_ipv4(meta::get_str(s, &["spec", "clusterIP"])))
        .collect();
    // usable addresses: the network and broadcast addresses are never handed out
    let usable = cidr.size() - 2;
    if !wanted.is_empty() {
        let fail = |detail: String| {
            vec![field::FieldError::invalid("spec.clusterIPs", json!([wanted]), &format!("failed to allocate IP {}: {}", wanted, detail)).json_rendered()]
        };
        let Some(ip) = net::parse_ipv4(wanted) else {
            return Err(fail(format!("the provided IP ({}) is not in the valid range. The range of valid IPs is {}", wanted, cidr)));
        };
        let off = cidr.offset(ip);
        if !cidr.contains(ip) || off == 0 || off > usable {
            return Err(fail(format!("the provided IP ({}) is not in the valid range. The range of valid IPs is {}", wanted, cidr)));
        }
        if taken.contains(&ip) {
            return Err(fail("provided IP is already allocated".into()));
        }
        return Ok(wanted.to_string());
    }
    let slot = allocate_next(usable, ip_range_offset(usable), &|s| taken.contains(&cidr.nth(s + 1)), rng)
        .ok_or_else(|| vec![field::FieldError::internal("spec.clusterIPs", "failed to allocate a serviceIP: range is full")])?;
    Ok(net::format_ipv4(cidr.nth(slot + 1)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Named table: the bands the allocators keep for chosen values, and where dynamic
    /// allocation lands.
    #[test]
    fn allocation_bands() {
        let usable = service_cidr().size() - 2;
        assert_eq!(ip_range_offset(usable), 256, "a /12 keeps 10.96.0.1-10.96.1.0 for chosen addresses");
        assert_eq!(ip_range_offset(14), 14, "a /28 is all lower band");
        assert_eq!(port_range_offset(2768), 86, "30000-30085 are kept for chosen node ports");
        let mut rng = Rng::new(7);
        for _ in 0..100 {
            let s = allocate_next(2768, 86, &|_| false, &mut rng).unwrap();
            assert!((86..2768).contains(&s));
        }
        // the upper band full: the lower band is used, from its start
        assert_eq!(allocate_next(10, 4, &|s| s >= 4, &mut rng), Some(0));
        assert_eq!(allocate_next(10, 4, &|_| true, &mut rng), None);
        // a taken slot is skipped, scanning up and wrapping within the upper band
        let s = allocate_next(6, 4, &|s| s == 4, &mut rng).unwrap();
        assert_eq!(s, 5);
    }
}
