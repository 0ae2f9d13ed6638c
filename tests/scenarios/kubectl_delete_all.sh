# kubectl delete TYPE --all: every object of the type in the namespace, one DELETE each (the
# resource builder lists them first); the ReplicaSet replaces its Pods.
kubectl create deployment web --image=nginx:1.27 --replicas=2
sim settle
kubectl delete pods --all
kubectl delete pods --all -l app=web
kubectl delete pod web --all
sim settle
kubectl get pods
kubectl delete services --all -n kube-public
