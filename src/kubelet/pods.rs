//! The kubelet's pod workers (filled in by the event-chain work).

use crate::cluster::Ctx;
use serde_json::{json, Value};

#[derive(Default)]
pub struct PodWorkers {
    pub deferred: Vec<String>,
}

impl PodWorkers {
    pub fn on_pod(&mut self, _ctx: &mut Ctx, _node: &str, _ip: &str, _event: &str, _pod: Value) {}
    pub fn on_timer(&mut self, _ctx: &mut Ctx, _node: &str, _ip: &str, _key: &str) {}
    pub fn node_images(&self) -> Value {
        json!([])
    }
}
