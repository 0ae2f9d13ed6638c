# Priority and preemption: a PriorityClass, a cluster full of low-priority Pods, and a Pod that
# matters more. The Priority admission plugin gives the Pod its class's value; no node has room,
# so the scheduler's DefaultPreemption picks a node where evicting lower-priority Pods makes room,
# marks the victim (DisruptionTarget), deletes it (Preempted) and nominates the node; the Pod is
# scheduled there once the victim is gone. A Pod that may not preempt (preemptionPolicy: Never)
# waits instead; unknown classes and hand-set priorities are refused.
kubectl apply -f - <<EOF
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata:
  name: high-priority
value: 1000000
globalDefault: false
description: "This priority class should be used for XYZ service pods only."
EOF
kubectl apply -f - <<EOF
apiVersion: apps/v1
kind: Deployment
metadata:
  name: filler
spec:
  replicas: 3
  selector:
    matchLabels:
      app: filler
  template:
    metadata:
      labels:
        app: filler
    spec:
      containers:
      - name: app
        image: nginx:1.27
        resources:
          requests:
            cpu: "3"
EOF
sim settle
kubectl get pods -o wide
kubectl apply -f - <<EOF
apiVersion: v1
kind: Pod
metadata:
  name: important
spec:
  priorityClassName: high-priority
  containers:
  - name: app
    image: nginx:1.27
    resources:
      requests:
        cpu: "2"
EOF
sim settle
kubectl get pods -o wide
kubectl get events --field-selector reason=Preempted
kubectl get events --field-selector involvedObject.name=important
kubectl get pc
kubectl get pod important -o jsonpath='{.spec.priorityClassName} {.spec.priority} {.spec.preemptionPolicy} {.status.nominatedNodeName}{"\n"}'
kubectl apply -f - <<EOF
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata:
  name: high-priority-nonpreempting
value: 1000000
preemptionPolicy: Never
globalDefault: false
description: "This priority class will not cause other pods to be preempted."
EOF
kubectl apply -f - <<EOF
apiVersion: v1
kind: Pod
metadata:
  name: polite
spec:
  priorityClassName: high-priority-nonpreempting
  containers:
  - name: app
    image: nginx:1.27
    resources:
      requests:
        cpu: "3"
EOF
sim settle
kubectl get events --field-selector involvedObject.name=polite
kubectl apply -f - <<EOF
apiVersion: v1
kind: Pod
metadata:
  name: typo
spec:
  priorityClassName: high-priorty
  containers:
  - name: app
    image: nginx:1.27
EOF
kubectl apply -f - <<EOF
apiVersion: v1
kind: Pod
metadata:
  name: sneaky
spec:
  priority: 2000000000
  containers:
  - name: app
    image: nginx:1.27
EOF
kubectl apply -f - <<EOF
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata:
  name: system-important
value: 2000000000
EOF
kubectl apply -f - <<EOF
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata:
  name: too-high
value: 1000000001
EOF
kubectl get priorityclasses
kubectl describe priorityclass high-priority
