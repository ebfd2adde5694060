// Differential fuzzer of fetch() bodies (issue 34): request bodies of every
// kind through redirects and 401s, read every way, natively and under the
// preload, in both preload orders and after a library replaced the global
// Response (as @hono/node-server does) or Request. The lines must agree.
//   FETCH_FUZZ_SEEDS / FETCH_FUZZ_FROM set the range (default 150 from 0).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from './impls.mjs';

const CHILD = join(ROOT, 'test', 'fuzz', 'fetch', 'child.mjs');
const FETCH_FIRST = ['--import', join(ROOT, 'test', 'e2e', 'fixtures', 'order', 'fetch-first.mjs')];
const OURS = ['--import', join(ROOT, 'register.mjs')];
const REPLACED = {
  none: [],
  Response: ['--import', join(ROOT, 'test', 'fuzz', 'fetch', 'replace-response.mjs')],
  Request: ['--import', join(ROOT, 'test', 'e2e', 'fixtures', 'order', 'replace-request.mjs')],
};
const seeds = Number(process.env.FETCH_FUZZ_SEEDS ?? 150);
const from = Number(process.env.FETCH_FUZZ_FROM ?? 0);

function run(args) {
  const r = spawnSync(process.execPath, [...args, CHILD, String(from), String(seeds)],
    { cwd: ROOT, encoding: 'utf8', timeout: 240_000, env: { ...process.env, NODE_OPTIONS: '' } });
  assert.equal(r.status, 0, `child failed (${r.status ?? r.signal}): ${r.stderr}`);
  return r.stdout.trim().split('\n');
}

for (const [replaced, replace] of Object.entries(REPLACED)) {
  const native = run([...replace]);
  for (const [order, args] of [['ours first', [...OURS, ...replace]], ['fetch() first', [...FETCH_FIRST, ...OURS, ...replace]]]) {
    test(`fetch bodies, ${order}, global replaced: ${replaced}`, { timeout: 240_000 }, () => {
      assert.equal(native.length, seeds);
      const ours = run(args);
      const differ = [];
      ours.forEach((line, i) => { if (line !== native[i]) differ.push(`ours   ${line}\nnative ${native[i]}`); });
      assert.deepEqual(differ, [], `node ${args.join(' ')} test/fuzz/fetch/child.mjs SEED 1 for one`);
    });
  }
}
