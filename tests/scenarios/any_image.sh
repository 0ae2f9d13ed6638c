# Images the catalogue does not know run too. The Kubernetes documentation's memory example uses
# polinux/stress, and nginx:1.28 is a real tag: both are pulled (an image kubesim does not know
# gets a size and digest derived from its name) and run. kubesim does not know what polinux/stress
# does, so it runs as a long-running process. Only a name that cannot exist fails: a tag the
# catalogue knows is missing for an image it knows (nginx:1.99).
kubectl apply -f - <<EOF
apiVersion: v1
kind: Pod
metadata:
  name: memory-demo
spec:
  containers:
  - name: memory-demo-ctr
    image: polinux/stress
    resources:
      requests:
        memory: "100Mi"
      limits:
        memory: "200Mi"
    command: ["stress"]
    args: ["--vm", "1", "--vm-bytes", "150M", "--vm-hang", "1"]
---
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
      containers:
      - name: nginx
        image: nginx:1.28
EOF
sim settle
kubectl get pods
kubectl get events --field-selector involvedObject.name=memory-demo
kubectl get pod memory-demo -o jsonpath='{.status.containerStatuses[0].imageID}{"\n"}'
