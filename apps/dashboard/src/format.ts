/** Plain formatting helpers (no DOM): dates and numbers as the pages show them. */

export function formatDate(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '—';
  return date.toISOString().replace('T', ' ').slice(0, 19) + ' UTC';
}

export function formatDay(iso: string): string {
  return iso.slice(0, 10);
}

export function formatNumber(value: number): string {
  return value.toLocaleString('en-US');
}

export function formatDuration(ms: number | null): string {
  if (ms === null) return '—';
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** A comma-separated field of a form as a list of trimmed, non-empty words. */
export function splitList(text: string): string[] {
  return text
    .split(',')
    .map((word) => word.trim())
    .filter((word) => word.length > 0);
}

/** The chart's series: x as unix seconds of each day (UTC), y as credits. */
export function chartSeries(days: readonly { day: string; credits: number }[]): [number[], number[]] {
  return [days.map((d) => Date.parse(`${d.day}T00:00:00Z`) / 1000), days.map((d) => d.credits)];
}

const HALF_DAY_SECONDS = 43_200;

/**
 * The x range of the chart for days from `min` to `max` (unix seconds, each a day's start): half a
 * day beyond each end, so the bars centred on the first and the last day are drawn whole.
 */
export function dayAxisRange(min: number | null, max: number | null): [number, number] {
  const from = min ?? 0;
  const to = max ?? from;
  return [from - HALF_DAY_SECONDS, to + HALF_DAY_SECONDS];
}
