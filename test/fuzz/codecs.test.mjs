// Gate of the codec fuzzer (test/fuzz/codecs/, docs/codecs.md "Fuzzing"):
// seeds natively and under the preload on the running Node, and checks that
// the fuzzer itself can see a difference and sees none between two natives.
//   node --test test/fuzz/codecs.test.mjs
// CODEC_FUZZ_SEEDS / CODEC_FUZZ_FROM set the ours-vs-native range (default 300 from 0).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fuzzCodecs } from './codecs/batch.mjs';
import { generate } from './codecs/generate.mjs';

const lines = (results) => results.filter((r) => r.diffs.length).map((r) => `seed ${r.seed}: ${r.diffs.join('; ')}`).join('\n');

test('a seed always gives the same case', () => {
  for (let s = 0; s < 50; s++) assert.deepEqual(generate(s), generate(s));
  assert.notDeepEqual(generate(1), generate(2));
  const classes = new Set(Array.from({ length: 100 }, (_, s) => generate(s).cls));
  assert.equal(classes.size, 4, 'every class is generated');
});

test('a planted one-byte corruption of the output is reported', { timeout: 60_000 }, async () => {
  const results = await fuzzCodecs({ seeds: 40, both: 'native', plant: 'corrupt-output' });
  const outputDiffs = results.filter((r) => r.diffs.some((d) => d.startsWith('output')));
  // Every class: text chunks are compared exactly, zlib output by hash.
  const classes = new Set(outputDiffs.map((r) => generate(r.seed).cls));
  assert.equal(classes.size, 4, `output corruption found only in ${[...classes]}:\n${lines(results)}`);
});

test('native against native: no divergence', { timeout: 60_000 }, async () => {
  const results = await fuzzCodecs({ seeds: 60, from: 5000, both: 'native' });
  assert.equal(lines(results), '');
});

test('ours against native: no divergence but the documented one', { timeout: 120_000 }, async () => {
  const seeds = Number(process.env.CODEC_FUZZ_SEEDS ?? 300);
  const from = Number(process.env.CODEC_FUZZ_FROM ?? 0);
  const results = await fuzzCodecs({ seeds, from });
  assert.equal(results.length, seeds);
  assert.equal(lines(results), '', 'node test/fuzz/codecs/run.mjs --seed=S --show for one');
});
