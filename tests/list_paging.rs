//! Lists with `limit` and `continue`, paged by the API server from its watch cache as the etcd3
//! store's `GetList` pages etcd (staging/src/k8s.io/apiserver/pkg/storage/etcd3/store.go and
//! storage/continue.go): key order, the continue token's shape and errors, `remainingItemCount`
//! only when no selector filters the list, and a label-selected page filled past non-matching
//! objects.

use kubesim::api::request::{Method, PatchType, Request, Response};
use kubesim::cluster::{kubectl_identity, Cluster};
use serde_json::{json, Value};

fn get(c: &mut Cluster, path: &str) -> Response {
    c.client_request(&kubectl_identity(), Request { method: Method::Get, path: path.to_string(), body: None, patch_type: PatchType::Merge })
}

fn names(r: &Response) -> Vec<String> {
    r.body["items"].as_array().unwrap().iter().map(|o| o["metadata"]["name"].as_str().unwrap().to_string()).collect()
}

fn token(r: &Response) -> String {
    r.body["metadata"]["continue"].as_str().unwrap_or_default().to_string()
}

fn cluster_with_configmaps() -> Cluster {
    let mut c = kubesim::sandbox::default_cluster(3);
    for i in 1..=7 {
        let color = if i % 2 == 0 { "blue" } else { "red" };
        let body = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": format!("cm-{}", i), "labels": {"color": color}}});
        let r = c.client_request(&kubectl_identity(), Request { method: Method::Post, path: "/api/v1/namespaces/default/configmaps".into(), body: Some(body), patch_type: PatchType::Merge });
        assert_eq!(r.code, 201, "{}", r.body);
    }
    c
}

#[test]
fn pages_follow_key_order_with_upstreams_token() {
    let mut c = cluster_with_configmaps();
    let first = get(&mut c, "/api/v1/namespaces/default/configmaps?limit=3");
    assert_eq!(first.code, 200);
    assert_eq!(names(&first), ["cm-1", "cm-2", "cm-3"]);
    // kube-root-ca.crt is the eighth ConfigMap of the namespace
    assert_eq!(first.body["metadata"]["remainingItemCount"], 5);
    let rv = first.body["metadata"]["resourceVersion"].as_str().unwrap().to_string();
    let decoded: Value = serde_json::from_slice(&kubesim::api::base64::decode(&token(&first)).unwrap()).unwrap();
    assert_eq!(decoded, json!({"v": "meta.k8s.io/v1", "rv": rv.parse::<i64>().unwrap(), "start": "cm-3\u{0}"}));
    let second = get(&mut c, &format!("/api/v1/namespaces/default/configmaps?limit=3&continue={}", token(&first)));
    assert_eq!(names(&second), ["cm-4", "cm-5", "cm-6"]);
    assert_eq!(second.body["metadata"]["resourceVersion"], json!(rv), "a continued list carries the token's resourceVersion");
    let last = get(&mut c, &format!("/api/v1/namespaces/default/configmaps?limit=3&continue={}", token(&second)));
    assert_eq!(names(&last), ["cm-7", "kube-root-ca.crt"]);
    assert!(last.body["metadata"].get("continue").is_none());
    assert!(last.body["metadata"].get("remainingItemCount").is_none());
    // a page that ends exactly at the last object has no token
    let all = get(&mut c, "/api/v1/namespaces/default/configmaps?limit=8");
    assert_eq!(names(&all).len(), 8);
    assert!(all.body["metadata"].get("continue").is_none());
}

#[test]
fn all_namespaces_tokens_name_the_namespace() {
    let mut c = cluster_with_configmaps();
    let first = get(&mut c, "/api/v1/configmaps?limit=2");
    let decoded: Value = serde_json::from_slice(&kubesim::api::base64::decode(&token(&first)).unwrap()).unwrap();
    assert_eq!(decoded["start"], json!("default/cm-2\u{0}"));
}

#[test]
fn a_selected_page_is_filled_and_has_no_remaining_count() {
    let mut c = cluster_with_configmaps();
    let first = get(&mut c, "/api/v1/namespaces/default/configmaps?labelSelector=color%3Dblue&limit=2");
    assert_eq!(names(&first), ["cm-2", "cm-4"]);
    assert!(first.body["metadata"].get("remainingItemCount").is_none());
    let second = get(&mut c, &format!("/api/v1/namespaces/default/configmaps?labelSelector=color%3Dblue&limit=2&continue={}", token(&first)));
    assert_eq!(names(&second), ["cm-6"]);
    assert!(second.body["metadata"].get("continue").is_none());
}

#[test]
fn bad_tokens_get_upstreams_messages() {
    let mut c = cluster_with_configmaps();
    let enc = |v: Value| kubesim::api::base64::encode_url(v.to_string().as_bytes());
    let cases = [
        ("%%%".to_string(), "continue key is not valid: illegal base64 data"),
        (enc(json!({"v": "meta.k8s.io/v2", "rv": 3, "start": "a"})), "continue key is not valid: server does not recognize this encoded version meta.k8s.io/v2"),
        (enc(json!({"v": "meta.k8s.io/v1", "rv": 0, "start": "a"})), "continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)"),
        (enc(json!({"v": "meta.k8s.io/v1", "rv": 3, "start": ""})), "continue key is not valid: encoded start key empty (version meta.k8s.io/v1)"),
        (enc(json!({"v": "meta.k8s.io/v1", "rv": 3, "start": "../secrets/x"})), "continue key is not valid: ../secrets/x"),
    ];
    for (tok, msg) in cases {
        let r = get(&mut c, &format!("/api/v1/namespaces/default/configmaps?limit=2&continue={}", tok));
        assert_eq!(r.code, 400, "{}", tok);
        assert_eq!(r.body["reason"], "BadRequest");
        assert!(r.body["message"].as_str().unwrap().starts_with(msg), "{} → {}", tok, r.body["message"]);
    }
}
