// Seed 000 in the page (run by run.mjs; also alone: `node tests/e2e/audit.mjs`): apply the post's
// nginx Deployment, play to the end, then ask the Audit panel the post's four CloudWatch Logs
// Insights questions in its query box and check the rows the post shows: kubectl creates the
// Deployment, the deployment controller the ReplicaSet, the replicaset controller the Pod and the
// scheduler its Binding. Also: a malformed query shows its error under the box, the filters narrow
// the log, the audit policy opens, and the panel is screenshot at 1400 and 375 px
// (docs/screenshot-audit.png, docs/screenshot-audit-375.png).
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const SEED_000 = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: nginx
spec:
  replicas: 1
  selector:
    matchLabels:
      app: nginx
  template:
    metadata:
      labels:
        app: nginx
    spec:
      containers:
      - name: nginx
        image: nginx:1.27
`;

const FIELDS = "fields @timestamp, requestURI, verb, requestObject.kind, objectRef.name, user.username, userAgent";
const query = (resource, extra = "") =>
  `${FIELDS}\n| filter @logStream like /^kube-apiserver-audit/\n| filter objectRef.resource == "${resource}"\n| filter verb == "create"\n${extra}| sort @timestamp desc`;
export const QUERIES = [query("deployments"), query("replicasets"), query("pods"), query("pods", '| filter user.username == "system:kube-scheduler"\n')];

// The results table as objects keyed by column.
async function results(p) {
  return p.evaluate(() => {
    const t = document.querySelector("#audit-query-results");
    if (!t) return [];
    const cols = [...t.querySelectorAll("thead th")].map((th) => th.textContent);
    return [...t.querySelectorAll("tbody tr")].map((tr) => Object.fromEntries([...tr.children].map((td, i) => [cols[i], td.textContent])));
  });
}

async function runQuery(p, text) {
  await p.fill("#audit-query", text);
  await p.click("#audit-query-run");
  await p.waitForSelector("#audit-query-summary, #audit-query-error", { timeout: 10000 });
}

export async function audit({ browser, url, check, assert, errors, shots }) {
  const ctx = await browser.newContext({ viewport: { width: 1400, height: 1000 }, locale: "en-US" });
  const p = await ctx.newPage();
  p.on("pageerror", (e) => errors.push(String(e)));
  try {
    await check("seed 000: apply the post's Deployment and play to the end", async () => {
      await p.goto(url);
      await p.waitForSelector("#editor-text", { timeout: 20000 });
      await p.fill("#editor-text", SEED_000);
      await p.click("#apply");
      await p.waitForSelector(".editor-status.ok", { timeout: 20000 });
      await p.selectOption("#speed", "8");
      const total = await p.evaluate(() => +/(\d+)\s*\/\s*(\d+)/.exec(((c) => c.dataset.pos + " / " + c.dataset.len)(document.querySelector("#counter")))[2]);
      if ((await p.getAttribute("#play", "aria-label")) === "Play") await p.click("#play");
      await p.waitForFunction((n) => /(\d+)\s*\/\s*(\d+)/.exec(((c) => c.dataset.pos + " / " + c.dataset.len)(document.querySelector("#counter")))[1] == n, total, { timeout: 120000, polling: 200 });
    });

    await check("Audit panel: the post's four Logs Insights queries return the post's rows", async () => {
      await p.click("#tab-audit");
      await p.click("#audit-insights > summary");
      const pre = await p.locator("#audit-query").inputValue();
      assert(pre === QUERIES[0], "the box is not prefilled with seed 000's first query: " + pre);
      await runQuery(p, QUERIES[0]);
      let rows = await results(p);
      // newest first: the post's Deployment, then ingress-nginx's, metrics-server's and CoreDNS's,
      // which the cluster's bootstrap applied as the add-ons' manifests do (the log holds
      // everything since the cluster started)
      assert(rows.length === 4 && rows[1]["objectRef.name"] === "ingress-nginx-controller" && rows[2]["objectRef.name"] === "metrics-server" && rows[3]["objectRef.name"] === "coredns", "deployments: " + JSON.stringify(rows));
      assert(rows[0]["requestObject.kind"] === "Deployment" && rows[0]["objectRef.name"] === "nginx" && rows[0]["user.username"] === "kubernetes-admin", JSON.stringify(rows[0]));
      assert(rows[0].requestURI.startsWith("/apis/apps/v1/namespaces/default/deployments?fieldManager=kubectl-client-side-apply&fieldValidation=Strict"), rows[0].requestURI);
      assert(/^kubectl\/v1\.34/.test(rows[0].userAgent) && /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}$/.test(rows[0]["@timestamp"]), JSON.stringify(rows[0]));

      await runQuery(p, QUERIES[1]);
      rows = await results(p);
      const addon = (r) => r["objectRef.name"].startsWith("coredns-") || r["objectRef.name"].startsWith("metrics-server-") || r["objectRef.name"].startsWith("ingress-nginx-controller-");
      assert(rows.length === 4 && rows[0]["requestObject.kind"] === "ReplicaSet" && rows[0]["user.username"] === "system:serviceaccount:kube-system:deployment-controller" && rows.slice(1).every(addon), JSON.stringify(rows));
      const rs = rows[0]["objectRef.name"];
      assert(/^nginx-[a-z0-9]+$/.test(rs), rs);

      await runQuery(p, QUERIES[2]);
      rows = await results(p);
      // the post's Pod (its binding, then its create), then the add-ons' four Pods from bootstrap
      assert(rows.length === 10, "pods: " + JSON.stringify(rows));
      assert(rows[0]["requestObject.kind"] === "Binding" && rows[0]["user.username"] === "system:kube-scheduler" && rows[0]["objectRef.name"].startsWith(rs + "-"), JSON.stringify(rows[0]));
      assert(rows[1]["requestObject.kind"] === "Pod" && rows[1]["user.username"] === "system:serviceaccount:kube-system:replicaset-controller" && rows[1]["objectRef.name"] === "", JSON.stringify(rows[1]));
      const pod = rows[0]["objectRef.name"];

      await runQuery(p, QUERIES[3]);
      rows = await results(p);
      assert(rows.length === 5 && rows[0]["requestObject.kind"] === "Binding" && rows[0]["objectRef.name"] === pod && rows[0].requestURI.endsWith(`/pods/${pod}/binding`) && rows.slice(1).every(addon), JSON.stringify(rows));
      const summary = await p.locator("#audit-query-summary").textContent();
      assert(/Showing 5 of 5 records matched/.test(summary), summary);
      await p.screenshot({ path: path.join(shots, "screenshot-audit.png"), fullPage: false });
    });

    await check("Audit panel: a malformed query shows where it is wrong, as text", async () => {
      await runQuery(p, "fields verb\n| filter verb == <img src=x onerror=window.__xss=1>");
      const err = await p.locator("#audit-query-error").textContent();
      assert(err.includes("unexpected symbol found < at line 2 and position 17"), err);
      assert((await p.locator("#audit-query-error img").count()) === 0 && !(await p.evaluate(() => window.__xss)), "markup ran");
      assert((await p.locator("#audit-query-results").count()) === 0, "old results still shown");
      await runQuery(p, "fields verb | stats count(*) by verb");
      assert((await p.locator("#audit-query-error").textContent()).includes("does not implement `stats`"), "stats");
    });

    await check("Audit panel: filters narrow the log; the policy and the new columns show", async () => {
      await p.click("#audit-insights > summary");
      const all = await p.locator("#audit-table tbody tr").count();
      await p.selectOption("#audit-resource", "pods");
      await p.selectOption("#audit-verb", "create");
      const rows = await p.locator("#audit-table tbody tr").allTextContents();
      assert(rows.length === 2 && all > rows.length, `${all} → ${JSON.stringify(rows)}`);
      assert(rows.some((r) => r.includes("Binding") && r.includes("RequestResponse")) && rows.some((r) => r.includes("Pod")), JSON.stringify(rows));
      const head = await p.locator("#audit-table thead th").allTextContents();
      assert(["name", "kind", "level"].every((h) => head.includes(h)), head.join("|"));
      assert((await p.getAttribute("#audit-table thead th[title]", "title")) === "requestObject.kind", "the kind column's title");
      await p.selectOption("#audit-user", "kubernetes-admin");
      assert((await p.locator("#audit-nomatch").count()) === 1, "no match note");
      await p.selectOption("#audit-resource", "");
      await p.selectOption("#audit-verb", "");
      await p.selectOption("#audit-user", "");
      assert((await p.locator("#audit-table tbody tr").count()) === all, "filters reset");
      await p.click("#audit-policy > summary");
      const yaml = await p.locator("#audit-policy-yaml").textContent();
      assert(yaml.startsWith("apiVersion: audit.k8s.io/v1\nkind: Policy\n") && yaml.includes("- level: RequestResponse"), yaml.slice(0, 200));
      await p.click("#audit-policy > summary");
    });

    await check("Audit panel screenshots with results, 1400 and 375 px", async () => {
      for (const [width, file] of [[1400, "screenshot-audit.png"], [375, "screenshot-audit-375.png"]]) {
        await p.setViewportSize({ width, height: width < 500 ? 900 : 1000 });
        await p.locator("#audit-insights").evaluate((d) => d.open || d.querySelector("summary").click());
        await runQuery(p, QUERIES[2]);
        // the panel scrolled so that the query's last line, the summary and the rows show
        await p.locator("#panel-body").evaluate((b) => { b.scrollTop = document.querySelector("#audit-query-run").offsetTop - b.offsetTop - 60; });
        await p.locator(".panels").scrollIntoViewIfNeeded();
        await p.locator(".panels").screenshot({ path: path.join(shots, file) });
        const overflow = await p.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        assert(overflow <= 1, `the page scrolls sideways by ${overflow} px at ${width} px`);
      }
    });
  } finally {
    await ctx.close();
  }
}

// alone: `node tests/e2e/audit.mjs` serves dist/ and runs only these checks
if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const { runAlone } = await import("./serve.mjs");
  await runAlone("audit", audit);
}
