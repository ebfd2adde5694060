// Our declarations against the real ones: @types/node (20, 22, 24, 26, one
// tsconfig each) and lib.dom. Each line is an assignment an application makes
// when it mixes fast-webstreams' classes with Node's or the DOM's; compiled
// with `tsc --strict` (tsconfig.node*.json), it must type-check both ways.
import {
  ReadableStream as FastReadableStream,
  WritableStream as FastWritableStream,
  TransformStream as FastTransformStream,
} from 'fast-webstreams';
import { Readable, Writable } from 'node:stream';
import * as web from 'node:stream/web';

declare const ours: FastReadableStream<Uint8Array>;
declare const oursWritable: FastWritableStream<Uint8Array>;

// 1. Ours where node:stream/web's is expected, and back.
const asNodeWeb: web.ReadableStream<Uint8Array> = ours;
const fromNodeWeb: FastReadableStream<Uint8Array> = new web.ReadableStream<Uint8Array>();
const asNodeWebWritable: web.WritableStream<Uint8Array> = oursWritable;

// 2. Readable.fromWeb(ours), Writable.fromWeb(ours) and toWeb into our type.
const nodeReadable: Readable = Readable.fromWeb(ours);
const nodeWritable: Writable = Writable.fromWeb(oursWritable);
const backToOurs: FastReadableStream = Readable.toWeb(nodeReadable);

// 3. new Response(ours) (a BodyInit).
const response = new Response(ours);

// 4. A fetch body piped through our TransformStream, and our result as a body.
async function proxy(): Promise<Response> {
  const upstream = await fetch('http://127.0.0.1:9/');
  const upper = new FastTransformStream<Uint8Array, Uint8Array>();
  const piped: FastReadableStream<Uint8Array> = upstream.body!.pipeThrough(upper);
  const through = upstream.body!.pipeThrough(new FastTransformStream<Uint8Array, Uint8Array>());
  await upstream.body!.pipeTo(new FastWritableStream<Uint8Array>());
  return new Response(piped ?? through);
}

// 5. A global stream (lib.dom / @types/node globals) assigned to our type, and ours to the global.
const fromGlobal: FastReadableStream<string> = new ReadableStream<string>();
const toGlobal: ReadableStream<Uint8Array> = ours;
const globalTransform: TransformStream<string, string> = new FastTransformStream<string, string>();
const ourTransform: FastTransformStream<string, string> = new TransformStream<string, string>();

export { asNodeWeb, fromNodeWeb, asNodeWebWritable, nodeWritable, backToOurs, response, proxy, fromGlobal, toGlobal,
  globalTransform, ourTransform };
