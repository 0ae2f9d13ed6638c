//! The `/etc/resolv.conf` the kubelet writes into each Pod's sandbox.
//!
//! Real counterpart: `pkg/kubelet/network/dns/dns.go` (`GetPodDNS`, `getPodDNSType`,
//! `generateSearchesForDNSClusterFirst`, `appendDNSConfig`), with kubeadm's kubelet
//! configuration: `clusterDNS: [10.96.0.10]`, `clusterDomain: cluster.local`.
//!
//! `ClusterFirst` (the default): `search <ns>.svc.cluster.local svc.cluster.local cluster.local`,
//! `nameserver 10.96.0.10`, `options ndots:5`. `Default`, and `ClusterFirst` on the host network:
//! the node's own file. `None`: only `dnsConfig`. `dnsConfig` adds nameservers, searches and
//! options. What kubesim simplifies: the node's file is minikube's (`nameserver 192.168.49.1`,
//! no search line), and the 32-search-domain / 3-nameserver limits are not checked.

use crate::api::meta;
use serde_json::Value;

pub const CLUSTER_DNS: &str = crate::coredns::KUBE_DNS_IP;
/// The node's resolver (minikube's network gateway).
pub const NODE_NAMESERVER: &str = "192.168.49.1";

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResolvConf {
    pub nameservers: Vec<String>,
    pub search: Vec<String>,
    pub options: Vec<String>,
}

impl ResolvConf {
    /// `ndots` from the options (resolv.conf's default is 1).
    pub fn ndots(&self) -> usize {
        self.options.iter().rev().find_map(|o| o.strip_prefix("ndots:")).and_then(|n| n.parse().ok()).unwrap_or(1)
    }

    /// The file as the container reads it.
    pub fn render(&self) -> String {
        let mut s = String::new();
        if !self.search.is_empty() {
            s.push_str(&format!("search {}\n", self.search.join(" ")));
        }
        for n in &self.nameservers {
            s.push_str(&format!("nameserver {}\n", n));
        }
        if !self.options.is_empty() {
            s.push_str(&format!("options {}\n", self.options.join(" ")));
        }
        s
    }
}

fn strings(v: Option<&Value>) -> Vec<String> {
    v.and_then(|a| a.as_array()).map(|a| a.iter().filter_map(|x| x.as_str().map(String::from)).collect()).unwrap_or_default()
}

/// `GetPodDNS`.
pub fn resolv_conf(pod: &Value) -> ResolvConf {
    let policy = meta::get_str(pod, &["spec", "dnsPolicy"]);
    let host_network = meta::get(pod, &["spec", "hostNetwork"]).and_then(|v| v.as_bool()).unwrap_or(false);
    let ns = meta::namespace(pod);
    let mut conf = match policy {
        "None" => ResolvConf { nameservers: vec![], search: vec![], options: vec![] },
        "Default" => ResolvConf { nameservers: vec![NODE_NAMESERVER.into()], search: vec![], options: vec![] },
        "ClusterFirst" | "" if host_network => ResolvConf { nameservers: vec![NODE_NAMESERVER.into()], search: vec![], options: vec![] },
        _ => ResolvConf {
            nameservers: vec![CLUSTER_DNS.into()],
            search: vec![format!("{}.svc.cluster.local", ns), "svc.cluster.local".into(), "cluster.local".into()],
            options: vec!["ndots:5".into()],
        },
    };
    // appendDNSConfig
    if let Some(cfg) = meta::get(pod, &["spec", "dnsConfig"]) {
        for n in strings(cfg.get("nameservers")) {
            if !conf.nameservers.contains(&n) {
                conf.nameservers.push(n);
            }
        }
        for s in strings(cfg.get("searches")) {
            if !conf.search.contains(&s) {
                conf.search.push(s);
            }
        }
        for o in cfg.get("options").and_then(|o| o.as_array()).cloned().unwrap_or_default() {
            let name = meta::get_str(&o, &["name"]);
            let opt = match meta::get(&o, &["value"]).and_then(|v| v.as_str()) {
                Some(v) => format!("{}:{}", name, v),
                None => name.to_string(),
            };
            conf.options.retain(|x| x.split(':').next() != Some(name));
            conf.options.push(opt);
        }
    }
    conf
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Named table: resolv.conf by dnsPolicy.
    #[test]
    fn resolv_conf_table() {
        let pod = |spec: Value| json!({"metadata": {"name": "p", "namespace": "shop"}, "spec": spec});
        let cases = [
            ("ClusterFirst", pod(json!({"dnsPolicy": "ClusterFirst"})), "search shop.svc.cluster.local svc.cluster.local cluster.local\nnameserver 10.96.0.10\noptions ndots:5\n"),
            ("Default", pod(json!({"dnsPolicy": "Default"})), "nameserver 192.168.49.1\n"),
            ("host network", pod(json!({"dnsPolicy": "ClusterFirst", "hostNetwork": true})), "nameserver 192.168.49.1\n"),
            (
                "dnsConfig",
                pod(json!({"dnsPolicy": "ClusterFirst", "dnsConfig": {"searches": ["corp.example"], "options": [{"name": "ndots", "value": "2"}, {"name": "edns0"}]}})),
                "search shop.svc.cluster.local svc.cluster.local cluster.local corp.example\nnameserver 10.96.0.10\noptions ndots:2 edns0\n",
            ),
            ("None", pod(json!({"dnsPolicy": "None", "dnsConfig": {"nameservers": ["1.1.1.1"]}})), "nameserver 1.1.1.1\n"),
        ];
        for (name, p, want) in cases {
            assert_eq!(resolv_conf(&p).render(), want, "{}", name);
        }
    }
}
