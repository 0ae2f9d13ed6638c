# A Job that fails twice, then succeeds. Its container (kubesim's teaching image with FAILURES=2)
# stands for a batch task whose database is not ready at first: the first two runs exit with 1,
# the third does its work and exits with 0. With restartPolicy: OnFailure the kubelet restarts
# the container in the same Pod after the crash-loop back-off (10 s, then 20 s); the Job
# controller counts the restarts against backoffLimit (3 here) and completes the Job when the
# Pod succeeds.
kubectl apply -f - <<EOF
apiVersion: batch/v1
kind: Job
metadata:
  name: migrate
spec:
  backoffLimit: 3
  template:
    spec:
      restartPolicy: OnFailure
      containers:
      - name: migrate
        image: kubesim/app:1
        env:
        - name: EXIT_AFTER
          value: "2"
        - name: EXIT_CODE
          value: "1"
        - name: FAILURES
          value: "2"
EOF
sim advance 5s
kubectl get pods -l job-name=migrate
sim advance 15s
kubectl get pods -l job-name=migrate
sim settle
kubectl get jobs migrate
kubectl get pods -l job-name=migrate
kubectl logs job/migrate --previous
kubectl logs job/migrate
kubectl get events --field-selector involvedObject.kind=Pod
kubectl get events --field-selector involvedObject.kind=Job
kubectl describe job migrate
