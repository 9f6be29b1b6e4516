import { Injectable } from '@nestjs/common';
import { Topics } from '@jobs/contracts';
import { PrismaService } from '@jobs/db';
import { KafkaPublisher } from '@jobs/nest-kafka';
import { newId } from '@jobs/observability';
import { ApiError } from '../http/api-error.js';

export interface RefreshStatus {
  refresh_id: string;
  /** queued: waits for the pass under way; running: its pass or its round is being read; completed: every sweep of both ended */
  status: 'queued' | 'running' | 'completed';
  requested_at: string;
  started_at: string | null;
  /** the re-verification round that serves it (null until it starts) */
  round_id: string | null;
  sweeps: { total: number; finished: number; complete: number };
}

/**
 * POST /admin/refresh: asks for one refresh now (a pass: partners' new listings and the own
 * crawler's changes; and a re-verification round: one bucket of stored companies, the own
 * crawler's whole catalog on bucket 0; watches follow from the changes), by publishing
 * `refresh.requested` for dedupe's refresh planner. Answered (202) once Kafka has the request.
 * GET /admin/refresh/{refresh_id} (an operator addition) says how far the pass and round that
 * serve it are, read from the planner's tables: completed once both have ended.
 */
@Injectable()
export class RequestRefreshUseCase {
  constructor(
    private readonly publisher: KafkaPublisher,
    private readonly prisma: PrismaService,
  ) {}

  async execute(): Promise<{ status: 'accepted'; refresh_id: string }> {
    const refreshId = newId('rfr');
    await this.publisher.publish(Topics.RefreshRequested, { v: 1, refresh_id: refreshId, requested_at: new Date().toISOString() });
    return { status: 'accepted', refresh_id: refreshId };
  }

  async status(refreshId: string): Promise<RefreshStatus> {
    const request = await this.prisma.refreshRequest.findUnique({ where: { id: refreshId } });
    if (!request) throw new ApiError('not_found', `No refresh ${refreshId} (a request just made may take a moment to arrive).`);
    const servedBy = [request.passId, request.roundId].filter((id): id is string => id !== null);
    const runs = await this.prisma.refreshPass.findMany({ where: { id: { in: servedBy } }, select: { id: true, startedAt: true, sweeps: { select: { finishedAt: true, complete: true } } } });
    const sweeps = runs.flatMap((run) => run.sweeps);
    const finished = sweeps.filter((s) => s.finishedAt !== null).length;
    const pass = runs.find((run) => run.id === request.passId);
    return {
      refresh_id: refreshId,
      status: !pass ? 'queued' : servedBy.length === 2 && finished === sweeps.length ? 'completed' : 'running',
      requested_at: request.requestedAt.toISOString(),
      started_at: pass?.startedAt.toISOString() ?? null,
      round_id: request.roundId,
      sweeps: { total: sweeps.length, finished, complete: sweeps.filter((s) => s.complete).length },
    };
  }
}
