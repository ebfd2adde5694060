// NODE_DEBUG=fast-webstreams: what the patch did, and what it left native and
// why, said when it happens (at install, or later: a class patched at the first
// fetch(), a check that found what it did not expect). node:util is loaded at
// the first message, not at start-up.
import { builtin } from './builtins.js';

let debugFn;

function debuglog() {
  debugFn ??= builtin('node:util').debuglog('fast-webstreams');
  return debugFn;
}

/** True when NODE_DEBUG asks for our messages. */
export function debugEnabled() {
  return debuglog().enabled;
}

/** One message (util.format arguments), printed only when NODE_DEBUG asks. */
export function debug(...args) {
  const fn = debuglog();
  if (fn.enabled) fn(...args);
}
