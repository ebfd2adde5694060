// The load comparison over the run: requests/s of both servers, second by
// second, and beside them, on the same time axis, the fast server's chunk hops
// per second by tier, from /metrics scraped every second while it was driven.
// Only the measured windows are drawn, where they ran in the run; the gaps are
// warm-ups, the other server's windows and the scrapes between them.
import { TIERS } from '../../src/metrics/api.js';

const esc = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const TIER_COLORS = { fused: '#1a7f37', sync: '#1f6feb', spec: '#cf222e' };
const IMPL_COLORS = { native: '#8c8c8c', fast: '#1f6feb' };

/** Per-second rates between consecutive cumulative tier samples: [{ t, fused, sync, spec }]. */
export function tierRates(samples) {
  const out = [];
  for (let i = 1; i < samples.length; i++) {
    const a = samples[i - 1];
    const b = samples[i];
    const dt = b.t - a.t;
    if (!(dt > 0)) continue;
    const rate = { t: b.t };
    for (const tier of Object.keys(TIERS)) rate[tier] = Math.max(0, (b[tier] - a[tier]) / dt);
    out.push(rate);
  }
  return out;
}

/** A round number at or above `max`, for an axis. */
function niceCeiling(max) {
  if (!(max > 0)) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(max));
  for (const step of [1, 2, 2.5, 5, 10]) if (step * magnitude >= max) return step * magnitude;
  return 10 * magnitude;
}

const compact = (v) => (v >= 1e6 ? `${(v / 1e6).toFixed(1)}M` : v >= 1e3 ? `${(v / 1e3).toFixed(v >= 1e4 ? 0 : 1)}k` : v.toFixed(0));

/**
 * The SVG: two panels on one time axis. `timeline` is the run's list of measured
 * windows: [{ route, impl, round, start, requests: [per second], tiers: [{ t, fused, sync, spec }] }],
 * `start` and `t` in seconds since the run began.
 */
export function renderTimelineSvg({ meta, timeline }) {
  const width = 900;
  const left = 70;
  const right = 20;
  const plotW = width - left - right;
  const panelH = 170;
  const top1 = 90;
  const top2 = top1 + panelH + 60;
  const height = top2 + panelH + 80;
  const windows = timeline ?? [];
  const end = Math.max(1, ...windows.map((w) => w.start + Math.max(w.requests.length, ...w.tiers.map((r) => r.t))));
  const xOf = (t) => left + (Math.min(Math.max(t, 0), end) / end) * plotW;
  const maxReq = niceCeiling(Math.max(0, ...windows.flatMap((w) => w.requests)));
  const maxHops = niceCeiling(Math.max(0, ...windows.flatMap((w) => w.tiers.flatMap((r) => Object.keys(TIERS).map((k) => r[k])))));
  const p = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="DejaVu Sans, system-ui, -apple-system, Segoe UI, sans-serif" font-size="12">`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    '<text x="16" y="26" font-size="17" font-weight="600">fast-webstreams vs native Web Streams over the run</text>',
    `<text x="16" y="46" fill="#595959">${esc(`Node ${meta.node}, git ${meta.gitRev}; each measured window where it ran; seconds since the run began`)}</text>`,
    '<text x="16" y="62" fill="#595959">Top: requests/s per second, both servers. Bottom: the fast server\'s chunk hops per second by tier, from /metrics every second.</text>',
  ];
  const panel = (y, max, label, unit) => {
    p.push(`<text x="16" y="${y - 12}" font-weight="600">${esc(label)}</text>`);
    for (let k = 0; k <= 4; k++) {
      const v = (max * k) / 4;
      const gy = y + panelH - (panelH * k) / 4;
      p.push(`<line x1="${left}" y1="${gy.toFixed(1)}" x2="${width - right}" y2="${gy.toFixed(1)}" stroke="#e3e3e3"/>`);
      p.push(`<text x="${left - 6}" y="${(gy + 4).toFixed(1)}" text-anchor="end" fill="#595959" font-size="11">${compact(v)}${k === 4 ? unit : ''}</text>`);
    }
  };
  panel(top1, maxReq, 'requests/s', '');
  panel(top2, maxHops, 'fast server: chunk hops/s by tier', '');
  const yOf = (top, max, v) => top + panelH - (Math.min(v, max) / max) * panelH;
  const line = (points, color, dash = '') => {
    if (points.length === 0) return;
    const d = points.map(([x, y], i) => `${i === 0 ? 'M' : 'L'}${x.toFixed(1)} ${y.toFixed(1)}`).join('');
    p.push(`<path d="${d}" fill="none" stroke="${color}" stroke-width="1.6"${dash ? ` stroke-dasharray="${dash}"` : ''}/>`);
  };
  for (const w of windows) {
    const x0 = xOf(w.start);
    const x1 = xOf(w.start + w.requests.length);
    p.push(`<rect x="${x0.toFixed(1)}" y="${top1}" width="${Math.max(1, x1 - x0).toFixed(1)}" height="${panelH}" fill="${w.impl === 'fast' ? '#eef4ff' : '#f4f4f4'}"/>`);
    p.push(`<text x="${((x0 + x1) / 2).toFixed(1)}" y="${top1 + panelH + 14}" text-anchor="middle" fill="#595959" font-size="10">${esc(`${w.route} ${w.impl === 'fast' ? 'f' : 'n'}${w.round}`)}</text>`);
    line(w.requests.map((r, i) => [xOf(w.start + i + 0.5), yOf(top1, maxReq, r)]), IMPL_COLORS[w.impl]);
    if (w.impl !== 'fast') continue;
    p.push(`<rect x="${x0.toFixed(1)}" y="${top2}" width="${Math.max(1, x1 - x0).toFixed(1)}" height="${panelH}" fill="#eef4ff"/>`);
    for (const tier of Object.keys(TIERS)) line(w.tiers.map((r) => [xOf(w.start + r.t - 0.5), yOf(top2, maxHops, r[tier])]), TIER_COLORS[tier]);
  }
  // The time axis, under the bottom panel.
  const axisY = top2 + panelH;
  const step = niceCeiling(end / 8);
  for (let t = 0; t <= end + 1e-9; t += step) {
    p.push(`<text x="${xOf(t).toFixed(1)}" y="${axisY + 16}" text-anchor="middle" fill="#595959" font-size="11">${t.toFixed(0)} s</text>`);
  }
  const ly = height - 30;
  const legend = [['native req/s', IMPL_COLORS.native], ['fast-webstreams req/s', IMPL_COLORS.fast],
    ...Object.keys(TIERS).map((tier, i) => [`${tier} (tier ${i}) hops/s`, TIER_COLORS[tier]])];
  let lx = 16;
  for (const [label, color] of legend) {
    p.push(`<rect x="${lx}" y="${ly - 9}" width="14" height="4" fill="${color}"/><text x="${lx + 20}" y="${ly}">${esc(label)}</text>`);
    lx += 28 + label.length * 6.6;
  }
  if (windows.length === 0) p.push(`<text x="${left + 10}" y="${top1 + 40}" fill="#cf222e" font-weight="600">nothing measured</text>`);
  p.push('</svg>');
  return `${p.join('\n')}\n`;
}
