import { Injectable } from '@nestjs/common';
import { Topics } from '@jobs/contracts';
import { KafkaPublisher } from '@jobs/nest-kafka';
import { newId } from '@jobs/observability';

/**
 * POST /admin/refresh: asks for one refresh pass (watches, company profiles, own index) now, by
 * publishing `refresh.requested` for the orchestrator's refresh planner. Answered (202) once
 * Kafka has the request.
 */
@Injectable()
export class RequestRefreshUseCase {
  constructor(private readonly publisher: KafkaPublisher) {}

  async execute(): Promise<{ status: 'accepted'; refresh_id: string }> {
    const refreshId = newId('rfr');
    await this.publisher.publish(Topics.RefreshRequested, { v: 1, refresh_id: refreshId, requested_at: new Date().toISOString() });
    return { status: 'accepted', refresh_id: refreshId };
  }
}
