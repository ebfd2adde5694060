#!/usr/bin/env node
// `npm test`: everything CI checks, on every supported Node.
//   1. fetch the WPT streams suite if it is not cached (test/wpt/fetch-wpt.mjs)
//   2. for Node 20, 22, 24 and 26: the unit tests (node:test), then the WPT
//      suite natively and under the global patch (test/wpt/run.mjs)
//   0. once: the TypeScript declarations type-check (test/types/usage.ts)
// Options: --versions=20,24 to run a subset; --skip-wpt; --skip-unit.
// Ends with one line "N passed, N failed" counting the steps, and exits
// non-zero if any step failed.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureWpt } from './wpt/fetch-wpt.mjs';
import { DEFAULT_MAJORS, resolveNode } from './wpt/node-versions.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
let majors = DEFAULT_MAJORS;
let skipWpt = false;
let skipUnit = false;
for (const arg of process.argv.slice(2)) {
  if (arg.startsWith('--versions=')) majors = arg.slice(11).split(',').map(Number);
  else if (arg === '--skip-wpt') skipWpt = true;
  else if (arg === '--skip-unit') skipUnit = true;
  else {
    console.error(`run-tests: unknown option ${arg}`);
    process.exit(2);
  }
}

// Files, not a directory: Node 22+ reads --test arguments as glob patterns.
const unitFiles = readdirSync(join(root, 'test', 'unit'))
  .filter((f) => f.endsWith('.test.mjs')).sort().map((f) => join('test', 'unit', f));

const started = Date.now();
const steps = [];
function step(name, bin, args) {
  console.log(`\n=== ${name}`);
  const t0 = Date.now();
  const r = spawnSync(bin, args, { cwd: root, stdio: 'inherit', env: { ...process.env, NODE_OPTIONS: '' } });
  const ok = r.status === 0;
  steps.push({ name, ok, seconds: (Date.now() - t0) / 1000 });
  console.log(`=== ${name}: ${ok ? 'ok' : `FAILED (exit ${r.status ?? r.signal})`} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}

if (!skipWpt) ensureWpt();
// The TypeScript declarations, once: the compiler comes from the npm registry
// (not a dependency of ours), pinned so a new release cannot change the verdict.
if (!skipUnit) {
  step('TypeScript declarations (tsc --strict, lib es2022)', 'npx',
    ['-y', '-p', 'typescript@5.9.3', 'tsc', '-p', 'test/types']);
  step('TypeScript declarations with lib dom', 'npx',
    ['-y', '-p', 'typescript@5.9.3', 'tsc', '-p', 'test/types', '--lib', 'es2022,dom']);
}
for (const major of majors) {
  let node;
  try {
    node = resolveNode(major);
  } catch (e) {
    steps.push({ name: `Node ${major}: obtain binary`, ok: false, seconds: 0 });
    console.error(`Node ${major}: could not obtain a binary: ${e.message}`);
    continue;
  }
  if (!skipUnit) step(`Node ${node.version}: unit tests`, node.bin, ['--test', '--test-reporter=dot', ...unitFiles]);
  if (!skipWpt) step(`Node ${node.version}: WPT streams (native and patched)`, node.bin, ['test/wpt/run.mjs', '--mode=both']);
}

console.log('\nSummary');
for (const s of steps) console.log(`  ${s.ok ? 'ok  ' : 'FAIL'}  ${s.name} (${s.seconds.toFixed(1)} s)`);
console.log(`Total time ${((Date.now() - started) / 1000).toFixed(0)} s`);
const failed = steps.filter((s) => !s.ok).length;
console.log(`${steps.length - failed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
