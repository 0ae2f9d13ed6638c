//! The Yew page (wasm32 only). `App` is the root and the only owner of side effects: it reads
//! and writes localStorage and the URL fragment, runs the animation clock (requestAnimationFrame)
//! and listens to the keyboard. Everything else is a pure reducer ([`State`] + [`Action`]) and
//! function components that render props.

mod audit;
mod console;
mod controls;
mod diagram;
mod editor;
mod panels;

use super::fragment::{self, page_url, LinkError, Scenario, MAX_FRAGMENT, MAX_STORED_TEXT, SPEEDS};
use super::i18n::{fill, tr, Lang};
use super::layout::{self, Layout};
use super::model::{locate_errors, ErrorMark, Session};
use super::narrate;
use super::presets;
use super::story::{self, Jump};
use crate::kubectl;
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

/// The session, compared by identity and version (it is mutated in place by the reducer).
#[derive(Clone)]
pub struct SessionRef {
    pub rc: Rc<RefCell<Session>>,
    pub version: u64,
}

impl PartialEq for SessionRef {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.rc, &other.rc) && self.version == other.version
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tab {
    Events,
    Audit,
    Etcd,
    Objects,
    Rollout,
    Scheduler,
    Network,
}

impl Tab {
    pub const ALL: [Tab; 7] = [Tab::Events, Tab::Audit, Tab::Etcd, Tab::Objects, Tab::Rollout, Tab::Scheduler, Tab::Network];
    pub fn key(self) -> &'static str {
        match self {
            Tab::Events => "tab.events",
            Tab::Audit => "tab.audit",
            Tab::Etcd => "tab.etcd",
            Tab::Objects => "tab.objects",
            Tab::Rollout => "tab.rollout",
            Tab::Scheduler => "tab.scheduler",
            Tab::Network => "tab.network",
        }
    }
    pub fn id(self) -> &'static str {
        match self {
            Tab::Events => "events",
            Tab::Audit => "audit",
            Tab::Etcd => "etcd",
            Tab::Objects => "objects",
            Tab::Rollout => "rollout",
            Tab::Scheduler => "scheduler",
            Tab::Network => "network",
        }
    }
}

/// What Apply printed.
#[derive(Clone, Debug, PartialEq)]
pub struct ApplyResult {
    pub ok: bool,
    pub text: String,
    pub marks: Vec<ErrorMark>,
}

#[derive(Clone)]
pub struct State {
    pub session: SessionRef,
    pub pos: usize,
    pub playing: bool,
    pub speed: f64,
    pub lang: Lang,
    pub tab: Tab,
    pub editor: String,
    pub apply: Option<ApplyResult>,
    /// Bumped whenever the current step should play its packet from the start.
    pub anim: u64,
    /// Whether the current step's packet travels (false after stepping back or scrubbing).
    pub animate: bool,
    pub object: Option<(String, String)>,
    pub etcd_key: Option<String>,
    pub pod: Option<String>,
    pub history: Vec<String>,
    pub embed: bool,
    pub editor_open: bool,
    pub share_open: bool,
    pub seed: u64,
    /// An Apply whose settle is still being simulated in slices: kubectl's output and the first
    /// new step, kept until the timeline is complete.
    pub pending_apply: Option<(kubectl::Output, usize)>,
    /// (deliveries, virtual ms) simulated so far by the pending Apply: the progress line, and the
    /// effect's trigger for the next slice.
    pub settle_progress: (u64, i64),
    /// The link the page was opened with, refused (shown until dismissed).
    pub link_error: Option<LinkError>,
    /// Story (the steps a post would show) or every message: what Play and the step buttons visit.
    pub level: Level,
    /// What the jump buttons look for.
    pub jump: Jump,
    /// `kubectl edit …` in progress: the console line, and the editor's text before the object
    /// was opened in it (put back when the edit is saved or cancelled).
    pub editing: Option<(String, String)>,
}

/// The level of detail Play and the step buttons use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    Story,
    All,
}

impl Level {
    pub fn code(self) -> &'static str {
        match self {
            Level::Story => "story",
            Level::All => "all",
        }
    }
}

pub enum Action {
    SetEditor(String),
    Apply,
    /// Put the object `kubectl edit` opened back, unsaved.
    CancelEdit,
    Reset,
    Preset(usize),
    TogglePlay,
    Play,
    Pause,
    StepFwd,
    StepBack,
    Seek(usize),
    /// The animation clock finished the current step while playing.
    Tick,
    SetSpeed(f64),
    SetLang(Lang),
    SetTab(Tab),
    SelectObject(Option<(String, String)>),
    SelectKey(Option<String>),
    SelectPod(Option<String>),
    Console(String),
    ToggleEditor,
    Share(bool),
    SetSeed(u64),
    /// Simulate the next slice of a pending Apply.
    SettleSlice,
    DismissLinkError,
    SetLevel(Level),
    SetJump(Jump),
    /// To the next (true) or previous step matching the jump target.
    Jump(bool),
    /// The embed's poster was played (or its link says `autoplay`): run the scenario if nothing
    /// has run yet (Apply), and play.
    Autoplay,
}

/// Time one slice of a pending Apply may take before the page gets the main thread back.
const SLICE_BUDGET_MS: f64 = 40.0;

pub(crate) fn now_ms() -> f64 {
    window().and_then(|w| w.performance()).map(|p| p.now()).unwrap_or(0.0)
}

impl State {
    pub fn new(seed: u64, speed: f64, lang: Lang, editor: String, embed: bool) -> State {
        State {
            session: SessionRef { rc: Rc::new(RefCell::new(Session::new(seed))), version: 0 },
            pos: 0,
            playing: false,
            speed,
            lang,
            tab: Tab::Events,
            editor,
            apply: None,
            anim: 0,
            animate: false,
            object: None,
            etcd_key: None,
            pod: None,
            history: Vec::new(),
            embed,
            editor_open: !embed,
            share_open: false,
            seed,
            pending_apply: None,
            settle_progress: (0, 0),
            link_error: None,
            level: Level::Story,
            jump: Jump::Chapter,
            editing: None,
        }
    }

    /// The next position Play or the step button visits after `pos` (the end if none is left).
    fn next_pos(&self, pos: usize) -> Option<usize> {
        let len = self.len();
        if pos >= len {
            return None;
        }
        match self.level {
            Level::All => Some(pos + 1),
            Level::Story => Some(story::next(&self.session.rc.borrow(), pos, &Jump::Story).unwrap_or(len)),
        }
    }

    /// The previous position the step-back button visits.
    fn prev_pos(&self, pos: usize) -> Option<usize> {
        if pos == 0 {
            return None;
        }
        match self.level {
            Level::All => Some(pos - 1),
            Level::Story => Some(story::prev(&self.session.rc.borrow(), pos, &Jump::Story).unwrap_or(0)),
        }
    }

    /// Builds the state a URL fragment describes: runs its script on a fresh cluster.
    pub fn from_scenario(sc: &Scenario, lang: Lang, editor: String, embed: bool) -> State {
        let mut s = State::new(sc.seed, sc.speed, lang, editor, embed);
        if let Some(script) = sc.script_to_run() {
            let session = Session::replay(sc.seed, &script);
            let len = session.len();
            s.session = SessionRef { rc: Rc::new(RefCell::new(session)), version: 1 };
            s.pos = sc.step.unwrap_or(0).min(len);
        }
        s
    }

    /// Steps on the timeline.
    pub fn len(&self) -> usize {
        self.session.rc.borrow().len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Apply's end: kubectl's output (and error marks) under the editor, and the timeline plays
    /// from the first new step.
    fn finish_apply(&mut self, out: kubectl::Output, start: usize) {
        let len = self.len();
        let ok = out.code == 0;
        let text = out.combined();
        let marks = if ok { Vec::new() } else { locate_errors(&self.editor, &out.stderr) };
        self.apply = Some(ApplyResult { ok, text, marks });
        self.settle_progress = (0, 0);
        self.bump();
        if len > start {
            let first = self.next_pos(start).unwrap_or(start + 1);
            self.go(first, true);
            self.playing = true;
        }
        self.object = None;
        self.etcd_key = None;
        self.pod = None;
    }

    /// After a slice of an Apply's settle: finish it, or keep it pending with its progress (the
    /// App's effect schedules the next slice).
    fn after_slice(&mut self, done: bool, out: kubectl::Output, start: usize) {
        if done {
            self.finish_apply(out, start);
        } else {
            self.pending_apply = Some((out, start));
            self.settle_progress = self.session.rc.borrow().settling().map(|p| (p.steps, p.time_ms)).unwrap_or_default();
        }
    }

    fn bump(&mut self) {
        self.session.version += 1;
    }

    fn go(&mut self, pos: usize, animate: bool) {
        self.pos = pos.min(self.len());
        self.animate = animate;
        self.anim += 1;
    }

    /// The scenario as the URL fragment carries it (without the step, unless `with_step`).
    pub fn scenario(&self, with_step: bool) -> Scenario {
        let log = self.session.rc.borrow().log.clone();
        let mut sc = Scenario::for_share(self.seed, self.speed, self.lang, &self.editor, &log, self.pos);
        if !with_step {
            sc.step = None;
        }
        sc
    }
}

impl Reducible for State {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        let mut s = (*self).clone();
        match action {
            Action::SetEditor(text) => {
                if text == s.editor {
                    return self;
                }
                s.editor = text;
                // the marks belong to the text they were computed for
                if let Some(a) = &mut s.apply {
                    a.marks.clear();
                }
            }
            Action::Apply if s.editing.is_some() => {
                // kubectl edit: the editor's text is the edited object
                let Some((line, saved)) = s.editing.take() else { return self };
                let edited = std::mem::replace(&mut s.editor, saved);
                s.editor_open = true;
                let (_, start) = s.session.rc.borrow_mut().console(&line, &edited);
                s.bump();
                if s.len() > start {
                    let first = s.next_pos(start).unwrap_or(start + 1);
                    s.go(first, true);
                    s.playing = true;
                }
            }
            Action::CancelEdit => {
                let Some((line, saved)) = s.editing.take() else { return self };
                s.editor = saved;
                s.session.rc.borrow_mut().note_transcript(&format!("$ {}\nEdit cancelled, no changes made.\n", line));
                s.bump();
            }
            Action::Apply => {
                if s.pending_apply.is_some() {
                    return self;
                }
                let (out, start) = s.session.rc.borrow_mut().apply_begin(&s.editor);
                // small applies settle here, in one go; larger ones continue in slices
                let done = s.session.rc.borrow_mut().settle_some(super::model::FIRST_SLICE_STEPS, &mut || false);
                s.after_slice(done, out, start);
            }
            Action::SettleSlice => {
                let Some((out, start)) = s.pending_apply.take() else { return self };
                let deadline = now_ms() + SLICE_BUDGET_MS;
                let done = s.session.rc.borrow_mut().settle_some(super::model::SLICE_CHUNK_STEPS, &mut || now_ms() < deadline);
                s.after_slice(done, out, start);
            }
            Action::Reset => {
                s.pending_apply = None;
                s.session = SessionRef { rc: Rc::new(RefCell::new(Session::new(s.seed))), version: s.session.version + 1 };
                s.pos = 0;
                s.playing = false;
                s.apply = None;
                s.object = None;
                s.etcd_key = None;
                s.pod = None;
                s.anim += 1;
            }
            Action::SetSeed(seed) => {
                if seed == s.seed {
                    return self;
                }
                s.seed = seed;
                s.pending_apply = None;
                s.session = SessionRef { rc: Rc::new(RefCell::new(Session::new(seed))), version: s.session.version + 1 };
                s.pos = 0;
                s.playing = false;
                s.apply = None;
                s.anim += 1;
            }
            Action::Preset(i) => {
                if let Some((_, _, text)) = presets::PRESETS.get(i) {
                    s.editor = text.to_string();
                    s.apply = None;
                }
            }
            Action::TogglePlay => {
                if s.playing {
                    s.playing = false;
                } else {
                    return self.reduce(Action::Play);
                }
            }
            Action::Play => {
                if s.is_empty() {
                    return self;
                }
                s.playing = true;
                if s.pos >= s.len() {
                    let p = s.next_pos(0).unwrap_or(1);
                    s.go(p, true);
                } else if s.pos == 0 || !s.animate {
                    let p = s.next_pos(s.pos).unwrap_or(s.len());
                    s.go(p, true);
                }
            }
            Action::Pause => {
                if !s.playing {
                    return self;
                }
                s.playing = false;
            }
            Action::StepFwd => {
                if s.pos >= s.len() {
                    return self;
                }
                s.playing = false;
                let p = s.next_pos(s.pos).unwrap_or(s.len());
                s.go(p, true);
            }
            Action::StepBack => {
                if s.pos == 0 {
                    return self;
                }
                s.playing = false;
                let p = s.prev_pos(s.pos).unwrap_or(0);
                s.go(p, false);
            }
            Action::Seek(p) => {
                s.playing = false;
                s.go(p, false);
            }
            Action::Tick => {
                if !s.playing {
                    return self;
                }
                match s.next_pos(s.pos) {
                    Some(p) => s.go(p, true),
                    None => s.playing = false,
                }
            }
            Action::SetLevel(l) => s.level = l,
            Action::SetJump(j) => s.jump = j,
            Action::Jump(forward) => {
                let found = {
                    let session = s.session.rc.borrow();
                    if forward { story::next(&session, s.pos, &s.jump) } else { story::prev(&session, s.pos, &s.jump) }
                };
                let Some(p) = found else { return self };
                s.playing = false;
                s.go(p, forward);
            }
            Action::SetSpeed(x) => s.speed = x,
            Action::SetLang(l) => s.lang = l,
            Action::SetTab(t) => s.tab = t,
            Action::SelectObject(o) => s.object = o,
            Action::SelectKey(k) => s.etcd_key = k,
            Action::SelectPod(p) => s.pod = p,
            Action::Console(line) => {
                let line = line.trim().to_string();
                if line.is_empty() {
                    return self;
                }
                if s.history.last() != Some(&line) {
                    s.history.push(line.clone());
                }
                if line == "clear" {
                    s.session.rc.borrow_mut().transcript.clear();
                    s.bump();
                    return Rc::new(s);
                }
                // kubectl edit: the object opens in the editor; saving it runs the command
                let args = kubectl::split_args(&line).unwrap_or_default();
                if super::model::is_edit(&args) {
                    if s.editing.is_some() {
                        return self;
                    }
                    let opened = s.session.rc.borrow_mut().edit_text(&line);
                    if let Ok(text) = opened {
                        let saved = std::mem::replace(&mut s.editor, text);
                        s.editing = Some((line, saved));
                        s.editor_open = true;
                        s.apply = None;
                    }
                    s.bump();
                    return Rc::new(s);
                }
                let (_, start) = s.session.rc.borrow_mut().console(&line, &s.editor);
                s.bump();
                if s.len() > start {
                    let first = s.next_pos(start).unwrap_or(start + 1);
                    s.go(first, true);
                    s.playing = true;
                }
            }
            Action::ToggleEditor => s.editor_open = !s.editor_open,
            Action::Share(open) => s.share_open = open,
            Action::DismissLinkError => s.link_error = None,
            Action::Autoplay => {
                return if s.is_empty() { self.reduce(Action::Apply) } else { self.reduce(Action::Play) };
            }
        }
        Rc::new(s)
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
    let Some(loc) = window().map(|w| w.location()) else { return Default::default() };
    let origin_path = format!("{}{}", loc.origin().unwrap_or_default(), loc.pathname().unwrap_or_default());
    (origin_path, loc.search().unwrap_or_default(), loc.hash().unwrap_or_default())
}

fn is_embed(search: &str) -> bool {
    search.trim_start_matches('?').split('&').any(|p| p == "embed" || p.starts_with("embed="))
}

fn prefers_reduced_motion() -> bool {
    window()
        .and_then(|w| w.match_media("(prefers-reduced-motion: reduce)").ok().flatten())
        .map(|m| m.matches())
        .unwrap_or(false)
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
    let mut s = if sc.has_content() {
        State::from_scenario(&sc, lang, editor, embed)
    } else {
        State::new(sc.seed, sc.speed, lang, editor, embed)
    };
    s.link_error = link_error;
    if store_get(STORE_LEVEL).as_deref() == Some(Level::All.code()) {
        s.level = Level::All;
    }
    s
}

/// A chapter's title in words.
fn chapter_title(p: &story::Phase, lang: Lang) -> String {
    let (key, actor) = p.title_key();
    let actor = actor.map(|a| narrate::actor_name(lang, a)).unwrap_or_default();
    fill(tr(lang, key), &[("actor", actor)])
}

/// The closing summary: "3 Pods Running on node-1, node-2, node-3 after 4.2 s of cluster time…".
pub fn summary_text(s: &Session, lang: Lang) -> String {
    let sum = story::summary(s);
    let n: usize = sum.running.iter().map(|r| r.1).sum();
    let mut pods = if n == 0 {
        tr(lang, "sum.nopods").to_string()
    } else {
        let nodes = sum.running.iter().map(|(node, k)| if *k > 1 { format!("{} (×{})", node, k) } else { node.clone() }).collect::<Vec<_>>().join(", ");
        fill(tr(lang, if n == 1 { "sum.pod" } else { "sum.pods" }), &[("n", n.to_string()), ("nodes", nodes)])
    };
    if !sum.others.is_empty() {
        const NAMED: usize = 4;
        let mut list = sum.others.iter().take(NAMED).map(|(name, status)| format!("{} ({})", name, status)).collect::<Vec<_>>().join(", ");
        if sum.others.len() > NAMED {
            list = format!("{}, {}", list, fill(tr(lang, "sum.more"), &[("n", (sum.others.len() - NAMED).to_string())]));
        }
        pods = format!("{}; {}", pods, fill(tr(lang, "sum.other"), &[("pods", list)]));
    }
    fill(
        tr(lang, "sum.text"),
        &[
            ("pods", pods),
            ("time", format!("{:.1} s", sum.elapsed_ms as f64 / 1000.0)),
            ("messages", sum.messages.to_string()),
            ("writes", sum.etcd_writes.to_string()),
            ("events", sum.events.to_string()),
        ],
    )
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
    let Some(doc) = window().and_then(|w| w.document()) else { return };
    if doc.get_element_by_id("panic").is_some() {
        return;
    }
    // keep the editor's text (it is also saved on every change)
    let text = doc
        .get_element_by_id("editor-text")
        .and_then(|e| e.dyn_into::<web_sys::HtmlTextAreaElement>().ok())
        .map(|t| t.value());
    if let Some(t) = &text {
        store_set(STORE_EDITOR, t);
    }
    let lang = store_get(STORE_LANG).and_then(|l| Lang::from_code(&l)).unwrap_or_else(|| {
        Lang::from_browser(&window().and_then(|w| w.navigator().language()).unwrap_or_default())
    });
    let make = |tag: &str, class: &str, text: &str| -> Option<web_sys::Element> {
        let e = doc.create_element(tag).ok()?;
        e.set_class_name(class);
        e.set_text_content(Some(text));
        Some(e)
    };
    let Some(overlay) = make("div", "panic", "") else { return };
    overlay.set_id("panic");
    let _ = overlay.set_attribute("role", "alertdialog");
    let _ = overlay.set_attribute("aria-labelledby", "panic-title");
    let Some(card) = make("div", "panic-card", "") else { return };
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
    let Some(wrap) = packet.cast::<web_sys::Element>().and_then(|e| e.closest(".diagram-wrap").ok().flatten()) else { return };
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
                let (x, y) = layout::travel(&route, t);
                let _ = el.set_attribute("transform", &format!("translate({:.1},{:.1})", x - label_w / 2.0, y - 10.0));
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
        Callback::from(move |a: Action| d.dispatch(a))
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
    let step_line = current.as_ref().map(|m| {
        format!("#{} · {} · {} → {} · {}", m.id, crate::trace::format_ms(m.time_ms), m.from.name(), m.to.name(), m.label())
    });
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

    // a pending Apply continues one slice per task, so the page keeps painting between them
    {
        let d = dispatch.clone();
        use_effect_with((state.pending_apply.is_some(), state.settle_progress), move |&(pending, _)| {
            if pending {
                gloo_timers::callback::Timeout::new(0, move || d.emit(Action::SettleSlice)).forget();
            }
            || ()
        });
    }
    let editor = html! {
        <Editor
            text={state.editor.clone()}
            apply={state.apply.clone()}
            settling={state.pending_apply.as_ref().map(|_| state.settle_progress)}
            lang={lang}
            embed={state.embed}
            editing={state.editing.as_ref().map(|(l, _)| l.clone())}
            dispatch={dispatch.clone()}
        />
    };
    let diagram = html! {
        <Diagram session={session.clone()} pos={pos} lang={lang} packet={packet.clone()} animate={state.animate && !*reduced} anim={state.anim} layout={lay.clone()} />
    };
    // chapters, the story's length and the components: once per session version and language
    let outline = use_memo((session.clone(), lang), |(s, lang)| {
        let s = s.rc.borrow();
        let chapters: Vec<(usize, String)> = s.chapters().iter().map(|c| (c.start + 1, chapter_title(&c.phase, *lang))).collect();
        let mut components: Vec<String> = Vec::new();
        for st in &s.steps {
            for a in [&st.msg.from, &st.msg.to] {
                let c = story::component_of(a);
                if !components.contains(&c) {
                    components.push(c);
                }
            }
        }
        (chapters, s.story_len(), components)
    });
    let chapter = story::chapter_at(&session.rc.borrow(), pos);
    let controls = html! {
        <Controls pos={pos} len={len} playing={state.playing} speed={state.speed} lang={lang} dispatch={dispatch.clone()} segment={segment.clone()}
            level={state.level} story_len={outline.1} chapters={outline.0.clone()} chapter={chapter} jump={state.jump.clone()} components={outline.2.clone()} />
    };
    let summary = (len > 0 && pos == len).then(|| summary_text(&session.rc.borrow(), lang));
    let narration_box = html! {
        <section class="narration" aria-live={if state.playing { "off" } else { "polite" }} aria-labelledby="narr-title">
            <h2 id="narr-title" class="sr-only">{t("narr.title")}</h2>
            if let Some(l) = step_line.clone() {
                <div class="step-line"><code>{l}</code></div>
            }
            <p class="narr-text" lang={lang.code()}>{narration}</p>
            if let Some(sum) = summary {
                <p class="summary" id="summary" lang={lang.code()}>{sum}</p>
            }
        </section>
    };
    let share = if state.share_open {
        let close = {
            let dispatch = dispatch.clone();
            Callback::from(move |_| dispatch.emit(Action::Share(false)))
        };
        match share_links(&state) {
            Ok((link, snippet)) => html! { <ShareDialog link={link} snippet={snippet} too_large={None::<String>} lang={lang} on_close={close} /> },
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
