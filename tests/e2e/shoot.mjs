// Ad-hoc screenshots for looking at the page: node tests/e2e/shoot.mjs [width] [lang] [out.png] [steps-js]
import path from "node:path";
import { chromium } from "playwright-core";
import { serve, chromeArgs } from "./serve.mjs";
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../..");
const dist = process.env.KUBESIM_DIST ?? path.join(root, "dist");
const [width = "1400", lang = "en", out = "/tmp/shots/page.png", script = ""] = process.argv.slice(2);
const server = await serve(dist, "/");
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium", args: chromeArgs });
const page = await browser.newPage({ viewport: { width: +width, height: 900 } });
page.on("pageerror", (e) => console.log("pageerror", String(e)));
await page.goto(`http://127.0.0.1:${server.address().port}/#lang=${lang}`);
await page.waitForSelector("#editor-text", { timeout: 20000 });
await page.click("#apply");
await page.waitForTimeout(500);
if (script) await eval(`(async () => { ${script} })()`);
await page.screenshot({ path: out, fullPage: true });
await browser.close();
server.close();
