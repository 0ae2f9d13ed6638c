//! The manifest editor: a textarea with line numbers, presets, Apply and Reset, and kubectl's
//! errors shown at their line and column.

use super::{Action, ApplyResult, Pending};
use crate::ui::i18n::{fill, tr, Lang};
use crate::ui::presets::PRESETS;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct EditorProps {
    pub text: String,
    pub apply: Option<ApplyResult>,
    /// A command still being simulated: the progress line and Cancel.
    pub settling: Option<Pending>,
    /// Steps on the timeline (Reset asks before discarding them).
    #[prop_or_default]
    pub steps: usize,
    pub lang: Lang,
    pub embed: bool,
    /// `kubectl edit …` in progress: the command that saving runs.
    #[prop_or_default]
    pub editing: Option<String>,
    pub dispatch: Callback<Action>,
}

#[function_component(Editor)]
pub fn editor(p: &EditorProps) -> Html {
    let lang = p.lang;
    let t = |k: &str| tr(lang, k);
    let lines = p.text.split('\n').count().max(1);
    let cols = p.text.split('\n').map(|l| l.chars().count()).max().unwrap_or(0) + 2;
    let marks = p.apply.as_ref().map(|a| a.marks.clone()).unwrap_or_default();
    let oninput = p.dispatch.reform(|e: InputEvent| Action::SetEditor(e.target_unchecked_into::<web_sys::HtmlTextAreaElement>().value()));
    let onpreset = {
        let d = p.dispatch.clone();
        Callback::from(move |e: Event| {
            let sel = e.target_unchecked_into::<web_sys::HtmlSelectElement>();
            if let Ok(i) = sel.value().parse::<usize>() {
                d.emit(Action::Preset(i));
            }
            sel.set_value("");
        })
    };
    // Ctrl/Cmd+Enter applies
    let onkeydown = {
        let d = p.dispatch.clone();
        Callback::from(move |e: KeyboardEvent| {
            if e.key() == "Enter" && (e.ctrl_key() || e.meta_key()) {
                e.prevent_default();
                d.emit(Action::Apply);
            }
        })
    };
    let bad_lines: Vec<usize> = marks.iter().map(|m| m.line).collect();
    let overlays: Html = marks
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let top = format!("top: calc({} * var(--lh) + var(--pad))", m.line - 1);
            // beside the line (to its right), so the lines it explains stay readable
            let msg_top = format!("top: calc({} * var(--lh) + var(--pad) - 3px)", m.line - 1);
            let at = fill(t("editor.error_at"), &[("line", m.line.to_string()), ("col", m.column.to_string())]);
            html! {
                <>
                    <div class="err-line" style={top} aria-hidden="true"></div>
                    <div class="err-msg" style={msg_top} role="alert" id={format!("err-{}", i)}>
                        <span class="err-caret"></span>
                        <span class="err-at">{at}</span>
                        <span class="err-text">{m.message.clone()}</span>
                    </div>
                </>
            }
        })
        .collect();
    let status = match (&p.settling, &p.apply) {
        (Some(pend), _) => {
            let rate = pend.rate().map(|r| fill(t("editor.rate"), &[("n", format!("{:.0}", r))])).unwrap_or_default();
            html! {
                <div class="editor-status busy" id="settle-progress" role="status" aria-live="polite">
                    <progress class="settle-bar" aria-label={t("editor.progress")}></progress>
                    <p>{fill(t("editor.settling"), &[("steps", pend.steps.to_string()), ("time", crate::ui::i18n::duration(lang, pend.time_ms)), ("rate", rate)])}</p>
                    <button id="cancel-settle" class="btn small" onclick={p.dispatch.reform(|_| Action::Cancel)}>{t("editor.cancel")}</button>
                </div>
            }
        }
        (None, apply) => match apply {
            Some(a) if !a.text.is_empty() => html! {
                <div class={classes!("editor-status", if a.ok { "ok" } else { "bad" })} role="status">
                    <div class="status-title">{if a.ok { t("editor.output") } else { t("editor.failed") }}</div>
                    <pre class="kubectl-out">{a.text.clone()}</pre>
                </div>
            },
            // kubectl edit: the banner above says what saving does
            _ if p.editing.is_some() => html! {},
            _ => html! { <div class="editor-status hint">{t("editor.hint")}</div> },
        },
    };
    // a reset discards the timeline: ask first, as a new seed does
    let on_reset = {
        let (d, steps) = (p.dispatch.clone(), p.steps);
        Callback::from(move |_: MouseEvent| {
            if steps > 0 {
                let ask = fill(tr(lang, "reset.confirm"), &[("n", steps.to_string())]);
                let ok = web_sys::window().and_then(|w| w.confirm_with_message(&ask).ok()).unwrap_or(true);
                if !ok {
                    return;
                }
            }
            d.emit(Action::Reset);
        })
    };
    let actions = match &p.editing {
        // kubectl edit: save sends the changes, cancel puts the manifest back
        Some(line) => html! {
            <div class="editor-actions editing" role="status">
                <span class="edit-note">{fill(t("editor.editing"), &[("cmd", line.clone())])}</span>
                <button id="apply" class="btn primary" onclick={p.dispatch.reform(|_| Action::Apply)} title="Ctrl+Enter">{t("editor.save_edit")}</button>
                <button id="cancel-edit" class="btn" onclick={p.dispatch.reform(|_| Action::CancelEdit)}>{t("editor.cancel_edit")}</button>
            </div>
        },
        None => html! {
            <div class="editor-actions">
                <button id="apply" class="btn primary" onclick={p.dispatch.reform(|_| Action::Apply)} title="Ctrl+Enter" disabled={p.settling.is_some()}>{t("editor.apply")}</button>
                <button id="reset" class="btn" onclick={on_reset} title={t("editor.reset_title")}>{t("editor.reset")}</button>
            </div>
        },
    };
    // in the embed the buttons come first, beside the button that opened the editor: in view
    // however long the manifest is
    let (top, bottom) = if p.embed { (html! { <>{actions}{status}</> }, html! {}) } else { (html! {}, html! { <>{actions}{status}</> }) };
    html! {
        <section class="editor" aria-labelledby="editor-title">
            <div class="editor-head">
                <h2 id="editor-title">{t("editor.title")}</h2>
                <select class="preset" aria-label={t("editor.preset")} onchange={onpreset}>
                    <option value="" selected=true>{t("preset.choose")}</option>
                    { for PRESETS.iter().enumerate().map(|(i, (_, key, _))| html! { <option value={i.to_string()}>{t(key)}</option> }) }
                </select>
            </div>
            {top}
            <div class="editor-scroll">
                <Gutter lines={lines} bad={bad_lines} />
                <div class="code">
                    {overlays}
                    <textarea
                        id="editor-text"
                        class="code-text"
                        aria-label={t("editor.label")}
                        aria-describedby={if marks.is_empty() { None } else { Some("err-0".to_string()) }}
                        spellcheck="false"
                        autocapitalize="off"
                        autocomplete="off"
                        wrap="off"
                        rows={(lines + 1).to_string()}
                        cols={cols.max(40).to_string()}
                        value={p.text.clone()}
                        oninput={oninput}
                        onkeydown={onkeydown}
                    />
                </div>
            </div>
            {bottom}
        </section>
    }
}

#[derive(Properties, PartialEq)]
struct GutterProps {
    lines: usize,
    bad: Vec<usize>,
}

/// The line numbers: one text node (a long text costs one string, not one element per line) and
/// a marked number over each line with an error; a component of its own, so that typing within
/// a line does not touch it.
#[function_component(Gutter)]
fn gutter(p: &GutterProps) -> Html {
    let numbers = (1..=p.lines).map(|n| n.to_string()).collect::<Vec<_>>().join("\n");
    html! {
        <div class="gutter" aria-hidden="true">
            <div class="ln-all">{numbers}</div>
            { for p.bad.iter().map(|n| html! {
                <div class="ln bad" style={format!("top: calc({} * var(--lh) + var(--pad))", n.saturating_sub(1))}>{*n}</div>
            }) }
        </div>
    }
}
