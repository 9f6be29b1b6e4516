import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { requestContext, untraced } from './request-context.js';

const exporter = new InMemorySpanExporter();
const contextManager = new AsyncLocalStorageContextManager().enable();
const tracer = () => trace.getTracer('t');

beforeAll(() => {
  context.setGlobalContextManager(contextManager);
  trace.setGlobalTracerProvider(new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] }));
});
afterAll(() => {
  trace.disable();
  context.disable();
});
beforeEach(() => exporter.reset());

/** Like a Prisma query: nothing happens until someone calls then(). */
function lazySpan(name: string): PromiseLike<string> {
  return { then: (resolve, reject) => Promise.resolve().then(() => (tracer().startSpan(name).end(), name)).then(resolve, reject) };
}

describe('untraced', () => {
  it('records no span inside, even from a thenable that starts only when awaited, and the caller traces on afterwards', async () => {
    await tracer().startActiveSpan('caller', async (caller) => {
      const value = await untraced(() => lazySpan('probe'));
      await untraced(async () => tracer().startSpan('probe-2').end());
      tracer().startSpan('after').end();
      caller.end();
      expect(value).toBe('probe');
    });
    expect(exporter.getFinishedSpans().map((s) => s.name).sort()).toEqual(['after', 'caller']);
  });

  it('runs outside the request context', async () => {
    const seen = await requestContext.run({ requestId: 'req_1', stages: [] }, () => untraced(() => requestContext.current()?.requestId));
    expect(seen).toBeUndefined();
  });
});
