// seed -> program. A program is data (JSON): { seed, steps: [...] }; compile.mjs
// turns it into JS. Steps create streams, readers, writers, pipes, and act on
// them; user callbacks are lists of per-call behaviours (actions, then how they
// return: normally, throw, reject, wait for a later `settle` step, N microtasks
// or one macrotask). See docs/fuzzing.md for the vocabulary.
// opts.family 'chains' starts each program with a long pipeThrough chain over
// a busy source or a held writer (the default family's seeds are unchanged).
import { makeRng } from './prng.mjs';

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

export function generate(seed, opts = {}) {
  const R = makeRng(seed);
  const maxSteps = opts.maxSteps ?? 18;
  const steps = [];
  let nid = 0;
  let nchunk = 0;
  let ntag = 0;
  const newId = (p) => `${p}${nid++}`;
  const tag = () => `E${ntag++}`;
  const chunk = () => LETTERS[nchunk++ % 26] + (nchunk > 26 ? nchunk : '');
  const reason = () => (R.chance(0.5) ? { tag: tag() } : `why${ntag++}`);
  const pools = { r: [], w: [], t: [], rd: [], wr: [], ac: [], d: [], ctl: [] };

  const ret = (canWait) => {
    const r = R.weighted([[6, 'return'], [1, 'throw'], [1, 'reject'], [canWait ? 2 : 0, 'wait'], [2, 'micro'], [2, 'macro']]);
    const out = { r };
    if (r === 'throw' || r === 'reject') out.tag = tag();
    if (r === 'micro') out.n = R.int(1, 4);
    if (r === 'wait') { out.d = newId('d'); pools.d.push(out.d); }
    return out;
  };
  const acts = (kind, n) => {
    const list = [];
    for (let i = 0; i < n; i++) {
      let a;
      if (kind === 'r') a = R.weighted([[6, 'enqueue'], [1, 'close'], [1, 'error'], [1, 'desired']]);
      else if (kind === 'rb') a = R.weighted([[4, 'respond'], [2, 'enqueueBytes'], [1, 'close'], [1, 'error'], [1, 'desired']]);
      else if (kind === 'w') a = R.weighted([[1, 'error'], [1, 'signal']]);
      else if (kind === 't') a = R.weighted([[5, 'enqueue'], [1, 'terminate'], [1, 'error'], [1, 'desired']]);
      else if (kind === 'tc') a = R.weighted([[5, 'enqueueChunk'], [2, 'enqueue'], [1, 'terminate'], [1, 'error'], [1, 'desired']]);
      const act = { a };
      if (a === 'enqueue') act.v = chunk();
      if (a === 'enqueueBytes' || a === 'respond') { act.n = R.int(1, 4); act.base = R.int(1, 200); }
      if (a === 'error') act.tag = tag();
      list.push(act);
    }
    return list;
  };
  // A callback: per-call behaviours; calls past the list do nothing and return.
  const callback = (kind, maxCalls, canWait = true) => {
    const calls = [];
    const n = R.int(1, maxCalls);
    for (let i = 0; i < n; i++) {
      const c = { acts: kind ? acts(kind, R.weighted([[3, 0], [4, 1], [2, 2]])) : [], ...ret(canWait) };
      if (kind && (c.r === 'micro' || c.r === 'macro' || c.r === 'wait') && R.chance(0.4)) {
        c.late = acts(kind, 1);
      }
      calls.push(c);
    }
    return { calls };
  };
  const strategy = (allowSize) => {
    const s = {};
    if (R.chance(0.7)) s.hwm = R.weighted([[3, 0], [4, 1], [2, 2], [1, 4]]);
    if (allowSize && R.chance(0.25)) {
      s.size = R.weighted([[3, 'one'], [2, 'two'], [2, 'throwAt']]);
      if (s.size === 'throwAt') { s.at = R.int(0, 2); s.tag = tag(); }
    }
    if (!s.size && s.hwm !== undefined && R.chance(0.15)) s.cls = 'count';
    return s;
  };

  const free = (pool) => pool.filter((x) => !x.locked);
  const pickFree = (pool) => { const f = free(pool); return f.length ? R.pick(f) : (pool.length ? R.pick(pool) : null); };

  const makers = {
    newR() {
      const id = newId('r');
      const bytes = R.chance(0.3);
      const kind = bytes ? 'rb' : 'r';
      const cbs = { start: callback(kind, 1, R.chance(0.3)) };
      if (R.chance(0.8)) cbs.pull = callback(kind, 4);
      if (R.chance(0.4)) cbs.cancel = callback(null, 1);
      const st = { op: 'newR', id, bytes, cbs, strat: strategy(!bytes || R.chance(0.05)) };
      if (bytes && R.chance(0.3)) st.auto = R.int(1, 8);
      pools.r.push({ expr: id, bytes });
      pools.ctl.push({ id, kind });
      return st;
    },
    newW() {
      const id = newId('w');
      const cbs = { start: callback('w', 1, R.chance(0.3)) };
      if (R.chance(0.85)) cbs.write = callback('w', 4);
      if (R.chance(0.5)) cbs.close = callback(null, 1);
      if (R.chance(0.5)) cbs.abort = callback(null, 1);
      pools.w.push({ expr: id });
      pools.ctl.push({ id, kind: 'w' });
      return { op: 'newW', id, cbs, strat: strategy(true) };
    },
    newT() {
      const id = newId('t');
      const cbs = { start: callback('t', 1, R.chance(0.3)) };
      if (R.chance(0.7)) cbs.transform = callback('tc', 4);
      if (R.chance(0.5)) cbs.flush = callback('t', 1);
      if (R.chance(0.3)) cbs.cancel = callback(null, 1);
      pools.t.push(id);
      pools.r.push({ expr: `${id}.readable`, bytes: false });
      pools.w.push({ expr: `${id}.writable` });
      pools.ctl.push({ id, kind: 't' });
      return { op: 'newT', id, cbs, ws: strategy(true), rs: strategy(true) };
    },
    from() {
      const id = newId('r');
      const items = [];
      for (let i = R.int(0, 4); i > 0; i--) items.push(chunk());
      const st = { op: 'from', id, kind: R.pick(['array', 'gen']), items };
      if (st.kind === 'gen' && R.chance(0.3)) { st.throwAt = R.int(0, items.length); st.tag = tag(); }
      if (st.kind === 'gen' && R.chance(0.5)) st.tick = true;
      pools.r.push({ expr: id, bytes: false });
      return st;
    },
    tee() {
      const src = pickFree(pools.r);
      if (!src) return null;
      src.locked = true;
      const ids = [newId('r'), newId('r')];
      for (const id of ids) pools.r.push({ expr: id, bytes: src.bytes });
      return { op: 'tee', src: src.expr, ids };
    },
    getReader() {
      const src = pickFree(pools.r);
      if (!src) return null;
      const id = newId('rd');
      const byob = src.bytes && R.chance(0.6);
      src.locked = true;
      pools.rd.push({ id, byob, src });
      return { op: 'getReader', id, src: src.expr, byob };
    },
    read() {
      if (!pools.rd.length) return null;
      const rd = R.pick(pools.rd);
      const st = { op: 'read', rd: rd.id };
      if (rd.byob) {
        st.len = R.int(1, 6);
        if (R.chance(0.3)) st.min = R.int(1, st.len);
        if (R.chance(0.2)) st.view = 'u16';
      }
      return st;
    },
    release() {
      const pool = R.chance(0.5) && pools.wr.length ? pools.wr : pools.rd;
      if (!pool.length) return null;
      const h = R.pick(pool);
      if (h.src) h.src.locked = false;
      if (h.dst) h.dst.locked = false;
      return { op: 'release', h: h.id };
    },
    rdCancel() { if (!pools.rd.length) return null; return { op: 'rdCancel', rd: R.pick(pools.rd).id, reason: reason() }; },
    rdClosed() { if (!pools.rd.length) return null; return { op: 'rdClosed', rd: R.pick(pools.rd).id }; },
    getWriter() {
      const dst = pickFree(pools.w);
      if (!dst) return null;
      dst.locked = true;
      const id = newId('wr');
      pools.wr.push({ id, dst });
      return { op: 'getWriter', id, dst: dst.expr };
    },
    write() { if (!pools.wr.length) return null; return { op: 'write', wr: R.pick(pools.wr).id, v: chunk() }; },
    wClose() { if (!pools.wr.length) return null; return { op: 'wClose', wr: R.pick(pools.wr).id }; },
    wAbort() { if (!pools.wr.length) return null; return { op: 'wAbort', wr: R.pick(pools.wr).id, reason: reason() }; },
    ready() { if (!pools.wr.length) return null; return { op: 'ready', wr: R.pick(pools.wr).id }; },
    wClosed() { if (!pools.wr.length) return null; return { op: 'wClosed', wr: R.pick(pools.wr).id }; },
    desired() { if (!pools.wr.length) return null; return { op: 'desired', wr: R.pick(pools.wr).id }; },
    rsCancel() { const s = pickFree(pools.r); return s && { op: 'rsCancel', src: s.expr, reason: reason() }; },
    wsAbort() { const s = pickFree(pools.w); return s && { op: 'wsAbort', dst: s.expr, reason: reason() }; },
    wsClose() { const s = pickFree(pools.w); return s && { op: 'wsClose', dst: s.expr }; },
    pipeOpts() {
      const o = {};
      if (R.chance(0.2)) o.preventClose = true;
      if (R.chance(0.2)) o.preventAbort = true;
      if (R.chance(0.2)) o.preventCancel = true;
      if (R.chance(0.3)) {
        if (!pools.ac.length || R.chance(0.3)) { const ac = newId('ac'); pools.ac.push(ac); o.newAc = ac; }
        o.ac = pools.ac[pools.ac.length - 1];
      }
      return o;
    },
    pipeTo() {
      const src = pickFree(pools.r);
      const dst = pickFree(pools.w.filter((w) => !src || w.expr.split('.')[0] !== src.expr.split('.')[0]));
      if (!src || !dst) return null;
      src.locked = true; dst.locked = true;
      return { op: 'pipeTo', src: src.expr, dst: dst.expr, opts: makers.pipeOpts() };
    },
    pipeThrough() {
      const src = pickFree(pools.r);
      if (!src) return null;
      let t = pools.t.find((id) => !pools.w.find((w) => w.expr === `${id}.writable`).locked && !src.expr.startsWith(id));
      if (!t || R.chance(0.4)) {
        const mk = makers.newT();
        steps.push(mk);
        t = mk.id;
      }
      src.locked = true;
      pools.w.find((w) => w.expr === `${t}.writable`).locked = true;
      const id = newId('r');
      const readable = pools.r.find((r) => r.expr === `${t}.readable`);
      pools.r.push({ expr: id, bytes: false, alias: readable });
      return { op: 'pipeThrough', id, src: src.expr, t, opts: makers.pipeOpts() };
    },
    iter() {
      const src = pickFree(pools.r);
      if (!src) return null;
      src.locked = true;
      return { op: 'iter', id: newId('it'), src: src.expr, preventCancel: R.chance(0.3),
        how: R.weighted([[3, 'all'], [3, 'break'], [1, 'throw'], [2, 'return']]), brk: R.int(0, 3), tag: tag() };
    },
    abort() { if (!pools.ac.length) return null; return { op: 'abort', ac: R.pick(pools.ac), reason: R.chance(0.5) ? reason() : null }; },
    settle() { if (!pools.d.length) return null; return { op: 'settle', d: R.pick(pools.d), ok: R.chance(0.7) }; },
    ctl() {
      if (!pools.ctl.length) return null;
      const t = R.pick(pools.ctl);
      return { op: 'ctl', target: t.id, act: acts(t.kind, 1)[0] };
    },
    micro() { return { op: 'micro', n: R.int(1, 5) }; },
    macro() { return { op: 'macro' }; },
    locked() { const s = R.pick([...pools.r, ...pools.w]); return s && { op: 'locked', src: s.expr }; },
  };
  const weights = () => [
    [pools.r.length < 4 ? 5 : 1, 'newR'], [pools.w.length < 3 ? 3 : 1, 'newW'], [2, 'newT'], [1, 'from'], [1, 'tee'],
    [3, 'getReader'], [6, 'read'], [1, 'release'], [1, 'rdCancel'], [1, 'rdClosed'],
    [2, 'getWriter'], [4, 'write'], [1, 'wClose'], [1, 'wAbort'], [1, 'ready'], [1, 'wClosed'], [1, 'desired'],
    [1, 'rsCancel'], [1, 'wsAbort'], [1, 'wsClose'], [4, 'pipeTo'], [3, 'pipeThrough'], [2, 'iter'],
    [1, 'abort'], [pools.d.length ? 3 : 0, 'settle'], [2, 'ctl'], [3, 'micro'], [3, 'macro'], [0.3, 'locked'],
  ];
  if (opts.family === 'chains') {
    // Long chains with something at either end (issue 34): a busy source, or
    // a transform whose writable side a writer holds, then N pass-through
    // stages; the steps that follow read, cancel, pipe and abort at the ends.
    if (R.chance(0.6)) {
      const id = newId('r');
      steps.push({ op: 'newBusy', id });
      pools.r.push({ expr: id, bytes: false });
    } else {
      steps.push(makers.newT());
      steps.push(makers.getWriter());
    }
    const src = pickFree(pools.r);
    src.locked = true;
    const id = newId('r');
    steps.push({ op: 'chain', id, src: src.expr, n: R.pick([3, 4, 8, 40, 300]), enqueues: R.chance(0.5) });
    pools.r.push({ expr: id, bytes: false });
  }
  const n = R.int(4, maxSteps) + steps.length;
  let guard = 0;
  while (steps.length < n && guard++ < 200) {
    const st = makers[R.weighted(weights())]();
    if (st) steps.push(st);
  }
  // Let whatever is waiting on a deferred move at the end, sometimes.
  for (const d of pools.d) if (R.chance(0.5)) steps.push({ op: 'settle', d, ok: R.chance(0.7) });
  return { seed, steps };
}
