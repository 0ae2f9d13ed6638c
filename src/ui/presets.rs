//! The editor's presets: seed 004's nginx Deployment and three ways for it to go wrong.

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

/// (id, translation key of the title, text).
pub const PRESETS: &[(&str, &str, &str)] = &[
    ("seed", "preset.seed", SEED_004),
    ("bad-image", "preset.bad_image", BAD_IMAGE),
    ("too-big", "preset.too_big", TOO_BIG),
    ("no-node", "preset.no_node", NO_NODE),
    ("script", "preset.script", SCRIPT_SCALE_DELETE),
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
        let (out, _) = s.apply(SCRIPT_SCALE_DELETE);
        assert!(out.stdout.contains("deployment.apps \"nginx-deployment\" deleted"), "{}", out.stdout);
        assert!(s.pod_chips(s.len()).is_empty() || s.pod_chips(s.len()).iter().all(|p| p.class == "terminating"));
    }
}
