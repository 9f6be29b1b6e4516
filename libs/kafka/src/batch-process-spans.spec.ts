import { ROOT_CONTEXT, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import type { KafkaMessage } from 'kafkajs';
import { BatchProcessSpans } from './batch-process-spans.js';
import { batchPayload, message, settings, stubKafka, topic } from './typed-consumer.spec-helper.js';
import { TopicConsumer } from './typed-consumer.js';

const exporter = new InMemorySpanExporter();
const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
// the consumer takes its tracer from the global provider, as in a service
trace.setGlobalTracerProvider(provider);
const tracer = provider.getTracer('spec');

afterEach(() => exporter.reset());

/** A message at `offset`, sent from the producer span `parent` (a traceparent), or from no trace. */
function sent(offset: string, parent: string | null): KafkaMessage {
  return { ...message().message, offset, headers: parent ? { traceparent: Buffer.from(parent) } : {} } as KafkaMessage;
}
const A = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
const B = '00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01';
const counts = () =>
  exporter
    .getFinishedSpans()
    .map((s) => s.attributes['messaging.batch.message_count'] ?? 1)
    .sort();

describe('BatchProcessSpans', () => {
  it('gives the messages of one producer span one span, ended with the last of them', () => {
    const batch = [sent('1', A), sent('2', B), sent('3', A), sent('4', null), sent('5', null)];
    const spans = new BatchProcessSpans(tracer).hold(batch);
    const [a1, b, a3, n4, n5] = batch.map((m) => spans.spanFor(m, 'process', {}, ROOT_CONTEXT));
    expect(a3).toBe(a1);
    expect(b).not.toBe(a1);
    // messages without a trace context are not tied to each other
    expect(n5).not.toBe(n4);
    spans.release(batch[0]!);
    expect(exporter.getFinishedSpans()).toHaveLength(0);
    spans.releaseAll(batch);
    expect(counts()).toEqual([1, 1, 1, 2]);
  });

  it('counts a message handled twice (a retry) once, and ends a span its batch never got to', () => {
    const batch = [sent('1', A), sent('2', A), sent('3', A)];
    const spans = new BatchProcessSpans(tracer).hold(batch);
    spans.spanFor(batch[0]!, 'process', {}, ROOT_CONTEXT);
    spans.spanFor(batch[0]!, 'process', {}, ROOT_CONTEXT);
    spans.spanFor(batch[1]!, 'process', {}, ROOT_CONTEXT);
    spans.releaseAll(batch);
    spans.releaseAll(batch);
    expect(counts()).toEqual([2]);
  });
});

describe('TopicConsumer spans', () => {
  const batch = () => [sent('10', A), sent('11', A), sent('12', B), sent('13', A)];

  it.each([
    ['one at a time', {}],
    ['detached', { detachedInFlight: 2 }],
  ])('handled %s, a batch has one process span per producer span', async (_how, mode) => {
    const { kafka, seen } = stubKafka();
    const handled: string[] = [];
    const consumer = new TopicConsumer(kafka, { ...settings, ...mode }).on(topic, async (_value, meta) => {
      handled.push(meta.offset);
    });
    await consumer.start();
    await seen.run!.eachBatch!(batchPayload(0, batch()).payload);
    await consumer.stop();
    expect(handled.sort()).toEqual(['10', '11', '12', '13']);
    const spans = exporter.getFinishedSpans();
    expect(spans.map((s) => s.name)).toEqual([`${topic.name} process`, `${topic.name} process`]);
    expect(counts()).toEqual([1, 3]);
  });
});
