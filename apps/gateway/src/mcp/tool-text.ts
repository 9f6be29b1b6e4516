/**
 * Pieces of the tools' text content. The text is a short summary (what came back, what it cost,
 * the ids to act on and how to go on), never the structured content again: a client that shows
 * its model both would make it read every answer twice.
 */
import type { ApiAnswer } from './mcp-tool.js';

/** "1 job", "2 jobs": a count and its noun, plural but for one. */
export const count = (n: number, noun: string, plural = `${noun}s`): string => `${n} ${n === 1 ? noun : plural}`;

export const credits = (n: number): string => count(n, 'credit');

/** "Charged 1 credit (99 left)." from a billable answer's headers; '' when it carries none. */
export function chargeLine(answer: ApiAnswer): string {
  const charged = answer.headers['x-credits-charged'];
  const remaining = answer.headers['x-credits-remaining'];
  if (charged === undefined) return '';
  return ` Charged ${credits(Number(charged))}${remaining === undefined ? '' : ` (${remaining} left)`}.`;
}

/** How to go on from a page: its cursor, or that it was the last. */
export function pageEnd(nextCursor: string | null, argument = 'cursor'): string {
  return nextCursor ? ` More: pass ${argument} "${nextCursor}".` : ' Last page.';
}

/** "Ids: a, b, c." for the handles a model acts on; '' for none. */
export function idList(ids: readonly string[]): string {
  return ids.length === 0 ? '' : `\nIds: ${ids.join(', ')}.`;
}
