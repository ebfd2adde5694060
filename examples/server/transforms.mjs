// The TransformStreams the routes use: each one is the kind of small, synchronous
// transform real servers put between a source and the response.
import { Buffer } from 'node:buffer';

const asBuffer = (chunk) => Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);

/**
 * Inserts `html` just before `</body>` (or at the end when there is none), as
 * SSR frameworks do to add hydration data. Works on bytes; a tag split across
 * two chunks is found by carrying the last few bytes over.
 */
export function injectBeforeBodyEnd(html) {
  const needle = Buffer.from('</body>');
  const insert = new Uint8Array(Buffer.from(html));
  let carry = null;
  let injected = false;
  return new TransformStream({
    transform(chunk, controller) {
      if (injected) {
        controller.enqueue(chunk);
        return;
      }
      let buf = asBuffer(chunk);
      if (carry !== null) {
        buf = Buffer.concat([carry, buf]);
        carry = null;
      }
      const at = buf.indexOf(needle);
      if (at !== -1) {
        if (at > 0) controller.enqueue(buf.subarray(0, at));
        controller.enqueue(insert);
        controller.enqueue(buf.subarray(at));
        injected = true;
        return;
      }
      const keep = Math.min(needle.length - 1, buf.length);
      if (buf.length > keep) controller.enqueue(buf.subarray(0, buf.length - keep));
      carry = buf.subarray(buf.length - keep);
    },
    flush(controller) {
      if (carry !== null && carry.length > 0) controller.enqueue(carry);
      if (!injected) controller.enqueue(insert);
    },
  });
}

/** Passes bytes through and reports their total to `onDone` at the end (metering, access logs). */
export function meter(onDone) {
  let bytes = 0;
  return new TransformStream({
    transform(chunk, controller) {
      bytes += chunk.byteLength;
      controller.enqueue(chunk);
    },
    flush() {
      onDone(bytes);
    },
  });
}

/**
 * Replaces every occurrence of `secret` with as many `*` (same length, so
 * Content-Length-free streaming stays simple). Matches across chunk borders.
 */
export function mask(secret) {
  const needle = Buffer.from(secret);
  const stars = Buffer.alloc(needle.length, '*');
  let carry = null;
  return new TransformStream({
    transform(chunk, controller) {
      let buf = asBuffer(chunk);
      if (carry !== null) {
        buf = Buffer.concat([carry, buf]);
        carry = null;
      }
      let at = buf.indexOf(needle);
      if (at !== -1) {
        buf = Buffer.from(buf); // copy: never write into the producer's memory
        while (at !== -1) {
          stars.copy(buf, at);
          at = buf.indexOf(needle, at + needle.length);
        }
      }
      const keep = Math.min(needle.length - 1, buf.length);
      if (buf.length > keep) controller.enqueue(buf.subarray(0, buf.length - keep));
      carry = buf.subarray(buf.length - keep);
    },
    flush(controller) {
      if (carry !== null && carry.length > 0) controller.enqueue(carry);
    },
  });
}

/** Errors the stream once more than `max` bytes went through (a proxy's body-size limit). */
export function sizeLimit(max) {
  let seen = 0;
  return new TransformStream({
    transform(chunk, controller) {
      seen += chunk.byteLength;
      if (seen > max) controller.error(new RangeError(`body larger than ${max} bytes`));
      else controller.enqueue(chunk);
    },
  });
}

/** Objects in, NDJSON bytes out (one line per object). */
export function ndjsonEncoder() {
  const encoder = new TextEncoder();
  return new TransformStream({
    transform(object, controller) {
      controller.enqueue(encoder.encode(`${JSON.stringify(object)}\n`));
    },
  });
}

/**
 * Text in, one object per Server-Sent Event out: splits on the blank line that
 * ends an event (across chunk borders), joins its `data:` lines and parses them
 * as JSON; `[DONE]` (the end marker LLM APIs send) ends the output.
 */
export function sseEvents() {
  let rest = '';
  let finished = false;
  return new TransformStream({
    transform(text, controller) {
      const buf = rest + text;
      let start = 0;
      let end;
      while (!finished && (end = buf.indexOf('\n\n', start)) !== -1) {
        const data = buf.slice(start, end).split('\n')
          .filter((line) => line.startsWith('data:')).map((line) => line.slice(line[5] === ' ' ? 6 : 5)).join('\n');
        start = end + 2;
        if (data === '[DONE]') finished = true;
        else if (data) controller.enqueue(JSON.parse(data));
      }
      rest = finished ? '' : buf.slice(start);
    },
  });
}

/** Objects in, Server-Sent Event text out (`data: <json>` and a blank line). */
export function sseFormat() {
  return new TransformStream({
    transform(object, controller) {
      controller.enqueue(`data: ${JSON.stringify(object)}\n\n`);
    },
  });
}
