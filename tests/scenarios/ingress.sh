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
# over HTTPS, once the controller's status loop has given the Ingress its ADDRESS (the outside
# machine's /etc/hosts): without the Secret, nginx presents its self-signed fake certificate;
# curl rejects it, -k skips the check; plain HTTP to the TLS port gets nginx's 400
sim advance 60s
kubectl get ingress secure
sim curl https://secure.example/login
sim curl -k -i https://secure.example/login
sim curl -i http://secure.example:443/
kubectl apply -f - <<EOF
apiVersion: v1
kind: Secret
metadata:
  name: secure-tls
type: kubernetes.io/tls
data:
  tls.crt: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk1JSUMuLi4KLS0tLS1FTkQgQ0VSVElGSUNBVEUtLS0tLQo=
  tls.key: LS0tLS1CRUdJTiBQUklWQVRFIEtFWS0tLS0tCk1JSUUuLi4KLS0tLS1FTkQgUFJJVkFURSBLRVktLS0tLQo=
EOF
sim settle
sim curl -k https://secure.example/login
# a Pod speaking plain HTTP, asked for TLS (curl 7.88 in nginx:1.25's Debian)
kubectl create deployment client --image=nginx:1.25
sim settle
kubectl exec deploy/client -- curl -sS -k https://web:8080/
kubectl describe ingress example-ingress
kubectl describe ingress secure
kubectl get events -n ingress-nginx --field-selector reason=RELOAD
sim trace --net
