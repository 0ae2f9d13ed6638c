//! Play/pause, step, speed and the timeline.

use super::{speeds, Action};
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
}

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

#[function_component(Controls)]
pub fn controls(p: &ControlsProps) -> Html {
    let lang = p.lang;
    let t = |k: &str| tr(lang, k);
    let d = &p.dispatch;
    let empty = p.len == 0;
    let onseek = d.reform(|e: InputEvent| Action::Seek(e.target_unchecked_into::<web_sys::HtmlInputElement>().value().parse().unwrap_or(0)));
    let onspeed = d.reform(|e: Event| Action::SetSpeed(e.target_unchecked_into::<web_sys::HtmlSelectElement>().value().parse().unwrap_or(1.0)));
    let vars = [("n", p.pos.to_string()), ("total", p.len.to_string())];
    let counter = fill(t("ctl.step"), &vars);
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
            <span class="counter" id="counter" aria-live="off">{counter}</span>
            <label class="speed">
                <span class="sr-only">{t("ctl.speed")}</span>
                <select id="speed" aria-label={t("ctl.speed")} onchange={onspeed}>
                    { for speeds().iter().map(|s| {
                        let v = speed_text(*s);
                        html! { <option value={v.clone()} selected={(*s - p.speed).abs() < 1e-9}>{format!("{}×", v)}</option> }
                    }) }
                </select>
            </label>
            if let Some(seg) = &p.segment {
                <span class="segment" title={seg.clone()}><code>{format!("$ {}", seg)}</code></span>
            }
        </section>
    }
}
