//! The editor's presets: seed 004's nginx Deployment, three ways for it to go wrong, and scripts:
//! scale and delete, a rolling update, a bad release and `rollout undo`, a crash loop, a liveness
//! probe restarting a hung app, a readiness probe holding a rollout; and the network: expose and
//! curl, a selector typo, readiness gating endpoints, a NodePort from outside.

/// Seed 004's manifest, as the post prints it.
pub const SEED_004: &str = "apiVersion: apps/v1
kind: Deployment
metadata:
  name: nginx-deployment
  labels:
    app: nginx
spec:
  replicas: 3
  selector:
    matchLabels:
      app: nginx
  template:
    metadata:
      labels:
        app: nginx
    spec:
      containers:
      - name: nginx
        image: nginx:1.14.2
        ports:
        - containerPort: 80
";

/// An image tag the registry does not have: ErrImagePull, then ImagePullBackOff.
pub const BAD_IMAGE: &str = "apiVersion: apps/v1
kind: Deployment
metadata:
  name: nginx-typo
  labels:
    app: nginx-typo
spec:
  replicas: 1
  selector:
    matchLabels:
      app: nginx-typo
  template:
    metadata:
      labels:
        app: nginx-typo
    spec:
      containers:
      - name: nginx
        image: nginx:1.99   # no such tag
        ports:
        - containerPort: 80
";

/// Four Pods asking for 3 CPUs each on three 4-CPU nodes: one stays Pending.
pub const TOO_BIG: &str = "apiVersion: apps/v1
kind: Deployment
metadata:
  name: nginx-big
  labels:
    app: nginx-big
spec:
  replicas: 4
  selector:
    matchLabels:
      app: nginx-big
  template:
    metadata:
      labels:
        app: nginx-big
    spec:
      containers:
      - name: nginx
        image: nginx:1.14.2
        resources:
          requests:
            cpu: \"3\"      # each node has 4 CPUs
            memory: 1Gi
";

/// A nodeSelector no node matches: the Pod stays Pending (NodeAffinity filter).
pub const NO_NODE: &str = "apiVersion: apps/v1
kind: Deployment
metadata:
  name: nginx-picky
  labels:
    app: nginx-picky
spec:
  replicas: 1
  selector:
    matchLabels:
      app: nginx-picky
  template:
    metadata:
      labels:
        app: nginx-picky
    spec:
      nodeSelector:
        disktype: ssd      # no node has this label
      containers:
      - name: nginx
        image: nginx:1.14.2
";

/// A script: the seed Deployment, then scale down and delete (the garbage collector at work).
pub const SCRIPT_SCALE_DELETE: &str = "# A script runs like `kubesim run`: kubectl and sim commands.
kubectl apply -f - <<EOF
apiVersion: apps/v1
kind: Deployment
metadata:
  name: nginx-deployment
spec:
  replicas: 2
  selector:
    matchLabels:
      app: nginx
  template:
    metadata:
      labels:
        app: nginx
    spec:
      containers:
      - name: nginx
        image: nginx:1.14.2
EOF
sim settle
kubectl scale deployment nginx-deployment --replicas=1
sim settle
kubectl delete deployment nginx-deployment
";

/// A rolling update (seed 002's "what a Deployment automates"): nginx 1.14.2 → 1.25 with
/// `kubectl set image`, watched with `rollout status`, recorded in `rollout history`.
pub const SCRIPT_ROLLING_UPDATE: &str = "# A rolling update: the new ReplicaSet grows while the old one shrinks,
# within maxSurge (25%, rounded up) and maxUnavailable (25%, rounded down).
kubectl create deployment nginx-deployment --image=nginx:1.14.2 --replicas=4
kubectl rollout status deployment/nginx-deployment
kubectl set image deployment/nginx-deployment nginx=nginx:1.25
kubectl annotate deployment/nginx-deployment kubernetes.io/change-cause=\"nginx 1.25\"
kubectl rollout status deployment/nginx-deployment
kubectl rollout history deployment/nginx-deployment
kubectl get rs
";

/// A bad release (an image tag that does not exist) held by maxUnavailable, then `rollout undo`.
pub const SCRIPT_ROLLOUT_UNDO: &str = "# A bad release: the new Pods cannot pull their image, so the rollout stalls
# (maxUnavailable keeps the old Pods serving). `rollout undo` puts the previous
# template back; the controller reuses the old ReplicaSet as a new revision.
kubectl create deployment nginx-deployment --image=nginx:1.14.2 --replicas=3
sim settle
kubectl set image deployment/nginx-deployment nginx=nginx:1.99
kubectl rollout status deployment/nginx-deployment --timeout=20s
kubectl get pods
kubectl rollout history deployment/nginx-deployment
kubectl rollout undo deployment/nginx-deployment
kubectl rollout status deployment/nginx-deployment
kubectl rollout history deployment/nginx-deployment
kubectl get rs
";

/// A crash loop: a container that exits with code 1 after 5 s; the kubelet restarts it with the
/// crash-loop back-off (10 s, 20 s, 40 s…).
pub const SCRIPT_CRASH_LOOP: &str = "# A crash loop: the container prints a line, runs 5 s and exits with code 1.
# restartPolicy Always restarts it; after the first restart the kubelet waits
# 10 s, 20 s, 40 s… (CrashLoopBackOff) before the next one.
kubectl apply -f - <<EOF
apiVersion: apps/v1
kind: Deployment
metadata:
  name: crash
spec:
  replicas: 1
  selector:
    matchLabels:
      app: crash
  template:
    metadata:
      labels:
        app: crash
    spec:
      containers:
      - name: app
        image: busybox:1.36
        command: [\"sh\", \"-c\", \"echo starting; sleep 5; exit 1\"]
EOF
sim settle
kubectl get pods
sim advance 60s
kubectl get pods
kubectl describe pod -l app=crash
";

/// The liveness example of the Kubernetes docs: the exec probe fails once /tmp/healthy is gone,
/// and the kubelet kills and restarts the container.
pub const SCRIPT_LIVENESS: &str = "# A liveness probe restarts a hung app (the Kubernetes docs' example): the
# container removes /tmp/healthy after 30 s, `cat /tmp/healthy` starts failing,
# and after three failures the kubelet kills and restarts the container.
kubectl apply -f - <<EOF
apiVersion: v1
kind: Pod
metadata:
  name: liveness-exec
spec:
  containers:
  - name: liveness
    image: busybox:1.36
    args: [\"/bin/sh\", \"-c\", \"touch /tmp/healthy; sleep 30; rm -f /tmp/healthy; sleep 600\"]
    livenessProbe:
      exec:
        command: [\"cat\", \"/tmp/healthy\"]
      initialDelaySeconds: 5
      periodSeconds: 5
EOF
sim settle
sim advance 80s
kubectl get pod liveness-exec
kubectl describe pod liveness-exec
";

/// A readiness probe on a path nginx does not serve holds a rolling update.
pub const SCRIPT_READINESS: &str = "# A readiness probe holds a rollout: the new Pods answer /healthz with 404,
# so they never become Ready; with maxUnavailable 0 (25% of 3, rounded down)
# the old Pods keep serving and the rollout waits.
kubectl create deployment web --image=nginx:1.25 --replicas=3
sim settle
kubectl apply -f - <<EOF
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 3
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
      - name: nginx
        image: nginx:1.27
        readinessProbe:
          httpGet:
            path: /healthz
            port: 80
          periodSeconds: 5
EOF
kubectl rollout status deployment/web --timeout=30s
kubectl get pods
kubectl get events --field-selector reason=Unhealthy
";

/// An init container that waits for a Service that does not exist (the Kubernetes docs' example).
pub const SCRIPT_INIT_WAITS: &str = "# An init container waits: it loops until a Service named myservice resolves
# (the Kubernetes docs' example). There is none, so the Pod stays Init:0/1 and
# the app container never starts.
kubectl apply -f - <<EOF
apiVersion: v1
kind: Pod
metadata:
  name: myapp-pod
spec:
  initContainers:
  - name: init-myservice
    image: busybox:1.36
    command: [\"sh\", \"-c\", \"until nslookup myservice; do echo waiting for myservice; sleep 2; done\"]
  containers:
  - name: myapp-container
    image: busybox:1.36
    command: [\"sh\", \"-c\", \"echo The app is running! && sleep 3600\"]
EOF
sim settle
sim advance 30s
kubectl get pods
kubectl logs myapp-pod -c init-myservice
";

/// The network presets are scenario transcripts' scripts (tests/scenarios/net_*.sh), so each
/// has its expected output checked by `cargo test --test transcripts`.
pub const SCRIPT_NET_EXPOSE: &str = include_str!("../../tests/scenarios/net_expose.sh");
pub const SCRIPT_NET_SELECTOR_TYPO: &str = include_str!("../../tests/scenarios/net_selector_typo.sh");
pub const SCRIPT_NET_READINESS: &str = include_str!("../../tests/scenarios/net_readiness_rollout.sh");
pub const SCRIPT_NET_NODEPORT: &str = include_str!("../../tests/scenarios/net_nodeport.sh");
/// A DaemonSet on every node, a new node, a NoExecute taint and a rolling update.
pub const SCRIPT_DAEMONSET: &str = include_str!("../../tests/scenarios/daemonset.sh");
/// Two Jobs: three completions two at a time, and one that fails past its backoffLimit.
pub const SCRIPT_JOB: &str = include_str!("../../tests/scenarios/job.sh");
/// The docs' "web" StatefulSet: ordered start, claims and volumes, scale down and up, a
/// partitioned rolling update.
pub const SCRIPT_STATEFULSET: &str = include_str!("../../tests/scenarios/statefulset.sh");
/// A Job that fails twice, then succeeds (restartPolicy OnFailure: restarts in one Pod).
pub const SCRIPT_JOB_RETRIES: &str = include_str!("../../tests/scenarios/job_retries.sh");
/// Chaos: controllers and the scheduler crash and restart, a node fails and comes back.
pub const SCRIPT_CHAOS: &str = include_str!("../../tests/scenarios/chaos.sh");
/// A node cut off from the control plane and healed (unlike a stopped kubelet, it keeps running).
pub const SCRIPT_PARTITION: &str = include_str!("../../tests/scenarios/fault_partition.sh");
/// The Kubernetes documentation's StatefulSet with a StorageClass the cluster does not have:
/// Pending with ProvisioningFailed and FailedScheduling, settled at once; then the class.
pub const SCRIPT_STUCK_STATEFULSET: &str = include_str!("../../tests/scenarios/stuck_statefulset_docs.sh");
/// The docs' "hello" CronJob, every minute, over six minutes of cluster time.
pub const SCRIPT_CRONJOB: &str = include_str!("../../tests/scenarios/cronjob.sh");

/// Configuration from a ConfigMap and a Secret (env and volume); the ConfigMap edited: the file
/// changes at the kubelet's next sync, the environment variable does not.
pub const SCRIPT_CONFIGMAP_SECRET: &str = include_str!("../../tests/scenarios/configmap_secret.sh");
/// A missing ConfigMap: CreateContainerConfigError and FailedMount, then the ConfigMap.
pub const SCRIPT_CONFIGMAP_MISSING: &str = include_str!("../../tests/scenarios/configmap_missing.sh");
/// RBAC: a user who may only read (403 with the reason, then a Role and a RoleBinding).
pub const SCRIPT_RBAC_READ_ONLY: &str = include_str!("../../tests/scenarios/rbac_read_only.sh");

/// Required pod anti-affinity on the hostname: 4 replicas on 3 nodes, one Pending with
/// InterPodAffinity's reason, until a node is added.
pub const SCRIPT_ANTI_AFFINITY: &str = include_str!("../../tests/scenarios/anti_affinity.sh");

/// A PodDisruptionBudget holds a drain back until the Deployment's Pods can go one at a time.
pub const SCRIPT_PDB_DRAIN: &str = include_str!("../../tests/scenarios/pdb_drain.sh");

/// Load makes a HorizontalPodAutoscaler scale a Deployment out, then back in once the
/// downscale stabilization window has passed.
pub const SCRIPT_HPA: &str = include_str!("../../tests/scenarios/hpa.sh");

/// The Kubernetes docs' "Set up Ingress on Minikube": an Ingress routes `/` and `/v2` to two
/// Services through ingress-nginx; the default server's 404, a 503, a TLS host's 308.
pub const SCRIPT_INGRESS: &str = include_str!("../../tests/scenarios/ingress.sh");

/// A default-deny NetworkPolicy, then one that lets only `role=client` in: the DROP hops name
/// the policy.
pub const SCRIPT_NETPOL: &str = include_str!("../../tests/scenarios/netpol.sh");

/// The Kubernetes docs' CronTab: a CustomResourceDefinition, its Established condition, a custom
/// resource with printer columns — and nothing else, since no controller watches CronTabs; the
/// schema's refusals; the CRD's deletion taking its objects.
pub const SCRIPT_CRD: &str = include_str!("../../tests/scenarios/crd.sh");

/// The same lesson with a controller that acts: the Website kind and its teaching operator, which
/// turns each Website into a Deployment and a Service it owns.
pub const SCRIPT_CRD_OPERATOR: &str = include_str!("../../tests/scenarios/crd_operator.sh");

/// (id, translation key of the title, text).
pub const PRESETS: &[(&str, &str, &str)] = &[
    ("seed", "preset.seed", SEED_004),
    ("bad-image", "preset.bad_image", BAD_IMAGE),
    ("too-big", "preset.too_big", TOO_BIG),
    ("no-node", "preset.no_node", NO_NODE),
    ("script", "preset.script", SCRIPT_SCALE_DELETE),
    ("rolling-update", "preset.rolling_update", SCRIPT_ROLLING_UPDATE),
    ("rollout-undo", "preset.rollout_undo", SCRIPT_ROLLOUT_UNDO),
    ("crash-loop", "preset.crash_loop", SCRIPT_CRASH_LOOP),
    ("liveness", "preset.liveness", SCRIPT_LIVENESS),
    ("readiness", "preset.readiness", SCRIPT_READINESS),
    ("init-waits", "preset.init_waits", SCRIPT_INIT_WAITS),
    ("net-expose", "preset.net_expose", SCRIPT_NET_EXPOSE),
    ("net-selector-typo", "preset.net_selector_typo", SCRIPT_NET_SELECTOR_TYPO),
    ("net-readiness", "preset.net_readiness", SCRIPT_NET_READINESS),
    ("net-nodeport", "preset.net_nodeport", SCRIPT_NET_NODEPORT),
    ("daemonset", "preset.daemonset", SCRIPT_DAEMONSET),
    ("statefulset", "preset.statefulset", SCRIPT_STATEFULSET),
    ("storage-class-missing", "preset.storage_class_missing", SCRIPT_STUCK_STATEFULSET),
    ("configmap-secret", "preset.configmap_secret", SCRIPT_CONFIGMAP_SECRET),
    ("configmap-missing", "preset.configmap_missing", SCRIPT_CONFIGMAP_MISSING),
    ("rbac-read-only", "preset.rbac_read_only", SCRIPT_RBAC_READ_ONLY),
    ("job", "preset.job", SCRIPT_JOB),
    ("job-retries", "preset.job_retries", SCRIPT_JOB_RETRIES),
    ("cronjob", "preset.cronjob", SCRIPT_CRONJOB),
    ("chaos", "preset.chaos", SCRIPT_CHAOS),
    ("partition", "preset.partition", SCRIPT_PARTITION),
    ("anti-affinity", "preset.anti_affinity", SCRIPT_ANTI_AFFINITY),
    ("pdb-drain", "preset.pdb_drain", SCRIPT_PDB_DRAIN),
    ("hpa", "preset.hpa", SCRIPT_HPA),
    ("ingress", "preset.ingress", SCRIPT_INGRESS),
    ("netpol", "preset.netpol", SCRIPT_NETPOL),
    ("crd", "preset.crd", SCRIPT_CRD),
    ("crd-operator", "preset.crd_operator", SCRIPT_CRD_OPERATOR),
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::model::Session;

    #[test]
    fn presets_behave_as_advertised() {
        let mut s = Session::new(1);
        s.apply(BAD_IMAGE);
        let p = s.pod_chips(s.len());
        assert_eq!(p.len(), 1);
        assert!(p[0].status == "ImagePullBackOff" || p[0].status == "ErrImagePull", "{:?}", p);

        let mut s = Session::new(1);
        s.apply(TOO_BIG);
        let p = s.pod_chips(s.len());
        assert_eq!(p.len(), 4);
        assert_eq!(p.iter().filter(|c| c.node.is_empty()).count(), 1, "{:?}", p);

        let mut s = Session::new(1);
        s.apply(NO_NODE);
        let p = s.pod_chips(s.len());
        assert_eq!(p.len(), 1);
        assert!(p[0].node.is_empty());
        assert!(s.events_text(s.len()).contains("FailedScheduling"));

        let mut s = Session::new(1);
        let (out, _) = s.apply(SCRIPT_ANTI_AFFINITY);
        assert!(out.stdout.contains("3 node(s) didn't match pod anti-affinity rules"), "{}", out.stdout);
        let p = s.pod_chips(s.len());
        assert_eq!((p.len(), p.iter().filter(|c| c.node.is_empty()).count()), (4, 0), "{:?}", p);

        // the budget refuses node-1's eviction until the drain times out; with minAvailable 2
        // node-3 drains, and its Pod comes back elsewhere
        let mut s = Session::new(1);
        let (out, _) = s.apply(SCRIPT_PDB_DRAIN);
        let all = format!("{}{}", out.stdout, out.stderr);
        assert!(all.contains("Cannot evict pod as it would violate the pod's disruption budget.") && all.contains("node/node-3 drained"), "{}", all);
        let p = s.pod_chips(s.len());
        assert_eq!((p.len(), p.iter().filter(|c| c.node == "node-3").count()), (3, 0), "{:?}", p);

        // load scales the Deployment out from 2; without load it comes back to 2
        let mut s = Session::new(1);
        let (out, _) = s.apply(SCRIPT_HPA);
        assert!(out.stdout.contains("New size: 4; reason: cpu resource utilization (percentage of request) above target") && out.stdout.contains("New size: 2; reason: All metrics below target"), "{}", out.stdout);
        assert_eq!(s.pod_chips(s.len()).iter().filter(|c| c.class != "terminating").count(), 2);
        // the Rollout tab's chart: the HPA's writes, out to 4 replicas and back to 2
        let h = s.hpa_histories(s.len());
        assert_eq!((h.len(), h[0].target_pct, h[0].target.as_str()), (1, Some(50), "Deployment/web"));
        assert!(h[0].points.iter().any(|p| p.2 == 4) && h[0].points.last().map(|p| p.2) == Some(2), "{:?}", h[0].points);
        assert!(h[0].points.iter().any(|p| p.1.map(|u| u > 50).unwrap_or(false)), "{:?}", h[0].points);

        // the Ingress answers from the Pods of the Service its path names
        let mut s = Session::new(1);
        let (out, _) = s.apply(SCRIPT_INGRESS);
        assert!(out.stdout.contains("Version: 1.0.0") && out.stdout.contains("Version: 2.0.0") && out.stdout.contains("503 Service Temporarily Unavailable") && out.stdout.contains("308 Permanent Redirect"), "{}", out.stdout);
        // HTTPS: the fake certificate refused, then -k; a plain HTTP Pod asked for TLS
        assert!(out.stdout.contains("SSL certificate problem: self-signed certificate") && out.stdout.contains("wrong version number"), "{}", out.stdout);
        // web (web2 scaled to 0) and the curl client
        assert_eq!(s.pod_chips(s.len()).iter().filter(|c| c.class != "terminating").count(), 2, "{:?}", s.pod_chips(s.len()));

        // denied, then allowed for the client only
        let mut s = Session::new(1);
        let (out, _) = s.apply(SCRIPT_NETPOL);
        let all = format!("{}{}", out.stdout, out.stderr);
        assert_eq!(all.matches("wget: download timed out").count(), 2, "{}", all);
        assert_eq!(all.matches("kubesim/app:1 answered from web-").count(), 2, "{}", all);
        // the Network panel's view of a web Pod at the end: the port its Service targets
        let (keys, _) = s.netpol_pods(s.len(), None);
        let web = keys.iter().find(|k| k.starts_with("default/web-")).expect("a web Pod");
        let view = s.netpol_for_pod(s.len(), web).unwrap_or_default();
        assert!(view.contains("to it, TCP/8080:") && view.lines().any(|l| l.contains("from default/client ") && l.ends_with("ACCEPT by default/allow-client")), "{}", view);
        assert!(view.lines().any(|l| l.contains("from default/other ") && l.contains("DROP: ingress of default/web-")) && !view.contains("kube-system/"), "{}", view);

        // a custom resource is only data: stored, listed with its printer columns, nothing else made
        let mut s = Session::new(1);
        let (out, _) = s.apply(SCRIPT_CRD);
        let all = format!("{}{}", out.stdout, out.stderr);
        assert!(all.contains("crontab.stable.example.com/my-new-cron-object created") && all.contains("NAME                 SPEC          REPLICAS   AGE"), "{}", all);
        assert!(all.contains("spec.replicas in body should be less than or equal to 10") && all.contains("ensure CRDs are installed first"), "{}", all);
        assert!(s.pod_chips(s.len()).is_empty());

        // with an operator, the same kind of data makes a Deployment and a Service appear
        let mut s = Session::new(1);
        let (out, _) = s.apply(SCRIPT_CRD_OPERATOR);
        assert!(out.stdout.contains("deployment.apps/blog   2/2") && out.stdout.contains("Created Deployment blog"), "{}", out.stdout);
        assert!(out.stdout.ends_with("No resources found in default namespace.\n") || out.stderr.contains("No resources found in default namespace."), "{}{}", out.stdout, out.stderr);

        let mut s = Session::new(1);
        let (out, _) = s.apply(SCRIPT_SCALE_DELETE);
        assert!(out.stdout.contains("deployment.apps \"nginx-deployment\" deleted"), "{}", out.stdout);
        assert!(s.pod_chips(s.len()).is_empty() || s.pod_chips(s.len()).iter().all(|p| p.class == "terminating"));
    }
}
