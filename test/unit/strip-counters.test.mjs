// The "counters off" build the bench compares against (bench/impls/strip-counters.mjs,
// `--impl=fast,fast-nocounters`): derived from the real src/, it must hold no
// counter update, load, stream data correctly and count nothing; and the
// transform must refuse any counter use it does not recognise, so the
// comparison can never silently measure the same code twice.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildNoCounters, nonZero, runWorkload, stripCounters } from '../../bench/impls/strip-counters.mjs';
import { countingRatio } from '../../bench/run.mjs';
import { counters } from '../../src/metrics/counters.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

function modules(dir) {
  return readdirSync(dir, { recursive: true }).map(String).filter((f) => /\.m?js$/.test(f)).map((f) => join(dir, f));
}

// Independent of the transform's tokenizer: a plain text search, comments dropped.
const UPDATE = /\bcounters\s*\.\s*\w+\s*(\+\+|\+=)|\+\+\s*counters\s*\.|\bcountFallback\s*\(/;
const withoutComments = (code) => code.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:])\/\/.*$/gm, '$1');

test('the copy of the real src/ has no counter update left outside src/metrics/, line for line', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'strip-counters-test-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const build = buildNoCounters(ROOT, dir);
  assert.ok(build.removed.length > 0);
  const core = modules(join(dir, 'src')).filter((p) => !p.startsWith(join(dir, 'src', 'metrics') + sep));
  let before = 0;
  for (const path of core) {
    const name = relative(dir, path);
    const original = readFileSync(join(ROOT, name), 'utf8');
    const stripped = readFileSync(path, 'utf8');
    before += withoutComments(original).split('\n').filter((l) => UPDATE.test(l)).length;
    assert.doesNotMatch(withoutComments(stripped), UPDATE, `${name} still updates a counter`);
    assert.equal(stripped.split('\n').length, original.split('\n').length, `${name}: line numbers moved`);
    assert.equal(stripCounters(stripped, name).removed.length, 0, `${name}: a second pass found more to strip`);
  }
  assert.equal(build.removed.length, before, 'every update the text search sees in src/ was stripped');
  // src/metrics/ is copied as it is: the counters' module and their exposure still load.
  for (const path of modules(join(ROOT, 'src', 'metrics'))) {
    assert.equal(readFileSync(join(dir, relative(ROOT, path)), 'utf8'), readFileSync(path, 'utf8'));
  }
});

test('the stripped build installs, streams data correctly and counts nothing, where src/ counts', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'strip-counters-test-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  buildNoCounters(ROOT, dir);
  // runWorkload throws if the data moved is not what was sent.
  const real = runWorkload(process.execPath, ROOT);
  const off = runWorkload(process.execPath, dir);
  assert.equal(real.installed, true);
  assert.equal(off.installed, true);
  // The workload reaches every counter but the fallbacks (no core path calls countFallback yet)...
  const counted = Object.keys(nonZero(real.counters));
  assert.deepEqual(Object.keys(counters).filter((k) => k !== 'fallbacks' && !counted.includes(k)), [],
    'the workload should reach every counted path');
  // ...and without the updates every one stays at zero.
  assert.deepEqual(nonZero(off.counters), {});
});

test('known counter statements are removed, with lines, comments and strings kept', () => {
  const src = [
    "import { counters, countFallback } from '../metrics/counters.js';",
    'function f(a, b) {',
    '  counters.syncReads++; // tier 1',
    '  ++counters.specReads;',
    '  counters.fusedChunks += n * 2;',
    "  countFallback('promise-transform');",
    '  countFallback(REASONS.preventClose);',
    '  if (a.x !== undefined && !b) counters.fusedChains++;',
    '  if (a === 1) { counters.fusedStreams++; }',
    '  if (g(a)) counters.syncWrites++;', // a call in the condition: the if stays, with an empty body
    '  if (a) counters.specWrites++; else other();',
    "  const note = 'counters.syncReads++'; // counters.x++ in a comment",
    '  /* countFallback(x) */ return `${a} counters.x++`;',
    '}',
  ].join('\n');
  const { code, removed } = stripCounters(src, 'x.js');
  assert.equal(removed.length, 9);
  const lines = code.split('\n');
  assert.equal(lines.length, 14);
  assert.equal(lines[0], src.split('\n')[0], 'the import stays');
  for (const n of [2, 3, 4, 5, 6, 7, 8]) assert.match(lines[n], /^\s*;/, `line ${n + 1}: ${lines[n]}`);
  assert.match(lines[2], /;\s*\/\/ tier 1$/);
  const squeeze = (line) => line.trim().replace(/\s+/g, ' ');
  assert.equal(squeeze(lines[9]), 'if (g(a)) ;');
  assert.equal(squeeze(lines[10]), 'if (a) ; else other();');
  for (const [n, line] of lines.entries()) assert.equal(line.length, src.split('\n')[n].length, `line ${n + 1} keeps its columns`);
  assert.equal(lines[11], src.split('\n')[11]);
  assert.equal(lines[12], src.split('\n')[12]);
  assert.doesNotThrow(() => new Function(code.replace(/^import .*$/m, '').replace(/^function f/m, 'return function f')));
});

test('a fallback that names the stream it fell back on is removed too', () => {
  const src = "import { counters, countFallback } from '../metrics/counters.js';\nconst r = 'x';\ncountFallback(r, ws);\ncountFallback('y', dest);\n";
  const { code, removed } = stripCounters(src, 'x.js');
  assert.equal(removed.length, 2);
  assert.doesNotMatch(code, /countFallback\(/);
  assert.throws(() => stripCounters("import { countFallback } from '../metrics/counters.js';\ncountFallback('y', a.b);\n", 'y.js'), /y\.js:2/);
});

test('any other use of counters or countFallback in the core is refused, naming file and line', () => {
  const imp = "import { counters, countFallback } from '../metrics/counters.js';\n";
  const refused = {
    'an update inside an expression': 'const n = counters.syncReads++;',
    'an update as an argument': 'f(counters.syncReads++);',
    'an update in a condition chain': 'a && counters.syncReads++;',
    'an update as an arrow body': 'const g = () => counters.syncReads++;',
    'an update in a conditional': 'a ? counters.syncReads++ : 0;',
    'an update without its semicolon': 'counters.syncReads++\nf();',
    'a decrement': 'counters.syncReads--;',
    'an assignment': 'counters.syncReads = 0;',
    'a += with a call': 'counters.fusedChunks += chunks.shift();',
    'a read': 'if (counters.syncReads > 0) f();',
    'an alias': 'const c = counters;',
    'a computed field': 'counters[name]++;',
    'a fallback with a computed reason': 'countFallback(reasonFor(x));',
    'a fallback inside an expression': 'return countFallback("x");',
    'a fallback passed along': 'list.forEach(countFallback);',
    'a dynamic import of the counters module': "const m = await import('../metrics/counters.js');",
  };
  for (const [what, line] of Object.entries(refused)) {
    assert.throws(() => stripCounters(`${imp}function f() {\n  ${line}\n}\n`, 'src/x.js'), /strip-counters: src\/x\.js:3: /, what);
  }
  const imports = {
    'an aliased import': "import { counters as c } from '../metrics/counters.js';",
    'another export of the counters module': "import { counters, zeroCounters } from '../metrics/counters.js';",
    'a namespace import': "import * as metrics from '../metrics/counters.js';",
    'counters bound from elsewhere': "import { counters } from './my-counters.js';",
  };
  for (const [what, line] of Object.entries(imports)) {
    assert.throws(() => stripCounters(`// header\n${line}\n`, 'src/y.js'), /strip-counters: src\/y\.js:2: /, what);
  }
});

test('a src/ with nothing to strip is an error, not a comparison of the same code', (t) => {
  const root = mkdtempSync(join(tmpdir(), 'strip-counters-root-'));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  mkdirSync(join(root, 'src', 'metrics'), { recursive: true });
  writeFileSync(join(root, 'src', 'index.js'), 'export const x = 1;\n');
  writeFileSync(join(root, 'src', 'metrics', 'counters.js'), 'export const counters = { a: 0 };\nexport function countFallback() { counters.a++; }\n');
  writeFileSync(join(root, 'register.mjs'), "import './src/index.js';\n");
  writeFileSync(join(root, 'loader.mjs'), 'export function load(url, context, next) { return next(url, context); }\n');
  assert.throws(() => buildNoCounters(root, join(root, 'out')), /no counter update found/);
});

test('the report figure: fast median over fast-nocounters median, with the per-round range', () => {
  const c = countingRatio({ samples: [90, 100, 110], median: 100 }, { samples: [100, 100, 100], median: 100 });
  assert.equal(c.ratio, 1);
  assert.equal(c.min, 0.9);
  assert.equal(c.max, 1.1);
  assert.equal(countingRatio({ error: 'x', samples: [] }, { samples: [1], median: 1 }), null);
  assert.equal(countingRatio(undefined, { samples: [1], median: 1 }), null);
});
