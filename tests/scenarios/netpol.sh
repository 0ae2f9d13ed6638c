# A NetworkPolicy denies by default, then allows one client. kubesim's nodes enforce policies as
# kind's CNI (kindnet) does, with sigs.k8s.io/kube-network-policies: a dropped connection is a
# DROP hop naming the policy, and the client waits until it times out.
kubectl create deployment web --image=kubesim/app:1 --replicas=2
kubectl expose deployment web --port=8080
kubectl run client --image=busybox:1.36 --labels=role=client -- sleep 3600
kubectl run other --image=busybox:1.36 --labels=role=other -- sleep 3600
sim settle
kubectl exec client -- wget -qO- -T 2 http://web:8080
kubectl apply -f - <<EOF
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata:
  name: default-deny-ingress
spec:
  podSelector: {}
  policyTypes:
  - Ingress
EOF
sim settle
kubectl exec client -- wget -qO- -T 2 http://web:8080
kubectl apply -f - <<EOF
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata:
  name: allow-client
spec:
  podSelector:
    matchLabels:
      app: web
  ingress:
  - from:
    - podSelector:
        matchLabels:
          role: client
    ports:
    - protocol: TCP
      port: 8080
EOF
sim settle
kubectl exec client -- wget -qO- -T 2 http://web:8080
kubectl exec other -- wget -qO- -T 2 http://web:8080
kubectl get networkpolicy
kubectl describe netpol allow-client default-deny-ingress
# policies are refused with v1.34's messages, and nothing is stored
kubectl apply -f - <<EOF
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata:
  name: bad
spec:
  podSelector: {}
  ingress:
  - from:
    - ipBlock:
        cidr: 10.0.0.0/33
      podSelector: {}
    - {}
    ports:
    - protocol: HTTP
      port: 80
EOF
kubectl get netpol bad
sim trace --net
