// The preload's lazy install (src/patch/lazy.js): at start only the eager part
// loads; the first use of a stream loads the library and installs the patch
// before it returns. Each way a program can first reach a stream is run in a
// fresh child, natively and under the preload: the same output, the patch in
// place afterwards, and NODE_DEBUG naming what loaded it. Where Node has no
// module.registerHooks (Node 20, 22 before 22.15) the library loads at start.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT, T, cleanEnv } from './helpers.mjs';

const REGISTER = join(ROOT, 'register.mjs');
const LIBRARY = pathToFileURL(join(ROOT, 'dist', 'fast-webstreams.js')).href; // 'fast-webstreams', from a temporary folder
const lazy = typeof (await import('node:module')).registerHooks === 'function';

// What each child prints last: its result, and whether the global classes are ours by then.
const OURS = "String(Object.getOwnPropertyDescriptor(ReadableStream.prototype, 'getReader').value).includes('options = undefined')";

function child(file, source, { preload = true, env = {} } = {}) {
  const r = spawnSync(process.execPath, [...(preload ? ['--import', REGISTER] : []), file], {
    cwd: ROOT, encoding: 'utf8', timeout: 20000, env: cleanEnv({ NODE_DEBUG: 'fast-webstreams', ...env }),
  });
  assert.equal(r.status, 0, `${source}\n${r.stderr}`);
  const debug = r.stderr.split('\n').filter((l) => l.startsWith('FAST-WEBSTREAMS'));
  return { out: r.stdout.trim(), debug: debug.join('\n') };
}

const dir = mkdtempSync(join(tmpdir(), 'lazy-install-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
let n = 0;
function script(ext, source) {
  const file = join(dir, `case-${n++}.${ext}`);
  writeFileSync(file, source);
  return file;
}

// [name, file extension, source printing its result, what NODE_DEBUG names as the first use]
const cases = [
  ['a global, read', 'mjs', `
    const r = new ReadableStream({ start(c) { c.enqueue('a'); c.close(); } });
    console.log(JSON.stringify((await r.getReader().read()).value));`, 'ReadableStream'],
  ['Readable.fromWeb(new ReadableStream()), node:stream imported first', 'mjs', `
    import { Readable } from 'node:stream';
    const out = [];
    for await (const c of Readable.fromWeb(new ReadableStream({ start(c) { c.enqueue('x'); c.close(); } }), { objectMode: true })) out.push(c);
    console.log(JSON.stringify(out));`, 'import of node:stream'],
  ['Readable.toWeb(...).pipeThrough(new TransformStream()), required', 'cjs', `
    const { Readable } = require('stream');
    Readable.toWeb(Readable.from(['a', 'b'])).pipeThrough(new TransformStream()).getReader().read()
      .then((r) => console.log(JSON.stringify(r.value)));`, 'import of stream'],
  ['process.getBuiltinModule(\'node:stream\').Readable.fromWeb(new ReadableStream())', 'cjs', `
    const { Readable } = process.getBuiltinModule('node:stream');
    Readable.fromWeb(new ReadableStream({ start(c) { c.enqueue('y'); c.close(); } }), { objectMode: true })
      .on('data', (c) => console.log(JSON.stringify(c)));`, "process.getBuiltinModule('node:stream')"],
  ['blob.stream().pipeThrough(new TextDecoderStream())', 'cjs', `
    new Blob(['hello']).stream().pipeThrough(new TextDecoderStream()).getReader().read()
      .then((r) => console.log(JSON.stringify(r.value)));`, 'Blob.prototype.stream()'],
  ['a FileHandle stream through fs.promises', 'cjs', `
    const fs = require('fs');
    fs.promises.open(__filename).then(async (fh) => {
      let text = '';
      for await (const chunk of fh.readableWebStream().pipeThrough(new TextDecoderStream())) text += chunk;
      await fh.close();
      console.log(JSON.stringify(text.slice(0, 9)));
    });`, 'FileHandle.prototype.readableWebStream()'],
  ['node:stream/web imported', 'mjs', `
    import { TransformStream as T } from 'node:stream/web';
    console.log(JSON.stringify(T === globalThis.TransformStream));`, 'import of node:stream/web'],
  ['node:http imported (it loads undici, which reads the global)', 'mjs', `
    import 'node:http';
    const res = new Response(new ReadableStream({ start(c) { c.enqueue(new TextEncoder().encode('xy')); c.close(); } }));
    console.log(JSON.stringify(await res.text()));`, undefined],
  ['fetch() first', 'mjs', `
    const res = await fetch('data:,hi');
    console.log(JSON.stringify([await res.clone().text(), await res.text()]));`, undefined],
  ['require(\'_stream_readable\').fromWeb(new ReadableStream()) (where Node still has it)', 'cjs', `
    let Readable;
    try { Readable = require('_stream_readable'); } catch { Readable = require('stream').Readable; }
    Readable.fromWeb(new ReadableStream({ start(c) { c.enqueue('z'); c.close(); } }), { objectMode: true })
      .on('data', (c) => console.log(JSON.stringify(c)));`, undefined],
  ['a structuredClone captured before the first stream transfers one of ours', 'cjs', `
    const clone = structuredClone;
    const rs = new ReadableStream({ start(c) { c.enqueue('t'); c.close(); } });
    clone(rs, { transfer: [rs] }).getReader().read().then((r) => console.log(JSON.stringify(r.value)));`, 'ReadableStream'],
  ['a structuredClone replaced before the first stream stays the application\'s', 'cjs', `
    const mine = (v, o) => 'mine';
    globalThis.structuredClone = mine;
    void new ReadableStream();
    console.log(JSON.stringify([structuredClone === mine, structuredClone(1)]));`, 'ReadableStream'],
  ['node:fs imported by an ES module: FileHandle streams still ours', 'mjs', `
    import { promises } from 'node:fs';
    // (where the preload is lazy: on Node 20 it loads Node's web streams at start)
    const early = typeof process.getBuiltinModule('node:module').registerHooks === 'function' &&
      process.moduleLoadList.some((m) => /webstreams\\/readablestream/.test(m));
    const fh = await promises.open(new URL(import.meta.url));
    let text = '';
    for await (const chunk of fh.readableWebStream().pipeThrough(new TextDecoderStream())) text += chunk;
    await fh.close();
    console.log(JSON.stringify([early, text.length > 0]));`, undefined],
  ['the library imported beside node:stream by an ES module', 'mjs', `
    import { isInstalled } from '${LIBRARY}';
    import { Readable } from 'node:stream';
    const out = [];
    for await (const c of Readable.fromWeb(new ReadableStream({ start(c) { c.enqueue(1); c.close(); } }), { objectMode: true })) out.push(c);
    console.log(JSON.stringify([out, isInstalled()]));`, undefined, { nativeOut: '[[1],false]', ours: '[[1],true]' }],
  ['a global replaced before the first use stays the application\'s', 'cjs', `
    class Mine {}
    globalThis.WritableStream = Mine;
    console.log(JSON.stringify([WritableStream === Mine, typeof TransformStream]));`, 'WritableStream'],
  ['a global deleted before the first use stays deleted', 'cjs', `
    delete globalThis.CountQueuingStrategy;
    console.log(JSON.stringify([typeof CountQueuingStrategy, typeof ReadableStream]));`, 'ReadableStream'],
];

for (const [name, ext, source, trigger, expected] of cases) {
  test(`first use: ${name}`, T, () => {
    const file = script(ext, `${source}\nprocess.on('exit', () => console.log(${OURS}));\n`);
    const native = child(file, source, { preload: false });
    const ours = child(file, source);
    const [nativeResult] = native.out.split('\n');
    const [result, installed] = ours.out.split('\n');
    if (expected === undefined) {
      assert.equal(result, nativeResult, 'the same result as native');
    } else {
      assert.equal(nativeResult, expected.nativeOut);
      assert.equal(result, expected.ours);
    }
    assert.equal(installed, 'true', 'the global classes are ours afterwards');
    if (lazy) {
      assert.match(ours.debug, /armed: the library loads on the first use of a stream/);
      assert.match(ours.debug, /the library loaded on first use \((.*)\)/);
      if (trigger !== undefined) assert.ok(ours.debug.includes(`first use (${trigger})`), ours.debug);
    } else {
      assert.match(ours.debug, /loading the library at start: this Node has no module\.registerHooks/);
    }
  });
}

test('a process that uses no stream loads neither the library nor Node\'s web streams', { ...T, skip: !lazy }, () => {
  const file = script('cjs', `
    const fs = require('fs'); const path = require('path'); require('http');
    console.log(JSON.stringify(process.moduleLoadList.filter((m) => /webstreams\\/readablestream|stream\\/web|undici/.test(m))));
    console.log(typeof Object.getOwnPropertyDescriptor(globalThis, 'ReadableStream').get);`);
  const { out, debug } = child(file, '');
  assert.deepEqual(out.split('\n'), ['[]', 'function']);
  assert.doesNotMatch(debug, /installed:/);
});

test('a preload that ran first made a global non-configurable: start goes on', T, () => {
  const pre = script('mjs', "Object.defineProperty(globalThis, 'CountQueuingStrategy', { value: globalThis.CountQueuingStrategy, configurable: false });");
  const file = script('cjs', `console.log(JSON.stringify(typeof new ReadableStream().getReader));\nprocess.on('exit', () => console.log(${OURS}));`);
  const r = spawnSync(process.execPath, ['--import', pre, '--import', REGISTER, file], { cwd: ROOT, encoding: 'utf8', env: cleanEnv() });
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(r.stdout.trim().split('\n'), ['"function"', 'true']);
});

test('the library imported by a preload that ran first: the patch is installed when ours runs', T, () => {
  const pre = script('mjs', `import '${LIBRARY}';`);
  const file = script('cjs', `console.log(JSON.stringify(typeof new ReadableStream().getReader));\nprocess.on('exit', () => console.log(${OURS}));`);
  const r = spawnSync(process.execPath, ['--import', pre, '--import', REGISTER, file], { cwd: ROOT, encoding: 'utf8', env: cleanEnv() });
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(r.stdout.trim().split('\n'), ['"function"', 'true']);
});

test('a prototype frozen before the first stream: everything stays native, with a warning', T, () => {
  const file = script('cjs', `
    Object.freeze(MessagePort.prototype);
    const rs = new ReadableStream({ start(c) { c.enqueue('f'); c.close(); } });
    const { port1, port2 } = new MessageChannel();
    port2.onmessage = ({ data }) => data.getReader().read().then((r) => { console.log(JSON.stringify(r.value)); port1.close(); port2.close(); });
    port1.postMessage(rs, [rs]);
    process.on('exit', () => console.log(${OURS}));`);
  const native = spawnSync(process.execPath, [file], { cwd: ROOT, encoding: 'utf8', env: cleanEnv() });
  const r = spawnSync(process.execPath, ['--import', REGISTER, file], { cwd: ROOT, encoding: 'utf8', env: cleanEnv() });
  assert.equal(r.status, 0, r.stderr);
  const [result, installed] = r.stdout.trim().split('\n');
  assert.equal(result, native.stdout.trim().split('\n')[0]);
  if (lazy) {
    assert.equal(installed, 'false');
    assert.match(r.stderr, /left everything native: installing the patch failed \(MessagePort\.prototype\.postMessage/);
  }
});

test('FAST_WEBSTREAMS_LAZY=0 loads the library at start', T, () => {
  const file = script('cjs', 'console.log("ok");');
  const { debug } = child(file, '', { env: { FAST_WEBSTREAMS_LAZY: '0' } });
  assert.match(debug, /loading the library at start: FAST_WEBSTREAMS_LAZY is off/);
  assert.match(debug, /installed: globals/);
});
