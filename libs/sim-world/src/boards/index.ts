import type { WorldBoardAts } from '../world-boards.js';
import { ashbyBoard } from './ashby.board-view.js';
import type { BoardPage } from './board-common.js';
import { greenhouseBoard } from './greenhouse.board-view.js';
import { leverBoard } from './lever.board-view.js';

export type { BoardPage } from './board-common.js';

/** Each ATS's board answer; a new ATS is one more entry (the compiler asks for it). */
export const BOARD_VIEWS = {
  greenhouse: greenhouseBoard,
  lever: leverBoard,
  ashby: ashbyBoard,
} as const satisfies Record<WorldBoardAts, (page: BoardPage) => unknown>;

/**
 * Where each ATS's board is on the simulator, under a prefix per ATS so that a registration's
 * `base_url` (`{simulator}/{ats}`) points at it as at the ATS's own host.
 */
export const BOARD_ROUTES = {
  greenhouse: '/greenhouse/v1/boards/:board/jobs',
  lever: '/lever/v0/postings/:board',
  ashby: '/ashby/posting-api/job-board/:board',
} as const satisfies Record<WorldBoardAts, string>;
