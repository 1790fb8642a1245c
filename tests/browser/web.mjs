// The web UI in a real browser: starts `pprof-c -http=:0 -no_browser` on
// testdata profiles and checks each view against the command line with the
// same options, in Debian's headless Chromium driven by playwright-core.
//
//   node tests/browser/web.mjs PPROF_C ARTIFACT_DIR     (from the source root)
//
// Prints one line per check and "web: N passed, N failed"; exit 1 on a
// failure.
import { chromium } from "playwright-core";
import { spawn, execFileSync } from "node:child_process";
import http from "node:http";
import path from "node:path";

const [bin, artifacts] = process.argv.slice(2);
let passed = 0, failed = 0;
function check(ok, what, detail) {
  if (ok) { passed++; console.log("ok " + what); }
  else { failed++; console.log("FAIL " + what + (detail ? ": " + detail : "")); }
}

// Start a server; resolves to { url, proc } once it prints its address.
function serve(args) {
  return new Promise((resolve, reject) => {
    const proc = spawn(bin, ["-http=:0", "-no_browser", ...args], { stdio: ["ignore", "ignore", "pipe"] });
    let err = "";
    proc.stderr.on("data", (b) => {
      err += b;
      const m = /Serving web UI on (http:\/\/\S+)/.exec(err);
      if (m) resolve({ url: m[1], proc });
    });
    proc.on("exit", (code) => reject(new Error("server exited " + code + ": " + err)));
  });
}

function stop(s) {
  return new Promise((resolve) => {
    s.proc.removeAllListeners("exit");
    s.proc.on("exit", (code, sig) => resolve({ code, sig }));
    s.proc.kill("SIGINT");
  });
}

// `pprof-c top` rows as [flat, flat%, sum%, cum, cum%, name].
function cliTop(args) {
  const out = execFileSync(bin, ["top", ...args], { encoding: "utf8" });
  const lines = out.split("\n");
  const h = lines.findIndex((l) => /^\s+flat\s+flat%/.test(l));
  return lines.slice(h + 1).filter((l) => l.trim()).map((l) => {
    const f = l.trim().split(/\s+/);
    return [...f.slice(0, 5), f.slice(5).join(" ")];
  });
}

async function tableRows(page) {
  return page.$$eval("table.top tbody tr", (trs) => trs.map((tr) =>
    [...tr.children].map((td) => td.textContent)));
}

function rawGet(url, host) {
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    const req = http.get({ host: u.hostname, port: u.port, path: u.pathname, headers: { Host: host } },
      (res) => { res.resume(); resolve(res.statusCode); });
    req.on("error", reject);
  });
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
const cpu = "testdata/go/cpu.pb.gz";
let server = null;
try {
  server = await serve([cpu]);
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  page.on("console", (m) => { if (m.type() === "error") errors.push(m.text()); });

  // ---- top against `pprof-c top` ----
  await page.goto(server.url + "/ui/top");
  await page.waitForSelector("body[data-ready]");
  let rows = await tableRows(page);
  let want = cliTop([cpu]);
  check(rows.length === want.length && rows.length > 10, "top: as many rows as `pprof-c top`", rows.length + " vs " + want.length);
  check(JSON.stringify(rows) === JSON.stringify(want), "top: every cell equals `pprof-c top`",
        JSON.stringify(rows.find((r, i) => JSON.stringify(r) !== JSON.stringify(want[i]))));
  await page.screenshot({ path: path.join(artifacts, "web-top.png") });

  // ---- flame graph: the default page ----
  await page.goto(server.url + "/");
  await page.waitForSelector("body[data-ready]");
  check(new URL(page.url()).pathname === "/ui/flamegraph", "flame: / leads to the flame graph", page.url());
  const info = await page.evaluate(() => ({
    frames: document.querySelectorAll(".frame").length,
    labelled: [...document.querySelectorAll(".frame")].filter((f) => f.textContent.length > 2).length,
    width: document.getElementById("flame").clientWidth,
  }));
  check(info.frames > 50 && info.labelled > 10, "flame: frames render", JSON.stringify(info));
  await page.screenshot({ path: path.join(artifacts, "web-flame.png") });

  // Tooltip on hover.
  const target = page.locator(".frame[data-name='compress/flate.(*compressor).deflate']").first();
  await target.hover();
  const tip = await page.evaluate(() => ({ hidden: document.getElementById("tooltip").hidden,
                                           text: document.getElementById("tooltip").textContent }));
  check(!tip.hidden && /compress\/flate\.\(\*compressor\)\.deflate\n\S+ \(\S+%\)   self/.test(tip.text),
        "flame: tooltip names the frame with its value and share", JSON.stringify(tip));

  // Click zooms: the frame fills the width, the trail leads back.
  const before = await target.boundingBox();
  await target.click();
  await page.waitForFunction(() => document.querySelector(".trail a") !== null);
  const zoomed = page.locator(".frame[data-name='compress/flate.(*compressor).deflate']").first();
  const after = await zoomed.boundingBox();
  check(before && after && after.width > before.width * 1.5 && after.width >= info.width - 2,
        "flame: click zooms into the frame", JSON.stringify({ before, after, width: info.width }));
  await page.screenshot({ path: path.join(artifacts, "web-flame-zoomed.png") });
  await page.locator(".trail a").first().click();
  await page.waitForFunction(() => document.querySelector(".trail a") === null);
  const reset = await page.locator(".frame[data-name='compress/flate.(*compressor).deflate']").first().boundingBox();
  check(reset && Math.abs(reset.width - before.width) < 1, "flame: the trail's root zooms out", JSON.stringify(reset));

  // Search highlights the matching frames and shows their share.
  await page.fill("#search", "main\\.mix");
  await page.waitForFunction(() => document.querySelectorAll(".frame.match").length > 0);
  const found = await page.evaluate(() => ({
    hits: document.querySelectorAll(".frame.match").length,
    matched: document.getElementById("matched").textContent,
  }));
  check(found.hits > 0 && /^Matched: [0-9.]+%$/.test(found.matched) && found.matched !== "Matched: 0.0%",
        "flame: search highlights matches and shows their share", JSON.stringify(found));

  // ---- safety ----
  check(await rawGet(server.url + "/ui/top", "evil.example:" + new URL(server.url).port) === 403,
        "security: a foreign Host header is refused");
  check(await rawGet(server.url + "/ui/top", "localhost:" + new URL(server.url).port) === 200,
        "security: localhost's Host header is served");
  const csp = (await page.request.get(server.url + "/ui/top")).headers()["content-security-policy"] || "";
  check(/script-src 'self'/.test(csp) && /default-src 'none'/.test(csp), "security: a Content-Security-Policy header", csp);

  check(errors.length === 0, "no script errors", errors.join("; "));
  const exit = await stop(server);
  server = null;
  check(exit.code === 0, "Ctrl-C stops the server with status 0", JSON.stringify(exit));
} finally {
  if (server) server.proc.kill("SIGKILL");
  await browser.close();
}
console.log(`web: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
