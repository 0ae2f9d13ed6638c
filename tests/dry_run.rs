//! `dryRun=All` changes nothing (issue 29): for every kind kubesim serves and every write verb
//! (create, PUT, PATCH merge / strategic / JSON, server-side apply, DELETE, DeleteCollection,
//! `scale` and `status`), a request with `?dryRun=All` (a DELETE also with `dryRun: ["All"]` in
//! its DeleteOptions body, as client-go sends it) leaves etcd byte-identical — the same revision,
//! the same keys and values — delivers no watch event, and answers what the real request then
//! answers: the same code and, but for the fields only a write sets (resourceVersion, uid,
//! creationTimestamp, generated names and allocated IPs), the same object.

use kubesim::api::meta::{self, RESOURCES};
use kubesim::api::request::{Method, PatchType, Request, Response};
use kubesim::cluster::{kubectl_identity, Cluster};
use kubesim::trace::MessageKind;
use serde_json::{json, Value};

/// One valid object of each served kind (named `NAME`), in namespace `dry`.
fn sample(resource: &str, name: &str) -> Option<Value> {
    let pod_spec = json!({"containers": [{"name": "app", "image": "nginx:1.27"}]});
    let template = json!({"metadata": {"labels": {"app": name}}, "spec": pod_spec});
    let selector = json!({"matchLabels": {"app": name}});
    let m = json!({"name": name, "namespace": "dry", "labels": {"app": name}});
    let o = match resource {
        "namespaces" => json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": name}}),
        "nodes" => json!({"apiVersion": "v1", "kind": "Node", "metadata": {"name": name, "labels": {"app": name}}}),
        "pods" => json!({"apiVersion": "v1", "kind": "Pod", "metadata": m, "spec": {"containers": [{"name": "app", "image": "nginx:1.27"}], "nodeName": "no-such-node"}}),
        "events" => json!({"apiVersion": "v1", "kind": "Event", "metadata": m, "involvedObject": {"kind": "Pod", "name": "p", "namespace": "dry"}, "reason": "Test", "message": "m", "type": "Normal", "source": {"component": "test"}}),
        "deployments" => json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": m, "spec": {"replicas": 0, "selector": selector, "template": template}}),
        "replicasets" => json!({"apiVersion": "apps/v1", "kind": "ReplicaSet", "metadata": m, "spec": {"replicas": 0, "selector": selector, "template": template}}),
        "daemonsets" => json!({"apiVersion": "apps/v1", "kind": "DaemonSet", "metadata": m, "spec": {"selector": selector, "template": {"metadata": {"labels": {"app": name}}, "spec": {"containers": [{"name": "app", "image": "nginx:1.27"}], "nodeSelector": {"none": "none"}}}}}),
        "statefulsets" => json!({"apiVersion": "apps/v1", "kind": "StatefulSet", "metadata": m, "spec": {"replicas": 0, "serviceName": name, "selector": selector, "template": template}}),
        "controllerrevisions" => json!({"apiVersion": "apps/v1", "kind": "ControllerRevision", "metadata": m, "revision": 1, "data": {}}),
        "jobs" => json!({"apiVersion": "batch/v1", "kind": "Job", "metadata": m, "spec": {"suspend": true, "template": {"spec": {"containers": [{"name": "app", "image": "busybox"}], "restartPolicy": "Never"}}}}),
        "cronjobs" => json!({"apiVersion": "batch/v1", "kind": "CronJob", "metadata": m, "spec": {"schedule": "0 0 1 1 *", "suspend": true, "jobTemplate": {"spec": {"template": {"spec": {"containers": [{"name": "app", "image": "busybox"}], "restartPolicy": "Never"}}}}}}),
        "leases" => json!({"apiVersion": "coordination.k8s.io/v1", "kind": "Lease", "metadata": m, "spec": {"holderIdentity": "x"}}),
        "services" => json!({"apiVersion": "v1", "kind": "Service", "metadata": m, "spec": {"type": "NodePort", "selector": {"app": name}, "ports": [{"port": 80}]}}),
        "endpoints" => json!({"apiVersion": "v1", "kind": "Endpoints", "metadata": m, "subsets": [{"addresses": [{"ip": "10.244.9.9"}], "ports": [{"port": 80}]}]}),
        "endpointslices" => json!({"apiVersion": "discovery.k8s.io/v1", "kind": "EndpointSlice", "metadata": m, "addressType": "IPv4", "endpoints": [{"addresses": ["10.244.9.9"]}], "ports": [{"port": 80}]}),
        "persistentvolumeclaims" => json!({"apiVersion": "v1", "kind": "PersistentVolumeClaim", "metadata": m, "spec": {"storageClassName": "none", "accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "1Gi"}}}}),
        "persistentvolumes" => json!({"apiVersion": "v1", "kind": "PersistentVolume", "metadata": {"name": name}, "spec": {"capacity": {"storage": "1Gi"}, "accessModes": ["ReadWriteOnce"], "hostPath": {"path": "/tmp/x"}, "storageClassName": "none"}}),
        "storageclasses" => json!({"apiVersion": "storage.k8s.io/v1", "kind": "StorageClass", "metadata": {"name": name}, "provisioner": "example.com/none"}),
        "priorityclasses" => json!({"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass", "metadata": {"name": name}, "value": 1000}),
        "resourcequotas" => json!({"apiVersion": "v1", "kind": "ResourceQuota", "metadata": m, "spec": {"hard": {"configmaps": "100"}}}),
        "configmaps" => json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": m, "data": {"k": "v"}}),
        "secrets" => json!({"apiVersion": "v1", "kind": "Secret", "metadata": m, "stringData": {"k": "v"}}),
        "serviceaccounts" => json!({"apiVersion": "v1", "kind": "ServiceAccount", "metadata": m}),
        "roles" => json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "Role", "metadata": m, "rules": [{"apiGroups": [""], "resources": ["pods"], "verbs": ["get"]}]}),
        "clusterroles" => json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRole", "metadata": {"name": name}, "rules": [{"apiGroups": [""], "resources": ["pods"], "verbs": ["get"]}]}),
        "rolebindings" => json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "RoleBinding", "metadata": m, "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": "view"}, "subjects": [{"kind": "User", "name": "jane", "apiGroup": "rbac.authorization.k8s.io"}]}),
        "clusterrolebindings" => json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRoleBinding", "metadata": {"name": name}, "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": "view"}, "subjects": [{"kind": "User", "name": "jane", "apiGroup": "rbac.authorization.k8s.io"}]}),
        "replicationcontrollers" => json!({"apiVersion": "v1", "kind": "ReplicationController", "metadata": m, "spec": {"replicas": 0, "selector": {"app": name}, "template": template}}),
        "ingresses" => json!({"apiVersion": "networking.k8s.io/v1", "kind": "Ingress", "metadata": m, "spec": {"rules": [{"host": "a.example.com", "http": {"paths": [{"path": "/", "pathType": "Prefix", "backend": {"service": {"name": "web", "port": {"number": 80}}}}]}}]}}),
        "ingressclasses" => json!({"apiVersion": "networking.k8s.io/v1", "kind": "IngressClass", "metadata": {"name": name}, "spec": {"controller": "example.com/ingress"}}),
        "networkpolicies" => json!({"apiVersion": "networking.k8s.io/v1", "kind": "NetworkPolicy", "metadata": m, "spec": {"podSelector": {"matchLabels": {"app": name}}, "ingress": [{"from": [{"podSelector": {"matchLabels": {"role": "client"}}}]}]}}),
        "poddisruptionbudgets" => json!({"apiVersion": "policy/v1", "kind": "PodDisruptionBudget", "metadata": m, "spec": {"minAvailable": 1, "selector": {"matchLabels": {"app": name}}}}),
        "horizontalpodautoscalers" => json!({"apiVersion": "autoscaling/v2", "kind": "HorizontalPodAutoscaler", "metadata": m, "spec": {"scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": name}, "minReplicas": 1, "maxReplicas": 3}}),
        "customresourcedefinitions" => {
            let plural = format!("{}s", name.replace('-', ""));
            let kind: String = name.split('-').map(|w| { let mut c = w.chars(); c.next().map(|f| f.to_ascii_uppercase().to_string() + c.as_str()).unwrap_or_default() }).collect();
            json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition", "metadata": {"name": format!("{}.dry.example.com", plural)}, "spec": {"group": "dry.example.com", "scope": "Namespaced", "names": {"plural": plural, "kind": kind}, "versions": [{"name": "v1", "served": true, "storage": true, "schema": {"openAPIV3Schema": {"type": "object", "x-kubernetes-preserve-unknown-fields": true}}}]}})
        }
        "apiservices" => json!({"apiVersion": "apiregistration.k8s.io/v1", "kind": "APIService", "metadata": {"name": format!("v1.{}.example.com", name)}, "spec": {"group": format!("{}.example.com", name), "version": "v1", "groupPriorityMinimum": 100, "versionPriority": 100, "service": {"namespace": "dry", "name": name}}}),
        _ => return None,
    };
    Some(o)
}

/// Everything etcd holds, as bytes: revision, compaction, every key's value and revisions.
fn etcd_bytes(c: &Cluster) -> String {
    let v = c.view();
    let kvs = v.etcd_range("/", None).expect("range");
    let mut s = format!("rev={} compact={} stored={:?}\n", v.etcd_revision(), v.etcd_compact_revision(), v.etcd_stored());
    for kv in kvs {
        s.push_str(&format!("{} {} {} {}\n", kv.key, kv.create_revision, kv.mod_revision, kv.value.as_deref().unwrap_or("")));
    }
    s
}

fn req(c: &mut Cluster, method: Method, path: &str, body: Option<Value>, pt: PatchType) -> Response {
    c.client_request(&kubectl_identity(), Request { method, path: path.to_string(), body, patch_type: pt })
}

/// The object as a response shows it, without what only a write decides.
fn comparable(v: Value) -> Value {
    // the object's uid, wherever it is copied (a Job's selector)
    let mut text = v.to_string();
    for (id, with) in [(meta::uid(&v), "UID"), (meta::name(&v), "NAME")] {
        if id.len() > 4 {
            text = text.replace(&format!("\"{}\"", id), &format!("\"{}\"", with));
        }
    }
    let mut v: Value = serde_json::from_str(&text).expect("json");
    // (times: the dry run and the real request are a round trip apart, maybe across a second)
    for f in ["resourceVersion", "uid", "creationTimestamp", "deletionTimestamp", "managedFields", "name"] {
        meta::remove(&mut v, &["metadata", f]);
    }
    meta::remove(&mut v, &["metadata", "labels", "kubernetes.io/metadata.name"]);
    for f in ["clusterIP", "clusterIPs"] {
        meta::remove(&mut v, &["spec", f]);
    }
    if let Some(ports) = v.pointer_mut("/spec/ports").and_then(|p| p.as_array_mut()) {
        for p in ports {
            if let Some(o) = p.as_object_mut() {
                o.remove("nodePort");
            }
        }
    }
    if let Some(o) = v.get_mut("details").and_then(|d| d.as_object_mut()) {
        o.remove("uid");
    }
    // the random suffix of the service account token volume's name
    let mut text = v.to_string();
    while let Some(i) = text.find("kube-api-access-") {
        let end = (i + "kube-api-access-".len() + 5).min(text.len());
        text.replace_range(i..end, "KUBE_API_ACCESS");
    }
    serde_json::from_str(&text).expect("json")
}

#[test]
fn a_dry_run_of_every_verb_on_every_kind_changes_nothing() {
    let mut c = kubesim::sandbox::default_cluster(7);
    let ns = json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "dry"}});
    assert_eq!(req(&mut c, Method::Post, "/api/v1/namespaces", Some(ns), PatchType::Strategic).code, 201);
    c.run_until_settled();
    let mut verbs_checked = 0;
    let mut kinds = 0;
    for info in RESOURCES.iter() {
        let Some(_) = sample(info.resource, "x") else { continue };
        kinds += 1;
        let prefix = if info.group.is_empty() { "/api/v1".to_string() } else { format!("/apis/{}", info.api_version()) };
        let coll = if info.namespaced { format!("{}/namespaces/dry/{}", prefix, info.resource) } else { format!("{}/{}", prefix, info.resource) };
        let live = format!("live-{}", info.resource);
        let created = req(&mut c, Method::Post, &coll, sample(info.resource, &live), PatchType::Strategic);
        assert_eq!(created.code, 201, "{} create: {}", info.resource, created.body);
        c.run_until_settled();
        let current = |c: &mut Cluster| req(c, Method::Get, &format!("{}/{}", coll, live), None, PatchType::Strategic).body;
        let mut labelled = current(&mut c);
        meta::set(&mut labelled, &["metadata", "labels", "dry"], json!("run"));
        let mut applied = sample(info.resource, &live).expect("sample");
        meta::set(&mut applied, &["metadata", "annotations", "dry"], json!("run"));
        let mut cases: Vec<(&str, Method, String, Option<Value>, PatchType)> = vec![
            ("create", Method::Post, coll.clone(), sample(info.resource, "fresh"), PatchType::Strategic),
            ("create generateName", Method::Post, coll.clone(), sample(info.resource, "").map(|mut o| {
                meta::remove(&mut o, &["metadata", "name"]);
                meta::set(&mut o, &["metadata", "generateName"], json!("gen-"));
                o
            }), PatchType::Strategic),
            ("create existing", Method::Post, coll.clone(), sample(info.resource, &live), PatchType::Strategic),
            ("put", Method::Put, format!("{}/{}", coll, live), Some(labelled.clone()), PatchType::Strategic),
            ("patch merge", Method::Patch, format!("{}/{}", coll, live), Some(json!({"metadata": {"labels": {"dry": "merge"}}})), PatchType::Merge),
            ("patch strategic", Method::Patch, format!("{}/{}", coll, live), Some(json!({"metadata": {"annotations": {"dry": "sm"}}})), PatchType::Strategic),
            ("patch json", Method::Patch, format!("{}/{}", coll, live), Some(json!([{"op": "add", "path": "/metadata/labels/dry", "value": "json"}])), PatchType::Json),
            ("apply", Method::Patch, format!("{}/{}?fieldManager=test&force=true", coll, live), Some(applied), PatchType::Apply),
            ("apply create", Method::Patch, format!("{}/applied?fieldManager=test", coll), sample(info.resource, "applied"), PatchType::Apply),
            ("delete", Method::Delete, format!("{}/{}", coll, live), None, PatchType::Strategic),
            ("delete foreground", Method::Delete, format!("{}/{}?propagationPolicy=Foreground", coll, live), None, PatchType::Strategic),
            ("delete missing", Method::Delete, format!("{}/missing", coll), None, PatchType::Strategic),
        ];
        if info.namespaced {
            cases.push(("deletecollection", Method::Delete, coll.clone(), None, PatchType::Strategic));
        }
        if info.resource == "pods" {
            let eviction = json!({"apiVersion": "policy/v1", "kind": "Eviction", "metadata": {"name": live, "namespace": "dry"}});
            cases.push(("eviction", Method::Post, format!("{}/{}/eviction", coll, live), Some(eviction), PatchType::Strategic));
        }
        if matches!(info.resource, "deployments" | "replicasets" | "statefulsets" | "replicationcontrollers") {
            cases.push(("scale", Method::Patch, format!("{}/{}/scale", coll, live), Some(json!({"spec": {"replicas": 3}})), PatchType::Merge));
        }
        if !matches!(info.resource, "configmaps" | "secrets" | "serviceaccounts" | "roles" | "clusterroles" | "rolebindings" | "clusterrolebindings" | "events" | "endpoints" | "endpointslices" | "controllerrevisions" | "leases" | "priorityclasses" | "storageclasses" | "ingressclasses") {
            cases.push(("status", Method::Patch, format!("{}/{}/status", coll, live), Some(json!({"status": {"observedGeneration": 9}})), PatchType::Merge));
        }
        for (verb, method, path, body, pt) in cases {
            let before = etcd_bytes(&c);
            let trace_before = c.view().trace().total();
            let sep = if path.contains('?') { '&' } else { '?' };
            let mut dry_body = body.clone();
            if method == Method::Delete {
                dry_body = Some(json!({"kind": "DeleteOptions", "apiVersion": "v1", "dryRun": ["All"]}));
            }
            let dry_path = if method == Method::Delete && verbs_checked % 2 == 0 { path.clone() } else { format!("{}{}dryRun=All", path, sep) };
            let dry = req(&mut c, method, &dry_path, dry_body, pt);
            assert_eq!(etcd_bytes(&c), before, "{} {}: a dry run changed etcd ({})", info.resource, verb, dry.body);
            let writes = c.view().trace().messages().iter().filter(|m| m.id > trace_before && matches!(m.kind, MessageKind::EtcdTxn { .. } | MessageKind::Watch { .. })).count();
            assert_eq!(writes, 0, "{} {}: a dry run wrote to etcd or sent watch events", info.resource, verb);
            // the real request answers the same
            let real = req(&mut c, method, &path, body, pt);
            assert_eq!(dry.code, real.code, "{} {}: dry run {} vs real {}", info.resource, verb, dry.body, real.body);
            if dry.ok() && !matches!(verb, "deletecollection") {
                assert_eq!(comparable(dry.body.clone()), comparable(real.body.clone()), "{} {}", info.resource, verb);
                if verb == "create" || verb == "apply create" {
                    assert_eq!(meta::resource_version(&dry.body), "", "{} {}: a dry-run create has no resourceVersion", info.resource, verb);
                }
            }
            verbs_checked += 1;
            c.run_until_settled();
            // back to the live object for the next verb
            if real.ok() {
                let _ = req(&mut c, Method::Delete, &format!("{}/fresh?gracePeriodSeconds=0", coll), None, PatchType::Strategic);
                let _ = req(&mut c, Method::Delete, &format!("{}/applied?gracePeriodSeconds=0", coll), None, PatchType::Strategic);
                if req(&mut c, Method::Get, &format!("{}/{}", coll, live), None, PatchType::Strategic).code == 404 {
                    c.run_until_settled();
                    let _ = req(&mut c, Method::Post, &coll, sample(info.resource, &live), PatchType::Strategic);
                }
                c.run_until_settled();
            }
        }
    }
    eprintln!("dry run: {} kinds, {} requests checked", kinds, verbs_checked);
    assert_eq!(kinds, RESOURCES.len(), "every served kind has a sample");
}

#[test]
fn only_dry_run_all_is_accepted() {
    let mut c = kubesim::sandbox::default_cluster(1);
    let cm = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "a"}});
    let r = req(&mut c, Method::Post, "/api/v1/namespaces/default/configmaps?dryRun=Some", Some(cm), PatchType::Strategic);
    assert_eq!(r.code, 422, "{}", r.body);
    assert_eq!(r.message(), "CreateOptions.meta.k8s.io \"\" is invalid: dryRun: Unsupported value: []string{\"Some\"}: supported values: \"All\"");
}
