#!/usr/bin/env node
// How far a pipe chain is from the least it could cost. Runs, in one process,
// the suite's chain (a pull() source refilling to a high-water mark of 16,
// 0, 1, 3 or 8 pass-through transforms, a counting sink) four ways, and
// prints CPU nanoseconds per 1 KB chunk (medians of the rounds):
//   floor        the same pull() and transform() callbacks, called by a plain
//                loop: pull() fills a queue through a controller with
//                desiredSize and enqueue(), each transform() hands its chunk
//                on, and the sink's count runs inline; one microtask per pull,
//                the one reaction to pull()'s result any spec pipe must wait
//                for. No stream records at all.
// The four share one process (and its JIT: the callbacks' call sites see
// several controller classes, which if anything raises the floor a little);
// the ways take turns in a rotating order. Run it without the preload.
//   native       Node's Web streams
//   ours         src/index.js of this checkout (or the path given)
//   node:stream  stream.pipeline() through as many object-mode Transforms
// So `native / 8` or `node:stream / 2` against `floor` says whether issue 14's
// chain goals (8x native on Node 26, 2x stream.pipeline()) leave any room, and
// how much of what ours costs is bookkeeping rather than the callbacks
// (bench/results/lab-notes-benchmarks.md, "Where issue 14's goals stop").
//
//   node bench/pipe-floor.mjs [--rounds=9] [path/to/src/index.js]
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { median } from './stats.mjs';
import { CHUNK, floorChain, webChain, nodeChain } from './chains.mjs';

const args = process.argv.slice(2);
const rounds = Number(args.find((a) => a.startsWith('--rounds='))?.slice(9) ?? 9);
if (!Number.isInteger(rounds) || rounds < 1) throw new Error('--rounds must be a whole number, 1 or more');
// "native" is the global classes: under the preload they would be ours.
if (/register/.test(`${process.execArgv.join(' ')} ${process.env.NODE_OPTIONS ?? ''}`)) {
  throw new Error('run bench/pipe-floor.mjs without the preload: its native column is the global classes');
}
const libPath = args.find((a) => !a.startsWith('--')) ?? new URL('../src/index.js', import.meta.url).pathname;
const ours = await import(pathToFileURL(resolve(libPath)).href);

const COUNT = 1 << 16;

const WAYS = {
  floor: (n) => floorChain(n, COUNT),
  native: (n) => webChain(globalThis, n, COUNT),
  ours: (n) => webChain(ours, n, COUNT),
  'node:stream': (n) => nodeChain(n, COUNT),
};
const HOPS = [0, 1, 3, 8];
const cpuNs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) * 1000;
};

const samples = new Map();
const ways = Object.entries(WAYS);
for (let round = 0; round < rounds; round++) {
  process.stderr.write(`round ${round + 1}/${rounds}\r`);
  for (const n of HOPS) {
    // Each round starts with another way, so none always runs after the same one (and its garbage).
    for (let i = 0; i < ways.length; i++) {
      const [way, run] = ways[(i + round) % ways.length];
      const start = cpuNs();
      const bytes = await run(n);
      if (bytes !== COUNT * CHUNK) throw new Error(`${way}, ${n} transforms: moved ${bytes} bytes`);
      const key = `${way}/${n}`;
      if (!samples.has(key)) samples.set(key, []);
      samples.get(key).push((cpuNs() - start) / COUNT);
    }
  }
}

const ns = (way, n) => median(samples.get(`${way}/${n}`));
console.log(`Node ${process.version}, ${rounds} rounds of ${COUNT} x 1 KB, CPU ns per chunk (median)`);
console.log('transforms   floor  native    ours  node:stream   native/ours  node:stream/ours  native/8  node:stream/2');
for (const n of HOPS) {
  const cells = [ns('floor', n), ns('native', n), ns('ours', n), ns('node:stream', n)].map((v) => v.toFixed(0).padStart(7));
  console.log(`${String(n).padStart(10)} ${cells.join(' ')}    ${(ns('native', n) / ns('ours', n)).toFixed(2).padStart(10)}` +
    `  ${(ns('node:stream', n) / ns('ours', n)).toFixed(2).padStart(16)}  ${(ns('native', n) / 8).toFixed(0).padStart(8)}` +
    `  ${(ns('node:stream', n) / 2).toFixed(0).padStart(13)}`);
}
