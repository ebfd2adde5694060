// The preload: `node --import fast-webstreams/register app.js`.
// Importing it installs the global patch; importing it again does nothing more.
// FAST_WEBSTREAMS=0 is the kill switch: the module then changes nothing.
import { install } from './src/index.js';
import './src/metrics/from-env.js'; // metrics outputs the environment asks for (docs/metrics.md); none when FAST_WEBSTREAMS=0

if (process.env.FAST_WEBSTREAMS !== '0') install();
