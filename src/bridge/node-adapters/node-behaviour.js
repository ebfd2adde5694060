// What Node's own adapters do on the running Node, where versions differ.
// Taken from the version, not asked of Node at run time: a probe would run
// Node's adapter and leave ticks queued behind it, shifting the timing of
// the application's first adapter. test/interop/node-adapters-behaviour.test.mjs
// provokes each behaviour from Node's own adapter on every version we test,
// so a Node release that changes one fails that test.
import { nodeMajor as major, nodeMinor as minor } from '../../node-version.js';

/**
 * Node 24.22 took Node 26's fromWeb adapters (a reused read request, one
 * shared write request and no writer.ready): where this file says Node 26,
 * read 26 and 24.22+.
 */
const fromWebLike26 = major >= 26 || (major === 24 && minor >= 22);

/**
 * Node 26 pushes the end, and destroys on a stream error, when its read
 * request learns of them; Node 20-24 a microtask later (a reaction to
 * reader.read()).
 */
export const readEndsAtOnce = fromWebLike26;

/**
 * The write side. Node 26 writes each batch at once, whatever the
 * backpressure (`writesAtOnce`), and calls back synchronously when the last
 * write succeeds; Node 20-24 wait for writer.ready first. Node 24 joins a
 * _writev()'s writes with a Promise.all that settles at the first failure
 * (`failFast`); Node 20 and 22 lose a failed _writev()'s callback
 * (`failedBatchCallsBack` false: their handler throws on a non-array, an
 * unhandled rejection we do not reproduce).
 */
export const writeMode = {
  writesAtOnce: fromWebLike26,
  failFast: major >= 23 && !fromWebLike26,
  failedBatchCallsBack: major >= 23,
};

/**
 * Writable.toWeb (./to-web.js). Node 24+ sizes a byte-mode stream's chunks
 * by their length (20/22: each counts 1), writes an ArrayBuffer as a
 * Uint8Array, and does not wait for 'drain' when write() returned false
 * without needing one (an errored stream); Node 22+ turns a zlib error code
 * into a TypeError (20: only a premature close into an AbortError), and
 * Node 24+ a Brotli decoder's (ERR__ERROR_*) as well.
 */
export const toWebMode = {
  sizesByLength: major >= 24,
  arrayBufferAsView: major >= 24,
  drainedAtOnce: major >= 24,
  mapsZlibErrors: major >= 22,
  mapsBrotliErrors: major >= 24,
};

/**
 * Readable.toWeb (./to-web.js). Node 24+ waits only for a Duplex's readable
 * side, and once the stream ended or was cancelled reports nothing more;
 * Node 26 also ignores 'data' after that.
 */
export const readableToWebMode = {
  readEndsOnce: major >= 24,
  dataAfterEndIgnored: major >= 26,
};

/**
 * The releases whose Readable.toWeb / Writable.toWeb ./to-web.js follows:
 * those the fixtures of test/interop/fixtures/*-to-web.mjs compared, and
 * later ones of the same major. Node changed these adapters within majors
 * (24.0 has 22.23's), so on an older release, or another major, Node's own
 * adapters stay.
 */
const toWebSince = { 20: 20, 22: 23, 24: 21, 26: 10 };
export const toWebFollowed = toWebSince[major] !== undefined && minor >= toWebSince[major];
