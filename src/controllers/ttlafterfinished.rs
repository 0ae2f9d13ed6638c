//! The TTL-after-finished controller (`ttl-after-finished-controller` in kube-controller-manager).
//!
//! Real counterpart: `pkg/controller/ttlafterfinished/ttlafterfinished_controller.go`
//! (`processJob`, `processTTL`, `timeLeft`): a Job with `ttlSecondsAfterFinished` is deleted
//! (foreground, so its Pods go first) that many seconds after it finished — its `completionTime`,
//! or for a failed Job the time of its `Failed` condition.
//!
//! What kubesim simplifies: nothing beyond the shared informer: the wake-up is a background timer.

use crate::api::meta::Resource;
use crate::api::request::{EventType, Identity, Method};
use crate::api::{meta, time};
use crate::client::Store;
use crate::cluster::{self, Component};
use crate::controllers::deployment::controller_identity;
use crate::controllers::expectations::SyncTimer;
use crate::controllers::job::is_finished;
use crate::trace::Actor;
use serde_json::Value;

type Ctx<'a> = cluster::Ctx<'a, SyncTimer>;
type Input = cluster::Input<SyncTimer>;

#[derive(Default)]
pub struct TtlAfterFinishedController {
    jobs: Store,
}

/// When the finished Job `job` expires (virtual ms), if it has a TTL.
pub fn expires_at(job: &Value) -> Option<i64> {
    let ttl = meta::get_i64(job, &["spec", "ttlSecondsAfterFinished"])?;
    if !is_finished(job) || meta::is_deleting(job) {
        return None;
    }
    let finished = match meta::get_str(job, &["status", "completionTime"]) {
        "" => meta::get_array(job, &["status", "conditions"])
            .iter()
            .find(|c| matches!(meta::get_str(c, &["type"]), "Complete" | "Failed") && meta::get_str(c, &["status"]) == "True")
            .map(|c| meta::get_str(c, &["lastTransitionTime"]).to_string())
            .unwrap_or_default(),
        t => t.to_string(),
    };
    time::parse_rfc3339(&finished).map(|f| f + ttl * 1000)
}

impl TtlAfterFinishedController {
    fn process(&mut self, ctx: &mut Ctx, key: &str) {
        let Some(job) = self.jobs.get(key).cloned() else { return };
        let Some(at) = expires_at(&job) else { return };
        if at > ctx.now {
            ctx.after_background(at - ctx.now, SyncTimer::Requeue(key.to_string()));
            return;
        }
        let path = format!("/apis/batch/v1/namespaces/{}/jobs/{}?propagationPolicy=Foreground", meta::namespace(&job), meta::name(&job));
        let _ = ctx.request(Method::Delete, &path, None);
    }
}

impl Component for TtlAfterFinishedController {
    type Timer = SyncTimer;

    fn restarted(&self) -> Option<Self> {
        Some(Self::default())
    }

    fn actor(&self) -> Actor {
        Actor::TtlAfterFinishedController
    }

    fn identity(&self) -> Identity {
        controller_identity("ttl-after-finished-controller", "ttl-after-finished-controller")
    }

    fn start(&mut self, ctx: &mut Ctx) {
        let jobs = ctx.list_and_watch(meta::lookup("jobs").expect("jobs"), "", "", "");
        self.jobs.replace(jobs);
        let keys: Vec<String> = self.jobs.items.keys().cloned().collect();
        for k in keys {
            self.process(ctx, &k);
        }
    }

    fn handle(&mut self, ctx: &mut Ctx, input: Input) {
        match input {
            Input::Watch { resource: Resource::Jobs, event_type, object } => {
                self.jobs.apply_shared(event_type, object.clone());
                if event_type != EventType::Deleted && expires_at(&object).is_some() {
                    self.process(ctx, &meta::key(&object));
                }
            }
            Input::Watch { .. } => {}
            Input::Timer(SyncTimer::Requeue(k)) => self.process(ctx, &k),
            Input::Timer(SyncTimer::Worker) => {}
        }
    }
}
