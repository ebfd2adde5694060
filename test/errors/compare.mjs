// Runs probe.mjs twice with the Node binary running this module: natively and
// under the preload (--import register.mjs); pairs the rows by site.
import { execFile } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const probe = join(here, 'probe.mjs');
const run = promisify(execFile);

async function probeRows(preload, extraArgs) {
  const args = preload ? ['--import', join(root, 'register.mjs'), probe, ...extraArgs] : [probe, ...extraArgs];
  const { stdout } = await run(process.execPath, args, {
    cwd: root,
    timeout: 120_000,
    maxBuffer: 16 * 1024 * 1024,
    env: { ...process.env, NODE_OPTIONS: '' },
  });
  return JSON.parse(stdout);
}

/** [{ site, native, ours }] for every site of the catalog (both runs list the same sites). */
export async function compareShapes(extraArgs = []) {
  const [native, ours] = await Promise.all([probeRows(false, extraArgs), probeRows(true, extraArgs)]);
  const oursBySite = new Map(ours.map((row) => [row.site, row]));
  return native.map((row) => ({ site: row.site, native: row, ours: oursBySite.get(row.site) }));
}

/**
 * Whether `ours` carries native's message: the text Node's bundled undici and
 * applications match on (e.g. undici's readableStreamClose swallows a close()
 * error only when it says "already closed"). Compared wherever an error is made.
 */
export function sameMessage(native, ours) {
  if (native.how === 'none' || native.how === 'timeout') return true;
  return ours !== undefined && ours.message === native.message;
}

/** What must agree between native and ours: how the error arrives, its constructor, code and name. */
export function shapeOf(row) {
  if (row === undefined) return 'missing';
  if (row.how === 'none' || row.how === 'timeout') return row.how;
  return `${row.how} ${row.ctor}${row.code === null ? '' : ` [${row.code}]`}${row.name === row.ctor ? '' : ` name=${row.name}`}`;
}
