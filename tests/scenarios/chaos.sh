# Chaos: while a Deployment rolls out, kube-controller-manager and the scheduler crash and
# restart: each new process waits for the dead one's Lease to expire (15 s), takes it over, then
# lists everything again and carries on. Then node-2 fails: the node lifecycle controller marks it
# unreachable, and after the Pods' 300 s toleration the ReplicaSet replaces the Pods stuck there.
# node-2 comes back and its kubelet finishes the deletions.
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
sim fault restart kube-controller-manager
kubectl get lease -n kube-system
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
