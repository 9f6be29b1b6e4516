import type { ErrorCode, Plan } from '@jobs/contracts';

export interface ApiErrorExtras {
  param?: string;
  credits_needed?: number;
  required_plan?: Plan;
  upgrade_url?: string;
}

/** A request-level failure with a public error code; the exception filter renders the envelope. */
export class ApiError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly extras: ApiErrorExtras = {},
    readonly headers: Record<string, string> = {},
    /** Another HTTP status than the code's own (ERROR_CATALOG): 503 for a refusal at capacity. */
    readonly status?: number,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}
