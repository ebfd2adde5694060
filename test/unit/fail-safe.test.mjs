// The checks of Node's internals, fed what they have never seen (issue 34):
// each answers so that the piece it guards stays Node's, never breaks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import vm from 'node:vm';
import { callerOf } from '../../src/node-internals/undici-callers.js';
import { Journal } from '../../src/patch/restore.js';

/** A function of `name` compiled from a file called `file`, which reports who called `probe`. */
function callerFrom(file, name) {
  const make = vm.runInThisContext(`(function (probe) { return function ${name}() { return probe(); }; })`,
    { filename: file });
  function probe() {
    return callerOf(probe);
  }
  return make(probe)();
}

test('callerOf: any file of Node\'s is Node\'s, whatever its name and the function\'s', () => {
  assert.equal(callerFrom('node:internal/deps/undici/undici', 'extractBody'), 'node');
  assert.equal(callerFrom('node:internal/deps/undici-9/fetch', 'makeBodyTheNewWay'), 'node');
  assert.equal(callerFrom('node:internal/deps/undici/undici', 'httpNetworkFetch'), 'node-response-body');
});

test('callerOf: the application\'s files are the application\'s', () => {
  assert.equal(callerFrom('/app/server.js', 'extractBody'), 'app');
  assert.equal(callerFrom('file:///app/node_modules/undici/lib/web/fetch/body.js', 'extractBody'), 'app');
  assert.equal(callerFrom('evalmachine.<anonymous>', 'httpNetworkFetch'), 'app');
});

test('callerOf: a call stack that cannot be read is "unknown", and nothing is left changed', () => {
  const saved = Object.getOwnPropertyDescriptor(Error, 'prepareStackTrace');
  Object.defineProperty(Error, 'prepareStackTrace', { value: undefined, writable: false, configurable: true });
  try {
    assert.equal(callerFrom('node:internal/deps/undici/undici', 'extractBody'), 'unknown');
    assert.equal(Error.prepareStackTrace, undefined);
  } finally {
    if (saved === undefined) delete Error.prepareStackTrace;
    else Object.defineProperty(Error, 'prepareStackTrace', saved);
  }
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0; // an application may set it; callerOf reads one frame anyway, then puts it back
  try {
    assert.equal(callerFrom('node:internal/deps/undici/undici', 'extractBody'), 'node');
    assert.equal(Error.stackTraceLimit, 0);
  } finally {
    Error.stackTraceLimit = limit;
  }
});

test('Journal: a property another library made non-configurable is left as it is, with no throw', () => {
  const journal = new Journal();
  const proto = {};
  Object.defineProperty(proto, 'body', { get() { return 'theirs'; } }); // not configurable, as Hono's
  const frozen = Object.freeze({ fetch() { return 'theirs'; } });
  assert.equal(journal.canRedefine(proto, 'body'), false);
  assert.equal(journal.replaceGetter(proto, 'body', () => 'ours'), false);
  assert.equal(journal.replaceValue(frozen, 'fetch', () => 'ours'), false);
  assert.equal(journal.define(frozen, 'added', { value: 1 }), false);
  assert.equal(journal.setPrototypeOf(frozen, null), false);
  assert.equal(proto.body, 'theirs');
  assert.equal(frozen.fetch(), 'theirs');
  journal.restore(); // nothing recorded, nothing to throw on
  assert.equal(Object.getPrototypeOf(frozen), Object.prototype);
});

test('Journal: what can be replaced is, and comes back exactly', () => {
  const journal = new Journal();
  const target = { fetch() { return 'theirs'; } };
  const before = Object.getOwnPropertyDescriptor(target, 'fetch');
  assert.equal(journal.replaceValue(target, 'fetch', () => 'ours'), true);
  assert.equal(target.fetch(), 'ours');
  journal.restore();
  assert.deepEqual(Object.getOwnPropertyDescriptor(target, 'fetch'), before);
});
