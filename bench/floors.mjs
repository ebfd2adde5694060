#!/usr/bin/env node
// How far a suite row can move at all: for each row it measures native, ours
// and the row's "floors" (the same work with no TransformStream, which any
// implementation must still do; bench/floors-child.mjs defines them), as ms of
// process CPU per run. F = floor / native is the share of native's CPU that
// a faster TransformStream cannot remove, so native / ours can reach at most
// 1/F (the ceiling). A floor keeps what the row cannot do without: SSE's
// still reads the fetch body, a stream undici makes (native's, in a floor's
// process), so its ceiling bounds an implementation that leaves that stream
// as costly as native's. Beside it, what ours reaches now, and where the CPU goes:
// the main thread against other threads (GC helpers, backing-store release)
// and the gc entries by kind.
//
//   node bench/floors.mjs [--rows='SSE: fetch -> TextDecoderStream,TextEncoderStream'] [--node=26]
//                         [--reps=5] [--runs=20] [--warm=3] [--app-heap=MB] [--chunk=1024] [--json]
//
// Each rep starts one process per body, in turn (native, fast, then each
// floor), started as bench/run.mjs starts the suite's children: the same
// preload flags and environment (bench/impls.mjs), the same upstream
// (bench/server.mjs). Floors run without a preload, like native. A process
// runs --warm runs, then --runs timed runs; figures are medians (min-max)
// over reps, and F, the ceiling and fast/native are taken per rep, from the
// processes of the same rep. The main-thread split needs
// process.threadCpuUsage (Node >= 23.9): "n/a" before. --json prints one raw
// line per process instead of the tables. See docs/benchmarks.md.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { byName } from './scenarios/index.mjs';
import { IMPLS } from './impls.mjs';
import { nodeBinary, startServer } from './run.mjs';
import { spread } from './stats.mjs';
import { FLOORS } from './floors-child.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const CHUNKS = [1024, 16384, 65536];
const TOTAL = 32 * 1024 * 1024;

/**
 * The row names in a comma-separated list; a name with commas of its own
 * (`pipeline(web, Transform, sink)`) is taken whole: pieces are joined until
 * they name a row.
 */
function rowNames(list) {
  const names = [];
  let pending = '';
  for (const piece of list.split(',')) {
    pending = pending === '' ? piece.trim() : `${pending},${piece}`;
    if (byName.has(pending)) {
      names.push(pending);
      pending = '';
    }
  }
  if (pending !== '') names.push(pending); // not a row: parseArgs says so
  return names;
}

function parseArgs(argv) {
  const a = Object.fromEntries(argv.map((s) => {
    const m = /^--([^=]+)(?:=(.*))?$/s.exec(s);
    if (!m) throw new Error(`unexpected argument: ${s}`);
    return [m[1], m[2] ?? true];
  }));
  const known = ['rows', 'node', 'reps', 'runs', 'warm', 'app-heap', 'chunk', 'json'];
  const unknown = Object.keys(a).filter((k) => !known.includes(k));
  if (unknown.length) throw new Error(`unknown option(s): ${unknown.map((k) => `--${k}`).join(' ')}`);
  const count = (key, dflt, min) => {
    const n = Number(a[key] ?? dflt);
    if (!Number.isInteger(n) || n < min) throw new Error(`--${key} must be an integer, ${min} or more`);
    return n;
  };
  const rows = typeof a.rows === 'string' ? rowNames(a.rows) : Object.keys(FLOORS);
  for (const name of rows) {
    const s = byName.get(name);
    if (!s?.web || s.unit === 'memory') throw new Error(`--rows: ${name} is not a throughput row with a web body (node bench/run.mjs --list)`);
  }
  const chunk = Number(a.chunk ?? 1024);
  if (!CHUNKS.includes(chunk)) throw new Error(`--chunk must be one of ${CHUNKS.join(', ')}`);
  const appHeapMB = Number(a['app-heap'] ?? 0);
  if (!Number.isFinite(appHeapMB) || appHeapMB < 0) throw new Error('--app-heap must be a number of MB, 0 or more');
  return { rows, node: a.node && a.node !== true ? Number(a.node) : null, reps: count('reps', 5, 1), runs: count('runs', 20, 1),
    warm: count('warm', 3, 0), appHeapMB, chunk, json: Boolean(a.json) };
}

// One process; its JSON line, or an error naming the body.
function runBody({ bin, env, impl, scenario, body, opts }) {
  const spec = IMPLS[impl];
  const argv = [...spec.flags, ...scenario.flags, join(here, 'floors-child.mjs'), `--row=${scenario.name}`, `--body=${body}`,
    `--runs=${opts.runs}`, `--warm=${opts.warm}`];
  const r = spawnSync(bin, argv, { encoding: 'utf8', env: { ...env, ...spec.env }, timeout: 600_000, killSignal: 'SIGKILL' });
  let line = null;
  try { line = JSON.parse(r.stdout.trim().split('\n').pop()); } catch { /* no JSON line */ }
  if (r.status !== 0 || !line || line.error) {
    const why = line?.error ?? (r.stderr || '').trim().split('\n').slice(-3).join(' | ');
    throw new Error(`${scenario.name} / ${body} (${impl}) failed: exit ${r.status ?? r.signal}: ${why}`);
  }
  return line;
}

const ms = (x) => (Number.isFinite(x) ? x.toFixed(1) : 'n/a');
const ratio = (x) => x.toFixed(2);
const range = ({ median, min, max }, f) => {
  if (!Number.isFinite(median)) return 'n/a';
  return min === max ? f(median) : `${f(median)} (${f(min)}-${f(max)})`;
};

function table(head, rows) {
  const width = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells) => `| ${cells.map((c, i) => c.padEnd(width[i])).join(' | ')} |`;
  return [line(head), line(width.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

// The two tables of one row, from its processes' lines (body, rep, processMs, mainMs, gc).
function report(scenario, lines, opts, version) {
  const perRun = (l) => l.processMs / l.runs;
  const of = (body) => lines.filter((l) => l.body === body);
  const byRep = (body) => new Map(of(body).map((l) => [l.rep, perRun(l)]));
  const native = byRep('native');
  const fast = byRep('fast');
  const reps = [...native.keys()];
  const now = spread(reps.map((r) => native.get(r) / fast.get(r)));
  const floors = Object.keys(FLOORS[scenario.name] ?? {});
  const out = [`${scenario.name} | Node ${version} | ${opts.chunk} B chunks, ${TOTAL / 1048576} MiB a run | ${opts.reps} reps x ` +
    `${opts.runs} runs after ${opts.warm} warm-up | app heap ${opts.appHeapMB} MB`];
  const cpu = (body) => range(spread([...byRep(body).values()]), ms);
  if (floors.length) {
    out.push(table(['floor', 'native', 'fast', 'floor', 'F = floor/native', 'ceiling = 1/F', 'fast/native now'], floors.map((f) => {
      const floor = byRep(`floor: ${f}`);
      return [f, cpu('native'), cpu('fast'), cpu(`floor: ${f}`),
        range(spread(reps.map((r) => floor.get(r) / native.get(r))), ratio),
        range(spread(reps.map((r) => native.get(r) / floor.get(r))), ratio), range(now, ratio)];
    })));
  } else {
    out.push(`no floor defined for this row (bench/floors-child.mjs); fast/native now: ${range(now, ratio)}`);
  }
  const kinds = [...new Set(['minor', 'major', 'incremental', ...lines.flatMap((l) => Object.keys(l.gc))])];
  out.push(table(['body', 'process', 'main thread', 'off main', `gc per run (${kinds.join(' / ')})`], ['native', 'fast', ...floors.map((f) => `floor: ${f}`)].map((body) => {
    const ls = of(body);
    const main = ls.every((l) => l.mainMs !== null) ? ls.map((l) => l.mainMs / l.runs) : [];
    const off = main.length ? ls.map((l) => (l.processMs - l.mainMs) / l.runs) : [];
    const gc = kinds.map((k) => (ls.reduce((sum, l) => sum + (l.gc[k] ?? 0) / l.runs, 0) / ls.length).toFixed(2)).join(' / ');
    return [body, cpu(body), range(spread(main), ms), range(spread(off), ms), gc];
  })));
  out.push('ms of CPU per run, median (min-max) over reps; F, ceiling and fast/native (= native ms / fast ms) per rep; gc: entries per run, mean');
  return out.join('\n\n');
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const { bin, version } = await nodeBinary(opts.node);
  const env = { ...process.env, NODE_OPTIONS: '', BENCH_CHUNK: String(opts.chunk), BENCH_BYTES: String(TOTAL), BENCH_APP_HEAP_MB: String(opts.appHeapMB) };
  delete env.FAST_WEBSTREAMS; // the kill switch would silently turn "fast" into native
  delete env.FAST_WEBSTREAMS_CODECS; // fast is the default preload, codecs included
  delete env.BENCH_QUICK;
  delete env.BENCH_CLOCK;
  const scenarios = opts.rows.map((name) => byName.get(name));
  const server = scenarios.some((s) => s.needsServer) ? await startServer(bin) : null;
  if (server) env.BENCH_URL = server.url;
  try {
    for (const scenario of scenarios) {
      const bodies = [['native', 'native', 'scenario'], ['fast', 'fast', 'scenario'],
        ...Object.keys(FLOORS[scenario.name] ?? {}).map((f) => [`floor: ${f}`, 'native', f])];
      const lines = [];
      for (let rep = 0; rep < opts.reps; rep++) {
        // Odd reps run the bodies in reverse, so none always follows the same one (as bench/run.mjs alternates).
        for (const [label, impl, body] of rep % 2 === 0 ? bodies : [...bodies].reverse()) {
          if (!opts.json) process.stderr.write(`${scenario.name}: rep ${rep + 1}/${opts.reps}, ${label}\n`);
          const line = { row: scenario.name, body: label, impl, rep, ...runBody({ bin, env, impl, scenario, body, opts }) };
          lines.push(line);
          if (opts.json) console.log(JSON.stringify({ node: version, chunk: opts.chunk, appHeapMB: opts.appHeapMB, ...line }));
        }
      }
      if (!opts.json) console.log(`${report(scenario, lines, opts, version)}\n`);
    }
  } finally {
    server?.child.kill('SIGTERM');
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((err) => {
    console.error(err.message);
    process.exit(1);
  });
}
