//! `pkg/controller/deployment/sync.go`: finding or creating the new ReplicaSet
//! (`getNewReplicaSet`, `getAllReplicaSetsAndSyncRevision`), scaling events and proportional
//! scaling (`isScalingEvent`, `sync`, `scale`, `scaleReplicaSet`), status (`syncDeploymentStatus`)
//! and `cleanupDeployment`.

use super::*;

impl DeploymentController {
    pub(super) fn update_status(&mut self, ctx: &mut Ctx, d: &Value) -> Option<Value> {
        let path = format!("/apis/apps/v1/namespaces/{}/deployments/{}/status", meta::namespace(d), meta::name(d));
        let resp = ctx.request(Method::Put, &path, Some(d.clone()));
        if resp.ok() {
            self.deployments.apply(EventType::Modified, &resp.body);
            Some(resp.body)
        } else {
            None
        }
    }


    /// `isScalingEvent`: an active ReplicaSet's desired-replicas annotation differs from
    /// `spec.replicas` (a scale, possibly together with a template change).
    pub(super) fn is_scaling_event(&self, d: &Value, rs_list: &[Value]) -> bool {
        let replicas = du::spec_replicas(d);
        du::filter_active_replica_sets(rs_list).iter().any(|rs| du::get_desired_replicas_annotation(rs).map(|v| v != replicas).unwrap_or(false))
    }

    /// `getAllReplicaSetsAndSyncRevision`.
    pub(super) fn get_all_replica_sets_and_sync_revision(&mut self, ctx: &mut Ctx, d: &mut Value, rs_list: &[Value], create: bool) -> SyncResult<(Option<Value>, Vec<Value>)> {
        let mut list = rs_list.to_vec();
        let (_, all_old) = du::find_old_replica_sets(d, &mut list);
        let new_rs = self.get_new_replica_set(ctx, d, rs_list, &all_old, create)?;
        Ok((new_rs, all_old))
    }

    /// `getNewReplicaSet`: find the ReplicaSet whose template matches, or create it.
    pub(super) fn get_new_replica_set(&mut self, ctx: &mut Ctx, d: &mut Value, rs_list: &[Value], old_rss: &[Value], create: bool) -> SyncResult<Option<Value>> {
        let ns = meta::namespace(d).to_string();
        let mut list = rs_list.to_vec();
        let existing = du::find_new_replica_set(d, &mut list);
        let new_revision = (du::max_revision(old_rss) + 1).to_string();
        let now = time::rfc3339(ctx.now);
        if let Some(existing) = existing {
            let mut rs_copy = existing.clone();
            let annotations_updated = du::set_new_replica_set_annotations(d, &mut rs_copy, &new_revision, true, du::MAX_REV_HISTORY_LENGTH_IN_CHARS);
            let min_ready = meta::get(d, &["spec", "minReadySeconds"]).cloned();
            let min_ready_changed = meta::get(&rs_copy, &["spec", "minReadySeconds"]).cloned() != min_ready;
            if annotations_updated || min_ready_changed {
                match min_ready {
                    Some(m) => meta::set(&mut rs_copy, &["spec", "minReadySeconds"], m),
                    None => {
                        meta::remove(&mut rs_copy, &["spec", "minReadySeconds"]);
                    }
                }
                // upstream returns the updated ReplicaSet at once: the Deployment's own revision
                // annotation follows on the next sync
                let resp = ctx.request(Method::Put, &rs_path(&ns, meta::name(&rs_copy)), Some(rs_copy.clone()));
                if !resp.ok() {
                    return Err(SyncError);
                }
                self.replica_sets.apply(EventType::Modified, &resp.body);
                return Ok(Some(resp.body));
            }
            let rev = meta::annotation(&rs_copy, du::REVISION_ANNOTATION).unwrap_or("").to_string();
            let mut needs_update = du::set_deployment_revision(d, &rev);
            let has_cond = du::get_deployment_condition(d.get("status").unwrap_or(&json!({})), du::DEPLOYMENT_PROGRESSING).is_some();
            if du::has_progress_deadline(d) && !has_cond {
                let msg = du::found_new_replica_set_message(meta::name(&rs_copy));
                let cond = du::new_deployment_condition(du::DEPLOYMENT_PROGRESSING, du::CONDITION_TRUE, du::FOUND_NEW_RS_REASON, &msg, &now);
                du::set_deployment_condition(meta::entry(d, &["status"]), cond);
                needs_update = true;
            }
            if needs_update {
                *d = self.update_status(ctx, d).ok_or(SyncError)?;
            }
            return Ok(Some(rs_copy));
        }
        if !create {
            return Ok(None);
        }
        // new ReplicaSet: name = deployment name + "-" + pod-template-hash
        let template = meta::get(d, &["spec", "template"]).cloned().unwrap_or(json!({}));
        let collision = meta::get_i64(d, &["status", "collisionCount"]).map(|c| c as i32);
        let hash = du::compute_hash(&template, collision);
        let mut new_template = template.clone();
        meta::set(&mut new_template, &["metadata", "labels", du::DEFAULT_DEPLOYMENT_UNIQUE_LABEL_KEY], json!(hash));
        let mut selector = meta::get(d, &["spec", "selector"]).cloned().unwrap_or(json!({}));
        meta::set(&mut selector, &["matchLabels", du::DEFAULT_DEPLOYMENT_UNIQUE_LABEL_KEY], json!(hash));
        let name = format!("{}-{}", meta::name(d), hash);
        let mut spec = json!({"replicas": 0, "selector": selector, "template": new_template});
        if let Some(m) = meta::get(d, &["spec", "minReadySeconds"]) {
            spec["minReadySeconds"] = m.clone();
        }
        let mut new_rs = json!({
            "apiVersion": "apps/v1",
            "kind": "ReplicaSet",
            "metadata": {
                "name": name,
                "namespace": ns,
                "ownerReferences": [meta::new_controller_ref(d, "apps/v1", "Deployment")],
                "labels": new_template["metadata"]["labels"].clone(),
            },
            "spec": spec,
        });
        let mut all = old_rss.to_vec();
        all.push(new_rs.clone());
        let new_replicas = du::new_rs_new_replicas(d, &all, &new_rs).unwrap_or(0);
        meta::set(&mut new_rs, &["spec", "replicas"], json!(new_replicas));
        du::set_new_replica_set_annotations(d, &mut new_rs, &new_revision, false, du::MAX_REV_HISTORY_LENGTH_IN_CHARS);
        let resp = ctx.request(Method::Post, &format!("/apis/apps/v1/namespaces/{}/replicasets", ns), Some(new_rs.clone()));
        let mut already_exists = false;
        let created = if resp.ok() {
            self.replica_sets.apply(EventType::Added, &resp.body);
            Some(resp.body)
        } else if resp.reason() == "AlreadyExists" {
            // hash collision handling (sync.go): reuse it if it is ours and equal, else bump collisionCount
            already_exists = true;
            let key = format!("{}/{}", ns, name);
            let found = self.replica_sets.get(&key).cloned();
            match found {
                Some(rs)
                    if meta::controller_of(&rs).map(|o| meta::get_str(o, &["uid"]) == meta::uid(d)).unwrap_or(false)
                        && du::equal_ignore_hash(meta::get(&rs, &["spec", "template"]).unwrap_or(&json!({})), &template) =>
                {
                    Some(rs)
                }
                _ => {
                    let c = meta::get_i64(d, &["status", "collisionCount"]).unwrap_or(0) + 1;
                    meta::set(d, &["status", "collisionCount"], json!(c));
                    self.update_status(ctx, d);
                    return Err(SyncError);
                }
            }
        } else {
            let msg = du::failed_rs_create_message(&name, resp.message());
            self.recorder.event(ctx, d, None, "Warning", du::FAILED_RS_CREATE_REASON, &msg);
            let cond = du::new_deployment_condition(du::DEPLOYMENT_PROGRESSING, du::CONDITION_FALSE, du::FAILED_RS_CREATE_REASON, &msg, &now);
            du::set_deployment_condition(meta::entry(d, &["status"]), cond);
            self.update_status(ctx, d);
            return Err(SyncError);
        };
        let Some(created) = created else { return Err(SyncError) };
        if !already_exists && new_replicas > 0 {
            let msg = format!("Scaled up replica set {} from 0 to {}", name, new_replicas);
            self.recorder.event(ctx, d, None, "Normal", "ScalingReplicaSet", &msg);
        }
        let mut needs_update = du::set_deployment_revision(d, &new_revision);
        if !already_exists && du::has_progress_deadline(d) {
            let msg = du::new_replica_set_created_message(&name);
            let cond = du::new_deployment_condition(du::DEPLOYMENT_PROGRESSING, du::CONDITION_TRUE, du::NEW_REPLICA_SET_REASON, &msg, &now);
            du::set_deployment_condition(meta::entry(d, &["status"]), cond);
            needs_update = true;
        }
        if needs_update {
            *d = self.update_status(ctx, d).ok_or(SyncError)?;
        }
        Ok(Some(created))
    }

    /// `scaleReplicaSetAndRecordEvent`: nothing to do when the size is already right (the
    /// desired-replicas and max-replicas annotations are left as they are, for proportional
    /// scaling to read later).
    pub(super) fn scale_replica_set_and_record_event(&mut self, ctx: &mut Ctx, rs: &Value, new_scale: i32, d: &Value) -> SyncResult<(bool, Value)> {
        if du::spec_replicas(rs) == new_scale {
            return Ok((false, rs.clone()));
        }
        self.scale_replica_set(ctx, rs, new_scale, d)
    }

    /// `scaleReplicaSet`: update the size and the replicas annotations; an event when the size changed.
    pub(super) fn scale_replica_set(&mut self, ctx: &mut Ctx, rs: &Value, new_scale: i32, d: &Value) -> SyncResult<(bool, Value)> {
        let current = du::spec_replicas(rs);
        let size_needs_update = current != new_scale;
        let desired = du::spec_replicas(d);
        let max = desired + du::max_surge(d);
        let annotations_need_update = du::replicas_annotations_need_update(rs, desired, max);
        if !size_needs_update && !annotations_need_update {
            return Ok((false, rs.clone()));
        }
        let mut copy = rs.clone();
        meta::set(&mut copy, &["spec", "replicas"], json!(new_scale));
        du::set_replicas_annotations(&mut copy, desired, max);
        let resp = ctx.request(Method::Put, &rs_path(meta::namespace(rs), meta::name(rs)), Some(copy));
        if !resp.ok() {
            return Err(SyncError);
        }
        self.replica_sets.apply(EventType::Modified, &resp.body);
        if size_needs_update {
            let op = if current < new_scale { "up" } else { "down" };
            let msg = format!("Scaled {} replica set {} from {} to {}", op, meta::name(rs), current, new_scale);
            self.recorder.event(ctx, d, None, "Normal", "ScalingReplicaSet", &msg);
        }
        Ok((size_needs_update, resp.body))
    }

    /// `sync`: reconcile scaling events (and paused deployments), then sync status.
    pub(super) fn sync(&mut self, ctx: &mut Ctx, d: &Value, rs_list: Vec<Value>) -> SyncResult {
        let mut d = d.clone();
        let (new_rs, old_rss) = self.get_all_replica_sets_and_sync_revision(ctx, &mut d, &rs_list, false)?;
        self.scale(ctx, &d, new_rs.as_ref(), &old_rss)?;
        // Clean up the deployment when it's paused (no rollbackTo is ever in flight here).
        if du::is_paused(&d) {
            self.cleanup_deployment(ctx, &old_rss, &d)?;
        }
        let olds: Vec<Value> = old_rss.iter().map(|o| self.replica_sets.get(&meta::key(o)).cloned().unwrap_or_else(|| o.clone())).collect();
        let new_rs = new_rs.map(|n| self.replica_sets.get(&meta::key(&n)).cloned().unwrap_or(n));
        let mut all = olds.clone();
        if let Some(n) = &new_rs {
            all.push(n.clone());
        }
        self.sync_status_only_with(ctx, &d, &all, new_rs.as_ref())
    }

    /// `scale` — proportional scaling across active ReplicaSets (facts §4.5).
    pub(super) fn scale(&mut self, ctx: &mut Ctx, d: &Value, new_rs: Option<&Value>, old_rss: &[Value]) -> SyncResult {
        let replicas = du::spec_replicas(d);
        let mut olds = old_rss.to_vec();
        if let Some(active) = du::find_active_or_latest(new_rs, &mut olds) {
            if du::spec_replicas(&active) == replicas {
                return Ok(());
            }
            self.scale_replica_set_and_record_event(ctx, &active, replicas, d)?;
            return Ok(());
        }
        if du::is_saturated(d, new_rs) {
            for old in du::filter_active_replica_sets(old_rss) {
                self.scale_replica_set_and_record_event(ctx, &old, 0, d)?;
            }
            return Ok(());
        }
        if !du::is_rolling_update(d) {
            return Ok(());
        }
        let mut all: Vec<Value> = old_rss.to_vec();
        if let Some(n) = new_rs {
            all.push(n.clone());
        }
        let mut all = du::filter_active_replica_sets(&all);
        let allowed = if replicas > 0 { replicas + du::max_surge(d) } else { 0 };
        let to_add = allowed - du::get_replica_count_for_replica_sets(&all);
        if to_add > 0 {
            du::sort_replica_sets(&mut all, du::replica_sets_by_size_newer);
        } else if to_add < 0 {
            du::sort_replica_sets(&mut all, du::replica_sets_by_size_older);
        } else {
            return Ok(());
        }
        let mut added = 0;
        let mut sizes = Vec::new();
        for rs in &all {
            let p = if to_add != 0 { du::get_proportion(Some(rs), d, to_add, added) } else { 0 };
            sizes.push(du::spec_replicas(rs) + p);
            added += p;
        }
        for (i, rs) in all.iter().enumerate() {
            let mut size = sizes[i];
            if i == 0 && to_add != 0 {
                size = (size + to_add - added).max(0);
            }
            // return as soon as one fails: the deployment is requeued
            self.scale_replica_set(ctx, rs, size, d)?;
        }
        Ok(())
    }

    pub(super) fn sync_status_only(&mut self, ctx: &mut Ctx, d: &Value, rs_list: Vec<Value>) -> SyncResult {
        let mut d = d.clone();
        let (new_rs, old_rss) = self.get_all_replica_sets_and_sync_revision(ctx, &mut d, &rs_list, false)?;
        let mut all = old_rss;
        if let Some(n) = &new_rs {
            all.push(n.clone());
        }
        self.sync_status_only_with(ctx, &d, &all, new_rs.as_ref())
    }

    /// `syncDeploymentStatus`.
    pub(super) fn sync_status_only_with(&mut self, ctx: &mut Ctx, d: &Value, all: &[Value], new_rs: Option<&Value>) -> SyncResult {
        let status = du::calculate_status(d, all, new_rs, &time::rfc3339(ctx.now));
        if d.get("status") == Some(&status) {
            return Ok(());
        }
        let mut nd = d.clone();
        nd["status"] = status;
        self.update_status(ctx, &nd).map(|_| ()).ok_or(SyncError)
    }

    /// `cleanupDeployment`: delete old ReplicaSets beyond revisionHistoryLimit.
    pub(super) fn cleanup_deployment(&mut self, ctx: &mut Ctx, old_rss: &[Value], d: &Value) -> SyncResult {
        if !du::has_revision_history_limit(d) {
            return Ok(());
        }
        let limit = meta::get_i64(d, &["spec", "revisionHistoryLimit"]).unwrap_or(10) as usize;
        let mut cleanable: Vec<Value> = old_rss.iter().filter(|rs| !meta::is_deleting(rs)).cloned().collect();
        if cleanable.len() <= limit {
            return Ok(());
        }
        let diff = cleanable.len() - limit;
        du::sort_replica_sets(&mut cleanable, du::replica_sets_by_revision);
        for rs in cleanable.iter().take(diff) {
            let st = meta::get_i64(rs, &["status", "replicas"]).unwrap_or(0);
            let gen = meta::get_i64(rs, &["metadata", "generation"]).unwrap_or(0);
            let obs = meta::get_i64(rs, &["status", "observedGeneration"]).unwrap_or(0);
            if st != 0 || du::spec_replicas(rs) != 0 || gen > obs || meta::is_deleting(rs) {
                continue;
            }
            let resp = ctx.request(Method::Delete, &rs_path(meta::namespace(rs), meta::name(rs)), None);
            if !resp.ok() && resp.code != 404 {
                return Err(SyncError);
            }
        }
        Ok(())
    }

}
