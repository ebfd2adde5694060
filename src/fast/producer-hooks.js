// The hooks the producers of a stream call (src/tiers.js: feedPump,
// pumpAfterPull): a pipe whose read a producer fulfils on a clean stack
// writes the chunk as soon as the producer returns, and a read the pump held
// until the source's pull settled goes out then.

/**
 * Hook for the producers of our own reactions (a controller's pull, a
 * bridge's enqueue): runs `produce(target, arg)` on a clean stack, and a pipe
 * reading `stream` whose read it fulfils writes the chunk as soon as it
 * returns, rather than a microtask later. The pump owns the only reader, and
 * no user code is on the stack below us.
 */
export function feedPump(stream, produce, target, arg) {
  const pump = stream.pump;
  if (pump === undefined) {
    produce(target, arg);
    return;
  }
  pump.feeding = true;
  try {
    produce(target, arg);
  } finally {
    pump.feeding = false;
  }
  pump.stepIfRequested();
  readAfterPullSettled(pump);
}

/** The read pumpLoop held back until the source's pull settled goes out now. */
function readAfterPullSettled(pump) {
  if (!pump.readAfterPull) return;
  pump.readAfterPull = false;
  pump.readOn();
}

/**
 * Hook for a default controller whose pull settled on a clean stack with no
 * pull asked for meanwhile: a pump whose read went out during that pull
 * (readDuringPull) gets the pull native's later read would have asked for,
 * so a pull() that enqueued nothing does not leave the pipe waiting forever.
 */
export function pumpAfterPull(pump, callPullIfNeeded, controller) {
  readAfterPullSettled(pump);
  if (!pump.readDuringPull) return;
  pump.readDuringPull = false;
  feedPump(controller.stream, callPullIfNeeded, controller);
}

