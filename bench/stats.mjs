// Arithmetic shared by the benchmark runners (bench/run.mjs, bench/startup.mjs,
// bench/in-process.mjs, bench/load/).

/** Median of finite numbers (mean of the middle two for an even count); NaN for none. */
export function median(values) {
  const v = values.filter(Number.isFinite).sort((a, b) => a - b);
  if (v.length === 0) return NaN;
  const mid = v.length >> 1;
  return v.length % 2 === 1 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
}

/** { median, min, max } of finite numbers. */
export function spread(values) {
  const v = values.filter(Number.isFinite);
  return { median: median(v), min: v.length ? Math.min(...v) : NaN, max: v.length ? Math.max(...v) : NaN };
}
