// Preload for the published peer, experimental-fast-webstreams, installed
// through its own global patch, the way its users switch it on:
//   node --import ./bench/impls/peer-register.mjs app.js
// Only the benchmark uses it; the library never depends on the peer.
import { patchGlobalWebStreams } from 'experimental-fast-webstreams';

patchGlobalWebStreams();
