import { readFile } from 'node:fs/promises';
import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { CrawlerBoardsFileSchema } from '@jobs/contracts';
import type { Logger } from '@jobs/observability';
import { LOGGER } from '@jobs/service-kit';
import { GATEWAY_CONFIG, type GatewayConfig } from '../../config/gateway.config.js';
import { ManageCrawlerBoardsUseCase } from './manage-crawler-boards.usecase.js';

/**
 * CRAWLER_BOARDS_FILE (operator.md): the boards it lists are registered at start-up, each as a
 * `PUT /admin/crawler/boards/{ats}/{board}` would (same checks). A file that cannot be read or
 * does not match the schema stops the start: an operator's list silently ignored would look like
 * boards that never answer.
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
    for (const { ats, board, ...body } of entries) await this.boards.put({ ats, board }, body);
    this.logger.info({ file: path, boards: entries.length }, 'crawler boards registered from CRAWLER_BOARDS_FILE');
  }
}
