//! Create: decoding, defaulting, `generateName`, the create strategies and validation.
//!
//! Real counterparts: `staging/src/k8s.io/apiserver/pkg/endpoints/handlers/create.go`,
//! `registry/generic/registry/store.go` (`Create`), `rest.BeforeCreate`, the strategies'
//! `PrepareForCreate` in `pkg/registry/{apps/deployment,apps/replicaset,core/pod,core/node,core/namespace}`,
//! `pkg/apis/core/helper/qos` and the events.k8s.io/v1 → core/v1 conversion.

use super::*;

impl ApiServer {
    /// Decoding as the JSON serializer does it, strict for `fieldValidation=Strict`. A body without
    /// `apiVersion` or `kind` takes the URL's: the create and update handlers decode with the
    /// resource's kind as the default (`decoder.Decode(body, &defaultGVK, …)`, the serializer's
    /// `gvkWithDefaults`), so `{"metadata":{"name":"x"}}` POSTed to `/api/v1/namespaces` is a
    /// Namespace, and it is stored with its `apiVersion` and `kind`.
    pub(super) fn decode(&self, t: &Target, obj: &mut Value) -> Result<(), Response> {
        if let Some(m) = obj.as_object_mut() {
            if m.get("kind").and_then(Value::as_str).unwrap_or("").is_empty() {
                m.insert("kind".into(), json!(t.info.kind));
            }
            if m.get("apiVersion").and_then(Value::as_str).unwrap_or("").is_empty() {
                m.insert("apiVersion".into(), json!(t.info.api_version()));
            }
        }
        let (api_version, kind) = (meta::get_str(obj, &["apiVersion"]), meta::get_str(obj, &["kind"]));
        if api_version != t.info.api_version() && !(t.info.resource == "events" && api_version == "events.k8s.io/v1") {
            return Err(bad_request(format!(
                "the API version in the data ({}) does not match the expected API version ({})",
                api_version,
                t.info.api_version()
            )));
        }
        if kind != t.info.kind {
            return Err(bad_request(format!("the kind in the data ({}) does not match the expected kind ({})", kind, t.info.kind)));
        }
        let strict = t.q("fieldValidation").map(|v| v.eq_ignore_ascii_case("strict")).unwrap_or(false);
        if let Some(v) = self.crds.version_of(t.info) {
            // the custom resource's decoder prunes what its schema does not specify; strict
            // decoding reports what it pruned (`unknown field "spec.foo"`, sorted)
            let unknown = v.schema.as_ref().map(|s| crate::apiextensions::schema::prune(s, obj)).unwrap_or_default();
            if strict && !unknown.is_empty() {
                let list: Vec<String> = unknown.iter().map(|u| format!("unknown field \"{}\"", u)).collect();
                let kind = t.info.kind;
                return Err(bad_request(format!("{} in version \"{}\" cannot be handled as a {}: strict decoding error: {}", kind, t.info.version, kind, list.join(", "))));
            }
            return Ok(());
        }
        // a type error fails the decode whatever `fieldValidation` says; unknown fields only
        // under Strict
        let checked = if strict { schema::strict_check(api_version, kind, obj) } else { schema::type_check(api_version, kind, obj) };
        if let Err(e) = checked {
            return Err(bad_request(format!("{} in version \"{}\" cannot be handled as a {}: {}", kind, t.info.version, kind, e.message)));
        }
        Ok(())
    }

    pub(super) fn create(
        &mut self,
        req: &Request,
        t: &Target,
        _who: &Identity,
        now_ms: i64,
        rng: &mut Rng,
        changes: &mut Vec<Change>,
    ) -> Result<Response, Response> {
        let info = t.info;
        let mut obj = req.body.clone().ok_or_else(|| bad_request("the body of the request was in an unknown format".into()))?;
        if !obj.is_object() {
            return Err(bad_request("the body of the request was in an unknown format".into()));
        }
        if meta::get_str(&obj, &["apiVersion"]) == "events.k8s.io/v1" {
            obj = events_v1_to_core(&obj);
        } else {
            self.decode(t, &mut obj)?;
        }
        schema::normalize(info.api_version().as_str(), info.kind, &mut obj);
        let custom = matches!(info.id, meta::Resource::Custom(_));
        let crd_version = self.crds.version_of(info).cloned();
        if crd_version.is_some() {
            // (decode pruned the fields the schema does not specify)
            // forbidCreateAdmission: nothing new while the CRD is being deleted
            if self.crds.of_info(info).map(|c| c.terminating).unwrap_or(false) {
                let name = match meta::name(&obj) {
                    "" => meta::get_str(&obj, &["metadata", "generateName"]).to_string(),
                    n => n.to_string(),
                };
                return Err(err(
                    403,
                    "Forbidden",
                    format!("{} \"{}\" is forbidden: create not allowed while custom resource definition is terminating", info.qualified(), name),
                    Some(json!({"name": name, "group": info.group, "kind": info.resource})),
                ));
            }
        }
        if self.object_count() >= self.limits.max_objects {
            return Err(err(
                429,
                "TooManyRequests",
                format!("kubesim holds at most {} objects; delete some before creating more", self.limits.max_objects),
                None,
            ));
        }
        // namespace
        let body_ns = meta::namespace(&obj).to_string();
        if info.namespaced {
            if !body_ns.is_empty() && body_ns != t.ri.namespace {
                return Err(bad_request("the namespace of the provided object does not match the namespace sent on the request".into()));
            }
            meta::set(&mut obj, &["metadata", "namespace"], json!(t.ri.namespace));
            match self.read_shared(meta::lookup("namespaces").expect("ns"), "", &t.ri.namespace) {
                None => {
                    return Err(err(
                        404,
                        "NotFound",
                        format!("namespaces \"{}\" not found", t.ri.namespace),
                        Some(json!({"name": t.ri.namespace, "kind": "namespaces"})),
                    ))
                }
                // the NamespaceLifecycle admission plugin: nothing new in a terminating namespace
                Some((ns, _)) if meta::get_str(&ns, &["status", "phase"]) == "Terminating" => {
                    let name = match meta::name(&obj) {
                        "" => meta::get_str(&obj, &["metadata", "generateName"]).to_string(),
                        n => n.to_string(),
                    };
                    let mut e = err(
                        403,
                        "Forbidden",
                        format!("{} \"{}\" is forbidden: unable to create new content in namespace {} because it is being terminated", info.qualified(), name, t.ri.namespace),
                        Some(json!({"name": name, "group": info.group, "kind": info.resource})),
                    );
                    e.body["details"]["causes"] = json!([{"reason": "NamespaceTerminating", "message": format!("namespace {} is being terminated", t.ri.namespace), "field": "metadata.namespace"}]);
                    return Err(e);
                }
                Some(_) => {}
            }
        } else if let Some(m) = obj.get_mut("metadata").and_then(|m| m.as_object_mut()) {
            m.remove("namespace");
        }
        // admission sees the object before its name is generated (`extractResourceName`)
        let admission_name = match meta::name(&obj) {
            "" => meta::get_str(&obj, &["metadata", "generateName"]).to_string(),
            n => n.to_string(),
        };
        // generateName (names.SimpleNameGenerator), before validation as upstream does
        let gen = meta::get_str(&obj, &["metadata", "generateName"]).to_string();
        if meta::name(&obj).is_empty() && !gen.is_empty() {
            let n = names::generate_name(rng, &gen);
            meta::set(&mut obj, &["metadata", "name"], json!(n));
        }
        // system metadata (rest.FillObjectMetaSystemFields)
        {
            let m = meta::entry(&mut obj, &["metadata"]);
            if let Some(m) = m.as_object_mut() {
                m.remove("resourceVersion");
                m.remove("deletionTimestamp");
                m.remove("deletionGracePeriodSeconds");
                m.insert("uid".into(), json!(rng.uuid()));
                m.insert("creationTimestamp".into(), json!(time::rfc3339(now_ms)));
            }
        }
        // strategy.PrepareForCreate + defaulting
        match info.kind {
            _ if custom => {
                if let Some(s) = crd_version.as_ref().and_then(|v| v.schema.clone()) {
                    crate::apiextensions::schema::default(&s, &mut obj);
                }
                meta::set(&mut obj, &["metadata", "generation"], json!(1));
                if crd_version.as_ref().map(|v| v.status_subresource).unwrap_or(false) {
                    meta::remove(&mut obj, &["status"]);
                }
            }
            "CustomResourceDefinition" => {
                defaults::set_object_defaults_custom_resource_definition(&mut obj);
                meta::set(&mut obj, &["metadata", "generation"], json!(1));
                // PrepareForCreate: a fresh status with the storage version stored
                let storage: Vec<Value> = meta::get_array(&obj, &["spec", "versions"]).iter().filter(|v| meta::get(v, &["storage"]).and_then(Value::as_bool).unwrap_or(false)).map(|v| json!(meta::get_str(v, &["name"]))).take(1).collect();
                obj["status"] = json!({"acceptedNames": {"kind": "", "plural": ""}, "storedVersions": storage});
                if storage.is_empty() {
                    meta::remove(&mut obj, &["status", "storedVersions"]);
                }
            }
            "Deployment" => {
                defaults::set_object_defaults_deployment(&mut obj);
                meta::set(&mut obj, &["metadata", "generation"], json!(1));
                meta::remove(&mut obj, &["status"]);
            }
            "ReplicaSet" => {
                defaults::set_object_defaults_replica_set(&mut obj);
                meta::set(&mut obj, &["metadata", "generation"], json!(1));
                meta::remove(&mut obj, &["status"]);
            }
            "ReplicationController" => {
                defaults::set_object_defaults_replication_controller(&mut obj);
                meta::set(&mut obj, &["metadata", "generation"], json!(1));
                meta::remove(&mut obj, &["status"]);
            }
            // the ingress strategies: generation 1, an empty status (its controller fills it)
            "Ingress" => {
                self.admit_default_ingress_class(&mut obj);
                meta::set(&mut obj, &["metadata", "generation"], json!(1));
                meta::set(&mut obj, &["status"], json!({"loadBalancer": {}}));
            }
            "IngressClass" => meta::set(&mut obj, &["metadata", "generation"], json!(1)),
            "NetworkPolicy" => {
                defaults::set_object_defaults_network_policy(&mut obj);
                meta::set(&mut obj, &["metadata", "generation"], json!(1));
            }
            // the PDB strategy's PrepareForCreate: an empty status (the disruption controller
            // fills it), generation 1
            "PodDisruptionBudget" => {
                meta::set(&mut obj, &["metadata", "generation"], json!(1));
                meta::set(&mut obj, &["status"], json!({"disruptionsAllowed": 0, "currentHealthy": 0, "desiredHealthy": 0, "expectedPods": 0}));
            }
            // the HPA strategy's PrepareForCreate: the status is reset (the controller fills it)
            "HorizontalPodAutoscaler" => {
                defaults::set_object_defaults_horizontal_pod_autoscaler(&mut obj);
                meta::set(&mut obj, &["status"], json!({"desiredReplicas": 0}));
            }
            "CronJob" => {
                defaults::set_object_defaults_cron_job(&mut obj);
                meta::set(&mut obj, &["metadata", "generation"], json!(1));
                meta::set(&mut obj, &["status"], json!({}));
            }
            "Job" => {
                defaults::set_object_defaults_job(&mut obj);
                meta::set(&mut obj, &["metadata", "generation"], json!(1));
                meta::remove(&mut obj, &["status"]);
                generate_job_selector(&mut obj);
            }
            "StatefulSet" => {
                defaults::set_object_defaults_stateful_set(&mut obj);
                meta::set(&mut obj, &["metadata", "generation"], json!(1));
                meta::set(&mut obj, &["status"], json!({"replicas": 0, "availableReplicas": 0}));
            }
            "PersistentVolumeClaim" => {
                // PrepareForCreate clears status; defaulting gives it phase Pending again
                meta::remove(&mut obj, &["status"]);
                self.admit_default_storage_class(&mut obj);
                defaults::set_object_defaults_pvc(&mut obj);
                add_finalizer(&mut obj, crate::controllers::volumeprotection::PVC_PROTECTION_FINALIZER);
            }
            "PersistentVolume" => {
                meta::remove(&mut obj, &["status"]);
                defaults::set_object_defaults_pv(&mut obj);
                add_finalizer(&mut obj, crate::controllers::volumeprotection::PV_PROTECTION_FINALIZER);
                meta::set(&mut obj, &["status", "lastPhaseTransitionTime"], json!(time::rfc3339(now_ms)));
            }
            "StorageClass" => defaults::set_object_defaults_storage_class(&mut obj),
            // PrepareForCreate: the quota controller fills status
            "ResourceQuota" => meta::remove(&mut obj, &["status"]).map(|_| ()).unwrap_or(()),
            "PriorityClass" => defaults::set_object_defaults_priority_class(&mut obj),
            "Secret" => defaults::set_object_defaults_secret(&mut obj),
            "RoleBinding" | "ClusterRoleBinding" => defaults::set_object_defaults_rbac_binding(&mut obj),
            "DaemonSet" => {
                defaults::set_object_defaults_daemon_set(&mut obj);
                meta::set(&mut obj, &["metadata", "generation"], json!(1));
                // the internal spec.templateGeneration starts at 1; apps/v1 shows it as this annotation
                meta::set(&mut obj, &["metadata", "annotations", DS_TEMPLATE_GENERATION], json!("1"));
                meta::set(&mut obj, &["status"], json!({"currentNumberScheduled": 0, "desiredNumberScheduled": 0, "numberMisscheduled": 0, "numberReady": 0}));
            }
            "Pod" => {
                defaults::set_object_defaults_pod(&mut obj);
                let sa = self.admit_service_account(&obj, &admission_name, &t.ri.namespace)?;
                self.admit_priority(&mut obj, &admission_name)?;
                let suffix = names::random_string(rng, 5);
                defaults::admit_pod(&mut obj, &suffix, sa.as_deref());
                meta::set(&mut obj, &["metadata", "generation"], json!(1));
                let qos = qos_class(&obj);
                meta::set(&mut obj, &["status"], json!({"phase": "Pending", "qosClass": qos}));
            }
            "Node" => defaults::set_object_defaults_node(&mut obj),
            "Service" => {
                defaults::set_object_defaults_service(&mut obj);
                // the Service storage's beginCreate allocates before the strategy validates
                let format_errs = validation::validate_service_cluster_ips(&obj);
                if !format_errs.is_empty() {
                    return Err(invalid(info, meta::name(&obj), &format_errs));
                }
                if let Err(errs) = self.service_allocate(&mut obj, None, rng) {
                    return Err(invalid(info, meta::name(&obj), &errs));
                }
            }
            "Endpoints" => defaults::set_object_defaults_endpoints(&mut obj),
            "EndpointSlice" => defaults::set_object_defaults_endpoint_slice(&mut obj),
            "Namespace" => {
                defaults::set_object_defaults_namespace(&mut obj);
                defaults::prepare_namespace_for_create(&mut obj);
            }
            _ => {}
        }
        let errs = match info.kind {
            _ if custom => {
                let mut errs = validation::validate_custom_resource_meta(&obj, info.namespaced);
                if let Some(s) = crd_version.as_ref().and_then(|v| v.schema.clone()) {
                    errs.extend(crate::apiextensions::schema::validate(&s, &obj));
                }
                errs
            }
            "CustomResourceDefinition" => validation::validate_custom_resource_definition(&obj, None),
            "Deployment" => validation::validate_deployment(&obj),
            "ReplicaSet" => validation::validate_replica_set(&obj),
            "ReplicationController" => validation::validate_replication_controller(&obj),
            "Ingress" => validation::validate_ingress(&obj),
            "IngressClass" => validation::validate_ingress_class(&obj),
            "NetworkPolicy" => validation::validate_network_policy(&obj),
            "PodDisruptionBudget" => validation::validate_pod_disruption_budget(&obj),
            "HorizontalPodAutoscaler" => validation::validate_horizontal_pod_autoscaler(&obj),
            "DaemonSet" => validation::validate_daemon_set(&obj),
            "StatefulSet" => validation::validate_stateful_set(&obj),
            "PersistentVolumeClaim" => validation::validate_pvc(&obj),
            "PersistentVolume" => validation::validate_pv(&obj),
            "StorageClass" => validation::validate_storage_class(&obj),
            "PriorityClass" => validation::validate_priority_class(&obj),
            "ResourceQuota" => validation::validate_resource_quota(&obj),
            "ConfigMap" => validation::validate_config_map(&obj),
            "Secret" => validation::validate_secret(&obj),
            "ServiceAccount" => validation::validate_service_account(&obj),
            "Role" => validation::validate_role(&obj),
            "ClusterRole" => validation::validate_cluster_role(&obj),
            "RoleBinding" => validation::validate_role_binding(&obj),
            "ClusterRoleBinding" => validation::validate_cluster_role_binding(&obj),
            "Job" => validation::validate_job(&obj),
            "CronJob" => validation::validate_cron_job(&obj),
            "ControllerRevision" => validation::validate_controller_revision(&obj),
            "Pod" => validation::validate_pod(&obj),
            "Node" => validation::validate_node(&obj),
            "Namespace" => validation::validate_namespace(&obj),
            "Service" => validation::validate_service(&obj),
            "Endpoints" => validation::validate_endpoints(&obj),
            "EndpointSlice" => validation::validate_endpoint_slice(&obj),
            _ => {
                if meta::name(&obj).is_empty() {
                    vec![field::FieldError::required("metadata.name", "name or generateName is required")]
                } else {
                    vec![]
                }
            }
        };
        if !errs.is_empty() {
            return Err(invalid(info, meta::name(&obj), &errs));
        }
        self.check_replicas_limit(info, &obj)?;
        self.confirm_no_escalation(info, &obj, _who)?;
        if info.namespaced {
            self.admit_resource_quota(info, &obj, &admission_name, changes)?;
        }
        let change = self.store(info, &mut obj, 0)?;
        changes.push(change);
        Ok(Response { code: 201, body: obj })
    }

    /// The `ServiceAccount` admission plugin's lookup (plugin/pkg/admission/serviceaccount,
    /// `getServiceAccount`): the Pod's ServiceAccount (`default` when it names none) must exist.
    /// Upstream retries a missing `default` for about a second while the ServiceAccount
    /// controller creates it; a kubesim request cannot wait for another component, so a missing
    /// `default` in an existing namespace is taken as that wait succeeding (an empty account).
    /// Mirror pods are not looked up. The rest of the plugin is [`defaults::admit_pod`].
    fn admit_service_account(&self, pod: &Value, admission_name: &str, ns: &str) -> Result<Option<Rc<Value>>, Response> {
        if meta::get(pod, &["metadata", "annotations", "kubernetes.io/config.mirror"]).is_some() {
            return Ok(None);
        }
        let name = match (meta::get_str(pod, &["spec", "serviceAccountName"]), meta::get_str(pod, &["spec", "serviceAccount"])) {
            ("", "") => "default",
            ("", n) | (n, _) => n,
        };
        match self.read_shared(meta::lookup("serviceaccounts").expect("serviceaccounts"), ns, name) {
            Some((sa, _)) => Ok(Some(sa)),
            None if name == "default" => Ok(None),
            None => Err(err(
                403,
                "Forbidden",
                format!("pods \"{}\" is forbidden: error looking up service account {}/{}: serviceaccount \"{}\" not found", admission_name, ns, name, name),
                Some(json!({"name": admission_name, "kind": "pods"})),
            )),
        }
    }

    /// The `Priority` admission plugin (create): `spec.priority` and `spec.preemptionPolicy` come
    /// from the Pod's PriorityClass (or the global default class, else 0); an unknown class, or a
    /// priority or policy in the spec that differs from the class's, is forbidden.
    fn admit_priority(&self, pod: &mut Value, admission_name: &str) -> Result<(), Response> {
        let info = meta::lookup("priorityclasses").expect("pc");
        let forbidden = |msg: String| {
            err(403, "Forbidden", format!("pods \"{}\" is forbidden: {}", admission_name, msg), Some(json!({"name": admission_name, "kind": "pods"})))
        };
        let class_name = meta::get_str(pod, &["spec", "priorityClassName"]).to_string();
        let class = if class_name.is_empty() {
            // getDefaultPriorityClass: the global default with the lowest value
            self.list_objects(info, "", None).into_iter().filter(|pc| meta::get_bool(pc, &["globalDefault"])).min_by_key(|pc| meta::get_i64(pc, &["value"]).unwrap_or(0))
        } else {
            match self.read(info, "", &class_name) {
                Some((pc, _)) => Some(pc),
                None => return Err(forbidden(format!("no PriorityClass with name {} was found", class_name))),
            }
        };
        let (priority, policy) = match &class {
            Some(pc) => (meta::get_i64(pc, &["value"]).unwrap_or(0), meta::get(pc, &["preemptionPolicy"]).cloned()),
            None => (0, None),
        };
        if let Some(pc) = &class {
            if class_name.is_empty() {
                meta::set(pod, &["spec", "priorityClassName"], json!(meta::name(pc)));
            }
        }
        if let Some(p) = meta::get_i64(pod, &["spec", "priority"]) {
            if p != priority {
                return Err(forbidden(format!(
                    "the integer value of priority ({}) must not be provided in pod spec; priority admission controller computed {} from the given PriorityClass name",
                    p, priority
                )));
            }
        }
        if let (Some(mine), Some(theirs)) = (meta::get(pod, &["spec", "preemptionPolicy"]).filter(|v| !v.is_null()), policy.as_ref()) {
            if mine != theirs {
                return Err(forbidden(format!(
                    "the string value of PreemptionPolicy ({}) must not be provided in pod spec; priority admission controller computed {} from the given PriorityClass name",
                    mine.as_str().unwrap_or(""),
                    theirs.as_str().unwrap_or("")
                )));
            }
        }
        meta::set(pod, &["spec", "priority"], json!(priority));
        if let Some(p) = policy {
            meta::set(pod, &["spec", "preemptionPolicy"], p);
        }
        Ok(())
    }

    /// The `ResourceQuota` admission plugin (create; `CheckRequest`): each quota of the namespace
    /// that limits something this object uses must know its usage, the Pod's containers must
    /// say what they need of a limited compute resource, and the new total must stay within
    /// `status.hard`; then every charged quota's `status.used` grows (written before the object,
    /// as upstream does).
    fn admit_resource_quota(&mut self, info: &'static ResourceInfo, obj: &Value, admission_name: &str, changes: &mut Vec<Change>) -> Result<(), Response> {
        let rq_info = meta::lookup("resourcequotas").expect("quota");
        let ns = meta::namespace(obj).to_string();
        let quotas = self.list_objects(rq_info, &ns, None);
        if quotas.is_empty() {
            return Ok(());
        }
        let forbidden = |msg: String| err(403, "Forbidden", format!("{} \"{}\" is forbidden: {}", info.qualified(), admission_name, msg), Some(json!({"name": admission_name, "group": info.group, "kind": info.resource})));
        let usage = quota::usage(info, obj);
        let mut updates = Vec::new();
        for q in &quotas {
            let hard = quota::list_of(meta::get(q, &["status", "hard"]));
            let restricted = quota::matching_resources(info, &hard);
            if restricted.is_empty() {
                continue;
            }
            if info.kind == "Pod" {
                if let Some(e) = quota::pod_constraints(obj, &restricted) {
                    return Err(forbidden(format!("failed quota: {}: {}", meta::name(q), e)));
                }
            }
            let used = quota::list_of(meta::get(q, &["status", "used"]));
            if restricted.iter().any(|r| !used.contains_key(r)) {
                return Err(forbidden(format!("status unknown for quota: {}, resources: {}", meta::name(q), restricted.iter().cloned().collect::<Vec<_>>().join(","))));
            }
            let requested = quota::mask(&usage, &hard.keys().cloned().collect());
            let requested: quota::ResourceList = requested.into_iter().filter(|(_, v)| !v.is_zero()).collect();
            if requested.is_empty() {
                continue;
            }
            let new_used = quota::add(&used, &requested);
            let over = quota::exceeded(&quota::mask(&new_used, &requested.keys().cloned().collect()), &hard);
            if !over.is_empty() {
                return Err(forbidden(format!(
                    "exceeded quota: {}, requested: {}, used: {}, limited: {}",
                    meta::name(q),
                    quota::pretty_print(&quota::mask(&requested, &over)),
                    quota::pretty_print(&quota::mask(&used, &over)),
                    quota::pretty_print(&quota::mask(&hard, &over))
                )));
            }
            let mut updated = q.clone();
            let mut all_used = used.clone();
            for (k, v) in new_used {
                all_used.insert(k, v);
            }
            updated["status"]["used"] = quota::to_json(&all_used);
            updates.push(updated);
        }
        for mut u in updates {
            let rev = meta::resource_version(&u).parse::<i64>().unwrap_or(0);
            let change = self.store(rq_info, &mut u, rev)?;
            changes.push(change);
        }
        Ok(())
    }

    /// The `DefaultIngressClass` admission plugin (create only,
    /// `plugin/pkg/admission/network/defaultingressclass`): an Ingress that names no class
    /// (neither `spec.ingressClassName` nor the `kubernetes.io/ingress.class` annotation) gets
    /// the class annotated `ingressclass.kubernetes.io/is-default-class: "true"`; with several,
    /// the newest (then the first by name).
    fn admit_default_ingress_class(&self, ing: &mut Value) {
        if meta::get(ing, &["spec", "ingressClassName"]).map_or(false, |v| !v.is_null()) || meta::annotation(ing, "kubernetes.io/ingress.class").is_some() {
            return;
        }
        let info = meta::lookup("ingressclasses").expect("ingressclasses");
        let classes = self.list_objects(info, "", None);
        if let Some(c) = newest_default(&classes, &["ingressclass.kubernetes.io/is-default-class"]) {
            meta::set(ing, &["spec", "ingressClassName"], json!(meta::name(c)));
        }
    }

    /// The `DefaultStorageClass` admission plugin (create only): a claim that names no class
    /// (neither `spec.storageClassName`, even `""`, nor the beta annotation) gets the class
    /// annotated `storageclass.kubernetes.io/is-default-class: "true"`; with several, the newest.
    fn admit_default_storage_class(&self, pvc: &mut Value) {
        if meta::get(pvc, &["spec", "storageClassName"]).map_or(false, |v| !v.is_null()) || meta::annotation(pvc, "volume.beta.kubernetes.io/storage-class").is_some() {
            return;
        }
        let info = meta::lookup("storageclasses").expect("sc");
        let classes = self.list_objects(info, "", None);
        if let Some(sc) = newest_default(&classes, &["storageclass.kubernetes.io/is-default-class", "storageclass.beta.kubernetes.io/is-default-class"]) {
            meta::set(pvc, &["spec", "storageClassName"], json!(meta::name(sc)));
        }
    }

    pub(super) fn check_replicas_limit(&self, info: &ResourceInfo, obj: &Value) -> Result<(), Response> {
        if info.kind == "Deployment" || info.kind == "ReplicaSet" || info.kind == "StatefulSet" {
            let r = meta::get_i64(obj, &["spec", "replicas"]).unwrap_or(1);
            if r > self.limits.max_replicas {
                // a field error like validation's, so clients print it as they print those
                let e = field::FieldError::invalid("spec.replicas", json!(r), &format!("kubesim simulates at most {} replicas per {}", self.limits.max_replicas, info.kind));
                return Err(invalid(info, meta::name(obj), &[e]));
            }
        }
        Ok(())
    }
}

/// The default class among `classes` (one of `annotations` is `"true"`), as the DefaultStorageClass
/// and DefaultIngressClass plugins choose it: the newest, then the first by name.
fn newest_default<'a>(classes: &'a [Value], annotations: &[&str]) -> Option<&'a Value> {
    classes
        .iter()
        .filter(|c| annotations.iter().any(|a| meta::annotation(c, a) == Some("true")))
        .max_by(|a, b| meta::get_str(a, &["metadata", "creationTimestamp"]).cmp(meta::get_str(b, &["metadata", "creationTimestamp"])).then_with(|| meta::name(b).cmp(meta::name(a))))
}

/// The QoS class (`pkg/apis/core/helper/qos`): Guaranteed when every container has equal cpu and
/// memory requests and limits, BestEffort when none has any, Burstable otherwise.
pub fn qos_class(pod: &Value) -> &'static str {
    let containers: Vec<&Value> = ["containers", "initContainers"]
        .iter()
        .filter_map(|f| meta::get(pod, &["spec", f]).and_then(|c| c.as_array()))
        .flatten()
        .collect();
    let mut any = false;
    let mut guaranteed = true;
    for c in &containers {
        let req = meta::get(c, &["resources", "requests"]).and_then(|r| r.as_object()).cloned().unwrap_or_default();
        let lim = meta::get(c, &["resources", "limits"]).and_then(|r| r.as_object()).cloned().unwrap_or_default();
        if !req.is_empty() || !lim.is_empty() {
            any = true;
        }
        for r in ["cpu", "memory"] {
            match (req.get(r), lim.get(r)) {
                (Some(a), Some(b)) if a == b => {}
                (None, Some(_)) => {}
                _ => guaranteed = false,
            }
            if lim.get(r).is_none() {
                guaranteed = false;
            }
        }
    }
    if !any {
        "BestEffort"
    } else if guaranteed {
        "Guaranteed"
    } else {
        "Burstable"
    }
}

/// Converts an `events.k8s.io/v1` Event (as the scheduler writes it) to the core/v1 shape
/// stored in etcd (both share `/registry/events`), as the apiserver's conversion does.
pub(super) fn events_v1_to_core(e: &Value) -> Value {
    let mut m = e.get("metadata").cloned().unwrap_or(json!({}));
    if let Some(o) = m.as_object_mut() {
        o.remove("resourceVersion");
    }
    json!({
        "apiVersion": "v1",
        "kind": "Event",
        "metadata": m,
        "involvedObject": e.get("regarding").cloned().unwrap_or(json!({})),
        "reason": e.get("reason").cloned().unwrap_or(json!("")),
        "message": e.get("note").cloned().unwrap_or(json!("")),
        "type": e.get("type").cloned().unwrap_or(json!("Normal")),
        "eventTime": e.get("eventTime").cloned().unwrap_or(Value::Null),
        "reportingComponent": e.get("reportingController").cloned().unwrap_or(json!("")),
        "reportingInstance": e.get("reportingInstance").cloned().unwrap_or(json!("")),
        "action": e.get("action").cloned().unwrap_or(json!("")),
        "source": {},
        "firstTimestamp": null,
        "lastTimestamp": null,
    })
}

/// The Job strategy's `generateSelector` (unless `manualSelector`): the template is labelled with
/// the Job's name and uid (`batch.kubernetes.io/` and legacy keys) and the selector picks the uid.
/// The Job's own labels, when it has none, are its template's (defaulting on read does that).
fn generate_job_selector(job: &mut Value) {
    if meta::get(job, &["spec", "manualSelector"]).and_then(Value::as_bool) == Some(true) {
        return;
    }
    let name = meta::name(job).to_string();
    let uid = meta::uid(job).to_string();
    for key in ["job-name", "batch.kubernetes.io/job-name"] {
        if meta::get(job, &["spec", "template", "metadata", "labels", key]).is_none() {
            meta::set(job, &["spec", "template", "metadata", "labels", key], json!(name));
        }
    }
    for key in ["controller-uid", "batch.kubernetes.io/controller-uid"] {
        if meta::get(job, &["spec", "template", "metadata", "labels", key]).is_none() {
            meta::set(job, &["spec", "template", "metadata", "labels", key], json!(uid));
        }
    }
    if meta::get(job, &["spec", "selector", "matchLabels", "batch.kubernetes.io/controller-uid"]).is_none() {
        meta::set(job, &["spec", "selector", "matchLabels", "batch.kubernetes.io/controller-uid"], json!(uid));
    }
    let empty = meta::get(job, &["metadata", "labels"]).and_then(Value::as_object).map_or(true, |m| m.is_empty());
    if empty {
        if let Some(l) = meta::get(job, &["spec", "template", "metadata", "labels"]).cloned() {
            meta::set(job, &["metadata", "labels"], l);
        }
    }
}

/// The `StorageObjectInUseProtection` admission plugin: a claim or volume is created with its
/// protection finalizer.
fn add_finalizer(obj: &mut Value, f: &str) {
    let fins = meta::entry(obj, &["metadata", "finalizers"]);
    if !fins.is_array() {
        *fins = json!([]);
    }
    if let Some(a) = fins.as_array_mut() {
        if !a.iter().any(|x| x.as_str() == Some(f)) {
            a.push(json!(f));
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::api::request::{Method, Request};
    use serde_json::json;

    /// A body without apiVersion and kind (the Python client's models leave them out) is decoded
    /// with the URL's, on create and on update, and stored with them; a wrong kind is refused.
    #[test]
    fn apiversion_and_kind_default_to_the_urls() {
        let mut c = crate::sandbox::default_cluster(1);
        let id = crate::cluster::kubectl_identity();
        let r = c.client_request(&id, Request::new(Method::Post, "/api/v1/namespaces", Some(json!({"metadata": {"name": "nokind"}}))));
        assert_eq!(r.code, 201, "{}", r.body);
        assert_eq!((r.body["apiVersion"].as_str(), r.body["kind"].as_str()), (Some("v1"), Some("Namespace")));
        let lease = json!({"metadata": {"name": "l", "namespace": "nokind"}, "spec": {"holderIdentity": "a"}});
        let r = c.client_request(&id, Request::new(Method::Post, "/apis/coordination.k8s.io/v1/namespaces/nokind/leases", Some(lease)));
        assert_eq!(r.code, 201, "{}", r.body);
        assert_eq!((r.body["apiVersion"].as_str(), r.body["kind"].as_str()), (Some("coordination.k8s.io/v1"), Some("Lease")));
        let mut put = r.body.clone();
        put.as_object_mut().unwrap().remove("kind");
        put.as_object_mut().unwrap().remove("apiVersion");
        put["spec"]["holderIdentity"] = json!("b");
        let r = c.client_request(&id, Request::new(Method::Put, "/apis/coordination.k8s.io/v1/namespaces/nokind/leases/l", Some(put)));
        assert_eq!(r.code, 200, "{}", r.body);
        assert_eq!((r.body["kind"].as_str(), r.body["spec"]["holderIdentity"].as_str()), (Some("Lease"), Some("b")));
        let got = c.client_request(&id, Request::new(Method::Get, "/apis/coordination.k8s.io/v1/namespaces/nokind/leases/l", None));
        assert_eq!(got.body["apiVersion"], "coordination.k8s.io/v1");
        let r = c.client_request(&id, Request::new(Method::Post, "/api/v1/namespaces", Some(json!({"kind": "Pod", "metadata": {"name": "x"}}))));
        assert_eq!(r.code, 400, "{}", r.body);
    }
}
