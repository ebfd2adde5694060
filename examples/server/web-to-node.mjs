// Writing Web ReadableStreams into a Node http.ServerResponse, the two ways
// servers do it; both handle backpressure (wait for 'drain'), batch the writes
// of one tick with cork/uncork, and stop the source when the client goes away.
// Deliberately independent of Readable.fromWeb / Writable.toWeb, so they work
// the same with any conforming implementation of Web Streams.
//
// - sendWebStream(): the stream is piped with pipeTo() into a WritableStream
//   over the response (as Next.js does for its responses). The routes that
//   build their own stream (SSR, proxy, NDJSON) use it.
// - sendWebResponse(): a fetch-style handler's Response is forwarded by a
//   reader loop over its body, as the Node adapters of fetch-style frameworks
//   (Hono, Remix) do.

function waitForDrain(res) {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

/**
 * A WritableStream over a Node http.ServerResponse (bytes or strings): write()
 * returns a promise only when the response asks to wait for 'drain'.
 */
export function responseSink(res) {
  let corked = false;
  const uncork = () => {
    if (!corked) return;
    corked = false;
    res.uncork();
  };
  return new WritableStream({
    write(chunk) {
      if (res.destroyed) throw new Error('client closed the connection');
      if (!corked) {
        corked = true;
        res.cork();
        process.nextTick(uncork);
      }
      if (!res.write(chunk)) return waitForDrain(res);
      return undefined;
    },
    close() {
      // Uncork before end(): on Node 22 and 24, end() on a corked response whose
      // headers are already sent, followed by uncork(), drops the corked chunks.
      uncork();
      res.end();
    },
    abort(reason) {
      uncork();
      res.destroy(reason instanceof Error ? reason : new Error(String(reason)));
    },
  });
}

/**
 * Pipes `stream` (bytes or strings) into `res` and ends it; the pipe is aborted
 * (the source cancelled) when the client goes away. Never rejects.
 */
export async function sendWebStream(stream, res) {
  const client = new AbortController();
  const onClose = () => {
    if (!res.writableFinished) client.abort(new Error('client closed the connection'));
  };
  res.on('close', onClose);
  try {
    await stream.pipeTo(responseSink(res), { signal: client.signal });
  } catch {
    // The source errored (the response was destroyed with its error by abort())
    // or the client went away (the source was cancelled): nothing more to send.
  } finally {
    res.off('close', onClose);
  }
}

/** Writes `stream` into `res` with a reader loop and ends it. Never rejects. */
async function writeWithReader(stream, res) {
  const reader = stream.getReader();
  let corked = false;
  const uncork = () => {
    if (!corked) return;
    corked = false;
    res.uncork();
  };
  const onClose = () => {
    if (!res.writableFinished) reader.cancel(new Error('client closed the connection')).catch(() => {});
  };
  res.on('close', onClose);
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      if (res.destroyed) return;
      if (!corked) {
        corked = true;
        res.cork();
        process.nextTick(uncork);
      }
      if (!res.write(value)) await waitForDrain(res);
    }
    // Uncork before end() (see responseSink).
    uncork();
    res.end();
  } catch (err) {
    uncork();
    res.destroy(err);
  } finally {
    res.off('close', onClose);
  }
}

/** Writes a Web Response (status, headers, body) into `res`, the body with a reader loop. */
export async function sendWebResponse(response, res) {
  const headers = {};
  for (const [name, value] of response.headers) {
    if (name === 'set-cookie') continue;
    headers[name] = value;
  }
  const cookies = typeof response.headers.getSetCookie === 'function' ? response.headers.getSetCookie() : [];
  if (cookies.length) headers['set-cookie'] = cookies;
  res.writeHead(response.status, response.statusText, headers);
  if (response.body === null) res.end();
  else await writeWithReader(response.body, res);
}

/** A Web Request for a Node request (body streamed for methods that have one). */
export function toWebRequest(req, base) {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else if (value !== undefined) headers.set(name, value);
  }
  const init = { method: req.method, headers };
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    const chunks = req[Symbol.asyncIterator]();
    init.body = new ReadableStream({
      async pull(controller) {
        const { value, done } = await chunks.next();
        if (done) controller.close();
        else controller.enqueue(new Uint8Array(value.buffer, value.byteOffset, value.byteLength));
      },
      cancel() {
        req.destroy();
      },
    });
    init.duplex = 'half';
  }
  return new Request(new URL(req.url, base), init);
}
