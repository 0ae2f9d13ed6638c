//! kube-apiserver's etcd compactor (`--etcd-compaction-interval`, 5 minutes; storage/etcd3/
//! compact.go) as `kubesim serve` runs it: each tick compacts to the revision the tick before
//! saw, so history younger than one interval is always there and older history goes.

use kubesim::api::request::{Method, PatchType, Request};
use kubesim::cluster::{kubectl_identity, ClusterConfig, ETCD_COMPACTION_INTERVAL_MS};

#[test]
fn each_tick_compacts_to_the_revision_of_the_tick_before() {
    let config = ClusterConfig { etcd_compaction_interval_ms: ETCD_COMPACTION_INTERVAL_MS, ..ClusterConfig::default() };
    let mut c = kubesim::sandbox::default_cluster_with(1, config);
    let create = |c: &mut kubesim::cluster::Cluster, name: &str| {
        let body = serde_json::json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": name}});
        let r = c.client_request(&kubectl_identity(), Request { method: Method::Post, path: "/api/v1/namespaces/default/configmaps".into(), body: Some(body), patch_type: PatchType::Merge });
        assert_eq!(r.code, 201);
        r.body["metadata"]["resourceVersion"].as_str().unwrap().parse::<i64>().unwrap()
    };
    let first = create(&mut c, "first");
    assert_eq!(c.view().etcd_compact_revision(), 0, "nothing is compacted before the first interval ends");
    // up to the first tick (5 minutes after the cluster started): it records the revision
    let start = c.now();
    c.advance(ETCD_COMPACTION_INTERVAL_MS - start + 1);
    let seen = c.view().etcd_revision();
    assert!(c.view().etcd_compact_revision() < first, "the first tick only records a revision");
    let second = create(&mut c, "second");
    // the second tick compacts to what the first saw
    c.advance(ETCD_COMPACTION_INTERVAL_MS);
    assert_eq!(c.view().etcd_compact_revision(), seen);
    assert!(c.view().etcd_get("/registry/configmaps/default/first", Some(first)).is_err(), "older history is gone");
    assert!(c.view().etcd_get("/registry/configmaps/default/second", Some(second)).is_ok(), "younger history is kept");
}

#[test]
fn the_page_and_scripts_keep_their_history() {
    let mut c = kubesim::sandbox::default_cluster(1);
    c.advance(3 * ETCD_COMPACTION_INTERVAL_MS);
    assert_eq!(c.view().etcd_compact_revision(), 0);
}
