// The seam between the spec and the fast paths (docs/architecture.md, "The
// seam"). The spec folders (src/readable/, src/writable/, src/transform/)
// call these hooks and import nothing of src/fast/; src/fast/plug.js fills
// them in once, when the library loads, unless FAST_WEBSTREAMS_FAST_PATHS=0
// leaves every stream on the spec path. Until then each hook does what the
// spec does there: nothing more.
//
// One object whose fields are written once, before any stream exists: each
// call site sees one function (V8 inlines it behind a check of the target),
// so a hook costs a load and a compare.
import { OriginalTypeError } from './intrinsics.js';

/** No answer known ahead: the read takes the spec path. */
function noneKnown() {
  return undefined;
}

/** Runs the producer; no pump runs after it. */
function produceNow(stream, produce, target, arg) {
  produce(target, arg);
}

/** Never armed: only a fast path arms a read. */
function notArmed() {
  return false;
}

/** Nothing to do: only a pump of the fast paths asks for these. */
function nothing() {}

export const tiers = {
  // The read's promise, already resolved, for a chunk already queued (tier 1).
  readBufferedChunk: noneKnown,
  nextBufferedChunk: noneKnown,
  // A producer on a clean stack: a pipe reading the stream may run when it returns.
  feedPump: produceNow,
  // On a stream that a fast path's pump reads (its `pump` slot is set).
  pumpSourceEnded: nothing,
  pumpAfterPull: nothing,
  // On a transform a fast path's pump writes into (its `fused` slot is set).
  performTransformHandingOff: nothing,
  enqueueIntoArmedRead: notArmed,
  transformReadArmed: notArmed,
  countChainEndingAtReader: nothing,
  // The pump a pipe moves its chunks with; undefined: the spec's loop (src/readable/pipe-loop.js).
  createPipePump: undefined,
  // Whether the fast paths are plugged in (for the bridges, which write directly when they are).
  on: false,
};

const HOOKS = [
  'readBufferedChunk', 'nextBufferedChunk', 'feedPump', 'pumpSourceEnded', 'pumpAfterPull', 'performTransformHandingOff',
  'enqueueIntoArmedRead', 'transformReadArmed', 'countChainEndingAtReader', 'createPipePump',
];

/** Plugs the fast paths in (every hook at once): called at load by src/fast/plug.js. */
export function plugTiers(hooks) {
  for (let i = 0; i < HOOKS.length; i++) {
    const name = HOOKS[i];
    if (typeof hooks[name] !== 'function') throw new OriginalTypeError(`tiers: no ${name} hook given`);
    tiers[name] = hooks[name];
  }
  tiers.on = true;
}
