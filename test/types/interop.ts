// Our declarations against the real ones: @types/node (20, 22, 24, 26, one
// tsconfig each) and lib.dom. Each line is an assignment an application makes
// when it mixes fast-webstreams' classes with Node's or the DOM's; compiled
// with `tsc --strict` (tsconfig.node*.json), it must type-check both ways.
// The Equal checks pin what TypeScript infers across the two libraries (a
// chunk type must not widen to `T | undefined` or to `ArrayBufferView`).
import {
  ReadableStream as FastReadableStream,
  ReadableStreamDefaultReader as FastReadableStreamDefaultReader,
  ReadableStreamBYOBReader as FastReadableStreamBYOBReader,
  WritableStream as FastWritableStream,
  WritableStreamDefaultWriter as FastWritableStreamDefaultWriter,
  TransformStream as FastTransformStream,
  TextEncoderStream as FastTextEncoderStream,
  TextDecoderStream as FastTextDecoderStream,
  CompressionStream as FastCompressionStream,
} from 'fast-webstreams';
import { Readable, Writable } from 'node:stream';
import { text } from 'node:stream/consumers';
import * as web from 'node:stream/web';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
function assertType<T extends true>(): void {}

declare const ours: FastReadableStream<Uint8Array>;
declare const oursWritable: FastWritableStream<Uint8Array>;
declare const oursTransform: FastTransformStream<string, Uint8Array>;

// 1. Ours where node:stream/web's is expected, and back: streams, readers, writers.
const asNodeWeb: web.ReadableStream<Uint8Array> = ours;
const fromNodeWeb: FastReadableStream<Uint8Array> = new web.ReadableStream<Uint8Array>();
const asNodeWebWritable: web.WritableStream<Uint8Array> = oursWritable;
const fromNodeWebWritable: FastWritableStream<Uint8Array> = new web.WritableStream<Uint8Array>();
const asNodeWebTransform: web.TransformStream<string, Uint8Array> = oursTransform;
const fromNodeWebTransform: FastTransformStream<string, Uint8Array> = new web.TransformStream<string, Uint8Array>();
const asNodeWebReader: web.ReadableStreamDefaultReader<Uint8Array> = ours.getReader();
const fromNodeWebReader: FastReadableStreamDefaultReader<Uint8Array> = asNodeWeb.getReader();
const asNodeWebByob: web.ReadableStreamBYOBReader = ours.getReader({ mode: 'byob' });
const fromNodeWebByob: FastReadableStreamBYOBReader = asNodeWeb.getReader({ mode: 'byob' });
const asNodeWebWriter: web.WritableStreamDefaultWriter<Uint8Array> = oursWritable.getWriter();
const fromNodeWebWriter: FastWritableStreamDefaultWriter<Uint8Array> = asNodeWebWritable.getWriter();

// 2. Readable.fromWeb(ours), Writable.fromWeb(ours), toWeb into our types, and a consumer.
const nodeReadable: Readable = Readable.fromWeb(ours);
const nodeWritable: Writable = Writable.fromWeb(oursWritable);
const backToOurs: FastReadableStream = Readable.toWeb(nodeReadable);
const backToOursWritable: FastWritableStream = Writable.toWeb(nodeWritable);
const consumed: Promise<string> = text(ours);

// 3. new Response(ours) (a BodyInit).
const response = new Response(ours);

// 4. A fetch body piped through our TransformStream, into our WritableStream, and our result as a body.
async function proxy(): Promise<Response> {
  const upstream = await fetch('http://127.0.0.1:9/');
  const upper = new FastTransformStream<Uint8Array, Uint8Array>();
  const piped = upstream.body!.pipeThrough(upper);
  assertType<Equal<typeof piped, ReadableStream<Uint8Array>>>();
  const asOurs: FastReadableStream<Uint8Array> = piped;
  const through = upstream.body!.pipeThrough(new FastTransformStream<Uint8Array, string>());
  assertType<Equal<typeof through, ReadableStream<string>>>();
  await upstream.body!.pipeTo(new FastWritableStream<Uint8Array>());
  return new Response(asOurs);
}

// 5. Ours piped through and into theirs: the chunk type is inferred from their classes.
const viaNodeWeb = ours.pipeThrough(new web.TransformStream<Uint8Array, string>());
assertType<Equal<typeof viaNodeWeb, FastReadableStream<string>>>();
const viaGlobal = ours.pipeThrough(new TransformStream<Uint8Array, number>());
assertType<Equal<typeof viaGlobal, FastReadableStream<number>>>();
const intoNodeWeb: Promise<void> = ours.pipeTo(new web.WritableStream<Uint8Array>());
const intoGlobal: Promise<void> = ours.pipeTo(new WritableStream<Uint8Array>());

// 6. A global stream (lib.dom / @types/node globals) assigned to our type, and ours to the global.
const fromGlobal: FastReadableStream<string> = new ReadableStream<string>();
const toGlobal: ReadableStream<Uint8Array> = ours;
const fromGlobalWritable: FastWritableStream<string> = new WritableStream<string>();
const toGlobalWritable: WritableStream<Uint8Array> = oursWritable;
const globalTransform: TransformStream<string, string> = new FastTransformStream<string, string>();
const ourTransform: FastTransformStream<string, string> = new TransformStream<string, string>();

// 7. Our codec classes, where node:stream/web's or lib.dom's stream is expected.
const encodedNodeWeb: web.ReadableStream<Uint8Array> = new FastReadableStream<string>().pipeThrough(new FastTextEncoderStream());
const encodedGlobal: ReadableStream<Uint8Array> = new FastReadableStream<string>().pipeThrough(new FastTextEncoderStream());
const gzipped: ReadableStream<Uint8Array> = encodedGlobal.pipeThrough(new FastCompressionStream('gzip'));
async function decodeBody(): Promise<ReadableStream<string>> {
  const decoded = (await fetch('http://127.0.0.1:9/')).body!.pipeThrough(new FastTextDecoderStream());
  assertType<Equal<typeof decoded, ReadableStream<string>>>();
  return decoded;
}

export {
  encodedNodeWeb, gzipped, decodeBody,
  asNodeWeb, fromNodeWeb, asNodeWebWritable, fromNodeWebWritable, asNodeWebTransform, fromNodeWebTransform,
  asNodeWebReader, fromNodeWebReader, asNodeWebByob, fromNodeWebByob, asNodeWebWriter, fromNodeWebWriter,
  nodeWritable, backToOurs, backToOursWritable, consumed, response, proxy, intoNodeWeb, intoGlobal,
  fromGlobal, toGlobal, fromGlobalWritable, toGlobalWritable, globalTransform, ourTransform,
};
