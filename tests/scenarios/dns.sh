# DNS in a cluster: every Pod's /etc/resolv.conf names the kube-dns Service (10.96.0.10) and
# searches <ns>.svc.cluster.local, svc.cluster.local and cluster.local with ndots:5, so "web"
# is first asked as web.default.svc.cluster.local. Every cluster runs CoreDNS from bootstrap, as
# kubeadm installs it; with the addon removed nothing answers; put back, a ClusterIP Service
# resolves to its ClusterIP, a headless one to its ready Pods' addresses, and a Pod with hostname
# and subdomain to its own record.
kubectl get deployments,services -n kube-system
sim addon remove coredns
kubectl create deployment client --image=nginx:1.25
sim settle
kubectl exec deploy/client -- cat /etc/resolv.conf
kubectl exec deploy/client -- curl -sS http://web
sim trace
sim addon coredns
sim settle
kubectl get deployments,services -n kube-system -o wide
kubectl get endpointslices -n kube-system
kubectl create namespace shop
kubectl create deployment api -n shop --image=nginx:1.25 --replicas=2
kubectl expose deployment api -n shop --port 80
kubectl create service clusterip db --clusterip=None --tcp=80:80
kubectl apply -f - <<'YAML'
apiVersion: v1
kind: Pod
metadata:
  name: db-0
  labels:
    app: db
spec:
  hostname: db-0
  subdomain: db
  containers:
  - name: nginx
    image: nginx:1.25
YAML
sim settle
kubectl get svc -A
kubectl exec deploy/client -- curl -sS http://api
kubectl exec deploy/client -- curl -sS http://api.shop
sim trace
kubectl exec deploy/client -- curl -sS http://db-0.db
sim trace
kubectl exec deploy/client -- curl -sS http://db
kubectl exec deploy/client -- curl -sS http://example.com
sim trace
kubectl scale deployment coredns -n kube-system --replicas=0
sim settle
kubectl exec deploy/client -- curl -sS http://api.shop
sim trace
