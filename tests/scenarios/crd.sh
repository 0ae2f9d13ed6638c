# The Kubernetes documentation's CronTab ("Extend the Kubernetes API with CustomResourceDefinitions"):
# a CRD, the names the naming controller accepts and the Established condition, a custom resource
# validated against the schema, kubectl get with the printer columns — and nothing else happens,
# because no controller watches crontabs. Then bad input, and the CRD's deletion taking its objects.
kubectl apply -f - <<EOF
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: crontabs.stable.example.com
spec:
  group: stable.example.com
  versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec:
              type: object
              properties:
                cronSpec:
                  type: string
                  pattern: '^(\d+|\*)(/\d+)?(\s+(\d+|\*)(/\d+)?){4}$'
                image:
                  type: string
                replicas:
                  type: integer
                  minimum: 1
                  maximum: 10
      additionalPrinterColumns:
      - name: Spec
        type: string
        description: The cron spec defining the interval a CronJob is run
        jsonPath: .spec.cronSpec
      - name: Replicas
        type: integer
        description: The number of jobs launched by the CronJob
        jsonPath: .spec.replicas
      - name: Age
        type: date
        jsonPath: .metadata.creationTimestamp
  scope: Namespaced
  names:
    plural: crontabs
    singular: crontab
    kind: CronTab
    shortNames:
    - ct
EOF
kubectl get crd
sim settle
kubectl get crd crontabs.stable.example.com -o jsonpath='{range .status.conditions[*]}{.type}={.status} {.reason}: {.message}{"\n"}{end}'
kubectl api-resources --api-group=stable.example.com
kubectl apply -f - <<EOF
apiVersion: "stable.example.com/v1"
kind: CronTab
metadata:
  name: my-new-cron-object
spec:
  cronSpec: "* * * * */5"
  image: my-awesome-cron-image
  replicas: 1
EOF
kubectl get crontab
kubectl get ct my-new-cron-object -o yaml
kubectl describe crontab my-new-cron-object
kubectl explain crontab.spec
# only data in etcd: no controller acts on a CronTab, so nothing else is created
sim settle
kubectl get all
# the schema refuses what it does not allow, with v1.34's messages; nothing is stored
kubectl apply -f - <<EOF
apiVersion: "stable.example.com/v1"
kind: CronTab
metadata:
  name: my-bad-cron-object
spec:
  cronSpec: "* * * *"
  image: my-awesome-cron-image
  replicas: 15
EOF
kubectl apply -f - <<EOF
apiVersion: "stable.example.com/v1"
kind: CronTab
metadata:
  name: my-other-cron-object
spec:
  cronSpec: "* * * * *"
  someRandomField: 42
EOF
kubectl get crontabs
# custom resources take merge and JSON patches, not strategic merge
kubectl patch crontab my-new-cron-object -p '{"spec":{"replicas":3}}'
kubectl patch crontab my-new-cron-object --type=merge -p '{"spec":{"replicas":3}}'
kubectl get ct
# a CRD the API server refuses, and a CRD with a custom resource in the same file: kubectl maps
# every document before it sends any, and the new kind is not served yet
kubectl apply -f - <<EOF
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: websites.example
spec:
  group: example
  scope: Namespaced
  names:
    plural: websites
    kind: Website
  versions:
  - name: v1
    served: true
    storage: false
EOF
kubectl apply -f - <<EOF
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: websites.stable.example.com
spec:
  group: stable.example.com
  scope: Namespaced
  names:
    plural: websites
    kind: Website
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        x-kubernetes-preserve-unknown-fields: true
---
apiVersion: stable.example.com/v1
kind: Website
metadata:
  name: blog
spec:
  url: https://blog.example.com
EOF
sim settle
kubectl apply -f - <<EOF
apiVersion: stable.example.com/v1
kind: Website
metadata:
  name: blog
spec:
  url: https://blog.example.com
EOF
kubectl get websites
# deleting the CRD deletes its custom resources first (the customresourcecleanup finalizer)
kubectl delete crd crontabs.stable.example.com
sim settle
kubectl get crontabs
kubectl get crd
