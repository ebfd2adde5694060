// Tier 1: how a pipe moves chunks. The spec leaves this "in parallel"
// (ReadableStreamPipeTo, src/readable/pipe-to.js, keeps the rest: the
// propagation rules, shutdown and finalize). One faithful ordering: while the
// destination's writer is ready, read a chunk and write it; queued chunks go
// in one loop, with no promise per chunk, and each write carries the pump's
// one reusable write request. An idle destination whose sink returns at once
// is written directly (direct-write.js); into a transform, that hands the
// chunk down a fused chain (tier 0, chain.js).
//
// The pump is the one fast-path slot of the stream it reads
// (ReadableStreamImpl.pump); the spec code reaches it only through feedPump()
// and pumpAfterPull(), below.
import { enqueueMicrotask, Deferred, promiseResolvedWith, uponPromise } from '../promise.js';
import { counters, countFallback } from '../metrics/counters.js';
import { sites, countAtSite } from '../metrics/sites.js';
import { ReadableStreamDefaultReaderRead } from '../readable/default-reader.js';
import { ReadableStreamGetNumReadRequests } from '../readable/stream-ops.js';
import {
  WritableStreamDefaultWriterWriteTracked, WritableStreamDefaultWriterCloseWithErrorPropagation,
} from '../writable/default-writer.js';
import { canWriteDirectly, writeDirectly, transformDirectly } from './direct-write.js';
import { armRead, armTransformRead, settleArmedRead } from './armed-read.js';
import { readsAhead, holdsReadBeforeStart, holdRead, WRITE_TURNS_INTO_TRANSFORM } from './read-hold.js';
import { continuesInWriteReaction } from '../node-pace.js';

export class PipePump {
  constructor(pipe) {
    this.pipe = pipe; // the PipeState of pipe-to.js: reader, writer, shuttingDown, finalized
    this.source = pipe.source;
    this.dest = pipe.dest;
    this.readRequest = new PumpReadRequest(this);
    this.writeRequest = new PumpWriteRequest(this);
    this.writesInFlight = 0; // writes issued whose request has not settled yet
    this.writesFinished = undefined; // Deferred, while shutdown waits for them
    this.pendingChunk = undefined; // read but not yet written
    this.hasPendingChunk = false;
    this.reading = false; // inside pumpChunks' own read: a chunk can be written at once
    // Why the pump's writes now take the writer and stay in flight, as
    // natively (the fallback reason), or undefined: 'inside-pipe-to' while
    // pipeTo() runs the first pumpChunks, 'source-ended' once the source closed
    // or errored with a chunk read but not yet written (see writePendingChunk),
    // 'source-producing' for one write (see writeWithProducerCheck).
    this.writesStayInFlight = undefined;
    // Our own reaction is running the source's pull() (or a bridge's
    // enqueue): a chunk that arrives now is written when it returns.
    this.feeding = false;
    // This pump is running its destination transform's transform() or
    // flush() directly: the pump reading that transform's output runs next.
    this.handingOff = false;
    this.stepRequested = false; // a chunk arrived while feeding or handing off
    // The chunk that arrived while feeding is written when its producer
    // returns, but the pipe's next step was queued when it arrived (see
    // PumpReadRequest.chunkSteps).
    this.nextStepQueued = false;
    // The pending read went out early (readsAhead()) while the source's pull()
    // was in progress with another pull already asked for (pullAgain), so its
    // request for a pull merged into that one. Native reads when its write
    // finishes, after that pull has settled, and asks again. If the pull
    // that follows enqueues nothing, the read would wait forever where
    // native's would pull again: pumpAfterPull() asks for that pull when the
    // pull settles. A read that is not early, or meets no pull asked for,
    // merges or asks exactly as native's does (fuzz seeds 721, 2346, 3137).
    // Native's read comes after that pull settled only when the pull
    // returned at once (undefined or a settled promise): the same pull still
    // in progress two microtasks after the early read meets native's read
    // too, and it merges there as well (checkPullSettled; fuzz seeds 2146,
    // 3124). Two, not one: ours reacts to a promise pull() returned through
    // WebIDL's conversion (a new promise resolved with it), one or two
    // microtasks after native, which uses the promise as it is (2277, 3005).
    // The same pull: the pull that follows may have enqueued and set
    // pullAgain again by then (pullCount tells them apart).
    this.readDuringPull = false;
    // The pullCount of the source's pull in progress whose pullAgain this
    // pump's early read set (0: none). Native's read comes after the write
    // that finished at once here, so a chunk that pull's promise enqueues
    // meanwhile is queued natively and asks for no further pull; here it
    // fulfils the early read, and the pull asked for then is withdrawn
    // (withdrawEarlyPull; fuzz seeds 50477, 50653).
    this.pullAskedEarly = 0;
    // The read of a transform's output is pending in the pump only (armed-read.js).
    this.armed = false;
    // A clean hop: most of what a fused chain's hop checks per chunk
    // changes only when something other than the hop runs, so it is checked
    // once and then kept known. destClean: the last write was direct and
    // finished at once, and this pump wrote nothing since. Only its own
    // writes and close change the destination's backpressure, queue and
    // requests (it holds the only writer), and whatever else ends the
    // stream's writable state shows in `state`, still checked per chunk.
    // sourceClean: the pump armed its read through every check of
    // armTransformRead, and nothing else reached the source's records since:
    // cleared by an enqueue that finds no read armed (a second one, or one
    // into the spec's read), the source ending, settleArmedRead, and every
    // pumpLoop (which arms again only through those checks). With both, the
    // step after a hand-off arms the next read at once (rearmClean).
    this.destClean = false;
    this.sourceClean = false;
    // The next read waits for the source's pull() in progress to settle: see
    // pumpLoop and readAfterPullSettled (producer-hooks.js).
    this.readAfterPull = false;
    // A direct write into a transform just handed a chunk to a reader's read
    // of its output: the next read waits for native's turn (WRITE_TURNS_INTO_TRANSFORM).
    this.readerServed = false;
    this.heldForReader = false; // holding the read for that reader (holdRead), until it goes out
    // The pending chunk's write is queued (it arrived in an enqueue() from
    // outside the pipe: PumpReadRequest.chunkSteps), and a shutdown counts it
    // in writesInFlight until that step writes it (flushPendingChunk).
    this.writeQueued = false;
    this.writeOwed = false;
    // The pending chunk waits for its destination transform's cancel to settle (holdUntilFinished).
    this.heldForFinish = false;
    // The pump waits for its one write in flight, not for the writer's ready promise (pumpLoop).
    this.waitingOnWrite = false;
    // Through a local, never `this.step = () => ...`: see docs/architecture.md, "Closures kept in fields".
    const step = () => {
      this.nextStepQueued = false; // stale if the producer threw before stepIfRequested()
      this.writeQueued = false;
      if (this.writeOwed) {
        writeOwedChunk(this);
        return;
      }
      if (this.pipe.finalized) {
        // The chunk arrived after a shutdown that did not wait for writes
        // (the destination could take none: errored, erroring or closing).
        // The spec's chunk steps would write it there and ignore the
        // rejection; the writer is released by now (fuzz seed 87675).
        dropPendingChunk(this);
        return;
      }
      const wrote = this.source.transform === undefined ? writePendingChunk(this) : writeWithTransformCheck(this);
      if (wrote && !this.source.controller.started && holdsReadBeforeStart(this)) return;
      pumpChunks(this);
    };
    this.step = step;
    // A read held back (holdRead) goes out after turnsHeld microtasks, through
    // heldStep (made at the first hold: most pipes never hold a read).
    this.turnsHeld = 0;
    this.heldStep = undefined;
    this.checksQueued = 0; // checkPullSettled calls queued; only the last early read's counts
    this.lastReadChecked = false; // whether the last early read queued a check (its pull returned a promise)
    this.pullAtRead = 0; // the source controller's pullCount when the last early read went out
    const checkPullSettled = () => {
      if (--this.checksQueued !== 0 || !this.lastReadChecked || !this.readDuringPull) return;
      const controller = this.source.controller;
      if (controller.pulling && controller.pullCount === this.pullAtRead) this.readDuringPull = false;
    };
    const checkPullSettledLater = () => enqueueMicrotask(checkPullSettled);
    this.checkPullSettledLater = checkPullSettledLater;
  }

  // What pipe-to.js drives its pump with (src/readable/pipe-loop.js has the same).

  /** Links the pump to the streams it reads and writes, and to the chain they form (src/fast/chain.js). */
  link() {
    this.source.pump = this;
    const fed = this.dest.transform;
    if (fed !== undefined) fed.fused = this;
    const drained = this.source.transform;
    if (drained !== undefined && drained.fused !== undefined) {
      counters.fusedStreams++;
      if (fed === undefined) counters.fusedChains++; // the chain is resolved at its sink
    }
  }

  /** The first reads, inside pipeTo(): their writes take the writer (pumpChunks). */
  start() {
    pumpChunks(this, true);
  }

  flushPendingChunk() {
    flushPendingChunk(this);
  }

  dropPendingChunk() {
    dropPendingChunk(this);
  }

  waitForWritesToFinish() {
    return waitForWritesToFinish(this);
  }

  closeDestination() {
    return closeDestination(this);
  }

  /** Reads and writes while it can (pumpLoop): for a read held back, or held until a pull settled. */
  readOn() {
    pumpLoop(this);
  }

  /** Undoes link() when the pipe finalizes. */
  finalize() {
    if (this.armed) settleArmedRead(this.source.transform); // the reader's release errors the pending read
    if (this.source.pump === this) this.source.pump = undefined;
    const fed = this.dest.transform;
    if (fed !== undefined && fed.fused === this) fed.fused = undefined;
  }

  /** Runs the step a chunk handed over while its producer ran asked for (stepRequested). */
  stepIfRequested() {
    if (!this.stepRequested) return;
    this.stepRequested = false;
    if (!this.nextStepQueued) {
      // What this.step() does, without the closure and pumpChunks between (a fused chain runs this once per hop).
      const source = this.source;
      if (source.transform === undefined && source.controller.pullReturnedPromise) writeWithProducerCheck(this);
      else writePendingChunk(this);
      if (!rearmClean(this)) pumpLoop(this);
      return;
    }
    this.nextStepQueued = false;
    writePendingChunk(this);
  }
}

/**
 * Reads and writes while the destination is ready and chunks are queued,
 * then waits: for the writer's ready promise, or for the read request to be
 * fulfilled by the producer.
 */
function pumpChunks(pump, insidePipeTo = false) {
  if (!insidePipeTo) {
    pumpLoop(pump);
    return;
  }
  pump.writesStayInFlight = 'inside-pipe-to';
  pumpLoop(pump);
  pump.writesStayInFlight = undefined;
}

/**
 * A clean hop's next read (see PipePump.destClean): what pumpLoop does when
 * the destination is still ready and the source's records are as when the
 * pump last armed, without checking again what cannot have changed.
 */
function rearmClean(pump) {
  // readerServed: that write handed a reader its chunk, and the read waits (pumpLoop).
  if (!pump.sourceClean || !pump.destClean || pump.readerServed || pump.armed || pump.hasPendingChunk ||
      pump.pipe.shuttingDown || pump.dest.state !== 'writable') {
    return false;
  }
  armRead(pump);
  pump.readDuringPull = false;
  return true;
}

function pumpLoop(pump) {
  const pipe = pump.pipe;
  const dest = pump.dest;
  pump.sourceClean = false; // until armTransformRead arms
  for (;;) {
    if (pipe.shuttingDown || pump.heldForFinish) return;
    if (pump.readerServed) {
      pump.readerServed = false;
      pump.heldForReader = true;
      holdRead(pump, WRITE_TURNS_INTO_TRANSFORM);
      return;
    }
    if (dest.backpressure) {
      // Backpressure: read the next chunk only once the destination is ready.
      if (continuesInWriteReaction && dest.controller.queue.length === 1 && waitsOnOwnWrite(pump, dest)) {
        pump.waitingOnWrite = true; // the pump's one write in flight: see PumpWriteRequest.afterReaction
      } else {
        pipe.writer.ready.onFulfilled(pump.step);
      }
      return;
    }
    if (dest.state !== 'writable') {
      // Erroring (or errored, closed) but not yet seen by the watchers: the
      // read goes out as natively, and what it gets is written to a stream
      // that refuses it; the shutdown then cancels the source. A queued
      // chunk is written at once, as natively: its size() runs before an
      // abort in progress clears the strategy (fuzz seed 2798). The next
      // read still waits a microtask.
      if (pump.armed) settleArmedRead(pump.source.transform);
      pump.reading = true;
      ReadableStreamDefaultReaderRead(pipe.reader, pump.readRequest);
      pump.reading = false;
      if (writePendingChunk(pump)) enqueueMicrotask(pump.step);
      return;
    }
    // pullAgain is set only while a pull is in progress.
    const controller = pump.source.controller;
    const merges = controller.pullAgain;
    if (merges && !controller.pullReturnedPromise && !controller.hasBufferedChunk() && readsAhead(dest)) {
      // Nothing queued, and a pull that returned at once is in progress and
      // will pull again in its reaction, a microtask from now. Native's read
      // (a read request, with nothing queued) comes after that
      // (its write is still in flight), so the chunk that pull enqueues is
      // queued (size() runs) rather than handed to a read request: read
      // then, from the pull's reaction (fuzz seed 7612).
      pump.readAfterPull = true;
      return;
    }
    const pulls = controller.pullCount;
    if (pump.armed) settleArmedRead(pump.source.transform); // a second read: the first one is the spec's again
    const upstream = pump.source.transform;
    if (upstream === undefined || !armTransformRead(pump)) readFromSource(pump);
    if (!pump.hasPendingChunk) {
      // The read request waits for the producer: see readDuringPull.
      if (merges && readsAhead(dest)) {
        pump.readDuringPull = true;
        // Runs after the reaction to a pull that returned at once, before
        // the one to a promise that settles later: see readDuringPull. The
        // read goes out after the pull returned, so a pull that returned at
        // once has its reaction queued already and the check would find it
        // settled: no check then (one microtask per chunk saved).
        pump.lastReadChecked = controller.pullReturnedPromise;
        if (pump.lastReadChecked) {
          pump.checksQueued++;
          pump.pullAtRead = controller.pullCount;
          enqueueMicrotask(pump.checkPullSettledLater);
        }
      } else {
        pump.readDuringPull = false;
        if (controller.pullAgain && controller.pullReturnedPromise && upstream === undefined &&
          readsAhead(dest)) pump.pullAskedEarly = controller.pullCount;
      }
      return;
    }
    counters.syncPipeChunks++;
    if (controller.pullCount !== pulls) writeWithProducerCheck(pump); // the read started a pull
    else if (upstream === undefined) writePendingChunk(pump);
    else writeWithTransformCheck(pump); // a queued chunk of a transform's output (not a fused hop's: armed)
    if (!controller.started && holdsReadBeforeStart(pump)) return;
  }
}

/** Is the one write the destination holds the pump's (in flight, or queued until its sink has started)? */
function waitsOnOwnWrite(pump, dest) {
  const request = dest.inFlightWriteRequest;
  if (request !== undefined) return request === pump.writeRequest;
  return dest.writeRequests.length === 1 && dest.writeRequests.peek() === pump.writeRequest;
}

/**
 * The pump's read: ReadableStreamDefaultReaderRead with the pump's read
 * request. With a chunk queued, [[PullSteps]] answers it at once from the
 * first branch, which the pump takes itself (dequeueBufferedChunk, then the
 * request's chunk steps): the same steps in the same order, without the
 * calls through the controller and the request that every kind of reader
 * shares.
 */
function readFromSource(pump) {
  const source = pump.source;
  pump.reading = true;
  if (source.state === 'readable' && source.controller.hasBufferedChunk()) {
    source.disturbed = true;
    takeReadChunk(pump, source.controller.dequeueBufferedChunk());
  } else {
    ReadableStreamDefaultReaderRead(pump.pipe.reader, pump.readRequest);
  }
  pump.reading = false;
}

/** The chunk steps of the pump's read request, inside its own read (PumpReadRequest.chunkSteps). */
function takeReadChunk(pump, chunk) {
  pump.readDuringPull = false;
  if (pump.pullAskedEarly !== 0) withdrawEarlyPull(pump);
  pump.pendingChunk = chunk;
  pump.hasPendingChunk = true;
}

/** How many read requests of a reader wait on the output of a transform no pump reads. */
function readsWaitingOnOutput(transform) {
  const readable = transform.readable;
  return readable.reader === undefined ? 0 : ReadableStreamGetNumReadRequests(readable);
}

/** Writes the chunk read but not yet written, if any; returns whether there was one. */
export function writePendingChunk(pump) {
  if (!pump.hasPendingChunk) return false;
  const finishing = pump.dest.transform?.controller.finishPromise;
  if (finishing !== undefined && holdUntilFinished(pump, finishing)) return true;
  const chunk = pump.pendingChunk;
  pump.pendingChunk = undefined;
  pump.hasPendingChunk = false;
  const dest = pump.dest;
  // A write issued inside pipeTo() stays in flight, as natively, until a
  // microtask after the sink returns: code after pipeTo() runs before the
  // next queued chunk's write() or transform() (fuzz seed 19385). So does the
  // last chunk of a source that ended after it was read: the shutdown waits
  // for that write, and closes or aborts the destination in native's turn.
  const stayInFlight = pump.writesStayInFlight;
  if (stayInFlight !== undefined || !(pump.destClean ? dest.state === 'writable' : canWriteDirectly(dest))) {
    writeThroughWriter(pump, chunk);
    return true;
  }
  pump.writesInFlight++;
  const transform = dest.transform;
  if (transform === undefined) {
    counters.syncWrites++;
    pump.destClean = writeDirectly(dest, chunk, pump.writeRequest);
    return true;
  }
  counters.fusedChunks++;
  const outputPump = transform.readable.pump;
  if (outputPump === undefined) {
    writeForReader(pump, dest, transform, chunk);
    return true;
  }
  // A fused hop: the pump reading the output runs as soon as the write returns.
  pump.handingOff = true;
  pump.destClean = outputPump.armed
    ? transformDirectly(dest, transform, chunk, pump.writeRequest)
    : writeDirectly(dest, chunk, pump.writeRequest);
  pump.handingOff = false;
  // runOutputPump(transform): still the same pump, as its pipe holds the
  // output's reader until it finalizes, and a pipe finalizes in a reaction.
  if (nestedHops >= MAX_NESTED_HOPS) {
    deferHop(outputPump);
  } else {
    nestedHops++;
    try {
      if (outputPump.dest.transform === undefined) stepIntoSink(outputPump);
      else outputPump.stepIfRequested();
    } finally {
      nestedHops--;
    }
  }
  // Its chunk went on to a pump now holding for a reader.
  if (outputPump.heldForReader && readsAhead(dest)) pump.readerServed = true;
  return true;
}

/**
 * Fused hops running inside one another on this stack. Each hop of a fused
 * chain runs the next one before it returns, so the stack grows with the
 * chain: past MAX_NESTED_HOPS (a chain of thousands of pipeThrough stages
 * would overflow it, where Node's, a microtask per hop, does not) the next
 * hop goes a microtask later, as the spec path's does (deferHop), and the
 * chain runs on from a fresh stack.
 */
let nestedHops = 0;
const MAX_NESTED_HOPS = 256;

/** The hop `pump` was handed (stepRequested) runs a microtask later, as when its chunk came from outside the pipe. */
function deferHop(pump) {
  if (!pump.stepRequested) return;
  if (pump.nextStepQueued) {
    pump.stepIfRequested(); // its step is queued already: only the write is owed now
    return;
  }
  pump.stepRequested = false;
  const source = pump.source;
  countFallback('deep-chain', source);
  counters.specPipeChunks++;
  pump.writeQueued = true;
  enqueueMicrotask(pump.step);
}

/**
 * The destination is a transform whose cancel (or abort) is under way: its
 * algorithms are cleared, and its writable side errors when the cancel's
 * promise settles. A fused chain carries a chunk there within the microtask
 * the cancel began in, where Node's pipes, a microtask per hop, bring it only
 * after the writable side errored: then the pipe cancels its source with the
 * cancel's reason, which so crosses the chain intact. So the chunk waits, read
 * but not written, until the cancel has settled (`finishing`, the
 * controller's finishPromise), and the pipe reads no further meanwhile
 * (pumpLoop). Not in a shutdown, which writes what was read at once, nor
 * into a writable side with a size(), which the write calls natively.
 */
function holdUntilFinished(pump, finishing) {
  // A size() of the writable side would be called by the write natively (user code: it must run).
  const dest = pump.dest;
  if (pump.pipe.shuttingDown || dest.state !== 'writable' || dest.controller.strategySizeAlgorithm !== undefined) return false;
  if (!pump.heldForFinish) {
    pump.heldForFinish = true;
    const resume = () => {
      pump.heldForFinish = false;
      pump.step();
    };
    uponPromise(finishing.promise, resume, resume);
  }
  return true;
}

/**
 * stepIfRequested for a fused chain's last hop, into a sink, called by the
 * hop before it: a call site of its own, so that V8's feedback for it sees
 * a write into a sink only, where stepIfRequested's and writePendingChunk's
 * see both roles (bench/results/lab-notes-benchmarks.md, "V8's inlining budget"). Anything
 * but a clean direct write goes through stepIfRequested.
 */
function stepIntoSink(pump) {
  const dest = pump.dest;
  if (!pump.stepRequested || pump.nextStepQueued || !pump.hasPendingChunk || pump.writesStayInFlight !== undefined ||
      !pump.destClean || dest.state !== 'writable') {
    pump.stepIfRequested();
    return;
  }
  pump.stepRequested = false;
  const chunk = pump.pendingChunk;
  pump.pendingChunk = undefined;
  pump.hasPendingChunk = false;
  pump.writesInFlight++;
  counters.syncWrites++;
  pump.destClean = writeDirectly(dest, chunk, pump.writeRequest);
  if (!rearmClean(pump)) pumpLoop(pump);
}

/** writePendingChunk's write as the spec's pipe writes: through the writer, in flight until the sink settles. */
function writeThroughWriter(pump, chunk) {
  const dest = pump.dest;
  const stayInFlight = pump.writesStayInFlight;
  pump.destClean = false;
  // dest-not-idle: backpressure, a write in flight, or a size() (its own or its transform's output's)
  const reason = stayInFlight === undefined ? 'dest-not-idle' : stayInFlight;
  countFallback(reason, dest);
  counters.specWrites++;
  if (sites.on) countAtSite(dest, 'specWrites');
  if (WritableStreamDefaultWriterWriteTracked(pump.pipe.writer, chunk, pump.writeRequest)) pump.writesInFlight++;
}

/** writePendingChunk's direct write into a transform whose output no pump reads (a reader's read may wait on it). */
function writeForReader(pump, dest, transform, chunk) {
  const waiting = readsWaitingOnOutput(transform);
  pump.handingOff = true;
  pump.destClean = writeDirectly(dest, chunk, pump.writeRequest);
  pump.handingOff = false;
  runOutputPump(transform); // a pump may have started reading the output inside the write
  // The write served a reader's read.
  if (waiting !== 0 && readsWaitingOnOutput(transform) < waiting && readsAhead(dest)) pump.readerServed = true;
}

/**
 * Writes the pending chunk, through the writer and left in flight as
 * natively when a producer of the source may run before native's next read
 * (sourceProducesSoon). Called after a read that started a pull (pumpLoop),
 * and for the chunk a pull() handed to the pump's read as it ran when that
 * pull returned a promise (stepIfRequested, a source that is not a
 * transform's output): with chunks still queued behind it, a rejection of
 * that promise errors the source before the pipe reads the next one (fuzz
 * seed 22572: a pull() that enqueues two chunks and throws).
 */
function writeWithProducerCheck(pump) {
  if (pump.writesStayInFlight !== undefined || !sourceProducesSoon(pump)) {
    writePendingChunk(pump);
    return;
  }
  writeStayingInFlight(pump);
}

/**
 * Writes the pending chunk read from a transform's output, through the
 * writer and left in flight as natively when that transform's transform()
 * returned a promise that has not settled (transformPending) and chunks are
 * queued behind this one: the reaction to that promise runs before native's
 * next read, and a rejection errors the transform and clears them (fuzz
 * seed 46416: a transform() that enqueues twice and returns a rejected
 * promise). Called from the pipe's own step (a microtask) and for a queued
 * chunk read in pumpLoop; a fused hop's chunk goes through neither (its
 * read is armed, stepIfRequested writes it), and a queue that is empty
 * after the read costs one comparison more.
 */
function writeWithTransformCheck(pump) {
  const source = pump.source;
  if (source.controller.queue.length === 0 || !source.transform.controller.transformPending ||
      pump.writesStayInFlight !== undefined || pump.dest.controller.strategyHWM > 1 || !canWriteDirectly(pump.dest)) {
    return writePendingChunk(pump);
  }
  return writeStayingInFlight(pump);
}

/** Writes the pending chunk through the writer, left in flight for a producer of the source (see above). */
function writeStayingInFlight(pump) {
  pump.writesStayInFlight = 'source-producing';
  const wrote = writePendingChunk(pump);
  if (pump.writesStayInFlight === 'source-producing') pump.writesStayInFlight = undefined;
  return wrote;
}

/**
 * Called when the pump's read of a queued chunk started a pull of its
 * source: can a producer of the source run in the microtasks that the
 * chunk's write into an idle destination with high-water mark 1 stays in
 * flight natively, before the pipe's next read? A direct write finishes at
 * once and the next read goes out at once, so what that producer hands over
 * would meet the read rather than the queue (no size(), another desiredSize),
 * and a chunk an error would clear from the queue would already be read.
 * Two producers are known to run there, and only they make the write take
 * the writer (a fuzz seed each):
 * - the transform() of a write into the transform whose output the source
 *   is, waiting on the backpressure that pull lowered, or queued behind the
 *   write in flight (11495);
 * - the reaction to that pull when it returned a promise and chunks are
 *   still queued: a promise already rejected errors the stream and clears
 *   them (1422). A pull in progress from before is left out: a source whose
 *   async pull() enqueues several chunks would write most of them through
 *   the writer, a third slower.
 * Checked only there and for a chunk such a pull() handed over as it ran
 * (writeWithProducerCheck): the pipe's hot loop pays one comparison per chunk.
 */
function sourceProducesSoon(pump) {
  const dest = pump.dest;
  if (dest.controller.strategyHWM > 1 || !canWriteDirectly(dest)) return false;
  const source = pump.source;
  const transform = source.transform;
  if (transform !== undefined) {
    const ws = transform.writable;
    return !transform.backpressure && (ws.inFlightWriteRequest !== undefined || ws.writeRequests.length !== 0);
  }
  const controller = source.controller;
  return controller.pulling && controller.pullReturnedPromise && controller.hasBufferedChunk();
}

/**
 * Hook for ReadableStreamClose and ReadableStreamError on the stream a pump
 * reads. A chunk that arrived in the producer's enqueue() is written a
 * microtask later (or when the producer returns); if the producer then
 * closes or errors the stream, the shutdown comes right after that write.
 * Natively the write is still in flight then and the shutdown waits for it;
 * a direct write would have finished, and the destination would be closed or
 * aborted a microtask early. So that write takes the writer. Not when our own
 * read took the last queued chunk of a closing stream: the write follows at
 * once, as natively.
 */
export function pumpSourceEnded(pump) {
  pump.sourceClean = false;
  if (pump.armed) settleArmedRead(pump.source.transform); // before the requests are closed or errored
  if (pump.hasPendingChunk && !pump.reading) pump.writesStayInFlight = 'source-ended';
}

/**
 * Writes the chunk read but not yet written, as a pipe's shutdown does
 * first. When that chunk arrived in an enqueue() from outside the pipe, its
 * write is queued already (a microtask after the enqueue): it stays there,
 * so that writes other pipes queued before it still come first (natively
 * each was written inside its enqueue(); fuzz seed 53672: an abort's
 * shutdown wrote its chunk ahead of another pipe's), and the shutdown counts
 * it as in flight until it is written.
 */
function flushPendingChunk(pump) {
  if (pump.writeQueued && pump.hasPendingChunk) {
    if (!pump.writeOwed) {
      pump.writeOwed = true;
      pump.writesInFlight++;
    }
    return;
  }
  writePendingChunk(pump);
}

/** The queued write a shutdown waits for (flushPendingChunk): write the chunk, then release the count. */
function writeOwedChunk(pump) {
  pump.writeOwed = false;
  writePendingChunk(pump);
  writeSettled(pump);
}

/** Drops the chunk read but not yet written (the destination can no longer take it). */
function dropPendingChunk(pump) {
  pump.pendingChunk = undefined;
  pump.hasPendingChunk = false;
}

/** Waits until every chunk that has been read has been written. */
function waitForWritesToFinish(pump) {
  if (pump.writesInFlight === 0) return promiseResolvedWith(undefined);
  pump.writesFinished = new Deferred();
  return pump.writesFinished.promise;
}

/**
 * The close action of a pipe whose source closed. Into a transform, flush()
 * runs inside it; what flush() enqueues passes on down the chain at once, as
 * transform()'s output does (tier 0).
 */
function closeDestination(pump) {
  pump.destClean = false;
  const writer = pump.pipe.writer;
  const transform = pump.dest.transform;
  if (transform === undefined) return WritableStreamDefaultWriterCloseWithErrorPropagation(writer);
  pump.handingOff = true;
  const result = WritableStreamDefaultWriterCloseWithErrorPropagation(writer);
  pump.handingOff = false;
  runOutputPump(transform);
  return result;
}

/** Runs the pump reading `transform`'s output if transform() or flush() just handed it a chunk. */
export function runOutputPump(transform) {
  const next = transform.readable.pump;
  if (next === undefined) return;
  if (nestedHops >= MAX_NESTED_HOPS) {
    deferHop(next);
    return;
  }
  nestedHops++;
  try {
    next.stepIfRequested();
  } finally {
    nestedHops--;
  }
}

/**
 * The early read that set the source's pullAgain (pullAskedEarly) is
 * fulfilled by the same pull's producer: natively that chunk would be queued
 * before any read, and the enqueue alone decides whether to pull again (its
 * own CallPullIfNeeded follows this).
 */
function withdrawEarlyPull(pump) {
  const controller = pump.source.controller;
  if (controller.pulling && controller.pullCount === pump.pullAskedEarly) controller.pullAgain = false;
  pump.pullAskedEarly = 0;
}

/**
 * The write request of every chunk the pump writes. Write requests settle in
 * order, so counting is enough to know when all the pump's writes are done.
 */
class PumpWriteRequest {
  constructor(pump) {
    this.pump = pump;
  }

  resolve() {
    writeSettled(this.pump);
  }

  reject() {
    writeSettled(this.pump);
  }

  /**
   * Called by the destination's controller once its reaction to the sink's
   * write is over (the queue dequeued, backpressure lowered). Node 24+'s pipe
   * goes on from its write request there, in the same microtask: it reads the
   * next chunk and writes it then, a microtask after the sink's promise
   * settled, where waiting for the writer's ready promise takes one more. So
   * does the pump, when that one write was all it waited for (waitingOnWrite).
   */
  afterReaction() {
    const pump = this.pump;
    if (!pump.waitingOnWrite) return;
    pump.waitingOnWrite = false;
    pump.step();
  }
}

function writeSettled(pump) {
  if (--pump.writesInFlight === 0 && pump.writesFinished !== undefined) pump.writesFinished.resolve(undefined);
}

/** The read request the pump issues for each chunk. */
class PumpReadRequest {
  constructor(pump) {
    this.pump = pump;
  }

  chunkSteps(chunk) {
    const pump = this.pump;
    takeReadChunk(pump, chunk);
    // Inside pumpChunks' own read the chunk came from the queue: pumpChunks
    // writes it. Otherwise it arrived inside the producer's enqueue(), where
    // the sink must not run: the write happens in a microtask, and until then
    // the chunk is "read but not yet written", which shutdown flushes first.
    if (pump.reading) return;
    if (pump.feeding) {
      counters.syncPipeChunks++;
      pump.stepRequested = true; // feedPump runs this pump when the producer returns
      // Into an erroring destination the next read is not at once: the spec's
      // pipe reads on in its next step, which it queues inside the chunk
      // steps, ahead of the reaction to the producer's pull (fuzz seed 8148;
      // queued only after the pull returned, it read during the next pull: 2259).
      if (pump.dest.state === 'erroring') {
        pump.nextStepQueued = true;
        enqueueMicrotask(pump.step);
      }
      return;
    }
    const upstream = pump.source.transform;
    if (upstream !== undefined) {
      const feeder = upstream.fused;
      if (feeder !== undefined && feeder.handingOff) {
        pump.stepRequested = true; // tier 0: the upstream pump runs this one next
        return;
      }
    }
    counters.specPipeChunks++;
    if (sites.on) countAtSite(pump.source, 'specPipeChunks');
    pump.writeQueued = true;
    enqueueMicrotask(pump.step);
  }

  closeSteps() {} // the source-closed watcher handles it

  errorSteps() {} // the source-errored watcher handles it
}
