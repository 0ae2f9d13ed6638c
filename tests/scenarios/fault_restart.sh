# Faults: controllers and the scheduler crash and restart. Each new process lists every object
# again and watches from there (its work queue starts empty), so the cluster still converges.
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
kubectl get deployment web
kubectl get pods
kubectl scale deployment web --replicas=5
sim fault restart deployment-controller
sim settle
kubectl get deployment web
sim fault restart garbage-collector
kubectl delete deployment web
sim settle
kubectl get replicasets,pods
sim fault restart kubelet@node-1
sim fault restart nothing
