# kubectl wait: the simulation runs while kubectl waits (virtual time) for a condition, a value
# at a JSONPath, a deletion or a creation, each as kubectl v1.34 prints it.
kubectl create deployment web --image=nginx:1.27 --replicas=2
kubectl wait --for=condition=Available deployment/web
kubectl wait --for=condition=Ready pods -l app=web
kubectl wait --for=jsonpath='{.status.readyReplicas}'=2 deploy/web
kubectl wait --for=jsonpath='{.status}' deploy/web
kubectl scale deployment web --replicas=3
kubectl wait --for=jsonpath='{.status.availableReplicas}'=3 deployment/web --timeout=2m
kubectl wait --for=condition=Available=false deployment/web --timeout=0
kubectl wait --for=condition=Available deployment/web --timeout=0
kubectl wait --for=condition=Bogus deployment/web --timeout=5s
kubectl wait --for=condition=Available deployment/nope
kubectl wait deployment/web
kubectl wait --for=bogus deployment/web
kubectl wait --for=jsonpath='{.spec.replicas}'= deploy/web
kubectl wait --for=condition=Ready pods
kubectl wait --for=condition=Ready pods -l app=nope
kubectl wait --for=condition=Available deployment/web --timeout=abc
kubectl run box --image=busybox:1.36 -- sleep 3600
kubectl wait --for=condition=Ready pod/box
kubectl wait --for=jsonpath='{.status.phase}'=Running pod/box
kubectl delete pod box --wait=false
kubectl wait --for=delete pod/box --timeout=60s
kubectl wait --for=delete pod/box
kubectl wait --for=create configmap/later --timeout=2s
kubectl wait --for=create configmap/kube-root-ca.crt
# -f: the objects a file names (here the console's own file)
cat <<EOF > web.yaml
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
EOF
kubectl wait --for=condition=Available -f web.yaml
kubectl wait --for=condition=Available -f nope.yaml
