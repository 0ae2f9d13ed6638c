//! `kubectl autoscale`: a HorizontalPodAutoscaler (`autoscaling/v2`) for a scalable workload.
//!
//! Real counterpart: `staging/src/k8s.io/kubectl/pkg/cmd/autoscale/autoscale.go` (v1.34: the
//! v2 object, `--cpu` as a utilization `70%` or an average value `500m`, the deprecated
//! `--cpu-percent`, `--memory`, the `--max`/`--min` checks) and `CanBeAutoscaledFn`.
//!
//! What kubesim simplifies: no `-f FILENAME`; no fallback to `autoscaling/v1` (kubesim serves v2).

use super::*;

fn metric(resource: &str, v: &str) -> Result<Value, String> {
    if let Some(p) = v.strip_suffix('%') {
        let n: i64 = p.parse().map_err(|_| format!("invalid argument \"{}\" for \"--{}\": must be a percentage such as 70% or a quantity such as 500m", v, resource))?;
        return Ok(json!({"type": "Resource", "resource": {"name": resource, "target": {"type": "Utilization", "averageUtilization": n}}}));
    }
    // a bare number of CPU means millicores
    let text = if resource == "cpu" && v.chars().all(|c| c.is_ascii_digit()) { format!("{}m", v) } else { v.to_string() };
    let q = crate::api::quantity::parse_quantity_str(&text).ok_or_else(|| format!("invalid argument \"{}\" for \"--{}\": quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'", v, resource))?;
    Ok(json!({"type": "Resource", "resource": {"name": resource, "target": {"type": "AverageValue", "averageValue": q.canonical()}}}))
}

pub(super) fn autoscale(cluster: &mut Cluster, flags: &Flags, ns: &str, out: &mut Output) {
    let parse_int = |name: &str, v: &Option<String>, default: i64| -> Result<i64, String> {
        match v {
            None => Ok(default),
            Some(s) => s.parse().map_err(|_| format!("invalid argument \"{}\" for \"--{}\" flag: strconv.ParseInt: parsing \"{}\": invalid syntax", s, name, s)),
        }
    };
    let (min, max, cpu_percent) = match (parse_int("min", &flags.min, -1), parse_int("max", &flags.max, -1), parse_int("cpu-percent", &flags.cpu_percent, -1)) {
        (Ok(a), Ok(b), Ok(c)) => (a, b, c),
        (Err(e), _, _) | (_, Err(e), _) | (_, _, Err(e)) => return out.err(&format!("error: {}\nSee 'kubectl autoscale --help' for usage.", e)),
    };
    // the resource argument: TYPE NAME or TYPE/NAME
    let (kind, name) = match flags.positional.as_slice() {
        [one] if one.contains('/') => {
            let (k, n) = one.split_once('/').unwrap_or_default();
            (k.to_string(), n.to_string())
        }
        [k, n] => (k.clone(), n.clone()),
        _ => return out.err("error: You must provide one or more resources by argument or filename.\nExample resource specifications include:\n   '-f rsrc.yaml'\n   '--filename=rsrc.json'\n   '<resource> <name>'\n   '<resource>'"),
    };
    if max < 1 {
        return out.err(&format!("error: --max=MAXPODS is required and must be at least 1, max: {}", max));
    }
    if max < min {
        return out.err(&format!("error: --max=MAXPODS must be larger or equal to --min=MINPODS, max: {}, min: {}", max, min));
    }
    let Some(info) = meta::lookup(&kind) else {
        return out.err(&format!("error: the server doesn't have a resource type \"{}\"", kind));
    };
    let got = kubectl(cluster, Method::Get, &info.object_path(ns, &name), None);
    if !got.ok() {
        return out.err(&server_error(&got, None));
    }
    if !matches!(info.kind, "Deployment" | "ReplicaSet" | "StatefulSet" | "ReplicationController") {
        return out.err(&format!("error: cannot autoscale a {}: cannot autoscale a {}", info.kind, info.kind));
    }
    let mut metrics = Vec::new();
    if cpu_percent >= 0 {
        out.note("Flag --cpu-percent has been deprecated, Use --cpu with percentage or resource quantity format (e.g., '70%' for utilization or '500m' for milliCPU).");
        metrics.push(json!({"type": "Resource", "resource": {"name": "cpu", "target": {"type": "Utilization", "averageUtilization": cpu_percent}}}));
    }
    for (res, v) in [("cpu", &flags.cpu), ("memory", &flags.memory)] {
        if let Some(v) = v {
            match metric(res, v) {
                Ok(m) => metrics.push(m),
                Err(e) => return out.err(&format!("error: {}", e)),
            }
        }
    }
    let hpa_name = flags.name.clone().unwrap_or_else(|| name.clone());
    let mut spec = json!({"scaleTargetRef": {"apiVersion": info.api_version(), "kind": info.kind, "name": name}, "maxReplicas": max});
    if min > 0 {
        spec["minReplicas"] = json!(min);
    }
    if !metrics.is_empty() {
        spec["metrics"] = json!(metrics);
    }
    let hpa = json!({"apiVersion": "autoscaling/v2", "kind": "HorizontalPodAutoscaler", "metadata": {"name": hpa_name}, "spec": spec});
    let hinfo = meta::Resource::HorizontalPodAutoscalers.info();
    let resp = kubectl(cluster, Method::Post, &hinfo.collection_path(ns), Some(hpa));
    if resp.ok() {
        out.out(&format!("horizontalpodautoscaler.autoscaling/{} autoscaled", hpa_name));
    } else {
        out.err(&server_error(&resp, None));
    }
}
