//! Name references: a renamed ConfigMap, Secret, ServiceAccount, Service, PVC, Role or workload
//! takes the fields that name it along.
//!
//! Upstream: kustomize `api/filters/nameref/nameref.go` with the field specs of
//! `api/internal/konfig/builtinpluginconsts/namereference.go`. A reference is rewritten when a
//! resource of the referenced kind was once called by the name the field holds; a referral in
//! the referrer's namespace (or a cluster-scoped one) wins. RoleBinding subjects take the
//! ServiceAccount's namespace too. What kubesim simplifies: the references of the built-in kinds
//! listed in [`for_each_ref`], not `configurations`.

use super::Resource;
use serde_json::Value;

/// Rewrites every reference to a renamed resource.
pub(super) fn fix(rs: &mut [Resource]) {
    // (kind, every name it had, current name, current namespace, cluster-scoped)
    let referrals: Vec<(String, Vec<String>, String, String, bool)> = rs
        .iter()
        .map(|r| {
            let mut names = r.prior_names.clone();
            names.push(r.name().to_string());
            (r.kind().to_string(), names, r.name().to_string(), r.namespace().to_string(), super::transformers::cluster_scoped(r))
        })
        .collect();
    for r in rs.iter_mut() {
        let ns = r.namespace().to_string();
        let find = |kind: &str, name: &str| -> Option<(String, String)> {
            let hits: Vec<&(String, Vec<String>, String, String, bool)> = referrals.iter().filter(|(k, names, ..)| k == kind && names.iter().any(|n| n == name)).collect();
            let best = hits.iter().find(|(.., rns, cs)| *cs || *rns == ns).or_else(|| (hits.len() == 1).then(|| &hits[0]))?;
            Some((best.2.clone(), best.3.clone()))
        };
        for_each_ref(&mut r.obj, &mut |kind, slot, ns_slot| {
            let Some(name) = slot.as_str() else { return };
            if let Some((new, new_ns)) = find(kind, name) {
                *slot = Value::String(new);
                if let Some(s) = ns_slot {
                    if !new_ns.is_empty() {
                        *s = Value::String(new_ns);
                    }
                }
            }
        });
    }
}

type RefFn<'a> = dyn FnMut(&str, &mut Value, Option<&mut Value>) + 'a;

/// Calls `f(kind, name slot, namespace slot)` for every reference `obj` holds.
fn for_each_ref(obj: &mut Value, f: &mut RefFn) {
    let kind = obj.get("kind").and_then(Value::as_str).unwrap_or("").to_string();
    match kind.as_str() {
        "Pod" => pod_spec(obj.get_mut("spec"), f),
        "Deployment" | "ReplicaSet" | "DaemonSet" | "StatefulSet" | "Job" | "ReplicationController" => {
            pod_spec(obj.pointer_mut("/spec/template/spec"), f);
            if kind == "StatefulSet" {
                slot(obj.pointer_mut("/spec/serviceName"), "Service", f);
            }
        }
        "CronJob" => pod_spec(obj.pointer_mut("/spec/jobTemplate/spec/template/spec"), f),
        "Ingress" => {
            if let Some(spec) = obj.get_mut("spec") {
                slot(spec.pointer_mut("/defaultBackend/service/name"), "Service", f);
                for rule in spec.get_mut("rules").and_then(Value::as_array_mut).into_iter().flatten() {
                    for p in rule.pointer_mut("/http/paths").and_then(Value::as_array_mut).into_iter().flatten() {
                        slot(p.pointer_mut("/backend/service/name"), "Service", f);
                    }
                }
                for t in spec.get_mut("tls").and_then(Value::as_array_mut).into_iter().flatten() {
                    slot(t.get_mut("secretName"), "Secret", f);
                }
            }
        }
        "HorizontalPodAutoscaler" => {
            let target = obj.pointer("/spec/scaleTargetRef/kind").and_then(Value::as_str).unwrap_or("").to_string();
            slot(obj.pointer_mut("/spec/scaleTargetRef/name"), &target, f);
        }
        "RoleBinding" | "ClusterRoleBinding" => {
            let role_kind = obj.pointer("/roleRef/kind").and_then(Value::as_str).unwrap_or("").to_string();
            slot(obj.pointer_mut("/roleRef/name"), &role_kind, f);
            for s in obj.get_mut("subjects").and_then(Value::as_array_mut).into_iter().flatten() {
                if s.get("kind").and_then(Value::as_str) == Some("ServiceAccount") {
                    let m = s.as_object_mut().expect("subject");
                    let mut ns = m.remove("namespace");
                    if let Some(name) = m.get_mut("name") {
                        f("ServiceAccount", name, ns.as_mut());
                    }
                    if let Some(ns) = ns {
                        m.insert("namespace".into(), ns);
                    }
                }
            }
        }
        "ServiceAccount" => {
            for key in ["imagePullSecrets", "secrets"] {
                for s in obj.get_mut(key).and_then(Value::as_array_mut).into_iter().flatten() {
                    slot(s.get_mut("name"), "Secret", f);
                }
            }
        }
        _ => {}
    }
}

fn slot(v: Option<&mut Value>, kind: &str, f: &mut RefFn) {
    if let Some(v) = v {
        f(kind, v, None);
    }
}

/// A Pod spec's references.
fn pod_spec(spec: Option<&mut Value>, f: &mut RefFn) {
    let Some(spec) = spec else { return };
    slot(spec.get_mut("serviceAccountName"), "ServiceAccount", f);
    slot(spec.get_mut("priorityClassName"), "PriorityClass", f);
    for s in spec.get_mut("imagePullSecrets").and_then(Value::as_array_mut).into_iter().flatten() {
        slot(s.get_mut("name"), "Secret", f);
    }
    for v in spec.get_mut("volumes").and_then(Value::as_array_mut).into_iter().flatten() {
        slot(v.pointer_mut("/configMap/name"), "ConfigMap", f);
        slot(v.pointer_mut("/secret/secretName"), "Secret", f);
        slot(v.pointer_mut("/persistentVolumeClaim/claimName"), "PersistentVolumeClaim", f);
        for src in v.pointer_mut("/projected/sources").and_then(Value::as_array_mut).into_iter().flatten() {
            slot(src.pointer_mut("/configMap/name"), "ConfigMap", f);
            slot(src.pointer_mut("/secret/name"), "Secret", f);
        }
    }
    for key in ["containers", "initContainers"] {
        for c in spec.get_mut(key).and_then(Value::as_array_mut).into_iter().flatten() {
            for e in c.get_mut("env").and_then(Value::as_array_mut).into_iter().flatten() {
                slot(e.pointer_mut("/valueFrom/configMapKeyRef/name"), "ConfigMap", f);
                slot(e.pointer_mut("/valueFrom/secretKeyRef/name"), "Secret", f);
            }
            for e in c.get_mut("envFrom").and_then(Value::as_array_mut).into_iter().flatten() {
                slot(e.pointer_mut("/configMapRef/name"), "ConfigMap", f);
                slot(e.pointer_mut("/secretRef/name"), "Secret", f);
            }
        }
    }
}
