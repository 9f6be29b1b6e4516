import { Injectable } from '@nestjs/common';
import type {
  AdminWorldBoard,
  AdminWorldBoardParams,
  AdminWorldBoardPutRequest,
  AdminWorldCompany,
  AdminWorldJobCloseRequest,
  AdminWorldJobCreateRequest,
  AdminWorldJobPatchRequest,
  AdminWorldJobResponse,
} from '@jobs/contracts';
import { ProviderSimClient } from '../providers/provider-sim.client.js';
import { expectSimAnswer } from './sim-answer.js';

type WorldJobFields = Partial<AdminWorldJobCreateRequest>;

/**
 * The simulated job market, changed through the simulator's control API. Answers of PATCH,
 * close and repost are the opening as the simulator now holds it.
 */
@Injectable()
export class WorldControlsUseCase {
  constructor(private readonly sim: ProviderSimClient) {}

  async addCompany(company: AdminWorldCompany): Promise<AdminWorldCompany> {
    const answer = expectSimAnswer(
      await this.sim.control('POST', '/world/companies', company),
      201,
    ) as AdminWorldCompany;
    return { domain: answer.domain, name: answer.name };
  }

  async addJob(job: AdminWorldJobCreateRequest): Promise<AdminWorldJobResponse> {
    const answer = expectSimAnswer(
      await this.sim.control('POST', '/world/jobs', toSimJob(job)),
      201,
    ) as AdminWorldJobResponse;
    return { world_job_id: answer.world_job_id };
  }

  async patchJob(worldJobId: string, patch: AdminWorldJobPatchRequest): Promise<unknown> {
    return expectSimAnswer(
      await this.sim.control('PATCH', `/world/jobs/${encodeURIComponent(worldJobId)}`, toSimJob(patch)),
      200,
    );
  }

  async closeJob(worldJobId: string, close: AdminWorldJobCloseRequest): Promise<unknown> {
    return expectSimAnswer(
      await this.sim.control('POST', `/world/jobs/${encodeURIComponent(worldJobId)}/close`, close),
      200,
    );
  }

  async repostJob(worldJobId: string): Promise<unknown> {
    return expectSimAnswer(await this.sim.control('POST', `/world/jobs/${encodeURIComponent(worldJobId)}/repost`), 200);
  }

  /** The company publishes on this ATS board of the simulator (and fails it as `fail` says). */
  async putBoard(params: AdminWorldBoardParams, body: AdminWorldBoardPutRequest): Promise<AdminWorldBoard> {
    return expectSimAnswer(await this.sim.control('PUT', boardPath(params), body), 200) as AdminWorldBoard;
  }

  async listBoards(): Promise<{ data: AdminWorldBoard[] }> {
    return expectSimAnswer(await this.sim.control('GET', '/world/boards'), 200) as { data: AdminWorldBoard[] };
  }

  async removeBoard(params: AdminWorldBoardParams): Promise<void> {
    expectSimAnswer(await this.sim.control('DELETE', boardPath(params)), 204);
  }
}

function boardPath({ ats, board }: AdminWorldBoardParams): string {
  return `/world/boards/${ats}/${encodeURIComponent(board)}`;
}

/**
 * The simulator's job body: the same fields, except that a salary's `origin` is how a source
 * presents it, not a fact of the opening, so the world does not take it.
 */
export function toSimJob(job: WorldJobFields): Record<string, unknown> {
  if (!job.salary) return { ...job };
  const { origin: _origin, ...salary } = job.salary;
  return { ...job, salary };
}
