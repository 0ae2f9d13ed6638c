# Apply, then apply a changed manifest: "configured", generation bumped, the
# controller scales the ReplicaSet. Applying the same file again is "unchanged".
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
EOF
sim settle
kubectl get deploy web -o jsonpath={.metadata.generation}/{.status.observedGeneration}/{.spec.replicas}
kubectl apply -f - <<EOF
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
sim audit --verb patch --resource deployments
sim settle
kubectl get deploy web -o jsonpath={.metadata.generation}/{.status.observedGeneration}/{.spec.replicas}
kubectl apply -f - <<EOF
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
kubectl get deploy web
