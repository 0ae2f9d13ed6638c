# The console as kubectl answers: api-resources, api-versions, cluster-info, get all, --sort-by, events, get --watch, help.
kubectl api-resources
kubectl api-versions
kubectl cluster-info
kubectl -n kube-system get deployments
kubectl get all
kubectl create deployment web --image=nginx:1.27 --replicas=2
kubectl get pods -w
kubectl get all
kubectl expose deployment web --port 80
kubectl get all
kubectl get events --sort-by=.metadata.creationTimestamp
kubectl get events --sort-by=.lastTimestamp
kubectl get events --sort-by=.foo
kubectl events
kubectl events --for=deployment/web
kubectl events --types=Warning
kubectl events --types=Bad
kubectl set image deployment/web nginx=nginx:1.28
kubectl get deploy web --watch
kubectl gett pods
kubectl foo
kubectl expose deployment web --prot 80
kubectl get pods -q
kubectl get --help
kubectl help
