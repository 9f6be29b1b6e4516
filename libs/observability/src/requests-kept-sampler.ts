import {
  isSpanContextValid,
  SpanKind,
  trace,
  TraceFlags,
  type Attributes,
  type Context,
  type Link,
} from '@opentelemetry/api';
import {
  SamplingDecision,
  TraceIdRatioBasedSampler,
  type Sampler,
  type SamplingResult,
} from '@opentelemetry/sdk-trace';

const RECORDED: SamplingResult = { decision: SamplingDecision.RECORD_AND_SAMPLED };
const DROPPED: SamplingResult = { decision: SamplingDecision.NOT_RECORD };

/**
 * What an operator looks for is a customer's request; what fills a trace store is the stack's own
 * background (refresh passes, rounds, sweeps, relays), hundreds of spans a minute on an idle stack.
 * So every trace that starts with a request (a SERVER span with no parent in our services: the
 * public API, whose callers' trace contexts are only linked, and the admin API) is recorded, and
 * a trace that starts on its own (a timer's pass, a loop's round) is recorded at
 * `backgroundRatio`, decided on its trace id. Every other span follows its parent, across Kafka
 * and HTTP hops alike, so a recorded trace is whole and a dropped one leaves no orphans.
 */
export class RequestsKeptSampler implements Sampler {
  private readonly background: Sampler;

  constructor(private readonly backgroundRatio: number) {
    this.background = new TraceIdRatioBasedSampler(backgroundRatio);
  }

  shouldSample(
    context: Context,
    traceId: string,
    name: string,
    kind: SpanKind,
    attributes: Attributes,
    links: Link[],
  ): SamplingResult {
    const parent = trace.getSpanContext(context);
    if (parent && isSpanContextValid(parent))
      return (parent.traceFlags & TraceFlags.SAMPLED) === TraceFlags.SAMPLED ? RECORDED : DROPPED;
    if (kind === SpanKind.SERVER) return RECORDED;
    return this.background.shouldSample(context, traceId, name, kind, attributes, links);
  }

  toString(): string {
    return `RequestsKept{background=${this.backgroundRatio}}`;
  }
}
