// Command-line options of npm run load, and the routes it can drive.

export const ALL_ROUTES = {
  ssr: { path: '/ssr', label: 'React SSR (renderToReadableStream + inject transform)' },
  proxy: { path: '/proxy', label: 'fetch proxy, 64 KB through 3 TransformStreams', usesUpstream: true },
  forward: { path: '/forward', label: 'Response forwarding (fetch-style handler)' },
  ndjson: { path: '/ndjson', label: 'NDJSON streaming, 500 rows' },
  sse: { path: '/sse', label: 'SSE relay, 200 events (TextDecoderStream, TextEncoderStream)', usesUpstream: true },
};
const DEFAULTS = { rounds: 3, duration: 8, warmup: 2, connections: 10 };
const QUICK = { rounds: 2, duration: 3, warmup: 1 };
export const USAGE = 'npm run load -- [--rounds=3] [--duration=8] [--warmup=2] [--connections=10] ' +
  '[--routes=ssr,proxy,forward,ndjson,sse] [--node=24] [--out=dir] [--quick] [--no-codecs]';

/** Throws with a message fit for the user on anything it does not understand. */
export function parseArgs(argv, defaultOut) {
  const opts = { ...DEFAULTS, routes: Object.keys(ALL_ROUTES), node: null, out: defaultOut, quick: false, codecs: true, help: false };
  const given = new Set();
  for (const arg of argv) {
    const m = /^--([a-z-]+)(?:=(.*))?$/.exec(arg);
    if (!m) throw new Error(`unknown argument ${arg} (${USAGE})`);
    const [, key, value = ''] = m;
    if (key === 'help') {
      opts.help = true;
    } else if (key === 'quick') {
      opts.quick = true;
    } else if (key === 'codecs') {
      opts.codecs = true; // the default: the fast server runs our codec classes
    } else if (key === 'no-codecs') {
      opts.codecs = false; // the fast server gets FAST_WEBSTREAMS_CODECS=0: Node's codec classes
    } else if (key in DEFAULTS) {
      const n = Number(value);
      const min = key === 'warmup' ? 0 : 1;
      const max = key === 'rounds' ? 50 : key === 'connections' ? 1000 : 3600;
      if (!Number.isInteger(n) || n < min || n > max) throw new Error(`bad --${key}=${value} (an integer from ${min} to ${max})`);
      opts[key] = n;
      given.add(key);
    } else if (key === 'routes') {
      opts.routes = value.split(',').map((s) => s.trim()).filter(Boolean);
      if (opts.routes.length === 0) throw new Error('--routes needs at least one route');
      for (const r of opts.routes) if (!ALL_ROUTES[r]) throw new Error(`unknown route ${r} (known: ${Object.keys(ALL_ROUTES).join(', ')})`);
    } else if (key === 'node') {
      if (!/^\d+$/.test(value)) throw new Error(`bad --node=${value} (a major version: --node=24)`);
      opts.node = Number(value);
    } else if (key === 'out') {
      if (!value) throw new Error('--out needs a directory');
      opts.out = value;
    } else {
      throw new Error(`unknown option --${key} (${USAGE})`);
    }
  }
  // --quick sets what was not given explicitly.
  if (opts.quick) for (const [key, value] of Object.entries(QUICK)) if (!given.has(key)) opts[key] = value;
  return opts;
}

/**
 * TEST ONLY: LOAD_TEST_CRASH=<native|fast|upstream>:<path>[:<nth request>[:rejection|signal|exit:<code>]]
 * makes that child die on the nth request to the path (bench/load/crash-hook.mjs).
 */
export function parseCrashHook(value) {
  if (!value) return null;
  const m = /^(native|fast|upstream):(\/[^:]*)(?::(\d+))?(?::(rejection|signal|exit:\d+))?$/.exec(value);
  if (!m) throw new Error(`bad LOAD_TEST_CRASH=${value} (<native|fast|upstream>:<path>[:<n>[:rejection|signal|exit:<code>]])`);
  return { role: m[1], path: m[2], after: Number(m[3] ?? 1), how: m[4] ?? 'rejection' };
}
