// Which Web Streams the globals are, for /api/health: the runner passes the
// library's entry (LOAD_WEBSTREAMS_LIB) to both servers, and the global class
// is compared with the library's own.
import { pathToFileURL } from 'node:url';

export async function webStreamsInUse() {
  const entry = process.env.LOAD_WEBSTREAMS_LIB;
  if (!entry) return 'unknown';
  const lib = await import(/* webpackIgnore: true */ /* turbopackIgnore: true */ pathToFileURL(entry).href);
  return globalThis.ReadableStream === lib.ReadableStream ? 'fast-webstreams' : 'native';
}
