// Delta debugging over a program: drop steps (chunks, then single ones), then
// simplify what remains (callbacks removed, per-call behaviours trimmed to
// "do nothing and return", strategies and pipe options dropped) while
// `stillFails(program)` holds. Greedy, repeated until a full pass changes nothing.
const clone = (x) => JSON.parse(JSON.stringify(x));

// Every simplification of one step, as functions step -> step (or null when not applicable).
function stepEdits(st) {
  const edits = [];
  if (st.cbs) {
    for (const name of Object.keys(st.cbs)) {
      if (name !== 'start') edits.push((s) => { delete s.cbs[name]; return s; });
      const calls = st.cbs[name].calls;
      for (let i = calls.length - 1; i >= 0; i--) {
        if (calls.length > 1) edits.push((s) => { s.cbs[name].calls.splice(i, 1); return s; });
        const c = calls[i];
        if (c.late) edits.push((s) => { delete s.cbs[name].calls[i].late; return s; });
        c.acts.forEach((_, j) => edits.push((s) => { s.cbs[name].calls[i].acts.splice(j, 1); return s; }));
        if (c.r !== 'return') edits.push((s) => { s.cbs[name].calls[i] = { acts: c.acts, r: 'return' }; return s; });
        if (c.r === 'micro' && c.n > 1) edits.push((s) => { s.cbs[name].calls[i].n = 1; return s; });
      }
    }
  }
  for (const f of ['strat', 'ws', 'rs']) {
    if (st[f] && Object.keys(st[f]).length) {
      edits.push((s) => { s[f] = {}; return s; });
      if (st[f].size) edits.push((s) => { delete s[f].size; return s; });
      if (st[f].cls) edits.push((s) => { delete s[f].cls; return s; });
    }
  }
  if (st.auto) edits.push((s) => { delete s.auto; return s; });
  if (st.opts) for (const k of Object.keys(st.opts)) if (k !== 'newAc') edits.push((s) => { delete s.opts[k]; if (k === 'ac') delete s.opts.newAc; return s; });
  if (st.items) st.items.forEach((_, j) => edits.push((s) => { s.items.splice(j, 1); if (s.throwAt > j) s.throwAt--; return s; }));
  if (st.tick) edits.push((s) => { delete s.tick; return s; });
  if (st.min !== undefined) edits.push((s) => { delete s.min; return s; });
  if (st.op === 'micro' && st.n > 1) edits.push((s) => { s.n = 1; return s; });
  if (st.reason && typeof st.reason === 'object') edits.push((s) => { s.reason = 'why'; return s; });
  return edits;
}

export async function shrink(program, stillFails, { log = () => {}, maxTries = 600 } = {}) {
  let best = clone(program);
  let tries = 0;
  const attempt = async (cand) => {
    if (tries >= maxTries) return false;
    tries++;
    if (await stillFails(cand)) { best = cand; return true; }
    return false;
  };
  let progress = true;
  while (progress && tries < maxTries) {
    progress = false;
    // 1. drop runs of steps, halving the run length down to single steps.
    for (let size = Math.max(1, best.steps.length >> 1); size >= 1; size >>= 1) {
      for (let i = 0; i + size <= best.steps.length;) {
        const cand = clone(best);
        cand.steps.splice(i, size);
        if (cand.steps.length && await attempt(cand)) progress = true;
        else i += size;
      }
    }
    // 2. simplify each remaining step.
    for (let i = 0; i < best.steps.length; i++) {
      for (let e = 0; ; e++) {
        const edits = stepEdits(best.steps[i]);
        if (e >= edits.length) break;
        const cand = clone(best);
        cand.steps[i] = edits[e](cand.steps[i]);
        if (await attempt(cand)) { progress = true; e--; }
      }
    }
    log(`shrink: ${best.steps.length} steps after ${tries} tries`);
  }
  return best;
}
