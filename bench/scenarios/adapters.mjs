// Web streams handed to Node and back: Node's adapters (Readable.fromWeb,
// Readable.toWeb, Writable.toWeb), stream.pipeline() with a Web stream in it, and a Response
// body written into a Node Writable. Each boundary is where an application
// running the preload meets Node's own stream code.
import http from 'node:http';
import { once } from 'node:events';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  source, passThrough, countingSink, upstreamUrl,
  nodeSource, nodePassThrough, nodeCountingSink,
} from './common.mjs';
import { nodeByteSink } from './node-sinks.mjs';

// The same data flow in classic streams only: source -> sink, or through one
// Transform (object mode, like the other node:stream rows).
async function nodeDirect() {
  const { sink, bytes } = nodeByteSink();
  await pipeline(nodeSource(), sink);
  return bytes();
}

async function nodeThroughOne() {
  const { sink, bytes } = nodeCountingSink();
  await pipeline(nodeSource(), nodePassThrough(), sink);
  return bytes();
}

export default [
  {
    name: 'Readable.fromWeb -> Writable',
    about: 'Readable.fromWeb(readableStream) piped (stream.pipeline) into a Node Writable',
    async web() {
      const { sink, bytes } = nodeByteSink();
      await pipeline(Readable.fromWeb(source()), sink);
      return bytes();
    },
    node: nodeDirect,
  },
  {
    name: 'proxy: fetch -> fromWeb',
    about: 'fetch() from a local server, Readable.fromWeb(res.body) piped into a Node Writable, as a proxy does',
    needsServer: true,
    async web() {
      const res = await fetch(upstreamUrl());
      const { sink, bytes } = nodeByteSink();
      await pipeline(Readable.fromWeb(res.body), sink);
      return bytes();
    },
    async node() {
      const res = await new Promise((resolve, reject) => http.get(upstreamUrl(), resolve).on('error', reject));
      const { sink, bytes } = nodeByteSink();
      await pipeline(res, sink);
      return bytes();
    },
  },
  {
    name: 'Readable.toWeb -> transform',
    about: 'Readable.toWeb(nodeReadable) through one pass-through TransformStream into a WritableStream',
    async web() {
      const { sink, bytes } = countingSink();
      await Readable.toWeb(nodeSource()).pipeThrough(passThrough()).pipeTo(sink);
      return bytes();
    },
    node: nodeThroughOne,
  },
  {
    name: 'pipeTo(Writable.toWeb)',
    about: 'readableStream.pipeTo(Writable.toWeb(nodeWritable)): a Web stream written into a Node Writable',
    async web() {
      const { sink, bytes } = nodeCountingSink();
      await source().pipeTo(Writable.toWeb(sink));
      return bytes();
    },
    async node() {
      const { sink, bytes } = nodeCountingSink();
      await pipeline(nodeSource(), sink);
      return bytes();
    },
  },
  {
    name: 'pipeline(web, Transform, sink)',
    about: 'stream.pipeline(readableStream, a Node Transform, a Node Writable)',
    async web() {
      const { sink, bytes } = nodeCountingSink();
      await pipeline(source(), nodePassThrough(), sink);
      return bytes();
    },
    node: nodeThroughOne,
  },
  {
    name: 'Response(chain) -> Writable',
    about: 'new Response(readable.pipeThrough(transform)).body read with a reader into a Node Writable, awaiting drain',
    async web() {
      const reader = new Response(source().pipeThrough(passThrough())).body.getReader();
      const { sink, bytes } = nodeByteSink();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        if (!sink.write(value)) await once(sink, 'drain');
      }
      sink.end();
      await once(sink, 'finish');
      return bytes();
    },
  },
];
