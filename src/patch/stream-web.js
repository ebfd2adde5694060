// `node:stream/web` and `stream/web`, imported or required, give our classes.
//
// Every form of the module shares one exports object (what require() returns);
// the ESM namespace is a copy that module.syncBuiltinESMExports() refreshes from
// it. So the patch writes our classes into that object and syncs: this works on
// Node 20, 22, 24 and 26, for modules already imported (ESM bindings are live)
// and for those imported later, with no loader thread. Worker threads run the
// preload too (--import is inherited through execArgv and NODE_OPTIONS).
//
// Node 24+ also exports ReadableStreamTee(stream, cloneForBranch2), which
// undici's Response.clone() calls; Node's version only accepts native streams,
// so ours are teed by our own algorithm and natives still by Node's.
import { fastClasses } from './classes.js';
import { unwrapReadableStream, wrapReadableStream } from '../readable/readable-stream.js';
import { IsReadableStreamLocked } from '../readable/stream-ops.js';
import { ReadableStreamTee as OurTee } from '../readable/tee.js';
import { sameShape } from './restore.js';
import { builtin } from './builtins.js';
import { invalidState } from '../errors.js';
import { ReflectApply } from '../intrinsics.js';

const { syncBuiltinESMExports } = builtin('node:module');
const streamWeb = builtin('node:stream/web');

export function installStreamWeb(journal) {
  // Recorded first, so it runs last on restore, once the exports object is
  // back: the ESM namespace then follows it.
  journal.onRestore(() => syncBuiltinESMExports());
  for (const name of Object.keys(fastClasses)) {
    if (name in streamWeb) journal.replaceValue(streamWeb, name, fastClasses[name]);
  }
  const nativeTee = streamWeb.ReadableStreamTee;
  if (typeof nativeTee === 'function') {
    journal.replaceValue(streamWeb, 'ReadableStreamTee', sameShape(function ReadableStreamTee(stream, cloneForBranch2) {
      const impl = unwrapReadableStream(stream);
      if (impl === undefined) return ReflectApply(nativeTee, this, arguments);
      if (IsReadableStreamLocked(impl)) throw invalidState('ReadableStream is locked');
      const branches = OurTee(impl, !!cloneForBranch2);
      return [wrapReadableStream(branches[0]), wrapReadableStream(branches[1])];
    }, nativeTee));
  }
  syncBuiltinESMExports();
}
