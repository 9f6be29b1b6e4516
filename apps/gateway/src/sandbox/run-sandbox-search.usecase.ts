import { Injectable } from '@nestjs/common';
import type { JobSearchRequest, JobSearchResult } from '@jobs/contracts';
import { searchSandbox } from '@jobs/sandbox';

/**
 * Answers a search from the sandbox's fixed data: the keyless `POST /v1/sandbox/jobs/search`
 * and every `POST /v1/jobs/search` made with a test key. The request is validated before it
 * gets here (the live endpoint's schema); every valid body then gets the same fixed page, or
 * the same fixed estimate with `dry_run: true`. A well-formed `cursor` is accepted and ignored:
 * the fixed page's `next_cursor` is always null, so there is no later page to go to.
 * No provider, no database, never charged.
 */
@Injectable()
export class RunSandboxSearchUseCase {
  /** `creditsRemaining` is only reported: 0 for the keyless sandbox, the account's balance for a test key. */
  execute(request: JobSearchRequest, requestId: string, creditsRemaining: number): JobSearchResult {
    return searchSandbox(request, { requestId, creditsRemaining });
  }
}
