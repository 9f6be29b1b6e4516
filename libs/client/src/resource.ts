import type { CursorPage } from './paging.js';
import { walkPages } from './paging.js';
import {
  withResponse,
  type Billed,
  type BilledResponseInfo,
  type ResponseInfo,
  type WithResponse,
} from './response-info.js';
import type { RequestOptions, RequestSpec, Transport } from './transport.js';

function billed<T extends object>(body: T, info: ResponseInfo): Billed<T> {
  // every billable endpoint sends X-Credits-*; a proxy that strips them must not break typing
  const credits = info.credits ?? { charged: 0, remaining: 0 };
  return withResponse(body, { ...info, credits } as BilledResponseInfo);
}

export abstract class Resource {
  constructor(protected readonly transport: Transport) {}

  protected async call<T extends object>(spec: RequestSpec, options?: RequestOptions): Promise<WithResponse<T>> {
    const { body, info } = await this.transport.request<T>(spec, options);
    return withResponse(body, info);
  }

  protected async callBilled<T extends object>(spec: RequestSpec, options?: RequestOptions): Promise<Billed<T>> {
    const { body, info } = await this.transport.request<T>(spec, options);
    return billed(body, info);
  }

  /** The pages of a list paged by `cursor`, from `options.cursor` (or the first page) to the last. */
  protected cursorPages<O extends { cursor?: string }, P extends CursorPage>(
    list: (options: O) => Promise<P>,
    options: O,
  ): AsyncGenerator<P, void, undefined> {
    const { cursor: start, ...rest } = options;
    return walkPages((cursor) => list({ ...rest, ...(cursor ? { cursor } : {}) } as O), start);
  }
}
