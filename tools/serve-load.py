#!/usr/bin/env python3
"""`kubesim serve` under load (issue 30's serve figures), a measurement, not a test.

Usage: python3 tools/serve-load.py [--bin target/native/kubesim] [--kubectl /usr/bin/kubectl]
       [--watchers 20] [--deployments 200] [--revisions 10000] [--events 7700] [--speed 20]

Starts `kubesim serve` on a free port, opens N `kubectl get pods -A -w` watchers, then creates and
deletes Deployments (one replica each) in a loop until etcd has passed the given number of
revisions, sampling the server's resident memory (VmRSS) every second; then starts a fresh,
frozen server, writes that many core/v1 Events and times the list as kubectl pages it (limit=500,
Table), the whole list, and `kubectl get events -A` itself (start-up and its client-side rate
limiter included). Prints one FIGURE line per figure with the issue's bound beside it.
Only the Python standard library; the watchers are real kubectl processes.
"""

import argparse
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    p = s.getsockname()[1]
    s.close()
    return p


def rss_mb(pid):
    with open(f"/proc/{pid}/status") as f:
        t = f.read()
    return int(re.search(r"VmRSS:\s+(\d+)", t).group(1)) / 1024, int(re.search(r"VmHWM:\s+(\d+)", t).group(1)) / 1024


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default="target/native/kubesim")
    ap.add_argument("--kubectl", default="/usr/bin/kubectl")
    ap.add_argument("--watchers", type=int, default=20)
    ap.add_argument("--deployments", type=int, default=200)
    ap.add_argument("--revisions", type=int, default=10000)
    ap.add_argument("--events", type=int, default=7700)
    ap.add_argument("--speed", default="20")
    a = ap.parse_args()

    port = free_port()
    base = f"http://127.0.0.1:{port}"
    tmp = tempfile.mkdtemp(prefix="kubesim-load-")
    kubeconfig = os.path.join(tmp, "kubeconfig")
    server = subprocess.Popen([a.bin, "serve", "--addr", f"127.0.0.1:{port}", "--speed", a.speed, "--kubeconfig-out", kubeconfig],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    env = dict(os.environ, KUBECONFIG=kubeconfig)

    def call(method, path, body=None, headers=None):
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(base + path, data=data, method=method, headers={"Content-Type": "application/json", **(headers or {})})
        try:
            with urllib.request.urlopen(req, timeout=60) as r:
                return r.status, r.read()
        except urllib.error.HTTPError as e:
            return e.code, e.read()

    def wait_ready():
        for _ in range(100):
            try:
                if call("GET", "/version")[0] == 200:
                    return
            except OSError:
                time.sleep(0.1)

    def revision():
        _, body = call("GET", "/metrics")
        m = re.search(rb"kubesim_etcd_revision (\d+)", body)
        return int(m.group(1)) if m else 0

    try:
        wait_ready()
        watchers = [subprocess.Popen([a.kubectl, "get", "pods", "-A", "-w"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                    for _ in range(a.watchers)]
        time.sleep(2)
        start_rev, t0, peak, samples, last_sample = revision(), time.time(), 0.0, [], 0.0
        rounds = 0
        while revision() - start_rev < a.revisions:
            for i in range(a.deployments):
                d = {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": f"load-{i}"},
                     "spec": {"replicas": 1, "selector": {"matchLabels": {"app": f"load-{i}"}},
                              "template": {"metadata": {"labels": {"app": f"load-{i}"}}, "spec": {"containers": [{"name": "app", "image": "nginx:1.27"}]}}}}
                call("POST", "/apis/apps/v1/namespaces/default/deployments", d)
                if time.time() - last_sample >= 1:
                    samples.append(rss_mb(server.pid)[0])
                    last_sample = time.time()
            time.sleep(1)
            for i in range(a.deployments):
                call("DELETE", f"/apis/apps/v1/namespaces/default/deployments/load-{i}")
                if time.time() - last_sample >= 1:
                    samples.append(rss_mb(server.pid)[0])
                    last_sample = time.time()
            rounds += 1
            print(f"round {rounds}: {revision() - start_rev} revisions, RSS {rss_mb(server.pid)[0]:.0f} MB", file=sys.stderr)
        revs = revision() - start_rev
        rss, hwm = rss_mb(server.pid)
        alive = sum(1 for w in watchers if w.poll() is None)
        print(f"FIGURE serve with {a.watchers} kubectl watchers ({alive} still watching) over {revs} revisions "
              f"({rounds} rounds of {a.deployments} Deployments created and deleted, {time.time() - t0:.0f} s): "
              f"RSS now {rss:.0f} MB, peak {hwm:.0f} MB (bound 300 MB: {'met' if hwm <= 300 else 'NOT MET'}); "
              f"sampled max {max(samples or [0]):.0f} MB")
        for w in watchers:
            w.terminate()
        # the list figure on a fresh, quiet server (clock frozen) holding exactly that many Events
        server.terminate()
        server.wait()
        server = subprocess.Popen([a.bin, "serve", "--addr", f"127.0.0.1:{port}", "--speed", "0", "--kubeconfig-out", kubeconfig],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_ready()
        for i in range(a.events):
            ev = {"apiVersion": "v1", "kind": "Event", "metadata": {"name": f"load.{i:05d}", "namespace": "default"},
                  "involvedObject": {"kind": "Pod", "namespace": "default", "name": f"p-{i}"},
                  "reason": "Load", "message": f"event {i}", "type": "Normal", "count": 1,
                  "firstTimestamp": "2026-01-01T00:00:00Z", "lastTimestamp": "2026-01-01T00:00:00Z", "source": {"component": "load"}}
            call("POST", "/api/v1/namespaces/default/events", ev)
        _, body = call("GET", "/api/v1/events?limit=1")
        total = json.loads(body)["metadata"].get("remainingItemCount", 0) + 1
        assert total >= a.events, total  # and the few of the bootstrap
        times = []
        for _ in range(5):
            t = time.time()
            out = subprocess.run([a.kubectl, "get", "events", "-A"], env=env, capture_output=True)
            times.append(time.time() - t)
            assert out.returncode == 0, out.stderr
        # the server's part: the pages kubectl asks for (limit=500, a Table each), back to back
        table = {"Accept": "application/json;as=Table;v=v1;g=meta.k8s.io,application/json"}
        served, pages = [], 0
        for _ in range(5):
            t, cont, pages = time.time(), "", 0
            while True:
                _, body = call("GET", "/api/v1/events?limit=500" + (f"&continue={cont}" if cont else ""), headers=table)
                pages += 1
                cont = json.loads(body)["metadata"].get("continue", "")
                if not cont:
                    break
            served.append(time.time() - t)
        whole = []
        for _ in range(5):
            t = time.time()
            call("GET", "/api/v1/events")
            whole.append(time.time() - t)
        unchunked = []
        for _ in range(3):
            t = time.time()
            subprocess.run([a.kubectl, "get", "events", "-A", "--chunk-size=0"], env=env, capture_output=True)
            unchunked.append(time.time() - t)
        best = min(served) * 1000
        print(f"FIGURE kubectl get events -A with {total} Events: the server answers its {pages} pages (limit=500, Table) in "
              f"{best:.0f} ms (bound 200 ms: {'met' if best <= 200 else 'NOT MET'}); the whole list in one response {min(whole) * 1000:.0f} ms; "
              f"real kubectl end to end {min(times) * 1000:.0f} ms (its client-side limiter, 5 QPS after a burst of 10, spaces pages 11-{pages} "
              f"200 ms apart against any server), with --chunk-size=0 {min(unchunked) * 1000:.0f} ms; {len(out.stdout.splitlines()) - 1} rows printed")
    finally:
        server.terminate()


if __name__ == "__main__":
    main()
