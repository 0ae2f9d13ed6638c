# Several documents in one manifest: a Namespace, then a Deployment and a Pod in it.
kubectl apply -f - <<EOF
apiVersion: v1
kind: Namespace
metadata:
  name: shop
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: cart
  namespace: shop
spec:
  replicas: 2
  selector:
    matchLabels:
      app: cart
  template:
    metadata:
      labels:
        app: cart
    spec:
      containers:
      - name: cart
        image: redis:7
---
# a comment-only document is skipped
---
apiVersion: v1
kind: Pod
metadata:
  name: debug
  namespace: shop
spec:
  containers:
  - name: box
    image: busybox:1.36
    command: ["sleep", "3600"]
EOF
sim settle
kubectl get ns
kubectl get deploy,pods -n shop
kubectl get pods
