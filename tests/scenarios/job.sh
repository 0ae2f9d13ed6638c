# Jobs run Pods to completion. "pi" needs three completions, two at a time: the Job
# controller keeps min(parallelism, completions - succeeded) Pods active and, once three have
# succeeded, adds SuccessCriteriaMet, then Complete. "flaky" always fails: restartPolicy Never
# gives each try a new Pod, replaced after a back-off of 10 s, then 20 s; the third failure is
# more than backoffLimit 2, so the Job gets FailureTarget, then Failed (BackoffLimitExceeded).
# "tidy" has ttlSecondsAfterFinished: 30, so the TTL-after-finished controller deletes it (and
# its Pod) 30 s after it completes.
kubectl apply -f - <<EOF
apiVersion: batch/v1
kind: Job
metadata:
  name: pi
spec:
  completions: 3
  parallelism: 2
  template:
    spec:
      containers:
      - name: pi
        image: busybox:1.36
        command: ["sh", "-c", "echo computing; sleep 5; echo 3.14159"]
      restartPolicy: Never
EOF
sim settle
kubectl get jobs
kubectl get pods -l job-name=pi
sim advance 20s
kubectl get jobs -o wide
kubectl get job pi -o yaml
kubectl logs job/pi
kubectl apply -f - <<EOF
apiVersion: batch/v1
kind: Job
metadata:
  name: flaky
spec:
  backoffLimit: 2
  template:
    spec:
      containers:
      - name: flaky
        image: busybox:1.36
        command: ["sh", "-c", "echo trying; sleep 2; exit 1"]
      restartPolicy: Never
EOF
sim advance 90s
kubectl get jobs
kubectl get pods -l job-name=flaky
kubectl get events --field-selector involvedObject.kind=Job
kubectl describe job flaky
kubectl apply -f - <<EOF
apiVersion: batch/v1
kind: Job
metadata:
  name: tidy
spec:
  ttlSecondsAfterFinished: 30
  template:
    spec:
      containers:
      - name: tidy
        image: busybox:1.36
        command: ["sh", "-c", "echo done"]
      restartPolicy: Never
EOF
sim settle
kubectl get jobs tidy
sim advance 40s
kubectl get jobs
kubectl get pods -l job-name=tidy
kubectl apply -f - <<EOF
apiVersion: batch/v1
kind: Job
metadata:
  name: bad
spec:
  template:
    spec:
      containers:
      - name: c
        image: busybox:1.36
EOF
