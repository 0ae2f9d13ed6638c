# Readiness gates endpoints during a rolling update. Each Pod of kubesim/app
# answers /ready with 503 for its first 10 s (READY_AFTER=10). Until its
# readiness probe passes, the EndpointSlice lists the new Pod ready=false and
# kube-proxy sends it no traffic: the old Pods keep answering. Once it is ready
# the Deployment scales the old ReplicaSet down and the slice follows.
kubectl create deployment client --image=nginx:1.25
kubectl apply -f - <<EOF
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 2
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
      - name: app
        image: kubesim/app:1
        env:
        - name: READY_AFTER
          value: "10"
        readinessProbe:
          httpGet:
            path: /ready
            port: 8080
          periodSeconds: 2
EOF
kubectl expose deployment web --port 80 --target-port 8080
kubectl rollout status deployment/web
kubectl exec deploy/client -- curl -s http://web
kubectl set image deployment/web app=kubesim/app:2
sim advance 8s
kubectl get pods -l app=web
kubectl get endpointslices -l kubernetes.io/service-name=web -o jsonpath='{range .items[*].endpoints[*]}{.targetRef.name}{"\t"}{.addresses[0]}{"\tready="}{.conditions.ready}{"\tterminating="}{.conditions.terminating}{"\n"}{end}'
kubectl exec deploy/client -- curl -s http://web
kubectl exec deploy/client -- curl -s http://web
sim trace --net
kubectl get svc,endpointslices -o wide
kubectl rollout status deployment/web
kubectl get endpointslices -l kubernetes.io/service-name=web -o jsonpath='{range .items[*].endpoints[*]}{.targetRef.name}{"\t"}{.addresses[0]}{"\tready="}{.conditions.ready}{"\tterminating="}{.conditions.terminating}{"\n"}{end}'
kubectl exec deploy/client -- curl -s http://web
kubectl get events --field-selector reason=Unhealthy
