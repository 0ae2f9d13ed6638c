# A HorizontalPodAutoscaler scales a Deployment with its load. metrics-server scrapes every
# kubelet's resource metrics every 15 s; the HPA controller reads the Pods' CPU through the
# aggregated metrics.k8s.io API every 15 s and compares it with the Pods' CPU requests:
# desired = ceil(current replicas × current utilization / target), left alone within 10 %.
# Scaling out is at most doubling per sync; scaling in waits for the highest recommendation of
# the last 5 minutes (the downscale stabilization window) to come down.
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
        - name: CPU_PER_REQUEST
          value: "1"
        resources:
          requests:
            cpu: 100m
---
apiVersion: v1
kind: Service
metadata:
  name: web
spec:
  selector:
    app: web
  ports:
  - port: 80
    targetPort: 8080
---
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: web
spec:
  scaleTargetRef:
    apiVersion: apps/v1
    kind: Deployment
    name: web
  minReplicas: 2
  maxReplicas: 10
  metrics:
  - type: Resource
    resource:
      name: cpu
      target:
        type: Utilization
        averageUtilization: 50
EOF
sim settle
kubectl get hpa
kubectl top pods
sim advance 45s
kubectl get hpa
kubectl top pods
sim load web --rps 240
sim advance 30s
kubectl get hpa
kubectl top pods
sim advance 45s
kubectl get hpa
kubectl get deployment web
sim load web --rps 0
sim advance 2m
kubectl get hpa
kubectl describe hpa web
sim advance 4m
kubectl get hpa
kubectl get events --field-selector involvedObject.kind=HorizontalPodAutoscaler
kubectl top nodes
