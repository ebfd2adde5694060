// A Node Writable in byte mode with default options, standing for what Node
// code hands a stream to: an HTTP response, a socket, a file.
import { Writable } from 'node:stream';

export function nodeByteSink() {
  let bytes = 0;
  const sink = new Writable({ write(c, _enc, cb) { bytes += c.byteLength; cb(); } });
  return { sink, bytes: () => bytes };
}
