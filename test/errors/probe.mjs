// Runs every error site of sites.mjs in this process and prints one JSON array:
// [{ site, how: 'throw'|'reject'|'none'|'timeout', ctor, code, name, isError, message }].
// Run it natively and under the preload (--import register.mjs) to compare.
// --filter=TEXT keeps the sites whose name contains TEXT.
import sites from './sites.mjs';

const SITE_TIMEOUT_MS = 2000;

// A site's by-products (a stream's closed promise, say) may reject unobserved.
process.on('unhandledRejection', () => {});

function describeError(how, error) {
  const isObject = (typeof error === 'object' && error !== null) || typeof error === 'function';
  return {
    how,
    ctor: isObject ? error.constructor?.name ?? null : typeof error,
    code: isObject && error.code !== undefined ? error.code : null,
    name: isObject && typeof error.name === 'string' ? error.name : null,
    isError: error instanceof Error,
    message: isObject && typeof error.message === 'string' ? error.message : String(error),
  };
}

function withTimeout(promise) {
  let timer;
  const timeout = new Promise((resolve) => {
    timer = setTimeout(() => resolve({ timedOut: true }), SITE_TIMEOUT_MS);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

async function runSite({ setup, run }) {
  let ctx;
  if (setup !== undefined) ctx = await withTimeout(Promise.resolve(setup()));
  if (ctx?.timedOut) return { how: 'timeout', ctor: null, code: null, name: null, isError: false, message: 'setup' };
  let result;
  try {
    result = run(ctx);
  } catch (error) {
    return describeError('throw', error);
  }
  if (typeof result?.then !== 'function') return describeError('none', undefined);
  try {
    const settled = await withTimeout(result);
    if (settled?.timedOut) return { how: 'timeout', ctor: null, code: null, name: null, isError: false, message: '' };
    return describeError('none', undefined);
  } catch (error) {
    return describeError('reject', error);
  }
}

const filter = process.argv.find((a) => a.startsWith('--filter='))?.slice(9);
const out = [];
for (const s of sites) {
  if (filter !== undefined && !s.name.includes(filter)) continue;
  let row;
  try {
    row = await runSite(s);
  } catch (error) {
    row = { how: 'setup-failed', ...describeError('setup-failed', error) };
  }
  out.push({ site: s.name, ...row });
}
process.stdout.write(`${JSON.stringify(out)}\n`);
// Pending timers or handles left by a site must not keep the probe alive.
process.exit(0);
