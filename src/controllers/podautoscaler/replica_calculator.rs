//! The replica calculation for resource metrics.
//!
//! Real counterpart: `pkg/controller/podautoscaler/replica_calculator.go` (`GetResourceReplicas`,
//! `GetRawResourceReplicas`, `groupPods`, `calculatePodRequests`, `removeMetricsForPods`),
//! `metrics/utilization.go` (`GetResourceUtilizationRatio`, `GetMetricUsageRatio`) and the
//! tolerance check (`--horizontal-pod-autoscaler-tolerance` 0.1 both ways).
//!
//! What kubesim simplifies: requests come from the containers only (no pod-level resources); a
//! `container` target sums that container alone.

use crate::api::meta;
use crate::api::time;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

/// `--horizontal-pod-autoscaler-tolerance`.
pub const TOLERANCE: f64 = 0.1;
/// `--horizontal-pod-autoscaler-cpu-initialization-period`.
pub const CPU_INITIALIZATION_PERIOD_MS: i64 = 5 * 60 * 1000;
/// `--horizontal-pod-autoscaler-initial-readiness-delay`.
pub const INITIAL_READINESS_DELAY_MS: i64 = 30 * 1000;

/// One Pod's sample from the metrics API: the value (milli-units), when, over which window.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PodMetric {
    pub value: i64,
    pub timestamp_ms: i64,
    pub window_ms: i64,
}

pub type PodMetricsInfo = BTreeMap<String, PodMetric>;

fn within_tolerance(ratio: f64) -> bool {
    ((1.0 - TOLERANCE)..=(1.0 + TOLERANCE)).contains(&ratio)
}

/// `GetResourceUtilizationRatio`: (ratio, utilization %, average raw value).
pub fn utilization_ratio(metrics: &PodMetricsInfo, requests: &BTreeMap<String, i64>, target: i64) -> Result<(f64, i64, i64), String> {
    let (mut total, mut req_total, mut n) = (0i64, 0i64, 0i64);
    for (pod, m) in metrics {
        let Some(r) = requests.get(pod) else { continue };
        total += m.value;
        req_total += r;
        n += 1;
    }
    if req_total == 0 {
        return Err("no metrics returned matched known pods".into());
    }
    // int32((metricsTotal * 100) / requestsTotal)
    let utilization = (total * 100 / req_total) as i32 as i64;
    Ok((utilization as f64 / target as f64, utilization, total / n))
}

/// `groupPods`: the ready count and the unready, missing and ignored Pods.
pub fn group_pods(pods: &[&Value], metrics: &PodMetricsInfo, cpu: bool, now_ms: i64) -> (usize, BTreeSet<String>, BTreeSet<String>, BTreeSet<String>) {
    let (mut ready, mut unready, mut missing, mut ignored) = (0, BTreeSet::new(), BTreeSet::new(), BTreeSet::new());
    for pod in pods {
        let name = meta::name(pod).to_string();
        let phase = meta::get_str(pod, &["status", "phase"]);
        if meta::is_deleting(pod) || phase == "Failed" {
            ignored.insert(name);
            continue;
        }
        if phase == "Pending" {
            unready.insert(name);
            continue;
        }
        let Some(metric) = metrics.get(&name) else {
            missing.insert(name);
            continue;
        };
        if cpu {
            let cond = meta::get_array(pod, &["status", "conditions"]).iter().find(|c| meta::get_str(c, &["type"]) == "Ready");
            let start = meta::get(pod, &["status", "startTime"]).and_then(Value::as_str).and_then(time::parse_rfc3339);
            let is_unready = match (cond, start) {
                (Some(c), Some(start)) => {
                    let transition = meta::get(c, &["lastTransitionTime"]).and_then(Value::as_str).and_then(time::parse_rfc3339).unwrap_or(0);
                    let is_false = meta::get_str(c, &["status"]) == "False";
                    if start + CPU_INITIALIZATION_PERIOD_MS > now_ms {
                        is_false || metric.timestamp_ms < transition + metric.window_ms
                    } else {
                        is_false && start + INITIAL_READINESS_DELAY_MS > transition
                    }
                }
                _ => true,
            };
            if is_unready {
                unready.insert(name);
                continue;
            }
        }
        ready += 1;
    }
    (ready, unready, missing, ignored)
}

/// `calculatePodRequests`: each Pod's request of `resource` (milli-units), summed over its
/// containers (or the one `container`).
pub fn pod_requests(pods: &[&Value], container: &str, resource: &str) -> Result<BTreeMap<String, i64>, String> {
    let mut out = BTreeMap::new();
    for pod in pods {
        let mut sum = 0;
        for c in meta::get_array(pod, &["spec", "containers"]) {
            let name = meta::get_str(c, &["name"]);
            if !container.is_empty() && name != container {
                continue;
            }
            match meta::get(c, &["resources", "requests", resource]).and_then(crate::api::quantity::parse_quantity) {
                Some(q) => sum += q.milli_value(),
                None if container.is_empty() || name == container => {
                    return Err(format!("missing request for {} in container {} of Pod {}", resource, name, meta::name(pod)));
                }
                None => {}
            }
        }
        out.insert(meta::name(pod).to_string(), sum);
    }
    Ok(out)
}

/// What `GetResourceReplicas` returns: the proposal, the utilization and the raw average.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Proposal {
    pub replicas: i64,
    pub utilization: i64,
    pub raw: i64,
}

/// `GetResourceReplicas` once the metrics are fetched: `pods` are the Pods the target's selector
/// selects (from the controller's Pod informer).
pub fn resource_replicas(current: i64, target_utilization: i64, resource: &str, container: &str, mut metrics: PodMetricsInfo, pods: &[&Value], now_ms: i64) -> Result<Proposal, String> {
    if pods.is_empty() {
        return Err("no pods returned by selector while calculating replica count".into());
    }
    let (ready, unready, missing, ignored) = group_pods(pods, &metrics, resource == "cpu", now_ms);
    for p in ignored.iter().chain(unready.iter()) {
        metrics.remove(p);
    }
    if metrics.is_empty() {
        return Err("did not receive metrics for targeted pods (pods might be unready)".into());
    }
    let requests = pod_requests(pods, container, resource)?;
    let (ratio, utilization, raw) = utilization_ratio(&metrics, &requests, target_utilization)?;
    let keep = Proposal { replicas: current, utilization, raw };
    let scale_up_with_unready = !unready.is_empty() && ratio > 1.0;
    if !scale_up_with_unready && missing.is_empty() {
        if within_tolerance(ratio) {
            return Ok(keep);
        }
        return Ok(Proposal { replicas: (ratio * ready as f64).ceil() as i64, ..keep });
    }
    if !missing.is_empty() {
        for p in &missing {
            let value = if ratio < 1.0 {
                // on a scale-down a missing Pod counts as using its whole request (or the target
                // when the target is above 100 %)
                requests.get(p).copied().unwrap_or(0) * target_utilization.max(100) / 100
            } else {
                0
            };
            if ratio != 1.0 {
                metrics.insert(p.clone(), PodMetric { value, timestamp_ms: 0, window_ms: 0 });
            }
        }
    }
    if scale_up_with_unready {
        for p in &unready {
            metrics.insert(p.clone(), PodMetric { value: 0, timestamp_ms: 0, window_ms: 0 });
        }
    }
    let (new_ratio, _, _) = utilization_ratio(&metrics, &requests, target_utilization)?;
    if within_tolerance(new_ratio) || (ratio < 1.0 && new_ratio > 1.0) || (ratio > 1.0 && new_ratio < 1.0) {
        return Ok(keep);
    }
    let replicas = (new_ratio * metrics.len() as f64).ceil() as i64;
    if (new_ratio < 1.0 && replicas > current) || (new_ratio > 1.0 && replicas < current) {
        return Ok(keep);
    }
    Ok(Proposal { replicas, ..keep })
}

/// `GetRawResourceReplicas` (an `AverageValue` target): usage against the target per Pod.
pub fn raw_resource_replicas(current: i64, target_value: i64, resource: &str, mut metrics: PodMetricsInfo, pods: &[&Value], now_ms: i64) -> Result<Proposal, String> {
    if pods.is_empty() {
        return Err("no pods returned by selector while calculating replica count".into());
    }
    let (ready, unready, missing, ignored) = group_pods(pods, &metrics, resource == "cpu", now_ms);
    for p in ignored.iter().chain(unready.iter()) {
        metrics.remove(p);
    }
    if metrics.is_empty() {
        return Err("did not receive metrics for targeted pods (pods might be unready)".into());
    }
    // GetMetricUsageRatio
    let usage = |m: &PodMetricsInfo| m.values().map(|x| x.value).sum::<i64>() / m.len().max(1) as i64;
    let current_usage = usage(&metrics);
    let ratio = current_usage as f64 / target_value as f64;
    let keep = Proposal { replicas: current, utilization: 0, raw: current_usage };
    let scale_up_with_unready = !unready.is_empty() && ratio > 1.0;
    if !scale_up_with_unready && missing.is_empty() {
        if within_tolerance(ratio) {
            return Ok(keep);
        }
        return Ok(Proposal { replicas: (ratio * ready as f64).ceil() as i64, ..keep });
    }
    for p in &missing {
        if ratio < 1.0 {
            metrics.insert(p.clone(), PodMetric { value: target_value, timestamp_ms: 0, window_ms: 0 });
        } else if ratio > 1.0 {
            metrics.insert(p.clone(), PodMetric { value: 0, timestamp_ms: 0, window_ms: 0 });
        }
    }
    if scale_up_with_unready {
        for p in &unready {
            metrics.insert(p.clone(), PodMetric { value: 0, timestamp_ms: 0, window_ms: 0 });
        }
    }
    let new_ratio = usage(&metrics) as f64 / target_value as f64;
    if within_tolerance(new_ratio) || (ratio < 1.0 && new_ratio > 1.0) || (ratio > 1.0 && new_ratio < 1.0) {
        return Ok(keep);
    }
    let replicas = (new_ratio * metrics.len() as f64).ceil() as i64;
    if (new_ratio < 1.0 && replicas > current) || (new_ratio > 1.0 && replicas < current) {
        return Ok(keep);
    }
    Ok(Proposal { replicas, ..keep })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const NOW: i64 = 3_600_000;

    /// A Running Pod started 10 minutes ago, Ready (or not) since then, with a CPU request in
    /// millicores.
    fn pod(name: &str, request_milli: i64, ready: bool) -> Value {
        let t = time::rfc3339(NOW - 600_000);
        json!({"metadata": {"name": name, "namespace": "test-namespace"}, "spec": {"containers": [{"name": "container", "resources": {"requests": {"cpu": format!("{}m", request_milli)}}}]},
            "status": {"phase": "Running", "startTime": t, "conditions": [{"type": "Ready", "status": if ready { "True" } else { "False" }, "lastTransitionTime": t}]}})
    }

    fn sample(levels: &[(usize, i64)]) -> PodMetricsInfo {
        levels.iter().map(|(i, v)| (format!("test-pod-{}", i), PodMetric { value: *v, timestamp_ms: NOW - 1000, window_ms: 15_000 })).collect()
    }

    /// Cases of upstream's `replica_calculator_test.go` (`TestReplicaCalc…`): current replicas,
    /// each Pod's request and readiness, the metric levels (missing where absent), the target
    /// utilization → replicas, utilization, raw average.
    #[test]
    fn replica_calculator_table() {
        struct Case {
            name: &'static str,
            current: i64,
            requests: &'static [i64],
            ready: &'static [bool],
            levels: &'static [(usize, i64)],
            target: i64,
            want: (i64, i64, i64),
        }
        let cases = [
            Case { name: "ScaleUp", current: 3, requests: &[1000, 1000, 1000], ready: &[true, true, true], levels: &[(0, 300), (1, 500), (2, 700)], target: 30, want: (5, 50, 500) },
            Case { name: "ScaleUpUnreadyLessScale", current: 3, requests: &[1000, 1000, 1000], ready: &[false, true, true], levels: &[(0, 300), (1, 500), (2, 700)], target: 30, want: (4, 60, 600) },
            Case { name: "ScaleUpUnreadyNoScale", current: 3, requests: &[1000, 1000, 1000], ready: &[true, false, false], levels: &[(0, 400), (1, 500), (2, 700)], target: 30, want: (3, 40, 400) },
            Case { name: "ScaleDown", current: 5, requests: &[1000, 1000, 1000, 1000, 1000], ready: &[true; 5], levels: &[(0, 100), (1, 300), (2, 500), (3, 250), (4, 250)], target: 50, want: (3, 28, 280) },
            Case { name: "Tolerance", current: 3, requests: &[900, 1000, 1100], ready: &[true, true, true], levels: &[(0, 1010), (1, 1030), (2, 1020)], target: 100, want: (3, 102, 1020) },
            Case { name: "MissingMetricsNoChangeEq", current: 2, requests: &[1000, 1000], ready: &[true, true], levels: &[(0, 1000)], target: 100, want: (2, 100, 1000) },
            // kubesim's: a missing Pod on a scale-up counts as 0 %: 140 % of 3 Pods' requests
            // over 4 is 105 %, within the tolerance
            Case { name: "MissingMetricsScaleUpWithinTolerance", current: 4, requests: &[1000, 1000, 1000, 1000], ready: &[true; 4], levels: &[(0, 1400), (1, 1400), (2, 1400)], target: 100, want: (4, 140, 1400) },
        ];
        for c in cases {
            let pods: Vec<Value> = c.requests.iter().zip(c.ready).enumerate().map(|(i, (r, ready))| pod(&format!("test-pod-{}", i), *r, *ready)).collect();
            let refs: Vec<&Value> = pods.iter().collect();
            let got = resource_replicas(c.current, c.target, "cpu", "", sample(c.levels), &refs, NOW).expect(c.name);
            assert_eq!((got.replicas, got.utilization, got.raw), c.want, "{}", c.name);
        }
    }

    #[test]
    fn replica_calculator_errors() {
        let pods = [pod("test-pod-0", 1000, true)];
        let refs: Vec<&Value> = pods.iter().collect();
        assert_eq!(resource_replicas(1, 50, "cpu", "", PodMetricsInfo::new(), &[], NOW), Err("no pods returned by selector while calculating replica count".into()));
        assert_eq!(resource_replicas(1, 50, "cpu", "", PodMetricsInfo::new(), &refs, NOW), Err("did not receive metrics for targeted pods (pods might be unready)".into()));
        let mut no_request = pod("test-pod-0", 0, true);
        no_request["spec"]["containers"][0]["resources"] = json!({});
        assert_eq!(resource_replicas(1, 50, "cpu", "", sample(&[(0, 100)]), &[&no_request], NOW), Err("missing request for cpu in container container of Pod test-pod-0".into()));
    }
}
