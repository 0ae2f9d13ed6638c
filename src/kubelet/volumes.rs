//! The volume plugins' `SetUp` for the volumes whose content the kubelet writes itself:
//! `pkg/volume/configmap`, `pkg/volume/secret`, `pkg/volume/projected`, `pkg/volume/downwardapi`
//! and `pkg/volume/emptydir`, with `pkg/volume/util/operationexecutor`'s error text
//! (`MountVolume.SetUp failed for volume "cfg" : configmap "app-config" not found`).
//!
//! A volume's content is kept as the files the container sees (name → text); the kubelet writes
//! it again on a later pod sync when the ConfigMap or Secret changes (the atomic `..data` swap).
//! Other volume types (persistentVolumeClaim, hostPath, …) mount with no content kubesim shows.
//!
//! A projected `serviceAccountToken` source holds the token the kubelet's token manager asked
//! the API server for (`serviceaccounts/token`, bound to the Pod).
//!
//! What kubesim simplifies: file modes are not kept.

use super::envvars::{pod_field, resource_field, PodEnv};
use super::manager::Manager;
use crate::api::{base64, meta};
use serde_json::Value;
use std::collections::BTreeMap;

/// The files of one volume.
pub type Files = BTreeMap<String, String>;

/// The files a ConfigMap's or Secret's keys make: every key, or the `items` listed (each at its
/// `path`); a missing listed key fails unless `optional`.
fn key_files(obj: Option<&Value>, items: &[Value], optional: bool, secret: bool) -> Result<Files, String> {
    let mut files = Files::new();
    let Some(obj) = obj else { return Ok(files) };
    let value = |k: &str| -> Option<String> {
        if let Some(v) = meta::get(obj, &["data", k]).and_then(Value::as_str) {
            return Some(if secret { base64::decode_lossy(v) } else { v.to_string() });
        }
        meta::get(obj, &["binaryData", k]).and_then(Value::as_str).map(base64::decode_lossy)
    };
    if items.is_empty() {
        for field in ["data", "binaryData"] {
            if let Some(m) = obj.get(field).and_then(Value::as_object) {
                for k in m.keys() {
                    files.insert(k.clone(), value(k).unwrap_or_default());
                }
            }
        }
        return Ok(files);
    }
    for it in items {
        let key = meta::get_str(it, &["key"]);
        match value(key) {
            Some(v) => {
                files.insert(meta::get_str(it, &["path"]).to_string(), v);
            }
            None if optional => {}
            None if secret => return Err(format!("references non-existent secret key: {}", key)),
            None => return Err(format!("configmap references non-existent config key: {}", key)),
        }
    }
    Ok(files)
}

/// One source (a `configMap` or `secret` volume, or a projected source) read through its manager.
fn object_files(src: &Value, name_field: &str, mgr: &Manager, ns: &str, secret: bool) -> Result<Files, String> {
    let optional = src.get("optional").and_then(Value::as_bool).unwrap_or(false);
    let obj = match mgr.get(ns, meta::get_str(src, &[name_field])) {
        Ok(o) => Some(o),
        Err(_) if optional => None,
        Err(e) => return Err(e),
    };
    key_files(obj.as_deref(), meta::get_array(src, &["items"]), optional, secret)
}

/// The downward API's files: each item's field of the Pod or resource of a container.
fn downward_files(e: &PodEnv, items: &[Value]) -> Result<Files, String> {
    let mut files = Files::new();
    for it in items {
        let v = if let Some(f) = it.get("fieldRef") {
            pod_field(e, meta::get_str(f, &["fieldPath"]))?
        } else if let Some(r) = it.get("resourceFieldRef") {
            resource_field(e, &Value::Null, r)?
        } else {
            String::new()
        };
        files.insert(meta::get_str(it, &["path"]).to_string(), v);
    }
    Ok(files)
}

/// `SetUp` of one of the Pod's volumes: its files, or the plugin's error.
pub fn set_up(e: &PodEnv, volume: &Value, configmaps: &Manager, secrets: &Manager, token: Option<&str>) -> Result<Files, String> {
    let ns = meta::namespace(e.pod);
    if let Some(src) = volume.get("configMap") {
        return object_files(src, "name", configmaps, ns, false);
    }
    if let Some(src) = volume.get("secret") {
        return object_files(src, "secretName", secrets, ns, true);
    }
    if let Some(src) = volume.get("downwardAPI") {
        return downward_files(e, meta::get_array(src, &["items"]));
    }
    if let Some(p) = volume.get("projected") {
        let mut files = Files::new();
        for s in meta::get_array(p, &["sources"]) {
            let part = if let Some(src) = s.get("configMap") {
                object_files(src, "name", configmaps, ns, false)?
            } else if let Some(src) = s.get("secret") {
                object_files(src, "name", secrets, ns, true)?
            } else if let Some(src) = s.get("downwardAPI") {
                downward_files(e, meta::get_array(src, &["items"]))?
            } else if let Some(src) = s.get("serviceAccountToken") {
                // the token manager's token (fetched before the volumes are set up)
                Files::from([(meta::get_str(src, &["path"]).to_string(), token.unwrap_or_default().to_string())])
            } else {
                Files::new()
            };
            files.extend(part);
        }
        return Ok(files);
    }
    Ok(Files::new())
}

/// Whether the volume's content comes from this ConfigMap or Secret (`resource` "configmaps" or
/// "secrets"): the volumes a change to it reaches.
pub fn uses(volume: &Value, resource: &str, name: &str) -> bool {
    let (field, name_field) = if resource == "secrets" { ("secret", "secretName") } else { ("configMap", "name") };
    if volume.get(field).map(|s| meta::get_str(s, &[name_field]) == name).unwrap_or(false) {
        return true;
    }
    meta::get_array(volume, &["projected", "sources"]).iter().any(|s| s.get(field).map(|s| meta::get_str(s, &["name"]) == name).unwrap_or(false))
}
