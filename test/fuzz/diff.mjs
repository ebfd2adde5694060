// Compare two traces and name the differences. Classes, most severe first:
//   crash       - B has an uncaught exception A lacks, or B's worker died
//   hang        - B timed out / never went quiet, A did not
//   unhandled   - B emitted an unhandledRejection A did not
//   pending     - a promise the program observed is pending in B, settled in A
//   result      - values, chunks, callback calls or settlement kinds differ
//   error-shape - the same events, but an error's constructor/name/code differs
//   order       - the same events with the same contents, in another order
export const CLASSES = ['crash', 'hang', 'unhandled', 'pending', 'result', 'error-shape', 'order'];
export const DEFAULT_GATE = ['crash', 'hang', 'unhandled', 'pending', 'result', 'error-shape'];

const STALL = (t) => t.timeout || t.busy || t.exited;
const eq = (x, y) => JSON.stringify(x) === JSON.stringify(y);
// Replace every non-own error shape by a placeholder: what is left compares "results".
const stripShapes = (x) => {
  if (Array.isArray(x)) return x.map(stripShapes);
  if (x && typeof x === 'object') {
    if ('ctor' in x && 'isError' in x) return { someError: x.isError };
    return Object.fromEntries(Object.entries(x).map(([k, v]) => [k, stripShapes(v)]));
  }
  return x;
};
const byKey = (t) => {
  const m = new Map();
  for (const e of t.events || []) if (e[0] !== 'unhandled' && e[0] !== 'uncaught') m.set(e[1], e);
  return m;
};
const only = (t, kind) => (t.events || []).filter((e) => e[0] === kind).map((e) => JSON.stringify(e[2]));

// Returns [{ cls, key?, a?, b? }], empty when the traces agree.
export function diffTraces(A, B) {
  const out = [];
  if (B.exited && !A.exited) out.push({ cls: 'crash', a: 'ran', b: `worker exited ${B.code ?? B.sig}: ${(B.stderr || '').slice(-300)}` });
  if (STALL(B) && !STALL(A)) out.push({ cls: 'hang', a: 'quiet', b: B.timeout ? 'timeout' : B.busy ? 'busy' : 'exited' });
  if (STALL(A) && !STALL(B)) out.push({ cls: 'result', key: 'stall', a: 'stalled', b: 'quiet' });
  if (STALL(A) || STALL(B)) return out;
  const ua = only(A, 'uncaught');
  const ub = only(B, 'uncaught');
  if (ub.length > ua.length) out.push({ cls: 'crash', a: ua, b: ub });
  const ha = only(A, 'unhandled');
  const hb = only(B, 'unhandled');
  if (hb.length > ha.length) out.push({ cls: 'unhandled', a: ha, b: hb });
  else if (!eq(ha.slice().sort(), hb.slice().sort())) out.push({ cls: 'result', key: 'unhandled', a: ha, b: hb });
  const pa = new Set(A.pending);
  const pb = new Set(B.pending);
  const ka = byKey(A);
  const kb = byKey(B);
  for (const k of pb) if (!pa.has(k)) out.push({ cls: 'pending', key: k, a: ka.get(k) || 'settled', b: 'pending' });
  for (const k of pa) if (!pb.has(k)) out.push({ cls: 'result', key: k, a: 'pending', b: kb.get(k) || 'settled' });
  let contentDiff = false;
  for (const [k, ea] of ka) {
    const eb = kb.get(k);
    if (!eb) { if (!pb.has(k)) { out.push({ cls: 'result', key: k, a: ea, b: 'absent' }); } contentDiff = true; continue; }
    if (eq(ea, eb)) continue;
    contentDiff = true;
    out.push({ cls: eq(stripShapes(ea), stripShapes(eb)) ? 'error-shape' : 'result', key: k, a: ea, b: eb });
  }
  for (const [k, eb] of kb) if (!ka.has(k)) { contentDiff = true; if (!pa.has(k)) out.push({ cls: 'result', key: k, a: 'absent', b: eb }); }
  if (!contentDiff) {
    const sa = (A.events || []).filter((e) => e[0] !== 'unhandled').map((e) => e[1]);
    const sb = (B.events || []).filter((e) => e[0] !== 'unhandled').map((e) => e[1]);
    if (!eq(sa, sb)) {
      const i = sa.findIndex((k, j) => k !== sb[j]);
      out.push({ cls: 'order', key: sa[i], a: sa.slice(i, i + 4), b: sb.slice(i, i + 4) });
    }
  }
  return out;
}

// A stalled trace (timeout, busy, exited) has no pending list.
const pend = (t) => t.pending || [];

export const primaryClass = (diffs) => CLASSES.find((c) => diffs.some((d) => d.cls === c)) || null;

// Which of A and B does the referee (the polyfill) agree with on these differences?
// Error shapes are compared without `code` (a Node-only property the polyfill never sets).
export function refereeVerdict(diffs, A, B, P) {
  if (!P || STALL(P)) return P ? 'referee stalled' : 'no referee';
  const noCode = (x) => JSON.parse(JSON.stringify(x ?? null, (k, v) => (k === 'code' ? undefined : v)));
  let agreeA = 0;
  let agreeB = 0;
  const kp = byKey(P);
  for (const d of diffs) {
    let pv;
    let av;
    let bv;
    if (d.cls === 'unhandled' || d.key === 'unhandled') {
      pv = only(P, 'unhandled').length; av = only(A, 'unhandled').length; bv = only(B, 'unhandled').length;
    } else if (d.cls === 'hang' || d.cls === 'crash') {
      continue;
    } else if (d.cls === 'order') {
      const seq = (t) => (t.events || []).map((e) => e[1]).join(' ');
      pv = seq(P); av = seq(A); bv = seq(B);
    } else if (d.key === 'stall') { // A stalled (e.g. timed out on a busy machine), B did not; P did not either
      pv = false; av = true; bv = false;
    } else if (d.cls === 'pending' || d.key && (pend(P).includes(d.key) || pend(A).includes(d.key))) {
      pv = pend(P).includes(d.key); av = pend(A).includes(d.key); bv = pend(B).includes(d.key);
    } else {
      pv = noCode(kp.get(d.key)); av = noCode(d.a === 'absent' ? undefined : d.a); bv = noCode(d.b === 'absent' ? undefined : d.b);
    }
    if (eq(pv, av)) agreeA++;
    if (eq(pv, bv)) agreeB++;
  }
  if (agreeA > agreeB) return 'polyfill agrees with A';
  if (agreeB > agreeA) return 'polyfill agrees with B';
  return agreeA ? 'polyfill agrees with both' : 'polyfill agrees with neither';
}
