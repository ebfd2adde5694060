// Every scenario, in report order. A scenario is
//   { name, about, unit?: 'bytes' | 'ops' | 'memory', flags?, needsServer?,
//     codecs?, web?: () => amount, node?: () => amount }
// `web` runs for native, fast-webstreams and the peer (globals only); `node`
// runs for node:stream. Throughput scenarios return bytes moved ('bytes',
// reported as MB/s) or operations done ('ops', ops/s); memory scenarios
// return bytes per stream directly. `codecs: true` marks a scenario that goes
// through a codec class, which fast-nocodecs (FAST_WEBSTREAMS_CODECS=0) also runs.
import core from './core.mjs';
import bytes from './bytes.mjs';
import http from './http.mjs';
import codecs from './codecs.mjs';
import adapters from './adapters.mjs';
import construct from './construct.mjs';
import memory from './memory.mjs';
import serverSinks from './server-sinks.mjs';

export const scenarios = [...core, ...bytes, ...http, ...codecs, ...adapters, ...serverSinks, ...construct, ...memory]
  .map((s) => ({ unit: 'bytes', flags: [], needsServer: false, codecs: false, ...s }));

export const byName = new Map(scenarios.map((s) => [s.name, s]));
