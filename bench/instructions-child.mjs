// One measurement of bench/instructions.mjs: a warm-up chain, then the
// measured one, in a process valgrind counts. Prints nothing on success.
//   node --predictable bench/instructions-child.mjs <way> <lib> <transforms> <warm-up chunks> <chunks> [pattern]
// way: ours (the classes of <lib>), native (the globals), node:stream, floor.
// pattern: chain (the default), or one of bench/adapter-patterns.mjs, built
// from the globals: <lib> installed first for ours, Node's own for native.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CHUNK, floorChain, webChain, nodeChain } from './chains.mjs';
import { patterns } from './adapter-patterns.mjs';

const [way, lib, transforms, warm, count, pattern = 'chain'] = process.argv.slice(2);
const n = Number(transforms);
let run;
if (pattern !== 'chain') {
  if (way === 'ours') (await import(pathToFileURL(resolve(lib)).href)).install();
  else if (way !== 'native') throw new Error(`pattern ${pattern}: ways ours and native only`);
  run = patterns[pattern];
  if (run === undefined) throw new Error(`unknown pattern ${pattern}`);
} else if (way === 'ours') {
  const ours = await import(pathToFileURL(resolve(lib)).href);
  run = (c) => webChain(ours, n, c);
} else if (way === 'native') {
  run = (c) => webChain(globalThis, n, c);
} else if (way === 'node:stream') {
  run = (c) => nodeChain(n, c);
} else if (way === 'floor') {
  run = (c) => floorChain(n, c);
} else {
  throw new Error(`unknown way ${way}`);
}
for (const c of [Number(warm), Number(count)]) {
  const bytes = await run(c);
  if (bytes !== c * CHUNK) throw new Error(`${way}, ${n} transforms: moved ${bytes} bytes of ${c * CHUNK}`);
}
