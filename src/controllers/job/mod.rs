//! The Job controller (`job-controller` in kube-controller-manager).
//!
//! Real counterpart: `pkg/controller/job/job_controller.go` (`syncJob`, `manageJob`,
//! `pastBackoffLimitOnFailure`, `pastActiveDeadline`, `newCondition`, `enactJobFinished`) and
//! `backoff_utils.go` (`getRemainingTime`: 10 s · 2^(failures−1), at most 10 min).
//!
//! It watches Jobs and Pods. For a Job that has not finished it counts its Pods: active (neither
//! Succeeded nor Failed nor terminating), succeeded, failed. Too many failures (`failed >
//! backoffLimit`, or for `restartPolicy: OnFailure` the containers' restarts reaching it) or an
//! expired `activeDeadlineSeconds` add `FailureTarget` and, once no Pod is terminating, `Failed`;
//! enough successes (`succeeded >= completions`) add `SuccessCriteriaMet`, then `Complete` with
//! `completionTime`. Otherwise it keeps `min(parallelism, completions − succeeded)` Pods active,
//! creating replacements after a failure only once the back-off has passed. Status carries
//! `active`, `ready`, `succeeded`, `failed`, `terminating`, `startTime` and
//! `uncountedTerminatedPods: {}` as v1.34 writes it.
//!
//! What kubesim simplifies: NonIndexed Jobs only (an Indexed Job is rejected by the controller
//! with an event); no `batch.kubernetes.io/job-tracking` finalizer (terminal Pods are counted
//! straight from the informer, so `uncountedTerminatedPods` stays empty); no pod failure policy,
//! success policy or suspend yet (`ttlSecondsAfterFinished` is the TTL-after-finished controller's,
//! `controllers/ttlafterfinished.rs`); the back-off's last failure time is
//! when the controller sees the Pod fail.

use crate::api::meta::Resource;
use crate::api::request::{EventType, Identity, Method, Request};
use crate::api::{meta, time};
use crate::client::{Recorder, Store, WorkQueue};
use crate::cluster::{self, Component};
use crate::controllers::deployment::controller_identity;
use crate::controllers::replicaset::util as ru;
use crate::trace::Actor;
use serde_json::{json, Value};
use crate::controllers::expectations::{Expectations, OwnerIndex, SyncTimer};
use std::collections::{BTreeMap, BTreeSet};

/// `DefaultJobPodFailureBackOff`.
pub const DEFAULT_BACKOFF_MS: i64 = 10_000;
/// `MaxJobPodFailureBackOff`.
pub const MAX_BACKOFF_MS: i64 = 600_000;

/// The back-off before the next Pod after `failures` failures in a row (`getRemainingTime`'s
/// full delay): 10 s, 20 s, 40 s, … at most 10 min; none before the first failure.
pub fn backoff_ms(failures: u32) -> i64 {
    if failures == 0 {
        return 0;
    }
    let mut d = DEFAULT_BACKOFF_MS;
    for _ in 1..failures {
        d = d.saturating_mul(2);
        if d >= MAX_BACKOFF_MS {
            return MAX_BACKOFF_MS;
        }
    }
    d.min(MAX_BACKOFF_MS)
}

/// NonIndexed `wantActive`: `completions − succeeded` capped by `parallelism`; without
/// completions, `parallelism` until one succeeds (then none).
pub fn want_active(completions: Option<i64>, parallelism: i64, succeeded: i64) -> i64 {
    match completions {
        Some(c) => (c - succeeded).clamp(0, parallelism.max(0)),
        None if succeeded > 0 => 0,
        None => parallelism.max(0),
    }
}

/// Back-off bookkeeping per Job (`backoffRecord`): failures since the last success, and when
/// the last one was seen.
#[derive(Clone, Debug, Default)]
struct BackoffRecord {
    counted: BTreeSet<String>,
    failures_after_last_success: u32,
    last_failure_ms: i64,
}

/// The Job controller's timers.
pub type Timer = SyncTimer;

type Ctx<'a> = cluster::Ctx<'a, Timer>;
type Input = cluster::Input<Timer>;

pub struct JobController {
    jobs: Store,
    pods: Store,
    queue: WorkQueue,
    recorder: Recorder,
    expectations: Expectations,
    backoff: BTreeMap<String, BackoffRecord>,
    by_owner: OwnerIndex,
}

impl Default for JobController {
    fn default() -> Self {
        JobController {
            jobs: Store::default(),
            pods: Store::default(),
            queue: WorkQueue::default(),
            recorder: Recorder::new("job-controller", ""),
            expectations: Expectations::default(),
            backoff: BTreeMap::new(),
            by_owner: OwnerIndex::default(),
        }
    }
}

fn owner_job_key(pod: &Value) -> Option<String> {
    let r = meta::controller_of(pod)?;
    (meta::get_str(r, &["kind"]) == "Job").then(|| format!("{}/{}", meta::namespace(pod), meta::get_str(r, &["name"])))
}

fn has_condition(job: &Value, t: &str) -> bool {
    meta::get_array(job, &["status", "conditions"]).iter().any(|c| meta::get_str(c, &["type"]) == t && meta::get_str(c, &["status"]) == "True")
}

/// `IsJobFinished`: a true Complete or Failed condition.
pub fn is_finished(job: &Value) -> bool {
    has_condition(job, "Complete") || has_condition(job, "Failed")
}

fn condition(t: &str, reason: &str, message: &str, now: &str) -> Value {
    json!({"type": t, "status": "True", "lastProbeTime": now, "lastTransitionTime": now, "reason": reason, "message": message})
}

impl JobController {
    fn job_pods(&self, job: &Value) -> Vec<Value> {
        self.by_owner.keys(meta::uid(job)).filter_map(|k| self.pods.get(k).cloned()).collect()
    }

    /// The Pod a Job creates (`GetPodFromTemplate`).
    fn pod_from_template(job: &Value) -> Value {
        let tpl = meta::get(job, &["spec", "template"]).cloned().unwrap_or(json!({}));
        let mut md = json!({
            "generateName": format!("{}-", meta::name(job)),
            "namespace": meta::namespace(job),
            "ownerReferences": [meta::new_controller_ref(job, "batch/v1", "Job")],
        });
        for f in ["labels", "annotations"] {
            if let Some(v) = meta::get(&tpl, &["metadata", f]) {
                md[f] = v.clone();
            }
        }
        json!({"apiVersion": "v1", "kind": "Pod", "metadata": md, "spec": tpl.get("spec").cloned().unwrap_or(json!({}))})
    }

    /// Records the Job's newly failed and succeeded Pods in its back-off record.
    fn update_backoff(&mut self, key: &str, pods: &[Value], now: i64) {
        let rec = self.backoff.entry(key.to_string()).or_default();
        let mut finished: Vec<&Value> = pods.iter().filter(|p| matches!(meta::get_str(p, &["status", "phase"]), "Succeeded" | "Failed")).filter(|p| !rec.counted.contains(meta::uid(p))).collect();
        finished.sort_by(|a, b| meta::get_str(a, &["metadata", "creationTimestamp"]).cmp(meta::get_str(b, &["metadata", "creationTimestamp"])).then(meta::name(a).cmp(meta::name(b))));
        for p in finished {
            rec.counted.insert(meta::uid(p).to_string());
            if meta::get_str(p, &["status", "phase"]) == "Failed" {
                rec.failures_after_last_success += 1;
                rec.last_failure_ms = now;
            } else {
                rec.failures_after_last_success = 0;
            }
        }
    }

    /// `syncJob`.
    fn sync_job(&mut self, ctx: &mut Ctx, key: &str) {
        let Some(job) = self.jobs.get(key).cloned() else {
            self.expectations.delete(key);
            self.backoff.remove(key);
            return;
        };
        if is_finished(&job) || meta::is_deleting(&job) {
            return;
        }
        let now = ctx.now;
        let now_s = time::rfc3339(now);
        if meta::get_str(&job, &["spec", "completionMode"]) == "Indexed" {
            self.recorder.event(ctx, &job, None, "Warning", "UnsupportedCompletionMode", "kubesim's job controller runs NonIndexed Jobs only");
            return;
        }
        let pods = self.job_pods(&job);
        self.update_backoff(key, &pods, now);
        let terminal = |p: &Value| matches!(meta::get_str(p, &["status", "phase"]), "Succeeded" | "Failed");
        let active: Vec<&Value> = pods.iter().filter(|p| !terminal(p) && !meta::is_deleting(p)).collect();
        let terminating = pods.iter().filter(|p| !terminal(p) && meta::is_deleting(p)).count() as i64;
        let succeeded = pods.iter().filter(|p| meta::get_str(p, &["status", "phase"]) == "Succeeded").count() as i64;
        let failed = pods.iter().filter(|p| meta::get_str(p, &["status", "phase"]) == "Failed").count() as i64;
        let ready = active.iter().filter(|p| ru::is_pod_ready(p)).count() as i64;
        let spec_i = |k: &str| meta::get_i64(&job, &["spec", k]);
        let backoff_limit = spec_i("backoffLimit").unwrap_or(6);
        let parallelism = spec_i("parallelism").unwrap_or(1);
        let completions = spec_i("completions");
        let mut status = job.get("status").cloned().filter(Value::is_object).unwrap_or(json!({}));
        let start_ms = match meta::get_str(&status, &["startTime"]) {
            "" => {
                status["startTime"] = json!(now_s);
                now
            }
            s => time::parse_rfc3339(s).unwrap_or(now),
        };
        let mut conditions: Vec<Value> = meta::get_array(&status, &["conditions"]).to_vec();
        let has = |cs: &[Value], t: &str| cs.iter().any(|c| meta::get_str(c, &["type"]) == t);
        // the interim failure or success condition
        if !has(&conditions, "FailureTarget") && !has(&conditions, "SuccessCriteriaMet") {
            let restarts: i64 = active.iter().map(|p| meta::get_array(p, &["status", "containerStatuses"]).iter().map(|c| meta::get_i64(c, &["restartCount"]).unwrap_or(0)).sum::<i64>()).sum();
            let on_failure = meta::get_str(&job, &["spec", "template", "spec", "restartPolicy"]) == "OnFailure";
            let past_deadline = spec_i("activeDeadlineSeconds").map(|ads| now - start_ms >= ads * 1000).unwrap_or(false);
            if failed > backoff_limit || (on_failure && backoff_limit > 0 && restarts >= backoff_limit) || (on_failure && backoff_limit == 0 && restarts > 0) {
                conditions.push(condition("FailureTarget", "BackoffLimitExceeded", "Job has reached the specified backoff limit", &now_s));
            } else if past_deadline {
                conditions.push(condition("FailureTarget", "DeadlineExceeded", "Job was active longer than specified deadline", &now_s));
            } else if completions.map(|c| succeeded >= c).unwrap_or(succeeded > 0 && active.is_empty()) {
                conditions.push(condition("SuccessCriteriaMet", "CompletionsReached", "Reached expected number of succeeded pods", &now_s));
            }
        }
        let failing = conditions.iter().find(|c| meta::get_str(c, &["type"]) == "FailureTarget").cloned();
        let succeeding = has(&conditions, "SuccessCriteriaMet");
        let mut terminating = terminating;
        let mut err = None;
        if failing.is_some() || succeeding {
            // a finishing Job's active Pods are deleted
            if !active.is_empty() {
                let names: Vec<String> = active.iter().map(|p| meta::name(p).to_string()).collect();
                err = self.delete_pods(ctx, &job, &names);
                terminating += names.len() as i64;
            }
        } else if self.expectations.satisfied(key, now) {
            let want = want_active(completions, parallelism, succeeded);
            let have = active.len() as i64;
            if have < want {
                let rec = self.backoff.get(key).cloned().unwrap_or_default();
                let remaining = backoff_ms(rec.failures_after_last_success) - (now - rec.last_failure_ms);
                if rec.failures_after_last_success > 0 && remaining > 0 {
                    ctx.after(remaining, Timer::Requeue(key.to_string()), true);
                } else {
                    err = self.create_pods(ctx, &job, (want - have) as usize);
                }
            } else if have > want {
                let mut extra: Vec<&Value> = active.clone();
                extra.sort_by(|a, b| meta::get_str(b, &["metadata", "creationTimestamp"]).cmp(meta::get_str(a, &["metadata", "creationTimestamp"])));
                let names: Vec<String> = extra.iter().take((have - want) as usize).map(|p| meta::name(p).to_string()).collect();
                err = self.delete_pods(ctx, &job, &names);
            }
            if let Some(ads) = spec_i("activeDeadlineSeconds") {
                let left = start_ms + ads * 1000 - now;
                if left > 0 {
                    ctx.after(left, Timer::Requeue(key.to_string()), true);
                }
            }
        }
        // the final condition once no Pod is terminating
        let mut finished_event = None;
        if terminating == 0 {
            if let Some(f) = &failing {
                if !has(&conditions, "Failed") {
                    let (reason, message) = (meta::get_str(f, &["reason"]).to_string(), meta::get_str(f, &["message"]).to_string());
                    conditions.push(condition("Failed", &reason, &message, &now_s));
                    finished_event = Some(("Warning", reason, message));
                }
            } else if succeeding && !has(&conditions, "Complete") {
                conditions.push(condition("Complete", "CompletionsReached", "Reached expected number of succeeded pods", &now_s));
                status["completionTime"] = json!(now_s);
                finished_event = Some(("Normal", "Completed".to_string(), "Job completed".to_string()));
            }
        }
        let active_now = if failing.is_some() || succeeding { 0 } else { active.len() as i64 };
        if !conditions.is_empty() {
            status["conditions"] = json!(conditions);
        }
        for (k, v) in [("active", active_now), ("succeeded", succeeded), ("failed", failed)] {
            match v {
                0 => {
                    status.as_object_mut().map(|m| m.remove(k));
                }
                _ => status[k] = json!(v),
            }
        }
        status["ready"] = json!(if active_now == 0 { 0 } else { ready });
        status["terminating"] = json!(terminating);
        status["uncountedTerminatedPods"] = json!({});
        if job.get("status") != Some(&status) {
            let mut copy = job.clone();
            copy["status"] = status;
            let path = format!("/apis/batch/v1/namespaces/{}/jobs/{}/status", meta::namespace(&job), meta::name(&job));
            let resp = ctx.request(Method::Put, &path, Some(copy));
            if resp.ok() {
                self.jobs.apply(EventType::Modified, &resp.body);
            }
        }
        if let Some((t, reason, message)) = finished_event {
            self.recorder.event(ctx, &job, None, t, &reason, &message);
        }
        if err.is_some() {
            ctx.after_background(1000, Timer::Requeue(key.to_string()));
        }
    }

    /// `manageJob`'s creates: slow-start batches, `Created pod: …` events.
    fn create_pods(&mut self, ctx: &mut Ctx, job: &Value, count: usize) -> Option<String> {
        let key = meta::key(job);
        let count = ru::cap_to_burst_replicas(count);
        self.expectations.set(&key, count as i64, 0, ctx.now);
        let path = format!("/api/v1/namespaces/{}/pods", meta::namespace(job));
        let mut done = 0;
        for batch in ru::slow_start_batches(count, ru::SLOW_START_INITIAL_BATCH_SIZE) {
            let reqs = (0..batch).map(|_| Request::new(Method::Post, path.clone(), Some(Self::pod_from_template(job)))).collect();
            let mut failed = None;
            for resp in ctx.request_batch(reqs) {
                done += 1;
                if resp.ok() {
                    let msg = format!("Created pod: {}", meta::name(&resp.body));
                    self.recorder.event(ctx, job, None, "Normal", "SuccessfulCreate", &msg);
                } else {
                    let msg = format!("Error creating: {}", resp.message());
                    self.recorder.event(ctx, job, None, "Warning", ru::FAILED_CREATE_REASON, &msg);
                    self.expectations.lower(&key, 1, 0);
                    failed = Some(msg);
                }
            }
            if failed.is_some() {
                self.expectations.lower(&key, (count - done) as i64, 0);
                return failed;
            }
        }
        None
    }

    fn delete_pods(&mut self, ctx: &mut Ctx, job: &Value, names: &[String]) -> Option<String> {
        let key = meta::key(job);
        self.expectations.set(&key, 0, names.len() as i64, ctx.now);
        let reqs = names.iter().map(|n| Request::new(Method::Delete, format!("/api/v1/namespaces/{}/pods/{}", meta::namespace(job), n), None)).collect();
        let mut error = None;
        for (n, resp) in names.iter().zip(ctx.request_batch(reqs)) {
            if resp.ok() {
                self.recorder.event(ctx, job, None, "Normal", "SuccessfulDelete", &format!("Deleted pod: {}", n));
            } else {
                self.expectations.lower(&key, 0, 1);
                if resp.code != 404 {
                    error = Some(resp.message().to_string());
                }
            }
        }
        error
    }
}

impl Component for JobController {
    type Timer = Timer;

    fn actor(&self) -> Actor {
        Actor::JobController
    }

    fn identity(&self) -> Identity {
        controller_identity("job-controller", "job-controller")
    }

    fn start(&mut self, ctx: &mut Ctx) {
        let jobs = ctx.list_and_watch(meta::lookup("jobs").expect("jobs"), "", "", "");
        self.jobs.replace(jobs);
        let pods = ctx.list_and_watch(meta::lookup("pods").expect("pods"), "", "", "");
        for p in &pods {
            self.by_owner.index(EventType::Added, p, None);
        }
        self.pods.replace(pods);
        let keys: Vec<String> = self.jobs.items.keys().cloned().collect();
        for k in keys {
            self.queue.enqueue(ctx, &k, Timer::Worker);
        }
    }

    fn handle(&mut self, ctx: &mut Ctx, input: Input) {
        match input {
            Input::Watch { resource: Resource::Jobs, event_type, object } => {
                self.jobs.apply_shared(event_type, object.clone());
                if event_type == EventType::Deleted {
                    self.expectations.delete(&meta::key(&object));
                    self.backoff.remove(&meta::key(&object));
                }
                self.queue.enqueue(ctx, &meta::key(&object), Timer::Worker);
            }
            Input::Watch { resource: Resource::Pods, event_type, object } => {
                let old = self.pods.apply_shared(event_type, object.clone());
                self.by_owner.index(event_type, &object, old.as_deref());
                if let Some(k) = owner_job_key(&object) {
                    self.expectations.observe_pod(&k, event_type, &object, old.as_deref());
                    if self.jobs.get(&k).is_some() {
                        self.queue.enqueue(ctx, &k, Timer::Worker);
                    }
                }
            }
            Input::Watch { .. } => {}
            Input::Timer(Timer::Worker) => {
                if let Some(k) = self.queue.start_work() {
                    self.sync_job(ctx, &k);
                }
                self.queue.done(ctx, Timer::Worker);
            }
            Input::Timer(Timer::Requeue(k)) => {
                if self.jobs.get(&k).is_some() {
                    self.queue.enqueue(ctx, &k, Timer::Worker);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Named table: the back-off before a replacement Pod, and how many Pods a NonIndexed Job
    /// keeps active.
    #[test]
    fn backoff_and_completion_counting_table() {
        let backoffs = [(0, 0), (1, 10_000), (2, 20_000), (3, 40_000), (4, 80_000), (5, 160_000), (6, 320_000), (7, 600_000), (30, 600_000)];
        for (failures, want) in backoffs {
            assert_eq!(backoff_ms(failures), want, "{} failures", failures);
        }
        let active = [
            ("one completion, none yet", Some(1), 1, 0, 1),
            ("five completions two at a time", Some(5), 2, 0, 2),
            ("the last one", Some(5), 2, 4, 1),
            ("all done", Some(5), 2, 5, 0),
            ("more succeeded than asked", Some(2), 3, 3, 0),
            ("a work queue: parallelism until one succeeds", None, 3, 0, 3),
            ("a work queue after a success", None, 3, 1, 0),
            ("parallelism 0 pauses", Some(3), 0, 0, 0),
        ];
        for (name, completions, parallelism, succeeded, want) in active {
            assert_eq!(want_active(completions, parallelism, succeeded), want, "{}", name);
        }
    }
}
