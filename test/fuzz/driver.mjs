// The differential loop: each seed's program runs in implementation A and B
// (separate long-lived child processes), the traces are diffed and classified
// (diff.mjs), the referee (polyfill) is asked who follows the spec, and with
// `shrink` one program per distinct finding is reduced and printed as a repro.
import { generate } from './generate.mjs';
import { compile } from './compile.mjs';
import { Worker } from './pool.mjs';
import { diffTraces, primaryClass, refereeVerdict } from './diff.mjs';
import { shrink as shrinkProgram } from './shrink.mjs';
import { reproScript } from './repro.mjs';

// A finding's signature: its class and what the first differing key belongs to
// (a callback name such as "write", or the op of the step), so that a thousand
// seeds hitting one defect shrink once.
function signature(diffs, program) {
  const cls = primaryClass(diffs);
  const d = diffs.find((x) => x.cls === cls);
  let where = '';
  const key = d?.key || '';
  const m = /^s(\d+)/.exec(key);
  if (m) where = program.steps[Number(m[1])]?.op || '';
  else if (/^[a-z]+\d+\.(\w+)/.test(key)) where = /^[a-z]+\d+\.(\w+)/.exec(key)[1];
  else if (cls === 'unhandled') {
    const r = JSON.parse(d.b?.[0] ?? 'null');
    where = r && r.mine ? 'user-reason' : r && r.ctor ? r.ctor : typeof r;
  }
  return where ? `${cls}:${where}` : cls;
}

export async function fuzz(o) {
  const {
    seeds = 100, from = 0, node = process.execPath, implA = 'native', implB = 'ours', jobs = 2, timeoutMs = 5000,
    referee = 'polyfill', shrink = false, shrinkMax = 8, shrinkClasses = null, progress = () => {}, log = () => {}, maxSteps, family,
  } = o;
  const lanes = Array.from({ length: jobs }, () => ({
    a: new Worker(implA, { node, timeoutMs }),
    b: new Worker(implB, { node, timeoutMs }),
    p: referee ? new Worker(referee, { node, timeoutMs }) : null,
  }));
  const findings = [];
  const counts = {};
  let done = 0;
  let next = from;
  const end = from + seeds;
  const t0 = Date.now();
  const runBoth = async (lane, program) => {
    const src = compile(program);
    const [A, B] = await Promise.all([lane.a.run(src), lane.b.run(src)]);
    return { A, B, diffs: diffTraces(A, B) };
  };
  await Promise.all(lanes.map(async (lane) => {
    while (next < end) {
      const seed = next++;
      const program = generate(seed, { maxSteps, family });
      const { A, B, diffs } = await runBoth(lane, program);
      if (diffs.length) {
        const cls = primaryClass(diffs);
        const P = lane.p ? await lane.p.run(compile(program)) : null;
        const verdict = refereeVerdict(diffs.filter((d) => d.cls === cls), A, B, P);
        const classes = [...new Set(diffs.map((d) => d.cls))];
        for (const c of classes) counts[c] = (counts[c] || 0) + 1;
        const f = { seed, cls, classes, sig: signature(diffs, program), verdict, diffs: diffs.slice(0, 6), program };
        findings.push(f);
        log(`seed ${seed}: ${classes.join(',')} [${f.sig}] (${verdict})`, f);
      }
      done++;
      progress({ done, total: seeds, findings: findings.length, counts, ms: Date.now() - t0 });
    }
  }));
  const shrunk = [];
  if (shrink && findings.length) {
    const bySig = new Map();
    for (const f of findings.sort((x, y) => x.seed - y.seed)) {
      if (shrinkClasses && !shrinkClasses.includes(f.cls)) continue;
      if (!bySig.has(f.sig)) bySig.set(f.sig, { first: f, seeds: [] });
      bySig.get(f.sig).seeds.push(f.seed);
    }
    const lane = lanes[0];
    for (const [sig, { first, seeds: sigSeeds }] of [...bySig].slice(0, shrinkMax)) {
      // Keep the referee's verdict too: a program where ours is the odd one
      // out must not shrink into one where native is.
      const stillFails = async (cand) => {
        const { A, B, diffs } = await runBoth(lane, cand);
        if (!diffs.some((d) => d.cls === first.cls)) return false;
        if (!lane.p) return true;
        const P = await lane.p.run(compile(cand));
        return refereeVerdict(diffs.filter((d) => d.cls === first.cls), A, B, P) === first.verdict;
      };
      const small = await shrinkProgram(first.program, stillFails, { log: (m) => log(`  [${sig}] ${m}`) });
      const { A, B, diffs } = await runBoth(lane, small);
      const P = lane.p ? await lane.p.run(compile(small)) : null;
      const verdict = refereeVerdict(diffs.filter((d) => d.cls === first.cls), A, B, P);
      shrunk.push({ sig, cls: first.cls, seeds: sigSeeds, seed: first.seed, verdict, program: small,
        diffs: diffs.slice(0, 6), repro: reproScript(small, `seed ${first.seed}, ${sig}`) });
    }
  }
  for (const l of lanes) { l.a.close(); l.b.close(); l.p?.close(); }
  return { done, findings, counts, shrunk, ms: Date.now() - t0 };
}
