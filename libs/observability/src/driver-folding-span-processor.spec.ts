import { context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { DRIVER_SCOPES, DriverFoldingSpanProcessor } from './driver-folding-span-processor.js';

describe('DriverFoldingSpanProcessor', () => {
  const exporter = new InMemorySpanExporter();
  const provider = new TracerProvider({
    spanProcessors: [new DriverFoldingSpanProcessor([new SimpleSpanProcessor({ exporter })], DRIVER_SCOPES)],
  });
  const stages = provider.getTracer('@jobs/stages');
  const pg = provider.getTracer('@opentelemetry/instrumentation-pg');
  const prisma = provider.getTracer('prisma');
  const redis = provider.getTracer('@opentelemetry/instrumentation-ioredis');
  const contextManager = new AsyncLocalStorageContextManager();

  beforeAll(() => context.setGlobalContextManager(contextManager.enable()));
  afterAll(() => contextManager.disable());
  beforeEach(() => exporter.reset());

  const call = (tracer: ReturnType<typeof provider.getTracer>, name: string, inner?: () => void) =>
    tracer.startActiveSpan(name, (span) => {
      inner?.();
      span.end();
    });

  const finished = async (exporting = exporter, of = provider) => {
    await of.forceFlush();
    return exporting.getFinishedSpans();
  };

  it("counts a step's driver calls on the step and exports the step alone", async () => {
    stages.startActiveSpan('merge', (step) => {
      call(pg, 'pg.query:SELECT');
      call(pg, 'pg.query:UPDATE');
      // Prisma's operation and the SQL under it are one call
      call(prisma, 'prisma:client:operation', () => call(pg, 'pg.query:INSERT'));
      call(redis, 'get');
      step.end();
    });
    const spans = await finished();
    expect(spans.map((s) => s.name)).toEqual(['merge']);
    expect(spans[0]!.attributes['jobs.db.calls']).toBe(3);
    expect(spans[0]!.attributes['jobs.redis.calls']).toBe(1);
    expect(typeof spans[0]!.attributes['jobs.db.ms']).toBe('number');
  });

  it('keeps a driver call with no step above it in this process, and folds its inner calls into it', async () => {
    call(prisma, 'prisma:client:operation', () => call(pg, 'pg.query:SELECT'));
    const spans = await finished();
    expect(spans.map((s) => s.name)).toEqual(['prisma:client:operation']);
    expect(spans[0]!.attributes['jobs.db.calls']).toBe(1);
  });

  it('drops a call that ends after its step', async () => {
    let late: ReturnType<typeof pg.startSpan> | undefined;
    stages.startActiveSpan('relay', (step) => {
      late = pg.startSpan('pg.query:COMMIT');
      step.end();
    });
    late!.end();
    const spans = await finished();
    expect(spans.map((s) => s.name)).toEqual(['relay']);
    expect(spans[0]!.attributes['jobs.db.calls']).toBeUndefined();
  });

  it("keeps a driver call a step's span started under, so no exported span loses its parent", async () => {
    stages.startActiveSpan('merge', (step) => {
      call(prisma, 'prisma:client:transaction', () => {
        call(pg, 'pg.query:UPDATE');
        stages.startActiveSpan('job.lifecycle.changed publish', (publish) => publish.end());
      });
      step.end();
    });
    const spans = await finished();
    const byName = new Map(spans.map((s) => [s.name, s]));
    expect([...byName.keys()].sort()).toEqual(['job.lifecycle.changed publish', 'merge', 'prisma:client:transaction']);
    const ids = new Set(spans.map((s) => s.spanContext().spanId));
    expect(spans.every((s) => s.parentSpanContext === undefined || ids.has(s.parentSpanContext.spanId))).toBe(true);
    expect(byName.get('merge')!.attributes['jobs.db.calls']).toBe(1);
  });

  it('exports every span when no scope is folded', async () => {
    const everything = new InMemorySpanExporter();
    const unfolded = new TracerProvider({
      spanProcessors: [new DriverFoldingSpanProcessor([new SimpleSpanProcessor({ exporter: everything })], {})],
    });
    const tracer = unfolded.getTracer('@opentelemetry/instrumentation-pg');
    tracer.startActiveSpan('step', (step) => {
      call(tracer, 'pg.query:SELECT');
      step.end();
    });
    expect((await finished(everything, unfolded)).map((s) => s.name)).toEqual(['pg.query:SELECT', 'step']);
  });
});
