# kubectl run (run.go with the BasicPod generator): a Pod labelled run=NAME, its container named
# after it; --port, --env, -l/--labels, --restart, --command, args after --, --dry-run=client -o yaml;
# its errors; and a kubectl command kubesim does not run yet is named as such (no "unknown command").
kubectl run nginx --image=nginx:1.28 --port=80 --env=GREETING=hi
kubectl run once --image=busybox:1.36 --restart=Never -- sh -c "echo hello; exit 0"
kubectl run stress --image=polinux/stress --labels=app=stress,tier=test --command -- stress --vm 1
kubectl run
kubectl run --image=nginx
kubectl run x
kubectl run x --image=nginx --restart=Sometimes
kubectl run preview --image=nginx --dry-run=client -o yaml
kubectl edit deploy/x
kubectl gett pods
sim settle
kubectl get pods --show-labels
kubectl get pod nginx -o jsonpath='{.spec.containers[0].env}{"\n"}{.spec.containers[0].ports}{"\n"}'
kubectl logs once
kubectl get pod stress -o jsonpath='{.spec.containers[0].command}{"\n"}'
