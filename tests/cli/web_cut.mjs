// The flame page of a report whose tree is not made yet comes from the top
// of its tree (src/web/views.c): the same answer as the whole tree gives,
// ids aside, and a zoom into a frame of it the same as into the whole
// tree's. One line per check: "ok" or "FAIL: what".
//   node tests/cli/web_cut.mjs URL QUERY...
const [url, ...queries] = process.argv.slice(2);
const CUT_ID = 2 ** 31; // ids of a cut tree's frames (src/report/json.c)

const get = async (q) => {
  const resp = await fetch(`${url}/api/flame?${q}`);
  const text = await resp.text();
  if (resp.status !== 200) throw new Error(`${q}: status ${resp.status}: ${text.slice(0, 200)}`);
  return JSON.parse(text);
};
// The answer with each frame's id replaced by its row, the root by its
// row too: what a page draws.
const drawn = (j) => {
  const row = new Map(j.nodes.map((n, i) => [n[0], i]));
  return JSON.stringify({ ...j, root: row.get(j.root) ?? j.root,
                          nodes: j.nodes.map((n, i) => [i, ...n.slice(1)]) });
};
const say = (good, what) => console.log(good ? "ok" : "FAIL: " + what);

for (const q of queries) {
  try {
    const page = await get(`width=1260&${q}`);
    const cut = page.nodes.filter((n) => n[0] >= CUT_ID);
    say(cut.length > 100 && cut.length === page.nodes.length - 1,
        `${q}: the page is drawn from the top of the tree (${cut.length} of ${page.nodes.length} frames have cut ids)`);
    // The deepest frame with children on the page, to zoom into.
    const deep = page.nodes.reduce((best, n, i) =>
      i + 1 < page.nodes.length && page.nodes[i + 1][1] > n[1] && n[1] > (best ? best[1] : 0) ? n : best, null);
    // Resolving a cut id builds the whole tree.
    const zoomCut = await get(`width=1260&root=${deep[0]}&${q}`);
    const again = await get(`width=1260&${q}`);
    say(again.nodes.every((n) => n[0] < CUT_ID), `${q}: the whole tree answers once built`);
    say(drawn(page) === drawn(again), `${q}: the top of the tree gives the whole tree's page`);
    const i = page.nodes.indexOf(deep);
    const zoomWhole = await get(`width=1260&root=${again.nodes[i][0]}&${q}`);
    say(zoomCut.nodes.length > 1 && drawn(zoomCut) === drawn(zoomWhole),
        `${q}: a zoom into frame ${i} (depth ${deep[1]}) of the top equals the whole tree's`);
  } catch (e) {
    say(false, e.message);
  }
}
