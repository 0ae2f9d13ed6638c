# Graceful termination with preStop hooks. On deletion the kubelet records Killing, runs the hook
# (it may use the grace period), then sends SIGTERM; a process that ignores SIGTERM is SIGKILLed
# when what is left of the grace period (whole seconds, at least 2) runs out. nginx drains for
# 5 s and exits on SIGTERM; the shell's `sleep 5` hook leaves it 10 - 5 = 5 s before SIGKILL (137);
# a hook that fails records FailedPreStopHook (the message leaves the hook's output out).
kubectl apply -f - <<EOF
apiVersion: v1
kind: Pod
metadata:
  name: drain
spec:
  containers:
  - name: nginx
    image: nginx:1.25
    lifecycle:
      preStop:
        exec:
          command: ["/bin/sh", "-c", "sleep 5"]
---
apiVersion: v1
kind: Pod
metadata:
  name: stubborn
spec:
  terminationGracePeriodSeconds: 10
  containers:
  - name: shell
    image: busybox:1.36
    command: ["sh", "-c", "sleep 3600"]
    lifecycle:
      preStop:
        sleep:
          seconds: 5
---
apiVersion: v1
kind: Pod
metadata:
  name: bad-hook
spec:
  containers:
  - name: web
    image: nginx:1.25
    lifecycle:
      preStop:
        httpGet:
          path: /drain
          port: 80
EOF
sim settle
kubectl delete pod drain stubborn bad-hook --wait=false
sim advance 3s
kubectl get pods
sim advance 4s
kubectl get pods
sim settle
kubectl get pods
kubectl get events --field-selector reason=Killing
kubectl get events --field-selector reason=FailedPreStopHook
