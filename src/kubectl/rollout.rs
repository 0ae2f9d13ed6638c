//! `kubectl rollout status|history|undo|pause|resume|restart` for Deployments, and `rollout status`
//! and `rollout history` for DaemonSets.
//!
//! Upstream: `staging/src/k8s.io/kubectl/pkg/cmd/rollout/rollout_{status,history,undo,pause,
//! resume,restart}.go` and the helpers they call in `pkg/polymorphichelpers/`:
//! `rollout_status.go` (`DeploymentStatusViewer`), `history.go` (`DeploymentHistoryViewer`),
//! `rollback.go` (`DeploymentRollbacker`), `objectpauser.go`, `objectresumer.go`,
//! `objectrestarter.go`; `pkg/util/deployment` lists a Deployment's ReplicaSets.
//!
//! Every command works as upstream's does, through requests only: `undo` is client-side (it finds
//! the ReplicaSet of the wanted revision and sends a JSON patch that puts its template back),
//! `status` LISTs then WATCHes the Deployment and prints a line on every event.
//!
//! What kubesim simplifies: only Deployments have a rollout (DaemonSets and StatefulSets are not
//! simulated yet); `rollout status` runs the simulation while it waits, up to `--timeout` or
//! kubesim's limit of [`STATUS_MAX_WAIT_MS`] of cluster time; `-o`/`--dry-run` are not offered.

use super::*;
use crate::api::time;
use std::collections::BTreeMap;

/// `deployment.kubernetes.io/revision` on Deployments and ReplicaSets.
const REVISION_ANNOTATION: &str = "deployment.kubernetes.io/revision";
/// `kubernetes.io/change-cause`: what `rollout history` shows in CHANGE-CAUSE.
pub(super) const CHANGE_CAUSE_ANNOTATION: &str = "kubernetes.io/change-cause";
const POD_TEMPLATE_HASH: &str = "pod-template-hash";
/// `rollback.go` `annotationsToSkip`: kept from the Deployment, never copied from the ReplicaSet.
const ANNOTATIONS_TO_SKIP: &[&str] = &[
    "kubectl.kubernetes.io/last-applied-configuration",
    REVISION_ANNOTATION,
    "deployment.kubernetes.io/revision-history",
    "deployment.kubernetes.io/desired-replicas",
    "deployment.kubernetes.io/max-replicas",
    "deprecated.deployment.rollback.to",
];
/// How long `rollout status` may run the cluster when no `--timeout` is given (upstream waits
/// forever). Above the default progress deadline (600 s), so a stuck rollout ends with
/// "exceeded its progress deadline" as it would on a real cluster.
pub const STATUS_MAX_WAIT_MS: i64 = 15 * 60 * 1000;

const SUBCOMMANDS: &[&str] = &["history", "pause", "restart", "resume", "status", "undo"];

pub(super) fn rollout(cluster: &mut Cluster, f: &Flags, ns: &str, out: &mut Output) {
    let Some(sub) = f.positional.first() else {
        return out.out(
            "Manage the rollout of one or many resources.\n\nValid resource types include:\n\n  *  deployments\n  *  daemonsets\n  *  statefulsets\n\nAvailable Commands:\n  history       View rollout history\n  pause         Mark the provided resource as paused\n  restart       Restart a resource\n  resume        Resume a paused resource\n  status        Show the status of the rollout\n  undo          Undo a previous rollout\n\nUsage:\n  kubectl rollout SUBCOMMAND [options]",
        );
    };
    if !SUBCOMMANDS.contains(&sub.as_str()) {
        return out.err(&format!("error: unknown command \"{}\"\nSee 'kubectl rollout -h' for help and examples", f.positional.join(" ")));
    }
    let ts = match targets(cluster, &f.positional[1..]) {
        Ok(t) => t,
        Err(_) if f.positional.len() == 1 => {
            return out.err(&format!(
                "error: required resource not specified\nSee 'kubectl rollout {} -h' for help and examples",
                sub
            ))
        }
        Err(e) => return out.err(&e),
    };
    // resource.Builder's ContinueOnError visitor: one error prints as itself ("error: …"), several
    // as an aggregate, which kubectl prints one per line without the "error: " prefix
    let mut visit_errors: Vec<String> = Vec::new();
    for (info, names) in ts {
        // a kind alone means every object of it in the namespace
        let names = if names.is_empty() {
            list_items(cluster, &list_path(info, ns, false, &f.selector)).iter().map(|o| meta::name(o).to_string()).collect()
        } else {
            names
        };
        for name in names {
            // resource.Builder: GET the object first
            let got = kubectl(cluster, Method::Get, &info.object_path(ns, &name), None);
            if !got.ok() {
                out.err(&server_error(&got, None));
                continue;
            }
            if sub == "status" && matches!(info.kind, "DaemonSet" | "StatefulSet") {
                status(cluster, f, ns, info, &name, out);
                continue;
            }
            if sub == "history" && matches!(info.kind, "DaemonSet" | "StatefulSet") {
                daemon_set_history(cluster, f, ns, info, &got.body, out);
                continue;
            }
            if sub == "undo" && matches!(info.kind, "DaemonSet" | "StatefulSet") {
                revision_undo(cluster, f, ns, info, &got.body, out);
                continue;
            }
            if info.kind != "Deployment" {
                visit_errors.push(not_implemented(sub, info));
                continue;
            }
            match sub.as_str() {
                "status" => status(cluster, f, ns, info, &name, out),
                "history" => history(cluster, f, ns, &got.body, out),
                "undo" => undo(cluster, f, ns, &name, out),
                "pause" => pause_resume(cluster, ns, &got.body, true, out),
                "resume" => pause_resume(cluster, ns, &got.body, false, out),
                _ => restart(cluster, ns, &got.body, out),
            }
        }
    }
    match visit_errors.len() {
        0 => {}
        1 => out.err(&visit_errors[0]),
        _ => {
            let lines: Vec<&str> = visit_errors.iter().map(|e| e.strip_prefix("error: ").unwrap_or(e)).collect();
            out.err(&lines.join("\n"));
        }
    }
}

/// The error each `*For` helper gives for a kind it does not handle.
fn not_implemented(sub: &str, info: &meta::ResourceInfo) -> String {
    let gk = if info.group.is_empty() { info.kind.to_string() } else { format!("{}.{}", info.kind, info.group) };
    match sub {
        "history" => format!("error: no history viewer has been implemented for \"{}\"", gk),
        "undo" => format!("error: no rollbacker has been implemented for \"{}\"", gk),
        "status" => format!("error: no status viewer has been implemented for {}", gk),
        "pause" => format!("error: {}/{} pausing is not supported", info.resource, gk),
        "resume" => format!("error: {}/{} resuming is not supported", info.resource, gk),
        _ => format!("error: {}/{} restarting is not supported", info.resource, gk),
    }
}

fn revision_of(obj: &Value) -> Option<i64> {
    meta::annotation(obj, REVISION_ANNOTATION)?.parse().ok()
}

/// `deploymentutil.GetAllReplicaSets`: LIST by the Deployment's selector, keep those it controls.
fn deployment_replica_sets(cluster: &mut Cluster, ns: &str, d: &Value) -> Vec<Value> {
    let selector = meta::format_label_selector(meta::get(d, &["spec", "selector"]));
    let info = meta::lookup("replicasets").expect("replicasets");
    list_items(cluster, &list_path(info, ns, false, &selector))
        .into_iter()
        .filter(|rs| meta::controller_of(rs).map(|o| meta::get_str(o, &["uid"]) == meta::uid(d)).unwrap_or(false))
        .collect()
}

// ---------------------------------------------------------------------------------------------
// status
// ---------------------------------------------------------------------------------------------

/// An int64 flag's value (0 when absent), or cobra's message for one that is not a number.
fn int_flag(value: Option<&str>, flag: &str) -> Result<i64, String> {
    match value {
        None => Ok(0),
        Some(r) => r.parse::<i64>().map_err(|_| format!("error: invalid argument \"{}\" for \"--{}\" flag: strconv.ParseInt: parsing \"{}\": invalid syntax", r, flag, r)),
    }
}

/// `DeploymentStatusViewer.Status`: the line to print and whether the rollout is done.
pub fn deployment_status(d: &Value, revision: i64) -> Result<(String, bool), String> {
    let name = meta::name(d);
    if revision > 0 {
        let Some(rev) = revision_of(d) else {
            return Err(format!("cannot get the revision of deployment \"{}\": strconv.ParseInt: parsing \"\": invalid syntax", name));
        };
        if rev != revision {
            return Err(format!("desired revision ({}) is different from the running revision ({})", revision, rev));
        }
    }
    let g = |p: &[&str]| meta::get_i64(d, p).unwrap_or(0);
    if g(&["metadata", "generation"]) > g(&["status", "observedGeneration"]) {
        return Ok(("Waiting for deployment spec update to be observed...".into(), false));
    }
    let conditions = meta::get(d, &["status", "conditions"]).and_then(Value::as_array).map(Vec::as_slice).unwrap_or(&[]);
    let progressing = meta::find_condition(conditions, "Progressing");
    if progressing.map(|c| meta::get_str(c, &["reason"]) == "ProgressDeadlineExceeded").unwrap_or(false) {
        return Err(format!("deployment \"{}\" exceeded its progress deadline", name));
    }
    let spec = meta::get_i64(d, &["spec", "replicas"]);
    let (updated, replicas, available) = (g(&["status", "updatedReplicas"]), g(&["status", "replicas"]), g(&["status", "availableReplicas"]));
    if let Some(spec) = spec.filter(|s| updated < *s) {
        return Ok((format!("Waiting for deployment \"{}\" rollout to finish: {} out of {} new replicas have been updated...", name, updated, spec), false));
    }
    if replicas > updated {
        return Ok((format!("Waiting for deployment \"{}\" rollout to finish: {} old replicas are pending termination...", name, replicas - updated), false));
    }
    if available < updated {
        return Ok((format!("Waiting for deployment \"{}\" rollout to finish: {} of {} updated replicas are available...", name, available, updated), false));
    }
    Ok((format!("deployment \"{}\" successfully rolled out", name), true))
}

/// `DaemonSetStatusViewer.Status` (it ignores `--revision`).
pub fn daemon_set_status(d: &Value) -> Result<(String, bool), String> {
    if meta::get_str(d, &["spec", "updateStrategy", "type"]) != "RollingUpdate" {
        return Err("rollout status is only available for RollingUpdate strategy type".into());
    }
    let g = |p: &[&str]| meta::get_i64(d, p).unwrap_or(0);
    let name = meta::name(d);
    if g(&["metadata", "generation"]) > g(&["status", "observedGeneration"]) {
        return Ok(("Waiting for daemon set spec update to be observed...".into(), false));
    }
    let (updated, desired, available) = (g(&["status", "updatedNumberScheduled"]), g(&["status", "desiredNumberScheduled"]), g(&["status", "numberAvailable"]));
    if updated < desired {
        return Ok((format!("Waiting for daemon set \"{}\" rollout to finish: {} out of {} new pods have been updated...", name, updated, desired), false));
    }
    if available < desired {
        return Ok((format!("Waiting for daemon set \"{}\" rollout to finish: {} of {} updated pods are available...", name, available, desired), false));
    }
    Ok((format!("daemon set \"{}\" successfully rolled out", name), true))
}

/// `StatefulSetStatusViewer.Status`: a defaulted StatefulSet has a rollingUpdate block, so it
/// ends with "partitioned roll out complete".
pub fn stateful_set_status(s: &Value) -> Result<(String, bool), String> {
    if meta::get_str(s, &["spec", "updateStrategy", "type"]) != "RollingUpdate" {
        return Err("rollout status is only available for RollingUpdate strategy type".into());
    }
    let g = |p: &[&str]| meta::get_i64(s, p).unwrap_or(0);
    let observed = g(&["status", "observedGeneration"]);
    if observed == 0 || g(&["metadata", "generation"]) > observed {
        return Ok(("Waiting for statefulset spec update to be observed...".into(), false));
    }
    let replicas = meta::get_i64(s, &["spec", "replicas"]);
    let (ready, updated) = (g(&["status", "readyReplicas"]), g(&["status", "updatedReplicas"]));
    if let Some(r) = replicas {
        if ready < r {
            return Ok((format!("Waiting for {} pods to be ready...", r - ready), false));
        }
    }
    if let Some(ru) = meta::get(s, &["spec", "updateStrategy", "rollingUpdate"]).filter(|v| !v.is_null()) {
        if let (Some(r), Some(p)) = (replicas, meta::get_i64(ru, &["partition"])) {
            if updated < r - p {
                return Ok((format!("Waiting for partitioned roll out to finish: {} out of {} new pods have been updated...", updated, r - p), false));
            }
        }
        return Ok((format!("partitioned roll out complete: {} new pods have been updated...", updated), true));
    }
    let (cur_rev, upd_rev) = (meta::get_str(s, &["status", "currentRevision"]), meta::get_str(s, &["status", "updateRevision"]));
    if upd_rev != cur_rev {
        return Ok((format!("waiting for statefulset rolling update to complete {} pods at revision {}...", updated, upd_rev), false));
    }
    Ok((format!("statefulset rolling update complete {} pods at revision {}...", g(&["status", "currentReplicas"]), cur_rev), true))
}

/// `rollout status`: LIST the object by name, then WATCH it, printing a line on every event
/// until the rollout is done. The simulation runs meanwhile (kubectl is waiting, the cluster is not).
fn status(cluster: &mut Cluster, f: &Flags, ns: &str, info: &'static meta::ResourceInfo, name: &str, out: &mut Output) {
    let revision = match int_flag(f.revision.as_deref(), "revision") {
        Ok(v) => v,
        Err(e) => return out.err(&e),
    };
    if revision < 0 {
        return out.err("error: revision must be a positive integer: -1");
    }
    let limit = match &f.timeout {
        Some(t) => match time::parse_go_duration(t) {
            Some(0) => None,
            Some(ms) => Some((ms, true)),
            None => return out.err(&format!("error: invalid argument \"{}\" for \"--timeout\" flag: time: invalid duration \"{}\"", t, t)),
        },
        None => None,
    }
    .unwrap_or((STATUS_MAX_WAIT_MS, false));
    let viewer = |o: &Value| match info.kind {
        "DaemonSet" => daemon_set_status(o),
        "StatefulSet" => stateful_set_status(o),
        _ => deployment_status(o, revision),
    };
    let field = format!("metadata.name={}", name);
    let list = kubectl(cluster, Method::Get, &format!("{}?fieldSelector={}", info.collection_path(ns), field.replace('=', "%3D")), None);
    let Some(d) = list.body.get("items").and_then(|i| i.as_array()).and_then(|i| i.first()).cloned() else {
        return out.err(&format!("error: {} \"{}\" not found", info.qualified(), name));
    };
    // one line for the object the LIST returned (UntilWithSync's ADDED)
    match viewer(&d) {
        Ok((line, done)) => {
            out.out(&line);
            if done || !f.watch.unwrap_or(true) {
                return;
            }
        }
        Err(e) => return out.err(&format!("error: {}", e)),
    }
    let rv = meta::get_str(&list.body, &["metadata", "resourceVersion"]).to_string();
    let watch = Request::new(
        Method::Get,
        &format!("{}?fieldSelector={}&resourceVersion={}&watch=true", info.collection_path(ns), field.replace('=', "%3D"), rv),
        None,
    );
    let resp = cluster.client_watch(&kubectl_identity(), watch, info, ns, &field);
    if !resp.ok() {
        return out.err(&server_error(&resp, None));
    }
    let deadline = cluster.now() + limit.0;
    let max_steps = cluster.max_steps_per_settle();
    let mut steps = 0u64;
    let result = 'wait: loop {
        for (event_type, obj) in cluster.take_client_events() {
            match event_type {
                EventType::Deleted => break 'wait Err("object has been deleted".to_string()),
                _ => match viewer(&obj) {
                    Ok((line, done)) => {
                        out.out(&line);
                        if done {
                            break 'wait Ok(());
                        }
                    }
                    Err(e) => break 'wait Err(e),
                },
            }
        }
        if cluster.now() >= deadline {
            break 'wait Err(if limit.1 {
                "timed out waiting for the condition".to_string()
            } else {
                format!(
                    "kubesim stopped waiting after {} of cluster time (its limit for rollout status; pass --timeout to choose); the rollout is still in progress",
                    printers::human_duration(limit.0)
                )
            });
        }
        if steps >= max_steps || !cluster.step() {
            break 'wait Err(format!("kubesim stopped waiting after {} deliveries (its limit for one command)", steps));
        }
        steps += 1;
    };
    cluster.close_client_watch();
    if let Err(e) = result {
        out.err(&format!("error: {}", e));
    }
}

// ---------------------------------------------------------------------------------------------
// history
// ---------------------------------------------------------------------------------------------

/// `DeploymentHistoryViewer.ViewHistory`, printed as upstream prints it: the name printer with
/// the table as its "operation", so the first line ends in a space.
fn history(cluster: &mut Cluster, f: &Flags, ns: &str, d: &Value, out: &mut Output) {
    let revision = match int_flag(f.revision.as_deref(), "revision") {
        Ok(v) => v,
        Err(e) => return out.err(&e),
    };
    // getDeploymentReplicaSets GETs the Deployment again before listing
    let name = meta::name(d).to_string();
    let got = kubectl(cluster, Method::Get, &meta::lookup("deployments").expect("deployments").object_path(ns, &name), None);
    if !got.ok() {
        return out.err(&format!("error: failed to retrieve deployment {}: {}", name, server_error(&got, None)));
    }
    let rss = deployment_replica_sets(cluster, ns, &got.body);
    let mut by_revision: BTreeMap<i64, Value> = BTreeMap::new();
    for rs in rss {
        if let Some(v) = revision_of(&rs) {
            by_revision.insert(v, rs);
        }
    }
    let text = if by_revision.is_empty() {
        "No rollout history found.".to_string()
    } else if revision > 0 {
        let Some(rs) = by_revision.get(&revision) else {
            return out.err("error: unable to find the specified revision");
        };
        let mut template = meta::get(rs, &["spec", "template"]).cloned().unwrap_or(json!({}));
        if let Some(cause) = meta::annotation(rs, CHANGE_CAUSE_ANNOTATION) {
            meta::set(&mut template, &["metadata", "annotations", CHANGE_CAUSE_ANNOTATION], json!(cause));
        }
        describe::pod_template_text(&template)
    } else {
        let mut t = String::from("REVISION\tCHANGE-CAUSE\n");
        for (v, rs) in &by_revision {
            let cause = meta::annotation(rs, CHANGE_CAUSE_ANNOTATION).filter(|c| !c.is_empty()).unwrap_or("<none>");
            t.push_str(&format!("{}\t{}\n", v, cause));
        }
        printers::tabwriter(&t, 0, 2)
    };
    let with_revision = if revision > 0 { format!("with revision #{}", revision) } else { String::new() };
    out.out_raw(&format!("deployment.apps/{} {}\n{}\n", name, with_revision, text));
}

/// `DaemonSetHistoryViewer.ViewHistory`: the DaemonSet's ControllerRevisions (those it controls
/// among the ones its selector matches) by revision, with the change-cause each carries; with
/// `--revision`, the pod template that revision's patch restores.
fn daemon_set_history(cluster: &mut Cluster, f: &Flags, ns: &str, owner: &'static meta::ResourceInfo, ds: &Value, out: &mut Output) {
    let revision = match int_flag(f.revision.as_deref(), "revision") {
        Ok(v) => v,
        Err(e) => return out.err(&e),
    };
    let selector = meta::format_label_selector(meta::get(ds, &["spec", "selector"]));
    let info = meta::lookup("controllerrevisions").expect("controllerrevisions");
    let mut by_revision: BTreeMap<i64, Value> = BTreeMap::new();
    for cr in list_items(cluster, &list_path(info, ns, false, &selector)) {
        if meta::controller_of(&cr).map(|o| meta::get_str(o, &["uid"]) == meta::uid(ds)).unwrap_or(false) {
            by_revision.insert(meta::get_i64(&cr, &["revision"]).unwrap_or(0), cr);
        }
    }
    let text = if by_revision.is_empty() {
        "No rollout history found.".to_string()
    } else if revision > 0 {
        let Some(cr) = by_revision.get(&revision) else {
            return out.err("error: unable to find the specified revision");
        };
        let mut template = meta::get(cr, &["data", "spec", "template"]).cloned().unwrap_or(json!({}));
        if let Some(m) = template.as_object_mut() {
            m.remove("$patch");
        }
        describe::pod_template_text(&template)
    } else {
        let mut t = String::from("REVISION\tCHANGE-CAUSE\n");
        for (v, cr) in &by_revision {
            let cause = meta::annotation(cr, CHANGE_CAUSE_ANNOTATION).filter(|c| !c.is_empty()).unwrap_or("<none>");
            t.push_str(&format!("{}\t{}\n", v, cause));
        }
        printers::tabwriter(&t, 0, 2)
    };
    let with_revision = if revision > 0 { format!("with revision #{}", revision) } else { String::new() };
    out.out_raw(&format!("{}/{} {}\n{}\n", owner.kubectl_prefix(), meta::name(ds), with_revision, text));
}

/// The ControllerRevisions `owner` controls, by revision.
fn owned_revisions(cluster: &mut Cluster, ns: &str, owner: &Value) -> BTreeMap<i64, Value> {
    let selector = meta::format_label_selector(meta::get(owner, &["spec", "selector"]));
    let info = meta::lookup("controllerrevisions").expect("controllerrevisions");
    let mut by_revision: BTreeMap<i64, Value> = BTreeMap::new();
    for cr in list_items(cluster, &list_path(info, ns, false, &selector)) {
        if meta::controller_of(&cr).map(|o| meta::get_str(o, &["uid"]) == meta::uid(owner)).unwrap_or(false) {
            by_revision.insert(meta::get_i64(&cr, &["revision"]).unwrap_or(0), cr);
        }
    }
    by_revision
}

/// `DaemonSetRollbacker` / `StatefulSetRollbacker`: the revision to go back to (`--to-revision`,
/// or the one before the newest), its patch applied with a strategic-merge PATCH; "skipped
/// rollback" when the template is already that one.
fn revision_undo(cluster: &mut Cluster, f: &Flags, ns: &str, info: &'static meta::ResourceInfo, obj: &Value, out: &mut Output) {
    let to_revision = match int_flag(f.to_revision.as_deref(), "to-revision") {
        Ok(v) => v,
        Err(e) => return out.err(&e),
    };
    let revisions = owned_revisions(cluster, ns, obj);
    let target = if to_revision > 0 {
        match revisions.get(&to_revision) {
            Some(r) => r.clone(),
            None => return out.err(&format!("error: unable to find specified revision {} in history", to_revision)),
        }
    } else {
        match revisions.values().rev().nth(1) {
            Some(r) => r.clone(),
            None => return out.err("error: no last revision to roll back to"),
        }
    };
    let mut template = meta::get(&target, &["data", "spec", "template"]).cloned().unwrap_or(json!({}));
    if let Some(m) = template.as_object_mut() {
        m.remove("$patch");
    }
    let kind = info.kubectl_prefix();
    if meta::get(obj, &["spec", "template"]) == Some(&template) {
        return out.out(&format!("{}/{} skipped rollback (current template already matches revision {})", kind, meta::name(obj), meta::get_i64(&target, &["revision"]).unwrap_or(0)));
    }
    let patch = meta::get(&target, &["data"]).cloned().unwrap_or(json!({}));
    let req = Request { method: Method::Patch, path: info.object_path(ns, meta::name(obj)), body: Some(patch), patch_type: PatchType::Strategic };
    let resp = cluster.client_request(&kubectl_identity(), req);
    if resp.ok() {
        out.out(&format!("{}/{} rolled back", kind, meta::name(obj)));
    } else {
        out.err(&server_error(&resp, None));
    }
}

// ---------------------------------------------------------------------------------------------
// undo
// ---------------------------------------------------------------------------------------------

/// `deploymentRevision`: the ReplicaSet of `to_revision`, or the second-newest revision when 0.
fn deployment_revision(rss: &[Value], name: &str, to_revision: i64) -> Result<Value, String> {
    let (mut latest, mut previous): ((i64, Option<&Value>), (i64, Option<&Value>)) = ((-1, None), (-1, None));
    for rs in rss {
        let Some(v) = revision_of(rs) else { continue };
        if to_revision == 0 {
            if latest.0 < v {
                previous = latest;
                latest = (v, Some(rs));
            } else if previous.0 < v {
                previous = (v, Some(rs));
            }
        } else if to_revision == v {
            return Ok(rs.clone());
        }
    }
    if to_revision > 0 {
        return Err(format!("unable to find specified revision {} in history", to_revision));
    }
    previous.1.cloned().ok_or_else(|| format!("no rollout history found for deployment \"{}\"", name))
}

/// `DeploymentRollbacker.Rollback`.
fn undo(cluster: &mut Cluster, f: &Flags, ns: &str, name: &str, out: &mut Output) {
    let to_revision = match int_flag(f.to_revision.as_deref(), "to-revision") {
        Ok(v) => v,
        Err(e) => return out.err(&e),
    };
    if to_revision < 0 {
        return out.err(&format!("error: unable to find specified revision {} in history", to_revision));
    }
    let info = meta::lookup("deployments").expect("deployments");
    let got = kubectl(cluster, Method::Get, &info.object_path(ns, name), None);
    if !got.ok() {
        return out.err(&format!("error: failed to retrieve Deployment {}: {}", name, server_error(&got, None)));
    }
    let d = got.body;
    let rss = deployment_replica_sets(cluster, ns, &d);
    let rs = match deployment_revision(&rss, name, to_revision) {
        Ok(rs) => rs,
        Err(e) => return out.err(&format!("error: {}", e)),
    };
    if meta::get(&d, &["spec", "paused"]).and_then(Value::as_bool).unwrap_or(false) {
        return out.err("error: you cannot rollback a paused deployment; resume it first with 'kubectl rollout resume' and try again");
    }
    let rs_template = meta::get(&rs, &["spec", "template"]);
    if describe::equal_ignore_hash(rs_template, meta::get(&d, &["spec", "template"])) {
        return out.out(&format!("deployment.apps/{} skipped rollback (current template already matches revision {})", name, to_revision));
    }
    let mut template = rs_template.cloned().unwrap_or(json!({}));
    if let Some(labels) = template.pointer_mut("/metadata/labels").and_then(Value::as_object_mut) {
        labels.remove(POD_TEMPLATE_HASH);
    }
    let mut annotations = serde_json::Map::new();
    for k in ANNOTATIONS_TO_SKIP {
        if let Some(v) = meta::annotation(&d, k) {
            annotations.insert(k.to_string(), json!(v));
        }
    }
    if let Some(a) = meta::get(&rs, &["metadata", "annotations"]).and_then(Value::as_object) {
        for (k, v) in a {
            if !ANNOTATIONS_TO_SKIP.contains(&k.as_str()) {
                annotations.insert(k.clone(), v.clone());
            }
        }
    }
    let patch = json!([
        {"op": "replace", "path": "/spec/template", "value": template},
        {"op": "replace", "path": "/metadata/annotations", "value": annotations},
    ]);
    let resp = cluster.client_request(
        &kubectl_identity(),
        Request { method: Method::Patch, path: info.object_path(ns, name), body: Some(patch), patch_type: PatchType::Json },
    );
    if resp.ok() {
        out.out(&format!("deployment.apps/{} rolled back", name));
    } else {
        out.err(&format!("error: failed restoring revision {}: {}", to_revision, server_error(&resp, None)));
    }
}

// ---------------------------------------------------------------------------------------------
// pause, resume, restart
// ---------------------------------------------------------------------------------------------

/// A strategic merge PATCH with field manager `kubectl-rollout`; prints `deployment.apps/NAME verb`.
fn rollout_patch(cluster: &mut Cluster, ns: &str, name: &str, patch: Value, verb: &str, out: &mut Output) {
    let info = meta::lookup("deployments").expect("deployments");
    let resp = cluster.client_request(
        &kubectl_identity(),
        Request { method: Method::Patch, path: format!("{}?fieldManager=kubectl-rollout", info.object_path(ns, name)), body: Some(patch), patch_type: PatchType::Strategic },
    );
    if resp.ok() {
        out.out(&format!("deployment.apps/{} {}", name, verb));
    } else {
        out.err(&format!("error: failed to patch: {}", server_error(&resp, None)));
    }
}

/// `defaultObjectPauser` / `defaultObjectResumer`.
fn pause_resume(cluster: &mut Cluster, ns: &str, d: &Value, pause: bool, out: &mut Output) {
    let name = meta::name(d).to_string();
    let paused = meta::get(d, &["spec", "paused"]).and_then(Value::as_bool).unwrap_or(false);
    if pause && paused {
        return out.err(&format!("error: deployments.apps \"{}\" is already paused", name));
    }
    if !pause && !paused {
        return out.err(&format!("error: deployments.apps \"{}\" is not paused", name));
    }
    let patch = if pause { json!({"spec": {"paused": true}}) } else { json!({"spec": {"paused": null}}) };
    rollout_patch(cluster, ns, &name, patch, if pause { "paused" } else { "resumed" }, out);
}

/// `defaultObjectRestarter`: a new `kubectl.kubernetes.io/restartedAt` in the template, to the second.
fn restart(cluster: &mut Cluster, ns: &str, d: &Value, out: &mut Output) {
    let name = meta::name(d).to_string();
    if meta::get(d, &["spec", "paused"]).and_then(Value::as_bool).unwrap_or(false) {
        return out.err(&format!("error: deployments.apps \"{}\" can't restart paused deployment (run rollout resume first)", name));
    }
    // time.Now().Format(time.RFC3339): whole seconds (the cluster's clock is in UTC)
    let at = time::rfc3339(cluster.now());
    let key = "kubectl.kubernetes.io/restartedAt";
    if meta::get_str(d, &["spec", "template", "metadata", "annotations", key]) == at {
        return out.err(&format!(
            "error: failed to create patch for {}: if restart has already been triggered within the past second, please wait before attempting to trigger another",
            name
        ));
    }
    rollout_patch(cluster, ns, &name, json!({"spec": {"template": {"metadata": {"annotations": {key: at}}}}}), "restarted", out);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn deploy(generation: i64, observed: i64, spec: i64, status: Value) -> Value {
        let mut s = status;
        s["observedGeneration"] = json!(observed);
        json!({"metadata": {"name": "web", "generation": generation}, "spec": {"replicas": spec}, "status": s})
    }

    /// `TestDeploymentStatusViewerStatus` (rollout_status_test.go), the cases it names.
    #[test]
    fn deployment_status_viewer_table() {
        let cases: Vec<(&str, Value, Result<(&str, bool), &str>)> = vec![
            ("updated < spec", deploy(0, 1, 1, json!({"replicas": 1, "updatedReplicas": 0, "availableReplicas": 1})), Ok(("Waiting for deployment \"web\" rollout to finish: 0 out of 1 new replicas have been updated...", false))),
            ("old pending termination", deploy(1, 1, 1, json!({"replicas": 2, "updatedReplicas": 1, "availableReplicas": 2})), Ok(("Waiting for deployment \"web\" rollout to finish: 1 old replicas are pending termination...", false))),
            ("updated not available", deploy(1, 1, 2, json!({"replicas": 2, "updatedReplicas": 2, "availableReplicas": 1})), Ok(("Waiting for deployment \"web\" rollout to finish: 1 of 2 updated replicas are available...", false))),
            ("done", deploy(1, 1, 2, json!({"replicas": 2, "updatedReplicas": 2, "availableReplicas": 2})), Ok(("deployment \"web\" successfully rolled out", true))),
            ("spec not observed", deploy(2, 1, 2, json!({"replicas": 2, "updatedReplicas": 2, "availableReplicas": 2})), Ok(("Waiting for deployment spec update to be observed...", false))),
            (
                "deadline exceeded",
                deploy(1, 1, 2, json!({"replicas": 2, "updatedReplicas": 1, "conditions": [{"type": "Progressing", "status": "False", "reason": "ProgressDeadlineExceeded"}]})),
                Err("deployment \"web\" exceeded its progress deadline"),
            ),
        ];
        for (name, d, want) in cases {
            let got = deployment_status(&d, 0);
            match (want, got) {
                (Ok((line, done)), Ok((l, dn))) => assert_eq!((line, done), (l.as_str(), dn), "{}", name),
                (Err(w), Err(e)) => assert_eq!(w, e, "{}", name),
                (w, g) => panic!("{}: want {:?}, got {:?}", name, w, g),
            }
        }
        let mut d = deploy(1, 1, 1, json!({}));
        d["metadata"]["annotations"] = json!({REVISION_ANNOTATION: "2"});
        assert_eq!(deployment_status(&d, 3), Err("desired revision (3) is different from the running revision (2)".into()));
    }

    /// `deploymentRevision`: the previous revision by default, an exact one with --to-revision.
    #[test]
    fn deployment_revision_table() {
        let rs = |n: &str, rev: &str| json!({"metadata": {"name": n, "annotations": {REVISION_ANNOTATION: rev}}});
        let rss = vec![rs("a", "1"), rs("c", "3"), rs("b", "2")];
        let name = |r: Result<Value, String>| r.map(|v| meta::name(&v).to_string());
        assert_eq!(name(deployment_revision(&rss, "web", 0)), Ok("b".into()));
        assert_eq!(name(deployment_revision(&rss, "web", 1)), Ok("a".into()));
        assert_eq!(name(deployment_revision(&rss, "web", 7)), Err("unable to find specified revision 7 in history".into()));
        assert_eq!(name(deployment_revision(&rss[..1], "web", 0)), Err("no rollout history found for deployment \"web\"".into()));
    }
}
