# Seed 004: apply the nginx Deployment of the blog post.
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
kubectl get deployments
kubectl get nodes
kubectl get deploy nginx-deployment -o yaml
