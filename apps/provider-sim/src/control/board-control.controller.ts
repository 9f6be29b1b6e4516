import { Body, Controller, Delete, Get, HttpCode, Param, Put, UseGuards } from '@nestjs/common';
import { WorldError, type WorldBoard, type WorldBoardAts } from '@jobs/sim-world';
import { apiError, parseInput } from '../common/api-error.js';
import { BoardBehaviourService, type BoardFailMode } from '../boards/board-behaviour.service.js';
import { WorldService } from '../world/world.service.js';
import { BoardAtsSchema, BoardBody } from './control.schema.js';
import { ControlTokenGuard } from './control-token.guard.js';

interface BoardDto {
  ats: WorldBoardAts;
  board: string;
  company_domain: string;
  fail: BoardFailMode;
}

/**
 * Which companies publish an ATS board, and how each board fails: the test's and benchmark's
 * handle on the boards the own crawler reads (proxied as the gateway's `/admin/world/boards`).
 */
@Controller('_control/world/boards')
@UseGuards(ControlTokenGuard)
export class BoardControlController {
  constructor(
    private readonly worlds: WorldService,
    private readonly behaviour: BoardBehaviourService,
  ) {}

  @Get()
  list(): { data: BoardDto[] } {
    return { data: this.worlds.world.boards().map((b) => this.dto(b)) };
  }

  @Put(':ats/:board')
  put(@Param('ats') ats: string, @Param('board') board: string, @Body() body: unknown): BoardDto {
    const atsOf = atsParam(ats);
    const input = parseInput(BoardBody, body);
    try {
      const published = this.worlds.world.setBoard({ ats: atsOf, board, companyDomain: input.company_domain });
      this.behaviour.setFail(atsOf, board, input.fail ?? 'none');
      return this.dto(published);
    } catch (error) {
      if (error instanceof WorldError) throw apiError(400, 'invalid_request', error.message, error.param);
      throw error;
    }
  }

  @Delete(':ats/:board')
  @HttpCode(204)
  remove(@Param('ats') ats: string, @Param('board') board: string): void {
    const atsOf = atsParam(ats);
    this.worlds.world.removeBoard(atsOf, board);
    this.behaviour.setFail(atsOf, board, 'none');
  }

  private dto(board: WorldBoard): BoardDto {
    return {
      ats: board.ats,
      board: board.board,
      company_domain: board.companyDomain,
      fail: this.behaviour.failOf(board.ats, board.board),
    };
  }
}

function atsParam(ats: string): WorldBoardAts {
  const parsed = BoardAtsSchema.safeParse(ats);
  if (!parsed.success) throw apiError(404, 'not_found', `unknown ATS ${ats}`, 'ats');
  return parsed.data;
}
