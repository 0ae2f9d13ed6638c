# Node commands and describe.
kubectl cordon node-1
kubectl cordon node-1
kubectl taint nodes node-2 dedicated=db:NoSchedule
kubectl label nodes node-3 disk=ssd
kubectl label nodes node-3 disk=hdd
kubectl get nodes
kubectl apply -f - <<EOF
apiVersion: apps/v1
kind: Deployment
metadata:
  name: db
spec:
  replicas: 2
  selector:
    matchLabels:
      app: db
  template:
    metadata:
      labels:
        app: db
    spec:
      nodeSelector:
        disk: ssd
      containers:
      - name: redis
        image: redis:7
EOF
sim settle
kubectl get pods -o wide
kubectl uncordon node-1
kubectl taint nodes node-2 dedicated=db:NoSchedule-
kubectl describe deployment db
kubectl describe node node-3
