// Hostile globals: a program that patched built-ins after the streams loaded
// (Array.prototype.push, Map.prototype.get, Promise.prototype.then, the
// TypedArray getters, ...) must fare no worse under the preload than natively.
// Native Node's streams mostly call the intrinsics Node captured at start-up
// (primordials); ours call those src/intrinsics.js captured at load.
//
// fixtures/hostile-globals.mjs runs every scenario (pipes, chains, tee, reader
// loops, async iteration, byte streams, writers, codecs, bodies, Node's
// adapters) with one patch on, natively and under the preload, in child
// processes of this Node. Per scenario, ours must end as native did, or, where
// the patch changed native's outcome, as both do unpatched or at least end
// where native hangs or crashes (the codecs: below); and it must never give an
// unhandled rejection or uncaught exception native did not.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { T, assertPatched } from './helpers.mjs';

const REGISTER = fileURLToPath(new URL('../../register.mjs', import.meta.url));
const CHILD = fileURLToPath(new URL('./fixtures/hostile-globals.mjs', import.meta.url));
const ENV = { ...process.env, NODE_OPTIONS: '' };
const { patches, scenarios } = JSON.parse(execFileSync(process.execPath, [CHILD, 'none', 'list'], { encoding: 'utf8', env: ENV }));

// A scenario reports within its budget (1 s) and four timer turns, unless it
// blocks the event loop (a loop that never ends): the child is killed then.
const STALL_MS = 20000;

function runFrom(patch, preload, first) {
  const args = [...(preload ? ['--import', REGISTER] : []), CHILD, patch, String(first)];
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { env: ENV, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let stalled = false;
    let timer;
    const watch = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        stalled = true;
        child.kill('SIGKILL');
      }, STALL_MS);
    };
    watch();
    child.stdout.setEncoding('utf8').on('data', (s) => {
      stdout += s;
      watch();
    });
    child.stderr.setEncoding('utf8').on('data', (s) => { stderr += s; });
    child.on('close', () => {
      clearTimeout(timer);
      resolve({ stdout, stderr: stalled ? `stalled: no progress for ${STALL_MS} ms\n${stderr}` : stderr });
    });
  });
}

/** Every scenario's record under `patch`; a scenario during which the child died counts as 'crash'. */
async function runPatch(patch, preload) {
  const records = [];
  let first = 0;
  while (first < scenarios.length) {
    const { stdout, stderr } = await runFrom(patch, preload, first);
    let ended = false;
    for (const line of stdout.split('\n')) {
      if (line === 'END') ended = true;
      const m = /^R (\d+) (.*)$/.exec(line);
      if (m) records[Number(m[1])] = JSON.parse(m[2]);
    }
    if (ended) break;
    while (records[first] !== undefined) first++;
    if (first >= scenarios.length) break;
    const why = (stderr.split('\n').find((l) => /Error|Unhandled|stalled/.test(l)) ?? 'exited').trim();
    records[first] = { scenario: scenarios[first], result: 'crash', unhandled: 0, uncaught: 0, first: why };
    first++;
  }
  return records;
}

/** A crash is worse than a hang, a hang worse than an end (returned or thrown, whatever it says). */
const severity = (result) => (result === 'crash' ? 2 : result === 'hang' ? 1 : 0);

// The codecs run Node's own stream and zlib code, natively and ours alike,
// and that code calls what a program patched (EventEmitter and Writable push
// onto arrays): where native fails on the patch, ours may fail on it at
// another step, if no less cleanly. Node's zlib and Buffer code also read
// these getters itself: natively the codecs fail before zlib runs (Node 20's
// byte streams read a chunk's byteLength and byteOffset through the
// prototype; its CompressionStream checks chunk.buffer), ours hand the bytes
// to the same zlib, whose callbacks then throw (lib/zlib.js slices its output
// Buffer). There ours need only fail on the patch too, however it ends.
const NODE_ZLIB_READS = new Set(['TypedArray byteLength', 'TypedArray buffer', 'TypedArray byteOffset']);
const CODECS = 'CompressionStream, DecompressionStream';
const failsOnPatch = (r) => r.result.includes('hostile');

const show = (r) => `${r.result}${r.unhandled ? ` +${r.unhandled} unhandled` : ''}${r.uncaught ? ` +${r.uncaught} uncaught` : ''}` +
  `${r.first ? ` (${r.first})` : ''}`;

test('the patch is active', T, () => assertPatched());

let unpatched;
test('unpatched, every scenario ends as natively', { timeout: 120000 }, async () => {
  const [native, ours] = await Promise.all([runPatch('none', false), runPatch('none', true)]);
  for (let i = 0; i < scenarios.length; i++) {
    assert.equal(native[i].result.startsWith('ok '), true, `${scenarios[i]}: native itself fails: ${show(native[i])}`);
    assert.equal(native[i].unhandled + native[i].uncaught, 0, `${scenarios[i]}: native itself: ${show(native[i])}`);
  }
  assert.deepEqual(ours.map(show), native.map(show));
  unpatched = native;
});

// The children run without the preloads this process had (the interop step
// runs this file again after one that loaded undici first): once is enough.
const again = process.execArgv.some((arg) => arg.includes('fetch-first'));

// Two patches at a time: most of a run is spent waiting on hangs natively.
describe('patched after load', { concurrency: 2, skip: again && 'the children are the same as in the first run' }, () => {
  for (const patch of patches) {
    if (patch === 'none') continue;
    test(`${patch} patched: no worse than native`, { timeout: 120000 }, async (t) => {
      if (unpatched === undefined) return t.skip('the unpatched run failed');
      const [native, ours] = await Promise.all([runPatch(patch, false), runPatch(patch, true)]);
      const worse = [];
      for (let i = 0; i < scenarios.length; i++) {
        const n = native[i];
        const o = ours[i];
        if (NODE_ZLIB_READS.has(patch) && scenarios[i] === CODECS) {
          if (!`${o.result} ${o.first}`.includes('hostile')) worse.push(`${scenarios[i]}: not failing on the patch: ${show(o)}`);
          continue;
        }
        const nativeAffected = n.result !== unpatched[i].result || n.unhandled > 0 || n.uncaught > 0;
        const sameEnd = o.result === n.result ||
          (nativeAffected && (o.result === unpatched[i].result || severity(o.result) < severity(n.result))) ||
          (scenarios[i] === CODECS && failsOnPatch(n) && failsOnPatch(o) && severity(o.result) <= severity(n.result));
        if (!sameEnd || o.unhandled > n.unhandled || o.uncaught > n.uncaught) {
          worse.push(`${scenarios[i]}:\n    native: ${show(n)}\n    ours:   ${show(o)}`);
        }
      }
      assert.equal(worse.length, 0, `under the preload, with ${patch} patched:\n  ${worse.join('\n  ')}`);
    });
  }
});
