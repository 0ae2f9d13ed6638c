# --dry-run=server: the request carries dryRun=All and goes through admission, defaulting and
# validation, but nothing is stored: no etcd write, no watch event, no controller wakes up.
# --dry-run=client is answered the same way here (nothing stored), marked "(dry run)".
kubectl create deployment web --image=nginx:1.27 --replicas=2
sim settle
kubectl scale deployment web --replicas=5 --dry-run=server
kubectl set image deployment/web nginx=nginx:1.28 --dry-run=server
kubectl delete deployment web --dry-run=server
kubectl label deployment web tier=front --dry-run=client
sim settle
kubectl get deployment web --show-labels
kubectl get deployment web -o jsonpath='{.spec.template.spec.containers[0].image}'
kubectl create configmap settings --from-literal=mode=debug --dry-run=server
kubectl get configmap settings
kubectl create deployment web --image=nginx --dry-run=server
kubectl apply --dry-run=bogus -f app.yaml
sim audit query 'fields verb, requestURI, responseStatus.code | filter requestURI like /dryRun/'
