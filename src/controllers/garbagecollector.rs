//! The garbage collector (`generic-garbage-collector` in kube-controller-manager).
//!
//! Real counterpart: `pkg/controller/garbagecollector/` — `graph_builder.go` (the owner/dependent
//! graph built from metadata informers of every resource), `garbagecollector.go`
//! (`attemptToDeleteItem`, `orphanDependents`, `processDeletingDependentsItem`).
//!
//! Deleting an owner removes what it owns, following `metadata.ownerReferences`:
//! - **Background** (the default): the owner is gone at once; the collector then deletes every
//!   dependent whose owners are all gone.
//! - **Foreground**: the owner stays with `deletionTimestamp` and the `foregroundDeletion`
//!   finalizer; the collector deletes its dependents (in the foreground as well) and removes the
//!   finalizer when none is left.
//! - **Orphan**: the `orphan` finalizer; the collector removes the owner reference from each
//!   dependent, then the finalizer.
//!
//! The graph builder monitors the built-in kinds of `TRACKED` (the workloads, their Pods, claims,
//! revisions and Services) and, as upstream's monitors follow discovery, the custom resources of
//! every Established CRD (a custom resource may own built-in objects: an operator's Deployment).
//!
//! What kubesim simplifies: the other built-in kinds are not tracked; no virtual nodes; a CRD's
//! resource is monitored from the moment the collector sees it Established (upstream resyncs its
//! monitors with discovery every 30 s).

use crate::api::meta::Resource;
use crate::api::request::EventType;
use crate::api::meta;
use crate::api::request::{Identity, Method};
use crate::client::Store;
use crate::cluster::{self, Component};

/// The garbage collector sets no timers: it works from watch events alone.
type Ctx<'a> = cluster::Ctx<'a, std::convert::Infallible>;
type Input = cluster::Input<std::convert::Infallible>;
use crate::controllers::deployment::controller_identity;
use crate::trace::Actor;
use serde_json::{json, Value};

#[derive(Default)]
pub struct GarbageCollector {
    stores: [Store; TRACKED.len()],
    /// The CRDs (to monitor their custom resources once Established).
    crds: Store,
    /// The monitored custom resources, each with its store.
    custom: Vec<(&'static meta::ResourceInfo, Store)>,
}

const TRACKED: [Resource; 11] = [Resource::Deployments, Resource::ReplicaSets, Resource::ReplicationControllers, Resource::DaemonSets, Resource::StatefulSets, Resource::PersistentVolumeClaims, Resource::ControllerRevisions, Resource::CronJobs, Resource::Jobs, Resource::Pods, Resource::Services];

fn finalizers(o: &Value) -> Vec<String> {
    meta::get(o, &["metadata", "finalizers"])
        .and_then(|f| f.as_array())
        .map(|a| a.iter().filter_map(|x| x.as_str().map(String::from)).collect())
        .unwrap_or_default()
}

fn owner_uids(o: &Value) -> Vec<String> {
    meta::get(o, &["metadata", "ownerReferences"])
        .and_then(|r| r.as_array())
        .map(|a| a.iter().map(|r| meta::get_str(r, &["uid"]).to_string()).collect())
        .unwrap_or_default()
}

impl GarbageCollector {
    /// The object's path (the REST mapping of its apiVersion and kind).
    fn path_of(&self, o: &Value) -> String {
        let api_version = meta::get_str(o, &["apiVersion"]);
        let info = meta::RESOURCES
            .iter()
            .find(|r| r.kind == meta::kind(o) && (api_version.is_empty() || r.api_version() == api_version))
            .or_else(|| self.custom.iter().map(|(i, _)| *i).find(|i| i.kind == meta::kind(o) && i.group == api_version.split('/').next().unwrap_or("")))
            .copied()
            .unwrap_or(meta::RESOURCES[2]);
        info.object_path(meta::namespace(o), meta::name(o))
    }

    fn all(&self) -> impl Iterator<Item = &Value> {
        self.stores.iter().flat_map(|s| s.values()).chain(self.custom.iter().flat_map(|(_, s)| s.values()))
    }

    /// Monitors the custom resource of each Established CRD not yet monitored.
    fn sync_monitors(&mut self, ctx: &mut Ctx) {
        let infos: Vec<&'static meta::ResourceInfo> = self
            .crds
            .values()
            .filter(|c| !meta::is_deleting(c))
            .map(|c| crate::apiextensions::Crd::of(c))
            .filter(|c| c.established)
            .filter_map(|c| c.preferred().and_then(|v| v.info))
            .collect();
        for info in infos {
            if self.custom.iter().any(|(i, _)| i.group == info.group && i.resource == info.resource) {
                continue;
            }
            let mut store = Store::default();
            store.replace(ctx.list_and_watch(info, "", "", ""));
            self.custom.push((info, store));
        }
    }

    fn exists_uid(&self, uid: &str) -> bool {
        self.all().any(|o| meta::uid(o) == uid)
    }

    fn dependents_of(&self, uid: &str) -> Vec<Value> {
        self.all().filter(|o| owner_uids(o).iter().any(|u| u == uid)).cloned().collect()
    }

    /// Examine an owner that is being deleted (foreground / orphan), or dependents of a gone owner.
    fn process(&mut self, ctx: &mut Ctx, obj: &Value, deleted: bool) {
        let uid = meta::uid(obj).to_string();
        if deleted {
            // attemptToDeleteItem for each dependent: delete it if none of its owners exists
            for dep in self.dependents_of(&uid) {
                if meta::is_deleting(&dep) {
                    continue;
                }
                if owner_uids(&dep).iter().all(|u| !self.exists_uid(u)) {
                    ctx.request(Method::Delete, &self.path_of(&dep), Some(json!({"kind": "DeleteOptions", "apiVersion": "v1", "propagationPolicy": "Background"})));
                }
            }
            // an owner waiting in the foreground for this dependent may now be finished
            for owner in owner_uids(obj) {
                let found = self.all().find(|x| meta::uid(x) == owner).cloned();
                if let Some(o) = found {
                    self.process(ctx, &o, false);
                }
            }
            return;
        }
        if !meta::is_deleting(obj) {
            return;
        }
        let fins = finalizers(obj);
        if fins.iter().any(|f| f == "orphan") {
            for dep in self.dependents_of(&uid) {
                let refs: Vec<Value> = meta::get(&dep, &["metadata", "ownerReferences"])
                    .and_then(|r| r.as_array())
                    .map(|a| a.iter().filter(|r| meta::get_str(r, &["uid"]) != uid).cloned().collect())
                    .unwrap_or_default();
                let body = if refs.is_empty() { json!({"metadata": {"ownerReferences": null}}) } else { json!({"metadata": {"ownerReferences": refs}}) };
                ctx.merge_patch(&self.path_of(&dep), body);
            }
            self.remove_finalizer(ctx, obj, "orphan");
        } else if fins.iter().any(|f| f == "foregroundDeletion") {
            let deps = self.dependents_of(&uid);
            if deps.is_empty() {
                self.remove_finalizer(ctx, obj, "foregroundDeletion");
                return;
            }
            for dep in deps {
                if !meta::is_deleting(&dep) {
                    ctx.request(Method::Delete, &self.path_of(&dep), Some(json!({"kind": "DeleteOptions", "apiVersion": "v1", "propagationPolicy": "Foreground"})));
                }
            }
        }
    }

    fn remove_finalizer(&mut self, ctx: &mut Ctx, obj: &Value, f: &str) {
        let rest: Vec<String> = finalizers(obj).into_iter().filter(|x| x != f).collect();
        let body = if rest.is_empty() { json!({"metadata": {"finalizers": null}}) } else { json!({"metadata": {"finalizers": rest}}) };
        ctx.merge_patch(&self.path_of(obj), body);
    }
}

impl Component for GarbageCollector {
    type Timer = std::convert::Infallible;

    fn restarted(&self) -> Option<Self> {
        Some(Self::default())
    }

    fn actor(&self) -> Actor {
        Actor::GarbageCollector
    }

    fn identity(&self) -> Identity {
        controller_identity("generic-garbage-collector", "generic-garbage-collector")
    }

    fn start(&mut self, ctx: &mut Ctx) {
        for (i, r) in TRACKED.iter().enumerate() {
            let items = ctx.list_and_watch(r.info(), "", "", "");
            self.stores[i].replace(items);
        }
        let crds = ctx.list_and_watch(Resource::CustomResourceDefinitions.info(), "", "", "");
        self.crds.replace(crds);
        self.sync_monitors(ctx);
    }

    fn handle(&mut self, ctx: &mut Ctx, input: Input) {
        let (resource, event_type, object) = match input {
            Input::Watch { resource, event_type, object } => (resource, event_type, object),
            Input::Timer(never) => match never {},
        };
        if resource == Resource::CustomResourceDefinitions {
            self.crds.apply_shared(event_type, object);
            self.sync_monitors(ctx);
            return;
        }
        if let Some(i) = TRACKED.iter().position(|r| *r == resource) {
            self.stores[i].apply_shared(event_type, object.clone());
        } else if let Some((_, store)) = self.custom.iter_mut().find(|(i, _)| i.id == resource) {
            store.apply_shared(event_type, object.clone());
        } else {
            return;
        }
        self.process(ctx, &object, event_type == EventType::Deleted);
    }
}
