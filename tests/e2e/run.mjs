// End-to-end test of the sandbox page: serves the built dist/ under a subpath on 127.0.0.1 with
// node's http module and drives Debian's Chromium through playwright-core.
//
//   trunk build --release --offline && node tests/e2e/run.mjs
//
// Checks: the page loads; Apply of seed 004's Deployment plays to the end; the Objects panel shows
// three Running pods and the Events panel Scheduled and Started events; stepping back returns to a
// state with fewer pods; keyboard control; an Apply error lands on its line; the language switch;
// a shared link reopens the very same state; the rollback preset plays to its end and the Rollout
// tab shows the reused ReplicaSet; hostile input (hostile.mjs: XSS payloads stay text, huge and
// malformed links are refused, a 2 MB paste stays bounded); the embed in a blog page (embed.mjs: the
// poster under 30 KiB, Play, the iframe's height, 700 and 375 px columns); seed 000's audit
// questions in the Audit panel's Logs Insights box (audit.mjs). Saves
// docs/screenshot-{default,embed,ko}.png, docs/screenshot-embed-{700,375-ko}.png,
// docs/screenshot-link-refused{,-375}.png and docs/screenshot-audit{,-375}.png.
// Env: KUBESIM_DIST (dist/), CHROMIUM (/usr/bin/chromium), SHOTS (docs/), E2E_HEADFUL=1.
import fs from "node:fs";
import path from "node:path";
import { chromium } from "playwright-core";
import { serve, chromeArgs, watchPanics, consoleRunner } from "./serve.mjs";
import { perf } from "./perf.mjs";
import { hostile } from "./hostile.mjs";
import { embed } from "./embed.mjs";
import { audit } from "./audit.mjs";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../..");
const dist = process.env.KUBESIM_DIST ?? path.join(root, "dist");
const shots = process.env.SHOTS ?? path.join(root, "docs");
const executablePath = process.env.CHROMIUM ?? "/usr/bin/chromium";
const base = "/some/sub/path/"; // dist/ must work from a subpath

const SEED = fs.readFileSync(path.join(root, "src/ui/presets.rs"), "utf8").split('pub const SEED_004: &str = "')[1].split('";')[0];

let passed = 0, failed = 0;
async function check(name, fn) {
  // KUBESIM_E2E_ONLY=regex runs only the checks whose name matches (a developer's loop; CI runs all)
  if (process.env.KUBESIM_E2E_ONLY && !new RegExp(process.env.KUBESIM_E2E_ONLY).test(name)) return;
  const t0 = Date.now();
  try {
    await fn();
    passed++;
    console.log(`ok   ${name} (${Date.now() - t0} ms)`);
  } catch (e) {
    failed++;
    console.log(`FAIL ${name}: ${e && e.stack ? e.stack.split("\n").slice(0, 3).join(" | ") : e}`);
  }
}
function assert(cond, msg) { if (!cond) throw new Error(msg); }

/** Picks the preset whose title starts with `title` and applies it. */
const applyPreset = async (page, title) => {
  const idx = await page.locator("select.preset option").evaluateAll((os, t) => os.findIndex((o) => o.textContent.startsWith(t)) - 1, title);
  assert(idx >= 0, "no preset " + title);
  await page.selectOption("select.preset", String(idx));
  await page.click("#apply");
};
const counter = async (page) => {
  const c = page.locator("#counter");
  return { pos: +(await c.getAttribute("data-pos")), total: +(await c.getAttribute("data-len")) };
};
const objectsText = async (page) => {
  await page.click("#tab-objects");
  return page.locator("#objects-out").textContent();
};
const countRunning = (text) => text.split("\n").filter((l) => l.startsWith("pod/") && / Running /.test(l)).length;
const countPods = (text) => text.split("\n").filter((l) => l.startsWith("pod/")).length;

const server = await serve(dist, base);
const url = `http://127.0.0.1:${server.address().port}${base}`;
const browser = await chromium.launch({ executablePath, headless: !process.env.E2E_HEADFUL, args: chromeArgs });
fs.mkdirSync(shots, { recursive: true });
const errors = [];
watchPanics(browser, errors);
try {
  const ctx = await browser.newContext({ viewport: { width: 1440, height: 1000 }, locale: "en-US" });
  const page = await ctx.newPage();
  page.on("pageerror", (e) => errors.push(String(e)));

  await check("page loads from a subpath with the seed manifest in the editor", async () => {
    await page.goto(url);
    await page.waitForSelector("#editor-text", { timeout: 20000 });
    const text = await page.locator("#editor-text").inputValue();
    assert(text.includes("name: nginx-deployment") && text.includes("image: nginx:1.14.2"), "editor holds " + text.slice(0, 80));
    assert((await page.locator("svg.diagram").count()) === 1, "no diagram");
  });

  await check("Apply prints kubectl's output and starts the timeline", async () => {
    await page.click("#apply");
    await page.waitForSelector(".editor-status.ok", { timeout: 10000 });
    const out = await page.locator(".editor-status .kubectl-out").textContent();
    assert(out.trim() === "deployment.apps/nginx-deployment created", out);
    const c = await counter(page);
    assert(c.total > 100 && c.pos >= 1, JSON.stringify(c));
  });

  await check("plays to the end at 8x: three Running pods, Scheduled and Started events", async () => {
    await page.selectOption("#speed", "8");
    const { total } = await counter(page);
    if ((await page.getAttribute("#play", "aria-label")) === "Play") await page.click("#play");
    await page.waitForFunction((n) => /(\d+)\s*\/\s*(\d+)/.exec(((c) => c.dataset.pos + " / " + c.dataset.len)(document.querySelector("#counter")))[1] == n, total, { timeout: 120000, polling: 200 });
    const objs = await objectsText(page);
    assert(countRunning(objs) === 3, "running pods: " + objs);
    assert(/deployment\.apps\/nginx-deployment\s+3\/3/.test(objs), "deployment not 3/3: " + objs);
    await page.click("#tab-events");
    const ev = await page.locator("#events-out").textContent();
    assert(/\bScheduled\b/.test(ev) && /\bStarted\b/.test(ev) && /\bPulled\b/.test(ev), ev);
    assert((await page.locator(".diagram .chip.ready").count()) === 3, "three ready chips");
  });

  await check("story level: seed 004 in under 40 steps, every chapter of the chain, a closing summary", async () => {
    const story = await page.locator("#level-story").textContent();
    const n = +/(\d+)/.exec(story)[1];
    assert(n < 40 && n > 15, "story steps: " + story);
    await page.selectOption("#jump", "chapter");
    await page.locator("#timeline").fill("0");
    const titles = [];
    for (let i = 0; i < 20 && !(await page.locator("#jump-next").isDisabled()); i++) {
      const before = (await counter(page)).pos;
      await page.click("#jump-next");
      if ((await counter(page)).pos === before) break;
      titles.push(await page.locator("#chapter").textContent());
    }
    const want = ["kubectl → kube-apiserver → etcd", "The deployment controller", "The replicaset controller", "The scheduler binds", "The kubelets run", "Status flows back"];
    for (const w of want) assert(titles.some((t) => t.includes(w)), `chapter "${w}" missing: ${titles.join(" | ")}`);
    assert(titles.length === want.length && titles.every((t, i) => t.includes(want[i])), "chapters in order: " + titles.join(" | "));
    const { total } = await counter(page);
    await page.locator("#timeline").fill(String(total));
    const sum = await page.locator("#summary").textContent();
    assert(/3 Pods Running on node-1, node-2, node-3 after [\d.]+ ?m?s of cluster time; \d+ messages; \d+ etcd writes; \d+ Events\./.test(sum), sum);
  });

  await check("Events in watch order: seed 004's 19 lines, ScalingReplicaSet first", async () => {
    await page.click("#tab-events");
    await page.click("#events-watch");
    const lines = (await page.locator("#events-out").textContent()).trim().split("\n");
    assert(lines[0].startsWith("LAST SEEN"), lines[0]);
    const reasons = lines.slice(1).map((l) => l.split(/\s+/)[2]);
    assert(reasons.length === 19 && reasons[0] === "ScalingReplicaSet", reasons.join(","));
    const seed = ["ScalingReplicaSet", "SuccessfulCreate", "Scheduled", "Pulling", "Pulled", "Created", "Started"];
    const counts = Object.fromEntries(seed.map((r) => [r, reasons.filter((x) => x === r).length]));
    assert(JSON.stringify(counts) === JSON.stringify({ ScalingReplicaSet: 1, SuccessfulCreate: 3, Scheduled: 3, Pulling: 3, Pulled: 3, Created: 3, Started: 3 }), JSON.stringify(counts));
    await page.click("#events-list");
  });

  await check("step back returns to a state with fewer pods, instantly", async () => {
    await page.click("#level-all");
    const { total } = await counter(page);
    await page.click("#step-back");
    assert((await counter(page)).pos === total - 1, "one step back");
    // scrub to the etcd write of the third Pod (the second of a slow-start batch of two, sent
    // together), then step back over it: the first step at which three Pods exist
    let at = 0;
    let objs = "";
    for (let s = 10; s < Math.min(total, 120); s++) {
      await page.locator("#timeline").fill(String(s));
      objs = await objectsText(page);
      if (countPods(objs) >= 3) {
        at = s;
        break;
      }
    }
    assert(at > 0 && countPods(objs) === 3, "no step with three Pods: " + objs);
    const t0 = Date.now();
    await page.click("#step-back");
    objs = await page.locator("#objects-out").textContent();
    const ms = Date.now() - t0;
    assert(countPods(objs) === 2, "after stepping back: " + objs);
    assert((await page.locator(".diagram .chip").count()) === 2, "two chips in the diagram");
    console.log(`     (step back ${at} -> ${at - 1}: 3 -> 2 pods, ${ms} ms from click to updated panel)`);
  });

  await check("keyboard: space plays and pauses, arrows step (not while typing)", async () => {
    await page.locator("#timeline").fill("10");
    await page.locator("h2#narr-title").evaluate(() => document.activeElement && document.activeElement.blur());
    await page.keyboard.press("ArrowRight");
    assert((await counter(page)).pos === 11, "ArrowRight");
    await page.keyboard.press("ArrowLeft");
    assert((await counter(page)).pos === 10, "ArrowLeft");
    await page.keyboard.press(" ");
    assert((await page.getAttribute("#play", "aria-label")) === "Pause", "space did not play");
    await page.keyboard.press(" ");
    assert((await page.getAttribute("#play", "aria-label")) === "Play", "space did not pause");
    const pos = (await counter(page)).pos;
    await page.focus("#console-in");
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press(" ");
    assert((await counter(page)).pos === pos, "arrow in the console moved the timeline");
    assert((await page.getAttribute("#play", "aria-label")) === "Play", "space in the console played");
    await page.fill("#console-in", "");
  });

  await check("console runs kubectl with the same interpreter and history", async () => {
    await page.fill("#console-in", "kubectl get deploy nginx-deployment");
    await page.press("#console-in", "Enter");
    await page.waitForFunction(() => /nginx-deployment\s+3\/3/.test(document.querySelector("#console-out").textContent));
    await page.press("#console-in", "ArrowUp");
    assert((await page.inputValue("#console-in")) === "kubectl get deploy nginx-deployment", "history");
    await page.fill("#console-in", "");
    await page.click("#play"); // pause the console's steps
  });

  await check("an Apply error shows kubectl's message at its line", async () => {
    const bad = SEED.replace("  replicas: 3\n", "  replicas: -1\n");
    await page.fill("#editor-text", bad);
    await page.click("#apply");
    await page.waitForSelector(".err-msg", { timeout: 5000 });
    const msg = await page.locator(".err-msg").first().textContent();
    assert(msg.includes("line 8, column 3") && msg.includes('The Deployment "nginx-deployment" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0'), msg);
    assert((await page.locator(".ln.bad").textContent()) === "8", "gutter mark");
    const yamlBad = SEED.replace("  labels:\n    app: nginx\n", "  labels: app: nginx\n");
    await page.fill("#editor-text", yamlBad);
    await page.click("#apply");
    const m2 = await page.locator(".err-msg").first().textContent();
    assert(m2.includes("error: error parsing STDIN: error converting YAML to JSON: yaml: line 5: mapping values are not allowed in this context"), m2);
    await page.fill("#editor-text", SEED);
  });

  await check("a shared link reopens exactly the same state", async () => {
    await page.locator("#timeline").fill("150");
    const want = await counter(page);
    const wantObjs = await objectsText(page);
    await page.click("text=Share");
    const link = await page.inputValue("#share-link");
    const snippet = await page.inputValue("#share-iframe");
    assert(link.startsWith(url) && link.includes("#s=1&") && link.includes("&t=150"), link);
    assert(snippet.startsWith("<iframe src=\"" + url + "?embed#"), snippet);
    await page.keyboard.press("Escape");
    const other = await browser.newContext({ viewport: { width: 1440, height: 1000 } });
    const p2 = await other.newPage();
    p2.on("pageerror", (e) => errors.push(String(e)));
    await p2.goto(link);
    await p2.waitForSelector("#counter");
    const got = await counter(p2);
    assert(got.pos === want.pos && got.total === want.total, JSON.stringify({ want, got }));
    assert((await objectsText(p2)) === wantObjs, "objects differ");
    assert((await p2.locator("#console-out").textContent()).includes("kubectl get deploy nginx-deployment"), "console replayed");
    await other.close();
  });

  await check("language switch: Korean UI and narration; default follows the browser", async () => {
    await page.click(".lang button[lang=ko]");
    assert((await page.locator("#apply").textContent()).includes("적용"), "apply label");
    assert((await page.locator(".narr-text").textContent()).match(/[가-힣]/), "narration not Korean");
    assert((await page.getAttribute("html", "lang")) === "ko", "html lang");
    const ko = await browser.newContext({ viewport: { width: 1440, height: 1000 }, locale: "ko-KR" });
    const p3 = await ko.newPage();
    await p3.goto(url);
    await p3.waitForSelector("#apply");
    assert((await p3.locator("#tab-events").textContent()) === "이벤트", "ko browser default");
    await ko.close();
  });

  await check("screenshots: default, Korean, embed", async () => {
    // each from a fresh page: Apply, pause, go to an instructive step
    const fresh = async (locale, step, tab) => {
      const c = await browser.newContext({ viewport: { width: 1440, height: 1000 }, locale });
      const p = await c.newPage();
      p.on("pageerror", (e) => errors.push(String(e)));
      await p.goto(url);
      await p.waitForSelector("#apply");
      await p.click("#apply");
      await p.click("#play");
      await p.locator("#timeline").fill(String(step));
      await p.click("#tab-" + tab);
      await p.locator("#timeline").focus();
      await p.waitForTimeout(500);
      return [c, p];
    };
    // step 233: two Pods Running, one still ContainerCreating; a watch event reaches the replicaset controller
    let [c, p] = await fresh("en-US", 233, "objects");
    await p.screenshot({ path: path.join(shots, "screenshot-default.png"), fullPage: true });
    const link = await (async () => { await p.click("text=Share"); const l = await p.inputValue("#share-link"); await p.keyboard.press("Escape"); return l; })();
    await c.close();
    // step 107: the scheduler binds the third Pod; the Scheduler tab shows its filter and score table
    [c, p] = await fresh("ko-KR", 107, "scheduler");
    assert((await p.locator("#tab-scheduler").textContent()) === "스케줄러", "Korean UI");
    await p.screenshot({ path: path.join(shots, "screenshot-ko.png"), fullPage: true });
    await c.close();
    const embedUrl = link.replace(url, url + "?embed");
    const e = await browser.newContext({ viewport: { width: 960, height: 640 } });
    const p4 = await e.newPage();
    await p4.goto(embedUrl);
    // the poster first (embed.mjs checks it in a blog page); Play mounts the page and plays
    await p4.waitForSelector("#poster-play");
    await p4.click("#poster-play");
    await p4.waitForSelector(".page.embed #counter");
    await p4.click("#play");
    assert((await p4.locator(".panels").count()) === 0 && (await p4.locator("#editor-text").count()) === 0, "embed shows panels or editor");
    await p4.click("text=Show the manifest");
    assert((await p4.locator("#editor-text").count()) === 1, "embed editor does not open");
    await p4.click("text=Hide the manifest");
    await p4.waitForTimeout(400);
    await p4.screenshot({ path: path.join(shots, "screenshot-embed.png"), fullPage: true });
    await e.close();
  });

  await check("the packet travels along its edge (requestAnimationFrame)", async () => {
    const c = await browser.newContext({ viewport: { width: 1200, height: 900 } });
    const p = await c.newPage();
    await p.goto(url);
    await p.waitForSelector("#apply");
    await p.click("#apply");
    await p.click("#play");
    await p.click("#level-all");
    // step 70: the API server writes the binding to etcd
    await p.locator("#timeline").fill("69");
    await p.click("#step-fwd");
    const seen = new Set();
    for (let i = 0; i < 8; i++) {
      seen.add(await p.getAttribute(".diagram .packet", "transform"));
      await p.waitForTimeout(60);
    }
    assert(seen.size >= 4, "packet positions: " + [...seen].join(" | "));
    assert((await p.locator(".diagram .edge.on").count()) === 1, "the message's edge is highlighted");
    await c.close();
  });

  await check("prefers-reduced-motion: packets do not travel, steps still advance", async () => {
    const c = await browser.newContext({ viewport: { width: 1200, height: 900 }, reducedMotion: "reduce" });
    const p = await c.newPage();
    p.on("pageerror", (e) => errors.push(String(e)));
    await p.goto(url);
    await p.waitForSelector("#apply");
    await p.click("#apply");
    await p.click("#play");
    await p.click("#step-fwd");
    const a = await p.getAttribute(".diagram .packet", "transform");
    await p.waitForTimeout(300);
    const b = await p.getAttribute(".diagram .packet", "transform");
    assert(a === b, `packet moved: ${a} -> ${b}`);
    const anim = await p.evaluate(() => getComputedStyle(document.querySelector(".diagram .hl-to")).animationName);
    assert(anim === "none", "animation " + anim);
    await p.click("#play");
    await p.waitForTimeout(2500);
    await p.click("#play");
    assert((await counter(p)).pos >= 4, "did not advance");
    await c.close();
  });

  await check("rollback preset plays to its end: the Rollout tab shows the old ReplicaSet reused as revision 3", async () => {
    const c = await browser.newContext({ viewport: { width: 1200, height: 900 }, locale: "en-US" });
    const p = await c.newPage();
    p.on("pageerror", (e) => errors.push(String(e)));
    await p.goto(url);
    await p.waitForSelector("#apply");
    const idx = await p.locator("select.preset option").evaluateAll((os) => os.findIndex((o) => o.textContent === "A bad release and rollout undo") - 1);
    assert(idx >= 0, "no rollback preset");
    await p.selectOption("select.preset", String(idx));
    await p.click("#apply");
    // a script's transcript goes to the console
    await p.waitForFunction(() => document.querySelector("#console-out").textContent.includes("rollout history"), null, { timeout: 60000 });
    const out = await p.locator("#console-out").textContent();
    assert(out.includes("deployment.apps/nginx-deployment rolled back"), "no rollback in: " + out.slice(0, 400));
    assert(out.includes("error: timed out waiting for the condition"), "the bad release did not stall: " + out.slice(0, 400));
    const { total } = await counter(p);
    await p.selectOption("#speed", "8");
    await p.locator("#timeline").fill(String(total));
    await p.click("#tab-rollout");
    const rows = await p.locator("#rollout-view .rs-row").allTextContents();
    assert(rows.length === 3, "rows: " + JSON.stringify(rows));
    assert(/revision 3 · new/.test(rows[0]) && /nginx:1\.14\.2/.test(rows[0]) && /desired 3 · current 3 · ready 3 · available 3/.test(rows[0]), "new row: " + rows[0]);
    assert(/revision 2/.test(rows[1]) && /nginx:1\.99/.test(rows[1]) && /desired 0 · current 0/.test(rows[1]), "old row: " + rows[1]);
    assert(/3 Pods \(at most 4\) · 3 available \(at least 3\)/.test(rows[2]), "totals: " + rows[2]);
    // half-way back through the timeline the bad ReplicaSet holds a Pod that is not ready
    await p.locator("#timeline").fill(String(Math.round(total * 0.6)));
    const mid = await p.locator("#rollout-view").textContent();
    assert(/nginx:1\.99/.test(mid), "mid: " + mid.slice(0, 300));
    await c.close();
  });

  await check("Network partition preset: node-1 is drawn cut off and NotReady while its Pods keep running, then healed and Ready; the narration explains the cut", async () => {
    const c = await browser.newContext({ viewport: { width: 1400, height: 1000 }, locale: "en-US" });
    const p = await c.newPage();
    p.on("pageerror", (e) => errors.push(String(e)));
    await p.goto(url);
    await p.waitForSelector("#apply");
    const idx = await p.locator("select.preset option").evaluateAll((os) => os.findIndex((o) => o.textContent.startsWith("Network partition")) - 1);
    assert(idx >= 0, "no partition preset");
    await p.selectOption("select.preset", String(idx));
    await p.click("#apply");
    await p.waitForFunction(() => document.querySelector("#console-out").textContent.includes("involvedObject.kind=Node"), null, { timeout: 90000 });
    const out = await p.locator("#console-out").textContent();
    assert(/node-1\s+NotReady/.test(out) && /Terminating/.test(out) && /NodeReady/.test(out), "console: " + out.slice(-1200));
    const { total } = await counter(p);
    // find the partition fault by walking the timeline in coarse steps, then the cut node
    let cutAt = 0;
    for (let pos = 1; pos <= total; pos += Math.max(1, Math.floor(total / 40))) {
      await p.locator("#timeline").fill(String(pos));
      if ((await p.locator("svg.diagram g.node-cut").count()) > 0) { cutAt = pos; break; }
    }
    assert(cutAt > 0, "node-1 never drawn cut off");
    const cut = await p.locator("svg.diagram g.node-cut").textContent();
    assert(cut.includes("node-1") && cut.includes("network cut"), "cut node: " + cut);
    // its Pods are still drawn running on it
    assert((await p.locator("svg.diagram g.node-cut .chip").count()) >= 1, "no pod on the cut node");
    // at the end the node is healed: no cut, Ready
    await p.locator("#timeline").fill(String(total));
    await p.waitForTimeout(200);
    assert((await p.locator("svg.diagram g.node-cut").count()) === 0, "still cut at the end");
    const n1 = await p.locator("svg.diagram g.node").first().textContent();
    assert(n1.includes("node-1") && n1.includes("Ready") && !n1.includes("NotReady"), "node-1 at the end: " + n1);
    // the fault's own step narrates the cut
    await p.selectOption("#jump", { index: 0 });
    let said = "";
    for (let pos = cutAt; pos > 0 && pos > cutAt - 400; pos--) {
      await p.locator("#timeline").fill(String(pos));
      said = await p.locator(".narration").textContent();
      if (said.includes("network to the control plane is cut")) break;
    }
    assert(said.includes("network to the control plane is cut") && said.includes("keep running"), "narration: " + said.slice(0, 300));
    await c.close();
  });

  await check("\"expose nginx and curl it\": the request's hops are drawn, kube-proxy and the Service are on the diagram, the Network tab lists the rules", async () => {
    const c = await browser.newContext({ viewport: { width: 1400, height: 1000 }, locale: "en-US" });
    const p = await c.newPage();
    p.on("pageerror", (e) => errors.push(String(e)));
    await p.goto(url);
    await p.waitForSelector("#apply");
    const idx = await p.locator("select.preset option").evaluateAll((os) => os.findIndex((o) => o.textContent === "Network: expose nginx and curl it") - 1);
    assert(idx >= 0, "no network preset");
    await p.selectOption("select.preset", String(idx));
    await p.click("#apply");
    await p.waitForFunction(() => document.querySelector("#console-out").textContent.includes("Welcome to nginx!"), null, { timeout: 90000 });
    const { total } = await counter(p);
    await p.selectOption("#speed", "8");
    // the curl is the script's last data-path request: walk back to its hops, then over them
    const hops = [];
    let dnatPos = 0;
    for (let pos = total; pos > total - 60 && pos > 0; pos--) {
      await p.locator("#timeline").fill(String(pos));
      const pk = p.locator("svg.diagram g.packet");
      if ((await pk.count()) === 0) continue;
      const cls = await pk.getAttribute("class");
      if (!/\bnet\b/.test(cls)) {
        if (hops.length) break;
        continue;
      }
      const label = await pk.textContent();
      if (/^DNAT → 10\.244\.\d+\.\d+:80$/.test(label)) dnatPos = pos;
      hops.unshift(label);
      assert((await p.locator("svg.diagram .hl-from").count()) === 1 && (await p.locator("svg.diagram .hl-to").count()) === 1, "no highlighted ends at " + pos);
    }
    const seq = hops.join(" | ");
    assert(/^GET http:\/\/web:80\//.test(hops[0] || ""), "first hop: " + seq);
    assert(/DNAT → 10\.96\.0\.10|DNAT → 10\.244\.\d+\.\d+:53/.test(seq), "no DNS DNAT: " + seq);
    assert(/A web\.default\.svc\.cluster\.local\.\?/.test(seq) && /A 10\.\d+\.\d+\.\d+/.test(seq), "no DNS query/answer: " + seq);
    assert(/DNAT → 10\.244\.\d+\.\d+:80/.test(seq) && /TCP 10\.244\.\d+\.\d+:80 → web-/.test(seq), "no service hop: " + seq);
    assert(/HTTP\/1\.1 200$/.test(hops[hops.length - 1] || ""), "last hop: " + seq);
    // the network layer of the diagram
    assert((await p.locator("svg.diagram .comp.proxy").count()) === 3, "kube-proxy boxes");
    assert((await p.locator("svg.diagram .comp.dns").count()) === 1, "CoreDNS box");
    const svc = await p.locator("svg.diagram g.svc").allTextContents();
    assert(svc.some((t) => t.startsWith("Service default/web ") && /3\/3 ready/.test(t)), "services row: " + JSON.stringify(svc));
    await p.click("#tab-network");
    const rules = await p.locator("#network-rules").textContent();
    assert(/-m statistic --mode random --probability 0\.33333333349/.test(rules), "rules: " + rules.slice(0, 300));
    const tables = await p.locator("#network-out").textContent();
    assert(/kube-system\s+service\/kube-dns\s+ClusterIP\s+10\.96\.0\.10/.test(tables), "tables: " + tables.slice(0, 400));
    // the picture: the request DNATed to a Pod, with the rules in the Network tab
    await p.locator("#timeline").fill(String(dnatPos));
    await p.waitForTimeout(200);
    await p.screenshot({ path: path.join(shots, "screenshot-network.png"), fullPage: true });
    await c.close();
  });

  await check("kubectl debug in the console: the ephemeral container's PATCH, the kubelet's pull, create and start are on the timeline; describe shows it", async () => {
    const c = await browser.newContext({ viewport: { width: 1400, height: 1000 }, locale: "en-US" });
    const p = await c.newPage();
    p.on("pageerror", (e) => errors.push(String(e)));
    await p.goto(url);
    await p.waitForSelector("#console-in");
    const run = consoleRunner(p);
    await run("kubectl run box --image=busybox:1.36 -- sleep 3600", "pod/box created");
    await run("sim settle", "settled at");
    await run("kubectl debug box --image=busybox:1.36 --target=box -- sleep 3600", "Defaulting debug container name to debugger-");
    await run("sim settle", "settled at");
    const { total } = await counter(p);
    const labels = [];
    for (let pos = total; pos > Math.max(0, total - 120); pos--) {
      await p.locator("#timeline").fill(String(pos));
      const pk = p.locator("svg.diagram g.packet");
      if ((await pk.count()) > 0) labels.unshift(await pk.textContent());
    }
    const seq = labels.join(" | ");
    assert(/PATCH pods\/box\/ephemeralcontainers|ephemeralcontainers/.test(seq), "no PATCH of pods/ephemeralcontainers: " + seq.slice(0, 600));
    assert(/StartContainer debugger-/.test(seq), "no StartContainer of the debug container: " + seq.slice(-600));
    await run("kubectl describe pod box", "Ephemeral Containers:");
    const out = await p.locator("#console-out").textContent();
    assert(/Ephemeral Containers:\s+debugger-\w{5}:/.test(out), "describe: " + out.slice(-1500));
    await p.screenshot({ path: path.join(shots, "screenshot-debug.png"), fullPage: true });
    await c.close();
  });

  await check("kubectl port-forward and curl in the console: the tunnel's hops through kube-apiserver, the kubelet and the runtime are on the timeline", async () => {
    const c = await browser.newContext({ viewport: { width: 1400, height: 1000 }, locale: "en-US" });
    const p = await c.newPage();
    p.on("pageerror", (e) => errors.push(String(e)));
    await p.goto(url);
    await p.waitForSelector("#console-in");
    const run = consoleRunner(p);
    await run("kubectl create deployment web --image=nginx:1.27", "deployment.apps/web created");
    await run("kubectl expose deployment web --port=80", "service/web exposed");
    await run("sim settle", "settled at");
    await run("kubectl port-forward svc/web 8080:80", "Forwarding from 127.0.0.1:8080 -> 80");
    await run("curl localhost:8080", "Welcome to nginx!");
    const out = await p.locator("#console-out").textContent();
    assert(/Handling connection for 8080/.test(out), "no port-forward line: " + out.slice(-800));
    const { total } = await counter(p);
    const labels = [];
    for (let pos = total; pos > Math.max(0, total - 12); pos--) {
      await p.locator("#timeline").fill(String(pos));
      const pk = p.locator("svg.diagram g.packet");
      if ((await pk.count()) > 0) labels.unshift(await pk.textContent());
    }
    const seq = labels.join(" | ");
    for (const hop of ["localhost:8080 → kubectl port-forward", "port-forward stream :80", "stream :80 → kubelet", "CRI PortForward 127.0.0.1:80", "HTTP/1.1 200"]) {
      assert(seq.includes(hop), "no hop " + hop + " on the timeline: " + seq);
    }
    await p.locator("#timeline").fill(String(total - 2));
    await p.screenshot({ path: path.join(shots, "screenshot-port-forward.png"), fullPage: true });
    await run("kubectl proxy", "Starting to serve on 127.0.0.1:8001");
    await run("curl -s localhost:8001/api/v1/namespaces/default/services/web", '"clusterIP"');
    await run("jobs", "kubectl proxy &");
    await c.close();
  });

  await check("kustomize in the page: a script writes a base and an overlay, apply -k builds them in the second module, loaded only then", async () => {
    const c = await browser.newContext({ viewport: { width: 1400, height: 1000 }, locale: "en-US" });
    const p = await c.newPage();
    p.on("pageerror", (e) => errors.push(String(e)));
    const lazy = [];
    p.on("request", (r) => { if (/kubesim_lazy/.test(r.url())) lazy.push(r.url()); });
    await p.goto(url);
    await p.waitForSelector("#apply");
    await p.waitForFunction(() => !document.querySelector("#apply").disabled, null, { timeout: 30000 });
    assert(lazy.length === 0, "the second module was fetched before it was needed: " + lazy.join(", "));
    const script = fs.readFileSync(path.join(root, "tests/scenarios/kustomize.sh"), "utf8");
    // the scenario up to its first apply -k, as a learner's script
    const upto = script.split("kubectl apply -k overlays/dev\n")[0] + "kubectl apply -k overlays/dev\nkubectl get cm -n dev\n";
    await p.locator("#editor-text").fill(upto);
    await p.click("#apply");
    await p.waitForFunction(() => document.querySelector("#console-out").textContent.includes("deployment.apps/dev-web created"), null, { timeout: 60000 });
    const out = await p.locator("#console-out").textContent();
    assert(/configmap\/dev-web-config-b47h9fmcbd created/.test(out), "the generated ConfigMap's name: " + out.slice(-1500));
    assert(/secret\/dev-db-bf5fk5d75b created/.test(out), "the generated Secret's name: " + out.slice(-1500));
    assert(lazy.some((u) => /kubesim_lazy_bg\.wasm/.test(u)), "the second module was not fetched: " + lazy.join(", "));
    // --help comes from the second module too
    await p.fill("#console-in", "kubectl port-forward --help");
    await p.press("#console-in", "Enter");
    await p.waitForFunction(() => document.querySelector("#console-out").textContent.includes("Listen on port 8888 on all addresses"), null, { timeout: 30000 });
    await c.close();
  });

  await check("the documentation's StatefulSet with a missing StorageClass settles at once: Pending with ProvisioningFailed and FailedScheduling, a short timeline", async () => {
    const c = await browser.newContext({ viewport: { width: 1400, height: 1000 }, locale: "en-US" });
    const p = await c.newPage();
    p.on("pageerror", (e) => errors.push(String(e)));
    await p.goto(url);
    await p.waitForSelector("#apply");
    const script = fs.readFileSync(path.join(root, "tests/scenarios/stuck_statefulset_docs.sh"), "utf8");
    // the manifest alone, as a learner pastes it from the documentation
    const manifest = script.split("kubectl apply -f - <<EOF\n")[1].split("\nEOF\n")[0] + "\n";
    await p.locator("#editor-text").fill(manifest);
    const t0 = Date.now();
    await p.click("#apply");
    await p.waitForSelector(".editor-status.ok", { timeout: 10000 });
    await p.waitForFunction(() => !document.querySelector("#apply").disabled, null, { timeout: 10000 });
    const ms = Date.now() - t0;
    const { total } = await counter(p);
    assert(total > 20 && total < 600, "timeline of " + total + " steps");
    await p.locator("#timeline").fill(String(total));
    const objs = await objectsText(p);
    assert(/pod\/web-0\s+0\/1\s+Pending/.test(objs), "objects: " + objs.slice(0, 600));
    assert(!/web-1/.test(objs), "web-1 created before web-0 was ready: " + objs.slice(0, 600));
    const sum = await p.locator("#summary").textContent();
    assert(/No Pod is Running; not Running: web-0 \(Pending\) after/.test(sum), "summary: " + sum);
    await p.click("#tab-events");
    const ev = await p.locator("#events-out").textContent();
    assert(/ProvisioningFailed/.test(ev) && /storageclass\.storage\.k8s\.io "my-storage-class" not found/.test(ev), "events: " + ev.slice(0, 600));
    assert(/FailedScheduling/.test(ev) && /pod has unbound immediate PersistentVolumeClaims/.test(ev), "events: " + ev.slice(0, 600));
    console.log(`     (Apply settled in ${ms} ms, ${total} steps)`);
    await c.close();
  });

  await check("ConfigMap preset: exec shows the env and the mounted file; after the edit and the kubelet's sync the file changes, the env does not", async () => {
    const c = await browser.newContext({ viewport: { width: 1400, height: 1000 }, locale: "en-US" });
    const p = await c.newPage();
    p.on("pageerror", (e) => errors.push(String(e)));
    await p.goto(url);
    await p.waitForSelector("#apply");
    const idx = await p.locator("select.preset option").evaluateAll((os) => os.findIndex((o) => o.textContent.startsWith("Configuration from a ConfigMap and a Secret")) - 1);
    assert(idx >= 0, "no configmap preset");
    await p.selectOption("select.preset", String(idx));
    await p.click("#apply");
    await p.waitForFunction(() => document.querySelector("#console-out").textContent.includes("mode=prod"), null, { timeout: 90000 });
    const out = await p.locator("#console-out").textContent();
    assert(/hello\s+s3cr3t/.test(out), "printenv: " + out.slice(0, 600));
    assert(/env: hello\s+file: hello[\s\S]*env: hello\s+file: bonjour/.test(out), "env and file after the edit: " + out.slice(-900));
    assert(/password:\s+6 bytes/.test(out) && !/password:\s+s3cr3t/.test(out), "describe secret shows sizes, never values: " + out.slice(0, 1200));
    await p.screenshot({ path: path.join(shots, "screenshot-configmap.png"), fullPage: true });
    await c.close();
  });

  await check("RBAC preset: jane's list is a 403 with its reason, allowed after the RoleBinding; kube-apiserver's box shows the decision; screenshots at 1400/700/375 px in English and Korean", async () => {
    for (const [lang, title] of [["en", "RBAC: a user who may only read"], ["ko", "RBAC: 읽기만 하는 사용자"]]) {
      for (const width of [1400, 700, 375]) {
        const c = await browser.newContext({ viewport: { width, height: 1000 }, locale: lang === "ko" ? "ko-KR" : "en-US" });
        const p = await c.newPage();
        p.on("pageerror", (e) => errors.push(String(e)));
        await p.goto(url);
        await p.waitForSelector("#apply");
        if (lang === "ko") await p.click(".lang button[lang=ko]");
        await applyPreset(p, title);
        await p.waitForFunction(() => document.querySelector("#console-out").textContent.includes("records matched"), null, { timeout: 90000 });
        const out = await p.locator("#console-out").textContent();
        assert(out.includes('pods is forbidden: User "jane" cannot list resource "pods" in API group "" in the namespace "default"'), "the 403: " + out.slice(0, 800));
        assert(/rolebinding.rbac.authorization.k8s.io\/jane-reads-pods created/.test(out) && /web-[a-z0-9]+-[a-z0-9]+\s+1\/1\s+Running/.test(out), "jane lists pods after the binding: " + out.slice(0, 1500));
        assert(/authorization.k8s.io\/decision: forbid/.test(out), "the audit decision: " + out.slice(-1500));
        if (width === 1400) {
          // a step where kube-apiserver refuses jane: the box shows the decision, the narration says why
          const { total } = await counter(p);
          let found = false;
          for (let pos = 1; pos <= total && !found; pos++) {
            await p.locator("#timeline").fill(String(pos));
            const sub = await p.locator(".diagram .sub.authz").allTextContents();
            if (sub.some((t) => t.includes("403"))) found = true;
          }
          assert(found, "no step shows the refusal on kube-apiserver's box in " + lang);
          await p.screenshot({ path: path.join(shots, `screenshot-rbac-${lang}-diagram.png`) });
        }
        await p.screenshot({ path: path.join(shots, `screenshot-rbac-${lang}-${width}.png`), fullPage: width !== 1400 });
        await c.close();
      }
    }
  });

  await check("the page as a learner meets it at 1400, 700 and 375 px in English and Korean: after Apply the diagram and narration are in view, positions speak the level's units, chapters by what a step does, the outcome at the end; screenshots", async () => {
    for (const [width, height] of [[1400, 900], [700, 900], [375, 740]]) {
      for (const lang of ["en", "ko"]) {
        const c = await browser.newContext({ viewport: { width, height }, locale: lang === "ko" ? "ko-KR" : "en-US" });
        const p = await c.newPage();
        p.on("pageerror", (e) => errors.push(String(e)));
        try {
          await p.goto(url + "#lang=" + lang);
          await p.waitForSelector("#apply");
          if (lang === "ko") assert((await p.locator("#apply").textContent()) === "적용", "Korean Apply: " + (await p.locator("#apply").textContent()));
          // before Apply the Play button is not the one that draws the eye
          const playBg = await p.locator("#play").evaluate((b) => getComputedStyle(b).backgroundColor);
          assert(playBg === "rgb(255, 255, 255)", "disabled Play is " + playBg);
          await p.click("#apply");
          await p.waitForSelector(".editor-status.ok");
          await p.waitForTimeout(1200);
          // in view: the diagram's top part and the first lines of the narration (the wide page
          // shows both side by side with the editor; a narrow page scrolls to them)
          const box = async (sel) => p.locator(sel).first().boundingBox();
          const dia = await box(".diagram-wrap");
          const narr = await box(".narr-text");
          assert(dia.y < height - 100 && dia.y + 80 > 0, `${width} ${lang}: the diagram is not in view: ${JSON.stringify(dia)}`);
          assert(narr.y >= -2 && narr.y < height - 30, `${width} ${lang}: the narration is not in view: ${JSON.stringify(narr)}`);
          const ctl = await box("#play");
          assert(ctl.y >= 0 && ctl.y + ctl.height <= height, `${width} ${lang}: Play is not reachable: ${JSON.stringify(ctl)}`);
          // a readable diagram: at least 0.9 px a unit
          const scale = await p.evaluate(() => document.querySelector("svg.diagram").getBoundingClientRect().width / 1000);
          assert(scale >= 0.89, `${width}: diagram at ${scale.toFixed(2)} px a unit`);
          // the page does not scroll sideways
          const over = await p.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
          assert(over <= 1, `${width} ${lang}: the page scrolls sideways by ${over} px`);
          // one notion of position
          const pos = await p.locator("#counter").textContent();
          assert(lang === "en" ? /^Story step \d+ of \d+ · message \d+ of \d+$/.test(pos) : /^이야기 \d+단계 중 \d+단계 · 메시지 \d+개 중 \d+번째$/.test(pos), "counter: " + pos);
          const step = await p.locator(".step-line").textContent();
          assert(!/#\d+/.test(step), "the step line still names a trace id: " + step);
          if (width === 1400) await p.screenshot({ path: path.join(shots, `screenshot-page-${width}-${lang}.png`) });
          else await p.screenshot({ path: path.join(shots, `screenshot-page-${width}-${lang}.png`) });
          // the binding's chapter is the scheduler's
          await p.click("#level-all");
          const total = +(await p.locator("#counter").getAttribute("data-len"));
          // the end: the outcome, in the page's language
          await p.locator("#timeline").fill(String(total));
          await p.waitForTimeout(200);
          const sum = await p.locator("#summary").textContent();
          assert(lang === "en" ? /after \d+\.\d s of cluster time/.test(sum) : /클러스터 시간 \d+\.\d초 뒤/.test(sum), "summary: " + sum);
          const counter = await p.locator("#counter").textContent();
          assert(counter.startsWith(lang === "en" ? "The outcome" : "결과"), "the end is the outcome: " + counter);
          const body = await p.locator("body").textContent();
          assert(!/node-\d 노드/.test(body), "Korean repeats 노드: " + (body.match(/.{20}node-\d 노드.{20}/) || [""])[0]);
          if (width < 1150) {
            const fit = await p.evaluate(() => { const w = document.querySelector(".diagram-wrap"); const s = document.querySelector("svg.diagram").getBoundingClientRect(); return [w.classList.contains("fit"), s.width, w.clientWidth]; });
            assert(fit[0] && fit[1] <= fit[2] + 1, "the end does not show every node: " + fit);
          }
          await p.screenshot({ path: path.join(shots, `screenshot-page-${width}-${lang}-end.png`), fullPage: width > 1000 });
        } finally {
          await c.close();
        }
      }
    }
  });

  await check("too big: Pods stay Pending and the outcome says why in the scheduler's words, with a button to that step", async () => {
    const c = await browser.newContext({ viewport: { width: 1400, height: 1000 }, locale: "en-US" });
    const p = await c.newPage();
    p.on("pageerror", (e) => errors.push(String(e)));
    try {
      await p.goto(url);
      await p.waitForSelector("#apply");
      await p.selectOption("select.preset", "2"); // PRESETS[2]: too-big
      await p.click("#apply");
      await p.waitForSelector(".editor-status.ok");
      const total = +(await p.locator("#counter").getAttribute("data-len"));
      await p.locator("#timeline").fill(String(total));
      const why = await p.locator("#summary-why").textContent();
      assert(/Why Pods are Pending: the scheduler's last word was “0\/3 nodes are available: /.test(why), why);
      await p.click("#summary-jump");
      const line = await p.locator(".step-line").textContent();
      assert(/kube-scheduler → kube-apiserver · (POST|PATCH) events/.test(line), "jumped to: " + line);
    } finally {
      await c.close();
    }
  });

  await check("ConfigMap presets in Korean and at 700/375 px: the story runs and the console shows the configuration errors and values; screenshots", async () => {
    for (const [lang, width, title, want, shot] of [
      ["ko", 375, "컨피그맵과 시크릿으로 설정", "mode=prod", "screenshot-configmap-ko-375.png"],
      ["en", 700, "Configuration from a ConfigMap and a Secret", "mode=prod", "screenshot-configmap-700.png"],
      ["ko", 700, "없는 컨피그맵", "CreateContainerConfigError", "screenshot-configmap-missing-ko-700.png"],
      ["en", 375, "A missing ConfigMap", "CreateContainerConfigError", "screenshot-configmap-missing-375.png"],
    ]) {
      const c = await browser.newContext({ viewport: { width, height: 1000 }, locale: lang === "ko" ? "ko-KR" : "en-US" });
      const p = await c.newPage();
      p.on("pageerror", (e) => errors.push(String(e)));
      await p.goto(url);
      await p.waitForSelector("#apply");
      await applyPreset(p, title);
      await p.waitForFunction((w) => document.querySelector("#console-out").textContent.includes(w), want, { timeout: 90000 });
      const narr = await p.locator(".narr-text").textContent();
      assert(lang !== "ko" || /[가-힣]/.test(narr), "narration not Korean: " + narr);
      await p.screenshot({ path: path.join(shots, shot), fullPage: true });
      await c.close();
    }
  });

  await check("anti-affinity preset: one replica Pending with InterPodAffinity's FailedScheduling message, the Scheduler tab shows the plugin, then the new node runs it (1400 px English, 375 px Korean; screenshots)", async () => {
    for (const [lang, width, title, shot] of [
      ["en", 1400, "Anti-affinity keeps one replica Pending", "screenshot-anti-affinity.png"],
      ["ko", 375, "안티어피니티", "screenshot-anti-affinity-ko-375.png"],
    ]) {
      const c = await browser.newContext({ viewport: { width, height: 1000 }, locale: lang === "ko" ? "ko-KR" : "en-US" });
      const p = await c.newPage();
      p.on("pageerror", (e) => errors.push(String(e)));
      try {
        await p.goto(url);
        await p.waitForSelector("#apply");
        await applyPreset(p, title);
        const want = "0/3 nodes are available: 3 node(s) didn't match pod anti-affinity rules.";
        await p.waitForFunction((w) => document.querySelector("#console-out").textContent.includes(w), want, { timeout: 90000 });
        const out = await p.locator("#console-out").textContent();
        assert(/web-[a-z0-9]+-[a-z0-9]{5}\s+0\/1\s+Pending/.test(out), "no Pending replica in: " + out.slice(0, 2000));
        assert(/node-4/.test(out), "the added node runs nothing: " + out.slice(-1500));
        if (width > 1000) {
          // a script's status is its console output: wait until the last command has settled
          await p.waitForSelector("#settle-progress", { state: "detached", timeout: 90000 });
          const total = +(await p.locator("#counter").getAttribute("data-len"));
          await p.locator("#timeline").fill(String(total));
          await p.click("#tab-scheduler");
          const panel = await p.locator(".sched-panel").textContent();
          assert(/InterPodAffinity/.test(panel), "Scheduler tab without InterPodAffinity: " + panel.slice(0, 800));
        }
        await p.screenshot({ path: path.join(shots, shot), fullPage: true });
      } finally {
        await c.close();
      }
    }
  });

  await check("HPA preset: load scales the Deployment out (kubectl get hpa shows cpu: N%/50% and more replicas), then back to 2 after the stabilization window; metrics-server is drawn; kubectl top answers (1400 px English, 375 px Korean; screenshots)", async () => {
    for (const [lang, width, title, shot] of [
      ["en", 1400, "Load makes an HPA scale out", "screenshot-hpa.png"],
      ["ko", 375, "부하로 HPA가", "screenshot-hpa-ko-375.png"],
    ]) {
      const c = await browser.newContext({ viewport: { width, height: 1000 }, locale: lang === "ko" ? "ko-KR" : "en-US" });
      const p = await c.newPage();
      p.on("pageerror", (e) => errors.push(String(e)));
      try {
        await p.goto(url);
        await p.waitForSelector("#apply");
        await applyPreset(p, title);
        const want = "New size: 2; reason: All metrics below target";
        await p.waitForFunction((w) => document.querySelector("#console-out").textContent.includes(w), want, { timeout: 120000 });
        const out = await p.locator("#console-out").textContent();
        assert(/web\s+Deployment\/web\s+cpu: (6\d|[7-9]\d|1\d\d)%\/50%\s+2\s+10\s+4/.test(out), "no scale-out in get hpa: " + out.slice(0, 3000));
        assert(/New size: 4; reason: cpu resource utilization \(percentage of request\) above target/.test(out), "no SuccessfulRescale: " + out.slice(-2500));
        assert(/web-[a-z0-9]+-[a-z0-9]{5}\s+\d+m\s+\d+Mi/.test(out), "kubectl top pods printed no usage: " + out.slice(0, 3000));
        assert(/ScaleDownStabilized/.test(out), "describe hpa without the stabilization condition");
        assert((await p.locator("svg text", { hasText: "metrics-server" }).count()) > 0, "no metrics-server box in the diagram");
        await p.screenshot({ path: path.join(shots, shot), fullPage: true });
        // the Rollout tab draws the HPA over time (at the end of the run): utilization, target,
        // replicas
        const { total } = await counter(p);
        await p.locator("#timeline").fill(String(total));
        await p.click("#tab-rollout");
        const pts = await p.locator("svg.hpa-chart polyline.hpa-util").getAttribute("points");
        assert(pts && pts.split(" ").length > 5, "HPA chart without a utilization line: " + pts);
        assert((await p.locator("svg.hpa-chart line.hpa-target").count()) === 1, "no target line");
        await p.locator("section.hpa").screenshot({ path: path.join(shots, shot.replace(".png", "-chart.png")) });
      } finally {
        await c.close();
      }
    }
  });

  await check("Ingress preset: ingress-nginx routes / and /v2 to two Services (hello-app 1.0.0 and 2.0.0), 503 without endpoints, 308 for a TLS host, HTTPS with its Secret's certificate; the ingress-nginx box is drawn and the hops are in the trace (700 px English, 375 px Korean; screenshots)", async () => {
    for (const [lang, width, title, shot] of [
      ["en", 700, "An Ingress routes two paths", "screenshot-ingress-700.png"],
      ["ko", 375, "Ingress가 두 경로를", "screenshot-ingress-ko-375.png"],
    ]) {
      const c = await browser.newContext({ viewport: { width, height: 1000 }, locale: lang === "ko" ? "ko-KR" : "en-US" });
      const p = await c.newPage();
      p.on("pageerror", (e) => errors.push(String(e)));
      try {
        await p.goto(url);
        await p.waitForSelector("#apply");
        await applyPreset(p, title);
        const want = "NGINX reload triggered due to a change in configuration";
        await p.waitForFunction((w) => document.querySelector("#console-out").textContent.includes(w), want, { timeout: 120000 });
        const out = await p.locator("#console-out").textContent();
        assert(/Version: 1\.0\.0/.test(out) && /Version: 2\.0\.0/.test(out), "no answers from both versions: " + out.slice(0, 3000));
        assert(/example-ingress\s+nginx\s+hello-world\.example\s+192\.168\.49\.\d+\s+80/.test(out), "get ingress shows no ADDRESS: " + out.slice(0, 3000));
        assert(/503 Service Temporarily Unavailable/.test(out) && /308 Permanent Redirect/.test(out), "no 503 or 308: " + out.slice(-3000));
        assert((await p.locator("svg text", { hasText: "ingress-nginx" }).count()) > 0, "no ingress-nginx box in the diagram");
        // the last request (the TLS host's redirect) drawn hop by hop: walk back to it
        const { total } = await counter(p);
        const hops = [];
        for (let pos = total; pos > total - 400 && pos > 0 && !hops.some((h) => h.startsWith("GET http://")); pos--) {
          await p.locator("#timeline").fill(String(pos));
          const pk = p.locator("svg.diagram g.packet");
          if ((await pk.count()) === 0 || !/\bnet\b/.test(await pk.getAttribute("class"))) continue;
          hops.unshift(await pk.textContent());
        }
        const seq = hops.join(" | ");
        // the last requests: HTTPS to the TLS host through the controller's port 443 (its Secret's
        // certificate, curl -k), and plain HTTP on 443 answered 400
        assert(/hostPort → 10\.244\.\d+\.\d+:443/.test(seq) && /TLS: the Secret's certificate/.test(seq) && /HTTP\/1\.1 400/.test(seq), "hops: " + seq);
        await p.screenshot({ path: path.join(shots, shot), fullPage: true });
        // the Network tab: the Ingresses and the servers nginx runs
        await p.click("#tab-network");
        const servers = await p.locator("#network-nginx").textContent();
        assert(/server hello-world\.example/.test(servers) && /upstream default-web-8080 \[10\.244\.\d+\.\d+:8080\]/.test(servers) && /secure\.example \(TLS/.test(servers), "servers: " + servers);
      } finally {
        await c.close();
      }
    }
  });

  await check("NetworkPolicy preset: default deny times the client out, the allow rule lets only role=client in; the DROP hop is drawn (1400 px Korean; screenshot)", async () => {
    const c = await browser.newContext({ viewport: { width: 1400, height: 1000 }, locale: "ko-KR" });
    const p = await c.newPage();
    p.on("pageerror", (e) => errors.push(String(e)));
    try {
      await p.goto(url);
      await p.waitForSelector("#apply");
      await applyPreset(p, "NetworkPolicy가 기본 거부");
      await p.waitForFunction(() => document.querySelector("#console-out").textContent.includes("networkpolicies.networking.k8s.io \"bad\" not found"), null, { timeout: 120000 });
      const out = await p.locator("#console-out").textContent();
      assert((out.match(/wget: download timed out/g) || []).length === 2, "timeouts: " + out.slice(0, 3000));
      assert((out.match(/kubesim\/app:1 answered from web-/g) || []).length === 2, "answers: " + out.slice(0, 3000));
      assert(/must be a valid CIDR value/.test(out), "no validation message");
      const { total } = await counter(p);
      let drop = false;
      for (let pos = total; pos > total - 400 && pos > 0 && !drop; pos--) {
        await p.locator("#timeline").fill(String(pos));
        const pk = p.locator("svg.diagram g.packet");
        if ((await pk.count()) === 0) continue;
        drop = /NetworkPolicy: DROP/.test(await pk.textContent());
      }
      assert(drop, "no DROP hop drawn");
      const narration = await p.locator(".narration").first().textContent();
      assert(/격리/.test(narration), "narration at the DROP: " + narration);
      await p.screenshot({ path: path.join(shots, "screenshot-netpol-ko.png"), fullPage: false });
      await p.click("#tab-network");
      const sel = await p.locator("#network-netpol-pods").textContent();
      assert(/default\/allow-client isolates for ingress: web-[a-z0-9]+-[a-z0-9]{5}, web-/.test(sel), "selected pods: " + sel);
      // one Pod as the agent sees it: pick a web Pod in the selector
      const webPod = await p.locator("#network-netpol-pick option").evaluateAll((os) => os.map((o) => o.value).find((v) => /^default\/web-/.test(v)));
      assert(webPod, "no web Pod to pick");
      await p.locator("#network-netpol-pick").selectOption(webPod);
      const view = await p.locator("#network-netpol-of-pod").textContent();
      assert(view.startsWith(webPod + " 10.244."), "pod view: " + view);
      assert(/Ingress: isolated by default\/allow-client, default\/default-deny-ingress/.test(view), "isolation: " + view);
      assert(/from default\/client +ACCEPT by default\/allow-client/.test(view), "client: " + view);
      assert(/from default\/other +DROP: ingress of default\/web-/.test(view), "other: " + view);
      await p.locator("#network-netpol-of-pod").scrollIntoViewIfNeeded();
      await p.screenshot({ path: path.join(shots, "screenshot-netpol-pod-ko.png"), fullPage: false });
    } finally {
      await c.close();
    }
  });

  await check("CRD preset: the CronTab is Established by kube-apiserver's controllers, stored in etcd, listed with its printer columns, and nothing else happens (700 px English; screenshot)", async () => {
    const c = await browser.newContext({ viewport: { width: 700, height: 1000 }, locale: "en-US" });
    const p = await c.newPage();
    p.on("pageerror", (e) => errors.push(String(e)));
    try {
      await p.goto(url);
      await p.waitForSelector("#apply");
      await applyPreset(p, "CronTab: a CRD");
      await p.waitForFunction(() => document.querySelector("#console-out").textContent.includes("Unable to list \"stable.example.com/v1, Resource=crontabs\""), null, { timeout: 120000 });
      const out = await p.locator("#console-out").textContent();
      assert(out.includes("crontab.stable.example.com/my-new-cron-object created"), "create: " + out.slice(0, 2000));
      assert(/NAME\s+SPEC\s+REPLICAS\s+AGE\nmy-new-cron-object\s+\* \* \* \* \*\/5\s+1\s/.test(out), "printer columns: " + out.slice(0, 3000));
      assert(out.includes("spec.replicas in body should be less than or equal to 10"), "schema validation");
      // the establishing controller's write, found on the timeline
      const { total } = await counter(p);
      let found = false;
      for (let pos = 1; pos < Math.min(total, 400) && !found; pos++) {
        await p.locator("#timeline").fill(String(pos));
        const n = await p.locator(".narration").first().textContent();
        found = /establishing controller marks CRD crontabs\.stable\.example\.com Established/.test(n);
      }
      assert(found, "no Established step in the narration");
      await p.screenshot({ path: path.join(shots, "screenshot-crd-700.png"), fullPage: false });
      // the CRD in etcd at that step
      await p.click("#tab-etcd");
      const keys = await p.locator(".etcd-keys").first().textContent();
      assert(keys.includes("customresourcedefinitions/crontabs.stable.example.com"), "etcd keys: " + keys.slice(0, 1500));
      // nothing but data: no Pod appeared at any point
      await p.locator("#timeline").fill(String(total));
      assert((await p.locator("svg.diagram g.chip").count()) === 0, "a Pod was drawn");
    } finally {
      await c.close();
    }
  });

  await check("CRD operator preset: the Website operator turns a Website into a Deployment and a Service, and the garbage collector removes them with it (375 px Korean)", async () => {
    const c = await browser.newContext({ viewport: { width: 375, height: 900 }, locale: "ko-KR" });
    const p = await c.newPage();
    p.on("pageerror", (e) => errors.push(String(e)));
    try {
      await p.goto(url);
      await p.waitForSelector("#apply");
      await applyPreset(p, "같은 아이디어에 컨트롤러");
      await p.waitForFunction(() => (document.querySelector("#console-out").textContent.match(/No resources found in default namespace\./g) || []).length >= 1 && document.querySelector("#console-out").textContent.includes("auth can-i delete"), null, { timeout: 120000 });
      const out = await p.locator("#console-out").textContent();
      assert(/deployment\.apps\/blog\s+2\/2/.test(out) && /Created Deployment blog/.test(out) && /service\/blog\s+ClusterIP/.test(out), "operator: " + out.slice(0, 3000));
      assert(/blog\s+nginx:1\.27\s+3\s+3/.test(out), "status written: " + out.slice(0, 3000));
      const narration = await p.locator(".narration").first().textContent();
      assert(narration.trim().length > 0, "empty narration");
      await p.screenshot({ path: path.join(shots, "screenshot-crd-operator-375-ko.png"), fullPage: false });
    } finally {
      await c.close();
    }
  });

  await check("kubectl edit in the console opens the object in the editor; saving sends the change, Cancel puts the manifest back", async () => {
    const c = await browser.newContext({ viewport: { width: 1400, height: 1000 }, locale: "en-US" });
    const p = await c.newPage();
    p.on("pageerror", (e) => errors.push(String(e)));
    await p.goto(url);
    await p.waitForSelector("#apply");
    await p.click("#apply");
    await p.waitForFunction(() => document.querySelector("#console-out").textContent.includes("created"), null, { timeout: 90000 });
    const before = await p.locator("#editor-text").inputValue();
    await p.fill("#console-in", "kubectl edit deployment/nginx-deployment");
    await p.press("#console-in", "Enter");
    await p.waitForFunction(() => document.querySelector("#editor-text").value.startsWith("# Please edit the object below"));
    const text = await p.locator("#editor-text").inputValue();
    assert(/replicas: 3\n/.test(text), "the object in the editor: " + text.slice(0, 600));
    await p.fill("#editor-text", text.replace("replicas: 3\n", "replicas: 4\n"));
    await p.screenshot({ path: path.join(shots, "screenshot-edit.png") });
    await p.click("#apply");
    await p.waitForFunction(() => document.querySelector("#console-out").textContent.includes("deployment.apps/nginx-deployment edited"), null, { timeout: 60000 });
    assert((await p.locator("#editor-text").inputValue()) === before, "the manifest is back in the editor after saving");
    await p.fill("#console-in", "kubectl get deploy nginx-deployment");
    await p.press("#console-in", "Enter");
    await p.waitForFunction(() => /nginx-deployment\s+4\/4/.test(document.querySelector("#console-out").textContent), null, { timeout: 60000 });
    // Cancel: nothing sent, the manifest back
    await p.fill("#console-in", "kubectl edit deployment/nginx-deployment");
    await p.press("#console-in", "Enter");
    await p.waitForSelector("#cancel-edit");
    await p.click("#cancel-edit");
    await p.waitForFunction(() => document.querySelector("#console-out").textContent.includes("Edit cancelled, no changes made."));
    assert((await p.locator("#editor-text").inputValue()) === before, "the manifest is back after Cancel");
    await c.close();
  });

  await check("StatefulSet preset: web-1 appears only once web-0 is ready (OrderedReady), and the claims are bound", async () => {
    const c = await browser.newContext({ viewport: { width: 1400, height: 1000 }, locale: "en-US" });
    const p = await c.newPage();
    p.on("pageerror", (e) => errors.push(String(e)));
    await p.goto(url);
    await p.waitForSelector("#apply");
    const idx = await p.locator("select.preset option").evaluateAll((os) => os.findIndex((o) => o.textContent === "A StatefulSet comes up in order, with its volumes") - 1);
    assert(idx >= 0, "no statefulset preset");
    await p.selectOption("select.preset", String(idx));
    await p.click("#apply");
    await p.waitForFunction(() => document.querySelector("#console-out").textContent.includes("partitioned roll out complete: 3 new pods"), null, { timeout: 90000 });
    const out = await p.locator("#console-out").textContent();
    assert(/www-web-0\s+Bound\s+pvc-/.test(out), "claims not bound: " + out.slice(0, 400));
    const { total } = await counter(p);
    // web-* chips in the diagram at a step
    const chipsAt = async (pos) => {
      await p.locator("#timeline").fill(String(pos));
      return p.locator(".diagram .chip").evaluateAll((gs) =>
        gs.map((g) => ({ name: (g.querySelector(".chip-name") || {}).textContent || "", cls: g.getAttribute("class") })).filter((x) => /^web-\d$/.test(x.name)));
    };
    // the first step with all three Pods, then the first step with two (binary search: the count only grows until the scale-down)
    let all3 = 0;
    for (let pos = 50; pos <= total; pos += 50) {
      if ((await chipsAt(pos)).length === 3) { all3 = pos; break; }
    }
    assert(all3 > 0, "never three web Pods");
    let lo = 0, hi = all3;
    while (hi - lo > 1) {
      const mid = (lo + hi) >> 1;
      if ((await chipsAt(mid)).length >= 2) hi = mid; else lo = mid;
    }
    const at = await chipsAt(hi);
    const web0 = at.find((x) => x.name === "web-0");
    assert(at.some((x) => x.name === "web-1"), "the second Pod is not web-1: " + JSON.stringify(at));
    assert(web0 && /\bready\b/.test(web0.cls), "web-1 appeared before web-0 was ready: " + JSON.stringify(at));
    await c.close();
  });

  await check("the step survives a reload; a seed change asks first; chips name their ReplicaSet and image; an Apply error sits beside its line", async () => {
    const c = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
    const p = await c.newPage();
    p.on("pageerror", (e) => errors.push(String(e)));
    await p.goto(url);
    await p.waitForSelector("#apply");
    await p.click("#apply");
    await p.click("#play");
    const { total } = await counter(p);
    await p.locator("#timeline").fill(String(total - 5));
    await p.waitForTimeout(700);
    assert(new URL(p.url()).hash.endsWith(`&t=${total - 5}`), "fragment has the step: " + new URL(p.url()).hash.slice(-40));
    await p.reload();
    await p.waitForSelector("#counter");
    const back = await counter(p);
    assert(back.pos === total - 5 && back.total === total, `after reload ${back.pos}/${back.total}, want ${total - 5}/${total}`);
    // chips: owner with its template hash, and the image, in the tooltip; one stripe colour
    const title = await p.locator(".diagram .chip title").first().textContent();
    assert(/ReplicaSet nginx-deployment-\w+ \(pod-template-hash \w+\)/.test(title) && title.includes("image nginx:1.14.2"), title);
    assert((await p.locator(".diagram .chip .owner-stripe.tone-0").count()) === 3, "three chips of one ReplicaSet");
    // a seed change asks: dismissed, the timeline stays; accepted, it goes
    p.once("dialog", (d) => d.dismiss());
    await p.locator(".seed input").fill("7");
    await p.locator(".seed input").dispatchEvent("change");
    assert((await counter(p)).total === total, "dismissed: timeline kept");
    assert((await p.locator(".seed input").inputValue()) !== "7", "dismissed: the seed field shows the old seed");
    p.once("dialog", (d) => d.accept());
    await p.locator(".seed input").fill("7");
    await p.locator(".seed input").dispatchEvent("change");
    assert((await p.locator("#play").isDisabled()), "accepted: a new, empty cluster");
    // an error beside its line: the message box starts at the line's height, to its right
    await p.locator("#editor-text").fill("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: x\nspec:\n  replicas: three\n");
    await p.click("#apply");
    await p.waitForSelector(".err-msg");
    const line = await p.locator(".err-line").first().boundingBox();
    const msg = await p.locator(".err-msg").first().boundingBox();
    assert(Math.abs(msg.y - line.y) < 8 && msg.x > line.x + line.width * 0.4, `popup at ${JSON.stringify(msg)}, line at ${JSON.stringify(line)}`);
    await c.close();
  });

  await embed({ browser, url, check, assert, errors, shots });

  await hostile({ browser, url, check, assert, errors, shots });

  await audit({ browser, url, check, assert, errors, shots });

  await perf({ browser, url, check, assert, errors, shots });

  await check("no uncaught errors", async () => {
    assert(errors.length === 0, errors.join("\n"));
  });
} finally {
  await browser.close();
  server.close();
}
console.log(`e2e: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
