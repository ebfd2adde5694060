// One measurement of bench/instructions.mjs: a warm-up chain, then the
// measured one, in a process valgrind counts. Prints nothing on success.
//   node --predictable bench/instructions-child.mjs <way> <lib> <transforms> <warm-up chunks> <chunks>
// way: ours (the classes of <lib>), native (the globals), node:stream, floor.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CHUNK, floorChain, webChain, nodeChain } from './chains.mjs';

const [way, lib, transforms, warm, count] = process.argv.slice(2);
const n = Number(transforms);
let run;
if (way === 'ours') {
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
