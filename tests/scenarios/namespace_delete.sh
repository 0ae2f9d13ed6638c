# Deleting a namespace: the API server only marks it Terminating (its `kubernetes` finalizer
# stays); nothing new may be created in it. The namespace controller then empties it through the
# API: the Pods first, waiting out their grace period, then every other kind, one DELETE of the
# collection each; it writes the namespace's conditions and finally removes the finalizer
# (PUT …/finalize), which removes the namespace.
kubectl create namespace shop
kubectl create deployment web --image=nginx:1.27 --replicas=2 -n shop
kubectl expose deployment web --port 80 -n shop
sim settle
kubectl get deploy,rs,pods,svc -n shop
kubectl delete namespace shop
kubectl get namespace shop
kubectl create deployment api --image=nginx:1.27 -n shop
sim advance 2s
kubectl get namespace shop -o yaml
kubectl describe namespace shop
kubectl get pods -n shop
sim settle
kubectl get namespaces
kubectl get namespace shop
kubectl delete namespace kube-system
sim audit --user system:serviceaccount:kube-system:namespace-controller --verb update
