// Whether a Node version is in the package's `engines.node` range. The range is
// written as alternatives of `^X.Y.Z` (that major, from X.Y.Z) and `>=X[.Y.Z]`:
// package.json's own form; anything else is refused rather than guessed.

const parse = (v) => {
  const m = /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?$/.exec(v.trim());
  if (m === null) throw new Error(`not a version: ${v}`);
  return [Number(m[1]), Number(m[2] ?? 0), Number(m[3] ?? 0)];
};
const compare = (a, b) => (a[0] - b[0]) || (a[1] - b[1]) || (a[2] - b[2]);

/** { supported, note }: note says why an older release of a supported line is not. */
export function nodeSupport(version, range) {
  const v = parse(version);
  let sameMajorFloor;
  for (const alternative of range.split('||').map((s) => s.trim())) {
    const caret = /^\^(.+)$/.exec(alternative);
    const atLeast = /^>=(.+)$/.exec(alternative);
    if (caret !== null) {
      const floor = parse(caret[1]);
      if (floor[0] === v[0]) {
        if (compare(v, floor) >= 0) return { supported: true, note: null };
        sameMajorFloor = caret[1];
      }
    } else if (atLeast !== null) {
      if (compare(v, parse(atLeast[1])) >= 0) return { supported: true, note: null };
    } else {
      throw new Error(`engines.node: cannot read '${alternative}'`);
    }
  }
  return {
    supported: false,
    note: sameMajorFloor === undefined ? `Node ${v[0]} is not a supported release line`
      : `this line is supported from ${sameMajorFloor} (node -r needs require(esm) without a flag)`,
  };
}
