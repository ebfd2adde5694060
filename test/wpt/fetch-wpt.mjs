#!/usr/bin/env node
// Provides the web-platform-tests (WPT) files the streams conformance run needs.
//
//   node test/wpt/fetch-wpt.mjs            # ensure .cache/wpt exists, print its path
//   node test/wpt/fetch-wpt.mjs --force    # throw the cache away and fetch again
//   WPT_DIR=/path/to/wpt node test/wpt/fetch-wpt.mjs   # use a checkout, fetch nothing
//
// Where the files come from: Node.js vendors a snapshot of WPT under
// test/fixtures/wpt/ in its source tree. Debian ships that tree in the
// `nodejs` source package, so we download that source package from Debian's
// mirrors with a PRIVATE apt configuration (the system's /etc/apt is never
// touched), extract only streams/, resources/, common/ and interfaces/ (plus
// the two small metadata files versions.json and LICENSE.md) into
// .cache/wpt/, and delete the downloads. Nothing fetched is ever committed
// (.cache/ is git-ignored).
//
// Environment knobs:
//   WPT_DIR                 use this WPT checkout root instead of the cache
//   WPT_DEBIAN_VERSION      source version to fetch (default below)
//   WPT_APT_KEYRING         keyring for Signed-By (default Debian's archive keyring)
//
// Importable: `import { ensureWpt } from './fetch-wpt.mjs'` returns the WPT root.

import { spawnSync } from 'node:child_process';
import {
  existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync,
} from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
export const REPO_ROOT = resolve(HERE, '..', '..');
export const CACHE_DIR = join(REPO_ROOT, '.cache', 'wpt');

const SOURCE_PACKAGE = 'nodejs';
const DEFAULT_VERSION = '20.19.2+dfsg-1+deb13u2'; // Debian 13 "trixie", carried by the `trixie` suite
const WPT_SUBDIRS = ['streams', 'resources', 'common', 'interfaces'];
const WPT_EXTRA_FILES = ['versions.json', 'LICENSE.md'];
const STAMP = '.fetched.json';

const log = (msg) => console.log(`[fetch-wpt] ${msg}`);

function isWptRoot(dir) {
  return existsSync(join(dir, 'streams')) && existsSync(join(dir, 'resources', 'testharness.js'));
}

function run(cmd, args, opts = {}) {
  log(`$ ${[cmd, ...args].join(' ')}${opts.cwd ? `   (in ${opts.cwd})` : ''}`);
  const r = spawnSync(cmd, args, {
    stdio: opts.capture ? ['ignore', 'pipe', 'pipe'] : ['ignore', 'inherit', 'inherit'],
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
    ...opts,
  });
  if (r.error) throw new Error(`${cmd}: ${r.error.message}`);
  if (r.status !== 0 && !opts.allowFail) {
    const extra = opts.capture ? `\n${r.stderr || ''}` : '';
    throw new Error(`${cmd} ${args[0] ?? ''} exited with ${r.status ?? r.signal}${extra}`);
  }
  return r;
}

function aptOptions(work) {
  return [
    '-o', 'Dir::Etc::SourceList=/dev/null',
    '-o', `Dir::Etc::SourceParts=${join(work, 'sources.list.d')}`,
    '-o', `Dir::State::Lists=${join(work, 'lists')}`,
    '-o', `Dir::Cache=${join(work, 'cache')}`,
    '-o', 'Dir::Cache::pkgcache=',
    '-o', 'Dir::Cache::srcpkgcache=',
    // Our private folders belong to root; let apt download as the invoking
    // user instead of dropping to _apt (which could not write into them).
    '-o', 'APT::Sandbox::User=root',
    '-o', 'Acquire::Languages=none',
    '-o', 'Acquire::Retries=3',
    '-q',
  ];
}

function writeSources(work, keyring) {
  const text = [
    '# Private source list used only by test/wpt/fetch-wpt.mjs',
    'Types: deb-src',
    'URIs: http://deb.debian.org/debian',
    'Suites: trixie trixie-updates',
    'Components: main',
    `Signed-By: ${keyring}`,
    '',
    'Types: deb-src',
    'URIs: http://deb.debian.org/debian-security',
    'Suites: trixie-security',
    'Components: main',
    `Signed-By: ${keyring}`,
    '',
  ].join('\n');
  writeFileSync(join(work, 'sources.list.d', 'trixie-src.sources'), text);
}

// Versions of the source package apt knows about (in apt's order).
function availableVersions(work) {
  const r = run('apt-cache', [...aptOptions(work), 'showsrc', SOURCE_PACKAGE], { capture: true, allowFail: true });
  const versions = [...new Set((r.stdout || '').split('\n')
    .filter((l) => l.startsWith('Version: ')).map((l) => l.slice(9).trim()))];
  return versions;
}

function fetchFromDebian() {
  const version = process.env.WPT_DEBIAN_VERSION || DEFAULT_VERSION;
  const upstream = version.replace(/-[^-]+$/, ''); // 20.19.2+dfsg
  const keyring = process.env.WPT_APT_KEYRING || '/usr/share/keyrings/debian-archive-keyring.gpg';
  const work = join(REPO_ROOT, '.cache', 'wpt-fetch');
  const staging = join(REPO_ROOT, '.cache', 'wpt.partial');

  if (spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status !== 0) {
    throw new Error('apt-get not found: set WPT_DIR to a WPT checkout instead');
  }
  if (!existsSync(keyring)) {
    throw new Error(`keyring ${keyring} not found (install debian-archive-keyring, or set WPT_APT_KEYRING)`);
  }

  rmSync(work, { recursive: true, force: true });
  rmSync(staging, { recursive: true, force: true });
  for (const d of ['sources.list.d', 'lists/partial', 'cache/archives/partial', 'download']) {
    mkdirSync(join(work, d), { recursive: true });
  }
  writeSources(work, keyring);
  log(`private apt configuration in ${work} (deb-src trixie, trixie-updates, trixie-security; Signed-By ${keyring})`);

  try {
    const upd = run('apt-get', [...aptOptions(work), 'update'], { capture: true, allowFail: true });
    process.stdout.write(upd.stdout || '');
    process.stderr.write(upd.stderr || '');
    if (upd.status !== 0 || /NO_PUBKEY|not signed|EXPKEYSIG/.test(upd.stderr || '')) {
      throw new Error(
        'apt-get update of the private trixie sources failed' +
        (/NO_PUBKEY/.test(upd.stderr || '')
          ? `: the keyring ${keyring} lacks the trixie archive keys; a newer debian-archive-keyring ` +
            'package (2023.3+deb12u2 or later has them) or WPT_APT_KEYRING=<keyring with them> fixes that'
          : ''));
    }

    let chosen = version;
    const known = availableVersions(work);
    log(`nodejs source versions on the mirrors: ${known.join(', ') || '(none)'}`);
    if (!known.includes(version)) {
      // The orig tarball (which is all we use) is identical for every Debian
      // revision of the same upstream version, so any of them will do.
      const same = known.filter((v) => v.startsWith(`${upstream}-`));
      if (!same.length) throw new Error(`nodejs ${version} (or any ${upstream}-*) is not on the mirrors`);
      chosen = same[0];
      log(`WARNING: ${version} is no longer on the mirrors; using ${chosen}, whose orig tarball is the same`);
    }

    const dl = join(work, 'download');
    run('apt-get', [...aptOptions(work), 'source', '--download-only', `${SOURCE_PACKAGE}=${chosen}`], { cwd: dl });

    const orig = join(dl, `${SOURCE_PACKAGE}_${upstream}.orig.tar.xz`);
    if (!existsSync(orig)) {
      throw new Error(`expected ${orig} after download; got: ${readdirSync(dl).join(', ')}`);
    }
    log(`downloaded ${orig} (${(statSync(orig).size / 1e6).toFixed(1)} MB)`);

    // Find where the WPT fixtures live inside the tarball (node-vX.Y.Z/test/fixtures/wpt/).
    const probe = run('tar', ['-tJf', orig, '--wildcards', '--no-anchored', '*/test/fixtures/wpt/resources/testharness.js'],
      { capture: true, allowFail: true });
    const hit = (probe.stdout || '').split('\n').find((l) => l.endsWith('/test/fixtures/wpt/resources/testharness.js'));
    if (!hit) throw new Error('test/fixtures/wpt/resources/testharness.js not found in the orig tarball');
    const prefix = hit.slice(0, -'resources/testharness.js'.length); // ends with '/'
    const strip = prefix.split('/').filter(Boolean).length;
    log(`WPT prefix inside the tarball: ${prefix}`);

    mkdirSync(staging, { recursive: true });
    const patterns = [
      ...WPT_SUBDIRS.map((d) => `${prefix}${d}/*`),
      ...WPT_EXTRA_FILES.map((f) => `${prefix}${f}`),
    ];
    run('tar', ['-xJf', orig, '--no-same-owner', '-C', staging, `--strip-components=${strip}`, '--wildcards', ...patterns],
      { allowFail: true }); // versions.json / LICENSE.md / interfaces may be absent in other versions
    if (!isWptRoot(staging)) throw new Error('extraction did not produce streams/ and resources/testharness.js');

    writeFileSync(join(staging, STAMP), JSON.stringify({
      source: `debian ${SOURCE_PACKAGE} ${chosen}`,
      tarball: `${SOURCE_PACKAGE}_${upstream}.orig.tar.xz`,
      prefix,
      fetchedAt: new Date().toISOString(),
    }, null, 2) + '\n');
    rmSync(CACHE_DIR, { recursive: true, force: true });
    renameSync(staging, CACHE_DIR);
  } finally {
    // Drop the tarballs, the private apt lists and any half-done extraction.
    rmSync(work, { recursive: true, force: true });
    rmSync(staging, { recursive: true, force: true });
    log(`removed ${work} (downloads and private apt state)`);
  }
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

export function ensureWpt({ force = false, quiet = false } = {}) {
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
  fetchFromDebian();
  log(`ready: ${CACHE_DIR} (${describe(CACHE_DIR)}) in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  return CACHE_DIR;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    const root = ensureWpt({ force: process.argv.includes('--force') });
    console.log(root);
  } catch (err) {
    console.error(`[fetch-wpt] ERROR: ${err.message}`);
    process.exit(1);
  }
}
