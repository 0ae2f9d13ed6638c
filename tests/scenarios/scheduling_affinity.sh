# Inter-pod anti-affinity and topology spread, as v1.34's scheduler decides them.
# 1. Four replicas that must not share a node (required podAntiAffinity on the hostname) on
#    three nodes: one stays Pending with InterPodAffinity's reason until a node is added.
kubectl apply -f - <<EOF
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 4
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      affinity:
        podAntiAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
          - labelSelector:
              matchLabels:
                app: web
            topologyKey: kubernetes.io/hostname
      containers:
      - name: web
        image: nginx:1.27
EOF
sim settle
kubectl get pods -o wide
kubectl get events --field-selector reason=FailedScheduling
sim node add node-4 --zone ap-northeast-2a
sim settle
kubectl get pods -o wide
# 2. A cache that prefers to run beside the app (preferred podAffinity, weight 100).
kubectl apply -f - <<EOF
apiVersion: v1
kind: Pod
metadata:
  name: cache
spec:
  affinity:
    podAffinity:
      preferredDuringSchedulingIgnoredDuringExecution:
      - weight: 100
        podAffinityTerm:
          labelSelector:
            matchLabels:
              app: web
          topologyKey: topology.kubernetes.io/zone
  containers:
  - name: redis
    image: redis:7
EOF
sim settle
kubectl get pod cache -o wide
# 3. Spread over a topology key no node carries: DoNotSchedule leaves the Pods Pending.
kubectl apply -f - <<EOF
apiVersion: apps/v1
kind: Deployment
metadata:
  name: spread
spec:
  replicas: 2
  selector:
    matchLabels:
      app: spread
  template:
    metadata:
      labels:
        app: spread
    spec:
      topologySpreadConstraints:
      - maxSkew: 1
        topologyKey: example.com/rack
        whenUnsatisfiable: DoNotSchedule
        labelSelector:
          matchLabels:
            app: spread
      containers:
      - name: app
        image: nginx:1.27
EOF
sim settle
kubectl get pods -l app=spread
kubectl get events --field-selector reason=FailedScheduling
kubectl delete deployment spread
# 4. Spread across zones: seven replicas, maxSkew 1 over topology.kubernetes.io/zone (node-1
#    and node-4 share ap-northeast-2a).
kubectl apply -f - <<EOF
apiVersion: apps/v1
kind: Deployment
metadata:
  name: zonal
spec:
  replicas: 7
  selector:
    matchLabels:
      app: zonal
  template:
    metadata:
      labels:
        app: zonal
    spec:
      topologySpreadConstraints:
      - maxSkew: 1
        topologyKey: topology.kubernetes.io/zone
        whenUnsatisfiable: DoNotSchedule
        labelSelector:
          matchLabels:
            app: zonal
      containers:
      - name: app
        image: nginx:1.27
EOF
sim settle
kubectl get pods -l app=zonal -o wide
# 5. Bad input: v1.34's validation messages, nothing stored.
kubectl apply -f - <<EOF
apiVersion: v1
kind: Pod
metadata:
  name: bad-spread
spec:
  topologySpreadConstraints:
  - maxSkew: 0
    topologyKey: topology.kubernetes.io/zone
    whenUnsatisfiable: Sometimes
    labelSelector:
      matchLabels:
        app: x
  - maxSkew: 1
    topologyKey: kubernetes.io/hostname
    whenUnsatisfiable: ScheduleAnyway
    minDomains: 2
    matchLabelKeys: [app]
    labelSelector:
      matchLabels:
        app: x
  - maxSkew: 1
    topologyKey: kubernetes.io/hostname
    whenUnsatisfiable: ScheduleAnyway
  containers:
  - name: app
    image: nginx:1.27
EOF
kubectl apply -f - <<EOF
apiVersion: v1
kind: Pod
metadata:
  name: bad-affinity
spec:
  affinity:
    podAntiAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
      - labelSelector:
          matchExpressions:
          - key: app
            operator: In
        topologyKey: ""
      preferredDuringSchedulingIgnoredDuringExecution:
      - weight: 0
        podAffinityTerm:
          labelSelector:
            matchLabels:
              app: web
          topologyKey: kubernetes.io/hostname
  containers:
  - name: app
    image: nginx:1.27
EOF
kubectl get pods bad-spread bad-affinity
# 6. Required pod affinity: the app waits for its database, and is retried as soon as the
#    database Pod is placed (InterPodAffinity's queueing hint).
kubectl apply -f - <<EOF
apiVersion: v1
kind: Pod
metadata:
  name: api
spec:
  affinity:
    podAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
      - labelSelector:
          matchLabels:
            app: db
        topologyKey: topology.kubernetes.io/zone
  containers:
  - name: api
    image: nginx:1.27
EOF
sim settle
kubectl get pod api
kubectl get events --field-selector involvedObject.name=api
kubectl run db --image=redis:7 --labels=app=db
sim settle
kubectl get pods api db -o wide
