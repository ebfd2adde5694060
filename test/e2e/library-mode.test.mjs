// Library mode: the package's classes without the preload. What the README's
// "What needs the preload (or install())" table says, run here on this Node:
// each "without" row throws as it says, each works once install() ran, and
// the "works without it" row works without. Each case runs in a child of its own.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { T, ROOT, cleanEnv } from './helpers.mjs';

const MAIN = pathToFileURL(join(ROOT, 'dist', 'fast-webstreams.js')).href;
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const section = README.slice(README.indexOf('**What needs the preload (or `install()`).**'), README.indexOf('Errors have the constructor'));

// Each: the README text that names it, and a program (an async function body over `fast`, `stream`, `consumers`).
const NEEDS_PATCH = {
  '`Readable.fromWeb(ours)`': 'stream.Readable.fromWeb(fast.ReadableStream.from(["a"]));',
  '`Writable.fromWeb(ours)`': 'stream.Writable.fromWeb(new fast.WritableStream());',
  '`Duplex.fromWeb(ours)`': 'stream.Duplex.fromWeb(new fast.TransformStream());',
  '`native.pipeTo(ours)`': 'await new (fast.nativeClasses().ReadableStream)({ start(c) { c.close(); } }).pipeTo(new fast.WritableStream());',
  '`native.pipeThrough(ours)`': 'await consumers.text(new (fast.nativeClasses().ReadableStream)({ start(c) { c.enqueue("x"); c.close(); } }).pipeThrough(new fast.TransformStream()));',
  'Node\'s global `CompressionStream`': 'await consumers.text(fast.ReadableStream.from([new Uint8Array(1)]).pipeThrough(new globalThis.CompressionStream("gzip")));',
  '`structuredClone(ours, { transfer: [ours] })`': 'const s = new fast.ReadableStream(); structuredClone(s, { transfer: [s] });',
};
const WORKS = {
  '`new Response(ours)`': 'if (await new Response(fast.ReadableStream.from(["a", "b"])).text() !== "ab") throw new Error("wrong body");',
  '`stream.pipeline(ours, ...)`': 'await stream.promises.pipeline(fast.ReadableStream.from(["a"]), new stream.Writable({ write(c, e, cb) { cb(); } }));',
  '`node:stream/consumers` (`text(ours)`, ...)': 'if (await consumers.text(fast.ReadableStream.from(["a"])) !== "a") throw new Error("wrong text");',
  '`for await`': 'for await (const x of fast.ReadableStream.from(["a"])) if (x !== "a") throw new Error(x);',
  'this package\'s codec classes': 'await consumers.text(fast.ReadableStream.from([new Uint8Array(1)]).pipeThrough(new fast.CompressionStream("gzip")));',
};

function runCase(body, { install }) {
  const script = `
    import * as fast from ${JSON.stringify(MAIN)};
    import stream from 'node:stream';
    import consumers from 'node:stream/consumers';
    ${install ? 'fast.install();' : ''}
    try {
      ${body}
      console.log(JSON.stringify({ ok: true }));
    } catch (e) {
      console.log(JSON.stringify({ ok: false, name: e?.constructor?.name, code: e?.code, message: String(e?.message) }));
    }`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, env: cleanEnv(), encoding: 'utf8', timeout: 20000 });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout.trim().split('\n').pop());
}

test('the README names each case this test runs', () => {
  for (const name of [...Object.keys(NEEDS_PATCH), ...Object.keys(WORKS)]) assert.ok(section.includes(name), `README: ${name}`);
});

test('without the patch, Node\'s brand-checking consumers refuse ours, as the README says; install() makes them work', T, () => {
  for (const [name, body] of Object.entries(NEEDS_PATCH)) {
    const without = runCase(body, { install: false });
    assert.equal(without.ok, false, `${name} without the patch`);
    assert.ok(['TypeError', 'DOMException'].includes(without.name), `${name}: ${JSON.stringify(without)}`);
    assert.deepEqual(runCase(body, { install: true }), { ok: true }, `${name} after install()`);
  }
});

test('without the patch, what the README says works works', T, () => {
  for (const [name, body] of Object.entries(WORKS)) assert.deepEqual(runCase(body, { install: false }), { ok: true }, name);
});
