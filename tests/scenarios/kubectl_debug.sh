# kubectl debug: an ephemeral container in a running Pod (the pods/ephemeralcontainers
# subresource, started by the kubelet beside the app), a copy of a Pod with a debug container,
# and a Pod on a node in the host's namespaces; each visible in the chain and in describe.
kubectl create deployment web --image=nginx:1.27
sim settle
kubectl get pods
kubectl debug deploy/web --image=busybox:1.36
kubectl debug web-66d47686b4-fg7l7 --image=busybox:1.36 --target=nginx -- sleep 3600
sim settle
kubectl get pod web-66d47686b4-fg7l7 -o jsonpath={.status.ephemeralContainerStatuses[0].state}
kubectl exec web-66d47686b4-fg7l7 -c debugger-p2pqt -- env
kubectl debug web-66d47686b4-fg7l7 -it --image=busybox:1.36 -c shell
kubectl logs web-66d47686b4-fg7l7 -c debugger-p2pqt
kubectl debug web-66d47686b4-fg7l7 --image=busybox:1.36 --target=nope
kubectl debug web-66d47686b4-fg7l7
kubectl debug web-66d47686b4-fg7l7 --image=busybox:1.36 --copy-to=web-debug -- sleep 3600
sim settle
kubectl get pod web-debug -o jsonpath={.spec.containers[*].name}
kubectl debug node/node-1 --image=busybox:1.36 -- sleep 3600
sim settle
kubectl get pods -o wide
kubectl debug nope --image=busybox:1.36
kubectl debug web-66d47686b4-fg7l7 --image=busybox:1.36 --replace
kubectl describe pod web-66d47686b4-fg7l7
kubectl logs web-66d47686b4-fg7l7
