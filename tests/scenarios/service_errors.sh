# Bad Services get v1.34's messages and change nothing: a node port outside the range or already
# taken, an address already allocated or outside the range, two ports alike, a node port on a
# ClusterIP Service, a name that is not a DNS-1035 label, and `expose` of something without ports.
kubectl create service nodeport web --tcp=80:8080 --node-port=30080
kubectl create service nodeport other --tcp=80:8080 --node-port=30080
kubectl create service nodeport low --tcp=80:8080 --node-port=80
kubectl create service clusterip taken --tcp=80:80 --clusterip=10.96.0.1
kubectl create service clusterip outside --tcp=80:80 --clusterip=10.0.0.1
kubectl apply -f - <<EOF
apiVersion: v1
kind: Service
metadata:
  name: dup
spec:
  selector:
    app: dup
  ports:
  - port: 80
  - port: 80
EOF
kubectl apply -f - <<EOF
apiVersion: v1
kind: Service
metadata:
  name: 1bad
spec:
  type: ClusterIP
  ports:
  - name: http
    port: 80
    nodePort: 30081
EOF
kubectl create deployment noports --image=busybox -- sleep 3600
kubectl expose deployment noports
kubectl expose node node-1 --port 80
kubectl get svc
