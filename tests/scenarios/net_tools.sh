# wget and curl as learners type them, read as BusyBox's wget and curl read their options:
# -q and -O - (also run together as -qO-), -T for wget's timeout, curl's -s/-S, -I, -v, -i, -f,
# -w and --max-time. Without -q wget says where it connected and where the page went; a Service
# with no endpoints refuses at once; a ClusterIP no rule matches hangs until the timeout.
kubectl create deployment web --image=nginx:1.25 --replicas=2
kubectl expose deployment web --port 80
kubectl run box --image=busybox:1.36 -- sleep 3600
kubectl create deployment client --image=nginx:1.25
sim settle
kubectl exec box -- wget -T 2 -qO- http://web
kubectl exec box -- wget -O- http://web
kubectl exec box -- wget http://web/
kubectl exec box -- wget -q -O - http://web/missing
kubectl exec box -- wget -S --spider http://web
kubectl exec box -- wget -qO- http://nope
kubectl exec box -- wget -T two http://web
kubectl exec deploy/client -- curl -sI http://web
kubectl exec deploy/client -- curl -sv http://web.default.svc.cluster.local/
kubectl exec deploy/client -- curl -s -o /dev/null -w '%{http_code}\n' http://web/missing
kubectl exec deploy/client -- curl -sSf http://web/missing
kubectl exec deploy/client -- curl -s http://nope
kubectl exec deploy/client -- curl --bogus http://web
kubectl scale deployment web --replicas=0
sim settle
kubectl exec box -- wget -qO- http://web
kubectl exec deploy/client -- curl -sS http://web
kubectl exec deploy/client -- curl -sS --max-time 2 http://10.96.200.200
kubectl exec box -- wget -qO- -T 2 http://10.96.200.200
kubectl exec box -- wget -qO- http://10.96.200.200
