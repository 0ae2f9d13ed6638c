# Pausing a Deployment: template changes wait (no new ReplicaSet) and Progressing turns Unknown
# (DeploymentPaused) so a long pause is never reported as a missed deadline; resume rolls out
# everything at once. `rollout restart` stamps the template with restartedAt: a new revision with
# the same image.
kubectl create deployment hello --image=gcr.io/google-samples/hello-app:1.0 --replicas=2
sim settle
kubectl rollout pause deployment/hello
kubectl rollout pause deployment/hello
kubectl set image deployment/hello hello-app=gcr.io/google-samples/hello-app:2.0
sim settle
kubectl get rs
kubectl rollout status deployment/hello --watch=false
kubectl rollout undo deployment/hello
kubectl rollout restart deployment/hello
kubectl describe deployment hello
kubectl rollout resume deployment/hello
kubectl rollout resume deployment/hello
kubectl rollout status deployment/hello
kubectl rollout restart deployment/hello
kubectl rollout restart deployment/hello
kubectl rollout status deployment/hello
kubectl rollout history deployment/hello
kubectl get deploy hello -o jsonpath={.spec.template.metadata.annotations}
kubectl rollout history deployment/hello --revision=3
kubectl rollout undo deployment/hello --to-revision=9
kubectl rollout status replicaset/hello-missing
kubectl rollout history replicasets
kubectl rollout frobnicate deployment/hello
kubectl set image deployment/hello app=hello-app:2.0
kubectl set image deployment/hello
