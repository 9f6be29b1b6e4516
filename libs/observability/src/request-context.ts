import { AsyncLocalStorage } from 'node:async_hooks';
import { context, ROOT_CONTEXT } from '@opentelemetry/api';

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

/**
 * Runs `fn` outside any unit of work: no request context, no active span. For background loops
 * (outbox relay, delivery worker, sweepers) started or kicked from a handler: without it their
 * later passes would inherit the kicking request's ids and trace for ever.
 */
export function detached<T>(fn: () => T): T {
  return storage.exit(() => context.with(ROOT_CONTEXT, fn));
}
