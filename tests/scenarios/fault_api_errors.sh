# Injected API errors: kube-apiserver answers 429 (Retry-After), 500, 409 and 504, and the clients
# recover as client-go and the controllers do.
kubectl create deployment web --image=nginx:1.27 --replicas=2
sim settle
# 429 Too Many Requests with Retry-After: 1 — client-go waits a second and sends the request
# again, twice here; kubectl never sees the error
sim fault api-error 429 kubectl --count 2
kubectl scale deployment web --replicas=3
sim trace --errors
sim settle
# 500 on the replicaset controller's Pod creates: a FailedCreate Event, the key requeued with the
# rate limiter's back-off (5 ms, 10 ms…), the next sync creates the Pod
sim fault api-error 500 replicaset-controller --resource pods --verb create
kubectl scale deployment web --replicas=4
sim settle
sim trace --errors
kubectl get events --field-selector reason=FailedCreate
kubectl get deploy,rs
# 409 on the deployment controller's ReplicaSet update (the scale-down): requeued, then done
sim fault api-error 409 deployment-controller --resource replicasets --verb update
kubectl scale deployment web --replicas=2
sim settle
sim trace --errors
kubectl get deploy,rs
# 504 to kubectl: its error to report, nothing written
sim fault api-error 504 kubectl
kubectl get pods
kubectl get pods
sim fault api-error 418
