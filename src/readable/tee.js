// ReadableStreamTee and ReadableStreamDefaultTee (spec 4.9.1).
import { Deferred, enqueueMicrotask, promiseResolvedWith, reactToPromise } from '../promise.js';
import { ReadableStreamCancel } from './stream-ops.js';
import {
  CreateReadableStream, ReadableStreamDefaultControllerEnqueue, ReadableStreamDefaultControllerClose,
  ReadableStreamDefaultControllerError,
} from './default-controller.js';
import { AcquireReadableStreamDefaultReader, ReadableStreamDefaultReaderRead } from './default-reader.js';
import { isByteStreamController } from './byte-controller.js';
import { ReadableByteStreamTee } from './byte-tee.js';
import { tiers } from '../tiers.js';

/** ReadableStreamTee: returns two internal stream records. */
export function ReadableStreamTee(stream, cloneForBranch2) {
  if (isByteStreamController(stream.controller)) return ReadableByteStreamTee(stream);
  return ReadableStreamDefaultTee(stream, cloneForBranch2);
}

/** State shared by the two branches of a default tee. */
class DefaultTeeState {
  constructor(stream, reader) {
    this.stream = stream;
    this.reader = reader;
    this.reading = false;
    this.readAgain = false;
    this.canceled1 = false;
    this.canceled2 = false;
    this.reason1 = undefined;
    this.reason2 = undefined;
    this.branch1 = undefined;
    this.branch2 = undefined;
    this.cancelPromise = new Deferred();
  }
}

/** The read request the tee issues against the source stream. */
class TeeReadRequest {
  constructor(tee) {
    this.tee = tee;
  }

  chunkSteps(chunk) {
    // Queued so that a read that errors or closes the stream synchronously
    // after this chunk is seen by the branches in the right order.
    const tee = this.tee;
    enqueueMicrotask(() => {
      tee.readAgain = false;
      // Our own microtask, a clean stack: a pipe reading a branch writes the
      // chunk as soon as the enqueue returns, as the spec's pipe writes inside
      // its chunk steps (feedPump; fuzz seed 18846).
      if (!tee.canceled1) tiers.feedPump(tee.branch1, ReadableStreamDefaultControllerEnqueue, tee.branch1.controller, chunk);
      if (!tee.canceled2) tiers.feedPump(tee.branch2, ReadableStreamDefaultControllerEnqueue, tee.branch2.controller, chunk);
      tee.reading = false;
      if (tee.readAgain) teePull(tee);
    });
  }

  closeSteps() {
    const tee = this.tee;
    tee.reading = false;
    if (!tee.canceled1) ReadableStreamDefaultControllerClose(tee.branch1.controller);
    if (!tee.canceled2) ReadableStreamDefaultControllerClose(tee.branch2.controller);
    if (!tee.canceled1 || !tee.canceled2) tee.cancelPromise.resolve(undefined);
  }

  errorSteps() {
    this.tee.reading = false;
  }
}

function teePull(tee) {
  if (tee.reading) {
    tee.readAgain = true;
    return promiseResolvedWith(undefined);
  }
  tee.reading = true;
  ReadableStreamDefaultReaderRead(tee.reader, new TeeReadRequest(tee));
  return promiseResolvedWith(undefined);
}

function teeCancel(tee) {
  const compositeReason = [tee.reason1, tee.reason2];
  tee.cancelPromise.resolve(ReadableStreamCancel(tee.stream, compositeReason));
}

/** ReadableStreamDefaultTee */
export function ReadableStreamDefaultTee(stream, cloneForBranch2) {
  // cloneForBranch2 is only set by structured-clone transfer, which this implementation does not use.
  void cloneForBranch2;
  const reader = AcquireReadableStreamDefaultReader(stream);
  const tee = new DefaultTeeState(stream, reader);
  const startAlgorithm = () => undefined;
  const pullAlgorithm = () => teePull(tee);
  const cancel1Algorithm = (reason) => {
    tee.canceled1 = true;
    tee.reason1 = reason;
    if (tee.canceled2) teeCancel(tee);
    return tee.cancelPromise.promise;
  };
  const cancel2Algorithm = (reason) => {
    tee.canceled2 = true;
    tee.reason2 = reason;
    if (tee.canceled1) teeCancel(tee);
    return tee.cancelPromise.promise;
  };
  tee.branch1 = CreateReadableStream(startAlgorithm, pullAlgorithm, cancel1Algorithm);
  tee.branch2 = CreateReadableStream(startAlgorithm, pullAlgorithm, cancel2Algorithm);
  reactToPromise(reader.closed.promise, undefined, (r) => {
    ReadableStreamDefaultControllerError(tee.branch1.controller, r);
    ReadableStreamDefaultControllerError(tee.branch2.controller, r);
    if (!tee.canceled1 || !tee.canceled2) tee.cancelPromise.resolve(undefined);
  });
  return [tee.branch1, tee.branch2];
}
