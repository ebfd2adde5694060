// util.inspect() and console.log() of our public objects print what Node's
// own classes print on the same Node version: the class name, then the fields
// Node shows (a stream's locked/state/supportsBYOB, a reader's stream, pending
// reads and closed promise, ...), read from the internal records. Installed
// once on the public prototypes by src/index.js.
//
// Depth works as Node's does: the fields are printed with the caller's depth
// option minus one, and an object met below the depth limit prints as
// `undefined` (Node's helper returns its unbound `this` there). The third
// argument is the inspect function util passes in, so colors and every other
// option carry through.
import { ObjectDefineProperty } from './intrinsics.js';
import { nodeMajor, nodeMinor } from './node-version.js';
import { settleArmedRead } from './fast/armed-read.js';
import { ReadableStream, unwrapReadableStream, wrapReadableStream } from './readable/readable-stream.js';
import { ReadableStreamDefaultReader, unwrapDefaultReader } from './readable/default-reader.js';
import { ReadableStreamBYOBReader, unwrapBYOBReader } from './readable/byob-reader.js';
import { ReadableStreamDefaultController } from './readable/default-controller.js';
import {
  ReadableByteStreamController, ReadableStreamBYOBRequest, unwrapBYOBRequest, isByteStreamController,
} from './readable/byte-controller.js';
import { WritableStream, unwrapWritableStream, wrapWritableStream } from './writable/writable-stream.js';
import { WritableStreamDefaultWriter, unwrapWriter } from './writable/default-writer.js';
import { WritableStreamDefaultController, unwrapWritableController } from './writable/default-controller.js';
import { TransformStream, unwrapTransformStream } from './transform/transform-stream.js';
import { TransformStreamDefaultController, unwrapTransformController } from './transform/default-controller.js';
import { ByteLengthQueuingStrategy, CountQueuingStrategy } from './strategies.js';

// Node 22 before 22.14 prints a BYOB reader's read-into requests as
// `requestIntoRequests`, and always as 0 (it counted a list a BYOB reader leaves empty).
const byobCountIsZero = nodeMajor === 22 && nodeMinor < 14;
const byobRequestsLabel = byobCountIsZero ? 'requestIntoRequests' : 'readIntoRequests';

const kInspect = Symbol.for('nodejs.util.inspect.custom');

const readableFacade = (record) => (record === undefined ? undefined : wrapReadableStream(record));
const writableFacade = (record) => (record === undefined ? undefined : wrapWritableStream(record));

/**
 * Defines `[nodejs.util.inspect.custom]` on `ctor.prototype`. `fields(self)`
 * returns the object to print, or undefined when `self` is not one of ours
 * (an object made from the prototype): util then prints it as it would
 * without the hook. (util itself never calls the hook on the prototype.)
 */
function define(ctor, fields) {
  const name = ctor.name;
  const method = {
    [kInspect](depth, options, inspect) {
      const shown = fields(this);
      if (shown === undefined) return inspect(this, { ...options, customInspect: false });
      if (depth < 0) return undefined;
      const nested = { ...options, depth: options.depth == null ? null : options.depth - 1 };
      return `${name} ${inspect(shown, nested)}`;
    },
  }[kInspect];
  ObjectDefineProperty(ctor.prototype, kInspect, { value: method, writable: true, enumerable: false, configurable: true });
}

const noFields = () => ({});
// Read through the public getter, which brand-checks as Node's inspect does.
const strategyFields = (self) => ({ highWaterMark: self.highWaterMark });

/** Installs the inspect methods on every public prototype (src/index.js, once). */
export function installInspect() {
  define(ReadableStream, (self) => {
    const stream = unwrapReadableStream(self);
    if (stream === undefined) return undefined;
    return { locked: self.locked, state: stream.state, supportsBYOB: isByteStreamController(stream.controller) };
  });
  define(ReadableStreamDefaultReader, (self) => {
    const reader = unwrapDefaultReader(self);
    if (reader === undefined) return undefined;
    return { stream: readableFacade(reader.stream), readRequests: reader.readRequests.length, close: reader.closed.promise };
  });
  define(ReadableStreamBYOBReader, (self) => {
    const reader = unwrapBYOBReader(self);
    if (reader === undefined) return undefined;
    const out = { stream: readableFacade(reader.stream) };
    out[byobRequestsLabel] = byobCountIsZero ? 0 : reader.readIntoRequests.length;
    out.close = reader.closed.promise;
    return out;
  });
  define(ReadableStreamDefaultController, noFields);
  define(ReadableByteStreamController, noFields);
  define(ReadableStreamBYOBRequest, (self) => {
    const request = unwrapBYOBRequest(self);
    if (request === undefined) return undefined;
    const controller = request.controller;
    return { view: request.view, controller: controller === null ? undefined : controller.facade };
  });
  define(WritableStream, (self) => {
    const stream = unwrapWritableStream(self);
    if (stream === undefined) return undefined;
    return { locked: self.locked, state: stream.state };
  });
  define(WritableStreamDefaultWriter, (self) => {
    const writer = unwrapWriter(self);
    if (writer === undefined) return undefined;
    // desiredSize throws on a released writer, as it does in Node's inspect.
    return { stream: writableFacade(writer.stream), close: self.closed, ready: self.ready, desiredSize: self.desiredSize };
  });
  define(WritableStreamDefaultController, (self) => {
    const controller = unwrapWritableController(self);
    if (controller === undefined) return undefined;
    return { stream: writableFacade(controller.stream) };
  });
  define(TransformStream, (self) => {
    const stream = unwrapTransformStream(self);
    if (stream === undefined) return undefined;
    settleArmedRead(stream); // backpressure as the spec's pending read left it
    return { readable: self.readable, writable: self.writable, backpressure: stream.backpressure };
  });
  define(TransformStreamDefaultController, (self) => {
    const controller = unwrapTransformController(self);
    if (controller === undefined) return undefined;
    return { stream: controller.stream === undefined ? undefined : controller.stream.api };
  });
  define(ByteLengthQueuingStrategy, strategyFields);
  define(CountQueuingStrategy, strategyFields);
}
