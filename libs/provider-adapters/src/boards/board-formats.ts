import type { BoardAts } from '@jobs/contracts';
import { ASHBY_BOARD } from './ashby.board.js';
import type { BoardFormat } from './board-format.js';
import { GREENHOUSE_BOARD } from './greenhouse.board.js';
import { LEVER_BOARD } from './lever.board.js';

/** Every ATS the own crawler reads, one format each; a new ATS is one more entry (the compiler asks for it). */
export const BOARD_FORMATS = {
  greenhouse: GREENHOUSE_BOARD,
  lever: LEVER_BOARD,
  ashby: ASHBY_BOARD,
} as const satisfies Record<BoardAts, BoardFormat>;
