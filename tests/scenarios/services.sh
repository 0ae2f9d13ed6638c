# "Expose nginx and curl it": a Deployment behind a NodePort Service. The EndpointSlice and
# endpoints controllers list the ready Pods, kube-proxy on every node turns them into iptables
# rules (one KUBE-SEP chain per endpoint, picked with probabilities 1/3, 1/2, 1), and a request
# from a Pod follows them hop by hop. Scaled to zero, the Service keeps its ClusterIP but has no
# endpoints: the request is rejected at once.
kubectl create deployment web --image=nginx:1.25 --replicas=3
kubectl create deployment client --image=nginx:1.25
sim settle
kubectl expose deployment web --port 80 --type NodePort
sim settle
kubectl get svc,endpointslices -o wide
kubectl get endpoints
kubectl describe svc web
sim node iptables node-1
kubectl exec deploy/client -- curl -sS http://web
kubectl exec deploy/client -- curl -sS http://web.default.svc.cluster.local/missing
kubectl exec deploy/client -- curl -sS http://nope
sim trace
kubectl scale deployment web --replicas=0
sim settle
kubectl get endpointslices
kubectl describe svc web
kubectl exec deploy/client -- curl -sS http://web
sim trace
kubectl get endpointslices -l kubernetes.io/service-name=web -o yaml
