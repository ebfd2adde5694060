// Runs one generated case against the codec classes on globalThis (Node's
// own, or ours under the preload) and records what a program could see:
// how the constructor, each write, the close and the interrupt settled, how
// reading ended, and the output. Anything still unsettled after IDLE_MS with
// nothing happening is recorded as 'pending'.
import { createHash } from 'node:crypto';
import { materialize } from './chunks.mjs';
import { ZLIB_CLASSES } from './generate.mjs';

const IDLE_MS = Number(process.env.CODEC_FUZZ_IDLE_MS ?? 500);
const macrotask = () => new Promise((resolve) => setImmediate(resolve));

const REASONS = {
  error: () => new Error('reason'), typeerror: () => new TypeError('reason'), undefined: () => undefined, string: () => 'reason',
};

/** What a rejection (or a reason) was: constructor name and Node's code, never the message. */
export function shapeOf(e, ...reason) {
  if (reason.length !== 0 && e === reason[0]) return 'the reason'; // `undefined` too, when that was the reason
  const isObject = (typeof e === 'object' && e !== null) || typeof e === 'function';
  if (!isObject) return typeof e;
  return `${e.constructor?.name}${e.code !== undefined ? ` [${e.code}]` : ''}`;
}

/** The output as compared: exact chunks for the text classes, length and hash for zlib. */
function summarize(cls, out) {
  const types = [...new Set(out.map((v) => (typeof v === 'string' ? 'string' : v?.constructor?.name)))].sort();
  const partialViews = out.some((v) => ArrayBuffer.isView(v) && (v.byteOffset !== 0 || v.buffer.byteLength !== v.byteLength));
  if (cls === 'TextDecoderStream') return { types, chunks: out };
  if (cls === 'TextEncoderStream') return { types, partialViews, chunks: out.map((v) => Buffer.from(v).toString('hex')) };
  const hash = createHash('sha1');
  let bytes = 0;
  for (const v of out) {
    hash.update(v);
    bytes += v.byteLength;
  }
  return { types, partialViews, bytes, sha1: hash.digest('hex').slice(0, 12), count: out.length };
}

// --plant=corrupt-output: the fuzzer's self-check, one output unit changed.
function plantCorruption(out) {
  const i = out.findIndex((v) => (typeof v === 'string' ? v.length : v.byteLength) > 0);
  if (i < 0) return;
  if (typeof out[i] === 'string') out[i] = String.fromCharCode(out[i].charCodeAt(0) ^ 1) + out[i].slice(1);
  else out[i][0] ^= 1;
}

export async function runCase(c, { plant } = {}) {
  const rec = { ctor: 'ok' };
  let codec;
  try {
    codec = new globalThis[c.cls](...c.args);
  } catch (e) {
    rec.ctor = shapeOf(e);
    return rec;
  }
  const reason = REASONS[c.interrupt?.reason ?? 'error']();
  let lastEvent = Date.now();
  const promises = [];
  /** A slot that says how `p` settled, filled in when it does. */
  const track = (p) => {
    const slot = { s: 'pending' };
    promises.push(p.then(() => { slot.s = 'ok'; lastEvent = Date.now(); },
      (e) => { slot.s = `rejected ${shapeOf(e, reason)}`; lastEvent = Date.now(); }));
    return slot;
  };
  const it = c.interrupt;
  let interruptSlot;
  const out = [];

  async function readLoop(readable) {
    let reader = readable.getReader();
    for (;;) {
      if (c.read === 'slow') await macrotask();
      if (it?.at === out.length && interruptSlot === undefined && (it.kind === 'cancel' || it.kind === 'release-reader')) {
        await macrotask(); // the point of interruption must not depend on microtask order
        if (it.kind === 'cancel') interruptSlot = track(reader.cancel(reason));
        else {
          interruptSlot = { s: 'ok' };
          reader.releaseLock();
          reader = readable.getReader();
        }
      }
      let r;
      try {
        r = await reader.read();
      } catch (e) {
        return `rejected ${shapeOf(e, reason)}`;
      } finally {
        lastEvent = Date.now();
      }
      if (r.done) return 'end';
      out.push(r.value);
    }
  }

  // Every tracked promise, including those tracked while waiting.
  async function allSettled() {
    let seen;
    do {
      seen = promises.length;
      await Promise.all(promises);
    } while (promises.length !== seen);
  }

  let readSlot;
  const writeSlots = [];
  let closeSlot;
  let sourceCancel = null;
  if (c.feed === 'pipe') {
    let i = 0;
    const source = new ReadableStream({
      pull(controller) {
        if (it?.kind === 'source-error' && it.at === i && interruptSlot === undefined) {
          interruptSlot = { s: 'ok' };
          controller.error(reason);
        } else if (i < c.chunks.length) controller.enqueue(materialize(c.chunks[i++]));
        else controller.close();
      },
      cancel(r) { sourceCancel = shapeOf(r, reason); },
    });
    readSlot = track(readLoop(source.pipeThrough(codec)).then((s) => { readSlot.end = s; }));
  } else {
    // The writer's script runs on its own: an awaited write that never settles
    // must not keep the case from ending.
    track(writeScript());
  }

  async function writeScript() {
    let writer = codec.writable.getWriter();
    const startReading = () => { readSlot = track(readLoop(codec.readable).then((s) => { readSlot.end = s; })); };
    if (c.read !== 'late' && c.read !== 'after-writes') startReading();
    const interruptsAt = (at) => it?.at === at && interruptSlot === undefined && (it.kind === 'abort' || it.kind === 'release-writer');
    const interruptWriter = async () => {
      await macrotask();
      if (it.kind === 'abort') interruptSlot = track(writer.abort(reason));
      else if (it.kind === 'release-writer') {
        interruptSlot = { s: 'ok' };
        writer.releaseLock();
        writer = codec.writable.getWriter();
      }
    };
    for (const [i, chunk] of c.chunks.entries()) {
      // Awaited only where it interrupts: 'all' writes are issued in one synchronous run.
      if (interruptsAt(i)) await interruptWriter();
      const slot = track(writer.write(materialize(chunk)));
      writeSlots.push(slot);
      if (c.writes === 'each') await promises.at(-1);
    }
    if (interruptsAt(c.chunks.length)) await interruptWriter();
    closeSlot = track(writer.close());
    if (c.read === 'late' || c.read === 'after-writes') startReading();
  }

  // Wait until everything settled, or nothing happened for IDLE_MS.
  await new Promise((resolve) => {
    let timer;
    const check = () => {
      const idle = Date.now() - lastEvent;
      if (idle >= IDLE_MS) resolve();
      else timer = setTimeout(check, IDLE_MS - idle);
    };
    timer = setTimeout(check, IDLE_MS);
    allSettled().then(() => { clearTimeout(timer); resolve(); });
  });
  if (plant === 'corrupt-output') plantCorruption(out);
  Object.assign(rec, {
    writes: writeSlots.map((s) => s.s), close: closeSlot?.s ?? (c.feed === 'pipe' ? null : 'not reached'),
    interrupt: interruptSlot?.s ?? null, sourceCancel,
    read: readSlot === undefined ? 'not started' : readSlot.s === 'pending' ? 'pending' : readSlot.end ?? readSlot.s,
    output: summarize(c.cls, out), zlib: ZLIB_CLASSES.includes(c.cls),
  });
  return rec;
}
