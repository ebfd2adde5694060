// The load comparison's Next.js app (bench/load/apps/next, built in
// .cache/load-apps/next). The project root is pinned to this folder: the
// repository's own lock file above it must not be taken for the app's.
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(fileURLToPath(import.meta.url));

export default {
  poweredByHeader: false,
  outputFileTracingRoot: root,
  turbopack: { root },
};
