// program (data) -> JS source: the body of `async (S, T) => { ... }`, where S
// holds the stream classes of one implementation and T is the tracer
// (tracer.mjs). The interpreter runs this text; the repro printer prints it,
// so what a repro shows is exactly what ran.
const q = (s) => JSON.stringify(s);
const reasonJs = (r) => (r === null || r === undefined ? '' : typeof r === 'string' ? q(r) : `T.err(${q(r.tag)})`);

function actJs(a, key, c, chunkVar) {
  const k = `\`${key}\``;
  switch (a.a) {
    case 'enqueue': return `T.do(${k}, () => ${c}.enqueue(${q(a.v)}));`;
    case 'enqueueChunk': return `T.do(${k}, () => ${c}.enqueue(${chunkVar}));`;
    case 'enqueueBytes': return `T.do(${k}, () => ${c}.enqueue(new Uint8Array([${Array.from({ length: a.n }, (_, i) => (a.base + i) & 255)}])));`;
    case 'respond': return `T.respond(${k}, ${c}, ${a.n}, ${a.base});`;
    case 'close': return `T.do(${k}, () => ${c}.close());`;
    case 'error': return `T.do(${k}, () => ${c}.error(T.err(${q(a.tag)})));`;
    case 'terminate': return `T.do(${k}, () => ${c}.terminate());`;
    case 'desired': return `T.val(${k}, () => ${c}.desiredSize);`;
    case 'signal': return `T.val(${k}, () => ${c}.signal.aborted);`;
    default: throw new Error(`unknown action ${a.a}`);
  }
}

function retJs(call, key, c, chunkVar) {
  const late = (call.late || []).map((a, j) => actJs(a, `${key}.late${j}`, c, chunkVar)).join(' ');
  const then = late ? `.then(() => { ${late} })` : '';
  switch (call.r) {
    case 'return': return 'return;';
    case 'throw': return `throw T.err(${q(call.tag)});`;
    case 'reject': return `return Promise.reject(T.err(${q(call.tag)}));`;
    case 'wait': return `return T.defer(${q(call.d)})${then};`;
    case 'micro': return `return T.micro(${call.n})${then};`;
    case 'macro': return `return T.macro()${then};`;
    default: throw new Error(`unknown return ${call.r}`);
  }
}

// One user callback as a method. `params` are its JS parameters; those listed
// in `recorded` are serialized into the trace.
function methodJs(owner, name, spec, params, recorded, ctlParam, chunkVar) {
  const lines = [];
  const who = `${owner}.${name}`;
  lines.push(`${name}(${params.join(', ')}) {`);
  lines.push(`  const k = T.cb(${q(who)}, [${recorded.join(', ')}]);`);
  if (name === 'start' && ctlParam) lines.push(`  T.ctl.${owner} = ${ctlParam};`);
  spec.calls.forEach((call, i) => {
    const key = `${who}#${i}`;
    const body = [...call.acts.map((a, j) => actJs(a, `${key}.a${j}`, ctlParam, chunkVar)), retJs(call, key, ctlParam, chunkVar)];
    lines.push(`  if (k === ${i}) { ${body.join(' ')} }`);
  });
  lines.push('}');
  return lines.map((l) => '  ' + l).join('\n');
}

function strategyJs(owner, s, which = '') {
  if (!s || (s.hwm === undefined && !s.size)) return null;
  if (s.cls === 'count') return `new CountQueuingStrategy({ highWaterMark: ${s.hwm} })`;
  const parts = [];
  if (s.hwm !== undefined) parts.push(`highWaterMark: ${s.hwm}`);
  const who = q(`${owner}.size${which}`);
  if (s.size === 'one') parts.push(`size(ch) { T.cb(${who}, [ch]); return 1; }`);
  if (s.size === 'two') parts.push(`size(ch) { T.cb(${who}, [ch]); return 2; }`);
  if (s.size === 'throwAt') parts.push(`size(ch) { if (T.cb(${who}, [ch]) === ${s.at}) throw T.err(${q(s.tag)}); return 1; }`);
  return `{ ${parts.join(', ')} }`;
}

function stepJs(st, i) {
  const key = `s${i}`;
  const doit = (code) => `T.do(${q(key)}, () => { ${code} });`;
  const obs = (expr) => doit(`T.obs(${q(key)}, ${expr});`);
  switch (st.op) {
    case 'newR': {
      const kind = st.bytes ? 'c' : 'c';
      const ms = [];
      if (st.bytes) ms.push(`  type: 'bytes',`);
      if (st.auto) ms.push(`  autoAllocateChunkSize: ${st.auto},`);
      const cb = st.cbs;
      ms.push(methodJs(st.id, 'start', cb.start, [kind], [], kind) + ',');
      if (cb.pull) ms.push(methodJs(st.id, 'pull', cb.pull, [kind], [], kind) + ',');
      if (cb.cancel) ms.push(methodJs(st.id, 'cancel', cb.cancel, ['reason'], ['reason'], 'T.ctl.' + st.id) + ',');
      const strat = strategyJs(st.id, st.strat);
      return doit(`${st.id} = new ReadableStream({\n${ms.join('\n')}\n}${strat ? ', ' + strat : ''});`);
    }
    case 'newW': {
      const ms = [];
      const cb = st.cbs;
      ms.push(methodJs(st.id, 'start', cb.start, ['c'], [], 'c') + ',');
      if (cb.write) ms.push(methodJs(st.id, 'write', cb.write, ['chunk', 'c'], ['chunk'], 'c', 'chunk') + ',');
      if (cb.close) ms.push(methodJs(st.id, 'close', cb.close, [], [], 'T.ctl.' + st.id) + ',');
      if (cb.abort) ms.push(methodJs(st.id, 'abort', cb.abort, ['reason'], ['reason'], 'T.ctl.' + st.id) + ',');
      const strat = strategyJs(st.id, st.strat);
      return doit(`${st.id} = new WritableStream({\n${ms.join('\n')}\n}${strat ? ', ' + strat : ''});`);
    }
    case 'newT': {
      const ms = [];
      const cb = st.cbs;
      ms.push(methodJs(st.id, 'start', cb.start, ['c'], [], 'c') + ',');
      if (cb.transform) ms.push(methodJs(st.id, 'transform', cb.transform, ['chunk', 'c'], ['chunk'], 'c', 'chunk') + ',');
      if (cb.flush) ms.push(methodJs(st.id, 'flush', cb.flush, ['c'], [], 'c') + ',');
      if (cb.cancel) ms.push(methodJs(st.id, 'cancel', cb.cancel, ['reason'], ['reason'], 'T.ctl.' + st.id) + ',');
      const ws = strategyJs(st.id, st.ws, 'W') || (st.rs && strategyJs(st.id, st.rs, 'R') ? 'undefined' : null);
      const rs = strategyJs(st.id, st.rs, 'R');
      const args = [ws, rs].filter((x) => x !== null);
      return doit(`${st.id} = new TransformStream({\n${ms.join('\n')}\n}${args.length ? ', ' + args.join(', ') : ''});`);
    }
    case 'from': {
      if (st.kind === 'array') return doit(`${st.id} = ReadableStream.from(${q(st.items)});`);
      const body = [];
      st.items.forEach((it, j) => {
        if (st.throwAt === j) body.push(`throw T.err(${q(st.tag)});`);
        if (st.tick) body.push('await T.micro(1);');
        body.push(`yield ${q(it)};`);
      });
      if (st.throwAt === st.items.length) body.push(`throw T.err(${q(st.tag)});`);
      return doit(`${st.id} = ReadableStream.from((async function* () { try { ${body.join(' ')} } finally { T.ev(${q(key + '.finally')}); } })());`);
    }
    case 'newBusy': // always has data; only its cancel is traced (how often it is pulled is each pipe's own pace)
      return doit(`let n = 0; ${st.id} = new ReadableStream({ pull(c) { c.enqueue(${q(st.id)} + ++n); }, ` +
        `cancel(reason) { T.cb(${q(st.id + '.cancel')}, [reason]); } });`);
    case 'chain': {
      const t = st.enqueues ? '{ transform(x, c) { c.enqueue(x); } }' : '';
      return doit(`${st.id} = ${st.src}; for (let i = 0; i < ${st.n}; i++) ${st.id} = ${st.id}.pipeThrough(new TransformStream(${t}));`);
    }
    case 'tee': return doit(`[${st.ids.join(', ')}] = ${st.src}.tee();`);
    case 'getReader': return doit(`${st.id} = ${st.src}.getReader(${st.byob ? "{ mode: 'byob' }" : ''});`);
    case 'read': {
      if (st.len === undefined) return obs(`${st.rd}.read()`);
      const view = st.view === 'u16' ? `new Uint16Array(${Math.ceil(st.len / 2)})` : `new Uint8Array(${st.len})`;
      const min = st.min !== undefined ? `, { min: ${st.view === 'u16' ? Math.max(1, Math.floor(st.min / 2)) : st.min} }` : '';
      return obs(`${st.rd}.read(${view}${min})`);
    }
    case 'release': return doit(`${st.h}.releaseLock();`);
    case 'rdCancel': return obs(`${st.rd}.cancel(${reasonJs(st.reason)})`);
    case 'rdClosed': return obs(`${st.rd}.closed`);
    case 'getWriter': return doit(`${st.id} = ${st.dst}.getWriter();`);
    case 'write': return obs(`${st.wr}.write(${q(st.v)})`);
    case 'wClose': return obs(`${st.wr}.close()`);
    case 'wAbort': return obs(`${st.wr}.abort(${reasonJs(st.reason)})`);
    case 'ready': return obs(`${st.wr}.ready`);
    case 'wClosed': return obs(`${st.wr}.closed`);
    case 'desired': return `T.val(${q(key)}, () => ${st.wr}.desiredSize);`;
    case 'rsCancel': return obs(`${st.src}.cancel(${reasonJs(st.reason)})`);
    case 'wsAbort': return obs(`${st.dst}.abort(${reasonJs(st.reason)})`);
    case 'wsClose': return obs(`${st.dst}.close()`);
    case 'pipeTo': case 'pipeThrough': {
      const o = st.opts || {};
      const parts = ['preventClose', 'preventAbort', 'preventCancel'].filter((p) => o[p]).map((p) => `${p}: true`);
      if (o.ac) parts.push(`signal: ${o.ac}.signal`);
      const opts = parts.length ? `, { ${parts.join(', ')} }` : '';
      const pre = o.newAc ? `${o.newAc} = new AbortController(); ` : '';
      if (st.op === 'pipeTo') return doit(`${pre}T.obs(${q(key)}, ${st.src}.pipeTo(${st.dst}${opts}));`);
      return doit(`${pre}${st.id} = ${st.src}.pipeThrough(${st.t}${opts});`);
    }
    case 'iter': {
      const loop = [];
      if (st.how === 'return') {
        loop.push(`const it = ${st.src}.values(${st.preventCancel ? '{ preventCancel: true }' : ''});`);
        for (let j = 0; j < st.brk; j++) loop.push(`T.ev(${q(`${key}.next${j}`)}, await it.next());`);
        loop.push(`T.ev(${q(key + '.return')}, await it.return(${q('ret')}));`);
      } else {
        const stop = st.how === 'break' ? ' break;' : st.how === 'throw' ? ` throw T.err(${q(st.tag)});` : '';
        loop.push(`let n = 0;`);
        loop.push(`for await (const v of ${st.src}.values(${st.preventCancel ? '{ preventCancel: true }' : ''})) {`);
        loop.push(`  T.ev(${q(key + '.v')} + n, v);`);
        loop.push(st.how === 'all' ? '  n++;' : `  if (++n > ${st.brk}) {${stop} }`);
        loop.push('}');
      }
      return `T.obs(${q(key)}, (async () => {\n  ${loop.join('\n  ')}\n})());`;
    }
    case 'abort': return doit(`${st.ac}.abort(${reasonJs(st.reason)});`);
    case 'settle': return `T.settle(${q(st.d)}, ${st.ok});`;
    case 'ctl': {
      const c = `T.ctl.${st.target}`;
      if (st.act.a === 'respond') return `T.respond(${q(key)}, ${c}, ${st.act.n}, ${st.act.base});`;
      return actJs(st.act, key, c, 'undefined');
    }
    case 'micro': return `await T.micro(${st.n});`;
    case 'macro': return 'await T.macro();';
    case 'locked': return `T.val(${q(key)}, () => ${st.src}.locked);`;
    default: throw new Error(`unknown step ${st.op}`);
  }
}

const HANDLE = /\b(?:r|w|t|rd|wr|ac|it)\d+\b/g;

export function compile(program) {
  const body = program.steps.map((st, i) => `// ${i}: ${st.op}\n${stepJs(st, i)}`);
  const names = new Set();
  for (const line of body) for (const m of line.replace(/"[^"]*"/g, '').matchAll(HANDLE)) names.add(m[0]);
  const sorted = [...names].sort();
  const head = [
    'const { ReadableStream, WritableStream, TransformStream, CountQueuingStrategy } = S;',
    sorted.length ? `let ${sorted.join(', ')};` : '',
  ].filter(Boolean);
  return [...head, ...body].join('\n');
}
