import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import {
  allExpressions,
  DASHBOARDS_DIR,
  DEPLOY_ROOT,
  isAlert,
  loadDashboards,
  loadRuleFiles,
  PROMETHEUS_SERIES,
  recordedNames,
  RULES_DIR,
  type AlertingRule,
} from './monitoring.js';
import { parsePromQL } from './promql.js';

// Alerts and dashboards as code (deploy/prometheus, deploy/grafana; docs/operations.md): every
// expression is PromQL, every alert leads to its runbook, the SLOs burn as the SRE workbook says,
// and the cluster's ConfigMaps carry exactly these files. That each metric is served by a running
// process is the e2e spec's (test/metrics-served.e2e-spec.ts).
const ruleFiles = loadRuleFiles();
const rules = ruleFiles.flatMap(({ groups }) => groups.flatMap((group) => group.rules));
const alerts = rules.filter(isAlert);
const expressions = allExpressions();
const operations = readFileSync(join(DEPLOY_ROOT, '..', 'docs', 'operations.md'), 'utf8');

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
const anchorOf = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
const anchors = new Set(
  operations
    .split('\n')
    .filter((line) => /^#{1,6} /.test(line))
    .map((line) => anchorOf(line.replace(/^#+ /, ''))),
);

describe('alerts and dashboards as code', () => {
  it('are found: rule files with alerts and recording rules, and dashboards', () => {
    expect(ruleFiles.map((f) => f.file)).toEqual(['services.rules.yml', 'slo.rules.yml']);
    expect(alerts.length).toBeGreaterThan(20);
    expect(recordedNames().length).toBeGreaterThan(10);
    expect(loadDashboards().map((d) => d.file)).toEqual(['jobs-pipeline.json', 'jobs-services.json']);
  });

  it.each(expressions.map((e) => [e.where, e.expr] as const))(
    '%s is valid PromQL naming at least one metric',
    (_where, expr) => {
      const parsed = parsePromQL(expr);
      expect(parsed.errors).toEqual([]);
      expect(parsed.metrics.length).toBeGreaterThan(0);
    },
  );

  it('refuses what is not PromQL (the parser reports errors rather than throwing)', () => {
    expect(parsePromQL('sum(rate(x[5m])').errors.length).toBeGreaterThan(0);
    expect(parsePromQL('rate(x{a="b"}[5m]) +').errors.length).toBeGreaterThan(0);
    expect(
      [
        ...parsePromQL('histogram_quantile(0.9, sum by (le) (rate(a_bucket[5m]))) / on() group_left max(b{job="x"})')
          .metrics,
      ].sort(),
    ).toEqual(['a_bucket', 'b']);
    expect(parsePromQL('{__name__="named_by_matcher", job="x"}').metrics).toEqual(['named_by_matcher']);
  });

  it('every recorded name is defined once and used; every recorded name used is defined', () => {
    const recorded = recordedNames();
    expect(new Set(recorded).size).toBe(recorded.length);
    const used = new Set(expressions.flatMap((e) => parsePromQL(e.expr).metrics).filter((name) => name.includes(':')));
    expect([...used].filter((name) => !recorded.includes(name))).toEqual([]);
    expect(recorded.filter((name) => !used.has(name))).toEqual([]);
    // Prometheus' own series are named on purpose, and sparingly.
    const own = new Set(
      expressions.flatMap((e) => parsePromQL(e.expr).metrics).filter((name) => PROMETHEUS_SERIES.includes(name)),
    );
    expect([...own].sort()).toEqual([...PROMETHEUS_SERIES].sort());
  });

  it.each(alerts.map((a) => [`${a.alert} (${a.labels?.['burn_window'] ?? a.for ?? 'at once'})`, a] as const))(
    '%s has a severity, a summary and a runbook section in docs/operations.md',
    (_name, alert: AlertingRule) => {
      expect(['page', 'ticket']).toContain(alert.labels?.['severity']);
      expect(alert.annotations?.['summary']).toBeTruthy();
      expect(alert.annotations?.['description']).toBeTruthy();
      const runbook = alert.annotations?.['runbook_url'] ?? '';
      expect(runbook).toBe(`docs/operations.md#${alert.alert.toLowerCase()}`);
      expect(anchors).toContain(alert.alert.toLowerCase());
    },
  );

  it(
    'each SLO burns as the SRE workbook says: two pages and two ' +
      'tickets, each a long and a short window at one rate',
    () => {
      const burns = alerts.filter((a) => a.alert.endsWith('BudgetBurn'));
      expect([...new Set(burns.map((a) => a.alert))].sort()).toEqual([
        'EventDeliveryFreshnessBudgetBurn',
        'SyncSearchAvailabilityBudgetBurn',
        'SyncSearchLatencyBudgetBurn',
      ]);
      for (const name of new Set(burns.map((a) => a.alert))) {
        const windows = burns
          .filter((a) => a.alert === name)
          .map((a) => {
            const [long, short] = [...a.expr.matchAll(/:ratio_rate(\w+) > \(([\d.]+) \* ([\d.]+)\)/g)].map((m) => ({
              window: m[1],
              rate: Number(m[2]),
              budget: Number(m[3]),
            }));
            expect(long!.rate).toBe(short!.rate);
            expect(long!.budget).toBe(short!.budget);
            return `${a.labels!['severity']} ${long!.window}/${short!.window} x${long!.rate}`;
          });
        expect({ name, windows }).toEqual({
          name,
          windows: ['page 1h/5m x14.4', 'page 6h/30m x6', 'ticket 1d/2h x3', 'ticket 3d/6h x1'],
        });
      }
    },
  );

  it(
    'dashboards: unique uids, every panel queries something, and ' + 'the SLOs and every area of the issue are shown',
    () => {
      const boards = loadDashboards();
      expect(new Set(boards.map((b) => b.dashboard.uid)).size).toBe(boards.length);
      const panels = boards.flatMap((b) => b.dashboard.panels.filter((p) => p.type !== 'row'));
      for (const panel of panels)
        expect({ panel: panel.title, targets: (panel.targets ?? []).length > 0 }).toEqual({
          panel: panel.title,
          targets: true,
        });
      const shown = new Set(panels.flatMap((p) => (p.targets ?? []).flatMap((t) => parsePromQL(t.expr).metrics)));
      for (const metric of [
        'http_server_request_duration_count',
        'http_server_request_duration_bucket',
        'kafka_consumer_messages_total',
        'kafka_consumer_process_seconds_bucket',
        'kafka_consumer_lag',
        'provider_calls_total',
        'webhook_delivery_attempts_total',
        'webhook_delivery_lag_seconds_bucket',
        'billing_charges_total',
        'gateway_admission_wait_seconds_bucket',
        'gateway_admission_refused_total',
        'gateway_admission_queued',
        'store_verification_age_seconds',
        'slo:sync_search_errors:ratio_rate1h',
        'slo:sync_search_slow:ratio_rate1h',
        'slo:event_delivery_late:ratio_rate1h',
      ]) {
        expect({ metric, shown: shown.has(metric) }).toEqual({ metric, shown: true });
      }
    },
  );

  it(
    'the cluster carries the same files: ' +
      'deploy/k8s/base/monitoring.yaml (node ' +
      'scripts/deploy/monitoring-manifests.mjs)',
    () => {
      const maps = parseAllDocuments(readFileSync(join(DEPLOY_ROOT, 'k8s', 'base', 'monitoring.yaml'), 'utf8')).map(
        (d) => d.toJS() as { metadata: { name: string; labels: Record<string, string> }; data: Record<string, string> },
      );
      const byName = Object.fromEntries(maps.map((m) => [m.metadata.name, m]));
      const filesOf = (dir: string, names: string[]) =>
        Object.fromEntries(names.map((name) => [name, readFileSync(join(dir, name), 'utf8')]));
      expect(byName['prometheus-rules']!.data).toEqual(
        filesOf(
          RULES_DIR,
          ruleFiles.map((f) => f.file),
        ),
      );
      expect(byName['grafana-dashboards']!.data).toEqual(
        filesOf(
          DASHBOARDS_DIR,
          loadDashboards().map((d) => d.file),
        ),
      );
      expect(byName['grafana-dashboards']!.metadata.labels['grafana_dashboard']).toBe('1');
    },
  );
});
