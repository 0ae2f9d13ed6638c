"""A Website operator written with kopf (https://kopf.readthedocs.io), run against kubesim serve.

Each Website becomes a Deployment it owns (kopf.adopt sets the ownerReference, so deleting the
Website lets the garbage collector delete the Deployment); a change of spec.replicas is patched
into the Deployment. See README.md next to this file.
"""
import kopf
import kubernetes


@kopf.on.startup()
def configure(settings: kopf.OperatorSettings, **_):
    settings.posting.enabled = True
    kubernetes.config.load_kube_config()


def deployment_for(name, spec):
    labels = {"app.kubernetes.io/name": "website", "app.kubernetes.io/instance": name}
    return {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {"name": name, "labels": labels},
        "spec": {
            "replicas": spec.get("replicas", 1),
            "selector": {"matchLabels": labels},
            "template": {
                "metadata": {"labels": labels},
                "spec": {"containers": [{"name": "web", "image": spec.get("image", "nginx:1.27")}]},
            },
        },
    }


@kopf.on.create("example.com", "v1", "websites")
@kopf.on.update("example.com", "v1", "websites")
def reconcile(spec, name, namespace, body, logger, **_):
    apps = kubernetes.client.AppsV1Api()
    dep = deployment_for(name, spec)
    kopf.adopt(dep, owner=body)
    try:
        apps.create_namespaced_deployment(namespace, dep)
        logger.info(f"created Deployment {name}")
    except kubernetes.client.exceptions.ApiException as e:
        if e.status != 409:
            raise
        apps.patch_namespaced_deployment(name, namespace, {"spec": {"replicas": spec.get("replicas", 1)}})
        logger.info(f"patched Deployment {name}")
    return {"deployment": name}
