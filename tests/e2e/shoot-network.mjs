// Screenshots of the network presets for looking at them (not a test): runs the preset
// "Network: expose nginx and curl it" (or NET_PRESET, its index in the preset list), stops
// NET_BACK steps before the end (default 2: the request on its way to a Pod) and saves the page
// and the Network tab at 1400, 700 and 375 px, English and Korean.
//   trunk build --release --offline && node tests/e2e/shoot-network.mjs  → $SHOTS/network-*.png
import fs from "node:fs";
import path from "node:path";
import { chromium } from "playwright-core";
import { serve, chromeArgs } from "./serve.mjs";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../..");
const dist = process.env.KUBESIM_DIST ?? path.join(root, "dist");
const shots = process.env.SHOTS ?? "/tmp/kubesim-shots";
const preset = process.env.NET_PRESET ?? "11";
const back = Number(process.env.NET_BACK ?? "2");
const wait = process.env.NET_WAIT ?? "sim trace --net";
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
    await p.selectOption("select.preset", preset);
    await p.click("#apply");
    await p.waitForFunction((w) => document.querySelector("#console-out").textContent.includes(w), wait, { timeout: 90000 });
    const total = Number(await p.locator("#counter").getAttribute("data-len"));
    await p.locator("#timeline").fill(String(total - back));
    await p.click("#tab-network");
    await p.waitForTimeout(300);
    const file = path.join(shots, `network-${preset}-${width}-${locale}.png`);
    await p.locator(".panels").screenshot({ path: file });
    await p.screenshot({ path: file.replace(".png", "-page.png"), fullPage: true });
    console.log(file, total);
    await ctx.close();
  }
} finally {
  await browser.close();
  server.close();
}
