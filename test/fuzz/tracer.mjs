// The runtime a compiled program calls as `T`: it records the trace.
// makeTracer must stay self-contained (no imports, no outer names): the repro
// printer embeds its source text, so a printed repro runs the very same helpers.
export function makeTracer(emit) {
  const mine = new Map(); // own error objects -> tag
  const pending = new Map(); // observed promise label -> true while unsettled
  const defers = new Map();
  const counts = new Map();
  const T = { ctl: {} };
  const shape = (e) => {
    if (mine.has(e)) return { mine: mine.get(e) };
    if (e !== null && typeof e === 'object') {
      const s = { ctor: e.constructor ? e.constructor.name : null, name: e.name, isError: e instanceof Error };
      if (e.code !== undefined) s.code = e.code;
      return s;
    }
    return ser(e);
  };
  const ser = (v, depth = 0) => {
    if (v === undefined) return { undef: true };
    if (v === null || typeof v === 'string' || typeof v === 'boolean') return v;
    if (typeof v === 'number') return Number.isFinite(v) ? v : String(v);
    if (typeof v !== 'object' && typeof v !== 'function') return String(v);
    if (mine.has(v)) return { mine: mine.get(v) };
    if (v instanceof Error || (v && v.constructor && v.constructor.name === 'DOMException')) return { error: shape(v) };
    if (ArrayBuffer.isView(v)) {
      return { view: v.constructor.name, bytes: Array.from(new Uint8Array(v.buffer, v.byteOffset, v.byteLength)),
        offset: v.byteOffset, bufferLength: v.buffer.byteLength };
    }
    if (v instanceof ArrayBuffer) return { arrayBuffer: v.byteLength };
    if (depth > 2) return { obj: true };
    if (typeof v === 'function') return { fn: true };
    const proto = Object.getPrototypeOf(v);
    if (proto === Object.prototype || proto === null) {
      const o = {};
      for (const k of Object.keys(v).sort()) o[k] = ser(v[k], depth + 1);
      return o;
    }
    return { obj: v.constructor ? v.constructor.name : '?' };
  };
  T.ser = ser;
  T.shape = shape;
  T.err = (tag) => { const e = new Error(tag); mine.set(e, tag); return e; };
  // A user callback was called: record it with its arguments; returns the call index.
  T.cb = (name, args) => {
    const k = counts.get(name) || 0;
    counts.set(name, k + 1);
    emit(['call', `${name}#${k}`, args.map((a) => ser(a))]);
    return k;
  };
  T.ev = (key, v) => emit(['ev', key, ser(v)]);
  T.val = (key, fn) => { try { emit(['val', key, ser(fn())]); } catch (e) { emit(['throw', key, shape(e)]); } };
  // A synchronous step or callback action: record a throw, never let it escape.
  T.do = (key, fn) => { try { fn(); } catch (e) { emit(['throw', key, shape(e)]); } };
  T.obs = (key, p) => {
    if (!p || typeof p.then !== 'function') { emit(['val', key, ser(p)]); return; }
    pending.set(key, true);
    p.then((v) => { pending.delete(key); emit(['ok', key, ser(v)]); },
      (e) => { pending.delete(key); emit(['err', key, shape(e)]); });
  };
  T.micro = (n) => { let p = Promise.resolve(); for (let i = 1; i < n; i++) p = p.then(() => {}); return p; };
  T.macro = () => new Promise((r) => setImmediate(r));
  T.defer = (name) => {
    let d;
    const p = new Promise((res, rej) => { d = { res, rej }; });
    defers.set(name, d);
    return p;
  };
  T.settle = (name, ok) => {
    const d = defers.get(name);
    if (!d) return;
    defers.delete(name);
    if (ok) d.res(); else d.rej(T.err(name));
  };
  // Byte source answer: fill and respond to the BYOB request if there is one, else enqueue fresh bytes.
  T.respond = (key, c, n, base) => {
    T.do(key, () => {
      const req = c.byobRequest;
      if (req) {
        const v = req.view;
        const m = Math.min(n, v.byteLength);
        const u = new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
        for (let i = 0; i < m; i++) u[i] = base + i;
        emit(['ev', key + '.byob', v.byteLength]);
        req.respond(m);
      } else {
        const u = new Uint8Array(n);
        for (let i = 0; i < n; i++) u[i] = base + i;
        c.enqueue(u);
      }
    });
  };
  T.pendingKeys = () => [...pending.keys()];
  return T;
}
