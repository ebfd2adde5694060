#!/usr/bin/env node
// Methods and accessors of src/'s internal classes that nothing calls: the
// one kind of dead code knip (unused files, exports and dependencies) does not
// report. Run by tools/lint.mjs; exits 1 and names each one it finds.
//
// A member is used when its name appears in the library's own code (src/,
// register.mjs, loader.mjs: what only a test or a bench calls is not part of
// the library) after `.` or `?.`, or as a quoted string (`obj['name']`, a
// property list). `this.name` counts for the class whose body it is in when
// that class defines name, and not at all outside a class body (there `this`
// is a plain function's receiver, such as prom-client's metric in a collect
// callback). A name-based check: it can miss dead code (a name shared with a
// live method elsewhere), and a call by a computed name would make it call
// live code dead (the tests would then say so). Not checked: the public classes (src/index.js exports them:
// their members are the Web Streams API), constructors, members with computed
// keys (Symbol.asyncIterator, ...) and #private ones (eslint's
// no-unused-private-class-members covers those).
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tokenize } from './tokenize.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SKIP_DIRS = new Set(['node_modules', 'dist', '.cache', '.git', 'results', 'types']);
const MODIFIERS = new Set(['static', 'get', 'set', 'async']);
const LIBRARY = /^(src\/|register\.mjs$|loader\.mjs$)/;

function listModules(dir) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIP_DIRS.has(entry.name)) continue;
    const p = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...listModules(p));
    else if (/\.m?js$/.test(entry.name)) out.push(p);
  }
  return out;
}

const isP = (tok, v) => tok !== undefined && tok.t === 'p' && tok.v === v;
const isId = (tok) => tok !== undefined && tok.t === 'id';

/**
 * One pass over a module's tokens: the members defined directly in each class
 * body ([{ cls, name, at }]), and the property names used (after `.`, `?.` or
 * quoted), as "Class#name" for `this.name` in a class that defines name,
 * else as "name".
 */
export function scan(toks) {
  const members = [];
  const uses = [];
  const open = []; // per open brace: the class name if it opens a class body, else null
  const inClass = () => open.findLast((c) => c !== null) ?? null;
  for (let k = 0; k < toks.length; k++) {
    const tok = toks[k];
    if (tok.t === 'str') uses.push(tok.v.slice(1, -1));
    if (isP(tok, '{') || isP(tok, '${')) {
      // `class Name [extends Expr] {`: the brace right after the heritage.
      let cls = null;
      for (let j = k - 1, depth = 0; j >= 0 && j > k - 40; j--) {
        const t = toks[j];
        if (isP(t, ')') || isP(t, ']')) depth++;
        else if (isP(t, '(') || isP(t, '[')) depth--;
        else if (depth === 0 && (isP(t, ';') || isP(t, '{') || isP(t, '}') || isP(t, '=>'))) break;
        if (depth === 0 && isId(t) && t.v === 'class' && !isP(toks[j - 1], '.')) {
          cls = isId(toks[j + 1]) && toks[j + 1].v !== 'extends' ? toks[j + 1].v : '(anonymous)';
          break;
        }
      }
      open.push(cls);
      continue;
    }
    if (isP(tok, '}')) {
      open.pop();
      continue;
    }
    if (!isId(tok)) continue;
    if (isP(toks[k - 1], '.') || isP(toks[k - 1], '?.')) {
      if (isId(toks[k - 2]) && toks[k - 2].v === 'this') {
        const cls = inClass();
        if (cls !== null) uses.push({ cls, name: tok.v });
      } else {
        uses.push(tok.v);
      }
      continue;
    }
    const cls = open.at(-1);
    if (cls === null || cls === undefined) continue;
    // A member starts after `{`, `}` or `;` of the class body, past any modifiers.
    let j = k - 1;
    while (isId(toks[j]) && MODIFIERS.has(toks[j].v)) j--;
    if (!(isP(toks[j], '{') || isP(toks[j], '}') || isP(toks[j], ';'))) continue;
    const next = toks[k + 1];
    // `get(`, `static(`: a method of that name; `get name(`: the modifier.
    if (MODIFIERS.has(tok.v) && !isP(next, '(') && !isP(next, '=') && !isP(next, ';')) continue;
    if (tok.v === 'constructor' || tok.v.startsWith('#')) continue;
    if (isP(next, '(') || isP(next, '=') || isP(next, ';')) members.push({ cls, name: tok.v, at: tok.s });
  }
  // `this.name` names the class's own member only when the class defines it.
  const own = new Set(members.map((m) => `${m.cls}#${m.name}`));
  const used = uses.map((u) => (typeof u === 'string' ? u : own.has(`${u.cls}#${u.name}`) ? `${u.cls}#${u.name}` : u.name));
  return { members, used };
}

/** [{ file, line, cls, name }] for the internal classes of root/src. */
export function deadMembers(root = ROOT) {
  const files = listModules(root).filter((file) => LIBRARY.test(relative(root, file).split(sep).join('/')));
  const publicClasses = new Set();
  for (const m of readFileSync(join(root, 'src', 'index.js'), 'utf8').matchAll(/export \{([^}]*)\}/g)) {
    for (const name of m[1].split(',')) publicClasses.add(name.trim().split(/\s+as\s+/).pop());
  }
  const used = new Set();
  const candidates = [];
  for (const file of files) {
    const rel = relative(root, file).split(sep).join('/');
    const source = readFileSync(file, 'utf8');
    const { members, used: names } = scan(tokenize(source));
    if (LIBRARY.test(rel)) for (const name of names) used.add(name);
    if (!rel.startsWith('src/')) continue;
    for (const m of members) {
      if (publicClasses.has(m.cls)) continue;
      candidates.push({ file: rel, line: source.slice(0, m.at).split('\n').length, cls: m.cls, name: m.name });
    }
  }
  return candidates.filter((m) => !used.has(m.name) && !used.has(`${m.cls}#${m.name}`));
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dead = deadMembers();
  for (const m of dead) console.log(`${m.file}:${m.line}  ${m.cls}.${m.name} is never used`);
  console.log(`dead-members: ${dead.length} unused member(s) of src/'s internal classes`);
  process.exit(dead.length === 0 ? 0 : 1);
}
