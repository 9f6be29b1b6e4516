import { normalizeDomain } from './domains.js';
import { WorldError } from './world-error.js';

/** The applicant tracking systems whose public boards the simulated market publishes. */
export const BOARD_ATS_LIST = ['greenhouse', 'lever', 'ashby'] as const;
export type WorldBoardAts = (typeof BOARD_ATS_LIST)[number];

/** A board name as its ATS writes it in URLs. */
const BOARD_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

/** One company's public job board on one ATS. */
export interface WorldBoard {
  ats: WorldBoardAts;
  board: string;
  companyDomain: string;
}

/**
 * Which companies publish their openings on an ATS board, and where. A company has at most one
 * board, a board one company. `version` moves on every change, so cached views know to rebuild.
 */
export class WorldBoards {
  private readonly byKey = new Map<string, WorldBoard>();
  private readonly byDomain = new Map<string, WorldBoard>();
  version = 0;

  get size(): number {
    return this.byKey.size;
  }

  list(): WorldBoard[] {
    return [...this.byKey.values()].map((b) => ({ ...b }));
  }

  get(ats: WorldBoardAts, board: string): WorldBoard | undefined {
    return this.byKey.get(key(ats, board));
  }

  /** The board a company publishes, if any. */
  ofCompany(domain: string): WorldBoard | undefined {
    return this.byDomain.get(domain);
  }

  /** The company (already normalized and known) now publishes on this board, and on no other. */
  set(ats: WorldBoardAts, board: string, companyDomain: string): WorldBoard {
    if (!BOARD_NAME.test(board))
      throw new WorldError('invalid_request', 'board must be letters, digits, ".", "_" or "-"', 'board');
    const domain = normalizeDomain(companyDomain);
    const taken = this.byKey.get(key(ats, board));
    if (taken && taken.companyDomain !== domain) this.byDomain.delete(taken.companyDomain);
    const earlier = this.byDomain.get(domain);
    if (earlier) this.byKey.delete(key(earlier.ats, earlier.board));
    const entry: WorldBoard = { ats, board, companyDomain: domain };
    this.byKey.set(key(ats, board), entry);
    this.byDomain.set(domain, entry);
    this.version++;
    return { ...entry };
  }

  /** The board is taken down; its company's openings are the own index's to list again. */
  remove(ats: WorldBoardAts, board: string): boolean {
    const entry = this.byKey.get(key(ats, board));
    if (!entry) return false;
    this.byKey.delete(key(ats, board));
    this.byDomain.delete(entry.companyDomain);
    this.version++;
    return true;
  }
}

function key(ats: WorldBoardAts, board: string): string {
  return `${ats}/${board.toLowerCase()}`;
}
