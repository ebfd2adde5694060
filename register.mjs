// The preload: `node --import fast-webstreams/register app.js`.
// Importing it installs the global patch; importing it again does nothing more.
// FAST_WEBSTREAMS=0 is the kill switch: the module then changes nothing.
// FAST_WEBSTREAMS_<FEATURE>=0 turns single features off (docs/interop.md).
//
// Keep this module's static imports free of Node builtins imported as ESM:
// Node creates a builtin's ESM namespace when the graph is linked, before any
// module body runs, and some (node:http on Node 24+) load the bundled undici,
// which captures the global ReadableStream at that moment. Everything else is
// imported dynamically, after install().
import { install } from './src/index.js';

if (process.env.FAST_WEBSTREAMS !== '0') install();

await import('./src/metrics/from-env.js'); // metrics outputs the environment asks for (docs/metrics.md); none when FAST_WEBSTREAMS=0
