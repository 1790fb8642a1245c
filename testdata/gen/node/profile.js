'use strict';
// Real Node.js profiles from @datadog/pprof (the maintained fork of
// google's pprof-nodejs): a small "service" whose handlers burn CPU in
// different ways, profiled three ways. Writes into the directory given as
// the first argument (default: testdata/node beside this tree):
//   wall.pb.gz        wall time and CPU time, a "handler" label per
//                     sample (setContext), line columns emitted
//   wall_lines.pb.gz  wall time aggregated per line (lineNumbers: true)
//   heap.pb.gz        sampled heap (objects and space in use)
// See README.md for how to re-run it.
const crypto = require('crypto');
const fs = require('fs');
const path = require('path');
const pprof = require('@datadog/pprof');

const out = process.argv[2] || path.join(__dirname, '..', '..', 'node');

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

function regexWork(n) {
  const re = /^(\w+)@(\w+)\.example$/;
  let hits = 0;
  for (let i = 0; i < n; i++) if (re.test('user' + i + '@host' + (i % 7) + '.example')) hits++;
  return hits;
}

const handlers = {
  search: () => sortWork(20000) + regexWork(3000),
  login: () => hashLoop(400).length,
  report: () => parseWork(2000) + fib(18),
};

function serve(until) {
  let n = 0;
  while (Date.now() < until) {
    for (const name of Object.keys(handlers)) {
      pprof.time.setContext({ handler: name });
      n += handlers[name]();
    }
  }
  return n;
}

function serveLines(until) {
  let n = 0;
  while (Date.now() < until) n += handlers.search() + handlers.login() + handlers.report();
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

  pprof.time.start({ intervalMicros: 1000, withContexts: true, collectCpuTime: true, columnNumbers: 'emit' });
  serve(Date.now() + 1500);
  // Each sample's context is { context: what setContext was given, ... }.
  const labelled = pprof.time.stop(false, ({ context }) =>
    context && context.context && context.context.handler ? { handler: context.context.handler } : {});
  await write('wall.pb.gz', labelled);

  const lines = pprof.time.profile({ durationMillis: 1200, intervalMicros: 1000, lineNumbers: true, columnNumbers: 'emit' });
  serveLines(Date.now() + 1100);
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
