// Screenshots of the rollout presets for looking at them (not a test): runs the preset
// "A bad release and rollout undo" (or ROLLOUT_PRESET), stops at a fraction of the timeline
// (ROLLOUT_AT, default the end) and saves the Rollout tab at 1400, 700 and 375 px, English and Korean.
//   trunk build --release --offline && node tests/e2e/shoot-rollout.mjs  → $SHOTS/rollout-*.png
import fs from "node:fs";
import path from "node:path";
import { chromium } from "playwright-core";
import { serve, chromeArgs } from "./serve.mjs";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../..");
const dist = process.env.KUBESIM_DIST ?? path.join(root, "dist");
const shots = process.env.SHOTS ?? "/tmp/kubesim-shots";
const preset = process.env.ROLLOUT_PRESET ?? "rollout-undo";
const at = Number(process.env.ROLLOUT_AT ?? "1");
fs.mkdirSync(shots, { recursive: true });
const server = await serve(dist, "/");
const url = `http://127.0.0.1:${server.address().port}/`;
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium", args: chromeArgs });
try {
  for (const [width, locale] of [[1400, "en-US"], [700, "ko-KR"], [375, "en-US"], [375, "ko-KR"]]) {
    const ctx = await browser.newContext({ viewport: { width, height: 900 }, locale });
    const p = await ctx.newPage();
    p.on("pageerror", (e) => console.log("pageerror", String(e)));
    await p.goto(url);
    await p.waitForSelector("#apply");
    const idx = { seed: 0, "bad-image": 1, "too-big": 2, "no-node": 3, script: 4, "rolling-update": 5, "rollout-undo": 6, "crash-loop": 7, liveness: 8, readiness: 9, "init-waits": 10 }[preset];
    await p.selectOption("select.preset", String(idx));
    await p.click("#apply");
    await p.waitForFunction(() => document.querySelector("#console-out").textContent.includes("kubectl get"), null, { timeout: 60000 });
    const total = Number(await p.locator("#counter").getAttribute("data-len"));
    await p.locator("#timeline").fill(String(Math.round(total * at)));
    await p.click("#tab-rollout");
    await p.waitForTimeout(300);
    const file = path.join(shots, `rollout-${preset}-${width}-${locale}.png`);
    await p.locator(".panels").screenshot({ path: file });
    await p.screenshot({ path: file.replace(".png", "-page.png"), fullPage: true });
    console.log(file, total);
    await ctx.close();
  }
} finally {
  await browser.close();
  server.close();
}
