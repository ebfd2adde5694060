// The compose file's load job: drives each route of the example server with
// autocannon for DURATION seconds, then prints the tier counters the server's
// /metrics reports. (bench/load/ is the full native-vs-fast comparison.)
import autocannon from 'autocannon';

const target = process.env.TARGET ?? 'http://127.0.0.1:8080';
const metricsUrl = process.env.METRICS_URL ?? 'http://127.0.0.1:9464/metrics';
const duration = Number(process.env.DURATION ?? 20);
const connections = Number(process.env.CONNECTIONS ?? 20);
const routes = (process.env.ROUTES ?? '/ssr,/proxy,/forward,/ndjson').split(',');

const health = await (await fetch(`${target}/health`)).json();
console.log(`target ${target}: web streams ${health.webStreams}, ${health.node}; ${duration} s per route, ${connections} connections`);
let failed = false;
for (const route of routes) {
  const r = await autocannon({ url: `${target}${route}`, duration, connections });
  const errors = r.errors + r.timeouts + r.non2xx;
  if (errors > 0) failed = true;
  console.log(`${route.padEnd(10)} ${r.requests.average.toFixed(0).padStart(7)} req/s   p50 ${String(r.latency.p50).padStart(4)} ms   p99 ${String(r.latency.p99).padStart(4)} ms   errors ${errors}`);
}
try {
  const text = await (await fetch(metricsUrl)).text();
  console.log('\ntier counters from /metrics:');
  for (const line of text.split('\n')) if (line && !line.startsWith('#')) console.log(`  ${line}`);
} catch (err) {
  console.log(`no metrics at ${metricsUrl}: ${err.message}`);
}
process.exit(failed ? 1 : 0);
