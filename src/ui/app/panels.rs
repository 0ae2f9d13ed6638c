//! The tabbed panels: Events, Audit log, etcd, Objects (with describe), Rollout, Scheduler, Network — each
//! shows the state at the current step.

use super::audit::AuditPanel;
use super::{Action, SessionRef, Tab};
use crate::trace::format_ms;
use crate::ui::i18n::{fill, tr, Lang};
use crate::scheduler::{Attempt, WinnerReason};
use crate::ui::model::Session;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct PanelsProps {
    pub session: SessionRef,
    pub pos: usize,
    pub lang: Lang,
    pub tab: Tab,
    pub object: Option<(String, String)>,
    pub etcd_key: Option<String>,
    pub pod: Option<String>,
    pub dispatch: Callback<Action>,
}

#[function_component(Panels)]
pub fn panels(p: &PanelsProps) -> Html {
    let lang = p.lang;
    let t = |k: &str| tr(lang, k);
    let body_ref = use_node_ref();
    // the Events tab: list order (`kubectl get events`) or watch order (`kubectl get events --watch`)
    let watch_order = use_state(|| false);
    // the etcd panel's resources listed in full
    let expanded = use_state(std::collections::BTreeSet::<String>::new);
    let expand = {
        let expanded = expanded.clone();
        Callback::from(move |res: String| {
            let mut e = (*expanded).clone();
            e.insert(res);
            expanded.set(e);
        })
    };
    let deps = (p.session.clone(), p.pos, p.tab, p.object.clone(), p.etcd_key.clone(), p.pod.clone(), lang, *watch_order, (*expanded).clone());
    let body = {
        let d = p.dispatch.clone();
        let watch_state = watch_order.clone();
        use_memo(deps, move |(session, pos, tab, object, key, pod, lang, watch, expanded)| {
            let s = session.rc.borrow();
            match tab {
                Tab::Events => events(&s, *pos, *lang, *watch, &watch_state),
                Tab::Audit => audit(session, *pos, *lang),
                Tab::Etcd => etcd(&s, *pos, key.clone(), *lang, &d, expanded, &expand),
                Tab::Objects => objects(&s, *pos, object.clone(), *lang, &d),
                Tab::Rollout => rollout(&s, *pos, *lang),
                Tab::Scheduler => scheduler(&s, *pos, pod.clone(), *lang, &d),
                Tab::Network => network(&s, *pos, pod.clone(), *lang, &d),
            }
        })
    };
    // (the Audit panel keeps itself scrolled to its newest row)
    let tabs: Html = Tab::ALL
        .iter()
        .map(|tab| {
            let sel = *tab == p.tab;
            let tab_v = *tab;
            html! {
                <button
                    role="tab"
                    id={format!("tab-{}", tab.id())}
                    class={classes!("tab", sel.then_some("on"))}
                    aria-selected={sel.to_string()}
                    aria-controls="panel-body"
                    tabindex={if sel { "0" } else { "-1" }}
                    onclick={p.dispatch.reform(move |_| Action::SetTab(tab_v))}
                >{t(tab.key())}</button>
            }
        })
        .collect();
    // arrow keys move between tabs (WAI-ARIA tabs pattern)
    let onkeydown = {
        let d = p.dispatch.clone();
        let cur = p.tab;
        Callback::from(move |e: KeyboardEvent| {
            let i = Tab::ALL.iter().position(|x| *x == cur).unwrap_or(0);
            let n = Tab::ALL.len();
            let next = match e.key().as_str() {
                "ArrowRight" => Some((i + 1) % n),
                "ArrowLeft" => Some((i + n - 1) % n),
                _ => None,
            };
            if let Some(j) = next {
                e.prevent_default();
                e.stop_propagation();
                d.emit(Action::SetTab(Tab::ALL[j]));
                if let Some(el) = web_sys::window().and_then(|w| w.document()).and_then(|doc| doc.get_element_by_id(&format!("tab-{}", Tab::ALL[j].id()))) {
                    if let Ok(h) = wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(el) {
                        let _ = h.focus();
                    }
                }
            }
        })
    };
    html! {
        <section class="panels">
            <div class="tabs" role="tablist" onkeydown={onkeydown}>{tabs}</div>
            <div id="panel-body" class={classes!("panel-body", p.tab.id())} role="tabpanel" aria-labelledby={format!("tab-{}", p.tab.id())} ref={body_ref} tabindex="0">
                {(*body).clone()}
            </div>
        </section>
    }
}

fn events(s: &Session, pos: usize, lang: Lang, watch: bool, set: &UseStateHandle<bool>) -> Html {
    let evs = s.objects("events", "default", pos);
    if evs.is_empty() && !watch {
        return html! { <p class="muted">{tr(lang, "events.empty")}</p> };
    }
    let (set_list, set_watch) = (set.clone(), set.clone());
    html! {
        <>
            <div class="order" role="group" aria-label={tr(lang, "events.order")}>
                <button id="events-list" class={classes!("seg", (!watch).then_some("on"))} aria-pressed={(!watch).to_string()} onclick={move |_| set_list.set(false)}>{tr(lang, "events.list")}</button>
                <button id="events-watch" class={classes!("seg", watch.then_some("on"))} aria-pressed={watch.to_string()} onclick={move |_| set_watch.set(true)}>{tr(lang, "events.watch")}</button>
            </div>
            if watch {
                <div class="cmd"><code>{"$ kubectl get events --watch"}</code></div>
                <pre class="term" id="events-out">{s.events_watch_text(pos)}</pre>
                <p class="muted small">{tr(lang, "events.watch_note")}</p>
            } else {
                <div class="cmd"><code>{"$ kubectl get events"}</code></div>
                <pre class="term" id="events-out">{s.events_text(pos)}</pre>
            }
        </>
    }
}

/// Services and EndpointSlices as of the step, and the NAT rules kube-proxy writes for them.
fn network(s: &Session, pos: usize, pod: Option<String>, lang: Lang, d: &Callback<Action>) -> Html {
    let Some((tables, rules)) = s.network_text(pos) else {
        return html! { <p class="muted">{tr(lang, "network.empty")}</p> };
    };
    let nat = rules.find("*nat").map(|i| rules[i..].to_string()).unwrap_or(rules);
    let ingress = s.ingress_text(pos).map(|(table, servers)| {
        html! {
            <>
                <div class="cmd"><code>{"$ kubectl get ingress -A -o wide"}</code></div>
                <pre class="term" id="network-ingress">{table}</pre>
                <p class="muted">{tr(lang, "network.ingress")}</p>
                <pre class="term" id="network-nginx">{servers}</pre>
            </>
        }
    });
    let netpol = s.netpol_text(pos).map(|(table, selected)| {
        // the policies of one Pod, picked like the Scheduler panel's (the same selection)
        let (keys, pick) = s.netpol_pods(pos, pod.as_deref());
        let onchange = d.reform(|e: Event| Action::SelectPod(Some(e.target_unchecked_into::<web_sys::HtmlSelectElement>().value())));
        let of_pod = pick.as_ref().and_then(|k| s.netpol_for_pod(pos, k)).map(|text| {
            let options: Html = keys.iter().map(|k| html! { <option value={k.clone()} selected={Some(k) == pick.as_ref()}>{k.clone()}</option> }).collect();
            html! {
                <>
                    <label class="muted" for="network-netpol-pick">{tr(lang, "network.netpol_pod")}</label>
                    <select id="network-netpol-pick" onchange={onchange}>{options}</select>
                    <pre class="term" id="network-netpol-of-pod">{text}</pre>
                </>
            }
        });
        html! {
            <>
                <div class="cmd"><code>{"$ kubectl get netpol -A"}</code></div>
                <pre class="term" id="network-netpol">{table}</pre>
                <p class="muted">{tr(lang, "network.netpol")}</p>
                <pre class="term" id="network-netpol-pods">{selected}</pre>
                {for of_pod}
            </>
        }
    });
    html! {
        <>
            <div class="cmd"><code>{"$ kubectl get svc,endpointslices -A -o wide"}</code></div>
            <pre class="term" id="network-out">{tables}</pre>
            {for ingress}
            {for netpol}
            <p class="muted">{tr(lang, "network.rules")}</p>
            <div class="cmd"><code>{"$ iptables-save -t nat"}</code></div>
            <pre class="term" id="network-rules">{nat}</pre>
        </>
    }
}

/// The Audit log panel ([`super::audit::AuditPanel`]: the log with its filters, the audit
/// policy, the Logs Insights query box).
fn audit(session: &SessionRef, pos: usize, lang: Lang) -> Html {
    html! { <AuditPanel session={session.clone()} pos={pos} lang={lang} /> }
}

/// A resource's keys listed in full up to this many; above, the newest [`ETCD_GROUP_NEWEST`]
/// and a button for the rest.
const ETCD_GROUP_SHOWN: usize = 40;
const ETCD_GROUP_NEWEST: usize = 12;

fn etcd(s: &Session, pos: usize, key: Option<String>, lang: Lang, d: &Callback<Action>, expanded: &std::collections::BTreeSet<String>, expand: &Callback<String>) -> Html {
    let t = |k: &str| tr(lang, k);
    let rev = s.rev_at(pos);
    let keys = s.etcd_keys(pos);
    let last = s.last_written_key(pos);
    let sel = key.filter(|k| keys.iter().any(|(x, _)| x == k)).or_else(|| last.clone().filter(|k| keys.iter().any(|(x, _)| x == k)));
    // keys grouped by resource; a large group (a thousand Pods, their Events) shows its most
    // recently written keys and the selected one until it is opened: a scrub re-renders a few
    // dozen rows, not thousands
    let mut groups: Vec<(String, Vec<&(String, i64)>)> = Vec::new();
    for kv in &keys {
        let res = kv.0.strip_prefix("/registry/").unwrap_or(&kv.0).split('/').next().unwrap_or("").to_string();
        match groups.last_mut() {
            Some((r, v)) if *r == res => v.push(kv),
            _ => groups.push((res, vec![kv])),
        }
    }
    let item = |k: &String, mrev: i64| {
        let on = sel.as_deref() == Some(k.as_str());
        let recent = last.as_deref() == Some(k.as_str());
        let kk = k.clone();
        html! {
            <li key={k.clone()}>
                <button class={classes!("key", on.then_some("on"), recent.then_some("recent"))} aria-pressed={on.to_string()} onclick={d.reform(move |_| Action::SelectKey(Some(kk.clone())))}>
                    <span class="k">{k.strip_prefix("/registry/").unwrap_or(k).to_string()}</span>
                    <span class="rev">{mrev}</span>
                </button>
            </li>
        }
    };
    let list: Html = groups
        .iter()
        .map(|(res, v)| {
            if v.len() <= ETCD_GROUP_SHOWN || expanded.contains(res) {
                return v.iter().map(|(k, r)| item(k, *r)).collect::<Html>();
            }
            // the newest writes, and the selected key, in key order
            let mut newest: Vec<i64> = v.iter().map(|(_, r)| *r).collect();
            newest.sort_unstable_by(|a, b| b.cmp(a));
            let cut = newest[ETCD_GROUP_NEWEST - 1];
            let shown: Html = v.iter().filter(|(k, r)| *r >= cut || sel.as_deref() == Some(k.as_str())).map(|(k, r)| item(k, *r)).collect();
            let res2 = res.clone();
            let more = fill(t("etcd.more"), &[("n", (v.len() - ETCD_GROUP_NEWEST).to_string()), ("res", res.clone())]);
            let on_more = {
                let expand = expand.clone();
                Callback::from(move |_: MouseEvent| expand.emit(res2.clone()))
            };
            html! { <>{shown}<li key={format!("more-{}", res)}><button class="key more" onclick={on_more}>{more}</button></li></> }
        })
        .collect();
    let detail = match sel.as_deref().and_then(|k| s.etcd_entry(k, pos)) {
        Some(e) => {
            let diff: Html = e
                .diff
                .iter()
                .take(200)
                .map(|l| {
                    let (class, text) = match l.op {
                        '+' if l.path.is_empty() => ("add", tr(lang, "etcd.created").to_string()),
                        '+' => ("add", format!("+ {}: {}", l.path, l.new)),
                        '-' => ("del", format!("- {}: {}", l.path, l.old)),
                        _ => ("chg", format!("~ {}: {} → {}", l.path, l.old, l.new)),
                    };
                    html! { <div class={classes!("diff-line", class)}>{text}</div> }
                })
                .collect();
            html! {
                <div class="etcd-detail">
                    <h3>{fill(t("etcd.value"), &[("key", e.key.clone()), ("rev", rev.to_string())])}</h3>
                    <div class="muted small">{fill(t("etcd.meta"), &[("c", e.create_revision.to_string()), ("m", e.mod_revision.to_string()), ("v", e.version.to_string())])}</div>
                    <h4>{fill(t("etcd.changed"), &[("rev", e.mod_revision.to_string())])}</h4>
                    <div class="diff" id="etcd-diff">{diff}</div>
                    <pre class="term json" id="etcd-value">{e.pretty}</pre>
                </div>
            }
        }
        None => html! { <p class="muted">{t("etcd.none")}</p> },
    };
    html! {
        <div class="etcd-panel">
            <div class="etcd-keys">
                <h3>{fill(t("etcd.keys"), &[("rev", rev.to_string())])}</h3>
                <ul>{list}</ul>
            </div>
            {detail}
        </div>
    }
}

fn objects(s: &Session, pos: usize, object: Option<(String, String)>, lang: Lang, d: &Callback<Action>) -> Html {
    let t = |k: &str| tr(lang, k);
    if let Some((res, name)) = object {
        let text = s.describe(&res, &name, pos);
        let kind = crate::ui::model::kind_of(&res).to_lowercase();
        return html! {
            <>
                <div class="cmd">
                    <button class="btn ghost small" onclick={d.reform(|_| Action::SelectObject(None))}>{t("objects.back")}</button>
                    <code>{format!("$ kubectl describe {} {}", kind, name)}</code>
                </div>
                <pre class="term" id="describe-out">{text}</pre>
            </>
        };
    }
    let lines = s.objects_lines(pos);
    html! {
        <>
            <div class="cmd"><code>{"$ kubectl get deploy,rs,pods -o wide"}</code><span class="muted small">{t("objects.hint")}</span></div>
            <pre class="term objects" id="objects-out">
                { for lines.into_iter().map(|l| match l.target {
                    Some(target) => {
                        let label = format!("kubectl describe {}", target.1);
                        html! { <button class="row-btn" aria-label={label} onclick={d.reform(move |_| Action::SelectObject(Some(target.clone())))}>{l.text}{"\n"}</button> }
                    }
                    None => html! { <span class="row">{l.text}{"\n"}</span> },
                }) }
            </pre>
        </>
    }
}

/// Each Deployment's ReplicaSets as bars of Pods (available, ready, created, still to create),
/// on one scale with the window the strategy allows: at most replicas + maxSurge Pods, at least
/// replicas − maxUnavailable available.
fn rollout(s: &Session, pos: usize, lang: Lang) -> Html {
    let t = |k: &str| tr(lang, k);
    let views = s.rollouts(pos);
    if views.is_empty() {
        return html! { <p class="muted">{t("rollout.empty")}</p> };
    }
    let body: Html = views
        .iter()
        .map(|r| {
            let max_total = r.replicas + r.max_surge;
            let min_available = (r.replicas - r.max_unavailable).max(0);
            let scale = r.sets.iter().map(|b| b.desired.max(b.current)).chain([max_total, r.total, 1]).max().unwrap_or(1) as f64;
            let pct = |n: i64| format!("{:.3}%", n as f64 * 100.0 / scale);
            let cells = |b: &crate::ui::model::RsBar| -> Html {
                // available ⊆ ready ⊆ created; then what is still to be created
                let avail = b.available.min(b.current);
                let ready = b.ready.min(b.current).max(avail) - avail;
                let created = b.current - avail - ready;
                let missing = (b.desired - b.current).max(0);
                html! {
                    <div class="rs-bar" role="img" aria-label={fill(t("rollout.bar"), &[("d", b.desired.to_string()), ("c", b.current.to_string()), ("r", b.ready.to_string()), ("a", b.available.to_string())])}>
                        if avail > 0 { <span class="pod-seg avail" style={format!("width:{}", pct(avail))}></span> }
                        if ready > 0 { <span class="pod-seg ready" style={format!("width:{}", pct(ready))}></span> }
                        if created > 0 { <span class="pod-seg created" style={format!("width:{}", pct(created))}></span> }
                        if missing > 0 { <span class="pod-seg missing" style={format!("width:{}", pct(missing))}></span> }
                    </div>
                }
            };
            let rows: Html = r
                .sets
                .iter()
                .map(|b| {
                    html! {
                        <li class={classes!("rs-row", b.is_new.then_some("new"), (b.desired == 0 && b.current == 0).then_some("idle"))}>
                            <div class="rs-head">
                                <span class="rs-name">{b.name.clone()}</span>
                                <span class="rs-rev">{fill(t("rollout.rev"), &[("rev", b.revision.clone())])}{if b.is_new { format!(" · {}", t("rollout.new")) } else { String::new() }}</span>
                                <span class="rs-image">{b.images.clone()}</span>
                            </div>
                            {cells(b)}
                            <div class="rs-counts small">{fill(t("rollout.counts"), &[("d", b.desired.to_string()), ("c", b.current.to_string()), ("r", b.ready.to_string()), ("a", b.available.to_string())])}</div>
                        </li>
                    }
                })
                .collect();
            let state = match (&r.progressing, r.paused) {
                (_, true) => t("rollout.paused").to_string(),
                (Some((st, reason)), _) => format!("Progressing={} ({})", st, reason),
                (None, _) => String::new(),
            };
            let strategy = if r.rolling {
                fill(
                    t("rollout.window"),
                    &[
                        ("surge", r.surge_text.clone()),
                        ("s", r.max_surge.to_string()),
                        ("unavail", r.unavailable_text.clone()),
                        ("u", r.max_unavailable.to_string()),
                        ("max", max_total.to_string()),
                        ("min", min_available.to_string()),
                        ("n", r.replicas.to_string()),
                    ],
                )
            } else {
                t("rollout.recreate").to_string()
            };
            let over = r.total > max_total;
            let under = r.available < min_available;
            html! {
                <section class="rollout" aria-label={format!("deployment/{}", r.name)}>
                    <h3>{format!("deployment/{}", r.name)}<span class="muted small">{format!(" · {} · {}", fill(t("rollout.rev"), &[("rev", r.revision.clone())]), state)}</span></h3>
                    <p class="small">{strategy}</p>
                    <ul class="rs-list" style={format!("--max:{};--min:{}", pct(max_total), pct(min_available))}>
                        {rows}
                        if r.rolling {
                            <li class="rs-row window">
                                <div class="rs-head"><span class="rs-name">{t("rollout.total")}</span></div>
                                <div class="rs-bar total">
                                    if r.available > 0 { <span class="pod-seg avail" style={format!("width:{}", pct(r.available.min(r.total)))}></span> }
                                    if r.total > r.available { <span class="pod-seg created" style={format!("width:{}", pct(r.total - r.available))}></span> }
                                    <span class="mark min" style={format!("left:{}", pct(min_available))} title={t("rollout.min").to_string()}></span>
                                    <span class="mark max" style={format!("left:{}", pct(max_total))} title={t("rollout.max").to_string()}></span>
                                </div>
                                <div class={classes!("rs-counts", "small", (over || under).then_some("bad"))}>{fill(t("rollout.totals"), &[("t", r.total.to_string()), ("max", max_total.to_string()), ("a", r.available.to_string()), ("min", min_available.to_string())])}</div>
                            </li>
                        }
                    </ul>
                </section>
            }
        })
        .collect();
    let hpas: Html = s.hpa_histories(pos).iter().map(|h| hpa_chart(h, lang)).collect();
    html! {
        <div class="rollout-panel" id="rollout-view">
            <div class="legend small">
                <span><i class="pod-seg avail"></i>{t("rollout.l.avail")}</span>
                <span><i class="pod-seg ready"></i>{t("rollout.l.ready")}</span>
                <span><i class="pod-seg created"></i>{t("rollout.l.created")}</span>
                <span><i class="pod-seg missing"></i>{t("rollout.l.missing")}</span>
            </div>
            {body}
            {hpas}
        </div>
    }
}

/// An HPA over time: CPU utilization (line), its target (dashed), current and desired replicas
/// (steps), on the virtual clock.
fn hpa_chart(h: &crate::ui::model::HpaHistory, lang: Lang) -> Html {
    let t = |k: &str| tr(lang, k);
    let (w, ht, pad) = (600.0_f64, 150.0_f64, 28.0_f64);
    let (t0, t1) = match (h.points.first(), h.points.last()) {
        (Some(a), Some(b)) if b.0 > a.0 => (a.0, b.0),
        (Some(a), _) => (a.0, a.0 + 1),
        _ => (0, 1),
    };
    let x = |tm: i64| pad + (tm - t0) as f64 * (w - 2.0 * pad) / (t1 - t0) as f64;
    let top_pct = h.points.iter().filter_map(|p| p.1).chain(h.target_pct.map(|p| p * 2)).max().unwrap_or(100).max(100) as f64;
    let top_rep = h.max.max(h.points.iter().map(|p| p.2.max(p.3)).max().unwrap_or(1)).max(1) as f64;
    let y_pct = |v: i64| ht - pad - v as f64 * (ht - 2.0 * pad) / top_pct;
    let y_rep = |v: i64| ht - pad - v as f64 * (ht - 2.0 * pad) / top_rep;
    let util: Vec<String> = h.points.iter().filter_map(|p| p.1.map(|u| format!("{:.1},{:.1}", x(p.0), y_pct(u)))).collect();
    let steps = |f: &dyn Fn(&(i64, Option<i64>, i64, i64)) -> i64| -> String {
        let mut pts: Vec<String> = Vec::new();
        let mut last: Option<i64> = None;
        for p in &h.points {
            let v = f(p);
            if let Some(l) = last {
                pts.push(format!("{:.1},{:.1}", x(p.0), y_rep(l)));
            }
            pts.push(format!("{:.1},{:.1}", x(p.0), y_rep(v)));
            last = Some(v);
        }
        pts.join(" ")
    };
    let last = h.points.last();
    let summary = fill(
        t("rollout.hpa"),
        &[
            ("name", h.name.clone()),
            ("target", h.target.clone()),
            ("util", last.and_then(|p| p.1).map(|u| format!("{}%", u)).unwrap_or_else(|| "<unknown>".into())),
            ("goal", h.target_pct.map(|p| format!("{}%", p)).unwrap_or_else(|| "-".into())),
            ("replicas", last.map(|p| p.2.to_string()).unwrap_or_default()),
            ("min", h.min.to_string()),
            ("max", h.max.to_string()),
            ("n", h.points.len().to_string()),
        ],
    );
    html! {
        <section class="hpa" aria-label={format!("horizontalpodautoscaler/{}", h.name)}>
            <h3>{format!("horizontalpodautoscaler/{}", h.name)}</h3>
            <p class="small">{summary}</p>
            <svg class="hpa-chart" viewBox={format!("0 0 {} {}", w, ht)} role="img" aria-label={t("rollout.hpa.chart").to_string()}>
                <line class="axis" x1={pad.to_string()} y1={(ht - pad).to_string()} x2={(w - pad).to_string()} y2={(ht - pad).to_string()} />
                if let Some(goal) = h.target_pct {
                    <line class="hpa-target" x1={pad.to_string()} y1={format!("{:.1}", y_pct(goal))} x2={(w - pad).to_string()} y2={format!("{:.1}", y_pct(goal))} />
                    <text class="small" x="2" y={format!("{:.1}", y_pct(goal) - 3.0)}>{format!("{}%", goal)}</text>
                }
                <polyline class="hpa-desired" points={steps(&|p| p.3)} />
                <polyline class="hpa-replicas" points={steps(&|p| p.2)} />
                <polyline class="hpa-util" points={util.join(" ")} />
                <text class="small" x={(w - pad + 2.0).to_string()} y={format!("{:.1}", y_rep(h.max) + 4.0)}>{h.max.to_string()}</text>
                <text class="small" x={pad.to_string()} y={(ht - 8.0).to_string()}>{crate::sim::format_ms(t0)}</text>
                <text class="small end" x={(w - pad).to_string()} y={(ht - 8.0).to_string()}>{crate::sim::format_ms(t1)}</text>
            </svg>
            <div class="legend small">
                <span><i class="line hpa-util"></i>{t("rollout.hpa.l.util")}</span>
                <span><i class="line hpa-target"></i>{t("rollout.hpa.l.target")}</span>
                <span><i class="line hpa-replicas"></i>{t("rollout.hpa.l.replicas")}</span>
                <span><i class="line hpa-desired"></i>{t("rollout.hpa.l.desired")}</span>
            </div>
        </section>
    }
}

fn scheduler(s: &Session, pos: usize, pod: Option<String>, lang: Lang, d: &Callback<Action>) -> Html {
    let t = |k: &str| tr(lang, k);
    let attempts = s.attempts(pos);
    let mut pods: Vec<String> = Vec::new();
    for a in &attempts {
        if !pods.contains(&a.pod) {
            pods.push(a.pod.clone());
        }
    }
    if pods.is_empty() {
        return html! { <><p class="muted">{t("sched.hint")}</p><p class="muted">{t("sched.nopods")}</p></> };
    }
    let sel = pod
        .filter(|p| pods.contains(p))
        .or_else(|| s.pod_of_step(pos).filter(|p| pods.contains(p)))
        .unwrap_or_else(|| pods.last().cloned().unwrap_or_default());
    let onchange = d.reform(|e: Event| Action::SelectPod(Some(e.target_unchecked_into::<web_sys::HtmlSelectElement>().value())));
    let mine: Vec<&Attempt> = attempts.iter().copied().filter(|a| a.pod == sel).collect();
    let tables: Html = mine
        .iter()
        .map(|a| {
            let time = format_ms(a.time_ms);
            let result = a.result.clone();
            let rows: Html = a
                .nodes
                .iter()
                .map(|n| {
                    let passed = n.filters.iter().all(|f| f.rejected.is_none());
                    let chosen = result.ends_with(&format!(" {}", n.node));
                    let fl: Html = n
                        .filters
                        .iter()
                        .map(|f| {
                            let verdict = f.rejected.clone().unwrap_or_else(|| "passed".to_string());
                            html! { <div class={classes!("verdict", if f.rejected.is_none() { "ok" } else { "bad" })}><span class="plugin">{f.plugin.clone()}</span>{": "}<span>{verdict}</span></div> }
                        })
                        .collect();
                    let sc: Html = if n.scores.is_empty() {
                        html! { <span class="muted">{if passed { "—".to_string() } else { t("sched.filtered").to_string() }}</span> }
                    } else {
                        n.scores
                            .iter()
                            .map(|x| {
                                let weight = if x.normalized != 0 { x.weighted / x.normalized } else { default_weight(x.plugin) };
                                html! { <div class="score"><span class="plugin">{x.plugin}</span>{format!(": {} → {} ×{} = {}", x.raw, x.normalized, weight, x.weighted)}</div> }
                            })
                            .collect()
                    };
                    html! {
                        <tr class={classes!(chosen.then_some("chosen"), (!passed).then_some("out"))}>
                            <th scope="row">{n.node.clone()}{if chosen { " ✓" } else { "" }}</th>
                            <td>{fl}</td>
                            <td>{sc}</td>
                            <td class="num">{if passed { n.total.to_string() } else { "—".into() }}</td>
                        </tr>
                    }
                })
                .collect();
            let why = a.winner_reason().map(|w| match w {
                WinnerReason::Only { node } => fill(t("sched.only"), &[("node", node)]),
                WinnerReason::Tie { node, tied, total } => fill(t("sched.tie"), &[("nodes", tied.join(", ")), ("total", total.to_string()), ("node", node)]),
                WinnerReason::Ahead { node, total, runner_up, runner_up_total, margins } => {
                    let m: Vec<String> = margins.iter().map(|(p, d)| format!("{p} {d:+}")).collect();
                    fill(t("sched.nodewon"), &[("node", node), ("total", total.to_string()), ("runner", runner_up), ("runner_total", runner_up_total.to_string()), ("margins", m.join(", "))])
                }
            });
            html! {
                <div class="attempt">
                    <h4>{fill(t("sched.attempt"), &[("t", time), ("result", result.clone())])}</h4>
                    <table class="sched-table">
                        <thead><tr><th>{t("sched.node")}</th><th>{t("sched.filters")}</th><th>{t("sched.scores")}</th><th>{t("sched.total")}</th></tr></thead>
                        <tbody>{rows}</tbody>
                    </table>
                    if let Some(w) = why { <p class="sched-why">{w}</p> }
                </div>
            }
        })
        .collect();
    html! {
        <div class="sched-panel">
            <p class="muted small">{t("sched.hint")}</p>
            <label class="field inline">{t("sched.pod")}
                <select id="sched-pod" onchange={onchange}>
                    { for pods.iter().map(|p| html! { <option value={p.clone()} selected={*p == sel}>{p.clone()}</option> }) }
                </select>
            </label>
            if mine.is_empty() { <p class="muted">{t("sched.none")}</p> }
            {tables}
        </div>
    }
}

/// The score plugin's weight in kube-scheduler's default profile.
fn default_weight(plugin: &str) -> i64 {
    crate::scheduler::framework::runtime::SCORE_PLUGINS.iter().find(|(p, _)| *p == plugin).map(|(_, w)| *w).unwrap_or(1)
}
