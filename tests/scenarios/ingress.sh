# An Ingress routes two paths to two Services: the Kubernetes documentation's "Set up Ingress on
# Minikube with the NGINX Ingress Controller". ingress-nginx runs in every kubesim cluster, as
# minikube's `ingress` addon installs it, with the default IngressClass `nginx`.
kubectl get pods -n ingress-nginx
kubectl get ingressclass
kubectl create deployment web --image=gcr.io/google-samples/hello-app:1.0
kubectl expose deployment web --type=NodePort --port=8080
kubectl apply -f - <<EOF
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata:
  name: example-ingress
spec:
  ingressClassName: nginx
  rules:
    - host: hello-world.example
      http:
        paths:
          - path: /
            pathType: Prefix
            backend:
              service:
                name: web
                port:
                  number: 8080
EOF
sim settle
# the controller writes the ADDRESS at its next status sync (every 60 s)
kubectl get ingress
sim advance 60s
kubectl get ingress
# the machine outside resolves the host at the Ingress's ADDRESS (its /etc/hosts, as the tutorial
# has you write it)
sim curl -i http://hello-world.example
# a second version behind /v2
kubectl create deployment web2 --image=gcr.io/google-samples/hello-app:2.0
kubectl expose deployment web2 --port=8080 --type=NodePort
kubectl apply -f - <<EOF
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata:
  name: example-ingress
spec:
  ingressClassName: nginx
  rules:
    - host: hello-world.example
      http:
        paths:
          - path: /
            pathType: Prefix
            backend:
              service:
                name: web
                port:
                  number: 8080
          - path: /v2
            pathType: Prefix
            backend:
              service:
                name: web2
                port:
                  number: 8080
EOF
sim settle
sim curl http://hello-world.example
sim curl http://hello-world.example/v2
sim curl http://hello-world.example/v2/anything
sim curl http://hello-world.example/v2x
# no rule for this host: ingress-nginx's default server
sim curl -i -H 'Host: other.example' http://hello-world.example/
# a backend whose Service has no ready endpoint
kubectl scale deployment web2 --replicas=0
sim settle
sim curl -i http://hello-world.example/v2
# a TLS section: plain HTTP to that host is redirected to HTTPS
kubectl apply -f - <<EOF
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata:
  name: secure
spec:
  tls:
  - hosts:
    - secure.example
    secretName: secure-tls
  rules:
  - host: secure.example
    http:
      paths:
      - path: /
        pathType: Prefix
        backend:
          service:
            name: web
            port:
              number: 8080
EOF
sim settle
sim curl -i -H 'Host: secure.example' http://hello-world.example/login
kubectl describe ingress example-ingress
kubectl describe ingress secure
kubectl get events -n ingress-nginx --field-selector reason=RELOAD
sim trace --net
