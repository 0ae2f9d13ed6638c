//! The Yew page (wasm32 only). `App` is the root and the only owner of side effects: it reads
//! and writes localStorage and the URL fragment, runs the animation clock (requestAnimationFrame)
//! and listens to the keyboard. Everything else is a pure reducer ([`State`] + [`Action`]) and
//! function components that render props.

mod audit;
mod console;
mod controls;
mod diagram;
mod editor;
mod lazy;
mod panels;

use super::fragment::{self, page_url, LinkError, Scenario, MAX_FRAGMENT, MAX_STORED_TEXT, SPEEDS};
use super::i18n::{fill, tr, Lang};
use super::layout::{self, Layout};
use super::narrate;
use super::presets;
pub use super::state::{Action, ApplyResult, Level, Pending, SessionRef, State, Tab};
use super::story;
use crate::trace::Message;
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use yew::prelude::*;

pub use console::Console;
pub use controls::Controls;
pub use diagram::Diagram;
pub use editor::Editor;
pub use panels::Panels;

const STORE_EDITOR: &str = "kubesim.editor";
const STORE_LANG: &str = "kubesim.lang";
const STORE_LEVEL: &str = "kubesim.level";
/// Quiet time (ms) after the last change before the scenario is mirrored into the URL fragment
/// and the editor into localStorage: typing does not re-encode the text on every keystroke.
const MIRROR_DEBOUNCE_MS: u32 = 300;
/// One step at 1× lasts this long (ms); the packet travels during the first 75 %.
pub const STEP_MS: f64 = 900.0;
pub const TRAVEL: f64 = 0.75;

/// The wall time (ms) one slice of simulation aims at: with the render after it, no task of the
/// page should exceed 50 ms.
const SLICE_MS: f64 = 25.0;
/// Deliveries per ms assumed before the first slice is measured.
const INITIAL_RATE: f64 = 8.0;

pub(crate) fn now_ms() -> f64 {
    window().and_then(|w| w.performance()).map(|p| p.now()).unwrap_or(0.0)
}

impl Reducible for State {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        self.update(action)
    }
}

// ---- browser access (the root's side effects) ---------------------------------------------

fn window() -> Option<web_sys::Window> {
    web_sys::window()
}

fn storage() -> Option<web_sys::Storage> {
    window()?.local_storage().ok()?
}

pub fn store_get(key: &str) -> Option<String> {
    storage()?.get_item(key).ok()?
}

pub fn store_set(key: &str, value: &str) {
    if let Some(s) = storage() {
        let _ = s.set_item(key, value);
    }
}

fn location_parts() -> (String, String, String) {
    let Some(loc) = window().map(|w| w.location()) else {
        return Default::default();
    };
    let origin_path = format!("{}{}", loc.origin().unwrap_or_default(), loc.pathname().unwrap_or_default());
    (origin_path, loc.search().unwrap_or_default(), loc.hash().unwrap_or_default())
}

fn is_embed(search: &str) -> bool {
    search.trim_start_matches('?').split('&').any(|p| p == "embed" || p.starts_with("embed="))
}

fn prefers_reduced_motion() -> bool {
    window().and_then(|w| w.match_media("(prefers-reduced-motion: reduce)").ok().flatten()).map(|m| m.matches()).unwrap_or(false)
}

/// Whether index.html's loader started the page from the embed's poster (Play, or `autoplay`):
/// it marks the root `data-play`.
fn play_requested() -> bool {
    window().and_then(|w| w.document()).and_then(|d| d.get_element_by_id("app")).map(|e| e.has_attribute("data-play")).unwrap_or(false)
}

/// The initial state from the URL (fragment, `?embed`), localStorage and the browser language.
pub fn initial_state() -> State {
    let (_, search, hash) = location_parts();
    let embed = is_embed(&search);
    // a refused link opens the page as if it had none, and says why
    let (sc, link_error) = match Scenario::parse(&hash) {
        Ok(sc) => (sc, None),
        Err(e) => (Scenario::default(), Some(e)),
    };
    let browser = window().and_then(|w| w.navigator().language()).unwrap_or_default();
    let lang = sc.lang.or_else(|| store_get(STORE_LANG).and_then(|l| Lang::from_code(&l))).unwrap_or_else(|| Lang::from_browser(&browser));
    // an embed shows what its link says, or the seed example: never what this browser last typed
    let stored = if embed { None } else { store_get(STORE_EDITOR) };
    let editor = sc.yaml.clone().or(stored).unwrap_or_else(|| presets::SEED_004.to_string());
    let mut s = if sc.has_content() { State::from_scenario(&sc, lang, editor, embed) } else { State::new(sc.seed, sc.speed, lang, editor, embed) };
    s.link_error = link_error;
    if store_get(STORE_LEVEL).as_deref() == Some(Level::All.code()) {
        s.level = Level::All;
    }
    s
}

/// A size for the notices, in KiB rounded up.
fn kib(n: usize) -> String {
    format!("{} KiB", n.div_ceil(1024))
}

/// The refusal of a link, in words.
fn link_error_text(e: &LinkError, lang: Lang) -> String {
    match e {
        LinkError::TooLarge(n) => fill(tr(lang, "link.too_large"), &[("size", kib(*n)), ("max", kib(MAX_FRAGMENT))]),
        LinkError::BadField(k, why) => fill(tr(lang, "link.malformed"), &[("field", k.clone()), ("why", tr(lang, why).to_string())]),
    }
}

/// Mirrors the scenario into the URL fragment (the step only goes into shared links) and the
/// editor into localStorage, each within its bound. Returns the fragment's full length.
/// Mirrors the scenario into the URL fragment (with the step, when paused, so that a reload
/// returns to it) and the editor into localStorage.
fn mirror(editor: &str, session: &SessionRef, seed: u64, speed: f64, lang: Lang, step: Option<usize>) -> usize {
    let log = session.rc.borrow().log.clone();
    let mut sc = Scenario::for_share(seed, speed, lang, editor, &log, 0);
    sc.step = step.filter(|p| *p > 0 && !log.is_empty());
    let len = sc.fragment_len();
    if len <= MAX_FRAGMENT {
        replace_hash(&sc.to_fragment());
    } else {
        // too large for a link: the address keeps only the seed, speed and language
        replace_hash(&Scenario { seed, speed, lang: Some(lang), ..Scenario::default() }.to_fragment());
    }
    // above the bound the browser keeps the last text that fitted
    if editor.len() <= MAX_STORED_TEXT {
        store_set(STORE_EDITOR, editor);
    }
    len
}

fn replace_hash(fragment: &str) {
    let Some(w) = window() else { return };
    let (origin_path, search, hash) = location_parts();
    if hash == fragment {
        return;
    }
    if let Ok(h) = w.history() {
        let url = format!("{}{}{}", origin_path, search, fragment);
        let _ = h.replace_state_with_url(&JsValue::NULL, "", Some(&url));
    }
}

/// The link and the iframe snippet for the current state, or the length the link would have
/// when that is over [`MAX_FRAGMENT`].
pub fn share_links(s: &State) -> Result<(String, String), usize> {
    let (origin_path, search, _) = location_parts();
    let sc = s.scenario(true);
    let len = sc.fragment_len();
    if len > MAX_FRAGMENT {
        return Err(len);
    }
    let frag = sc.to_fragment();
    let link = format!("{}{}", page_url(&origin_path, &search, false), frag);
    let embed = format!("{}{}", page_url(&origin_path, &search, true), frag);
    Ok((link, fragment::iframe_snippet(&embed)))
}

pub fn copy_to_clipboard(text: &str) {
    if let Some(w) = window() {
        let _ = w.navigator().clipboard().write_text(text);
    }
}

/// Shown by the panic hook: the page cannot go on, but the editor's text is kept and offered.
pub fn show_panic(message: &str) {
    web_sys::console::error_1(&JsValue::from_str(message));
    let Some(doc) = window().and_then(|w| w.document()) else {
        return;
    };
    if doc.get_element_by_id("panic").is_some() {
        return;
    }
    // keep the editor's text (it is also saved on every change)
    let text = doc.get_element_by_id("editor-text").and_then(|e| e.dyn_into::<web_sys::HtmlTextAreaElement>().ok()).map(|t| t.value());
    if let Some(t) = &text {
        store_set(STORE_EDITOR, t);
    }
    let lang = store_get(STORE_LANG).and_then(|l| Lang::from_code(&l)).unwrap_or_else(|| Lang::from_browser(&window().and_then(|w| w.navigator().language()).unwrap_or_default()));
    let make = |tag: &str, class: &str, text: &str| -> Option<web_sys::Element> {
        let e = doc.create_element(tag).ok()?;
        e.set_class_name(class);
        e.set_text_content(Some(text));
        Some(e)
    };
    let Some(overlay) = make("div", "panic", "") else {
        return;
    };
    overlay.set_id("panic");
    let _ = overlay.set_attribute("role", "alertdialog");
    let _ = overlay.set_attribute("aria-labelledby", "panic-title");
    let Some(card) = make("div", "panic-card", "") else {
        return;
    };
    if let Some(h) = make("h2", "", tr(lang, "panic.title")) {
        h.set_id("panic-title");
        let _ = card.append_child(&h);
    }
    if let Some(p) = make("p", "", tr(lang, "panic.body")) {
        let _ = card.append_child(&p);
    }
    if let Some(pre) = make("pre", "panic-msg", message) {
        let _ = card.append_child(&pre);
    }
    if let Some(t) = text {
        if let Ok(ta) = doc.create_element("textarea") {
            ta.set_class_name("panic-text");
            let _ = ta.set_attribute("readonly", "");
            let _ = ta.set_attribute("aria-label", tr(lang, "editor.title"));
            ta.set_text_content(Some(&t));
            let _ = card.append_child(&ta);
        }
    }
    if let Some(b) = make("button", "btn primary", tr(lang, "panic.reload")) {
        let cb = Closure::<dyn FnMut()>::new(|| {
            if let Some(w) = window() {
                let _ = w.location().reload();
            }
        });
        let _ = b.add_event_listener_with_callback("click", cb.as_ref().unchecked_ref());
        cb.forget();
        let _ = card.append_child(&b);
    }
    let _ = overlay.append_child(&card);
    if let Some(body) = doc.body() {
        let _ = body.append_child(&overlay);
    }
}

/// Installs the panic hook and mounts the page on `<body>`.
pub fn start() {
    std::panic::set_hook(Box::new(|info| {
        show_panic(&info.to_string());
    }));
    lazy::install();
    // a shared link whose scenario needs the second module loads it before the page replays it
    let (_, _, hash) = location_parts();
    let needs = Scenario::parse(&hash).map(|sc| sc.yaml.iter().chain(sc.script.iter()).any(|t| crate::kubectl::lazy::needs(t))).unwrap_or(false);
    if needs {
        wasm_bindgen_futures::spawn_local(async {
            lazy::ensure().await;
            render();
        });
    } else {
        render();
    }
}

/// Mounts the page.
fn render() {
    let root = window().and_then(|w| w.document()).and_then(|d| d.get_element_by_id("app"));
    match root {
        Some(r) => {
            // drop the "Loading…" placeholder
            while let Some(c) = r.first_child() {
                let _ = r.remove_child(&c);
            }
            yew::Renderer::<App>::with_root(r).render();
        }
        None => {
            yew::Renderer::<App>::new().render();
        }
    }
}

// ---- the animation clock ------------------------------------------------------------------

/// The requestAnimationFrame callback, kept alive while it reschedules itself.
type FrameHolder = Rc<RefCell<Option<Closure<dyn FnMut(f64)>>>>;

// When (performance.now(), ms) the reader last panned the diagram by hand: the camera leaves
// it alone for a while after that.
thread_local! {
    pub static LAST_PAN: Cell<f64> = const { Cell::new(-1e9) };
}

/// How long (ms) after the reader's own pan the camera waits before following the packet again.
const PAN_HOLD_MS: f64 = 4000.0;

/// The camera of a diagram wider than its frame (the embed below 860 px draws it at a readable
/// scale and pans): moves the frame's scroll position towards `x` (diagram units) at the centre,
/// by a fraction `ease` of the way (1 jumps there). Nothing to do when the diagram fits.
fn follow(packet: &NodeRef, x: f64, view_w: f64, ease: f64) {
    let Some(wrap) = packet.cast::<web_sys::Element>().and_then(|e| e.closest(".diagram-wrap").ok().flatten()) else {
        return;
    };
    let (sw, cw) = (f64::from(wrap.scroll_width()), f64::from(wrap.client_width()));
    if sw <= cw + 1.0 || view_w <= 0.0 || now_ms() - LAST_PAN.with(|c| c.get()) < PAN_HOLD_MS {
        return;
    }
    let target = (x * sw / view_w - cw / 2.0).clamp(0.0, sw - cw);
    let cur = f64::from(wrap.scroll_left());
    let next = cur + (target - cur) * ease.clamp(0.0, 1.0);
    if (next - cur).abs() >= 0.5 {
        wrap.set_scroll_left(next.round() as i32);
    }
}

/// Moves the packet along its route frame by frame, and asks for the next step when playing.
/// A diagram wider than its frame follows the packet (see [`follow`]).
#[allow(clippy::too_many_arguments)]
fn run_clock(packet: NodeRef, route: Vec<(f64, f64)>, label_w: f64, view_w: f64, animate: bool, playing: bool, speed: f64, dispatch: Callback<Action>) -> impl FnOnce() {
    let reduced = prefers_reduced_motion();
    // a step shown at once (stepping back, scrubbing, reduced motion): the camera goes to where
    // the packet rests, half-way between sender and receiver when the route is long
    if !route.is_empty() && !(animate && !reduced) {
        let (x, _) = layout::travel(&route, 0.5);
        follow(&packet, x, view_w, 1.0);
    }
    let duration = STEP_MS / speed.max(0.01);
    let cancelled = Rc::new(Cell::new(false));
    let raf_id = Rc::new(Cell::new(0i32));
    let holder: FrameHolder = Rc::new(RefCell::new(None));
    let start = Rc::new(Cell::new(-1.0f64));
    let place = {
        let packet = packet.clone();
        move |t: f64| {
            if let Some(el) = packet.cast::<web_sys::Element>() {
                let (x, _) = layout::travel(&route, t);
                let (x0, y0) = layout::label_origin(&route, t, label_w);
                let _ = el.set_attribute("transform", &format!("translate({:.1},{:.1})", x0, y0));
                follow(&packet, x, view_w, 0.12);
            }
        }
    };
    {
        let cancelled = cancelled.clone();
        let raf_id = raf_id.clone();
        let holder2 = holder.clone();
        let start = start.clone();
        *holder.borrow_mut() = Some(Closure::new(move |now: f64| {
            if cancelled.get() {
                return;
            }
            if start.get() < 0.0 {
                start.set(now);
            }
            let t = (now - start.get()) / duration;
            if animate && !reduced {
                place(layout::ease((t / TRAVEL).min(1.0)));
            }
            if t >= 1.0 {
                if playing {
                    // dispatch outside this callback: the effect's cleanup may drop it
                    let d = dispatch.clone();
                    gloo_timers::callback::Timeout::new(0, move || d.emit(Action::Tick)).forget();
                }
                return;
            }
            if let (Some(w), Some(cb)) = (window(), holder2.borrow().as_ref()) {
                if let Ok(id) = w.request_animation_frame(cb.as_ref().unchecked_ref()) {
                    raf_id.set(id);
                }
            }
        }));
    }
    let needs_clock = playing || (animate && !reduced);
    if needs_clock {
        if let (Some(w), Some(cb)) = (window(), holder.borrow().as_ref()) {
            if let Ok(id) = w.request_animation_frame(cb.as_ref().unchecked_ref()) {
                raf_id.set(id);
            }
        }
    }
    move || {
        cancelled.set(true);
        if let Some(w) = window() {
            let _ = w.cancel_animation_frame(raf_id.get());
        }
        // drop the closure later: this cleanup can run while the closure is on the stack
        let h = holder.clone();
        gloo_timers::callback::Timeout::new(0, move || {
            h.borrow_mut().take();
        })
        .forget();
    }
}

// ---- the root component ---------------------------------------------------------------------

#[function_component(App)]
pub fn app() -> Html {
    let state = use_reducer(initial_state);
    let dispatch: Callback<Action> = {
        let d = state.dispatcher();
        // the state this render saw (a counted reference, not a copy of the editor's text)
        let seen = state.clone();
        Callback::from(move |a: Action| {
            // a command that needs the page's second module waits for it to load
            let needs = match &a {
                Action::Console(line) => crate::kubectl::lazy::needs(line),
                Action::Apply => crate::kubectl::lazy::needs(&seen.editor),
                _ => false,
            };
            if needs && !lazy::loaded() {
                let d = d.clone();
                wasm_bindgen_futures::spawn_local(async move {
                    lazy::ensure().await;
                    d.dispatch(a);
                });
            } else {
                d.dispatch(a)
            }
        })
    };
    let packet = use_node_ref();
    let reduced = use_state(prefers_reduced_motion);
    // started from the embed's poster: Play was pressed there, so play (Apply first if needed)
    {
        let dispatch = dispatch.clone();
        use_effect_with((), move |_| {
            if play_requested() {
                dispatch.emit(Action::Autoplay);
            }
            || ()
        });
    }
    let lang = state.lang;
    let t = |k: &str| tr(lang, k);

    // mirror the scenario into the fragment and the editor into localStorage, once typing pauses
    let link_len = use_state(|| 0usize);
    {
        let link_len = link_len.clone();
        // the step only while paused: playing does not rewrite the address every step
        let step = (!state.playing).then_some(state.pos);
        let deps = (state.editor.clone(), state.session.clone(), state.seed, state.speed.to_bits(), lang, step);
        use_effect_with(deps, move |(editor, session, seed, speed_bits, lang, step)| {
            let (editor, session, seed, speed, lang, step) = (editor.clone(), session.clone(), *seed, f64::from_bits(*speed_bits), *lang, *step);
            let timer = gloo_timers::callback::Timeout::new(MIRROR_DEBOUNCE_MS, move || {
                link_len.set(mirror(&editor, &session, seed, speed, lang, step));
            });
            move || drop(timer)
        });
    }
    use_effect_with(state.level, |l| {
        store_set(STORE_LEVEL, l.code());
        || ()
    });
    use_effect_with(lang, |l| {
        store_set(STORE_LANG, l.code());
        if let Some(doc) = window().and_then(|w| w.document()) {
            if let Some(html) = doc.document_element() {
                let _ = html.set_attribute("lang", l.code());
            }
            doc.set_title(&format!("kubesim — {}", tr(*l, "app.tagline")));
        }
        || ()
    });
    // keyboard: space = play/pause, arrows = step (not while typing)
    {
        let dispatch = dispatch.clone();
        use_effect_with((), move |_| {
            let cb = Closure::<dyn FnMut(web_sys::KeyboardEvent)>::new(move |e: web_sys::KeyboardEvent| {
                if e.ctrl_key() || e.meta_key() || e.alt_key() || e.default_prevented() {
                    return;
                }
                if e.key() == "Escape" {
                    dispatch.emit(Action::Share(false));
                    return;
                }
                let typing = e
                    .target()
                    .and_then(|t| t.dyn_into::<web_sys::HtmlElement>().ok())
                    .map(|el| {
                        let tag = el.tag_name().to_ascii_uppercase();
                        tag == "TEXTAREA" || tag == "INPUT" || tag == "SELECT" || el.is_content_editable()
                    })
                    .unwrap_or(false);
                if typing {
                    return;
                }
                let action = match e.key().as_str() {
                    " " | "Spacebar" => Some(Action::TogglePlay),
                    "ArrowRight" => Some(Action::StepFwd),
                    "ArrowLeft" => Some(Action::StepBack),
                    _ => None,
                };
                if let Some(a) = action {
                    e.prevent_default();
                    dispatch.emit(a);
                }
            });
            let w = window();
            if let Some(w) = &w {
                let _ = w.add_event_listener_with_callback("keydown", cb.as_ref().unchecked_ref());
            }
            move || {
                if let Some(w) = w {
                    let _ = w.remove_event_listener_with_callback("keydown", cb.as_ref().unchecked_ref());
                }
                drop(cb);
            }
        });
    }

    // the current step's message and route
    let session = state.session.clone();
    // the nodes only change with the session (a `sim node add`): lay the diagram out once per version
    let lay = use_memo(session.clone(), |s| Layout::new(&crate::sandbox::node_names(&s.rc.borrow().cluster)));
    let current: Option<Message> = session.rc.borrow().current(state.pos).map(|s| s.msg.clone());
    {
        let packet = packet.clone();
        let lay = lay.clone();
        let current = current.clone();
        let dispatch = dispatch.clone();
        let animate = state.animate && current.is_some();
        use_effect_with((state.anim, state.playing, state.speed.to_bits(), session.version), move |&(_, playing, speed_bits, _)| {
            let speed = f64::from_bits(speed_bits);
            let (route, w) = match &current {
                Some(m) => (lay.route(m), layout::label_width(&layout::packet_label(m))),
                None => (vec![], 0.0),
            };
            run_clock(packet, route, w, lay.width, animate, playing, speed, dispatch)
        });
    }

    let (pos, len) = (state.pos, state.len());
    let narration = narrate::narrate(&session.rc.borrow(), pos, lang);
    let step_line = current.as_ref().map(|m| format!("{} · {} → {} · {}", crate::trace::format_ms(m.time_ms), m.from.name(), m.to.name(), m.label()));
    let segment = session.rc.borrow().current(pos).and_then(|st| session.rc.borrow().segments.get(st.segment).map(|g| g.command.clone()));

    let on_lang = {
        let dispatch = dispatch.clone();
        Callback::from(move |l: Lang| dispatch.emit(Action::SetLang(l)))
    };
    let on_share = {
        let dispatch = dispatch.clone();
        Callback::from(move |_| dispatch.emit(Action::Share(true)))
    };
    let on_seed = {
        let dispatch = dispatch.clone();
        Callback::from(move |e: Event| {
            let v = e.target_unchecked_into::<web_sys::HtmlInputElement>().value();
            if let Ok(n) = v.trim().parse::<u64>() {
                dispatch.emit(Action::SetSeed(n));
            }
        })
    };
    // a new seed is a new cluster: ask before dropping a timeline
    let on_seed = {
        let (steps, seed) = (state.len(), state.seed);
        let inner = on_seed;
        Callback::from(move |e: Event| {
            if steps > 0 {
                let ask = fill(tr(lang, "seed.confirm"), &[("n", steps.to_string())]);
                let ok = window().and_then(|w| w.confirm_with_message(&ask).ok()).unwrap_or(true);
                if !ok {
                    e.target_unchecked_into::<web_sys::HtmlInputElement>().set_value(&seed.to_string());
                    return;
                }
            }
            inner.emit(e);
        })
    };

    let lang_switch = html! {
        <div class="lang" role="group" aria-label={t("lang.label")}>
            <button class={classes!("seg", (lang == Lang::En).then_some("on"))} aria-pressed={(lang == Lang::En).to_string()} onclick={on_lang.reform(|_| Lang::En)}>{"EN"}</button>
            <button class={classes!("seg", (lang == Lang::Ko).then_some("on"))} aria-pressed={(lang == Lang::Ko).to_string()} onclick={on_lang.reform(|_| Lang::Ko)} lang="ko">{"한국어"}</button>
        </div>
    };

    // after Apply on a narrow screen (the editor above the diagram), bring the diagram, the
    // controls and the narration into view
    use_effect_with(state.reveal, |&reveal| {
        if reveal > 0 {
            let narrow = window().and_then(|w| w.inner_width().ok()).and_then(|v| v.as_f64()).map(|w| w < 1150.0).unwrap_or(false);
            let target = window().and_then(|w| w.document()).and_then(|d| d.query_selector(".page:not(.embed) .right").ok().flatten());
            if let (true, Some(el)) = (narrow, target) {
                let opts = web_sys::ScrollIntoViewOptions::new();
                opts.set_behavior(web_sys::ScrollBehavior::Smooth);
                opts.set_block(web_sys::ScrollLogicalPosition::Start);
                el.scroll_into_view_with_scroll_into_view_options(&opts);
            }
        }
        || ()
    });
    // a pending command continues one slice per task, sized from the last slice's duration so
    // that a slice (with the render after it) stays near SLICE_MS: the page keeps painting, and
    // takes clicks and console lines, between them
    let rate = use_mut_ref(|| INITIAL_RATE);
    {
        let d = dispatch.clone();
        let rate = rate.clone();
        let key = state.pending.as_ref().map(|p| (p.steps, p.last_ms.to_bits()));
        use_effect_with(key, move |key| {
            if key.is_some() {
                gloo_timers::callback::Timeout::new(0, move || {
                    let steps = (*rate.borrow() * SLICE_MS).clamp(10.0, 50_000.0) as u64;
                    let t0 = now_ms();
                    d.emit(Action::SettleSlice { steps, now_ms: t0 });
                    let dt = now_ms() - t0;
                    if dt > 0.5 {
                        // deliveries per ms, smoothed (a slice that grew the timeline costs more)
                        let r = steps as f64 / dt;
                        let mut cur = rate.borrow_mut();
                        *cur = (*cur * 0.5 + r * 0.5).max(0.05);
                    }
                })
                .forget();
            }
            || ()
        });
    }
    let editor = html! {
        <Editor
            text={state.editor.clone()}
            apply={state.apply.clone()}
            settling={state.pending.clone()}
            steps={state.len()}
            lang={lang}
            embed={state.embed}
            editing={state.editing.as_ref().map(|(l, _)| l.clone())}
            dispatch={dispatch.clone()}
        />
    };
    let diagram = html! {
        <Diagram session={session.clone()} pos={pos} lang={lang} packet={packet.clone()} animate={state.animate && !*reduced} anim={state.anim} layout={lay.clone()} fit={len > 0 && pos == len && !state.playing && state.pending.is_none()} />
    };
    // chapters, the story's length and the components: once per session version and language
    // (the timeline grows slice by slice while a command is simulated: its length is a dependency)
    let outline = use_memo((session.clone(), lang, len), |(s, lang, _)| {
        let s = s.rc.borrow();
        let chapters: Vec<(usize, String)> = s.chapters().iter().enumerate().map(|(k, c)| (c.start + 1, story::chapter_label(&s, k, *lang))).collect();
        (chapters, s.story_len(), s.components().to_vec())
    });
    let chapter = story::chapter_at(&session.rc.borrow(), pos);
    let controls = html! {
        <Controls pos={pos} len={len} playing={state.playing} speed={state.speed} lang={lang} dispatch={dispatch.clone()} segment={segment.clone()}
            position={story::position_text(&session.rc.borrow(), pos, state.level == Level::Story, lang)}
            level={state.level} story_len={outline.1} chapters={outline.0.clone()} chapter={chapter} jump={state.jump.clone()} components={outline.2.clone()} />
    };
    // the end of the timeline is its outcome: what runs where, and why Pods wait if they do
    let at_end = len > 0 && pos == len && state.pending.is_none();
    let last_is_story = at_end && session.rc.borrow().story_phase(len - 1).is_some();
    let summary = use_memo((session.clone(), lang, at_end), |(s, lang, at_end)| {
        at_end.then(|| {
            let s = s.rc.borrow();
            let sum = story::summary(&s);
            (story::summary_text(&sum, *lang), story::pending_reason(&s, &sum))
        })
    });
    let narration_box = html! {
        <section class="narration" aria-live={if state.playing { "off" } else { "polite" }} aria-labelledby="narr-title">
            <h2 id="narr-title" class="sr-only">{t("narr.title")}</h2>
            if let Some((sum, why)) = (*summary).clone() {
                <div class="step-line"><strong>{t("narr.outcome")}</strong></div>
                <p class="summary" id="summary" lang={lang.code()}>{sum}</p>
                if let Some((msg, at)) = why {
                    <p class="summary-why" id="summary-why" lang={lang.code()}>
                        {fill(t("sum.pending"), &[("msg", msg)])}{" "}
                        <button class="btn small" id="summary-jump" onclick={dispatch.reform(move |_| Action::Seek(at))}>{t("sum.pending.jump")}</button>
                    </p>
                }
                // the last step, when the story tells it (a refused request), after the outcome
                if last_is_story {
                    <p class="narr-text last" lang={lang.code()}>{narration.clone()}</p>
                }
            } else {
                if let Some(l) = step_line.clone() {
                    <div class="step-line"><code>{l}</code></div>
                }
                <p class="narr-text" lang={lang.code()}>{narration}</p>
            }
        </section>
    };
    let share = if state.share_open {
        let close = {
            let dispatch = dispatch.clone();
            Callback::from(move |_| dispatch.emit(Action::Share(false)))
        };
        match share_links(&state) {
            Ok((link, snippet)) => {
                html! { <ShareDialog link={link} snippet={snippet} too_large={None::<String>} lang={lang} on_close={close} /> }
            }
            Err(n) => {
                let why = fill(t("share.too_large"), &[("size", kib(n)), ("max", kib(MAX_FRAGMENT))]);
                html! { <ShareDialog link={String::new()} snippet={String::new()} too_large={Some(why)} lang={lang} on_close={close} /> }
            }
        }
    } else {
        html! {}
    };
    // a refused link, until dismissed
    let link_error = match &state.link_error {
        Some(e) => html! {
            <div class="notice bad" role="alert" id="link-error">
                <p>{link_error_text(e, lang)}</p>
                <button class="btn small" onclick={dispatch.reform(|_| Action::DismissLinkError)}>{t("ui.close")}</button>
            </div>
        },
        None => html! {},
    };
    // what the page does not mirror, and why
    let limits: Vec<String> = [
        (*link_len > MAX_FRAGMENT).then(|| fill(t("limit.link"), &[("size", kib(*link_len)), ("max", kib(MAX_FRAGMENT))])),
        (state.editor.len() > MAX_STORED_TEXT).then(|| fill(t("limit.store"), &[("size", kib(state.editor.len())), ("max", kib(MAX_STORED_TEXT))])),
    ]
    .into_iter()
    .flatten()
    .collect();
    let limits = if limits.is_empty() {
        html! {}
    } else {
        html! { <div class="notice small" role="status" id="mirror-notice">{ for limits.into_iter().map(|l| html! { <p>{l}</p> }) }</div> }
    };

    if state.embed {
        let (origin_path, search, _) = location_parts();
        let sc = state.scenario(true);
        let frag = if sc.fragment_len() <= MAX_FRAGMENT { sc.to_fragment() } else { String::new() };
        let full = format!("{}{}", page_url(&origin_path, &search, false), frag);
        return html! {
            <div class="page embed">
                <header class="bar">
                    <span class="brand">{"kubesim"}</span>
                    <span class="grow"></span>
                    {lang_switch}
                    <a class="btn ghost" href={full} target="_blank" rel="noopener">{t("embed.open")}</a>
                </header>
                {link_error.clone()}
                <main class="embed-main">
                    {diagram}
                    {controls}
                    {narration_box}
                    <section class="embed-editor">
                        <button class="btn ghost" aria-expanded={state.editor_open.to_string()} onclick={dispatch.reform(|_| Action::ToggleEditor)}>
                            {if state.editor_open { t("editor.hide") } else { t("editor.show") }}
                        </button>
                        if state.editor_open { {editor} {limits.clone()} }
                    </section>
                </main>
                {share}
            </div>
        };
    }

    html! {
        <div class="page">
            <header class="bar">
                <span class="brand">{"kubesim"}</span>
                <span class="tagline">{t("app.tagline")}</span>
                <span class="grow"></span>
                <label class="seed">{t("seed.label")}
                    <input type="number" min="0" value={state.seed.to_string()} onchange={on_seed} aria-label={t("seed.label")} />
                </label>
                {lang_switch}
                <button class="btn" onclick={on_share}>{t("share.button")}</button>
            </header>
            {link_error}
            <main class="main">
                <div class="left">{editor}{limits}</div>
                <div class="right">
                    {diagram}
                    {controls}
                    {narration_box}
                </div>
            </main>
            <div class="lower">
                <Panels session={session.clone()} pos={pos} lang={lang} tab={state.tab} object={state.object.clone()} etcd_key={state.etcd_key.clone()} pod={state.pod.clone()} dispatch={dispatch.clone()} />
                <Console transcript={session.rc.borrow().transcript.clone()} history={state.history.clone()} lang={lang} dispatch={dispatch.clone()} />
            </div>
            <footer class="foot">
                <span>{t("ctl.keys")}</span>
            </footer>
            {share}
        </div>
    }
}

// ---- share dialog ---------------------------------------------------------------------------

#[derive(Properties, PartialEq)]
pub struct ShareProps {
    pub link: String,
    pub snippet: String,
    /// Why there is no link: the run is too large for one.
    pub too_large: Option<String>,
    pub lang: Lang,
    pub on_close: Callback<()>,
}

#[function_component(ShareDialog)]
pub fn share_dialog(p: &ShareProps) -> Html {
    let lang = p.lang;
    let t = |k: &str| tr(lang, k);
    let copied = use_state(|| 0u8);
    let copy = |text: String, which: u8| {
        let copied = copied.clone();
        Callback::from(move |_| {
            copy_to_clipboard(&text);
            copied.set(which);
        })
    };
    let link_ref = use_node_ref();
    {
        let link_ref = link_ref.clone();
        use_effect_with((), move |_| {
            if let Some(el) = link_ref.cast::<web_sys::HtmlInputElement>() {
                let _ = el.focus();
                el.select();
            }
            || ()
        });
    }
    let close = p.on_close.reform(|_| ());
    let onkeydown = {
        let close = p.on_close.clone();
        Callback::from(move |e: KeyboardEvent| {
            if e.key() == "Escape" {
                close.emit(());
            }
        })
    };
    let select_all = Callback::from(|e: FocusEvent| {
        if let Some(el) = e.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()) {
            el.select();
        } else if let Some(el) = e.target().and_then(|t| t.dyn_into::<web_sys::HtmlTextAreaElement>().ok()) {
            el.select();
        }
    });
    html! {
        <div class="modal-back" onkeydown={onkeydown}>
            <div class="modal" role="dialog" aria-modal="true" aria-labelledby="share-title">
                <h2 id="share-title">{t("share.title")}</h2>
                if let Some(why) = p.too_large.clone() {
                    <p class="notice bad" id="share-too-large">{why}</p>
                } else {
                <p class="muted">{t("share.hint")}</p>
                <label class="field">{t("share.link")}
                    <div class="row">
                        <input id="share-link" ref={link_ref} readonly=true value={p.link.clone()} onfocus={select_all.clone()} />
                        <button class="btn" onclick={copy(p.link.clone(), 1)}>{if *copied == 1 { t("share.copied") } else { t("share.copy") }}</button>
                    </div>
                </label>
                <label class="field">{t("share.iframe")}
                    <div class="row">
                        <textarea id="share-iframe" readonly=true rows="3" value={p.snippet.clone()} onfocus={select_all} />
                        <button class="btn" onclick={copy(p.snippet.clone(), 2)}>{if *copied == 2 { t("share.copied") } else { t("share.copy") }}</button>
                    </div>
                </label>
                }
                <div class="row end">
                    <button class="btn primary" onclick={close}>{t("ui.close")}</button>
                </div>
            </div>
        </div>
    }
}

/// Speed menu entries.
pub fn speeds() -> &'static [f64] {
    SPEEDS
}
