# The stuck states learners meet most. A real cluster simply waits in each: `sim settle` ends at
# once every time, while the retries (the scheduler's, the kubelet's back-offs) go on in the
# background with the events a real cluster shows.
#
# 1. A nodeSelector no node matches: FailedScheduling, the Pod stays Pending.
kubectl apply -f - <<EOF
apiVersion: apps/v1
kind: Deployment
metadata:
  name: nowhere
spec:
  replicas: 1
  selector:
    matchLabels:
      app: nowhere
  template:
    metadata:
      labels:
        app: nowhere
    spec:
      nodeSelector:
        disk: nvme
      containers:
      - name: web
        image: nginx:1.27
EOF
sim settle
# 2. A claim that does not exist: FailedScheduling, the Pod stays Pending.
kubectl apply -f - <<EOF
apiVersion: v1
kind: Pod
metadata:
  name: noclaim
spec:
  containers:
  - name: web
    image: nginx:1.27
    volumeMounts:
    - name: data
      mountPath: /data
  volumes:
  - name: data
    persistentVolumeClaim:
      claimName: data
EOF
sim settle
# 3. An image pull Secret that does not exist, and a tag the registry does not have:
#    FailedToRetrieveImagePullSecret, Failed (ErrImagePull), BackOff (ImagePullBackOff).
kubectl apply -f - <<EOF
apiVersion: v1
kind: Pod
metadata:
  name: private
spec:
  imagePullSecrets:
  - name: regcred
  containers:
  - name: web
    image: nginx:1.99
EOF
sim settle
# 4. A container that exits at once: BackOff (CrashLoopBackOff), restarts with a growing back-off.
kubectl apply -f - <<EOF
apiVersion: apps/v1
kind: Deployment
metadata:
  name: crasher
spec:
  replicas: 1
  minReadySeconds: 5
  selector:
    matchLabels:
      app: crasher
  template:
    metadata:
      labels:
        app: crasher
    spec:
      containers:
      - name: app
        image: busybox:1.36
        command: ["sh", "-c", "echo starting; exit 1"]
EOF
sim settle
# 5. A readiness probe that never passes: Running but never Ready (Unhealthy).
kubectl apply -f - <<EOF
apiVersion: v1
kind: Pod
metadata:
  name: notready
spec:
  containers:
  - name: web
    image: nginx:1.27
    readinessProbe:
      httpGet:
        path: /healthz
        port: 8080
EOF
sim settle
# 6. A volume from a Secret that does not exist: FailedMount, the Pod stays ContainerCreating
#    (the reconciler retries with its back-off; each pod sync gives up after 2m3s).
kubectl apply -f - <<EOF
apiVersion: v1
kind: Pod
metadata:
  name: needs-secret
spec:
  containers:
  - name: web
    image: nginx:1.27
    volumeMounts:
    - name: creds
      mountPath: /etc/creds
      readOnly: true
  volumes:
  - name: creds
    secret:
      secretName: db-creds
EOF
sim settle
kubectl get pods
kubectl get events --field-selector type=Warning
# Time passes: the back-offs grow and the events count up, and each settle still ends at once.
sim advance 5m
sim settle
kubectl get pods
kubectl describe pod private
kubectl describe pod -l app=crasher
kubectl describe pod needs-secret
