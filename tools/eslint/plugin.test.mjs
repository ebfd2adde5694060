// tools/eslint/plugin.js's no-patchable-builtins, on small sources: what it
// reports, and what it lets through (locals, load-time code, other names).
import { describe, it } from 'node:test';
import { RuleTester } from 'eslint';
import plugin from './plugin.js';

RuleTester.describe = describe;
RuleTester.it = it;
RuleTester.itOnly = it.only;

const rule = plugin.rules['no-patchable-builtins'];
const tester = new RuleTester({ languageOptions: { ecmaVersion: 2025, sourceType: 'module' } });
const options = [{ globals: { Promise: 'promiseThen', Object: 'ObjectCreate', TypeError: 'OriginalTypeError', Array: 'ArrayCtor' } }];
const method = (name) => ({ messageId: 'method', data: { name } });
const global = (name, instead) => ({ messageId: 'global', data: { name, instead } });

tester.run('no-patchable-builtins', rule, {
  valid: [
    // Captured while loading, like src/intrinsics.js does.
    { code: 'const then = Promise.prototype.then; const kTag = Symbol("x"); class A { static s = Object.freeze({}); }', options },
    // Locals that share a global's name.
    { code: 'function f(Promise) { return Promise.resolve(1); }', options },
    { code: 'import { Object } from "./x.js"; export function f() { return Object.keys({}); }', options },
    // Names the options do not list, methods that are not then/catch/finally.
    { code: 'export function f(a) { a.push(1); return Symbol.iterator + JSON.stringify(a); }', options },
    { code: 'export function f(p) { return typeof p.then; }', options },
  ],
  invalid: [
    { code: 'export function f(p) { return p.then(g); }', options, errors: [method('then')] },
    { code: 'export const f = (p) => p["catch"](g)?.finally(h);', options, errors: [method('catch'), method('finally')] },
    { code: 'export function f(p) { return p?.then(g); }', options, errors: [method('then')] },
    { code: 'export function f() { return Promise.resolve(); }', options, errors: [global('Promise', 'promiseThen')] },
    { code: 'export function f() { throw new TypeError("x"); }', options, errors: [global('TypeError', 'OriginalTypeError')] },
    { code: 'export function f() { return globalThis.Object.keys({}); }', options, errors: [global('Object', 'ObjectCreate')] },
    { code: 'class Q { items = new Array(8); }', options, errors: [global('Array', 'ArrayCtor')] },
    { code: 'class Q { grow() { return new Array(8); } }', options, errors: [global('Array', 'ArrayCtor')] },
    // A global eslint was not told of is still the global.
    { code: 'export function f() { return Object.keys({}); }', options, languageOptions: { globals: {} }, errors: [global('Object', 'ObjectCreate')] },
  ],
});

// no-patchable-iteration: the iteration protocol and prototype methods of
// arrays and collections the file made, in code that runs after load.
const iteration = plugin.rules['no-patchable-iteration'];
const error = (messageId, data) => (data === undefined ? { messageId } : { messageId, data });

tester.run('no-patchable-iteration', iteration, {
  valid: [
    // While loading: the built-ins are still the ones src/intrinsics.js captured.
    { code: 'const [a, b] = f(); for (const x of [1]) g(x, ...[2]); const q = []; q.push(1);' },
    // Indexed access, object spread and rest, plain property writes.
    { code: 'export function f(a, o) { const q = []; q[q.length] = a[0]; return { ...o, q }; }' },
    { code: 'export function f(...args) { const { a, b } = args[0]; return a + b; }' },
    // Methods of receivers whose kind the file does not show, or of our own classes.
    { code: 'export function f(queue, s) { queue.push(1); return s.slice(1); }' },
    { code: 'class Q { constructor() { this.items = new RingQueue(); } add(x) { this.items.push(x); } }' },
    // A derived class that says its constructor; a typed array made by length.
    { code: 'class A extends B { constructor() { super(); } }' },
    { code: 'export function f() { return new Uint8ArrayCtor(3); }' },
  ],
  invalid: [
    { code: 'export function f(g) { const [a, b] = g(); return a + b; }', errors: [error('destructuring')] },
    { code: 'export function f(g) { let a; [a] = g(); return a; }', errors: [error('destructuring')] },
    { code: 'export const f = ([a]) => a;', errors: [error('destructuring')] },
    { code: 'export function f(a, g) { g(...a); return [...a]; }', errors: [error('spread'), error('spread')] },
    { code: 'export function f(a) { for (const x of a) g(x); }', errors: [error('forOf')] },
    { code: 'class A extends B { m() {} }', errors: [error('derivedClass')] },
    { code: 'export function f() { return new Uint8ArrayCtor([1, 2]); }', errors: [error('typedArrayFromArray')] },
    {
      code: 'export function f(x) { const a = []; a.push(x); return a.slice(1); }',
      errors: [error('arrayMethod', { name: 'push', hint: 'a[a.length] = x' }), error('arrayMethod', { name: 'slice', hint: 'a loop over a[i]' })],
    },
    {
      code: 'class D { constructor() { this.batch = []; } feed(b) { this.batch.push(b); } }',
      errors: [error('arrayMethod', { name: 'push', hint: 'a[a.length] = x' })],
    },
    { code: 'const m = new MapCtor(); export function f(k) { return m.get(k); }', errors: [error('collectionMethod', { name: 'get' })] },
    { code: 'class C { seen = new WeakSet(); f(x) { this.seen.add(x); } }', errors: [error('collectionMethod', { name: 'add' })] },
  ],
});
