import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { BOARD_VIEWS, type WorldBoardAts } from '@jobs/sim-world';
import { WorldService } from '../world/world.service.js';
import { BoardBehaviourService } from './board-behaviour.service.js';

export interface BoardAnswer {
  status: number;
  contentType: string;
  body: string;
  etag?: string;
}

/** A body a board answers in `garbage` mode: an HTML error page with a 200, as a misconfigured host sends. */
const GARBAGE = '<!DOCTYPE html><html><head><title>Maintenance</title></head><body>Back soon.</body></html>';

/**
 * One ATS board's answer in the ATS's format, with an ETag of its body: a request whose
 * If-None-Match names the current body is answered 304, as the real hosts' caches do.
 * A board's body is built once for as long as its listings stay the same.
 */
@Injectable()
export class BoardsService {
  private readonly rendered = new Map<string, { version: string; body: string; etag: string }>();

  constructor(
    private readonly worlds: WorldService,
    private readonly behaviour: BoardBehaviourService,
  ) {}

  async answer(
    ats: WorldBoardAts,
    board: string,
    ifNoneMatch: string | undefined,
    signal: AbortSignal,
  ): Promise<BoardAnswer | null> {
    const fail = this.behaviour.failOf(ats, board);
    if (fail === 'error') return json(503, { error: 'Service Unavailable' });
    if (fail === 'timeout') {
      await this.behaviour.holdUntilTimeout(signal);
      return signal.aborted ? null : json(503, { error: 'Service Unavailable' });
    }
    if (fail === 'garbage') return { status: 200, contentType: 'text/html; charset=utf-8', body: GARBAGE };
    const page = this.page(ats, board, fail === 'unreadable_item');
    if (!page) return json(404, { error: 'Job board not found' });
    if (ifNoneMatch !== undefined && ifNoneMatch === page.etag)
      return { status: 304, contentType: 'application/json', body: '', etag: page.etag };
    return { status: 200, contentType: 'application/json; charset=utf-8', body: page.body, etag: page.etag };
  }

  private page(ats: WorldBoardAts, board: string, unreadableItem: boolean): { body: string; etag: string } | null {
    const world = this.worlds.world;
    const key = `${ats}/${board.toLowerCase()}`;
    const now = world.boardListings(ats, board);
    if (!now) {
      this.rendered.delete(key);
      return null;
    }
    const version = `${now.version}:${unreadableItem}`;
    const cached = this.rendered.get(key);
    if (cached?.version === version) return cached;
    const companyName = world.company(now.board.companyDomain)?.name ?? now.board.companyDomain;
    const view = BOARD_VIEWS[ats]({ board: now.board, companyName, listings: now.listings });
    const body = JSON.stringify(unreadableItem ? withUnreadableItem(ats, view) : view);
    const etag = `"${createHash('sha1').update(body).digest('base64url')}"`;
    const page = { version, body, etag };
    this.rendered.set(key, page);
    return page;
  }
}

/**
 * The board's answer with one more item, first, that names its id and nothing else: a half-written
 * posting, which a reader skips under its id (the board still shows it; it is just not readable).
 */
function withUnreadableItem(ats: WorldBoardAts, view: unknown): unknown {
  const item = { id: ats === 'greenhouse' ? UNREADABLE_GREENHOUSE_ID : UNREADABLE_ID };
  if (Array.isArray(view)) return [item, ...(view as unknown[])];
  const board = view as { jobs: unknown[] };
  return { ...board, jobs: [item, ...board.jobs] };
}

const UNREADABLE_GREENHOUSE_ID = 9_999_999_999;
const UNREADABLE_ID = '00000000-0000-4000-8000-0000000000ff';

function json(status: number, body: unknown): BoardAnswer {
  return { status, contentType: 'application/json; charset=utf-8', body: JSON.stringify(body) };
}
