# kubectl autoscale writes an autoscaling/v2 HorizontalPodAutoscaler; what the API server refuses
# in an HPA, and what kubectl itself refuses. Without metrics-server the HPA cannot get metrics.
kubectl create deployment web --image=nginx:1.25 --replicas=2
kubectl autoscale deployment web --max=0
kubectl autoscale deployment web --min=5 --max=3
kubectl autoscale service kubernetes --max=3
kubectl autoscale deployment web --min=2 --max=5 --cpu=70%
kubectl get hpa web -o yaml
kubectl apply -f - <<EOF
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: bad
spec:
  scaleTargetRef:
    apiVersion: apps/v1
    kind: Deployment
    name: web
  minReplicas: 4
  maxReplicas: 2
  metrics:
  - type: Foo
    resource:
      name: cpu
      target:
        type: Utilization
        averageUtilization: 50
EOF
kubectl apply -f - <<EOF
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: bad
spec:
  scaleTargetRef:
    apiVersion: apps/v1
    kind: Deployment
    name: web
  maxReplicas: 2
  behavior:
    scaleDown:
      stabilizationWindowSeconds: 4000
      policies: []
EOF
kubectl get hpa
sim addon remove metrics-server
kubectl top pods
sim advance 40s
kubectl describe hpa web
