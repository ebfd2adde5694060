#!/usr/bin/env node
// The TypeScript declarations (types/) against every TypeScript major the
// package supports, each pinned in devDependencies (npm aliases):
//   5.6 (the oldest supported): alone, and with lib.dom (@types/node needs 5.7+)
//   5.9 (typescript):           alone, with lib.dom, against @types/node 20-26 with
//                               lib.dom (interop.ts) and without (node-only.ts)
//   6 (typescript-6):           alone, with lib.dom, @types/node 26 with and without lib.dom
//   7 (typescript-7):           as 5.9 (the native compiler takes a second per case)
// Prints one line per case and exits non-zero if any failed.
//   node test/types/run.mjs [--only=7]
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const NODE_TYPES = [20, 22, 24, 26];
const alone = [['alone (lib es2022, no @types/node)', 'tsconfig.json'], ['with lib.dom', 'tsconfig.json', '--lib', 'es2022,dom']];
const withNode = (versions) => versions.flatMap((v) => [
  [`@types/node ${v} with lib.dom (interop.ts)`, `tsconfig.node${v}.json`],
  [`@types/node ${v} without lib.dom (node-only.ts)`, `tsconfig.nodeonly${v}.json`],
]);
const COMPILERS = [
  { major: '5.6', pkg: 'typescript-5.6', cases: alone },
  { major: '5.9', pkg: 'typescript', cases: [...alone, ...withNode(NODE_TYPES)] },
  { major: '6', pkg: 'typescript-6', cases: [...alone, ...withNode([26])] },
  { major: '7', pkg: 'typescript-7', cases: [...alone, ...withNode(NODE_TYPES)] },
];

const CONCURRENCY = 2; // the compilers are single-threaded; two at a time halves the wall time

/** One tsc run: resolves to its line and, when it failed, its output. */
function check(tsc, version, [label, config, ...args]) {
  const t0 = Date.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [tsc, '-p', join('test', 'types', config), ...args], { cwd: ROOT });
    let output = '';
    child.stdout.on('data', (d) => { output += d; });
    child.stderr.on('data', (d) => { output += d; });
    child.on('close', (code) => resolve({
      ok: code === 0, output, line: `${version}, ${label} (${((Date.now() - t0) / 1000).toFixed(1)} s)`,
    }));
  });
}

const only = process.argv.find((a) => a.startsWith('--only='))?.slice(7);
const jobs = [];
let failed = 0;
for (const { major, pkg, cases } of COMPILERS) {
  if (only !== undefined && only !== major) continue;
  const tsc = join(ROOT, 'node_modules', pkg, 'bin', 'tsc');
  if (!existsSync(tsc)) {
    console.log(`FAIL  TypeScript ${major}: ${pkg} is not installed (npm ci installs it)`);
    failed++;
    continue;
  }
  const version = `TypeScript ${JSON.parse(readFileSync(join(ROOT, 'node_modules', pkg, 'package.json'), 'utf8')).version}`;
  for (const c of cases) jobs.push(() => check(tsc, version, c));
}
const results = new Array(jobs.length);
let next = 0;
await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
  while (next < jobs.length) {
    const i = next++;
    results[i] = await jobs[i]();
  }
}));
for (const r of results) {
  if (!r.ok) failed++;
  console.log(`${r.ok ? 'ok  ' : 'FAIL'}  ${r.line}`);
  if (!r.ok) process.stdout.write(r.output.replace(/^/gm, '      '));
}
process.exit(failed === 0 ? 0 : 1);
