# Events do not stay forever: kube-apiserver writes each Event with an etcd lease of --event-ttl
# (one hour by default). When the lease runs out etcd deletes the key and every watcher gets the
# DELETED event; the Deployment and its Pods stay. An Event written again (a repeated warning's
# count going up) gets a new lease, so it lives an hour from its last write.
kubectl create deployment web --image=nginx:1.27 --replicas=1
sim settle
kubectl get events --field-selector involvedObject.kind=Deployment
sim advance 59m
kubectl get events --field-selector involvedObject.kind=Deployment
sim advance 2m
kubectl get events --field-selector involvedObject.kind=Deployment
kubectl get events
kubectl get deployment web
sim etcd keys /registry/events/
