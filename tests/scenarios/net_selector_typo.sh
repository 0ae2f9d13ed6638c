# A Service with a typo in its selector: app=ngnix matches no Pod. Everything
# looks healthy (the Deployment is 2/2, the Service has a ClusterIP), but its
# EndpointSlice is empty, kube-proxy REJECTs the ClusterIP and curl is refused
# at once. Compare the selector with the Pods' labels, fix it, and it answers.
kubectl create deployment nginx --image=nginx:1.25 --replicas=2
kubectl create deployment client --image=nginx:1.25
kubectl apply -f - <<EOF
apiVersion: v1
kind: Service
metadata:
  name: nginx
spec:
  selector:
    app: ngnix
  ports:
  - port: 80
    targetPort: 80
EOF
sim settle
kubectl get deploy,svc,endpointslices -o wide
kubectl describe svc nginx
sim node iptables node-1
kubectl exec deploy/client -- curl -sS http://nginx
sim trace --net
kubectl get pods --show-labels
kubectl apply -f - <<EOF
apiVersion: v1
kind: Service
metadata:
  name: nginx
spec:
  selector:
    app: nginx
  ports:
  - port: 80
    targetPort: 80
EOF
sim settle
kubectl get endpointslices -o wide
kubectl exec deploy/client -- curl -sS http://nginx
sim trace --net
kubectl get events --field-selector involvedObject.kind=Deployment
