// Number formatting shared by the terminal table, Markdown and SVG, so the
// three outputs always agree.

export function formatValue(value, unit) {
  if (value == null || !Number.isFinite(value)) return 'n/a';
  if (unit === 'ops') {
    return value >= 1e6 ? `${(value / 1e6).toFixed(2)}M/s` : `${(value / 1e3).toFixed(0)}k/s`;
  }
  if (unit === 'memory') {
    return value >= 1024 ? `${(value / 1024).toFixed(1)} KB` : `${value.toFixed(0)} B`;
  }
  const mb = value / 1e6;
  return `${mb >= 100 ? mb.toFixed(0) : mb.toFixed(1)} MB/s`;
}

export function formatRatio(ratio) {
  return ratio == null || !Number.isFinite(ratio) ? 'n/a' : `${ratio.toFixed(2)}x`;
}

export const unitNote = {
  bytes: 'MB/s, higher is better',
  ops: 'operations per second, higher is better',
  memory: 'heap bytes per idle stream, lower is better',
};

// What a cell shows: the median, or why there is none.
export function cell(result, unit) {
  if (!result) return '-'; // no comparable pattern for this implementation
  if (result.error) return 'failed';
  return formatValue(result.median, unit);
}

export function ratioCell(result) {
  if (!result) return '-';
  if (result.error) return 'n/a';
  return formatRatio(result.ratio);
}

// The counters on / off column: fast / fast-nocounters, with the range of the
// per-round ratios (see countingRatio in run.mjs).
export function countingCell(counting) {
  if (!counting) return '-';
  const range = counting.min != null ? ` (${counting.min.toFixed(2)}-${counting.max.toFixed(2)})` : '';
  return `${formatRatio(counting.ratio)}${range}`;
}

export const countingNote = 'counters on/off = fast-webstreams median / fast-webstreams-nocounters median, ' +
  'in brackets the lowest and highest ratio of the two processes run back to back in one round; ' +
  '1.00x = counting costs nothing, below 1 = counting slows it (memory rows: above 1 = counting costs memory)';

export function metaLine(meta) {
  return `Node ${meta.node}, ${meta.cpus} x ${meta.cpuModel}, ${meta.chunk} B chunks, ` +
    `${meta.totalBytes / 1048576} MB per run, median of ${meta.runs} run(s), rev ${meta.rev}, ${meta.date}` +
    (meta.quick ? ' (quick)' : '') + (meta.cold ? ', cold: one run per fresh process, timed from its start' : '') + (meta.clock === 'cpu' ? ', per CPU second' : '') +
    (meta.appHeapMB > 0 ? `, ${meta.appHeapMB} MB application heap` : '');
}
