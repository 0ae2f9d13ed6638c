# kubectl kustomize and apply -k (kustomize v5.7.1, as kubectl v1.34 vendors it): a base and a dev
# overlay written as a tutorial writes them (`cat <<EOF > FILE` in the console), built, applied and
# deleted; then the errors kustomize prints for a missing directory, a directory without a
# kustomization, an unknown field, a missing resource and a resource listed twice.
mkdir -p base overlays/dev
cat <<EOF > base/deployment.yaml
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels:
    app: web
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
        image: nginx:1.25
        envFrom:
        - configMapRef:
            name: web-config
        ports:
        - containerPort: 80
EOF
cat <<EOF > base/service.yaml
apiVersion: v1
kind: Service
metadata:
  name: web
spec:
  selector:
    app: web
  ports:
  - port: 80
EOF
cat <<EOF > base/kustomization.yaml
resources:
- deployment.yaml
- service.yaml
configMapGenerator:
- name: web-config
  literals:
  - MODE=prod
  - GREETING="hello world"
EOF
cat <<EOF > overlays/dev/kustomization.yaml
namespace: dev
namePrefix: dev-
labels:
- pairs:
    env: dev
  includeSelectors: true
commonAnnotations:
  team: shop
images:
- name: nginx
  newTag: "1.27"
replicas:
- name: web
  count: 2
resources:
- ../../base
- namespace.yaml
secretGenerator:
- name: db
  literals:
  - password=s3cret
patches:
- target:
    kind: Deployment
    name: web
  patch: |-
    - op: add
      path: /spec/template/spec/containers/0/env
      value:
      - name: LOG_LEVEL
        value: debug
EOF
cat <<EOF > overlays/dev/namespace.yaml
apiVersion: v1
kind: Namespace
metadata:
  name: dev
EOF
ls overlays/dev
kubectl kustomize overlays/dev
kubectl apply -k overlays/dev
sim settle
kubectl get deploy,svc,cm,secret -n dev
kubectl get pods -n dev -l env=dev -o custom-columns=IMAGE:.spec.containers[0].image,CONFIG:.spec.containers[0].envFrom[0].configMapRef.name,LABELS:.metadata.labels,PORTS:.spec.containers[*].ports[*].containerPort,NODE_SELECTOR:.spec.nodeSelector
kubectl get deploy -n dev -o custom-columns=NAME:metadata.name,REPLICAS:{.spec.replicas}
kubectl get deploy -n dev -o custom-columns=NAME
# a change to the generator's literals is a new ConfigMap name, so the Deployment rolls out
cat <<EOF > base/kustomization.yaml
resources:
- deployment.yaml
- service.yaml
configMapGenerator:
- name: web-config
  literals:
  - MODE=debug
  - GREETING="hello world"
EOF
kubectl kustomize base
kubectl diff -k overlays/dev
kubectl apply -k overlays/dev
sim settle
kubectl get cm -n dev
kubectl rollout status deployment/dev-web -n dev
kubectl get deploy dev-web -n dev -o jsonpath='{.spec.template.spec.containers[0].envFrom[0].configMapRef.name}{"\n"}'
kubectl delete -k overlays/dev
# errors
kubectl kustomize nothere
mkdir empty
kubectl kustomize empty
mkdir bad
cat <<EOF > bad/kustomization.yaml
resources:
- missing.yaml
EOF
kubectl kustomize bad
cat <<EOF > bad/kustomization.yaml
resource:
- missing.yaml
EOF
kubectl kustomize bad
cat <<EOF > bad/kustomization.yaml
resources:
- ../base/service.yaml
- ../base/service.yaml
EOF
kubectl kustomize bad
# the deprecated fields still work, with kustomize's warning
cat <<EOF > bad/kustomization.yaml
commonLabels:
  tier: frontend
bases:
- ../base
patchesStrategicMerge:
- |-
  apiVersion: apps/v1
  kind: Deployment
  metadata:
    name: web
  spec:
    template:
      spec:
        containers:
        - name: web
          resources:
            limits:
              memory: 128Mi
EOF
kubectl kustomize bad
kubectl apply -k base -f base/service.yaml
kubectl kustomize base overlays/dev
