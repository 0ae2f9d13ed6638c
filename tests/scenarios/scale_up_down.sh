# Scaling: the deployment controller resizes the ReplicaSet, the replicaset controller
# creates Pods (slow start) or deletes the lowest-ranked ones.
kubectl create deployment hello --image=nginx:1.27 --replicas=2
sim settle
kubectl scale deployment hello --replicas=5
sim settle
kubectl get rs,pods
kubectl scale deployment/hello --replicas=1
sim settle
kubectl get rs,pods
kubectl get events --field-selector involvedObject.kind=Deployment
kubectl get events --field-selector reason=SuccessfulDelete
