// The library's first module (src/index.js imports it before anything else):
// under the preload's lazy install, Node's globals go back in place of the
// accessors before any module of the library reads one (src/patch/lazy.js).
import { restoreNodeGlobals } from './lazy.js';

restoreNodeGlobals();
