// A small deterministic PRNG (mulberry32): the same seed gives the same
// program on every machine and Node version, which is what makes a seed a repro.
export function makeRng(seed) {
  let a = (seed >>> 0) ^ 0x9e3779b9;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)); // inclusive
  const chance = (p) => next() < p;
  const pick = (arr) => arr[Math.floor(next() * arr.length)];
  // weighted: [[weight, value], ...]
  const weighted = (pairs) => {
    let total = 0;
    for (const [w] of pairs) total += w;
    let x = next() * total;
    for (const [w, v] of pairs) { if ((x -= w) < 0) return v; }
    return pairs[pairs.length - 1][1];
  };
  return { next, int, chance, pick, weighted };
}
