# Required pod anti-affinity on the hostname: four replicas that must not share a node, on three
# nodes. One stays Pending with InterPodAffinity's reason until a fourth node is added.
kubectl apply -f - <<EOF
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 4
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      affinity:
        podAntiAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
          - labelSelector:
              matchLabels:
                app: web
            topologyKey: kubernetes.io/hostname
      containers:
      - name: web
        image: nginx:1.27
EOF
sim settle
kubectl get pods -o wide
kubectl get events --field-selector reason=FailedScheduling
sim node add node-4 --zone ap-northeast-2a
sim settle
kubectl get pods -o wide
