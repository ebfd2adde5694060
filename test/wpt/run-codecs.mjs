#!/usr/bin/env node
// WPT conformance runner for the codec classes (src/codecs/): runs every
// encoding/streams/*.any.js and compression/*.any.js file natively and with
// the library installed (src/index.js#install, then src/codecs/install.js on
// top, as the preload does: test/wpt/codecs-install.mjs), each file in its own
// child (test/wpt/child.mjs), and fails when a subtest native Node passes does
// not pass patched, or a patched file crashes or times out where native did not.
//
// Usage: node test/wpt/run-codecs.mjs [--node=<path>] [--filter=<substring>]...
//          [--verbose] [--timeout=<seconds>] [--concurrency=<n>] [--wpt=<dir>]
// WPT root: --wpt, else $WPT_DIR, else the tree test/wpt/fetch-wpt.mjs fetches.
// Exit code: 0 no unexpected failure, 1 some, 2 usage or setup error.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ensureWpt } from './fetch-wpt.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const CHILD = join(HERE, 'child.mjs');
const PATCH = `${join(HERE, 'codecs-install.mjs')}#install`;
const SUITES = ['encoding/streams', 'compression'];

const { values: opts } = parseArgs({
  options: {
    node: { type: 'string' },
    filter: { type: 'string', multiple: true, default: [] },
    verbose: { type: 'boolean', short: 'v', default: false },
    timeout: { type: 'string', default: '60' },
    concurrency: { type: 'string', default: '2' },
    wpt: { type: 'string' },
  },
});
const timeoutMs = Number(opts.timeout) * 1000;
const concurrency = Math.max(1, Number(opts.concurrency) | 0);
if (!(timeoutMs > 0)) {
  console.error('run-codecs.mjs: bad --timeout');
  process.exit(2);
}
const nodeBin = opts.node ? resolve(opts.node) : process.execPath;

function listFiles(root) {
  const out = [];
  for (const suite of SUITES) {
    const dir = join(root, suite);
    if (!existsSync(dir)) continue;
    for (const name of readdirSync(dir).sort()) if (name.endsWith('.any.js')) out.push(`${suite}/${name}`);
  }
  return out;
}

function runChild(wptRoot, file, mode, tmpDir, index) {
  const resultFile = join(tmpDir, `${index}-${mode}.jsonl`);
  const config = { wptRoot, file, patch: mode === 'patched' ? PATCH : '', resultFile, timeoutMs };
  return new Promise((done) => {
    const child = spawn(nodeBin, ['--expose-gc', CHILD, JSON.stringify(config)], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (c) => { stderr = (stderr + c).slice(-4000); });
    const killer = setTimeout(() => child.kill('SIGKILL'), timeoutMs + 10000);
    child.on('close', () => {
      clearTimeout(killer);
      const r = { status: 'CRASH', message: stderr.trim().split('\n').slice(-3).join(' | '), subtests: {} };
      if (existsSync(resultFile)) {
        for (const line of readFileSync(resultFile, 'utf8').split('\n')) {
          if (!line) continue;
          const rec = JSON.parse(line);
          if (rec.type === 'result' && !(rec.name in r.subtests)) r.subtests[rec.name] = rec;
          else if (rec.type === 'patch-error') r.message = rec.message;
          else if (rec.type === 'done') Object.assign(r, { status: rec.harness.status, message: rec.harness.message });
        }
      }
      done(r);
    });
  });
}

const count = (r) => {
  const subs = Object.values(r.subtests);
  return { passed: subs.filter((s) => s.status === 'PASS').length, total: subs.length };
};

async function main() {
  const wptRoot = opts.wpt ? resolve(opts.wpt) : await ensureWpt();
  let files = listFiles(wptRoot);
  if (opts.filter.length) files = files.filter((f) => opts.filter.some((s) => f.includes(s)));
  if (!files.length) {
    console.error(`run-codecs.mjs: no ${SUITES.join(' or ')} *.any.js files in ${wptRoot}`);
    process.exit(2);
  }
  const version = (await new Promise((ok) => {
    const c = spawn(nodeBin, ['-p', 'process.version']);
    let s = '';
    c.stdout.on('data', (d) => { s += d; });
    c.on('close', () => ok(s));
  })).trim();
  console.log(`WPT codecs: ${files.length} files from ${wptRoot}, Node ${version}`);
  const tmpDir = mkdtempSync(join(os.tmpdir(), 'fast-webstreams-wpt-codecs-'));
  const results = {};
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(concurrency, files.length) }, async () => {
    while (next < files.length) {
      const i = next++;
      const file = files[i];
      const native = await runChild(wptRoot, file, 'native', tmpDir, i);
      const patched = await runChild(wptRoot, file, 'patched', tmpDir, i);
      results[file] = { native, patched };
      const n = count(native);
      const p = count(patched);
      const flag = (r) => (r.status === 'OK' ? '' : ` ${r.status}`);
      console.log(`${file}: native ${n.passed}/${n.total}${flag(native)}, patched ${p.passed}/${p.total}${flag(patched)}`);
    }
  }));
  rmSync(tmpDir, { recursive: true, force: true });

  const failures = [];
  const totals = { native: [0, 0], patched: [0, 0] };
  for (const file of files) {
    const { native, patched } = results[file];
    for (const [mode, r] of Object.entries({ native, patched })) {
      const c = count(r);
      totals[mode][0] += c.passed;
      totals[mode][1] += c.total;
    }
    const fileProblem = (s) => s === 'CRASH' || s === 'TIMEOUT' || s === 'ERROR';
    if (fileProblem(patched.status) && !fileProblem(native.status)) {
      failures.push(`${file} (file): ${patched.status} ${patched.message ?? ''}`);
    }
    for (const [name, n] of Object.entries(native.subtests)) {
      if (n.status !== 'PASS') continue;
      const p = patched.subtests[name];
      if (p?.status !== 'PASS') failures.push(`${file} :: ${name}: ${p ? `${p.status} ${p.message}` : 'MISSING'}`);
    }
    if (opts.verbose) {
      for (const [mode, r] of Object.entries({ native, patched })) {
        if (r.status !== 'OK') console.log(`  [${mode}] ${file}: ${r.status} ${r.message ?? ''}`);
        for (const [name, s] of Object.entries(r.subtests)) {
          if (s.status !== 'PASS') console.log(`  [${mode}] ${s.status} ${file} :: ${name}: ${String(s.message).slice(0, 300)}`);
        }
      }
    }
  }
  console.log(`\nNode ${version}: native ${totals.native[0]}/${totals.native[1]}, ` +
    `patched ${totals.patched[0]}/${totals.patched[1]}, unexpected failures ${failures.length}`);
  for (const f of failures) console.log(`  UNEXPECTED ${f.slice(0, 600)}`);
  process.exitCode = failures.length ? 1 : 0;
}

main().catch((err) => {
  console.error(`run-codecs.mjs: ${err.stack ?? err}`);
  process.exit(2);
});
