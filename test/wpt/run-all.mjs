#!/usr/bin/env node
// Runs the WPT streams runner (test/wpt/run.mjs) once per supported Node major.
//
//   node test/wpt/run-all.mjs [--versions=20,22,24,26] [--json-dir=<dir>] [run.mjs options...]
//
// Node binaries come from test/wpt/node-versions.mjs (this machine's node when
// the major matches, else the npm registry's `node` package, cached in
// .cache/node/<major>/). Every other option (--mode, --filter, --patch,
// --verbose, --timeout, --concurrency, --expectations, --allow-noop-patch, ...)
// is passed through to run.mjs. Per-version JSON results go to --json-dir
// (default .cache/wpt-results/node-<major>.json).
//
// Exits 1 if any version has unexpected failures (or its runner or node binary
// failed), else 0.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureWpt, REPO_ROOT } from './fetch-wpt.mjs';
import { DEFAULT_MAJORS, resolveNode } from './node-versions.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const RUNNER = join(HERE, 'run.mjs');

const passthrough = [];
let majors = DEFAULT_MAJORS;
let jsonDir = join(REPO_ROOT, '.cache', 'wpt-results');
for (const arg of process.argv.slice(2)) {
  if (arg.startsWith('--versions=')) {
    majors = arg.slice('--versions='.length).split(',').filter(Boolean).map(Number);
  } else if (arg.startsWith('--json-dir=')) {
    jsonDir = resolve(arg.slice('--json-dir='.length));
  } else if (arg.startsWith('--node=') || arg.startsWith('--json=')) {
    console.error(`run-all.mjs: ${arg.split('=')[0]} is chosen per version here; use run.mjs for a single binary`);
    process.exit(2);
  } else {
    passthrough.push(arg);
  }
}
if (!majors.length || majors.some((m) => !Number.isInteger(m))) {
  console.error('run-all.mjs: bad --versions');
  process.exit(2);
}

const t0 = Date.now();
let wptRoot;
try {
  wptRoot = await ensureWpt();
} catch (err) {
  console.error(`run-all.mjs: cannot get WPT: ${err.message}`);
  process.exit(2);
}
mkdirSync(jsonDir, { recursive: true });

const rows = [];
for (const major of majors) {
  const started = Date.now();
  let node;
  try {
    node = resolveNode(major);
  } catch (err) {
    rows.push({ major, line: `Node ${major}: could not get a binary: ${err.message}`, ok: false, seconds: 0 });
    continue;
  }
  const jsonFile = join(jsonDir, `node-${major}.json`);
  rmSync(jsonFile, { force: true });
  console.log(`\n===== Node ${node.version} (${node.bin}) =====`);
  const r = spawnSync(process.execPath, [RUNNER, `--node=${node.bin}`, `--wpt=${wptRoot}`, `--json=${jsonFile}`, ...passthrough], {
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const seconds = (Date.now() - started) / 1000;
  let summary = null;
  if (existsSync(jsonFile)) {
    try { summary = JSON.parse(readFileSync(jsonFile, 'utf8')).summary; } catch {}
  }
  const parts = [`Node ${node.version}:`];
  if (summary?.native) parts.push(`native ${summary.native.passed}/${summary.native.total},`);
  if (summary?.patched) {
    parts.push(`patched ${summary.patched.passed}/${summary.patched.total},`,
      `unexpected failures ${summary.unexpectedFailures.length}`);
  }
  if (!summary) parts.push(`runner failed (exit ${r.status ?? r.signal}), no results`);
  const problems = [
    ...(summary?.native?.problems ?? []).map((p) => `native ${p.status} ${p.file}`),
    ...(summary?.patched?.problems ?? []).map((p) => `patched ${p.status} ${p.file}`),
  ];
  rows.push({
    major,
    line: parts.join(' ').replace(/,$/, ''),
    problems,
    ok: r.status === 0,
    seconds,
  });
}

console.log('\n===== WPT streams, all Node versions =====');
for (const row of rows) {
  console.log(`${row.ok ? '  ok  ' : ' FAIL '} ${row.line} (${row.seconds.toFixed(1)} s)`);
  if (row.problems?.length) console.log(`        files not finishing OK: ${row.problems.join('; ')}`);
}
console.log(`total ${((Date.now() - t0) / 1000).toFixed(1)} s; JSON per version in ${jsonDir}`);
process.exit(rows.every((r) => r.ok) ? 0 : 1);
