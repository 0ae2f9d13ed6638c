# RBAC: a user who may only read. kubesim's kubectl is kubeadm's `kubernetes-admin` (group
# kubeadm:cluster-admins, bound to cluster-admin), who may impersonate anyone: `--as=jane` makes
# each request as the user jane, whom no binding names yet. Every request passes kube-apiserver's
# authorizers (Node, then RBAC); a denial is a 403 naming the verb, resource and namespace, and
# the audit log records the decision and the rule that allowed.
kubectl create deployment web --image=nginx --replicas=2
sim settle
kubectl auth whoami
kubectl auth whoami --as=jane
kubectl get pods --as=jane
kubectl auth can-i list pods --as=jane
# a Role that may read Pods and their logs in `default`, bound to jane
kubectl create role pod-reader --verb=get,list,watch --resource=pods,pods/log
kubectl create rolebinding jane-reads-pods --role=pod-reader --user=jane
kubectl get role,rolebinding -o wide
kubectl describe role pod-reader
kubectl describe rolebinding jane-reads-pods
kubectl get pods --as=jane
kubectl auth can-i list pods --as=jane
kubectl auth can-i delete pods --as=jane
kubectl delete pod -l app=web --as=jane
kubectl auth can-i list pods --as=jane -n kube-system
kubectl get deployments --as=jane
kubectl auth can-i --list --as=jane
# the built-in roles: view, edit, admin aggregate their system:aggregate-to-* parts
kubectl create rolebinding jane-views --clusterrole=view --user=jane
kubectl get deployments --as=jane
kubectl auth can-i list secrets --as=jane
kubectl get clusterrolebinding cluster-admin system:basic-user kubeadm:cluster-admins -o wide
# a kubelet is authorized by the Node authorizer; system:masters is allowed before any authorizer
kubectl get node node-1 --as=system:node:node-1 --as-group=system:nodes
kubectl auth can-i '*' '*' --as=root --as-group=system:masters
kubectl get namespaces --as=root --as-group=system:masters
# a Pod's own identity: its ServiceAccount `default`, whose token the kubelet mounted
kubectl auth can-i list pods --as=system:serviceaccount:default:default
kubectl exec deploy/web -- ls /var/run/secrets/kubernetes.io/serviceaccount
kubectl exec deploy/web -- cat /var/run/secrets/kubernetes.io/serviceaccount/namespace
kubectl get serviceaccounts
# the audit log: kubernetes-admin acting as jane, each decision and the rule that allowed it
sim audit query <<EOF
fields verb, objectRef.resource, impersonatedUser.username, responseStatus.code, `annotations.authorization.k8s.io/decision`, `annotations.authorization.k8s.io/reason`
| filter impersonatedUser.username == "jane" and objectRef.resource == "pods"
EOF
