//! kube-proxy's iptables mode (`pkg/proxy/iptables`).

pub mod proxier;
