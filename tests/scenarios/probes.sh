# Probes. The liveness example of the Kubernetes docs: the container creates /tmp/healthy, removes
# it after 30 s, and the exec probe `cat /tmp/healthy` starts failing; after three failures the
# kubelet kills the container (a shell as PID 1 ignores SIGTERM: SIGKILL after the 30 s grace
# period, exit code 137) and restarts it. Then a readiness probe on a path nginx does not serve
# (404): the new Pod runs but is never Ready, so with maxUnavailable 0 (25% of 3, rounded down)
# the rolling update holds and the old Pods keep serving.
kubectl apply -f - <<EOF
apiVersion: v1
kind: Pod
metadata:
  name: liveness-exec
spec:
  containers:
  - name: liveness
    image: busybox:1.36
    args:
    - /bin/sh
    - -c
    - touch /tmp/healthy; sleep 30; rm -f /tmp/healthy; sleep 600
    livenessProbe:
      exec:
        command:
        - cat
        - /tmp/healthy
      initialDelaySeconds: 5
      periodSeconds: 5
EOF
sim settle
sim advance 40s
kubectl get pod liveness-exec
sim advance 40s
kubectl get pod liveness-exec
kubectl describe pod liveness-exec
kubectl create deployment web --image=nginx:1.25 --replicas=3
sim settle
kubectl apply -f - <<EOF
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 3
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
      - name: nginx
        image: nginx:1.27
        readinessProbe:
          httpGet:
            path: /healthz
            port: 80
          periodSeconds: 5
EOF
kubectl rollout status deployment/web --timeout=30s
kubectl get pods -l app=web
kubectl get events --field-selector reason=Unhealthy
kubectl rollout undo deployment/web
kubectl rollout status deployment/web
kubectl apply -f - <<EOF
apiVersion: v1
kind: Pod
metadata:
  name: bad-probe
spec:
  containers:
  - name: app
    image: nginx:1.25
    readinessProbe:
      periodSeconds: 5
    livenessProbe:
      httpGet:
        port: 80
      tcpSocket:
        port: 80
      failureThreshold: -1
EOF
