// A big flame graph in a real browser: open FLAME.svg in Debian's headless
// Chromium (playwright-core from tests/browser) and time what a user does:
// the first render, a click that zooms into a frame, Reset Zoom, and a
// search. Prints one line per step with its time and "flame-browser: N
// passed, N failed". Run through bench/flame-browser.sh.
//
//   node bench/flame-browser.mjs FLAME.svg SCREENSHOT_DIR
import path from "node:path";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";

const require = createRequire(import.meta.url);
const { chromium } = require(path.resolve(path.dirname(new URL(import.meta.url).pathname),
                                          "../tests/browser/node_modules/playwright-core"));
const [flamePath, shots] = process.argv.slice(2);
let passed = 0, failed = 0;
function check(ok, what, detail) {
  if (ok) { passed++; console.log("ok " + what + (detail ? ": " + detail : "")); }
  else { failed++; console.log("FAIL " + what + (detail ? ": " + detail : "")); }
}
const ms = (t0) => `${Math.round(performance.now() - t0)} ms`;

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
try {
  const page = await browser.newPage({ viewport: { width: 1240, height: 1500 } });
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));

  // Load: parse the SVG, run its script, lay out every frame.
  let t0 = performance.now();
  await page.goto(pathToFileURL(path.resolve(flamePath)).href, { timeout: 120000 });
  const info = await page.evaluate(() => {
    const fs = [...document.querySelectorAll("g.f")];
    return { frames: fs.length, script: typeof window.pprofFlame,
             drawn: fs.filter((g) => g.querySelector("rect").getBoundingClientRect().width > 0).length,
             labelled: fs.filter((g) => g.querySelector("text").textContent.length > 2).length,
             merged: document.querySelectorAll("g.f[data-m]").length };
  });
  check(info.script === "object" && info.frames > 1000 && info.drawn === info.frames,
        "load and render", `${ms(t0)}, ${JSON.stringify(info)}`);
  await page.screenshot({ path: path.join(shots, "large-flame.png") });

  // Zoom into the widest frame three levels down (y of depth 3).
  const target = await page.evaluate(() => {
    const fs = [...document.querySelectorAll("g.f:not([data-m])")];
    const ys = [...new Set(fs.map((g) => +g.querySelector("rect").getAttribute("y")))].sort((a, b) => b - a);
    const row = fs.filter((g) => +g.querySelector("rect").getAttribute("y") === ys[3]);
    row.sort((a, b) => b.querySelector("rect").getAttribute("width") - a.querySelector("rect").getAttribute("width"));
    row[0].setAttribute("id", "bench-target");
    return { name: row[0].querySelector("title").textContent, width: +row[0].querySelector("rect").getAttribute("width") };
  });
  t0 = performance.now();
  await page.locator("#bench-target").click();
  const zoomed = await page.evaluate(() => ({
    width: document.querySelector("#bench-target rect").getBoundingClientRect().width,
    hidden: document.querySelectorAll("g.f.hide").length,
  }));
  check(zoomed.width > 1000 && zoomed.hidden > 100, "click zooms", `${ms(t0)}, ${target.name}: ${target.width.toFixed(1)} px -> ${zoomed.width.toFixed(1)} px, ${zoomed.hidden} frames hidden`);
  await page.screenshot({ path: path.join(shots, "large-flame-zoomed.png") });

  t0 = performance.now();
  await page.locator("#unzoom").click();
  const back = await page.evaluate(() => document.querySelectorAll("g.f.hide").length);
  check(back === 0, "Reset Zoom", ms(t0));

  t0 = performance.now();
  page.once("dialog", (d) => d.accept("Method01"));
  await page.locator("#search").click();
  const found = await page.evaluate(() => ({
    hits: [...document.querySelectorAll("g.f rect")].filter((r) => r.getAttribute("fill") === "rgb(230,0,230)").length,
    matched: document.getElementById("matched").textContent,
  }));
  check(found.hits > 0 && /^Matched: [0-9.]+%$/.test(found.matched), "search highlights",
        `${ms(t0)}, ${found.hits} frames, ${found.matched}`);
  await page.screenshot({ path: path.join(shots, "large-flame-search.png") });
  check(errors.length === 0, "no script errors", errors.join("; "));
} catch (e) {
  check(false, "browser run", String(e));
} finally {
  await browser.close();
}
console.log(`flame-browser: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
