//! The SVG diagram: kubectl (and CoreDNS once installed), kube-apiserver, etcd,
//! kube-controller-manager (deployment, replicaset, garbage-collector, node lifecycle + IPAM,
//! endpoints and EndpointSlice controllers), kube-scheduler, one box per node (kubelet,
//! kube-proxy, containerd and its Pods) and the Services row. The current message is a labelled
//! packet on its edge; a network hop travels straight between the boxes it joins.

use super::SessionRef;
use crate::trace::{Actor, MessageKind};
use crate::ui::i18n::{fill, tr, Lang};
use crate::ui::layout::{self, Layout, Rect, CHIP_GAP, CHIP_H, CHIP_W};
use crate::ui::model::{PodChip, ServiceChip, Workload};
use std::rc::Rc;
use wasm_bindgen::JsCast;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct DiagramProps {
    pub session: SessionRef,
    pub pos: usize,
    pub lang: Lang,
    pub packet: NodeRef,
    /// The packet starts at the sender (it will travel); otherwise it rests at the receiver.
    pub animate: bool,
    pub anim: u64,
    pub layout: Rc<Layout>,
    /// The end of the timeline: a narrow frame zooms out so every node is in view.
    #[prop_or_default]
    pub fit: bool,
}

fn rect(r: Rect, class: &'static str) -> Html {
    html! { <rect class={class} x={fmt(r.x)} y={fmt(r.y)} width={fmt(r.w)} height={fmt(r.h)} rx="8" /> }
}

fn fmt(v: f64) -> String {
    format!("{:.1}", v)
}

fn text(x: f64, y: f64, class: &'static str, s: impl Into<String>) -> Html {
    let s: String = s.into();
    html! { <text class={class} x={fmt(x)} y={fmt(y)}>{s}</text> }
}

fn workloads(r: Rect, items: &[Workload], lang: Lang) -> Html {
    let max_chars = ((r.w - 14.0) / 6.3) as usize;
    let shown = if items.len() > 2 { 1 } else { 2 };
    let mut out: Vec<Html> = items
        .iter()
        .take(shown)
        .enumerate()
        .map(|(i, w)| {
            let y = r.y + 60.0 + i as f64 * 30.0;
            html! {
                <g class="wl-item">
                    <title>{format!("{} — ready {}/{}", w.name, w.ready, w.desired)}</title>
                    <text class="wl" x={fmt(r.x + 8.0)} y={fmt(y)}>{layout::ellipsize(&w.name, max_chars)}</text>
                    <text class="wl-n" x={fmt(r.x + 8.0)} y={fmt(y + 13.0)}>{format!("{}/{} ready", w.ready, w.desired)}</text>
                </g>
            }
        })
        .collect();
    if items.len() > shown {
        out.push(text(r.x + 8.0, r.y + 60.0 + shown as f64 * 30.0, "wl muted", fill(tr(lang, "diagram.more"), &[("n", (items.len() - shown).to_string())])));
    }
    html! { <>{for out}</> }
}

/// Colours for the owners' stripes (style.css `.tone-N`).
const TONES: usize = 6;

/// A chip's tooltip: the Pod, its status, its owner with the template hash, its images.
fn chip_title(p: &PodChip, lang: Lang) -> String {
    let mut lines = vec![p.name.clone(), format!("{}  {}", p.ready, p.status)];
    if !p.owner.is_empty() {
        lines.push(if p.hash.is_empty() { p.owner.clone() } else { fill(tr(lang, "chip.owner"), &[("owner", p.owner.clone()), ("hash", p.hash.clone())]) });
    }
    if !p.images.is_empty() {
        lines.push(fill(tr(lang, "chip.image"), &[("image", p.images.clone())]));
    }
    lines.join("\n")
}

fn chips(area: Rect, pods: &[&PodChip], lang: Lang) -> Html {
    let w = CHIP_W.min(area.w);
    let cols = (((area.w + CHIP_GAP) / (w + CHIP_GAP)).floor() as usize).max(1);
    let rows = (((area.h + CHIP_GAP) / (CHIP_H + CHIP_GAP)).floor() as usize).max(1);
    let slots = cols * rows;
    let overflow = pods.len() > slots;
    let show = if overflow { slots - 1 } else { pods.len() };
    let mut out: Vec<Html> = pods
        .iter()
        .take(show)
        .enumerate()
        .map(|(i, p)| {
            let x = area.x + (i % cols) as f64 * (w + CHIP_GAP);
            let y = area.y + (i / cols) as f64 * (CHIP_H + CHIP_GAP);
            let status = layout::ellipsize(&p.status, ((w - 24.0) / 5.75) as usize);
            let name_room = ((w - 24.0 - 6.4 * p.ready.len() as f64 - 6.0) / 6.4).max(4.0) as usize;
            html! {
                <g key={p.name.clone()} class={classes!("chip", p.class)} transform={format!("translate({},{})", fmt(x), fmt(y))}>
                    <title>{chip_title(p, lang)}</title>
                    <rect width={fmt(w)} height={fmt(CHIP_H)} rx="6" />
                    if let Some(tone) = p.tone {
                        <rect class={format!("owner-stripe tone-{}", tone % TONES)} x="1" y="4" width="3" height={fmt(CHIP_H - 8.0)} rx="1.5" />
                    }
                    <circle class="dot" cx="10" cy="11" r="4" />
                    <text class="chip-name" x="19" y="14.5">{layout::ellipsize(&p.short, name_room)}</text>
                    <text class="chip-ready" x={fmt(w - 7.0)} y="14.5">{p.ready.clone()}</text>
                    <text class="chip-status" x="19" y="28">{status}</text>
                </g>
            }
        })
        .collect();
    if overflow {
        let i = show;
        let x = area.x + (i % cols) as f64 * (w + CHIP_GAP);
        let y = area.y + (i / cols) as f64 * (CHIP_H + CHIP_GAP);
        out.push(html! {
            <g class="chip more" transform={format!("translate({},{})", fmt(x), fmt(y))}>
                <rect width={fmt(w)} height={fmt(CHIP_H)} rx="6" />
                <text class="chip-name" x="10" y="21">{fill(tr(lang, "diagram.more"), &[("n", (pods.len() - show).to_string())])}</text>
            </g>
        });
    }
    html! { <>{for out}</> }
}

/// The Services row: one chip per Service (name, ClusterIP:port, ready endpoints).
fn services_row(r: Rect, svcs: &[ServiceChip], lang: Lang) -> Html {
    let title_w = 70.0;
    let label = text(r.x + 10.0, r.cy() + 4.5, "title", tr(lang, "diagram.services"));
    if svcs.is_empty() {
        return html! { <>{label}{text(r.x + title_w + 10.0, r.cy() + 4.5, "sub", tr(lang, "diagram.no_services"))}</> };
    }
    let w = 196.0;
    let gap = 8.0;
    let room = r.w - title_w - 10.0;
    let fits = (((room + gap) / (w + gap)).floor() as usize).max(1);
    let overflow = svcs.len() > fits;
    let show = if overflow { fits - 1 } else { svcs.len() };
    let mut out: Vec<Html> = svcs
        .iter()
        .take(show)
        .enumerate()
        .map(|(i, sv)| {
            let x = r.x + title_w + i as f64 * (w + gap);
            let class = if sv.cluster_ip == "None" || sv.ready > 0 { "svc-ok" } else { "svc-bad" };
            let name = sv.name.clone();
            let ip = if sv.cluster_ip == "None" { format!("headless :{}", sv.ports) } else { format!("{}:{}", sv.cluster_ip, sv.ports) };
            let addr = if sv.namespace == "default" { ip } else { format!("{} · {}", sv.namespace, ip) };
            let ready = fill(tr(lang, "network.ready"), &[("ready", format!("{}/{}", sv.ready, sv.total))]);
            html! {
                <g key={format!("svc-{}-{}", sv.namespace, sv.name)} class={classes!("svc", class)} transform={format!("translate({},{})", fmt(x), fmt(r.y + 2.0))}>
                    <title>{format!("Service {}/{}  {}  {}", sv.namespace, sv.name, addr, ready)}</title>
                    <rect width={fmt(w)} height={fmt(r.h - 4.0)} rx="6" />
                    <text class="chip-name" x="8" y="13">{layout::ellipsize(&name, 20)}</text>
                    <text class="chip-ready" x={fmt(w - 7.0)} y="13">{ready}</text>
                    <text class="chip-status" x="8" y="26">{layout::ellipsize(&addr, 32)}</text>
                </g>
            }
        })
        .collect();
    if overflow {
        let x = r.x + title_w + show as f64 * (w + gap);
        out.push(text(x + 8.0, r.cy() + 4.5, "sub", fill(tr(lang, "diagram.more"), &[("n", (svcs.len() - show).to_string())])));
    }
    html! { <>{label}{for out}</> }
}

#[function_component(Diagram)]
pub fn diagram(p: &DiagramProps) -> Html {
    let lang = p.lang;
    let t = |k: &str| tr(lang, k);
    let l = &*p.layout;
    let s = p.session.rc.borrow();
    let pos = p.pos;
    let pods = s.pod_chips(pos);
    let deployments = s.workloads("deployments", pos);
    let replicasets = s.workloads("replicasets", pos);
    let nodes = s.nodes(pos);
    let services = s.services(pos);
    // CoreDNS is drawn once its addon is installed (the kube-dns Service exists)
    let coredns = s.coredns(pos);
    let metrics = s.metrics_server(pos);
    let ingress = s.ingress_nginx(pos);
    let rev = s.rev_at(pos);
    let current = s.current(pos).map(|st| st.msg.clone());
    // the authorization stage on kube-apiserver's box: the decision on the request in flight
    let authz = current.as_ref().and_then(|m| match &m.kind {
        MessageKind::Response { authz: Some(a), .. } if m.from == Actor::ApiServer => Some(a.clone()),
        MessageKind::Request { .. } if m.to == Actor::ApiServer => s.response_authz(pos, m.id),
        _ => None,
    });
    drop(s);
    let api_sub = match &authz {
        Some(a) if a.allowed() => format!("authz ✓ {}", layout::ellipsize(&a.short(), 28)),
        Some(_) => "authz ✗ 403 Forbidden".to_string(),
        None => "authn · authz · admission · watch".to_string(),
    };
    let api_sub_class = match &authz {
        Some(a) if !a.allowed() => "sub mid authz denied",
        Some(_) => "sub mid authz",
        None => "sub mid",
    };

    let active_edge = current.as_ref().map(Layout::edge_name).unwrap_or_default();
    let edges: Html = l
        .edges()
        .into_iter()
        .filter(|(name, _)| (coredns || name != "dns") && (metrics || name != "metrics") && (ingress || name != "ingress"))
        .map(|(name, pts)| {
            let on = name == active_edge;
            html! { <polyline key={name.clone()} class={classes!("edge", on.then_some("on"))} points={layout::points_attr(&pts)} /> }
        })
        .collect();

    // highlight sender and receiver
    let hl = |a: &Actor, class: &'static str| -> Html {
        match l.rect(a) {
            Some(r) => {
                let r = Rect::new(r.x - 3.0, r.y - 3.0, r.w + 6.0, r.h + 6.0);
                html! { <rect key={format!("{}-{}", class, p.anim)} class={class} x={fmt(r.x)} y={fmt(r.y)} width={fmt(r.w)} height={fmt(r.h)} rx="10" /> }
            }
            None => html! {},
        }
    };
    let highlights = match &current {
        Some(m) => html! { <>{hl(&m.from, "hl-from")}{hl(&m.to, "hl-to")}</> },
        None => html! {},
    };

    let packet = match &current {
        Some(m) => {
            let route = l.route(m);
            let label = layout::packet_label(m);
            let w = layout::label_width(&label);
            let (x, y) = layout::label_origin(&route, if p.animate { 0.0 } else { 1.0 }, w);
            html! {
                <g key={format!("pk-{}", p.anim)} ref={p.packet.clone()} class={classes!("packet", layout::kind_class(m))} transform={format!("translate({:.1},{:.1})", x, y)}>
                    <rect width={fmt(w)} height="20" rx="10" />
                    <text x={fmt(w / 2.0)} y="14">{label}</text>
                </g>
            }
        }
        None => html! {},
    };

    let unscheduled: Vec<&PodChip> = pods.iter().filter(|c| c.node.is_empty()).collect();
    let q = l.queue;
    let node_boxes: Html = l
        .nodes
        .iter()
        .map(|b| {
            let info = nodes.iter().find(|n| n.name == b.name);
            let (status, class) = match info {
                Some(n) if n.registered && n.ready => (t("diagram.ready"), "node-ok"),
                Some(n) if n.registered => (t("diagram.notready"), "node-bad"),
                _ => (t("diagram.unregistered"), "node-off"),
            };
            let mine: Vec<&PodChip> = pods.iter().filter(|c| c.node == b.name).collect();
            let cut = info.map(|n| n.cut_off).unwrap_or(false);
            html! {
                <g key={b.name.clone()} class={classes!("node", class, cut.then_some("node-cut"))}>
                    {rect(b.outer, "box node-box")}
                    {text(b.outer.x + 10.0, b.outer.y + 18.0, "title", b.name.clone())}
                    {text(b.outer.right() - 10.0, b.outer.y + 18.0, "node-status", status)}
                    if cut {
                        {text(b.outer.cx(), b.outer.y + 18.0, "node-cut-label mid", t("diagram.cut_off"))}
                    }
                    {rect(b.kubelet, "box comp kubelet")}
                    {text(b.kubelet.cx(), b.kubelet.y + 19.5, "label mid", "kubelet")}
                    {rect(b.proxy, "box comp proxy")}
                    {text(b.proxy.cx(), b.proxy.y + 19.5, "label mid narrow", if b.proxy.w < 72.0 { "proxy" } else { "kube-proxy" })}
                    {rect(b.runtime, "box runtime")}
                    {text(b.runtime.x + 8.0, b.runtime.y + 16.0, "sub", "containerd")}
                    {chips(b.pods, &mine, lang)}
                </g>
            }
        })
        .collect();

    let etcd = l.etcd;
    let api = l.apiserver;
    let kcm = l.kcm;
    let legend: Html = crate::ui::poster::LEGEND
        .iter()
        .enumerate()
        .map(|(i, (class, key))| {
            let (x, legend_y) = l.legend_at(i);
            html! {
                <g class={classes!("legend", *class)} transform={format!("translate({},{})", fmt(x), fmt(legend_y))}>
                    <rect width="22" height="12" rx="6" y="-10" />
                    <text x="30" y="0">{t(key)}</text>
                </g>
            }
        })
        .collect();

    // a diagram wider than its frame (the narrow embed): the reader pans it by dragging or
    // swiping; the camera (`follow` in mod.rs) then waits before following the packet again
    let drag = use_mut_ref(|| None::<(i32, i32)>);
    let mark = || super::LAST_PAN.with(|c| c.set(super::now_ms()));
    let frame_of = |e: &PointerEvent| e.current_target().and_then(|t| t.dyn_into::<web_sys::Element>().ok());
    let onpointerdown = {
        let drag = drag.clone();
        Callback::from(move |e: PointerEvent| {
            mark();
            if let Some(el) = frame_of(&e) {
                if e.pointer_type() == "mouse" && e.button() == 0 && el.scroll_width() > el.client_width() {
                    *drag.borrow_mut() = Some((e.client_x(), el.scroll_left()));
                    let _ = el.set_pointer_capture(e.pointer_id());
                }
            }
        })
    };
    let onpointermove = {
        let drag = drag.clone();
        Callback::from(move |e: PointerEvent| {
            let start = *drag.borrow();
            if let (Some((x0, s0)), Some(el)) = (start, frame_of(&e)) {
                mark();
                el.set_scroll_left(s0 - (e.client_x() - x0));
            }
        })
    };
    let onpointerup = {
        let drag = drag.clone();
        Callback::from(move |_: PointerEvent| *drag.borrow_mut() = None)
    };
    let onwheel = Callback::from(move |_: WheelEvent| mark());
    let min_width = if l.width > 1000.0 { format!("min-width: {:.0}px", l.width * 0.9) } else { String::new() };
    html! {
        <figure class={classes!("diagram-wrap", p.fit.then_some("fit"))} style={format!("--ratio: {:.4}", l.height / l.width.max(1.0))} {onpointerdown} {onpointermove} onpointerup={onpointerup.clone()} onpointercancel={onpointerup} {onwheel}>
            <svg class="diagram" viewBox={format!("0 0 {:.0} {:.0}", l.width, l.height)} style={min_width} role="img" aria-label={t("diagram.label")} preserveAspectRatio="xMidYMin meet">
                {edges}
                // kubectl
                {rect(l.kubectl, "box comp client")}
                {text(l.kubectl.cx(), l.kubectl.cy() + 5.0, "label mid big", "kubectl")}
                // kube-apiserver
                {rect(api, "box comp api")}
                {text(api.cx(), api.y + 34.0, "label mid big", "kube-apiserver")}
                {text(api.cx(), api.y + 56.0, api_sub_class, api_sub)}
                // etcd
                <g class="etcd">
                    <path class="box comp store" d={format!("M{x0},{y0} a{rx},10 0 0,0 {w},0 v{h} a{rx},10 0 0,1 -{w},0 z M{x0},{y0} a{rx},10 0 0,1 {w},0", x0 = fmt(etcd.x), y0 = fmt(etcd.y + 10.0), rx = fmt(etcd.w / 2.0), w = fmt(etcd.w), h = fmt(etcd.h - 20.0))} />
                    {text(etcd.cx(), etcd.y + 38.0, "label mid big", "etcd")}
                    {text(etcd.cx(), etcd.y + 56.0, "sub mid", format!("revision {}", rev))}
                </g>
                // kube-controller-manager
                {rect(kcm, "box group")}
                {text(kcm.x + 12.0, kcm.bottom() - 10.0, "title", t("diagram.kcm"))}
                {rect(l.dc, "box comp ctrl")}
                {text(l.dc.x + 8.0, l.dc.y + 20.0, "label", "deployment")}
                {text(l.dc.x + 8.0, l.dc.y + 36.0, "label", "controller")}
                {workloads(l.dc, &deployments, lang)}
                {rect(l.rsc, "box comp ctrl")}
                {text(l.rsc.x + 8.0, l.rsc.y + 20.0, "label", "replicaset")}
                {text(l.rsc.x + 8.0, l.rsc.y + 36.0, "label", "controller")}
                {workloads(l.rsc, &replicasets, lang)}
                {rect(l.gc, "box comp ctrl")}
                {text(l.gc.x + 8.0, l.gc.y + 20.0, "label narrow", "garbage")}
                {text(l.gc.x + 8.0, l.gc.y + 35.0, "label narrow", "collector")}
                {rect(l.nlc, "box comp ctrl")}
                {text(l.nlc.x + 8.0, l.nlc.y + 20.0, "label narrow", "node")}
                {text(l.nlc.x + 8.0, l.nlc.y + 35.0, "label narrow", "lifecycle")}
                {text(l.nlc.x + 8.0, l.nlc.y + 50.0, "label narrow", "+ ipam")}
                {rect(l.epc, "box comp ctrl")}
                {text(l.epc.x + 8.0, l.epc.y + 20.0, "label narrow", "endpoints")}
                {text(l.epc.x + 8.0, l.epc.y + 35.0, "label narrow", "controller")}
                {rect(l.epsc, "box comp ctrl")}
                {text(l.epsc.x + 8.0, l.epsc.y + 20.0, "label narrow", "endpoint-")}
                {text(l.epsc.x + 8.0, l.epsc.y + 35.0, "label narrow", "slice")}
                {text(l.epsc.x + 8.0, l.epsc.y + 50.0, "label narrow", "controller")}
                {rect(l.dsc, "box comp ctrl")}
                {text(l.dsc.cx(), l.dsc.y + 14.0, "label narrow mid", "ds·sts·job·cj·pv·ns·quota")}
                // CoreDNS (a Deployment in kube-system, drawn as the DNS server it is)
                if coredns {
                    {rect(l.dns, "box comp dns")}
                    {text(l.dns.cx(), l.dns.cy() + 5.0, "label mid", "CoreDNS")}
                }
                if metrics {
                    {rect(l.metrics, "box comp metrics")}
                    {text(l.metrics.cx(), l.metrics.cy() + 5.0, "label mid", "metrics-server")}
                }
                if ingress {
                    {rect(l.ingress, "box comp ingress")}
                    {text(l.ingress.cx(), l.ingress.cy() + 5.0, "label mid", "ingress-nginx")}
                }
                // the Services row
                {rect(l.services, "box group services")}
                {services_row(l.services, &services, lang)}
                // kube-scheduler
                {rect(l.scheduler, "box comp sched")}
                {text(l.scheduler.x + 12.0, l.scheduler.y + 24.0, "label big", "kube-scheduler")}
                {text(q.x, q.y - 8.0, "sub", t("diagram.queue"))}
                {rect(q, "box queue")}
                {chips(Rect::new(q.x + 6.0, q.y + 6.0, q.w - 12.0, q.h - 12.0), &unscheduled, lang)}
                // nodes
                {node_boxes}
                {highlights}
                {legend}
                {packet}
            </svg>
        </figure>
    }
}
