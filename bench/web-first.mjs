// Time to the first flame graph page of a web UI, in headless Chromium:
// start the server command, wait for its "Serving web UI on URL" line, open
// URL/ui/flamegraph and wait until the page has rendered (pprof-c: the page
// says it is ready; any server: the network is idle and frames are drawn).
// Prints "first-page SECONDS" (from the command's start) on success.
// The browser is started before the clock; with SETTLE_MS set, the clock
// starts that many milliseconds later, once the browser is idle (a
// browser already running, as most users' is), and not while its own
// start-up still takes a core.
//
//   [SETTLE_MS=3000] node bench/web-first.mjs PROGRAM ARGS...
import path from "node:path";
import { spawn } from "node:child_process";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const { chromium } = require(path.resolve(path.dirname(new URL(import.meta.url).pathname),
                                          "../tests/browser/node_modules/playwright-core"));
const [prog, ...args] = process.argv.slice(2);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
const settle = Number(process.env.SETTLE_MS || 0);
if (settle > 0) await new Promise((resolve) => setTimeout(resolve, settle));
const t0 = performance.now();
const proc = spawn(prog, args, { stdio: ["ignore", "pipe", "pipe"], env: Object.assign({}, process.env, { BROWSER: "true" }) });
let status = 1;
try {
  const url = await new Promise((resolve, reject) => {
    let text = "";
    const look = (b) => {
      text += b;
      const m = /Serving web UI on (http:\/\/\S+)/.exec(text);
      if (m) resolve(m[1]);
    };
    proc.stdout.on("data", look);
    proc.stderr.on("data", look);
    proc.on("exit", (c) => reject(new Error("exited " + c + ": " + text)));
  });
  const t1 = performance.now();
  // Not "networkidle": it waits for half a second of quiet after the
  // last request, which would count 0.5 s that no user waits for; the
  // rendered frames (or pprof-c's ready flag) say when the page is there.
  await page.goto(url + "/ui/flamegraph", { waitUntil: "domcontentloaded", timeout: 600000 });
  await page.waitForFunction(() => document.body.dataset.ready === "true" ||
    document.querySelectorAll("#stack-chart .boxbg, #stack-chart div, .frame, svg g").length > 10, null, { timeout: 600000 });
  const t2 = performance.now();
  console.log(`first-page ${((t2 - t0) / 1000).toFixed(2)} (server up ${((t1 - t0) / 1000).toFixed(2)}, page ${((t2 - t1) / 1000).toFixed(2)})`);
  status = 0;
} catch (e) {
  console.log("first-page FAILED " + e.message.split("\n")[0]);
} finally {
  proc.kill("SIGINT");
  await browser.close();
}
process.exit(status);
