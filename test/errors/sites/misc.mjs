// Queuing strategies, cloning and transfer, and the Node classes that meet our
// streams: TextDecoderStream, CompressionStream, Response, node:stream.
import { Readable, Writable, Duplex } from 'node:stream';
import { site, lockedReadable, lockedWritable } from './helpers.mjs';

const strategySites = [
  site('CQS ctor: no argument', () => new CountQueuingStrategy()),
  site('CQS ctor: null', () => new CountQueuingStrategy(null)),
  site('CQS ctor: a number', () => new CountQueuingStrategy(5)),
  site('CQS ctor: highWaterMark missing', () => new CountQueuingStrategy({})),
  site('CQS ctor: highWaterMark a Symbol', () => new CountQueuingStrategy({ highWaterMark: Symbol('x') })),
  site('BLQS ctor: no argument', () => new ByteLengthQueuingStrategy()),
  site('BLQS ctor: null', () => new ByteLengthQueuingStrategy(null)),
  site('BLQS ctor: a number', () => new ByteLengthQueuingStrategy(5)),
  site('BLQS ctor: highWaterMark missing', () => new ByteLengthQueuingStrategy({})),
  site('BLQS size: undefined chunk', () => new ByteLengthQueuingStrategy({ highWaterMark: 1 }).size(undefined)),
  site('RS ctor: CQS with highWaterMark -1', () => new ReadableStream({}, new CountQueuingStrategy({ highWaterMark: -1 }))),
];

const cloneSites = [
  site('structuredClone: a ReadableStream', () => structuredClone(new ReadableStream())),
  site('structuredClone: transfer a locked ReadableStream', () => {
    const rs = lockedReadable();
    return structuredClone(rs, { transfer: [rs] });
  }),
  site('structuredClone: transfer a locked WritableStream', () => {
    const ws = lockedWritable();
    return structuredClone(ws, { transfer: [ws] });
  }),
  site('structuredClone: transfer a TransformStream with a locked side', () => {
    const ts = new TransformStream();
    ts.readable.getReader();
    return structuredClone(ts, { transfer: [ts] });
  }),
  site('postMessage: transfer a locked ReadableStream', () => {
    const { port1, port2 } = new MessageChannel();
    try {
      const rs = lockedReadable();
      port1.postMessage(rs, [rs]);
    } finally {
      port1.close();
      port2.close();
    }
  }),
];

const nodeClassSites = [
  site('TextDecoderStream: unknown encoding', () => new TextDecoderStream('no-such-encoding')),
  site('TextDecoderStream: fatal on bad bytes', () => {
    const tds = new TextDecoderStream('utf-8', { fatal: true });
    const writer = tds.writable.getWriter();
    writer.write(new Uint8Array([0xff])).catch(() => {});
    writer.close().catch(() => {});
    return tds.readable.getReader().read();
  }),
  site('TextDecoderStream: chunk a number', () => {
    const tds = new TextDecoderStream();
    tds.writable.getWriter().write(5).catch(() => {});
    return tds.readable.getReader().read();
  }),
  site('TextEncoderStream: writable locked, pipeThrough', () => {
    const tes = new TextEncoderStream();
    tes.writable.getWriter();
    return new ReadableStream().pipeThrough(tes);
  }),
  site('CompressionStream: bad format', () => new CompressionStream('zip')),
  site('DecompressionStream: bad format', () => new DecompressionStream('zip')),
  site('CompressionStream: chunk a string', () => {
    const cs = new CompressionStream('gzip');
    cs.writable.getWriter().write('x').catch(() => {});
    return cs.readable.getReader().read();
  }),
  site('DecompressionStream: corrupt input', () => {
    const ds = new DecompressionStream('gzip');
    const writer = ds.writable.getWriter();
    writer.write(new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])).catch(() => {});
    writer.close().catch(() => {});
    return ds.readable.getReader().read();
  }),
  site('pipeThrough: our stream into CompressionStream, chunk a string', () => {
    const rs = new ReadableStream({ start(c) { c.enqueue('text'); c.close(); } });
    return rs.pipeThrough(new CompressionStream('gzip')).getReader().read();
  }),
  site('Response: body a locked stream', () => new Response(lockedReadable())),
  site('Response: text() of a locked body', () => {
    const res = new Response(new ReadableStream());
    res.body.getReader();
    return res.text();
  }),
  site('Response: text() twice', async () => {
    const res = new Response('x');
    await res.text();
    return res.text();
  }),
  site('Response: body stream errors', () => {
    const rs = new ReadableStream({ start(c) { c.error(new RangeError('body')); } });
    return new Response(rs).text();
  }),
  site('Request: body a locked stream', () => new Request('http://127.0.0.1/', {
    method: 'POST', body: lockedReadable(), duplex: 'half',
  })),
  site('Readable.fromWeb: not a stream', () => Readable.fromWeb({})),
  site('Readable.fromWeb: locked stream', () => Readable.fromWeb(lockedReadable())),
  site('Writable.fromWeb: not a stream', () => Writable.fromWeb({})),
  site('Writable.fromWeb: locked stream', () => Writable.fromWeb(lockedWritable())),
  site('Duplex.fromWeb: bad pair', () => Duplex.fromWeb({ readable: {}, writable: {} })),
  site('Readable.toWeb: not a Readable', () => Readable.toWeb({})),
  site('Readable.fromWeb: stream errors', () => new Promise((resolve, reject) => {
    const rs = new ReadableStream({ start(c) { c.error(new URIError('web')); } });
    const readable = Readable.fromWeb(rs);
    readable.on('error', reject);
    readable.resume();
  })),
];

export default [...strategySites, ...cloneSites, ...nodeClassSites];
