// The `fast-webstreams:metrics` diagnostics channel. While it has subscribers,
// a metrics record (see record.js) is published on it once per interval. With
// no subscriber there is no timer at all: the first subscribe() on the channel
// starts one (through a one-shot hook on the channel object), and the timer
// stops itself, re-arming the hook, when the last subscriber leaves.
//
// node:diagnostics_channel is required, not imported: Node has loaded it
// already, and an ESM import would build its namespace at every start.
import { metricsRecord } from './record.js';
import { builtin } from '../patch/builtins.js';

const diagnosticsChannel = builtin('node:diagnostics_channel');

export const CHANNEL_NAME = 'fast-webstreams:metrics';

// Held strongly: Node keeps channels weakly, and the hook lives on this object.
let channel = null;
let timer = null;
let intervalMs = 10000;
// enableMetricsChannel()'s `publishIf`, asked once, when a timer would first
// start; its answer holds for the life of the process.
let onlyIf;
let allowed;

function tick() {
  if (!channel.hasSubscribers) {
    clearInterval(timer);
    timer = null;
    armHook();
    return;
  }
  channel.publish(metricsRecord());
}

function start() {
  if (timer !== null) return;
  allowed ??= onlyIf === undefined || onlyIf() !== false;
  if (!allowed) return;
  timer = setInterval(tick, intervalMs);
  timer.unref();
}

function armHook() {
  // Node's Channel#subscribe activates the channel and then calls
  // this.subscribe() again, so the hook removes itself before delegating.
  try {
    Object.defineProperty(channel, 'subscribe', {
      value: function subscribe(subscription) {
        delete channel.subscribe;
        start();
        return channel.subscribe(subscription);
      },
      configurable: true,
      writable: true,
      enumerable: false,
    });
  } catch {
    // A frozen or unusual channel object: fall back to a timer that checks
    // hasSubscribers (one wake-up per interval).
    start();
  }
}

/**
 * Sets the channel up (idempotent). `ms` is the publishing interval.
 * `publishIf`, when given, is called once, when the first subscriber arrives: if
 * it returns false the channel never publishes (src/metrics/from-env.js passes
 * a main-thread check, deferred to then so that starting costs nothing).
 */
export function enableMetricsChannel(ms = 10000, publishIf = undefined) {
  intervalMs = ms;
  if (channel !== null) return channel;
  onlyIf = publishIf;
  channel = diagnosticsChannel.channel(CHANNEL_NAME);
  if (channel.hasSubscribers) start();
  else armHook();
  return channel;
}
