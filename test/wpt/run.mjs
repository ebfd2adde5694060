#!/usr/bin/env node
// Web-platform-tests (WPT) streams conformance runner for fast-webstreams.
//
// Runs every streams/**/*.any.js file of a WPT tree, each file in its own
// child process (test/wpt/child.mjs), in two modes:
//   native   Node's own web streams, nothing installed
//   patched  the library's classes installed on globalThis first
// and compares them: every subtest that passes natively (same Node binary)
// must pass patched, unless test/wpt/expectations.json lists it. A patched
// file that crashes or times out is a failure too.
//
// Usage: node test/wpt/run.mjs [options]
//   --mode=native|patched|both   default both
//   --node=<path>                node binary for the children (default: this one)
//   --filter=<substring>         only files whose path (relative to streams/) contains it;
//                                repeatable, or comma-separated
//   --json=<file>                write every subtest result (and a summary) as JSON
//   --verbose                    print failing subtests (name + message) for both modes
//   --patch=<spec>               how patched mode installs the library, default
//                                "<repo>/src/index.js#install": "<module>#<export>" imports
//                                the module and calls that export; "<module>" only imports
//                                it (for a register module that installs on import).
//                                Relative paths are taken from the working directory; bare
//                                specifiers (e.g. fast-webstreams/register) resolve from test/wpt/.
//   --preload=<specifier>        patched mode installs the library the way users do: each
//                                patched child starts with `node --import <specifier>`
//                                (e.g. fast-webstreams/register, resolved from the working
//                                directory) and --patch is not used
//   --allow-noop-patch           don't fail when the patch replaces none of the stream globals
//   --baseline=<json>            with --mode=patched: native results from an earlier --json run
//   --expectations=<file>        default test/wpt/expectations.json
//   --timeout=<seconds>          per file, default 60 (x2 for "META: timeout=long")
//   --concurrency=<n>            parallel files, default: number of CPUs
//   --retries=<n>                rerun a patched file that has unexpected failures up to n
//                                times (default 1); a clean retry passes, with a FLAKY notice
//   --wpt=<dir>                  WPT root (else $WPT_DIR, else the .cache/wpt fetched on demand)
//
// expectations.json: { "<path relative to streams/>": { "<subtest name>": "<reason>" } }
// The subtest name "*" marks the whole file (including a crash or timeout) as expected to fail.
//
// Exit code: 0 when there is no unexpected patched failure (native-only runs: 0 unless no
// file ran), 1 otherwise, 2 on a usage or setup error.

import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ensureWpt, REPO_ROOT } from './fetch-wpt.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const CHILD = join(HERE, 'child.mjs');
const DEFAULT_PATCH = `${join(REPO_ROOT, 'src', 'index.js')}#install`;
const FILE_PROBLEMS = new Set(['CRASH', 'TIMEOUT']);

function usageError(msg) {
  console.error(`run.mjs: ${msg} (see the header of test/wpt/run.mjs for options)`);
  process.exit(2);
}

function parseOptions(argv) {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: {
        mode: { type: 'string', default: 'both' },
        node: { type: 'string' },
        filter: { type: 'string', multiple: true, default: [] },
        json: { type: 'string' },
        verbose: { type: 'boolean', short: 'v', default: false },
        patch: { type: 'string', default: DEFAULT_PATCH },
        'allow-noop-patch': { type: 'boolean', default: false },
        preload: { type: 'string' },
        baseline: { type: 'string' },
        expectations: { type: 'string', default: join(HERE, 'expectations.json') },
        timeout: { type: 'string', default: '60' },
        concurrency: { type: 'string' },
        retries: { type: 'string', default: '1' },
        wpt: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (err) {
    usageError(err.message);
  }
  if (parsed.help) {
    const src = readFileSync(fileURLToPath(import.meta.url), 'utf8').split('\n');
    console.log(src.slice(1, src.findIndex((l) => l.startsWith('import'))).map((l) => l.replace(/^\/\/ ?/, '')).join('\n'));
    process.exit(0);
  }
  if (!['native', 'patched', 'both'].includes(parsed.mode)) usageError(`bad --mode=${parsed.mode}`);
  const timeout = Number(parsed.timeout);
  if (!(timeout > 0)) usageError(`bad --timeout=${parsed.timeout}`);
  const cpus = typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length;
  const concurrency = parsed.concurrency === undefined ? Math.max(1, cpus) : Number(parsed.concurrency);
  if (!(concurrency >= 1)) usageError(`bad --concurrency=${parsed.concurrency}`);
  const retries = Number(parsed.retries);
  if (!(Number.isInteger(retries) && retries >= 0)) usageError(`bad --retries=${parsed.retries}`);
  return {
    ...parsed,
    retries,
    timeoutMs: timeout * 1000,
    concurrency: Math.floor(concurrency),
    filters: parsed.filter.flatMap((f) => f.split(',')).filter(Boolean),
    modes: parsed.mode === 'both' ? ['native', 'patched'] : [parsed.mode],
  };
}

function listTests(wptRoot) {
  const base = join(wptRoot, 'streams');
  const out = [];
  const walk = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.any.js')) out.push(relative(base, p).split('\\').join('/'));
    }
  };
  walk(base);
  return out.sort();
}

function isLong(wptRoot, file) {
  const head = readFileSync(join(wptRoot, 'streams', file), 'utf8').slice(0, 2000);
  return /^\/\/ META: *timeout=long\s*$/m.test(head);
}

function nodeVersion(bin) {
  const r = spawnSync(bin, ['-p', 'process.version'], { encoding: 'utf8', timeout: 60000 });
  if (r.status !== 0) throw new Error(`${bin} does not run: ${r.error?.message ?? r.stderr}`);
  return r.stdout.trim();
}

function tail(buf, n = 4000) {
  const s = buf.toString('utf8');
  return s.length > n ? `…${s.slice(-n)}` : s;
}

const running = new Set();

// Runs one file in one mode; resolves to a file result.
function runChild({ nodeBin, wptRoot, file, mode, patch, timeoutMs, tmpDir, index, preload }) {
  const resultFile = join(tmpDir, `${index}-${mode}.jsonl`);
  const config = {
    wptRoot,
    file: `streams/${file}`,
    patch: mode === 'patched' && !preload ? patch : '',
    resultFile,
    timeoutMs,
  };
  const started = Date.now();
  return new Promise((resolvePromise) => {
    const preloadArgs = mode === 'patched' && preload ? ['--import', preload] : [];
    const child = spawn(nodeBin, ['--expose-gc', ...preloadArgs, CHILD, JSON.stringify(config)], {
      cwd: process.cwd(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    running.add(child);
    let stdout = Buffer.alloc(0);
    let stderr = Buffer.alloc(0);
    const keep = (prev, chunk) => {
      const b = Buffer.concat([prev, chunk]);
      return b.length > 16384 ? b.subarray(b.length - 16384) : b;
    };
    child.stdout.on('data', (c) => { stdout = keep(stdout, c); });
    child.stderr.on('data', (c) => { stderr = keep(stderr, c); });
    let killed = false;
    const killer = setTimeout(() => {
      killed = true;
      child.kill('SIGKILL');
    }, timeoutMs + 10000);
    child.on('error', (err) => { stderr = keep(stderr, Buffer.from(`spawn error: ${err.message}\n`)); });
    child.on('close', (code, signal) => {
      clearTimeout(killer);
      running.delete(child);
      const res = {
        status: 'CRASH',
        message: null,
        subtests: {},
        durationMs: Date.now() - started,
        exitCode: code,
        signal,
        swapped: undefined,
        stdout: tail(stdout),
        stderr: tail(stderr),
      };
      let done = null;
      if (existsSync(resultFile)) {
        for (const line of readFileSync(resultFile, 'utf8').split('\n')) {
          if (!line) continue;
          let rec;
          try { rec = JSON.parse(line); } catch { continue; }
          if (rec.type === 'result') {
            if (!(rec.name in res.subtests)) res.subtests[rec.name] = { status: rec.status, message: rec.message };
          } else if (rec.type === 'patch') {
            res.swapped = rec.swapped;
          } else if (rec.type === 'patch-error') {
            res.patchError = rec.message;
          } else if (rec.type === 'done') {
            done = rec;
          }
        }
      }
      if (done) {
        res.status = done.harness.status;
        res.message = done.harness.timeoutNote
          ? `${done.harness.timeoutNote}${done.harness.message ? `; ${done.harness.message}` : ''}`
          : done.harness.message;
      } else if (killed) {
        res.status = 'TIMEOUT';
        res.message = `killed after ${(timeoutMs + 10000) / 1000} s without a harness result`;
      } else {
        res.message = `child exited (${signal ? `signal ${signal}` : `code ${code}`}) without a harness result` +
          (res.stderr ? `; stderr: ${res.stderr.trim().split('\n').slice(-5).join(' | ')}` : '');
      }
      if (mode === 'patched' && preload) res.swapped = preloadSwapped(nodeBin, preload);
      resolvePromise(res);
    });
  });
}

// Which stream globals the preload replaces: the class source text with and without it.
const preloadSwappedCache = new Map();
function preloadSwapped(nodeBin, preload) {
  const key = `${nodeBin}\0${preload}`;
  if (!preloadSwappedCache.has(key)) {
    const code = `const n=${JSON.stringify(STREAM_GLOBAL_NAMES)};console.log(JSON.stringify(n.map((x)=>String(globalThis[x]))))`;
    const probe = (args) => JSON.parse(spawnSync(nodeBin, [...args, '-e', code], { encoding: 'utf8', timeout: 60000 }).stdout);
    const plain = probe([]);
    const loaded = probe(['--import', preload]);
    preloadSwappedCache.set(key, STREAM_GLOBAL_NAMES.filter((_, i) => plain[i] !== loaded[i]));
  }
  return preloadSwappedCache.get(key);
}
const STREAM_GLOBAL_NAMES = [
  'ReadableStream', 'ReadableStreamDefaultReader', 'ReadableStreamBYOBReader', 'ReadableStreamBYOBRequest',
  'ReadableStreamDefaultController', 'ReadableByteStreamController', 'WritableStream',
  'WritableStreamDefaultWriter', 'WritableStreamDefaultController', 'TransformStream',
  'TransformStreamDefaultController', 'ByteLengthQueuingStrategy', 'CountQueuingStrategy',
];

function counts(fileResult) {
  if (!fileResult) return null;
  const subs = Object.values(fileResult.subtests);
  return { passed: subs.filter((s) => s.status === 'PASS').length, total: subs.length };
}

function fmtCounts(r) {
  if (!r) return '-';
  const c = counts(r);
  const flag = r.status === 'OK' ? '' : ` ${r.status}`;
  return `${c.passed}/${c.total}${flag}`;
}

function loadExpectations(path) {
  if (!existsSync(path)) return {};
  let data;
  try {
    data = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    usageError(`cannot read expectations ${path}: ${err.message}`);
  }
  if (!data || typeof data !== 'object' || Array.isArray(data)) usageError(`${path}: expected an object`);
  for (const [file, subs] of Object.entries(data)) {
    if (!subs || typeof subs !== 'object' || Array.isArray(subs)) {
      usageError(`${path}: "${file}" must map subtest names to reasons`);
    }
  }
  return data;
}

function loadBaseline(path, nodeVer) {
  let data;
  try {
    data = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    usageError(`cannot read baseline ${path}: ${err.message}`);
  }
  if (data.node !== nodeVer) {
    console.log(`WARNING: baseline ${path} is from Node ${data.node}, this run uses ${nodeVer}`);
  }
  const out = {};
  for (const [file, r] of Object.entries(data.files ?? {})) if (r.native) out[file] = r.native;
  return out;
}

// The pass/fail rule. Returns { failures, notices }.
function compare(files, allFiles, results, expectations) {
  const failures = [];
  const notices = [];
  let noBaseline = 0;
  for (const file of files) {
    const { native, patched } = results[file];
    if (!patched) continue;
    const expected = expectations[file] ?? {};
    const wholeFile = '*' in expected;
    if (patched.patchError) {
      failures.push({ file, subtest: null, status: 'PATCH_ERROR', message: patched.patchError });
      continue;
    }
    let fileFailed = false;
    if (FILE_PROBLEMS.has(patched.status) || (patched.status === 'ERROR' && native?.status !== 'ERROR')) {
      fileFailed = true;
      if (!wholeFile) failures.push({ file, subtest: null, status: patched.status, message: patched.message });
    }
    if (!native) {
      noBaseline++;
      continue;
    }
    // The expectations file may only excuse what native Node fails too.
    for (const [name, n] of Object.entries(native.subtests)) {
      if (n.status === 'PASS' && (wholeFile || name in expected)) {
        failures.push({
          file,
          subtest: name,
          status: 'BAD_EXPECTATION',
          message: `expectations.json excuses ${wholeFile ? 'this file' : 'this subtest'}, but native Node passes it: remove the entry`,
        });
      }
    }
    const missing = [];
    for (const [name, n] of Object.entries(native.subtests)) {
      if (n.status !== 'PASS') continue;
      const p = patched.subtests[name];
      if (p?.status === 'PASS') continue;
      if (wholeFile || name in expected) continue;
      if (!p && fileFailed) {
        missing.push(name);
        continue;
      }
      failures.push({
        file,
        subtest: name,
        status: p ? p.status : 'MISSING',
        message: p ? p.message : `not reported in patched mode (file status ${patched.status})`,
      });
    }
    if (missing.length) {
      failures.push({
        file,
        subtest: null,
        status: 'MISSING',
        message: `${missing.length} natively passing subtest(s) never reported because the file ended ` +
          `${patched.status}: ${missing.slice(0, 3).map((m) => JSON.stringify(m)).join(', ')}${missing.length > 3 ? ', …' : ''}`,
        subtests: missing,
      });
    }
    for (const name of Object.keys(expected)) {
      if (name === '*') continue;
      const p = patched.subtests[name];
      if (!p) {
        if (!(name in native.subtests)) {
          notices.push({ file, subtest: name, message: 'expectation names a subtest that does not exist (stale entry?)' });
        }
      } else if (p.status === 'PASS') {
        notices.push({ file, subtest: name, message: 'listed in expectations but PASSES now; remove the entry' });
      }
    }
    if (patched.earlierAttempts?.length) {
      const n = patched.earlierAttempts.length;
      notices.push({
        file,
        subtest: null,
        message: `FLAKY? run ${n + 1} time(s) in patched mode; earlier attempt(s) had unexpected failures: ` +
          patched.earlierAttempts.map((a) => a.unexpected.slice(0, 3).join(' | ')).join(' || '),
      });
    }
    if (wholeFile && patched.status === 'OK') {
      const c = counts(patched);
      const n = counts(native);
      const ok = Object.entries(native.subtests).every(([k, v]) => v.status !== 'PASS' || patched.subtests[k]?.status === 'PASS');
      if (ok) notices.push({ file, subtest: '*', message: `whole file listed in expectations but all native passes pass (${c.passed}/${c.total}, native ${n.passed}/${n.total}); remove the entry` });
    }
  }
  if (noBaseline) {
    notices.push({
      file: `(${noBaseline} file(s))`,
      subtest: null,
      message: 'no native results to compare with (use --mode=both, or --baseline=<json of a native run>); ' +
        'only crashes, timeouts and harness errors were checked there',
    });
  }
  for (const file of Object.keys(expectations)) {
    if (!allFiles.includes(file)) {
      notices.push({ file, subtest: null, message: 'expectations name a file that is not in the WPT tree (stale entry?)' });
    }
  }
  return { failures, notices };
}

async function pool(items, limit, worker) {
  let next = 0;
  const runners = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      await worker(items[i], i);
    }
  });
  await Promise.all(runners);
}

function oneLine(s, max = 300) {
  if (s == null) return '';
  const t = String(s).replace(/\s+/g, ' ').trim();
  return t.length > max ? `${t.slice(0, max)}…` : t;
}

async function main() {
  const opts = parseOptions(process.argv.slice(2));
  const t0 = Date.now();

  let wptRoot;
  try {
    wptRoot = opts.wpt ? resolve(opts.wpt) : await ensureWpt();
  } catch (err) {
    console.error(`run.mjs: cannot get WPT: ${err.message}`);
    process.exit(2);
  }
  if (!existsSync(join(wptRoot, 'resources', 'testharness.js'))) usageError(`${wptRoot} is not a WPT root`);

  const nodeBin = !opts.node ? process.execPath : opts.node.includes('/') ? resolve(opts.node) : opts.node;
  let nodeVer;
  try {
    nodeVer = nodeVersion(nodeBin);
  } catch (err) {
    console.error(`run.mjs: ${err.message}`);
    process.exit(2);
  }

  const allFiles = listTests(wptRoot);
  const files = opts.filters.length
    ? allFiles.filter((f) => opts.filters.some((s) => f.includes(s)))
    : allFiles;
  if (!files.length) {
    console.error(`run.mjs: no streams/**/*.any.js file matches ${JSON.stringify(opts.filters)} in ${wptRoot}`);
    process.exit(2);
  }

  const expectations = loadExpectations(opts.expectations);
  const baseline = opts.mode === 'patched' && opts.baseline ? loadBaseline(opts.baseline, nodeVer) : null;

  console.log(`WPT streams: ${files.length} files from ${wptRoot}`);
  console.log(`Node ${nodeVer} (${nodeBin}); modes: ${opts.modes.join(' + ')}; concurrency ${opts.concurrency}; ` +
    `timeout ${opts.timeoutMs / 1000} s per file (long: ${(2 * opts.timeoutMs) / 1000} s)`);
  if (opts.modes.includes('patched')) console.log(opts.preload ? `preload: --import ${opts.preload}` : `patch: ${opts.patch}`);

  const tmpDir = mkdtempSync(join(os.tmpdir(), 'fast-webstreams-wpt-'));
  const cleanup = () => rmSync(tmpDir, { recursive: true, force: true });
  const onSignal = (sig) => {
    for (const c of running) c.kill('SIGKILL');
    cleanup();
    process.exit(sig === 'SIGINT' ? 130 : 143);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  const results = Object.fromEntries(files.map((f) => [f, { native: baseline?.[f] ?? null, patched: null }]));
  // Long-timeout files first, so they don't end up as the tail of the run.
  const order = files.map((f, i) => ({ file: f, index: i, long: isLong(wptRoot, f) }))
    .sort((a, b) => Number(b.long) - Number(a.long) || a.index - b.index);
  let finished = 0;
  const width = String(files.length).length;

  await pool(order, opts.concurrency, async ({ file, index, long }) => {
    const timeoutMs = long ? 2 * opts.timeoutMs : opts.timeoutMs;
    let ms = 0;
    for (const mode of opts.modes) {
      const r = await runChild({ nodeBin, wptRoot, file, mode, patch: opts.patch, timeoutMs, tmpDir, index, preload: opts.preload });
      results[file][mode] = r;
      ms += r.durationMs;
    }
    // A patched file with unexpected failures is run again (--retries); if the
    // retry is clean the file counts as passing, and a notice names it flaky.
    for (let attempt = 1; attempt <= opts.retries; attempt++) {
      const first = results[file].patched;
      if (!first || first.patchError) break;
      const { failures } = compare([file], allFiles, { [file]: results[file] }, expectations);
      if (!failures.length) break;
      const r = await runChild({ nodeBin, wptRoot, file, mode: 'patched', patch: opts.patch, timeoutMs, tmpDir, index: `${index}-retry${attempt}`, preload: opts.preload });
      ms += r.durationMs;
      r.earlierAttempts = [...(first.earlierAttempts ?? []), {
        status: first.status,
        unexpected: failures.map((f) => `${f.status} ${f.subtest ?? '(file)'}: ${oneLine(f.message, 200)}`),
      }];
      results[file].patched = r;
    }
    finished++;
    const parts = [`[${String(finished).padStart(width)}/${files.length}] ${file}`];
    if (results[file].native) parts.push(`native ${fmtCounts(results[file].native)}${baseline ? ' (baseline)' : ''}`);
    if (results[file].patched) parts.push(`patched ${fmtCounts(results[file].patched)}`);
    parts.push(`(${(ms / 1000).toFixed(1)} s)`);
    console.log(parts.join(' '));
  });
  cleanup();
  process.off('SIGINT', onSignal);
  process.off('SIGTERM', onSignal);

  // ---- report --------------------------------------------------------------
  const hasNative = files.some((f) => results[f].native);
  const hasPatched = opts.modes.includes('patched');
  const sum = (mode) => {
    let passed = 0;
    let total = 0;
    const problems = [];
    for (const f of files) {
      const r = results[f][mode];
      if (!r) continue;
      const c = counts(r);
      passed += c.passed;
      total += c.total;
      if (r.status !== 'OK') problems.push({ file: f, status: r.status, message: r.message });
    }
    return { passed, total, problems };
  };
  const nat = hasNative ? sum('native') : null;
  const pat = hasPatched ? sum('patched') : null;

  console.log('');
  console.log(`WPT streams on Node ${nodeVer}`);
  const nameWidth = Math.max(...files.map((f) => f.length), 5);
  const header = [`${'file'.padEnd(nameWidth)}`];
  if (hasNative) header.push('native'.padStart(14));
  if (hasPatched) header.push('patched'.padStart(14));
  console.log(header.join('  '));
  for (const f of files) {
    const row = [f.padEnd(nameWidth)];
    if (hasNative) row.push(fmtCounts(results[f].native).padStart(14));
    if (hasPatched) row.push(fmtCounts(results[f].patched).padStart(14));
    console.log(row.join('  '));
  }
  const totalRow = ['TOTAL'.padEnd(nameWidth)];
  if (nat) totalRow.push(`${nat.passed}/${nat.total}`.padStart(14));
  if (pat) totalRow.push(`${pat.passed}/${pat.total}`.padStart(14));
  console.log(totalRow.join('  '));

  for (const [mode, s] of [['native', nat], ['patched', pat]]) {
    if (!s || !s.problems.length) continue;
    console.log(`\n${mode}: files whose harness did not finish OK:`);
    for (const p of s.problems) console.log(`  ${p.status.padEnd(8)} ${p.file}: ${oneLine(p.message)}`);
  }

  if (opts.verbose) {
    for (const mode of opts.modes) {
      console.log(`\n${mode}: subtests that did not pass:`);
      for (const f of files) {
        const r = results[f][mode];
        if (!r) continue;
        for (const [name, s] of Object.entries(r.subtests)) {
          if (s.status !== 'PASS') console.log(`  ${s.status.padEnd(8)} ${f} :: ${name}\n           ${oneLine(s.message)}`);
        }
        if (r.status !== 'OK' && r.stderr) console.log(`  [${f} stderr] ${oneLine(r.stderr, 1000)}`);
      }
    }
  }

  let failures = [];
  let notices = [];
  let swapped = null;
  if (hasPatched) {
    ({ failures, notices } = compare(files, allFiles, results, expectations));
    const swaps = files.map((f) => results[f].patched?.swapped).filter(Boolean);
    swapped = swaps[0] ?? [];
    if (swaps.length && swaps.every((s) => s.length === 0)) {
      const msg = `the patch "${opts.patch}" replaced none of the stream globals`;
      if (opts['allow-noop-patch']) notices.push({ file: '(all)', subtest: null, message: msg });
      else failures.push({ file: '(all)', subtest: null, status: 'NOOP_PATCH', message: `${msg} (pass --allow-noop-patch if that is intended)` });
    } else if (swaps.length) {
      console.log(`\npatched mode replaced ${swapped.length}/13 stream globals: ${swapped.join(', ')}`);
    }
    if (notices.length) {
      console.log(`\nNotices (${notices.length}):`);
      for (const n of notices) console.log(`  ${n.file}${n.subtest ? ` :: ${n.subtest}` : ''}: ${n.message}`);
    }
    const patchErrors = failures.filter((f) => f.status === 'PATCH_ERROR');
    if (patchErrors.length && new Set(patchErrors.map((f) => f.message)).size === 1) {
      console.log(`\nPATCH_ERROR: installing the patch failed in ${patchErrors.length} file(s):\n${patchErrors[0].message}`);
      failures = failures.filter((f) => f.status !== 'PATCH_ERROR').concat({
        file: '(all)', subtest: null, status: 'PATCH_ERROR', message: `in ${patchErrors.length} file(s), see above`,
      });
    }
    if (failures.length) {
      console.log(`\nUNEXPECTED FAILURES in patched mode (${failures.length}):`);
      for (const f of failures) {
        const where = f.file === '(all)' ? '(every file)' : `${f.file}${f.subtest !== null ? ` :: ${f.subtest}` : ' (file)'}`;
        console.log(`  ${f.status.padEnd(8)} ${where}`);
        if (f.message) console.log(`           ${oneLine(f.message, 500)}`);
      }
    } else {
      console.log('\nNo unexpected failures in patched mode.');
    }
  }

  const line = [`Node ${nodeVer}:`];
  if (nat) line.push(`native ${nat.passed}/${nat.total}${baseline ? ' (baseline)' : ''},`);
  if (pat) line.push(`patched ${pat.passed}/${pat.total}, unexpected failures ${failures.length}`);
  const elapsed = ((Date.now() - t0) / 1000).toFixed(1);
  console.log(`\n${line.join(' ').replace(/,$/, '')} (${files.length} files, ${elapsed} s)`);

  if (opts.json) {
    const out = {
      node: nodeVer,
      nodeBin,
      wptRoot,
      modes: opts.modes,
      patch: hasPatched ? opts.patch : null,
      elapsedSeconds: Number(elapsed),
      summary: {
        native: nat && { passed: nat.passed, total: nat.total, problems: nat.problems },
        patched: pat && { passed: pat.passed, total: pat.total, problems: pat.problems, swapped },
        unexpectedFailures: failures,
        notices,
      },
      files: Object.fromEntries(files.map((f) => [f, results[f]])),
    };
    writeFileSync(resolve(opts.json), JSON.stringify(out, null, 2) + '\n');
    console.log(`results written to ${resolve(opts.json)}`);
  }

  process.exitCode = hasPatched ? (failures.length ? 1 : 0) : 0;
}

main().catch((err) => {
  console.error(err);
  process.exit(2);
});
