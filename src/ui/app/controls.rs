//! Play/pause, step, speed and the timeline; the level of detail (story or every message), the
//! chapters on the timeline and the jump buttons.

use super::{speeds, Action, Level};
use crate::ui::story::Jump;
use crate::ui::fragment::speed_text;
use crate::ui::i18n::{fill, tr, Lang};
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct ControlsProps {
    pub pos: usize,
    pub len: usize,
    pub playing: bool,
    pub speed: f64,
    pub lang: Lang,
    pub dispatch: Callback<Action>,
    pub segment: Option<String>,
    pub level: Level,
    /// Story steps on the timeline (the story level's length).
    pub story_len: usize,
    /// Chapters: (position of the first step, where it sits in words).
    pub chapters: Vec<(usize, String)>,
    /// The position in the level's units ("Story step 7 of 35 · message 33 of 400").
    pub position: String,
    /// The chapter the position is in (index into `chapters`).
    pub chapter: Option<usize>,
    pub jump: Jump,
    /// Components that sent or received a message, for the jump menu.
    pub components: Vec<String>,
}

/// The value of a jump target in the jump menu.
fn jump_value(j: &Jump) -> String {
    match j {
        Jump::Chapter => "chapter".into(),
        Jump::Story => "story".into(),
        Jump::EtcdWrite => "etcd".into(),
        Jump::Event => "event".into(),
        Jump::Component(c) => format!("c:{}", c),
    }
}

fn jump_of(v: &str) -> Jump {
    match v {
        "story" => Jump::Story,
        "etcd" => Jump::EtcdWrite,
        "event" => Jump::Event,
        _ => match v.strip_prefix("c:") {
            Some(c) => Jump::Component(c.to_string()),
            None => Jump::Chapter,
        },
    }
}

/// At most this many chapter marks are drawn on the timeline (a long run has hundreds).
const MAX_MARKS: usize = 80;

fn icon(d: &'static str) -> Html {
    html! {
        <svg class="icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d={d} /></svg>
    }
}

const I_START: &str = "M6 5h2v14H6zM20 5v14L9 12z";
const I_BACK: &str = "M18 5v14L7 12zM5 5h2v14H5z";
const I_PLAY: &str = "M7 4v16l13-8z";
const I_PAUSE: &str = "M6 4h4v16H6zM14 4h4v16h-4z";
const I_FWD: &str = "M6 5v14l11-7zM17 5h2v14h-2z";
const I_END: &str = "M4 5v14l11-7zM16 5h2v14h-2z";
const I_PREV: &str = "M15 5l-8 7 8 7z";
const I_NEXT: &str = "M9 5l8 7-8 7z";

#[function_component(Controls)]
pub fn controls(p: &ControlsProps) -> Html {
    let lang = p.lang;
    let t = |k: &str| tr(lang, k);
    let d = &p.dispatch;
    let empty = p.len == 0;
    let onseek = d.reform(|e: InputEvent| Action::Seek(e.target_unchecked_into::<web_sys::HtmlInputElement>().value().parse().unwrap_or(0)));
    let onspeed = d.reform(|e: Event| Action::SetSpeed(e.target_unchecked_into::<web_sys::HtmlSelectElement>().value().parse().unwrap_or(1.0)));
    let vars = [("n", p.pos.to_string()), ("total", p.len.to_string())];
    let play_label = if p.playing { t("ctl.pause") } else { t("ctl.play") };
    let pct = if p.len == 0 { 0.0 } else { p.pos as f64 * 100.0 / p.len as f64 };
    html! {
        <section class="controls" aria-label={t("ctl.timeline").split(':').next().unwrap_or("").to_string()}>
            <div class="buttons">
                <button class="icon-btn" id="to-start" aria-label={t("ctl.start")} title={t("ctl.start")} disabled={empty || p.pos == 0} onclick={d.reform(|_| Action::Seek(0))}>{icon(I_START)}</button>
                <button class="icon-btn" id="step-back" aria-label={t("ctl.back")} title={format!("{} (←)", t("ctl.back"))} disabled={empty || p.pos == 0} onclick={d.reform(|_| Action::StepBack)}>{icon(I_BACK)}</button>
                <button class="icon-btn play" id="play" aria-label={play_label} title={format!("{} (Space)", play_label)} disabled={empty} onclick={d.reform(|_| Action::TogglePlay)}>{icon(if p.playing { I_PAUSE } else { I_PLAY })}</button>
                <button class="icon-btn" id="step-fwd" aria-label={t("ctl.fwd")} title={format!("{} (→)", t("ctl.fwd"))} disabled={empty || p.pos >= p.len} onclick={d.reform(|_| Action::StepFwd)}>{icon(I_FWD)}</button>
                <button class="icon-btn" id="to-end" aria-label={t("ctl.end")} title={t("ctl.end")} disabled={empty || p.pos >= p.len} onclick={{ let n = p.len; d.reform(move |_| Action::Seek(n)) }}>{icon(I_END)}</button>
            </div>
            <div class="track">
                <input
                    id="timeline"
                    class="timeline"
                    type="range"
                    min="0"
                    max={p.len.to_string()}
                    value={p.pos.to_string()}
                    disabled={empty}
                    style={format!("--pct: {:.2}%", pct)}
                    aria-label={t("ctl.timeline").split(':').next().unwrap_or("").to_string()}
                    aria-valuetext={fill(t("ctl.timeline"), &vars)}
                    oninput={onseek}
                />
                <div class="chapter-marks" aria-hidden="true">
                    { for p.chapters.iter().enumerate().filter(|(i, _)| p.chapters.len() <= MAX_MARKS || i % p.chapters.len().div_ceil(MAX_MARKS) == 0).map(|(i, (at, title))| {
                        let left = if p.len == 0 { 0.0 } else { (*at as f64 - 1.0).max(0.0) * 100.0 / p.len as f64 };
                        let at = *at;
                        html! { <button class={classes!("mark", (p.chapter == Some(i)).then_some("on"))} tabindex="-1" style={format!("left: {:.2}%", left)} title={title.clone()} onclick={d.reform(move |_| Action::Seek(at))}></button> }
                    }) }
                </div>
            </div>
            <span class="counter" id="counter" aria-live="off" data-pos={p.pos.to_string()} data-len={p.len.to_string()}>{p.position.clone()}</span>
            <label class="speed">
                <span class="sr-only">{t("ctl.speed")}</span>
                <select id="speed" aria-label={t("ctl.speed")} onchange={onspeed}>
                    { for speeds().iter().map(|s| {
                        let v = speed_text(*s);
                        html! { <option value={v.clone()} selected={(*s - p.speed).abs() < 1e-9}>{format!("{}×", v)}</option> }
                    }) }
                </select>
            </label>
            <div class="detail">
                <div class="level" role="group" aria-label={t("ctl.level")}>
                    <button id="level-story" class={classes!("seg", (p.level == Level::Story).then_some("on"))} aria-pressed={(p.level == Level::Story).to_string()} onclick={d.reform(|_| Action::SetLevel(Level::Story))}>{fill(t("ctl.level.story"), &[("n", p.story_len.to_string())])}</button>
                    <button id="level-all" class={classes!("seg", (p.level == Level::All).then_some("on"))} aria-pressed={(p.level == Level::All).to_string()} onclick={d.reform(|_| Action::SetLevel(Level::All))}>{fill(t("ctl.level.all"), &[("n", p.len.to_string())])}</button>
                </div>
                <div class="jump" role="group" aria-label={t("ctl.jump")}>
                    <button class="icon-btn small" id="jump-prev" aria-label={t("ctl.jump.prev")} title={t("ctl.jump.prev")} disabled={empty || p.pos == 0} onclick={d.reform(|_| Action::Jump(false))}>{icon(I_PREV)}</button>
                    <select id="jump" aria-label={t("ctl.jump")} onchange={d.reform(|e: Event| Action::SetJump(jump_of(&e.target_unchecked_into::<web_sys::HtmlSelectElement>().value())))}>
                        { for [Jump::Chapter, Jump::EtcdWrite, Jump::Event, Jump::Story].into_iter().chain(p.components.iter().map(|c| Jump::Component(c.clone()))).map(|j| {
                            let label = match &j {
                                Jump::Chapter => t("ctl.jump.chapter").to_string(),
                                Jump::Story => t("ctl.jump.story").to_string(),
                                Jump::EtcdWrite => t("ctl.jump.etcd").to_string(),
                                Jump::Event => t("ctl.jump.event").to_string(),
                                Jump::Component(c) => c.clone(),
                            };
                            html! { <option value={jump_value(&j)} selected={j == p.jump}>{label}</option> }
                        }) }
                    </select>
                    <button class="icon-btn small" id="jump-next" aria-label={t("ctl.jump.next")} title={t("ctl.jump.next")} disabled={empty || p.pos >= p.len} onclick={d.reform(|_| Action::Jump(true))}>{icon(I_NEXT)}</button>
                </div>
                if let Some((_, label)) = p.chapter.and_then(|i| p.chapters.get(i)) {
                    <span class="chapter" id="chapter" title={label.clone()}>{label.clone()}</span>
                }
            </div>
            if let Some(seg) = &p.segment {
                <span class="segment" title={seg.clone()}><code>{format!("$ {}", seg)}</code></span>
            }
        </section>
    }
}
