# A real-world manifest with fields kubesim does not simulate (volumes, probes, env,
# affinity, resources, securityContext, tolerations): accepted, stored and shown unchanged.
kubectl apply -f - <<EOF
apiVersion: apps/v1
kind: Deployment
metadata:
  name: api
  labels:
    app: api
  annotations:
    team: payments
spec:
  replicas: 1
  minReadySeconds: 5
  strategy:
    type: RollingUpdate
    rollingUpdate:
      maxSurge: 1
      maxUnavailable: 0
  selector:
    matchLabels:
      app: api
  template:
    metadata:
      labels:
        app: api
    spec:
      serviceAccountName: default
      securityContext:
        runAsNonRoot: true
        fsGroup: 2000
      affinity:
        nodeAffinity:
          preferredDuringSchedulingIgnoredDuringExecution:
          - weight: 10
            preference:
              matchExpressions:
              - key: kubernetes.io/os
                operator: In
                values: ["linux"]
      tolerations:
      - key: dedicated
        operator: Equal
        value: api
        effect: NoSchedule
      initContainers:
      - name: migrate
        image: busybox:1.36
        command: ["sh", "-c", "echo migrating"]
      containers:
      - name: api
        image: gcr.io/google-samples/hello-app:1.0
        args: ["--port=8080"]
        ports:
        - name: http
          containerPort: 8080
        env:
        - name: LOG_LEVEL
          value: info
        - name: POD_NAME
          valueFrom:
            fieldRef:
              fieldPath: metadata.name
        resources:
          requests:
            cpu: 250m
            memory: 64Mi
          limits:
            cpu: 1
            memory: 128Mi
        readinessProbe:
          httpGet:
            path: /healthz
            port: http
          initialDelaySeconds: 3
        livenessProbe:
          tcpSocket:
            port: 8080
        volumeMounts:
        - name: config
          mountPath: /etc/api
          readOnly: true
      volumes:
      - name: config
        configMap:
          name: api-config
          defaultMode: 0644
EOF
kubectl get deploy api -o yaml
