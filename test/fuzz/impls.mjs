// The stream classes one implementation offers, as one object, so the
// interpreter runs the same program text against each:
//   native   - this Node's own classes (globalThis, nothing patched)
//   ours     - the globals after the real preload (--import register.mjs)
//   polyfill - web-streams-polyfill's ponyfill (close to the reference implementation;
//              its async iterator is not WebIDL's: docs/fuzzing.md, The referee)
// Planted bugs (plants) wrap a class set to prove the fuzzer notices a defect.
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dirname, join } from 'node:path';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const NAMES = ['ReadableStream', 'WritableStream', 'TransformStream', 'CountQueuingStrategy', 'ByteLengthQueuingStrategy'];
const pickClasses = (from) => Object.fromEntries(NAMES.map((n) => [n, from[n]]));

export async function loadImpl(name) {
  if (name === 'native' || name === 'ours') {
    const S = pickClasses(globalThis);
    if (name === 'ours') {
      const lib = await import(pathToFileURL(join(ROOT, 'dist', 'fast-webstreams.js')).href);
      if (!lib.isInstalled() || S.ReadableStream !== lib.ReadableStream) throw new Error('ours: the preload did not install fast-webstreams');
    } else if (process.execArgv.some((a) => a.includes('register'))) {
      throw new Error('native: started with the preload');
    }
    return S;
  }
  if (name === 'polyfill') return pickClasses(await import('web-streams-polyfill'));
  throw new Error(`unknown implementation ${name}`);
}

// Controller proxy whose enqueue is filtered by `keep(chunk)`.
function filteredController(c, keep) {
  return new Proxy(c, {
    get(t, p) {
      if (p === 'enqueue') return (ch) => (keep(ch) ? t.enqueue(ch) : undefined);
      const v = Reflect.get(t, p, t);
      return typeof v === 'function' ? v.bind(t) : v;
    },
  });
}

const PLANTS = {
  // The 3rd chunk a source enqueues (per stream) silently vanishes.
  'drop-chunk'(S) {
    class ReadableStream extends S.ReadableStream {
      constructor(src, strategy) {
        if (src && typeof src === 'object') {
          let n = 0;
          const proxies = new WeakMap();
          const wrap = (c) => {
            if (!proxies.has(c)) proxies.set(c, filteredController(c, () => ++n !== 3));
            return proxies.get(c);
          };
          const orig = src;
          src = { ...orig };
          if (orig.start) src.start = (c) => orig.start.call(orig, wrap(c));
          if (orig.pull) src.pull = (c) => orig.pull.call(orig, wrap(c));
        }
        super(src, strategy);
      }
    }
    return { ...S, ReadableStream };
  },
  // The 2nd pull of a source and the 2nd write of a sink run one microtask late.
  'late-callback'(S) {
    const late = (obj, name) => {
      if (!obj || typeof obj[name] !== 'function') return obj;
      let n = 0;
      const f = obj[name];
      return { ...obj, [name]: (...args) => (++n === 2 ? Promise.resolve().then(() => f.apply(obj, args)) : f.apply(obj, args)) };
    };
    class ReadableStream extends S.ReadableStream {
      constructor(src, strategy) { super(late(src, 'pull'), strategy); }
    }
    class WritableStream extends S.WritableStream {
      constructor(sink, strategy) { super(late(sink, 'write'), strategy); }
    }
    return { ...S, ReadableStream, WritableStream };
  },
};
export const PLANT_NAMES = Object.keys(PLANTS);

export function applyPlant(S, plant) {
  if (!plant) return S;
  if (!PLANTS[plant]) throw new Error(`unknown plant ${plant} (known: ${PLANT_NAMES.join(', ')})`);
  return PLANTS[plant](S);
}
