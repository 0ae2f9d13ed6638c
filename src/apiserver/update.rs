//! Update and patch: optimistic concurrency, the main-resource and status strategies, the `scale`
//! subresource, generation bumps and update validation.
//!
//! Real counterparts: `staging/src/k8s.io/apiserver/pkg/endpoints/handlers/{update,patch}.go`,
//! `registry/generic/registry/store.go` (`Update`), the strategies' `PrepareForUpdate` and
//! `pkg/registry/apps/deployment/storage` (`ScaleREST`).

use super::*;

impl ApiServer {
    pub(super) fn update(&mut self, t: &Target, sub: &str, mut body: Value, is_put: bool, now_ms: i64, rng: &mut Rng, changes: &mut Vec<Change>) -> Result<Response, Response> {
        let info = t.info;
        // the stored object, shared with the watch cache (copied only where a strategy merges)
        let (old, old_rev) = self.read_shared(info, &t.ri.namespace, &t.ri.name).ok_or_else(|| not_found(info, &t.ri.name))?;
        if sub == "scale" {
            // autoscaling/v1 Scale → spec.replicas
            let replicas = meta::get_i64(&body, &["spec", "replicas"]).unwrap_or(0);
            let rv = meta::resource_version(&body).to_string();
            let mut new = Value::clone(&old);
            meta::set(&mut new, &["spec", "replicas"], json!(replicas));
            if !rv.is_empty() {
                meta::set(&mut new, &["metadata", "resourceVersion"], json!(rv));
            }
            let resp = self.update(t, "", new, true, now_ms, rng, changes)?;
            return Ok(Response { code: resp.code, body: to_scale(&resp.body) });
        }
        if is_put {
            self.decode(t, &mut body)?;
        }
        schema::normalize(info.api_version().as_str(), info.kind, &mut body);
        if meta::name(&body) != t.ri.name {
            return Err(bad_request(format!("the name of the object ({}) does not match the name on the URL ({})", meta::name(&body), t.ri.name)));
        }
        // optimistic concurrency: an update with a resourceVersion must match the stored one
        let rv = meta::resource_version(&body).to_string();
        if !rv.is_empty() && rv != old_rev.to_string() {
            return Err(conflict(info, &t.ri.name));
        }
        let mut new = body;
        let custom = matches!(info.id, meta::Resource::Custom(_));
        let crd_version = self.crds.version_of(info).cloned();
        let schema_of = crd_version.as_ref().and_then(|v| v.schema.clone());
        let status_sub = crd_version.as_ref().map(|v| v.status_subresource).unwrap_or(false);
        if let (false, Some(s)) = (is_put, &schema_of) {
            // a patched object (decode pruned a PUT's body)
            crate::apiextensions::schema::prune(s, &mut new);
        }
        // fields the client may not change (rest.FillObjectMetaSystemFields / BeforeUpdate)
        for f in ["uid", "creationTimestamp", "namespace", "deletionTimestamp", "deletionGracePeriodSeconds", "generation"] {
            match meta::get(&old, &["metadata", f]) {
                Some(v) => meta::set(&mut new, &["metadata", f], v.clone()),
                None => {
                    meta::remove(&mut new, &["metadata", f]);
                }
            }
        }
        if sub == "finalize" && info.kind == "Namespace" {
            // the namespace's FinalizeStrategy: only spec.finalizers changes
            let mut merged = Value::clone(&old);
            match meta::get(&new, &["spec", "finalizers"]).filter(|f| f.as_array().is_some_and(|a| !a.is_empty())) {
                Some(f) => merged["spec"]["finalizers"] = f.clone(),
                // omitempty: the namespace is stored with `spec: {}`
                None => {
                    meta::remove(&mut merged, &["spec", "finalizers"]);
                }
            }
            new = merged;
        } else if sub == "ephemeralcontainers" && info.kind == "Pod" {
            // EphemeralContainersStrategy: only spec.ephemeralContainers changes (defaulted as
            // containers are), and ValidatePodEphemeralContainersUpdate judges the change
            let mut merged = Value::clone(&old);
            let mut ecs = meta::get(&new, &["spec", "ephemeralContainers"]).and_then(Value::as_array).cloned().unwrap_or_default();
            for c in ecs.iter_mut() {
                if let Some(m) = c.as_object_mut() {
                    defaults::set_defaults_container(m);
                }
            }
            let errs = validation::validate_ephemeral_containers_update(&old, &ecs);
            if !errs.is_empty() {
                return Err(invalid(info, &t.ri.name, &errs));
            }
            if ecs.is_empty() {
                meta::remove(&mut merged, &["spec", "ephemeralContainers"]);
            } else {
                merged["spec"]["ephemeralContainers"] = Value::Array(ecs);
            }
            if let Some(a) = meta::get(&new, &["metadata", "annotations"]) {
                meta::set(&mut merged, &["metadata", "annotations"], a.clone());
            }
            new = merged;
        } else if sub == "status" {
            // status strategy: only status (and, for Deployments, annotations) change
            let mut merged = Value::clone(&old);
            merged["status"] = match new.get_mut("status") {
                Some(st) => std::mem::take(st),
                None => json!({}),
            };
            if info.kind == "Deployment" || info.kind == "ReplicaSet" || info.kind == "Pod" {
                if let Some(a) = meta::get(&new, &["metadata", "annotations"]) {
                    meta::set(&mut merged, &["metadata", "annotations"], a.clone());
                }
            }
            if info.id == meta::Resource::CustomResourceDefinitions {
                // the CRD status strategy keeps ObjectMeta's other fields from the request: the
                // finalizer controller removes its finalizer with UpdateStatus
                match meta::get(&new, &["metadata", "finalizers"]) {
                    Some(f) => meta::set(&mut merged, &["metadata", "finalizers"], f.clone()),
                    None => {
                        meta::remove(&mut merged, &["metadata", "finalizers"]);
                    }
                }
            }
            new = merged;
            if let (true, Some(s)) = (custom, &schema_of) {
                crate::apiextensions::schema::default(s, &mut new);
                let errs = crate::apiextensions::schema::validate(s, &new);
                if !errs.is_empty() {
                    return Err(invalid(info, &t.ri.name, &errs));
                }
            }
        } else if sub.is_empty() {
            // main resource strategy: status comes from the old object (a custom resource
            // without the status subresource has no separate status)
            if !(custom && !status_sub) {
                match old.get("status") {
                    Some(s) => new["status"] = s.clone(),
                    None => {
                        if let Some(o) = new.as_object_mut() {
                            o.remove("status");
                        }
                    }
                }
            }
            match info.kind {
                _ if custom => {
                    if let Some(s) = &schema_of {
                        crate::apiextensions::schema::default(s, &mut new);
                    }
                }
                "CustomResourceDefinition" => defaults::set_object_defaults_custom_resource_definition(&mut new),
                "Deployment" => defaults::set_object_defaults_deployment(&mut new),
                "ReplicaSet" => defaults::set_object_defaults_replica_set(&mut new),
                "ReplicationController" => defaults::set_object_defaults_replication_controller(&mut new),
                "Job" => defaults::set_object_defaults_job(&mut new),
                "StatefulSet" => defaults::set_object_defaults_stateful_set(&mut new),
                "PersistentVolumeClaim" => defaults::set_object_defaults_pvc(&mut new),
                "PersistentVolume" => defaults::set_object_defaults_pv(&mut new),
                "StorageClass" => defaults::set_object_defaults_storage_class(&mut new),
                "PriorityClass" => defaults::set_object_defaults_priority_class(&mut new),
                "Secret" => defaults::set_object_defaults_secret(&mut new),
                "RoleBinding" | "ClusterRoleBinding" => defaults::set_object_defaults_rbac_binding(&mut new),
                "CronJob" => defaults::set_object_defaults_cron_job(&mut new),
                "DaemonSet" => {
                    defaults::set_object_defaults_daemon_set(&mut new);
                    // PrepareForUpdate: a changed template is the next template generation
                    let old_gen: i64 = meta::get_str(&old, &["metadata", "annotations", super::DS_TEMPLATE_GENERATION]).parse().unwrap_or(1);
                    let gen = if meta::get(&old, &["spec", "template"]) != meta::get(&new, &["spec", "template"]) { old_gen + 1 } else { old_gen };
                    meta::set(&mut new, &["metadata", "annotations", super::DS_TEMPLATE_GENERATION], json!(gen.to_string()));
                }
                "Pod" => defaults::set_object_defaults_pod(&mut new),
                "Node" => defaults::set_object_defaults_node(&mut new),
                "Service" => {
                    defaults::set_object_defaults_service(&mut new);
                    let format_errs = validation::validate_service_cluster_ips(&new);
                    if !format_errs.is_empty() {
                        return Err(invalid(info, &t.ri.name, &format_errs));
                    }
                    if let Err(errs) = self.service_allocate(&mut new, Some(&old), rng) {
                        return Err(invalid(info, &t.ri.name, &errs));
                    }
                }
                "Endpoints" => defaults::set_object_defaults_endpoints(&mut new),
                "EndpointSlice" => defaults::set_object_defaults_endpoint_slice(&mut new),
                "HorizontalPodAutoscaler" => defaults::set_object_defaults_horizontal_pod_autoscaler(&mut new),
                _ => {}
            }
            let spec_changed = old.get("spec") != new.get("spec");
            let ann_changed = meta::get(&old, &["metadata", "annotations"]) != meta::get(&new, &["metadata", "annotations"]);
            let bump = match info.kind {
                // customResourceStrategy.PrepareForUpdate: anything but metadata (and status,
                // with the status subresource) changed
                _ if custom => {
                    let strip = |o: &Value| {
                        let mut c = o.clone();
                        if let Some(m) = c.as_object_mut() {
                            m.remove("metadata");
                            if status_sub {
                                m.remove("status");
                            }
                        }
                        c
                    };
                    strip(&old) != strip(&new)
                }
                "CustomResourceDefinition" => spec_changed,
                "Deployment" => spec_changed || ann_changed,
                "ReplicaSet" | "ReplicationController" | "Pod" | "DaemonSet" | "Job" | "CronJob" | "StatefulSet" | "Ingress" | "IngressClass" | "NetworkPolicy" | "PodDisruptionBudget" => spec_changed,
                _ => false,
            };
            if bump {
                let g = meta::get_i64(&old, &["metadata", "generation"]).unwrap_or(0);
                meta::set(&mut new, &["metadata", "generation"], json!(g + 1));
            }
            let errs = match info.kind {
                _ if custom => {
                    let mut errs = validation::validate_custom_resource_meta(&new, info.namespaced);
                    if let Some(s) = &schema_of {
                        errs.extend(crate::apiextensions::schema::validate(s, &new));
                    }
                    errs
                }
                "CustomResourceDefinition" => validation::validate_custom_resource_definition(&new, Some(&old)),
                "Deployment" => validation::validate_deployment_update(&new, &old),
                "ReplicaSet" => validation::validate_replica_set_update(&new, &old),
                "ReplicationController" => validation::validate_replication_controller_update(&new, &old),
                "Ingress" => validation::validate_ingress(&new),
                "IngressClass" => validation::validate_ingress_class(&new),
                "NetworkPolicy" => validation::validate_network_policy(&new),
                "PodDisruptionBudget" => validation::validate_pod_disruption_budget(&new),
                "HorizontalPodAutoscaler" => validation::validate_horizontal_pod_autoscaler(&new),
                "DaemonSet" => validation::validate_daemon_set_update(&new, &old),
                "StatefulSet" => validation::validate_stateful_set_update(&new, &old),
                "PersistentVolumeClaim" => validation::validate_pvc_update(&new, &old),
                "PersistentVolume" => validation::validate_pv(&new),
                "StorageClass" => validation::validate_storage_class_update(&new, &old),
                "PriorityClass" => validation::validate_priority_class_update(&new, &old),
                "ConfigMap" => validation::validate_config_map_update(&new, &old),
                "Secret" => validation::validate_secret_update(&new, &old),
                "ServiceAccount" => validation::validate_service_account_update(&new, &old),
                "Role" => validation::validate_role(&new),
                "ClusterRole" => validation::validate_cluster_role(&new),
                "RoleBinding" => validation::validate_binding_update(&new, &old, true),
                "ClusterRoleBinding" => validation::validate_binding_update(&new, &old, false),
                "Job" => validation::validate_job_update(&new, &old),
                "CronJob" => validation::validate_cron_job_update(&new, &old),
                "Pod" => validation::validate_pod_update(&new, &old),
                "Node" => validation::validate_node(&new),
                "Namespace" => validation::validate_namespace(&new),
                "Service" => validation::validate_service_update(&new, &old),
                "Endpoints" => validation::validate_endpoints(&new),
                "EndpointSlice" => validation::validate_endpoint_slice(&new),
                _ => vec![],
            };
            if !errs.is_empty() {
                return Err(invalid(info, &t.ri.name, &errs));
            }
            self.check_replicas_limit(info, &new)?;
        } else {
            return Err(resource_not_found());
        }
        if new == *old {
            // no-op update: etcd is not written (the registry's "unchanged" shortcut)
            return Ok(Response { code: 200, body: Value::clone(&old) });
        }
        // finalizers emptied on an object being deleted: it goes away now
        // (a namespace also waits for its spec.finalizers: ShouldDeleteNamespaceDuringUpdate)
        let ns_finalizers_left = info.kind == "Namespace" && !meta::get_array(&new, &["spec", "finalizers"]).is_empty();
        if meta::is_deleting(&new) && finalizers(&new).is_empty() && !ns_finalizers_left && !(info.kind == "Pod" && pod_awaits_kubelet(&new)) {
            let change = self.remove(info, &old, old_rev)?;
            changes.push(change);
            return Ok(Response { code: 200, body: new });
        }
        let change = self.store(info, &mut new, old_rev)?;
        changes.push(change);
        Ok(Response { code: 200, body: new })
    }
}

/// `autoscaling/v1` Scale view of a Deployment or ReplicaSet.
pub(super) fn to_scale(obj: &Value) -> Value {
    json!({
        "kind": "Scale",
        "apiVersion": "autoscaling/v1",
        "metadata": {
            "name": meta::name(obj),
            "namespace": meta::namespace(obj),
            "uid": meta::uid(obj),
            "resourceVersion": meta::resource_version(obj),
            "creationTimestamp": meta::get(obj, &["metadata", "creationTimestamp"]).cloned().unwrap_or(Value::Null),
        },
        "spec": {"replicas": meta::get_i64(obj, &["spec", "replicas"]).unwrap_or(0)},
        "status": {
            "replicas": meta::get_i64(obj, &["status", "replicas"]).unwrap_or(0),
            "selector": if meta::kind(obj) == "ReplicationController" || meta::get(obj, &["spec", "selector", "matchLabels"]).is_none() && meta::get(obj, &["spec", "selector", "matchExpressions"]).is_none() && meta::get(obj, &["spec", "selector"]).is_some_and(|s| s.as_object().is_some_and(|m| m.values().all(Value::is_string))) {
                // an RC's selector is a label map
                meta::get(obj, &["spec", "selector"]).and_then(Value::as_object).map(|m| m.iter().map(|(k, v)| format!("{}={}", k, v.as_str().unwrap_or(""))).collect::<Vec<_>>().join(",")).unwrap_or_default()
            } else {
                meta::selector_string(meta::get(obj, &["spec", "selector"]))
            },
        },
    })
}
