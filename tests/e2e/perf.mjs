// The page never blocks (run by run.mjs; also alone: `node tests/e2e/perf.mjs`): Apply of 1,000
// and of 3,000 replicas measured with the Long Tasks API (the longest main-thread task, the time
// until the timeline is ready, messages simulated), a console command typed during the run
// (queued, not lost), Cancel (the cluster as it was), and scrubbing a 300-replica run with every
// tab open. Prints `FIGURE` lines with the issue's bounds beside them (the README quotes them);
// as the brief asks, speed is printed, not asserted: the checks assert behaviour (the timeline
// completes and grows while it runs, the line is queued, Cancel restores the cluster).

import fs from "node:fs";
import path from "node:path";

// seed 004's Deployment (the page's default manifest, from presets.rs) with n replicas
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../..");
const SEED_004 = fs.readFileSync(path.join(root, "src/ui/presets.rs"), "utf8").split('pub const SEED_004: &str = "')[1].split('";')[0];
const SEED = (n) => SEED_004.replace("replicas: 3", `replicas: ${n}`);

/// Issue 27's bounds, printed beside the figures.
export const LONGEST_TASK_MS = 50;
const SCRUB_MEDIAN_MS = 50;
const SCRUB_MAX_MS = 100;
const met = (ok) => (ok ? "met" : "NOT MET");

export async function perf({ browser, url, check, assert }) {
  const open = async (width = 1400) => {
    const c = await browser.newContext({ viewport: { width, height: 900 }, locale: "en-US" });
    const p = await c.newPage();
    await p.goto(url);
    await p.waitForSelector("#apply");
    await p.evaluate(() => {
      window.__long = [];
      new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__long.push(e.duration); }).observe({ type: "longtask", buffered: false });
    });
    return { c, p };
  };
  // Apply and wait until kubectl's output shows (the timeline is complete); the longest task
  const applyMeasured = async (p, n, limitMs) => {
    await p.fill("#editor-text", SEED(n));
    return p.evaluate(async (limit) => {
      window.__long = [];
      const t = performance.now();
      document.querySelector("#apply").click();
      let frames = 0;
      while (!document.querySelector(".editor-status.ok")) {
        await new Promise((res) => requestAnimationFrame(() => res()));
        frames++;
        if (performance.now() - t > limit) break;
      }
      const ms = performance.now() - t;
      await new Promise((res) => setTimeout(res, 300));
      const c = document.querySelector("#counter");
      const mem = window.kubesimMemory ? window.kubesimMemory.buffer.byteLength / (1024 * 1024) : NaN;
      return { ms, frames, mem, steps: +c.dataset.len, done: !!document.querySelector(".editor-status.ok"), longest: Math.max(0, ...window.__long), tasks: window.__long.length };
    }, limitMs);
  };

  // issue 27's bounds (boundS), and issue 30's: settled in 1 s and 5 s, wasm memory 150 MB
  for (const [n, boundS, limitS, engineS] of [[1000, 3, 60, 1], [3000, 20, 240, 5]]) {
    await check(`Apply of ${n} replicas: the timeline completes in slices, frames are painted meanwhile`, async () => {
      const { c, p } = await open();
      try {
        const r = await applyMeasured(p, n, limitS * 1000);
        const rate = (r.steps / (r.ms / 1000)).toFixed(0);
        console.log(`     FIGURE Apply of ${n} replicas: timeline ready in ${(r.ms / 1000).toFixed(1)} s (bound ${boundS} s: ${met(r.ms <= boundS * 1000)}), ${r.steps} messages (${rate}/s), ${r.frames} frames painted, longest main-thread task ${r.longest.toFixed(0)} ms (bound ${LONGEST_TASK_MS} ms: ${met(r.longest <= LONGEST_TASK_MS)}; ${r.tasks} tasks over 50 ms)`);
        console.log(`     FIGURE Apply of ${n} replicas (issue 30): settled in ${(r.ms / 1000).toFixed(1)} s (bound ${engineS} s: ${met(r.ms <= engineS * 1000)}), wasm memory ${r.mem.toFixed(0)} MB${n === 3000 ? ` (bound 150 MB: ${met(r.mem <= 150)})` : ""}`);
        assert(r.done, `not finished in ${limitS} s`);
        assert(r.frames > r.ms / 1000, `${r.frames} frames in ${r.ms.toFixed(0)} ms: the page did not paint while simulating`);
      } finally {
        await c.close();
      }
    });
  }

  await check("during a long simulation: progress with messages/s, a console line is queued and runs after, Cancel puts the cluster back", async () => {
    const { c, p } = await open();
    try {
      // long enough to be still running after the line is typed: 3,000 replicas settle in about
      // 2.5 s now, so nothing here waits longer than it must (the progress line, then at once
      // the scrub and the console line)
      await p.fill("#editor-text", SEED(3000));
      await p.click("#apply");
      await p.waitForSelector("#settle-progress", { timeout: 5000 });
      await p.waitForFunction(() => /messages\/s/.test((document.querySelector("#settle-progress") || {}).textContent || ""), null, { timeout: 5000 });
      const prog = await p.locator("#settle-progress").textContent();
      assert(/messages\/s/.test(prog), "progress: " + prog);
      // the timeline grows while it runs, and can be scrubbed
      const len1 = +(await p.locator("#counter").getAttribute("data-len"));
      assert(len1 > 0, "no steps yet");
      await p.locator("#timeline").fill(String(Math.floor(len1 / 2)));
      // a console line: queued, said so
      await p.fill("#console-in", "kubectl get deploy");
      await p.press("#console-in", "Enter");
      await p.waitForFunction(() => document.querySelector("#console-out").textContent.includes("# queued"), null, { timeout: 5000 });
      // Cancel
      const t0 = Date.now();
      await p.click("#cancel-settle");
      await p.waitForFunction(() => !document.querySelector("#settle-progress"), null, { timeout: 30000 });
      const after = await p.locator("#console-out").textContent();
      assert(after.includes("^C cancelled after"), "cancel not said: " + after.slice(-300));
      assert(+(await p.locator("#counter").getAttribute("data-len")) === 0, "the timeline is not the one before the command");
      console.log(`     FIGURE Cancel of a 3,000-replica Apply after ${len1} messages: the cluster back as it was in ${Date.now() - t0} ms`);
      // the queued line was dropped with the cancelled command; a new one runs at once
      await p.locator("#console-in").pressSequentially("kubectl get deploy", { delay: 10 });
      await p.waitForTimeout(200);
      await p.press("#console-in", "Enter");
      await p.waitForFunction(() => /No resources found/.test(document.querySelector("#console-out").textContent), null, { timeout: 10000 });
    } finally {
      await c.close();
    }
  });

  await check("scrubbing a 300-replica run with every tab open (figures)", async () => {
    const { c, p } = await open();
    try {
      const r = await applyMeasured(p, 300, 60000);
      assert(r.done, "300 replicas did not finish");
      const worst = [];
      for (const tab of ["events", "audit", "etcd", "objects", "rollout", "scheduler", "network"]) {
        await p.click("#tab-" + tab);
        const s = await p.evaluate(async (n) => {
          const el = document.querySelector("#timeline");
          const work = [];
          for (let i = 0; i < 30; i++) {
            const t = performance.now();
            el.value = String(Math.floor(((i * 37) % 30) * n / 30) + 1);
            el.dispatchEvent(new InputEvent("input", { bubbles: true }));
            await new Promise((r) => requestAnimationFrame(() => r()));
            work.push(performance.now() - t);
            await new Promise((r) => setTimeout(r, 5));
          }
          const q = (a, p) => [...a].sort((x, y) => x - y)[Math.min(a.length - 1, Math.floor(p * a.length))];
          return { med: q(work, 0.5), max: q(work, 1) };
        }, r.steps);
        const ok = s.med <= SCRUB_MEDIAN_MS && s.max <= SCRUB_MAX_MS;
        console.log(`     FIGURE scrub at 300 replicas (${r.steps} messages), ${tab} tab: median ${s.med.toFixed(1)} ms, max ${s.max.toFixed(1)} ms to the next frame (bounds ${SCRUB_MEDIAN_MS}/${SCRUB_MAX_MS} ms: ${met(ok)})`);
        if (!ok) worst.push(tab);
      }
      console.log(`     FIGURE scrub at 300 replicas: ${7 - worst.length} of 7 tabs within the bounds${worst.length ? " (not: " + worst.join(", ") + ")" : ""}`);
    } finally {
      await c.close();
    }
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { runAlone } = await import("./serve.mjs");
  await runAlone("perf", perf);
}
