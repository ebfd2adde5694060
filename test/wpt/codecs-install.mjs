// What test/wpt/run-codecs.mjs's patched mode installs: the library's stream
// classes (src/index.js), then the codec classes on top, as the preload does.
import { install as installStreams } from '../../src/index.js';
import { installCodecs } from '../../src/codecs/install.js';

export function install() {
  installStreams();
  installCodecs();
}
