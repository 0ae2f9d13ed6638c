# Init containers run one after the other, each to completion, before the app containers start:
# `kubectl get pods` shows Init:0/2, Init:1/2, PodInitializing, then Running. One that waits for a
# Service that does not exist (`until nslookup …`, the Kubernetes docs' example) holds the Pod at
# Init:0/1 for good; one that fails is restarted with the crash-loop back-off (Init:CrashLoopBackOff).
kubectl apply -f - <<EOF
apiVersion: v1
kind: Pod
metadata:
  name: web
spec:
  initContainers:
  - name: fetch
    image: busybox:1.36
    command: ["sh", "-c", "echo fetching content; sleep 4"]
  - name: migrate
    image: busybox:1.36
    command: ["sh", "-c", "echo migrating; sleep 3"]
  containers:
  - name: nginx
    image: nginx:1.25
---
apiVersion: v1
kind: Pod
metadata:
  name: waits
spec:
  initContainers:
  - name: init-myservice
    image: busybox:1.36
    command: ["sh", "-c", "until nslookup myservice; do echo waiting for myservice; sleep 2; done"]
  containers:
  - name: app
    image: busybox:1.36
    command: ["sh", "-c", "echo The app is running! && sleep 3600"]
---
apiVersion: v1
kind: Pod
metadata:
  name: broken-init
spec:
  initContainers:
  - name: check
    image: busybox:1.36
    command: ["sh", "-c", "echo config missing; exit 1"]
  containers:
  - name: app
    image: nginx:1.25
EOF
sim advance 3s
kubectl get pods
sim advance 4s
kubectl get pods
sim advance 30s
kubectl get pods
kubectl logs web -c fetch
kubectl logs waits
kubectl describe pod web
kubectl get pod waits -o jsonpath={.status.conditions[1]}
