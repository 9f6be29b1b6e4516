import { trace } from '@opentelemetry/api';
import { requestContext, untraced } from './request-context.js';
import { useInMemoryTracing } from './testing/in-memory-tracing.js';

const exporter = useInMemoryTracing();
const tracer = () => trace.getTracer('t');

/** Like a Prisma query: nothing happens until someone calls then(). */
function lazySpan(name: string): PromiseLike<string> {
  return {
    then: (resolve, reject) =>
      Promise.resolve()
        .then(() => (tracer().startSpan(name).end(), name))
        .then(resolve, reject),
  };
}

describe('untraced', () => {
  it(
    'records no span inside, even from a thenable that starts ' +
      'only when awaited, and the caller traces on afterwards',
    async () => {
      await tracer().startActiveSpan('caller', async (caller) => {
        const value = await untraced(() => lazySpan('probe'));
        await untraced(async () => tracer().startSpan('probe-2').end());
        tracer().startSpan('after').end();
        caller.end();
        expect(value).toBe('probe');
      });
      expect(
        exporter
          .getFinishedSpans()
          .map((s) => s.name)
          .sort(),
      ).toEqual(['after', 'caller']);
    },
  );

  it('runs outside the request context', async () => {
    const seen = await requestContext.run({ requestId: 'req_1', stages: [] }, () =>
      untraced(() => requestContext.current()?.requestId),
    );
    expect(seen).toBeUndefined();
  });
});
