//! The requests a StatefulSet sync makes for one Pod, and their events.
//!
//! Real counterpart: `pkg/controller/statefulset/stateful_pod_control.go` (`CreateStatefulPod`,
//! `createPersistentVolumeClaims`, `createMissingPersistentVolumeClaims`, `DeleteStatefulPod`,
//! `PodClaimIsStale`, `UpdatePodClaimForRetentionPolicy`, `recordPodEvent`,
//! `recordClaimEvent`) and `stateful_set_utils.go`'s `updateClaimOwnerRefForSetAndPod`.
//!
//! Every event is recorded on the StatefulSet: `create Claim data-web-0 Pod web-0 in
//! StatefulSet web success`, then `create Pod web-0 in StatefulSet web successful`.

use super::utils::*;
use super::{Ctx, StatefulSetController};
use crate::api::meta;
use crate::api::request::{EventType, Method};
use serde_json::{json, Value};

fn title(verb: &str) -> String {
    let mut c = verb.chars();
    match c.next() {
        Some(f) => f.to_ascii_uppercase().to_string() + c.as_str(),
        None => String::new(),
    }
}

impl StatefulSetController {
    /// `recordPodEvent`.
    fn record_pod_event(&mut self, ctx: &mut Ctx, verb: &str, set: &Value, pod: &str, err: Option<&str>) {
        match err {
            None => {
                let msg = format!("{} Pod {} in StatefulSet {} successful", verb, pod, meta::name(set));
                self.recorder.event(ctx, set, None, "Normal", &format!("Successful{}", title(verb)), &msg);
            }
            Some(e) => {
                let msg = format!("{} Pod {} in StatefulSet {} failed error: {}", verb, pod, meta::name(set), e);
                self.recorder.event(ctx, set, None, "Warning", &format!("Failed{}", title(verb)), &msg);
            }
        }
    }

    /// `recordClaimEvent`.
    fn record_claim_event(&mut self, ctx: &mut Ctx, verb: &str, set: &Value, pod: &str, claim: &str, err: Option<&str>) {
        match err {
            None => {
                let msg = format!("{} Claim {} Pod {} in StatefulSet {} success", verb, claim, pod, meta::name(set));
                self.recorder.event(ctx, set, None, "Normal", &format!("Successful{}", title(verb)), &msg);
            }
            Some(e) => {
                let msg = format!("{} Claim {} for Pod {} in StatefulSet {} failed error: {}", verb, claim, pod, meta::name(set), e);
                self.recorder.event(ctx, set, None, "Warning", &format!("Failed{}", title(verb)), &msg);
            }
        }
    }

    /// `createPersistentVolumeClaims`: each claim of the Pod that the informer does not have is
    /// created; one being deleted is an error (the Pod waits).
    pub(super) fn create_persistent_volume_claims(&mut self, ctx: &mut Ctx, set: &Value, pod: &Value) -> Result<(), String> {
        let mut errs = Vec::new();
        let pod_name = meta::name(pod).to_string();
        for (_, claim) in persistent_volume_claims(set, ordinal(pod)) {
            let key = meta::key(&claim);
            match self.claims.get(&key) {
                None => {
                    let path = format!("/api/v1/namespaces/{}/persistentvolumeclaims", meta::namespace(&claim));
                    let resp = ctx.request(Method::Post, &path, Some(claim.clone()));
                    if resp.ok() {
                        self.claims.apply(EventType::Added, &resp.body);
                        self.record_claim_event(ctx, "create", set, &pod_name, meta::name(&claim), None);
                    } else {
                        let e = format!("failed to create PVC {}: {}", meta::name(&claim), resp.message());
                        if resp.code != 409 {
                            self.record_claim_event(ctx, "create", set, &pod_name, meta::name(&claim), Some(resp.message()));
                        }
                        errs.push(e);
                    }
                }
                Some(c) if meta::is_deleting(c) => errs.push(format!("pvc {} is being deleted", meta::name(c))),
                Some(_) => {}
            }
        }
        match errs.len() {
            0 => Ok(()),
            1 => Err(errs.remove(0)),
            _ => Err(format!("[{}]", errs.join(", "))),
        }
    }

    /// `CreateStatefulPod`: the claims first, then the Pod, then the claims' owner references.
    pub(super) fn create_stateful_pod(&mut self, ctx: &mut Ctx, set: &Value, update_set: &Value, pod: &Value) -> Result<(), String> {
        let name = meta::name(pod).to_string();
        if let Err(e) = self.create_persistent_volume_claims(ctx, set, pod) {
            self.record_pod_event(ctx, "create", set, &name, Some(&e));
            return Err(e);
        }
        let path = format!("/api/v1/namespaces/{}/pods", meta::namespace(set));
        let resp = ctx.request(Method::Post, &path, Some(pod.clone()));
        if resp.code == 409 {
            return Err(resp.message().to_string());
        }
        if resp.ok() {
            if let Err(e) = self.update_pod_claim_for_retention_policy(ctx, update_set, &resp.body, false) {
                self.record_pod_event(ctx, "update", set, &name, Some(&e));
                return Err(e);
            }
            self.record_pod_event(ctx, "create", set, &name, None);
            Ok(())
        } else {
            self.record_pod_event(ctx, "create", set, &name, Some(resp.message()));
            Err(resp.message().to_string())
        }
    }

    /// `DeleteStatefulPod`.
    pub(super) fn delete_stateful_pod(&mut self, ctx: &mut Ctx, set: &Value, pod: &Value) -> Result<(), String> {
        let path = format!("/api/v1/namespaces/{}/pods/{}", meta::namespace(pod), meta::name(pod));
        let resp = ctx.request(Method::Delete, &path, None);
        let name = meta::name(pod).to_string();
        if resp.ok() {
            self.record_pod_event(ctx, "delete", set, &name, None);
            Ok(())
        } else {
            self.record_pod_event(ctx, "delete", set, &name, Some(resp.message()));
            Err(resp.message().to_string())
        }
    }

    /// `PodClaimIsStale`: a claim of this ordinal still belongs to an earlier Pod of the same
    /// name (whenScaled: Delete) — it is about to go, so the new Pod waits.
    pub(super) fn pod_claim_is_stale(&self, set: &Value, pod: &Value) -> bool {
        persistent_volume_claims(set, ordinal(pod)).iter().any(|(_, c)| {
            self.claims.get(&meta::key(c)).map_or(false, |claim| {
                meta::get_array(claim, &["metadata", "ownerReferences"])
                    .iter()
                    .any(|r| meta::get_str(r, &["kind"]) == "Pod" && meta::get_str(r, &["name"]) == meta::name(pod) && meta::get_str(r, &["uid"]) != meta::uid(pod))
            })
        })
    }

    /// `UpdatePodClaimForRetentionPolicy` (`updateClaimOwnerRefForSetAndPod`): with
    /// `whenDeleted: Delete` a claim is owned by the StatefulSet (the garbage collector deletes
    /// it with the set); with `whenScaled: Delete` the claim of a condemned Pod is owned by that
    /// Pod (it goes when the Pod goes). `Retain` removes those references.
    pub(super) fn update_pod_claim_for_retention_policy(&mut self, ctx: &mut Ctx, set: &Value, pod: &Value, condemned: bool) -> Result<(), String> {
        let when_deleted = meta::get_str(set, &["spec", "persistentVolumeClaimRetentionPolicy", "whenDeleted"]) == "Delete";
        let when_scaled = meta::get_str(set, &["spec", "persistentVolumeClaimRetentionPolicy", "whenScaled"]) == "Delete";
        let (want_set, want_pod) = match (when_deleted, when_scaled) {
            (false, false) => (false, false),
            (true, false) => (true, false),
            (false, true) => (false, condemned),
            (true, true) => (!condemned, condemned),
        };
        for (_, c) in persistent_volume_claims(set, ordinal(pod)) {
            let Some(claim) = self.claims.get(&meta::key(&c)).cloned() else { continue };
            let refs = meta::get_array(&claim, &["metadata", "ownerReferences"]).to_vec();
            // another controller owns it: leave it alone
            if refs.iter().any(|r| meta::get_bool(r, &["controller"]) && meta::get_str(r, &["uid"]) != meta::uid(set) && meta::get_str(r, &["uid"]) != meta::uid(pod)) {
                continue;
            }
            let mut new_refs: Vec<Value> = refs.iter().filter(|r| meta::get_str(r, &["uid"]) != meta::uid(set) && meta::get_str(r, &["uid"]) != meta::uid(pod)).cloned().collect();
            if want_set {
                new_refs.push(meta::new_controller_ref(set, "apps/v1", "StatefulSet"));
            }
            if want_pod {
                new_refs.push(meta::new_controller_ref(pod, "v1", "Pod"));
            }
            if new_refs == refs {
                continue;
            }
            let mut updated = claim.clone();
            if new_refs.is_empty() {
                meta::remove(&mut updated, &["metadata", "ownerReferences"]);
            } else {
                updated["metadata"]["ownerReferences"] = json!(new_refs);
            }
            let path = format!("/api/v1/namespaces/{}/persistentvolumeclaims/{}", meta::namespace(&claim), meta::name(&claim));
            let resp = ctx.request(Method::Put, &path, Some(updated));
            if !resp.ok() {
                return Err(resp.message().to_string());
            }
            self.claims.apply(EventType::Modified, &resp.body);
        }
        Ok(())
    }
}
