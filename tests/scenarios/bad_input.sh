# Mistakes get kubectl's own messages and leave nothing half-applied.
kubectl apply -f - <<EOF
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replica: 3
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
        image: nginx
EOF
kubectl apply -f - <<EOF
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: -1
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: other
    spec:
      containers:
      - name: Web
        image: nginx
EOF
kubectl apply -f - <<EOF
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels: app: web
EOF
kubectl apply -f - <<EOF
apiVersion: apps/v1
kind: Deploymnt
metadata:
  name: web
EOF
kubectl apply -f - <<EOF
apiVersion: extensions/v1beta1
kind: Deployment
metadata:
  name: web
EOF
kubectl apply -f - <<EOF
metadata:
  name: web
EOF
kubectl apply -f - <<EOF
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: "three"
EOF
kubectl apply -f - <<EOF
apiVersion: apps/v1
kind: Deployment
metadata:
  name: huge
spec:
  replicas: 100000
  selector:
    matchLabels:
      app: huge
  template:
    metadata:
      labels:
        app: huge
    spec:
      containers:
      - name: c
        image: nginx
EOF
kubectl get deployments
kubectl gett pods
kubectl get servicez
kubectl get deploy nope
kubectl delete pod nope
kubectl scale deploy/web --replicas=-2
kubctl get pods
sim advance soon
sim frobnicate
