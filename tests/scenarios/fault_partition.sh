# A network partition: node-1 can no longer reach the control plane. Unlike a stopped kubelet,
# its kubelet and containers keep running; only the API server does not hear from it. After 50 s
# the node is NotReady (its Lease is stale) and unreachable-tainted; 300 s later its Pod is
# evicted and replaced elsewhere, but stays Terminating: the kubelet cannot hear of it. When the
# network heals, the kubelet watches again from its last resourceVersion, stops the evicted Pod
# and reports the node Ready.
kubectl create deployment web --image=nginx:1.27 --replicas=3
# and a bare Pod on node-1: nothing replaces it when it is evicted
kubectl apply -f - <<EOF
apiVersion: v1
kind: Pod
metadata:
  name: solo
spec:
  nodeName: node-1
  containers:
  - name: nginx
    image: nginx:1.27
EOF
sim settle
kubectl get pods -o wide
sim node partition node-1
sim advance 25s
sim trace --errors
sim advance 35s
kubectl get nodes
kubectl get pods -o wide
kubectl logs solo
sim advance 5m
kubectl get pods -o wide
sim node heal node-1
sim advance 15s
kubectl get nodes
kubectl get pods -o wide
kubectl get events --field-selector involvedObject.kind=Node
