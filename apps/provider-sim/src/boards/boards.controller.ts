import { Controller, Get, Headers, Param, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { BOARD_ROUTES, type WorldBoardAts } from '@jobs/sim-world';
import { BoardsService } from './boards.service.js';

/**
 * The ATS boards the simulated market's companies publish, each under its ATS's prefix and in its
 * format (`{simulator}/greenhouse` stands in for `https://boards-api.greenhouse.io`).
 */
@Controller()
export class BoardsController {
  constructor(private readonly boards: BoardsService) {}

  @Get(BOARD_ROUTES.greenhouse)
  greenhouse(
    @Param('board') board: string,
    @Headers('if-none-match') etag: string | undefined,
    @Res() reply: FastifyReply,
  ) {
    return this.send('greenhouse', board, etag, reply);
  }

  @Get(BOARD_ROUTES.lever)
  lever(@Param('board') board: string, @Headers('if-none-match') etag: string | undefined, @Res() reply: FastifyReply) {
    return this.send('lever', board, etag, reply);
  }

  @Get(BOARD_ROUTES.ashby)
  ashby(@Param('board') board: string, @Headers('if-none-match') etag: string | undefined, @Res() reply: FastifyReply) {
    return this.send('ashby', board, etag, reply);
  }

  private async send(ats: WorldBoardAts, board: string, etag: string | undefined, reply: FastifyReply): Promise<void> {
    const controller = new AbortController();
    reply.raw.once('close', () => {
      if (!reply.raw.writableEnded) controller.abort();
    });
    const answer = await this.boards.answer(ats, board, etag, controller.signal);
    if (!answer) return;
    if (answer.etag) reply.header('etag', answer.etag);
    reply.status(answer.status).header('content-type', answer.contentType);
    await reply.send(answer.status === 304 ? undefined : answer.body);
  }
}
