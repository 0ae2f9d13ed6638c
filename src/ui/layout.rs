//! Geometry of the diagram: where each component's box is in the SVG's fixed coordinate system
//! (1000 units wide; the SVG scales), and the route a message takes between two components.
//! Watches and every other component message go through kube-apiserver; only the API server has
//! an edge to etcd.

use crate::trace::{Actor, Message, MessageKind, NetHop};

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rect {
    pub x: f64,
    pub y: f64,
    pub w: f64,
    pub h: f64,
}

impl Rect {
    pub const fn new(x: f64, y: f64, w: f64, h: f64) -> Rect {
        Rect { x, y, w, h }
    }
    pub fn cx(&self) -> f64 {
        self.x + self.w / 2.0
    }
    pub fn cy(&self) -> f64 {
        self.y + self.h / 2.0
    }
    pub fn bottom(&self) -> f64 {
        self.y + self.h
    }
    pub fn right(&self) -> f64 {
        self.x + self.w
    }
    fn shift(self, dx: f64) -> Rect {
        Rect { x: self.x + dx, ..self }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct NodeBox {
    pub name: String,
    pub outer: Rect,
    pub kubelet: Rect,
    /// kube-proxy, beside the kubelet.
    pub proxy: Rect,
    pub runtime: Rect,
    /// Where the Pod chips go (inside the runtime box).
    pub pods: Rect,
    /// Route from the kubelet's top to the API server (polyline through the corridor).
    pub route: Vec<(f64, f64)>,
    /// kube-proxy's route: over to the kubelet's, then the same way.
    pub proxy_route: Vec<(f64, f64)>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Layout {
    pub width: f64,
    pub height: f64,
    pub kubectl: Rect,
    pub apiserver: Rect,
    pub etcd: Rect,
    pub kcm: Rect,
    pub dc: Rect,
    pub rsc: Rect,
    pub gc: Rect,
    /// The node lifecycle controller (`node-controller`); node IPAM shares it.
    pub nlc: Rect,
    /// The endpoints controller, under the garbage collector.
    pub epc: Rect,
    /// The EndpointSlice controller, under the node controller.
    pub epsc: Rect,
    /// The DaemonSet, Job and CronJob controllers, a one-line box under the four narrow ones.
    pub dsc: Rect,
    /// CoreDNS (drawn when the addon is installed), under kubectl.
    pub dns: Rect,
    /// metrics-server (drawn when the addon is installed), beside CoreDNS.
    pub metrics: Rect,
    /// The ingress-nginx controller (drawn when the addon is installed), under etcd.
    pub ingress: Rect,
    /// The Services row, under the nodes.
    pub services: Rect,
    pub scheduler: Rect,
    /// The scheduling queue area inside the scheduler box.
    pub queue: Rect,
    pub nodes: Vec<NodeBox>,
}

pub const NODE_H: f64 = 232.0;
pub const NODE_TOP: f64 = 344.0;
pub const CHIP_W: f64 = 128.0;
pub const CHIP_H: f64 = 34.0;
pub const CHIP_GAP: f64 = 6.0;
/// Nodes drawn side by side before the diagram grows wider (and scrolls).
pub const NODES_PER_VIEW: usize = 6;

impl Layout {
    pub fn new(nodes: &[String]) -> Layout {
        let n = nodes.len().max(1);
        let min_node_w = 150.0;
        let gap = 16.0;
        let width: f64 = if n <= NODES_PER_VIEW { 1000.0 } else { 40.0 + n as f64 * (min_node_w + gap) - gap };
        let dx = (width - 1000.0) / 2.0;
        let kubectl = Rect::new(20.0, 32.0, 150.0, 56.0).shift(dx);
        let apiserver = Rect::new(330.0, 18.0, 340.0, 80.0).shift(dx);
        let etcd = Rect::new(830.0, 26.0, 150.0, 66.0).shift(dx);
        let kcm = Rect::new(20.0, 140.0, 450.0, 176.0).shift(dx);
        // the deployment and replicaset controllers list their objects: they get more room
        let (wide, narrow) = (126.0, 78.5);
        let dc = Rect::new(30.0, 150.0, wide, 132.0).shift(dx);
        let rsc = Rect::new(30.0 + wide + 7.0, 150.0, wide, 132.0).shift(dx);
        // the four narrow ones: two columns of two
        let half = 62.5;
        let gc = Rect::new(30.0 + 2.0 * (wide + 7.0), 150.0, narrow, half).shift(dx);
        let nlc = Rect::new(30.0 + 2.0 * (wide + 7.0) + narrow + 7.0, 150.0, narrow, half).shift(dx);
        let epc = Rect::new(gc.x, 150.0 + half + 7.0, narrow, half);
        let epsc = Rect::new(nlc.x, 150.0 + half + 7.0, narrow, half);
        let dsc = Rect::new(gc.x, 287.0, epsc.right() - gc.x, 20.0);
        let dns = Rect::new(20.0, 98.0, 150.0, 34.0).shift(dx);
        let metrics = Rect::new(180.0, 98.0, 140.0, 34.0).shift(dx);
        let ingress = Rect::new(830.0, 100.0, 150.0, 34.0).shift(dx);
        let scheduler = Rect::new(560.0, 140.0, 420.0, 176.0).shift(dx);
        let queue = Rect::new(572.0, 196.0, 396.0, 110.0).shift(dx);
        // nodes: one row; wider than 6 makes the diagram wider
        let avail = width - 40.0;
        let mut node_w = ((avail - gap * (n as f64 - 1.0)) / n as f64).max(min_node_w);
        if n <= 3 {
            node_w = node_w.min(300.0);
        }
        let total = node_w * n as f64 + gap * (n as f64 - 1.0);
        let x0 = (width - total) / 2.0;
        let corridor_c = 515.0 + dx;
        let mut boxes = Vec::new();
        // routes: nodes left of the corridor turn at decreasing heights the farther they are
        let centers: Vec<f64> = (0..nodes.len()).map(|i| x0 + i as f64 * (node_w + gap) + node_w / 2.0).collect();
        let left: Vec<usize> = (0..nodes.len()).filter(|i| centers[*i] < corridor_c - 20.0).collect();
        let right: Vec<usize> = (0..nodes.len()).filter(|i| centers[*i] > corridor_c + 20.0).collect();
        for (i, name) in nodes.iter().enumerate() {
            let x = x0 + i as f64 * (node_w + gap);
            let outer = Rect::new(x, NODE_TOP, node_w, NODE_H);
            let inner = node_w - 16.0;
            let kubelet = Rect::new(x + 8.0, NODE_TOP + 28.0, (inner * 0.52).floor() - 3.0, 30.0);
            let proxy = Rect::new(kubelet.right() + 6.0, NODE_TOP + 28.0, x + 8.0 + inner - kubelet.right() - 6.0, 30.0);
            let runtime = Rect::new(x + 8.0, NODE_TOP + 84.0, node_w - 16.0, NODE_H - 92.0);
            let pods = Rect::new(runtime.x + 6.0, runtime.y + 24.0, runtime.w - 12.0, runtime.h - 30.0);
            let cx = kubelet.cx();
            let top = kubelet.y;
            let route = if let Some(pos) = left.iter().position(|j| *j == i) {
                // farthest left = index 0 -> highest turn, leftmost lane
                let k = left.len() - pos; // 1 for the nearest
                let lane = corridor_c - 8.0 * k as f64;
                let turn = NODE_TOP - 8.0 - 5.0 * (k as f64 - 1.0);
                vec![(cx, top), (cx, turn), (lane, turn), (lane, apiserver.bottom())]
            } else if let Some(pos) = right.iter().position(|j| *j == i) {
                let k = pos + 1;
                let lane = corridor_c + 8.0 * k as f64;
                let turn = NODE_TOP - 8.0 - 5.0 * (k as f64 - 1.0);
                vec![(cx, top), (cx, turn), (lane, turn), (lane, apiserver.bottom())]
            } else {
                // a node under the corridor: its kubelet (left of kube-proxy) steps into it
                let turn = NODE_TOP - 8.0;
                vec![(cx, top), (cx, turn), (corridor_c, turn), (corridor_c, apiserver.bottom())]
            };
            let jog = top - 8.0;
            let mut proxy_route = vec![(proxy.cx(), top), (proxy.cx(), jog), (cx, jog)];
            proxy_route.extend(route.iter().skip(1).cloned().filter(|p| p.1 < jog));
            boxes.push(NodeBox { name: name.clone(), outer, kubelet, proxy, runtime, pods, route, proxy_route });
        }
        let services = Rect::new(20.0, NODE_TOP + NODE_H + 10.0, width - 40.0, 34.0);
        Layout { width, height: NODE_TOP + NODE_H + 84.0, kubectl, apiserver, etcd, kcm, dc, rsc, gc, nlc, epc, epsc, dsc, dns, metrics, ingress, services, scheduler, queue, nodes: boxes }
    }

    /// Where the legend's `i`-th entry (its swatch's left, the text's baseline) goes: one row
    /// along the bottom.
    pub fn legend_at(&self, i: usize) -> (f64, f64) {
        (20.0 + i as f64 * 130.0, self.height - 16.0)
    }

    pub fn node(&self, name: &str) -> Option<&NodeBox> {
        self.nodes.iter().find(|n| n.name == name)
    }

    pub fn rect(&self, a: &Actor) -> Option<Rect> {
        Some(match a {
            // an operator is a client of the API server, as kubectl is: drawn with the clients
            Actor::Kubectl | Actor::WebsiteOperator => self.kubectl,
            Actor::ApiServer => self.apiserver,
            Actor::Etcd => self.etcd,
            Actor::ControllerManager => self.kcm,
            Actor::DeploymentController => self.dc,
            Actor::ReplicaSetController => self.rsc,
            Actor::GarbageCollector => self.gc,
            // node IPAM runs under the same service account: it shares the node controller's box
            Actor::NodeController | Actor::NodeIpamController => self.nlc,
            Actor::Scheduler => self.scheduler,
            Actor::EndpointsController => self.epc,
            Actor::EndpointSliceController => self.epsc,
            Actor::DaemonSetController | Actor::ReplicationController | Actor::StatefulSetController | Actor::JobController | Actor::CronJobController | Actor::TtlAfterFinishedController | Actor::RootCaCertPublisher | Actor::ServiceAccountController | Actor::ClusterRoleAggregationController | Actor::PersistentVolumeController | Actor::StorageProvisioner | Actor::NamespaceController | Actor::ResourceQuotaController | Actor::DisruptionController | Actor::HpaController | Actor::PvcProtectionController | Actor::PvProtectionController => self.dsc,
            Actor::CoreDns => self.dns,
            Actor::MetricsServer => self.metrics,
            Actor::IngressNginx => self.ingress,
            // the nodes' policy agent (kindnet's): drawn with the first node's kube-proxy
            Actor::NetworkPolicyAgent => self.nodes.first()?.proxy,
            Actor::AvailableConditionController | Actor::ApiExtensionsControllers => self.apiserver,
            Actor::Kubelet(n) => self.node(n)?.kubelet,
            Actor::KubeProxy(n) => self.node(n)?.proxy,
            Actor::Runtime(n) => self.node(n)?.runtime,
        })
    }

    /// The edge between a component and the API server, from the component to the API server.
    pub fn spoke(&self, a: &Actor) -> Vec<(f64, f64)> {
        let api = self.apiserver;
        match a {
            Actor::Kubectl | Actor::WebsiteOperator => vec![(self.kubectl.right(), self.kubectl.cy()), (api.x, self.kubectl.cy())],
            Actor::Etcd => vec![(self.etcd.x, self.etcd.cy()), (api.right(), self.etcd.cy())],
            // the process's own client (leader election) leaves from the box's top-right corner
            Actor::ControllerManager => vec![(self.kcm.right() - 2.5, self.kcm.y + 2.0), (api.x + 184.0, api.bottom())],
            Actor::DeploymentController => vec![(self.dc.cx(), self.dc.y), (api.x + 20.0, api.bottom())],
            Actor::ReplicaSetController => vec![(self.rsc.cx(), self.rsc.y), (api.x + 54.0, api.bottom())],
            Actor::GarbageCollector => vec![(self.gc.cx(), self.gc.y), (api.x + 88.0, api.bottom())],
            Actor::NodeController | Actor::NodeIpamController => vec![(self.nlc.cx(), self.nlc.y), (api.x + 112.0, api.bottom())],
            Actor::Scheduler => vec![(api.right() - 40.0, self.scheduler.y), (api.right() - 40.0, api.bottom())],
            // up the gaps beside the boxes above them
            Actor::EndpointsController => vec![(self.epc.x, self.epc.cy()), (self.epc.x - 3.5, self.epc.cy()), (self.epc.x - 3.5, self.kcm.y + 4.0), (api.x + 136.0, api.bottom())],
            Actor::EndpointSliceController => vec![(self.epsc.right(), self.epsc.cy()), (self.epsc.right() + 4.5, self.epsc.cy()), (self.epsc.right() + 4.5, self.kcm.y + 4.0), (api.x + 160.0, api.bottom())],
            Actor::DaemonSetController | Actor::ReplicationController | Actor::StatefulSetController | Actor::JobController | Actor::CronJobController | Actor::TtlAfterFinishedController | Actor::RootCaCertPublisher | Actor::ServiceAccountController | Actor::ClusterRoleAggregationController | Actor::PersistentVolumeController | Actor::StorageProvisioner | Actor::NamespaceController | Actor::ResourceQuotaController | Actor::DisruptionController | Actor::HpaController | Actor::PvcProtectionController | Actor::PvProtectionController => vec![(self.dsc.right(), self.dsc.cy()), (self.kcm.right() - 2.5, self.dsc.cy()), (self.kcm.right() - 2.5, self.kcm.y + 2.0), (api.x + 184.0, api.bottom())],
            Actor::CoreDns => vec![(self.dns.right(), self.dns.cy()), (api.x, api.bottom() - 12.0)],
            Actor::MetricsServer => vec![(self.metrics.right(), self.metrics.cy()), (api.x + 8.0, self.metrics.cy()), (api.x + 8.0, api.bottom())],
            Actor::IngressNginx => vec![(self.ingress.x, self.ingress.cy()), (api.right() - 8.0, self.ingress.cy()), (api.right() - 8.0, api.bottom())],
            Actor::NetworkPolicyAgent => self.nodes.first().map(|b| b.proxy_route.clone()).unwrap_or_default(),
            // inside kube-apiserver: its loopback client
            Actor::AvailableConditionController | Actor::ApiExtensionsControllers => vec![(api.cx(), api.cy()), (api.cx(), api.cy())],
            Actor::Kubelet(n) => self.node(n).map(|b| b.route.clone()).unwrap_or_default(),
            Actor::KubeProxy(n) => self.node(n).map(|b| b.proxy_route.clone()).unwrap_or_default(),
            Actor::Runtime(n) => self.node(n).map(|b| vec![(b.runtime.cx(), b.runtime.y), (b.kubelet.cx(), b.kubelet.bottom())]).unwrap_or_default(),
            Actor::ApiServer => vec![],
        }
    }

    /// Every edge drawn: (a name for styling, the points).
    pub fn edges(&self) -> Vec<(String, Vec<(f64, f64)>)> {
        let mut v = vec![
            ("kubectl".to_string(), self.spoke(&Actor::Kubectl)),
            ("etcd".to_string(), self.spoke(&Actor::Etcd)),
            ("dc".to_string(), self.spoke(&Actor::DeploymentController)),
            ("rsc".to_string(), self.spoke(&Actor::ReplicaSetController)),
            ("gc".to_string(), self.spoke(&Actor::GarbageCollector)),
            ("nlc".to_string(), self.spoke(&Actor::NodeController)),
            ("sched".to_string(), self.spoke(&Actor::Scheduler)),
            ("ep".to_string(), self.spoke(&Actor::EndpointsController)),
            ("eps".to_string(), self.spoke(&Actor::EndpointSliceController)),
            ("ds".to_string(), self.spoke(&Actor::DaemonSetController)),
            // drawn only once CoreDNS is installed
            ("dns".to_string(), self.spoke(&Actor::CoreDns)),
            // drawn only once metrics-server is installed
            ("metrics".to_string(), self.spoke(&Actor::MetricsServer)),
            // drawn only once ingress-nginx is installed
            ("ingress".to_string(), self.spoke(&Actor::IngressNginx)),
        ];
        for n in &self.nodes {
            v.push((format!("kubelet-{}", n.name), n.route.clone()));
            v.push((format!("proxy-{}", n.name), n.proxy_route.clone()));
            v.push((format!("cri-{}", n.name), vec![(n.kubelet.cx(), n.kubelet.bottom()), (n.runtime.cx(), n.runtime.y)]));
        }
        v
    }

    /// The path a message's packet travels, from sender to receiver.
    pub fn route(&self, m: &Message) -> Vec<(f64, f64)> {
        let (from, to) = (&m.from, &m.to);
        if from == to {
            let r = self.rect(from).unwrap_or(self.apiserver);
            return vec![(r.cx(), r.cy()), (r.cx(), r.cy())];
        }
        if *to == Actor::ApiServer {
            return self.spoke(from);
        }
        if *from == Actor::ApiServer {
            let mut p = self.spoke(to);
            p.reverse();
            return p;
        }
        match (from, to) {
            (Actor::Kubelet(a), Actor::Runtime(b)) if a == b => self.spoke(to).into_iter().rev().collect(),
            (Actor::Runtime(a), Actor::Kubelet(b)) if a == b => self.spoke(from),
            _ => {
                let a = self.rect(from).unwrap_or(self.apiserver);
                let b = self.rect(to).unwrap_or(self.apiserver);
                vec![(a.cx(), a.cy()), (b.cx(), b.cy())]
            }
        }
    }

    /// The edge a message uses (for highlighting), by the name `edges()` gives it.
    pub fn edge_name(m: &Message) -> String {
        let other = if m.from == Actor::ApiServer { &m.to } else { &m.from };
        match other {
            Actor::Kubectl => "kubectl".into(),
            Actor::Etcd => "etcd".into(),
            Actor::ControllerManager => "ds".into(),
            Actor::DeploymentController => "dc".into(),
            Actor::ReplicaSetController => "rsc".into(),
            Actor::GarbageCollector => "gc".into(),
            Actor::NodeController | Actor::NodeIpamController => "nlc".into(),
            Actor::Scheduler => "sched".into(),
            Actor::EndpointsController => "ep".into(),
            Actor::EndpointSliceController => "eps".into(),
            Actor::DaemonSetController | Actor::ReplicationController | Actor::StatefulSetController | Actor::JobController | Actor::CronJobController | Actor::TtlAfterFinishedController | Actor::RootCaCertPublisher | Actor::ServiceAccountController | Actor::ClusterRoleAggregationController | Actor::PersistentVolumeController | Actor::StorageProvisioner | Actor::NamespaceController | Actor::ResourceQuotaController | Actor::DisruptionController | Actor::HpaController | Actor::PvcProtectionController | Actor::PvProtectionController => "ds".into(),
            Actor::CoreDns => "dns".into(),
            Actor::MetricsServer => "metrics".into(),
            Actor::IngressNginx => "ingress".into(),
            Actor::NetworkPolicyAgent => String::new(),
            Actor::AvailableConditionController | Actor::ApiExtensionsControllers => String::new(),
            Actor::WebsiteOperator => "kubectl".into(),
            Actor::KubeProxy(n) => format!("proxy-{}", n),
            Actor::Kubelet(n) if matches!(m.kind, MessageKind::Runtime { .. }) => format!("cri-{}", n),
            Actor::Kubelet(n) => format!("kubelet-{}", n),
            Actor::Runtime(n) => format!("cri-{}", n),
            Actor::ApiServer => String::new(),
        }
    }
}

/// Total length of a polyline.
pub fn length(p: &[(f64, f64)]) -> f64 {
    p.windows(2).map(|w| ((w[1].0 - w[0].0).powi(2) + (w[1].1 - w[0].1).powi(2)).sqrt()).sum()
}

/// The point at fraction `t` (0..=1) of the way along a polyline.
pub fn point_at(p: &[(f64, f64)], t: f64) -> (f64, f64) {
    if p.is_empty() {
        return (0.0, 0.0);
    }
    let total = length(p);
    if total <= 0.0 {
        return p[0];
    }
    let mut d = t.clamp(0.0, 1.0) * total;
    for w in p.windows(2) {
        let seg = ((w[1].0 - w[0].0).powi(2) + (w[1].1 - w[0].1).powi(2)).sqrt();
        if d <= seg && seg > 0.0 {
            let f = d / seg;
            return (w[0].0 + (w[1].0 - w[0].0) * f, w[0].1 + (w[1].1 - w[0].1) * f);
        }
        d -= seg;
    }
    *p.last().unwrap_or(&(0.0, 0.0))
}

/// Where the packet's centre is at fraction `t` (0..=1) of its travel: along the route, but
/// stopping short of both ends so that its label does not cover the boxes it connects.
pub fn travel(route: &[(f64, f64)], t: f64) -> (f64, f64) {
    let len = length(route);
    let margin = if len <= 0.0 { 0.5 } else { (46.0 / len).min(0.5) };
    point_at(route, margin + (1.0 - 2.0 * margin) * t.clamp(0.0, 1.0))
}

/// Where the packet's label (`w` wide, 20 high) is drawn at `t`: beside the point, trailing it
/// along the way it travels, so that at rest it ends at the receiver's edge instead of covering
/// the receiver's title (a write resting on etcd's box used to hide "etcd").
pub fn label_origin(route: &[(f64, f64)], t: f64, w: f64) -> (f64, f64) {
    let (x, y) = travel(route, t);
    let (a, b) = (travel(route, (t - 0.02).max(0.0)), travel(route, (t + 0.02).min(1.0)));
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    if dx.abs() < 1e-6 && dy.abs() < 1e-6 {
        return (x - w / 2.0, y - 10.0);
    }
    if dx.abs() >= dy.abs() {
        (if dx > 0.0 { x - w } else { x }, y - 10.0)
    } else {
        (x - w / 2.0, if dy > 0.0 { y - 20.0 } else { y })
    }
}

/// SVG `points` attribute text.
pub fn points_attr(p: &[(f64, f64)]) -> String {
    p.iter().map(|(x, y)| format!("{:.1},{:.1}", x, y)).collect::<Vec<_>>().join(" ")
}

/// Ease-in-out for the packet's travel.
pub fn ease(t: f64) -> f64 {
    let t = t.clamp(0.0, 1.0);
    if t < 0.5 {
        2.0 * t * t
    } else {
        1.0 - (-2.0 * t + 2.0).powi(2) / 2.0
    }
}

/// The packet's label: `Message::label()`, with etcd keys shortened and long labels ellipsized.
pub fn packet_label(m: &Message) -> String {
    if let MessageKind::Net { hop, what } = &m.kind {
        return ellipsize(&net_label(*hop, what), 40);
    }
    let l = m.label().replace("/registry/", "");
    ellipsize(&l, 40)
}

/// A network hop's packet: the part of its line that changes hop to hop.
fn net_label(hop: NetHop, what: &str) -> String {
    let after = |pat: &str| what.rsplit_once(pat).map(|(_, r)| r.to_string());
    let label = match hop {
        NetHop::DnsRule | NetHop::Rule => after("DNAT to ").map(|t| format!("DNAT → {}", t)),
        NetHop::DnsQuery => what.strip_prefix("DNS query ").and_then(|q| q.split(" → ").next()).map(|q| format!("{}?", q)),
        NetHop::DnsAnswer => after(" IN ").map(|a| a.split(';').next().unwrap_or("").to_string()),
        NetHop::DnsNxDomain => Some("NXDOMAIN".to_string()),
        NetHop::Reject | NetHop::DnsReject => Some("REJECT (no endpoints)".to_string()),
        NetHop::ToPod => what.split(" (container").next().and_then(|t| t.split(" on ").next()).map(|t| t.replace(" → pod ", " → ")),
        NetHop::Answer => Some(what.split(" from ").next().unwrap_or(what).to_string()),
        NetHop::CniAdd => after("host-local gives ").map(|a| format!("CNI ADD {}", a.split(' ').next().unwrap_or(""))),
        NetHop::CniDel => after("releases ").map(|a| format!("CNI DEL {}", a)),
        NetHop::HostsFile => what.split(" (the").next().and_then(|t| t.split(": ").nth(1)).map(|t| format!("/etc/hosts {}", t)),
        NetHop::HostPort => after("DNAT to ").map(|t| format!("hostPort → {}", t.split(' ').next().unwrap_or(""))),
        NetHop::IngressRoute => after("upstream ").map(|t| format!("nginx → {}", t.split(" (round").next().unwrap_or(&t))),
        NetHop::IngressNotFound => Some("nginx: 404 (default backend)".to_string()),
        NetHop::IngressNoEndpoints => Some(if what.ends_with("502") { "nginx: 502" } else { "nginx: 503 (no endpoints)" }.to_string()),
        NetHop::IngressRedirect => Some("nginx: 308 → https".to_string()),
        NetHop::TlsHandshake => Some(if what.contains("of Secret ") { "TLS: the Secret's certificate" } else { "TLS: the fake certificate" }.to_string()),
        NetHop::TlsFailed => Some(if what.contains("verifies") { "TLS: certificate rejected" } else { "TLS: failed" }.to_string()),
        NetHop::PolicyAccept => Some("NetworkPolicy: ACCEPT".to_string()),
        NetHop::PolicyDrop => Some("NetworkPolicy: DROP".to_string()),
        NetHop::LocalPort => {
            let port = what.split("localhost:").nth(1).map(|r| r.chars().take_while(char::is_ascii_digit).collect::<String>()).unwrap_or_default();
            what.split(" → ").nth(1).map(|t| format!("localhost:{} → {}", port, t.split(" (").next().unwrap_or(t)))
        }
        NetHop::PortForward => {
            let port = what.split("port ").nth(1).map(|r| r.chars().take_while(char::is_ascii_digit).collect::<String>()).unwrap_or_default();
            Some(if what.starts_with("CRI PortForward") {
                format!("CRI PortForward 127.0.0.1:{}", what.split("127.0.0.1:").nth(1).map(|r| r.chars().take_while(char::is_ascii_digit).collect::<String>()).unwrap_or_default())
            } else if what.starts_with("kube-apiserver →") {
                format!("stream :{} → kubelet", port)
            } else {
                format!("port-forward stream :{}", port)
            })
        }
        _ => None,
    };
    label.unwrap_or_else(|| what.to_string())
}

pub fn ellipsize(s: &str, max: usize) -> String {
    let n = s.chars().count();
    if n <= max {
        return s.to_string();
    }
    let keep = max - 1;
    let head = keep * 3 / 5;
    let tail = keep - head;
    let h: String = s.chars().take(head).collect();
    let t: String = s.chars().skip(n - tail).collect();
    format!("{}…{}", h, t)
}

/// Width of a label in the diagram's monospace font (11 px → 6.6 units per character).
pub fn label_width(s: &str) -> f64 {
    s.chars().count() as f64 * 6.62 + 14.0
}

/// Packet colour class by message kind.
pub fn kind_class(m: &Message) -> &'static str {
    match m.kind {
        MessageKind::Request { .. } => "req",
        MessageKind::Response { .. } => "resp",
        MessageKind::EtcdTxn { .. } => "etcd",
        MessageKind::Watch { .. } => "watch",
        MessageKind::Runtime { .. } => "cri",
        MessageKind::Timer { .. } => "timer",
        MessageKind::Fault { .. } => "fault",
        MessageKind::Net { .. } => "net",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn msg(from: Actor, to: Actor) -> Message {
        Message { id: 1, time_ms: 0, from, to, kind: MessageKind::Timer { what: "x".into() }, cause: None }
    }

    #[test]
    fn watches_go_through_the_apiserver_and_routes_are_connected() {
        let names: Vec<String> = (1..=3).map(|i| format!("node-{}", i)).collect();
        let l = Layout::new(&names);
        // a watch to a kubelet starts at the API server and ends at the kubelet
        let r = l.route(&msg(Actor::ApiServer, Actor::Kubelet("node-2".into())));
        assert_eq!(r.last().unwrap().1, l.node("node-2").unwrap().kubelet.y);
        assert_eq!(r.first().unwrap().1, l.apiserver.bottom());
        // no edge touches etcd except the API server's
        for (name, pts) in l.edges() {
            let touches_etcd = pts.iter().any(|(x, y)| *x >= l.etcd.x - 0.1 && *x <= l.etcd.right() && *y >= l.etcd.y && *y <= l.etcd.bottom());
            assert_eq!(touches_etcd, name == "etcd", "{}", name);
        }
        // nodes fit in the width and do not overlap
        for w in l.nodes.windows(2) {
            assert!(w[0].outer.right() < w[1].outer.x);
        }
        assert!(l.nodes.last().unwrap().outer.right() <= l.width);
    }

    #[test]
    fn kubelet_routes_do_not_cross_the_controller_boxes() {
        for n in 1..=8 {
            let names: Vec<String> = (1..=n).map(|i| format!("node-{}", i)).collect();
            let l = Layout::new(&names);
            for b in &l.nodes {
                for w in b.route.windows(2) {
                    for r in [l.kcm, l.scheduler] {
                        // sample the segment
                        for k in 0..=20 {
                            let t = k as f64 / 20.0;
                            let x = w[0].0 + (w[1].0 - w[0].0) * t;
                            let y = w[0].1 + (w[1].1 - w[0].1) * t;
                            assert!(!(x > r.x && x < r.right() && y > r.y && y < r.bottom()), "{} nodes: {} crosses a box at {},{}", n, b.name, x, y);
                        }
                    }
                }
            }
        }
    }

    /// What the packet of each kind of network hop reads.
    #[test]
    fn net_label_table() {
        let cases = [
            (NetHop::Rule, "iptables on node-3: KUBE-SERVICES → KUBE-SVC-X → KUBE-SEP-Y (endpoint 3 of 3), DNAT to 10.244.2.3:80", "DNAT → 10.244.2.3:80"),
            (NetHop::DnsQuery, "DNS query A web.default.svc.cluster.local. → coredns-1 (10.244.3.2)", "A web.default.svc.cluster.local.?"),
            (NetHop::DnsAnswer, "DNS answer: web.default.svc.cluster.local. 30 IN A 10.109.145.165", "A 10.109.145.165"),
            (NetHop::ToPod, "TCP 10.244.2.3:80 → pod web-1 on node-2 (container nginx)", "TCP 10.244.2.3:80 → web-1"),
            (NetHop::Answer, "HTTP/1.1 200 from web-1", "HTTP/1.1 200"),
            (NetHop::CniAdd, "CNI ADD default/web-1 eth0: bridge cni0, host-local gives 10.244.2.2/24 gw 10.244.2.1", "CNI ADD 10.244.2.2/24"),
            (NetHop::Request, "GET http://web:80/", "GET http://web:80/"),
            (NetHop::HostsFile, "/etc/hosts of the machine outside: hello.example → 192.168.49.5 (the ADDRESS of ingress default/web)", "/etc/hosts hello.example → 192.168.49.5"),
            (NetHop::HostPort, "CNI portmap on node-3: hostPort 80 → DNAT to 10.244.3.3:80 (pod ingress-nginx-controller-1)", "hostPort → 10.244.3.3:80"),
            (NetHop::LocalPort, "GET http://localhost:8080/ → kubectl port-forward (to pod default/web-1 port 80)", "localhost:8080 → kubectl port-forward"),
            (NetHop::LocalPort, "GET http://localhost:8001/api → kubectl proxy (to kube-apiserver, as kubernetes-admin)", "localhost:8001 → kubectl proxy"),
            (NetHop::PortForward, "stream for port 80 over kubectl's upgraded connection (POST /api/v1/namespaces/default/pods/web-1/portforward)", "port-forward stream :80"),
            (NetHop::PortForward, "kube-apiserver → the kubelet's streaming server on node-1 (:10250): the stream for port 80", "stream :80 → kubelet"),
            (NetHop::PortForward, "CRI PortForward: connect to 127.0.0.1:80 inside pod web-1's network namespace", "CRI PortForward 127.0.0.1:80"),
            (NetHop::IngressRoute, "nginx in c-1: Host a, path / → server a, location / (Prefix, ingress default/web) → upstream default-web-80: 10.244.2.3:80 (round robin, endpoint 1 of 2)", "nginx → default-web-80: 10.244.2.3:80"),
        ];
        for (hop, what, want) in cases {
            assert_eq!(net_label(hop, what), want, "{:?}", hop);
        }
    }

    #[test]
    fn geometry_helpers() {
        let p = vec![(0.0, 0.0), (10.0, 0.0), (10.0, 10.0)];
        assert_eq!(length(&p), 20.0);
        assert_eq!(point_at(&p, 0.25), (5.0, 0.0));
        assert_eq!(point_at(&p, 0.75), (10.0, 5.0));
        assert_eq!(point_at(&p, 2.0), (10.0, 10.0));
        assert_eq!(ellipsize("abcdefghij", 5), "ab…ij");
        assert_eq!(ease(0.0), 0.0);
        assert_eq!(ease(1.0), 1.0);
    }

    /// A label resting at the receiver stays outside its box: etcd's title is never covered.
    #[test]
    fn packet_labels_rest_outside_the_receiver() {
        let l = Layout::new(&["node-1".to_string(), "node-2".to_string(), "node-3".to_string()]);
        let w = 150.0;
        for to in [Actor::Etcd, Actor::Kubectl, Actor::ApiServer] {
            let from = if to == Actor::ApiServer { Actor::Etcd } else { Actor::ApiServer };
            let route = if to == Actor::ApiServer { l.spoke(&from) } else { l.spoke(&to).into_iter().rev().collect() };
            let (x0, y0) = label_origin(&route, 1.0, w);
            let r = l.rect(&to).unwrap();
            let overlaps = x0 < r.right() && x0 + w > r.x && y0 < r.bottom() && y0 + 20.0 > r.y;
            assert!(!overlaps, "{:?}: label at ({}, {}) over {:?}", to, x0, y0, r);
        }
    }
}
