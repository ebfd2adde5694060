// Command-line options of npm run load. The apps and routes it can drive are in apps.mjs.
import { ALL_ROUTES, APPS } from './apps.mjs';

const DEFAULTS = { rounds: 3, duration: 8, warmup: 2, connections: 10 };
const QUICK = { rounds: 2, duration: 3, warmup: 1 };
export const USAGE = 'npm run load -- [--rounds=3] [--duration=8] [--warmup=2] [--connections=10] ' +
  `[--apps=${Object.keys(APPS).join(',')}] [--routes=ssr,proxy,...] [--node=24] [--out=dir] [--quick] [--no-codecs]`;
const DEFAULT_APPS = ['example'];

/** Throws with a message fit for the user on anything it does not understand. */
export function parseArgs(argv, defaultOut) {
  const opts = { ...DEFAULTS, apps: null, routes: null, node: null, out: defaultOut, quick: false, codecs: true, help: false };
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
    } else if (key === 'apps') {
      opts.apps = [...new Set(value.split(',').map((s) => s.trim()).filter(Boolean))];
      if (opts.apps.length === 0) throw new Error('--apps needs at least one app');
      for (const a of opts.apps) if (!APPS[a]) throw new Error(`unknown app ${a} (known: ${Object.keys(APPS).join(', ')})`);
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
  // --routes alone picks its apps; --apps alone takes all their routes; both: the routes must be in those apps.
  if (opts.routes === null) {
    opts.apps ??= DEFAULT_APPS;
    opts.routes = opts.apps.flatMap((a) => Object.keys(APPS[a].routes));
  } else if (opts.apps === null) {
    opts.apps = [...new Set(opts.routes.map((r) => ALL_ROUTES[r].app))];
  } else {
    for (const r of opts.routes) {
      if (!opts.apps.includes(ALL_ROUTES[r].app)) throw new Error(`route ${r} is in app ${ALL_ROUTES[r].app}, not in --apps=${opts.apps.join(',')}`);
    }
  }
  // --quick sets what was not given explicitly.
  if (opts.quick) for (const [key, value] of Object.entries(QUICK)) if (!given.has(key)) opts[key] = value;
  return opts;
}

/**
 * TEST ONLY: LOAD_TEST_CRASH=<native|fast|upstream|llm>:<path>[:<nth request>[:rejection|signal|exit:<code>]]
 * makes that child die on the nth request to the path (bench/load/crash-hook.mjs); native and fast
 * are every server of that implementation (the path tells which one is hit).
 */
export function parseCrashHook(value) {
  if (!value) return null;
  const m = /^(native|fast|upstream|llm):(\/[^:]*)(?::(\d+))?(?::(rejection|signal|exit:\d+))?$/.exec(value);
  if (!m) throw new Error(`bad LOAD_TEST_CRASH=${value} (<native|fast|upstream|llm>:<path>[:<n>[:rejection|signal|exit:<code>]])`);
  return { role: m[1], path: m[2], after: Number(m[3] ?? 1), how: m[4] ?? 'rejection' };
}
