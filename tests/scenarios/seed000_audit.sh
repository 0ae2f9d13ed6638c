# Seed 000: who creates what, as the kube-apiserver audit log shows it.
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
# 1. kubectl creates the Deployment
sim audit --resource deployments --verb create
# 2. the deployment controller creates the ReplicaSet
sim audit --resource replicasets --verb create
# 3. the replicaset controller creates the Pod; 4. the scheduler creates the binding
sim audit --resource pods --verb create
# 5. the kubelet reports the Pod's status
sim audit --resource pods --verb patch
