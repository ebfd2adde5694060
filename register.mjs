// The preload: `node --import fast-webstreams/register app.js`
// (or `node -r fast-webstreams/register`: register.cjs).
// Importing it installs the global patch; importing it again does nothing more.
// FAST_WEBSTREAMS=0 (or false, off, no) is the kill switch: the module then
// loads nothing and changes nothing. FAST_WEBSTREAMS_<FEATURE>=0 turns single
// features off, NODE_DEBUG=fast-webstreams says what was done (docs/interop.md).
//
// Every process started with the preload pays for what it loads, so it loads
// only the preload's eager part, dist/preload.js (src/patch/lazy.js, bundled by
// tools/bundle.mjs: a build output that npm ci, npm pack and npm test make).
// That part loads the library, dist/fast-webstreams.js, on the first use of a
// Web Streams global, and installs it then: a process that never uses a stream
// never loads it (docs/interop.md, "Start-up"). The library is the module the
// package exports, so a program that also imports 'fast-webstreams' gets the
// classes installed here.
//
// No static imports, and no Node builtin imported as ESM: Node creates a
// builtin's ESM namespace when the graph is linked, before any module body
// runs, and some (node:http on Node 22+) load the bundled undici, which
// captures the global ReadableStream at that moment.
const killed = /^\s*(0|false|off|no)\s*$/i.test(process.env.FAST_WEBSTREAMS ?? ''); // as src/patch/features.js
if (!killed) {
  const { preload } = await import('./dist/preload.js');
  preload();
} else if (/(^|[\s,])fast-webstreams($|[\s,])/i.test(process.env.NODE_DEBUG ?? '')) {
  process.stderr.write(`FAST-WEBSTREAMS ${process.pid}: FAST_WEBSTREAMS=${process.env.FAST_WEBSTREAMS}: ` +
    'the kill switch is on, nothing installed\n');
}
