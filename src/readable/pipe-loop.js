// The "in parallel" part of ReadableStreamPipeTo (spec 4.9.1), no shortcut
// taken: while the writer is ready, read a chunk and write it; wait for the
// writer's ready promise otherwise. Where the spec leaves the order open, or a
// program can tell Node's pipes from the spec's text, it takes Node's (a chunk
// from a producer written a microtask later, one read more into a destination
// that errored, a shutdown that leaves a queued write to its turn). Pipes move their
// chunks so when the fast paths are not plugged in
// (FAST_WEBSTREAMS_FAST_PATHS=0, src/tiers.js); src/fast/pipe-pump.js is the
// pump that takes its place otherwise. pipe-to.js drives either through the
// same methods: start, flushPendingChunk, dropPendingChunk,
// waitForWritesToFinish, closeDestination, finalize.
import { enqueueMicrotask, Deferred, promiseResolvedWith } from '../promise.js';
import { counters } from '../metrics/counters.js';
import { ReadableStreamDefaultReaderRead } from './default-reader.js';
import {
  WritableStreamDefaultWriterWriteTracked, WritableStreamDefaultWriterCloseWithErrorPropagation,
} from '../writable/default-writer.js';

export class PipeLoop {
  constructor(pipe) {
    this.pipe = pipe;
    // A chunk read but not yet written: it arrived inside the producer's
    // enqueue(), where the sink does not run (natively neither); its write
    // is queued.
    this.chunk = undefined;
    this.hasChunk = false;
    this.writeIsQueued = false; // the chunk's write waits for its microtask
    // A shutdown came while that write waited: it counts the write as in
    // flight and leaves it to its microtask, so that writes other pipes
    // queued before it still come first, as natively.
    this.writeOwed = false;
    this.readPending = false; // a read request waits on the source
    this.inOwnRead = false; // inside the loop's own call to read
    this.writesInFlight = 0;
    this.writesFinished = undefined; // Deferred, while a shutdown waits for the writes
    this.readRequest = new LoopReadRequest(this);
    this.writeRequest = new LoopWriteRequest(this);
    // Through locals: see docs/architecture.md, "Closures kept in fields".
    const step = () => runLoop(this);
    this.step = step;
    const writeQueued = () => {
      this.writeIsQueued = false;
      writeReadChunk(this);
      if (this.writeOwed) {
        this.writeOwed = false;
        writeSettled(this);
        return;
      }
      runLoop(this);
    };
    this.writeQueued = writeQueued;
  }

  /** The pipe's first reads, inside pipeTo(). */
  start() {
    runLoop(this);
  }

  /** Shutdown's "if any chunks have been read but not yet written, write them to dest". */
  flushPendingChunk() {
    if (!this.writeIsQueued) {
      writeReadChunk(this);
    } else if (!this.writeOwed) {
      this.writeOwed = true;
      this.writesInFlight++;
    }
  }

  /** The destination can no longer take the chunk read. */
  dropPendingChunk() {
    this.chunk = undefined;
    this.hasChunk = false;
  }

  /** "Wait until every chunk that has been read has been written." */
  waitForWritesToFinish() {
    if (this.writesInFlight === 0) return promiseResolvedWith(undefined);
    this.writesFinished = new Deferred();
    return this.writesFinished.promise;
  }

  /** The close action of a pipe whose source closed. */
  closeDestination() {
    return WritableStreamDefaultWriterCloseWithErrorPropagation(this.pipe.writer);
  }

  /** The pipe released its reader and writer: nothing of the loop's to undo. */
  finalize() {}
}

/** Reads and writes while the destination wants chunks and the source has them at once. */
function runLoop(loop) {
  const pipe = loop.pipe;
  const dest = pipe.dest;
  while (!pipe.shuttingDown && !loop.readPending && !loop.hasChunk) {
    // A source closed or errored: nothing more to read; the watchers shut the pipe down.
    if (pipe.source.state !== 'readable') return;
    if (dest.backpressure) {
      pipe.writer.ready.onFulfilled(loop.step);
      return;
    }
    loop.readPending = true;
    loop.inOwnRead = true;
    ReadableStreamDefaultReaderRead(pipe.reader, loop.readRequest);
    loop.inOwnRead = false;
    if (loop.readPending) return; // the producer will answer it
    writeReadChunk(loop);
    // The spec reads nothing while the writer's desired size is null or 0
    // (a destination erroring, errored or closed). Node's pipes read on until
    // their watcher sees it, and the destination refuses what was read: so
    // does this loop, once, which is what a program can tell (a pull()).
    if (dest.state !== 'writable') return;
  }
}

function writeReadChunk(loop) {
  if (!loop.hasChunk) return;
  const chunk = loop.chunk;
  loop.chunk = undefined;
  loop.hasChunk = false;
  counters.specPipeChunks++;
  counters.specWrites++;
  if (WritableStreamDefaultWriterWriteTracked(loop.pipe.writer, chunk, loop.writeRequest)) loop.writesInFlight++;
}

class LoopReadRequest {
  constructor(loop) {
    this.loop = loop;
  }

  chunkSteps(chunk) {
    const loop = this.loop;
    loop.readPending = false;
    loop.chunk = chunk;
    loop.hasChunk = true;
    if (loop.inOwnRead) return;
    loop.writeIsQueued = true;
    enqueueMicrotask(loop.writeQueued);
  }

  closeSteps() {
    this.loop.readPending = false; // the source-closed watcher shuts the pipe down
  }

  errorSteps() {
    this.loop.readPending = false; // the source-errored watcher shuts the pipe down
  }
}

/** The write request of every chunk the loop writes; they settle in order, so a count is enough. */
class LoopWriteRequest {
  constructor(loop) {
    this.loop = loop;
  }

  resolve() {
    writeSettled(this.loop);
  }

  reject() {
    writeSettled(this.loop);
  }
}

function writeSettled(loop) {
  if (--loop.writesInFlight === 0 && loop.writesFinished !== undefined) loop.writesFinished.resolve(undefined);
}
