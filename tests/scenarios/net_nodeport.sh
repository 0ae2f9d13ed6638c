# NodePort from outside: a Service of type NodePort opens port 30080 on every
# node. A request from outside the cluster to any node enters KUBE-NODEPORTS
# there and is DNATed to a Pod, on that node or on another one: node-1 runs no
# web Pod and still answers.
kubectl create deployment web --image=nginx:1.25 --replicas=2
kubectl apply -f - <<EOF
apiVersion: v1
kind: Service
metadata:
  name: web
spec:
  type: NodePort
  selector:
    app: web
  ports:
  - port: 80
    targetPort: 80
    nodePort: 30080
EOF
sim settle
kubectl get svc web -o wide
kubectl get pods -o wide
sim node iptables node-1
sim curl node-1:30080
sim curl node-3:30080
sim trace --net
sim curl node-3:30081
kubectl get endpointslices -o wide
kubectl get events --field-selector involvedObject.kind=ReplicaSet
