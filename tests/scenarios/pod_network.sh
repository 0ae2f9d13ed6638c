# Pod networking: node IPAM in kube-controller-manager gives each Node a /24 of the cluster CIDR
# 10.244.0.0/16 (10.244.0.0/24 is the control plane's), the kubelet learns it through its Node
# watch and hands it to containerd (UpdateRuntimeConfig), and the CNI plugin gives each Pod the
# next free address of it, from .2 (.1 is the bridge's gateway). A deleted Pod's address is not
# handed out again at once: host-local goes on after the last address it reserved.
sim node add node-4
sim settle
sim trace
kubectl get nodes -o jsonpath='{range .items[*]}{.metadata.name}{"\t"}{.spec.podCIDR}{"\n"}{end}'
kubectl create deployment web --image=nginx:1.25 --replicas=4
sim settle
kubectl get pods -o wide
kubectl delete pod -l app=web
sim settle
kubectl get pods -o wide
