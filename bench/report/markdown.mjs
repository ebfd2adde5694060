// Markdown report: the environment, the table of medians and ratios, the
// failures with their errors, and the SVG chart next to it.
import { cell, ratioCell, metaLine, formatValue, unitNote, countingCell, countingNote } from './format.mjs';

const esc = (s) => String(s).replace(/\|/g, '\\|');

export function renderMarkdown(result, { svgName } = {}) {
  const { meta, impls } = result;
  const others = impls.filter((i) => i.key !== 'native');
  const hasNative = impls.some((i) => i.key === 'native');
  const hasCounting = result.scenarios.some((s) => s.counting);
  const out = [];
  out.push('# Web Streams benchmark', '');
  out.push(metaLine(meta), '');
  const version = (label) => (meta.versions?.[label] ? ` ${meta.versions[label]}` : '');
  out.push(`Implementations: ${impls.map((i) => `\`${i.label}\`${version(i.label)}`).join(', ')}. ` +
    'Every run is a fresh process; implementations are interleaved; each child warms up (at least 2 runs and 250 ms) before the timed part.', '');
  if (svgName) out.push(`![ratio to native](${svgName})`, '');
  const head = ['scenario', 'unit', ...impls.map((i) => i.label), ...(hasNative ? others.map((i) => `${i.label} / native`) : []),
    ...(hasCounting ? ['counters on / off'] : [])];
  out.push(`| ${head.join(' | ')} |`);
  out.push(`| ${head.map((_, i) => (i < 2 ? '---' : '---:')).join(' | ')} |`);
  for (const s of result.scenarios) {
    const unit = s.unit === 'bytes' ? 'MB/s' : s.unit === 'ops' ? 'ops/s' : 'B/stream (lower is better)';
    out.push(`| ${[esc(s.name), unit,
      ...impls.map((i) => cell(s.results[i.key], s.unit)),
      ...(hasNative ? others.map((i) => ratioCell(s.results[i.key])) : []),
      ...(hasCounting ? [countingCell(s.counting)] : [])].join(' | ')} |`);
  }
  out.push('', '`-`: no comparable pattern for that implementation. `failed`: see below.', '');
  if (hasCounting) out.push(`${countingNote[0].toUpperCase()}${countingNote.slice(1)}.`, '');

  const failures = [];
  for (const s of result.scenarios) {
    for (const i of impls) {
      const r = s.results[i.key];
      if (r?.error) failures.push(`- **${esc(s.name)}**, \`${i.label}\`: ${esc(r.error)}`);
    }
  }
  out.push('## Scenarios', '', ...result.scenarios.map((s) => `- **${esc(s.name)}**: ${esc(s.about ?? '')}`), '');
  out.push('## Failures', '', ...(failures.length ? failures : ['None.']), '');

  out.push('## Samples', '', 'Every timed run, in run order (for judging the noise):', '');
  for (const s of result.scenarios) {
    const parts = impls.filter((i) => s.results[i.key]?.samples?.length)
      .map((i) => `${i.key}: ${s.results[i.key].samples.map((v) => formatValue(v, s.unit)).join(', ')}`);
    if (parts.length) out.push(`- ${esc(s.name)} (${unitNote[s.unit]}): ${parts.join('; ')}`);
  }
  out.push('');
  return out.join('\n');
}
