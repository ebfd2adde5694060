// Long pipeThrough chains (issue 34): Node's pipes take a microtask per hop,
// so a chain of 10,000 stages delivers natively on Node 24+ (20 and 22
// overflow their stack in enqueue()); a fused chain runs hop inside hop, and
// must not overflow either (src/fast/pipe-pump.js, MAX_NESTED_HOPS). And a
// cancel or an abort at either end of a chain over a busy source reaches the
// other end with its reason intact, as natively (3 or more transforms used
// to deliver a TypeError of ours instead).
// Each program runs in a child, natively and under the preload.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { MAJOR } from './helpers.mjs';

const REGISTER = fileURLToPath(new URL('../../register.mjs', import.meta.url));
const T = { timeout: 120000 };

const PRELUDE = `
const chain = (rs, n, mk = () => new TransformStream()) => { for (let i = 0; i < n; i++) rs = rs.pipeThrough(mk()); return rs; };
const busy = (log) => new ReadableStream({ pull(c) { c.enqueue('x'); }, cancel(r) { log('source cancelled', r?.message ?? r); } });
const why = (e) => e?.message ?? String(e);
`;

const PROGRAMS = {
  'a chain of 10,000 transforms delivers every chunk': { n: 10000, since: 24, body: `
    const out = [];
    for await (const x of chain(new ReadableStream({ start(c) { c.enqueue('a'); c.enqueue('b'); c.close(); } }), N)) out.push(x);
    log('got', out.join(''));` },
  'a chain of 10,000 transforms that enqueue and flush, into a sink': { n: 10000, since: 24, body: `
    const out = [];
    await chain(new ReadableStream({ start(c) { c.enqueue('a'); c.close(); } }), N,
      () => new TransformStream({ transform(x, c) { c.enqueue(x); }, flush() {} }))
      .pipeTo(new WritableStream({ write(x) { out.push(x); } }));
    log('got', out.join(''));` },
  'a source error crosses 10,000 transforms': { n: 10000, since: 24, body: `
    const r = chain(new ReadableStream({ start(c) { c.enqueue('a'); c.error(new Error('boom')); } }), N).getReader();
    try { for (;;) { const { done } = await r.read(); if (done) { log('done'); break; } } } catch (e) { log('rejected', why(e)); }` },
  'reader.cancel(reason) at the end of N transforms over a busy source': { n: [1, 2, 3, 5, 300], body: `
    const r = chain(busy(log), N).getReader();
    await r.read();
    await r.read();
    await r.cancel(new Error('from-end'));` },
  'a sink whose write() throws, at the end of N transforms over a busy source': { n: [1, 3, 300], since: 24, body: `
    await chain(busy(log), N).pipeTo(new WritableStream({ write() { throw new Error('sink'); } })).catch((e) => log('pipe', why(e)));` },
  // Which of the two lines comes first is a microtask race (the cascade up the chain against the
  // pipe's own finalize) that ours runs in another order at 3 transforms on Node 26: an order
  // divergence as the fuzzer counts them (docs/fuzzing.md), not a lost reason. Compared as a set.
  'an abort signal on the last pipe of N transforms over a busy source': { n: [3, 300], unordered: true, body: `
    const ac = new AbortController();
    const done = chain(busy(log), N).pipeTo(new WritableStream({ write() { ac.abort(new Error('stop')); } }), { signal: ac.signal });
    await done.catch((e) => log('pipe', why(e)));` },
  'a writer.abort(reason) at the front of N transforms, read at the end': { n: [3, 300], body: `
    const t = new TransformStream();
    const r = chain(t.readable, N).getReader();
    const w = t.writable.getWriter();
    w.write('a');
    log('read', (await r.read()).value);
    await w.abort(new Error('front'));
    await r.read().then((x) => log('read', x.done), (e) => log('read rejected', why(e)));` },
};

function run(body, n, preload) {
  const code = `const log = (...a) => console.log(...a);\nconst N = ${n};\n${PRELUDE}\n${body}\nsetTimeout(() => log('end'), 100);`;
  const args = preload ? ['--import', REGISTER] : [];
  const r = spawnSync(process.execPath, [...args, '--input-type=module', '-e', code],
    { encoding: 'utf8', timeout: 100000, env: { ...process.env, NODE_OPTIONS: '' } });
  return { status: r.status, stdout: r.stdout, error: r.stderr.split('\n').find((l) => /Error/.test(l)) ?? '' };
}

const lines = (out) => out.split('\n').sort().join('\n');

for (const [name, { n, since = 0, unordered = false, body }] of Object.entries(PROGRAMS)) {
  for (const count of Array.isArray(n) ? n : [n]) {
    test(`${name.replace('N transforms', `${count} transforms`)}`, T, () => {
      const ours = run(body, count, true);
      assert.equal(ours.status, 0, `under the preload the program failed: ${ours.error}`);
      assert.match(ours.stdout, /\nend\n$/);
      if (MAJOR < since) return; // native fails here (its stack, or a TypeError of its own): ours must not
      const native = run(body, count, false);
      assert.equal(native.status, 0, `native itself failed: ${native.error}`);
      if (unordered) assert.equal(lines(ours.stdout), lines(native.stdout));
      else assert.equal(ours.stdout, native.stdout);
    });
  }
}
