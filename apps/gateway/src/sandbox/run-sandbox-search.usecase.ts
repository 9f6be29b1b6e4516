import { Inject, Injectable } from '@nestjs/common';
import type { JobSearchRequest, JobSearchResult } from '@jobs/contracts';
import type { CursorCodec } from '@jobs/cursors';
import { SandboxCursorError, searchSandbox } from '@jobs/sandbox';
import { ApiError } from '../http/api-error.js';

export const SANDBOX_CURSORS = Symbol('SANDBOX_CURSORS');

/**
 * Answers a search from the sandbox's fixed data: the keyless `POST /v1/sandbox/jobs/search`
 * and every search made with a test key. No provider, no database, never charged.
 */
@Injectable()
export class RunSandboxSearchUseCase {
  constructor(@Inject(SANDBOX_CURSORS) private readonly cursors: CursorCodec) {}

  /** `creditsRemaining` is only reported: 0 for the keyless sandbox, the account's balance for a test key. */
  execute(request: JobSearchRequest, requestId: string, creditsRemaining: number): JobSearchResult {
    try {
      return searchSandbox(request, { requestId, creditsRemaining, cursors: this.cursors });
    } catch (error) {
      if (error instanceof SandboxCursorError) throw new ApiError('invalid_request', error.message, { param: 'cursor' });
      throw error;
    }
  }
}
