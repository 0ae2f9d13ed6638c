//! `kubectl wait --for=condition=C[=V] | --for=jsonpath='{…}'[=V] | --for=delete | --for=create`
//! on `TYPE/NAME`, `TYPE NAME…`, or `TYPE -l SELECTOR | --all`.
//!
//! Real counterpart: `staging/src/k8s.io/kubectl/pkg/cmd/wait` (`wait.go` `conditionFuncFor`,
//! `processJSONPathInput`, `RunWait`; `condition.go` `getObjAndCheckCondition`: LIST the object
//! by name, then WATCH it until the condition holds — a condition whose `observedGeneration` lags
//! the object's generation does not count; `delete.go`; `create.go`'s poll every 500 ms), with
//! its messages: `TYPE/NAME condition met`, `timed out waiting for the condition on
//! RESOURCE/NAME`, `condition not met for RESOURCE/NAME` (`--timeout=0`), `no matching resources
//! found`. The simulation runs while kubectl waits, as for `rollout status`; the timeout (30 s by
//! default) is virtual time. What kubesim simplifies: `-f FILE` is not taken; one `--for`.

use super::*;

/// A parsed `--for`.
pub(super) enum For {
    Delete,
    Create,
    Condition { name: String, status: String },
    JsonPath { path: String, value: Option<String> },
}

/// `conditionFuncFor`.
fn parse_for(cond: &str) -> Result<For, String> {
    let lower = cond.to_lowercase();
    if lower == "delete" {
        return Ok(For::Delete);
    }
    if lower == "create" {
        return Ok(For::Create);
    }
    if let Some(c) = cond.strip_prefix("condition=") {
        let (name, status) = c.split_once('=').unwrap_or((c, "true"));
        return Ok(For::Condition { name: name.to_string(), status: status.to_string() });
    }
    if let Some(input) = cond.strip_prefix("jsonpath=") {
        // splitJSONPathInput: on single '=', a '==' stays inside the expression
        let mut parts = vec![String::new()];
        let b: Vec<char> = input.chars().collect();
        let mut i = 0;
        while i < b.len() {
            if b[i] == '=' {
                if b.get(i + 1) == Some(&'=') {
                    parts.last_mut().unwrap().push_str("==");
                    i += 2;
                    continue;
                }
                parts.push(String::new());
            } else {
                parts.last_mut().unwrap().push(b[i]);
            }
            i += 1;
        }
        if parts.len() > 2 {
            return Err("jsonpath wait format must be --for=jsonpath='{.status.readyReplicas}'=3 or --for=jsonpath='{.status.readyReplicas}'".into());
        }
        let path = get::relaxed_jsonpath(&parts[0])?;
        let value = match parts.get(1) {
            None => None,
            Some(v) => {
                let v = v.trim_matches(|c| c == '\'' || c == '"');
                if v.is_empty() {
                    return Err("jsonpath wait has to have a value after equal sign, like --for=jsonpath='{.status.readyReplicas}'=3".into());
                }
                Some(v.to_string())
            }
        };
        return Ok(For::JsonPath { path, value });
    }
    Err(format!("unrecognized condition: {:?}", cond))
}

impl For {
    /// Whether `o` meets the condition (`checkCondition` of condition.go / json.go).
    fn met(&self, o: &Value) -> Result<bool, String> {
        match self {
            For::Delete | For::Create => Ok(true),
            For::Condition { name, status } => {
                for c in meta::get_array(o, &["status", "conditions"]) {
                    if !meta::get_str(c, &["type"]).eq_ignore_ascii_case(name) {
                        continue;
                    }
                    let Some(s) = c.get("status").and_then(Value::as_str) else { continue };
                    // a condition observed for an older generation does not count yet
                    if let Some(generation) = o.pointer("/metadata/generation").and_then(Value::as_i64) {
                        let observed = c.get("observedGeneration").and_then(Value::as_i64).or_else(|| o.pointer("/status/observedGeneration").and_then(Value::as_i64));
                        if observed.is_some_and(|g| g < generation) {
                            return Ok(false);
                        }
                    }
                    return Ok(s.eq_ignore_ascii_case(status));
                }
                Ok(false)
            }
            For::JsonPath { path, value } => {
                let found = get::jsonpath_select(o, path)?;
                let Some(first) = found.first() else { return Ok(false) };
                if found.len() > 1 {
                    return Err("given jsonpath expression matches more than one value".into());
                }
                let Some(want) = value else { return Ok(true) };
                let got = match first {
                    Value::Object(_) | Value::Array(_) => return Err("jsonpath leads to a nested object or list which is not supported".into()),
                    Value::String(s) => s.clone(),
                    other => other.to_string(),
                };
                Ok(got.trim() == want.trim())
            }
        }
    }
}

/// `kubectl wait`.
pub(super) fn wait(cluster: &mut Cluster, f: &Flags, ns: &str, stdin: Option<&str>, read_file: &dyn Fn(&str) -> Option<String>, out: &mut Output) {
    let cond = match parse_for(f.for_object.as_deref().unwrap_or("")) {
        Ok(c) => c,
        Err(e) => return out.err(&format!("error: {}", e)),
    };
    // --timeout: 30s by default; 0 checks once; a negative one waits a week
    let timeout_ms = match f.timeout.as_deref() {
        None => 30_000,
        Some(t) => match crate::api::time::parse_go_duration(t.trim_start_matches('-')) {
            Some(ms) if t.starts_with('-') && ms > 0 => 168 * 3_600_000,
            Some(ms) => ms,
            None => return out.err(&format!("Error: invalid argument \"{}\" for \"--timeout\" flag: time: invalid duration \"{}\"\nSee 'kubectl wait --help' for usage.", t, t)),
        },
    };
    // -f: the objects the files name (the resource builder's FilenameParam)
    let mut named: Vec<(&'static meta::ResourceInfo, String, String)> = Vec::new();
    for file in &f.files {
        let (source, text) = if file == "-" { ("STDIN".to_string(), stdin.map(String::from)) } else { (file.clone(), read_file(file)) };
        let Some(text) = text else { return out.err(&format!("error: the path \"{}\" does not exist", file)) };
        let docs = match crate::api::codec::decode_manifest(&text) {
            Ok(d) => d,
            Err(e) => return out.err(&format!("error: error parsing {}: {}", source, e.message)),
        };
        for d in docs {
            let info = match apply::resource_mapping(cluster, &d.object, &source) {
                Ok(i) => i,
                Err(e) => return out.err(&e),
            };
            let o_ns = if info.namespaced { Some(meta::namespace(&d.object)).filter(|n| !n.is_empty()).unwrap_or(ns).to_string() } else { String::new() };
            named.push((info, o_ns, meta::name(&d.object).to_string()));
        }
    }
    let groups = if f.files.is_empty() {
        match targets(cluster, &f.positional) {
            Ok(t) => t,
            Err(e) => return out.err(&e),
        }
    } else {
        Vec::new()
    };
    for (info, names) in &groups {
        for name in names {
            named.push((info, ns.to_string(), name.clone()));
        }
    }
    // the ResourceFinder: each named object (GET), or the selected ones (LIST)
    let mut objects: Vec<(&'static meta::ResourceInfo, Value)> = Vec::new();
    for (info, _) in groups.iter().filter(|(_, names)| names.is_empty()) {
        if f.selector.is_empty() && !f.all {
            return out.err("error: resource(s) were provided, but no name was specified");
        }
        let resp = kubectl(cluster, Method::Get, &get::list_path_fields(info, ns, f.all_namespaces, &f.selector, &f.field_selector), None);
        if !resp.ok() {
            return out.err(&server_error(&resp, None));
        }
        objects.extend(resp.body.get("items").and_then(Value::as_array).cloned().unwrap_or_default().into_iter().map(|o| (*info, o)));
    }
    for (info, o_ns, name) in &named {
        let (info, ns, name) = (*info, o_ns.as_str(), name.as_str());
        let resp = kubectl(cluster, Method::Get, &info.object_path(ns, name), None);
        if resp.code == 404 && matches!(cond, For::Delete) {
            continue;
        }
        if resp.code == 404 && matches!(cond, For::Create) {
            // create.go: poll every 500 ms until it exists
            match wait_created(cluster, info, ns, name, timeout_ms) {
                Ok(o) => objects.push((info, o)),
                Err(e) => return out.err(&format!("error: {}", e)),
            }
            continue;
        }
        if !resp.ok() {
            return out.err(&server_error(&resp, None));
        }
        objects.push((info, resp.body));
    }
    if objects.is_empty() && !matches!(cond, For::Delete) {
        return out.err("error: no matching resources found");
    }
    for (info, o) in objects {
        let name = meta::name(&o).to_string();
        let o_ns = meta::namespace(&o).to_string();
        let result = match cond {
            For::Create => Ok(()),
            _ => wait_for(cluster, info, &o_ns, &name, &cond, timeout_ms),
        };
        match result {
            Ok(()) => out.out(&format!("{}/{} condition met", info.kubectl_prefix(), name)),
            Err(e) => return out.err(&format!("error: {}", e)),
        }
    }
}

/// `--for=create`: GET every 500 ms of cluster time until the object exists.
fn wait_created(cluster: &mut Cluster, info: &'static meta::ResourceInfo, ns: &str, name: &str, timeout_ms: i64) -> Result<Value, String> {
    let deadline = cluster.now() + timeout_ms;
    loop {
        let resp = kubectl(cluster, Method::Get, &info.object_path(ns, name), None);
        if resp.ok() {
            return Ok(resp.body);
        }
        if resp.code != 404 {
            return Err(server_error(&resp, None).trim_start_matches("error: ").to_string());
        }
        if cluster.now() >= deadline {
            return Err("timed out waiting for the condition".into());
        }
        cluster.advance(500);
    }
}

/// LIST the object by name, then WATCH it until the condition holds (or, for delete, until it is
/// gone), running the simulation meanwhile.
pub(super) fn wait_for(cluster: &mut Cluster, info: &'static meta::ResourceInfo, ns: &str, name: &str, cond: &For, timeout_ms: i64) -> Result<(), String> {
    let field = format!("metadata.name={}", name);
    let timed_out = || format!("timed out waiting for the condition on {}/{}", info.resource, name);
    let list = kubectl(cluster, Method::Get, &format!("{}?fieldSelector={}", info.collection_path(ns), field.replace('=', "%3D")), None);
    if !list.ok() {
        return Err(server_error(&list, None).trim_start_matches("error: ").to_string());
    }
    let current = list.body.get("items").and_then(Value::as_array).and_then(|i| i.first()).cloned();
    match (cond, &current) {
        (For::Delete, None) => return Ok(()),
        (For::Delete, Some(_)) => {}
        (_, None) => return Err(format!("{} \"{}\" not found", info.qualified(), name)),
        (_, Some(o)) if cond.met(o)? => return Ok(()),
        _ => {}
    }
    if timeout_ms == 0 {
        return Err(format!("condition not met for {}/{}", info.resource, name));
    }
    let rv = meta::get_str(&list.body, &["metadata", "resourceVersion"]).to_string();
    let watch = Request::new(Method::Get, format!("{}?fieldSelector={}&resourceVersion={}&watch=true", info.collection_path(ns), field.replace('=', "%3D"), rv), None);
    let resp = cluster.client_watch(&kubectl_identity(), watch, info, ns, &field);
    if !resp.ok() {
        return Err(server_error(&resp, None).trim_start_matches("error: ").to_string());
    }
    let deadline = cluster.now() + timeout_ms;
    let max_steps = cluster.max_steps_per_settle();
    let mut steps = 0u64;
    let result = 'wait: loop {
        for (event_type, obj) in cluster.take_client_events() {
            match (event_type, cond) {
                (EventType::Deleted, For::Delete) => break 'wait Ok(()),
                (EventType::Deleted, _) | (_, For::Delete) => {}
                (_, _) => match cond.met(&obj) {
                    Ok(true) => break 'wait Ok(()),
                    Ok(false) => {}
                    Err(e) => break 'wait Err(e),
                },
            }
        }
        if cluster.now() >= deadline {
            break 'wait Err(timed_out());
        }
        if steps >= max_steps || !cluster.step() {
            break 'wait Err(format!("kubesim stopped waiting after {} deliveries (its limit for one command)", steps));
        }
        steps += 1;
    };
    cluster.close_client_watch();
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn for_flag_as_kubectl_parses_it() {
        assert!(matches!(parse_for("delete"), Ok(For::Delete)));
        assert!(matches!(parse_for("Create"), Ok(For::Create)));
        assert!(matches!(parse_for("condition=Ready=false"), Ok(For::Condition { ref name, ref status }) if name == "Ready" && status == "false"));
        assert!(matches!(parse_for("jsonpath={.status.phase}=Running"), Ok(For::JsonPath { ref path, value: Some(ref v) }) if path == ".status.phase" && v == "Running"));
        assert!(matches!(parse_for("jsonpath={.status.conditions[?(@.type==\"Ready\")].status}=True"), Ok(For::JsonPath { value: Some(ref v), .. }) if v == "True"));
        assert_eq!(parse_for("").err().unwrap(), "unrecognized condition: \"\"");
        assert_eq!(parse_for("jsonpath={.spec.replicas}=").err().unwrap(), "jsonpath wait has to have a value after equal sign, like --for=jsonpath='{.status.readyReplicas}'=3");
        let d = serde_json::json!({"metadata": {"generation": 2}, "status": {"observedGeneration": 1, "conditions": [{"type": "Available", "status": "True"}]}});
        let available = parse_for("condition=available").unwrap();
        assert_eq!(available.met(&d), Ok(false), "an old generation's condition");
        let d = serde_json::json!({"metadata": {"generation": 2}, "status": {"observedGeneration": 2, "conditions": [{"type": "Available", "status": "True"}]}});
        assert_eq!(available.met(&d), Ok(true));
    }
}
