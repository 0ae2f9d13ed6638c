# RBAC's and ServiceAccounts' refusals, each with v1.34's message: nobody grants what they do
# not hold (escalation); a binding to a role that does not exist is allowed (it grants nothing);
# unknown verbs are allowed in a Role; a binding's roleRef never changes; a Pod naming a missing
# ServiceAccount is refused by admission; kubectl's own checks on create role|rolebinding|token.
kubectl create rolebinding jane-admin --clusterrole=admin --user=jane
kubectl auth can-i create roles --as=jane
kubectl create role node-reader --verb=get,list --resource=nodes --as=jane
kubectl create role pod-reader --verb=get --resource=pods --as=jane
kubectl create clusterrolebinding jane-root --clusterrole=cluster-admin --user=jane --as=jane
kubectl create rolebinding to-nothing --role=does-not-exist --user=jane
kubectl auth can-i get pods --as=bob
kubectl create rolebinding bob-reads --role=pod-reader --user=bob --as=jane
kubectl auth can-i get pods --as=bob
kubectl apply -f - <<EOF
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata:
  name: odd-verbs
rules:
- apiGroups: [""]
  resources: ["pods"]
  verbs: ["get", "frobnicate"]
- apiGroups: ["apps"]
  resources: []
  verbs: ["get"]
EOF
kubectl apply -f - <<EOF
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata:
  name: odd-verbs
rules:
- apiGroups: [""]
  resources: ["pods"]
  verbs: ["get", "frobnicate"]
EOF
kubectl apply -f - <<EOF
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata:
  name: bad-ref
roleRef:
  apiGroup: rbac.authorization.k8s.io
  kind: Deployment
  name: web
subjects:
- kind: Robot
  name: r2
EOF
kubectl apply -f - <<EOF
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata:
  name: jane-admin
roleRef:
  apiGroup: rbac.authorization.k8s.io
  kind: ClusterRole
  name: edit
subjects:
- kind: User
  name: jane
EOF
kubectl apply -f - <<EOF
apiVersion: v1
kind: Pod
metadata:
  name: robot
spec:
  serviceAccountName: robot
  containers:
  - name: app
    image: nginx
EOF
kubectl create serviceaccount robot
kubectl apply -f - <<EOF
apiVersion: v1
kind: Pod
metadata:
  name: robot
spec:
  serviceAccountName: robot
  containers:
  - name: app
    image: nginx
EOF
sim settle
kubectl get pod robot -o jsonpath='{.spec.serviceAccountName} {.spec.volumes[0].name}{"\n"}'
kubectl create role nothing
kubectl create role nothing --verb=get
kubectl create role nothing --verb=fly --resource=pods
kubectl create role nothing --verb=get --resource=gizmos
kubectl create role nothing --verb=bind --resource=pods
kubectl create rolebinding nothing --user=jane
kubectl create rolebinding nothing --role=a --clusterrole=b
kubectl create rolebinding nothing --clusterrole=view --serviceaccount=robot
kubectl create clusterrolebinding nothing --user=jane
kubectl create token missing
kubectl create token robot --duration=1s
kubectl create token robot --duration=1.5s
kubectl create token robot --bound-object-name=robot
kubectl create token robot --bound-object-kind=Deployment --bound-object-name=web
kubectl auth can-i get
kubectl get pods --as-group=admins
# aggregation: the ClusterRole aggregation controller gives a ClusterRole with an aggregationRule
# the rules of every ClusterRole its selector matches (and view, edit, admin theirs)
kubectl create clusterrole monitoring --aggregation-rule=rbac.example.com/aggregate-to-monitoring=true
kubectl apply -f - <<EOF
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: monitoring-endpoints
  labels:
    rbac.example.com/aggregate-to-monitoring: "true"
rules:
- apiGroups: [""]
  resources: ["services", "endpoints", "pods"]
  verbs: ["get", "list", "watch"]
EOF
sim settle
kubectl describe clusterrole monitoring
kubectl create clusterrolebinding bob-monitors --clusterrole=monitoring --user=bob
kubectl auth can-i list endpoints --as=bob -n kube-system
