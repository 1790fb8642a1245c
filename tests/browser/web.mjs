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
import { pathToFileURL } from "node:url";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { hostileProfile } from "./hostile.mjs";

const [bin, artifacts] = process.argv.slice(2);
let passed = 0, failed = 0;
function check(ok, what, detail) {
  if (ok) { passed++; console.log("ok " + what); }
  else { failed++; console.log("FAIL " + what + (detail ? ": " + detail : "")); }
}

// Start a server; resolves to { url, proc } once it prints its address.
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "pprof-c-web-"));
const serverEnv = Object.assign({}, process.env, { XDG_CONFIG_HOME: path.join(tmp, "config") });
function serve(args) {
  return new Promise((resolve, reject) => {
    const proc = spawn(bin, ["-http=:0", "-no_browser", ...args], { stdio: ["ignore", "ignore", "pipe"], env: serverEnv });
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

function cli(args) {
  return execFileSync(bin, args, { encoding: "utf8" });
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

// WCAG's contrast ratio of two CSS colours ("rgb(r, g, b)").
function contrast(a, b) {
  const lum = (c) => {
    const m = /(\d+)\D+(\d+)\D+(\d+)/.exec(c);
    const lin = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * lin(+m[1]) + 0.7152 * lin(+m[2]) + 0.0722 * lin(+m[3]);
  };
  const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
  return (x + 0.05) / (y + 0.05);
}

// The lowest contrast between a labelled frame's text and its colour:
// the web UI's div frames, or a flame SVG's g.f groups.
async function worstContrast(page, svg) {
  const pairs = await page.evaluate((svg) => {
    if (svg)
      return [...document.querySelectorAll("g.f")].filter((g) => g.querySelector("text").textContent.length > 2)
        .map((g) => [getComputedStyle(g.querySelector("text")).fill, g.querySelector("rect").getAttribute("fill"), g.querySelector("title").textContent]);
    return [...document.querySelectorAll(".frame")].filter((f) => f.textContent.length > 2)
      .map((f) => [getComputedStyle(f).color, getComputedStyle(f).backgroundColor, f.dataset.name]);
  }, svg);
  let worst = { ratio: Infinity };
  for (const [fg, bg, name] of pairs) {
    const ratio = contrast(fg, bg);
    if (ratio < worst.ratio) worst = { ratio, fg, bg, name };
  }
  return Object.assign(worst, { frames: pairs.length });
}

async function tableRows(page) {
  return page.$$eval("table.top tbody tr", (trs) => trs.map((tr) =>
    [...tr.children].map((td) => td.textContent)));
}

function rawGet(url, host) {
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    const req = http.get({ host: u.hostname, port: u.port, autoSelectFamily: true, path: u.pathname,
                          headers: { Host: host } },
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
  // The window's width, not a fixed 1200 px: wider and narrower.
  for (const w of [1600, 900]) {
    await page.setViewportSize({ width: w, height: 900 });
    await page.waitForFunction((w) => {
      const box = document.getElementById("flame"), root = document.querySelector(".frame");
      return root && box.clientWidth > w - 60 && Math.abs(root.getBoundingClientRect().width - box.clientWidth) < 2;
    }, w, { timeout: 5000 }).then(() => check(true, "flame: frames fill a " + w + " px window"),
      async () => check(false, "flame: frames fill a " + w + " px window", JSON.stringify(await page.evaluate(() =>
        [document.getElementById("flame").clientWidth, document.querySelector(".frame").getBoundingClientRect().width]))));
  }
  await page.setViewportSize({ width: 1280, height: 900 });

  // Search highlights the matching frames and shows their share.
  await page.fill("#search", "main\\.mix");
  await page.waitForFunction(() => document.querySelectorAll(".frame.match").length > 0);
  const found = await page.evaluate(() => ({
    hits: document.querySelectorAll(".frame.match").length,
    matched: document.getElementById("matched").textContent,
  }));
  check(found.hits > 0 && /^Matched: [0-9.]+%$/.test(found.matched) && found.matched !== "Matched: 0.0%",
        "flame: search highlights matches and shows their share", JSON.stringify(found));

  // Pivot: the callers of a selected function, and the sandwich.
  await page.fill("#search", "");
  await page.goto(server.url + "/ui/flamegraph");
  await page.waitForSelector("body[data-ready]");
  await page.locator(".frame[data-name='main.mix']").first().click();
  await page.waitForFunction(() => document.querySelector(".trail a") !== null);
  await Promise.all([page.waitForNavigation(), page.click("#callers")]);
  await page.waitForSelector("body[data-ready]");
  const pu = new URL(page.url());
  check(pu.searchParams.get("pivot") === "main.mix" && pu.searchParams.get("side") === "callers", "pivot: Callers opens the callers of the selected frame", page.url());
  const mixTop = cliTop([cpu]).find((r) => r[5].startsWith("main.mix"));
  await page.locator("#flame .frame[data-id='0']").hover();
  const ptip = await page.textContent("#tooltip");
  const proot = await page.locator("#flame .frame[data-id='0']").boundingBox();
  const pcallers = await page.$$eval("#flame .frame", (fs) => fs.map((f) => f.dataset.name));
  check(ptip.startsWith("main.mix\n") && ptip.includes("(" + mixTop[4] + ")") && proot.width > 1000 &&
        pcallers.includes("main.step"),
        "pivot: main.mix at the root with its cum share, its callers above", JSON.stringify({ ptip, cum: mixTop[4], pcallers: pcallers.slice(0, 4) }));
  await page.screenshot({ path: path.join(artifacts, "web-callers.png") });
  await Promise.all([page.waitForNavigation(), page.click("#sandwich")]);
  await page.waitForSelector("body[data-ready]");
  const sw = await page.evaluate(() => ({
    up: [...document.querySelectorAll("#flame .frame")].map((f) => f.dataset.name),
    down: [...document.querySelectorAll("#flame-callees .frame")].map((f) => f.dataset.name),
  }));
  check(sw.up.includes("main.step") && sw.down[0] === "main.mix" && sw.down.includes("runtime.asyncPreempt"),
        "pivot: the sandwich shows callers above and callees below", JSON.stringify(sw));
  await page.screenshot({ path: path.join(artifacts, "web-sandwich.png") });

  // ---- safety ----
  check(await rawGet(server.url + "/ui/top", "evil.example:" + new URL(server.url).port) === 403,
        "security: a foreign Host header is refused");
  check(await rawGet(server.url + "/ui/top", "localhost:" + new URL(server.url).port) === 200,
        "security: localhost's Host header is served");
  const csp = (await page.request.get(server.url + "/ui/top")).headers()["content-security-policy"] || "";
  check(/script-src 'self'/.test(csp) && /default-src 'none'/.test(csp), "security: a Content-Security-Policy header", csp);

  // ---- top: search, refine, sample type ----
  await page.goto(server.url + "/ui/top");
  await page.waitForSelector("body[data-ready]");
  await page.fill("#search", "^runtime\\.");
  await page.waitForFunction(() => /matched/.test(document.getElementById("matched").textContent));
  const shown = await page.$$eval("table.top tbody tr", (trs) => trs.filter((t) => !t.hidden).map((t) => t.lastChild.textContent));
  check(shown.length > 2 && shown.every((n) => n.startsWith("runtime.")), "top: search keeps the matching rows", JSON.stringify(shown));
  await page.fill("#search", "");
  await page.locator("table.top tbody tr", { has: page.locator("td.name", { hasText: /^main\.mix/ }) }).click();
  check(await page.locator("tr.selected").count() === 1, "top: a click selects the row");
  await page.hover("#refine-menu");
  await Promise.all([page.waitForNavigation(), page.click("#refine-menu a[data-refine=f]")]);
  await page.waitForSelector("body[data-ready]");
  const focusURL = new URL(page.url());
  check(focusURL.pathname === "/ui/top" && focusURL.searchParams.get("f") === "^main\\.mix$", "refine: Focus puts f=^main\\.mix$ in the URL", page.url());
  rows = await tableRows(page);
  want = cliTop(["-focus=^main\\.mix$", cpu]);
  check(rows.length > 0 && JSON.stringify(rows) === JSON.stringify(want), "refine: the table equals `pprof-c top -focus=^main\\.mix$`",
        JSON.stringify([rows.length, want.length, rows[0], want[0]]));
  const legend = await page.textContent("#legend");
  check(/focus=\^main\\\.mix\$/.test(legend), "refine: the header names the filter", legend);
  await page.hover("#refine-menu");
  await Promise.all([page.waitForNavigation(), page.click("#refine-menu a[data-refine=reset]")]);
  check(!new URL(page.url()).searchParams.has("f"), "refine: Reset drops the filters", page.url());
  // Refines that take frames out (hide, show, show_from) make their flame
  // tree from the whole profile's: the same JSON as the command line's.
  for (const [q, args] of [["h=runtime", ["-hide=runtime"]], ["s=main", ["-show=main"]],
                           ["sf=compress", ["-show_from=compress"]],
                           ["f=flate&h=runtime", ["-focus=flate", "-hide=runtime"]],
                           ["i=gzip&s=flate&sf=deflate", ["-ignore=gzip", "-show=flate", "-show_from=deflate"]],
                           ["h=runtime&si=samples", ["-hide=runtime", "-sample_index=samples"]]]) {
    const got = await (await fetch(server.url + "/api/flame?" + q)).text();
    const flame = cli(["flame", "-json", ...args, cpu]);
    check(got === flame, "refine: /api/flame?" + q + " equals `pprof-c flame -json " + args.join(" ") + "`",
          JSON.stringify([got.length, flame.length]));
  }
  await page.waitForSelector("body[data-ready]");
  await page.hover("#sample-menu");
  await Promise.all([page.waitForNavigation(), page.click("#sample-types a:text-is('samples')")]);
  await page.waitForSelector("body[data-ready]");
  check(new URL(page.url()).searchParams.get("si") === "samples", "sample type: the menu sets si", page.url());
  rows = await tableRows(page);
  want = cliTop(["-sample_index=samples", cpu]);
  check(rows.length > 0 && JSON.stringify(rows) === JSON.stringify(want), "sample type: the table equals `pprof-c top -sample_index=samples`",
        JSON.stringify([rows[0], want[0]]));

  // ---- graph, peek, source ----
  await page.goto(server.url + "/ui/");
  await page.waitForSelector("body[data-ready]");
  const gnodes = await page.locator("#graph g.node").count();
  check(gnodes > 10, "graph: the call graph renders", String(gnodes));
  // Opened at 1:1 (a unit of graphviz's drawing per CSS pixel, as pprof
  // opens it), with the top node, the hottest path's root, in view.
  const graphScale = () => page.evaluate(() => document.querySelector("#graph g.node text").getScreenCTM().a);
  const opening = await page.evaluate(() => {
    const svg = document.querySelector("#graph svg"), box = document.getElementById("graph").getBoundingClientRect();
    let top = null;
    for (const n of svg.querySelectorAll("g.node")) {
      if (!/^N\d+$/.test(n.querySelector("title").textContent)) continue; // the legend
      const r = n.getBoundingClientRect();
      const y = n.getBBox().y;
      if (!top || y < top.y) top = { y, left: r.left, right: r.right, top: r.top, bottom: r.bottom, id: n.id,
                                     name: n.querySelector("text").textContent };
    }
    const full = svg.querySelector("g").getBBox();
    return { box: { left: box.left, right: box.right, top: box.top, bottom: box.bottom }, top, full: { w: full.width, h: full.height } };
  });
  const scale0 = await graphScale();
  check(Math.abs(scale0 - 1) < 0.01 && opening.full.w > opening.box.right - opening.box.left,
        "graph: opens at 1:1, not fitted to the window", JSON.stringify({ scale0, opening }));
  const t = opening.top;
  check(t.left >= opening.box.left && t.right <= opening.box.right && t.top >= opening.box.top && t.bottom <= opening.box.bottom,
        "graph: the top node (" + t.name + ") is in view", JSON.stringify(opening));
  await page.screenshot({ path: path.join(artifacts, "web-graph-open.png") });
  // A gentler zoom step: about 10% a wheel notch.
  await page.mouse.move(640, 400);
  await page.mouse.wheel(0, -100);
  await page.waitForFunction((s) => Math.abs(document.querySelector("#graph g.node text").getScreenCTM().a - s) > 1e-6, scale0);
  const step = (await graphScale()) / scale0;
  check(step > 1.05 && step < 1.15, "graph: one wheel notch zooms by about 10%", String(step));
  await page.mouse.dblclick(640, 400);
  check(Math.abs((await graphScale()) - 1) < 0.01, "graph: a double-click returns to 1:1", String(await graphScale()));
  await page.locator("#graph g.node#" + opening.top.id).click();
  check(await page.locator("#graph g.node.selected").count() === 1, "graph: a click selects a node");
  const before2 = await page.$eval("#graph svg", (s) => s.getAttribute("viewBox"));
  await page.mouse.move(600, 400);
  await page.mouse.wheel(0, -300);
  const after2 = await page.$eval("#graph svg", (s) => s.getAttribute("viewBox"));
  check(before2 !== after2, "graph: the wheel zooms", before2 + " -> " + after2);
  await page.screenshot({ path: path.join(artifacts, "web-graph.png") });
  await page.goto(server.url + "/ui/peek?f=main.mix");
  await page.waitForSelector("body[data-ready]");
  const peekText = await page.textContent("pre.report");
  const peekWant = cli(["peek", "-focus=main.mix", "main.mix", cpu]);
  check(peekText === peekWant, "peek: the text equals `pprof-c peek -focus=main.mix main.mix`",
        peekText.slice(0, 80) + " | " + peekWant.slice(0, 80));
  // The source view without the binary: weblist's listing, as pprof's web
  // UI shows it; each function's text as `pprof-c weblist` writes it on
  // its page (the calls inlined below a line included, hidden).
  await page.goto(server.url + "/ui/source?f=main.mix");
  await page.waitForSelector("body[data-ready]");
  const srcFns = await page.$$eval("#source-weblist pre", (ps) => ps.map((p) => p.textContent));
  const mixFile = path.join(tmp, "mix.html");
  execFileSync(bin, ["weblist", "-focus=main.mix", "-output=" + mixFile, "main.mix", cpu], { stdio: "ignore" });
  const unescape = (t) => t.replace(/<[^>]*>/g, "").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&#34;/g, "\"")
    .replace(/&#39;/g, "'").replace(/&#43;/g, "+").replace(/&amp;/g, "&");
  const wlFns = [...fs.readFileSync(mixFile, "utf8").matchAll(/<pre onClick="pprof_toggle_asm\(event\)">\n([\s\S]*?)\n<\/pre>/g)]
    .map((m) => unescape(m[1]));
  check(srcFns.length > 0 && JSON.stringify(srcFns) === JSON.stringify(wlFns),
        "source: each function as `pprof-c weblist -focus=main.mix main.mix` lists it",
        JSON.stringify(srcFns).slice(0, 300) + " | " + JSON.stringify(wlFns).slice(0, 300));

  // ---- named configurations in pprof's settings.json ----
  await page.goto(server.url + "/ui/top?f=main");
  await page.waitForSelector("body[data-ready]");
  page.once("dialog", (d) => d.accept("mine"));
  await page.hover("#config-menu");
  await page.click("#save-config");
  await page.waitForSelector("#configs a[data-config=mine]", { state: "attached" });
  const settingsFile = path.join(tmp, "config", "pprof", "settings.json");
  const saved = fs.existsSync(settingsFile) ? JSON.parse(fs.readFileSync(settingsFile, "utf8")) : null;
  check(saved && saved.configs.length === 1 && saved.configs[0].name === "mine" && saved.configs[0].focus === "main" &&
        saved.configs[0].nodefraction === 0.005 && saved.configs[0].granularity === "functions",
        "config: Save writes pprof's settings.json", JSON.stringify(saved));
  await page.goto(server.url + "/ui/top");
  await page.waitForSelector("#configs a[data-config=mine]", { state: "attached" });
  await page.hover("#config-menu");
  await Promise.all([page.waitForNavigation(), page.click("#configs a[data-config=mine]")]);
  await page.waitForSelector("body[data-ready]");
  check(new URL(page.url()).searchParams.get("f") === "main", "config: choosing it reloads its options", page.url());
  rows = await tableRows(page);
  check(JSON.stringify(rows) === JSON.stringify(cliTop(["-focus=main", cpu])), "config: the reloaded table equals `pprof-c top -focus=main`");
  page.once("dialog", (d) => d.accept());
  await page.hover("#config-menu");
  await page.click("#configs button.delete-config");
  await page.waitForFunction(() => !document.querySelector("#configs a[data-config=mine]"));
  const after3 = JSON.parse(fs.readFileSync(settingsFile, "utf8"));
  check(after3.configs.length === 0, "config: delete removes it from settings.json", JSON.stringify(after3));
  const cross = await new Promise((resolve) => {
    const u = new URL(server.url);
    const req = http.request({ host: u.hostname, port: u.port, autoSelectFamily: true,
                               path: "/saveconfig?config=evil", method: "POST",
                               headers: { Origin: "http://evil.example" } }, (res) => { res.resume(); resolve(res.statusCode); });
    req.end();
  });
  check(cross === 403, "security: a cross-origin save is refused", String(cross));

  check(errors.length === 0, "no script errors", errors.join("; "));
  errors.length = 0;
  const exit = await stop(server);
  server = null;
  check(exit.code === 0, "Ctrl-C stops the server with status 0", JSON.stringify(exit));

  // ---- -diff_base: colours and signed values ----
  const beforeP = "testdata/go/cpu_before.pb.gz", afterP = "testdata/go/cpu_after.pb.gz";
  server = await serve(["-diff_base=" + beforeP, afterP]);
  await page.goto(server.url + "/ui/top");
  await page.waitForSelector("body[data-ready]");
  rows = await tableRows(page);
  want = cliTop(["-diff_base=" + beforeP, afterP]);
  check(rows.length > 0 && JSON.stringify(rows) === JSON.stringify(want) && rows.some((r) => r[0].startsWith("-")),
        "diff: the table's signed values equal `pprof-c top -diff_base`", JSON.stringify([rows[0], want[0]]));
  await page.goto(server.url + "/ui/flamegraph");
  await page.waitForSelector("body[data-ready]");
  const colours = await page.$$eval(".frame", (fs) => fs.map((f) => f.style.background));
  const red = colours.filter((c) => /^rgb\(255, (\d+), \1\)$/.test(c) && c !== "rgb(255, 255, 255)").length;
  const blue = colours.filter((c) => /^rgb\((\d+), \1, 255\)$/.test(c)).length;
  check(red > 0 && blue > 0, "diff: frames that grew are red, frames that shrank blue", red + " red, " + blue + " blue");
  // Text by contrast: white on the saturated blue of what shrank most.
  const wc = await worstContrast(page, false);
  check(wc.frames > 10 && wc.ratio >= 4.5, "diff: every frame's text contrasts with its colour (4.5:1)", JSON.stringify(wc));
  await page.screenshot({ path: path.join(artifacts, "web-diff.png") });
  await stop(server);
  server = null;

  // ---- hostile names: text, never markup or script ----
  const hostile = path.join(tmp, "hostile.pb.gz");
  fs.writeFileSync(hostile, hostileProfile());
  server = await serve([hostile]);
  let dialogs = 0;
  page.on("dialog", (d) => { dialogs++; d.dismiss(); });
  for (const view of ["top", "flamegraph", "", "peek?f=.", "source?f=."]) {
    await page.goto(server.url + "/ui/" + view);
    await page.waitForSelector("body[data-ready]");
    await page.mouse.move(300, 150);
  }
  await page.goto(server.url + "/ui/top");
  await page.waitForSelector("body[data-ready]");
  const names = await page.$$eval("table.top td.name", (tds) => tds.map((t) => t.textContent));
  const pwned = await page.evaluate(() => window.__pwned);
  check(pwned === undefined && dialogs === 0, "hostile: no name runs script", String(pwned));
  check(names.includes("<img src=x onerror=\"window.__pwned=1\">") && names.includes("</script><script>window.__pwned=2</script>") &&
        names.some((n) => n.includes("\ufffd")) && (await page.locator("#content img").count()) === 0,
        "hostile: names render as text", JSON.stringify(names));
  check(errors.length === 0, "hostile: no script errors", errors.join("; "));
  await stop(server);
  server = null;

  // ---- names with NUL bytes and invalid UTF-8: pivoted on whole ----
  // testdata/names/nul.pb.gz: "a\0x" and "a\0y" differ only after a NUL,
  // "b\xff\xfe" is invalid UTF-8. Each is its own pivot, at its own cum,
  // and each frame has the colour `pprof-c flame` gives it.
  const nul = "testdata/names/nul.pb.gz";
  server = await serve([nul]);
  const nulTop = cliTop([nul]);
  const nulFlame = cli(["flame", nul]);
  const svgFill = (title) => {
    const i = nulFlame.indexOf("<title>" + title + " (");
    const m = i < 0 ? null : /fill="(rgb\(\d+,\d+,\d+\))"/.exec(nulFlame.slice(i));
    return m ? m[1].replace(/,/g, ", ") : "none";
  };
  for (const [name, svgTitle, param] of [["a\u0000x", "a\\x00x", ["pivot", "a\u0000x"]],
                                         ["a\u0000y", "a\\x00y", ["pivot", "a\u0000y"]],
                                         ["b\ufffd\ufffd", "b\ufffd\ufffd", ["pivotx", "62fffe"]]]) {
    await page.goto(server.url + "/ui/flamegraph");
    await page.waitForSelector("body[data-ready]");
    const bg = await page.evaluate((n) => {
      const f = [...document.querySelectorAll("#flame .frame")].find((x) => x.dataset.name === n);
      if (!f) return null;
      f.click();
      return f.style.background;
    }, name);
    check(bg === svgFill(svgTitle), "nul: " + JSON.stringify(name) + " has pprof-c flame's colour", bg + " vs " + svgFill(svgTitle));
    await page.waitForFunction(() => document.querySelector(".trail a") !== null);
    await Promise.all([page.waitForNavigation(), page.click("#callers")]);
    await page.waitForSelector("body[data-ready]");
    const u = new URL(page.url());
    const other = param[0] === "pivot" ? "pivotx" : "pivot";
    check(u.searchParams.get(param[0]) === param[1] && !u.searchParams.get(other),
          "nul: Callers of " + JSON.stringify(name) + " names it whole (" + param[0] + ")", page.url());
    await page.locator("#flame .frame[data-id='0']").hover();
    const tip = await page.textContent("#tooltip");
    const row = nulTop.find((r) => r[5] === name);
    check(row && tip.startsWith(name + "\n") && tip.includes("(" + row[4] + ")") &&
          (await page.textContent("h3.flame-title")) === "Callers of " + name,
          "nul: the pivot on " + JSON.stringify(name) + " is worth its cum", JSON.stringify({ tip, row }));
  }
  check(errors.length === 0, "nul: no script errors", errors.join("; "));
  await stop(server);
  server = null;

  // ---- `pprof-c flame`: the window's width, text by contrast ----
  const flameFile = path.join(tmp, "diff-flame.svg");
  cli(["flame", "-output=" + flameFile, "-diff_base=testdata/go/cpu_before.pb.gz", "testdata/go/cpu_after.pb.gz"]);
  for (const w of [1600, 900]) {
    await page.setViewportSize({ width: w, height: 900 });
    await page.goto(pathToFileURL(flameFile).href);
    await page.waitForFunction(() => window.pprofFlame !== undefined);
    const fw = await page.evaluate(() => ({ root: document.querySelector("g.f rect").getBoundingClientRect().width,
                                            window: document.documentElement.getBoundingClientRect().width }));
    check(Math.abs(fw.root - (fw.window - 20)) < 2 && fw.window > w - 30,
          "flame file: the graph is as wide as a " + w + " px window", JSON.stringify(fw));
  }
  const fc = await worstContrast(page, true);
  check(fc.frames > 10 && fc.ratio >= 4.5, "flame file: every frame's text contrasts with its colour (4.5:1)", JSON.stringify(fc));
  await page.screenshot({ path: path.join(artifacts, "flame-diff-file.png") });
  await page.setViewportSize({ width: 1280, height: 900 });
  // ---- disassembly: /ui/disasm and the source view's instructions, against
  // `pprof-c disasm`; weblist's own page from disk ----
  const nbin = "testdata/native/cprog-pie", nprof = "testdata/native/cprog-pie.cpu.prof";
  serverEnv.PPROF_BINARY_PATH = "testdata/native";
  server = await serve([nbin, nprof]);
  await page.goto(server.url + "/ui/disasm?f=hash_loop");
  await page.waitForSelector("body[data-ready]");
  const dtext = await page.textContent("pre.report");
  const dwant = cli(["disasm", "-focus=hash_loop", "hash_loop", nbin, nprof]);
  check(dtext === dwant && /ROUTINE =+ hash_loop/.test(dtext), "disasm: the text equals `pprof-c disasm -focus=hash_loop hash_loop`",
        dtext.slice(0, 80) + " | " + dwant.slice(0, 80));
  // pprof's intel=t: the same listing in Intel syntax (-intel_syntax).
  await page.goto(server.url + "/ui/disasm?f=hash_loop&intel=t");
  await page.waitForSelector("body[data-ready]");
  const itext = await page.textContent("pre.report");
  const iwant = cli(["disasm", "-intel_syntax", "-focus=hash_loop", "hash_loop", nbin, nprof]);
  check(itext === iwant && itext !== dtext && !/%[re]/.test(itext),
        "disasm?intel=t: the text equals `pprof-c disasm -intel_syntax` (no AT&T registers)",
        itext.slice(0, 160) + " | " + iwant.slice(0, 160));
  // Each instruction the source view shows has disasm's values.
  const dvals = new Map();
  for (const l of dwant.split("\n")) {
    const m = /^ *(\S+) +(\S+) +([0-9a-f]+): /.exec(l);
    if (m) dvals.set(m[3], m[1] + " " + m[2]);
  }
  await page.goto(server.url + "/ui/source?f=hash_loop");
  await page.waitForSelector("body[data-ready]");
  const live = page.locator("#source-weblist span.livesrc").first();
  check(await page.locator("#source-weblist .asm.open").count() === 0, "source: instructions start hidden");
  await live.click();
  check(await page.locator("#source-weblist .asm.open").count() === 1, "source: a click on a line shows its instructions");
  const rows2 = await page.$$eval("#source-weblist span.insn", (xs) => xs.map((x) => x.textContent.trim().split(/\s+/)));
  const wrong = rows2.filter((r) => dvals.get(r[2].replace(/:$/, "")) !== r[0] + " " + r[1]);
  check(rows2.length > 20 && wrong.length === 0, "source: every instruction has `pprof-c disasm`'s values",
        rows2.length + " rows; " + JSON.stringify(wrong.slice(0, 3)));
  await page.screenshot({ path: path.join(artifacts, "web-source-weblist.png") });
  await stop(server);
  server = null;
  delete serverEnv.PPROF_BINARY_PATH;
  const wlFile = path.join(tmp, "weblist.html");
  execFileSync(bin, ["weblist", "-output=" + wlFile, "hash_loop", nbin, nprof],
               { env: Object.assign({}, process.env, { PPROF_BINARY_PATH: "testdata/native" }) });
  await page.goto(pathToFileURL(wlFile).href);
  const wlLive = page.locator("span.livesrc").first();
  const shown0 = await page.locator("span.asm").first().evaluate((e) => getComputedStyle(e).display);
  await wlLive.click();
  const shown1 = await page.locator("span.asm").first().evaluate((e) => getComputedStyle(e).display);
  check(shown0 === "none" && shown1 === "block", "weblist: a click on a line expands its instructions", shown0 + " -> " + shown1);
  await page.screenshot({ path: path.join(artifacts, "weblist.png") });

  // ---- `pprof-c html`: one file, opened from disk, no server ----
  const htmlFile = path.join(tmp, "report.html");
  cli(["html", "-output=" + htmlFile, cpu]);
  const requests = [];
  page.on("request", (req) => requests.push(req.url()));
  const fileURL = pathToFileURL(htmlFile).href;
  await page.goto(fileURL);
  await page.waitForSelector("body[data-ready]");
  const sframes = await page.locator(".frame").count();
  check(sframes > 50, "html: the flame graph renders from the file", String(sframes));
  const starget = page.locator(".frame[data-name='compress/flate.(*compressor).deflate']").first();
  const sbefore = await starget.boundingBox();
  await starget.click();
  await page.waitForFunction(() => document.querySelector(".trail a") !== null);
  const safter = await page.locator(".frame[data-name='compress/flate.(*compressor).deflate']").first().boundingBox();
  check(sbefore && safter && safter.width > sbefore.width * 1.5, "html: click zooms with no server", JSON.stringify({ sbefore, safter }));
  const hw = await page.evaluate(() => [document.getElementById("flame").clientWidth, document.querySelector(".frame").getBoundingClientRect().width]);
  check(hw[0] > 1200 && Math.abs(hw[0] - hw[1]) < 2, "html: the flame graph is the window's width", JSON.stringify(hw));
  await page.screenshot({ path: path.join(artifacts, "html-flame.png") });
  await page.goto(fileURL + "?view=top");
  await page.waitForSelector("body[data-ready]");
  rows = await tableRows(page);
  check(JSON.stringify(rows) === JSON.stringify(cliTop([cpu])), "html: the top table equals `pprof-c top`", String(rows.length));
  await page.goto(fileURL + "?view=source");
  await page.waitForSelector("body[data-ready]");
  const src = await page.textContent("pre.report");
  check(/ROUTINE ======================== runtime\.asyncPreempt/.test(src) && /ROUTINE ======================== main\.mix /.test(src),
        "html: the source view lists the heaviest functions", src.slice(0, 120));
  check(requests.every((u) => u.startsWith("file:")), "html: nothing is loaded from anywhere", requests.filter((u) => !u.startsWith("file:")).join(" "));
  const hostileHTML = path.join(tmp, "hostile.html");
  cli(["html", "-output=" + hostileHTML, hostile]);
  for (const v of ["", "?view=top", "?view=source"]) {
    await page.goto(pathToFileURL(hostileHTML).href + v);
    await page.waitForSelector("body[data-ready]");
    await page.mouse.move(300, 150);
  }
  const hnames = await page.evaluate(() => ({ pwned: window.__pwned, imgs: document.querySelectorAll("#content img").length }));
  check(hnames.pwned === undefined && hnames.imgs === 0 && dialogs === 0, "html: hostile names stay text", JSON.stringify(hnames));
  check(errors.length === 0, "html: no script errors", errors.join("; "));
} finally {
  if (server) server.proc.kill("SIGKILL");
  await browser.close();
  fs.rmSync(tmp, { recursive: true, force: true });
}
console.log(`web: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
