// A child process whose ancestor holds the metrics port (npm start, a
// supervisor, a cluster primary's other children) sends that process its
// counters over HTTP, on the same port, with the token it inherited
// (cluster.js): once it has stream work to show, then once per second while
// they change, and a last time when the event loop empties. Nothing here keeps
// the process alive but that last report. When the holder is gone
// (ECONNREFUSED), `onHolderGone` lets port.js take the port over.
import { counters, snapshotCounters } from './counters.js';
import { sites, topSites } from './sites.js';
import { REPORT_INTERVAL_MS } from './cluster.js';
import { REPORT_PATH, TOKEN_HEADER } from './server.js';
import { builtin } from '../patch/builtins.js';

const FIELDS = Object.keys(counters);
export function anyWork() {
  for (let i = 0; i < FIELDS.length; i++) if (counters[FIELDS[i]] > 0) return true;
  return false;
}

/** Where to reach a server bound to `host` from this machine. */
export function connectHost(host) {
  if (host === '' || host === '0.0.0.0') return '127.0.0.1';
  if (host === '::' || host === '[::]') return '::1';
  return host;
}

/**
 * Starts reporting to the holder of host:port. `onHolderGone()` returns a
 * promise of true when this process now holds the port (reporting stops).
 * `warn` says once why reports are refused. Returns a function that stops it.
 */
export function reportToHolder({ port, host, token, onHolderGone, warn, intervalMs = REPORT_INTERVAL_MS }) {
  const { request } = builtin('node:http');
  let stopped = false;
  let sending = false;
  let sent = '';
  const stop = () => {
    stopped = true;
    clearInterval(timer);
    process.removeListener('beforeExit', last);
  };
  const send = (keepAlive) => {
    if (stopped || sending || !anyWork()) return;
    const body = JSON.stringify({ pid: process.pid, counters: snapshotCounters(), sites: sites.on ? topSites() : undefined });
    if (body === sent) return;
    sending = true;
    const req = request({
      host: connectHost(host), port, path: REPORT_PATH, method: 'POST', agent: false,
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), [TOKEN_HEADER]: token },
    }, (res) => {
      res.resume();
      sending = false;
      if (res.statusCode === 204) {
        sent = body;
      } else {
        stop();
        const why = res.statusCode === 403 ? ': that process did not start this one' : '';
        warn(`the process holding the metrics port ${host}:${port} refused the counters of pid ${process.pid} ` +
          `(HTTP ${res.statusCode}${why}); they are not served`);
      }
    });
    if (!keepAlive) req.on('socket', (socket) => socket.unref());
    req.on('error', (err) => {
      sending = false;
      if (err.code !== 'ECONNREFUSED' || stopped) return; // a busy holder: the next tick tries again
      onHolderGone().then((holding) => {
        if (holding) stop();
      });
    });
    req.end(body);
  };
  const timer = setInterval(() => send(false), intervalMs);
  timer.unref();
  // The last report when the application is done (a short script ends before the first tick).
  const last = () => {
    process.removeListener('beforeExit', last);
    send(true);
  };
  process.on('beforeExit', last);
  return stop;
}
