# kubectl apply --server-side in the console: the whole object as an apply patch (field manager
# kubectl), a conflict with another applier's field (--field-manager=ops), kubectl's advice,
# --force-conflicts taking the field over, and a dry run. (kubesim records the managers of apply
# patches only, not of creates and updates.)
cat <<EOF > web.yaml
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
EOF
kubectl apply --server-side --field-manager=ops -f web.yaml
kubectl apply --server-side -f - <<EOF
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 5
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
EOF
kubectl apply --server-side --force-conflicts -f - <<EOF
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 5
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
EOF
kubectl get deploy web -o jsonpath='{.spec.replicas} {.metadata.managedFields[*].manager}{"\n"}'
kubectl apply --server-side -f web.yaml --dry-run=server
kubectl apply --server-side -f - <<EOF
apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
data:
  mode: prod
EOF
kubectl get cm settings -o jsonpath='{.metadata.managedFields[0].manager} {.metadata.managedFields[0].operation}{"\n"}'
