// A PRIVATE apt configuration for the tests that need a file from Debian's
// mirrors (test/wpt/fetch-wpt.mjs: Node's source tarball, for WPT;
// test/ops/promtool.mjs: the prometheus package, for promtool). The system's
// /etc/apt is never read or touched: the source list, the lists and the cache
// live in a work folder under .cache/, which the caller removes. Every file is
// checked against the SHA-256 the signed index gives.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const DEBIAN_KEYRING = '/usr/share/keyrings/debian-archive-keyring.gpg';

/** Runs a command, its output captured; `log` (when given) is told the command line. */
export function run(cmd, args, { log, ...opts } = {}) {
  log?.(`$ ${[cmd, ...args].join(' ')}${opts.cwd ? `   (in ${opts.cwd})` : ''}`);
  const r = spawnSync(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, ...opts });
  if (r.error) throw new Error(`${cmd}: ${r.error.message}`);
  return r;
}

/**
 * Sets up a private apt in `work` (emptied first) for `sources`: [{ types: 'deb' | 'deb-src',
 * uri, suites: [...] }], signed by `keyring`. Returns { options, update() }: `options` are the
 * `-o` flags that make apt-get and apt-cache use it. Throws, saying what to do, when apt or
 * the keyring is missing.
 */
export function privateApt(work, sources, { keyring = DEBIAN_KEYRING, name = 'private', log } = {}) {
  if (spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status !== 0) throw new Error('apt-get not found');
  if (!existsSync(keyring)) throw new Error(`keyring ${keyring} not found (install debian-archive-keyring)`);
  rmSync(work, { recursive: true, force: true });
  for (const d of ['sources.list.d', 'lists/partial', 'cache/archives/partial']) mkdirSync(join(work, d), { recursive: true });
  const text = sources.map(({ types, uri, suites }) => [
    `Types: ${types}`, `URIs: ${uri}`, `Suites: ${suites.join(' ')}`, 'Components: main', `Signed-By: ${keyring}`, '',
  ].join('\n')).join('\n');
  writeFileSync(join(work, 'sources.list.d', `${name}.sources`), `# Private source list of the tests (test/debian/apt.mjs)\n${text}`);
  const options = [
    '-o', 'Dir::Etc::SourceList=/dev/null',
    '-o', `Dir::Etc::SourceParts=${join(work, 'sources.list.d')}`,
    '-o', `Dir::State::Lists=${join(work, 'lists')}`,
    '-o', `Dir::State::Status=${join(work, 'status')}`,
    '-o', `Dir::Cache=${join(work, 'cache')}`,
    '-o', 'Dir::Cache::pkgcache=',
    '-o', 'Dir::Cache::srcpkgcache=',
    // Our private folders belong to the invoking user; let apt download as that
    // user instead of dropping to _apt (which could not write into them).
    '-o', 'APT::Sandbox::User=root',
    '-o', 'Acquire::Languages=none',
    '-o', 'Acquire::Retries=3',
    '-q',
  ];
  writeFileSync(join(work, 'status'), '');
  return {
    options,
    /** `apt-get update`; a suite that fails to update is only one fewer candidate: its lines are logged. */
    update() {
      const r = run('apt-get', [...options, 'update'], { log });
      for (const l of (r.stderr || '').split('\n').filter(Boolean)) log?.(`apt: ${l}`);
      return r;
    },
  };
}

/** The first `'<url>' <file> <size> SHA256:<hash>` line of `apt-get --print-uris` output whose file matches. */
export function printedUri(stdout, fileMatches) {
  for (const line of (stdout || '').split('\n')) {
    const m = /^'([^']+)' (\S+) (\d+) (?:SHA256:)?([0-9a-f]{64})\b/.exec(line);
    if (m && fileMatches.test(m[2])) return { url: m[1], file: m[2], size: Number(m[3]), sha256: m[4] };
  }
  return undefined;
}

async function sha256Of(file) {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk);
  return hash.digest('hex');
}

/** Downloads with apt's own fetcher (it honours the machine's apt proxy settings), else with fetch(); checks the SHA-256. */
export async function download({ url, sha256 }, dest, { log } = {}) {
  const helper = '/usr/lib/apt/apt-helper';
  if (existsSync(helper)) {
    const r = run(helper, ['-o', 'Acquire::Retries=3', '-o', 'APT::Sandbox::User=root', 'download-file', url, dest, `SHA256:${sha256}`], { log });
    if (r.status !== 0) {
      const errors = (r.stderr || '').trim().split('\n').filter((l) => l.startsWith('E:')).join('; ');
      throw new Error(`${url}: ${errors || `apt-helper exited ${r.status}`}`);
    }
  } else {
    log?.(`$ fetch ${url}`);
    const res = await fetch(url);
    if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
    writeFileSync(dest, Buffer.from(await res.arrayBuffer()));
  }
  const got = await sha256Of(dest);
  if (got !== sha256) throw new Error(`${url}: SHA-256 ${got} is not the ${sha256} the signed index gives`);
}
