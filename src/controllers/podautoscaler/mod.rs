//! The HorizontalPodAutoscaler controller (`horizontal-pod-autoscaler` in
//! kube-controller-manager): every 15 s each HPA reads its target's `scale` subresource and the
//! Pods' resource metrics from `metrics.k8s.io`, computes the replicas it wants and writes the
//! target's scale and its own status.
//!
//! Real counterpart: `pkg/controller/podautoscaler/horizontal.go` (`reconcileAutoscaler`,
//! `computeReplicasForMetrics`, `computeStatusForResourceMetric[Generic]`,
//! `normalizeDesiredReplicas` with its 5-minute recommendation window and scale-up limit,
//! `normalizeDesiredReplicasWithBehaviors` with `stabilizeRecommendationWithBehaviors`,
//! `convertDesiredReplicasWithBehaviorRate`, the policies' period arithmetic and
//! `storeScaleEvent`, `setCondition`, `setStatus`, `updateStatusIfNeeded`; its queue re-adds each
//! HPA after `--horizontal-pod-autoscaler-sync-period`, 15 s), `replica_calculator.go` and
//! `metrics/client.go` (`resourceMetricsClient.GetResourceMetric`: the PodMetrics list by the
//! target's selector, each Pod's containers summed).
//!
//! What kubesim simplifies: `Resource` and `ContainerResource` metrics are computed; `Pods`,
//! `Object` and `External` metrics (custom and external metrics APIs, which kubesim does not
//! serve) fail as they do without an adapter; a failed status update is not retried with a
//! re-GET.

pub mod replica_calculator;

use crate::api::meta::{self, Resource};
use crate::api::request::{EventType, Identity, Method, Request};
use crate::api::time;
use crate::client::{Recorder, Store};
use crate::cluster::{self, Component};
use crate::controllers::deployment::controller_identity;
use crate::trace::Actor;
use replica_calculator::{PodMetric, PodMetricsInfo};
use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet};

/// `--horizontal-pod-autoscaler-sync-period`.
pub const SYNC_PERIOD_MS: i64 = 15_000;
/// `--horizontal-pod-autoscaler-downscale-stabilization`.
pub const DOWNSCALE_STABILIZATION_MS: i64 = 5 * 60 * 1000;

/// The controller's timer: an HPA's turn in the queue (it comes back every sync period).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Timer {
    Sync(String),
}

impl std::fmt::Display for Timer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Timer::Sync(k) => write!(f, "hpa-sync:{}", k),
        }
    }
}

type Ctx<'a> = cluster::Ctx<'a, Timer>;
type Input = cluster::Input<Timer>;

/// A recommendation and when it was made.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Recommendation {
    replicas: i64,
    at: i64,
}

/// A rescale and when it happened (`timestampedScaleEvent`).
#[derive(Clone, Copy, Debug, PartialEq)]
struct ScaleEvent {
    change: i64,
    at: i64,
    outdated: bool,
}

pub struct HorizontalController {
    hpas: Store,
    pods: Store,
    /// HPAs with a sync in the queue
    queued: BTreeSet<String>,
    recommendations: BTreeMap<String, Vec<Recommendation>>,
    scale_up_events: BTreeMap<String, Vec<ScaleEvent>>,
    scale_down_events: BTreeMap<String, Vec<ScaleEvent>>,
    recorder: Recorder,
}

impl Default for HorizontalController {
    fn default() -> Self {
        HorizontalController {
            hpas: Store::default(),
            pods: Store::default(),
            queued: BTreeSet::new(),
            recommendations: BTreeMap::new(),
            scale_up_events: BTreeMap::new(),
            scale_down_events: BTreeMap::new(),
            recorder: Recorder::new("horizontal-pod-autoscaler", ""),
        }
    }
}

/// `setCondition`: a condition's transition time changes only when its status does.
pub fn set_condition(status: &mut Value, ty: &str, st: &str, reason: &str, message: &str, now: i64) {
    if !status.get("conditions").map(Value::is_array).unwrap_or(false) {
        status["conditions"] = json!([]);
    }
    let conds = status["conditions"].as_array_mut().expect("conditions is an array");
    let ts = time::rfc3339(now);
    match conds.iter_mut().find(|c| meta::get_str(c, &["type"]) == ty) {
        Some(c) => {
            if meta::get_str(c, &["status"]) != st {
                c["lastTransitionTime"] = json!(ts);
            }
            c["status"] = json!(st);
            c["reason"] = json!(reason);
            c["message"] = json!(message);
        }
        None => conds.push(json!({"type": ty, "status": st, "lastTransitionTime": ts, "reason": reason, "message": message})),
    }
}

/// `calculateScaleUpLimit`: twice the current replicas, at least 4.
fn scale_up_limit(current: i64) -> i64 {
    ((2 * current) as f64).max(4.0) as i64
}

/// `convertDesiredReplicasWithRules`.
fn convert_with_rules(current: i64, desired: i64, min: i64, max: i64) -> (i64, &'static str, &'static str) {
    let limit = scale_up_limit(current);
    let (maximum, cond, reason) = if max > limit {
        (limit, "ScaleUpLimit", "the desired replica count is increasing faster than the maximum scale rate")
    } else {
        (max, "TooManyReplicas", "the desired replica count is more than the maximum replica count")
    };
    if desired < min {
        return (min, "TooFewReplicas", "the desired replica count is less than the minimum replica count");
    }
    if desired > maximum {
        return (maximum, cond, reason);
    }
    (desired, "DesiredWithinRange", "the desired count is within the acceptable range")
}

/// `getReplicasChangePerPeriod`.
fn change_in_period(period_s: i64, events: &[ScaleEvent], now: i64) -> i64 {
    let cutoff = now - period_s * 1000;
    events.iter().filter(|e| e.at > cutoff).map(|e| e.change).sum()
}

/// `calculateScaleUpLimitWithScalingRules` / `calculateScaleDownLimitWithBehaviors`.
fn limit_with_rules(up: bool, current: i64, ups: &[ScaleEvent], downs: &[ScaleEvent], rules: &Value, now: i64) -> i64 {
    let select = meta::get_str(rules, &["selectPolicy"]);
    if select == "Disabled" {
        return current;
    }
    // up: Max picks the highest proposal; down: Max picks the lowest (the biggest change)
    let pick_max = (select == "Min") != up;
    let mut result = if pick_max { i64::MIN } else { i64::MAX };
    for p in meta::get_array(rules, &["policies"]) {
        let period = meta::get_i64(p, &["periodSeconds"]).unwrap_or(15);
        let value = meta::get_i64(p, &["value"]).unwrap_or(0);
        let start = current - change_in_period(period, ups, now) + change_in_period(period, downs, now);
        let proposed = match (meta::get_str(p, &["type"]), up) {
            ("Pods", true) => start + value,
            ("Pods", false) => start - value,
            ("Percent", true) => (start as f64 * (1.0 + value as f64 / 100.0)).ceil() as i64,
            (_, _) => (start as f64 * (1.0 - value as f64 / 100.0)) as i64,
        };
        result = if pick_max { result.max(proposed) } else { result.min(proposed) };
    }
    result
}

fn resource_name_of(spec: &Value) -> (&str, &str, &'static str) {
    match meta::get_str(spec, &["type"]) {
        "ContainerResource" => (meta::get_str(spec, &["containerResource", "name"]), meta::get_str(spec, &["containerResource", "container"]), "containerResource"),
        _ => (meta::get_str(spec, &["resource", "name"]), "", "resource"),
    }
}

impl HorizontalController {
    fn queue(&mut self, ctx: &mut Ctx, key: &str) {
        if self.queued.insert(key.to_string()) {
            // requests always wait a resync period in the queue (`NewDefaultHPARateLimiter`)
            ctx.after_background(SYNC_PERIOD_MS, Timer::Sync(key.to_string()));
        }
    }

    /// `resourceMetricsClient.GetResourceMetric`: each selected Pod's usage (milli-units).
    fn resource_metric(&self, ctx: &mut Ctx, resource: &str, container: &str, ns: &str, selector: &str) -> Result<PodMetricsInfo, String> {
        let resp = ctx.request(Method::Get, &format!("/apis/metrics.k8s.io/v1beta1/namespaces/{}/pods?labelSelector={}", ns, crate::api::request::encode_selector(selector)), None);
        if !resp.ok() {
            let msg = match (resp.code, resp.body.get("message").and_then(Value::as_str)) {
                (_, Some(m)) if resp.code != 404 && resp.code != 503 => m.to_string(),
                (404, _) => "the server could not find the requested resource (get pods.metrics.k8s.io)".to_string(),
                _ => "the server is currently unable to handle the request (get pods.metrics.k8s.io)".to_string(),
            };
            return Err(format!("unable to fetch metrics from resource metrics API: {}", msg));
        }
        let items = meta::get_array(&resp.body, &["items"]);
        if items.is_empty() {
            return Err("no metrics returned from resource metrics API".into());
        }
        let mut out = PodMetricsInfo::new();
        for m in items {
            let mut value = 0;
            let mut found = container.is_empty();
            for c in meta::get_array(m, &["containers"]) {
                if !container.is_empty() && meta::get_str(c, &["name"]) != container {
                    continue;
                }
                found = true;
                value += meta::get(c, &["usage", resource]).and_then(crate::api::quantity::parse_quantity).map(|q| q.milli_value()).unwrap_or(0);
            }
            if !found {
                continue;
            }
            let ts = meta::get(m, &["timestamp"]).and_then(Value::as_str).and_then(time::parse_rfc3339).unwrap_or(0);
            let window = meta::get_str(m, &["window"]).trim_end_matches('s').parse::<f64>().map(|s| (s * 1000.0) as i64).unwrap_or(0);
            out.insert(meta::name(m).to_string(), PodMetric { value, timestamp_ms: ts, window_ms: window });
        }
        Ok(out)
    }

    /// `computeReplicasForMetrics`: the largest proposal of the valid metrics, the statuses, and
    /// the metric that proposed it; or the first invalid metric's error.
    fn compute_replicas(&mut self, ctx: &mut Ctx, hpa: &Value, status: &mut Value, spec_replicas: i64, selector: &str) -> (i64, String, Vec<Value>, Option<String>) {
        let ns = meta::namespace(hpa).to_string();
        let specs = meta::get_array(hpa, &["spec", "metrics"]).to_vec();
        let mut statuses: Vec<Value> = vec![json!({"type": ""}); specs.len()];
        let (mut replicas, mut metric) = (0, String::new());
        let mut invalid = 0;
        let mut first: Option<(String, String, String)> = None;
        let selected: Vec<Value> = {
            let reqs = meta::parse_label_selector(selector).unwrap_or_default();
            let empty = serde_json::Map::new();
            self.pods.in_namespace(&ns).filter(|p| meta::label_selector_matches(&reqs, meta::get(p, &["metadata", "labels"]).and_then(Value::as_object).unwrap_or(&empty))).cloned().collect()
        };
        let pods: Vec<&Value> = selected.iter().collect();
        for (i, spec) in specs.iter().enumerate() {
            let ty = meta::get_str(spec, &["type"]);
            let result = match ty {
                "Resource" | "ContainerResource" => {
                    let (res, container, key) = resource_name_of(spec);
                    let (res, container) = (res.to_string(), container.to_string());
                    let target = meta::get(spec, &[key, "target"]).cloned().unwrap_or(Value::Null);
                    let reason = if key == "resource" { "FailedGetResourceMetric" } else { "FailedGetContainerResourceMetric" };
                    let by_value = target.get("averageValue").filter(|v| !v.is_null()).cloned();
                    let fetched = self.resource_metric(ctx, &res, &container, &ns, selector).map_err(|e| format!("unable to get metrics for resource {}: {}", res, e));
                    let now = ctx.now;
                    let computed = match (&by_value, target.get("averageUtilization").and_then(Value::as_i64)) {
                        (Some(avg), _) => {
                            let t = crate::api::quantity::parse_quantity(avg).map(|q| q.milli_value()).unwrap_or(1);
                            fetched
                                .and_then(|metrics| replica_calculator::raw_resource_replicas(spec_replicas, t, &res, metrics, &pods, now))
                                .map(|p| (p.replicas, json!({"averageValue": milli_quantity(p.raw)}), if container.is_empty() { format!("{} resource", res) } else { format!("{} container resource", res) }))
                                .map_err(|e| format!("failed to get {} usage: {}", res, e))
                        }
                        (None, Some(u)) => fetched
                            .and_then(|metrics| replica_calculator::resource_replicas(spec_replicas, u, &res, &container, metrics, &pods, now))
                            .map(|p| (p.replicas, json!({"averageUtilization": p.utilization, "averageValue": milli_quantity(p.raw)}), if container.is_empty() { format!("{} resource utilization (percentage of request)", res) } else { format!("{} container resource utilization (percentage of request)", res) }))
                            .map_err(|e| format!("failed to get {} utilization: {}", res, e)),
                        (None, None) => Err("invalid resource metric source: neither an average utilization target nor an average value (usage) target was set".to_string()),
                    };
                    match computed {
                        Ok((r, current, name)) => {
                            let mut st = json!({"type": ty, key: {"name": res, "current": current}});
                            if !container.is_empty() {
                                st[key]["container"] = json!(container);
                            }
                            statuses[i] = st;
                            Ok((r, name))
                        }
                        Err(e) => {
                            // getUnableComputeReplicaCountCondition
                            self.recorder.event(ctx, hpa, None, "Warning", reason, &e);
                            let what = if key == "resource" { "resource metric" } else { "container resource metric" };
                            Err((reason.to_string(), format!("the HPA was unable to compute the replica count: {}", e), format!("failed to get {} {} value: {}", res, what, e)))
                        }
                    }
                }
                "Pods" | "Object" | "External" => {
                    let (reason, api) = match ty {
                        "Pods" => ("FailedGetPodsMetric", "custom.metrics.k8s.io"),
                        "Object" => ("FailedGetObjectMetric", "custom.metrics.k8s.io"),
                        _ => ("FailedGetExternalMetric", "external.metrics.k8s.io"),
                    };
                    let e = format!("unable to get metric: no metrics API serves {} (kubesim runs no custom or external metrics adapter)", api);
                    self.recorder.event(ctx, hpa, None, "Warning", reason, &e);
                    Err((reason.to_string(), format!("the HPA was unable to compute the replica count: {}", e), e))
                }
                other => {
                    let e = format!("unknown metric source type {:?}", other);
                    Err(("InvalidMetricSourceType".to_string(), format!("the HPA was unable to compute the replica count: {}", e), e))
                }
            };
            match result {
                Ok((r, name)) => {
                    if replicas == 0 || r > replicas {
                        replicas = r;
                        metric = name;
                    }
                }
                Err(e) => {
                    if first.is_none() {
                        first = Some(e);
                    }
                    invalid += 1;
                }
            }
        }
        let err = first.as_ref().map(|(_, _, e)| format!("invalid metrics ({} invalid out of {}), first error is: {}", invalid, specs.len(), e));
        if invalid >= specs.len() || (invalid > 0 && replicas < spec_replicas) {
            // no metric at all (a spec emptied by hand) leaves upstream's zero-value condition
            let (reason, message, _) = first.unwrap_or_default();
            set_condition(status, "ScalingActive", "False", &reason, &message, ctx.now);
            return (-1, String::new(), statuses, err);
        }
        set_condition(status, "ScalingActive", "True", "ValidMetricFound", &format!("the HPA was able to successfully calculate a replica count from {}", metric), ctx.now);
        (replicas, metric, statuses, err)
    }

    /// `normalizeDesiredReplicas` (no `behavior`).
    #[allow(clippy::too_many_arguments)]
    fn normalize(&mut self, key: &str, status: &mut Value, current: i64, desired: i64, min: i64, max: i64, now: i64) -> i64 {
        // stabilizeRecommendation: the highest of the last 5 minutes
        let recs = self.recommendations.entry(key.to_string()).or_default();
        let cutoff = now - DOWNSCALE_STABILIZATION_MS;
        let mut stabilized = desired;
        let mut old = None;
        for (i, r) in recs.iter().enumerate() {
            if r.at < cutoff {
                old = Some(i);
            } else if r.replicas > stabilized {
                stabilized = r.replicas;
            }
        }
        match old {
            Some(i) => recs[i] = Recommendation { replicas: desired, at: now },
            None => recs.push(Recommendation { replicas: desired, at: now }),
        }
        if stabilized != desired {
            set_condition(status, "AbleToScale", "True", "ScaleDownStabilized", "recent recommendations were higher than current one, applying the highest recent recommendation", now);
        } else {
            set_condition(status, "AbleToScale", "True", "ReadyForNewScale", "recommended size matches current size", now);
        }
        let (out, cond, reason) = convert_with_rules(current, stabilized, min, max);
        set_condition(status, "ScalingLimited", if out == stabilized { "False" } else { "True" }, cond, reason, now);
        out
    }

    /// `normalizeDesiredReplicasWithBehaviors`.
    #[allow(clippy::too_many_arguments)]
    fn normalize_with_behaviors(&mut self, key: &str, behavior: &Value, status: &mut Value, current: i64, desired: i64, min: i64, max: i64, now: i64) -> i64 {
        let up_rules = behavior.get("scaleUp").cloned().unwrap_or(Value::Null);
        let down_rules = behavior.get("scaleDown").cloned().unwrap_or(Value::Null);
        let up_window = meta::get_i64(&up_rules, &["stabilizationWindowSeconds"]).unwrap_or(0) * 1000;
        // maybeInitScaleDownStabilizationWindow
        let down_window = meta::get_i64(&down_rules, &["stabilizationWindowSeconds"]).map(|s| s * 1000).unwrap_or(DOWNSCALE_STABILIZATION_MS);
        let (up_cut, down_cut) = (now - up_window, now - down_window);
        let recs = self.recommendations.entry(key.to_string()).or_default();
        let (mut up_rec, mut down_rec) = (desired, desired);
        let mut old = None;
        for (i, r) in recs.iter().enumerate() {
            if r.at > up_cut {
                up_rec = up_rec.min(r.replicas);
            }
            if r.at > down_cut {
                down_rec = down_rec.max(r.replicas);
            }
            if r.at < up_cut && r.at < down_cut {
                old = Some(i);
            }
        }
        let stabilized = current.max(up_rec).min(down_rec);
        match old {
            Some(i) => recs[i] = Recommendation { replicas: desired, at: now },
            None => recs.push(Recommendation { replicas: desired, at: now }),
        }
        if stabilized != desired {
            let (reason, message) = if desired >= current {
                ("ScaleUpStabilized", "recent recommendations were lower than current one, applying the lowest recent recommendation")
            } else {
                ("ScaleDownStabilized", "recent recommendations were higher than current one, applying the highest recent recommendation")
            };
            set_condition(status, "AbleToScale", "True", reason, message, now);
        } else {
            set_condition(status, "AbleToScale", "True", "ReadyForNewScale", "recommended size matches current size", now);
        }
        // convertDesiredReplicasWithBehaviorRate
        let ups = self.scale_up_events.get(key).cloned().unwrap_or_default();
        let downs = self.scale_down_events.get(key).cloned().unwrap_or_default();
        let (out, reason, message) = if stabilized > current {
            let limit = limit_with_rules(true, current, &ups, &downs, &up_rules, now).max(current);
            let (maximum, r, m) = if max > limit { (limit, "ScaleUpLimit", "the desired replica count is increasing faster than the maximum scale rate") } else { (max, "TooManyReplicas", "the desired replica count is more than the maximum replica count") };
            if stabilized > maximum {
                (maximum, r, m)
            } else {
                (stabilized, "DesiredWithinRange", "the desired count is within the acceptable range")
            }
        } else if stabilized < current {
            let limit = limit_with_rules(false, current, &ups, &downs, &down_rules, now).min(current);
            let (minimum, r, m) = if min < limit { (limit, "ScaleDownLimit", "the desired replica count is decreasing faster than the maximum scale rate") } else { (min, "TooFewReplicas", "the desired replica count is less than the minimum replica count") };
            if stabilized < minimum {
                (minimum, r, m)
            } else {
                (stabilized, "DesiredWithinRange", "the desired count is within the acceptable range")
            }
        } else {
            (stabilized, "DesiredWithinRange", "the desired count is within the acceptable range")
        };
        set_condition(status, "ScalingLimited", if out == stabilized { "False" } else { "True" }, reason, message, now);
        out
    }

    /// `storeScaleEvent`: only with `behavior`; outdated events are reused.
    fn store_scale_event(&mut self, key: &str, behavior: Option<&Value>, prev: i64, new: i64, now: i64) {
        let Some(b) = behavior else { return };
        let (events, rules) = if new > prev { (self.scale_up_events.entry(key.to_string()).or_default(), b.get("scaleUp")) } else { (self.scale_down_events.entry(key.to_string()).or_default(), b.get("scaleDown")) };
        let longest = rules.map(|r| meta::get_array(r, &["policies"]).iter().filter_map(|p| meta::get_i64(p, &["periodSeconds"])).max().unwrap_or(0)).unwrap_or(0);
        for e in events.iter_mut() {
            if e.at < now - longest * 1000 {
                e.outdated = true;
            }
        }
        let change = (new - prev).abs();
        match events.iter_mut().find(|e| e.outdated) {
            Some(e) => *e = ScaleEvent { change, at: now, outdated: false },
            None => events.push(ScaleEvent { change, at: now, outdated: false }),
        }
    }

    /// `reconcileAutoscaler`.
    fn reconcile(&mut self, ctx: &mut Ctx, key: &str) {
        let Some(hpa) = self.hpas.get(key).cloned() else { return };
        let ns = meta::namespace(&hpa).to_string();
        let original = hpa.get("status").cloned().unwrap_or(json!({}));
        let mut status = original.clone();
        let target = meta::get(&hpa, &["spec", "scaleTargetRef"]).cloned().unwrap_or(Value::Null);
        let (kind, name) = (meta::get_str(&target, &["kind"]).to_string(), meta::get_str(&target, &["name"]).to_string());
        let api_version = meta::get_str(&target, &["apiVersion"]);
        let group = api_version.rsplit_once('/').map(|(g, _)| g).unwrap_or("");
        let info = meta::RESOURCES.iter().find(|r| r.kind == kind && (r.group == group || api_version.is_empty()));
        let scale_path = info.map(|i| format!("{}/scale", i.object_path(&ns, &name)));
        let got = match &scale_path {
            Some(p) => {
                let r = ctx.request(Method::Get, p, None);
                if r.ok() {
                    Ok(r.body)
                } else {
                    Err(r.body.get("message").and_then(Value::as_str).unwrap_or("").to_string())
                }
            }
            None => Err(format!("no matches for kind \"{}\" in group \"{}\"", kind, group)),
        };
        let scale = match got {
            Ok(s) => s,
            Err(e) => {
                set_condition(&mut status, "AbleToScale", "False", "FailedGetScale", &format!("the HPA controller was unable to get the target's current scale: {}", e), ctx.now);
                self.recorder.event(ctx, &hpa, None, "Warning", "FailedGetScale", &e);
                self.update_status_if_needed(ctx, &hpa, &original, status);
                return;
            }
        };
        set_condition(&mut status, "AbleToScale", "True", "SucceededGetScale", "the HPA controller was able to get the target's current scale", ctx.now);
        let current = meta::get_i64(&scale, &["spec", "replicas"]).unwrap_or(0);
        // recordInitialRecommendation
        self.recommendations.entry(key.to_string()).or_insert_with(|| vec![Recommendation { replicas: current, at: ctx.now }]);
        let min = meta::get_i64(&hpa, &["spec", "minReplicas"]).unwrap_or(1);
        let max = meta::get_i64(&hpa, &["spec", "maxReplicas"]).unwrap_or(1);
        let behavior = meta::get(&hpa, &["spec", "behavior"]).filter(|b| !b.is_null()).cloned();
        let mut desired = 0;
        let mut reason = String::new();
        let mut metric_statuses: Vec<Value> = Vec::new();
        let rescale;
        if current == 0 && min != 0 {
            rescale = false;
            set_condition(&mut status, "ScalingActive", "False", "ScalingDisabled", "scaling is disabled since the replica count of the target is zero", ctx.now);
        } else if current > max {
            reason = "Current number of replicas above Spec.MaxReplicas".into();
            desired = max;
            rescale = desired != current;
        } else if current < min {
            reason = "Current number of replicas below Spec.MinReplicas".into();
            desired = min;
            rescale = desired != current;
        } else {
            let selector = meta::get_str(&scale, &["status", "selector"]).to_string();
            if selector.is_empty() {
                self.recorder.event(ctx, &hpa, None, "Warning", "SelectorRequired", "selector is required");
                set_condition(&mut status, "ScalingActive", "False", "InvalidSelector", "the HPA target's scale is missing a selector", ctx.now);
                self.update_status_if_needed(ctx, &hpa, &original, status);
                return;
            }
            let (proposal, metric, statuses, err) = self.compute_replicas(ctx, &hpa, &mut status, current, &selector);
            metric_statuses = statuses;
            if proposal == -1 {
                // setCurrentReplicasAndMetricsInStatus
                let was = meta::get_i64(&status, &["desiredReplicas"]).unwrap_or(0);
                set_status(&mut status, current, was, &metric_statuses, false, ctx.now);
                self.update_status_if_needed(ctx, &hpa, &original, status);
                self.recorder.event(ctx, &hpa, None, "Warning", "FailedComputeMetricsReplicas", &err.unwrap_or_default());
                return;
            }
            if proposal > desired {
                desired = proposal;
            }
            if desired > current {
                reason = format!("{} above target", metric);
            }
            if desired < current {
                reason = "All metrics below target".into();
            }
            desired = match &behavior {
                None => self.normalize(key, &mut status, current, desired, min, max, ctx.now),
                Some(b) => self.normalize_with_behaviors(key, b, &mut status, current, desired, min, max, ctx.now),
            };
            rescale = desired != current;
        }
        if rescale {
            let mut new_scale = scale.clone();
            new_scale["spec"]["replicas"] = json!(desired);
            let path = scale_path.expect("a scale was read");
            let r = ctx.request_with(Request::new(Method::Put, &path, Some(new_scale)));
            if !r.ok() {
                let e = r.body.get("message").and_then(Value::as_str).unwrap_or("").to_string();
                self.recorder.event(ctx, &hpa, None, "Warning", "FailedRescale", &format!("New size: {}; reason: {}; error: {}", desired, reason, e));
                set_condition(&mut status, "AbleToScale", "False", "FailedUpdateScale", &format!("the HPA controller was unable to update the target scale: {}", e), ctx.now);
                let was = meta::get_i64(&status, &["desiredReplicas"]).unwrap_or(0);
                set_status(&mut status, current, was, &metric_statuses, false, ctx.now);
                self.update_status_if_needed(ctx, &hpa, &original, status);
                return;
            }
            set_condition(&mut status, "AbleToScale", "True", "SucceededRescale", &format!("the HPA controller was able to update the target scale to {}", desired), ctx.now);
            self.recorder.event(ctx, &hpa, None, "Normal", "SuccessfulRescale", &format!("New size: {}; reason: {}", desired, reason));
            self.store_scale_event(key, behavior.as_ref(), current, desired, ctx.now);
        } else {
            desired = current;
        }
        set_status(&mut status, current, desired, &metric_statuses, rescale, ctx.now);
        self.update_status_if_needed(ctx, &hpa, &original, status);
    }

    /// `updateStatusIfNeeded`: PUT the status subresource when it changed.
    fn update_status_if_needed(&mut self, ctx: &mut Ctx, hpa: &Value, original: &Value, status: Value) {
        if *original == status {
            return;
        }
        let mut obj = hpa.clone();
        obj["status"] = status;
        let info = Resource::HorizontalPodAutoscalers.info();
        let r = ctx.request_with(Request::new(Method::Put, format!("{}/status", info.object_path(meta::namespace(hpa), meta::name(hpa))), Some(obj)));
        if !r.ok() {
            let e = r.body.get("message").and_then(Value::as_str).unwrap_or("").to_string();
            self.recorder.event(ctx, hpa, None, "Warning", "FailedUpdateStatus", &e);
        }
    }
}

/// A milli-quantity as `resource.NewMilliQuantity(v, DecimalSI)` prints it.
fn milli_quantity(v: i64) -> String {
    crate::api::quantity::Quantity::new_milli(v, crate::api::quantity::Format::DecimalSI).canonical()
}

/// `setStatus`.
fn set_status(status: &mut Value, current: i64, desired: i64, metrics: &[Value], rescale: bool, now: i64) {
    let conditions = status.get("conditions").cloned();
    let last = status.get("lastScaleTime").cloned();
    let mut s = json!({"currentReplicas": current, "desiredReplicas": desired});
    if rescale {
        s["lastScaleTime"] = json!(time::rfc3339(now));
    } else if let Some(l) = last {
        s["lastScaleTime"] = l;
    }
    if !metrics.is_empty() {
        s["currentMetrics"] = json!(metrics);
    }
    if let Some(c) = conditions {
        s["conditions"] = c;
    }
    *status = s;
}

impl Component for HorizontalController {
    type Timer = Timer;

    fn restarted(&self) -> Option<Self> {
        Some(Self::default())
    }

    fn actor(&self) -> Actor {
        Actor::HpaController
    }

    fn identity(&self) -> Identity {
        controller_identity("horizontal-pod-autoscaler", "horizontal-pod-autoscaler")
    }

    fn start(&mut self, ctx: &mut Ctx) {
        let hpas = ctx.list_and_watch(Resource::HorizontalPodAutoscalers.info(), "", "", "");
        self.hpas.replace(hpas);
        let pods = ctx.list_and_watch(Resource::Pods.info(), "", "", "");
        self.pods.replace(pods);
        let keys: Vec<String> = self.hpas.items.keys().cloned().collect();
        for k in keys {
            self.queue(ctx, &k);
        }
    }

    fn handle(&mut self, ctx: &mut Ctx, input: Input) {
        match input {
            Input::Watch { resource: Resource::HorizontalPodAutoscalers, event_type, object } => {
                let key = meta::key(&object);
                self.hpas.apply_shared(event_type, object);
                if event_type == EventType::Deleted {
                    self.recommendations.remove(&key);
                    self.scale_up_events.remove(&key);
                    self.scale_down_events.remove(&key);
                } else {
                    self.queue(ctx, &key);
                }
            }
            Input::Watch { resource: Resource::Pods, event_type, object } => {
                self.pods.apply_shared(event_type, object);
            }
            Input::Watch { .. } => {}
            Input::Timer(Timer::Sync(key)) => {
                self.queued.remove(&key);
                if self.hpas.get(&key).is_some() {
                    self.reconcile(ctx, &key);
                    self.queue(ctx, &key);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `convertDesiredReplicasWithRules` and the behaviour policies' limits (cases after
    /// upstream's `TestScaleUpRCImmediately`, `TestGenerateScaleUpRules` arithmetic).
    #[test]
    fn scale_limits() {
        assert_eq!(convert_with_rules(1, 10, 1, 20), (4, "ScaleUpLimit", "the desired replica count is increasing faster than the maximum scale rate"));
        assert_eq!(convert_with_rules(3, 10, 1, 20).0, 6);
        assert_eq!(convert_with_rules(3, 10, 1, 5).0, 5);
        assert_eq!(convert_with_rules(3, 0, 2, 5), (2, "TooFewReplicas", "the desired replica count is less than the minimum replica count"));
        // the default scale-up rules: 4 Pods or 100 % every 15 s, whichever is more
        let up = json!({"selectPolicy": "Max", "policies": [{"type": "Pods", "value": 4, "periodSeconds": 15}, {"type": "Percent", "value": 100, "periodSeconds": 15}]});
        assert_eq!(limit_with_rules(true, 2, &[], &[], &up, 0), 6);
        assert_eq!(limit_with_rules(true, 10, &[], &[], &up, 0), 20);
        // 3 added within the period: the period started at 7
        let ups = [ScaleEvent { change: 3, at: -5_000, outdated: false }];
        assert_eq!(limit_with_rules(true, 10, &ups, &[], &up, 0), 14);
        // scale-down: 100 % every 15 s allows down to 0; a Pods policy of 1 allows one
        let down = json!({"selectPolicy": "Max", "policies": [{"type": "Percent", "value": 100, "periodSeconds": 15}]});
        assert_eq!(limit_with_rules(false, 5, &[], &[], &down, 0), 0);
        let one = json!({"selectPolicy": "Max", "policies": [{"type": "Pods", "value": 1, "periodSeconds": 60}]});
        assert_eq!(limit_with_rules(false, 5, &[], &[], &one, 0), 4);
        assert_eq!(limit_with_rules(false, 5, &[], &[], &json!({"selectPolicy": "Disabled", "policies": []}), 0), 5);
    }

    #[test]
    fn conditions_keep_their_transition_time_until_the_status_changes() {
        let mut s = json!({});
        set_condition(&mut s, "AbleToScale", "True", "SucceededGetScale", "m", 1_000);
        set_condition(&mut s, "AbleToScale", "True", "ReadyForNewScale", "m2", 2_000);
        assert_eq!(s["conditions"][0]["lastTransitionTime"], json!(time::rfc3339(1_000)));
        assert_eq!(s["conditions"][0]["reason"], json!("ReadyForNewScale"));
        set_condition(&mut s, "AbleToScale", "False", "FailedGetScale", "m3", 3_000);
        assert_eq!(s["conditions"][0]["lastTransitionTime"], json!(time::rfc3339(3_000)));
    }
}
