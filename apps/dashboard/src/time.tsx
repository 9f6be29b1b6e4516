import { formatDate } from './format.js';

/**
 * A moment as the pages show it (`2026-12-02 04:38:42 UTC`). The day and the time each stay on one
 * line, so in a narrow column a timestamp takes two lines at most, never a word per line.
 */
export function Time({ iso }: { iso: string | null | undefined }) {
  const text = formatDate(iso);
  if (!iso || text === '—') return <>—</>;
  return (
    <time dateTime={iso} class="timestamp">
      <span>{text.slice(0, 10)}</span> <span>{text.slice(11)}</span>
    </time>
  );
}
