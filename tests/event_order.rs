#![cfg(not(target_arch = "wasm32"))]
//! Seed 004's story, in the order the Events were created (etcd create revision): the deployment
//! controller scales up the new ReplicaSet, the replicaset controller creates three Pods, the
//! scheduler assigns them, then each kubelet pulls, creates and starts its container.

use kubesim::api::meta;
use kubesim::sandbox::default_cluster;
use kubesim::script;

#[test]
fn seed004_events_come_in_the_seed_posts_order() {
    let mut c = default_cluster(1);
    script::run(&mut c, include_str!("scenarios/seed004_chain.sh"), &|_| None);
    let mut events: Vec<(i64, serde_json::Value)> = c
        .view()
        .etcd_range("/registry/events/default/", None)
        .unwrap()
        .into_iter()
        .map(|kv| (kv.create_revision, serde_json::from_str(kv.value.as_deref().unwrap()).unwrap()))
        .collect();
    events.sort_by_key(|(rev, _)| *rev);
    let reasons: Vec<String> = events.iter().map(|(_, e)| meta::get_str(e, &["reason"]).to_string()).collect();
    assert_eq!(reasons[0], "ScalingReplicaSet");
    assert_eq!(&reasons[1..4], &["SuccessfulCreate"; 3]);
    assert_eq!(&reasons[4..7], &["Scheduled"; 3]);
    // per pod: Pulling, Pulled, Created, Started, in that order
    let pods: Vec<String> = events[4..7].iter().map(|(_, e)| meta::get_str(e, &["involvedObject", "name"]).to_string()).collect();
    for p in &pods {
        let per_pod: Vec<&str> = events
            .iter()
            .filter(|(_, e)| meta::get_str(e, &["involvedObject", "name"]) == p && meta::get_str(e, &["source", "component"]) == "kubelet")
            .map(|(_, e)| meta::get_str(e, &["reason"]))
            .collect();
        assert_eq!(per_pod, vec!["Pulling", "Pulled", "Created", "Started"], "pod {}", p);
        // names: <deployment>-<hash from 4-9bcdf>-<5 from the 27-character alphabet>
        let rest = p.strip_prefix("nginx-deployment-").expect("prefix");
        let (hash, suffix) = rest.rsplit_once('-').expect("two parts");
        assert!(hash.chars().all(|ch| "456789bcdf".contains(ch)) && (1..=10).contains(&hash.len()), "hash {}", hash);
        assert!(suffix.len() == 5 && suffix.chars().all(|ch| "bcdfghjklmnpqrstvwxz2456789".contains(ch)), "suffix {}", suffix);
    }
    assert_eq!(events.len(), 7 + 3 * 4);
    // all three pods Running and Ready
    let pods = c.view().objects(meta::lookup("pods").unwrap(), "default", None);
    assert_eq!(pods.len(), 3);
    for p in pods {
        assert_eq!(meta::get_str(&p, &["status", "phase"]), "Running");
        let ready = p["status"]["conditions"].as_array().unwrap().iter().find(|c| c["type"] == "Ready").unwrap();
        assert_eq!(ready["status"], "True");
    }
}
