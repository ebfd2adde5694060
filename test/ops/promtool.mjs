#!/usr/bin/env node
// Provides promtool for the operators' kit tests (test/ops/): Debian's
// `promtool` package carries it (split out of `prometheus`, which carried it
// before 3.x). Through a private apt configuration (test/debian/apt.mjs; the
// system's apt is never touched) we ask Debian's mirrors for the newest .deb of
// this machine's architecture, download only that file (checked against the
// signed index's SHA-256), and extract usr/bin/promtool into .cache/promtool/.
// Nothing fetched is committed.
//
//   node test/ops/promtool.mjs          # ensure .cache/promtool/promtool, print its path
//   PROMTOOL=/usr/bin/promtool ...      # use this promtool instead, fetch nothing
//
// Importable: `import { ensurePromtool } from './promtool.mjs'`.
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { download, printedUri, privateApt, run } from '../debian/apt.mjs';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const CACHE_DIR = join(REPO_ROOT, '.cache', 'promtool');
const BIN = join(CACHE_DIR, 'promtool');
const SOURCES = [{ types: 'deb', uri: 'http://deb.debian.org/debian', suites: ['trixie', 'sid'] }];
const PACKAGES = ['promtool', 'prometheus'];
const log = (msg) => console.log(`[promtool] ${msg}`);

const works = (bin) => run(bin, ['--version']).status === 0;

/** The path of a working promtool: $PROMTOOL, the cached one, or one fetched now. */
export async function ensurePromtool() {
  if (process.env.PROMTOOL) {
    if (!works(process.env.PROMTOOL)) throw new Error(`PROMTOOL=${process.env.PROMTOOL} does not run`);
    return process.env.PROMTOOL;
  }
  if (existsSync(BIN) && works(BIN)) return BIN;
  const work = join(REPO_ROOT, '.cache', 'promtool-fetch');
  try {
    const apt = privateApt(work, SOURCES, { name: 'promtool', log });
    apt.update();
    let deb;
    const misses = [];
    for (const pkg of PACKAGES) {
      const r = run('apt-get', [...apt.options, 'download', '--print-uris', pkg]);
      deb = printedUri(r.stdout, new RegExp(`^${pkg}_.*\\.deb$`));
      if (deb !== undefined) break;
      misses.push(`${pkg}: ${r.stderr.trim() || 'not listed'}`);
    }
    if (deb === undefined) throw new Error(`apt lists no package with promtool (${misses.join('; ')})`);
    const file = join(work, deb.file);
    await download(deb, file, { log });
    log(`downloaded ${deb.file} (${(deb.size / 1e6).toFixed(1)} MB, SHA-256 checked)`);
    const staging = join(work, 'root');
    mkdirSync(staging, { recursive: true });
    const x = run('dpkg-deb', ['-x', file, staging]);
    if (x.status !== 0) throw new Error(`dpkg-deb -x ${deb.file}: ${x.stderr.trim() || `exit ${x.status}`}`);
    const extracted = join(staging, 'usr', 'bin', 'promtool');
    if (!existsSync(extracted) || !works(extracted)) throw new Error(`${deb.file} gave no working usr/bin/promtool`);
    rmSync(CACHE_DIR, { recursive: true, force: true });
    mkdirSync(CACHE_DIR, { recursive: true });
    renameSync(extracted, BIN);
    return BIN;
  } catch (err) {
    throw new Error(`promtool could not be obtained from Debian's mirrors: ${err.message}. ` +
      'What to do: install Debian\'s prometheus package (apt-get install prometheus) and set PROMTOOL=/usr/bin/promtool.');
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    console.log(await ensurePromtool());
  } catch (err) {
    console.error(`[promtool] ERROR: ${err.message}`);
    process.exit(1);
  }
}
