# Seed 004's manifest applied with client-side apply: GET (404), then POST with the
# last-applied annotation. The stored object carries every default of facts §2.1.
kubectl apply -f - <<EOF
apiVersion: apps/v1
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
EOF
sim audit
sim etcd get /registry/deployments/default/nginx-deployment
kubectl get deploy nginx-deployment -o yaml
