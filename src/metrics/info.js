// What `fast_webstreams_info` reports: our version, Node's, and which preload
// features are on. Read once, at the first scrape (never at start-up): the
// version comes from our package.json, found by walking up from this module
// (src/metrics/ in a checkout, dist/ in the bundle).
import { builtin } from '../patch/builtins.js';
import { enabledFeatures } from '../patch/features.js';
import { tiers } from '../tiers.js';
import { isInstalled } from '../patch/globals.js';

let version;

function packageVersion() {
  if (version !== undefined) return version;
  version = 'unknown';
  try {
    const { readFileSync } = builtin('node:fs');
    let url = new URL('.', import.meta.url);
    for (let i = 0; i < 4; i++) {
      try {
        const pkg = JSON.parse(readFileSync(new URL('package.json', url), 'utf8'));
        if (pkg.name === 'fast-webstreams') {
          version = String(pkg.version);
          break;
        }
      } catch {
        // no package.json at this level: keep walking up
      }
      url = new URL('..', url);
    }
  } catch {
    // not a file: URL (a bundler's output): the version stays unknown
  }
  return version;
}

/** Labels of `fast_webstreams_info`: strings only, features as "on"/"off". */
export function infoLabels() {
  const labels = { version: packageVersion(), node_version: process.version, pid: String(process.pid),
    installed: isInstalled() ? 'on' : 'off', fast_paths: tiers.on ? 'on' : 'off' };
  for (const [feature, on] of Object.entries(enabledFeatures())) {
    labels[feature.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)] = on ? 'on' : 'off';
  }
  return labels;
}
