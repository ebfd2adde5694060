// The "counters off" build of fast-webstreams, for the bench implementation
// `fast-nocounters`: a copy of src/ and register.mjs in a temporary directory
// with every tier-counter update removed from the core, so that
// `--impl=fast,fast-nocounters` shows what counting costs (docs/metrics.md,
// "What counting costs").
//
// The copy is derived from src/ each time the bench starts, never kept by hand.
// The transform is deliberately narrow and strict: it knows the few statement
// forms the core uses to count, and throws, naming the file and line, on any
// other use of `counters` or `countFallback` in the core. A comparison that
// silently measured the same code twice would report "counting is free"
// whatever it costs, so an unknown form is an error, never a guess.
//
// Removed (each must be a whole statement ending in `;`):
//   counters.<field>++;        ++counters.<field>;
//   counters.<field> += <expr>;   (<expr>: names, numbers, `.`, + - *; no calls)
//   countFallback(<reason>[, <stream>]);   (<reason>: one string literal or a dotted name; <stream>: a name)
// and, when such a statement is the whole body of an `if` whose condition has
// no side effect (no call, assignment, ++/--, `new`...) and no `else`, the
// whole `if`: the test existed only for counting. Removed text is blanked
// with spaces, so lines and columns stay where they were in src/.
//
// Untouched: src/metrics/ (the counters' own module and their exposure: they
// still load, and report zeros) and every import of `counters` /
// `countFallback` from metrics/counters.js (the only import form accepted).
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { tokenize } from '../../tools/tokenize.mjs';
import { writeBundle } from '../../tools/bundle.mjs';

const COUNTERS = 'counters';
const FALLBACK = 'countFallback';
const COUNTERS_MODULE = /(^|\/)metrics\/counters\.js$/;

// ---------------------------------------------------------------------------
// The transform.

const is = (tok, t, v) => tok !== undefined && tok.t === t && (v === undefined || tok.v === v);
const isP = (tok, v) => is(tok, 'p', v);
const lineOf = (src, offset) => src.slice(0, offset).split('\n').length;

// Tokens allowed in the right-hand side of `counters.x += ...` (a count, not a computation).
const RHS_OK = (tok) => tok.t === 'id' || tok.t === 'num' || (tok.t === 'p' && ['.', '+', '-', '*'].includes(tok.v));
// Tokens allowed in an `if` condition that may be dropped with the counter it guards.
const PURE_OPS = new Set(['.', '?.', '===', '!==', '==', '!=', '<', '>', '<=', '>=', '&&', '||', '??', '!', '(', ')']);
const IMPURE_WORDS = new Set(['new', 'delete', 'await', 'yield', 'void', 'import', 'super', 'function', 'class']);

function isPureCondition(toks, from, to) {
  for (let k = from; k <= to; k++) {
    const tok = toks[k];
    if (tok.t === 'id') { if (IMPURE_WORDS.has(tok.v)) return false; continue; }
    if (tok.t === 'num' || tok.t === 'str') continue;
    if (tok.t !== 'p' || !PURE_OPS.has(tok.v)) return false;
    // A parenthesis right after a name or a closing bracket is a call.
    if (tok.v === '(' && k > from && (toks[k - 1].t === 'id' || isP(toks[k - 1], ')') || isP(toks[k - 1], ']'))) return false;
  }
  return true;
}

// Index of the `(` matching the `)` at index `close`, or -1.
function matchOpen(toks, close) {
  let depth = 0;
  for (let k = close; k >= 0; k--) {
    if (isP(toks[k], ')')) depth++;
    else if (isP(toks[k], '(')) { depth--; if (depth === 0) return k; }
  }
  return -1;
}

/**
 * Import declarations (`import ... from '...';`): the token range of each,
 * the module specifier, and its bindings [{ imported, local }] (`*` for a
 * namespace, `default` for a default import).
 */
function findImports(toks) {
  const imports = [];
  for (let k = 0; k < toks.length; k++) {
    const tok = toks[k];
    if (!is(tok, 'id', 'import') || isP(toks[k - 1], '.') || isP(toks[k + 1], '(') || isP(toks[k + 1], '.')) continue;
    const bindings = [];
    let j = k + 1;
    if (is(toks[j], 'str')) { imports.push({ from: k, to: j, spec: toks[j].v.slice(1, -1), bindings }); continue; }
    for (; j < toks.length && !is(toks[j], 'id', 'from'); j++) {
      const t = toks[j];
      if (isP(t, '*')) { bindings.push({ imported: '*', local: toks[j + 2]?.v }); j += 2; continue; }
      if (t.t !== 'id') continue;
      const inBraces = toks.slice(k + 1, j).some((x) => isP(x, '{')) && !toks.slice(k + 1, j).some((x) => isP(x, '}'));
      if (is(toks[j + 1], 'id', 'as')) {
        bindings.push({ imported: t.v, local: toks[j + 2]?.v });
        j += 2;
      } else {
        bindings.push({ imported: inBraces ? t.v : 'default', local: t.v });
      }
    }
    if (!is(toks[j + 1], 'str')) continue; // not a declaration this tokenizer understands; its names get checked as uses
    imports.push({ from: k, to: j + 1, spec: toks[j + 1].v.slice(1, -1), bindings });
    k = j + 1;
  }
  return imports;
}

/**
 * Removes every tier-counter update from one core module's source. Returns
 * { code, removed: [{ line, text }] }; throws on any use of `counters` or
 * `countFallback` it does not recognise. `file` only names the module in errors.
 */
export function stripCounters(source, file = '<source>') {
  const toks = tokenize(source);
  const where = (tok) => `${file}:${lineOf(source, tok.s)}`;
  const lineText = (tok) => source.split('\n')[lineOf(source, tok.s) - 1].trim();
  const unknown = (tok, why) => new Error(
    `strip-counters: ${where(tok)}: ${why}: \`${lineText(tok)}\`. The "counters off" build cannot be derived ` +
    'safely; teach bench/impls/strip-counters.mjs this form (and its test) or write the update in a known form.');

  // Imports: from metrics/counters.js only `counters` and `countFallback`,
  // under their own names; those names imported from anywhere else are refused.
  const inImport = new Set();
  for (const imp of findImports(toks)) {
    for (let k = imp.from; k <= imp.to; k++) inImport.add(k);
    const fromCounters = COUNTERS_MODULE.test(imp.spec);
    for (const b of imp.bindings) {
      const known = b.imported === b.local && (b.imported === COUNTERS || b.imported === FALLBACK);
      if (fromCounters && !known) throw unknown(toks[imp.from], `imports \`${b.imported}\`${b.local !== b.imported ? ` as \`${b.local}\`` : ''} from the counters module`);
      if (!fromCounters && (b.local === COUNTERS || b.local === FALLBACK)) throw unknown(toks[imp.from], `binds \`${b.local}\` from '${imp.spec}', not from metrics/counters.js`);
    }
  }

  const ranges = []; // [first token, last token] of each statement to remove
  for (let k = 0; k < toks.length; k++) {
    const tok = toks[k];
    if (inImport.has(k)) continue;
    if (tok.t === 'str' && /metrics\/counters\.js/.test(tok.v)) throw unknown(tok, 'refers to the counters module outside an import declaration');
    if (tok.t !== 'id' || (tok.v !== COUNTERS && tok.v !== FALLBACK)) continue;
    if (isP(toks[k - 1], '.') || isP(toks[k - 1], '?.')) continue; // someone else's property of that name

    let first = k;
    let last = -1;
    if (tok.v === COUNTERS) {
      const field = isP(toks[k + 1], '.') && is(toks[k + 2], 'id') ? k + 2 : -1;
      if (field < 0) throw unknown(tok, '`counters` used other than as `counters.<field>`');
      if (isP(toks[k - 1], '++') && isP(toks[field + 1], ';')) {
        first = k - 1;
        last = field + 1;
      } else if (isP(toks[field + 1], '++') && isP(toks[field + 2], ';')) {
        last = field + 2;
      } else if (isP(toks[field + 1], '+=')) {
        let j = field + 2;
        while (j < toks.length && RHS_OK(toks[j])) j++;
        if (j === field + 2 || !isP(toks[j], ';')) throw unknown(tok, 'a `+=` whose right-hand side is not a plain count (names, numbers, + - *)');
        last = j;
      } else {
        throw unknown(tok, 'a counter read, or updated other than by `++` / `+=` in a statement of its own');
      }
    } else {
      // countFallback(<one string literal or dotted name>[, <name>]);
      let j = k + 2;
      const arg = isP(toks[k + 1], '(') && (is(toks[j], 'str') || is(toks[j], 'id'));
      if (arg && is(toks[j], 'id')) while (isP(toks[j + 1], '.') && is(toks[j + 2], 'id')) j += 2;
      if (arg && isP(toks[j + 1], ',') && is(toks[j + 2], 'id')) j += 2; // the stream it fell back on
      if (!arg || !isP(toks[j + 1], ')') || !isP(toks[j + 2], ';')) {
        throw unknown(tok, '`countFallback` used other than as `countFallback(<string or name>[, <name>]);`');
      }
      last = j + 2;
    }

    // It must be a statement of its own, not part of an expression.
    const before = toks[first - 1];
    const statementStart = before === undefined || (before.t === 'p' && [';', '{', '}', ')'].includes(before.v)) ||
      is(before, 'id', 'else') || is(before, 'id', 'do');
    if (!statementStart) throw unknown(tok, `a counter update inside an expression (after \`${before.v}\`)`);

    // `if (<pure condition>) <update>;` or `if (...) { <update>; }` with no else: drop the if as well.
    let a = first;
    let b = last;
    if (isP(toks[a - 1], '{') && isP(toks[b + 1], '}') && isP(toks[a - 2], ')')) { a -= 1; b += 1; }
    if (isP(toks[a - 1], ')') && !is(toks[b + 1], 'id', 'else')) {
      const open = matchOpen(toks, a - 1);
      if (open > 0 && is(toks[open - 1], 'id', 'if') && !isP(toks[open - 2], '.') && isPureCondition(toks, open + 1, a - 2)) {
        first = open - 1;
        last = b;
      }
    }
    ranges.push([first, last]);
    k = last;
  }

  // Blank each range (newlines kept, so line numbers match src/) and leave an
  // empty statement where it ended, which is valid wherever a statement was.
  let code = '';
  let at = 0;
  const removed = [];
  for (const [first, last] of ranges) {
    const s = toks[first].s;
    const e = toks[last].e;
    removed.push({ line: lineOf(source, s), text: source.slice(s, e) });
    code += source.slice(at, s) + source.slice(s, e - 1).replace(/[^\n]/g, ' ') + ';';
    at = e;
  }
  code += source.slice(at);
  return { code, removed };
}

// ---------------------------------------------------------------------------
// The build.

function listModules(dir) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...listModules(p));
    else if (/\.m?js$/.test(entry.name)) out.push(p);
  }
  return out;
}

/**
 * Copies `<root>/src` and `<root>/register.mjs` into `outDir` (a fresh
 * temporary directory by default), strips the counter updates from every
 * module outside src/metrics/, and bundles the result into the copy's
 * dist/fast-webstreams.js, which its register.mjs loads (tools/bundle.mjs): the
 * same shape as the real preload, so the two start up alike and differ only
 * in the counting. Returns { dir, register, removed }, removed being
 * [{ file, line, text }]. Throws if a module holds a form it does not know,
 * or if it found nothing to remove (then there is nothing to compare).
 */
export function buildNoCounters(root, outDir = mkdtempSync(join(tmpdir(), 'fast-webstreams-nocounters-'))) {
  cpSync(join(root, 'src'), join(outDir, 'src'), { recursive: true });
  cpSync(join(root, 'register.mjs'), join(outDir, 'register.mjs'));
  cpSync(join(root, 'loader.mjs'), join(outDir, 'loader.mjs')); // src/ imports its module hooks
  // The modules are ES modules by their package's "type", which the copy needs too.
  writeFileSync(join(outDir, 'package.json'), `${JSON.stringify({ name: 'fast-webstreams-nocounters', private: true, type: 'module' }, null, 2)}\n`);
  const metricsDir = join(outDir, 'src', 'metrics') + sep;
  const removed = [];
  for (const path of [join(outDir, 'register.mjs'), ...listModules(join(outDir, 'src'))]) {
    if (path.startsWith(metricsDir)) continue;
    const name = relative(outDir, path).split(sep).join('/');
    const source = readFileSync(path, 'utf8');
    const out = stripCounters(source, name);
    if (out.removed.length) writeFileSync(path, out.code);
    for (const r of out.removed) removed.push({ file: name, ...r });
  }
  if (!removed.length) {
    throw new Error('strip-counters: no counter update found in src/: the core no longer counts the way this transform knows; nothing to compare');
  }
  writeBundle(outDir);
  return { dir: outDir, register: join(outDir, 'register.mjs'), removed };
}

// A workload touching every counted path that runs without a network: reads
// (sync and pending), async iteration, pipeTo (sync and pending), a pipeThrough chain, writer
// writes, a bytes stream into a Response, our codec classes, and a native bridge (a Blob's
// stream, Node's own, piped into ours).
export const WORKLOAD = `
  const N = 200;
  const source = () => new ReadableStream({ start(c) { for (let i = 0; i < N; i++) c.enqueue(i); c.close(); } });
  let sum = 0;
  const reader = source().getReader();
  for (let r; !(r = await reader.read()).done;) sum += r.value;
  const late = new ReadableStream({ async pull(c) { await null; c.enqueue(1); c.close(); } }).getReader();
  sum += (await late.read()).value;
  for await (const x of source()) sum += x;
  await source().pipeTo(new WritableStream({ write(x) { sum += x; } }));
  let k = 0;
  await new ReadableStream({ async pull(c) { await null; c.enqueue(1); if (++k === 3) c.close(); } })
    .pipeTo(new WritableStream({ write(x) { sum += x; } }));
  const double = () => new TransformStream({ transform(x, c) { c.enqueue(x * 2); } });
  await source().pipeThrough(double()).pipeThrough(double()).pipeTo(new WritableStream({ write(x) { sum += x; } }));
  const w = new WritableStream({ write(x) { sum += x; } }).getWriter();
  for (let i = 0; i < N; i++) await w.write(i);
  await w.close();
  const bytes = new ReadableStream({ type: 'bytes', start(c) { c.enqueue(new Uint8Array([1, 2, 3])); c.close(); } });
  sum += (await new Response(bytes).arrayBuffer()).byteLength;
  const zipped = new ReadableStream({ start(c) { c.enqueue(new Uint8Array([1, 2, 3])); c.close(); } })
    .pipeThrough(new CompressionStream('gzip')).pipeThrough(new DecompressionStream('gzip'));
  for await (const x of zipped) sum += x.byteLength;
  for await (const x of new Blob([new Uint8Array([1, 2, 3])]).stream().pipeThrough(new TransformStream())) sum += x.byteLength;
  const S = N * (N - 1) / 2;
  const expected = 4 * S + 4 * S + 1 + 3 + 3 + 3 + 3; // reader, iterator, pipeTo, writer; the doubled chain; late reads; Response; gzip; Blob

  if (sum !== expected) throw new Error('moved ' + sum + ', expected ' + expected);
`;

/**
 * Runs WORKLOAD under `bin` with the build at `dir` preloaded and returns
 * { installed, counters } (from the module that build's preload installed,
 * its dist/ bundle), or throws with the child's error. The bench uses it to
 * check, before measuring, that the copy loads, streams data correctly and
 * counts nothing.
 */
export function runWorkload(bin, dir) {
  const api = pathToFileURL(join(dir, 'dist', 'fast-webstreams.js')).href;
  const script = `${WORKLOAD}
    const { getCounters, isInstalled } = await import(${JSON.stringify(api)});
    process.stdout.write(JSON.stringify({ installed: isInstalled(), counters: getCounters() }));`;
  const r = spawnSync(bin, ['--import', pathToFileURL(join(dir, 'register.mjs')).href, '--input-type=module', '-e', script], {
    encoding: 'utf8',
    timeout: 30000,
    env: { ...process.env, NODE_OPTIONS: '', FAST_WEBSTREAMS: '', FAST_WEBSTREAMS_METRICS: '', FAST_WEBSTREAMS_METRICS_PORT: '', FAST_WEBSTREAMS_METRICS_SUMMARY: '' },
  });
  if (r.status !== 0) throw new Error(`workload with ${dir} failed (exit ${r.status}): ${(r.stderr || '').trim().split('\n').slice(0, 4).join(' | ')}`);
  return JSON.parse(r.stdout);
}

/** The counters of a snapshot that are not zero, as { name: value } (fallbackReasons included). */
export function nonZero(snapshot) {
  const out = {};
  for (const [k, v] of Object.entries(snapshot)) {
    if (typeof v === 'number' && v !== 0) out[k] = v;
    else if (k === 'fallbackReasons' && Object.keys(v).length) out[k] = v;
  }
  return out;
}

/**
 * For the bench: builds the copy, proves it with the workload under the
 * bench's Node (installed, data correct, every counter zero), and returns the
 * preload flags and a cleanup.
 */
export function prepareNoCounters(root, bin) {
  // `fast` loads root's dist/ as it is: build it from the same src/ as the
  // copy, so the two differ only in the counting.
  writeBundle(root);
  const build = buildNoCounters(root);
  try {
    const { installed, counters } = runWorkload(bin, build.dir);
    if (!installed) throw new Error('the stripped build did not install itself');
    const left = nonZero(counters);
    if (Object.keys(left).length) throw new Error(`the stripped build still counts: ${JSON.stringify(left)}`);
  } catch (err) {
    rmSync(build.dir, { recursive: true, force: true });
    throw new Error(`fast-nocounters: ${err.message}`);
  }
  return {
    flags: ['--import', build.register],
    note: `${build.removed.length} counter updates stripped`,
    cleanup: () => rmSync(build.dir, { recursive: true, force: true }),
  };
}
