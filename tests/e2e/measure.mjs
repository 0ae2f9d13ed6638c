// Measures the built page in headless Chromium: the gzip (and brotli) size of every file the page
// downloads, the time Apply takes, how long a scrub takes to show, and frame times while the
// animation plays. Prints a Markdown report (used for README.ui.md).
//
//   trunk build --release --offline && node tests/e2e/measure.mjs
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { chromium } from "playwright-core";
import { serve, chromeArgs } from "./serve.mjs";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../..");
const dist = process.env.KUBESIM_DIST ?? path.join(root, "dist");
const base = "/kubesim/";
const server = await serve(dist, base);
const url = `http://127.0.0.1:${server.address().port}${base}`;
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium", args: chromeArgs });
const out = [];
try {
  const page = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
  const files = [];
  page.on("response", async (r) => {
    const u = new URL(r.url());
    if (u.origin !== new URL(url).origin) return;
    try {
      const body = await r.body();
      files.push({ name: u.pathname.slice(base.length) || "index.html", raw: body.length, gz: zlib.gzipSync(body, { level: 9 }).length, br: zlib.brotliCompressSync(body).length });
    } catch {}
  });
  await page.goto(url);
  await page.waitForSelector("#apply");
  await page.waitForTimeout(300);
  // load time in a fresh page without the response listener (reading bodies slows the load)
  const loads = [];
  for (let i = 0; i < 3; i++) {
    const p = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
    await p.goto(url);
    await p.waitForFunction(() => document.querySelector("#apply"), null, { polling: "raf" });
    loads.push(await p.evaluate(() => performance.now()));
    await p.close();
  }
  loads.sort((a, b) => a - b);
  const loadMs = loads[1];
  const nav = { dcl: 0 };
  const sorted = [...files].sort((a, b) => b.gz - a.gz);
  const total = sorted.reduce((a, f) => ({ raw: a.raw + f.raw, gz: a.gz + f.gz, br: a.br + f.br }), { raw: 0, gz: 0, br: 0 });
  const kb = (n) => (n / 1024).toFixed(1) + " KiB";
  out.push("### Page weight", "", "| file | raw | gzip -9 | brotli |", "|---|---:|---:|---:|");
  for (const f of sorted) out.push(`| \`${f.name.replace(/-[0-9a-f]{16}/, "-<hash>")}\` | ${kb(f.raw)} | ${kb(f.gz)} | ${kb(f.br)} |`);
  out.push(`| **total** | ${kb(total.raw)} | **${kb(total.gz)}** | ${kb(total.br)} |`, "");
  out.push(`Navigation start to the mounted page (localhost, no network throttling; includes compiling the wasm and starting the default cluster), median of 3: ${loadMs.toFixed(0)} ms.`, "");

  // Apply: the simulation of seed 004 runs to the settled state
  const applyMs = await page.evaluate(async () => {
    const t = performance.now();
    document.querySelector("#apply").click();
    await new Promise((r) => requestAnimationFrame(() => r()));
    return performance.now() - t;
  });
  const total_steps = await page.evaluate(() => +/\/\s*(\d+)/.exec(((c) => c.dataset.pos + " / " + c.dataset.len)(document.querySelector("#counter")))[1]);
  out.push("### Responsiveness", "", `- Apply of seed 004 (simulate to settled, ${total_steps} steps, first render): ${applyMs.toFixed(0)} ms`);

  // scrubbing: the synchronous work (Yew re-renders inside the input handler) and the time to the next frame
  const scrub = async () => page.evaluate(async (n) => {
    const el = document.querySelector("#timeline");
    const work = [], frame = [];
    for (let i = 0; i < 40; i++) {
      const t = performance.now();
      el.value = String(Math.floor(((i * 37) % 40) * n / 40));
      el.dispatchEvent(new InputEvent("input", { bubbles: true }));
      // Yew renders in a microtask after the handler: wait for the next task (MessageChannel, no clamping)
      await new Promise((r) => { const ch = new MessageChannel(); ch.port1.onmessage = () => r(); ch.port2.postMessage(0); });
      work.push(performance.now() - t);
      await new Promise((r) => requestAnimationFrame(() => r()));
      frame.push(performance.now() - t);
      await new Promise((r) => setTimeout(r, 5));
    }
    const q = (a, p) => [...a].sort((x, y) => x - y)[Math.min(a.length - 1, Math.floor(p * a.length))];
    return { wmed: q(work, 0.5), wmax: q(work, 1), fmed: q(frame, 0.5), fmax: q(frame, 1) };
  }, total_steps);
  out.push("- Scrubbing to 40 steps across the timeline: the work (input handler + Yew's re-render, until the next task), and until the next animation frame:");
  for (const tab of ["events", "audit", "etcd", "objects", "scheduler"]) {
    await page.click("#tab-" + tab);
    const s = await scrub();
    out.push(`  - ${tab} tab open: re-render median ${s.wmed.toFixed(1)} ms, max ${s.wmax.toFixed(1)} ms; next frame median ${s.fmed.toFixed(1)} ms, max ${s.fmax.toFixed(1)} ms`);
  }
  out.push("");

  // (Apply of 1,000 and 3,000 replicas, Cancel and scrubbing at 300 replicas: tests/e2e/perf.mjs,
  // which the e2e suite runs)

  // frame times while playing
  out.push("### Frame times while playing", "", "| speed | frames | median | p95 | p99 | max | frames > 25 ms |", "|---|---:|---:|---:|---:|---:|---:|");
  await page.click("#tab-events");
  for (const speed of ["1", "8"]) {
    await page.selectOption("#speed", speed);
    await page.evaluate(() => {
      const el = document.querySelector("#timeline");
      el.value = "0";
      el.dispatchEvent(new InputEvent("input", { bubbles: true }));
    });
    await page.click("#play");
    const f = await page.evaluate(async () => {
      const d = [];
      let last = performance.now();
      const end = last + 5000;
      await new Promise((resolve) => {
        const loop = (now) => {
          d.push(now - last);
          last = now;
          if (now < end) requestAnimationFrame(loop);
          else resolve();
        };
        requestAnimationFrame(loop);
      });
      d.shift();
      const s = [...d].sort((a, b) => a - b);
      const q = (p) => s[Math.min(s.length - 1, Math.floor(p * s.length))];
      return { n: d.length, med: q(0.5), p95: q(0.95), p99: q(0.99), max: s[s.length - 1], slow: d.filter((x) => x > 25).length };
    });
    await page.click("#play");
    out.push(`| ${speed}× | ${f.n} | ${f.med.toFixed(1)} ms | ${f.p95.toFixed(1)} ms | ${f.p99.toFixed(1)} ms | ${f.max.toFixed(1)} ms | ${f.slow} |`);
  }
  out.push("");
} finally {
  await browser.close();
  server.close();
}
console.log(out.join("\n"));
