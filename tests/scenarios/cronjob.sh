# A CronJob every minute: the Kubernetes docs' "hello". The CronJob controller wakes at each
# schedule time of the virtual clock, creates the Job hello-<minutes since the epoch> from the
# template, lists it in status.active until it completes (SawCompletedJob), and keeps the last
# three successful Jobs (successfulJobsHistoryLimit), deleting older ones.
kubectl apply -f - <<EOF
apiVersion: batch/v1
kind: CronJob
metadata:
  name: hello
spec:
  schedule: "* * * * *"
  jobTemplate:
    spec:
      template:
        spec:
          containers:
          - name: hello
            image: busybox:1.36
            imagePullPolicy: IfNotPresent
            command:
            - /bin/sh
            - -c
            - date; echo Hello from the Kubernetes cluster
          restartPolicy: OnFailure
EOF
kubectl get cronjob hello
sim advance 3m
kubectl get cronjobs
kubectl get jobs
kubectl logs job/hello-29453762
sim advance 3m
kubectl get jobs
kubectl get cronjob hello -o jsonpath='{.status.lastScheduleTime}{"\n"}{.status.lastSuccessfulTime}{"\n"}'
kubectl get events --field-selector involvedObject.kind=CronJob
kubectl create job hello-now --from=cronjob/hello
sim settle
kubectl get jobs
kubectl get events --field-selector reason=UnexpectedJob
kubectl create job once --image=busybox:1.36 -- echo hi
sim settle
kubectl logs job/once
kubectl apply -f - <<EOF
apiVersion: batch/v1
kind: CronJob
metadata:
  name: typo
spec:
  schedule: "61 * * * *"
  jobTemplate:
    spec:
      template:
        spec:
          containers:
          - name: c
            image: busybox:1.36
          restartPolicy: Never
EOF
kubectl describe cronjob hello
