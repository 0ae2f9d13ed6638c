# A rolling update nginx 1.14.2 -> 1.25 with its revision history, then a bad release (a tag that
# does not exist) and `kubectl rollout undo`. The undo is client-side: kubectl finds the previous
# revision's ReplicaSet and patches its template back into the Deployment (a JSON patch); the
# controller then reuses that ReplicaSet (same name, same pod-template-hash) as revision 4.
kubectl create deployment web --image=nginx:1.14.2 --replicas=3
kubectl rollout status deployment/web
kubectl set image deployment/web nginx=nginx:1.25 --record
kubectl rollout status deployment/web
kubectl rollout history deployment/web
kubectl set image deployment/web nginx=nginx:1.25
kubectl set image deployment/web nginx=nginx:9.99-does-not-exist
kubectl annotate deployment/web kubernetes.io/change-cause="upgrade to 9.99"
kubectl rollout status deployment/web --timeout=30s
kubectl get rs
kubectl get pods
kubectl rollout history deployment/web
kubectl rollout history deployment/web --revision=3
kubectl rollout undo deployment/web
kubectl rollout status deployment/web
kubectl get rs
kubectl rollout history deployment/web
kubectl get rs web-68bf9f694d -o jsonpath={.metadata.annotations}
kubectl rollout undo deployment/web --to-revision=4
kubectl get events --field-selector involvedObject.kind=Deployment
