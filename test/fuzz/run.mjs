#!/usr/bin/env node
// Differential fuzzer CLI (docs/fuzzing.md).
//   node test/fuzz/run.mjs --seeds=N [--from=S] [--node=/path/to/node]
//     [--impl-a=native --impl-b=ours] [--plant=drop-chunk|late-callback]
//     [--jobs=2] [--timeout=5000] [--shrink] [--shrink-max=8] [--verbose]
//     [--gate=crash,hang,unhandled,pending,result,error-shape] [--no-referee]
//     [--json=out.json] [--seed=S (one seed, print its program and traces)]
//     [--family=chains (long pipeThrough chains over busy sources, issue 34)]
// Exit status: 1 when a divergence of a gating class is found, 0 otherwise.
import { writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fuzz } from './driver.mjs';
import { DEFAULT_GATE, CLASSES } from './diff.mjs';
import { generate } from './generate.mjs';
import { compile } from './compile.mjs';
import { reproBody } from './repro.mjs';

const opts = {};
for (const a of process.argv.slice(2)) {
  const m = /^--([\w-]+)(?:=(.*))?$/.exec(a);
  if (!m) { console.error(`fuzz: bad argument ${a}`); process.exit(2); }
  opts[m[1]] = m[2] ?? true;
}
const known = ['seeds', 'from', 'node', 'impl-a', 'impl-b', 'plant', 'jobs', 'timeout', 'shrink', 'shrink-max', 'verbose', 'gate', 'no-referee', 'json', 'seed', 'max-steps', 'shrink-classes', 'repro-dir', 'family'];
for (const k of Object.keys(opts)) if (!known.includes(k)) { console.error(`fuzz: unknown option --${k}`); process.exit(2); }

const gate = opts.gate ? String(opts.gate).split(',').filter(Boolean) : DEFAULT_GATE;
for (const g of gate) if (!CLASSES.includes(g)) { console.error(`fuzz: unknown class ${g} in --gate`); process.exit(2); }
const implA = opts['impl-a'] || 'native';
let implB = opts['impl-b'] || 'ours';
if (opts.plant) implB = `${implB}+${opts.plant}`;

if (opts.seed !== undefined) { // one seed, all the detail
  const program = generate(Number(opts.seed), { maxSteps: opts['max-steps'] && Number(opts['max-steps']), family: opts.family });
  console.log(JSON.stringify(program));
  console.log(compile(program));
  opts.seeds = 1;
  opts.from = opts.seed;
  opts.verbose = true;
}

const nodeBin = opts.node || process.execPath;
const version = spawnSync(nodeBin, ['-p', 'process.version'], { encoding: 'utf8' });
if (version.status !== 0) { console.error(`fuzz: cannot run ${nodeBin}: ${version.error || version.stderr}`); process.exit(2); }
const nodeVersion = version.stdout.trim();
const seeds = Number(opts.seeds ?? 100);
const from = Number(opts.from ?? 0);
let lastPrint = 0;
const result = await fuzz({
  seeds, from, implA, implB, node: nodeBin,
  jobs: Number(opts.jobs ?? 2), timeoutMs: Number(opts.timeout ?? 5000),
  referee: opts['no-referee'] ? null : 'polyfill',
  shrink: Boolean(opts.shrink), shrinkMax: Number(opts['shrink-max'] ?? 8),
  shrinkClasses: opts['shrink-classes'] ? String(opts['shrink-classes']).split(',') : null,
  maxSteps: opts['max-steps'] && Number(opts['max-steps']),
  family: opts.family,
  progress: ({ done, total, findings, counts, ms }) => {
    if (Date.now() - lastPrint < 2000 && done !== total) return;
    lastPrint = Date.now();
    process.stderr.write(`fuzz: ${done}/${total} seeds, ${findings} divergent ${JSON.stringify(counts)} ${(ms / 1000).toFixed(0)} s\n`);
  },
  log: (msg, f) => {
    if (f && !opts.verbose) { console.log(msg); return; }
    console.log(msg);
    if (f && opts.verbose) for (const d of f.diffs) console.log('   ', JSON.stringify(d).slice(0, 400));
  },
});

console.log(`\nNode ${nodeVersion}, ${implA} vs ${implB}: ${result.done} seeds from ${from}, ${result.findings.length} divergent, ${(result.ms / 1000).toFixed(1)} s`);
for (const c of CLASSES) {
  const s = result.findings.filter((f) => f.classes.includes(c)).map((f) => f.seed);
  if (s.length) console.log(`  ${c}${gate.includes(c) ? ' (gates)' : ''}: ${s.length} seeds: ${s.slice(0, 20).join(' ')}${s.length > 20 ? ' ...' : ''}`);
}
const sigs = {};
for (const f of result.findings) (sigs[f.sig] ||= []).push(f.seed);
for (const [s, list] of Object.entries(sigs).sort((x, y) => y[1].length - x[1].length)) console.log(`  [${s}] ${list.length}: ${list.slice(0, 10).join(' ')}`);
for (const s of result.shrunk) {
  console.log(`\n=== shrunk [${s.sig}] seed ${s.seed} (${s.seeds.length} seeds) - ${s.verdict}`);
  for (const d of s.diffs) console.log('  ', JSON.stringify(d).slice(0, 400));
  console.log(reproBody(s.repro)); // the tracer's long text only in the written file
  if (opts['repro-dir']) {
    mkdirSync(opts['repro-dir'], { recursive: true });
    const file = join(opts['repro-dir'], `seed-${s.seed}-${s.sig.replace(/[^\w-]+/g, '_')}.mjs`);
    writeFileSync(file, s.repro + '\n');
    console.log(`(written to ${file})`);
  }
}
if (opts.json) writeFileSync(opts.json, JSON.stringify(result, null, 1));
const gating = result.findings.filter((f) => f.classes.some((c) => gate.includes(c)));
process.exitCode = gating.length ? 1 : 0;
