# kubectl diff: the live objects against a server-side dry run of the file, printed as
# `diff -u -N` prints kubectl's LIVE and MERGED directories; nothing in the cluster changes.
kubectl apply -f - <<EOF
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 2
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
      - name: web
        image: nginx:1.27
---
apiVersion: v1
kind: Secret
metadata:
  name: creds
stringData:
  user: admin
  password: s3cret
EOF
sim settle
kubectl diff -f - <<EOF
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 2
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
      - name: web
        image: nginx:1.27
EOF
kubectl diff -f - <<EOF
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
      - name: web
        image: nginx:1.28
EOF
kubectl get deployment web -o jsonpath={.spec.replicas}
kubectl diff -f - <<EOF
apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
data:
  mode: fast
EOF
kubectl get configmap settings
kubectl diff -f - <<EOF
apiVersion: v1
kind: Secret
metadata:
  name: creds
stringData:
  user: admin
  password: n3w-s3cret
EOF
kubectl diff
# --server-side: the file's object as a server-side apply dry run (diff's field manager,
# kubectl-client-side-apply, the one kubectl apply wrote the fields with); nothing changes
kubectl diff --server-side -f - <<EOF
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 4
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
      - name: web
        image: nginx:1.27
EOF
kubectl diff --server-side --force-conflicts -f - <<EOF
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 4
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
      - name: web
        image: nginx:1.27
EOF
kubectl get deploy web -o jsonpath='{.spec.replicas}{"\n"}'
