// The preload for require: `node -r fast-webstreams/register app.js` or
// NODE_OPTIONS="--require fast-webstreams/register". The same as register.mjs,
// which a require() cannot load (top-level await): the preload's eager part is
// loaded with require(esm), which Node 20.19+, 22.12+, 24 and 26 do without a
// flag, before the application's first line.
'use strict';

const killed = /^\s*(0|false|off|no)\s*$/i.test(process.env.FAST_WEBSTREAMS ?? ''); // as src/patch/features.js
if (!killed) {
  require('./dist/preload.js').preload();
} else if (/(^|[\s,])fast-webstreams($|[\s,])/i.test(process.env.NODE_DEBUG ?? '')) {
  process.stderr.write(`FAST-WEBSTREAMS ${process.pid}: FAST_WEBSTREAMS=${process.env.FAST_WEBSTREAMS}: ` +
    'the kill switch is on, nothing installed\n');
}
