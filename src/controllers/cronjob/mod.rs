//! The CronJob controller (`cronjob-controller` in kube-controller-manager).
//!
//! Real counterpart: `pkg/controller/cronjob/cronjob_controllerv2.go` (`syncCronJob`,
//! `cleanupFinishedJobs`) and `utils.go` (`mostRecentScheduleTime`, `getJobFromTemplate2`,
//! `nextScheduleTimeDuration`).
//!
//! It watches CronJobs and Jobs. On each sync it takes the Jobs it owns that finished out of
//! `status.active` (`SawCompletedJob`), then finds the most recent schedule time since the last
//! one (or since the CronJob was created) that is not in the future; if there is one and it is
//! not older than `startingDeadlineSeconds` (`MissSchedule`), and `concurrencyPolicy` allows it
//! (`Forbid`: `JobAlreadyActive`; `Replace`: the running Jobs are deleted), it creates the Job
//! `<name>-<scheduled minute since the epoch>` from the template, records it in `status.active`
//! and `lastScheduleTime`, trims finished Jobs to the history limits, and comes back at the next
//! schedule time. Schedule times run on the virtual clock: `sim advance 3m` runs three of an
//! every-minute CronJob.
//!
//! What kubesim simplifies: UTC only; no `TooManyMissedTimes` warning; the next sync is a
//! background timer (a settled cluster does not wait for it).

pub mod schedule;

use crate::api::meta::Resource;
use crate::api::request::{EventType, Identity, Method};
use crate::api::{meta, time};
use crate::client::{Recorder, Store, WorkQueue};
use crate::cluster::{self, Component};
use crate::controllers::deployment::controller_identity;
use crate::controllers::expectations::SyncTimer;
use crate::controllers::job::is_finished;
use crate::trace::Actor;
use serde_json::{json, Value};
use crate::sim::sort::CompactSort;

/// The annotation a CronJob's Job carries (`batch.kubernetes.io/cronjob-scheduled-timestamp`).
pub const SCHEDULED_TIMESTAMP: &str = "batch.kubernetes.io/cronjob-scheduled-timestamp";

/// The CronJob controller's timers.
pub type Timer = SyncTimer;
type Ctx<'a> = cluster::Ctx<'a, Timer>;
type Input = cluster::Input<Timer>;

pub struct CronJobController {
    cronjobs: Store,
    jobs: Store,
    queue: WorkQueue,
    recorder: Recorder,
}

impl Default for CronJobController {
    fn default() -> Self {
        CronJobController { cronjobs: Store::default(), jobs: Store::default(), queue: WorkQueue::default(), recorder: Recorder::new("cronjob-controller", "") }
    }
}

fn owner_cj_key(job: &Value) -> Option<String> {
    let r = meta::controller_of(job)?;
    (meta::get_str(r, &["kind"]) == "CronJob").then(|| format!("{}/{}", meta::namespace(job), meta::get_str(r, &["name"])))
}

/// `mostRecentScheduleTime`: the latest schedule time in (`earliest`, `now`], and the count of
/// those missed; `None` when none has come.
pub fn most_recent_schedule_time(s: &schedule::Schedule, earliest_ms: i64, now_ms: i64) -> Option<(i64, u32)> {
    let mut t = s.next(earliest_ms)?;
    if t > now_ms {
        return None;
    }
    let mut missed = 1;
    while let Some(n) = s.next(t) {
        if n > now_ms || missed > 100_000 {
            break;
        }
        t = n;
        missed += 1;
    }
    Some((t, missed))
}

impl CronJobController {
    fn owned_jobs(&self, cj: &Value) -> Vec<Value> {
        self.jobs
            .in_namespace(meta::namespace(cj))
            .filter(|j| meta::controller_of(j).map(|o| meta::get_str(o, &["uid"]) == meta::uid(cj)).unwrap_or(false))
            .cloned()
            .collect()
    }

    /// `syncCronJob`.
    fn sync(&mut self, ctx: &mut Ctx, key: &str) {
        let Some(cj) = self.cronjobs.get(key).cloned() else { return };
        let now_unix = time::EPOCH_MS + ctx.now;
        let ns = meta::namespace(&cj).to_string();
        let mut status = cj.get("status").cloned().filter(Value::is_object).unwrap_or(json!({}));
        let jobs = self.owned_jobs(&cj);
        let mut active: Vec<Value> = meta::get_array(&status, &["active"]).to_vec();
        // the active list against the Jobs that exist and have not finished
        active.retain(|r| jobs.iter().any(|j| meta::uid(j) == meta::get_str(r, &["uid"])) );
        for j in &jobs {
            let listed = active.iter().position(|r| meta::get_str(r, &["uid"]) == meta::uid(j));
            if is_finished(j) {
                if let Some(i) = listed {
                    active.remove(i);
                    let cond = if meta::get_array(j, &["status", "conditions"]).iter().any(|c| meta::get_str(c, &["type"]) == "Complete" && meta::get_str(c, &["status"]) == "True") { "Complete" } else { "Failed" };
                    self.recorder.event(ctx, &cj, None, "Normal", "SawCompletedJob", &format!("Saw completed job: {}, condition: {}", meta::name(j), cond));
                    if cond == "Complete" {
                        let done = meta::get_str(j, &["status", "completionTime"]).to_string();
                        if !done.is_empty() && done.as_str() > meta::get_str(&status, &["lastSuccessfulTime"]) {
                            status["lastSuccessfulTime"] = json!(done);
                        }
                    }
                }
            } else if listed.is_none() {
                // an unfinished Job it owns but did not list: created by hand, or forgotten
                self.recorder.event(ctx, &cj, None, "Warning", "UnexpectedJob", &format!("Saw a job that the controller did not create or forgot: {}", meta::name(j)));
            }
        }
        let mut requeue_at = None;
        let suspended = meta::get(&cj, &["spec", "suspend"]).and_then(Value::as_bool).unwrap_or(false);
        if !meta::is_deleting(&cj) && !suspended {
            match schedule::parse(meta::get_str(&cj, &["spec", "schedule"])) {
                Err(e) => {
                    let msg = format!("invalid schedule: {} : {}", meta::get_str(&cj, &["spec", "schedule"]), e);
                    self.recorder.event(ctx, &cj, None, "Warning", "InvalidSchedule", &msg);
                }
                Ok(sched) => {
                    let created = time::parse_rfc3339_unix(meta::get_str(&cj, &["metadata", "creationTimestamp"])).unwrap_or(now_unix);
                    let mut earliest = time::parse_rfc3339_unix(meta::get_str(&status, &["lastScheduleTime"])).unwrap_or(created);
                    let deadline = meta::get_i64(&cj, &["spec", "startingDeadlineSeconds"]);
                    if let Some(d) = deadline {
                        earliest = earliest.max(now_unix - d * 1000);
                    }
                    if let Some((scheduled, _missed)) = most_recent_schedule_time(&sched, earliest, now_unix) {
                        let too_late = deadline.map(|d| scheduled + d * 1000 < now_unix).unwrap_or(false);
                        let policy = meta::get_str(&cj, &["spec", "concurrencyPolicy"]);
                        if too_late {
                            self.recorder.event(ctx, &cj, None, "Warning", "MissSchedule", &format!("Missed scheduled time to start a job: {}", time::unix_rfc1123z(scheduled)));
                        } else if policy == "Forbid" && !active.is_empty() {
                            self.recorder.event(ctx, &cj, None, "Normal", "JobAlreadyActive", "Not starting job because prior execution is running and concurrency policy is Forbid");
                        } else {
                            if policy == "Replace" {
                                for r in std::mem::take(&mut active) {
                                    let name = meta::get_str(&r, &["name"]).to_string();
                                    let resp = ctx.request(Method::Delete, &format!("/apis/batch/v1/namespaces/{}/jobs/{}?propagationPolicy=Background", ns, name), None);
                                    if resp.ok() {
                                        self.recorder.event(ctx, &cj, None, "Normal", "SuccessfulDelete", &format!("Deleted job {}", name));
                                    }
                                }
                            }
                            let job = job_from_template(&cj, scheduled);
                            let resp = ctx.request(Method::Post, &format!("/apis/batch/v1/namespaces/{}/jobs", ns), Some(job));
                            if resp.ok() {
                                self.recorder.event(ctx, &cj, None, "Normal", "SuccessfulCreate", &format!("Created job {}", meta::name(&resp.body)));
                                active.push(object_reference(&resp.body));
                                status["lastScheduleTime"] = json!(time::unix_rfc3339(scheduled));
                            } else if resp.code != 409 {
                                self.recorder.event(ctx, &cj, None, "Warning", "FailedCreate", &format!("Error creating job: {}", resp.message()));
                            }
                        }
                    }
                    requeue_at = sched.next(now_unix);
                }
            }
        }
        if active.is_empty() {
            status.as_object_mut().map(|m| m.remove("active"));
        } else {
            status["active"] = json!(active);
        }
        if cj.get("status") != Some(&status) {
            let mut copy = cj.clone();
            copy["status"] = status;
            let resp = ctx.request(Method::Put, &format!("/apis/batch/v1/namespaces/{}/cronjobs/{}/status", ns, meta::name(&cj)), Some(copy));
            if resp.ok() {
                self.cronjobs.apply(EventType::Modified, &resp.body);
            }
        }
        self.cleanup_finished_jobs(ctx, &cj);
        if let Some(at) = requeue_at {
            // nextScheduleTimeDuration: the next time plus 100 ms
            ctx.after_background(at - now_unix + 100, Timer::Requeue(key.to_string()));
        }
    }

    /// `cleanupFinishedJobs`: successful and failed Jobs beyond the history limits, oldest first.
    fn cleanup_finished_jobs(&mut self, ctx: &mut Ctx, cj: &Value) {
        let jobs = self.owned_jobs(cj);
        for (cond, limit_key, default) in [("Complete", "successfulJobsHistoryLimit", 3), ("Failed", "failedJobsHistoryLimit", 1)] {
            let limit = meta::get_i64(cj, &["spec", limit_key]).unwrap_or(default).max(0) as usize;
            let mut done: Vec<&Value> = jobs.iter().filter(|j| meta::get_array(j, &["status", "conditions"]).iter().any(|c| meta::get_str(c, &["type"]) == cond && meta::get_str(c, &["status"]) == "True")).collect();
            if done.len() <= limit {
                continue;
            }
            done.csort_by(|a, b| meta::get_str(a, &["status", "startTime"]).cmp(meta::get_str(b, &["status", "startTime"])).then(meta::name(a).cmp(meta::name(b))));
            for j in &done[..done.len() - limit] {
                let path = format!("/apis/batch/v1/namespaces/{}/jobs/{}?propagationPolicy=Background", meta::namespace(j), meta::name(j));
                if ctx.request(Method::Delete, &path, None).ok() {
                    self.recorder.event(ctx, cj, None, "Normal", "SuccessfulDelete", &format!("Deleted job {}", meta::name(j)));
                }
            }
        }
    }
}

/// An `ObjectReference` to a Job, as `status.active` lists it.
fn object_reference(job: &Value) -> Value {
    json!({"apiVersion": "batch/v1", "kind": "Job", "name": meta::name(job), "namespace": meta::namespace(job), "resourceVersion": meta::get_str(job, &["metadata", "resourceVersion"]), "uid": meta::uid(job)})
}

/// `getJobFromTemplate2`: the template's labels and annotations (plus the scheduled
/// timestamp), the name `<cronjob>-<minutes since the epoch>`, owned by the CronJob.
pub fn job_from_template(cj: &Value, scheduled_unix_ms: i64) -> Value {
    let mut md = json!({
        "name": format!("{}-{}", meta::name(cj), scheduled_unix_ms.div_euclid(1000) / 60),
        "namespace": meta::namespace(cj),
        "ownerReferences": [meta::new_controller_ref(cj, "batch/v1", "CronJob")],
    });
    if let Some(l) = meta::get(cj, &["spec", "jobTemplate", "metadata", "labels"]) {
        md["labels"] = l.clone();
    }
    let mut ann = meta::get(cj, &["spec", "jobTemplate", "metadata", "annotations"]).cloned().filter(Value::is_object).unwrap_or(json!({}));
    ann[SCHEDULED_TIMESTAMP] = json!(time::unix_rfc3339(scheduled_unix_ms));
    md["annotations"] = ann;
    json!({"apiVersion": "batch/v1", "kind": "Job", "metadata": md, "spec": meta::get(cj, &["spec", "jobTemplate", "spec"]).cloned().unwrap_or(json!({}))})
}

impl Component for CronJobController {
    type Timer = Timer;

    fn restarted(&self) -> Option<Self> {
        Some(Self::default())
    }

    fn actor(&self) -> Actor {
        Actor::CronJobController
    }

    fn identity(&self) -> Identity {
        controller_identity("cronjob-controller", "cronjob-controller")
    }

    fn start(&mut self, ctx: &mut Ctx) {
        let cjs = ctx.list_and_watch(meta::lookup("cronjobs").expect("cronjobs"), "", "", "");
        self.cronjobs.replace(cjs);
        let jobs = ctx.list_and_watch(meta::lookup("jobs").expect("jobs"), "", "", "");
        self.jobs.replace(jobs);
        let keys: Vec<String> = self.cronjobs.items.keys().cloned().collect();
        for k in keys {
            self.queue.enqueue(ctx, &k, Timer::Worker);
        }
    }

    fn handle(&mut self, ctx: &mut Ctx, input: Input) {
        match input {
            Input::Watch { resource: Resource::CronJobs, event_type, object } => {
                self.cronjobs.apply_shared(event_type, object.clone());
                if event_type != EventType::Deleted {
                    self.queue.enqueue(ctx, &meta::key(&object), Timer::Worker);
                }
            }
            Input::Watch { resource: Resource::Jobs, event_type, object } => {
                self.jobs.apply_shared(event_type, object.clone());
                if let Some(k) = owner_cj_key(&object) {
                    if self.cronjobs.get(&k).is_some() {
                        self.queue.enqueue(ctx, &k, Timer::Worker);
                    }
                }
            }
            Input::Watch { .. } => {}
            Input::Timer(Timer::Worker) => {
                if let Some(k) = self.queue.start_work() {
                    self.sync(ctx, &k);
                }
                self.queue.done(ctx, Timer::Worker);
            }
            Input::Timer(Timer::Requeue(k)) => {
                if self.cronjobs.get(&k).is_some() {
                    self.queue.enqueue(ctx, &k, Timer::Worker);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missed_schedules_and_job_names() {
        let s = schedule::parse("* * * * *").unwrap();
        let t0 = time::parse_rfc3339_unix("2026-01-01T00:00:00Z").unwrap();
        assert_eq!(most_recent_schedule_time(&s, t0, t0 + 30_000), None, "the first minute has not come");
        assert_eq!(most_recent_schedule_time(&s, t0, t0 + 60_000), Some((t0 + 60_000, 1)));
        assert_eq!(most_recent_schedule_time(&s, t0, t0 + 5 * 60_000 + 10), Some((t0 + 5 * 60_000, 5)), "only the most recent of five missed runs");
        assert_eq!(time::unix_rfc1123z(t0 + 60_000), "Thu, 01 Jan 2026 00:01:00 +0000");
        let cj = json!({"metadata": {"name": "hello", "namespace": "default", "uid": "u"}, "spec": {"jobTemplate": {"spec": {"template": {}}}}});
        let job = job_from_template(&cj, t0 + 60_000);
        assert_eq!(meta::name(&job), "hello-29453761");
        assert_eq!(job["metadata"]["annotations"][SCHEDULED_TIMESTAMP], "2026-01-01T00:01:00Z");
    }
}
