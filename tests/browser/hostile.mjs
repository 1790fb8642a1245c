// A CPU profile whose function names attack the page: markup, a closing
// </script>, quotes, control characters and invalid UTF-8. Written here
// (profile.proto by hand, gzip'd) so the test needs no generator.
import zlib from "node:zlib";

export const HOSTILE = [
  Buffer.from("<img src=x onerror=\"window.__pwned=1\">"),
  Buffer.from("</script><script>window.__pwned=2</script>"),
  Buffer.from("\"'><svg onload=window.__pwned=3>"),
  Buffer.from("ctl\x01\x1b[31mred\x7f"),
  Buffer.concat([Buffer.from("bad"), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from("utf8")]),
  Buffer.from("javascript:window.__pwned=4"),
  Buffer.from("main"),
];

function varint(v) {
  const out = [];
  do { let b = v & 0x7f; v = Math.floor(v / 128); out.push(v ? b | 0x80 : b); } while (v);
  return Buffer.from(out);
}
const fv = (n, v) => Buffer.concat([varint(n << 3), varint(v)]);
const fb = (n, data) => Buffer.concat([varint((n << 3) | 2), varint(data.length), data]);
const packed = (n, vs) => fb(n, Buffer.concat(vs.map(varint)));

export function hostileProfile() {
  const strings = [Buffer.from(""), Buffer.from("samples"), Buffer.from("count"),
                   Buffer.from("cpu"), Buffer.from("nanoseconds"), ...HOSTILE];
  const parts = [fb(1, Buffer.concat([fv(1, 1), fv(2, 2)])), fb(1, Buffer.concat([fv(1, 3), fv(2, 4)]))];
  const mainId = HOSTILE.length; // function ids 1..n, main last
  HOSTILE.forEach((_, i) => {
    // A name and no system name: taken as the producer's demangled name,
    // shown as written (an equal system name would have pprof's load-time
    // C++ simplification cut the markup out before any view sees it).
    parts.push(fb(5, Buffer.concat([fv(1, i + 1), fv(2, 5 + i)])));
    parts.push(fb(4, Buffer.concat([fv(1, i + 1), fb(4, Buffer.concat([fv(1, i + 1), fv(2, 10 + i)]))])));
  });
  HOSTILE.slice(0, -1).forEach((_, i) => {
    parts.push(fb(2, Buffer.concat([packed(1, [i + 1, mainId]), packed(2, [i + 1, (i + 1) * 10000000])])));
  });
  for (const s of strings) parts.push(fb(6, s));
  return zlib.gzipSync(Buffer.concat(parts));
}
