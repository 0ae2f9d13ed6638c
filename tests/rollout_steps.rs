#![cfg(not(target_arch = "wasm32"))]
//! Named tables of rollouts. Rolling updates: maxSurge and maxUnavailable in {0, 1, 25%, 100%} ×
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

fn kubectl_line(c: &mut kubesim::cluster::Cluster, line: &str) -> kubectl::Output {
    kubectl::run(c, &kubectl::split_args(line).unwrap(), None, &|_| None)
}

fn sizes(c: &kubesim::cluster::Cluster) -> Vec<(String, i64)> {
    let mut v: Vec<(String, i64)> = replica_sets(c).iter().map(|r| (r.pointer("/spec/template/spec/containers/0/image").and_then(Value::as_str).unwrap_or("").to_string(), meta::get_i64(r, &["spec", "replicas"]).unwrap_or(0))).collect();
    v.sort();
    v
}

/// Proportional scaling, the example of the Kubernetes docs ("Proportional scaling"): 10 replicas,
/// maxSurge 3, maxUnavailable 2, a rollout stuck on an image that cannot be pulled (old 8, new 5);
/// scaling to 15 spreads the 5 new replicas by size: 3 to the old ReplicaSet, 2 to the new one.
/// The proportions are worked out by hand from `getReplicaSetFraction` (size × new max / old max,
/// rounded) and `GetProportion`; then the rollout goes on where the window allows.
#[test]
fn proportional_scaling_table() {
    // (name, replicas, maxSurge, maxUnavailable, scale to, sizes when stuck (old, new),
    //  the proportional step (old, new), sizes once settled (old, new))
    let cases = [
        ("the docs' example", 10, "3", "2", 15, (8, 5), (11, 7), (11, 7)),
        // 8×8/13 = 4.9 → 5, 5×8/13 = 3.1 → 3; then 2 more old go down and 2 more new come up
        ("scaling down", 10, "3", "2", 5, (8, 5), (5, 3), (3, 5)),
        // 6×20/10 = 12, 4×20/10 = 8
        ("percentages", 8, "25%", "25%", 16, (6, 4), (12, 8), (12, 8)),
    ];
    for (name, n, surge, unavail, to, stuck, step, after) in cases {
        let yaml = format!(
            "kubectl apply -f - <<EOF\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: {n}\n  strategy:\n    rollingUpdate:\n      maxSurge: {}\n      maxUnavailable: {}\n  selector:\n    matchLabels:\n      app: web\n  template:\n    metadata:\n      labels:\n        app: web\n    spec:\n      containers:\n      - name: nginx\n        image: nginx:1.25\nEOF\nsim settle\n",
            if surge.ends_with('%') { format!("\"{}\"", surge) } else { surge.to_string() },
            if unavail.ends_with('%') { format!("\"{}\"", unavail) } else { unavail.to_string() }
        );
        let mut c = default_cluster(1);
        script::run(&mut c, &yaml, &|_| None);
        kubectl_line(&mut c, "set image deployment/web nginx=nginx:0.0-missing");
        script::run(&mut c, "sim settle\n", &|_| None);
        assert_eq!(sizes(&c), vec![("nginx:0.0-missing".to_string(), stuck.1), ("nginx:1.25".to_string(), stuck.0)], "{}: stuck rollout", name);
        let before = scaling_events(&c).len();
        let names: Vec<(String, String)> = replica_sets(&c).iter().map(|r| (r.pointer("/spec/template/spec/containers/0/image").and_then(Value::as_str).unwrap_or("").to_string(), meta::name(r).to_string())).collect();
        let rs_of = |image: &str| names.iter().find(|(i, _)| i == image).map(|(_, n)| n.clone()).unwrap();
        kubectl_line(&mut c, &format!("scale deployment/web --replicas={}", to));
        script::run(&mut c, "sim settle\n", &|_| None);
        let word = if to > n { "up" } else { "down" };
        let want = vec![
            format!("Scaled {} replica set {} from {} to {}", word, rs_of("nginx:1.25"), stuck.0, step.0),
            format!("Scaled {} replica set {} from {} to {}", word, rs_of("nginx:0.0-missing"), stuck.1, step.1),
        ];
        let events = scaling_events(&c)[before..].to_vec();
        assert_eq!(&events[..2], &want[..], "{}: {:?}", name, events);
        assert_eq!(sizes(&c), vec![("nginx:0.0-missing".to_string(), after.1), ("nginx:1.25".to_string(), after.0)], "{}: after scaling to {}", name, to);
    }
}

/// revisionHistoryLimit: after each completed rollout `cleanupDeployment` deletes the oldest
/// ReplicaSets at zero beyond the limit (sorted by revision).
#[test]
fn history_cleanup_table() {
    for (limit, rollouts, kept) in [(0i64, 3, vec![4]), (1, 3, vec![3, 4]), (2, 4, vec![3, 4, 5]), (10, 4, vec![1, 2, 3, 4, 5])] {
        let mut c = default_cluster(1);
        let yaml = format!(
            "kubectl apply -f - <<EOF\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 2\n  revisionHistoryLimit: {limit}\n  selector:\n    matchLabels:\n      app: web\n  template:\n    metadata:\n      labels:\n        app: web\n    spec:\n      containers:\n      - name: nginx\n        image: nginx:1.25\nEOF\nsim settle\n"
        );
        script::run(&mut c, &yaml, &|_| None);
        for (i, image) in ["nginx:1.27", "nginx:1.29", "nginx:stable", "nginx:latest"].iter().take(rollouts).enumerate() {
            let o = kubectl_line(&mut c, &format!("set image deployment/web nginx={}", image));
            assert!(o.stdout.contains("image updated"), "rollout {}: {:?}", i, o);
            script::run(&mut c, "sim settle\n", &|_| None);
        }
        let mut revisions: Vec<i64> = replica_sets(&c).iter().map(|r| meta::annotation(r, "deployment.kubernetes.io/revision").unwrap().parse().unwrap()).collect();
        revisions.sort();
        assert_eq!(revisions, kept, "revisionHistoryLimit {} after {} rollouts", limit, rollouts);
        let h = kubectl_line(&mut c, "rollout history deployment/web");
        let rows: Vec<i64> = h.stdout.lines().skip(2).filter_map(|l| l.split_whitespace().next()?.parse().ok()).collect();
        assert_eq!(rows, kept, "rollout history: {}", h.stdout);
    }
}
