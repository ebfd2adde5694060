// One process of bench/floors.mjs: warm up one body, then time --runs runs of
// it and print one JSON line. A body is a suite row's own `web` run (the
// implementation is whatever the preload flags made the globals, as in
// bench/child.mjs) or one of the row's floors below: the same work with no
// TransformStream at all, which any implementation of the row must also do.
// Per process it reports the CPU of all threads (process.cpuUsage), of the
// main thread (process.threadCpuUsage, Node >= 23.9; null before that) and
// the `gc` performance entries by kind, all over the timed runs only.
//
//   node [preload flags] bench/floors-child.mjs --row=<scenario name> --body=scenario|<floor> [--runs=20] [--warm=3]
import { PerformanceObserver, constants } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { byName } from './scenarios/index.mjs';
import { CHUNK, COUNT, upstreamUrl } from './scenarios/common.mjs';
import { SseSplitter, chunks } from './scenarios/codecs.mjs';

// Floors per row, by the name the report prints. Each returns the bytes it
// accounted for, counted as the row counts them.
export const FLOORS = {
  'SSE: fetch -> TextDecoderStream': {
    // The row's fetch, its body drained with a plain reader, and the decoding
    // and splitting its two TransformStreams do, called inline. The body is
    // still a ReadableStream: undici makes one, so this floor keeps it.
    'fetch + reader + decode + split': async () => {
      const res = await fetch(upstreamUrl({ sse: true }));
      const reader = res.body.getReader();
      const decoder = new TextDecoder();
      const splitter = new SseSplitter();
      let bytes = 0;
      const emit = (event) => { bytes += event.length + 8; };
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        splitter.push(decoder.decode(value, { stream: true }), emit);
      }
      const rest = decoder.decode();
      if (rest) splitter.push(rest, emit);
      splitter.end();
      return bytes;
    },
  },
  TextEncoderStream: {
    // TextEncoder.encode() of the strings the row's source cycles through.
    'encode()': async () => {
      const { textChunks } = chunks();
      const encoder = new TextEncoder();
      let bytes = 0;
      for (let i = 0; i < COUNT; i++) bytes += encoder.encode(textChunks[i % textChunks.length]).byteLength;
      return bytes;
    },
    // Only the fresh ArrayBuffer a spec TextEncoderStream must hand out per chunk.
    'alloc only': async () => {
      let bytes = 0;
      for (let i = 0; i < COUNT; i++) bytes += new Uint8Array(CHUNK).byteLength;
      return bytes;
    },
  },
};

const GC_KINDS = {
  [constants.NODE_PERFORMANCE_GC_MINOR]: 'minor',
  [constants.NODE_PERFORMANCE_GC_MAJOR]: 'major',
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weakcb',
};

const cpuMs = ({ user, system }) => (user + system) / 1000;
const hasThreadCpu = typeof process.threadCpuUsage === 'function';

async function main() {
  const args = Object.fromEntries(process.argv.slice(2).map((a) => a.replace(/^--/, '').split(/=(.*)/s, 2)));
  const runs = Number(args.runs ?? 20);
  const warm = Number(args.warm ?? 3);
  // BENCH_APP_HEAP_MB (floors.mjs --app-heap): kept alive for the whole process, as in bench/child.mjs.
  const appHeapMB = Number(process.env.BENCH_APP_HEAP_MB ?? 0);
  const appHeap = appHeapMB > 0 ? (await import('./app-heap.mjs')).retainAppHeap(appHeapMB) : [];

  const scenario = byName.get(args.row);
  if (!scenario) throw new Error(`unknown row: ${args.row}`);
  const fn = args.body === 'scenario' ? scenario.web : FLOORS[args.row]?.[args.body];
  if (!fn) throw new Error(`row ${args.row} has no body ${args.body}`);
  // A body that drops or repeats work would look cheap; refuse it (bench/child.mjs does the same).
  const check = (amount) => {
    if (scenario.unit === 'bytes' && amount !== COUNT * CHUNK) throw new Error(`${args.body} moved ${amount} bytes, expected ${COUNT * CHUNK}`);
    if (!(amount > 0)) throw new Error(`${args.body} returned ${amount}`);
  };

  for (let i = 0; i < warm; i++) check(await fn());
  // A gc entry arrives a little after its collection: let the warm-up's last ones pass before counting.
  await new Promise((resolve) => setTimeout(resolve, 20));

  const gc = {};
  const count = (list) => {
    for (const e of list) {
      const kind = GC_KINDS[e.detail?.kind ?? e.kind] ?? `kind ${e.detail?.kind ?? e.kind}`;
      gc[kind] = (gc[kind] ?? 0) + 1;
    }
  };
  const observer = new PerformanceObserver((list) => count(list.getEntries()));
  observer.observe({ entryTypes: ['gc'] });
  const c0 = process.cpuUsage();
  const t0 = hasThreadCpu ? process.threadCpuUsage() : null;
  for (let i = 0; i < runs; i++) check(await fn());
  const processMs = cpuMs(process.cpuUsage(c0));
  const mainMs = hasThreadCpu ? cpuMs(process.threadCpuUsage(t0)) : null;
  // gc entries reach the observer a little after their collection: let the last ones arrive.
  await new Promise((resolve) => setTimeout(resolve, 20));
  count(observer.takeRecords());
  observer.disconnect();

  process.stdout.write(`${JSON.stringify({ runs, processMs, mainMs, gc, appHeapRecords: appHeap.length })}\n`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().then(() => process.exit(0), (err) => {
    process.stdout.write(`${JSON.stringify({ error: String(err?.stack ?? err).split('\n').slice(0, 3).join(' | ') })}\n`);
    process.exit(1);
  });
}
