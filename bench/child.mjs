// One measurement in a fresh process: run a scenario a few times to warm up
// (JIT, inline caches, lazily loaded undici), then time whole runs for at least
// MIN_TIMED_MS and print one JSON line. The parent chose the implementation through preload flags, so
// nothing here knows which Web Streams it is using.
//   node [preload flags] bench/child.mjs --scenario=<name> --kind=web|node
// BENCH_CLOCK=cpu (run.mjs --clock=cpu) times the process's CPU time (warm-up
// included) instead of the wall clock: on a machine shared with other work,
// time spent waiting for a core then counts for nothing.
// BENCH_COLD=1 (run.mjs --cold) is a fresh process's first stream: one run, no
// warm-up, timed from the process's start (the preload's loading included) to
// that run's end, on the same clock.
// BENCH_SMOKE=1 (test/unit/bench-smoke.test.mjs) runs the scenario once, checked,
// with no warm-up and no timed window: it says the scenario works, not how fast.
import { byName } from './scenarios/index.mjs';
import { CHUNK, COUNT, QUICK } from './scenarios/common.mjs';

const MIN_TIMED_MS = QUICK ? 100 : 500;
const CPU_CLOCK = process.env.BENCH_CLOCK === 'cpu';
const SMOKE = process.env.BENCH_SMOKE === '1';
const COLD = process.env.BENCH_COLD === '1';
// BENCH_APP_HEAP_MB (run.mjs --app-heap): application state kept alive for the whole run
// (app-heap.mjs, loaded only then: without it the child's heap is what it always was).
const APP_HEAP_MB = Number(process.env.BENCH_APP_HEAP_MB ?? 0);
const appHeap = APP_HEAP_MB > 0 ? (await import('./app-heap.mjs')).retainAppHeap(APP_HEAP_MB) : [];
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

const args = Object.fromEntries(process.argv.slice(2).map((a) => a.replace(/^--/, '').split(/=(.*)/s, 2)));

function report(obj) {
  process.stdout.write(`${JSON.stringify(obj)}\n`);
}

try {
  const scenario = byName.get(args.scenario);
  if (!scenario) throw new Error(`unknown scenario: ${args.scenario}`);
  const fn = scenario[args.kind];
  if (!fn) throw new Error(`scenario ${args.scenario} has no ${args.kind} body`);

  const check = (amount) => {
    // A stream that drops or duplicates chunks would look fast; refuse it.
    if (scenario.unit === 'bytes' && amount !== COUNT * CHUNK) {
      throw new Error(`moved ${amount} bytes, expected ${COUNT * CHUNK}`);
    }
    if (!(amount > 0) && scenario.unit !== 'memory') throw new Error(`scenario returned ${amount}`);
    return amount;
  };

  // Warm up until the optimising compiler has had a real chance: at least
  // two runs and a quarter of a second (quick mode's small totals would
  // otherwise time code still running in the interpreter). Memory scenarios
  // need only one run to load every module and shape.
  const minRuns = scenario.unit === 'memory' ? 1 : 2;
  const clockMs = CPU_CLOCK ? cpuMs : () => performance.now();
  if (COLD) {
    const amount = check(await fn());
    // performance.now() and process.cpuUsage() both count from the process's start.
    const seconds = performance.now() / 1000;
    const cpuSeconds = cpuMs() / 1000;
    const value = amount / (CPU_CLOCK ? cpuSeconds : seconds);
    report({ value, amount, seconds, cpuSeconds, runs: 1, appHeapRecords: appHeap.length });
    process.exit(0);
  }
  const warmStart = clockMs();
  for (let i = 0; !SMOKE && i < 50 && (i < minRuns || (scenario.unit !== 'memory' && clockMs() - warmStart < 250)); i++) {
    check(await fn());
  }
  globalThis.gc?.();

  // Timed part: whole runs of the scenario until MIN_TIMED_MS have passed, so
  // fast scenarios (a 32 MB read loop takes ~20 ms) are not timed over a span
  // shorter than a scheduler hiccup. Memory scenarios are measured once.
  let amount = 0;
  let runs = 0;
  const t0 = process.hrtime.bigint();
  const c0 = cpuMs();
  let elapsedMs = 0;
  let timedMs = 0;
  do {
    amount += check(await fn());
    runs++;
    elapsedMs = Number(process.hrtime.bigint() - t0) / 1e6;
    timedMs = CPU_CLOCK ? cpuMs() - c0 : elapsedMs;
  } while (!SMOKE && scenario.unit !== 'memory' && timedMs < MIN_TIMED_MS && runs < 1000);
  const seconds = elapsedMs / 1000;
  const value = scenario.unit === 'memory' ? amount : amount / (timedMs / 1000);
  report({ value, amount, seconds, cpuSeconds: (cpuMs() - c0) / 1000, runs, appHeapRecords: appHeap.length });
  process.exit(0);
} catch (err) {
  report({ error: String(err?.stack ?? err).split('\n').slice(0, 3).join(' | ') });
  process.exit(1);
}
