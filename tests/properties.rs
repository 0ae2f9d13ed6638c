#![cfg(not(target_arch = "wasm32"))]
//! Property test: over many seeds and random sequences of applies, scales, deletes and node
//! additions, the invariants of a healthy control plane hold after every settle:
//! - no node holds more requested CPU/memory or pods than it can allocate;
//! - no pod was bound twice (one `binding` create per pod in the audit log);
//! - every ReplicaSet converges: status.replicas == spec.replicas (pending pods count as replicas);
//! - no orphan pods: every pod's owner ReplicaSet or DaemonSet exists, every ReplicaSet's
//!   Deployment exists;
//! - every DaemonSet has exactly one Pod on each node that should run one, and none on a node
//!   that may not keep one (`NodeShouldRunDaemonPod`);
//! - no Job runs more Pods at once than its `parallelism`;
//! - every StatefulSet's Pods have consecutive ordinals from 0 (`web-0`, `web-1`, … no gaps), and
//!   every claim a Pod of it names exists.

use kubesim::api::{meta, quantity};
use kubesim::controllers::{daemon, statefulset};
use kubesim::cluster::Cluster;
use kubesim::sandbox::default_cluster;
use kubesim::sim::Rng;
use kubesim::{kubectl, script};
use std::collections::BTreeMap;

fn run(c: &mut Cluster, line: &str, stdin: Option<&str>) -> String {
    let args = kubectl::split_args(line).unwrap();
    let out = kubectl::run(c, &args[1..], stdin, &|_| None);
    assert!(!out.stderr.contains("panicked"), "{}", out.stderr);
    out.combined()
}

fn manifest(name: &str, replicas: u64, cpu_m: u64, image: &str) -> String {
    format!(
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {name}\nspec:\n  replicas: {replicas}\n  selector:\n    matchLabels:\n      app: {name}\n  template:\n    metadata:\n      labels:\n        app: {name}\n    spec:\n      containers:\n      - name: c\n        image: {image}\n        resources:\n          requests:\n            cpu: {cpu_m}m\n            memory: 256Mi\n"
    )
}

fn daemon_set(name: &str, node_selector: Option<&str>, image: &str) -> String {
    let sel = node_selector.map(|l| format!("      nodeSelector:\n        {}\n", l.replacen('=', ": ", 1))).unwrap_or_default();
    format!(
        "apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: {name}\nspec:\n  selector:\n    matchLabels:\n      ds: {name}\n  template:\n    metadata:\n      labels:\n        ds: {name}\n    spec:\n{sel}      containers:\n      - name: c\n        image: {image}\n        resources:\n          requests:\n            cpu: 50m\n"
    )
}

fn list(c: &Cluster, r: &str) -> Vec<serde_json::Value> {
    c.view().objects(meta::lookup(r).unwrap(), "", None)
}

fn check_invariants(c: &Cluster, ctx: &str) {
    let pods = list(c, "pods");
    // capacity
    for node in list(c, "nodes") {
        let name = meta::name(&node);
        let on: Vec<&serde_json::Value> = pods.iter().filter(|p| meta::get_str(p, &["spec", "nodeName"]) == name).collect();
        let alloc_cpu = quantity::parse_quantity(&node["status"]["allocatable"]["cpu"]).unwrap().milli_value();
        let alloc_mem = quantity::parse_quantity(&node["status"]["allocatable"]["memory"]).unwrap().value();
        let alloc_pods = quantity::parse_quantity(&node["status"]["allocatable"]["pods"]).unwrap().value();
        let (mut cpu, mut mem) = (0, 0);
        for p in &on {
            for ctr in p["spec"]["containers"].as_array().unwrap() {
                if let Some(q) = quantity::parse_quantity(&ctr["resources"]["requests"]["cpu"]) {
                    cpu += q.milli_value();
                }
                if let Some(q) = quantity::parse_quantity(&ctr["resources"]["requests"]["memory"]) {
                    mem += q.value();
                }
            }
        }
        assert!(cpu <= alloc_cpu, "{}: node {} cpu {}m > {}m", ctx, name, cpu, alloc_cpu);
        assert!(mem <= alloc_mem, "{}: node {} memory over allocatable", ctx, name);
        assert!(on.len() as i64 <= alloc_pods, "{}: node {} too many pods", ctx, name);
    }
    // one binding per pod
    let mut bindings: BTreeMap<String, usize> = BTreeMap::new();
    for line in c.view().audit() {
        let ev: serde_json::Value = serde_json::from_str(line).unwrap();
        if meta::get_str(&ev, &["objectRef", "subresource"]) == "binding" && ev["responseStatus"]["code"] == 201 {
            *bindings.entry(meta::get_str(&ev, &["objectRef", "name"]).to_string()).or_default() += 1;
        }
    }
    for (pod, n) in &bindings {
        assert_eq!(*n, 1, "{}: pod {} bound {} times", ctx, pod, n);
    }
    // convergence and ownership
    let rss = list(c, "replicasets");
    let deploys = list(c, "deployments");
    for rs in &rss {
        let spec = rs["spec"]["replicas"].as_i64().unwrap_or(1);
        let status = rs["status"]["replicas"].as_i64().unwrap_or(0);
        assert_eq!(spec, status, "{}: replicaset {} has {} of {} replicas", ctx, meta::name(rs), status, spec);
        let owner = meta::controller_of(rs).map(|o| meta::get_str(o, &["uid"]).to_string()).unwrap_or_default();
        assert!(deploys.iter().any(|d| meta::uid(d) == owner), "{}: replicaset {} is orphaned", ctx, meta::name(rs));
    }
    let dss = list(c, "daemonsets");
    let jobs = list(c, "jobs");
    for job in &jobs {
        let parallelism = job["spec"]["parallelism"].as_i64().unwrap_or(1);
        let running = pods
            .iter()
            .filter(|p| meta::controller_of(p).map(|o| meta::get_str(o, &["uid"]) == meta::uid(job)).unwrap_or(false))
            .filter(|p| !meta::is_deleting(p) && !matches!(meta::get_str(p, &["status", "phase"]), "Succeeded" | "Failed"))
            .count() as i64;
        assert!(running <= parallelism, "{}: job {} runs {} pods, parallelism {}", ctx, meta::name(job), running, parallelism);
    }
    let stss = list(c, "statefulsets");
    for p in &pods {
        let owner = meta::controller_of(p).map(|o| meta::get_str(o, &["uid"]).to_string()).unwrap_or_default();
        assert!(rss.iter().chain(dss.iter()).chain(jobs.iter()).chain(stss.iter()).any(|o| meta::uid(o) == owner), "{}: pod {} is orphaned", ctx, meta::name(p));
    }
    // StatefulSets: consecutive ordinals, claims present
    let claims = list(c, "persistentvolumeclaims");
    for sts in &stss {
        let mut ords: Vec<i64> = pods
            .iter()
            .filter(|p| meta::controller_of(p).map(|o| meta::get_str(o, &["uid"]) == meta::uid(sts)).unwrap_or(false))
            .map(|p| statefulset::utils::ordinal(p))
            .collect();
        ords.sort();
        let want: Vec<i64> = (0..ords.len() as i64).collect();
        assert_eq!(ords, want, "{}: statefulset {} has pods with ordinals {:?}", ctx, meta::name(sts), ords);
        for p in pods.iter().filter(|p| meta::controller_of(p).map(|o| meta::get_str(o, &["uid"]) == meta::uid(sts)).unwrap_or(false)) {
            for v in meta::get_array(p, &["spec", "volumes"]) {
                if let Some(claim) = meta::str_at(v, &["persistentVolumeClaim", "claimName"]) {
                    assert!(claims.iter().any(|c| meta::name(c) == claim), "{}: pod {} names missing claim {}", ctx, meta::name(p), claim);
                }
            }
        }
    }
    // one daemon Pod per eligible node
    let nodes = list(c, "nodes");
    for ds in dss.iter().filter(|d| !meta::is_deleting(d)) {
        for node in &nodes {
            let e = daemon::util::node_should_run_daemon_pod(node, ds);
            let here = pods
                .iter()
                .filter(|p| !meta::is_deleting(p))
                .filter(|p| meta::controller_of(p).map(|o| meta::get_str(o, &["uid"]) == meta::uid(ds)).unwrap_or(false))
                .filter(|p| daemon::util::target_node_name(p).as_deref() == Some(meta::name(node)))
                .count();
            if e.should_run {
                assert_eq!(here, 1, "{}: daemonset {} has {} pods on eligible node {}", ctx, meta::name(ds), here, meta::name(node));
            }
            if !e.should_continue_running {
                assert_eq!(here, 0, "{}: daemonset {} keeps {} pods on node {}", ctx, meta::name(ds), here, meta::name(node));
            }
        }
    }
}

#[test]
fn invariants_hold_over_random_operations() {
    let images = ["nginx:1.27", "redis:7", "busybox:1.36", "nginx:1.99"];
    let (mut pods_seen, mut pending_seen, mut deletes_seen, mut daemon_pods_seen) = (0usize, 0usize, 0usize, 0usize);
    let mut sts_applied = 0usize;
    for seed in 0..12u64 {
        let mut c = default_cluster(seed);
        let mut rng = Rng::new(seed * 7919 + 1);
        let mut names: Vec<String> = Vec::new();
        for step in 0..12 {
            let op = rng.below(14);
            let ctx = format!("seed {} step {} op {}", seed, step, op);
            match op {
                0..=3 => {
                    let name = format!("d{}", rng.below(5));
                    let m = manifest(&name, rng.below(6), 100 + rng.below(1500), images[rng.below(4) as usize]);
                    run(&mut c, "kubectl apply -f -", Some(&m));
                    if !names.contains(&name) {
                        names.push(name);
                    }
                }
                4 | 5 if !names.is_empty() => {
                    let n = &names[rng.below(names.len() as u64) as usize];
                    run(&mut c, &format!("kubectl scale deployment {} --replicas={}", n, rng.below(8)), None);
                }
                6 if !names.is_empty() => {
                    let i = rng.below(names.len() as u64) as usize;
                    let n = names.remove(i);
                    let cascade = ["background", "foreground"][rng.below(2) as usize];
                    run(&mut c, &format!("kubectl delete deployment {} --cascade={}", n, cascade), None);
                }
                7 => {
                    let mut sb = kubesim::sandbox::Sandbox::attach(&c);
                    let cmd = script::Command { line: format!("sim node add extra-{}-{} --cpu 2 --memory 4Gi", seed, step), line_no: 1, stdin: None };
                    script::exec(&mut c, &mut sb, &cmd, &|_| None);
                }
                10 | 11 => {
                    // a DaemonSet, maybe only for labelled nodes, maybe with a new image
                    let name = format!("ds{}", rng.below(2));
                    let sel = [None, Some("disk=ssd")][rng.below(2) as usize];
                    run(&mut c, "kubectl apply -f -", Some(&daemon_set(&name, sel, images[rng.below(3) as usize])));
                }
                9 => {
                    // a StatefulSet: some replicas, either pod management policy, maybe claims
                    let name = format!("sts{}", rng.below(2));
                    let policy = ["OrderedReady", "Parallel"][rng.below(2) as usize];
                    let claims = if rng.below(2) == 0 {
                        "  volumeClaimTemplates:\n  - metadata:\n      name: data\n    spec:\n      accessModes: [\"ReadWriteOnce\"]\n      resources:\n        requests:\n          storage: 1Gi\n"
                    } else {
                        ""
                    };
                    let m = format!(
                        "apiVersion: apps/v1\nkind: StatefulSet\nmetadata:\n  name: {name}\nspec:\n  replicas: {}\n  podManagementPolicy: {policy}\n  selector:\n    matchLabels:\n      sts: {name}\n  template:\n    metadata:\n      labels:\n        sts: {name}\n    spec:\n      containers:\n      - name: c\n        image: {}\n        resources:\n          requests:\n            cpu: 50m\n{claims}",
                        rng.below(5),
                        images[rng.below(4) as usize]
                    );
                    let out = run(&mut c, "kubectl apply -f -", Some(&m));
                    sts_applied += usize::from(out.contains("statefulset.apps"));
                }
                13 => {
                    // a Job: some completions, some parallelism, a command that may fail
                    let name = format!("job{}", rng.below(3));
                    let cmd = ["sleep 3", "sleep 2; exit 1", "echo done"][rng.below(3) as usize];
                    let m = format!(
                        "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: {name}\nspec:\n  completions: {}\n  parallelism: {}\n  backoffLimit: 2\n  template:\n    spec:\n      restartPolicy: Never\n      containers:\n      - name: c\n        image: busybox:1.36\n        command: [\"sh\", \"-c\", \"{cmd}\"]\n",
                        1 + rng.below(4),
                        1 + rng.below(3)
                    );
                    run(&mut c, "kubectl apply -f -", Some(&m));
                }
                12 => {
                    // label or taint a node: daemon Pods come and go
                    let nodes = list(&c, "nodes");
                    let n = meta::name(&nodes[rng.below(nodes.len() as u64) as usize]).to_string();
                    let cmd = match rng.below(3) {
                        0 => format!("kubectl label nodes {} disk=ssd --overwrite", n),
                        1 => format!("kubectl label nodes {} disk-", n),
                        _ => format!("kubectl taint nodes {} dedicated=x:NoExecute --overwrite", n),
                    };
                    run(&mut c, &cmd, None);
                }
                _ => {
                    c.advance(rng.below(20_000) as i64);
                }
            }
            let s = c.run_until_settled();
            assert!(s.settled, "{}: did not settle", ctx);
            check_invariants(&c, &ctx);
            let pods = list(&c, "pods");
            pods_seen += pods.len();
            pending_seen += pods.iter().filter(|p| meta::get_str(p, &["spec", "nodeName"]).is_empty()).count();
            deletes_seen += usize::from(op == 6);
            daemon_pods_seen += pods.iter().filter(|p| meta::controller_of(p).map(|o| meta::get_str(o, &["kind"]) == "DaemonSet").unwrap_or(false)).count();
        }
    }
    // the random walk must actually exercise the control plane
    assert!(pods_seen > 200, "only {} pods seen", pods_seen);
    assert!(pending_seen > 0, "no unschedulable pods seen");
    assert!(deletes_seen > 5, "only {} deletes", deletes_seen);
    assert!(daemon_pods_seen > 20, "only {} daemon pods seen", daemon_pods_seen);
    assert!(sts_applied > 5, "only {} StatefulSet applies", sts_applied);
}
