#!/usr/bin/env node
// `npx fast-webstreams` (the package's bin): a doctor for the Node it runs on.
// It says which version of the package this is and where it is installed, the
// absolute path to put in NODE_OPTIONS, what the preload installs on this Node
// with this environment and what it leaves native and why (the preload's own
// NODE_DEBUG=fast-webstreams lines, from a child process started with it), and
// runs a self-test of each tier with the preload (bin/self-test.mjs).
//   npx fast-webstreams [--json] [--help]
// Exits 1 when a self-test failed or this Node is not supported.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { nodeSupport } from './node-support.mjs';
import { isOff } from '../src/patch/features.js';

const ROOT = dirname(dirname(fileURLToPath(import.meta.url)));
const REGISTER_MJS = join(ROOT, 'register.mjs');
const REGISTER_CJS = join(ROOT, 'register.cjs');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));

const USAGE = `Usage: npx fast-webstreams [--json]

Says, for this Node: the package's version and where it is installed, the
absolute path to put in NODE_OPTIONS, what the preload installs and leaves
native (and why), and a self-test of each tier with the preload.
  --json   the same as one JSON object`;

const args = process.argv.slice(2);
if (args.includes('--help') || args.includes('-h')) {
  console.log(USAGE);
  process.exit(0);
}
const unknown = args.filter((a) => a !== '--json');
if (unknown.length > 0) {
  console.error(`fast-webstreams: unknown option ${unknown[0]}\n\n${USAGE}`);
  process.exit(2);
}

/** A path as NODE_OPTIONS needs it: quoted when it has a space (NODE_OPTIONS splits on spaces outside quotes). */
const optionPath = (path) => (/[\s"]/.test(path) ? JSON.stringify(path) : path);

/** Runs `node --import register.mjs <args>` with `env`; the child's own NODE_OPTIONS are cleared. */
function withPreload(nodeArgs, env) {
  return spawnSync(process.execPath, ['--import', REGISTER_MJS, ...nodeArgs], {
    cwd: ROOT, encoding: 'utf8', timeout: 60000, env: { ...env, NODE_OPTIONS: '' },
  });
}

const ourVariables = Object.entries(process.env).filter(([name]) => /^FAST[_-]?WEB[_-]?STREAM/i.test(name));
const killed = isOff(process.env.FAST_WEBSTREAMS);

// What the preload does with this environment (without the metrics outputs: the doctor binds no port).
const quietEnv = { ...process.env, NODE_DEBUG: 'fast-webstreams' };
for (const name of Object.keys(quietEnv)) if (/^FAST_WEBSTREAMS_METRICS/.test(name)) delete quietEnv[name];
// (The child touches a stream: the preload loads the library on the first use, src/patch/lazy.js.)
const described = withPreload(['-e', 'void ReadableStream'], quietEnv);
const debugLines = described.stderr.split('\n').map((l) => /^FAST-WEBSTREAMS \d+: (.*)$/.exec(l)?.[1]).filter(Boolean);
const warnings = described.stderr.split('\n').filter((l) => l.includes('FastWebstreamsWarning'))
  .map((l) => l.replace(/^\(node:\d+\) /, ''));

// The self-test runs with the preload as configured; with the kill switch on, without the kill switch.
const testEnv = { ...quietEnv, NODE_DEBUG: '' };
if (killed) delete testEnv.FAST_WEBSTREAMS;
const selfTest = withPreload([join(ROOT, 'bin', 'self-test.mjs')], testEnv);
let checks;
try {
  checks = JSON.parse(selfTest.stdout.trim().split('\n').pop());
} catch {
  checks = [{ name: 'the self-test ran', ok: false, detail: `exit ${selfTest.status ?? selfTest.signal}: ${selfTest.stderr.trim()}` }];
}

const support = nodeSupport(process.versions.node, pkg.engines.node);
const report = {
  package: { name: pkg.name, version: pkg.version, path: ROOT },
  node: { version: process.version, execPath: process.execPath, supported: support.supported, engines: pkg.engines.node, note: support.note },
  nodeOptions: {
    import: `--import ${optionPath(REGISTER_MJS)}`,
    require: `--require ${optionPath(REGISTER_CJS)}`,
  },
  killSwitch: killed,
  variables: Object.fromEntries(ourVariables),
  preload: debugLines,
  alwaysNative: [
    'streams Node itself makes (fetch() bodies, Blob.stream(), FileHandle.readableWebStream()) are native; the preload gives ' +
      'fetch() and Response bodies a shell of ours, and ours meet the others through a bridge (tier 3)',
  ],
  warnings,
  selfTest: checks,
};
const failed = checks.filter((c) => !c.ok).length + (support.supported ? 0 : 1);

if (args.includes('--json')) {
  console.log(JSON.stringify(report, null, 2));
  process.exit(failed === 0 ? 0 : 1);
}

const out = [];
out.push(`fast-webstreams ${pkg.version}, installed at ${ROOT}`);
out.push(`Node ${process.version}: ${support.supported ? 'supported' : 'NOT supported'} (the package supports Node ${pkg.engines.node})` +
  `${support.note ? `; ${support.note}` : ''}`);
out.push('', 'Put the preload in NODE_OPTIONS by its absolute path (a bare specifier only resolves from the', 'application\'s folder):',
  `  NODE_OPTIONS="${report.nodeOptions.import}"`,
  `  or, for require: NODE_OPTIONS="${report.nodeOptions.require}"`,
  `  in a Dockerfile: ENV NODE_OPTIONS="${report.nodeOptions.import}"`,
  `  on a command line: node ${report.nodeOptions.import} app.js`);
out.push('', `What the preload does on this Node${ourVariables.length ? ', with ' + ourVariables.map(([k, v]) => `${k}=${v}`).join(' ') : ''}:`);
if (killed) out.push(`  nothing: FAST_WEBSTREAMS=${process.env.FAST_WEBSTREAMS} is the kill switch (the self-test below ran without it)`);
if (!killed) for (const line of debugLines) out.push(`  ${line}`);
for (const line of report.alwaysNative) out.push(`  always native: ${line}`);
for (const line of warnings) out.push(`  warning: ${line}`);
out.push('', 'Self-test with the preload:');
for (const c of checks) out.push(`  ${c.ok ? (c.skipped ? 'skip' : 'ok  ') : 'FAIL'}  ${c.name} (${c.detail})`);
out.push('', failed === 0 ? `All ${checks.length} checks passed.`
  : `${failed} problem${failed === 1 ? '' : 's'}: see above (docs/interop.md in the package says what each feature needs).`);
console.log(out.join('\n'));
process.exit(failed === 0 ? 0 : 1);
