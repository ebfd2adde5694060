// The operators' kit in docker/: Prometheus rules (checked and unit-tested by
// promtool, from Debian: test/ops/promtool.mjs) and the Grafana dashboard,
// whose every query, and every recording rule, is evaluated by promtool over
// the exposition a real 2-worker cluster serves (scraped twice, under load,
// with the sites mode on): each must return data, over labels the exposition has.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { ensurePromtool } from './promtool.mjs';
import { FIXTURES, ROOT, drive, freePort, recipeEnv, sample, scrapeUntil, startRecipe } from '../metrics/helpers.mjs';

const KIT = join(ROOT, 'docker');
const RULES = join(KIT, 'prometheus', 'fast-webstreams.rules.yml');
const DASHBOARD = JSON.parse(readFileSync(join(KIT, 'grafana', 'fast-webstreams-dashboard.json'), 'utf8'));
const JOB = 'fast-webstreams';
const INSTANCE = 'app:9464';
const T = { timeout: 180000 };

const promtool = await ensurePromtool();
const runPromtool = (args, cwd = join(KIT, 'prometheus')) => spawnSync(promtool, args, { cwd, encoding: 'utf8', timeout: 60000 });

test('promtool: the rules and the scrape config are valid, and the rules\' unit tests pass', T, () => {
  for (const args of [['check', 'rules', 'fast-webstreams.rules.yml'], ['check', 'config', 'prometheus.yml'],
    ['test', 'rules', 'fast-webstreams.rules.test.yml']]) {
    const r = runPromtool(args);
    assert.equal(r.status, 0, `promtool ${args.join(' ')}:\n${r.stdout}${r.stderr}`);
  }
});

/** Every query of the dashboard, its Grafana variables replaced as for one job and instance. */
function dashboardQueries() {
  const out = [];
  for (const panel of DASHBOARD.panels) {
    for (const target of panel.targets) {
      out.push({ name: `panel "${panel.title}" ${target.refId}`, unit: panel.fieldConfig?.defaults?.unit,
        expr: target.expr.replaceAll('$job', JOB).replaceAll('$instance', INSTANCE).replaceAll('$__rate_interval', '5m') });
    }
  }
  return out;
}

/** The recording rules' expressions (the rules file is YAML; its `expr:` values, one line or a block). */
function recordingRules() {
  const text = readFileSync(RULES, 'utf8');
  const out = [];
  for (const m of text.matchAll(/- record: (\S+)\n\s+expr: (\|\n((?:\s{10}.*\n)+)|.*\n)/g)) {
    out.push({ name: `rule ${m[1]}`, expr: (m[3] ?? m[2]).replace(/\s+/g, ' ').trim() });
  }
  return out;
}

const seriesText = (s) => `${s.name}{${Object.entries({ ...s.labels, job: JOB, instance: INSTANCE })
  .map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(',')}}`;

test('every dashboard query and recording rule returns data over the exposition a real cluster serves', T, async (t) => {
  const [appPort, metricsPort] = [await freePort(), await freePort()];
  const run = startRecipe([process.execPath, join(FIXTURES, 'cluster-app.mjs')], recipeEnv({
    PORT: String(appPort), WORKERS: '2', FAST_WEBSTREAMS_METRICS_PORT: String(metricsPort), FAST_WEBSTREAMS_METRICS_SITES: '1',
  }));
  const dir = mkdtempSync(join(tmpdir(), 'fws-kit-'));
  t.after(async () => {
    await run.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  await run.waitFor(/workers online 2/);
  const url = `http://127.0.0.1:${metricsPort}/metrics`;
  await drive(`http://127.0.0.1:${appPort}/`, 20);
  const first = await scrapeUntil(url, (s) => sample(s, 'fast_webstreams_readable_streams_created_total')?.value === 20 &&
    sample(s, 'fast_webstreams_cluster_workers')?.value === 2 && sample(s, 'fast_webstreams_site_events_total') !== undefined);
  await drive(`http://127.0.0.1:${appPort}/`, 40);
  const second = await scrapeUntil(url, (s) => sample(s, 'fast_webstreams_readable_streams_created_total')?.value === 60);

  // Each series: the first scrape from 0m to 10m, the second from 11m to 20m.
  const before = new Map(first.samples.map((s) => [seriesText(s), s.value]));
  const inputSeries = second.samples.map((s) => {
    const series = seriesText(s);
    return { series, values: `${before.get(series) ?? 0}x10 ${s.value}x9` };
  });
  const queries = [...dashboardQueries(), ...recordingRules()];
  assert.ok(queries.length >= 15, `${queries.length} queries`);

  // What promtool cannot say clearly: each metric and each grouping label is in the exposition.
  const names = new Set(second.samples.map((s) => s.name));
  for (const q of queries) {
    for (const [metric] of q.expr.matchAll(/\bfast_webstreams_[a-z_]+/g)) assert.ok(names.has(metric), `${q.name}: ${metric} is not exposed`);
    for (const [, labels, metric] of q.expr.matchAll(/by \(([^)]*)\) \((?:rate\()?(fast_webstreams_[a-z_]+)/g)) {
      for (const label of labels.split(',').map((l) => l.trim()).filter((l) => l !== 'job' && l !== 'instance')) {
        assert.ok(second.samples.some((s) => s.name === metric && label in s.labels), `${q.name}: ${metric} has no label ${label}`);
      }
    }
  }

  // promtool evaluates each at 12m (its 5m window spans the two scrapes): absent() of it must be empty.
  const tests = queries.map((q) => ({
    expr: q.unit === 'percentunit' ? `absent((${q.expr}) >= 0 <= 1)` : `absent(${q.expr})`, eval_time: '12m', exp_samples: [],
  }));
  const file = join(dir, 'queries.test.yml');
  // JSON is YAML: label values need no escaping beyond JSON's.
  writeFileSync(file, JSON.stringify({ rule_files: [RULES], evaluation_interval: '1m',
    tests: [{ interval: '1m', input_series: inputSeries, promql_expr_test: tests }] }, null, 1));
  const r = runPromtool(['test', 'rules', file], dir);
  // promtool names a failed test by its expression, quoted as JSON.
  const failed = queries.filter((q, i) => `${r.stdout}${r.stderr}`.includes(`expr: ${JSON.stringify(tests[i].expr)}`)).map((q) => q.name);
  assert.equal(r.status, 0, `returned no data (or a share outside 0-1): ${failed.join('; ') || '(see below)'}\n${r.stdout}${r.stderr}`);
});

test('the dashboard: one datasource input, the job and instance variables, and each panel of docs/metrics.md', () => {
  assert.deepEqual(DASHBOARD.__inputs.map((i) => i.name), ['DS_PROMETHEUS']);
  assert.deepEqual(DASHBOARD.templating.list.map((v) => v.name), ['job', 'instance']);
  const titles = DASHBOARD.panels.map((p) => p.title);
  const docs = readFileSync(join(ROOT, 'docs', 'metrics.md'), 'utf8');
  for (const title of titles) assert.ok(docs.includes(`"${title}"`), `docs/metrics.md describes the panel "${title}"`);
  for (const panel of DASHBOARD.panels) {
    assert.ok(panel.targets.length > 0, panel.title);
    for (const target of panel.targets) assert.match(target.expr, /job=~"\$job",instance=~"\$instance"/, `${panel.title}: filtered by the variables`);
  }
  assert.equal(new Set(DASHBOARD.panels.map((p) => p.id)).size, DASHBOARD.panels.length, 'panel ids are unique');
});
