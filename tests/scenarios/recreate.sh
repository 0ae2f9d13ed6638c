# The Recreate strategy: every old Pod goes first, then the new ReplicaSet is scaled up. The
# deployment controller scales the old ReplicaSet to 0 at once, then waits (`oldPodsRunning`) while
# the kubelet stops the old containers (terminationGracePeriodSeconds) and deletes the Pods; the
# last Pod's deletion, seen by its pod informer, wakes it to scale the new ReplicaSet up.
kubectl apply -f - <<EOF
apiVersion: apps/v1
kind: Deployment
metadata:
  name: db
spec:
  replicas: 2
  strategy:
    type: Recreate
  selector:
    matchLabels:
      app: db
  template:
    metadata:
      labels:
        app: db
    spec:
      containers:
      - name: redis
        image: redis:6.2
EOF
kubectl rollout status deployment/db
kubectl set image deployment/db redis=redis:7.2
sim advance 200ms
kubectl get rs
kubectl get pods
kubectl rollout status deployment/db
kubectl get rs
kubectl get events --field-selector involvedObject.kind=Deployment
kubectl logs deployment/db
