# Seed 000: the learner's four CloudWatch Logs Insights queries over the kube-apiserver audit log
# (EKS), run on kubesim's audit log after the same Deployment is applied.
kubectl apply -f - <<EOF
apiVersion: apps/v1
kind: Deployment
metadata:
  name: nginx
spec:
  replicas: 1
  selector:
    matchLabels:
      app: nginx
  template:
    metadata:
      labels:
        app: nginx
    spec:
      containers:
      - name: nginx
        image: nginx:1.27
EOF
sim settle
# 1. the client (kubectl) asks kube-apiserver to create the Deployment
sim audit query <<EOF
fields @timestamp, requestURI, verb, requestObject.kind, objectRef.name, user.username, userAgent
| filter @logStream like /^kube-apiserver-audit/
| filter objectRef.resource == "deployments"
| filter verb == "create"
| sort @timestamp desc
EOF
# 2. the deployment controller creates the ReplicaSet
sim audit query <<EOF
fields @timestamp, requestURI, verb, requestObject.kind, objectRef.name, user.username, userAgent
| filter @logStream like /^kube-apiserver-audit/
| filter objectRef.resource == "replicasets"
| filter verb == "create"
| sort @timestamp desc
EOF
# 3. the replicaset controller creates the Pod (generateName: its name is in the response), and
#    the scheduler's binding is a create on pods too
sim audit query <<EOF
fields @timestamp, requestURI, verb, requestObject.kind, objectRef.name, user.username, userAgent
| filter @logStream like /^kube-apiserver-audit/
| filter objectRef.resource == "pods"
| filter verb == "create"
| sort @timestamp desc
EOF
sim audit query 'fields requestObject.kind, responseObject.metadata.name, objectRef.name | filter objectRef.resource == "pods" and verb == "create"'
# 4. the scheduler binds the Pod to a node
sim audit query <<EOF
fields @timestamp, requestURI, verb, requestObject.kind, objectRef.name, user.username, userAgent
| filter @logStream like /^kube-apiserver-audit/
| filter objectRef.resource == "pods"
| filter verb == "create"
| filter user.username == "system:kube-scheduler"
| sort @timestamp desc
EOF
# the levels the policy gave, and queries with mistakes
sim audit query 'fields level, verb, objectRef.resource, objectRef.subresource | filter objectRef.namespace = "default" and verb in ["create", "patch"] | sort @timestamp asc | limit 6'
sim audit query 'fields verb | filter verb = "create" | stats count(*) by verb'
sim audit query 'fields verb | filter objectRef.name like /nginx-(/'
# the audit policy kube-apiserver runs (EKS's)
sim audit policy
