# A node fails: its kubelet stops renewing the Lease; after the 50 s grace period the node
# lifecycle controller marks it NotReady and taints it; 300 s later its pods are evicted and
# replaced elsewhere. The evicted pod stays Terminating until the kubelet comes back.
kubectl create deployment web --image=nginx:1.27 --replicas=3
sim settle
kubectl get pods -o wide
sim node fail node-2
sim advance 60s
kubectl get nodes
kubectl get pods -o wide
sim advance 5m
kubectl get pods -o wide
kubectl get events --field-selector involvedObject.kind=Node
kubectl get events --field-selector reason=TaintManagerEviction
sim node recover node-2
sim advance 20s
kubectl get nodes
kubectl get pods -o wide
