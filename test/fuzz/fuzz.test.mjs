// Checks the fuzzer itself (and, last, fast-webstreams against native).
//   node --test test/fuzz/fuzz.test.mjs
// FUZZ_SEEDS / FUZZ_FROM set the ours-vs-native range (default 200 from 0),
// FUZZ_CHAIN_SEEDS that of the long-chains family (default 100 from FUZZ_FROM);
// FUZZ_GATE the classes that fail it (default: all but `order`).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fuzz } from './driver.mjs';
import { DEFAULT_GATE } from './diff.mjs';
import { generate } from './generate.mjs';
import { compile } from './compile.mjs';

const summary = (r) => r.findings.map((f) => `${f.seed}:${f.classes.join('+')}[${f.sig}]`).join(' ');

test('a seed always gives the same program', () => {
  assert.deepEqual(generate(42), generate(42));
  assert.notDeepEqual(generate(42), generate(43));
  for (let s = 0; s < 200; s++) compile(generate(s)); // every generated program compiles
});

test('native against native: no divergence', { timeout: 120_000 }, async () => {
  const r = await fuzz({ seeds: 100, implA: 'native', implB: 'native', referee: null });
  assert.equal(r.done, 100);
  assert.equal(r.findings.length, 0, summary(r));
});

test('a planted dropped chunk is found', { timeout: 120_000 }, async () => {
  const r = await fuzz({ seeds: 100, implA: 'native', implB: 'native+drop-chunk', referee: null });
  assert.ok(r.findings.some((f) => f.classes.includes('result')), summary(r));
});

test('a planted one-microtask-late callback is found', { timeout: 120_000 }, async () => {
  const r = await fuzz({ seeds: 200, implA: 'native', implB: 'native+late-callback', referee: null });
  assert.ok(r.findings.length > 0, 'no divergence in 200 seeds');
});

test('the shrinker keeps the divergence and makes the program smaller', { timeout: 120_000 }, async () => {
  const r = await fuzz({ seeds: 60, implA: 'native', implB: 'native+drop-chunk', referee: null, shrink: true, shrinkMax: 1 });
  assert.equal(r.shrunk.length, 1);
  const [s] = r.shrunk;
  const original = r.findings.find((f) => f.seed === s.seed).program;
  assert.ok(s.program.steps.length <= original.steps.length);
  assert.ok(s.diffs.some((d) => d.cls === s.cls), 'shrunk program no longer diverges');
  assert.match(s.repro, /new ReadableStream/);
});

test('fast-webstreams against native: no gating divergence', { timeout: 240_000 }, async () => {
  const seeds = Number(process.env.FUZZ_SEEDS ?? 200);
  const from = Number(process.env.FUZZ_FROM ?? 0);
  const gate = process.env.FUZZ_GATE ? process.env.FUZZ_GATE.split(',') : DEFAULT_GATE;
  const r = await fuzz({ seeds, from, implA: 'native', implB: 'ours' });
  const gating = r.findings.filter((f) => f.classes.some((c) => gate.includes(c)));
  assert.equal(gating.length, 0,
    `${gating.length} of ${seeds} seeds diverge (node test/fuzz/run.mjs --seed=N for one): ${summary({ findings: gating })}`);
});

test('fast-webstreams against native, long chains over busy sources: no gating divergence', { timeout: 480_000 }, async () => {
  const seeds = Number(process.env.FUZZ_CHAIN_SEEDS ?? 100);
  const from = Number(process.env.FUZZ_FROM ?? 0);
  const gate = process.env.FUZZ_GATE ? process.env.FUZZ_GATE.split(',') : DEFAULT_GATE;
  const r = await fuzz({ seeds, from, implA: 'native', implB: 'ours', family: 'chains' });
  const gating = r.findings.filter((f) => f.classes.some((c) => gate.includes(c)));
  assert.equal(gating.length, 0, `${gating.length} of ${seeds} seeds diverge ` +
    `(node test/fuzz/run.mjs --family=chains --seed=N for one): ${summary({ findings: gating })}`);
});
