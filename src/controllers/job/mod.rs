//! The Job controller (`job-controller` in kube-controller-manager).
//!
//! Real counterpart: `pkg/controller/job/job_controller.go` (`syncJob`, `manageJob`,
//! `activePodsForRemoval`, `pastBackoffLimitOnFailure`, `pastActiveDeadline`, `newCondition`,
//! `ensureJobConditionStatus`, `enactJobFinished`, `getFailJobMessage`), `backoff_utils.go`
//! (`getRemainingTime`: 10 s · 2^(failures−1), at most 10 min), `indexed_job_utils.go` and
//! `success_policy.go` ([`indexed`]) and `pod_failure_policy.go` ([`pod_failure_policy`]).
//!
//! It watches Jobs and Pods. For a Job that has not finished it counts its Pods: active (neither
//! Succeeded nor Failed nor terminating), succeeded, failed. A failed Pod matching a
//! `podFailurePolicy` rule is judged by the first matching rule: `FailJob` fails the Job
//! (`FailureTarget`, reason `PodFailurePolicy`), `Ignore` leaves it out of `status.failed` and
//! the backoff limit, `Count` and `FailIndex` count it. Too many failures (`failed >
//! backoffLimit`, or for `restartPolicy: OnFailure` the containers' restarts reaching it) or an
//! expired `activeDeadlineSeconds` add `FailureTarget` and, once no Pod is terminating, `Failed`;
//! a matched `successPolicy` rule (Indexed Jobs) or enough successes (`succeeded >= completions`)
//! add `SuccessCriteriaMet`, then `Complete` with the same reason and message and
//! `completionTime`. A finishing Job's active Pods are deleted. Otherwise it keeps
//! `min(parallelism, completions − succeeded)` Pods active, creating replacements after a failure
//! only once the back-off has passed (and, with a pod failure policy or `podReplacementPolicy:
//! Failed`, only once the old Pod is no longer terminating). A suspended Job has its active Pods
//! deleted and the condition `Suspended` (`JobSuspended`, event `Suspended`); on resume the
//! condition turns False (`JobResumed`, event `Resumed`) and `startTime` restarts.
//!
//! Indexed Jobs (`completionMode: Indexed`) give each Pod an index in `[0, completions)`, lowest
//! pending first: the annotation and label `batch.kubernetes.io/job-completion-index`,
//! `generateName` `<job>-<index>-`, `hostname` `<job>-<index>` and the env var
//! `JOB_COMPLETION_INDEX`; `succeeded` counts distinct succeeded indexes, listed in
//! `status.completedIndexes` (`1,3-5`), and extra active Pods of one index are deleted. Status
//! carries `active`, `ready`, `succeeded`, `failed`, `terminating`, `startTime`,
//! `completedIndexes` and `uncountedTerminatedPods: {}` as v1.34 writes it.
//!
//! What kubesim simplifies: no `batch.kubernetes.io/job-tracking` finalizer (terminal Pods are
//! counted straight from the informer, so `uncountedTerminatedPods` stays empty, and a Pod that
//! is gone no longer counts in `failed`, nor a NonIndexed one in `succeeded`; Indexed Jobs keep
//! their `completedIndexes`); the Pods upstream strips of the finalizer before deleting them
//! (suspend, extra Pods, a met success criterion) are remembered by UID and not counted;
//! `status.active` counts the Pods seen, not those just created; no `backoffLimitPerIndex`,
//! `maxFailedIndexes` or `managedBy` (`FailIndex` counts like `Count`); duplicate-index Pods are
//! ranked with the ReplicaSet's deletion order rather than `controller.ActivePods`
//! (`ttlSecondsAfterFinished` is the TTL-after-finished controller's,
//! `controllers/ttlafterfinished.rs`); the back-off's last failure time is when the controller
//! sees the Pod fail.

pub mod indexed;
pub mod pod_failure_policy;

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
use crate::sim::sort::CompactSort;

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
    /// Per Job, the Pods it deleted that upstream strips of the tracking finalizer first
    /// (`deleteJobPods`: suspend, extra Pods; a met success criterion): never counted.
    uncounted: BTreeMap<String, BTreeSet<String>>,
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
            uncounted: BTreeMap::new(),
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

/// `ensureJobConditionStatus`: rewrites the condition of type `t` in place (both times now) when
/// its status, reason or message differ, appends it unless it would be a new False one. Whether
/// the list changed.
fn ensure_condition_status(conditions: &mut Vec<Value>, t: &str, status: &str, reason: &str, message: &str, now: &str) -> bool {
    let mut c = condition(t, reason, message, now);
    c["status"] = json!(status);
    if let Some(old) = conditions.iter_mut().find(|c| meta::get_str(c, &["type"]) == t) {
        if meta::get_str(old, &["status"]) != status || meta::get_str(old, &["reason"]) != reason || meta::get_str(old, &["message"]) != message {
            *old = c;
            return true;
        }
        return false;
    }
    if status != "False" {
        conditions.push(c);
        return true;
    }
    false
}

/// Sorts Pods so the one to delete first comes first (kubesim ranks as the ReplicaSet does,
/// with no node ranks).
fn sort_for_removal(pods: &mut [&Value], now: i64) {
    pods.csort_by(|a, b| {
        if ru::active_pods_with_ranks_less(a, b, 0, 0, now) {
            std::cmp::Ordering::Less
        } else if ru::active_pods_with_ranks_less(b, a, 0, 0, now) {
            std::cmp::Ordering::Greater
        } else {
            std::cmp::Ordering::Equal
        }
    });
}

/// `activePodsForRemoval` for an Indexed Job (`appendDuplicatedIndexPodsForRemoval`): every
/// active Pod without a valid index, all but the most advanced Pod of each index, then more
/// (least advanced first) until `rm_at_least`.
pub fn indexed_pods_for_removal<'a>(active: &[&'a Value], rm_at_least: usize, completions: i64, now: i64) -> Vec<&'a Value> {
    let mut rm: Vec<&Value> = Vec::new();
    let mut by_index: BTreeMap<i64, Vec<&Value>> = BTreeMap::new();
    for p in active {
        match indexed::completion_index(p).filter(|i| *i < completions) {
            Some(i) => by_index.entry(i).or_default().push(p),
            None => rm.push(p),
        }
    }
    let mut left: Vec<&Value> = Vec::new();
    for (_, mut same) in by_index {
        sort_for_removal(&mut same, now);
        let keep = same.pop();
        rm.extend(same);
        left.extend(keep);
    }
    if rm.len() < rm_at_least {
        sort_for_removal(&mut left, now);
        rm.extend(left.into_iter().take(rm_at_least - rm.len()));
    }
    rm
}

impl JobController {
    fn job_pods(&self, job: &Value) -> Vec<Value> {
        self.by_owner.keys(meta::uid(job)).filter_map(|k| self.pods.get(k).cloned()).collect()
    }

    /// The Pod a Job creates (`GetPodFromTemplate`); for an Indexed Job, with its index
    /// (annotation, label, hostname, generateName) and `JOB_COMPLETION_INDEX`.
    fn pod_from_template(job: &Value, index: Option<i64>) -> Value {
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
        let mut spec = tpl.get("spec").cloned().unwrap_or(json!({}));
        if let Some(i) = index {
            indexed::add_completion_index_env(&mut spec);
            for f in ["annotations", "labels"] {
                if !md.get(f).map(Value::is_object).unwrap_or(false) {
                    md[f] = json!({});
                }
                md[f][indexed::COMPLETION_INDEX_KEY] = json!(i.to_string());
            }
            spec["hostname"] = json!(format!("{}-{}", meta::name(job), i));
            md["generateName"] = json!(indexed::pod_generate_name_with_index(meta::name(job), i));
        }
        json!({"apiVersion": "v1", "kind": "Pod", "metadata": md, "spec": spec})
    }

    /// Records the Job's newly failed and succeeded Pods in its back-off record.
    fn update_backoff(&mut self, key: &str, pods: &[&Value], now: i64) {
        let rec = self.backoff.entry(key.to_string()).or_default();
        let mut finished: Vec<&Value> = pods.iter().copied().filter(|p| matches!(meta::get_str(p, &["status", "phase"]), "Succeeded" | "Failed")).filter(|p| !rec.counted.contains(meta::uid(p))).collect();
        finished.csort_by(|a, b| meta::get_str(a, &["metadata", "creationTimestamp"]).cmp(meta::get_str(b, &["metadata", "creationTimestamp"])).then(meta::name(a).cmp(meta::name(b))));
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
            self.uncounted.remove(key);
            return;
        };
        if is_finished(&job) || meta::is_deleting(&job) {
            return;
        }
        let now = ctx.now;
        let now_s = time::rfc3339(now);
        let spec_i = |k: &str| meta::get_i64(&job, &["spec", k]);
        let indexed = meta::get_str(&job, &["spec", "completionMode"]) == "Indexed";
        let completions = spec_i("completions");
        if indexed && completions.is_none() {
            // validation requires completions for Indexed Jobs
            return;
        }
        let pods = self.job_pods(&job);
        let uncounted = {
            let u = self.uncounted.entry(key.to_string()).or_default();
            u.retain(|uid| pods.iter().any(|p| meta::uid(p) == uid));
            u.clone()
        };
        let n_completions = completions.unwrap_or(0);
        // the Pods upstream still tracks: not stripped of the finalizer, with a valid index
        let tracked: Vec<&Value> = pods
            .iter()
            .filter(|p| !uncounted.contains(meta::uid(p)))
            .filter(|p| !indexed || indexed::completion_index(p).map(|i| i < n_completions).unwrap_or(false))
            .collect();
        self.update_backoff(key, &tracked, now);
        let phase = |p: &Value| meta::get_str(p, &["status", "phase"]).to_string();
        let terminal = |p: &Value| matches!(meta::get_str(p, &["status", "phase"]), "Succeeded" | "Failed");
        let active: Vec<&Value> = pods.iter().filter(|p| !terminal(p) && !meta::is_deleting(p)).collect();
        let terminating_pods: Vec<&Value> = pods.iter().filter(|p| !terminal(p) && meta::is_deleting(p)).collect();
        let pfp = meta::get(&job, &["spec", "podFailurePolicy"]).filter(|v| v.is_object());
        let only_replace_failed = pfp.is_some() || meta::get_str(&job, &["spec", "podReplacementPolicy"]) == "Failed";
        let failed = tracked.iter().filter(|p| phase(p) == "Failed" && pod_failure_policy::match_pod_failure_policy(pfp, p).count).count() as i64;
        let mut status = job.get("status").cloned().filter(Value::is_object).unwrap_or(json!({}));
        let succeeded_indexes: BTreeSet<i64> = if indexed {
            let mut s = indexed::parse_indexes(meta::get_str(&status, &["completedIndexes"]), n_completions);
            s.extend(tracked.iter().filter(|p| phase(p) == "Succeeded").filter_map(|p| indexed::completion_index(p)));
            s
        } else {
            BTreeSet::new()
        };
        let succeeded = if indexed { succeeded_indexes.len() as i64 } else { tracked.iter().filter(|p| phase(p) == "Succeeded").count() as i64 };
        let backoff_limit = spec_i("backoffLimit").unwrap_or(6);
        let parallelism = spec_i("parallelism").unwrap_or(1);
        let suspended = meta::get_bool(&job, &["spec", "suspend"]);
        if meta::get_str(&status, &["startTime"]).is_empty() && !suspended {
            status["startTime"] = json!(now_s);
        }
        let start_ms = time::parse_rfc3339(meta::get_str(&status, &["startTime"]));
        let mut conditions: Vec<Value> = meta::get_array(&status, &["conditions"]).to_vec();
        let has = |cs: &[Value], t: &str| cs.iter().any(|c| meta::get_str(c, &["type"]) == t);
        // the interim failure or success condition
        if !has(&conditions, "FailureTarget") && !has(&conditions, "SuccessCriteriaMet") {
            let restarts: i64 = active.iter().map(|p| meta::get_array(p, &["status", "containerStatuses"]).iter().map(|c| meta::get_i64(c, &["restartCount"]).unwrap_or(0)).sum::<i64>()).sum();
            let on_failure = meta::get_str(&job, &["spec", "template", "spec", "restartPolicy"]) == "OnFailure";
            let past_deadline = match (spec_i("activeDeadlineSeconds"), start_ms) {
                (Some(ads), Some(start)) if !suspended => now - start >= ads * 1000,
                _ => false,
            };
            // getFailJobMessage: the first failed Pod a FailJob rule matches
            let fail_job = pfp.and_then(|_| pods.iter().filter(|p| phase(p) == "Failed").find_map(|p| pod_failure_policy::match_pod_failure_policy(pfp, p).fail_job));
            let success_policy = if indexed { indexed::match_success_policy(meta::get(&job, &["spec", "successPolicy"]).filter(|v| v.is_object()), n_completions, &succeeded_indexes) } else { None };
            if let Some(message) = fail_job {
                conditions.push(condition("FailureTarget", "PodFailurePolicy", &message, &now_s));
            } else if failed > backoff_limit || (on_failure && backoff_limit > 0 && restarts >= backoff_limit) || (on_failure && backoff_limit == 0 && restarts > 0) {
                conditions.push(condition("FailureTarget", "BackoffLimitExceeded", "Job has reached the specified backoff limit", &now_s));
            } else if past_deadline {
                conditions.push(condition("FailureTarget", "DeadlineExceeded", "Job was active longer than specified deadline", &now_s));
            } else if let Some(message) = success_policy {
                conditions.push(condition("SuccessCriteriaMet", "SuccessPolicy", &message, &now_s));
            } else if completions.map(|c| succeeded >= c).unwrap_or(succeeded > 0 && active.is_empty()) {
                conditions.push(condition("SuccessCriteriaMet", "CompletionsReached", "Reached expected number of succeeded pods", &now_s));
            }
        }
        let failing = conditions.iter().find(|c| meta::get_str(c, &["type"]) == "FailureTarget").cloned();
        let succeeding = conditions.iter().find(|c| meta::get_str(c, &["type"]) == "SuccessCriteriaMet").cloned();
        let mut terminating = terminating_pods.len() as i64;
        let mut active_now = active.len() as i64;
        let mut ready = active.iter().filter(|p| ru::is_pod_ready(p)).count() as i64;
        let mut err = None;
        let mut suspend_event = None;
        if failing.is_some() || succeeding.is_some() {
            // a finishing Job's active Pods are deleted; upstream strips them of the finalizer
            // at once when the Job succeeds, so they never count as failed
            if !active.is_empty() {
                let (_, e) = self.delete_pods(ctx, &job, &active, succeeding.is_some());
                err = e;
                terminating += active.len() as i64;
            }
            active_now = 0;
        } else if self.expectations.satisfied(key, now) {
            if suspended {
                // manageJob: a suspended Job's active Pods are all deleted
                if !active.is_empty() {
                    let (deleted, e) = self.delete_pods(ctx, &job, &active, true);
                    err = e;
                    active_now -= deleted.len() as i64;
                    ready -= deleted.iter().filter(|p| ru::is_pod_ready(p)).count() as i64;
                    terminating += deleted.len() as i64;
                }
                if ensure_condition_status(&mut conditions, "Suspended", "True", "JobSuspended", "Job suspended", &now_s) {
                    suspend_event = Some(("Suspended", "Job suspended"));
                }
            } else {
                let want = want_active(completions, parallelism, succeeded);
                let have = active.len() as i64;
                let remove: Vec<&Value> = if indexed {
                    indexed_pods_for_removal(&active, (have - want).max(0) as usize, n_completions, now)
                } else if have > want {
                    let mut extra: Vec<&Value> = active.clone();
                    extra.csort_by(|a, b| meta::get_str(b, &["metadata", "creationTimestamp"]).cmp(meta::get_str(a, &["metadata", "creationTimestamp"])));
                    extra.truncate((have - want) as usize);
                    extra
                } else {
                    Vec::new()
                };
                let remove: Vec<&Value> = remove.into_iter().take(ru::BURST_REPLICAS).collect();
                let replacing = if only_replace_failed { terminating } else { 0 };
                if !remove.is_empty() {
                    // deletion or creation in one sync, deletion first
                    let (deleted, e) = self.delete_pods(ctx, &job, &remove, true);
                    err = e;
                    active_now -= deleted.len() as i64;
                    ready -= deleted.iter().filter(|p| ru::is_pod_ready(p)).count() as i64;
                    terminating += deleted.len() as i64;
                } else if want - replacing - have > 0 {
                    let rec = self.backoff.get(key).cloned().unwrap_or_default();
                    let remaining = backoff_ms(rec.failures_after_last_success) - (now - rec.last_failure_ms);
                    if rec.failures_after_last_success > 0 && remaining > 0 {
                        ctx.after(remaining, Timer::Requeue(key.to_string()), true);
                    } else {
                        let diff = ru::cap_to_burst_replicas((want - replacing - have) as usize);
                        let indexes: Vec<Option<i64>> = if indexed {
                            let mut non_pending = succeeded_indexes.clone();
                            non_pending.extend(active.iter().filter_map(|p| indexed::completion_index(p)));
                            if only_replace_failed {
                                non_pending.extend(terminating_pods.iter().filter_map(|p| indexed::completion_index(p)));
                            }
                            indexed::first_pending_indexes(&non_pending, diff, n_completions).into_iter().map(Some).collect()
                        } else {
                            vec![None; diff]
                        };
                        if !indexes.is_empty() {
                            err = self.create_pods(ctx, &job, &indexes);
                        }
                    }
                }
                if ensure_condition_status(&mut conditions, "Suspended", "False", "JobResumed", "Job resumed", &now_s) {
                    suspend_event = Some(("Resumed", "Job resumed"));
                    // ActiveDeadlineSeconds counts from the resume
                    status["startTime"] = json!(now_s);
                }
                let start_ms = time::parse_rfc3339(meta::get_str(&status, &["startTime"])).unwrap_or(now);
                if let Some(ads) = spec_i("activeDeadlineSeconds") {
                    let left = start_ms + ads * 1000 - now;
                    if left > 0 {
                        ctx.after(left, Timer::Requeue(key.to_string()), true);
                    }
                }
            }
        }
        if let Some((reason, message)) = suspend_event {
            self.recorder.event(ctx, &job, None, "Normal", reason, message);
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
            } else if let Some(s) = succeeding.as_ref().filter(|_| !has(&conditions, "Complete")) {
                conditions.push(condition("Complete", meta::get_str(s, &["reason"]), meta::get_str(s, &["message"]), &now_s));
                status["completionTime"] = json!(now_s);
                finished_event = Some(("Normal", "Completed".to_string(), "Job completed".to_string()));
            }
        }
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
        if indexed {
            match indexed::format_indexes(&succeeded_indexes) {
                s if s.is_empty() => {
                    status.as_object_mut().map(|m| m.remove("completedIndexes"));
                }
                s => status["completedIndexes"] = json!(s),
            }
        }
        status["ready"] = json!(if active_now == 0 { 0 } else { ready.max(0) });
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

    /// `manageJob`'s creates, one Pod per entry (its index for an Indexed Job): slow-start
    /// batches, `Created pod: …` events.
    fn create_pods(&mut self, ctx: &mut Ctx, job: &Value, indexes: &[Option<i64>]) -> Option<String> {
        let key = meta::key(job);
        let count = indexes.len();
        self.expectations.set(&key, count as i64, 0, ctx.now);
        let path = format!("/api/v1/namespaces/{}/pods", meta::namespace(job));
        let mut done = 0;
        for batch in ru::slow_start_batches(count, ru::SLOW_START_INITIAL_BATCH_SIZE) {
            let reqs = indexes[done..done + batch].iter().map(|i| Request::new(Method::Post, path.clone(), Some(Self::pod_from_template(job, *i)))).collect();
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

    /// Deletes the Pods (`deleteJobPods` when `strip`, which upstream strips of the tracking
    /// finalizer first: they are never counted; `deleteActivePods` otherwise). The Pods deleted
    /// (a Pod already gone counts as deleted) and the first error.
    fn delete_pods<'a>(&mut self, ctx: &mut Ctx, job: &Value, pods: &[&'a Value], strip: bool) -> (Vec<&'a Value>, Option<String>) {
        let key = meta::key(job);
        self.expectations.set(&key, 0, pods.len() as i64, ctx.now);
        let reqs = pods.iter().map(|p| Request::new(Method::Delete, format!("/api/v1/namespaces/{}/pods/{}", meta::namespace(job), meta::name(p)), None)).collect();
        let mut error = None;
        let mut deleted = Vec::new();
        for (p, resp) in pods.iter().zip(ctx.request_batch(reqs)) {
            if resp.ok() {
                self.recorder.event(ctx, job, None, "Normal", "SuccessfulDelete", &format!("Deleted pod: {}", meta::name(p)));
            } else {
                self.expectations.lower(&key, 0, 1);
                if resp.code != 404 {
                    error = Some(resp.message().to_string());
                    continue;
                }
            }
            if strip {
                self.uncounted.entry(key.clone()).or_default().insert(meta::uid(p).to_string());
            }
            deleted.push(*p);
        }
        (deleted, error)
    }
}

impl Component for JobController {
    type Timer = Timer;

    fn restarted(&self) -> Option<Self> {
        Some(Self::default())
    }

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
                    self.uncounted.remove(&meta::key(&object));
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

#[cfg(test)]
mod index_tests {
    use super::indexed::*;
    use super::pod_failure_policy::*;
    use super::*;

    fn set(v: &[i64]) -> BTreeSet<i64> {
        v.iter().copied().collect()
    }

    fn failed_pod(containers: &[(&str, Option<i64>)], init: &[(&str, Option<i64>)], conditions: &[(&str, &str)]) -> Value {
        let statuses = |cs: &[(&str, Option<i64>)]| -> Vec<Value> {
            cs.iter()
                .map(|(n, code)| match code {
                    Some(c) => json!({"name": n, "state": {"terminated": {"exitCode": c}}}),
                    None => json!({"name": n, "state": {"running": {}}}),
                })
                .collect()
        };
        let conds: Vec<Value> = conditions.iter().map(|(t, s)| json!({"type": t, "status": s})).collect();
        json!({"metadata": {"name": "p", "namespace": "default"}, "status": {"phase": "Failed", "containerStatuses": statuses(containers), "initContainerStatuses": statuses(init), "conditions": conds}})
    }

    /// Named table: index bookkeeping of Indexed Jobs (completedIndexes in `orderedIntervals`
    /// form, parsing back, firstPendingIndexes, generateName, success policy) and pod failure
    /// policy rule matching (exit codes In/NotIn, container names, init containers, conditions,
    /// first match wins).
    #[test]
    fn index_bookkeeping_table() {
        let formats = [
            ("none", &[][..], ""),
            ("one", &[3][..], "3"),
            ("two neighbours with a comma", &[0, 1][..], "0,1"),
            ("three or more with a dash", &[1, 3, 4, 5, 7][..], "1,3-5,7"),
            ("two runs", &[0, 1, 2, 5, 6][..], "0-2,5,6"),
        ];
        for (name, idx, want) in formats {
            assert_eq!(format_indexes(&set(idx)), want, "{}", name);
            assert_eq!(parse_indexes(want, 100), set(idx), "{} parsed back", name);
        }
        let parses = [
            ("cut at completions", "1,3-9", 5, &[1, 3, 4][..]),
            ("an interval beyond completions ends it", "1,6-8,2", 5, &[1][..]),
            ("corrupted interval keeps what came before", "0,x,2", 5, &[0][..]),
            ("empty", "", 5, &[][..]),
        ];
        for (name, s, completions, want) in parses {
            assert_eq!(parse_indexes(s, completions), set(want), "{}", name);
        }
        let pending = [
            ("from zero", &[][..], 2, 5, &[0, 1][..]),
            ("skip succeeded and active", &[0, 2][..], 2, 5, &[1, 3][..]),
            ("fewer left than asked", &[0, 1, 2, 3][..], 3, 5, &[4][..]),
            ("all taken", &[0, 1, 2][..], 1, 3, &[][..]),
        ];
        for (name, non_pending, count, completions, want) in pending {
            assert_eq!(first_pending_indexes(&set(non_pending), count, completions), want.to_vec(), "{}", name);
        }
        assert_eq!(pod_generate_name_with_index("sample", 3), "sample-3-");
        let long = "a".repeat(60);
        let g = pod_generate_name_with_index(&long, 12);
        assert_eq!((g.len(), g.ends_with("a-12-")), (58, true), "a long name is cut to 58");
        let policy = json!({"rules": [{"succeededIndexes": "0,2-3", "succeededCount": 2}, {"succeededCount": 4}]});
        let success = [
            ("nothing yet", &[][..], None),
            ("two of the rule's indexes", &[0, 3][..], Some("Matched rules at index 0")),
            ("one of them", &[0, 1, 4][..], None),
            ("the first rule that holds wins", &[0, 1, 2, 5][..], Some("Matched rules at index 0")),
            ("four in all, one of them the rule's", &[0, 1, 4, 5][..], Some("Matched rules at index 1")),
        ];
        for (name, done, want) in success {
            assert_eq!(match_success_policy(Some(&policy), 8, &set(done)).as_deref(), want, "{}", name);
        }

        let rules = json!({"rules": [
            {"action": "FailJob", "onExitCodes": {"containerName": "main", "operator": "In", "values": [42]}},
            {"action": "Ignore", "onExitCodes": {"operator": "In", "values": [3, 42]}},
            {"action": "Count", "onExitCodes": {"operator": "NotIn", "values": [1, 2, 3]}},
            {"action": "Ignore", "onPodConditions": [{"type": "DisruptionTarget", "status": "True"}]},
            {"action": "FailJob", "onPodConditions": [{"type": "ConfigIssue", "status": "True"}]},
        ]});
        let cases = [
            ("42 in main fails the Job", failed_pod(&[("main", Some(42))], &[], &[]), Some("Container main for pod default/p failed with exit code 42 matching FailJob rule at index 0"), true, Some("FailJob")),
            ("42 in another container: the Ignore rule", failed_pod(&[("side", Some(42))], &[], &[]), None, false, Some("Ignore")),
            ("3 is ignored", failed_pod(&[("main", Some(3))], &[], &[]), None, false, Some("Ignore")),
            ("NotIn: 7 is counted by rule 2", failed_pod(&[("main", Some(7))], &[], &[]), None, true, Some("Count")),
            ("exit 1 matches nothing: counted", failed_pod(&[("main", Some(1))], &[], &[]), None, true, None),
            ("exit 0 never matches", failed_pod(&[("main", Some(0))], &[], &[]), None, true, None),
            ("running containers are skipped", failed_pod(&[("main", None), ("other", Some(3))], &[], &[]), None, false, Some("Ignore")),
            ("init containers after regular ones", failed_pod(&[("main", None)], &[("init", Some(42))], &[]), None, false, Some("Ignore")),
            ("a condition with its status", failed_pod(&[("main", Some(1))], &[], &[("DisruptionTarget", "True")]), None, false, Some("Ignore")),
            ("a condition with another status", failed_pod(&[("main", Some(1))], &[], &[("DisruptionTarget", "False")]), None, true, None),
            ("FailJob on a condition", failed_pod(&[("main", Some(1))], &[], &[("ConfigIssue", "True")]), Some("Pod default/p has condition ConfigIssue matching FailJob rule at index 4"), true, Some("FailJob")),
        ];
        for (name, pod, msg, count, action) in cases {
            let m = match_pod_failure_policy(Some(&rules), &pod);
            assert_eq!((m.fail_job.as_deref(), m.count, m.action.as_deref()), (msg, count, action), "{}", name);
        }
        assert_eq!(match_pod_failure_policy(None, &failed_pod(&[("main", Some(42))], &[], &[])), Match { fail_job: None, count: true, action: None }, "no policy counts");
    }
}
