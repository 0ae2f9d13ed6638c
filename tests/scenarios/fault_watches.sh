# Watches break. A dropped connection: the reflector watches again from the last resourceVersion
# it saw and kube-apiserver replays what it missed. After etcd's compaction that version is gone:
# 410 Gone, and the reflector lists again. kube-apiserver restarts: its new watch cache starts at
# the current revision, every resume is too old, every informer relists.
kubectl create deployment web --image=nginx:1.27 --replicas=2
sim settle
# the replicaset controller's watches drop while the Deployment is scaled: nothing is missed
kubectl scale deployment web --replicas=3
sim fault watch-drop replicaset-controller
sim trace --errors
kubectl get deploy,rs
# the kubelet on node-1 loses its watch; its Pods go on running
sim fault watch-drop kubelet@node-1
kubectl get pods -o wide
# kube-apiserver restarts: every informer relists, and the cluster goes on
sim fault restart kube-apiserver
sim trace --errors
kubectl scale deployment web --replicas=1
sim settle
kubectl get deploy,rs,pods
sim fault watch-drop nobody
