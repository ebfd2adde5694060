// The catalog of error sites of the public API: each site provokes one error
// with the GLOBAL stream classes, so the probe measures whatever the process
// installed (Node's own classes, or ours under the preload).
import readable from './sites/readable.mjs';
import bytes from './sites/bytes.mjs';
import writable from './sites/writable.mjs';
import brands from './sites/brands.mjs';
import misc from './sites/misc.mjs';
import codecs from './sites/codecs.mjs';
import messages from './sites/messages.mjs';

const sites = [...readable, ...bytes, ...writable, ...brands, ...misc, ...codecs, ...messages];

const seen = new Set();
for (const { name } of sites) {
  if (seen.has(name)) throw new Error(`duplicate site name: ${name}`);
  seen.add(name);
}

export default sites;
