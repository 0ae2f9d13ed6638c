//! The kubectl console: `kubesim run`'s interpreter on the page's cluster, with history.

use super::Action;
use crate::ui::i18n::{tr, Lang};
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct ConsoleProps {
    pub transcript: String,
    pub history: Vec<String>,
    pub lang: Lang,
    pub dispatch: Callback<Action>,
}

#[function_component(Console)]
pub fn console(p: &ConsoleProps) -> Html {
    let lang = p.lang;
    let t = |k: &str| tr(lang, k);
    let input = use_state(String::new);
    // position while browsing the history: None = editing a new line
    let cursor = use_state(|| None::<usize>);
    let out_ref = use_node_ref();
    {
        let out_ref = out_ref.clone();
        use_effect_with(p.transcript.len(), move |_| {
            if let Some(el) = out_ref.cast::<web_sys::Element>() {
                el.set_scroll_top(el.scroll_height());
            }
            || ()
        });
    }
    let oninput = {
        let input = input.clone();
        let cursor = cursor.clone();
        Callback::from(move |e: InputEvent| {
            input.set(e.target_unchecked_into::<web_sys::HtmlInputElement>().value());
            cursor.set(None);
        })
    };
    let run = {
        let input = input.clone();
        let cursor = cursor.clone();
        let d = p.dispatch.clone();
        move || {
            let line = (*input).clone();
            if !line.trim().is_empty() {
                d.emit(Action::Console(line));
            }
            input.set(String::new());
            cursor.set(None);
        }
    };
    let onkeydown = {
        let input = input.clone();
        let cursor = cursor.clone();
        let history = p.history.clone();
        let run = run.clone();
        Callback::from(move |e: KeyboardEvent| match e.key().as_str() {
            "Enter" => {
                e.prevent_default();
                run();
            }
            "ArrowUp" if !history.is_empty() => {
                e.prevent_default();
                let i = match *cursor {
                    None => history.len() - 1,
                    Some(0) => 0,
                    Some(i) => i - 1,
                };
                cursor.set(Some(i));
                input.set(history[i].clone());
            }
            "ArrowDown" => {
                e.prevent_default();
                match *cursor {
                    Some(i) if i + 1 < history.len() => {
                        cursor.set(Some(i + 1));
                        input.set(history[i + 1].clone());
                    }
                    Some(_) => {
                        cursor.set(None);
                        input.set(String::new());
                    }
                    None => {}
                }
            }
            _ => {}
        })
    };
    let onclick = {
        let run = run.clone();
        Callback::from(move |_| run())
    };
    let onclear = p.dispatch.reform(|_| Action::Console("clear".into()));
    html! {
        <section class="console" aria-labelledby="console-title">
            <div class="console-head">
                <h2 id="console-title">{t("console.title")}</h2>
                <button class="btn ghost small" onclick={onclear}>{t("console.clear")}</button>
            </div>
            <pre class="term console-out" id="console-out" ref={out_ref} tabindex="0" aria-live="polite">{p.transcript.clone()}</pre>
            <div class="prompt">
                <span class="ps1" aria-hidden="true">{"$"}</span>
                <input
                    id="console-in"
                    type="text"
                    spellcheck="false"
                    autocapitalize="off"
                    autocomplete="off"
                    aria-label={t("console.label")}
                    placeholder={t("console.placeholder")}
                    value={(*input).clone()}
                    oninput={oninput}
                    onkeydown={onkeydown}
                />
                <button class="btn" onclick={onclick}>{t("console.run")}</button>
            </div>
            <p class="muted small">{t("console.hint")}</p>
            <p class="muted small" id="image-catalogue">{t("console.images")}</p>
        </section>
    }
}
