//! apiextensions-apiserver's controllers, inside kube-apiserver: they watch CRDs through the
//! loopback client and write their status.
//!
//! Real counterparts: `pkg/controller/status/naming_controller.go` (`calculateNamesAndConditions`:
//! each name accepted when no other CRD of the group has accepted it; `NamesAccepted` and, until
//! established, `Established=False Installing`, in one `UpdateStatus`),
//! `pkg/controller/establish/establishing_controller.go` (`Established=True
//! InitialNamesAccepted`, queued when a CRD's names are accepted — at once on a single API
//! server), and `pkg/controller/finalizer/crd_finalizer.go` (a deleted CRD: `Terminating`
//! `InstanceDeletionInProgress`, its custom resources deleted namespace by namespace, then polled
//! every 5 s for up to a minute; `InstanceDeletionCompleted` or `NeverEstablished`, and the
//! `customresourcecleanup.apiextensions.k8s.io` finalizer removed, which lets the CRD go).
//!
//! What kubesim simplifies: one component runs the three loops (upstream: three queues);
//! `KubernetesAPIApprovalPolicyConformant` and `NonStructuralSchema` are not kept.

use crate::api::meta::{self, Resource};
use crate::api::request::{Identity, Method, Request};
use crate::client::Store;
use crate::cluster::{self, Component};
use crate::trace::Actor;
use serde_json::{json, Value};

/// The finalizer a deleted CRD carries until its custom resources are gone.
pub const CLEANUP_FINALIZER: &str = "customresourcecleanup.apiextensions.k8s.io";

/// The finalizer's poll of the remaining custom resources (`wait.PollImmediate(5s, 1m)`).
const POLL_MS: i64 = 5_000;
const POLL_TRIES: u32 = 12;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Timer {
    /// The finalizer looks again whether a CRD's custom resources are gone (the try count).
    Poll(String, u32),
}

impl std::fmt::Display for Timer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Timer::Poll(name, _) => write!(f, "crd-finalizer {}", name),
        }
    }
}

/// The three controllers' shared informer.
#[derive(Default)]
pub struct ApiExtensionsControllers {
    crds: Store,
}

type Ctx<'a> = cluster::Ctx<'a, Timer>;

fn condition(obj: &Value, t: &str) -> Option<Value> {
    meta::get_array(obj, &["status", "conditions"]).iter().find(|c| meta::get_str(c, &["type"]) == t).cloned()
}

fn is_true(obj: &Value, t: &str) -> bool {
    condition(obj, t).map(|c| meta::get_str(&c, &["status"]) == "True").unwrap_or(false)
}

/// `SetCRDCondition`: a condition's `lastTransitionTime` changes only with its status; a new type
/// is appended.
fn set_condition(obj: &mut Value, t: &str, status: &str, reason: &str, message: &str, now: i64) {
    let old = condition(obj, t);
    let since = match &old {
        Some(c) if meta::get_str(c, &["status"]) == status => c.get("lastTransitionTime").cloned().unwrap_or(Value::Null),
        _ => json!(crate::api::time::rfc3339(now)),
    };
    let c = json!({"type": t, "status": status, "lastTransitionTime": since, "reason": reason, "message": message});
    let conds = meta::entry(obj, &["status", "conditions"]);
    if !conds.is_array() {
        *conds = json!([]);
    }
    if let Some(list) = conds.as_array_mut() {
        match list.iter_mut().find(|x| meta::get_str(x, &["type"]) == t) {
            Some(x) => *x = c,
            None => list.push(c),
        }
    }
}

impl ApiExtensionsControllers {
    fn status_path(name: &str) -> String {
        format!("{}/status", Resource::CustomResourceDefinitions.info().object_path("", name))
    }

    /// The naming controller's `calculateNamesAndConditions` against the other CRDs of the group.
    fn names(&self, crd: &Value) -> (Value, Value, Value) {
        let group = meta::get_str(crd, &["spec", "group"]);
        let me = meta::name(crd);
        let others: Vec<&Value> = self.crds.values().filter(|o| meta::name(o) != me && meta::get_str(o, &["spec", "group"]) == group).collect();
        let used = |field: &str, v: &str| -> bool {
            others.iter().any(|o| {
                let a = |k: &str| meta::get_str(o, &["status", "acceptedNames", k]).to_string();
                match field {
                    // resource names and short names share one namespace; kinds another
                    "plural" | "singular" | "shortNames" => a("plural") == v || a("singular") == v || meta::get_array(o, &["status", "acceptedNames", "shortNames"]).iter().any(|s| s.as_str() == Some(v)),
                    _ => a("kind") == v || a("listKind") == v,
                }
            })
        };
        let spec_names = meta::get(crd, &["spec", "names"]).cloned().unwrap_or(json!({}));
        let old = meta::get(crd, &["status", "acceptedNames"]).cloned().unwrap_or(json!({}));
        let mut accepted = json!({});
        let mut conflict: Option<(&str, String)> = None;
        for (field, reason) in [("plural", "PluralConflict"), ("singular", "SingularConflict"), ("kind", "KindConflict"), ("listKind", "ListKindConflict")] {
            let want = meta::get_str(&spec_names, &[field]);
            if want.is_empty() {
                continue;
            }
            if meta::get_str(&old, &[field]) == want || !used(field, want) {
                accepted[field] = json!(want);
            } else {
                if let Some(v) = old.get(field) {
                    accepted[field] = v.clone();
                }
                if conflict.is_none() {
                    conflict = Some((reason, format!("{:?} is already in use", want)));
                }
            }
        }
        let shorts: Vec<&str> = meta::get_array(&spec_names, &["shortNames"]).iter().filter_map(Value::as_str).collect();
        if !shorts.is_empty() {
            let taken: Vec<&&str> = shorts.iter().filter(|s| !meta::get_array(&old, &["shortNames"]).iter().any(|o| o.as_str() == Some(s)) && used("shortNames", s)).collect();
            if taken.is_empty() {
                accepted["shortNames"] = json!(shorts);
            } else {
                if let Some(v) = old.get("shortNames") {
                    accepted["shortNames"] = v.clone();
                }
                if conflict.is_none() {
                    conflict = Some(("ShortNamesConflict", format!("{:?} is already in use", taken[0])));
                }
            }
        }
        if let Some(c) = spec_names.get("categories") {
            accepted["categories"] = c.clone();
        }
        let names_cond = match &conflict {
            None => json!(["True", "NoConflicts", "no conflicts found"]),
            Some((reason, msg)) => json!(["False", reason, msg]),
        };
        let established = if conflict.is_none() { json!(["False", "Installing", "the initial names have been accepted"]) } else { json!(["False", "NotAccepted", "not all names are accepted"]) };
        (accepted, names_cond, established)
    }

    fn sync(&mut self, ctx: &mut Ctx, name: &str) {
        let Some(crd) = self.crds.get(name).map(|v| Value::clone(v)) else { return };
        if meta::is_deleting(&crd) {
            if meta::get_array(&crd, &["metadata", "finalizers"]).iter().any(|f| f.as_str() == Some(CLEANUP_FINALIZER)) {
                self.finalize(ctx, crd, 0);
            }
            return;
        }
        // the naming controller: spec.names not yet (all) accepted
        let accepted_now = meta::get(&crd, &["status", "acceptedNames"]);
        if condition(&crd, "NamesAccepted").is_none() || accepted_now != meta::get(&crd, &["spec", "names"]) {
            let (accepted, names_cond, est) = self.names(&crd);
            let mut obj = crd.clone();
            obj["status"]["acceptedNames"] = accepted;
            let s = |v: &Value, i: usize| v[i].as_str().unwrap_or("").to_string();
            set_condition(&mut obj, "NamesAccepted", &s(&names_cond, 0), &s(&names_cond, 1), &s(&names_cond, 2), ctx.now);
            if !is_true(&crd, "Established") {
                set_condition(&mut obj, "Established", &s(&est, 0), &s(&est, 1), &s(&est, 2), ctx.now);
            }
            if obj != crd {
                ctx.request_with(Request::new(Method::Put, &Self::status_path(name), Some(obj)));
                return;
            }
        }
        // the establishing controller
        if is_true(&crd, "NamesAccepted") && !is_true(&crd, "Established") {
            let mut obj = crd.clone();
            set_condition(&mut obj, "Established", "True", "InitialNamesAccepted", "the initial names have been accepted", ctx.now);
            ctx.request_with(Request::new(Method::Put, &Self::status_path(name), Some(obj)));
        }
    }

    /// The finalizer's `sync` for a CRD being deleted (`tries`: polls so far).
    fn finalize(&mut self, ctx: &mut Ctx, crd: Value, tries: u32) {
        let name = meta::name(&crd).to_string();
        let mut obj = crd.clone();
        if tries == 0 {
            set_condition(&mut obj, "Terminating", "True", "InstanceDeletionInProgress", "CustomResource deletion is in progress", ctx.now);
            let resp = ctx.request_with(Request::new(Method::Put, &Self::status_path(&name), Some(obj.clone())));
            if !resp.ok() {
                return;
            }
            obj = resp.body;
        }
        if is_true(&crd, "Established") {
            let crd_state = super::Crd::of(&crd);
            let Some(info) = crd_state.preferred().and_then(|v| v.info) else { return };
            let list = ctx.request_with(Request::new(Method::Get, &info.collection_path(""), None));
            let items = meta::get_array(&list.body, &["items"]).to_vec();
            if tries == 0 {
                // DeleteCollection in each namespace that has some
                let mut namespaces: Vec<String> = items.iter().map(|i| meta::namespace(i).to_string()).collect();
                namespaces.dedup();
                for ns in namespaces {
                    ctx.request_with(Request::new(Method::Delete, &info.collection_path(&ns), None));
                }
            }
            let left = if tries == 0 { meta::get_array(&ctx.request_with(Request::new(Method::Get, &info.collection_path(""), None)).body, &["items"]).len() } else { items.len() };
            if left > 0 {
                if tries + 1 < POLL_TRIES {
                    ctx.after(POLL_MS, Timer::Poll(name, tries + 1), false);
                } else {
                    set_condition(&mut obj, "Terminating", "True", "InstanceDeletionCheck", "could not confirm zero CustomResources remaining: timed out waiting for the condition", ctx.now);
                    ctx.request_with(Request::new(Method::Put, &Self::status_path(&name), Some(obj)));
                }
                return;
            }
            set_condition(&mut obj, "Terminating", "False", "InstanceDeletionCompleted", "removed all instances", ctx.now);
        } else {
            set_condition(&mut obj, "Terminating", "False", "NeverEstablished", "resource was never established", ctx.now);
        }
        if let Some(f) = obj.pointer_mut("/metadata/finalizers").and_then(Value::as_array_mut) {
            f.retain(|x| x.as_str() != Some(CLEANUP_FINALIZER));
        }
        ctx.request_with(Request::new(Method::Put, &Self::status_path(&name), Some(obj)));
    }
}

impl Component for ApiExtensionsControllers {
    type Timer = Timer;

    fn actor(&self) -> Actor {
        Actor::ApiExtensionsControllers
    }

    fn identity(&self) -> Identity {
        cluster::apiserver_identity()
    }

    fn restarted(&self) -> Option<Self> {
        Some(Self::default())
    }

    fn start(&mut self, ctx: &mut Ctx) {
        let items = ctx.list_and_watch(Resource::CustomResourceDefinitions.info(), "", "", "");
        self.crds.replace(items);
        let names: Vec<String> = self.crds.values().map(|c| meta::name(c).to_string()).collect();
        for n in names {
            self.sync(ctx, &n);
        }
    }

    fn handle(&mut self, ctx: &mut Ctx, input: cluster::Input<Timer>) {
        match input {
            cluster::Input::Watch { resource: Resource::CustomResourceDefinitions, event_type, object } => {
                let name = meta::name(&object).to_string();
                self.crds.apply_shared(event_type, object);
                if event_type != crate::api::request::EventType::Deleted {
                    self.sync(ctx, &name);
                }
            }
            cluster::Input::Watch { .. } => {}
            cluster::Input::Timer(Timer::Poll(name, tries)) => {
                if let Some(crd) = self.crds.get(&name).map(|v| Value::clone(v)) {
                    self.finalize(ctx, crd, tries);
                }
            }
        }
    }
}
