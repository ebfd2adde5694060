// ReadableByteStreamTee (spec 4.9.1): tees a readable byte stream into two byte
// streams, reading with a default reader when a branch has no BYOB request and
// with a BYOB reader (into the branch's request view) when it has one.
import { ArrayBufferCtor, Uint8ArrayCtor, typedArrayByteLength, typedArraySet } from '../intrinsics.js';
import { Deferred, enqueueMicrotask, reactToPromise, returnUndefined } from '../promise.js';
import { ReadableStreamCancel } from './stream-ops.js';
import {
  AcquireReadableStreamDefaultReader, ReadableStreamDefaultReaderRead, ReadableStreamDefaultReaderRelease,
} from './default-reader.js';
import {
  AcquireReadableStreamBYOBReader, ReadableStreamBYOBReaderRead, ReadableStreamBYOBReaderRelease,
} from './byob-reader.js';
import {
  CreateReadableByteStream, ReadableByteStreamControllerEnqueue, ReadableByteStreamControllerClose,
  ReadableByteStreamControllerError, ReadableByteStreamControllerRespond, ReadableByteStreamControllerRespondWithNewView,
  ReadableByteStreamControllerGetBYOBRequest,
} from './byte-controller.js';

/**
 * CloneAsUint8Array, for the chunks the tee's reader reads: Uint8Arrays we
 * made (a default reader's chunk, or a BYOB read into a branch's request
 * view) over a buffer nobody else holds yet, so never detached.
 */
function CloneAsUint8Array(O) {
  const array = new Uint8ArrayCtor(new ArrayBufferCtor(typedArrayByteLength(O)));
  typedArraySet(array, O);
  return array;
}

/**
 * ReadableByteStreamControllerRespondWithNewView for the branch whose
 * request view a BYOB read filled. The spec asserts that the branch still
 * has that pull-into; a branch errored in the microtask before the chunk
 * steps (the source's pull() errored it) has none, and the spec's step would
 * fail an assertion (natively an uncaught ERR_INTERNAL_ASSERTION, fuzz seed
 * 72837). There is nothing left to fill: the step is skipped.
 */
function respondToBranch(controller, view) {
  if (controller.pendingPullIntos.length !== 0) ReadableByteStreamControllerRespondWithNewView(controller, view);
}

/** ReadableByteStreamTee */
export function ReadableByteStreamTee(stream) {
  let reader = AcquireReadableStreamDefaultReader(stream);
  let reading = false;
  let readAgainForBranch1 = false;
  let readAgainForBranch2 = false;
  let canceled1 = false;
  let canceled2 = false;
  let reason1;
  let reason2;
  let branch1;
  let branch2;
  const cancelPromise = new Deferred();

  // "Resolve cancelPromise with p" for a promise p, without looking up p.then.
  function resolveCancelPromiseWith(p) {
    reactToPromise(p, (value) => cancelPromise.resolve(value), (reason) => cancelPromise.reject(reason));
  }

  function forwardReaderError(thisReader) {
    reactToPromise(thisReader.closed.promise, undefined, (r) => {
      if (thisReader !== reader) return;
      ReadableByteStreamControllerError(branch1.controller, r);
      ReadableByteStreamControllerError(branch2.controller, r);
      if (!canceled1 || !canceled2) cancelPromise.resolve(undefined);
    });
  }

  // The microtask queued by the read request's chunk steps. Only one can be
  // pending: `reading` stays true until it has run, and no other read starts
  // before that. So the chunk waits in `pendingChunk`, and one function made
  // here serves every chunk.
  let pendingChunk;
  function chunkStepsMicrotask() {
    const chunk = pendingChunk;
    pendingChunk = undefined;
    readAgainForBranch1 = false;
    readAgainForBranch2 = false;
    const chunk1 = chunk;
    let chunk2 = chunk;
    if (!canceled1 && !canceled2) {
      try {
        chunk2 = CloneAsUint8Array(chunk);
      } catch (e) {
        ReadableByteStreamControllerError(branch1.controller, e);
        ReadableByteStreamControllerError(branch2.controller, e);
        resolveCancelPromiseWith(ReadableStreamCancel(stream, e));
        return;
      }
    }
    if (!canceled1) ReadableByteStreamControllerEnqueue(branch1.controller, chunk1, true);
    if (!canceled2) ReadableByteStreamControllerEnqueue(branch2.controller, chunk2, true);
    reading = false;
    if (readAgainForBranch1) {
      pull1Algorithm();
    } else if (readAgainForBranch2) {
      pull2Algorithm();
    }
  }

  // The read request used by pullWithDefaultReader.
  const readRequest = {
    chunkSteps(chunk) {
      pendingChunk = chunk;
      enqueueMicrotask(chunkStepsMicrotask);
    },
    closeSteps() {
      reading = false;
      if (!canceled1) ReadableByteStreamControllerClose(branch1.controller);
      if (!canceled2) ReadableByteStreamControllerClose(branch2.controller);
      if (branch1.controller.pendingPullIntos.length !== 0) {
        ReadableByteStreamControllerRespond(branch1.controller, 0);
      }
      if (branch2.controller.pendingPullIntos.length !== 0) {
        ReadableByteStreamControllerRespond(branch2.controller, 0);
      }
      if (!canceled1 || !canceled2) cancelPromise.resolve(undefined);
    },
    errorSteps() {
      reading = false;
    },
  };

  function pullWithDefaultReader() {
    if (reader.isBYOB) {
      ReadableStreamBYOBReaderRelease(reader);
      reader = AcquireReadableStreamDefaultReader(stream);
      forwardReaderError(reader);
    }
    ReadableStreamDefaultReaderRead(reader, readRequest);
  }

  function pullWithBYOBReader(view, forBranch2) {
    if (!reader.isBYOB) {
      ReadableStreamDefaultReaderRelease(reader);
      reader = AcquireReadableStreamBYOBReader(stream);
      forwardReaderError(reader);
    }
    const byobBranch = forBranch2 ? branch2 : branch1;
    const otherBranch = forBranch2 ? branch1 : branch2;
    const readIntoRequest = {
      chunkSteps(chunk) {
        enqueueMicrotask(() => {
          readAgainForBranch1 = false;
          readAgainForBranch2 = false;
          const byobCanceled = forBranch2 ? canceled2 : canceled1;
          const otherCanceled = forBranch2 ? canceled1 : canceled2;
          if (!otherCanceled) {
            let clonedChunk;
            try {
              clonedChunk = CloneAsUint8Array(chunk);
            } catch (e) {
              ReadableByteStreamControllerError(byobBranch.controller, e);
              ReadableByteStreamControllerError(otherBranch.controller, e);
              resolveCancelPromiseWith(ReadableStreamCancel(stream, e));
              return;
            }
            if (!byobCanceled) respondToBranch(byobBranch.controller, chunk);
            ReadableByteStreamControllerEnqueue(otherBranch.controller, clonedChunk, true);
          } else if (!byobCanceled) {
            respondToBranch(byobBranch.controller, chunk);
          }
          reading = false;
          if (readAgainForBranch1) {
            pull1Algorithm();
          } else if (readAgainForBranch2) {
            pull2Algorithm();
          }
        });
      },
      closeSteps(chunk) {
        reading = false;
        const byobCanceled = forBranch2 ? canceled2 : canceled1;
        const otherCanceled = forBranch2 ? canceled1 : canceled2;
        if (!byobCanceled) ReadableByteStreamControllerClose(byobBranch.controller);
        if (!otherCanceled) ReadableByteStreamControllerClose(otherBranch.controller);
        if (chunk !== undefined) {
          if (!byobCanceled) respondToBranch(byobBranch.controller, chunk);
          if (!otherCanceled && otherBranch.controller.pendingPullIntos.length !== 0) {
            ReadableByteStreamControllerRespond(otherBranch.controller, 0);
          }
        }
        if (!byobCanceled || !otherCanceled) cancelPromise.resolve(undefined);
      },
      errorSteps() {
        reading = false;
      },
    };
    ReadableStreamBYOBReaderRead(reader, view, 1, readIntoRequest);
  }

  function pull1Algorithm() {
    if (reading) {
      readAgainForBranch1 = true;
      return undefined; // a promise resolved with undefined (see reactToResult in promise.js)
    }
    reading = true;
    const byobRequest = ReadableByteStreamControllerGetBYOBRequest(branch1.controller);
    if (byobRequest === null) {
      pullWithDefaultReader();
    } else {
      pullWithBYOBReader(byobRequest.view, false);
    }
    return undefined;
  }

  function pull2Algorithm() {
    if (reading) {
      readAgainForBranch2 = true;
      return undefined;
    }
    reading = true;
    const byobRequest = ReadableByteStreamControllerGetBYOBRequest(branch2.controller);
    if (byobRequest === null) {
      pullWithDefaultReader();
    } else {
      pullWithBYOBReader(byobRequest.view, true);
    }
    return undefined;
  }

  function cancel1Algorithm(reason) {
    canceled1 = true;
    reason1 = reason;
    if (canceled2) {
      const compositeReason = [reason1, reason2];
      resolveCancelPromiseWith(ReadableStreamCancel(stream, compositeReason));
    }
    return cancelPromise.promise;
  }

  function cancel2Algorithm(reason) {
    canceled2 = true;
    reason2 = reason;
    if (canceled1) {
      const compositeReason = [reason1, reason2];
      resolveCancelPromiseWith(ReadableStreamCancel(stream, compositeReason));
    }
    return cancelPromise.promise;
  }

  branch1 = CreateReadableByteStream(returnUndefined, pull1Algorithm, cancel1Algorithm);
  branch2 = CreateReadableByteStream(returnUndefined, pull2Algorithm, cancel2Algorithm);
  forwardReaderError(reader);
  return [branch1, branch2];
}
