# A PodDisruptionBudget protects an app during maintenance. The disruption controller keeps the
# budget's status (how many Pods are healthy, how many may go); kubectl drain cordons the node
# and evicts its Pods through the eviction subresource, which refuses (429) an eviction that
# would leave fewer healthy Pods than the budget wants. drain retries every 5 s; once the
# Deployment's replacement Pod is Ready elsewhere, the budget allows the next eviction. A Pod
# no controller manages (box, placed on node-3) stops a drain unless --force says it may go for good.
# --delete-emptydir-data: the metrics-server addon's Pod keeps its serving certificate in an
# emptyDir, and drain will not delete a Pod's local data unless told it may.
kubectl create deployment web --image=nginx:1.25 --replicas=3
sim settle
kubectl apply -f - <<EOF
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata:
  name: web-pdb
spec:
  minAvailable: 3
  selector:
    matchLabels:
      app: web
EOF
sim settle
kubectl get pdb
kubectl get pods -o wide
kubectl apply -f - <<EOF
apiVersion: v1
kind: Pod
metadata:
  name: box
spec:
  nodeName: node-3
  containers:
  - name: box
    image: busybox:1.36
    command: ["sleep", "3600"]
EOF
sim settle
kubectl drain node-1 --delete-emptydir-data --timeout=20s
kubectl uncordon node-1
kubectl apply -f - <<EOF
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata:
  name: web-pdb
spec:
  minAvailable: 2
  selector:
    matchLabels:
      app: web
EOF
sim settle
kubectl get pdb web-pdb
kubectl drain node-3 --ignore-daemonsets --delete-emptydir-data
kubectl drain node-3 --ignore-daemonsets --delete-emptydir-data --force
kubectl get events --field-selector involvedObject.kind=PodDisruptionBudget
kubectl get pods -o wide
kubectl get pdb web-pdb -o yaml
kubectl describe pdb web-pdb
kubectl apply -f - <<EOF
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata:
  name: bad
spec:
  minAvailable: 1
  maxUnavailable: "110%"
  selector:
    matchLabels:
      app: web
EOF
