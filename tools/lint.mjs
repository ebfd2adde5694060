#!/usr/bin/env node
// `npm run lint`, and the "lint and dead code" step of `npm test` (run once,
// with the Node that runs it): every check below runs, and the exit code is
// non-zero if any failed.
//   - the tests of these tools themselves (tools/**/*.test.mjs)
//   - eslint (eslint.config.js): eslint's recommended rules everywhere, and in
//     the core tools/eslint/plugin.js's no-patchable-builtins and no-patchable-iteration, with no
//     suppressions
//   - knip (knip.json): unused files, exports and dependencies
//   - tools/dead-members.mjs: unused methods of src/'s internal classes
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const toolTests = readdirSync(join(root, 'tools'), { recursive: true })
  .filter((f) => f.endsWith('.test.mjs')).sort().map((f) => join('tools', f));
const checks = [
  ['tests of the lint tools', ['--test', '--test-reporter=dot', ...toolTests]],
  ['eslint', [join(root, 'node_modules', 'eslint', 'bin', 'eslint.js'), '--max-warnings=0', '.']],
  ['knip (unused files, exports, dependencies)', [join(root, 'node_modules', 'knip', 'bin', 'knip.js'), '--no-progress']],
  ['unused members of internal classes', ['tools/dead-members.mjs']],
];
let failed = 0;
for (const [name, args] of checks) {
  const t0 = Date.now();
  const r = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit', env: { ...process.env, NODE_OPTIONS: '' } });
  const ok = r.status === 0;
  if (!ok) failed++;
  console.log(`lint: ${name}: ${ok ? 'ok' : `FAILED (exit ${r.status ?? r.signal})`} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}
process.exit(failed === 0 ? 0 : 1);
