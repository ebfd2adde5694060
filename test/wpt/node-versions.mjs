#!/usr/bin/env node
// Resolves a node binary for a supported major (20, 22, 24, 26) or an exact
// version (24.21.0, a pinned release kept for reproducibility).
//
//   node test/wpt/node-versions.mjs [major|version ...]   # default: 20 22 24 26
//   prints "<spec>\t<version>\t<binary>\t<source>" per line
//
// A major means its NEWEST patch release: Node moves under users, and a patch
// release that breaks us must fail our tests, not a user's program. It is
// asked of the npm registry each time (the versions of the platform package
// node-<platform>-<arch>, which holds the real executable and is published for
// every release; the `node` wrapper package lags behind it), and the binary is
// cached in .cache/node/v<version>/, so a later run only asks which version is
// newest. Where the registry cannot be asked, the newest binary cached for that
// major is used, and the log says so. The machine's own node is used when it is
// the version wanted. Every binary is run once to check that it works.
//
// Importable: `import { resolveNode } from './node-versions.mjs'`.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
const REPO_ROOT = resolve(HERE, '..', '..');
const NODE_CACHE = join(REPO_ROOT, '.cache', 'node');
export const DEFAULT_MAJORS = [20, 22, 24, 26];

const log = (msg) => console.log(`[node-versions] ${msg}`);
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

function probe(bin) {
  if (!bin || !existsSync(bin)) return null;
  const r = spawnSync(bin, ['-p', 'process.version + " " + process.execPath'], { encoding: 'utf8', timeout: 60000 });
  if (r.status !== 0) return null;
  const [version, execPath] = r.stdout.trim().split(' ');
  return { version: version.slice(1), execPath };
}

const parse = (version) => version.split('.').map(Number);
const majorOf = (version) => parse(version)[0];
/** Newest first. */
const byVersionDesc = (a, b) => {
  const [x, y] = [parse(a), parse(b)];
  return y[0] - x[0] || y[1] - x[1] || y[2] - x[2];
};

function platformPackage() {
  const platform = process.platform === 'win32' ? 'win' : process.platform;
  const prefix = process.platform === 'darwin' && process.arch === 'arm64' ? 'node-bin' : 'node';
  return `${prefix}-${platform}-${process.arch}`;
}

const newestAsked = new Map(); // major -> version, once per process

/** The newest release of `major` the registry has, or null when it cannot be asked. */
function newestRelease(major) {
  if (newestAsked.has(major)) return newestAsked.get(major);
  const r = spawnSync(npm, ['view', `${platformPackage()}@${major}`, 'version', '--json'],
    { encoding: 'utf8', timeout: 120000 });
  let newest = null;
  if (r.status === 0) {
    try {
      const answer = JSON.parse(r.stdout);
      const versions = (Array.isArray(answer) ? answer : [answer])
        .filter((v) => /^\d+\.\d+\.\d+$/.test(v) && majorOf(v) === major);
      newest = versions.sort(byVersionDesc)[0] ?? null;
    } catch {
      newest = null;
    }
  }
  if (newest === null) log(`Node ${major}: the npm registry could not say which release is newest (${r.error?.message ?? r.stderr.trim().split('\n').pop() ?? `exit ${r.status}`})`);
  newestAsked.set(major, newest);
  return newest;
}

function npmInstall(dir, spec) {
  const args = ['install', '--prefix', dir, '--no-save', '--no-package-lock', '--no-audit', '--no-fund',
    '--loglevel=error', spec];
  log(`$ npm ${args.join(' ')}`);
  const r = spawnSync(npm, args, { stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, npm_config_yes: 'true' } });
  if (r.error) throw new Error(`npm: ${r.error.message}`);
  return r.status === 0;
}

const cacheDir = (version) => join(NODE_CACHE, `v${version}`);

function fromCache(version) {
  const p = probe(join(cacheDir(version), 'node_modules', platformPackage(), 'bin', 'node'));
  return p !== null && p.version === version ? { bin: p.execPath, version } : null;
}

/** The newest binary of `major` in the cache, for a run that cannot ask the registry. */
function newestCached(major) {
  if (!existsSync(NODE_CACHE)) return null;
  const versions = readdirSync(NODE_CACHE).filter((d) => /^v\d+\.\d+\.\d+$/.test(d)).map((d) => d.slice(1))
    .filter((v) => majorOf(v) === major).sort(byVersionDesc);
  for (const v of versions) {
    const hit = fromCache(v);
    if (hit) return hit;
  }
  return null;
}

function install(version) {
  const dir = cacheDir(version);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), '{ "private": true, "description": "node binary cache for the tests" }\n');
  log(`Node ${version}: not cached; installing ${platformPackage()}@${version} from the npm registry into ${dir}`);
  const t0 = Date.now();
  const hit = npmInstall(dir, `${platformPackage()}@${version}`) ? fromCache(version) : null;
  if (!hit) throw new Error(`could not obtain a working Node ${version} binary from the npm registry`);
  log(`Node ${version}: ${hit.bin} (installed in ${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  return hit;
}

/**
 * An exact Node release (e.g. '20.19.0': the oldest of a supported line): resolveNode() with a version.
 * @returns {{ version: string, bin: string, source: string }}
 */
export function resolveNodeVersion(version) {
  if (!/^\d+\.\d+\.\d+$/.test(version)) throw new Error(`bad node version: ${version}`);
  const { bin, source } = resolveNode(version);
  return { version: `v${version}`, bin, source };
}

function pathNode() {
  const r = spawnSync('sh', ['-c', 'command -v node'], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : null;
}

/**
 * @param {number|string} spec a major (its newest patch release) or an exact version
 * @param {{ refresh?: boolean }} [opts] refresh: reinstall even if cached
 * @returns {{ major: number, version: string, bin: string, source: string }} version as process.version (v24.22.3)
 */
export function resolveNode(spec, { refresh = false } = {}) {
  const text = String(spec).replace(/^v/, '');
  const exact = /^\d+\.\d+\.\d+$/.test(text);
  if (!exact && !/^\d+$/.test(text)) throw new Error(`bad node version: ${spec} (a major, or major.minor.patch)`);
  const major = majorOf(text);
  let version = exact ? text : newestRelease(major);
  let why = exact ? 'pinned' : 'newest patch release on the npm registry';
  if (version === null) {
    const hit = newestCached(major);
    if (!hit) throw new Error(`Node ${major}: the registry cannot be asked and no binary is cached`);
    log(`Node ${major}: ${hit.version} ${hit.bin} (the newest CACHED: it may not be the newest release)`);
    return { major, version: `v${hit.version}`, bin: hit.bin, source: 'cache, registry not asked' };
  }
  for (const [bin, source] of [[process.execPath, 'this node'], [pathNode(), 'node on PATH']]) {
    const p = probe(bin);
    if (p && p.version === version) {
      log(`Node ${major}: ${version} (${why}) ${p.execPath} (${source})`);
      return { major, version: `v${version}`, bin: p.execPath, source };
    }
  }
  let hit = refresh ? null : fromCache(version);
  const source = hit ? 'cache' : 'npm';
  hit ??= install(version);
  log(`Node ${major}: ${version} (${why}) ${hit.bin} (${source === 'cache' ? 'cached from the npm registry' : 'installed'})`);
  return { major, version: `v${version}`, bin: hit.bin, source };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const refresh = args.includes('--refresh');
  const specs = args.filter((a) => !a.startsWith('--')).flatMap((a) => a.split(','));
  let failed = false;
  for (const s of specs.length ? specs : DEFAULT_MAJORS) {
    try {
      const r = resolveNode(s, { refresh });
      console.log(`${s}\t${r.version}\t${r.bin}\t${r.source}`);
    } catch (err) {
      console.error(`[node-versions] Node ${s}: ERROR ${err.message}`);
      failed = true;
    }
  }
  process.exit(failed ? 1 : 0);
}
