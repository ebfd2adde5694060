#!/usr/bin/env node
// Generates dist/fast-webstreams.js: every module reachable from src/index.js
// in one ES module, which is what the package exports and what the preload
// loads. Why: Node resolves, reads, compiles and links each ES module on its
// own, and for the ~45 modules and ~200 import statements of src/ that was
// most of what the preload added to every process's start-up (docs/interop.md,
// "Start-up"). src/ stays the source; dist/ is derived from it.
//
//   node tools/bundle.mjs            write dist/fast-webstreams.js (+ .map)
//   node tools/bundle.mjs --check    exit 1 if dist/ is not what src/ gives
//
// dist/ is a build output, not committed: `npm pack` builds it ("prepack"),
// as do `npm test` (its first step), the Docker image and `npm run bundle`
// (no install script: installing the package must run nothing, and npm 11
// warns about every one). After changing src/, run `npm run bundle`
// before running a test file or a program directly: dist/ is loaded as it
// is, whatever src/ says.
//
// How: each module's code is copied line for line into a function of its own,
// called at once ((() => { ... })()), so its top-level names stay its own. Its
// import and export syntax is blanked, and its comments and indentation dropped
// (tools/compact.mjs: lines stay where they were in src/, and
// dist/fast-webstreams.js.map maps every line back). The bindings a module
// exports to others go into one object per module, __fws$m[i], assigned when
// its function ends (function declarations: when it starts, as they are hoisted);
// an importing module's function starts by taking its imports from those
// objects into `var`s of its own. Not constants: V8 checks a `const` read from
// an inner function for its temporal dead zone each time (two bytes of
// bytecode, and a compare in optimized code), and those bytes count against
// TurboFan's inlining budget on the hot path (bench/results/lab-notes-benchmarks.md, "Imports
// without hole checks"); a `var` has no dead zone, and an import is set before
// any code of its module runs. Modules run in ES module evaluation order
// (depth-first, in the order of their import statements), so an exporter has
// always run before its importers, except across an import cycle. There the
// importer, which runs first, gets a variable that the exporter's function sets
// (functions when it starts, the rest when it ends), and that throws, naming
// both modules, on any use before then. In ES modules such an import is
// unusable at that point too (in its temporal dead zone), except a function
// declaration, which is hoisted: calling one from a module's top level
// across a cycle works there and throws here, when the bundle loads. src/
// does not do it (every test loads the bundle).
//
// The transform knows the syntax src/ uses and refuses anything else, naming
// the file and line (export default, export *, export let/var, a top-level
// var or await, a relative dynamic import, import.meta other than
// import.meta.url, ...): a bundle that silently differed from src/ would be
// worse than none.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compact } from './compact.mjs';
import { tokenize } from './tokenize.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
// Two bundles: the preload's eager part (what every process with the preload
// loads: src/patch/lazy.js and what it imports), and the library, which the
// eager part loads on first use of a stream (or at once, where it must). The
// library takes the modules the eager part already holds from it, so each of
// those runs once (the intrinsics it captured at start among them).
const EAGER = { entry: 'src/patch/lazy.js', out: 'dist/preload.js' };
const LIBRARY = { entry: 'src/index.js', out: 'dist/fast-webstreams.js' };
const BUILTINS = 'src/patch/builtins.js'; // builtin(id): what a bundle's builtin imports are read through
const ENTRY = LIBRARY.entry;
const OUT = LIBRARY.out;
const P = '__fws$'; // prefix of every name the bundle adds; src/ must not use it

class BundleError extends Error {}
const is = (tok, t, v) => tok !== undefined && tok.t === t && (v === undefined || tok.v === v);
const isP = (tok, v) => is(tok, 'p', v);
const isId = (tok, v) => is(tok, 'id', v);
const unquote = (tok) => JSON.parse(tok.v[0] === '\'' ? `"${tok.v.slice(1, -1).replace(/\\'/g, '\'').replace(/"/g, '\\"')}"` : tok.v);

/** One source module: its tokens, import/export declarations and top-level checks. */
function parseModule(root, rel) {
  const file = join(root, rel);
  const source = readFileSync(file, 'utf8');
  const lineOf = (offset) => source.slice(0, offset).split('\n').length;
  const fail = (tok, why) => {
    throw new BundleError(`${rel}:${tok === undefined ? '?' : lineOf(tok.s)}: ${why}`);
  };
  if (source.includes(P)) {
    throw new BundleError(`${rel}:${lineOf(source.indexOf(P))}: uses the name prefix ${P}, which the bundle reserves`);
  }
  let toks;
  try {
    toks = tokenize(source);
  } catch (e) {
    throw new BundleError(`${rel}: ${e.message}`);
  }
  const imports = []; // { spec, bindings: [{ imported, local }], line }
  const exports = new Map(); // exported name -> { local } | { spec, imported }
  const functionDecls = new Set(); // local names of exported function declarations
  const blanks = []; // [s, e, statement]: import/export syntax to blank out (a whole statement, or the keyword)
  const requests = []; // module specifiers in source order (imports and re-exports)
  const importMetaUrls = []; // offsets of `import.meta.url`
  const lets = new Set(); // names declared with a top-level let
  let depth = 0;

  // `{ a, b as c }` starting at toks[k]; returns [list, index after '}'].
  const braceList = (k, keyword) => {
    if (!isP(toks[k], '{')) fail(toks[k], `expected { in ${keyword}`);
    const list = [];
    k++;
    while (!isP(toks[k], '}')) {
      const name = toks[k];
      if (!isId(name) && !is(name, 'str')) fail(name, `unexpected ${name?.v} in ${keyword} { ... }`);
      if (is(name, 'str')) fail(name, 'string export names are not supported');
      let other = name.v;
      k++;
      if (isId(toks[k], 'as')) {
        if (!isId(toks[k + 1])) fail(toks[k + 1], `expected a name after 'as' in ${keyword}`);
        other = toks[k + 1].v;
        k += 2;
      }
      list.push([name.v, other]);
      if (isP(toks[k], ',')) k++;
      else if (!isP(toks[k], '}')) fail(toks[k], `expected , or } in ${keyword}`);
    }
    return [list, k + 1];
  };
  const endOfStatement = (k, what) => {
    if (isId(toks[k], 'with') || isId(toks[k], 'assert')) fail(toks[k], 'import attributes are not supported');
    if (!isP(toks[k], ';')) fail(toks[k] ?? toks[k - 1], `${what} must end with ;`);
    return k;
  };

  for (let k = 0; k < toks.length; k++) {
    const tok = toks[k];
    if (isP(tok, '{')) { depth++; continue; }
    if (isP(tok, '}')) { depth--; continue; }
    if (isId(tok, 'import') && isP(toks[k + 1], '.')) {
      if (!isId(toks[k + 2], 'meta') || !isP(toks[k + 3], '.') || !isId(toks[k + 4], 'url')) {
        fail(tok, 'import.meta is supported only as import.meta.url');
      }
      importMetaUrls.push([tok.s, toks[k + 4].e]);
      continue;
    }
    if (isId(tok, 'import') && isP(toks[k + 1], '(')) {
      const spec = toks[k + 2];
      if (!is(spec, 'str') || !unquote(spec).startsWith('node:')) {
        fail(tok, 'dynamic import() of anything but a node: builtin would load a second copy of src/');
      }
      continue;
    }
    if (isId(tok, 'eval') && !isP(toks[k - 1], '.')) fail(tok, 'eval would see the bundle\'s scopes');
    if (depth !== 0) continue;
    if (isId(tok, 'var') && !isP(toks[k - 1], '.')) fail(tok, 'a top-level var would be shared by every module of the bundle');
    if (isId(tok, 'let') && !isP(toks[k - 1], '.')) {
      // Every name it declares: the first, and each after a comma at this statement's level.
      let level = 0;
      for (let m = k + 1; m < toks.length; m++) {
        const t = toks[m];
        if (isP(t, '(') || isP(t, '[') || isP(t, '{')) level++;
        else if (isP(t, ')') || isP(t, ']') || isP(t, '}')) level--;
        else if (level === 0 && isP(t, ';')) break;
        if (level < 0) break;
        if (level === 0 && isId(t) && (m === k + 1 || isP(toks[m - 1], ','))) lets.add(t.v);
      }
    }
    if (isId(tok, 'await') && !isP(toks[k - 1], '.')) fail(tok, 'top-level await is not supported');
    if (isId(tok, 'import') && !isP(toks[k - 1], '.')) {
      const start = tok.s;
      let j = k + 1;
      const bindings = [];
      if (!is(toks[j], 'str')) {
        if (isId(toks[j]) && !isId(toks[j], 'from')) {
          bindings.push({ imported: 'default', local: toks[j].v });
          j++;
          if (isP(toks[j], ',')) j++;
        }
        if (isP(toks[j], '*')) {
          if (!isId(toks[j + 1], 'as') || !isId(toks[j + 2])) fail(toks[j], 'expected * as name');
          bindings.push({ imported: '*', local: toks[j + 2].v });
          j += 3;
        } else if (isP(toks[j], '{')) {
          const [list, next] = braceList(j, 'import');
          for (const [imported, local] of list) bindings.push({ imported, local });
          j = next;
        }
        if (!isId(toks[j], 'from')) fail(toks[j], 'expected from in import');
        j++;
      }
      if (!is(toks[j], 'str')) fail(toks[j], 'expected a module specifier');
      const spec = unquote(toks[j]);
      j = endOfStatement(j + 1, 'an import declaration');
      imports.push({ spec, bindings, line: lineOf(start) });
      requests.push(spec);
      blanks.push([start, toks[j].e, true]);
      k = j;
      continue;
    }
    if (isId(tok, 'export') && !isP(toks[k - 1], '.')) {
      const next = toks[k + 1];
      if (isId(next, 'default')) fail(tok, 'export default is not supported');
      if (isP(next, '*')) fail(tok, 'export * is not supported: name what is exported');
      if (isP(next, '{')) {
        const [list, after] = braceList(k + 1, 'export');
        let j = after;
        let spec;
        if (isId(toks[j], 'from')) {
          if (!is(toks[j + 1], 'str')) fail(toks[j + 1], 'expected a module specifier');
          spec = unquote(toks[j + 1]);
          requests.push(spec);
          j += 2;
        }
        j = endOfStatement(j, 'an export declaration');
        for (const [inner, exported] of list) {
          if (exports.has(exported)) fail(tok, `${exported} is exported twice`);
          exports.set(exported, spec === undefined ? { local: inner } : { spec, imported: inner });
        }
        blanks.push([tok.s, toks[j].e, true]);
        k = j;
        continue;
      }
      // export <declaration>: only the keyword goes.
      let j = k + 1;
      let isFunction = false;
      if (isId(toks[j], 'async') && isId(toks[j + 1], 'function')) j++;
      if (isId(toks[j], 'function')) {
        isFunction = true;
        j++;
        if (isP(toks[j], '*')) j++;
      } else if (isId(toks[j], 'class')) {
        j++;
      } else if (isId(toks[j], 'const')) {
        j++;
        if (!isId(toks[j])) fail(toks[j], 'export const with a destructuring pattern is not supported');
        // One declarator only: a comma at this statement's top level would declare more.
        let level = 0;
        for (let m = j + 1; m < toks.length; m++) {
          const t = toks[m];
          if (isP(t, '(') || isP(t, '[') || isP(t, '{')) level++;
          else if (isP(t, ')') || isP(t, ']') || isP(t, '}')) level--;
          else if (level === 0 && isP(t, ';')) break;
          else if (level === 0 && isP(t, ',')) fail(t, 'export const with several declarators is not supported');
          if (level < 0) fail(t, 'export const must end with ;');
        }
      } else if (isId(toks[j], 'let') || isId(toks[j], 'var')) {
        fail(tok, `export ${toks[j].v}: a binding that can change cannot be copied into importers`);
      } else {
        fail(tok, `unsupported export form (export ${next?.v})`);
      }
      const name = toks[j];
      if (!isId(name)) fail(name, 'expected the exported name');
      if (exports.has(name.v)) fail(tok, `${name.v} is exported twice`);
      exports.set(name.v, { local: name.v });
      if (isFunction) functionDecls.add(name.v);
      blanks.push([tok.s, tok.e, false]);
    }
  }
  for (const [exported, exp] of exports) {
    if (exp.local !== undefined && lets.has(exp.local)) {
      throw new BundleError(`${rel}: exports ${exported}, a let binding: a binding that can change cannot be copied into importers`);
    }
  }
  return { rel, file, source, imports, exports, functionDecls, blanks, requests, importMetaUrls, lineOf };
}

/** Resolves a relative specifier of module `from` to a path relative to the root. */
function resolveSpec(root, from, spec, fail) {
  if (spec.startsWith('node:')) return null;
  if (!spec.startsWith('./') && !spec.startsWith('../')) {
    fail(`imports '${spec}': only relative modules and node: builtins can be bundled`);
  }
  const abs = resolve(root, dirname(from), spec);
  const rel = relative(root, abs).split(sep).join('/');
  if (rel.startsWith('..') || !/\.m?js$/.test(rel) || !existsSync(abs)) fail(`imports '${spec}', which is not a module under the root`);
  return rel;
}

// Base64 VLQ, for the source map.
const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
function vlq(n) {
  let v = n < 0 ? (-n << 1) | 1 : n << 1;
  let out = '';
  do {
    let digit = v & 31;
    v >>>= 5;
    if (v > 0) digit |= 32;
    out += B64[digit];
  } while (v > 0);
  return out;
}

/**
 * The bundle for the modules under `root` reachable from `entry`:
 * { code, map, modules, exportsOf }. Modules that `shared` (the eager bundle's
 * exportsOf) holds are not copied but taken from `sharedFrom`, that bundle's
 * file, which exports its modules' bindings, all of them (`shares`: true).
 * Throws a BundleError naming the file and line of anything it cannot carry
 * over exactly.
 */
export function bundle(root = ROOT, { entry: entryFile = ENTRY, out: outFile = OUT, shared = new Map(), sharedFrom, shares = false } = {}) {
  // Modules in evaluation order: depth-first, each after its dependencies.
  const modules = new Map(); // rel -> parsed module (with .index once done)
  const order = [];
  const visiting = new Set();
  const visit = (rel) => {
    if (modules.has(rel) || visiting.has(rel)) return;
    visiting.add(rel);
    const mod = parseModule(root, rel);
    mod.deps = new Map();
    for (const spec of mod.requests) {
      const dep = resolveSpec(root, rel, spec, (why) => { throw new BundleError(`${rel}: ${why}`); });
      if (dep !== null) {
        mod.deps.set(spec, dep);
        if (!shared.has(dep)) visit(dep);
      }
    }
    visiting.delete(rel);
    mod.index = order.length;
    modules.set(rel, mod);
    order.push(mod);
  };
  visit(entryFile);

  // Where each exported name of a module is defined: { mod, local }.
  const binding = (mod, name, seen = new Set()) => {
    const key = `${mod.rel}#${name}`;
    if (seen.has(key)) throw new BundleError(`${mod.rel}: ${name} is re-exported in a cycle`);
    seen.add(key);
    const exp = mod.exports.get(name);
    if (exp === undefined) return undefined;
    if (exp.local !== undefined) return { mod, local: exp.local };
    const from = mod.deps.get(exp.spec);
    if (shared.has(from)) throw new BundleError(`${mod.rel}: re-exports ${name} from ${from}, which ${sharedFrom} holds: import it instead`);
    return binding(modules.get(from), exp.imported, seen);
  };
  // Builtins: one constant each in the bundle's header.
  const builtins = new Map(); // `${spec}\0${imported}` -> { spec, imported, name }
  const builtinName = (spec, imported, where) => {
    const key = `${spec}\0${imported}`;
    if (!builtins.has(key)) {
      const tag = imported === '*' ? 'ns' : imported;
      builtins.set(key, { spec, imported, where, name: `${P}b${builtins.size}$${tag}` });
    }
    return builtins.get(key).name;
  };

  // A module's bindings that others use travel in one object per module,
  // ${P}m[index]: set when its function starts (function declarations) and ends.
  const use = (b) => {
    b.mod.published ??= new Map();
    if (!b.mod.published.has(b.local)) b.mod.published.set(b.local, { early: b.mod.functionDecls.has(b.local) });
  };
  for (const mod of order) {
    mod.start = []; // statements at the start of its function
    const fromModule = new Map(); // exporter index -> ['local: alias' | 'local']
    for (const imp of mod.imports) {
      const dep = mod.deps.get(imp.spec);
      for (const { imported, local } of imp.bindings) {
        if (dep === undefined) {
          mod.start.push(`var ${local} = ${builtinName(imp.spec, imported, `${mod.rel}:${imp.line}`)};`);
          continue;
        }
        if (shared.has(dep)) {
          const { index, locals } = shared.get(dep);
          if (imported === '*' || !locals.has(imported)) {
            throw new BundleError(`${mod.rel}:${imp.line}: ${dep} (in ${sharedFrom}) does not export ${imported}`);
          }
          mod.start.push(`var ${local} = ${P}x[${index}].${locals.get(imported)};`);
          continue;
        }
        if (imported === '*') throw new BundleError(`${mod.rel}:${imp.line}: import * from a module of src/ is not supported`);
        const b = binding(modules.get(dep), imported);
        if (b === undefined) throw new BundleError(`${mod.rel}:${imp.line}: ${dep} does not export ${imported}`);
        if (b.mod === mod) throw new BundleError(`${mod.rel}:${imp.line}: a module importing itself is not supported`);
        use(b);
        if (b.mod.index < mod.index) {
          const list = fromModule.get(b.mod.index) ?? [];
          list.push(b.local === local ? local : `${b.local}: ${local}`);
          fromModule.set(b.mod.index, list);
        } else {
          // Across a cycle: the exporter has not run yet; set when it has.
          b.mod.hasLate = true;
          mod.start.push(`var ${local} = ${P}early(${JSON.stringify(`${local} (from ${b.mod.rel})`)}, ${JSON.stringify(mod.rel)}); ` +
            `${P}late(${b.mod.index}, ${JSON.stringify(b.local)}, (v) => { ${local} = v; });`);
        }
      }
    }
    mod.start.unshift(...[...fromModule].map(([index, list]) => `var { ${list.join(', ')} } = ${P}m[${index}];`));
  }
  if (shares) {
    for (const mod of order) for (const name of mod.exports.keys()) use(binding(mod, name));
  }
  const entry = modules.get(entryFile);
  const entryExports = [...entry.exports.keys()].map((name) => {
    const b = binding(entry, name);
    if (b === undefined) throw new BundleError(`${entryFile}: ${name} is exported but defined nowhere`);
    use(b);
    return { name, b };
  });

  // The text, line by line, with the source map's segments alongside.
  const lines = [];
  const mapLines = []; // per output line: [source index, source line] or null
  const emit = (text, origin = null) => {
    for (const line of text.split('\n')) {
      lines.push(line);
      mapLines.push(origin);
      if (origin !== null) origin = [origin[0], origin[1] + 1];
    }
  };
  emit(`// fast-webstreams: src/ in one module (generated by tools/bundle.mjs; do not edit).
// Every module of src/ is below, in a function of its own, its lines as they are in
// src/ (import and export syntax blanked; fast-webstreams.js.map maps each line
// back). After changing src/, run \`node tools/bundle.mjs\`.`);
  // A builtin import becomes a read of what require() gives (the module's
  // exports), when the bundle starts: the values the import would bind,
  // without building the builtin's ESM namespace, which runs its lazy getters
  // and so can load more of Node (node:util's loads node:stream, the worker
  // machinery and creates process.stderr). A name the module lacks, here, is
  // an error, as the import would be.
  if (shared.size > 0) emit(`import { ${P}x } from ${JSON.stringify(`./${relative(dirname(outFile), sharedFrom)}`)};`);
  if (shared.has(BUILTINS)) {
    // The eager bundle's builtin(), which holds process.getBuiltinModule as it was at start.
    const { index, locals } = shared.get(BUILTINS);
    emit(`const ${P}builtin = ${P}x[${index}].${locals.get('builtin')};`);
  } else {
    emit(`import { createRequire as ${P}createRequire } from "node:module";
const ${P}builtin = typeof process.getBuiltinModule === 'function'
  ? (id) => process.getBuiltinModule(id)
  : ${P}createRequire(import.meta.url);`);
  }
  for (const { spec, imported, name, where } of builtins.values()) {
    if (imported === '*') {
      emit(`import * as ${name} from ${JSON.stringify(spec)};`);
      continue;
    }
    if (imported !== 'default') {
      const mod = process.getBuiltinModule?.(spec);
      if (mod !== undefined && !(imported in mod)) throw new BundleError(`${where}: ${spec} has no export ${imported}`);
    }
    emit(`const ${name} = ${P}builtin(${JSON.stringify(spec)})${imported === 'default' ? '' : `.${imported}`};`);
  }
  emit(`// Each module's bindings that other modules import, by module.
const ${P}m = [];
// A binding imported across a cycle, until its module has run: any use throws.
function ${P}early(name, importer) {
  const fail = () => { throw new ReferenceError(\`fast-webstreams bundle: \${importer} used \${name} before that module ran (an import cycle the bundle cannot order; see tools/bundle.mjs)\`); };
  return new Proxy(function () {}, { apply: fail, construct: fail, get: fail, set: fail, has: fail, defineProperty: fail, deleteProperty: fail, getOwnPropertyDescriptor: fail, ownKeys: fail, getPrototypeOf: fail, setPrototypeOf: fail, isExtensible: fail, preventExtensions: fail });
}
const ${P}lates = [];
function ${P}late(index, name, set) { (${P}lates[index] ??= []).push([name, set]); }
function ${P}settle(index) { for (const [name, set] of ${P}lates[index] ?? []) if (name in ${P}m[index]) set(${P}m[index][name]); }`);
  const sources = [];
  for (const mod of order) {
    sources.push(mod.rel);
    const srcIndex = sources.length - 1;
    let text = mod.source;
    // Blank the import/export syntax (keeping its newlines: lines stay where
    // they are; the keyword before a declaration keeps its columns too), and
    // point import.meta.url at the module's own file.
    const edits = [
      ...mod.blanks.map(([s, e, statement]) => [s, e, text.slice(s, e).replace(statement ? /[^\n]/g : /./g, statement ? '' : ' ')]),
      ...mod.importMetaUrls.map(([s, e]) => [s, e, `${P}url`]),
    ].sort((a, b) => b[0] - a[0]);
    for (const [s, e, replacement] of edits) text = text.slice(0, s) + replacement + text.slice(e);
    text = compact(text); // without comments and indentation, line for line (tools/compact.mjs)
    const start = [...mod.start];
    if (mod.importMetaUrls.length) {
      start.unshift(`const ${P}url = new URL(${JSON.stringify(`../${mod.rel}`)}, import.meta.url).href;`);
    }
    const end = [];
    if (mod.published) {
      const names = (early) => [...mod.published].filter(([, x]) => x.early === early).map(([local]) => local);
      start.push(`${P}m[${mod.index}] = { ${names(true).join(', ')} };`);
      if (names(false).length) end.push(`Object.assign(${P}m[${mod.index}], { ${names(false).join(', ')} });`);
      if (mod.hasLate) {
        start.push(`${P}settle(${mod.index});`);
        end.push(`${P}settle(${mod.index});`);
      }
    }
    emit(`// ---- ${mod.rel}`);
    emit(`(() => { ${start.join(' ')}`);
    emit(text.endsWith('\n') ? text.slice(0, -1) : text, [srcIndex, 0]);
    emit(`${end.join(' ')} })();`);
  }
  for (const [i, { b }] of entryExports.entries()) emit(`const ${P}e${i} = ${P}m[${b.mod.index}].${b.local};`);
  const exportList = entryExports.map(({ name }, i) => `${P}e${i} as ${name}`);
  if (shares) exportList.push(`${P}m as ${P}x`); // every module's bindings, for the bundle that takes them from this one
  emit(`export { ${exportList.join(', ')} };`);
  emit(`//# sourceMappingURL=${outFile.split('/').pop()}.map`);

  let prevSource = 0;
  let prevLine = 0;
  const mappings = mapLines.map((origin) => {
    if (origin === null) return '';
    const seg = `A${vlq(origin[0] - prevSource)}${vlq(origin[1] - prevLine)}A`;
    prevSource = origin[0];
    prevLine = origin[1];
    return seg;
  }).join(';');
  const map = JSON.stringify({
    version: 3,
    file: outFile.split('/').pop(),
    sources: sources.map((rel) => `../${rel}`),
    names: [],
    mappings,
  });
  // rel -> { index, locals: exported name -> the local name under which ${P}m[index] holds it }
  const exportsOf = new Map(order.map((mod) => [mod.rel, {
    index: mod.index,
    locals: new Map([...mod.exports.keys()].map((name) => [name, binding(mod, name)?.local])),
  }]));
  return { code: `${lines.join('\n')}\n`, map: `${map}\n`, modules: order.map((m) => m.rel), exportsOf };
}

/** Both bundles: [eager, library], each { out, code, map, modules }. */
export function bundles(root = ROOT) {
  const eager = { ...bundle(root, { entry: EAGER.entry, out: EAGER.out, shares: true }), out: EAGER.out };
  const library = {
    ...bundle(root, { entry: LIBRARY.entry, out: LIBRARY.out, shared: eager.exportsOf, sharedFrom: EAGER.out }),
    out: LIBRARY.out,
  };
  return [eager, library];
}

/** Writes (or with check: compares) dist/ under `root`. Returns { changed, modules }. */
export function writeBundle(root = ROOT, { check = false } = {}) {
  let changed = false;
  const modules = [];
  for (const { out: rel, code, map, modules: mods } of bundles(root)) {
    const out = join(root, rel);
    const outMap = `${out}.map`;
    const same = existsSync(out) && existsSync(outMap) &&
      readFileSync(out, 'utf8') === code && readFileSync(outMap, 'utf8') === map;
    if (!check && !same) {
      mkdirSync(dirname(out), { recursive: true });
      writeFileSync(out, code);
      writeFileSync(outMap, map);
    }
    changed ||= !same;
    modules.push(...mods);
  }
  return { changed, modules };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const check = process.argv.includes('--check');
  try {
    const { changed, modules } = writeBundle(ROOT, { check });
    if (check && changed) {
      console.error(`${OUT} is not in sync with src/: run \`node tools/bundle.mjs\``);
      process.exit(1);
    }
    console.log(`${EAGER.out} + ${OUT}: ${modules.length} modules${changed ? (check ? '' : ', written') : ', unchanged'}`);
  } catch (e) {
    if (!(e instanceof BundleError)) throw e;
    console.error(`tools/bundle.mjs: ${e.message}`);
    process.exit(1);
  }
}
