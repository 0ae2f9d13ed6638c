// Serves a directory under a URL prefix on 127.0.0.1 (an ephemeral port) with node's http module:
// what a static host does for dist/, including from a subpath. Shared by run.mjs and measure.mjs.
import http from "node:http";
import fs from "node:fs";
import path from "node:path";

const types = { ".html": "text/html", ".js": "text/javascript", ".wasm": "application/wasm", ".css": "text/css", ".png": "image/png" };

export function serve(dir, prefix) {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, "http://x");
    if (!url.pathname.startsWith(prefix)) { res.writeHead(404).end(); return; }
    const rel = decodeURIComponent(url.pathname.slice(prefix.length)) || "index.html";
    const file = path.join(dir, path.normalize(rel));
    if (!file.startsWith(dir) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) { res.writeHead(404).end(); return; }
    res.writeHead(200, { "content-type": types[path.extname(file)] ?? "application/octet-stream" });
    fs.createReadStream(file).pipe(res);
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

// Debian's Chromium as root, without reaching out to the network.
export const chromeArgs = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
  "--disable-component-update", "--disable-sync", "--no-first-run"];

// A panic in the page's wasm (the panic hook shows its overlay and logs `panicked at …` with
// console.error, no pageerror): every page of every context of `browser` reports it to `errors`.
export function watchPanics(browser, errors) {
  const orig = browser.newContext.bind(browser);
  browser.newContext = async (...args) => {
    const c = await orig(...args);
    c.on("page", (p) => p.on("console", (m) => {
      if (m.type() === "error" && /panicked at/.test(m.text())) errors.push(m.text().split("\n")[0] + " (" + p.url().slice(0, 80) + ")");
    }));
    return c;
  };
  const origPage = browser.newPage.bind(browser);
  browser.newPage = async (...args) => {
    const p = await origPage(...args);
    p.on("console", (m) => {
      if (m.type() === "error" && /panicked at/.test(m.text())) errors.push(m.text().split("\n")[0]);
    });
    return p;
  };
}

// Runs one suite (`suite({ browser, url, check, assert, errors, shots })`) on its own: serves
// dist/ under a subpath, launches Chromium, prints each check and exits non-zero on a failure.
// `node tests/e2e/hostile.mjs` (and embed.mjs, audit.mjs) call it when run directly.
export async function runAlone(name, suite) {
  const { chromium } = await import("playwright-core");
  const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../..");
  const dist = process.env.KUBESIM_DIST ?? path.join(root, "dist");
  const shots = process.env.SHOTS ?? path.join(root, "docs");
  const base = "/some/sub/path/";
  let passed = 0, failed = 0;
  const check = async (what, fn) => {
    const t0 = Date.now();
    try { await fn(); passed++; console.log(`ok   ${what} (${Date.now() - t0} ms)`); }
    catch (e) { failed++; console.log(`FAIL ${what}: ${e && e.stack ? e.stack.split("\n").slice(0, 3).join(" | ") : e}`); }
  };
  const assert = (cond, msg) => { if (!cond) throw new Error(msg); };
  const server = await serve(dist, base);
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium", headless: true, args: chromeArgs });
  fs.mkdirSync(shots, { recursive: true });
  const errors = [];
  watchPanics(browser, errors);
  try {
    await suite({ browser, url: `http://127.0.0.1:${server.address().port}${base}`, check, assert, errors, shots });
    await check("no uncaught errors", async () => assert(errors.length === 0, errors.join("\n")));
  } finally {
    await browser.close();
    server.close();
  }
  console.log(`${name}: ${passed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}

/// A console line typed and run as a learner does; resolves once the console shows `want`.
export function consoleRunner(page) {
  return async (line, want) => {
    await page.fill("#console-in", line);
    await page.press("#console-in", "Enter");
    await page.waitForFunction((w) => document.querySelector("#console-out").textContent.includes(w), want, { timeout: 90000 });
  };
}
