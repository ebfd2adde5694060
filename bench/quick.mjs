#!/usr/bin/env node
// Quick side-by-side: each scenario runs in a fresh process per
// implementation (native, then fast-webstreams through the same preload users
// get), interleaved, several rounds; prints median throughput and the ratio.
//   node bench/quick.mjs [--runs=3] [--filter=pipe]
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cpus } from 'node:os';
import { scenarios } from './scenarios/streams.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const args = Object.fromEntries(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=')));
const runs = Number(args.runs ?? 3);
const filter = args.filter ?? '';

if (args.child) {
  // Child mode: warm up once, then time one run of the scenario.
  const fn = scenarios[args.child];
  await fn();
  const t0 = process.hrtime.bigint();
  const amount = await fn();
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  process.stdout.write(JSON.stringify({ amount, seconds }));
  process.exit(0);
}

const impls = {
  native: [],
  'fast-webstreams': ['--import', join(root, 'register.mjs')],
};
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

console.log(`Node ${process.version}, ${cpus().length} cores, ${runs} interleaved runs per implementation, median`);
console.log(`${'scenario'.padEnd(42)}${'native'.padStart(12)}${'fast'.padStart(12)}${'ratio'.padStart(8)}`);
const rows = [];
const names = Object.keys(scenarios).filter((n) => n.includes(filter));
for (const [i, name] of names.entries()) {
  const rates = { native: [], 'fast-webstreams': [] };
  for (let r = 0; r < runs; r++) {
    for (const [impl, flags] of Object.entries(impls)) {
      process.stderr.write(`\r[${i + 1}/${names.length}] ${name} run ${r + 1}/${runs} ${impl}        `);
      const out = spawnSync(process.execPath, [...flags, fileURLToPath(import.meta.url), `--child=${name}`],
        { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } });
      if (out.status !== 0) throw new Error(`${impl} ${name} failed: ${out.stderr}`);
      const { amount, seconds } = JSON.parse(out.stdout);
      rates[impl].push(amount / seconds);
    }
  }
  process.stderr.write('\r'.padEnd(70) + '\r');
  const ops = name.includes('(ops)');
  const fmt = (x) => (ops ? `${(x / 1000).toFixed(0)}k/s` : `${(x / 1e6).toFixed(0)} MB/s`);
  const native = median(rates.native);
  const fast = median(rates['fast-webstreams']);
  rows.push({ name, native, fast, ratio: fast / native });
  console.log(`${name.padEnd(42)}${fmt(native).padStart(12)}${fmt(fast).padStart(12)}${(fast / native).toFixed(2).padStart(7)}x`);
}
