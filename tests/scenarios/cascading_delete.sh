# Deleting a Deployment: the garbage collector follows ownerReferences.
kubectl create deployment a --image=nginx:1.27 --replicas=2
kubectl create deployment b --image=nginx:1.27 --replicas=1
kubectl create deployment c --image=nginx:1.27 --replicas=1
sim settle
kubectl delete deployment a
sim settle
kubectl get rs,pods
kubectl delete deployment b --cascade=foreground
sim settle
kubectl get rs,pods
kubectl delete deployment c --cascade=orphan
sim settle
kubectl get deploy,rs,pods
kubectl get events --field-selector reason=Killing
