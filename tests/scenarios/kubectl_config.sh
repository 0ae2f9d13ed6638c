# The kubeconfig behind the console (kubeadm's admin.conf): contexts, the current context's
# namespace as every command's default, and the server's address and groups.
kubectl config view
kubectl config get-contexts
kubectl config current-context
kubectl cluster-info
kubectl api-versions
kubectl create namespace dev
kubectl config set-context --current --namespace=dev
kubectl config get-contexts
kubectl create deployment web --image=nginx:1.27
sim settle
kubectl get pods
kubectl get deployments -n default
kubectl -n kube-system get deployments
kubectl config view --minify -o jsonpath={.contexts[0].context.namespace}
kubectl config set-context staging --cluster=kubernetes --user=kubernetes-admin --namespace=default
kubectl config use-context staging
kubectl get deployments
kubectl --context kubernetes-admin@kubernetes get deployments
kubectl --context nope get pods
kubectl config use-context nope
kubectl config rename-context staging prod
kubectl config delete-context prod
kubectl get pods
kubectl config use-context kubernetes-admin@kubernetes
kubectl config set-context --current --namespace=
kubectl get pods
kubectl config set-cluster other --server=https://10.0.0.1:6443
