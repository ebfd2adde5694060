// `npx fast-webstreams`, the doctor (bin/fast-webstreams.mjs), on this Node:
// the version, the absolute NODE_OPTIONS line (which then works from another
// folder), what the preload installs and leaves native and why, the self-test
// of each tier, and the supported-versions check (bin/node-support.mjs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nodeSupport } from '../../bin/node-support.mjs';
import { T, ROOT, cleanEnv } from './helpers.mjs';

const DOCTOR = join(ROOT, 'bin', 'fast-webstreams.mjs');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
const doctor = (args = [], env = cleanEnv()) =>
  spawnSync(process.execPath, [DOCTOR, ...args], { cwd: tmpdir(), env, encoding: 'utf8', timeout: 60000 });

test('the doctor: version, the NODE_OPTIONS line, what is installed, and every tier\'s self-test', T, () => {
  const r = doctor();
  assert.equal(r.status, 0, r.stdout + r.stderr);
  assert.match(r.stdout, new RegExp(`^fast-webstreams ${pkg.version.replace(/\./g, '\\.')}, installed at `));
  assert.match(r.stdout, /^Node v[\d.]+: supported/m);
  assert.match(r.stdout, /^ {2}installed: globals \(13 classes\)/m);
  assert.match(r.stdout, /^ {2}left native: nothing$/m);
  for (const tier of ['fused \\(tier 0\\)', 'sync \\(tier 1\\)', 'spec \\(tier 2\\)', 'native bridge \\(tier 3\\)']) {
    assert.match(r.stdout, new RegExp(`^ {2}ok {4}${tier}`, 'm'));
  }
  assert.match(r.stdout, /All \d+ checks passed\.$/m);
  // The line it prints works as it says, from a folder that is not the package's.
  const line = /NODE_OPTIONS="(--import [^"]+)"/.exec(r.stdout)[1];
  assert.equal(line, `--import ${join(ROOT, 'register.mjs')}`);
  const probe = spawnSync(process.execPath, ['-e', "console.log(String(globalThis.ReadableStream).includes('#impl'))"],
    { cwd: tmpdir(), env: cleanEnv({ NODE_OPTIONS: line }), encoding: 'utf8', timeout: 20000 });
  assert.equal(probe.stdout.trim(), 'true', probe.stderr);
});

test('the doctor says what is left native and why, warns as the preload does, and --json', T, () => {
  const r = doctor(['--json'], cleanEnv({ FAST_WEBSTREAMS_CODECS: '0', FAST_WEBSTREAMS_NODE_CONSUMER: '0' }));
  assert.equal(r.status, 0, r.stderr);
  const report = JSON.parse(r.stdout);
  assert.equal(report.package.version, pkg.version);
  assert.equal(report.node.supported, true);
  assert.match(report.preload.join('\n'), /left native: codec classes .* \(FAST_WEBSTREAMS_CODECS=0\)/);
  assert.match(report.warnings.join('\n'), /unknown variable FAST_WEBSTREAMS_NODE_CONSUMER \(did you mean FAST_WEBSTREAMS_NODE_CONSUMERS\?\)/);
  assert.ok(report.selfTest.every((c) => c.ok), JSON.stringify(report.selfTest));
  const skipped = doctor(['--json'], cleanEnv({ FAST_WEBSTREAMS_NODE_CONSUMERS: 'off' }));
  const byName = JSON.parse(skipped.stdout).selfTest.filter((c) => c.skipped).map((c) => c.detail);
  assert.ok(byName.length > 0 && byName.every((d) => d === 'skipped: FAST_WEBSTREAMS_NODE_CONSUMERS=off'), String(byName));
  const killed = doctor([], cleanEnv({ FAST_WEBSTREAMS: 'no' }));
  assert.match(killed.stdout, /nothing: FAST_WEBSTREAMS=no is the kill switch/);
  assert.equal(doctor(['--bogus']).status, 2);
});

test('supported Node versions: what engines.node says, as the doctor reads it', () => {
  const range = pkg.engines.node;
  assert.equal(range, '^20.19.0 || ^22.13.0 || >=24');
  // 20.19 and 22.13 are the first of their lines where `node -r` loads the package (require(esm)) without a
  // flag and without an ExperimentalWarning (22.12 prints one, which a program without the preload does not).
  const cases = { '20.18.3': false, '20.19.0': true, '20.20.2': true, '21.7.3': false, '22.12.0': false, '22.13.0': true,
    '23.11.0': false, '24.0.0': true, '26.12.1': true, '18.20.8': false };
  for (const [version, supported] of Object.entries(cases)) assert.equal(nodeSupport(version, range).supported, supported, version);
  assert.match(nodeSupport('22.12.0', range).note, /from 22\.13\.0/);
  assert.equal(nodeSupport(process.versions.node, range).supported, true, 'the Node running the tests');
});
