# The whole trace of one Pod's journey: every request, etcd write, watch event and CRI call,
# with virtual time, sender, receiver and cause. The browser test compares this transcript
# too, so native and wasm runs must produce the very same trace. busybox with no command runs its
# shell, which exits at once (code 0): the kubelet reports it and restarts it (restartPolicy Always).
kubectl create deployment solo --image=busybox:1.36
sim settle
sim trace
