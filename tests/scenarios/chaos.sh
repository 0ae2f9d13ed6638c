# Chaos: while a Deployment rolls out, the ReplicaSet controller and the scheduler crash and
# restart, then node-2 fails. The restarted components list everything again and carry on; the
# node lifecycle controller marks node-2 unreachable, and after the Pods' 300 s toleration the
# ReplicaSet replaces the Pods stuck there. node-2 comes back and its kubelet finishes the deletions.
kubectl apply -f - <<EOF
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
sim fault restart replicaset-controller
sim fault restart kube-scheduler
kubectl get pods -o wide
sim node fail node-2
sim advance 6m
kubectl get nodes
kubectl get pods -o wide
sim node recover node-2
sim advance 1m
kubectl get pods -o wide
kubectl get deployment web
