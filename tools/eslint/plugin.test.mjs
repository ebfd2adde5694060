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
