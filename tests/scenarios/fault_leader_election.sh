# Leader election: kube-controller-manager and kube-scheduler each hold a Lease in kube-system
# and renew it every 2 s. A crashed process never releases it: the new process reads the Lease,
# waits until it has seen the same record for the lease duration (15 s), takes it over
# (leaseTransitions + 1, an Event "… became leader") and only then starts its controllers.
kubectl get leases -n kube-system
kubectl get events -n kube-system
kubectl create deployment web --image=nginx:1.27 --replicas=2
sim fault restart kube-controller-manager
kubectl get pods
kubectl get events -n kube-system
kubectl get lease kube-controller-manager -n kube-system -o yaml
# renewals that fail for the renew deadline (10 s): the leader gives up and exits
# ("leaderelection lost"), kubelet starts it again and it waits for the Lease like anyone
sim fault api-error 500 kube-scheduler --resource leases --count 12
sim advance 20s
sim trace --errors
kubectl scale deployment web --replicas=3
sim settle
kubectl get pods
kubectl get lease -n kube-system
kubectl get events -n kube-system
# a deleted Lease: the leader's next renewal finds none (404) and creates it again
kubectl delete lease kube-controller-manager -n kube-system
sim advance 3s
kubectl get lease -n kube-system
