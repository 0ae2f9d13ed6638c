# A missing ConfigMap: a Pod that takes LOG_LEVEL from app-config fails to create its container
# (CreateContainerConfigError, retried at each pod sync), a Pod that mounts it stays
# ContainerCreating (FailedMount). Create the ConfigMap: both start at their next try.
kubectl apply -f - <<EOF
apiVersion: v1
kind: Pod
metadata:
  name: env-app
spec:
  containers:
  - name: app
    image: busybox:1.36
    command: ["sh", "-c", "echo LOG_LEVEL=$LOG_LEVEL; sleep 3600"]
    env:
    - name: LOG_LEVEL
      valueFrom:
        configMapKeyRef:
          name: app-config
          key: LOG_LEVEL
---
apiVersion: v1
kind: Pod
metadata:
  name: vol-app
spec:
  containers:
  - name: app
    image: busybox:1.36
    command: ["sleep", "3600"]
    volumeMounts:
    - name: config
      mountPath: /etc/app
  volumes:
  - name: config
    configMap:
      name: app-config
EOF
sim settle
kubectl get pods
kubectl get pod env-app -o jsonpath='{.status.containerStatuses[0].state.waiting}{"\n"}'
kubectl events --for pod/env-app
kubectl events --for pod/vol-app
kubectl create configmap app-config --from-literal=LOG_LEVEL=debug
sim settle
kubectl get pods
kubectl exec env-app -- printenv LOG_LEVEL
kubectl exec vol-app -- cat /etc/app/LOG_LEVEL
kubectl create configmap other --from-literal=A=1
kubectl apply -f - <<EOF
apiVersion: v1
kind: Pod
metadata:
  name: wrong-key
spec:
  containers:
  - name: app
    image: busybox:1.36
    command: ["sleep", "3600"]
    env:
    - name: MODE
      valueFrom:
        configMapKeyRef:
          name: other
          key: MODE
    - name: OPTIONAL
      valueFrom:
        configMapKeyRef:
          name: nowhere
          key: X
          optional: true
EOF
sim settle
kubectl get pod wrong-key
kubectl events --for pod/wrong-key
