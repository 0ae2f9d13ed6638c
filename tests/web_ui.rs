//! The page's components in headless Chromium (wasm-bindgen-test): the editor's inline errors,
//! the controls (play, step, scrub), the language switch, the share link's round trip and the
//! panic overlay. Each test mounts the whole `App` in its own element and drives it through DOM
//! events, as a user would.
//!
//! CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner CHROMEDRIVER=/usr/bin/chromedriver \
//!   WASM_BINDGEN_TEST_WEBDRIVER_JSON=$PWD/webdriver.json cargo test --target wasm32-unknown-unknown --test web_ui
#![cfg(target_arch = "wasm32")]

use kubesim::ui::app::App;
use kubesim::ui::presets;
use std::time::Duration;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{Element, HtmlInputElement, HtmlSelectElement, HtmlTextAreaElement};

wasm_bindgen_test_configure!(run_in_browser);

fn doc() -> web_sys::Document {
    web_sys::window().unwrap().document().unwrap()
}

async fn tick() {
    yew::platform::time::sleep(Duration::from_millis(30)).await;
}

/// A fresh page state: no fragment, nothing stored, English.
fn clean(lang: &str) {
    let w = web_sys::window().unwrap();
    let _ = w.history().unwrap().replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&w.location().pathname().unwrap()));
    let s = w.local_storage().unwrap().unwrap();
    s.clear().unwrap();
    s.set_item("kubesim.lang", lang).unwrap();
}

struct Mounted {
    root: Element,
    handle: Option<yew::AppHandle<App>>,
}

impl Mounted {
    async fn new() -> Mounted {
        let root = doc().create_element("div").unwrap();
        doc().body().unwrap().append_child(&root).unwrap();
        let handle = yew::Renderer::<App>::with_root(root.clone()).render();
        tick().await;
        Mounted { root, handle: Some(handle) }
    }
    fn q(&self, sel: &str) -> Element {
        self.root.query_selector(sel).unwrap().unwrap_or_else(|| panic!("no element {}", sel))
    }
    fn has(&self, sel: &str) -> bool {
        self.root.query_selector(sel).unwrap().is_some()
    }
    fn count(&self, sel: &str) -> u32 {
        self.root.query_selector_all(sel).unwrap().length()
    }
    fn text(&self, sel: &str) -> String {
        self.q(sel).text_content().unwrap_or_default()
    }
    async fn click(&self, sel: &str) {
        self.q(sel).dyn_into::<web_sys::HtmlElement>().unwrap().click();
        tick().await;
    }
    async fn type_editor(&self, text: &str) {
        let ta: HtmlTextAreaElement = self.q("#editor-text").dyn_into().unwrap();
        ta.set_value(text);
        ta.dispatch_event(&web_sys::InputEvent::new("input").unwrap()).unwrap();
        tick().await;
    }
    async fn seek(&self, pos: usize) {
        let r: HtmlInputElement = self.q("#timeline").dyn_into().unwrap();
        r.set_value(&pos.to_string());
        r.dispatch_event(&web_sys::InputEvent::new("input").unwrap()).unwrap();
        tick().await;
    }
    /// (position, total) from the step counter.
    fn counter(&self) -> (usize, usize) {
        let c = self.q("#counter");
        let n = |a: &str| c.get_attribute(a).and_then(|v| v.parse().ok()).unwrap_or(0);
        (n("data-pos"), n("data-len"))
    }
    fn pods(&self) -> usize {
        self.text("#objects-out").lines().filter(|l| l.starts_with("pod/")).count()
    }
}

impl Drop for Mounted {
    fn drop(&mut self) {
        if let Some(h) = self.handle.take() {
            h.destroy();
        }
        self.root.remove();
    }
}

#[wasm_bindgen_test]
async fn editor_shows_kubectl_errors_at_their_line_and_column() {
    clean("en");
    let m = Mounted::new().await;
    // a field error from the API server's validation
    m.type_editor(&presets::SEED_004.replace("  replicas: 3\n", "  replicas: -1\n")).await;
    m.click("#apply").await;
    let msg = m.text(".err-msg");
    assert!(msg.contains("line 8, column 3"), "{}", msg);
    assert!(msg.contains("The Deployment \"nginx-deployment\" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0"), "{}", msg);
    assert_eq!(m.text(".ln.bad"), "8");
    assert!(m.text(".editor-status.bad .kubectl-out").starts_with("The Deployment \"nginx-deployment\" is invalid"));
    // the rejected request is on the timeline (GET 404, POST 422), but nothing was stored
    assert_eq!(m.counter().1, 4);
    m.seek(4).await;
    assert!(m.text(".narr-text").contains("422 Invalid"), "{}", m.text(".narr-text"));
    m.click("#tab-objects").await;
    assert_eq!(m.text("#objects-out").trim(), "No resources found in default namespace.");
    // a YAML syntax error: kubectl's message, placed by the decoder's position
    m.type_editor(&presets::SEED_004.replace("  labels:\n    app: nginx\n", "  labels: app: nginx\n")).await;
    assert_eq!(m.count(".err-msg"), 0, "editing clears the marks");
    m.click("#apply").await;
    let msg = m.text(".err-msg");
    assert!(msg.contains("error: error parsing STDIN: error converting YAML to JSON: yaml: line 5: mapping values are not allowed in this context"), "{}", msg);
    assert_eq!(m.text(".ln.bad"), "5");
    // manifest text is rendered as text, never as HTML
    m.type_editor("apiVersion: v1\nkind: <b id=\"injected\">Pod</b>\nmetadata:\n  name: x\n").await;
    m.click("#apply").await;
    assert!(doc().get_element_by_id("injected").is_none());
    assert!(m.text(".err-msg").contains("<b id=\"injected\">Pod</b>"), "{}", m.text(".err-msg"));
}

#[wasm_bindgen_test]
async fn controls_play_pause_step_and_scrub() {
    clean("en");
    let m = Mounted::new().await;
    assert!(m.q("#play").has_attribute("disabled"), "nothing to play before Apply");
    m.type_editor(presets::SEED_004).await;
    m.click("#apply").await;
    assert_eq!(m.text(".editor-status.ok .kubectl-out").trim(), "deployment.apps/nginx-deployment created");
    let (pos, total) = m.counter();
    assert!(pos >= 1 && total > 100, "{} / {}", pos, total);
    assert_eq!(m.q("#play").get_attribute("aria-label").as_deref(), Some("Pause"), "Apply starts playing");
    m.click("#play").await;
    assert_eq!(m.q("#play").get_attribute("aria-label").as_deref(), Some("Play"));
    // every message: the step buttons move one message
    m.click("#level-all").await;
    let (p0, _) = m.counter();
    m.click("#step-fwd").await;
    assert_eq!(m.counter().0, p0 + 1);
    m.click("#step-back").await;
    m.click("#step-back").await;
    assert_eq!(m.counter().0, p0 - 1);
    // scrub to the end: three ready Pods; back to the start: none
    m.seek(total).await;
    assert_eq!(m.counter(), (total, total));
    assert_eq!(m.count(".diagram .chip.ready"), 3);
    m.click("#tab-objects").await;
    assert_eq!(m.pods(), 3);
    assert_eq!(m.text("#objects-out").matches(" Running ").count(), 3);
    m.click("#tab-events").await;
    let ev = m.text("#events-out");
    assert!(ev.contains("Scheduled") && ev.contains("Started"), "{}", ev);
    m.seek(0).await;
    assert_eq!(m.count(".diagram .chip"), 0);
    assert!(m.has(".narr-text"));
    // speed menu
    let sel: HtmlSelectElement = m.q("#speed").dyn_into().unwrap();
    sel.set_value("4");
    sel.dispatch_event(&web_sys::Event::new("change").unwrap()).unwrap();
    tick().await;
    assert_eq!(m.q("#speed").dyn_into::<HtmlSelectElement>().unwrap().value(), "4");
    // play from the start advances by itself
    m.click("#play").await;
    yew::platform::time::sleep(Duration::from_millis(900)).await;
    let (p, _) = m.counter();
    assert!(p >= 3, "played to {}", p);
    m.click("#play").await;
    // the Scheduler panel shows per-node verdicts for the bound Pods
    m.seek(total).await;
    m.click("#tab-scheduler").await;
    assert!(m.text(".sched-panel").contains("NodeResourcesFit"), "{}", m.text(".sched-panel"));
    assert_eq!(m.count(".sched-table tr.chosen"), 1);
}

#[wasm_bindgen_test]
async fn language_switch_translates_ui_and_narration() {
    clean("en");
    let m = Mounted::new().await;
    assert_eq!(m.text("#tab-events"), "Events");
    assert!(m.text(".narr-text").starts_with("Press Apply"));
    m.click(".lang button[lang=ko]").await;
    assert_eq!(m.text("#tab-events"), "이벤트");
    assert_eq!(m.text("#apply"), "적용");
    assert!(m.text(".narr-text").starts_with("적용을 누르면"));
    assert_eq!(doc().document_element().unwrap().get_attribute("lang").as_deref(), Some("ko"));
    m.click("#apply").await;
    m.click("#play").await;
    // the narration of each step is Korean too
    let n = m.text(".narr-text");
    assert!(n.chars().any(|c| ('가'..='힣').contains(&c)), "{}", n);
    let stored = web_sys::window().unwrap().local_storage().unwrap().unwrap().get_item("kubesim.lang").unwrap();
    assert_eq!(stored.as_deref(), Some("ko"));
    m.click(".lang button:not([lang])").await;
    assert_eq!(m.text("#tab-events"), "Events");
}

#[wasm_bindgen_test]
async fn a_large_apply_is_simulated_in_slices_with_progress() {
    clean("en");
    let m = Mounted::new().await;
    m.type_editor(&presets::SEED_004.replace("replicas: 3", "replicas: 80")).await;
    m.click("#apply").await;
    // the first slice ran in the click's task; the page shows progress and refuses a second Apply
    assert!(m.has(".editor-status.busy"), "progress is shown while the cluster settles");
    assert!(m.text(".editor-status.busy").starts_with("Simulating…"), "{}", m.text(".editor-status.busy"));
    assert!(m.q("#apply").has_attribute("disabled"));
    let mut waited = 0;
    while !m.has(".editor-status.ok") {
        assert!(waited < 600, "the settle never finished");
        tick().await;
        waited += 1;
    }
    assert!(waited > 1, "the settle took several tasks");
    assert!(!m.q("#apply").has_attribute("disabled"));
    assert_eq!(m.text(".editor-status.ok .kubectl-out").trim(), "deployment.apps/nginx-deployment created");
    let (_, total) = m.counter();
    assert!(total > 400, "{} steps", total);
}

#[wasm_bindgen_test]
async fn share_link_round_trip_reproduces_the_state() {
    clean("en");
    let (link, want_counter, want_objects) = {
        let m = Mounted::new().await;
        m.type_editor(&presets::SEED_004.replace("replicas: 3", "replicas: 2")).await;
        m.click("#apply").await;
        m.click("#play").await;
        m.seek(80).await;
        m.click("#tab-objects").await;
        let objs = m.text("#objects-out");
        m.click(".bar .btn:last-child").await;
        let link: HtmlInputElement = m.q("#share-link").dyn_into().unwrap();
        let snippet: HtmlTextAreaElement = m.q("#share-iframe").dyn_into().unwrap();
        assert!(snippet.value().starts_with("<iframe src=\""), "{}", snippet.value());
        assert!(snippet.value().contains("?embed#s=1&amp;speed=1&amp;lang=en&amp;y="), "{}", snippet.value());
        (link.value(), m.counter(), objs)
    };
    assert!(link.contains("#s=1&speed=1&lang=en&y=") && link.ends_with("&t=80"), "{}", link);
    // open the link: a fresh page state with only the fragment
    clean("ko");
    let hash = &link[link.find('#').unwrap()..];
    let w = web_sys::window().unwrap();
    let path = w.location().pathname().unwrap();
    w.history().unwrap().replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&format!("{}{}", path, hash))).unwrap();
    let m = Mounted::new().await;
    assert_eq!(m.counter(), want_counter);
    assert_eq!(m.text("#tab-events"), "Events", "the link's language wins");
    m.click("#tab-objects").await;
    assert_eq!(m.text("#objects-out"), want_objects);
    let editor: HtmlTextAreaElement = m.q("#editor-text").dyn_into().unwrap();
    assert!(editor.value().contains("replicas: 2"));
    drop(m);
    clean("en");
}

#[wasm_bindgen_test]
async fn panic_overlay_keeps_the_editor_text() {
    clean("en");
    let m = Mounted::new().await;
    m.type_editor("apiVersion: v1\nkind: Pod # kept\n").await;
    kubesim::ui::app::show_panic("panicked at 'test'");
    let overlay = doc().get_element_by_id("panic").expect("overlay");
    assert!(overlay.text_content().unwrap().contains("panicked at 'test'"));
    assert!(overlay.text_content().unwrap().contains("kind: Pod # kept"));
    let stored = web_sys::window().unwrap().local_storage().unwrap().unwrap().get_item("kubesim.editor").unwrap();
    assert_eq!(stored.as_deref(), Some("apiVersion: v1\nkind: Pod # kept\n"));
    overlay.remove();
    drop(m);
}

/// Every box, label and edge of a diagram as text lines, sorted: what the eye sees of it. Texts
/// of the other language (`lang="ko"` in the poster) are left out.
fn drawing(svg: &Element) -> Vec<String> {
    let mut out = vec![];
    let all = svg.query_selector_all("rect, text, polyline, path").unwrap();
    for i in 0..all.length() {
        let e: Element = all.item(i).unwrap().dyn_into().unwrap();
        if e.get_attribute("lang").as_deref() == Some("ko") {
            continue;
        }
        let a = |n: &str| e.get_attribute(n).unwrap_or_default();
        let line = match e.tag_name().as_str() {
            "rect" => format!("rect {} {} {} {} {}", a("class"), a("x"), a("y"), a("width"), a("height")),
            "text" => format!("text {} {} {} {}", a("class"), a("x"), a("y"), e.text_content().unwrap_or_default()),
            "polyline" => format!("edge {}", a("points")),
            _ => format!("path {} {}", a("class"), a("d")),
        };
        out.push(line);
    }
    out.sort();
    out
}

/// The embed's poster (index.html, from `ui::poster`) draws what the page draws at step 0: the
/// same boxes, labels and edges at the same places.
#[wasm_bindgen_test]
async fn poster_matches_the_live_diagram() {
    clean("en");
    let m = Mounted::new().await;
    let live = drawing(&m.q("svg.diagram"));
    let holder = doc().create_element("div").unwrap();
    // the poster is the crate's own constant markup (no user data)
    holder.set_inner_html(&kubesim::ui::poster::diagram_svg(&kubesim::ui::model::Session::new(1)));
    let poster = drawing(&holder.query_selector("svg.diagram").unwrap().unwrap());
    assert!(live.len() > 60, "{} elements", live.len());
    let only_live: Vec<&String> = live.iter().filter(|l| !poster.contains(l)).collect();
    let only_poster: Vec<&String> = poster.iter().filter(|l| !live.contains(l)).collect();
    assert!(only_live.is_empty() && only_poster.is_empty(), "only in the page: {:?}\nonly in the poster: {:?}", only_live, only_poster);
    drop(m);
}
