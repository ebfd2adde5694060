// seed -> one fetch case: a request body of some kind, sent to a server that
// answers with a redirect, a 401 or the echo, and the response read some way
// (issue 34: fetch bodies through redirects and retries). Data only; child.mjs
// runs it.
import { makeRng } from '../prng.mjs';

const BODIES = ['string', 'bytes', 'params', 'form', 'blob', 'request', 'ours', 'blobStream', 'none'];
// 301/302/303 turn a POST into a GET without a body; 307/308 re-send it; 401 is answered as it is
// (undici retries only with credentials in the URL: 'auth').
const ANSWERS = ['200', '301', '302', '303', '307', '308', '401', 'auth401', 'twice307'];
const READS = ['text', 'reader', 'clone', 'pipeThrough', 'cancel', 'bodyUsed'];

export function generate(seed) {
  const R = makeRng(seed);
  return {
    seed,
    body: R.pick(BODIES),
    answer: R.pick(ANSWERS),
    read: R.pick(READS),
    method: R.chance(0.85) ? 'POST' : 'PUT',
    redirect: R.weighted([[8, 'follow'], [1, 'manual'], [1, 'error']]),
  };
}
