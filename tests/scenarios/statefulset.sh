# A StatefulSet comes up in order, with its volumes: the Kubernetes docs' "web" StatefulSet behind
# the headless Service "nginx". The StatefulSet controller creates web-0 (and its claim
# www-web-0, which the default StorageClass's provisioner backs with a PersistentVolume the
# PersistentVolume controller binds), waits until it is Running and Ready, then web-1, then web-2.
# Each Pod has a stable name and DNS name (web-0.nginx); scaling down removes the highest ordinal
# first and keeps the claims, so scaling up again gives web-1 its old volume back. A rolling update
# with a partition updates only the ordinals at or above it, from the highest down. A claim
# deleted while its Pod runs stays Terminating (pvc-protection) until the Pod is gone; its volume
# is then Released and deleted by the provisioner (reclaim policy Delete).
kubectl apply -f - <<EOF
apiVersion: v1
kind: Service
metadata:
  name: nginx
  labels:
    app: nginx
spec:
  ports:
  - port: 80
    name: web
  clusterIP: None
  selector:
    app: nginx
---
apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: web
spec:
  selector:
    matchLabels:
      app: nginx
  serviceName: "nginx"
  replicas: 3
  template:
    metadata:
      labels:
        app: nginx
    spec:
      terminationGracePeriodSeconds: 10
      containers:
      - name: nginx
        image: registry.k8s.io/nginx-slim:0.21
        ports:
        - containerPort: 80
          name: web
        volumeMounts:
        - name: www
          mountPath: /usr/share/nginx/html
  volumeClaimTemplates:
  - metadata:
      name: www
    spec:
      accessModes: [ "ReadWriteOnce" ]
      resources:
        requests:
          storage: 1Gi
EOF
kubectl rollout status statefulset/web
kubectl get statefulset web -o wide
kubectl get pods -l app=nginx -o wide
kubectl get pods -l app=nginx -o jsonpath='{range .items[*]}{.metadata.name}{"\t"}{.spec.hostname}.{.spec.subdomain}{"\t"}{.spec.volumes[0].persistentVolumeClaim.claimName}{"\n"}{end}'
kubectl get pvc
kubectl get pv
kubectl get storageclass
kubectl get events --field-selector involvedObject.kind=StatefulSet
kubectl get events --field-selector involvedObject.name=www-web-0
kubectl get events --field-selector involvedObject.name=web-0,reason=FailedScheduling
sim settle
kubectl exec web-0 -- curl -s http://web-2.nginx
kubectl scale statefulset web --replicas=1
sim settle
kubectl get pods -l app=nginx
kubectl get pvc
kubectl scale statefulset web --replicas=3
kubectl rollout status statefulset/web
kubectl get pods -l app=nginx -o jsonpath='{range .items[*]}{.metadata.name}{"\t"}{.spec.volumes[0].persistentVolumeClaim.claimName}{"\n"}{end}'
kubectl apply -f - <<EOF
apiVersion: v1
kind: Service
metadata:
  name: nginx
  labels:
    app: nginx
spec:
  ports:
  - port: 80
    name: web
  clusterIP: None
  selector:
    app: nginx
---
apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: web
spec:
  selector:
    matchLabels:
      app: nginx
  serviceName: "nginx"
  replicas: 3
  updateStrategy:
    type: RollingUpdate
    rollingUpdate:
      partition: 2
  template:
    metadata:
      labels:
        app: nginx
    spec:
      terminationGracePeriodSeconds: 10
      containers:
      - name: nginx
        image: registry.k8s.io/nginx-slim:0.24
        ports:
        - containerPort: 80
          name: web
        volumeMounts:
        - name: www
          mountPath: /usr/share/nginx/html
  volumeClaimTemplates:
  - metadata:
      name: www
    spec:
      accessModes: [ "ReadWriteOnce" ]
      resources:
        requests:
          storage: 1Gi
EOF
kubectl rollout status statefulset/web
kubectl get pods -l app=nginx -o jsonpath='{range .items[*]}{.metadata.name}{"\t"}{.spec.containers[0].image}{"\t"}{.metadata.labels.controller-revision-hash}{"\n"}{end}'
kubectl get controllerrevisions
kubectl apply -f - <<EOF
apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: web
spec:
  selector:
    matchLabels:
      app: nginx
  serviceName: "nginx"
  replicas: 3
  updateStrategy:
    type: RollingUpdate
    rollingUpdate:
      partition: 0
  template:
    metadata:
      labels:
        app: nginx
    spec:
      terminationGracePeriodSeconds: 10
      containers:
      - name: nginx
        image: registry.k8s.io/nginx-slim:0.24
        ports:
        - containerPort: 80
          name: web
        volumeMounts:
        - name: www
          mountPath: /usr/share/nginx/html
  volumeClaimTemplates:
  - metadata:
      name: www
    spec:
      accessModes: [ "ReadWriteOnce" ]
      resources:
        requests:
          storage: 1Gi
EOF
kubectl rollout status statefulset/web
kubectl get pods -l app=nginx -o jsonpath='{range .items[*]}{.metadata.name}{"\t"}{.spec.containers[0].image}{"\n"}{end}'
kubectl rollout history statefulset/web
kubectl get events --field-selector involvedObject.kind=StatefulSet
kubectl get statefulset web -o jsonpath='{.status}{"\n"}'
kubectl describe statefulset web
kubectl delete pvc www-web-0
kubectl get pvc www-web-0
kubectl delete statefulset web
sim settle
kubectl get pods -l app=nginx
kubectl get pvc
kubectl get pv
