// A program as a standalone script: the same compiled text the interpreter
// ran, with the tracer printing each event as one line. Run it plainly and
// under the preload and compare the outputs.
import { compile } from './compile.mjs';
import { makeTracer } from './tracer.mjs';

export function reproScript(program, note = '') {
  return [
    `// fast-webstreams fuzz repro${note ? ': ' + note : ''}`,
    '// node repro.mjs  vs  node --import fast-webstreams/register repro.mjs',
    `const T = (${makeTracer.toString()})((e) => console.log(JSON.stringify(e)));`,
    "process.on('unhandledRejection', (r) => console.log('UNHANDLED', JSON.stringify(T.shape(r))));",
    'const S = globalThis;',
    'await (async () => {',
    compile(program),
    '})();',
    "setTimeout(() => console.log('PENDING', JSON.stringify(T.pendingKeys())), 200);",
  ].join('\n');
}
