// The preload: `node --import fast-webstreams/register app.js`
// (or `node -r fast-webstreams/register`: register.cjs).
// Importing it installs the global patch; importing it again does nothing more.
// FAST_WEBSTREAMS=0 (or false, off, no) is the kill switch: the module then
// loads nothing and changes nothing. FAST_WEBSTREAMS_<FEATURE>=0 turns single
// features off, NODE_DEBUG=fast-webstreams says what was done (docs/interop.md).
//
// Every process started with the preload pays for what it loads, so it loads
// the library as one module, dist/fast-webstreams.js: src/ bundled by
// tools/bundle.mjs (a build output: npm ci, npm pack and npm test make it),
// about a third of what loading src/'s 45 modules cost
// (docs/interop.md, "Start-up"). It is the module the package exports, so a
// program that also imports 'fast-webstreams' gets the classes installed here.
//
// No static imports, and no Node builtin imported as ESM: Node creates a
// builtin's ESM namespace when the graph is linked, before any module body
// runs, and some (node:http on Node 24+) load the bundled undici, which
// captures the global ReadableStream at that moment.
const killed = /^\s*(0|false|off|no)\s*$/i.test(process.env.FAST_WEBSTREAMS ?? ''); // as src/patch/features.js
if (!killed) {
  const { install, startMetricsFromEnv } = await import('./dist/fast-webstreams.js');
  install();
  startMetricsFromEnv(); // metrics outputs the environment asks for (docs/metrics.md)
} else if (/(^|[\s,])fast-webstreams($|[\s,])/i.test(process.env.NODE_DEBUG ?? '')) {
  process.stderr.write(`FAST-WEBSTREAMS ${process.pid}: FAST_WEBSTREAMS=${process.env.FAST_WEBSTREAMS}: ` +
    'the kill switch is on, nothing installed\n');
}
