# A container that keeps failing: it prints a line, runs 5 s and exits with code 1. The kubelet
# restarts it at once the first time, then backs off 10 s, 20 s, 40 s… (CrashLoopBackOff), and
# `kubectl get pods` shows the restarts and how long ago the last one ended. A bare Pod with
# restartPolicy Never runs once: Completed (exit 0) or Error (exit 1), never restarted.
# `kubectl logs` asks kube-apiserver, which proxies to the node's kubelet; `--previous` reads the
# run before. Deleting a Pod: its containers get SIGTERM, then SIGKILL at the end of the grace period.
kubectl apply -f - <<EOF
apiVersion: apps/v1
kind: Deployment
metadata:
  name: crash
spec:
  replicas: 1
  selector:
    matchLabels:
      app: crash
  template:
    metadata:
      labels:
        app: crash
    spec:
      containers:
      - name: app
        image: busybox:1.36
        command: ["sh", "-c", "echo starting; sleep 5; exit 1"]
EOF
sim settle
kubectl get pods
sim advance 10s
kubectl get pods
sim advance 30s
kubectl get pods
sim advance 100s
kubectl get pods
kubectl describe pod -l app=crash
kubectl get deploy crash
kubectl logs deployment/crash
kubectl logs deployment/crash --previous
kubectl apply -f - <<EOF
apiVersion: v1
kind: Pod
metadata:
  name: once
spec:
  restartPolicy: Never
  containers:
  - name: job
    image: busybox:1.36
    command: ["sh", "-c", "echo done"]
---
apiVersion: v1
kind: Pod
metadata:
  name: fails-once
spec:
  restartPolicy: Never
  containers:
  - name: job
    image: busybox:1.36
    command: ["sh", "-c", "exit 3"]
---
apiVersion: v1
kind: Pod
metadata:
  name: retries
spec:
  restartPolicy: OnFailure
  containers:
  - name: job
    image: busybox:1.36
    args: ["sh", "-c", "sleep 2; exit 2"]
EOF
sim settle
sim advance 30s
kubectl get pods once fails-once retries
kubectl get pod fails-once -o jsonpath={.status.containerStatuses[0].state}
kubectl get pod once -o jsonpath={.status.conditions}
kubectl logs once
kubectl logs once -p
kubectl logs once -c sidecar
# Graceful termination: `sleep` as PID 1 ignores SIGTERM, so a deleted Pod stays Terminating
# for the whole grace period (30 s) and is then SIGKILLed (137); nginx stops at once.
kubectl create deployment sleeper --image=busybox:1.36 -- sleep 3600
kubectl create deployment web --image=nginx:1.25
sim settle
kubectl delete pod -l app=sleeper
kubectl delete pod -l app=web
sim advance 10s
kubectl get pods -l app=sleeper
kubectl get pods -l app=web
sim advance 25s
kubectl get pods -l app=sleeper
kubectl get pods -l app=web
kubectl delete pod -l app=nothing
