import { readFileSync } from 'node:fs';
import type { BoardAts } from '@jobs/contracts';
import type { BoardContext } from './board-format.js';

/** A parsed board fixture from `boards/fixtures/`, untyped: specs poke at raw ATS items. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function boardFixture<T = any>(name: string): T {
  return JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8')) as T;
}

export const SEEN_AT = '2026-11-22T12:00:00.000Z';

export function contextOf(ats: BoardAts, board = 'acme'): BoardContext {
  return { ats, board, company: { name: 'Acme', domain: 'acme.com' }, seenAt: SEEN_AT };
}
