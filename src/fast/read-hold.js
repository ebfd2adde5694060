// When a pipe's pump holds its next read back, so that it goes out in
// native's turn rather than earlier: a direct write finished at once where
// native's is still in flight (readsAhead), before the source's start()
// settled, or after a write handed a reader its chunk. The held read goes out
// through the pump's readOn().
import { enqueueMicrotask } from '../promise.js';

/**
 * Does a read now go out earlier than native's? The destination is idle: a
 * direct write finished at once, where native's would still be in flight
 * holding desiredSize at hwm - 1 (chunks are size 1 on that path), and native
 * reads again only when it finishes. With hwm > 1, or a write really in
 * flight here too, native reads at once as well.
 */
export function readsAhead(dest) {
  return dest.inFlightWriteRequest === undefined && dest.controller.queue.length === 0 && dest.controller.strategyHWM <= 1;
}

/**
 * Called after a write while the source's start() has not settled: holds
 * the next read back until native's turn when the write finished at once
 * (readsAhead). Native's write is still in flight, so its read comes when
 * the write finishes: a microtask later into a WritableStream, two into a
 * TransformStream (whose write waits on transform()'s promise). If start()
 * settles in between, native's controller pulls first with no read pending
 * (or not, when its queue is full), and the read then pulls or merges with
 * that pull; an early read turns those into one pull at start (fuzz seed
 * 54887: one pull fewer, and a source that closes in its second pull()
 * never ends the pipe). While it is held no read is pending, so no
 * chunk can reach the pump; the source only queues them, as natively.
 */
export function holdsReadBeforeStart(pump) {
  const dest = pump.dest;
  // A write refused by a destination no longer writable reads on at native's pace (pumpLoop).
  if (pump.writesStayInFlight !== undefined || pump.pipe.shuttingDown || dest.state !== 'writable' || !readsAhead(dest)) {
    return false;
  }
  holdRead(pump, dest.transform === undefined ? 1 : 2);
  return true;
}

/**
 * A direct write into a transform whose transform() returned at once handed
 * its chunk to a reader's (or an async iterator's) read of the output.
 * Natively that write is still in flight, and the pipe reads again only once
 * it has finished and the writer is ready: two microtasks after transform()
 * on Node 24 and 26, four on Node 20, three in the polyfill; in each, after
 * the reader's loop has asked for the next chunk. So the loop reads before
 * the pipe's next read pulls the source or the next transform() runs (fuzz
 * seeds 3143 3944 26908 31071 41807), and that chunk meets the loop's read
 * rather than the output's queue. Any hold gives that order; four moved the
 * most fuzz seeds to native's order on Node 24 and 26 (one: two fewer).
 */
export const WRITE_TURNS_INTO_TRANSFORM = 4;

/** Holds the pipe's next read back by `turns` microtasks. */
export function holdRead(pump, turns) {
  if (pump.heldStep === undefined) makeHeldStep(pump);
  pump.turnsHeld = turns;
  enqueueMicrotask(pump.heldStep);
}

// Made in a function of its own: see docs/architecture.md, "Closures kept in fields".
function makeHeldStep(pump) {
  const heldStep = () => {
    if (--pump.turnsHeld !== 0) {
      enqueueMicrotask(heldStep);
      return;
    }
    pump.heldForReader = false;
    pump.readOn();
  };
  pump.heldStep = heldStep;
}

