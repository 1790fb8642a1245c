// pprof-c's web UI: one script for every view. Data comes from the server's
// JSON API (docs/web-api.md), or, in a file written by `pprof-c html`, from
// the JSON embedded in the page. Every name from the profile reaches the
// page as textContent, never as markup.
"use strict";

(function () {
  const embedded = document.getElementById("pprof-data");
  const staticData = embedded ? JSON.parse(embedded.textContent) : null;
  const params = new URLSearchParams(location.search);
  const state = { view: viewName(), selected: new Set(), data: null };
  const FILTERS = ["f", "i", "h", "s", "sf", "prunefrom", "tf", "ti", "ts", "th"];

  function viewName() {
    if (staticData) return params.get("view") || "flamegraph";
    const p = location.pathname;
    if (p === "/ui/" || p === "/ui") return "graph";
    return p.replace(/^\/ui\//, "") || "flamegraph";
  }

  function $(id) { return document.getElementById(id); }

  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function showError(msg) {
    const e = $("errors");
    e.textContent = msg;
    e.hidden = false;
  }

  // The query of a view with some parameters changed (null removes).
  function withParams(changes) {
    const q = new URLSearchParams(params);
    for (const [k, v] of Object.entries(changes)) {
      if (v === null || v === "") q.delete(k); else q.set(k, v);
    }
    const s = q.toString();
    return s ? "?" + s : "";
  }

  function viewURL(view, changes) {
    const path = view === "graph" ? "/ui/" : "/ui/" + view;
    return path + withParams(changes || {});
  }

  async function api(kind, extra) {
    if (staticData) {
      if (!staticData[kind]) throw new Error("this file holds no " + kind + " data");
      return staticData[kind];
    }
    const resp = await fetch("/api/" + kind + withParams(extra || {}), { credentials: "same-origin" });
    const body = await resp.json();
    if (!resp.ok) throw new Error(body.error || resp.statusText);
    return body;
  }

  // A regexp that matches exactly the given names, as pprof builds it. A
  // NUL byte is spelt \x00: a parameter is C text on the server.
  function namesRegexp(names) {
    const quoted = [...names].map((n) => n.replace(/[\\^$.*+?()[\]{}|]/g, "\\$&").replace(/\0/g, "\\x00"));
    return quoted.length === 1 ? "^" + quoted[0] + "$" : "^(?:" + quoted.join("|") + ")$";
  }

  // ---- header ------------------------------------------------------------

  function setupHeader() {
    if (staticData) document.querySelector(".brand").href = "?view=flamegraph";
    for (const a of document.querySelectorAll("#view-menu a[data-view]")) {
      const v = a.dataset.view;
      if (staticData && !staticData[v === "flamegraph" ? "flame" : v]) a.classList.add("disabled");
      a.href = staticData ? "?view=" + v : viewURL(v);
      if (v === state.view) a.classList.add("current");
    }
    for (const a of document.querySelectorAll("#refine-menu a[data-refine]")) {
      a.addEventListener("click", (ev) => { ev.preventDefault(); refine(a.dataset.refine); });
    }
    if (staticData) {
      for (const id of ["refine-menu", "config-menu", "sample-menu", "download"]) $(id).hidden = true;
    } else {
      $("download").href = "/download" + withParams({});
    }
    const search = $("search");
    search.value = params.get("search") || "";
    let timer = 0;
    search.addEventListener("input", () => {
      clearTimeout(timer);
      timer = setTimeout(() => { if (state.onSearch) state.onSearch(search.value); }, 150);
    });
    search.addEventListener("keydown", (ev) => {
      if (ev.key === "Enter" && state.onSearch) state.onSearch(search.value);
    });
  }

  function refine(what) {
    if (what === "reset") {
      const changes = {};
      for (const f of FILTERS) changes[f] = null;
      location.href = viewURL(state.view, changes);
      return;
    }
    let re = "";
    if (state.selected.size) re = namesRegexp(state.selected);
    else re = $("search").value;
    if (!re) { showError("Select functions (click a row or a frame) or type a regexp in the search box first."); return; }
    location.href = viewURL(state.view, { [what]: re });
  }

  function fillHeader(d) {
    $("title").textContent = (d.labels || []).slice(0, 2).join("  ");
    const menu = $("sample-types");
    menu.textContent = "";
    (d.sample_types || []).forEach((t, i) => {
      const a = el("a", i === d.sample_index ? "current" : "", t);
      a.href = viewURL(state.view, { si: t });
      menu.appendChild(a);
    });
  }

  // ---- top ---------------------------------------------------------------

  async function showTop() {
    const d = await api("top");
    fillHeader(d);
    $("legend").textContent = d.labels.join("\n");
    const table = el("table", "top");
    const head = el("tr");
    const cols = [["flat", "flat"], ["flat%", "flat"], ["sum%", null], ["cum", "cum"], ["cum%", "cum"], ["name", "name"]];
    let sortKey = params.get("sort") === "cum" ? "cum" : "flat";
    for (const [label, key] of cols) {
      const th = el("th", label === "name" ? "name" : "", label);
      if (key) th.addEventListener("click", () => { sortKey = key; render(); });
      th.dataset.key = key || "";
      head.appendChild(th);
    }
    const thead = el("thead"); thead.appendChild(head); table.appendChild(thead);
    const tbody = el("tbody"); table.appendChild(tbody);
    const rows = d.rows.map((r, i) => ({ r, i }));
    function render() {
      const sorted = rows.slice();
      if (sortKey === "name") sorted.sort((a, b) => (a.r.name < b.r.name ? -1 : a.r.name > b.r.name ? 1 : 0));
      else if (sortKey === "cum" && params.get("sort") !== "cum") sorted.sort((a, b) => Math.abs(b.r.cum) - Math.abs(a.r.cum) || a.i - b.i);
      else if (sortKey === "flat" && params.get("sort") === "cum") sorted.sort((a, b) => Math.abs(b.r.flat) - Math.abs(a.r.flat) || a.i - b.i);
      for (const th of head.children) th.classList.toggle("sorted", th.dataset.key === sortKey && th.textContent.indexOf("%") < 0);
      tbody.textContent = "";
      for (const { r } of sorted) {
        const tr = el("tr", state.selected.has(r.name) ? "selected" : "");
        for (const v of [r.flat_str, r.flat_pct, r.sum_pct, r.cum_str, r.cum_pct]) tr.appendChild(el("td", "", v));
        tr.appendChild(el("td", "name", r.name + (r.inline ? " (" + r.inline + ")" : "")));
        tr.addEventListener("click", () => {
          if (state.selected.has(r.name)) state.selected.delete(r.name); else state.selected.add(r.name);
          tr.classList.toggle("selected", state.selected.has(r.name));
        });
        tbody.appendChild(tr);
      }
      state.onSearch(($("search").value));
    }
    state.onSearch = (text) => {
      let re = null;
      try { re = text ? new RegExp(text) : null; } catch (e) { re = null; }
      let n = 0;
      for (const tr of tbody.children) {
        const name = tr.lastChild.textContent;
        const hit = !re || re.test(name);
        tr.hidden = !hit;
        if (hit && re) n++;
      }
      $("matched").textContent = re ? n + " matched" : "";
    };
    $("content").appendChild(table);
    render();
  }

  // ---- flame graph -------------------------------------------------------

  const ROW = 18;

  function fnv1a(bytes) {
    let h = 0x811c9dc5;
    for (const b of bytes) {
      h ^= b;
      h = Math.imul(h, 16777619) >>> 0;
    }
    return h >>> 0;
  }

  // A name's bytes, whole: the profile's own when JSON could not carry
  // them (d.raw_names: invalid UTF-8, in hex), else its UTF-8.
  const utf8 = new TextEncoder();
  function rawName(d, i) {
    return (d.raw_names && d.raw_names[i]) || "";
  }
  function nameBytes(d, i) {
    const raw = rawName(d, i);
    if (!raw) return utf8.encode(d.names[i]);
    const b = new Uint8Array(raw.length / 2);
    for (let k = 0; k < b.length; k++) b[k] = parseInt(raw.substr(2 * k, 2), 16);
    return b;
  }

  // The package of a name's bytes, the unit of its colour (as `pprof-c
  // flame`, which hashes the same bytes).
  function packageOf(name) {
    const SP = 32, SLASH = 47, DOT = 46, COLON = 58, LPAREN = 40, LT = 60;
    let end = name.indexOf(SP);
    if (end < 0) end = name.length;
    const slash = end > 0 ? name.lastIndexOf(SLASH, end - 1) : -1;
    for (let p = slash >= 0 ? slash : 0; p < end; p++) {
      const c = name[p];
      if (c === DOT || (c === COLON && p + 1 < end && name[p + 1] === COLON)) return name.subarray(0, p);
      if (c === LPAREN || c === LT) break;
    }
    return name.subarray(0, end);
  }

  // The parameters that name a function to pivot on, whole: pivot (its
  // text; a NUL byte travels as %00), or pivotx (its bytes in hex) for a
  // name JSON could not carry.
  function pivotParams(name, raw) {
    return raw ? { pivot: null, pivotx: raw } : { pivot: name, pivotx: null };
  }

  function frameColour(d, node, maxDelta) {
    if (d.diff) {
      const delta = node[8];
      const v = maxDelta ? Math.max(0, Math.min(210, Math.floor(210 * (maxDelta - Math.abs(delta)) / maxDelta))) : 210;
      if (delta > 0) return "rgb(255," + v + "," + v + ")";
      if (delta < 0) return "rgb(" + v + "," + v + ",255)";
      return "rgb(250,250,250)";
    }
    const h = fnv1a(packageOf(nameBytes(d, node[2])));
    return "rgb(" + (205 + h % 50) + "," + ((h >>> 8) % 230) + "," + ((h >>> 20) % 55) + ")";
  }

  // The text colour that reads on a frame's colour: black or white, by
  // which contrasts more (WCAG's relative luminance). Saturated blue, a
  // diff's most shrunk frames, takes white.
  function textColour(rgb) {
    const m = /(\d+)\D+(\d+)\D+(\d+)/.exec(rgb);
    if (!m) return "#000";
    const lin = (c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4); };
    const l = 0.2126 * lin(+m[1]) + 0.7152 * lin(+m[2]) + 0.0722 * lin(+m[3]);
    return (l + 0.05) / 0.05 >= 1.05 / (l + 0.05) ? "#000" : "#fff";
  }

  // Draw d's frames into box: root at the bottom (a flame graph) or at the
  // top (inverted: an icicle). Returns the frames drawn.
  function drawFrames(box, d, inverted, selected) {
    box.textContent = "";
    const frames = [];
    const width = box.clientWidth || 1200;
    const nodes = d.nodes;
    if (!nodes.length) { box.appendChild(el("p", "", "No samples.")); return frames; }
    const rootValue = nodes[0][3] || 1;
    let maxDepth = 0, maxDelta = 0;
    for (const n of nodes) {
      if (n[1] > maxDepth) maxDepth = n[1];
      if (Math.abs(n[8]) > maxDelta) maxDelta = Math.abs(n[8]);
    }
    box.style.height = (maxDepth + 1) * ROW + "px";
    const cursor = [0];
    for (const n of nodes) {
      const depth = n[1];
      const x = cursor[depth] || 0;
      cursor[depth] = x + n[3];
      cursor[depth + 1] = x;
      const left = x / rootValue * width, w = n[3] / rootValue * width;
      if (w < 1) continue;
      const f = el("div", "frame");
      const name = d.names[n[2]];
      f.style.left = left + "px";
      f.style.width = w + "px";
      f.style.top = (inverted ? depth : maxDepth - depth) * ROW + "px";
      const bg = frameColour(d, n, maxDelta);
      f.style.background = bg;
      f.style.color = textColour(bg);
      if (w > 24) f.textContent = name;
      f.dataset.id = n[0];
      f.dataset.name = name;
      f.dataset.raw = rawName(d, n[2]);
      if (selected && name === selected.name && f.dataset.raw === selected.raw) f.classList.add("selected");
      frames.push({ f, n, name, d });
      box.appendChild(f);
    }
    return frames;
  }

  async function showFlame() {
    const content = $("content");
    const bar = el("div"); bar.id = "flame-bar";
    const trail = el("span", "trail");
    const button = (label, id, title) => {
      const b = el("button", "", label); b.type = "button"; b.id = id; b.title = title; return b;
    };
    const icicle = button("Icicle", "icicle", "the root on top");
    const callersB = button("Callers", "callers", "the callers of the selected function (pprof's pivot)");
    const sandwichB = button("Sandwich", "sandwich", "the callers above and the callees below the selected function");
    const back = button("Flame graph", "back", "the whole flame graph");
    const pivotx = staticData ? null : params.get("pivotx");
    const pivot = staticData ? null : (pivotx ? null : params.get("pivot"));
    const pivoted = !!(pivot || pivotx);
    const side = params.get("side") === "sandwich" ? "sandwich" : "callers";
    bar.append(icicle);
    if (!staticData) bar.append(callersB, sandwichB);
    if (pivoted) bar.append(back);
    bar.append(trail);
    content.append(bar);
    const box = el("div"); box.id = "flame";
    const lower = el("div"); lower.id = "flame-callees";
    // The titles name the function as the answer spells it (pivotx is
    // bytes in hex).
    const callersTitle = el("h3", "flame-title", "Callers of " + (pivot || ""));
    const calleesTitle = el("h3", "flame-title", "Callees of " + (pivot || ""));
    if (pivoted && side === "sandwich") {
      content.append(callersTitle, box, calleesTitle, lower);
    } else if (pivoted) {
      content.append(callersTitle, box);
    } else {
      content.append(box);
    }
    let inverted = localStorage.getItem("pprof-c.icicle") !== "false";
    // The selected function: its name and, for a name JSON cannot carry,
    // its bytes in hex.
    let selected = pivot ? { name: pivot, raw: "" } : null;
    let d = null, dLower = null;
    let frames = [];

    async function load(root) {
      const width = String(Math.max(200, box.clientWidth || 1200));
      if (staticData) d = zoomLocal(staticData.flame, root);
      else if (pivoted) {
        d = await api("flame", { side: "callers", width });
        if (side === "sandwich") dLower = await api("flame", { side: "callees", width });
        callersTitle.textContent = "Callers of " + d.pivot;
        calleesTitle.textContent = "Callees of " + d.pivot;
        selected = { name: d.pivot, raw: rawName(d, 0) };
      } else d = await api("flame", { root: root ? String(root) : null, width });
      fillHeader(d);
      draw();
    }

    function draw() {
      if (pivoted) {
        // Callers grow up from the function; in a sandwich its callees
        // hang below it.
        frames = drawFrames(box, d, false, selected);
        if (dLower) frames = frames.concat(drawFrames(lower, dLower, true, selected));
      } else {
        frames = drawFrames(box, d, inverted, selected);
      }
      trail.textContent = "";
      if (!pivoted && d.root !== 0) {
        const top = el("a", "", "root");
        top.addEventListener("click", () => load(0));
        trail.appendChild(top);
        for (const p of d.path) {
          const a = el("a", "", p.name);
          a.addEventListener("click", () => load(p.id));
          trail.appendChild(a);
        }
      }
      state.onSearch($("search").value);
    }

    // The frames under root of the embedded tree (a page with no server).
    function zoomLocal(full, root) {
      if (!root) return full;
      const nodes = full.nodes;
      let i = nodes.findIndex((n) => n[0] === root);
      if (i < 0) return full;
      const base = nodes[i][1], out = [];
      const path = [];
      for (let k = i - 1, want = base - 1; k >= 1 && want >= 1; k--) {
        if (nodes[k][1] === want) { path.unshift({ id: nodes[k][0], name: full.names[nodes[k][2]] }); want--; }
      }
      out.push(nodes[i].slice()); out[0][1] = 0;
      for (let k = i + 1; k < nodes.length && nodes[k][1] > base; k++) {
        const n = nodes[k].slice(); n[1] -= base; out.push(n);
      }
      return Object.assign({}, full, { nodes: out, root, path });
    }

    function onClick(ev) {
      const f = ev.target.closest(".frame");
      if (!f) return;
      const name = f.dataset.name, raw = f.dataset.raw || "";
      if (pivoted) {
        // In a pivot view a click pivots on that function.
        location.href = viewURL("flamegraph", Object.assign(pivotParams(name, raw), { side }));
        return;
      }
      const id = Number(f.dataset.id);
      selected = name === "root" && !raw ? null : { name, raw };
      state.selected = new Set(selected ? [selected.name] : []);
      load(id === d.root ? (d.path.length ? d.path[d.path.length - 1].id : 0) : id);
    }
    function onMove(ev) {
      const f = ev.target.closest(".frame");
      const tip = $("tooltip");
      if (!f) { tip.hidden = true; return; }
      const fr = frames.find((x) => x.f === f);
      if (!fr) return;
      const n = fr.n;
      let text = fr.name + "\n" + n[5] + " (" + n[7] + ")   self " + n[6];
      if (fr.d.diff) text += "\nchange " + n[9];
      tip.textContent = text;
      tip.hidden = false;
      tip.style.left = Math.min(ev.clientX + 12, window.innerWidth - 420) + "px";
      tip.style.top = ev.clientY + 14 + "px";
    }
    for (const b of [box, lower]) {
      b.addEventListener("click", onClick);
      b.addEventListener("mousemove", onMove);
      b.addEventListener("mouseleave", () => { $("tooltip").hidden = true; });
    }
    icicle.addEventListener("click", () => {
      inverted = !inverted;
      localStorage.setItem("pprof-c.icicle", String(inverted));
      icicle.classList.toggle("on", inverted);
      draw();
    });
    icicle.classList.toggle("on", inverted);
    const pivotTo = (s) => () => {
      if (!selected) { showError("Click a frame first: its function is the one pivoted on."); return; }
      location.href = viewURL("flamegraph", Object.assign(pivotParams(selected.name, selected.raw), { side: s }));
    };
    callersB.addEventListener("click", pivotTo("callers"));
    sandwichB.addEventListener("click", pivotTo("sandwich"));
    back.addEventListener("click", () => { location.href = viewURL("flamegraph", { pivot: null, pivotx: null, side: null }); });
    state.onSearch = (text) => {
      let re = null;
      try { re = text ? new RegExp(text) : null; } catch (e) { re = null; }
      const m = $("matched");
      if (!re) { for (const x of frames) x.f.classList.remove("match"); m.textContent = ""; return; }
      // The matched share: frames that match with no matching ancestor,
      // in the (upper) graph.
      let sum = 0;
      const open = [];
      for (const x of frames) {
        const hit = re.test(x.name);
        x.f.classList.toggle("match", hit);
        if (x.d !== d) continue;
        while (open.length && open[open.length - 1] >= x.n[1]) open.pop();
        if (hit && !open.length) sum += x.n[3];
        if (hit) open.push(x.n[1]);
      }
      const total = d.nodes.length ? d.nodes[0][3] : 0;
      m.textContent = "Matched: " + (total ? (100 * sum / total).toFixed(1) : "0.0") + "%";
    };
    let resizeTimer = 0;
    window.addEventListener("resize", () => { clearTimeout(resizeTimer); resizeTimer = setTimeout(draw, 100); });
    await load(0);
  }

  // ---- graph -------------------------------------------------------------

  async function showGraph() {
    const resp = await fetch("/api/graph" + withParams({}), { credentials: "same-origin" });
    // Characters XML forbids (a profile's names may hold them) become
    // U+FFFD, so one hostile name cannot break the whole picture.
    const text = (await resp.text()).replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, "\ufffd");
    if (!resp.ok) throw new Error(JSON.parse(text).error || resp.statusText);
    const doc = new DOMParser().parseFromString(text, "image/svg+xml");
    const svg = doc.documentElement;
    if (svg.nodeName !== "svg" || doc.getElementsByTagName("parsererror").length)
      throw new Error("the call graph is not valid SVG (names with control characters?)");
    // Only our script runs: drop the file's own pan/zoom script and any
    // event attribute (graphviz writes none; a hostile name cannot either,
    // as names are escaped, but nothing here relies on that).
    for (const sc of svg.querySelectorAll("script")) sc.remove();
    for (const e of svg.querySelectorAll("*")) {
      for (const a of [...e.attributes]) if (/^on/i.test(a.name)) e.removeAttribute(a.name);
    }
    const box = el("div"); box.id = "graph";
    box.appendChild(document.importNode(svg, true));
    $("content").appendChild(box);
    const g = box.querySelector("svg");
    const vb = g.viewBox.baseVal;
    let view = vb && vb.width ? { x: vb.x, y: vb.y, w: vb.width, h: vb.height } : null;
    if (!view) { const b = g.getBBox(); view = { x: b.x, y: b.y, w: b.width, h: b.height }; }
    const apply = () => g.setAttribute("viewBox", view.x + " " + view.y + " " + view.w + " " + view.h);
    g.removeAttribute("width"); g.removeAttribute("height");
    apply();
    // Open at 1:1, as pprof does (one unit of the drawing, graphviz's
    // point, per CSS pixel), so every label reads: the top of the graph
    // in view, centred on its top node, the root of the hottest path
    // (a big graph fitted to the window is unreadable). Double-click
    // comes back here.
    const start = oneToOne(g, box, view);
    view = Object.assign({}, start);
    apply();
    box.addEventListener("dblclick", () => { view = Object.assign({}, start); apply(); });
    box.addEventListener("wheel", (ev) => {
      ev.preventDefault();
      const r = g.getBoundingClientRect();
      // About 10% a wheel notch (deltaY 100), smoothly for a touchpad's
      // small steps.
      const k = Math.pow(1.1, Math.max(-3, Math.min(3, ev.deltaY / 100)));
      const px = view.x + (ev.clientX - r.left) / r.width * view.w;
      const py = view.y + (ev.clientY - r.top) / r.height * view.h;
      view = { x: px - (px - view.x) * k, y: py - (py - view.y) * k, w: view.w * k, h: view.h * k };
      apply();
    }, { passive: false });
    let drag = null;
    box.addEventListener("mousedown", (ev) => { drag = { x: ev.clientX, y: ev.clientY, v: Object.assign({}, view), moved: false }; });
    window.addEventListener("mouseup", () => { setTimeout(() => { drag = null; }, 0); });
    box.addEventListener("mousemove", (ev) => {
      if (!drag || !(ev.buttons & 1)) return;
      const r = g.getBoundingClientRect();
      const dx = (ev.clientX - drag.x) / r.width * drag.v.w, dy = (ev.clientY - drag.y) / r.height * drag.v.h;
      if (Math.abs(ev.clientX - drag.x) + Math.abs(ev.clientY - drag.y) > 3) drag.moved = true;
      view = { x: drag.v.x - dx, y: drag.v.y - dy, w: drag.v.w, h: drag.v.h };
      apply();
    });
    box.addEventListener("click", (ev) => {
      if (drag && drag.moved) return;
      const node = ev.target.closest("g.node");
      if (!node) return;
      const title = node.querySelector("title");
      const label = [...node.querySelectorAll("text")].map((t) => t.textContent);
      // The node's function name: its first text line (pprof's labels).
      const name = label.length ? label[0] : (title ? title.textContent : "");
      if (!name) return;
      if (state.selected.has(name)) state.selected.delete(name); else state.selected.add(name);
      node.classList.toggle("selected", state.selected.has(name));
    });
    state.onSearch = (text) => {
      let re = null;
      try { re = text ? new RegExp(text) : null; } catch (e) { re = null; }
      let n = 0;
      for (const node of g.querySelectorAll("g.node")) {
        const t = node.querySelector("text");
        const hit = !!(re && t && re.test(t.textContent));
        node.classList.toggle("match", hit);
        if (hit) n++;
      }
      $("matched").textContent = re ? n + " matched" : "";
    };
    fillHeader(await api("top", { n: "1" }));
  }

  // The 1:1 view of svg g in box, whose whole drawing is shown as full:
  // the graph's top node centred (or the whole graph, when it is
  // narrower than the box), its top row at the top.
  function oneToOne(g, box, full) {
    const w = box.clientWidth || full.w, h = box.clientHeight || full.h;
    const ctm = g.getScreenCTM();
    let cx = full.x + full.w / 2;
    if (ctm && full.w > w) {
      const inv = ctm.inverse();
      let best = null;
      for (const node of g.querySelectorAll("g.node")) {
        // The call graph's nodes are N1, N2, ...: not the legend.
        const title = node.querySelector("title");
        if (!title || !/^N\d+$/.test(title.textContent)) continue;
        const r = node.getBoundingClientRect();
        const p = new DOMPoint(r.left + r.width / 2, r.top).matrixTransform(inv);
        if (!best || p.y < best.y - 1 || (Math.abs(p.y - best.y) <= 1 && r.width > best.width))
          best = { x: p.x, y: p.y, width: r.width };
      }
      if (best) cx = Math.max(full.x + w / 2, Math.min(full.x + full.w - w / 2, best.x));
    }
    return { x: cx - w / 2, y: full.y, w, h };
  }

  // ---- peek and source: pprof's text views -------------------------------

  function textView(kind) {
    return async function () {
      if (!params.get("f") && !staticData) {
        $("legend").textContent = "Select functions in another view (or type a regexp in the search box) and choose " +
          ({ peek: "Peek", source: "Source", disasm: "Disassemble" })[kind] + " again, or add ?f=REGEXP to the URL.";
      }
      const d = await api(kind);
      if (d.weblist) {
        showWeblist(d.weblist);
      } else {
        const pre = el("pre", "report", d.text);
        pre.id = kind + "-text";
        $("content").appendChild(pre);
      }
      state.onSearch = () => {};
      try { fillHeader(await api("top", { n: "1" })); } catch (e) { /* the header is a nicety */ }
    };
  }

  // The source view with each line's instructions (weblist's data): a
  // click on a line with code shows or hides them.
  function showWeblist(w) {
    const box = el("div", "weblist");
    box.id = "source-weblist";
    box.appendChild(el("div", "legend", "Total: " + w.total));
    const pad = (s, n) => String(s).padStart(n);
    for (const fn of w.functions) {
      box.appendChild(el("h2", "", fn.name));
      box.appendChild(el("p", "filename", fn.file));
      const pre = el("pre", "report weblist-fn");
      pre.appendChild(document.createTextNode("  Total:  " + pad(fn.flat, 10) + " " +
        pad(fn.cum, 10) + " (flat, cum) " + fn.percent));
      for (const ln of fn.lines) {
        pre.appendChild(document.createTextNode("\n"));
        pre.appendChild(el("span", "line", " " + pad(ln.line, 6)));
        pre.appendChild(document.createTextNode(" "));
        const src = el("span", ln.class, "  " + pad(ln.flat, 10) + " " + pad(ln.cum, 10) + " " +
          pad("", 8) + "  " + ln.src + " ");
        src.dataset.line = ln.line;
        pre.appendChild(src);
        if (!ln.instructions.length) continue;
        const asm = el("span", "asm");
        for (const ins of ln.instructions) {
          if (ins.new_block) asm.appendChild(document.createTextNode(" " + pad("", 8) + " " + pad("\u22ee", 28) + "\n"));
          for (const c of ins.inlined_calls) {
            asm.appendChild(document.createTextNode(" " + pad("", 8) + " " + pad("", 10) + " " + pad("", 10) + " " + pad("", 8) + "  "));
            asm.appendChild(el("span", "inlinesrc", c.src));
            asm.appendChild(document.createTextNode(" "));
            asm.appendChild(el("span", "unimportant", c.file_base + ":" + c.line));
            asm.appendChild(document.createTextNode("\n"));
          }
          // A location without its binary: its inlined calls alone.
          if (ins.synthetic) continue;
          const row = el("span", "insn", " " + pad("", 8) + " " + pad(ins.flat, 10) + " " + pad(ins.cum, 10) + " " +
            pad(ins.address, 8) + ": " + ins.disasm + " ");
          row.dataset.address = ins.address;
          asm.appendChild(row);
          asm.appendChild(el("span", "unimportant", ins.file_line));
          asm.appendChild(document.createTextNode("\n"));
        }
        src.addEventListener("click", () => asm.classList.toggle("open"));
        pre.appendChild(asm);
      }
      box.appendChild(pre);
    }
    $("content").appendChild(box);
  }

  // ---- named configurations (pprof's settings.json) ----------------------

  async function setupConfigs() {
    if (staticData) return;
    const menu = $("configs");
    $("save-config").addEventListener("click", async (ev) => {
      ev.preventDefault();
      const name = prompt("Save the current options as a configuration named:");
      if (!name) return;
      const resp = await fetch("/saveconfig" + withParams({ config: name }), { method: "POST", credentials: "same-origin" });
      if (!resp.ok) { showError(await resp.text()); return; }
      await fillConfigs();
    });
    async function fillConfigs() {
      const resp = await fetch("/api/configs", { credentials: "same-origin" });
      if (!resp.ok) return;
      const d = await resp.json();
      for (const r of menu.querySelectorAll(".config-row")) r.remove();
      let current = null;
      for (const c of d.configs) {
        const row = el("div", "config-row");
        const changes = {};
        let same = true;
        for (const [k, v] of Object.entries(c.params)) {
          changes[k] = v === "" ? null : v;
          if ((params.get(k) || "") !== v) same = false;
        }
        const a = el("a", "", c.name);
        a.href = viewURL(state.view, changes);
        a.dataset.config = c.name;
        row.appendChild(a);
        if (same) current = a;
        if (c.user) {
          const del = el("button", "delete-config", "\u2715");
          del.type = "button";
          del.title = "delete " + c.name;
          del.addEventListener("click", async (ev) => {
            ev.preventDefault();
            if (!confirm("Delete configuration " + c.name + "?")) return;
            const resp = await fetch("/deleteconfig" + withParams({ config: c.name }), { method: "DELETE", credentials: "same-origin" });
            if (!resp.ok) { showError(await resp.text()); return; }
            await fillConfigs();
          });
          row.appendChild(del);
        }
        menu.appendChild(row);
      }
      if (current) current.classList.add("current");
    }
    await fillConfigs();
  }

  // ---- pages -------------------------------------------------------------

  const views = { top: showTop, flamegraph: showFlame, graph: showGraph,
                  peek: textView("peek"), source: textView("source"),
                  disasm: textView("disasm") };

  async function main() {
    setupHeader();
    setupConfigs().catch(() => {});
    const show = views[state.view];
    if (!show) { showError("This view is not available yet."); return; }
    try {
      await show();
      document.body.dataset.ready = "true";
    } catch (e) {
      showError(String(e.message || e));
      document.body.dataset.ready = "error";
    }
  }

  window.pprofC = { state };
  main();
})();
