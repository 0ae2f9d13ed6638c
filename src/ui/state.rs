//! The page's state and its reducer: everything the page does in answer to a click, a key, a
//! console line or the animation clock, as a pure function `State × Action → State`. It has no
//! browser access (no clock, no DOM, no storage): the App passes what it measured (the size of
//! the next slice of simulation, as a number of deliveries; the wall clock for the progress line)
//! inside the [`Action`], and carries out the side effects the new state asks for. Compiled on
//! every target, so `cargo test` exercises the page's logic natively (as Yew's
//! `function_todomvc` example keeps its state apart from its components).

use super::fragment::{LinkError, Scenario};
use super::i18n::Lang;
use super::model::{locate_errors, ErrorMark, Session};
use super::presets;
use super::story::{self, Jump};
use crate::kubectl;
use std::cell::RefCell;
use std::rc::Rc;

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

/// A command still being simulated, and how far it got.
#[derive(Clone, Debug, PartialEq)]
pub struct Pending {
    /// Apply's kubectl output (shown under the editor when the timeline is complete); None for
    /// a console command (its output is in the transcript already).
    pub apply: Option<kubectl::Output>,
    /// The first step of the command.
    pub start: usize,
    /// Deliveries simulated so far, and the virtual time reached (ms).
    pub steps: u64,
    pub time_ms: i64,
    /// The wall clock (ms) at the first and the latest slice: messages per second.
    pub started_ms: Option<f64>,
    pub last_ms: f64,
}

impl Pending {
    /// A command just started at step `start` (`apply`: kubectl's output of an Apply).
    fn new(apply: Option<kubectl::Output>, start: usize) -> Pending {
        Pending { apply, start, steps: 0, time_ms: 0, started_ms: None, last_ms: 0.0 }
    }

    /// Messages simulated per second of wall time so far.
    pub fn rate(&self) -> Option<f64> {
        let dt = self.last_ms - self.started_ms?;
        (dt > 50.0).then(|| self.steps as f64 * 1000.0 / dt)
    }
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
    /// A command whose settle is still being simulated in slices (its steps join the timeline
    /// slice by slice).
    pub pending: Option<Pending>,
    /// Console lines typed while a simulation runs: they run, in order, when it ends.
    pub queued: Vec<String>,
    /// Bumped when an Apply's timeline is ready: a narrow page scrolls the diagram into view.
    pub reveal: u64,
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
    /// Simulate the next slice of a pending Apply or console command: `steps` deliveries (the
    /// App sizes it from the last slice's duration so no task exceeds its budget); `now_ms` is
    /// the wall clock, for the progress line's messages per second.
    SettleSlice {
        steps: u64,
        now_ms: f64,
    },
    /// Stop the simulation in progress: the cluster goes back to what it was before the command.
    Cancel,
    DismissLinkError,
    SetLevel(Level),
    SetJump(Jump),
    /// To the next (true) or previous step matching the jump target.
    Jump(bool),
    /// The embed's poster was played (or its link says `autoplay`): run the scenario if nothing
    /// has run yet (Apply), and play.
    Autoplay,
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
            pending: None,
            queued: Vec::new(),
            reveal: 0,
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

    /// A command's end: Apply's output (and error marks) under the editor, and the timeline plays
    /// from the command's first step; then the console lines typed meanwhile run.
    fn finish(&mut self, p: Pending) {
        if let Some(out) = p.apply {
            if self.len() > p.start {
                self.reveal += 1;
            }
            let ok = out.code == 0;
            let text = out.combined();
            let marks = if ok { Vec::new() } else { locate_errors(&self.editor, &out.stderr) };
            self.apply = Some(ApplyResult { ok, text, marks });
            self.object = None;
            self.etcd_key = None;
            self.pod = None;
        }
        self.bump();
        if self.len() > p.start {
            let first = self.next_pos(p.start).unwrap_or(p.start + 1);
            self.go(first, true);
            self.playing = true;
        }
        if !self.queued.is_empty() {
            let line = self.queued.remove(0);
            self.run_console(line);
        }
    }

    /// After a slice: finish the command, or keep it pending with its progress (the App's effect
    /// schedules the next slice).
    fn after_slice(&mut self, done: bool, mut p: Pending) {
        if done {
            self.finish(p);
        } else {
            if let Some(st) = self.session.rc.borrow().settling() {
                (p.steps, p.time_ms) = (st.steps, st.time_ms);
            }
            self.pending = Some(p);
        }
    }

    /// Starts a console line, or the save of `kubectl edit` (its settle continues in slices).
    fn run_console(&mut self, line: String) {
        let stdin = self.editor.clone();
        self.begin_console(line, &stdin);
    }

    fn begin_console(&mut self, line: String, stdin: &str) {
        let (_, start) = self.session.rc.borrow_mut().console_begin(&line, stdin);
        let p = Pending::new(None, start);
        let done = self.session.rc.borrow_mut().settle_some(super::model::FIRST_SLICE_STEPS, &mut || false);
        self.after_slice(done, p);
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

impl State {
    /// The reducer: the state after `action`.
    pub fn update(self: Rc<Self>, action: Action) -> Rc<Self> {
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
                if s.pending.is_some() {
                    return self;
                }
                let Some((line, saved)) = s.editing.take() else {
                    return self;
                };
                let edited = std::mem::replace(&mut s.editor, saved);
                s.editor_open = true;
                s.begin_console(line, &edited);
            }
            Action::CancelEdit => {
                let Some((line, saved)) = s.editing.take() else {
                    return self;
                };
                s.editor = saved;
                s.session.rc.borrow_mut().note_transcript(&format!("$ {}\nEdit cancelled, no changes made.\n", line));
                s.bump();
            }
            Action::Apply => {
                if s.pending.is_some() {
                    return self;
                }
                let (out, start) = s.session.rc.borrow_mut().apply_begin(&s.editor);
                // small applies settle here, in one go; larger ones continue in slices
                let done = s.session.rc.borrow_mut().settle_some(super::model::FIRST_SLICE_STEPS, &mut || false);
                let p = Pending::new(Some(out), start);
                s.after_slice(done, p);
            }
            Action::SettleSlice { steps, now_ms } => {
                let Some(mut p) = s.pending.take() else {
                    return self;
                };
                p.started_ms.get_or_insert(now_ms);
                p.last_ms = now_ms;
                let done = s.session.rc.borrow_mut().settle_some(steps.max(1), &mut || false);
                s.after_slice(done, p);
            }
            Action::Cancel => {
                if s.pending.take().is_none() {
                    return self;
                }
                s.session.rc.borrow_mut().cancel();
                s.queued.clear();
                s.bump();
                s.playing = false;
                let p = s.pos.min(s.len());
                s.go(p, false);
            }
            Action::Reset => {
                s.pending = None;
                s.queued.clear();
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
                s.pending = None;
                s.queued.clear();
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
                    return self.update(Action::Play);
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
                    if forward {
                        story::next(&session, s.pos, &s.jump)
                    } else {
                        story::prev(&session, s.pos, &s.jump)
                    }
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
                if s.pending.is_some() && line != "clear" {
                    // the simulation is still running: the line waits for it, and says so
                    s.session.rc.borrow_mut().note_transcript(&format!("$ {}\n# queued: runs when the simulation in progress ends (or Cancel it)\n", line));
                    s.queued.push(line);
                    s.bump();
                    return Rc::new(s);
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
                s.run_console(line);
            }
            Action::ToggleEditor => s.editor_open = !s.editor_open,
            Action::Share(open) => s.share_open = open,
            Action::DismissLinkError => s.link_error = None,
            Action::Autoplay => {
                return if s.is_empty() { self.update(Action::Apply) } else { self.update(Action::Play) };
            }
        }
        Rc::new(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state() -> Rc<State> {
        Rc::new(State::new(1, 1.0, Lang::En, presets::SEED_004.to_string(), false))
    }

    fn with_replicas(n: usize) -> String {
        presets::SEED_004.replace("replicas: 3", &format!("replicas: {}", n))
    }

    /// Runs slices of `steps` deliveries until nothing is pending; returns how many it took.
    fn settle(mut s: Rc<State>, steps: u64) -> (Rc<State>, usize) {
        let mut n = 0;
        while s.pending.is_some() {
            s = s.update(Action::SettleSlice { steps, now_ms: n as f64 * 30.0 });
            n += 1;
            assert!(n < 100_000);
        }
        (s, n)
    }

    /// Seed 004 settles within Apply itself; the timeline then plays from its first story step.
    #[test]
    fn a_small_apply_settles_at_once_and_plays() {
        let s = state().update(Action::Apply);
        assert!(s.pending.is_none());
        assert!(s.len() > 200, "{}", s.len());
        assert!(s.playing && s.pos > 0);
        let a = s.apply.as_ref().expect("kubectl's output");
        assert!(a.ok && a.text.contains("deployment.apps/nginx-deployment created"), "{}", a.text);
    }

    /// A large Apply runs in slices: each slice's steps join the timeline at once (the learner
    /// can scrub them), the progress counts deliveries and cluster time, and the end is the same
    /// timeline as the one-go run of the same input.
    #[test]
    fn a_large_apply_runs_in_slices_that_grow_the_timeline() {
        let mut s = state().update(Action::SetEditor(with_replicas(60)));
        s = s.update(Action::Apply);
        let p = s.pending.clone().expect("60 replicas do not settle in the first slice");
        assert!(p.steps >= 400 && p.time_ms > 0, "{:?}", p);
        let len0 = s.len();
        assert!(len0 > 0, "the first slice's steps are on the timeline");
        s = s.update(Action::SettleSlice { steps: 100, now_ms: 0.0 });
        assert!(s.len() > len0, "a slice grows the timeline");
        // scrubbing while it runs
        s = s.update(Action::Seek(len0 / 2));
        assert_eq!(s.pos, len0 / 2);
        let (s, slices) = settle(s, 100);
        assert!(slices > 5, "{}", slices);
        let mut one_go = Session::new(1);
        one_go.apply(&with_replicas(60));
        assert_eq!(s.len(), one_go.len(), "the timeline does not depend on the slices");
        assert_eq!(s.session.rc.borrow().log, one_go.log);
        assert!(s.apply.as_ref().is_some_and(|a| a.ok));
    }

    /// Cancel leaves the cluster as it was before the command: the same steps and log as a
    /// session that never ran it, and the transcript says so.
    #[test]
    fn cancel_puts_the_cluster_back() {
        let mut s = state().update(Action::Apply);
        let (len, log) = (s.len(), s.session.rc.borrow().log.clone());
        s = s.update(Action::SetEditor(with_replicas(80).replace("nginx-deployment", "big")));
        s = s.update(Action::Apply);
        assert!(s.pending.is_some());
        s = s.update(Action::SettleSlice { steps: 200, now_ms: 0.0 });
        s = s.update(Action::Console("kubectl get pods".into()));
        assert_eq!(s.queued, ["kubectl get pods"]);
        s = s.update(Action::Cancel);
        assert!(s.pending.is_none() && s.queued.is_empty());
        let session = s.session.rc.borrow();
        assert_eq!(session.len(), len);
        assert_eq!(session.log, log);
        assert!(session.objects("deployments", "default", session.len()).iter().all(|d| crate::api::meta::name(d) != "big"));
        assert!(session.transcript.contains("^C cancelled after"), "{}", session.transcript);
        assert!(s.pos <= s.len());
    }

    /// A console line typed during a simulation is queued, said so, and runs when it ends.
    #[test]
    fn console_lines_wait_for_the_simulation_and_are_not_lost() {
        let mut s = state().update(Action::SetEditor(with_replicas(60)));
        s = s.update(Action::Apply);
        assert!(s.pending.is_some());
        s = s.update(Action::Console("kubectl get deploy".into()));
        s = s.update(Action::Console("kubectl scale deployment nginx-deployment --replicas=2".into()));
        assert_eq!(s.queued.len(), 2);
        assert!(s.session.rc.borrow().transcript.contains("# queued"));
        let (s, _) = settle(s, 500);
        assert!(s.queued.is_empty());
        let t = s.session.rc.borrow().transcript.clone();
        let get = t.rfind("$ kubectl get deploy\nNAME").expect("the queued get ran");
        let scale = t.rfind("$ kubectl scale").expect("the queued scale ran");
        assert!(get < scale, "in the order typed");
        assert!(t.contains("deployment.apps/nginx-deployment scaled"), "{}", t);
    }

    /// Reset and a new seed drop the timeline and what was pending.
    #[test]
    fn reset_drops_the_timeline() {
        let mut s = state().update(Action::SetEditor(with_replicas(60)));
        s = s.update(Action::Apply);
        s = s.update(Action::Reset);
        assert!(s.pending.is_none() && s.is_empty() && s.pos == 0 && s.apply.is_none());
    }
}
