// dist/fast-webstreams.js, the bundle of src/ that the package exports and
// the preload loads, and dist/preload.js, the preload's eager part whose
// modules the library takes from it (tools/bundle.mjs, a build step: dist/ is
// not committed): built from the current src/, the same API, one instance for
// the preload and the package, its line map, and a transform that either
// carries a module over exactly or refuses it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { bundle, bundles, writeBundle } from '../../tools/bundle.mjs';
import * as src from '../../src/index.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const env = { ...process.env, NODE_OPTIONS: '', FAST_WEBSTREAMS: '', FAST_WEBSTREAMS_METRICS: '',
  FAST_WEBSTREAMS_METRICS_PORT: '', FAST_WEBSTREAMS_METRICS_SUMMARY: '' };

function node(args, cwd = ROOT) {
  const r = spawnSync(process.execPath, args, { cwd, env, encoding: 'utf8', timeout: 30000 });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout.trim();
}

// Which copy of the library a process runs: the file in the top frame of an
// error thrown by our code.
const WHICH = `
  let where = 'none';
  try { ReadableStream.prototype.getReader.call({}); } catch (e) {
    where = /dist[\\\\/]fast-webstreams\\.js/.test(e.stack) ? 'dist' : /src[\\\\/]readable[\\\\/]/.test(e.stack) ? 'src' : e.stack;
  }
  const lib = await import('fast-webstreams');
  console.log(JSON.stringify({ where, same: lib.ReadableStream === globalThis.ReadableStream && lib.isInstalled() }));
`;

// The build step ran after the last change to src/: what every other test of
// the bundle (and the interop suite, under the preload) exercises is src/.
test('dist/ is what tools/bundle.mjs makes of the current src/ (else: run `npm run bundle`)', () => {
  for (const { out, code, map } of bundles(ROOT)) {
    assert.ok(readFileSync(join(ROOT, out), 'utf8') === code, `${out} was built from another src/: run \`npm run bundle\``);
    assert.ok(readFileSync(join(ROOT, `${out}.map`), 'utf8') === map, `${out}.map was built from another src/: run \`npm run bundle\``);
  }
  assert.equal(writeBundle(ROOT, { check: true }).changed, false);
});

test('the package exports the bundle, with exactly the names of src/index.js', async () => {
  assert.match(import.meta.resolve('fast-webstreams'), /\/dist\/fast-webstreams\.js$/);
  const pkg = await import('fast-webstreams');
  assert.deepEqual(Object.keys(pkg).sort(), Object.keys(src).sort());
  for (const [name, value] of Object.entries(pkg)) assert.equal(typeof value, typeof src[name], name);
});

test('the preload installs the bundle, and the package gives the installed classes', () => {
  assert.deepEqual(JSON.parse(node(['--import', './register.mjs', '--input-type=module', '-e', WHICH])),
    { where: 'dist', same: true });
});

test('the bundle has no top-level await: require() loads it', { skip: !process.features.require_module }, () => {
  const out = node(['-e', "const m = require('fast-webstreams'); console.log(typeof m.ReadableStream, typeof m.install)"]);
  assert.equal(out, 'function function');
});

test('its source map leads stack traces back to src/ (--enable-source-maps)', () => {
  const out = node(['--enable-source-maps', '--input-type=module', '-e', `
    import { ReadableStream } from 'fast-webstreams';
    try { ReadableStream.prototype.getReader.call({}); } catch (e) { console.log(e.stack); }`]);
  assert.match(out, /src[\\/]readable[\\/]readable-stream\.js:\d+/);
  assert.doesNotMatch(out.split('\n')[1], /dist/);
});

test('the bundle stands alone: it loads with neither src/ nor tools/ beside it', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'bundle-alone-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  for (const p of ['dist', 'package.json', 'register.mjs']) cpSync(join(ROOT, p), join(dir, p), { recursive: true });
  assert.deepEqual(JSON.parse(node(['--import', './register.mjs', '--input-type=module', '-e', WHICH], dir)),
    { where: 'dist', same: true });
});

// --- the transform, on small trees ------------------------------------------

function tree(t, files) {
  files = { 'src/patch/lazy.js': 'export const eager = 1;\n', ...files }; // the eager bundle's entry
  const dir = mkdtempSync(join(tmpdir(), 'bundle-tree-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

function run(dir, script) {
  writeBundle(dir);
  const url = pathToFileURL(join(dir, 'dist', 'fast-webstreams.js')).href;
  return JSON.parse(node(['--input-type=module', '-e', `import * as b from ${JSON.stringify(url)};\n${script}`], dir));
}

test('the transform keeps ES module semantics: own scopes, aliases, re-exports, cycles, import.meta.url', (t) => {
  const dir = tree(t, {
    'src/index.js': [
      "export { a, callB, seen } from './a.js';",
      "export { b as renamed } from './b.js';",
      "export { url as aUrl } from './c.js';",
      "export { shared } from './d.js';",
      '',
    ].join('\n'),
    // a and b import each other; b runs first, and uses a's function only later.
    'src/a.js': [
      "import { b, useA } from './b.js';",
      'const shared = "a\'s own";',
      'export function a() { return `a(${shared})`; }',
      'export const callB = () => b();',
      'export const seen = useA();',
      '',
    ].join('\n'),
    'src/b.js': [
      "import { a as fromA } from './a.js';",
      "import { createRequire } from 'node:module';",
      'const shared = "b\'s own";',
      'export function b() { return `b(${shared}) -> ${fromA()}`; }',
      'export function useA() { return typeof createRequire === "function" && fromA(); }',
      '',
    ].join('\n'),
    'src/c.js': 'export const url = import.meta.url;\n',
    'src/d.js': "const shared = 'd';\nexport { shared };\n",
  });
  const out = run(dir, 'console.log(JSON.stringify({ a: b.a(), callB: b.callB(), seen: b.seen, renamed: typeof b.renamed, aUrl: b.aUrl, shared: b.shared, keys: Object.keys(b).sort() }));');
  assert.deepEqual(out, {
    a: "a(a's own)",
    callB: "b(b's own) -> a(a's own)",
    seen: "a(a's own)",
    renamed: 'function',
    aUrl: pathToFileURL(join(dir, 'src', 'c.js')).href,
    shared: 'd',
    keys: ['a', 'aUrl', 'callB', 'renamed', 'seen', 'shared'],
  });
});

test('the library takes the modules of the eager bundle from it: each runs once', (t) => {
  const dir = tree(t, {
    'src/patch/lazy.js': "import { count } from '../once.js';\nexport const fromEager = count;\n",
    'src/once.js': 'globalThis.runs = (globalThis.runs ?? 0) + 1;\nexport const count = { runs: globalThis.runs };\n',
    'src/index.js': "import { count } from './once.js';\nexport { fromEager } from './patch/lazy.js';\nexport const fromLibrary = count;\n",
  });
  assert.throws(() => writeBundle(dir), /re-exports fromEager from src\/patch\/lazy\.js, which dist\/preload\.js holds/);
  writeFileSync(join(dir, 'src/index.js'), "import { count } from './once.js';\nimport { fromEager as e } from './patch/lazy.js';\n" +
    'export const fromLibrary = count;\nexport const fromEager = e;\n');
  const out = run(dir, 'console.log(JSON.stringify({ same: b.fromLibrary === b.fromEager, runs: globalThis.runs }));');
  assert.deepEqual(out, { same: true, runs: 1 });
  assert.doesNotMatch(readFileSync(join(dir, 'dist', 'fast-webstreams.js'), 'utf8'), /globalThis\.runs/);
});

test('across a cycle, using an import before its module ran fails loudly, naming both', (t) => {
  const dir = tree(t, {
    'src/index.js': "export { x } from './x.js';\n",
    'src/x.js': "import { y } from './y.js';\nexport const x = () => y;\n",
    'src/y.js': "import { x } from './x.js';\nexport const y = 1;\nexport const early = x();\n",
  });
  writeBundle(dir);
  const url = pathToFileURL(join(dir, 'dist', 'fast-webstreams.js')).href;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', `await import(${JSON.stringify(url)});`], { env, encoding: 'utf8' });
  assert.notEqual(r.status, 0);
  assert.match(r.stderr, /fast-webstreams bundle: src\/y\.js used x \(from src\/x\.js\) before that module ran/);
});

test('anything the transform cannot carry over exactly is refused, naming file and line', (t) => {
  const refused = {
    'export default 1;': /export default/,
    "export * from './ok.js';": /export \*/,
    'export let n = 1;': /export let/,
    'var n = 1;': /top-level var/,
    'await 0;': /top-level await/,
    "const m = import('./ok.js');": /dynamic import/,
    'const u = import.meta.dirname;': /import\.meta/,
    "import * as ok from './ok.js';": /import \* from a module of src/,
    "import x from 'some-package';": /only relative modules and node: builtins/,
    "import { nope } from './ok.js';": /does not export nope/,
    'export const p = 1, q = 2;': /several declarators/,
    'export const { p } = {};': /destructuring/,
    "import { ok } from './ok.js'": /must end with ;/,
    'const __fws$x = 1;': /reserves/,
    "import { nope } from 'node:fs';": /node:fs has no export nope/,
    'let n = 1, m = 2; export { m };': /exports m, a let binding/,
  };
  for (const [line, why] of Object.entries(refused)) {
    const dir = tree(t, { 'src/index.js': `// a comment\n${line}\n`, 'src/ok.js': 'export const ok = 1;\n' });
    assert.throws(() => bundle(dir), (e) => {
      assert.match(e.message, why, line);
      assert.match(e.message, /^src\/index\.js(:2)?: /, line);
      return true;
    }, line);
  }
});
