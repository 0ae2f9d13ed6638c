#![cfg(not(target_arch = "wasm32"))]
//! A named table of rolling updates: maxSurge and maxUnavailable in {0, 1, 25%, 100%} ×
//! replicas in {1, 3, 4, 10}. For each, a Deployment of nginx:1.25 is updated to nginx:1.27 with
//! `kubectl set image`, and the test checks what upstream's rolling.go guarantees:
//!
//! - the first two ScalingReplicaSet events, worked out by hand from `resolveFenceposts` (surge
//!   rounds up, unavailable down, both 0 → unavailable 1), `NewRSNewReplicas` and
//!   `reconcileOldReplicaSets`: with surge s and unavailable u (capped at the replica count N),
//!   s > 0 → "Scaled up NEW from 0 to s", then "Scaled down OLD from N to N−u" (when u = 0: once
//!   new Pods are available, by as many as are, 1 to s); s = 0 → "Scaled down OLD from N to
//!   N−u", then "Scaled up NEW from 0 to u";
//! - after every delivery: the ReplicaSets' desired replicas never add up to more than N + s, and
//!   the available Pods never drop below N − u;
//! - at the end the new ReplicaSet has N available Pods and the old one none.

use kubesim::api::meta;
use kubesim::kubectl;
use kubesim::sandbox::default_cluster;
use kubesim::script;
use serde_json::Value;

fn resolve(v: &str, n: i64, round_up: bool) -> i64 {
    match v.strip_suffix('%') {
        Some(p) => {
            let p: i64 = p.parse().unwrap();
            if round_up { (p * n + 99) / 100 } else { p * n / 100 }
        }
        None => v.parse().unwrap(),
    }
}

fn replica_sets(c: &kubesim::cluster::Cluster) -> Vec<Value> {
    c.view().objects(meta::lookup("replicasets").unwrap(), "default", None)
}

fn scaling_events(c: &kubesim::cluster::Cluster) -> Vec<String> {
    let mut evs: Vec<(i64, Value)> = c
        .view()
        .etcd_range("/registry/events/default/", None)
        .unwrap()
        .into_iter()
        .map(|kv| (kv.create_revision, serde_json::from_str(kv.value.as_deref().unwrap()).unwrap()))
        .collect();
    evs.sort_by_key(|(r, _)| *r);
    evs.iter().filter(|(_, e)| e["reason"] == "ScalingReplicaSet").map(|(_, e)| meta::get_str(e, &["message"]).to_string()).collect()
}

#[test]
fn rolling_update_steps_table() {
    let values = ["0", "1", "25%", "100%"];
    let mut checked = 0;
    for n in [1i64, 3, 4, 10] {
        for surge in values {
            for unavail in values {
                if surge == "0" && unavail == "0" {
                    continue; // rejected by validation: may not be 0 when maxSurge is 0
                }
                let name = format!("n{} surge {} unavailable {}", n, surge, unavail);
                let q = |v: &str| if v.ends_with('%') { format!("\"{}\"", v) } else { v.to_string() };
                let yaml = format!(
                    "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: {n}\n  strategy:\n    rollingUpdate:\n      maxSurge: {}\n      maxUnavailable: {}\n  selector:\n    matchLabels:\n      app: web\n  template:\n    metadata:\n      labels:\n        app: web\n    spec:\n      containers:\n      - name: nginx\n        image: nginx:1.25\n",
                    q(surge),
                    q(unavail)
                );
                let mut c = default_cluster(1);
                let out = script::run(&mut c, &format!("kubectl apply -f - <<EOF\n{}EOF\nsim settle\n", yaml), &|_| None);
                assert!(out.contains("deployment.apps/web created"), "{}: {}", name, out);
                let old_rs = meta::name(&replica_sets(&c)[0]).to_string();
                let before = scaling_events(&c).len();
                let args: Vec<String> = ["set", "image", "deployment/web", "nginx=nginx:1.27"].iter().map(|s| s.to_string()).collect();
                let o = kubectl::run(&mut c, &args, None, &|_| None);
                assert_eq!(o.stdout, "deployment.apps/web image updated\n", "{}", name);

                let s = resolve(surge, n, true).min(n);
                let mut u = resolve(unavail, n, false);
                if s == 0 && u == 0 {
                    u = 1;
                }
                let u = u.min(n);
                let (max_total, min_available) = (n + resolve(surge, n, true), n - u);
                let mut steps = 0;
                while c.run_steps(1).steps > 0 {
                    steps += 1;
                    assert!(steps < 200_000, "{}: does not settle", name);
                    let rss = replica_sets(&c);
                    let desired: i64 = rss.iter().map(|r| meta::get_i64(r, &["spec", "replicas"]).unwrap_or(0)).sum();
                    let available: i64 = rss.iter().map(|r| meta::get_i64(r, &["status", "availableReplicas"]).unwrap_or(0)).sum();
                    assert!(desired <= max_total, "{}: {} desired > {} at step {}", name, desired, max_total, steps);
                    assert!(available >= min_available, "{}: {} available < {} at step {}", name, available, min_available, steps);
                }
                let rss = replica_sets(&c);
                let new_rs = rss.iter().find(|r| meta::name(r) != old_rs).expect("a new ReplicaSet");
                let new_name = meta::name(new_rs).to_string();
                assert_eq!(meta::get_i64(new_rs, &["status", "availableReplicas"]), Some(n), "{}: new RS not complete", name);
                let old = rss.iter().find(|r| meta::name(r) == old_rs).unwrap();
                assert_eq!(meta::get_i64(old, &["spec", "replicas"]), Some(0), "{}: old RS not scaled to 0", name);

                let events = scaling_events(&c)[before..].to_vec();
                let up = |to: i64| format!("Scaled up replica set {} from 0 to {}", new_name, to);
                let down = |to: i64| format!("Scaled down replica set {} from {} to {}", old_rs, n, to);
                if s > 0 && u == 0 {
                    // nothing may go down before new Pods are available; then as many as are
                    // available at that sync (they become available one by one): between 1 and s
                    assert_eq!(events[0], up(s), "{}: all events {:?}", name, events);
                    let to: i64 = events[1].strip_prefix(&format!("Scaled down replica set {} from {} to ", old_rs, n)).and_then(|t| t.parse().ok()).unwrap_or(-1);
                    assert!((n - s..n).contains(&to), "{}: all events {:?}", name, events);
                } else {
                    let want = if s > 0 { vec![up(s), down(n - u)] } else { vec![down(n - u), up(u)] };
                    assert_eq!(&events[..2], &want[..], "{}: all events {:?}", name, events);
                }
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 60);
}
