// The sinks servers write to (issue 35): a WritableStream whose write()
// returns a promise (Next.js's response sink), and Writable.toWeb() of a Node
// stream, fed as a token stream is (a chunk now and then). Each chunk is one
// direct write, counted as such, with at most one fallback per response, and
// the bytes arrive as natively.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { TIER } from './helpers.mjs';
import { getCounters, resetCounters } from '../../dist/fast-webstreams.js';
import { toWebFollowed } from '../../src/bridge/node-adapters/node-behaviour.js';

const TOKENS = 200;
const encoder = new TextEncoder();

/** A token stream: one SSE frame of 50-200 bytes per pull, after a macrotask, as an LLM proxy sends them. */
function tokenStream() {
  let n = 0;
  return new ReadableStream({
    async pull(c) {
      await new Promise((resolve) => setImmediate(resolve));
      c.enqueue(encoder.encode(`data: {"token":${n},"text":"${'x'.repeat(30 + (n % 150))}"}\n\n`));
      if (++n === TOKENS) c.close();
    },
  });
}

function nodeResponse() {
  const chunks = [];
  const res = new Writable({ write(chunk, _enc, cb) { chunks.push(chunk); cb(); } });
  return { res, bytes: () => Buffer.concat(chunks).length };
}

const expectedBytes = async () => {
  let total = 0;
  for await (const chunk of tokenStream()) total += chunk.byteLength;
  return total;
};

test('a route handler body into Next.js\'s sink (an async write() awaiting drain): one direct write a chunk', TIER, async () => {
  const { res, bytes } = nodeResponse();
  const drained = () => new Promise((resolve) => res.once('drain', resolve));
  resetCounters();
  await tokenStream().pipeTo(new WritableStream({
    async write(chunk) { if (!res.write(chunk)) await drained(); },
  }));
  const c = getCounters();
  assert.equal(bytes(), await expectedBytes());
  assert.ok(c.syncWrites >= TOKENS - 1, `syncWrites ${c.syncWrites}`);
  assert.ok(c.fallbacks <= 1, JSON.stringify(c.fallbackReasons));
});

test('a token stream into Writable.toWeb(res): one direct write a chunk', { ...TIER, skip: TIER.skip || (!toWebFollowed && 'Node\'s own Writable.toWeb on this release') }, async () => {
  const { res, bytes } = nodeResponse();
  resetCounters();
  await tokenStream().pipeTo(Writable.toWeb(res));
  const c = getCounters();
  assert.equal(bytes(), await expectedBytes());
  assert.ok(c.syncWrites >= TOKENS - 1, `syncWrites ${c.syncWrites}`);
  assert.ok(c.fallbacks <= 1, JSON.stringify(c.fallbackReasons));
});
