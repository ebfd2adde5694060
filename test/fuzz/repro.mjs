// A program as a standalone script: the same compiled text the interpreter
// ran, with the tracer printing each event as one line. Run it plainly and
// under the preload and compare the outputs.
import { compile } from './compile.mjs';
import { makeTracer } from './tracer.mjs';

export const TRACER_BEGIN = '// --- tracer: test/fuzz/tracer.mjs makeTracer, each event printed as a JSON line ---';
export const TRACER_END = '// --- end of tracer ---';

// The repro without the tracer's text (for printing on a terminal).
export function reproBody(script) {
  const a = script.indexOf(TRACER_BEGIN);
  const b = script.indexOf(TRACER_END);
  return a < 0 ? script : script.slice(0, a) + 'const T = /* the tracer */;' + script.slice(b + TRACER_END.length);
}

export function reproScript(program, note = '') {
  return [
    `// fast-webstreams fuzz repro${note ? ': ' + note : ''}`,
    '// node repro.mjs  vs  node --import fast-webstreams/register repro.mjs',
    TRACER_BEGIN,
    `const T = (${makeTracer.toString()})((e) => console.log(JSON.stringify(e)));`,
    TRACER_END,
    "process.on('unhandledRejection', (r) => console.log('UNHANDLED', JSON.stringify(T.shape(r))));",
    'const S = globalThis;',
    'await (async () => {',
    compile(program),
    '})();',
    "setTimeout(() => console.log('PENDING', JSON.stringify(T.pendingKeys())), 200);",
  ].join('\n');
}
