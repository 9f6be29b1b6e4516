/**
 * Reads what a service's `GET /metrics` answers. A small parser of the Prometheus text format
 * (0.0.4) rather than parse-prometheus-text-format: that one loses the labels of histograms
 * written count and sum before buckets, as the OpenTelemetry exporter writes them.
 *
 * Each sample line is `name{label="value",...} value [timestamp]`; `#` lines are HELP, TYPE or
 * comments. Label values escape `\\`, `\"` and `\n`.
 */

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Exposition {
  samples: Sample[];
  /** `# TYPE` of each family (counter, gauge, histogram, ...). */
  types: Record<string, string>;
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+-?\d+)?$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"\s*,?\s*/gy;

export function parsePrometheusText(text: string): Exposition {
  const samples: Sample[] = [];
  const types: Record<string, string> = {};
  for (const [index, raw] of text.split('\n').entries()) {
    const line = raw.trim();
    if (line === '') continue;
    if (line.startsWith('#')) {
      const type = /^#\s*TYPE\s+(\S+)\s+(\S+)$/.exec(line);
      if (type) types[type[1]!] = type[2]!;
      continue;
    }
    const match = SAMPLE.exec(line);
    if (!match) throw new Error(`line ${index + 1} is not a Prometheus sample: ${line}`);
    samples.push({
      name: match[1]!,
      labels: parseLabels(match[2] ?? '', index + 1),
      value: parseValue(match[3]!, index + 1),
    });
  }
  return { samples, types };
}

function parseLabels(body: string, lineNumber: number): Record<string, string> {
  const labels: Record<string, string> = {};
  LABEL.lastIndex = 0;
  let consumed = 0;
  for (let m = LABEL.exec(body); m; m = LABEL.exec(body)) {
    labels[m[1]!] = m[2]!.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
    consumed = LABEL.lastIndex;
  }
  if (consumed !== body.length) throw new Error(`line ${lineNumber}: unreadable labels {${body}}`);
  return labels;
}

function parseValue(text: string, lineNumber: number): number {
  if (text === '+Inf') return Infinity;
  if (text === '-Inf') return -Infinity;
  const value = Number(text);
  if (text !== 'NaN' && Number.isNaN(value)) throw new Error(`line ${lineNumber}: unreadable value ${text}`);
  return value;
}

/** The sum of the samples of `name` whose labels include `labels` (0 when none). */
export function sumOf(exposition: Exposition, name: string, labels: Record<string, string> = {}): number {
  return matching(exposition, name, labels).reduce((sum, s) => sum + s.value, 0);
}

/** The samples of `name` whose labels include `labels`. */
export function matching(exposition: Exposition, name: string, labels: Record<string, string> = {}): Sample[] {
  return exposition.samples.filter(
    (s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
  );
}
