// How Readable.fromWeb / Duplex.fromWeb over one of our streams read it.
//
// Node's adapter (every version) reads one chunk per _read() (Readable calls
// _read() again only after a push) and pushes it one microtask after the
// chunk is available: the reaction to reader.read() on Node 20-24, a
// microtask queued by a reused read request on Node 26. Here one reused read
// request goes straight into our reader: a queued chunk is taken at once
// (the spec's [[PullSteps]]), with no promise, read result or reaction per
// chunk, and pushed a microtask later, where Node's own adapter pushes it.
import { enqueueMicrotask } from '../../promise.js';
import { ReadableStreamDefaultReaderRead } from '../../readable/default-reader.js';

/** A read request for our reader, reused for every chunk: feeds `node` (a Readable or Duplex). */
export class ReadSide {
  /**
   * @param reader our default reader (internal record), held for good
   * @param node the Node stream pushed into
   * @param endsAtOnce push the end / destroy on an error when the read learns
   *   of it (Node 26), rather than a microtask later (Node 20-24)
   * @param destroy Node's stream.destroy (destroyer): an error of undefined becomes an AbortError
   */
  constructor(reader, node, endsAtOnce, destroy) {
    this.reader = reader;
    this.node = node;
    this.endsAtOnce = endsAtOnce;
    this.destroy = destroy;
    this.pendingChunk = undefined;
    this.pendingError = undefined;
    // Through locals: see docs/architecture.md, "Closures kept in fields".
    const pushChunk = () => {
      const chunk = this.pendingChunk;
      this.pendingChunk = undefined;
      this.node.push(chunk);
    };
    const pushEnd = () => this.node.push(null);
    const destroyWithError = () => {
      const error = this.pendingError;
      this.pendingError = undefined;
      this.destroy(this.node, error);
    };
    this.pushChunk = pushChunk;
    this.pushEnd = pushEnd;
    this.destroyWithError = destroyWithError;
  }

  /** Node's _read(). */
  read() {
    ReadableStreamDefaultReaderRead(this.reader, this);
  }

  chunkSteps(chunk) {
    this.pendingChunk = chunk;
    enqueueMicrotask(this.pushChunk);
  }

  closeSteps() {
    if (this.endsAtOnce) this.node.push(null);
    else enqueueMicrotask(this.pushEnd);
  }

  errorSteps(error) {
    if (this.endsAtOnce) {
      this.destroy(this.node, error);
      return;
    }
    this.pendingError = error;
    enqueueMicrotask(this.destroyWithError);
  }
}
