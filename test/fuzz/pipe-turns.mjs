#!/usr/bin/env node
// The microtask turn of every observable event of a small pipe, per
// implementation: the evidence behind "Which of two pipes' shutdowns acts
// first" in bench/results/lab-notes-fuzzing.md. A ticker counts `await null` turns from
// pipeTo() on (turn 0 is pipeTo() itself and the microtasks it queued before
// the ticker's first one); each event is logged with the turn it happened in.
// A row marked * differs between the columns.
//   node test/fuzz/pipe-turns.mjs [--node=a,b] [--scenario=name]
// prints one table per scenario: native and ours on each Node given (default
// this one), and the polyfill (the referee, test/fuzz/impls.mjs).
// One implementation, its raw events: node test/fuzz/pipe-turns.mjs --run=native|ours|polyfill
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { loadImpl, ROOT } from './impls.mjs';

const TURNS = 40;

// Each scenario: (S, log, at, watch) => the promise pipeTo() returned, or a
// function returning it, called after a macrotask (streams started first).
// `at(n, fn)` runs fn in turn n; `log(event)` records the event in the
// current turn; `watch(name, stream)` logs the turn its lock is taken or released.
const chunks = (c, list) => { for (const x of list) c.enqueue(x); };
const sink = (log, extra = {}) => ({
  write(chunk, c) { log(`write(${chunk})`); return extra.write?.(chunk, c); },
  close() { log('close()'); },
  abort(r) { log(`abort(${r})`); },
  ...extra.own,
});
const source = (log, start, extra = {}) => ({ start, cancel(r) { log(`cancel(${r})`); }, ...extra });

const SCENARIOS = {
  // The source closes with two chunks queued: read, write, close, settle.
  'close'(S, log) {
    const rs = new S.ReadableStream(source(log, (c) => { chunks(c, ['a', 'b']); c.close(); }));
    return rs.pipeTo(new S.WritableStream(sink(log)));
  },
  // The same, the destination started (a macrotask) before pipeTo().
  'close, dest started'(S, log) {
    const rs = new S.ReadableStream(source(log, (c) => { chunks(c, ['a', 'b']); c.close(); }));
    const ws = new S.WritableStream(sink(log));
    return () => rs.pipeTo(ws);
  },
  // The same, each write() returning a promise.
  'close, write returns a promise'(S, log) {
    const rs = new S.ReadableStream(source(log, (c) => { chunks(c, ['a', 'b']); c.close(); }));
    return rs.pipeTo(new S.WritableStream(sink(log, { write: () => Promise.resolve() })));
  },
  // Nothing to write: the shutdown's wait is the whole pipe.
  'close, no chunk'(S, log) {
    const rs = new S.ReadableStream(source(log, (c) => c.close()));
    return rs.pipeTo(new S.WritableStream(sink(log)));
  },
  // preventClose: "shutdown" without an action.
  'close, preventClose'(S, log) {
    const rs = new S.ReadableStream(source(log, (c) => { chunks(c, ['a']); c.close(); }));
    return rs.pipeTo(new S.WritableStream(sink(log)), { preventClose: true });
  },
  // The source closes later, after the writes finished.
  'close in turn 6'(S, log, at) {
    let ctl;
    const rs = new S.ReadableStream(source(log, (c) => { ctl = c; chunks(c, ['a']); }));
    at(6, () => ctl.close());
    return rs.pipeTo(new S.WritableStream(sink(log)));
  },
  // A pull() source: each chunk arrives in a pull.
  'pull source, close on 3rd pull'(S, log) {
    let n = 0;
    const rs = new S.ReadableStream(source(log, undefined, {
      pull(c) { log(`pull#${n}`); if (++n < 3) c.enqueue(`p${n}`); else c.close(); },
    }));
    return rs.pipeTo(new S.WritableStream(sink(log)));
  },
  // A chunk read inside the producer's enqueue() and not yet written when the
  // source closes or errors: the shutdown writes it first.
  'enqueue then close in turn 3'(S, log, at) {
    let ctl;
    const rs = new S.ReadableStream(source(log, (c) => { ctl = c; }));
    at(3, () => { ctl.enqueue('x'); ctl.close(); });
    return rs.pipeTo(new S.WritableStream(sink(log)));
  },
  'enqueue then error in turn 3'(S, log, at) {
    let ctl;
    const rs = new S.ReadableStream(source(log, (c) => { ctl = c; }));
    at(3, () => { ctl.enqueue('x'); ctl.error('E'); });
    return rs.pipeTo(new S.WritableStream(sink(log)));
  },
  'pull enqueues then closes'(S, log) {
    const rs = new S.ReadableStream(source(log, undefined, { pull(c) { log('pull'); c.enqueue('x'); c.close(); } }));
    return rs.pipeTo(new S.WritableStream(sink(log)));
  },
  // The source errors right after pipeTo() returned.
  'source error in turn 0'(S, log, at) {
    let ctl;
    const rs = new S.ReadableStream(source(log, (c) => { ctl = c; chunks(c, ['a', 'b']); }));
    at(0, () => ctl.error('E'));
    return rs.pipeTo(new S.WritableStream(sink(log)));
  },
  'source error in turn 6'(S, log, at) {
    let ctl;
    const rs = new S.ReadableStream(source(log, (c) => { ctl = c; chunks(c, ['a']); }));
    at(6, () => ctl.error('E'));
    return rs.pipeTo(new S.WritableStream(sink(log)));
  },
  // The destination errors: the source is canceled.
  'dest write() throws on b'(S, log) {
    const rs = new S.ReadableStream(source(log, (c) => { chunks(c, ['a', 'b', 'c']); }));
    return rs.pipeTo(new S.WritableStream(sink(log, { write: (x) => { if (x === 'b') throw 'W'; } })));
  },
  'dest error in turn 6'(S, log, at) {
    let wctl;
    const rs = new S.ReadableStream(source(log, (c) => { chunks(c, ['a']); }));
    at(6, () => wctl.error('W'));
    return rs.pipeTo(new S.WritableStream(sink(log, { own: { start(c) { wctl = c; } } })));
  },
  // The signal aborts: abort the destination and cancel the source.
  'signal abort in turn 0'(S, log, at) {
    const ac = new AbortController();
    const rs = new S.ReadableStream(source(log, (c) => { chunks(c, ['a', 'b']); }));
    at(0, () => ac.abort('A'));
    return rs.pipeTo(new S.WritableStream(sink(log)), { signal: ac.signal });
  },
  'signal abort in turn 6'(S, log, at) {
    const ac = new AbortController();
    const rs = new S.ReadableStream(source(log, (c) => { chunks(c, ['a']); }));
    at(6, () => ac.abort('A'));
    return rs.pipeTo(new S.WritableStream(sink(log)), { signal: ac.signal });
  },
  // Through a TransformStream (two pipes): the second one's events too.
  'pipeThrough, close'(S, log) {
    const rs = new S.ReadableStream(source(log, (c) => { chunks(c, ['a', 'b']); c.close(); }));
    const ts = new S.TransformStream({
      transform(x, c) { log(`transform(${x})`); c.enqueue(x); },
      flush() { log('flush()'); },
    });
    return rs.pipeThrough(ts).pipeTo(new S.WritableStream(sink(log)));
  },
  'pipeThrough, cancel of t.readable in turn 6'(S, log, at) {
    const rs = new S.ReadableStream(source(log, (c) => { chunks(c, ['a']); }));
    const ts = new S.TransformStream({
      transform(x, c) { log(`transform(${x})`); c.enqueue(x); },
      cancel(r) { log(`tcancel(${r})`); },
    });
    const p = rs.pipeTo(ts.writable);
    p.then(() => log('pipe1 ok'), (e) => log(`pipe1 err ${e?.name ?? e}`));
    const reader = ts.readable.getReader();
    reader.read().then((r) => log(`read ${r.value}`));
    at(6, () => reader.cancel('C'));
    return p;
  },
  // The shutdown waits on a write in flight, whose promise settles in turn 5.
  'source error in turn 1, write in flight until turn 5'(S, log, at) {
    let ctl;
    let done;
    const rs = new S.ReadableStream(source(log, (c) => { ctl = c; chunks(c, ['a']); }));
    at(1, () => ctl.error('E'));
    at(5, () => done());
    return rs.pipeTo(new S.WritableStream(sink(log, { write: () => new Promise((r) => { done = r; }) })));
  },
  'signal abort in turn 1, write in flight until turn 5, preventAbort'(S, log, at) {
    const ac = new AbortController();
    let done;
    const rs = new S.ReadableStream(source(log, (c) => { chunks(c, ['a']); }));
    at(1, () => ac.abort('A'));
    at(5, () => done());
    const ws = new S.WritableStream(sink(log, { write: () => new Promise((r) => { done = r; }) }));
    return rs.pipeTo(ws, { signal: ac.signal, preventAbort: true });
  },
  // Three chunks, the destination takes them all (highWaterMark 4).
  'close, dest highWaterMark 4'(S, log) {
    const rs = new S.ReadableStream(source(log, (c) => { chunks(c, ['a', 'b', 'c']); c.close(); }));
    return rs.pipeTo(new S.WritableStream(sink(log), { highWaterMark: 4 }));
  },
  // A pipe that never wrote: the shutdown's wait has nothing to wait for.
  'no chunk, source error in turn 6'(S, log, at) {
    let ctl;
    const rs = new S.ReadableStream(source(log, (c) => { ctl = c; }));
    at(6, () => ctl.error('E'));
    return rs.pipeTo(new S.WritableStream(sink(log)));
  },
  'no chunk, source close in turn 6'(S, log, at) {
    let ctl;
    const rs = new S.ReadableStream(source(log, (c) => { ctl = c; }));
    at(6, () => ctl.close());
    return rs.pipeTo(new S.WritableStream(sink(log)));
  },
  'no chunk, start() rejects'(S, log) {
    const rs = new S.ReadableStream(source(log, () => Promise.reject('E')));
    return rs.pipeTo(new S.WritableStream(sink(log)));
  },
  'no chunk, start() rejects, into a transform'(S, log) {
    const rs = new S.ReadableStream(source(log, () => Promise.reject('E')));
    const t = new S.TransformStream({ cancel(r) { log(`tcancel(${r})`); } });
    return rs.pipeTo(t.writable);
  },
  // The destination errors through a write() that returns a promise.
  'dest errors in write(), which returns a promise'(S, log) {
    const rs = new S.ReadableStream(source(log, (c) => { chunks(c, ['a']); }));
    return rs.pipeTo(new S.WritableStream(sink(log, { write: (x, c) => { c.error('W'); return Promise.resolve(); } })));
  },
  'dest errors in write(), which returns undefined'(S, log) {
    const rs = new S.ReadableStream(source(log, (c) => { chunks(c, ['a']); }));
    return rs.pipeTo(new S.WritableStream(sink(log, { write: (x, c) => { c.error('W'); } })));
  },
  // The source errored before pipeTo(): the abort goes out inside pipeTo().
  'errored source, into a writable'(S, log, at, watch) {
    const rs = new S.ReadableStream(source(log, (c) => c.error('E')));
    watch('rs', rs);
    return Promise.resolve().then(() => rs.pipeTo(new S.WritableStream(sink(log))));
  },
  // Fuzz seed 18628: the same into a transform; a second pipeTo() from the
  // source succeeds only once the first pipe released it.
  'errored source, into a transform'(S, log, at, watch) {
    const rs = new S.ReadableStream(source(log, (c) => c.error('E')));
    const t = new S.TransformStream({ cancel(r) { log(`tcancel(${r})`); } });
    watch('rs', rs);
    watch('t.writable', t.writable);
    return Promise.resolve().then(() => rs.pipeTo(t.writable));
  },
  'errored source, into a started transform, after a macrotask'(S, log, at, watch) {
    const rs = new S.ReadableStream(source(log, (c) => c.error('E')));
    const t = new S.TransformStream({ cancel(r) { log(`tcancel(${r})`); } });
    watch('rs', rs);
    watch('t.writable', t.writable);
    return () => rs.pipeTo(t.writable);
  },
  'errored source, into a started writable, after a macrotask'(S, log, at, watch) {
    const rs = new S.ReadableStream(source(log, (c) => c.error('E')));
    watch('rs', rs);
    return () => rs.pipeTo(new S.WritableStream(sink(log)));
  },
  // Fuzz seed 3257: a pipe whose source errors in start() shuts down (abort
  // of t's writable side, erroring t's readable side) while a second pipe
  // from t's readable side writes into a sink that errors itself.
  'seed 3257: two pipes'(S, log) {
    const t = new S.TransformStream({
      start(c) { c.enqueue('a'); },
      cancel(r) { log(`tcancel(${r})`); },
    });
    const rs = new S.ReadableStream({ start() { log('rs.start'); return Promise.reject('E0'); } });
    rs.pipeThrough(t);
    let d;
    const ws = new S.WritableStream({
      write(x, c) { log(`write(${x})`); c.error('E3'); return new Promise((r) => { d = r; }); },
      abort(r) { log(`abort(${r})`); },
    });
    return (async () => {
      await null;
      log('pipeTo');
      const p = t.readable.pipeTo(ws);
      await null;
      log('settle');
      d();
      return p;
    })();
  },
};

async function runOne(name) {
  const S = await loadImpl(name);
  const out = {};
  for (const [title, scenario] of Object.entries(SCENARIOS)) {
    const events = [];
    let turn = 0;
    const timers = new Map();
    const log = (e) => events.push([turn, e]);
    const at = (n, fn) => timers.set(n, fn);
    const watched = [];
    const watch = (name, stream) => watched.push([name, stream, stream.locked]);
    let p = scenario(S, log, at, watch);
    if (typeof p === 'function') { // set up, then a macrotask, then go
      await new Promise((r) => setTimeout(r, 1));
      events.length = 0;
      p = p();
    }
    const ticker = (async () => {
      for (; turn < TURNS; turn++) {
        timers.get(turn)?.();
        await null;
        for (const w of watched) {
          if (w[1].locked !== w[2]) log(`${w[0]} ${w[1].locked ? 'locked' : 'unlocked'}`);
          w[2] = w[1].locked;
        }
      }
    })();
    p.then(() => log('pipeTo ok'), (e) => log(`pipeTo err(${typeof e === 'string' ? e : e?.name})`));
    await ticker;
    await new Promise((r) => setTimeout(r, 5));
    out[title] = events;
  }
  return out;
}

const args = Object.fromEntries(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=')));
if (args.run) {
  process.stdout.write(JSON.stringify(await runOne(args.run)));
} else {
  const self = fileURLToPath(import.meta.url);
  const bins = args.node ? args.node.split(',') : [process.execPath];
  const run = (bin, impl) => {
    const pre = impl === 'ours' ? ['--import', join(ROOT, 'register.mjs')] : [];
    const r = spawnSync(bin, [...pre, self, `--run=${impl}`], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`${bin} ${impl}: ${r.stderr}`);
    return JSON.parse(r.stdout);
  };
  const columns = [];
  for (const bin of bins) {
    const v = spawnSync(bin, ['-p', 'process.versions.node.split(".")[0]'], { encoding: 'utf8' }).stdout.trim();
    columns.push([`native ${v}`, run(bin, 'native')], [`ours ${v}`, run(bin, 'ours')]);
  }
  columns.push(['polyfill', run(bins[0], 'polyfill')]);
  for (const title of Object.keys(SCENARIOS)) {
    if (args.scenario && !title.includes(args.scenario)) continue;
    // Rows: events in the first column's order, then any others.
    const rows = [];
    for (const [, res] of columns) for (const [, e] of res[title]) if (!rows.includes(e)) rows.push(e);
    console.log(`\n${title}\n| event | ${columns.map(([c]) => c).join(' | ')} |\n|---|${columns.map(() => '---').join('|')}|`);
    for (const e of rows) {
      const cells = columns.map(([, res]) => res[title].filter(([, x]) => x === e).map(([t]) => t).join(',') || '-');
      const odd = new Set(cells).size > 1 ? ' *' : '';
      console.log(`| ${e}${odd} | ${cells.join(' | ')} |`);
    }
  }
}
