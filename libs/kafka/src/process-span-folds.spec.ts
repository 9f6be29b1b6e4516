import { jest } from '@jest/globals';
import { context, ROOT_CONTEXT, trace, type Context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import type { KafkaMessage } from 'kafkajs';
import { ProcessSpanFolds, type HeldMessage } from './process-span-folds.js';
import { batchPayload, message, settings, stubKafka, topic } from './typed-consumer.spec-helper.js';
import { TopicConsumer } from './typed-consumer.js';
import { TypedProducer } from './typed-producer.js';

const exporter = new InMemorySpanExporter();
const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
// the consumer takes its tracer from the global provider, as in a service
trace.setGlobalTracerProvider(provider);
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
const tracer = provider.getTracer('spec');

afterEach(() => {
  exporter.reset();
  jest.useRealTimers();
});

const TRACE = '0af7651916cd43dd8448eb211c80319c';
const OTHER_TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
/** A producer span's traceparent. */
const sentFrom = (traceId: string, spanId: string) => `00-${traceId}-${spanId}-01`;
const A = sentFrom(TRACE, 'b7ad6b7169203331');
const A2 = sentFrom(TRACE, '00f067aa0ba902b7');
const B = sentFrom(OTHER_TRACE, 'b7ad6b7169203331');

/** A message at `offset` of partition 0, sent from the producer span `parent`, or from no trace. */
function sent(offset: string, parent: string | null, partition = 0): HeldMessage {
  const headers = parent ? { traceparent: Buffer.from(parent) } : {};
  return { topic: topic.name, partition, message: { ...message().message, offset, headers } as KafkaMessage };
}
const contextOf = (m: HeldMessage): Context =>
  new W3CTraceContextPropagator().extract(
    ROOT_CONTEXT,
    { traceparent: m.message.headers?.['traceparent']?.toString() },
    {
      get: (carrier, key) => carrier[key as 'traceparent'],
      keys: (carrier) => Object.keys(carrier),
    },
  );
const counts = () =>
  exporter
    .getFinishedSpans()
    .map((s) => Number(s.attributes['messaging.batch.message_count'] ?? 1))
    .sort((a, b) => a - b);

describe('ProcessSpanFolds', () => {
  it("gives the messages of one trace one span, a child of the first's producer span that links the others'", () => {
    const folds = new ProcessSpanFolds(tracer, 0);
    const batch = [sent('1', A), sent('2', B), sent('3', A2), sent('4', null), sent('5', null)];
    folds.hold(batch);
    const [a1, b, a3, n4, n5] = batch.map((m) => folds.spanFor(m, 'process', {}, contextOf(m)).span);
    expect(a3).toBe(a1);
    expect(b).not.toBe(a1);
    // messages without a trace context are not tied to each other
    expect(n5).not.toBe(n4);
    folds.release([batch[0]!]);
    expect(exporter.getFinishedSpans()).toHaveLength(0);
    folds.release(batch);
    expect(counts()).toEqual([1, 1, 1, 2]);
    const folded = exporter.getFinishedSpans().find((s) => s.attributes['messaging.batch.message_count'] === 2)!;
    expect(folded.parentSpanContext?.spanId).toBe('b7ad6b7169203331');
    expect(folded.links.map((l) => l.context.spanId)).toEqual(['00f067aa0ba902b7']);
  });

  it('joins batches of other partitions in hand, counts a retried message once, ends what a batch never got to', () => {
    const folds = new ProcessSpanFolds(tracer, 0);
    const first = [sent('1', A, 0), sent('2', A, 0)];
    const second = [sent('1', A, 1), sent('2', A, 1)];
    folds.hold(first);
    folds.spanFor(first[0]!, 'process', {}, contextOf(first[0]!));
    folds.hold(second);
    folds.spanFor(second[0]!, 'process', {}, contextOf(second[0]!));
    folds.spanFor(second[0]!, 'process', {}, contextOf(second[0]!));
    folds.release(first);
    folds.release(second);
    folds.release(second);
    expect(counts()).toEqual([2]);
  });
});

describe('ProcessSpanFolds, in time', () => {
  it("waits 100 ms for more of its trace: the next fetch's messages join, then the span ends", async () => {
    jest.useFakeTimers();
    const folds = new ProcessSpanFolds(tracer);
    for (const m of [sent('1', A), sent('2', A2)]) {
      folds.hold([m]);
      folds.spanFor(m, 'process', {}, contextOf(m));
      folds.release([m]);
      await jest.advanceTimersByTimeAsync(60);
      expect(exporter.getFinishedSpans()).toHaveLength(0);
    }
    await jest.advanceTimersByTimeAsync(40);
    expect(counts()).toEqual([2]);
  });

  it("gives a fold's handlers one publish span per topic, ended with the fold", async () => {
    const folds = new ProcessSpanFolds(tracer, 0);
    const producer = new TypedProducer({ producer: () => ({ events: {}, on: () => undefined }) } as never, 'spec');
    const batch = [sent('1', A), sent('2', A2)];
    folds.hold(batch);
    for (const m of batch) {
      const { context: ctx } = folds.spanFor(m, 'process', {}, contextOf(m));
      await context.with(ctx, async () => {
        await producer.inPublishSpan('event.emitted', 2, async () => undefined);
        await producer.inPublishSpan('event.charge.requested', 1, async () => undefined);
      });
    }
    expect(exporter.getFinishedSpans()).toHaveLength(0);
    folds.release(batch);
    const spans = exporter.getFinishedSpans();
    const processSpan = spans.find((s) => s.name === 'process')!;
    expect(
      spans
        .filter((s) => s !== processSpan)
        .map((s) => [s.name, s.attributes['messaging.batch.message_count'], s.parentSpanContext?.spanId])
        .sort(),
    ).toEqual([
      ['event.charge.requested publish', 2, processSpan.spanContext().spanId],
      ['event.emitted publish', 4, processSpan.spanContext().spanId],
    ]);
    // work a handler left running past the fold publishes under a span of its own, which ends
    exporter.reset();
    const { context: late } = folds.spanFor(sent('3', A), 'process', {}, contextOf(sent('3', A)));
    folds.release([sent('3', A)]);
    await context.with(late, () => producer.inPublishSpan('event.emitted', 1, async () => undefined));
    expect(exporter.getFinishedSpans().map((s) => s.name)).toEqual(['process', 'event.emitted publish']);
  });
});

describe('TopicConsumer process spans', () => {
  const batch = () => [sent('10', A), sent('11', A2), sent('12', B), sent('13', A)].map((m) => m.message);

  it.each([
    ['one at a time', {}],
    ['detached', { detachedInFlight: 2 }],
  ])('handled %s, a batch has one process span per trace', async (_how, mode) => {
    const { kafka, seen } = stubKafka();
    const handled: string[] = [];
    const consumer = new TopicConsumer(kafka, { ...settings, ...mode }).on(topic, async (_value, meta) => {
      handled.push(meta.offset);
    });
    await consumer.start();
    await seen.run!.eachBatch!(batchPayload(0, batch()).payload);
    await consumer.stop();
    expect(handled.sort()).toEqual(['10', '11', '12', '13']);
    expect(exporter.getFinishedSpans().map((s) => s.name)).toEqual([`${topic.name} process`, `${topic.name} process`]);
    expect(counts()).toEqual([1, 3]);
  });
});
