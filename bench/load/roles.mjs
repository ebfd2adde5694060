// The child processes of a load run, by role. A server is started twice, once
// per implementation: 'native' and 'fast' are the example server's two
// processes (as they were before the framework apps came), 'native:next',
// 'fast:hono', ... a framework app's. 'upstream' and 'llm' are the backends,
// started once and shared by both implementations. This module says which
// roles a route needs and how each child is started (argv, environment, cwd).
import { join } from 'node:path';
import { ALL_ROUTES, BACKENDS, SERVERS } from './apps.mjs';

export const IMPLS = ['native', 'fast'];
export const IMPL_NAME = { native: 'native', fast: 'fast-webstreams' };

export const isBackend = (role) => Object.hasOwn(BACKENDS, role);
export const roleOf = (impl, server) => (server === 'example' ? impl : `${impl}:${server}`);
export const implOf = (role) => role.split(':')[0];
export const serverOf = (role) => role.split(':')[1] ?? 'example';

/** "native server", "fast Next.js server", "LLM mock". */
export const roleName = (role) => (isBackend(role) ? BACKENDS[role].name : `${implOf(role)} ${SERVERS[serverOf(role)].name}`);

/** The server process of `impl` that serves `route`. */
export const serverRole = (route, impl) => roleOf(impl, ALL_ROUTES[route].server);

/** Every child a route needs: its server in both implementations, and its backends. */
export const routeRoles = (route) => [...IMPLS.map((impl) => serverRole(route, impl)), ...ALL_ROUTES[route].backends];

/** Whether a step (one window of one route and implementation) needs `role`. */
export const stepUses = (step, role) => (isBackend(role) ? ALL_ROUTES[step.route].backends.includes(role)
  : serverRole(step.route, step.impl) === role);

/** The servers and backends the routes need, in the order they start. */
export function neededBy(routes) {
  const servers = [...new Set(routes.map((r) => ALL_ROUTES[r].server))];
  const backends = Object.keys(BACKENDS).filter((b) => routes.some((r) => ALL_ROUTES[r].backends.includes(b)));
  return { servers, backends };
}

/**
 * How to start `role`: argv (after the node binary comes the crash hook, if
 * one is asked for, then the script), environment, working directory, and the
 * variables that set the child apart (shown in its command line).
 * `port` is the port to listen on ('0': any); `urls` are the backends' URLs.
 */
export function childSpec(role, { root, nodeBin, env, codecs, port, urls, appDirs, crash }) {
  const argv = [nodeBin];
  const childEnv = { ...env, PORT: String(port) };
  let shownEnv = {};
  let cwd = root;
  let script;
  if (isBackend(role)) {
    Object.assign(childEnv, BACKENDS[role].env);
    script = [BACKENDS[role].script];
  } else {
    const server = SERVERS[serverOf(role)];
    if (implOf(role) === 'fast') {
      // The example server resolves the package from the repository, as its docs say; a framework app
      // runs in its own folder under .cache/, where only an absolute path finds the preload.
      const preload = server.source ? join(root, 'register.mjs') : 'fast-webstreams/register';
      shownEnv = { NODE_OPTIONS: `--import ${preload}`, FAST_WEBSTREAMS_METRICS_PORT: '0', ...(!codecs && { FAST_WEBSTREAMS_CODECS: '0' }) };
    }
    Object.assign(childEnv, shownEnv, {
      ...(urls.upstream && { UPSTREAM_URL: urls.upstream }),
      ...(urls.llm && { LLM_URL: urls.llm }),
      LOAD_WEBSTREAMS_LIB: join(root, 'dist', 'fast-webstreams.js'), // the apps' /health compares the globals with it
      NEXT_TELEMETRY_DISABLED: '1',
    });
    if (server.source) cwd = appDirs[serverOf(role)];
    script = server.argv(port);
  }
  if (crash && crash.role === (isBackend(role) ? role : implOf(role))) {
    argv.push('--import', join(root, 'bench', 'load', 'crash-hook.mjs'));
    Object.assign(childEnv, { LOAD_TEST_CRASH_PATH: crash.path, LOAD_TEST_CRASH_AFTER: String(crash.after), LOAD_TEST_CRASH_HOW: crash.how });
  }
  argv.push(...script);
  return { argv, env: childEnv, cwd, shownEnv };
}
