// The two internal slots of Node's ReadableStream, kType and kState: private
// symbols, found on a fresh native stream by their descriptions. A plain
// object carrying them passes Node's brand check, which is how a body of ours
// lends undici a native face on Node 26 (src/patch/native-face.js).
//
// Probe: both symbols found, and an object with only those two slots passes
// the brand check of Node's `locked` getter.
import { natives, isNativeReadableStream } from '../bridge/natives.js';

let slots;

/** { type, state }: the two symbols, or null when the probe fails. Probed once. */
export function nativeStreamSlots() {
  if (slots !== undefined) return slots;
  const sample = new natives.ReadableStream();
  const keys = Object.getOwnPropertySymbols(sample);
  const find = (description) => keys.find((k) => k.description === description);
  const type = find('kType');
  const state = find('kState');
  const probe = type !== undefined && state !== undefined ? { [type]: sample[type], [state]: sample[state] } : null;
  slots = probe !== null && isNativeReadableStream(probe) ? { type, state } : null;
  return slots;
}
