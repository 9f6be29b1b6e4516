import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * What travels with one unit of work, across HTTP and Kafka hops: the public request id and
 * the list of stages (services) the work has passed through so far.
 */
export interface RequestContext {
  readonly requestId: string;
  readonly stages: readonly string[];
}

const storage = new AsyncLocalStorage<RequestContext>();

export const requestContext = {
  run<T>(ctx: RequestContext, fn: () => T): T {
    return storage.run(ctx, fn);
  },
  current(): RequestContext | undefined {
    return storage.getStore();
  },
};
