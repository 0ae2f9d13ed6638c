//! kube-proxy's iptables mode: from Services and EndpointSlices to the rules of the `nat` and
//! `filter` tables, and the walk a packet takes through them.
//!
//! Real counterpart: `pkg/proxy/iptables/proxier.go` (`syncProxyRules`, `portProtoHash`,
//! `servicePortChainName`, `servicePortEndpointChainName`, `writeServiceToEndpointRules`),
//! `pkg/proxy/endpointslicecache.go` (which endpoints of a slice are used) and
//! `pkg/proxy/topology.go` (`CategorizeEndpoints`: ready endpoints, else serving terminating
//! ones).
//!
//! What kubesim simplifies: only the chains kube-proxy writes are listed (not the kubelet's
//! `KUBE-FIREWALL`/`KUBE-KUBELET-CANARY` or the CNI's); per-service rules are sorted by service
//! name (upstream follows Go map order); no LoadBalancer, `externalIPs`, `Local` traffic
//! policies or ClientIP affinity rules (`-m recent`): a ClientIP Service is balanced like the
//! others.

use crate::api::meta;
use serde_json::Value;
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use crate::sim::sort::CompactSort;

/// kube-proxy's `--cluster-cidr` (kubeadm passes the pod subnet): traffic from outside it to a
/// ClusterIP is masqueraded.
pub const CLUSTER_CIDR: &str = "10.244.0.0/16";

/// `portProtoHash`: the first 16 characters of the base32 of SHA-256(`s` + `protocol`).
pub fn port_proto_hash(s: &str) -> String {
    let digest = Sha256::digest(s.as_bytes());
    base32(&digest)[..16].to_string()
}

/// Go's `base32.StdEncoding` (RFC 4648 alphabet, with padding).
fn base32(data: &[u8]) -> String {
    const ALPHABET: &[u8; 32] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
    let mut out = String::new();
    for chunk in data.chunks(5) {
        let mut buf = [0u8; 5];
        buf[..chunk.len()].copy_from_slice(chunk);
        let bits = buf.iter().fold(0u64, |acc, b| (acc << 8) | *b as u64);
        let chars = (chunk.len() * 8).div_ceil(5);
        for i in 0..8 {
            if i < chars {
                out.push(ALPHABET[((bits >> (35 - i * 5)) & 31) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// One endpoint a service port balances to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Endpoint {
    pub ip: String,
    pub port: i64,
    pub node: String,
    pub pod: String,
}

impl Endpoint {
    pub fn addr(&self) -> String {
        format!("{}:{}", self.ip, self.port)
    }
}

/// A service port as kube-proxy programs it (`ServicePortName` with its `BaseServicePortInfo`).
#[derive(Clone, Debug, PartialEq)]
pub struct ServicePort {
    pub namespace: String,
    pub name: String,
    /// The Service port's name ("" when unnamed).
    pub port_name: String,
    /// `tcp`, `udp`, `sctp`.
    pub protocol: String,
    pub cluster_ip: String,
    pub port: i64,
    /// 0 when none.
    pub node_port: i64,
    /// The endpoints traffic goes to, sorted by address.
    pub endpoints: Vec<Endpoint>,
}

impl ServicePort {
    /// `ServicePortName.String()`: `default/web:http`, or `default/web` when unnamed.
    pub fn port_name_string(&self) -> String {
        if self.port_name.is_empty() {
            format!("{}/{}", self.namespace, self.name)
        } else {
            format!("{}/{}:{}", self.namespace, self.name, self.port_name)
        }
    }
    pub fn svc_chain(&self) -> String {
        format!("KUBE-SVC-{}", port_proto_hash(&(self.port_name_string() + &self.protocol)))
    }
    pub fn ext_chain(&self) -> String {
        format!("KUBE-EXT-{}", port_proto_hash(&(self.port_name_string() + &self.protocol)))
    }
    pub fn sep_chain(&self, ep: &Endpoint) -> String {
        format!("KUBE-SEP-{}", port_proto_hash(&(self.port_name_string() + &self.protocol + &ep.addr())))
    }
}

/// The probability kube-proxy writes for rule `i` of `n` (`1/(n-i)`), as `iptables-save` prints
/// it back: kube-proxy formats `%0.10f`, the kernel keeps `lround(p * 2^31)`, iptables prints
/// `%.11f` of that.
pub fn probability(i: usize, n: usize) -> String {
    let p = 1.0 / (n - i) as f64;
    let written: f64 = format!("{:.10}", p).parse().unwrap_or(p);
    let stored = (written * 2_147_483_648.0).round();
    format!("{:.11}", stored / 2_147_483_648.0)
}

/// The service ports of the Services and EndpointSlices a kube-proxy has seen. Headless and
/// ExternalName Services get no rules.
pub fn service_ports(services: &[&Value], slices: &[&Value]) -> Vec<ServicePort> {
    let mut out = Vec::new();
    for svc in services {
        let cluster_ip = meta::get_str(svc, &["spec", "clusterIP"]);
        if cluster_ip.is_empty() || cluster_ip == "None" || meta::get_str(svc, &["spec", "type"]) == "ExternalName" {
            continue;
        }
        let (ns, name) = (meta::namespace(svc), meta::name(svc));
        let my_slices: Vec<&&Value> = slices
            .iter()
            .filter(|s| meta::namespace(s) == ns && meta::labels(s).get("kubernetes.io/service-name").and_then(|v| v.as_str()) == Some(name))
            .collect();
        for sp in meta::get(svc, &["spec", "ports"]).and_then(|p| p.as_array()).cloned().unwrap_or_default() {
            let port_name = meta::get_str(&sp, &["name"]).to_string();
            let protocol = meta::get_str(&sp, &["protocol"]).to_ascii_lowercase();
            // endpoints: the slices' entries for this port name; ready ones, else the serving
            // terminating ones
            let mut ready = BTreeMap::new();
            let mut fallback = BTreeMap::new();
            for s in &my_slices {
                let Some(port) = s
                    .get("ports")
                    .and_then(|p| p.as_array())
                    .and_then(|ps| ps.iter().find(|p| meta::get_str(p, &["name"]) == port_name))
                    .and_then(|p| meta::get_i64(p, &["port"]))
                else {
                    continue;
                };
                for e in s.get("endpoints").and_then(|e| e.as_array()).cloned().unwrap_or_default() {
                    let Some(ip) = e.get("addresses").and_then(|a| a.as_array()).and_then(|a| a.first()).and_then(|a| a.as_str()) else {
                        continue;
                    };
                    let cond = |c: &str, default: bool| meta::get(&e, &["conditions", c]).and_then(|v| v.as_bool()).unwrap_or(default);
                    let ep = Endpoint {
                        ip: ip.to_string(),
                        port,
                        node: meta::get_str(&e, &["nodeName"]).to_string(),
                        pod: meta::get_str(&e, &["targetRef", "name"]).to_string(),
                    };
                    if cond("ready", true) {
                        ready.insert(ep.addr(), ep);
                    } else if cond("serving", true) && cond("terminating", false) {
                        fallback.insert(ep.addr(), ep);
                    }
                }
            }
            let eps = if ready.is_empty() { fallback } else { ready };
            out.push(ServicePort {
                namespace: ns.to_string(),
                name: name.to_string(),
                port_name,
                protocol,
                cluster_ip: cluster_ip.to_string(),
                port: meta::get_i64(&sp, &["port"]).unwrap_or(0),
                node_port: meta::get_i64(&sp, &["nodePort"]).unwrap_or(0),
                endpoints: eps.into_values().collect(),
            });
        }
    }
    out.csort_by(|a, b| (a.namespace.as_str(), a.name.as_str(), a.port_name.as_str()).cmp(&(b.namespace.as_str(), b.name.as_str(), b.port_name.as_str())));
    out
}

/// A table as `iptables-save` prints it: the chains (built-in first, then the others sorted)
/// and each chain's rules.
struct Table {
    name: &'static str,
    builtin: &'static [&'static str],
    chains: BTreeMap<String, Vec<String>>,
    builtin_rules: BTreeMap<&'static str, Vec<String>>,
}

impl Table {
    fn new(name: &'static str, builtin: &'static [&'static str]) -> Table {
        Table { name, builtin, chains: BTreeMap::new(), builtin_rules: BTreeMap::new() }
    }
    fn chain(&mut self, c: &str) {
        self.chains.entry(c.to_string()).or_default();
    }
    fn rule(&mut self, chain: &str, rule: String) {
        let line = format!("-A {} {}", chain, rule);
        if let Some(b) = self.builtin.iter().find(|b| **b == chain) {
            self.builtin_rules.entry(b).or_default().push(line);
        } else {
            self.chains.entry(chain.to_string()).or_default().push(line);
        }
    }
    fn save(&self, out: &mut String) {
        out.push_str(&format!("*{}\n", self.name));
        for b in self.builtin {
            out.push_str(&format!(":{} ACCEPT [0:0]\n", b));
        }
        for c in self.chains.keys() {
            out.push_str(&format!(":{} - [0:0]\n", c));
        }
        for b in self.builtin {
            for r in self.builtin_rules.get(b).into_iter().flatten() {
                out.push_str(r);
                out.push('\n');
            }
        }
        for rules in self.chains.values() {
            for r in rules {
                out.push_str(r);
                out.push('\n');
            }
        }
        out.push_str("COMMIT\n");
    }
}

/// `syncProxyRules`: the `filter` and `nat` tables, as `iptables-save` lists them.
pub fn iptables_save(ports: &[ServicePort]) -> String {
    let mut filter = Table::new("filter", &["INPUT", "FORWARD", "OUTPUT"]);
    for c in ["KUBE-EXTERNAL-SERVICES", "KUBE-FORWARD", "KUBE-NODEPORTS", "KUBE-PROXY-FIREWALL", "KUBE-SERVICES"] {
        filter.chain(c);
    }
    let new = "-m conntrack --ctstate NEW";
    filter.rule("INPUT", format!("{} -m comment --comment \"kubernetes load balancer firewall\" -j KUBE-PROXY-FIREWALL", new));
    filter.rule("INPUT", "-m comment --comment \"kubernetes health check service ports\" -j KUBE-NODEPORTS".into());
    filter.rule("INPUT", format!("{} -m comment --comment \"kubernetes externally-visible service portals\" -j KUBE-EXTERNAL-SERVICES", new));
    filter.rule("FORWARD", format!("{} -m comment --comment \"kubernetes load balancer firewall\" -j KUBE-PROXY-FIREWALL", new));
    filter.rule("FORWARD", "-m comment --comment \"kubernetes forwarding rules\" -j KUBE-FORWARD".into());
    filter.rule("FORWARD", format!("{} -m comment --comment \"kubernetes service portals\" -j KUBE-SERVICES", new));
    filter.rule("FORWARD", format!("{} -m comment --comment \"kubernetes externally-visible service portals\" -j KUBE-EXTERNAL-SERVICES", new));
    filter.rule("OUTPUT", format!("{} -m comment --comment \"kubernetes load balancer firewall\" -j KUBE-PROXY-FIREWALL", new));
    filter.rule("OUTPUT", format!("{} -m comment --comment \"kubernetes service portals\" -j KUBE-SERVICES", new));
    filter.rule("KUBE-FORWARD", "-m conntrack --ctstate INVALID -j DROP".into());
    filter.rule("KUBE-FORWARD", "-m comment --comment \"kubernetes forwarding rules\" -m mark --mark 0x4000/0x4000 -j ACCEPT".into());
    filter.rule("KUBE-FORWARD", "-m comment --comment \"kubernetes forwarding conntrack rule\" -m conntrack --ctstate RELATED,ESTABLISHED -j ACCEPT".into());

    let mut nat = Table::new("nat", &["PREROUTING", "INPUT", "OUTPUT", "POSTROUTING"]);
    for c in ["KUBE-MARK-MASQ", "KUBE-NODEPORTS", "KUBE-POSTROUTING", "KUBE-SERVICES"] {
        nat.chain(c);
    }
    nat.rule("PREROUTING", "-m comment --comment \"kubernetes service portals\" -j KUBE-SERVICES".into());
    nat.rule("OUTPUT", "-m comment --comment \"kubernetes service portals\" -j KUBE-SERVICES".into());
    nat.rule("POSTROUTING", "-m comment --comment \"kubernetes postrouting rules\" -j KUBE-POSTROUTING".into());
    nat.rule("KUBE-MARK-MASQ", "-j MARK --set-xmark 0x4000/0x4000".into());
    nat.rule("KUBE-POSTROUTING", "-m mark ! --mark 0x4000/0x4000 -j RETURN".into());
    nat.rule("KUBE-POSTROUTING", "-j MARK --set-xmark 0x4000/0x0".into());
    nat.rule("KUBE-POSTROUTING", "-m comment --comment \"kubernetes service traffic requiring SNAT\" -j MASQUERADE --random-fully".into());

    for sp in ports {
        let name = sp.port_name_string();
        let proto = &sp.protocol;
        if sp.endpoints.is_empty() {
            filter.rule(
                "KUBE-SERVICES",
                format!(
                    "-d {}/32 -p {} -m comment --comment \"{} has no endpoints\" -m {} --dport {} -j REJECT --reject-with icmp-port-unreachable",
                    sp.cluster_ip, proto, name, proto, sp.port
                ),
            );
            if sp.node_port != 0 {
                filter.rule(
                    "KUBE-EXTERNAL-SERVICES",
                    format!(
                        "-p {} -m comment --comment \"{} has no endpoints\" -m addrtype --dst-type LOCAL -m {} --dport {} -j REJECT --reject-with icmp-port-unreachable",
                        proto, name, proto, sp.node_port
                    ),
                );
            }
            continue;
        }
        let svc_chain = sp.svc_chain();
        nat.rule(
            "KUBE-SERVICES",
            format!("-d {}/32 -p {} -m comment --comment \"{} cluster IP\" -m {} --dport {} -j {}", sp.cluster_ip, proto, name, proto, sp.port, svc_chain),
        );
        nat.rule(
            &svc_chain,
            format!(
                "! -s {} -d {}/32 -p {} -m comment --comment \"{} cluster IP\" -m {} --dport {} -j KUBE-MARK-MASQ",
                CLUSTER_CIDR, sp.cluster_ip, proto, name, proto, sp.port
            ),
        );
        let n = sp.endpoints.len();
        for (i, ep) in sp.endpoints.iter().enumerate() {
            let sep = sp.sep_chain(ep);
            let stat = if i + 1 < n { format!(" -m statistic --mode random --probability {}", probability(i, n)) } else { String::new() };
            nat.rule(&svc_chain, format!("-m comment --comment \"{} -> {}\"{} -j {}", name, ep.addr(), stat, sep));
            nat.rule(&sep, format!("-s {}/32 -m comment --comment \"{}\" -j KUBE-MARK-MASQ", ep.ip, name));
            nat.rule(&sep, format!("-p {} -m comment --comment \"{}\" -m {} -j DNAT --to-destination {}", proto, name, proto, ep.addr()));
        }
        if sp.node_port != 0 {
            let ext = sp.ext_chain();
            nat.rule("KUBE-NODEPORTS", format!("-p {} -m comment --comment \"{}\" -m {} --dport {} -j {}", proto, name, proto, sp.node_port, ext));
            nat.rule(&ext, format!("-m comment --comment \"masquerade traffic for {} external destinations\" -j KUBE-MARK-MASQ", name));
            nat.rule(&ext, format!("-j {}", svc_chain));
        }
    }
    // the node-ports jump must be the last rule of KUBE-SERVICES
    nat.rule(
        "KUBE-SERVICES",
        "-m comment --comment \"kubernetes service nodeports; NOTE: this must be the last rule in this chain\" -m addrtype --dst-type LOCAL -j KUBE-NODEPORTS".into(),
    );
    let mut out = String::new();
    filter.save(&mut out);
    nat.save(&mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Named table: chain names kube-proxy computed on real clusters.
    #[test]
    fn chain_names_match_kube_proxy() {
        let cases = [
            ("default/kubernetes:https", "tcp", "NPX46M4PTMTKRN6Y"),
            ("kube-system/kube-dns:dns", "udp", "TCOU7JCQXEZGVUNU"),
            ("kube-system/kube-dns:dns-tcp", "tcp", "ERIFXISQEP7F7OF4"),
            ("default/nginx", "tcp", "2CMXP7HKUVJN7L6M"),
        ];
        for (name, proto, want) in cases {
            assert_eq!(port_proto_hash(&format!("{}{}", name, proto)), want, "{}", name);
        }
        assert_eq!(port_proto_hash("ch20/web:httptcp10.244.0.194:8080"), "NFL37PQ3XGPAYNBX");
    }

    /// Named table: the probabilities iptables-save prints for rule i of n.
    #[test]
    fn probabilities_as_iptables_prints_them() {
        assert_eq!(probability(0, 2), "0.50000000000");
        assert_eq!(probability(0, 3), "0.33333333349");
        assert_eq!(probability(1, 3), "0.50000000000");
        let table = [(4, "0.25000000000"), (5, "0.20000000019"), (6, "0.16666666651"), (7, "0.14285714272"), (8, "0.12500000000"), (9, "0.11111111101"), (10, "0.10000000009")];
        for (n, want) in table {
            assert_eq!(probability(0, n), want, "1/{}", n);
        }
    }
}
