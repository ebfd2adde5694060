// `--app-heap=MB` (bench/run.mjs, bench/profile.mjs): the child keeps MB of
// plain records alive before the scenario starts, the same in every
// implementation's process, standing for the state any real application
// holds (caches, routes, sessions, its modules).
//
// Why it matters: V8 starts incremental marking on an allocation limit only
// once the old generation holds more than 8 MB. A bare bench process with
// Node's own streams sits just under that (7.4-8 MB on Node 26 after a
// fetch); the preload's code and objects take it just over (8.7-9.1 MB). Rows
// that allocate many off-heap ArrayBuffers (fetch bodies, 64 KB encoder
// outputs) then run in two different GC regimes: natively the dead buffers
// are freed by cheap scavenges and full collections start only on external
// memory pressure, while above the threshold full collections follow one
// another. With a few MB of application state both processes are above it,
// as a server is (docs/benchmarks.md, "The 8 MB threshold").

import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * V8's gc(), without --expose-gc on the command line (the child's flags stay
 * the suite's). It lives in a context of its own: made once per call of
 * retainAppHeap, so that its size is in every measurement alike.
 */
function gcFunction() {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc');
  setFlagsFromString('--no-expose-gc');
  return gc;
}

/** Keeps at least `mb` MB of records reachable from the returned array (checked after full collections). */
export function retainAppHeap(mb) {
  const records = [];
  if (!(mb > 0)) return records;
  const target = mb * 1024 * 1024;
  const collect = gcFunction();
  collect();
  const start = process.memoryUsage().heapUsed;
  // Allocating also leaves garbage (the array's old backing stores), so
  // what is kept is measured after a full collection, and topped up.
  while (process.memoryUsage().heapUsed - start < target) {
    while (process.memoryUsage().heapUsed - start < target) {
      for (let i = 0; i < 1000; i++) {
        const n = records.length;
        records.push({ id: n, name: `record ${n}`, tags: [n & 7, n & 15], active: n % 3 === 0 });
      }
    }
    collect();
  }
  return records;
}
