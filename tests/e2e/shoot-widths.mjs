// Ad-hoc screenshots of the page as a learner meets it, at 1400, 700 and 375 px in English and
// Korean: the first screen, the first screen after Apply, and the end (the outcome).
//   node tests/e2e/shoot-widths.mjs [outdir]
import path from "node:path";
import { chromium } from "playwright-core";
import { serve, chromeArgs } from "./serve.mjs";
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../..");
const dist = process.env.KUBESIM_DIST ?? path.join(root, "dist");
const out = process.argv[2] ?? "/tmp/shots";
const server = await serve(dist, "/");
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium", args: chromeArgs });
for (const [w, h] of [[1400, 900], [700, 900], [375, 740]]) {
  for (const lang of ["en", "ko"]) {
    const page = await browser.newPage({ viewport: { width: w, height: h }, locale: lang === "ko" ? "ko-KR" : "en-US" });
    page.on("pageerror", (e) => console.log("pageerror", String(e)));
    await page.goto(`http://127.0.0.1:${server.address().port}/#lang=${lang}`);
    await page.waitForSelector("#editor-text", { timeout: 20000 });
    await page.screenshot({ path: `${out}/${w}-${lang}-0.png` });
    await page.click("#apply");
    await page.waitForTimeout(2500);
    await page.screenshot({ path: `${out}/${w}-${lang}-1.png` });
    const len = await page.locator("#counter").getAttribute("data-len");
    await page.locator("#timeline").fill(len);
    await page.waitForTimeout(300);
    await page.screenshot({ path: `${out}/${w}-${lang}-2.png`, fullPage: true });
    await page.close();
  }
}
await browser.close();
server.close();
