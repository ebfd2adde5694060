// Shared helpers for the interop suite. The suite runs under the preload:
//   node --import ./register.mjs --test test/interop/*.test.mjs
// (test/run-tests.mjs does this on every Node version). Each file checks that
// the patch is really active, so a run without the flag fails loudly.
import assert from 'node:assert/strict';
import * as fast from 'fast-webstreams'; // the module the preload installed (dist/, built from src/ by tools/bundle.mjs)

export { fast };
import { isOff } from '../../src/patch/features.js';
export const N = fast.nativeClasses();
/** Every test gets a time bound: a hang fails, it does not stall CI. */
export const T = { timeout: 15000 };
// Tests of a fast tier's own counters: skipped on the spec path alone (FAST_WEBSTREAMS_FAST_PATHS=0).
export const TIER = { ...T, skip: isOff(process.env.FAST_WEBSTREAMS_FAST_PATHS) && 'FAST_WEBSTREAMS_FAST_PATHS=0: no fast tier to count' };
export const MAJOR = Number(process.versions.node.split('.')[0]);

export function assertPatched() {
  assert.equal(fast.isInstalled(), true, 'run this suite with --import ./register.mjs');
  assert.equal(globalThis.ReadableStream, fast.ReadableStream);
}

export const enc = (s) => new TextEncoder().encode(s);
export const dec = (chunks) => Buffer.concat(chunks.map((c) => Buffer.from(c.buffer, c.byteOffset, c.byteLength))).toString();

export function isOurs(stream) {
  return Object.getPrototypeOf(stream) === fast.ReadableStream.prototype ||
    Object.getPrototypeOf(stream) === fast.WritableStream.prototype;
}

/** One of our readable streams of byte chunks, optionally erroring after them. */
export function oursFrom(parts, { error, bytes = false } = {}) {
  let i = 0;
  return new fast.ReadableStream({
    type: bytes ? 'bytes' : undefined,
    pull(c) {
      if (i < parts.length) c.enqueue(enc(parts[i++]));
      else if (error) c.error(error);
      else c.close();
    },
  });
}

/** Our source that never ends, recording the cancel reason. */
export function endlessOurs() {
  const state = { reason: undefined, cancelled: false };
  let n = 0;
  const stream = new fast.ReadableStream({
    pull(c) { c.enqueue(enc(`c${n++},`)); },
    cancel(reason) { state.cancelled = true; state.reason = reason; },
  }, { highWaterMark: 0 });
  return { stream, state };
}

/** Our writable collecting chunks. */
export function oursSink({ failOn } = {}) {
  const chunks = [];
  const state = { closed: false, abortReason: undefined };
  const stream = new fast.WritableStream({
    write(chunk) {
      if (failOn !== undefined && chunks.length === failOn) throw new Error('sink failed');
      chunks.push(chunk);
    },
    close() { state.closed = true; },
    abort(reason) { state.abortReason = reason; },
  });
  return { stream, chunks, state };
}

export const upper = () => new fast.TransformStream({
  transform(chunk, c) { c.enqueue(typeof chunk === 'string' ? chunk.toUpperCase() : enc(dec([chunk]).toUpperCase())); },
});

export async function readAll(stream) {
  const out = [];
  for await (const c of stream) out.push(c);
  return out;
}
