#!/usr/bin/env node
// Provides the web-platform-tests (WPT) files the conformance runs need.
//
//   node test/wpt/fetch-wpt.mjs            # ensure .cache/wpt exists, print its path
//   node test/wpt/fetch-wpt.mjs --force    # throw the cache away and fetch again
//   WPT_DIR=/path/to/wpt node test/wpt/fetch-wpt.mjs   # use a checkout, fetch nothing
//
// Where the files come from: Node.js vendors a snapshot of WPT under
// test/fixtures/wpt/ in its source tree, and Debian ships that tree in the
// upstream ("orig") tarball of its `nodejs` source package. We ask Debian's
// mirrors, through a PRIVATE apt configuration (the system's /etc/apt is never
// touched), which nodejs source versions the suites below carry, and take the
// newest one whose orig tarball downloads and holds the WPT tree: only that one
// file is fetched (checked against the SHA-256 the signed index gives), never
// the .dsc or the Debian patches, which mirrors drop independently of it. We
// extract streams/, encoding/, compression/ and the harness into .cache/wpt/
// and delete the download. Nothing fetched is ever committed (.cache/ is
// git-ignored).
//
// Mirrors move: a version listed in the index may already be gone from the
// pool (a 404), so every candidate is tried in turn, newest first.
//
// Environment knobs:
//   WPT_DIR                 use this WPT checkout root instead of the cache
//   WPT_DEBIAN_VERSION      try this source version first (e.g. 20.19.2+dfsg-1+deb13u3)
//   WPT_APT_KEYRING         keyring for Signed-By (default Debian's archive keyring)
//
// Importable: `import { ensureWpt } from './fetch-wpt.mjs'` returns the WPT root.

import {
  existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync,
} from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEBIAN_KEYRING, download, printedUri, privateApt, run as runCommand } from '../debian/apt.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
export const REPO_ROOT = resolve(HERE, '..', '..');
export const CACHE_DIR = join(REPO_ROOT, '.cache', 'wpt');

const SOURCE_PACKAGE = 'nodejs';
// Suites whose nodejs carries Node's vendored WPT (20.x and later). Security
// and updates suites first hold a newer revision of the same upstream.
const SOURCES = [
  { types: 'deb-src', uri: 'http://deb.debian.org/debian', suites: ['sid', 'forky', 'trixie', 'trixie-updates'] },
  { types: 'deb-src', uri: 'http://deb.debian.org/debian-security', suites: ['trixie-security'] },
];
const MIN_MAJOR = 20; // older trees lack parts of streams/ that Node runs
const WPT_SUBDIRS = ['streams', 'encoding', 'compression', 'resources', 'common', 'interfaces'];
const WPT_EXTRA_FILES = ['versions.json', 'LICENSE.md'];
const STAMP = '.fetched.json';

const log = (msg) => console.log(`[fetch-wpt] ${msg}`);

function isWptRoot(dir) {
  return existsSync(join(dir, 'streams')) && existsSync(join(dir, 'resources', 'testharness.js'));
}

const run = (cmd, args, opts = {}) => runCommand(cmd, args, { ...opts, log: opts.quiet ? undefined : log });

/** "20.19.2+dfsg-1+deb13u3" -> [20, 19, 2]; the upstream part only. */
const upstreamNumbers = (version) => (/^(\d+)\.(\d+)\.(\d+)/.exec(version) ?? []).slice(1).map(Number);
const byNewestUpstream = (a, b) => {
  const x = upstreamNumbers(a), y = upstreamNumbers(b);
  return (y[0] - x[0]) || (y[1] - x[1]) || (y[2] - x[2]);
};

/** Source versions apt knows about, newest upstream first, the preferred one (if any) in front. */
function candidateVersions(apt, preferred) {
  const r = run('apt-cache', [...apt.options, 'showsrc', SOURCE_PACKAGE], { quiet: true });
  const known = [...new Set((r.stdout || '').split('\n')
    .filter((l) => l.startsWith('Version: ')).map((l) => l.slice(9).trim()))]
    .filter((v) => upstreamNumbers(v)[0] >= MIN_MAJOR)
    .sort(byNewestUpstream);
  log(`nodejs source versions in the index: ${known.join(', ') || '(none)'}`);
  return preferred ? [preferred, ...known.filter((v) => v !== preferred)] : known;
}

/** The orig tarball of a source version: { url, file, size, sha256 }, from `apt-get source --print-uris`. */
function origTarball(apt, version) {
  const r = run('apt-get', [...apt.options, 'source', '--print-uris', `${SOURCE_PACKAGE}=${version}`], { quiet: true });
  const orig = printedUri(r.stdout, /\.orig\.tar\.(xz|gz)$/);
  if (orig !== undefined) return orig;
  throw new Error(`apt lists no orig tarball for ${SOURCE_PACKAGE}=${version}${r.stderr ? `: ${r.stderr.trim()}` : ''}`);
}

/** Extracts the WPT parts of a Node source tarball into `staging`; returns the path prefix inside it. */
function extractWpt(tarball, staging) {
  const list = run('tar', ['-tf', tarball, '--wildcards', '--no-anchored', '*/test/fixtures/wpt/resources/testharness.js'], { quiet: true });
  const hit = (list.stdout || '').split('\n').find((l) => l.endsWith('/test/fixtures/wpt/resources/testharness.js'));
  if (!hit) throw new Error('no test/fixtures/wpt/resources/testharness.js inside');
  const prefix = hit.slice(0, -'resources/testharness.js'.length); // ends with '/'
  const strip = prefix.split('/').filter(Boolean).length;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  const patterns = [...WPT_SUBDIRS.map((d) => `${prefix}${d}/*`), ...WPT_EXTRA_FILES.map((f) => `${prefix}${f}`)];
  // Exit status ignored on purpose: some trees lack compression/ or LICENSE.md; the check below decides.
  run('tar', ['-xf', tarball, '--no-same-owner', '-C', staging, `--strip-components=${strip}`, '--wildcards', ...patterns], { quiet: true });
  if (!isWptRoot(staging)) throw new Error('extraction gave no streams/ and resources/testharness.js');
  return prefix;
}

async function fetchFromDebian() {
  const keyring = process.env.WPT_APT_KEYRING || DEBIAN_KEYRING;
  const work = join(REPO_ROOT, '.cache', 'wpt-fetch');
  const staging = join(REPO_ROOT, '.cache', 'wpt.partial');
  let apt;
  try {
    apt = privateApt(work, SOURCES, { keyring, name: 'wpt-src', log });
  } catch (err) {
    throw new Error(`${err.message}: set WPT_DIR to a WPT checkout instead (or WPT_APT_KEYRING)`);
  }
  const tried = [];
  try {
    apt.update();

    for (const version of candidateVersions(apt, process.env.WPT_DEBIAN_VERSION)) {
      try {
        const orig = origTarball(apt, version);
        const dest = join(work, orig.file);
        if (tried.some((t) => t.file === orig.file)) continue; // same upstream tarball, already failed
        tried.push({ version, file: orig.file, error: null });
        await download(orig, dest, { log });
        log(`downloaded ${orig.file} (${(statSync(dest).size / 1e6).toFixed(1)} MB, SHA-256 checked)`);
        const prefix = extractWpt(dest, staging);
        rmSync(dest, { force: true });
        writeFileSync(join(staging, STAMP), JSON.stringify({
          source: `debian ${SOURCE_PACKAGE} ${version}`, tarball: orig.file, prefix, fetchedAt: new Date().toISOString(),
        }, null, 2) + '\n');
        rmSync(CACHE_DIR, { recursive: true, force: true });
        renameSync(staging, CACHE_DIR);
        return;
      } catch (err) {
        if (tried.length) tried[tried.length - 1].error = err.message;
        log(`${version}: ${err.message}; trying the next version`);
      }
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
    rmSync(staging, { recursive: true, force: true });
  }
  throw new Error([
    'no nodejs source tarball with Node\'s vendored WPT could be fetched from Debian\'s mirrors.',
    ...tried.map((t) => `  ${t.version}: ${t.error}`),
    'What to do: point WPT_DIR at a WPT checkout (git clone --depth=1 https://github.com/web-platform-tests/wpt),',
    'or at test/fixtures/wpt of a Node.js source tree; or set WPT_DEBIAN_VERSION to a version the mirrors serve.',
  ].join('\n'));
}

function describe(root) {
  const count = (dir) => {
    let n = 0;
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.isDirectory()) n += count(join(dir, e.name));
      else if (e.name.endsWith('.any.js')) n++;
    }
    return n;
  };
  let commit = '';
  try {
    commit = JSON.parse(readFileSync(join(root, 'versions.json'), 'utf8')).streams?.commit ?? '';
  } catch {}
  return `${count(join(root, 'streams'))} streams/**/*.any.js files${commit ? `, WPT streams commit ${commit.slice(0, 12)}` : ''}`;
}

export async function ensureWpt({ force = false, quiet = false } = {}) {
  const say = quiet ? () => {} : log;
  if (process.env.WPT_DIR) {
    const root = resolve(process.env.WPT_DIR);
    if (!isWptRoot(root)) {
      throw new Error(`WPT_DIR=${root} does not contain streams/ and resources/testharness.js`);
    }
    say(`using WPT_DIR=${root} (${describe(root)}); fetching nothing`);
    return root;
  }
  if (!force && isWptRoot(CACHE_DIR) && existsSync(join(CACHE_DIR, STAMP))) {
    const stamp = JSON.parse(readFileSync(join(CACHE_DIR, STAMP), 'utf8'));
    say(`using cached ${CACHE_DIR} (${stamp.source}; ${describe(CACHE_DIR)})`);
    return CACHE_DIR;
  }
  log(force ? `--force: fetching again into ${CACHE_DIR}` : `${CACHE_DIR} missing or incomplete; fetching`);
  const t0 = Date.now();
  await fetchFromDebian();
  log(`ready: ${CACHE_DIR} (${describe(CACHE_DIR)}) in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  return CACHE_DIR;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    console.log(await ensureWpt({ force: process.argv.includes('--force') }));
  } catch (err) {
    console.error(`[fetch-wpt] ERROR: ${err.message}`);
    process.exit(1);
  }
}
