#!/usr/bin/env node
// Differential fuzzer of the codec classes (docs/codecs.md, "Fuzzing"):
// each seed natively and under the preload, on the same Node.
//   node test/fuzz/codecs/run.mjs --seeds=N [--from=K] [--node=<bin>] [--batch=50]
//     [--plant=corrupt-output] [--both=native]
//   node test/fuzz/codecs/run.mjs --seed=S --show     one seed: its case and both records
// Prints one line per divergent seed and a summary; exit 1 if any seed diverges
// (the documented difference, counted as known, does not).
import { execFileSync } from 'node:child_process';
import { fuzzCodecs } from './batch.mjs';
import { generate, describe } from './generate.mjs';

const opts = {};
for (const a of process.argv.slice(2)) {
  const m = /^--([\w-]+)(?:=(.*))?$/.exec(a);
  if (!m) {
    console.error(`codec fuzz: bad argument ${a}`);
    process.exit(2);
  }
  opts[m[1]] = m[2] ?? true;
}
const node = opts.node ?? process.execPath;
const version = execFileSync(node, ['-p', 'process.version'], { encoding: 'utf8' }).trim();
const show = opts.seed !== undefined;
const from = Number(show ? opts.seed : opts.from ?? 0);
const seeds = show ? 1 : Number(opts.seeds ?? 200);

const t0 = Date.now();
let divergent = 0;
let known = 0;
let done = 0;
await fuzzCodecs({
  seeds, from, node, batch: Number(opts.batch ?? 50), plant: opts.plant, both: opts.both,
  onSeed: (r) => {
    done++;
    if (r.known.length) known++;
    if (r.diffs.length) {
      divergent++;
      console.log(`seed ${r.seed}: ${generate(r.seed).cls}: ${r.diffs.join('; ')}`);
    }
    if (show) {
      console.log(describe(generate(r.seed)));
      console.log(`native: ${JSON.stringify(r.native)}`);
      console.log(`ours:   ${JSON.stringify(r.ours)}`);
      if (r.known.length) console.log(`known: ${r.known.join('; ')}`);
    } else if (done % 250 === 0) {
      process.stderr.write(`codec fuzz: ${done}/${seeds} seeds, ${divergent} divergent, ${((Date.now() - t0) / 1000).toFixed(0)} s\n`);
    }
  },
});
console.log(`codec fuzz: Node ${version}, seeds ${from}..${from + seeds - 1}: ${divergent} divergent, ${known} with the known difference only or as well, ${((Date.now() - t0) / 1000).toFixed(1)} s`);
process.exit(divergent === 0 ? 0 : 1);
