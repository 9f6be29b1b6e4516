import { Injectable } from '@nestjs/common';
import { Topics } from '@jobs/contracts';
import { PrismaService } from '@jobs/db';
import { KafkaPublisher } from '@jobs/nest-kafka';
import { newId } from '@jobs/observability';
import { ApiError } from '../http/api-error.js';

export interface RefreshStatus {
  refresh_id: string;
  /** queued: waits for the pass under way; running: its sweeps are being read; completed: every sweep ended */
  status: 'queued' | 'running' | 'completed';
  requested_at: string;
  started_at: string | null;
  sweeps: { total: number; finished: number; complete: number };
}

/**
 * POST /admin/refresh: asks for one refresh pass (own crawler, partners' new listings, one
 * bucket of stored companies re-verified; watches follow from the changes) now, by publishing
 * `refresh.requested` for dedupe's refresh planner. Answered (202) once Kafka has the request.
 * GET /admin/refresh/{refresh_id} (an operator addition) says how far that pass is, read from
 * the planner's tables.
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
    const pass = request.passId ? await this.prisma.refreshPass.findUnique({ where: { id: request.passId }, include: { sweeps: { select: { finishedAt: true, complete: true } } } }) : null;
    const finished = pass?.sweeps.filter((s) => s.finishedAt !== null).length ?? 0;
    return {
      refresh_id: refreshId,
      status: !pass ? 'queued' : finished === pass.sweeps.length ? 'completed' : 'running',
      requested_at: request.requestedAt.toISOString(),
      started_at: pass?.startedAt.toISOString() ?? null,
      sweeps: { total: pass?.sweeps.length ?? 0, finished, complete: pass?.sweeps.filter((s) => s.complete).length ?? 0 },
    };
  }
}
