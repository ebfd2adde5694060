// Writing a Web ReadableStream into a Node http.ServerResponse, the way
// frameworks' Node adapters do: a reader loop, res.write() with backpressure
// (wait for 'drain'), writes of one tick batched with cork/uncork, and the
// stream cancelled when the client goes away. Deliberately independent of
// Readable.fromWeb so it works the same with any conforming ReadableStream.

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

/** Pipes `stream` (bytes or strings) into `res` and ends it. Never rejects. */
export async function sendWebStream(stream, res) {
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
    // Uncork before end(): on Node 22 and 24, end() on a corked response whose
    // headers are already sent, followed by uncork(), drops the corked chunks.
    uncork();
    res.end();
  } catch (err) {
    uncork();
    res.destroy(err);
  } finally {
    res.off('close', onClose);
  }
}

/** Writes a Web Response (status, headers, body) into `res`. */
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
  else await sendWebStream(response.body, res);
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
