# kubesim's teaching image, kubesim/app: an HTTP server on 8080 whose behaviour its env sets.
# READY_AFTER: /ready answers 503 at first, so the readiness probe keeps the Pod 0/1 until then.
# HEALTHY_FOR: /healthz turns 500 (a hung app) and the liveness probe restarts it.
# LEAK_MB_PER_S with a memory limit: the kernel kills it, OOMKilled (137), and it crash-loops.
kubectl apply -f - <<EOF
apiVersion: v1
kind: Pod
metadata:
  name: slow-start
spec:
  containers:
  - name: app
    image: kubesim/app:1
    env:
    - name: READY_AFTER
      value: "20"
    readinessProbe:
      httpGet:
        path: /ready
        port: 8080
      periodSeconds: 5
---
apiVersion: v1
kind: Pod
metadata:
  name: hangs
spec:
  containers:
  - name: app
    image: kubesim/app:2
    env:
    - name: HEALTHY_FOR
      value: "30"
    livenessProbe:
      httpGet:
        path: /healthz
        port: 8080
      periodSeconds: 5
      failureThreshold: 2
---
apiVersion: v1
kind: Pod
metadata:
  name: leaky
spec:
  containers:
  - name: app
    image: kubesim/app:1
    env:
    - name: LEAK_MB_PER_S
      value: "16"
    resources:
      limits:
        memory: 64Mi
EOF
sim advance 10s
kubectl get pods
sim advance 20s
kubectl get pods
sim advance 30s
kubectl get pods
kubectl get pod leaky -o jsonpath={.status.containerStatuses[0].lastState}
kubectl logs slow-start
kubectl get events --field-selector reason=Unhealthy
kubectl get events --field-selector reason=Killing
