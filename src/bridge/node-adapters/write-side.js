// How Writable.fromWeb / Duplex.fromWeb over one of our streams write to it.
//
// Node calls _write() / _writev() one batch at a time and waits for its
// callback. Node's adapter turns each chunk into writer.write(), a promise,
// and calls back when they settle; what it waits for first differs by
// version, and is kept (`mode`, from ./node-behaviour.js):
//   Node 20-24: it waits for writer.ready, then writes the batch, then calls
//     back a microtask after the writes settled (Node 20/22 with no error
//     for a failed _writev: see `failedBatchCallsBack`);
//   Node 26: it writes the batch at once, whatever the backpressure, and
//     calls back when the last write settles (a failure a microtask later).
// Here each chunk carries a small request object into our writer (the
// controller resolves or rejects it like a write request), so no promise
// is made per chunk.
import { enqueueMicrotask } from '../../promise.js';
import { WritableStreamCloseQueuedOrInFlight } from '../../writable/stream-ops.js';
import { WritableStreamDefaultWriterWriteTracked } from '../../writable/default-writer.js';
import { invalidState } from '../../errors.js';

/** Why our writer would refuse a write now (the spec's checks, in its order), or undefined. */
function refusalOf(stream) {
  const state = stream.state;
  if (state === 'errored') return stream.storedError;
  if (WritableStreamCloseQueuedOrInFlight(stream) || state === 'closed') {
    return invalidState('WritableStream is closed');
  }
  if (state === 'erroring') return stream.storedError;
  return undefined;
}

/** One _write() or _writev() call: its chunks' write requests and Node's callback. */
class Batch {
  constructor(side, callback) {
    this.side = side;
    this.callback = callback;
    this.pending = 0;
    this.dispatching = false;
    this.failed = false;
    this.error = undefined;
    this.done = false;
    this.isVector = false; // a _writev() call
  }

  /** Writes `chunk` into our stream; a refusal counts as a failed write. */
  write(chunk) {
    const writer = this.side.writer;
    this.pending++;
    if (!WritableStreamDefaultWriterWriteTracked(writer, chunk, this)) {
      // The size algorithm ran (as it does before the spec refuses), then the state said no.
      this.reject(refusalOf(writer.stream));
    }
  }

  resolve() {
    this.pending--;
    this.settleIfDone();
  }

  reject(error) {
    this.pending--;
    if (!this.failed) {
      this.failed = true;
      this.error = error;
    }
    // Node 24: the first failure settles the batch (its writes are joined by a Promise.all).
    if (this.side.mode.failFast) this.finish();
    else this.settleIfDone();
  }

  settleIfDone() {
    if (this.pending === 0 && !this.dispatching) this.finish();
  }

  finish() {
    if (this.done) return;
    this.done = true;
    const side = this.side;
    if (this.failed) {
      if (this.isVector && !side.mode.failedBatchCallsBack) return;
      enqueueMicrotask(() => this.callBack(this.error));
    } else if (side.mode.writesAtOnce) {
      this.callBack(undefined);
    } else {
      enqueueMicrotask(() => this.callBack(undefined));
    }
  }

  /**
   * Calls Node's callback. A throw from it (a user's write callback, run by
   * Node inside it) destroys the stream: at once after a _write() on Node
   * 20-24, on the next tick otherwise, as Node's adapter does.
   */
  callBack(error) {
    const side = this.side;
    try {
      this.callback(error);
    } catch (thrown) {
      if (!this.isVector && !side.mode.writesAtOnce) side.destroy(side.getNode(), thrown);
      else process.nextTick(() => side.destroy(side.getNode(), thrown)); // the live one, as Node's adapter
    }
  }
}

export class WriteSide {
  /**
   * @param writer our default writer (internal record), held for good
   * @param getNode returns the Node stream written for (made after this)
   * @param mode Node's adapter behaviour ({ writesAtOnce, failFast, failedBatchCallsBack })
   * @param destroy Node's stream.destroy (destroyer)
   */
  constructor(writer, getNode, mode, destroy) {
    this.writer = writer;
    this.getNode = getNode;
    this.mode = mode;
    this.destroy = destroy;
  }

  /** Node's _write(), after the adapter's own string conversion. */
  write(chunk, callback) {
    const batch = new Batch(this, callback);
    this.start(batch, chunk, undefined);
  }

  /** Node's _writev(): `chunks` is Node's array of { chunk, encoding }. */
  writev(chunks, callback) {
    const batch = new Batch(this, callback);
    batch.isVector = true;
    this.start(batch, undefined, chunks);
  }

  start(batch, chunk, chunks) {
    if (this.mode.writesAtOnce) {
      dispatch(batch, chunk, chunks);
      return;
    }
    // Node 20-24 wait for writer.ready first (a microtask even when it is fulfilled).
    const ready = this.writer.ready;
    ready.onSettled(() => dispatch(batch, chunk, chunks), () => {
      batch.done = true;
      if (batch.isVector && !this.mode.failedBatchCallsBack) return;
      batch.callBack(ready.reason);
    });
  }
}

/** Writes a batch's chunks (`chunks` for a _writev(), else `chunk`), then settles it if all settled at once. */
function dispatch(batch, chunk, chunks) {
  batch.dispatching = true;
  if (chunks === undefined) batch.write(chunk);
  else for (let i = 0; i < chunks.length; i++) batch.write(chunks[i].chunk);
  batch.dispatching = false;
  batch.settleIfDone();
}
