# kubectl port-forward and kubectl proxy: the console keeps them running as background jobs, and
# its curl connects to their loopback ports — through kube-apiserver's pods/portforward to the
# kubelet and into the Pod's network namespace, or through kube-apiserver's API with kubectl's
# credentials; then the errors kubectl and the shell print.
kubectl create deployment web --image=nginx:1.27 --replicas=2
kubectl expose deployment web --port=80
sim settle
kubectl port-forward svc/web 8080:80
curl -s localhost:8080
curl -I http://127.0.0.1:8080/
curl localhost:8080/missing.html
jobs
sim trace --net
# a NetworkPolicy that denies all ingress does not stop the tunnel: it ends inside the Pod
kubectl apply -f - <<EOF
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata:
  name: deny-all
spec:
  podSelector: {}
  policyTypes:
  - Ingress
EOF
sim settle
curl -s -o /dev/null -w '%{http_code}\n' localhost:8080
kubectl port-forward svc/web 8080:80
kubectl port-forward deploy/web 80:80
kubectl port-forward svc/web 9090:8080
kubectl port-forward pod/nope 9090:80
kubectl port-forward svc/web
kubectl apply -f - <<EOF
apiVersion: v1
kind: Pod
metadata:
  name: pending
spec:
  nodeSelector:
    disk: ssd
  containers:
  - name: nginx
    image: nginx:1.27
EOF
kubectl port-forward pod/pending 9090:80
kill %1
curl localhost:8080
kill %1
kubectl proxy --port=8001
curl -s localhost:8001/api/v1/namespaces/default/services/web
curl -s localhost:8001/api/v1/namespaces/default/pods/nope
curl -s http://localhost:8001/api/v1/namespaces/default/pods?labelSelector=app%3Dnope
jobs
kill %1
