# ConfigMaps and Secrets refused as v1.34 refuses them: bad keys, over 1 MiB, an immutable
# ConfigMap edited, a Secret's type changed or missing its required keys; kubectl create's own
# checks (key names, duplicates, a missing file). Nothing is half applied.
kubectl apply -f - <<EOF
apiVersion: v1
kind: ConfigMap
metadata:
  name: bad-key
data:
  "a b": x
  ..hidden: value
EOF
kubectl apply -f - <<EOF
apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
immutable: true
data:
  mode: dev
EOF
kubectl apply -f - <<EOF
apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
immutable: true
data:
  mode: prod
EOF
kubectl apply -f - <<EOF
apiVersion: v1
kind: Secret
metadata:
  name: tls
type: kubernetes.io/tls
data:
  tls.crt: Y2VydA==
EOF
kubectl apply -f - <<EOF
apiVersion: v1
kind: Secret
metadata:
  name: basic
type: kubernetes.io/basic-auth
stringData: {}
EOF
kubectl apply -f - <<EOF
apiVersion: v1
kind: Secret
metadata:
  name: reg
type: kubernetes.io/dockerconfigjson
stringData:
  .dockerconfigjson: "{not json"
EOF
kubectl apply -f - <<EOF
apiVersion: v1
kind: Secret
metadata:
  name: plain
data:
  key: "not base64!"
EOF
kubectl create secret generic creds --from-literal=user=admin
kubectl apply -f - <<EOF
apiVersion: v1
kind: Secret
metadata:
  name: creds
type: kubernetes.io/basic-auth
stringData:
  username: admin
EOF
kubectl create configmap dup --from-literal=a=1 --from-literal=a=2
kubectl create configmap files --from-file=missing.properties
kubectl create secret generic bad --from-literal="a b=1"
kubectl create configmap nokey --from-literal==1
kubectl get configmaps,secrets
