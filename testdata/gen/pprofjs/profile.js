'use strict';
// Real Node.js profiles from the npm package pprof (google's pprof-nodejs,
// the package @datadog/pprof forked from; testdata/gen/node uses the fork):
// a small "service" whose handlers burn CPU in different ways. Writes into
// the directory given as the first argument:
//   wall.pb.gz        wall time (samples/count, wall/microseconds)
//   wall_lines.pb.gz  the same, one location per line (lineNumbers: true)
//   heap.pb.gz        sampled heap (objects and space in use)
// See run.sh for how to re-run it.
const crypto = require('crypto');
const fs = require('fs');
const path = require('path');
const pprof = require('pprof');

const out = process.argv[2];

function fib(n) {
  return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

function hashLoop(rounds) {
  let h = 'seed';
  for (let i = 0; i < rounds; i++) {
    h = crypto.createHash('sha256').update(h).digest('hex');
  }
  return h;
}

function sortWork(n) {
  const a = [];
  for (let i = 0; i < n; i++) a.push((i * 7919) % 1000003);
  return a.sort((x, y) => x - y)[n >> 1];
}

function parseWork(n) {
  const items = Array.from({ length: n }, (_, i) => ({ id: i, name: 'item' + i }));
  return JSON.parse(JSON.stringify(items)).length;
}

function serve(until) {
  let n = 0;
  while (Date.now() < until) n += sortWork(20000) + hashLoop(400).length + parseWork(2000) + fib(18);
  return n;
}

const retained = [];
function allocate(rounds) {
  for (let i = 0; i < rounds; i++) {
    retained.push(new Array(256).fill(i));
    retained.push('x'.repeat(512) + i);
    if (i % 10 === 0) retained.push(Buffer.alloc(4096));
  }
}

async function main() {
  fs.mkdirSync(out, { recursive: true });
  const write = async (name, prof) =>
    fs.writeFileSync(path.join(out, name), await pprof.encode(prof));

  const wall = pprof.time.profile({ durationMillis: 1200, intervalMicros: 1000 });
  serve(Date.now() + 1100);
  await write('wall.pb.gz', await wall);

  const lines = pprof.time.profile({ durationMillis: 1200, intervalMicros: 1000, lineNumbers: true });
  serve(Date.now() + 1100);
  await write('wall_lines.pb.gz', await lines);

  pprof.heap.start(32 * 1024, 64);
  allocate(3000);
  await write('heap.pb.gz', pprof.heap.profile());
  pprof.heap.stop();
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
