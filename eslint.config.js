// `npm run lint` (and a step of `npm test`): eslint's recommended rules
// everywhere, and in the stream core two rules of our own (tools/eslint/plugin.js)
// that keep it on the intrinsics captured in src/intrinsics.js.
import js from '@eslint/js';
import globals from 'globals';
import local from './tools/eslint/plugin.js';

// The globals the core must not read where src/intrinsics.js holds a capture,
// and what to use instead.
const CAPTURED = {
  Promise: 'OriginalPromise, promiseThen, PromiseResolve or PromiseReject',
  Reflect: 'ReflectApply or ReflectGet',
  Object: 'ObjectCreate, ObjectDefineProperty, ObjectGetPrototypeOf, ... (or a new capture)',
  Function: 'uncurryThis or functionCall',
  Array: 'a capture of the Array function you need (add it)',
  Symbol: 'SymbolAsyncIterator, SymbolIterator or SymbolToStringTag',
  Math: 'MathTrunc, MathMin or MathMax',
  Number: 'NumberIsNaN, NumberIsInteger or NumberMAX_SAFE_INTEGER',
  ArrayBuffer: 'ArrayBufferCtor, ArrayBufferIsView or the accessors',
  SharedArrayBuffer: 'SharedArrayBufferCtor or isSharedArrayBuffer',
  Uint8Array: 'Uint8ArrayCtor',
  DataView: 'DataViewCtor or the dataView* accessors',
  TypeError: 'OriginalTypeError (or codedError from src/errors.js)',
  RangeError: 'OriginalRangeError (or codedError from src/errors.js)',
  AbortController: 'AbortControllerCtor',
  AbortSignal: 'abortSignalAborted, abortSignalReason or isAbortSignal',
  EventTarget: 'EventTargetAddEventListener or EventTargetRemoveEventListener',
  structuredClone: 'arrayBufferTransfer (src/intrinsics.js) or TransferArrayBuffer (src/array-buffers.js)',
  Map: 'MapCtor and mapGet, mapSet, ...',
  Set: 'SetCtor and setAdd, ...',
  WeakMap: 'WeakMapCtor and weakMapGet, weakMapSet',
  WeakSet: 'WeakSetCtor and weakSetAdd, weakSetHas, weakSetDelete',
  DOMException: 'DOMExceptionCtor',
};

export default [
  { ignores: ['dist/', '.cache/', '**/node_modules/', 'bench/results/', 'types/'] },
  js.configs.recommended,
  {
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: { ecmaVersion: 2025, sourceType: 'module', globals: { ...globals.node } },
    rules: {
      // `catch {}` is how this code says "that failure is expected and changes nothing".
      'no-empty': ['error', { allowEmptyCatch: true }],
      // `for (const _ of it)` consumes an iterator.
      'no-unused-vars': ['error', { varsIgnorePattern: '^_$' }],
      // Statements kept for their effect (a getter's, a constructor's) and
      // a loop that stops at its first item say so (eslint-disable-next-line).
      'no-new': 'error',
      'no-unused-expressions': 'error',
      'no-unreachable-loop': 'error',
      // One import statement per module imported.
      'no-duplicate-imports': 'error',
    },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { ecmaVersion: 2025, sourceType: 'commonjs', globals: { ...globals.node } },
  },
  {
    // testharness.js defines these on the global object of a WPT child.
    files: ['test/wpt/child.mjs'],
    languageOptions: {
      globals: { add_result_callback: 'readonly', add_completion_callback: 'readonly', timeout: 'readonly', done: 'readonly' },
    },
  },
  {
    // The seam (docs/architecture.md): the spec folders import nothing of
    // src/fast/; the fast paths plug into them from above, through the hooks
    // of src/tiers.js (src/fast/plug.js).
    files: ['src/readable/**', 'src/writable/**', 'src/transform/**'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [{
          group: ['**/fast/*'],
          message: 'The spec code imports nothing of src/fast/: add a hook to src/tiers.js (docs/architecture.md, "The seam").',
        }],
      }],
    },
  },
  {
    // V8's parser allocates a function literal assigned straight to a property
    // (`this.step = () => ...`) in old space, where it keeps every young
    // object its context reaches alive through each scavenge until a full GC:
    // per stream, that promoted whole pipes (docs/architecture.md, "Closures
    // kept in fields"). Make the closure in a local, then store it.
    files: ['src/**/*.js'],
    rules: {
      'no-restricted-syntax': ['error', {
        selector: "AssignmentExpression[left.type='MemberExpression'] > :matches(ArrowFunctionExpression, FunctionExpression).right",
        message: 'Make the closure in a local and store that: V8 pretenures a function literal assigned to a property (docs/architecture.md, "Closures kept in fields").',
      }],
    },
  },
  {
    // The core. Not intrinsics.js (it makes the captures), nor the modules that
    // use Node's APIs while installing or exporting: patch/, bridge/, metrics/,
    // node-internals/ (probes of Node's internals, run once), and the codecs'
    // installer and its probes of Node's own classes.
    files: ['src/**/*.js'],
    ignores: ['src/intrinsics.js', 'src/patch/**', 'src/bridge/**', 'src/metrics/**', 'src/node-internals/**',
      'src/codecs/install.js', 'src/codecs/natives.js'],
    plugins: { 'fast-webstreams': local },
    rules: { 'fast-webstreams/no-patchable-builtins': ['error', { globals: CAPTURED }] },
  },
  {
    // Array destructuring, spread, for-of, a derived class's default
    // constructor and the prototype methods of arrays and collections, where
    // a program's stream calls run: the core and the bridges to Node's
    // streams (test/interop/hostile-globals.test.mjs). Not the installer
    // (patch/, the codecs' install.js), metrics' exposure or the probes,
    // which run before a program does or only when it asks them.
    files: ['src/**/*.js'],
    ignores: ['src/intrinsics.js', 'src/patch/**', 'src/metrics/**', 'src/node-internals/**', 'src/codecs/install.js'],
    plugins: { 'fast-webstreams': local },
    rules: { 'fast-webstreams/no-patchable-iteration': 'error' },
  },
];
