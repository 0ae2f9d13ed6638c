# The Kubernetes documentation's StatefulSet example as a learner applies it: the headless
# Service nginx and the StatefulSet web, whose claim template names storageClassName
# "my-storage-class", a class this cluster does not have (it has minikube's `standard`).
# A real cluster waits: the claim stays Pending with ProvisioningFailed, web-0 stays Pending with
# FailedScheduling (unbound immediate PersistentVolumeClaims), and web-1 is not created
# (OrderedReady waits for web-0). The retries are background work: `sim settle` ends at once.
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
      app: nginx # has to match .spec.template.metadata.labels
  serviceName: "nginx"
  replicas: 3 # by default is 1
  minReadySeconds: 10 # by default is 0
  template:
    metadata:
      labels:
        app: nginx # has to match .spec.selector.matchLabels
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
      storageClassName: "my-storage-class"
      resources:
        requests:
          storage: 1Gi
EOF
sim settle
kubectl get statefulset,pods,pvc
kubectl get events
# The retries go on in the background, as in a real cluster: ten minutes later nothing has changed.
sim advance 10m
sim settle
kubectl get pods,pvc
kubectl describe pvc www-web-0
kubectl get events --field-selector involvedObject.name=web-0
# The fix: create the class (or name the cluster's default class, `standard`). The claim is
# provisioned when the controller next looks at it, web-0 is scheduled, and the others follow
# one by one.
kubectl apply -f - <<EOF
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata:
  name: my-storage-class
provisioner: k8s.io/minikube-hostpath
EOF
sim advance 30s
sim settle
kubectl get pvc
kubectl get pods
