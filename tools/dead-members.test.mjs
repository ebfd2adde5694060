// tools/dead-members.mjs: which members it sees in a class body, and which
// it calls unused, on a small tree of its own.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deadMembers, scan } from './dead-members.mjs';
import { tokenize } from './tokenize.mjs';

test('scan: a class body\'s methods, accessors and fields, and the names used', () => {
  const { members, used } = scan(tokenize(`
    class A extends f({ x: 1 }) {
      constructor() { super(); this.n = 0; }
      static make() { return new A(); }
      get size() { return this.n; }
      set size(v) {}
      async load() { await this.make(); }
      get() { return { inner() {} }; }
      field = 1;
      [Symbol.iterator]() {}
      #secret() {}
    }
    const o = { notAMember() {} };
    o.used(); o?.maybe; x['quoted'];
  `));
  assert.deepEqual(members.map((m) => `${m.cls}.${m.name}`),
    ['A.make', 'A.size', 'A.size', 'A.load', 'A.get', 'A.field']);
  // this.n: A defines no n, so any n; this.make: A's own.
  assert.deepEqual(used, ['n', 'n', 'A#make', 'iterator', 'used', 'maybe', 'quoted']);
});

test('deadMembers: unused members of internal classes; not the public ones, not what src/ calls', (t) => {
  const root = mkdtempSync(join(tmpdir(), 'dead-members-'));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  mkdirSync(join(root, 'src'));
  mkdirSync(join(root, 'test'));
  writeFileSync(join(root, 'src', 'index.js'), "export { Public } from './a.js';\n");
  writeFileSync(join(root, 'src', 'a.js'), [
    'export class Public { unusedButApi() {} }',
    'export class Internal {',
    '  called() { this.viaThis(); }',
    '  viaThis() {}',
    '  onlyTestsCall() {}',
    '  reset() {}',
    '}',
    'new Internal().called();',
    // `this` outside a class body is someone else's object.
    'function collect() { this.reset(); }',
    '',
  ].join('\n'));
  writeFileSync(join(root, 'test', 'a.test.mjs'), 'new Internal().onlyTestsCall();\n');
  assert.deepEqual(deadMembers(root).map((m) => `${m.file}:${m.line} ${m.cls}.${m.name}`),
    ['src/a.js:5 Internal.onlyTestsCall', 'src/a.js:6 Internal.reset']);
});
