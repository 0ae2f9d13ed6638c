# A DaemonSet lands on every node, and on a new one: the Kubernetes docs' fluentd-elasticsearch.
# The DaemonSet controller records the template as a ControllerRevision, then creates one Pod per
# eligible node, each pinned by a metadata.name node affinity and placed by the default
# scheduler. A new node gets its Pod; a NoExecute taint the Pod does not tolerate takes it away;
# a new image rolls out one node at a time (maxUnavailable 1).
kubectl apply -f - <<EOF
apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: fluentd-elasticsearch
  namespace: kube-system
  labels:
    k8s-app: fluentd-logging
spec:
  selector:
    matchLabels:
      name: fluentd-elasticsearch
  template:
    metadata:
      labels:
        name: fluentd-elasticsearch
    spec:
      tolerations:
      - key: node-role.kubernetes.io/control-plane
        operator: Exists
        effect: NoSchedule
      - key: node-role.kubernetes.io/master
        operator: Exists
        effect: NoSchedule
      containers:
      - name: fluentd-elasticsearch
        image: quay.io/fluentd_elasticsearch/fluentd:v4.2.0
        resources:
          limits:
            memory: 200Mi
          requests:
            cpu: 100m
            memory: 200Mi
      terminationGracePeriodSeconds: 30
EOF
kubectl rollout status daemonset/fluentd-elasticsearch -n kube-system
kubectl get ds -n kube-system -o wide
kubectl get pods -n kube-system -o wide
kubectl get pods -n kube-system -o jsonpath='{range .items[*]}{.metadata.name}{"\t"}{.metadata.labels.controller-revision-hash}{"\t"}{.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchFields[0].values[0]}{"\n"}{end}'
kubectl get controllerrevisions -n kube-system
sim node add node-4
sim settle
kubectl get pods -n kube-system -o wide
kubectl taint nodes node-2 dedicated=db:NoExecute
sim settle
kubectl get ds -n kube-system
kubectl set image daemonset/fluentd-elasticsearch -n kube-system fluentd-elasticsearch=quay.io/fluentd_elasticsearch/fluentd:v5.0.1
kubectl annotate daemonset/fluentd-elasticsearch -n kube-system kubernetes.io/change-cause="fluentd v5.0.1"
kubectl rollout status daemonset/fluentd-elasticsearch -n kube-system
kubectl get controllerrevisions -n kube-system
kubectl rollout history daemonset/fluentd-elasticsearch -n kube-system
kubectl rollout history daemonset/fluentd-elasticsearch -n kube-system --revision=1
kubectl get pods -n kube-system -o wide
kubectl get events -n kube-system --field-selector involvedObject.kind=DaemonSet
kubectl describe ds fluentd-elasticsearch -n kube-system
