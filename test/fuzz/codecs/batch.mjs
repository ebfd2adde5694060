// Runs seeds natively and under the preload, a batch at a time: one child per
// side per batch (two processes at once, the machine's limit), the same Node
// binary for both, then compares each seed's two records.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generate } from './generate.mjs';
import { compare } from './compare.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const ROOT = join(here, '..', '..', '..');
const CHILD = join(here, 'child.mjs');

/** Records of one side: Map seed -> record; a seed the child never reported gets a fuzzerError. */
function runSide({ node, preload, from, count, plant }) {
  const args = [...(preload ? ['--import', join(ROOT, 'register.mjs')] : []), CHILD, `--from=${from}`, `--count=${count}`,
    ...(plant ? [`--plant=${plant}`] : [])];
  const env = { ...process.env, NODE_OPTIONS: '' };
  for (const key of Object.keys(env)) if (key.startsWith('FAST_WEBSTREAMS')) delete env[key];
  return new Promise((resolve) => {
    const child = spawn(node, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => { stderr = (stderr + d).slice(-2000); });
    // A child that stops answering is killed: its missing seeds say so.
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000 + count * 5_000);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const records = new Map();
      for (const line of stdout.split('\n')) {
        if (line.startsWith('{')) {
          const { seed, rec } = JSON.parse(line);
          records.set(seed, rec);
        }
      }
      for (let seed = from; seed < from + count; seed++) {
        if (!records.has(seed)) records.set(seed, { fuzzerError: `no record: child exited ${code ?? signal} ${stderr.trim()}` });
      }
      resolve(records);
    });
  });
}

/**
 * Seeds [from, from + seeds) on `node`; `plant` corrupts one side's output
 * (the self-check), `both: 'native'` runs native on both sides (a noise check).
 * Calls onSeed({ seed, diffs, known, native, ours }) for each; resolves to all of them.
 */
export async function fuzzCodecs({ seeds, from = 0, node = process.execPath, batch = 50, plant, both, onSeed }) {
  const results = [];
  for (let start = from; start < from + seeds; start += batch) {
    const count = Math.min(batch, from + seeds - start);
    const [native, ours] = await Promise.all([
      runSide({ node, preload: false, from: start, count }),
      runSide({ node, preload: both !== 'native', from: start, count, plant }),
    ]);
    for (let seed = start; seed < start + count; seed++) {
      const c = generate(seed);
      const r = { seed, ...compare(c, native.get(seed), ours.get(seed), { bothNative: both === 'native' }), native: native.get(seed), ours: ours.get(seed) };
      results.push(r);
      onSeed?.(r);
    }
  }
  return results;
}
