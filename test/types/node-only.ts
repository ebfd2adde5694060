// Our declarations in a Node-only project: @types/node's globals, no lib.dom
// (`lib: ["es2023"]`, `types: ["node"]`; tsconfig.nodeonly*.json), under
// --strict. What an application writes there must type-check, and the chunk
// types must come out as they would with Node's own classes (not widened to
// `T | undefined`).
import {
  ReadableStream as FastReadableStream,
  WritableStream as FastWritableStream,
  TransformStream as FastTransformStream,
  TextEncoderStream as FastTextEncoderStream,
  TextDecoderStream as FastTextDecoderStream,
  CompressionStream as FastCompressionStream,
  DecompressionStream as FastDecompressionStream,
} from 'fast-webstreams';
import { Readable, Writable } from 'node:stream';
import { text } from 'node:stream/consumers';
import * as web from 'node:stream/web';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
function assertType<T extends true>(): void {}

// 1. A fetch() body (@types/node's global ReadableStream) through our classes.
async function proxy(url: string): Promise<Response> {
  const body = (await fetch(url)).body!;
  const piped = body.pipeThrough(new FastTransformStream<Uint8Array, Uint8Array>());
  assertType<Equal<typeof piped, ReadableStream<Uint8Array>>>();
  const decoded = body.pipeThrough(new FastTextDecoderStream());
  assertType<Equal<typeof decoded, ReadableStream<string>>>();
  const inflated: ReadableStream<Uint8Array> = body.pipeThrough(new FastDecompressionStream('gzip'));
  await inflated.pipeTo(new FastWritableStream<Uint8Array>());
  return new Response(piped);
}

// 2. Our codec classes into node:stream/web's types.
const encoded: web.ReadableStream<Uint8Array> = new FastReadableStream<string>().pipeThrough(new FastTextEncoderStream());
const gzipped: web.ReadableStream<Uint8Array> = encoded.pipeThrough(new FastCompressionStream('gzip'));
const asNodeEncoder: web.TextEncoderStream = new FastTextEncoderStream();
const asNodeDecoder: web.TextDecoderStream = new FastTextDecoderStream('utf-8', { fatal: true });
const viaNodeEncoder: FastReadableStream<Uint8Array> = new FastReadableStream<string>().pipeThrough(new web.TextEncoderStream());

// 3. Ours where node:stream/web's is expected, and back; Node's adapters and consumers.
declare const ours: FastReadableStream<Uint8Array>;
const asNodeWeb: web.ReadableStream<Uint8Array> = ours;
const fromNodeWeb: FastReadableStream<Uint8Array> = new web.ReadableStream<Uint8Array>();
const asGlobal: ReadableStream<Uint8Array> = ours;
const fromGlobal: FastReadableStream<string> = new ReadableStream<string>();
const writer: web.WritableStreamDefaultWriter<string> = new FastWritableStream<string>().getWriter();
const nodeReadable: Readable = Readable.fromWeb(ours);
const backToOurs: FastReadableStream = Readable.toWeb(nodeReadable);
const nodeWritable: Writable = Writable.fromWeb(new FastWritableStream<Uint8Array>());
const consumed: Promise<string> = text(ours);
const throughOurs = ours.pipeThrough(new FastTransformStream<Uint8Array, string>());
assertType<Equal<typeof throughOurs, FastReadableStream<string>>>();

export {
  proxy, encoded, gzipped, viaNodeEncoder, asNodeEncoder, asNodeDecoder, asNodeWeb, fromNodeWeb, asGlobal, fromGlobal, writer,
  backToOurs, nodeWritable, consumed,
};
