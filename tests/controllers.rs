#![cfg(not(target_arch = "wasm32"))]
//! Controller tests in the style of kubernetes/sample-controller's `controller_test.go`: seed
//! objects into a bare cluster (API server and etcd only), run exactly one component, and assert
//! the list of requests its sync made, in order (verb and URI, as the audit log would show them).
//!
//! Upstream tests do the same with a fake clientset (`f.actions` / `filterInformerActions`):
//! informer LIST and WATCH requests are left out here as there, so each table is the component's
//! reaction to the seeded objects.

use kubesim::api::request::{Method, Request};
use kubesim::cluster::{kubectl_identity, Cluster, ClusterConfig};
use kubesim::api::net::Cidr;
use kubesim::controllers::{deployment, garbagecollector, nodeipam, nodelifecycle, replicaset};
use kubesim::kubelet::{Kubelet, NodeConfig};
use kubesim::scheduler::Scheduler;
use kubesim::trace::{Actor, MessageKind};
use serde_json::{json, Value};

/// A bare cluster: kube-apiserver and etcd, the system namespaces, no components.
fn bare() -> Cluster {
    Cluster::bare(7, ClusterConfig::default())
}

/// The ConfigMap `kube-root-ca.crt` the root CA publisher would have written in `default`, and
/// the ServiceAccount `default` of the ServiceAccount controller: every Pod's `kube-api-access-*`
/// volume needs both (the CA, and a token for the account) before the kubelet can start the Pod.
fn seed_root_ca(c: &mut Cluster) {
    let pem = kubesim::controllers::rootcacertpublisher::root_ca_pem();
    seed(c, "/api/v1/namespaces/default/configmaps", json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "kube-root-ca.crt"}, "data": {"ca.crt": pem}}));
    seed(c, "/api/v1/namespaces/default/serviceaccounts", json!({"apiVersion": "v1", "kind": "ServiceAccount", "metadata": {"name": "default"}}));
}

/// Writes an object as an administrator would (kubectl's identity, not a component's).
fn seed(c: &mut Cluster, path: &str, obj: Value) -> Value {
    let resp = c.client_request(&kubectl_identity(), Request::new(Method::Post, path, Some(obj)));
    assert!(resp.ok(), "seeding {}: {} {}", path, resp.code, resp.message());
    resp.body
}

/// The requests `actor` made after message `since`, as `VERB URI`, informer LIST/WATCH left out.
fn requests(c: &Cluster, actor: &Actor, since: u64) -> Vec<String> {
    timed_requests(c, actor, since).into_iter().map(|r| r.1).collect()
}

fn assert_requests(got: Vec<String>, want: &[&str], what: &str) {
    assert_eq!(got, want, "{}: the requests were\n{}", what, got.join("\n"));
}

fn deployment(name: &str, replicas: i64) -> Value {
    json!({
        "apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {"name": name},
        "spec": {
            "replicas": replicas,
            "selector": {"matchLabels": {"app": name}},
            "template": {"metadata": {"labels": {"app": name}}, "spec": {"containers": [{"name": "c", "image": "nginx:1.14.2"}]}}
        }
    })
}

fn replica_set(name: &str, replicas: i64, owner: Option<&Value>) -> Value {
    let mut rs = json!({
        "apiVersion": "apps/v1", "kind": "ReplicaSet",
        "metadata": {"name": name, "labels": {"app": name}},
        "spec": {
            "replicas": replicas,
            "selector": {"matchLabels": {"app": name}},
            "template": {"metadata": {"labels": {"app": name}}, "spec": {"containers": [{"name": "c", "image": "nginx:1.14.2"}]}}
        }
    });
    if let Some(d) = owner {
        rs["metadata"]["ownerReferences"] = json!([{
            "apiVersion": "apps/v1", "kind": "Deployment", "name": d["metadata"]["name"], "uid": d["metadata"]["uid"],
            "controller": true, "blockOwnerDeletion": true
        }]);
    }
    rs
}

fn node(name: &str) -> Value {
    json!({
        "apiVersion": "v1", "kind": "Node",
        "metadata": {"name": name, "labels": {"kubernetes.io/hostname": name}},
        "status": {
            "allocatable": {"cpu": "4", "memory": "8Gi", "pods": "110"},
            "capacity": {"cpu": "4", "memory": "8Gi", "pods": "110"},
            "conditions": [{"type": "Ready", "status": "True", "reason": "KubeletReady", "message": "kubelet is posting ready status",
                            "lastHeartbeatTime": "2026-01-01T00:00:00Z", "lastTransitionTime": "2026-01-01T00:00:00Z"}]
        }
    })
}

fn pod(name: &str, node_name: Option<&str>) -> Value {
    let mut p = json!({
        "apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": name},
        "spec": {"containers": [{"name": "c", "image": "nginx:1.14.2", "resources": {"requests": {"cpu": "100m"}}}]}
    });
    if let Some(n) = node_name {
        p["spec"]["nodeName"] = json!(n);
    }
    p
}

fn last_id(c: &Cluster) -> u64 {
    c.view().trace().total()
}

#[test]
fn deployment_controller_creates_the_new_replica_set() {
    let mut c = bare();
    seed(&mut c, "/apis/apps/v1/namespaces/default/deployments", deployment("web", 3));
    let since = last_id(&c);
    c.add_component(deployment::DeploymentController::default());
    c.run_until_settled();
    let got = requests(&c, &Actor::DeploymentController, since);
    assert_requests(
        got,
        &[
            // getNewReplicaSet: the new ReplicaSet with the pod-template-hash, then its event
            "POST /apis/apps/v1/namespaces/default/replicasets",
            "POST /api/v1/namespaces/default/events",
            // syncRolloutStatus: Progressing=True NewReplicaSetCreated
            "PUT /apis/apps/v1/namespaces/default/deployments/web/status",
            // the ReplicaSet's ADDED event requeues the Deployment: Progressing reason ReplicaSetUpdated
            "PUT /apis/apps/v1/namespaces/default/deployments/web/status",
        ],
        "deployment controller, new Deployment",
    );
}

#[test]
fn replicaset_controller_creates_missing_pods() {
    let mut c = bare();
    seed(&mut c, "/apis/apps/v1/namespaces/default/replicasets", replica_set("web", 2, None));
    let since = last_id(&c);
    c.add_component(replicaset::ReplicaSetController::default());
    c.run_until_settled();
    let got = requests(&c, &Actor::ReplicaSetController, since);
    assert_requests(
        got,
        &[
            // manageReplicas: slowStartBatch creates the missing pods, each with its SuccessfulCreate event
            "POST /api/v1/namespaces/default/pods",
            "POST /api/v1/namespaces/default/events",
            "POST /api/v1/namespaces/default/pods",
            "POST /api/v1/namespaces/default/events",
            // updateReplicaSetStatus: replicas 2, then again once the pods' ADDED events arrive
            "PUT /apis/apps/v1/namespaces/default/replicasets/web/status",
            "PUT /apis/apps/v1/namespaces/default/replicasets/web/status",
        ],
        "replicaset controller, new ReplicaSet",
    );
}

#[test]
fn garbage_collector_deletes_dependents_of_a_deleted_owner() {
    let mut c = bare();
    let d = seed(&mut c, "/apis/apps/v1/namespaces/default/deployments", deployment("web", 1));
    seed(&mut c, "/apis/apps/v1/namespaces/default/replicasets", replica_set("web-1", 1, Some(&d)));
    c.add_component(garbagecollector::GarbageCollector::default());
    c.run_until_settled();
    let since = last_id(&c);
    let resp = c.client_request(&kubectl_identity(), Request::new(Method::Delete, "/apis/apps/v1/namespaces/default/deployments/web", None));
    assert!(resp.ok());
    c.run_until_settled();
    let got = requests(&c, &Actor::GarbageCollector, since);
    assert_requests(got, &["DELETE /apis/apps/v1/namespaces/default/replicasets/web-1"], "garbage collector, owner deleted");
}

#[test]
fn node_lifecycle_controller_marks_a_silent_node_unknown() {
    let mut c = bare();
    seed(&mut c, "/api/v1/nodes", node("node-1"));
    c.add_component(nodelifecycle::NodeLifecycleController::default());
    c.run_until_settled();
    let since = last_id(&c);
    c.advance(60_000);
    let got = requests(&c, &Actor::NodeController, since);
    assert_requests(
        got,
        &[
            // tryUpdateNodeHealth: every condition Unknown, "Kubelet stopped posting node status."
            "PUT /api/v1/nodes/node-1/status",
            "POST /api/v1/namespaces/default/events",
            // doNoExecuteTaintingPass: node.kubernetes.io/unreachable
            "PATCH /api/v1/nodes/node-1",
        ],
        "node lifecycle controller, no heartbeat for 60 s",
    );
}

#[test]
fn scheduler_binds_a_pending_pod() {
    let mut c = bare();
    seed(&mut c, "/api/v1/nodes", node("node-1"));
    seed(&mut c, "/api/v1/namespaces/default/pods", pod("web", None));
    let since = last_id(&c);
    c.add_component(Scheduler::default());
    c.run_until_settled();
    let got = requests(&c, &Actor::Scheduler, since);
    assert_requests(
        got,
        &[
            // leader election first (the Lease does not exist: create it, record "became leader")
            "GET /apis/coordination.k8s.io/v1/namespaces/kube-system/leases/kube-scheduler",
            "POST /apis/coordination.k8s.io/v1/namespaces/kube-system/leases",
            "POST /api/v1/namespaces/kube-system/events",
            // `renew` polls at once after winning
            "PUT /apis/coordination.k8s.io/v1/namespaces/kube-system/leases/kube-scheduler",
            "POST /api/v1/namespaces/default/pods/web/binding",
            "POST /apis/events.k8s.io/v1/namespaces/default/events",
        ],
        "scheduler, one pending pod and one node",
    );
}

#[test]
fn kubelet_registers_and_runs_a_bound_pod() {
    let mut c = bare();
    seed_root_ca(&mut c);
    let since = last_id(&c);
    c.add_component(Kubelet::new(NodeConfig::new("node-1"), 0));
    c.run_until_settled();
    let registered = requests(&c, &Actor::Kubelet("node-1".into()), since);
    assert_requests(
        registered,
        &["POST /api/v1/nodes", "POST /apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases"],
        "kubelet, start",
    );
    // node IPAM gives the node its pod CIDR; the kubelet hands it to the runtime
    let since = last_id(&c);
    c.add_component(nodeipam::NodeIpamController::new(Cidr::parse("10.244.0.0/16").unwrap(), 24));
    c.run_until_settled();
    assert_requests(requests(&c, &Actor::NodeIpamController, since), &["PATCH /api/v1/nodes/node-1"], "node IPAM, a new node");
    let node = c.client_request(&kubectl_identity(), Request::get("/api/v1/nodes/node-1")).body;
    assert_eq!(node["spec"], json!({"podCIDR": "10.244.1.0/24", "podCIDRs": ["10.244.1.0/24"]}));
    let since = last_id(&c);
    seed(&mut c, "/api/v1/namespaces/default/pods", pod("web", Some("node-1")));
    c.run_until_settled();
    let got = requests(&c, &Actor::Kubelet("node-1".into()), since);
    assert_requests(
        got,
        &[
            // status manager: Pending with PodReadyToStartContainers=False
            "PATCH /api/v1/namespaces/default/pods/web/status",
            // the token manager: the kube-api-access volume's token, bound to the Pod
            "POST /api/v1/namespaces/default/serviceaccounts/default/token",
            // the sandbox's IP
            "PATCH /api/v1/namespaces/default/pods/web/status",
            // Pulling, Pulled, Created, Started
            "POST /api/v1/namespaces/default/events",
            "POST /api/v1/namespaces/default/events",
            "POST /api/v1/namespaces/default/events",
            "POST /api/v1/namespaces/default/events",
            // Running and Ready
            "PATCH /api/v1/namespaces/default/pods/web/status",
        ],
        "kubelet, a pod bound to its node",
    );
    let cri: Vec<String> = c
        .view()
        .trace()
        .messages()
        .iter()
        .filter(|m| m.id > since && m.from == Actor::Kubelet("node-1".into()))
        .filter_map(|m| match &m.kind {
            MessageKind::Runtime { call, .. } => Some(call.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(cri, ["RunPodSandbox", "PullImage", "CreateContainer", "StartContainer"], "kubelet's CRI calls");
    let pod = c.client_request(&kubectl_identity(), Request::get("/api/v1/namespaces/default/pods/web")).body;
    assert_eq!(pod["status"]["podIP"], json!("10.244.1.2"), "the CNI plugin's first address");
}

/// The requests `actor` made after `since`, with their times (ms), informer LIST/WATCH left out.
fn timed_requests(c: &Cluster, actor: &Actor, since: u64) -> Vec<(i64, String)> {
    c.view()
        .trace()
        .messages()
        .iter()
        .filter(|m| m.id > since && &m.from == actor)
        .filter_map(|m| match &m.kind {
            MessageKind::Request { method, uri, info } if info.verb != "list" && info.verb != "watch" => Some((m.time_ms, format!("{} {}", method, uri))),
            _ => None,
        })
        .collect()
}

/// kube-controller-manager's leader election, as client-go's `tryAcquireOrRenew` runs it: the
/// first process creates the Lease and leads; a restarted process only reads the Lease while the
/// record it observed is younger than the lease duration (15 s on its own clock), then takes it
/// over with one update (leaseTransitions 1) and records "became leader"; only then do its
/// controllers list and watch. The leader renews with a single update every 2 s.
#[test]
fn kube_controller_manager_waits_for_the_lease_after_a_restart() {
    let mut c = bare();
    let since = last_id(&c);
    kubesim::controllers::install(&mut c);
    c.run_until_settled();
    let lease = "/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/kube-controller-manager";
    let got: Vec<String> = timed_requests(&c, &Actor::ControllerManager, since).into_iter().map(|r| r.1).collect();
    assert_requests(
        got,
        &[&format!("GET {}", lease), "POST /apis/coordination.k8s.io/v1/namespaces/kube-system/leases", "POST /api/v1/namespaces/kube-system/events", &format!("PUT {}", lease)],
        "kube-controller-manager, first start (the renew loop's first poll is immediate)",
    );
    // renewals: one PUT every 2 s (plus its round trip)
    let since = last_id(&c);
    c.advance(7_000);
    let renewals = timed_requests(&c, &Actor::ControllerManager, since);
    let put = format!("PUT {}", lease);
    assert_eq!(renewals.iter().map(|r| r.1.clone()).collect::<Vec<_>>(), vec![put.clone(), put.clone(), put], "renewals");
    assert!(renewals.windows(2).all(|w| w[1].0 - w[0].0 == 2_004), "2 s apart, after each response: {:?}", renewals);
    // the crash: the new process waits, then takes over
    let crash_at = c.now();
    let since = last_id(&c);
    c.restart_component(&Actor::ControllerManager).unwrap();
    c.run_until_settled();
    let got = timed_requests(&c, &Actor::ControllerManager, since);
    let (gets, rest): (Vec<_>, Vec<_>) = got.iter().partition(|r| r.1.starts_with("GET "));
    assert!(gets.len() >= 4, "reads while the lease is held: {:?}", got);
    assert_eq!(rest.iter().map(|r| r.1.as_str()).collect::<Vec<_>>(), [format!("PUT {}", lease).as_str(), "POST /api/v1/namespaces/kube-system/events", format!("PUT {}", lease).as_str()], "take-over, event, first renewal: {:?}", got);
    let took_over = rest[0].0;
    assert!(took_over - crash_at >= 15_000 && took_over - crash_at < 20_000, "took over {} ms after the crash", took_over - crash_at);
    // no controller of the new process did anything before it led
    let early = c.view().trace().messages().iter().filter(|m| m.id > since && m.time_ms < took_over && m.from == Actor::DeploymentController).count();
    assert_eq!(early, 0, "the deployment controller ran before its process led");
    let l = c.client_request(&kubectl_identity(), Request::get(lease)).body;
    assert_eq!(l["spec"]["leaseTransitions"], json!(1));
    assert_eq!(l["spec"]["leaseDurationSeconds"], json!(15));
    assert_ne!(l["spec"]["acquireTime"], json!("2026-01-01T00:00:00.000000Z"), "a take-over sets acquireTime");
    let events = c.client_request(&kubectl_identity(), Request::get("/api/v1/namespaces/kube-system/events")).body;
    let msgs: Vec<String> = events["items"].as_array().unwrap().iter().filter(|e| e["involvedObject"]["name"] == "kube-controller-manager").map(|e| format!("{} {}", e["reason"].as_str().unwrap(), e["message"].as_str().unwrap())).collect();
    assert_eq!(msgs.len(), 2, "{:?}", msgs);
    assert!(msgs.iter().all(|m| m.starts_with("LeaderElection control-plane_") && m.ends_with(" became leader")), "{:?}", msgs);
}

/// A kubelet restart keeps the running containers: the new process records its startup events,
/// POSTs its Node (409: it exists), GETs it, and writes no Pod status when nothing differs; no
/// CRI call starts anything again.
#[test]
fn kubelet_restart_finds_its_containers_running() {
    let mut c = bare();
    seed_root_ca(&mut c);
    c.add_component(Kubelet::new(NodeConfig::new("node-1"), 0));
    c.add_component(nodeipam::NodeIpamController::new(Cidr::parse("10.244.0.0/16").unwrap(), 24));
    c.run_until_settled();
    seed(&mut c, "/api/v1/namespaces/default/pods", pod("web", Some("node-1")));
    c.run_until_settled();
    let kubelet = Actor::Kubelet("node-1".into());
    let since = last_id(&c);
    c.restart_component(&kubelet).unwrap();
    c.run_until_settled();
    let got = requests(&c, &kubelet, since);
    assert_requests(
        got,
        &[
            // Starting, NodeAllocatableEnforced, NodeHasSufficientMemory, NodeHasNoDiskPressure, NodeHasSufficientPID
            "POST /api/v1/namespaces/default/events",
            "POST /api/v1/namespaces/default/events",
            "POST /api/v1/namespaces/default/events",
            "POST /api/v1/namespaces/default/events",
            "POST /api/v1/namespaces/default/events",
            "POST /api/v1/nodes",
            "GET /api/v1/nodes/node-1",
        ],
        "kubelet, restarted with a running pod",
    );
    let cri = c.view().trace().messages().iter().filter(|m| m.id > since && matches!(m.kind, MessageKind::Runtime { .. })).count();
    assert_eq!(cri, 0, "the restarted kubelet made CRI calls");
    let pod = c.client_request(&kubectl_identity(), Request::get("/api/v1/namespaces/default/pods/web")).body;
    assert_eq!(pod["status"]["containerStatuses"][0]["restartCount"], json!(0));
    assert_eq!(pod["status"]["phase"], json!("Running"));
}

/// A partitioned node's kubelet keeps trying: its requests fail before reaching kube-apiserver
/// (nothing is written), and once healed its next Lease renewal goes through.
#[test]
fn a_partitioned_kubelet_writes_nothing_until_healed() {
    let mut c = bare();
    c.add_component(Kubelet::new(NodeConfig::new("node-1"), 0));
    c.run_until_settled();
    let rev = c.view().etcd_revision();
    let since = last_id(&c);
    c.partition_node("node-1").unwrap();
    c.advance(30_000);
    assert_eq!(c.view().etcd_revision(), rev, "a cut-off kubelet wrote to etcd");
    assert!(requests(&c, &Actor::Kubelet("node-1".into()), since).is_empty(), "requests reached kube-apiserver");
    let failed = c.view().trace().messages().iter().filter(|m| m.id > since && matches!(m.kind, MessageKind::Fault { kind: kubesim::trace::FaultKind::Unreachable, .. })).count();
    assert_eq!(failed, 3, "one failed Lease renewal every 10 s");
    c.heal_node("node-1").unwrap();
    let since = last_id(&c);
    c.advance(10_000);
    let got = requests(&c, &Actor::Kubelet("node-1".into()), since);
    assert!(got.iter().any(|r| r == "PUT /apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/node-1"), "no renewal after healing: {:?}", got);
    assert!(got.iter().any(|r| r == "PATCH /api/v1/nodes/node-1/status"), "no status report after healing: {:?}", got);
}

/// Without a pod CIDR (no node IPAM), the node's network is not ready: the pod worker says so and
/// creates no sandbox.
#[test]
fn kubelet_without_pod_cidr_reports_network_not_ready() {
    let mut c = bare();
    seed_root_ca(&mut c);
    c.add_component(Kubelet::new(NodeConfig::new("node-1"), 0));
    c.run_until_settled();
    let since = last_id(&c);
    seed(&mut c, "/api/v1/namespaces/default/pods", pod("web", Some("node-1")));
    c.run_until_settled();
    let sandbox = c.view().trace().messages().iter().filter(|m| m.id > since).any(|m| matches!(&m.kind, MessageKind::Runtime { call, .. } if call == "RunPodSandbox"));
    assert!(!sandbox, "no sandbox without a network");
    let events = c.client_request(&kubectl_identity(), Request::get("/api/v1/namespaces/default/events")).body;
    let reasons: Vec<&str> = events["items"].as_array().unwrap().iter().map(|e| e["reason"].as_str().unwrap_or("")).collect();
    assert_eq!(reasons, ["NetworkNotReady"]);
}

/// Named table: ClusterIP and NodePort allocation and release through the API server. A chosen
/// address or port is refused while another Service holds it and free again once that Service
/// is deleted; a dynamic ClusterIP lands in the upper band of 10.96.0.0/12.
#[test]
fn cluster_ip_and_node_port_allocation_and_release_table() {
    let script = "kubectl create service nodeport a --tcp=80:80 --node-port=30080\n\
kubectl create service clusterip b --tcp=80:80 --clusterip=10.96.5.5\n\
kubectl create service nodeport c --tcp=80:80 --node-port=30080\n\
kubectl create service clusterip d --tcp=80:80 --clusterip=10.96.5.5\n\
kubectl delete service a b\n\
kubectl create service nodeport c --tcp=80:80 --node-port=30080\n\
kubectl create service clusterip d --tcp=80:80 --clusterip=10.96.5.5\n\
kubectl create service clusterip e --tcp=80:80\n\
kubectl get svc e -o jsonpath={.spec.clusterIP}\n";
    let out = kubesim::testing::run(script);
    let cases = [
        ("a chosen node port is allocated", "service/a created"),
        ("a chosen ClusterIP is allocated", "service/b created"),
        ("the node port is taken", "error: failed to create NodePort service: Service \"c\" is invalid: spec.ports[0].nodePort: Invalid value: 30080: provided port is already allocated"),
        ("the ClusterIP is taken", "error: failed to create ClusterIP service: Service \"d\" is invalid: spec.clusterIPs: Invalid value: [\"10.96.5.5\"]: failed to allocate IP 10.96.5.5: provided IP is already allocated"),
        ("deleting releases both", "service \"a\" deleted"),
        ("the released node port is allocated again", "service/c created"),
        ("the released ClusterIP is allocated again", "service/d created"),
    ];
    for (name, want) in cases {
        assert!(out.contains(want), "{}: want {:?} in\n{}", name, want, out);
    }
    let ip = out.lines().last().unwrap_or("");
    let n = kubesim::api::net::parse_ipv4(ip).unwrap_or(0);
    let base = kubesim::api::net::parse_ipv4("10.96.0.0").unwrap();
    assert!(n > base + 256 && n < base + (1 << 20), "a dynamic ClusterIP from the upper band: {}", ip);
}

/// StatefulSet ordering and partition: seed a StatefulSet and some of its Pods (at the update
/// revision or an older one, Running and Ready or not), run the StatefulSet controller alone
/// (no scheduler or kubelet, so the Pods it creates stay Pending) and list the Pods it created
/// and deleted, in order, as its audit log shows them.
#[test]
fn statefulset_ordering_and_partition_table() {
    use kubesim::controllers::statefulset;
    struct Case {
        name: &'static str,
        policy: &'static str,
        replicas: i64,
        strategy: Value,
        /// (ordinal, at the update revision, Running and Ready)
        pods: &'static [(i64, bool, bool)],
        want: &'static [&'static str],
    }
    let ru = |p: i64| json!({"type": "RollingUpdate", "rollingUpdate": {"partition": p}});
    let all_old_ready: &[(i64, bool, bool)] = &[(0, false, true), (1, false, true), (2, false, true)];
    let cases = vec![
        Case { name: "OrderedReady starts with web-0 alone", policy: "OrderedReady", replicas: 3, strategy: ru(0), pods: &[], want: &["create web-0"] },
        Case { name: "OrderedReady waits for web-0 to be Running and Ready", policy: "OrderedReady", replicas: 3, strategy: ru(0), pods: &[(0, true, false)], want: &[] },
        Case { name: "OrderedReady creates the next once web-0 is Ready", policy: "OrderedReady", replicas: 3, strategy: ru(0), pods: &[(0, true, true)], want: &["create web-1"] },
        Case { name: "a gap is filled before anything else", policy: "OrderedReady", replicas: 3, strategy: ru(0), pods: &[(0, true, true), (2, true, true)], want: &["create web-1"] },
        Case { name: "Parallel creates every ordinal at once", policy: "Parallel", replicas: 3, strategy: ru(0), pods: &[], want: &["create web-0", "create web-1", "create web-2"] },
        Case { name: "Parallel does not wait for readiness", policy: "Parallel", replicas: 3, strategy: ru(0), pods: &[(0, true, false)], want: &["create web-1", "create web-2"] },
        Case {
            name: "OrderedReady scales down from the highest ordinal, one at a time",
            policy: "OrderedReady",
            replicas: 1,
            strategy: ru(0),
            pods: &[(0, true, true), (1, true, true), (2, true, true)],
            want: &["delete web-2", "delete web-1"],
        },
        Case {
            name: "Parallel scales down all at once, highest first",
            policy: "Parallel",
            replicas: 1,
            strategy: ru(0),
            pods: &[(0, true, false), (1, true, false), (2, true, false)],
            want: &["delete web-2", "delete web-1"],
        },
        Case {
            name: "a rolling update replaces the highest ordinal first and waits for it",
            policy: "OrderedReady",
            replicas: 3,
            strategy: ru(0),
            pods: all_old_ready,
            want: &["delete web-2", "create web-2"],
        },
        Case {
            name: "partition 2: ordinal 2 is replaced once 3 is updated",
            policy: "OrderedReady",
            replicas: 4,
            strategy: ru(2),
            pods: &[(0, false, true), (1, false, true), (2, false, true), (3, true, true)],
            want: &["delete web-2", "create web-2"],
        },
        Case {
            name: "partition 2: ordinals below it keep the old revision",
            policy: "OrderedReady",
            replicas: 4,
            strategy: ru(2),
            pods: &[(0, false, true), (1, false, true), (2, true, true), (3, true, true)],
            want: &[],
        },
        Case { name: "OnDelete replaces nothing", policy: "OrderedReady", replicas: 3, strategy: json!({"type": "OnDelete"}), pods: all_old_ready, want: &[] },
    ];
    for case in cases {
        let mut c = bare();
        let set = seed(
            &mut c,
            "/apis/apps/v1/namespaces/default/statefulsets",
            json!({
                "apiVersion": "apps/v1", "kind": "StatefulSet",
                "metadata": {"name": "web"},
                "spec": {
                    "replicas": case.replicas, "podManagementPolicy": case.policy, "serviceName": "web", "updateStrategy": case.strategy,
                    "selector": {"matchLabels": {"app": "web"}},
                    "template": {"metadata": {"labels": {"app": "web"}}, "spec": {"containers": [{"name": "c", "image": "nginx:1.27"}]}}
                }
            }),
        );
        let update_revision = meta_name(&statefulset::utils::new_revision(&set, 1, 0));
        for &(ord, updated, ready) in case.pods {
            let rev = if updated { update_revision.clone() } else { "web-0ld".to_string() };
            let name = format!("web-{}", ord);
            seed(
                &mut c,
                "/api/v1/namespaces/default/pods",
                json!({
                    "apiVersion": "v1", "kind": "Pod",
                    "metadata": {"name": name, "labels": {"app": "web", "controller-revision-hash": rev, "statefulset.kubernetes.io/pod-name": name},
                        "ownerReferences": [{"apiVersion": "apps/v1", "kind": "StatefulSet", "name": "web", "uid": set["metadata"]["uid"], "controller": true, "blockOwnerDeletion": true}]},
                    "spec": {"containers": [{"name": "c", "image": "nginx:1.27"}]}
                }),
            );
            if ready {
                let mut p = c.view().object(kubesim::api::meta::lookup("pods").unwrap(), "default", &name).unwrap();
                p["status"] = json!({"phase": "Running", "conditions": [{"type": "Ready", "status": "True", "lastTransitionTime": "2026-01-01T00:00:00Z"}]});
                let resp = c.client_request(&kubectl_identity(), Request::new(Method::Put, format!("/api/v1/namespaces/default/pods/{}/status", name), Some(p)));
                assert!(resp.ok(), "{}: {}", case.name, resp.message());
            }
        }
        let audit_from = c.view().audit_total() as usize;
        c.add_component(statefulset::StatefulSetController::default());
        c.run_until_settled();
        let audit = c.view().audit();
        let skip = audit.len().saturating_sub((c.view().audit_total() as usize).saturating_sub(audit_from));
        let got: Vec<String> = audit[skip..]
            .iter()
            .filter_map(|l| serde_json::from_str::<Value>(l).ok())
            .filter(|e| e["user"]["username"] == "system:serviceaccount:kube-system:statefulset-controller" && e["objectRef"]["resource"] == "pods")
            .filter(|e| e["verb"] == "create" || e["verb"] == "delete")
            .map(|e| format!("{} {}", e["verb"].as_str().unwrap_or(""), e["objectRef"]["name"].as_str().unwrap_or("")))
            .collect();
        assert_eq!(got, case.want, "{}", case.name);
    }
}

fn meta_name(v: &Value) -> String {
    v["metadata"]["name"].as_str().unwrap_or("").to_string()
}
