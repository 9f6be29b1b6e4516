import { Injectable } from '@nestjs/common';
import {
  PROVIDER_SLUGS,
  WorldError,
  type ClosedReason,
  type JobPatch,
  type NewJobInput,
  type ProviderSlug,
  type WorldJob,
} from '@jobs/sim-world';
import { apiError } from '../common/api-error.js';
import { WorldService } from '../world/world.service.js';

/** World mutations and evaluation reads for the control API; world errors become HTTP errors. */
@Injectable()
export class ControlService {
  constructor(private readonly worlds: WorldService) {}

  addCompany(input: { domain: string; name: string }): { domain: string; name: string } {
    const company = this.guard(() => this.worlds.world.addCompany(input));
    return { domain: company.domain, name: company.name };
  }

  addJob(input: NewJobInput): WorldJob {
    return this.guard(() => this.worlds.world.addJob(input));
  }

  job(id: string): WorldJob {
    const job = this.worlds.world.job(id);
    if (!job) throw apiError(404, 'not_found', `no world job ${id}`, 'world_job_id');
    return job;
  }

  patchJob(id: string, patch: JobPatch): WorldJob {
    return this.guard(() => this.worlds.world.patchJob(id, patch));
  }

  closeJob(id: string, reason: ClosedReason): WorldJob {
    return this.guard(() => this.worlds.world.closeJob(id, reason));
  }

  repostJob(id: string): WorldJob {
    return this.guard(() => this.worlds.world.repostJob(id));
  }

  clock(): { now: string; speed: number } {
    return { now: new Date(this.worlds.world.now()).toISOString(), speed: this.worlds.clock?.speed ?? 1 };
  }

  setClockSpeed(speed: number): { now: string; speed: number } {
    if (!this.worlds.clock) throw apiError(409, 'conflict', 'this simulator runs on an injected clock', 'speed');
    this.worlds.clock.setSpeed(speed);
    return this.clock();
  }

  stats(): unknown {
    return this.worlds.world.stats();
  }

  /** Evaluation only: which world opening a provider's job id stands for. */
  groundTruth(filter: { provider?: ProviderSlug; provider_job_id?: string; world_job_id?: string }): unknown {
    const world = this.worlds.world;
    if (filter.provider_job_id !== undefined) {
      if (!filter.provider)
        throw apiError(400, 'invalid_request', 'provider is required with provider_job_id', 'provider');
      const worldJobId = world.groundTruth(filter.provider, filter.provider_job_id);
      if (!worldJobId)
        throw apiError(
          404,
          'not_found',
          `provider ${filter.provider} never issued ${filter.provider_job_id}`,
          'provider_job_id',
        );
      return { provider: filter.provider, provider_job_id: filter.provider_job_id, world_job_id: worldJobId };
    }
    const entries = world
      .groundTruthEntries(world.now(), filter.provider ? [filter.provider] : PROVIDER_SLUGS)
      .filter((e) => filter.world_job_id === undefined || e.worldJobId === filter.world_job_id)
      .map((e) => ({ provider: e.provider, provider_job_id: e.providerJobId, world_job_id: e.worldJobId }));
    return { seed: world.seed, at: new Date(world.now()).toISOString(), count: entries.length, entries };
  }

  private guard<T>(action: () => T): T {
    try {
      return action();
    } catch (error) {
      if (error instanceof WorldError) {
        const status = error.code === 'not_found' ? 404 : error.code === 'capacity' ? 409 : 400;
        throw apiError(status, error.code === 'capacity' ? 'conflict' : error.code, error.message, error.param);
      }
      throw error;
    }
  }
}
