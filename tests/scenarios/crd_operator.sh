# The same lesson with a controller that acts: the Website kind and its operator (the reconcile
# loop an operator author writes with kopf or controller-runtime). The operator waits until the
# API server serves its resource, then turns each Website into a Deployment and a Service it owns,
# keeps them as the Website's spec says, and writes the Website's status; it recovers from faults.
# Deleting the Website lets the garbage collector delete what it owned.
sim addon website-operator
sim settle
kubectl get crd
kubectl apply -f - <<EOF
apiVersion: example.com/v1
kind: Website
metadata:
  name: blog
spec:
  image: nginx:1.27
  replicas: 2
EOF
sim settle
kubectl get websites
kubectl get deployments,services -l app.kubernetes.io/name=website
kubectl describe website blog
kubectl patch website blog --type=merge -p '{"spec":{"replicas":3}}'
sim settle
kubectl get ws
kubectl get pods -l app.kubernetes.io/instance=blog
# faults: kube-apiserver restarts (every watch breaks), the operator's watches drop, the operator
# restarts; it lists and watches again and keeps reconciling
sim fault restart kube-apiserver
sim fault watch-drop website-operator
sim fault restart website-operator
sim settle
kubectl patch website blog --type=merge -p '{"spec":{"replicas":1}}'
sim settle
kubectl get ws,deployments
# the operator's own identity: what its ClusterRole lets it do
kubectl auth can-i delete deployments --as=system:serviceaccount:website-operator:website-operator
kubectl delete website blog
sim settle
kubectl get deployments,services -l app.kubernetes.io/name=website
