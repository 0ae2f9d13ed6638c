# Configuration from a ConfigMap and a Secret: a Deployment reads GREETING from the ConfigMap and
# DB_PASSWORD from the Secret as environment variables, and mounts the ConfigMap as files. Edit
# the ConfigMap: the mounted file changes at the kubelet's next sync (60-90 s later), the
# environment variable never does (the container would have to be restarted) — and exec shows both.
kubectl apply -f - <<EOF
apiVersion: v1
kind: ConfigMap
metadata:
  name: app-config
data:
  GREETING: hello
  app.properties: |
    color=blue
    mode=dev
---
apiVersion: v1
kind: Secret
metadata:
  name: db-creds
type: Opaque
stringData:
  username: admin
  password: s3cr3t
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 1
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
      - name: web
        image: nginx:1.27
        env:
        - name: GREETING
          valueFrom:
            configMapKeyRef:
              name: app-config
              key: GREETING
        - name: DB_PASSWORD
          valueFrom:
            secretKeyRef:
              name: db-creds
              key: password
        - name: POD_NAME
          valueFrom:
            fieldRef:
              fieldPath: metadata.name
        volumeMounts:
        - name: config
          mountPath: /etc/config
      volumes:
      - name: config
        configMap:
          name: app-config
EOF
sim settle
kubectl get configmap,secret
kubectl describe configmap app-config
kubectl describe secret db-creds
kubectl exec deploy/web -- printenv GREETING DB_PASSWORD
kubectl exec deploy/web -- ls /etc/config
kubectl exec deploy/web -- cat /etc/config/app.properties
kubectl exec deploy/web -- ls /var/run/secrets/kubernetes.io/serviceaccount
kubectl apply -f - <<EOF
apiVersion: v1
kind: ConfigMap
metadata:
  name: app-config
data:
  GREETING: bonjour
  app.properties: |
    color=green
    mode=prod
EOF
sim settle
kubectl exec deploy/web -- sh -c 'echo "env: $GREETING"; echo -n "file: "; cat /etc/config/GREETING; echo'
sim advance 90s
kubectl exec deploy/web -- sh -c 'echo "env: $GREETING"; echo -n "file: "; cat /etc/config/GREETING; echo'
kubectl exec deploy/web -- cat /etc/config/app.properties
