# Expose nginx and curl it. CoreDNS first (kubeadm installs it with the cluster),
# then three nginx Pods behind a ClusterIP Service. The EndpointSlice controller
# lists the ready Pods, kube-proxy on every node writes iptables rules (one
# KUBE-SEP chain per Pod, chosen with probability 1/3, then 1/2, then 1), and the
# client Pod's request goes: DNS lookup of "web" through the kube-dns Service,
# the rule chosen at random, DNAT to a Pod on this node or another, nginx answers.
kubectl create deployment web --image=nginx:1.25 --replicas=3
kubectl create deployment client --image=nginx:1.25
sim settle
kubectl expose deployment web --port 80
sim settle
kubectl get svc,endpointslices -o wide
kubectl get pods -o wide
sim node iptables node-1
kubectl exec deploy/client -- curl -s http://web
sim trace --net
kubectl get events --field-selector involvedObject.kind=Deployment
kubectl get events -n kube-system --field-selector involvedObject.kind=Deployment
