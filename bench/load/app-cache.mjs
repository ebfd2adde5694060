// The framework apps of npm run load, installed on demand: an app's sources
// (bench/load/apps/<name>, with a package.json and a lock file pinning its
// dependencies) are copied into .cache/load-apps/<name>, `npm ci` runs there
// when the lock file changed, and the app's build (next build) when anything
// did. The project's own npm ci never installs them.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

const STAMP = '.load-app-stamp.json'; // what was installed and built, by content hash
const TIMEOUT_MS = 10 * 60 * 1000;

/** Every file under `dir`, as paths relative to it, sorted. */
export function listFiles(dir) {
  const out = [];
  const walk = (d) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const path = join(d, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) out.push(relative(dir, path));
    }
  };
  walk(dir);
  return out.sort();
}

function hashFiles(dir, names) {
  const h = createHash('sha256');
  for (const name of names) h.update(`${name}\0`).update(readFileSync(join(dir, name))).update('\0');
  return h.digest('hex').slice(0, 16);
}

/** The last lines of a failed command's output, for the error message. */
function tailOf(r) {
  return `${r.stdout ?? ''}${r.stderr ?? ''}`.trim().split('\n').slice(-15).join('\n');
}

function run(argv, { cwd, env, what }) {
  const r = spawnSync(argv[0], argv.slice(1), { cwd, env, encoding: 'utf8', timeout: TIMEOUT_MS, maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0) {
    const how = r.error ? r.error.message : r.signal ? `killed by ${r.signal}` : `exit code ${r.status}`;
    throw new Error(`${what} failed (${how}) in ${cwd}:\n${tailOf(r)}`);
  }
}

/**
 * Makes `.cache/load-apps/<name>` current for the app whose sources are in
 * `sourceDir`: copies them, installs with npm ci if the lock changed, runs
 * `build` (argv after the node binary) if anything changed. Returns the
 * folder. Throws with the command's last output lines when a step fails.
 */
export function prepareApp({ root, name, sourceDir, build, builtMarker, nodeBin, env, log }) {
  const src = join(root, sourceDir);
  const dest = join(root, '.cache', 'load-apps', name);
  const files = listFiles(src);
  for (const required of ['package.json', 'package-lock.json']) {
    if (!files.includes(required)) throw new Error(`${sourceDir} has no ${required}`);
  }
  let stamp = {};
  try {
    stamp = JSON.parse(readFileSync(join(dest, STAMP), 'utf8'));
  } catch {}
  mkdirSync(dest, { recursive: true });
  // Files copied by an earlier run that are no longer in the sources go (a removed route must not be built).
  for (const old of stamp.files ?? []) if (!files.includes(old)) rmSync(join(dest, old), { force: true });
  for (const file of files) {
    mkdirSync(dirname(join(dest, file)), { recursive: true });
    writeFileSync(join(dest, file), readFileSync(join(src, file)));
  }
  const lockHash = hashFiles(src, ['package.json', 'package-lock.json']);
  const sourceHash = hashFiles(src, files);
  const next = { files, lockHash: stamp.lockHash, buildHash: stamp.buildHash };
  const save = () => writeFileSync(join(dest, STAMP), `${JSON.stringify(next, null, 2)}\n`);
  const lock = JSON.parse(readFileSync(join(src, 'package-lock.json'), 'utf8'));
  const hasDependencies = Object.keys(lock.packages ?? {}).length > 1; // npm ci of none makes no node_modules
  if (stamp.lockHash !== lockHash || (hasDependencies && !existsSync(join(dest, 'node_modules')))) {
    log(`installing ${name}'s dependencies into ${relative(root, dest)} (npm ci, once per lock file)`);
    next.buildHash = null;
    run(['npm', 'ci', '--no-audit', '--no-fund', '--ignore-scripts'], { cwd: dest, env, what: `npm ci of ${name}` });
    next.lockHash = lockHash;
    save();
  }
  if (build && (next.buildHash !== sourceHash || (builtMarker && !existsSync(join(dest, builtMarker))))) {
    log(`building ${name} (${build.join(' ')}, once per change of its sources)`);
    next.buildHash = null; // a build that fails half-way leaves nothing to trust
    save();
    run([nodeBin, ...build], { cwd: dest, env, what: `the build of ${name}` });
    next.buildHash = sourceHash;
  }
  save();
  return dest;
}
