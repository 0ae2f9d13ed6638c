# Native sidecars (Kubernetes docs, "Sidecar Containers"): an init container with
# `restartPolicy: Always` starts in its place among the init containers, and the next container
# starts as soon as it is running (it does not wait for it to complete). It keeps running beside
# the app, counts in READY (2/2), and is restarted whatever the Pod's restartPolicy. In a Pod that
# runs to completion (restartPolicy: Never), the sidecar is stopped when the app has finished.
kubectl apply -f - <<EOF
apiVersion: v1
kind: Pod
metadata:
  name: myapp
spec:
  initContainers:
  - name: logshipper
    image: alpine:latest
    restartPolicy: Always
    command: ["sh", "-c", "tail -F /opt/logs.txt"]
  containers:
  - name: myapp
    image: alpine:latest
    command: ["sh", "-c", "while true; do echo logging; sleep 1; done"]
---
apiVersion: v1
kind: Pod
metadata:
  name: batch
spec:
  restartPolicy: Never
  initContainers:
  - name: proxy
    image: nginx:1.25
    restartPolicy: Always
  containers:
  - name: work
    image: busybox:1.36
    command: ["sh", "-c", "echo working; sleep 5; echo done"]
EOF
sim advance 4s
kubectl get pods
kubectl get pod myapp -o jsonpath={.status.initContainerStatuses[0].started}
kubectl get pod myapp -o jsonpath='{.status.conditions[?(@.type=="Initialized")].status}'
sim advance 1s
kubectl logs -f batch -c work
kubectl logs -f myapp -c logshipper
sim advance 20s
kubectl get pods
kubectl describe pod batch
kubectl get events --field-selector involvedObject.name=batch
