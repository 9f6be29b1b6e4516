import { Injectable } from '@nestjs/common';
import {
  BOARD_ATS_DEFAULT_BASE_URL,
  defaultCompanyName,
  type AdminCrawlerBoard,
  type AdminCrawlerBoardParams,
  type AdminCrawlerBoardPutRequest,
  type AdminCrawlerBoardStatus,
  type BoardAts,
} from '@jobs/contracts';
import { PrismaService } from '@jobs/db';
import { WebhookTargetCheck } from '../../webhook-endpoints/webhook-target.check.js';

/**
 * The own crawler's job boards (operator.md): registered here, read by dedupe's refresh planner
 * on every pass from then on, removed here (dedupe then closes the board's openings, through its
 * outbox, when it next plans). A `base_url` on a loopback or private address passes only where
 * WEBHOOK_ALLOW_PRIVATE is true: the same guard as webhook URLs. The list joins each board with
 * how dedupe's last read of it went.
 */
@Injectable()
export class ManageCrawlerBoardsUseCase {
  constructor(
    private readonly prisma: PrismaService,
    private readonly targets: WebhookTargetCheck,
  ) {}

  /** `unresolvedAllowed`: a `base_url` whose host does not resolve now is registered (see `check`). */
  async put(
    params: AdminCrawlerBoardParams,
    body: AdminCrawlerBoardPutRequest,
    { unresolvedAllowed = false }: { unresolvedAllowed?: boolean } = {},
  ): Promise<AdminCrawlerBoard> {
    const baseUrl = baseUrlOf(params, body);
    await this.targets.assertAllowed(baseUrl, 'base_url', { unresolvedAllowed });
    const fields = {
      companyDomain: body.company_domain,
      companyName: body.company_name ?? defaultCompanyName(body.company_domain),
      baseUrl,
    };
    const row = await this.prisma.crawlerBoard.upsert({
      where: { ats_board: { ats: params.ats, board: params.board } },
      create: { ats: params.ats, board: params.board, ...fields },
      update: fields,
    });
    return boardOf(row);
  }

  async list(): Promise<{ data: AdminCrawlerBoardStatus[] }> {
    const [boards, reads] = await Promise.all([
      this.prisma.crawlerBoard.findMany({ orderBy: [{ ats: 'asc' }, { board: 'asc' }] }),
      this.prisma.crawlerBoardRead.findMany(),
    ]);
    const readOf = new Map(reads.map((r) => [`${r.ats}:${r.board}`, r]));
    return {
      data: boards.map((row) => {
        const read = readOf.get(`${row.ats}:${row.board}`);
        return {
          ...boardOf(row),
          last_read_at: read?.lastReadAt?.toISOString() ?? null,
          open_jobs: read?.openJobs ?? 0,
          last_error: read?.lastError ?? null,
        };
      }),
    };
  }

  /**
   * The checks of `put`, writing nothing, for a list checked whole before any of it is written. A
   * host that does not resolve now passes (true): the fetcher checks every connection again, and a
   * DNS failure of one ATS host must not stop the start.
   */
  async check(params: AdminCrawlerBoardParams, body: AdminCrawlerBoardPutRequest): Promise<{ unresolved: boolean }> {
    return {
      unresolved: await this.targets.assertAllowed(baseUrlOf(params, body), 'base_url', { unresolvedAllowed: true }),
    };
  }

  /** Idempotent: removing a board that is not registered (any more) is done already. */
  async remove(params: AdminCrawlerBoardParams): Promise<void> {
    await this.prisma.crawlerBoard.deleteMany({ where: { ats: params.ats, board: params.board } });
  }
}

function baseUrlOf(params: AdminCrawlerBoardParams, body: AdminCrawlerBoardPutRequest): string {
  return (body.base_url ?? BOARD_ATS_DEFAULT_BASE_URL[params.ats]).replace(/\/+$/, '');
}

function boardOf(row: {
  ats: string;
  board: string;
  companyDomain: string;
  companyName: string;
  baseUrl: string;
}): AdminCrawlerBoard {
  return {
    ats: row.ats as BoardAts,
    board: row.board,
    company_domain: row.companyDomain,
    company_name: row.companyName,
    base_url: row.baseUrl,
  };
}
