import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

/** deploy/ of the repository. */
export const DEPLOY_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'deploy');
export const RULES_DIR = join(DEPLOY_ROOT, 'prometheus', 'rules');
export const DASHBOARDS_DIR = join(DEPLOY_ROOT, 'grafana', 'dashboards');

export interface RecordingRule {
  record: string;
  expr: string;
  labels?: Record<string, string>;
}
export interface AlertingRule {
  alert: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}
export type Rule = RecordingRule | AlertingRule;
export interface RuleGroup {
  name: string;
  rules: Rule[];
}
export interface RuleFile {
  file: string;
  groups: RuleGroup[];
}

/** Every Prometheus rule file of deploy/prometheus/rules, parsed. */
export function loadRuleFiles(dir = RULES_DIR): RuleFile[] {
  return readdirSync(dir)
    .filter((file) => /\.ya?ml$/.test(file))
    .sort()
    .map((file) => ({ file, ...(parse(readFileSync(join(dir, file), 'utf8')) as { groups: RuleGroup[] }) }));
}

export const isAlert = (rule: Rule): rule is AlertingRule => 'alert' in rule;

/** What the checks read of a Grafana dashboard (the JSON has more). */
export interface Dashboard {
  uid: string;
  title: string;
  panels: Array<{ type: string; title: string; targets?: Array<{ expr: string; refId: string }> }>;
  annotations?: { list?: Array<{ name: string; expr?: string }> };
}

/** Every Grafana dashboard of deploy/grafana/dashboards, parsed. */
export function loadDashboards(dir = DASHBOARDS_DIR): Array<{ file: string; dashboard: Dashboard }> {
  return readdirSync(dir)
    .filter((file) => file.endsWith('.json'))
    .sort()
    .map((file) => ({ file, dashboard: JSON.parse(readFileSync(join(dir, file), 'utf8')) as Dashboard }));
}

/** One PromQL expression of the rules or dashboards, and where it is. */
export interface Expression {
  where: string;
  expr: string;
}

/** Every PromQL expression: each rule's, each dashboard panel target's and annotation query's. */
export function allExpressions(): Expression[] {
  const rules = loadRuleFiles().flatMap(({ file, groups }) =>
    groups.flatMap((group) =>
      group.rules.map((rule) => ({
        where: `${file} ${group.name} ${'alert' in rule ? rule.alert : rule.record}`,
        expr: rule.expr,
      })),
    ),
  );
  const dashboards = loadDashboards().flatMap(({ file, dashboard }) => [
    ...dashboard.panels.flatMap((panel) =>
      (panel.targets ?? []).map((target) => ({ where: `${file} "${panel.title}" ${target.refId}`, expr: target.expr })),
    ),
    ...(dashboard.annotations?.list ?? []).flatMap((a) =>
      a.expr ? [{ where: `${file} annotation "${a.name}"`, expr: a.expr }] : [],
    ),
  ]);
  return [...rules, ...dashboards];
}

/** Series Prometheus writes itself (per scrape, per alert), which no process serves. */
export const PROMETHEUS_SERIES = ['up', 'ALERTS'];

/** The names recording rules define (`slo:...`): served by Prometheus from their own expressions. */
export function recordedNames(): string[] {
  return loadRuleFiles().flatMap(({ groups }) =>
    groups.flatMap((group) => group.rules.flatMap((rule) => ('record' in rule ? [rule.record] : []))),
  );
}
