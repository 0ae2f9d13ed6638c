# More replicas than fit: one Pod stays Pending with the scheduler's exact message,
# then schedules as soon as a node is added.
kubectl apply -f - <<EOF
apiVersion: apps/v1
kind: Deployment
metadata:
  name: big
spec:
  replicas: 4
  selector:
    matchLabels:
      app: big
  template:
    metadata:
      labels:
        app: big
    spec:
      containers:
      - name: app
        image: nginx:1.27
        resources:
          requests:
            cpu: "3"
            memory: 1Gi
EOF
sim settle
kubectl get pods -o wide
kubectl get events --field-selector reason=FailedScheduling
kubectl get pods -o jsonpath={.items[*].status.conditions[0].message}
sim node add node-4 --cpu 8 --memory 16Gi
sim settle
kubectl get pods -o wide
