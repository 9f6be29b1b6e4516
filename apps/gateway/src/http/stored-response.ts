/**
 * A complete response decided before the handler ran (an idempotent replay). It is thrown so
 * that Nest skips the handler; the exception filter sends it verbatim.
 */
export class StoredResponse {
  constructor(
    readonly status: number,
    readonly headers: Readonly<Record<string, string>>,
    readonly body: string,
  ) {}
}
