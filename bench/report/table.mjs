// Plain-text table for the terminal: one row per scenario, the median of each
// implementation, then each implementation's ratio to native, then (when both
// ran) what counting costs: fast / fast-nocounters.
import { cell, ratioCell, metaLine, countingCell, countingNote } from './format.mjs';

export function renderTable(result) {
  const impls = result.impls;
  const others = impls.filter((i) => i.key !== 'native');
  const hasNative = impls.some((i) => i.key === 'native');
  const nameWidth = Math.max(8, ...result.scenarios.map((s) => s.name.length)) + 2;
  const hasCounting = result.scenarios.some((s) => s.counting);
  const short = { native: 'native', fast: 'fast', 'fast-nocodecs': 'no-codecs', 'fast-nocounters': 'no-counters', peer: 'peer', 'node-stream': 'node:stream' };
  const ratioHead = { fast: 'fast/native', 'fast-nocodecs': 'nocdc/native', 'fast-nocounters': 'nocnt/native', peer: 'peer/native', 'node-stream': 'stream/native' };
  const head = ['scenario'.padEnd(nameWidth),
    ...impls.map((i) => (short[i.key] ?? i.key).padStart(12)),
    ...(hasNative ? others.map((i) => (ratioHead[i.key] ?? `${i.key}/native`).padStart(14)) : []),
    ...(hasCounting ? ['counters on/off'.padStart(22)] : [])];
  const lines = [metaLine(result.meta), head.join('')];
  lines.push('-'.repeat(lines[1].length));
  for (const s of result.scenarios) {
    const row = [s.name.padEnd(nameWidth),
      ...impls.map((i) => cell(s.results[i.key], s.unit).padStart(12)),
      ...(hasNative ? others.map((i) => ratioCell(s.results[i.key]).padStart(14)) : []),
      ...(hasCounting ? [countingCell(s.counting).padStart(22)] : [])];
    lines.push(row.join(''));
  }
  lines.push('ratio = implementation / native (memory rows: heap bytes per stream, lower is better); "-" = no comparable pattern');
  if (hasCounting) lines.push(countingNote);
  return lines.join('\n');
}
