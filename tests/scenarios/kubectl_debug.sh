# kubectl debug: an ephemeral container in a running Pod (the pods/ephemeralcontainers
# subresource, started by the kubelet beside the app), a copy of a Pod with a debug container,
# and a Pod on a node in the host's namespaces; each visible in the chain and in describe.
kubectl run web --image=nginx:1.27
kubectl create deployment shop --image=nginx:1.27
sim settle
kubectl debug deploy/shop --image=busybox:1.36
kubectl debug web --image=busybox:1.36 --target=web -- sleep 3600
sim settle
kubectl get pod web -o jsonpath={.status.ephemeralContainerStatuses[0].state}
kubectl exec web -c debugger-p2pqt -- env
kubectl logs web -c debugger-p2pqt
kubectl debug web -it --image=busybox:1.36 -c shell
kubectl debug web --image=busybox:1.36 --target=nope
kubectl debug web
kubectl debug web --image=busybox:1.36 --copy-to=web-debug -- sleep 3600
sim settle
kubectl get pod web-debug -o jsonpath={.spec.containers[*].name}
kubectl debug node/node-1 --image=busybox:1.36 -- sleep 3600
sim settle
kubectl get pods -o wide
kubectl debug nope --image=busybox:1.36
kubectl debug web --image=busybox:1.36 --replace
kubectl describe pod web
kubectl logs web
# the other profiles: general (the one the warning recommends), restricted, netadmin, sysadmin
kubectl debug web --image=busybox:1.36 --profile=general -c gen -- sleep 3600
kubectl get pod web -o jsonpath='{.spec.ephemeralContainers[?(@.name=="gen")].securityContext}{"\n"}'
kubectl debug web --image=busybox:1.36 --profile=restricted -c locked -- sleep 3600
kubectl get pod web -o jsonpath='{.spec.ephemeralContainers[?(@.name=="locked")].securityContext}{"\n"}'
kubectl debug web --image=busybox:1.36 --profile=nope
kubectl debug web --image=busybox:1.36 --copy-to=web-general --profile=general -- sleep 3600
kubectl get pod web-general -o jsonpath='{.spec.shareProcessNamespace} {.metadata.labels}{"\n"}'
kubectl debug node/node-2 --image=busybox:1.36 --profile=netadmin -- sleep 3600
kubectl debug node/node-3 --image=busybox:1.36 --profile=sysadmin -- sleep 3600
sim settle
kubectl get pods -o custom-columns=NAME:.metadata.name,HOSTNET:.spec.hostNetwork,PRIVILEGED:.spec.containers[0].securityContext.privileged,CAPS:.spec.containers[0].securityContext.capabilities.add,VOLUMES:.spec.volumes[*].name
