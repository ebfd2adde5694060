// bench/app-heap.mjs (run.mjs --app-heap=MB): the records it returns keep at
// least the requested heap alive after full collections, so a bench child
// given --app-heap really runs with that much application state; and the
// harness passes the option on to its children.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseArgs } from '../../bench/run.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

test('retainAppHeap keeps the requested MB reachable', () => {
  const script = `
    const { retainAppHeap } = await import(${JSON.stringify(join(root, 'bench', 'app-heap.mjs'))});
    gc(); gc();
    const before = process.memoryUsage().heapUsed;
    const kept = retainAppHeap(3);
    gc(); gc();
    const grown = process.memoryUsage().heapUsed - before;
    console.log(JSON.stringify({ grown, records: kept.length, none: retainAppHeap(0).length }));`;
  const r = spawnSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', script], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const { grown, records, none } = JSON.parse(r.stdout);
  // retainAppHeap counts from after its own gc() context was made; that context
  // is garbage once it returns, so from outside a little less than 3 MB shows.
  assert.ok(grown >= 0.9 * 3 * 1024 * 1024, `only ${grown} bytes kept`);
  assert.ok(grown < 6 * 1024 * 1024, `${grown} bytes kept for 3 MB`);
  assert.ok(records > 0);
  assert.equal(none, 0);
});

test('--app-heap is parsed and refused when not a size', () => {
  assert.equal(parseArgs([]).appHeapMB, 0);
  assert.equal(parseArgs(['--app-heap=4']).appHeapMB, 4);
  assert.throws(() => parseArgs(['--app-heap=-1']), /--app-heap/);
  assert.throws(() => parseArgs(['--app-heap=lots']), /--app-heap/);
});
