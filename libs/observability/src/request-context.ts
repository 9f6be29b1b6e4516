import { AsyncLocalStorage } from 'node:async_hooks';
import { context, ROOT_CONTEXT } from '@opentelemetry/api';
import { suppressTracing } from '@opentelemetry/core';

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

/**
 * Runs `fn` with tracing suppressed (no spans from our code or the pg, Prisma, Redis and HTTP
 * instrumentations), outside any unit of work. For the probes of background loops ("is anything
 * due?"): a loop that finds nothing several times a second would otherwise fill the trace store
 * with empty root traces and spend an idle service's CPU making and exporting them. Work
 * a probe finds starts its own spans (from the trace context it stored) outside `fn`. `fn`'s
 * result is awaited inside, because some thenables (Prisma's queries) only start when awaited.
 */
export function untraced<T>(fn: () => T | PromiseLike<T>): Promise<T> {
  return storage.exit(() => context.with(suppressTracing(ROOT_CONTEXT), async () => await fn()));
}
