# kubectl set env and set serviceaccount change a Deployment's Pod template (a strategic merge
# PATCH of what changes: a rollout follows); --list reads it back; an unchanged template sends
# nothing. kubectl edit, in a script, takes the edited object as its input.
kubectl create deployment web --image=nginx
sim settle
kubectl set env deployment/web GREETING=hello MODE=dev
kubectl set env deployment/web --list
kubectl set env deployment/web MODE-
kubectl set env deployment/web GREETING=hello
kubectl create configmap app --from-literal=log.level=debug --from-literal=color=blue
kubectl set env deployment/web --from=configmap/app
kubectl set env deployment/web --list
sim settle
kubectl exec deploy/web -- printenv GREETING LOG_LEVEL COLOR
kubectl create serviceaccount robot
kubectl set serviceaccount deployment web robot
kubectl set serviceaccount deployment web robot
sim settle
kubectl get pods -o jsonpath='{range .items[*]}{.metadata.name} {.spec.serviceAccountName}{"\n"}{end}'
kubectl rollout history deployment/web
kubectl set env deployment/web
kubectl set env deployment/web --from=configmap/missing
kubectl set env deployment/web -c nope A=B
kubectl edit deployment/web
kubectl edit deployment/web <<EOF
# nothing
EOF
