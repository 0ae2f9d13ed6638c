//! The Audit log panel: the events kube-apiserver logged up to the current step, filtered by
//! resource, verb and user; the audit policy that chose their levels; and a CloudWatch Logs
//! Insights query box over the same log (seed 000's questions). Everything shown is text.

use super::SessionRef;
use crate::apiserver::audit::insights::Results;
use crate::ui::i18n::{fill, tr, Lang};
use crate::ui::poster::esc;
use yew::prelude::*;

/// Rows of the audit table shown at most (the newest that pass the filters).
const AUDIT_ROWS: usize = 60;
/// Rows of a query's results shown at most.
const QUERY_ROWS: usize = 200;
/// A cell of the results is cut after this many characters (`@message` is a whole event).
const CELL_CHARS: usize = 600;

/// Seed 000's first query, as the post prints it.
pub const SEED000_QUERY: &str = "fields @timestamp, requestURI, verb, requestObject.kind, objectRef.name, user.username, userAgent\n| filter @logStream like /^kube-apiserver-audit/\n| filter objectRef.resource == \"deployments\"\n| filter verb == \"create\"\n| sort @timestamp desc";

#[derive(Properties, PartialEq)]
pub struct AuditProps {
    pub session: SessionRef,
    pub pos: usize,
    pub lang: Lang,
}

/// The last query run: its answer or its error, and the step it searched up to.
#[derive(Clone, PartialEq)]
struct Ran {
    pos: usize,
    outcome: Result<Results, (usize, usize, String)>,
}

fn select(id: &'static str, label: &str, all: &str, options: &[String], value: &str, onchange: Callback<Event>) -> Html {
    html! {
        <label class="audit-filter" for={id}>
            <span>{label.to_string()}</span>
            <select id={id} onchange={onchange}>
                <option value="" selected={value.is_empty()}>{all.to_string()}</option>
                { for options.iter().map(|o| html! { <option value={o.clone()} selected={o == value}>{o.clone()}</option> }) }
            </select>
        </label>
    }
}

fn cut(v: &str) -> String {
    if v.chars().count() > CELL_CHARS {
        let mut s: String = v.chars().take(CELL_CHARS).collect();
        s.push('…');
        s
    } else {
        v.to_string()
    }
}

#[function_component(AuditPanel)]
pub fn audit_panel(p: &AuditProps) -> Html {
    let lang = p.lang;
    let t = |k: &str| tr(lang, k);
    let resource = use_state(String::new);
    let verb = use_state(String::new);
    let user = use_state(String::new);
    let query = use_state(|| SEED000_QUERY.to_string());
    let ran = use_state(|| None::<Ran>);
    let policy_open = use_state(|| false);
    let insights_open = use_state(|| false);

    // the log grows at the bottom: keep it scrolled there, unless the policy or the query box is
    // open (the learner is reading or typing up there)
    {
        let quiet = *policy_open || *insights_open;
        use_effect_with((p.pos, p.session.version), move |_| {
            if !quiet {
                if let Some(el) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.get_element_by_id("panel-body")) {
                    // past the end: the browser clamps it, without a layout forced here
                    el.set_scroll_top(i32::MAX);
                }
            }
            || ()
        });
    }

    let s = p.session.rc.borrow();
    let all_rows = s.audit_upto(p.pos);
    let (resources, verbs, users) = s.audit_filter_options(p.pos);
    let on_select = |h: UseStateHandle<String>| Callback::from(move |e: Event| h.set(e.target_unchecked_into::<web_sys::HtmlSelectElement>().value()));
    let filters = html! {
        <div class="audit-tools" role="group" aria-label={t("audit.filters")}>
            { select("audit-resource", t("audit.resource"), t("audit.all"), &resources, &resource, on_select(resource.clone())) }
            { select("audit-verb", t("audit.verb"), t("audit.all"), &verbs, &verb, on_select(verb.clone())) }
            { select("audit-user", t("audit.user"), t("audit.all"), &users, &user, on_select(user.clone())) }
        </div>
    };

    // the audit policy
    let ontoggle_policy = {
        let h = policy_open.clone();
        Callback::from(move |e: Event| h.set(e.target_unchecked_into::<web_sys::Element>().has_attribute("open")))
    };
    let policy = html! {
        <details class="audit-policy" id="audit-policy" open={*policy_open} ontoggle={ontoggle_policy}>
            <summary>{t("audit.policy")}</summary>
            <p class="muted small">{t("audit.policy_note")}</p>
            // (written out only while open: the policy does not change as the learner scrubs)
            if *policy_open {
                <pre class="term" id="audit-policy-yaml">{s.cluster.view().audit_policy().to_yaml()}</pre>
            }
        </details>
    };

    // the query box
    let ontoggle_insights = {
        let h = insights_open.clone();
        Callback::from(move |e: Event| h.set(e.target_unchecked_into::<web_sys::Element>().has_attribute("open")))
    };
    let oninput = {
        let q = query.clone();
        Callback::from(move |e: InputEvent| q.set(e.target_unchecked_into::<web_sys::HtmlTextAreaElement>().value()))
    };
    let run = {
        let (q, ran, session, pos) = (query.clone(), ran.clone(), p.session.clone(), p.pos);
        Callback::from(move |_: ()| {
            let s = session.rc.borrow();
            let outcome = s.audit_query(pos, &q).map_err(|e| (e.line, e.col, e.message));
            ran.set(Some(Ran { pos, outcome }));
        })
    };
    let onclick = run.reform(|_: MouseEvent| ());
    // Ctrl/Cmd+Enter runs the query
    let onkeydown = {
        let run = run.clone();
        Callback::from(move |e: KeyboardEvent| {
            if e.key() == "Enter" && (e.ctrl_key() || e.meta_key()) {
                e.prevent_default();
                run.emit(());
            }
        })
    };
    let answer = match ran.as_ref() {
        None => html! {},
        Some(r) => {
            let stale = (r.pos != p.pos).then(|| html! { <p class="muted small" id="audit-query-stale">{fill(t("audit.query_stale"), &[("step", r.pos.to_string())])}</p> });
            let outcome = match &r.outcome {
                Err((line, col, msg)) => {
                    // the query's line with a caret under the column
                    let src_line = query.lines().nth(line.saturating_sub(1)).unwrap_or("").to_string();
                    let caret = format!("{}^", " ".repeat(src_line.chars().take(*col).count()));
                    html! {
                        <div class="query-error" id="audit-query-error" role="alert">
                            <div>{msg.clone()}</div>
                            <pre>{src_line}{"\n"}{caret}</pre>
                        </div>
                    }
                }
                Ok(res) => {
                    let shown = res.rows.len().min(QUERY_ROWS);
                    let summary = fill(
                        t("audit.query_summary"),
                        &[("shown", res.rows.len().to_string()), ("matched", res.matched.to_string()), ("scanned", res.scanned.to_string()), ("step", r.pos.to_string())],
                    );
                    let more = (res.rows.len() > shown).then(|| html! { <p class="muted small">{fill(t("audit.query_more"), &[("n", shown.to_string()), ("total", res.rows.len().to_string())])}</p> });
                    let table = if res.rows.is_empty() {
                        html! { <p class="muted" id="audit-query-none">{t("audit.query_none")}</p> }
                    } else {
                        html! {
                            <div class="query-results">
                                <table class="audit results" id="audit-query-results">
                                    <thead><tr><th>{"#"}</th>{ for res.columns.iter().map(|c| html! { <th>{c.clone()}</th> }) }</tr></thead>
                                    <tbody>
                                        { for res.rows.iter().take(shown).enumerate().map(|(i, row)| html! {
                                            <tr>
                                                <td class="num">{i + 1}</td>
                                                { for row.iter().map(|v| {
                                                    let v = v.as_deref().unwrap_or("");
                                                    html! { <td class={classes!("cell", (v.chars().count() <= 24).then_some("short"))}>{cut(v)}</td> }
                                                }) }
                                            </tr>
                                        }) }
                                    </tbody>
                                </table>
                            </div>
                        }
                    };
                    html! { <><p class="muted small" id="audit-query-summary" role="status">{summary}</p>{table}{for more}</> }
                }
            };
            html! { <>{outcome}{for stale}</> }
        }
    };
    let insights = html! {
        <details class="audit-insights" id="audit-insights" open={*insights_open} ontoggle={ontoggle_insights}>
            <summary>{t("audit.query")}</summary>
            <p class="muted small">{t("audit.query_note")}</p>
            <textarea
                id="audit-query"
                class="query"
                rows="6"
                spellcheck="false"
                autocomplete="off"
                aria-label={t("audit.query")}
                value={(*query).clone()}
                oninput={oninput}
                onkeydown={onkeydown}
            />
            <div class="query-actions">
                <button id="audit-query-run" class="btn primary small" onclick={onclick} title="Ctrl+Enter">{t("audit.query_run")}</button>
            </div>
            {answer}
        </details>
    };

    // the log itself
    let dropped = s.audit_dropped();
    let dropped_note = (dropped > 0).then(|| {
        let l = s.cluster.limits();
        html! { <p class="muted small" id="audit-dropped">{fill(t("audit.dropped"), &[("n", dropped.to_string()), ("events", l.max_audit_events.to_string()), ("mib", (l.max_audit_bytes / (1024 * 1024)).to_string())])}</p> }
    });
    let body = if all_rows.is_empty() {
        html! { <p class="muted">{t("audit.empty")}</p> }
    } else {
        let cur = p.pos.checked_sub(1);
        let filtered = !(resource.is_empty() && verb.is_empty() && user.is_empty());
        let rows: Vec<(usize, &crate::ui::model::AuditRow)> = if filtered {
            all_rows.iter().enumerate().filter(|(_, r)| (resource.is_empty() || r.resource == *resource) && (verb.is_empty() || r.verb == *verb) && (user.is_empty() || r.user == *user)).collect()
        } else {
            // no filter: the newest rows are the slice's end (a scrub does not walk the log)
            let from = all_rows.len().saturating_sub(AUDIT_ROWS);
            all_rows[from..].iter().enumerate().map(|(i, r)| (from + i, r)).collect()
        };
        let total = if filtered { rows.len() } else { all_rows.len() };
        let skip = rows.len().saturating_sub(AUDIT_ROWS);
        let newest = (total > AUDIT_ROWS).then(|| html! { <p class="muted small">{fill(t("audit.newest"), &[("n", AUDIT_ROWS.to_string()), ("total", total.to_string())])}</p> });
        if rows.is_empty() {
            html! { <p class="muted" id="audit-nomatch">{t("audit.nomatch")}</p> }
        } else {
            html! {
                <>
                    {for newest}
                    {rows_table(&rows[skip..], cur, [t("audit.verb"), t("audit.uri"), t("audit.name"), t("audit.kind"), t("audit.user"), t("audit.useragent"), t("audit.code"), t("audit.level")])}
                </>
            }
        }
    };
    html! {
        <div class="audit-panel">
            <div class="audit-head">
                {filters}
                {policy}
                {insights}
            </div>
            {for dropped_note}
            {body}
        </div>
    }
}

/// A name, escaped, that may break after `-`, `.`, `/` and `:` (a `<wbr>` there), never inside
/// a word. (The escapes' entities contain none of those characters.)
fn breakable(name: &str) -> String {
    let mut o = String::with_capacity(name.len() + 16);
    for ch in esc(name).chars() {
        o.push(ch);
        if matches!(ch, '-' | '.' | '/' | ':') {
            o.push_str("<wbr>");
        }
    }
    o
}

/// The log's table as one piece of markup, every value escaped: a scrub replaces sixty rows
/// of nine cells at once instead of diffing them node by node (the panel's cost at 300 replicas).
fn rows_table(rows: &[(usize, &crate::ui::model::AuditRow)], cur: Option<usize>, heads: [&str; 8]) -> Html {
    use std::fmt::Write;
    let mut h = String::with_capacity(rows.len() * 400 + 400);
    h.push_str("<table class=\"audit\" id=\"audit-table\"><thead><tr><th>#</th>");
    for (k, head) in heads.iter().enumerate() {
        let title = if k == 3 { " title=\"requestObject.kind\"" } else { "" };
        let _ = write!(h, "<th{}>{}</th>", title, esc(head));
    }
    h.push_str("</tr></thead><tbody>");
    for (i, r) in rows {
        let class = match (Some(r.step) == cur, r.code >= 400) {
            (true, true) => " class=\"cur err\"",
            (true, false) => " class=\"cur\"",
            (false, true) => " class=\"err\"",
            (false, false) => "",
        };
        let _ = write!(
            h,
            "<tr{}><td class=\"num\">{}</td><td><span class=\"verb {}\">{}</span></td><td class=\"uri\">{}</td><td class=\"name\">{}</td><td class=\"kind\">{}</td><td class=\"user\">{}</td><td class=\"ua\" title=\"{}\">{}</td><td class=\"num code\">{}</td><td class=\"level {}\">{}</td></tr>",
            class,
            i + 1,
            esc(&r.verb),
            esc(&r.verb),
            esc(&r.uri),
            breakable(&r.name),
            esc(&r.kind),
            breakable(&r.user),
            esc(&r.user_agent),
            esc(&r.user_agent),
            r.code,
            esc(&r.level),
            esc(&r.level)
        );
    }
    h.push_str("</tbody></table>");
    Html::from_html_unchecked(AttrValue::from(h))
}
