// Real-browser checks of pprof-c's pictures in Debian's headless Chromium,
// driven over the DevTools protocol by playwright-core:
//
//   node tests/browser/pictures.mjs FLAME.svg GRAPH.svg ARTIFACT_DIR SPEEDSCOPE_APP
//
// Flame graph: frames render with real sizes, a click zooms into a frame
// (it widens to the full width, frames outside it hide), Reset Zoom restores,
// Search (a prompt() answered here) highlights matching frames and shows
// their share. Call graph: nodes and edges render, the mouse wheel zooms and
// a drag pans the viewport. speedscope: ARTIFACT_DIR's *.speedscope.json
// files (run.sh) load in speedscope's own app (SPEEDSCOPE_APP, its
// index.html) with the expected profiles, and a file with one negative
// weight is refused, as speedscope refuses it (the control that shows the
// check can fail). Screenshots go to ARTIFACT_DIR. Prints one line
// per check and "browser: N passed, N failed"; exit status 1 on a failure.
import { chromium } from "playwright-core";
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const [flamePath, graphPath, artifacts, speedscopeApp] = process.argv.slice(2);
let passed = 0, failed = 0;
function check(ok, what, detail) {
  if (ok) { passed++; console.log("ok " + what); }
  else { failed++; console.log("FAIL " + what + (detail ? ": " + detail : "")); }
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
         "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"],
});
try {
  const page = await browser.newPage({ viewport: { width: 1240, height: 900 } });
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));

  // ---- flame graph ----
  await page.goto(pathToFileURL(path.resolve(flamePath)).href);
  const info = await page.evaluate(() => {
    const fs = [...document.querySelectorAll("g.f")];
    const wide = fs.filter((g) => g.querySelector("rect").getBoundingClientRect().width > 20);
    const labelled = fs.filter((g) => g.querySelector("text").textContent.length > 2);
    return { frames: fs.length, wide: wide.length, labelled: labelled.length,
             script: typeof window.pprofFlame };
  });
  check(info.script === "object", "flame: script ran", info.script);
  check(info.frames > 100 && info.wide > 20, "flame: frames render", JSON.stringify(info));
  check(info.labelled > 10, "flame: frames carry fitted names", JSON.stringify(info));
  await page.screenshot({ path: path.join(artifacts, "flame.png") });

  // Click a frame: it fills the width, frames beside it hide.
  const target = page.locator("g.f", { has: page.locator("title", { hasText: /^main\.cpuWorkload\.func2 \(/ }) }).first();
  const before = await target.locator("rect").boundingBox();
  await target.click();
  const after = await target.locator("rect").boundingBox();
  const zoom = await page.evaluate(() => ({
    hidden: document.querySelectorAll("g.f.hide").length,
    unzoom: document.getElementById("unzoom").getAttribute("class"),
  }));
  check(before && after && after.width > before.width * 1.5 && after.width > 1000,
        "flame: click zooms into the frame", JSON.stringify({ before, after }));
  check(zoom.hidden > 10 && zoom.unzoom === "button", "flame: frames outside the zoomed one hide", JSON.stringify(zoom));
  await page.screenshot({ path: path.join(artifacts, "flame-zoomed.png") });
  await page.locator("#unzoom").click();
  const reset = await target.locator("rect").boundingBox();
  check(reset && Math.abs(reset.width - before.width) < 1, "flame: Reset Zoom restores", JSON.stringify(reset));

  // Search through the prompt: matching frames turn magenta, share shown.
  page.once("dialog", (d) => d.accept("main\\.mix"));
  await page.locator("#search").click();
  const found = await page.evaluate(() => ({
    hits: [...document.querySelectorAll("g.f rect")].filter((r) => r.getAttribute("fill") === "rgb(230,0,230)").length,
    matched: document.getElementById("matched").textContent,
  }));
  check(found.hits > 0 && /^Matched: [0-9.]+%$/.test(found.matched) && found.matched !== "Matched: 0.0%",
        "flame: search highlights matches and shows their share", JSON.stringify(found));
  await page.screenshot({ path: path.join(artifacts, "flame-search.png") });
  check(errors.length === 0, "flame: no script errors", errors.join("; "));

  // ---- call graph ----
  await page.goto(pathToFileURL(path.resolve(graphPath)).href);
  const g = await page.evaluate(() => ({
    nodes: document.querySelectorAll("g.node").length,
    edges: document.querySelectorAll("g.edge").length,
    visible: [...document.querySelectorAll("g.node")].filter((n) => n.getBoundingClientRect().width > 0).length,
    script: typeof window.pprofPanZoom,
  }));
  check(g.script === "object" && g.nodes > 10 && g.edges > 10 && g.visible === g.nodes,
        "svg: call graph renders", JSON.stringify(g));
  // Opened at 1:1 (a unit of the drawing per CSS pixel, as pprof opens
  // it), not fitted to the window, with the top node in view.
  const open = await page.evaluate(() => {
    let top = null;
    for (const n of document.querySelectorAll("g.node")) {
      if (!/^N\d+$/.test(n.querySelector("title").textContent)) continue; // the legend
      const r = n.getBoundingClientRect();
      if (!top || r.top < top.top - 1) top = r;
    }
    return { scale: document.querySelector("g.node text").getScreenCTM().a,
             top: top && { left: top.left, right: top.right, top: top.top, bottom: top.bottom },
             w: window.innerWidth, h: window.innerHeight };
  });
  check(Math.abs(open.scale - 1) < 0.01 && open.top.left >= 0 && open.top.right <= open.w &&
        open.top.top >= 0 && open.top.bottom <= open.h, "svg: opens at 1:1 with the top node in view", JSON.stringify(open));
  await page.screenshot({ path: path.join(artifacts, "graph.png") });
  const box0 = await page.locator("g.node").first().boundingBox();
  await page.mouse.move(620, 450);
  await page.mouse.wheel(0, -600);
  await page.waitForTimeout(100);
  const box1 = await page.locator("g.node").first().boundingBox();
  const z = await page.evaluate(() => window.pprofPanZoom.state());
  check(z.scale > 1.5 && box1.width > box0.width * 1.5, "svg: wheel zooms", JSON.stringify({ z, box0, box1 }));
  await page.mouse.move(600, 400);
  await page.mouse.down();
  await page.mouse.move(400, 300, { steps: 5 });
  await page.mouse.up();
  const box2 = await page.locator("g.node").first().boundingBox();
  check(box2.x < box1.x - 100 && box2.y < box1.y - 50, "svg: drag pans", JSON.stringify({ box1, box2 }));
  await page.mouse.dblclick(600, 400);
  const back = await page.evaluate(() => document.querySelector("g.node text").getScreenCTM().a);
  check(Math.abs(back - 1) < 0.01, "svg: a double-click returns to 1:1", String(back));
  await page.screenshot({ path: path.join(artifacts, "graph-zoomed.png") });
  check(errors.length === 0, "svg: no script errors", errors.join("; "));

  // ---- speedscope ----
  // The app's own way to open a local file (its command-line tool's):
  // index.html#localProfilePath=F.js, F.js handing the file over in base64.
  const speedscope = async (json) => {
    const js = json + ".js";
    fs.writeFileSync(js, `speedscope.loadFileFromBase64(${JSON.stringify(path.basename(json))}, ` +
      `${JSON.stringify(fs.readFileSync(json).toString("base64"))})`);
    const logs = [];
    const onConsole = (m) => logs.push(m.text());
    page.on("console", onConsole);
    await page.goto("about:blank");
    await page.goto(pathToFileURL(speedscopeApp).href + "#localProfilePath=" + js);
    // Loaded when the title names the file's profile, or failed.
    await page.waitForFunction(() => document.title !== "speedscope" ||
                                     /Something went wrong/.test(document.body.innerText),
                               null, { timeout: 20000 }).catch(() => {});
    await page.waitForTimeout(200);
    page.off("console", onConsole);
    return { title: await page.title(), text: await page.evaluate(() => document.body.innerText),
             logs: logs.filter((l) => /Failed|Error/.test(l)).join(" | ") };
  };
  // The profile's name in the toolbar, "NAME (I/N)" when there are several.
  const toolbar = (text) => (text.match(/^(cpu.*)$/m) || [])[1];
  let ss = await speedscope(path.join(artifacts, "cpu.speedscope.json"));
  check(ss.title === "goprog cpu - speedscope" && toolbar(ss.text) === "cpu" && !ss.logs,
        "speedscope: a profile loads in speedscope's app", JSON.stringify({ title: ss.title, bar: toolbar(ss.text), logs: ss.logs }));
  await page.screenshot({ path: path.join(artifacts, "speedscope.png") });
  ss = await speedscope(path.join(artifacts, "diff.speedscope.json"));
  check(toolbar(ss.text) === "cpu (1/2)" && !ss.logs, "speedscope: -diff_base loads, the new profile first",
        JSON.stringify({ bar: toolbar(ss.text), logs: ss.logs }));
  await page.keyboard.press("n"); // speedscope's key for the next profile
  await page.waitForTimeout(300);
  const next = toolbar(await page.evaluate(() => document.body.innerText));
  check(next === "cpu (base) (2/2)", "speedscope: -diff_base's second profile is the base", next);
  await page.screenshot({ path: path.join(artifacts, "speedscope-base.png") });
  ss = await speedscope(path.join(artifacts, "base.speedscope.json"));
  check(toolbar(ss.text) === "cpu (1/2)" && !ss.logs, "speedscope: -base loads, negative stacks apart",
        JSON.stringify({ bar: toolbar(ss.text), logs: ss.logs }));
  const neg = JSON.parse(fs.readFileSync(path.join(artifacts, "base.speedscope.json")));
  neg.profiles[0].weights[0] = -1;
  fs.writeFileSync(path.join(artifacts, "negative.speedscope.json"), JSON.stringify(neg));
  ss = await speedscope(path.join(artifacts, "negative.speedscope.json"));
  check(/Something went wrong/.test(ss.text) && /positive weights/.test(ss.logs),
        "speedscope: a negative weight is refused (control)", JSON.stringify({ text: ss.text.slice(0, 80), logs: ss.logs.slice(0, 120) }));
} catch (e) {
  check(false, "browser run", String(e));
} finally {
  await browser.close();
}
console.log(`browser: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
