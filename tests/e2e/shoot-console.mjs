// Ad-hoc screenshots of issue 34's console commands as a learner meets them, at 1400, 700 and
// 375 px in English and Korean: `kubectl port-forward` then `curl localhost:8080` (the timeline at
// the tunnel's CRI PortForward hop), and a kustomize script applied from the editor.
//   node tests/e2e/shoot-console.mjs [outdir]
import fs from "node:fs";
import path from "node:path";
import { chromium } from "playwright-core";
import { serve, chromeArgs, consoleRunner } from "./serve.mjs";
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../..");
const dist = process.env.KUBESIM_DIST ?? path.join(root, "dist");
const out = process.argv[2] ?? "/tmp/shots";
fs.mkdirSync(out, { recursive: true });
const server = await serve(dist, "/");
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium", args: chromeArgs });
const script = fs.readFileSync(path.join(root, "tests/scenarios/kustomize.sh"), "utf8");
const kustomize = script.split("kubectl apply -k overlays/dev\n")[0] + "kubectl apply -k overlays/dev\n";
for (const [w, h] of [[1400, 900], [700, 900], [375, 740]]) {
  for (const lang of ["en", "ko"]) {
    const page = await browser.newPage({ viewport: { width: w, height: h }, locale: lang === "ko" ? "ko-KR" : "en-US" });
    page.on("pageerror", (e) => console.log("pageerror", String(e)));
    await page.goto(`http://127.0.0.1:${server.address().port}/#lang=${lang}`);
    await page.waitForSelector("#console-in", { timeout: 20000 });
    const run = consoleRunner(page);
    await run("kubectl create deployment web --image=nginx:1.27", "created");
    await run("kubectl expose deployment web --port=80", "exposed");
    await run("sim settle", "settled at");
    await run("kubectl port-forward svc/web 8080:80", "Forwarding from");
    await run("curl -I localhost:8080", "HTTP/1.1 200 OK");
    const len = Number(await page.locator("#counter").getAttribute("data-len"));
    await page.locator("#timeline").fill(String(len - 2));
    await page.waitForTimeout(300);
    await page.screenshot({ path: `${out}/pf-${w}-${lang}.png`, fullPage: true });
    await page.locator("#editor-text").fill(kustomize);
    await page.click("#apply");
    await page.waitForFunction(() => document.querySelector("#console-out").textContent.includes("deployment.apps/dev-web created"), null, { timeout: 60000 });
    await page.waitForTimeout(500);
    await page.screenshot({ path: `${out}/kz-${w}-${lang}.png`, fullPage: true });
    await page.close();
  }
}
await browser.close();
server.close();
