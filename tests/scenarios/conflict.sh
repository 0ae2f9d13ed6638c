# Optimistic concurrency: an update carrying a stale resourceVersion gets 409 Conflict.
kubectl create namespace team
kubectl get ns team -o jsonpath={.metadata.resourceVersion}
kubectl label namespace team tier=gold
kubectl replace -f - <<EOF
apiVersion: v1
kind: Namespace
metadata:
  name: team
  resourceVersion: "12"
  labels:
    tier: silver
EOF
kubectl get ns team --show-labels
kubectl create namespace team
