// The doctor's self-test (bin/fast-webstreams.mjs runs it in a child process
// started with the preload, as an application would be): one small program
// per tier, each checked for its data and for the counter its tier moves.
// Prints one JSON line: [{ name, ok, detail }].
import { Readable } from 'node:stream';
import { createRequire } from 'node:module';
import * as fast from '../dist/fast-webstreams.js';
import { enabledFeatures, FEATURES } from '../src/patch/features.js';

const require = createRequire(import.meta.url);
const CHUNKS = 64;
const numbers = () => new ReadableStream({
  start(controller) {
    for (let i = 0; i < CHUNKS; i++) controller.enqueue(i);
    controller.close();
  },
});
const expectedSum = (CHUNKS * (CHUNKS - 1)) / 2;

const features = enabledFeatures();

/**
 * Runs `program` with fresh counters; ok when it returns true and `field` moved.
 * Skipped (ok, said why) when the feature it needs is switched off.
 */
async function check(name, field, program, feature = undefined) {
  if (feature !== undefined && !features[feature]) {
    return { name, ok: true, skipped: true, detail: `skipped: ${FEATURES[feature]}=${process.env[FEATURES[feature]]}` };
  }
  fast.resetCounters();
  try {
    const dataOk = await program();
    const moved = field === null ? 0 : fast.getCounters()[field];
    const ok = dataOk === true && (field === null || moved > 0);
    const detail = dataOk !== true ? 'wrong data' : field === null ? 'ok' : `${field} +${moved}`;
    return { name, ok, detail };
  } catch (err) {
    return { name, ok: false, detail: `${err?.name ?? 'Error'}: ${err?.message ?? err}` };
  }
}

const results = [];
results.push({
  name: 'the global classes are this package\'s (the preload installed them)',
  ok: fast.isInstalled() && globalThis.ReadableStream === fast.ReadableStream,
  detail: fast.isInstalled() ? 'installed' : 'not installed',
});
results.push(await check('fused (tier 0): a pipeThrough chain into a WritableStream', 'fusedChunks', async () => {
  let sum = 0;
  const double = () => new TransformStream({ transform(x, c) { c.enqueue(x * 2); } });
  await numbers().pipeThrough(double()).pipeThrough(double()).pipeTo(new WritableStream({ write(x) { sum += x; } }));
  return sum === expectedSum * 4;
}));
results.push(await check('sync (tier 1): reads of queued chunks', 'syncReads', async () => {
  let sum = 0;
  for await (const x of numbers()) sum += x;
  return sum === expectedSum;
}));
results.push(await check('spec (tier 2): a read that waits for its chunk', 'specReads', async () => {
  let controller;
  const stream = new ReadableStream({ start(c) { controller = c; } });
  const reader = stream.getReader();
  const pending = reader.read();
  controller.enqueue('late');
  const { value } = await pending;
  return value === 'late';
}));
results.push(await check('native bridge (tier 3): a Blob\'s native stream through ours, into a Response', 'nativeBridges', async () => {
  const text = await new Response(new Blob(['bridged']).stream().pipeThrough(new TransformStream())).text();
  return text === 'bridged';
}, 'nodeConsumers'));
results.push(await check('Node\'s consumers take ours: Readable.fromWeb()', null, async () => {
  let text = '';
  for await (const chunk of Readable.fromWeb(ReadableStream.from(['a', 'b', 'c']), { encoding: 'utf8' })) text += chunk;
  return text === 'abc';
}, 'nodeConsumers'));
results.push(await check('codec classes: text -> gzip -> text', null, async () => {
  let text = '';
  const round = ReadableStream.from(['héllo, ', 'wörld']).pipeThrough(new TextEncoderStream())
    .pipeThrough(new CompressionStream('gzip')).pipeThrough(new DecompressionStream('gzip')).pipeThrough(new TextDecoderStream());
  for await (const chunk of round) text += chunk;
  return text === 'héllo, wörld';
}));
results.push(await check('node:stream/web gives the same classes as the globals', null, async () => {
  const web = require('node:stream/web');
  return web.ReadableStream === globalThis.ReadableStream && web.TransformStream === globalThis.TransformStream;
}, 'streamWeb'));
process.stdout.write(`${JSON.stringify(results)}\n`);
