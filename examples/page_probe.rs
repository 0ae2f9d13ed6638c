//! Where a large Apply's time goes on the page's engine (issue 27's figures), natively:
//!
//!   cargo run --release --example page_probe            # slices, the end's summary, Events
//!   cargo run --release --example page_probe -- burst   # the replicaset controller's burst
//!
//! Prints figures; asserts nothing (speed is measured, not tested). Run it under `perf record`
//! to see what a single delivery spends its time on.
use kubesim::ui::i18n::Lang;
use kubesim::ui::model::Session;
use kubesim::ui::presets;
use kubesim::ui::state::{Action, State};
use kubesim::ui::story;
use std::rc::Rc;
use std::time::{Duration, Instant};

fn manifest(n: usize) -> String {
    presets::SEED_004.replace("replicas: 3", &format!("replicas: {}", n))
}

/// The replicaset controller's burst of creates: one delivery, many requests.
fn burst() {
    let y = manifest(1000);
    let mut total = Duration::ZERO;
    const RUNS: u32 = 15;
    for _ in 0..RUNS {
        let mut s = Session::new(1);
        let _ = s.apply_begin(&y);
        for _ in 0..11 {
            s.settle_some(1, &mut || false);
        }
        let t = Instant::now();
        s.settle_some(1, &mut || false);
        total += t.elapsed();
    }
    println!("the burst delivery (500 creates and their Events): {:?} each", total / RUNS);
}

fn slices() {
    let t = Instant::now();
    let n: usize = std::env::var("REPLICAS").ok().and_then(|v| v.parse().ok()).unwrap_or(1000);
    let mut s = Rc::new(State::new(1, 1.0, Lang::En, manifest(n), false));
    s = s.update(Action::Apply);
    println!("Apply and its first slice: {:?}", t.elapsed());
    let mut worst = (Duration::ZERO, 0);
    let mut n = 0;
    while s.pending.is_some() {
        let t = Instant::now();
        s = s.update(Action::SettleSlice { steps: 300, now_ms: 0.0 });
        if t.elapsed() > worst.0 {
            worst = (t.elapsed(), n);
        }
        n += 1;
    }
    println!("{} slices of 300 deliveries, the longest {:?} (slice {})", n, worst.0, worst.1);
    let session = s.session.rc.borrow();
    let t = Instant::now();
    let sum = story::summary(&session);
    let _ = story::summary_text(&sum, Lang::En);
    println!("the outcome's summary: {:?}", t.elapsed());
    let t = Instant::now();
    let _ = story::pending_reason(&session, &sum);
    println!("why Pods are Pending: {:?}", t.elapsed());
    let t = Instant::now();
    let text = session.events_text(session.len() / 2);
    println!("the Events tab mid-way: {:?} ({} lines)", t.elapsed(), text.lines().count());
}

fn main() {
    match std::env::args().nth(1).as_deref() {
        Some("burst") => burst(),
        _ => slices(),
    }
}
