// Node module hooks: the load hook through which the preload sees the
// application load an npm package (today: undici, which captures the global
// ReadableStream when it loads; src/patch/undici-first.js, bodies.js).
//
// The preload registers it in-thread, with module.registerHooks (Node 22.15+,
// 23.5+), from src/node-internals/package-load.js, which also picks the
// fallback where Node has no such hooks. It is not meant for module.register():
// that starts a hooks thread, and on Node 20 and 22 routes every import of the
// application through it, for nothing the preload needs.
//
// What the hook does: each CommonJS file of a watched package that is loaded
// from outside the package (its entry, as a rule; the files that one requires
// run inside it) gets a source that calls enter() before its code and
// leave(module.exports) after it, even when it throws: the file's own source,
// on the same line numbers, inside try/finally (after its 'use strict'
// directive, kept). The hook sees require() and import alike; files are
// matched by their URL (.../node_modules/<name>/...). The calls reach the
// watchers through a global symbol, so a source wrapped in any thread works.

/** The global through which a wrapped file reports; `dispatch` below is set there while hooks are registered. */
export const kPackageFileDispatch = Symbol.for('fast-webstreams.package-file');

/** Watchers: { pattern, enter, leave }, in the order they were added. */
export const packageWatchers = [];

const STRICT = /^(?:\s|\/\/[^\n]*\n|\/\*[\s\S]*?\*\/)*(['"])use strict\1/;
const decoder = new TextDecoder();

function wrapSource(url, source) {
  const text = typeof source === 'string' ? source : decoder.decode(source);
  if (text.startsWith('#!')) return text; // a hashbang must stay first: such a file is not watched
  const call = (what) => `globalThis[Symbol.for(${JSON.stringify(kPackageFileDispatch.description)})]?.${what}`;
  const u = JSON.stringify(url);
  return `${STRICT.test(text) ? "'use strict';" : ''}${call('enter')}(${u});try{${text}\n}finally{` +
    `${call('leave')}(${u},module.exports)}`;
}

/** How many wrapped files are running their code now (a file a wrapped one requires runs inside it). */
let running = 0;

/** The load hook (module.registerHooks' and module.register()'s shape). */
export function load(url, context, nextLoad) {
  const result = nextLoad(url, context);
  // A file required while a watched file runs is inside that file's enter/leave already: only
  // the files loaded from outside (the package's entry, as a rule) are given a new source.
  if (running > 0) return result;
  const commonjs = result.format === 'commonjs' || (result.format == null && /\.c?js$/.test(url));
  if (!commonjs || result.source == null || !packageWatchers.some((w) => w.pattern.test(url))) return result;
  return { ...result, source: wrapSource(url, result.source) };
}

/** What a wrapped file calls, through globalThis[kPackageFileDispatch]. */
export const dispatch = {
  enter(url) {
    running++;
    for (const w of packageWatchers) if (w.pattern.test(url)) w.enter();
  },
  leave(url, exports) {
    running--;
    for (let i = packageWatchers.length - 1; i >= 0; i--) {
      if (packageWatchers[i].pattern.test(url)) packageWatchers[i].leave(exports);
    }
  },
};
