#!/usr/bin/env node
// `npm run demo`: a short side-by-side of Node's native Web Streams and
// fast-webstreams, on a handful of the full suite's scenarios. It is a thin
// front for bench/run.mjs (same fresh-process, interleaved, median method)
// that writes no files. Extra options are passed through, e.g.
//   node bench/quick.mjs --runs=5 --impl=native,fast,peer
import { main } from './run.mjs';

const DEMO = ['read loop', 'write loop', 'for await', 'pipeTo', 'pipeThrough', '3 transforms',
  'Flight bytes -> reader', 'new ReadableStream', 'new TransformStream'];

const extra = process.argv.slice(2);
const has = (name) => extra.some((a) => a.startsWith(`--${name}`));
const argv = [
  ...(has('impl') ? [] : ['--impl=native,fast']),
  ...(has('filter') ? [] : [`--only=${DEMO.join(',')}`]),
  ...(has('out') ? [] : ['--out=none']),
  ...extra,
];
main(argv).catch((err) => {
  process.stderr.write(`${process.stderr.isTTY ? '\r\x1b[K' : ''}${err.message}\n`);
  process.exit(1);
});
