// util.inspect of our streams, readers, writers, controllers, requests and
// strategies against Node's own classes on the Node running the test: each
// scenario is built twice, once from Node's globals and once from ours, and
// must print the same, state by state (readable, locked, closed, errored,
// erroring, released, pending reads) and under the options that change the
// output (depth 0, -1 and null, nesting, colors, compact).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { inspect } from 'node:util';
import * as ours from '../../src/index.js';

const native = {
  ReadableStream, WritableStream, TransformStream, CountQueuingStrategy, ByteLengthQueuingStrategy,
};
const tick = () => new Promise((resolve) => setImmediate(resolve));

/** Builds every scenario from one set of classes; returns [label, output] pairs, printed as they happen. */
async function scenarios(api) {
  const out = [];
  const add = (label, value, options = {}) => out.push([label, show(value, options)]);

  let defaultController;
  const fresh = new api.ReadableStream({ start(c) { defaultController = c; } });
  add('readable stream', fresh);
  add('default controller', defaultController);
  add('depth 0', fresh, { depth: 0 });
  add('nested at depth 0', { a: fresh }, { depth: 0 });
  add('nested past the depth', { a: { b: { c: fresh } } });
  add('depth -1', fresh, { depth: -1 });
  add('colors', fresh, { colors: true });
  add('in a Map and an array', new Map([['k', [fresh]]]));
  add('compact false', fresh, { compact: false });
  add('breakLength 20', fresh, { breakLength: 20 });

  const reader = fresh.getReader();
  add('locked stream', fresh);
  add('default reader', reader);
  reader.read();
  reader.read();
  add('reader with two pending reads', reader);
  add('reader, depth null, deeply nested', { a: { b: { c: { d: reader } } } }, { depth: null });
  defaultController.close();
  await tick();
  add('closed stream', fresh);
  add('reader of a closed stream', reader);
  reader.releaseLock();
  add('released reader', reader);

  add('errored stream', new api.ReadableStream({ start(c) { c.error('boom'); } }));

  let byteController;
  const bytes = new api.ReadableStream({ type: 'bytes', start(c) { byteController = c; } });
  add('byte stream', bytes);
  add('byte controller', byteController);
  const byob = bytes.getReader({ mode: 'byob' });
  add('BYOB reader', byob);
  byob.read(new Uint8Array(4));
  add('BYOB reader with a pending read', byob);
  const request = byteController.byobRequest;
  add('BYOB request', request);
  new Uint8Array(request.view.buffer, request.view.byteOffset)[0] = 7;
  request.respond(1);
  add('BYOB request after respond()', request);
  await tick();

  let writableController;
  const writable = new api.WritableStream({ start(c) { writableController = c; } });
  add('writable stream', writable);
  add('writable controller', writableController);
  const writer = writable.getWriter();
  add('locked writable', writable);
  add('writer', writer);
  await writer.close();
  add('closed writable', writable);
  add('writer of a closed stream', writer);

  const stuck = new api.WritableStream({ write() { return new Promise(() => {}); } });
  const stuckWriter = stuck.getWriter();
  stuckWriter.write('a').catch(() => {});
  stuckWriter.abort('stop').catch(() => {});
  stuckWriter.closed.catch(() => {});
  add('erroring writable', stuck);
  add('writer of an erroring stream', stuckWriter);

  const failing = new api.WritableStream({ start(c) { c.error('bad'); } });
  await tick();
  add('errored writable', failing);

  let transformController;
  const transform = new api.TransformStream({ start(c) { transformController = c; } });
  add('transform stream', transform);
  add('transform stream at depth 0', transform, { depth: 0 });
  add('transform controller', transformController);
  add('transform controller at depth 4', transformController, { depth: 4 });
  add('transform in an array at depth 1', [[transform]], { depth: 1 });
  transformController.terminate();
  await tick();
  add('terminated transform', transform);

  add('count strategy', new api.CountQueuingStrategy({ highWaterMark: 3 }));
  add('byte length strategy', new api.ByteLengthQueuingStrategy({ highWaterMark: 16 }));
  return out;
}

// Under node:test, promises carry async-hook ids, a count that differs between the two runs.
const hookIds = /(async_id_symbol\)\]?: )\d+/g;

function show(value, options) {
  try {
    return inspect(value, options).replace(hookIds, '$1N');
  } catch (e) {
    return `throws ${e.name}`;
  }
}

test('util.inspect prints our objects as Node prints its own, in every state', async () => {
  const theirs = await scenarios(native);
  const mine = await scenarios(ours);
  assert.equal(mine.length, theirs.length);
  for (let i = 0; i < theirs.length; i++) {
    assert.equal(mine[i][0], theirs[i][0]);
    assert.equal(mine[i][1], theirs[i][1], theirs[i][0]);
  }
});

test('a released writer throws in inspect, as Node\'s does', () => {
  for (const api of [native, ours]) {
    const writer = new api.WritableStream().getWriter();
    writer.releaseLock();
    assert.throws(() => inspect(writer), TypeError);
  }
});

test('the prototypes and objects made from them print without the hook', () => {
  for (const name of ['ReadableStream', 'WritableStream', 'TransformStream']) {
    assert.equal(inspect(ours[name].prototype), inspect(native[name].prototype).replace(/\[Function: (\w+)\]/g, '[Function: $1]'));
    assert.equal(inspect(Object.create(ours[name].prototype)), `${name} {}`);
  }
});
