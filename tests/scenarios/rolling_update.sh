# A rolling update (maxSurge 25%, maxUnavailable 25% of 3 replicas = 1 and 0): the new ReplicaSet
# scales up one at a time while the old one scales down, as facts §7.1 lists.
kubectl create deployment web --image=nginx:1.25 --replicas=3
sim settle
kubectl apply -f - <<EOF
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels:
    app: web
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
sim settle
kubectl get rs
kubectl get events --field-selector involvedObject.kind=Deployment
kubectl get deploy web -o jsonpath={.metadata.annotations}
