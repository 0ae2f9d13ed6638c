# kubectl attach and kubectl cp: attach's checks and the pods/attach upgrade (the console then
# says how to follow the output, since it cannot stay attached); cp out of a container's files
# (a mounted ConfigMap key, a whole directory) into the console's files, and a console file into
# the container's writable layer, which exec then reads; the errors kubectl and tar print.
kubectl create configmap app-config --from-literal=mode=prod --from-literal=level=debug
kubectl apply -f - <<EOF
apiVersion: v1
kind: Pod
metadata:
  name: web
spec:
  containers:
  - name: nginx
    image: nginx:1.27
    volumeMounts:
    - name: config
      mountPath: /etc/app
  - name: sidecar
    image: busybox:1.36
    command: ["sh", "-c", "sleep 3600"]
  volumes:
  - name: config
    configMap:
      name: app-config
EOF
kubectl run done --image=busybox:1.36 --restart=Never -- true
sim settle
kubectl attach web
kubectl attach web -c sidecar -it
kubectl attach pod/web -c nope
kubectl attach done
kubectl attach
kubectl cp web:/etc/app/mode ./mode
cat mode
kubectl cp web:/etc/app ./app-config -c nginx
ls app-config
cat app-config/level
kubectl cp web:/etc/nope ./x -c nginx
kubectl cp web:/etc/hostname . -c nginx
cat <<EOF > index.html
<h1>hello from kubectl cp</h1>
EOF
kubectl cp index.html web:/tmp -c nginx
kubectl exec web -c nginx -- cat /tmp/index.html
kubectl exec web -c nginx -- ls /tmp
kubectl cp nope.txt web:/tmp/
kubectl cp web:/etc/hostname web:/tmp/x
kubectl cp a b
kubectl cp web: ./x
kubectl cp onlyone
