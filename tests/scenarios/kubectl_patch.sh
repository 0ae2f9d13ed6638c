# kubectl patch: strategic merge (the default), merge and JSON patches, from -p or --patch-file,
# on TYPE NAME, TYPE/NAME or the object a file names, on the object or its status and scale
# subresources; a dry run, an unchanged object, and the errors kubectl and the API server print.
kubectl create deployment web --image=nginx:1.27
sim settle
kubectl patch deployment web -p '{"spec":{"replicas":3}}'
kubectl patch deploy/web --type=merge -p '{"metadata":{"labels":{"tier":"frontend"}}}'
kubectl patch deployment web --type=json -p '[{"op":"replace","path":"/spec/template/spec/containers/0/image","value":"nginx:1.28"}]'
kubectl patch deployment web -p '{"spec":{"replicas":3}}'
kubectl patch deployment web -p 'spec: {replicas: 2}'
kubectl patch deployment web --subresource=scale --type=merge -p '{"spec":{"replicas":4}}'
kubectl patch deployment web --subresource=status --type=merge -p '{"status":{"observedGeneration":99}}'
kubectl patch deployment web -p '{"spec":{"replicas":1}}' --dry-run=server
kubectl get deployment web -o jsonpath={.spec.replicas}
kubectl patch deployment web -p '{"spec":{"replicas":2}}' -o jsonpath={.spec.replicas}
kubectl patch -f - -p '{"spec":{"replicas":1}}' <<EOF
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
EOF
kubectl patch deployment web -p '{"spec":{"replicas":"x"}}'
kubectl patch deployment web -p '{bad'
kubectl patch deployment web -p '[1]'
kubectl patch deployment web --type=json -p '{"a":1}'
kubectl patch deployment web --type=json -p '[{"op":"replace","path":"/spec/nope/x","value":3}]'
kubectl patch deployment web --type=foo -p '{}'
kubectl patch deployment web
kubectl patch deployment web --patch-file=/nope.json
kubectl patch deployment nope -p '{"spec":{"replicas":1}}'
kubectl patch deployment web --subresource=bogus -p '{}'
