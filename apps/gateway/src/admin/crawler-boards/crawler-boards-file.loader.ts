import { readFile } from 'node:fs/promises';
import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { CrawlerBoardsFileSchema } from '@jobs/contracts';
import type { Logger } from '@jobs/observability';
import { LOGGER } from '@jobs/service-kit';
import { GATEWAY_CONFIG, type GatewayConfig } from '../../config/gateway.config.js';
import { ManageCrawlerBoardsUseCase } from './manage-crawler-boards.usecase.js';

/**
 * CRAWLER_BOARDS_FILE (operator.md): the boards it lists are registered at start-up, each as a
 * `PUT /admin/crawler/boards/{ats}/{board}` would (same checks), once every entry passed them. A
 * file that cannot be read, does not match the schema or names a refused `base_url` (a private
 * address where those are not allowed) stops the start with nothing of it registered: an
 * operator's list silently ignored would look like boards that never answer. A host that does not
 * resolve at the moment is registered with a warning: a DNS failure of an ATS host must not keep
 * the API from starting, and the crawler checks every connection again.
 */
@Injectable()
export class CrawlerBoardsFileLoader implements OnApplicationBootstrap {
  constructor(
    private readonly boards: ManageCrawlerBoardsUseCase,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const path = this.config.CRAWLER_BOARDS_FILE;
    if (!path) return;
    const entries = CrawlerBoardsFileSchema.parse(JSON.parse(await readFile(path, 'utf8')));
    for (const { ats, board, ...body } of entries) {
      const { unresolved } = await this.boards.check({ ats, board }, body);
      if (unresolved)
        this.logger.warn({ file: path, ats, board }, "crawler board's host does not resolve now; registered anyway");
    }
    // checked again as written (the resolver's cache answers): nothing is registered unchecked
    for (const { ats, board, ...body } of entries)
      await this.boards.put({ ats, board }, body, { unresolvedAllowed: true });
    this.logger.info({ file: path, boards: entries.length }, 'crawler boards registered from CRAWLER_BOARDS_FILE');
  }
}
