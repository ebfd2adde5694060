// tools/compact.mjs, which drops comments and indentation from each module in
// the bundle: the code must stay token for token and line for line what src/
// says (the line map and automatic semicolon insertion depend on the lines).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compact } from '../../tools/compact.mjs';
import { tokenize } from '../../tools/tokenize.mjs';

const SRC = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'src');
const tokens = (text) => tokenize(text).map(({ t, v }) => `${t} ${v}`);
const lines = (text) => text.split('\n').length;
// What lies between tokens: whitespace and comments, and the template
// delimiters the tokenizer leaves there.
const between = (text) => {
  let pos = 0;
  return tokenize(text).map((tok) => { const gap = text.slice(pos, tok.s); pos = tok.e; return gap; });
};

test('every module of src/ keeps its tokens and its lines, and loses its comments', () => {
  const files = readdirSync(SRC, { recursive: true }).filter((f) => f.endsWith('.js'));
  assert.ok(files.length > 40, `found ${files.length} modules`);
  for (const file of files) {
    const text = readFileSync(join(SRC, file), 'utf8');
    const out = compact(text);
    assert.deepEqual(tokens(out), tokens(text), file);
    assert.equal(lines(out), lines(text), file);
    assert.ok(out.length < text.length, file);
    assert.deepEqual(between(out).filter((gap) => !/^(\n*| )$/.test(gap.replace(/^[`}]|[`}]$/g, ''))), [], file);
  }
});

test('strings, templates and regular expressions are left as they are', () => {
  const text = [
    'const a = "// not a comment", b = \'/* nor this */\';',
    'const re = /\\/\\/ [a-z]+ \\/*/g; // a comment',
    'const t = `  one ${ /* c */ a + `  nested ${ b }  ` }  two',
    '   three ${re.source}`;',
    'function f(x) {',
    '  return /* c */ x',
    '    / 2; /* across',
    '  lines */ }',
    'export { a, b, re, t, f };',
  ].join('\n');
  const out = compact(text);
  assert.deepEqual(tokens(out), tokens(text));
  assert.equal(lines(out), lines(text));
  assert.doesNotMatch(out, /\/\* c \*\/|\/\/ a comment|across/);
  for (const kept of ['"// not a comment"', '\'/* nor this */\'', '`  one ${', '`  nested ${', '}  `', '}  two\n   three ${', '/\\/\\/ [a-z]+ \\/*/g']) {
    assert.ok(out.includes(kept), kept);
  }
});

test('the compacted code runs as the original does (line breaks kept: ASI unchanged)', () => {
  const text = [
    'let n = 1',
    '    // a comment between two statements',
    'let m = n',
    '++n',
    'function g() {',
    '  return   // nothing after return: ASI returns undefined',
    '    42',
    '}',
    'const s = `a ${ n /* two */ } b`',
    'result = [n, m, g(), s, 6 /  /* not a regex */ 3]',
  ].join('\n');
  const run = (code) => { const scope = { result: undefined }; new Function('scope', `with (scope) { ${code} }`)(scope); return scope.result; };
  assert.deepEqual(run(compact(text)), run(text));
  assert.deepEqual(run(text), [2, 1, undefined, 'a 2 b', 2]);
});
