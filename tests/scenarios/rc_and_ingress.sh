# Kinds an older tutorial or an app's manifests still use: a ReplicationController (managed by
# kube-controller-manager's replication-controller, the ReplicaSet controller's code) and an
# Ingress, which is stored and listed but, with no ingress controller installed, routes nothing.
kubectl apply -f - <<EOF
apiVersion: v1
kind: ReplicationController
metadata:
  name: nginx
spec:
  replicas: 3
  selector:
    app: nginx
  template:
    metadata:
      name: nginx
      labels:
        app: nginx
    spec:
      containers:
      - name: nginx
        image: nginx
        ports:
        - containerPort: 80
EOF
sim settle
kubectl get rc -o wide
kubectl scale rc nginx --replicas=1
sim settle
kubectl get all
kubectl apply -f - <<EOF
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata:
  name: shop
spec:
  rules:
  - host: shop.example.com
    http:
      paths:
      - path: api
        pathType: Prefix
        backend:
          service:
            name: api
            port:
              number: 8080
      - path: /
        backend:
          service:
            name: web
            port:
              number: 80
EOF
kubectl apply -f - <<EOF
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata:
  name: shop
spec:
  ingressClassName: nginx
  tls:
  - hosts:
    - shop.example.com
    secretName: shop-tls
  rules:
  - host: shop.example.com
    http:
      paths:
      - path: /api
        pathType: Prefix
        backend:
          service:
            name: api
            port:
              number: 8080
      - path: /
        pathType: Prefix
        backend:
          service:
            name: web
            port:
              number: 80
EOF
kubectl get ingress
kubectl delete rc nginx
sim settle
kubectl get pods
