# A kubelet restart: containerd keeps the containers running. The new kubelet records its
# startup events, registers (the Node exists), lists its Pods and finds their containers, so no
# restart is counted. A readiness probe starts again at Failure: the Pod is briefly not Ready
# (and out of the Service's endpoints) until the probe passes again.
kubectl apply -f - <<EOF
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 1
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      nodeSelector:
        kubernetes.io/hostname: node-2
      containers:
      - name: nginx
        image: nginx:1.27
        readinessProbe:
          httpGet:
            path: /
            port: 80
          periodSeconds: 5
EOF
sim settle
kubectl get pods -o wide
sim fault restart kubelet@node-2
kubectl get pods
sim advance 6s
kubectl get pods
kubectl get events --field-selector involvedObject.kind=Node
sim fault restart kubelet@node-9
sim node heal node-1
sim node partition node-9
