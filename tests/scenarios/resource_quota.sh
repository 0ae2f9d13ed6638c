# A ResourceQuota limits what a namespace may use. The resource quota controller fills its
# status (hard from spec, used counted); from then on the API server's ResourceQuota admission
# plugin charges every new Pod against it before storing it: a Pod without a CPU request is
# refused when CPU is limited, and one that would go over is refused with what it asked, what is
# used and what is allowed. A Deployment's ReplicaSet meets the same refusals as FailedCreate
# events. Deleting a Pod gives its share back.
kubectl create namespace team-a
kubectl apply -f - <<EOF
apiVersion: v1
kind: ResourceQuota
metadata:
  name: compute-quota
  namespace: team-a
spec:
  hard:
    pods: "4"
    requests.cpu: "1"
    requests.memory: 1Gi
    limits.cpu: "2"
    count/deployments.apps: "2"
EOF
sim settle
kubectl get resourcequota -n team-a
kubectl apply -f - <<EOF
apiVersion: v1
kind: Pod
metadata:
  name: no-requests
  namespace: team-a
spec:
  containers:
  - name: nginx
    image: nginx:1.27
EOF
kubectl apply -f - <<EOF
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: team-a
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
        resources:
          requests:
            cpu: 400m
            memory: 128Mi
          limits:
            cpu: 500m
EOF
sim settle
kubectl get deploy,rs,pods -n team-a
kubectl get events -n team-a --field-selector reason=FailedCreate
kubectl get resourcequota -n team-a
kubectl describe resourcequota compute-quota -n team-a
kubectl scale deployment web -n team-a --replicas=1
sim settle
kubectl get resourcequota compute-quota -n team-a -o jsonpath='{.status.used}{"\n"}'
kubectl apply -f - <<EOF
apiVersion: v1
kind: ResourceQuota
metadata:
  name: bad
  namespace: team-a
spec:
  hard:
    gpus: "1"
    pods: "-1"
EOF
