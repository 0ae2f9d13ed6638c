# An image tag the registry does not have: ErrImagePull, then ImagePullBackOff with a
# doubling back-off (10s, 20s, ...). The Pod never becomes Running.
kubectl apply -f - <<EOF
apiVersion: apps/v1
kind: Deployment
metadata:
  name: typo
spec:
  replicas: 1
  selector:
    matchLabels:
      app: typo
  template:
    metadata:
      labels:
        app: typo
    spec:
      containers:
      - name: app
        image: nginx:1.99
EOF
sim settle
kubectl get pods
sim advance 45s
kubectl get pods
kubectl get events
# The kubelet says it again at every pod sync while it backs off (every 10-15 s): the counts grow.
sim advance 120s
kubectl describe pod -l app=typo
