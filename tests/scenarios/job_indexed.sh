# Indexed Jobs, pod failure policies, success policies and suspend. "sample" has completions 5,
# parallelism 2 and completionMode Indexed: the Job controller gives each Pod the lowest pending
# index in [0, 5) (annotation and label batch.kubernetes.io/job-completion-index, generateName
# sample-<index>-, hostname sample-<index>, env JOB_COMPLETION_INDEX from the label) and counts
# distinct succeeded indexes in status.completedIndexes. "answer" exits 42, which its
# podFailurePolicy's FailJob rule turns into FailureTarget, then Failed (reason PodFailurePolicy);
# "flaky" exits 3, which the Ignore rule leaves out of status.failed and the backoff limit, so its
# Pods keep being replaced after the back-off. "leader" is done once index 0 succeeds
# (successPolicy): SuccessCriteriaMet, then Complete with the reason SuccessPolicy. "paused" is
# created suspended (no Pods, no startTime), resumed, suspended again (its Pods are deleted) and
# resumed (startTime restarts) by applying the changed manifest. ("flaky" would run forever, so
# it is deleted before the clock settles again.)
kubectl apply -f - <<EOF
apiVersion: batch/v1
kind: Job
metadata:
  name: sample
spec:
  completions: 5
  parallelism: 2
  completionMode: Indexed
  template:
    spec:
      containers:
      - name: worker
        image: busybox:1.36
        command: ["sh", "-c", "echo processing my index; sleep 2"]
      restartPolicy: Never
EOF
sim advance 2s
kubectl get pods -l job-name=sample --show-labels
kubectl describe pods -l batch.kubernetes.io/job-completion-index=1
sim settle
kubectl get jobs
kubectl get pods -l job-name=sample
kubectl describe job sample
kubectl get job sample -o yaml
kubectl apply -f - <<EOF
apiVersion: batch/v1
kind: Job
metadata:
  name: answer
spec:
  backoffLimit: 6
  podFailurePolicy:
    rules:
    - action: FailJob
      onExitCodes:
        containerName: main
        operator: In
        values: [42]
    - action: Ignore
      onExitCodes:
        operator: In
        values: [3]
  template:
    spec:
      containers:
      - name: main
        image: busybox:1.36
        command: ["sh", "-c", "echo thinking; sleep 1; exit 42"]
      restartPolicy: Never
---
apiVersion: batch/v1
kind: Job
metadata:
  name: flaky
spec:
  backoffLimit: 1
  podFailurePolicy:
    rules:
    - action: FailJob
      onExitCodes:
        containerName: main
        operator: In
        values: [42]
    - action: Ignore
      onExitCodes:
        operator: In
        values: [3]
  template:
    spec:
      containers:
      - name: main
        image: busybox:1.36
        command: ["sh", "-c", "echo trying; sleep 1; exit 3"]
      restartPolicy: Never
EOF
sim advance 40s
kubectl get jobs answer flaky
kubectl get pods -l job-name=answer
kubectl get pods -l job-name=flaky
kubectl get job answer -o yaml
kubectl get events --field-selector involvedObject.name=answer
kubectl describe job flaky
kubectl delete job flaky
kubectl apply -f - <<EOF
apiVersion: batch/v1
kind: Job
metadata:
  name: broken
spec:
  podFailurePolicy:
    rules:
    - action: Ignore
      onExitCodes:
        operator: In
        values: [0]
  template:
    spec:
      containers:
      - name: main
        image: busybox:1.36
      restartPolicy: OnFailure
EOF
kubectl apply -f - <<EOF
apiVersion: batch/v1
kind: Job
metadata:
  name: unindexed
spec:
  parallelism: 2
  completionMode: Indexed
  template:
    spec:
      containers:
      - name: main
        image: busybox:1.36
      restartPolicy: Never
EOF
kubectl apply -f - <<EOF
apiVersion: batch/v1
kind: Job
metadata:
  name: leader
spec:
  completions: 3
  parallelism: 3
  completionMode: Indexed
  successPolicy:
    rules:
    - succeededIndexes: "0"
  template:
    spec:
      containers:
      - name: main
        image: busybox:1.36
        command: ["sh", "-c", "echo leading; sleep 3"]
      restartPolicy: Never
EOF
sim advance 6s
kubectl get jobs leader
kubectl get pods -l job-name=leader
kubectl get events --field-selector involvedObject.name=leader
kubectl get job leader -o yaml
kubectl apply -f - <<EOF
apiVersion: batch/v1
kind: Job
metadata:
  name: paused
spec:
  suspend: true
  completions: 2
  parallelism: 2
  template:
    spec:
      containers:
      - name: main
        image: busybox:1.36
        command: ["sh", "-c", "echo working; sleep 20"]
      restartPolicy: Never
EOF
sim settle
kubectl get jobs paused
kubectl get pods -l job-name=paused
kubectl describe job paused
kubectl apply -f - <<EOF
apiVersion: batch/v1
kind: Job
metadata:
  name: paused
spec:
  suspend: false
  completions: 2
  parallelism: 2
  template:
    spec:
      containers:
      - name: main
        image: busybox:1.36
        command: ["sh", "-c", "echo working; sleep 20"]
      restartPolicy: Never
EOF
sim advance 5s
kubectl get jobs paused
kubectl get pods -l job-name=paused
kubectl apply -f - <<EOF
apiVersion: batch/v1
kind: Job
metadata:
  name: paused
spec:
  suspend: true
  completions: 2
  parallelism: 2
  template:
    spec:
      containers:
      - name: main
        image: busybox:1.36
        command: ["sh", "-c", "echo working; sleep 20"]
      restartPolicy: Never
EOF
sim advance 2s
kubectl get jobs paused
kubectl get pods -l job-name=paused
kubectl apply -f - <<EOF
apiVersion: batch/v1
kind: Job
metadata:
  name: paused
spec:
  suspend: false
  completions: 2
  parallelism: 2
  template:
    spec:
      containers:
      - name: main
        image: busybox:1.36
        command: ["sh", "-c", "echo working; sleep 20"]
      restartPolicy: Never
EOF
sim advance 60s
kubectl get jobs
kubectl get job paused -o yaml
kubectl get events --field-selector involvedObject.name=paused
