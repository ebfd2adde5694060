// Where to fix it (FAST_WEBSTREAMS_METRICS_SITES=1): the counters say how
// many chunks took the spec path or fell back, this says whose streams did.
// Each stream the application constructs remembers the first stack frame
// outside node_modules, outside Node and outside this package (taken at
// construction, only in this mode); a spec-path chunk or a fallback is then
// tallied under that frame. A TransformStream's two sides count under the
// site that made the TransformStream, so "async-write at app.js:12" names the
// transform whose transform() returns a promise.
//
// Off by default: then the hot paths pay one load and a branch on `sites.on`.
// On: a stack capture per stream constructed (a few microseconds) and a
// WeakMap lookup per counted event.
import { builtin } from '../patch/builtins.js';

/** Read by the constructors and count sites: `if (sites.on) ...`. */
export const sites = { on: false };

const siteOf = new WeakMap(); // stream record -> "file:line:column"
const tally = new Map(); // site -> Map(kind -> count)

// Set by enableSites(): node:url's fileURLToPath, the path separator, and
// the folders of this package's code (src/, dist/ and the register files'
// folder), as paths and URLs, so that its own frames are skipped.
let fileURLToPath;
let sep = '/';
let ownPrefixes = [];

/** Turns the mode on (from-env.js, when FAST_WEBSTREAMS_METRICS_SITES is set). */
export function enableSites() {
  fileURLToPath = builtin('node:url').fileURLToPath;
  const path = builtin('node:path');
  sep = path.sep;
  const root = path.dirname(path.dirname(path.dirname(fileURLToPath(import.meta.url))));
  const toUrl = (p) => builtin('node:url').pathToFileURL(p).href;
  const own = [path.join(root, 'src') + sep, path.join(root, 'dist') + sep,
    path.join(root, 'register.mjs'), path.join(root, 'register.cjs')];
  ownPrefixes = [...own, ...own.map(toUrl)];
  sites.on = true;
}

/** Is this stack frame location the application's own code? */
function isApplicationFrame(location) {
  if (location.startsWith('node:') || location.includes(`${sep}node_modules${sep}`) ||
    location.includes('/node_modules/')) return false;
  for (let i = 0; i < ownPrefixes.length; i++) if (location.startsWith(ownPrefixes[i])) return false;
  return true;
}

/** The location ("file:line:column") of the application code calling into us, or undefined. */
function applicationCaller() {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 40;
  const stack = new Error().stack;
  Error.stackTraceLimit = limit;
  if (typeof stack !== 'string') return undefined;
  const lines = stack.split('\n');
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i].trim();
    if (!line.startsWith('at ')) continue;
    const open = line.lastIndexOf('(');
    const location = open >= 0 ? line.slice(open + 1, line.length - 1) : line.slice(3);
    if (isApplicationFrame(location)) return asPath(location);
  }
  return undefined;
}

/** "file:///app/x.mjs:3:9" -> "/app/x.mjs:3:9"; other locations as they are. */
function asPath(location) {
  if (!location.startsWith('file://')) return location;
  const position = /(:\d+:\d+)$/.exec(location);
  if (position === null) return fileURLToPath(location);
  return fileURLToPath(location.slice(0, position.index)) + position[1];
}

/** Construction hook: remembers where the application made `record` (a stream's internal record). */
export function noteCreation(record) {
  const site = applicationCaller();
  if (site !== undefined) siteOf.set(record, site);
}

/** Tallies one event of `kind` (a counter name, or "fallback:<reason>") under the site that made `record`. */
export function countAtSite(record, kind) {
  const owner = record.transform !== undefined ? record.transform : record;
  const site = siteOf.get(owner);
  if (site === undefined) return;
  let kinds = tally.get(site);
  if (kinds === undefined) tally.set(site, kinds = new Map());
  kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
}

/**
 * The `limit` sites with the most events, most first:
 * [{ site, total, events: { kind: count } }].
 */
export function topSites(limit = 10) {
  const rows = [];
  for (const [site, kinds] of tally) {
    let total = 0;
    const events = {};
    for (const [kind, n] of kinds) {
      total += n;
      events[kind] = n;
    }
    rows.push({ site, total, events });
  }
  rows.sort((a, b) => b.total - a.total);
  return rows.slice(0, limit);
}

/**
 * Several processes' topSites() rows as one list (a cluster primary's, or the
 * holder of the metrics port's, with those its workers and children reported):
 * events of the same site and kind added up, the `limit` biggest sites first.
 */
export function mergeSites(lists, limit = 10) {
  const merged = new Map();
  for (const rows of lists) {
    for (const row of rows ?? []) {
      let into = merged.get(row.site);
      if (into === undefined) merged.set(row.site, into = { site: row.site, total: 0, events: {} });
      for (const [kind, n] of Object.entries(row.events ?? {})) {
        if (typeof n !== 'number') continue;
        into.events[kind] = (into.events[kind] ?? 0) + n;
        into.total += n;
      }
    }
  }
  return [...merged.values()].sort((a, b) => b.total - a.total).slice(0, limit);
}

/** Forgets the tallies (resetCounters()). */
export function resetSites() {
  tally.clear();
}
