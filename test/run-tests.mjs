#!/usr/bin/env node
// `npm test`: everything CI checks, on every supported Node.
//   0. once: build dist/ from src/ (tools/bundle.mjs), so the tests run the
//      current src/ (dist/ is a build output, not committed); then lint and
//      dead code (tools/lint.mjs: eslint, knip, unused class members)
//   1. fetch the WPT streams suite if it is not cached (test/wpt/fetch-wpt.mjs)
//   2. for the newest patch release of Node 20, 22, 24 and 26 (asked of the npm
//      registry each run, the binaries cached: test/wpt/node-versions.mjs): the unit tests (node:test); the interop
//      suite under the preload (node --import ./register.mjs --test test/interop/),
//      on Node 24+ again after a preload that loaded undici first, and its tests
//      of Node's own classes again with FAST_WEBSTREAMS_CODECS=0;
//      the end-to-end tests (child processes with the flag and NODE_OPTIONS);
//      the metrics recipes (npm start, cluster, fork, Docker command) and integrations;
//      the error-shape table (test/errors/) and the differential fuzzers (test/fuzz/:
//      streams, long chains, fetch bodies, codecs);
//      then the WPT suite natively and under the global patch (test/wpt/run.mjs),
//      and patched once more with the preload itself installing the patch, and
//      again so on the spec path alone (FAST_WEBSTREAMS_FAST_PATHS=0, as the fuzzer's gate)
//   0. once: the TypeScript declarations type-check (test/types/usage.ts), and
//      are assignable both ways with lib.dom's and @types/node 20-26's
//      (test/types/interop.ts), and in a Node-only project (node-only.ts), with
//      each supported TypeScript major (test/types/run.mjs); the packed tarball
//      installed into a temporary app, on this Node and the oldest supported
//      20.x and 22.x (test/package/); the operators' kit with promtool (test/ops/)
// Options: --versions=20,24 to run a subset (a major is its newest patch release;
// an exact version such as 24.21.0 runs that release too); --skip-wpt; --skip-unit; --skip-lint.
// Ends with one line "N passed, N failed" counting the steps, and exits
// non-zero if any step failed.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureWpt } from './wpt/fetch-wpt.mjs';
import { DEFAULT_MAJORS, resolveNode } from './wpt/node-versions.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
let versions = DEFAULT_MAJORS.map(String);
let skipWpt = false;
let skipUnit = false;
let skipLint = false;
for (const arg of process.argv.slice(2)) {
  if (arg.startsWith('--versions=')) versions = arg.slice(11).split(',');
  else if (arg === '--skip-wpt') skipWpt = true;
  else if (arg === '--skip-unit') skipUnit = true;
  else if (arg === '--skip-lint') skipLint = true;
  else {
    console.error(`run-tests: unknown option ${arg}`);
    process.exit(2);
  }
}

// Files, not a directory: Node 22+ reads --test arguments as glob patterns.
const testFiles = (dir) => readdirSync(join(root, 'test', dir))
  .filter((f) => f.endsWith('.test.mjs')).sort().map((f) => join('test', dir, f));
const unitFiles = testFiles('unit');
const interopFiles = testFiles('interop');
const e2eFiles = testFiles('e2e');
const metricsFiles = testFiles('metrics');
const errorFiles = testFiles('errors');
// The fuzzer's gate in CI: seeds 0..FUZZ_SEEDS of ours against native, failing on
// the classes we hold at zero (docs/fuzzing.md); `npm run fuzz` runs any range.
const FUZZ_ENV = { FUZZ_SEEDS: '1000', FUZZ_CHAIN_SEEDS: '200', FUZZ_FROM: '0', FUZZ_GATE: 'crash,hang,unhandled' };
// The switch that takes the fast paths out, and the fuzzer's gate in that mode (fewer seeds: the spec path is the slow one).
const SPEC_ONLY = { FAST_WEBSTREAMS_FAST_PATHS: '0' };
const SPEC_FUZZ_ENV = { ...FUZZ_ENV, FUZZ_SEEDS: '300', FUZZ_CHAIN_SEEDS: '100' };

const started = Date.now();
const steps = [];
function step(name, bin, args, env = {}) {
  console.log(`\n=== ${name}`);
  const t0 = Date.now();
  const r = spawnSync(bin, args, { cwd: root, stdio: 'inherit', env: { ...process.env, NODE_OPTIONS: '', ...env } });
  const ok = r.status === 0;
  steps.push({ name, ok, seconds: (Date.now() - t0) / 1000 });
  console.log(`=== ${name}: ${ok ? 'ok' : `FAILED (exit ${r.status ?? r.signal})`} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}

// First: the preload, the package's main and most tests load dist/.
step('build dist/ from src/ (tools/bundle.mjs)', process.execPath, ['tools/bundle.mjs']);
// Once, with this Node: the findings do not depend on the version that runs them.
if (!skipLint) step('lint and dead code (tools/lint.mjs)', process.execPath, ['tools/lint.mjs']);

let wptRoot;
if (!skipWpt) {
  try {
    wptRoot = await ensureWpt();
  } catch (err) {
    // One failed step that says what to do; every other step still runs.
    console.error(`\nWPT could not be obtained: ${err.message}\n`);
    steps.push({ name: 'obtain the WPT suite (test/wpt/fetch-wpt.mjs)', ok: false, seconds: 0 });
    skipWpt = true;
  }
}
// The TypeScript declarations, once, with each supported TypeScript major pinned in
// devDependencies (installed by npm ci, so nothing is fetched here): alone, with
// lib.dom, and against @types/node 20-26 with and without lib.dom (test/types/run.mjs).
if (!skipUnit) {
  step('TypeScript declarations: TypeScript 5.6, 5.9, 6 and 7; alone, lib.dom, @types/node 20-26 with and without lib.dom',
    process.execPath, ['test/types/run.mjs']);
  // The package as a user gets it: npm pack, installed into a fresh app, run on this Node and
  // on the oldest supported 20.x and 22.x (test/package/).
  step('the packed tarball, installed into a temporary app (this Node and the oldest supported 20.x, 22.x)',
    process.execPath, ['--test', '--test-reporter=dot', ...testFiles('package')]);
  // Prometheus rules and the Grafana dashboard against a real exposition (promtool from Debian).
  step('operators\' kit: Prometheus rules (promtool) and the Grafana dashboard\'s queries',
    process.execPath, ['--test', '--test-reporter=dot', ...testFiles('ops')]);
}
// Which release each run is, before anything runs: a major means its newest patch release.
const nodes = [];
for (const spec of versions) {
  try {
    nodes.push(resolveNode(spec));
  } catch (e) {
    steps.push({ name: `Node ${spec}: obtain binary`, ok: false, seconds: 0 });
    console.error(`Node ${spec}: could not obtain a binary: ${e.message}`);
  }
}
console.log(`\nNode releases under test: ${nodes.map((n) => n.version).join(', ')}`);
for (const node of nodes) {
  const { major } = node;
  if (!skipUnit) {
    step(`Node ${node.version}: unit tests`, node.bin, ['--test', '--test-reporter=dot', ...unitFiles]);
    step(`Node ${node.version}: interop tests (under --import ./register.mjs)`, node.bin,
      ['--import', './register.mjs', '--test', '--test-reporter=dot', ...interopFiles]);
    if (major >= 24) {
      // The same suite after a preload that used fetch() first: undici captured Node's classes
      // (and, on 26, Node's tee), the order OpenTelemetry's register gives (docs/interop.md).
      step(`Node ${node.version}: interop tests with undici loaded first (a preload using fetch() before ours)`, node.bin,
        ['--import', './test/e2e/fixtures/order/fetch-first.mjs', '--import', './register.mjs', '--test',
          '--test-reporter=dot', ...interopFiles]);
    }
    // Node's codec classes between our streams, as with FAST_WEBSTREAMS_CODECS=0 (the bridges).
    step(`Node ${node.version}: interop tests with Node's codec classes (FAST_WEBSTREAMS_CODECS=0)`, node.bin,
      ['--import', './register.mjs', '--test', '--test-reporter=dot', 'test/interop/natives.test.mjs'],
      { FAST_WEBSTREAMS_CODECS: '0' });
    step(`Node ${node.version}: end-to-end tests (child processes)`, node.bin,
      ['--test', '--test-reporter=dot', ...e2eFiles]);
    step(`Node ${node.version}: metrics recipes and integrations (child processes)`, node.bin,
      ['--test', '--test-reporter=dot', ...metricsFiles]);
    step(`Node ${node.version}: error shapes, each site natively and under the preload`, node.bin,
      ['--test', '--test-reporter=dot', ...errorFiles]);
    step(`Node ${node.version}: differential fuzzer (${FUZZ_ENV.FUZZ_SEEDS} seeds and ${FUZZ_ENV.FUZZ_CHAIN_SEEDS} of ` +
      `long chains, gate ${FUZZ_ENV.FUZZ_GATE})`, node.bin,
      ['--test', '--test-reporter=dot', 'test/fuzz/fuzz.test.mjs'], FUZZ_ENV);
    step(`Node ${node.version}: differential fuzzer on the spec path alone (${SPEC_FUZZ_ENV.FUZZ_SEEDS} seeds and ` +
      `${SPEC_FUZZ_ENV.FUZZ_CHAIN_SEEDS} of long chains, FAST_WEBSTREAMS_FAST_PATHS=0)`, node.bin,
      ['--test', '--test-reporter=dot', '--test-name-pattern=^fast-webstreams against native', 'test/fuzz/fuzz.test.mjs'],
      { ...SPEC_FUZZ_ENV, ...SPEC_ONLY });
    step(`Node ${node.version}: fetch body fuzzer (redirects and 401s, both preload orders, replaced globals)`, node.bin,
      ['--test', '--test-reporter=dot', 'test/fuzz/fetch.test.mjs']);
    step(`Node ${node.version}: codec fuzzer (TextEncoderStream, TextDecoderStream, CompressionStream, DecompressionStream)`,
      node.bin, ['--test', '--test-reporter=dot', 'test/fuzz/codecs.test.mjs']);
  }
  if (!skipWpt) {
    // The native results of the first run are the baseline of the preload run.
    const baseline = join(root, '.cache', `wpt-native-${node.version}.json`);
    step(`Node ${node.version}: WPT streams (native and patched)`, node.bin,
      ['test/wpt/run.mjs', '--mode=both', `--json=${baseline}`]);
    step(`Node ${node.version}: WPT streams (patched through the preload)`, node.bin,
      ['test/wpt/run.mjs', '--mode=patched', `--baseline=${baseline}`, '--preload=fast-webstreams/register']);
    step(`Node ${node.version}: WPT streams on the spec path alone (through the preload, FAST_WEBSTREAMS_FAST_PATHS=0)`,
      node.bin, ['test/wpt/run.mjs', '--mode=patched', `--baseline=${baseline}`, '--preload=fast-webstreams/register'],
      SPEC_ONLY);
    step(`Node ${node.version}: WPT encoding streams and compression (native and ours)`, node.bin,
      ['test/wpt/run-codecs.mjs', `--wpt=${wptRoot}`]);
  }
}

console.log('\nSummary');
for (const s of steps) console.log(`  ${s.ok ? 'ok  ' : 'FAIL'}  ${s.name} (${s.seconds.toFixed(1)} s)`);
console.log(`Total time ${((Date.now() - started) / 1000).toFixed(0)} s`);
const failed = steps.filter((s) => !s.ok).length;
console.log(`${steps.length - failed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
