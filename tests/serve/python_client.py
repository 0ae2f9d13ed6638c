"""kubesim serve driven by the official Kubernetes Python client.

Usage: python_client.py KUBECONFIG

Run by tests/serve_python.rs against an in-process `kubesim serve` whose clock is frozen
(`speed` 0): time moves with `POST /kubesim/v1/advance?by=30s`, and `POST /kubesim/v1/compact`
compacts etcd so that a watch from an old resourceVersion gets `410 Expired`. Every check prints
one line, `ok   NAME` or `FAIL NAME: why`; the script exits 1 if any failed.

The client sends JSON (never protobuf), so every kind kubesim serves can be created, patched
three ways (merge, strategic merge, JSON patch), replaced and deleted through it.
"""

import json
import os
import shutil
import subprocess
import sys
import threading
import time
import traceback
import urllib.parse

import urllib3
from kubernetes import client, config, watch
from kubernetes.client.rest import ApiException

KUBECONFIG = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("KUBECONFIG", "")
config.load_kube_config(config_file=KUBECONFIG)
API = client.ApiClient()
SERVER = API.configuration.host.rstrip("/")
HTTP = urllib3.PoolManager()

CORE = client.CoreV1Api()
APPS = client.AppsV1Api()
BATCH = client.BatchV1Api()
STORAGE = client.StorageV1Api()
SCHEDULING = client.SchedulingV1Api()
COORD = client.CoordinationV1Api()
DISCOVERY = client.DiscoveryV1Api()

RESULTS = []


def check(fn):
    """Runs one check now, printing its result."""
    name = fn.__name__.replace("_", " ")
    t0 = time.time()
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - every failure is reported, none stops the suite
        RESULTS.append((name, False))
        detail = traceback.format_exc(limit=4)
        print(f"FAIL {name}: {type(e).__name__}: {e}\n{detail}", flush=True)
        return fn
    RESULTS.append((name, True))
    print(f"ok   {name} ({time.time() - t0:.1f} s)", flush=True)
    return fn


def kubesim(path, **query):
    """POST to one of kubesim's dev endpoints; returns its JSON."""
    url = SERVER + path + ("?" + urllib.parse.urlencode(query) if query else "")
    r = HTTP.request("POST", url)
    assert r.status == 200, (path, r.status, r.data)
    return json.loads(r.data)


def advance(by):
    return kubesim("/kubesim/v1/advance", by=by)


def status_of(e):
    """The Status object of an ApiException."""
    return json.loads(e.body) if e.body else {}


def expect_api_error(code, fn, *args, **kwargs):
    try:
        fn(*args, **kwargs)
    except ApiException as e:
        assert e.status == code, f"status {e.status}, want {code}: {e.body}"
        return e
    raise AssertionError(f"{fn.__name__} succeeded; wanted HTTP {code}")


def wait_gone(read, name, *ns, steps=20, by="10s"):
    """Advances virtual time until reading the object answers 404."""
    for _ in range(steps):
        try:
            read(name, *ns)
        except ApiException as e:
            if e.status == 404:
                return
            raise
        advance(by)
    raise AssertionError(f"{name} still exists after {steps} x {by}")


def ensure_namespace(name):
    try:
        CORE.create_namespace({"metadata": {"name": name}})
    except ApiException as e:
        if e.status != 409:
            raise


def deployment(name, image="nginx:1.27"):
    return {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {"name": name},
        "spec": {
            "replicas": 1,
            "selector": {"matchLabels": {"app": name.lower()}},
            "template": {"metadata": {"labels": {"app": name.lower()}}, "spec": {"containers": [{"name": "web", "image": image}, {"name": "side", "image": "busybox:1.36", "command": ["sleep", "3600"]}]}},
        },
    }


def pod_template(app):
    return {"metadata": {"labels": {"app": app}}, "spec": {"containers": [{"name": "c", "image": "nginx:1.27"}]}}


ensure_namespace("py")


@check
def server_version_is_v1_34():
    v = client.VersionApi().get_code()
    assert v.git_version == "v1.34.0", v.git_version
    assert (v.major, v.minor) == ("1", "34"), (v.major, v.minor)


@check
def list_then_watch_from_its_resource_version_sees_exactly_the_changes_in_order():
    ensure_namespace("py-watch")
    lst = COORD.list_namespaced_lease("py-watch")
    rv = lst.metadata.resource_version
    assert lst.items == [], lst.items
    COORD.create_namespaced_lease("py-watch", {"metadata": {"name": "a"}, "spec": {"holderIdentity": "one"}})
    COORD.create_namespaced_lease("py-watch", {"metadata": {"name": "b"}})
    COORD.patch_namespaced_lease("a", "py-watch", {"spec": {"holderIdentity": "two"}}, _content_type="application/merge-patch+json")
    COORD.delete_namespaced_lease("b", "py-watch")
    w = watch.Watch()
    seen = []
    for ev in w.stream(COORD.list_namespaced_lease, "py-watch", resource_version=rv, timeout_seconds=2):
        seen.append((ev["type"], ev["object"].metadata.name, int(ev["object"].metadata.resource_version)))
        if len(seen) == 4:
            w.stop()
    assert [(t, n) for t, n, _ in seen] == [("ADDED", "a"), ("ADDED", "b"), ("MODIFIED", "a"), ("DELETED", "b")], seen
    rvs = [r for _, _, r in seen]
    assert rvs == sorted(rvs) and rvs[0] > int(rv), (rv, rvs)
    # the watch from the last event's resourceVersion sees nothing more
    again = list(watch.Watch().stream(COORD.list_namespaced_lease, "py-watch", resource_version=str(rvs[-1]), timeout_seconds=1))
    assert again == [], again


@check
def watch_without_resource_version_starts_with_the_current_objects():
    events = list(watch.Watch().stream(COORD.list_namespaced_lease, "py-watch", timeout_seconds=1))
    assert [(e["type"], e["object"].metadata.name) for e in events] == [("ADDED", "a")], events
    assert events[0]["object"].spec.holder_identity == "two"


@check
def label_and_field_selectors_filter_the_watch():
    ensure_namespace("py-sel")
    rv = COORD.list_namespaced_lease("py-sel").metadata.resource_version
    COORD.create_namespaced_lease("py-sel", {"metadata": {"name": "x", "labels": {"team": "red"}}})
    COORD.create_namespaced_lease("py-sel", {"metadata": {"name": "y", "labels": {"team": "blue"}}})
    # relabelled out of the selector: a DELETED for that watch
    COORD.patch_namespaced_lease("x", "py-sel", {"metadata": {"labels": {"team": "green"}}})
    red = [(e["type"], e["object"].metadata.name) for e in watch.Watch().stream(COORD.list_namespaced_lease, "py-sel", resource_version=rv, label_selector="team=red", timeout_seconds=1)]
    assert red == [("ADDED", "x"), ("DELETED", "x")], red
    by_name = [(e["type"], e["object"].metadata.name) for e in watch.Watch().stream(COORD.list_namespaced_lease, "py-sel", resource_version=rv, field_selector="metadata.name=y", timeout_seconds=1)]
    assert by_name == [("ADDED", "y")], by_name


@check
def watch_from_a_compacted_resource_version_raises_410_and_an_informer_relists():
    ensure_namespace("py-inf")
    lst = COORD.list_namespaced_lease("py-inf")
    stale_rv = lst.metadata.resource_version
    for n in ("one", "two"):
        COORD.create_namespaced_lease("py-inf", {"metadata": {"name": n}})
    compacted = kubesim("/kubesim/v1/compact")["compactRevision"]
    assert compacted > int(stale_rv), (compacted, stale_rv)
    # the client's watch turns the ERROR event into an ApiException (it retries once first)
    e = expect_api_error(410, lambda: list(watch.Watch().stream(COORD.list_namespaced_lease, "py-inf", resource_version=stale_rv)))
    assert e.reason == f"Expired: too old resource version: {stale_rv} ({compacted})", e.reason
    # an informer: list, watch from the list's resourceVersion, relist on 410 Gone
    store, relists = {}, 0
    rv = stale_rv
    stop = False
    while not stop:
        try:
            w = watch.Watch()
            for ev in w.stream(COORD.list_namespaced_lease, "py-inf", resource_version=rv, timeout_seconds=2):
                if ev["type"] == "DELETED":
                    store.pop(ev["object"].metadata.name, None)
                else:
                    store[ev["object"].metadata.name] = ev["object"]
                rv = ev["object"].metadata.resource_version
            stop = True
        except ApiException as err:
            assert err.status == 410, err
            relists += 1
            assert relists == 1, "one relist is enough"
            lst = COORD.list_namespaced_lease("py-inf")
            store = {o.metadata.name: o for o in lst.items}
            rv = lst.metadata.resource_version
            # a change after the relist arrives through the new watch
            COORD.create_namespaced_lease("py-inf", {"metadata": {"name": "three"}})
    assert relists == 1, relists
    assert sorted(store) == ["one", "three", "two"], sorted(store)


@check
def bookmarks_carry_the_resource_version_every_virtual_minute():
    events = []

    def run():
        w = watch.Watch()
        for ev in w.stream(COORD.list_namespaced_lease, "py-watch", allow_watch_bookmarks=True, timeout_seconds=4):
            events.append(ev)
            if ev["type"] == "BOOKMARK":
                w.stop()

    t = threading.Thread(target=run)
    t.start()
    time.sleep(0.5)
    advance("61s")
    t.join(10)
    marks = [e for e in events if e["type"] == "BOOKMARK"]
    assert marks, [e["type"] for e in events]
    raw = marks[0]["raw_object"]
    assert raw["kind"] == "Lease" and raw["apiVersion"] == "coordination.k8s.io/v1", raw
    assert int(raw["metadata"]["resourceVersion"]) > 0, raw


@check
def replace_with_a_stale_resource_version_is_a_409_conflict():
    APPS.create_namespaced_deployment("py", deployment("web"))
    stale = APPS.read_namespaced_deployment("web", "py")
    # a read-modify-write that retries on conflict, as clients do (controllers write status meanwhile)
    for attempt in range(5):
        cur = APPS.read_namespaced_deployment("web", "py")
        cur.spec.replicas = 2
        try:
            APPS.replace_namespaced_deployment("web", "py", cur)
            break
        except ApiException as e:
            assert e.status == 409 and attempt < 4, e
    stale.spec.replicas = 3
    e = expect_api_error(409, APPS.replace_namespaced_deployment, "web", "py", stale)
    st = status_of(e)
    want = 'Operation cannot be fulfilled on deployments.apps "web": the object has been modified; please apply your changes to the latest version and try again'
    assert st["message"] == want, st["message"]
    assert st["reason"] == "Conflict" and st["code"] == 409, st
    assert st["details"]["name"] == "web" and st["details"]["group"] == "apps" and st["details"]["kind"] == "deployments", st["details"]
    assert APPS.read_namespaced_deployment("web", "py").spec.replicas == 2


@check
def errors_come_back_as_upstream_status_objects():
    e = expect_api_error(404, APPS.read_namespaced_deployment, "nope", "py")
    assert status_of(e)["message"] == 'deployments.apps "nope" not found', e.body
    e = expect_api_error(409, APPS.create_namespaced_deployment, "py", deployment("web"))
    assert status_of(e)["reason"] == "AlreadyExists" and status_of(e)["message"] == 'deployments.apps "web" already exists', e.body
    bad = deployment("Bad_Name")
    e = expect_api_error(422, APPS.create_namespaced_deployment, "py", bad)
    assert status_of(e)["reason"] == "Invalid", e.body
    # bodies the typed client would never send, through its own connection pool
    url = f"{SERVER}/apis/apps/v1/namespaces/py/deployments"
    r = HTTP.request("POST", url, body=b'{"apiVersion":"apps/v1",', headers={"Content-Type": "application/json"})
    st = json.loads(r.data)
    assert r.status == 400 and st["message"] == 'the object provided is unrecognized (must be of type Deployment): couldn\'t get version/kind; json parse error: unexpected end of JSON input ({"apiVersion":"apps/v1",)', (r.status, st)
    r = HTTP.request("POST", url, body=b"{}", headers={"Content-Type": "text/plain"})
    assert r.status == 415 and json.loads(r.data)["reason"] == "UnsupportedMediaType", (r.status, r.data)
    r = HTTP.request("GET", f"{SERVER}/apis/apps/v1/widgets")
    assert r.status == 404 and json.loads(r.data)["message"] == "the server could not find the requested resource", (r.status, r.data)


# (kind, API, snake-case resource name, namespaced, manifest): every kind kubesim serves that a
# client creates (Nodes, Events, Endpoints and EndpointSlices and ControllerRevisions included).
KINDS = [
    ("Namespace", CORE, "namespace", False, {"metadata": {"name": "py-crud"}}),
    ("Pod", CORE, "pod", True, {"metadata": {"name": "p"}, "spec": {"containers": [{"name": "c", "image": "nginx:1.27"}]}}),
    ("Service", CORE, "service", True, {"metadata": {"name": "s"}, "spec": {"selector": {"app": "s"}, "ports": [{"port": 80}]}}),
    ("Endpoints", CORE, "endpoints", True, {"metadata": {"name": "manual"}, "subsets": [{"addresses": [{"ip": "10.0.0.9"}], "ports": [{"port": 80}]}]}),
    ("Event", CORE, "event", True, {"metadata": {"name": "e1"}, "involvedObject": {"kind": "Pod", "name": "p", "namespace": "py"}, "reason": "Test", "message": "hello", "type": "Normal"}),
    ("PersistentVolumeClaim", CORE, "persistent_volume_claim", True, {"metadata": {"name": "claim"}, "spec": {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "1Gi"}}}}),
    ("PersistentVolume", CORE, "persistent_volume", False, {"metadata": {"name": "py-pv"}, "spec": {"capacity": {"storage": "1Gi"}, "accessModes": ["ReadWriteOnce"], "hostPath": {"path": "/tmp/py-pv"}, "storageClassName": "manual"}}),
    ("ResourceQuota", CORE, "resource_quota", True, {"metadata": {"name": "q"}, "spec": {"hard": {"pods": "50"}}}),
    ("Node", CORE, "node", False, {"metadata": {"name": "py-node"}}),
    ("Deployment", APPS, "deployment", True, deployment("d")),
    ("ReplicaSet", APPS, "replica_set", True, {"metadata": {"name": "rs"}, "spec": {"replicas": 1, "selector": {"matchLabels": {"app": "rs"}}, "template": pod_template("rs")}}),
    ("DaemonSet", APPS, "daemon_set", True, {"metadata": {"name": "ds"}, "spec": {"selector": {"matchLabels": {"app": "ds"}}, "template": pod_template("ds")}}),
    ("StatefulSet", APPS, "stateful_set", True, {"metadata": {"name": "sts"}, "spec": {"serviceName": "sts", "replicas": 1, "selector": {"matchLabels": {"app": "sts"}}, "template": pod_template("sts")}}),
    ("ControllerRevision", APPS, "controller_revision", True, {"metadata": {"name": "cr"}, "revision": 1, "data": {"spec": {}}}),
    ("Job", BATCH, "job", True, {"metadata": {"name": "j"}, "spec": {"template": {"spec": {"restartPolicy": "Never", "containers": [{"name": "c", "image": "busybox:1.36", "command": ["sleep", "5"]}]}}}}),
    ("CronJob", BATCH, "cron_job", True, {"metadata": {"name": "cj"}, "spec": {"schedule": "*/5 * * * *", "jobTemplate": {"spec": {"template": {"spec": {"restartPolicy": "Never", "containers": [{"name": "c", "image": "busybox:1.36"}]}}}}}}),
    ("StorageClass", STORAGE, "storage_class", False, {"metadata": {"name": "py-sc"}, "provisioner": "k8s.io/minikube-hostpath"}),
    ("PriorityClass", SCHEDULING, "priority_class", False, {"metadata": {"name": "py-pc"}, "value": 1000}),
    ("Lease", COORD, "lease", True, {"metadata": {"name": "l"}, "spec": {"holderIdentity": "me"}}),
    ("EndpointSlice", DISCOVERY, "endpoint_slice", True, {"metadata": {"name": "es"}, "addressType": "IPv4", "endpoints": [{"addresses": ["10.0.0.9"]}], "ports": [{"port": 80}]}),
]


def crud(kind, api, res, namespaced, manifest):
    name = manifest["metadata"]["name"]
    scope = ("namespaced_" if namespaced else "") + res
    ns_args = ("py",) if namespaced else ()
    create = getattr(api, "create_" + scope)
    read = getattr(api, "read_" + scope)
    patch = getattr(api, "patch_" + scope)
    delete = getattr(api, "delete_" + scope)
    replace = getattr(api, "replace_" + scope)
    listing = getattr(api, "list_" + scope) if namespaced else getattr(api, "list_" + res)

    created = create(*ns_args, manifest)
    assert created.metadata.name == name and created.metadata.uid, created.metadata
    assert name in [o.metadata.name for o in listing(*ns_args).items]
    # the three patch types, each adding a label
    patch(name, *ns_args, {"metadata": {"labels": {"merge": "yes"}}}, _content_type="application/merge-patch+json")
    patch(name, *ns_args, {"metadata": {"labels": {"smp": "yes"}}}, _content_type="application/strategic-merge-patch+json")
    patch(name, *ns_args, [{"op": "add", "path": "/metadata/labels/jp", "value": "yes"}], _content_type="application/json-patch+json")
    got = read(name, *ns_args)
    labels = got.metadata.labels or {}
    assert all(labels.get(k) == "yes" for k in ("merge", "smp", "jp")), labels
    # a JSON patch whose test fails is a 422
    e = expect_api_error(422, patch, name, *ns_args, [{"op": "test", "path": "/metadata/labels/jp", "value": "no"}], _content_type="application/json-patch+json")
    assert status_of(e)["reason"] == "Invalid" or e.status == 422, e.body
    # a replace of the current object (retried on conflict: controllers write too)
    for attempt in range(5):
        cur = read(name, *ns_args)
        cur.metadata.annotations = dict(cur.metadata.annotations or {}, replaced="yes")
        try:
            replace(name, *ns_args, cur)
            break
        except ApiException as err:
            assert err.status == 409 and attempt < 4, err
    assert read(name, *ns_args).metadata.annotations.get("replaced") == "yes"
    delete(name, *ns_args)
    wait_gone(read, name, *ns_args)


for _kind, _api, _res, _namespaced, _manifest in KINDS:
    def _one(k=_kind, a=_api, r=_res, n=_namespaced, m=_manifest):
        crud(k, a, r, n, m)
    _one.__name__ = f"create_patch_replace_delete_{_kind}"
    check(_one)


@check
def strategic_merge_patch_merges_containers_by_name():
    APPS.patch_namespaced_deployment("web", "py", {"spec": {"template": {"spec": {"containers": [{"name": "web", "image": "nginx:1.29"}]}}}}, _content_type="application/strategic-merge-patch+json")
    cs = APPS.read_namespaced_deployment("web", "py").spec.template.spec.containers
    assert [(c.name, c.image) for c in cs] == [("web", "nginx:1.29"), ("side", "busybox:1.36")], cs
    # a merge patch replaces the list
    APPS.patch_namespaced_deployment("web", "py", {"spec": {"template": {"spec": {"containers": [{"name": "web", "image": "nginx:1.27"}]}}}}, _content_type="application/merge-patch+json")
    cs = APPS.read_namespaced_deployment("web", "py").spec.template.spec.containers
    assert [(c.name, c.image) for c in cs] == [("web", "nginx:1.27")], cs


@check
def a_deployment_rolls_out_as_virtual_time_advances():
    for _ in range(12):
        d = APPS.read_namespaced_deployment("web", "py")
        if (d.status.ready_replicas or 0) == 2 and d.status.updated_replicas == 2:
            break
        advance("5s")
    d = APPS.read_namespaced_deployment("web", "py")
    assert d.status.ready_replicas == 2 and d.status.available_replicas == 2, d.status
    pods = CORE.list_namespaced_pod("py", label_selector="app=web").items
    assert len(pods) == 2 and all(p.status.phase == "Running" for p in pods), [(p.metadata.name, p.status.phase) for p in pods]
    APPS.delete_namespaced_deployment("web", "py")
    wait_gone(APPS.read_namespaced_deployment, "web", "py")
    for _ in range(10):
        if not CORE.list_namespaced_pod("py", label_selector="app=web").items:
            break
        advance("10s")
    assert CORE.list_namespaced_pod("py", label_selector="app=web").items == []


def etcd_revision():
    r = HTTP.request("GET", SERVER + "/metrics")
    assert r.status == 200, r.status
    for line in r.data.decode().splitlines():
        if line.startswith("kubesim_etcd_revision "):
            return int(line.split()[1])
    raise AssertionError("no kubesim_etcd_revision in /metrics")


@check
def dry_run_all_answers_every_write_and_stores_nothing():
    ensure_namespace("dry")
    APPS.create_namespaced_deployment("dry", deployment("live"))
    before = etcd_revision()
    created = CORE.create_namespaced_config_map("dry", {"metadata": {"name": "cm"}, "data": {"a": "b"}}, dry_run="All")
    assert created.metadata.uid and not created.metadata.resource_version, created.metadata
    svc = CORE.create_namespaced_service("dry", {"metadata": {"name": "s"}, "spec": {"type": "NodePort", "ports": [{"port": 80}]}}, dry_run="All")
    assert svc.spec.cluster_ip and svc.spec.ports[0].node_port, svc.spec
    patched = APPS.patch_namespaced_deployment("live", "dry", {"spec": {"replicas": 5}}, dry_run="All")
    assert patched.spec.replicas == 5 and patched.metadata.generation == 2, (patched.spec.replicas, patched.metadata.generation)
    APPS.delete_namespaced_deployment("live", "dry", dry_run="All")
    APPS.delete_namespaced_deployment("live", "dry", body=client.V1DeleteOptions(dry_run=["All"]))
    expect_api_error(409, CORE.create_namespace, {"metadata": {"name": "dry"}}, dry_run="All")
    assert etcd_revision() == before, (before, etcd_revision())
    live = APPS.read_namespaced_deployment("live", "dry")
    assert live.spec.replicas == 1 and live.metadata.generation == 1, (live.spec.replicas, live.metadata.generation)
    expect_api_error(404, CORE.read_namespaced_config_map, "cm", "dry")
    e = expect_api_error(422, CORE.create_namespaced_config_map, "dry", {"metadata": {"name": "cm"}}, dry_run="Some")
    assert "dryRun: Unsupported value" in status_of(e)["message"], e.body


@check
def field_selectors_are_checked_per_resource():
    nodes = CORE.list_node(field_selector="spec.unschedulable=false").items
    assert len(nodes) == 3, [n.metadata.name for n in nodes]
    e = expect_api_error(400, CORE.list_namespaced_pod, "default", field_selector="foo=bar")
    assert status_of(e)["message"] == "field label not supported: foo", e.body
    e = expect_api_error(400, CORE.list_namespaced_config_map, "default", field_selector="data.a=b")
    assert "is not a known field selector" in status_of(e)["message"], e.body


@check
def a_not_found_status_carries_details():
    # an unknown subresource: the 404 names nothing (kubectl tells it from a missing object)
    r = HTTP.request("GET", SERVER + "/api/v1/namespaces/default/pods/nope/bogus")
    body = json.loads(r.data)
    assert r.status == 404 and body.get("details") == {}, (r.status, body)
    # a served subresource of a missing Pod: the Pod's NotFound
    r = HTTP.request("GET", SERVER + "/api/v1/namespaces/default/pods/nope/ephemeralcontainers")
    body = json.loads(r.data)
    assert r.status == 404 and body.get("details") == {"name": "nope", "kind": "pods"}, (r.status, body)
    e = expect_api_error(404, CORE.read_namespaced_pod, "nope", "default")
    assert status_of(e)["details"] == {"name": "nope", "kind": "pods"}, e.body


@check
def the_proxy_subresources_reach_the_pod():
    ensure_namespace("prx")
    d = deployment("prx")
    d["spec"]["template"]["spec"]["containers"] = d["spec"]["template"]["spec"]["containers"][:1]
    APPS.create_namespaced_deployment("prx", d)
    CORE.create_namespaced_service("prx", {"metadata": {"name": "prx"}, "spec": {"selector": {"app": "prx"}, "ports": [{"port": 80}]}})
    for _ in range(30):
        eps = CORE.read_namespaced_endpoints("prx", "prx") if any(e.metadata.name == "prx" for e in CORE.list_namespaced_endpoints("prx").items) else None
        if eps and eps.subsets and eps.subsets[0].addresses:
            break
        advance("2s")
    page = CORE.connect_get_namespaced_service_proxy_with_path("prx", "prx", "")
    assert "Welcome to nginx!" in page, page[:200]
    pod = CORE.list_namespaced_pod("prx").items[0].metadata.name
    page = CORE.connect_get_namespaced_pod_proxy(pod, "prx")
    assert "Welcome to nginx!" in page, page[:200]


@check
def kubectl_1_37_from_the_wheel_reads_the_same_cluster():
    kubectl = os.path.join(os.path.dirname(sys.executable), "kubectl")
    if not os.path.exists(kubectl):
        kubectl = shutil.which("kubectl") or kubectl
    env = dict(os.environ, KUBECONFIG=KUBECONFIG)
    out = subprocess.run([kubectl, "version", "-o", "json"], env=env, capture_output=True, text=True, timeout=60)
    v = json.loads(out.stdout)
    assert v["serverVersion"]["gitVersion"] == "v1.34.0", out.stdout + out.stderr
    out = subprocess.run([kubectl, "get", "namespaces", "-o", "name"], env=env, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and "namespace/py" in out.stdout.split(), out.stdout + out.stderr
    out = subprocess.run([kubectl, "get", "--raw", "/api/v1/foos"], env=env, capture_output=True, text=True, timeout=60)
    assert out.returncode != 0 and "the server could not find the requested resource" in out.stderr, out.stderr


failed = [n for n, ok in RESULTS if not ok]
print(f"{len(RESULTS) - len(failed)} passed, {len(failed)} failed", flush=True)
sys.exit(1 if failed else 0)
