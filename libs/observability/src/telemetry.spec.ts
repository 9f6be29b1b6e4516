import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  ParentBasedSampler,
  TraceIdRatioBasedSampler,
} from '@opentelemetry/sdk-trace';
import { ZipkinExporter } from '@opentelemetry/exporter-zipkin';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { RequestsKeptSampler } from './requests-kept-sampler.js';
import { samplerFromEnv, traceExporters } from './telemetry.js';

// The sampler NodeSDK chose before the preload built the providers itself (docs/operations.md
// "Recovery after a crash").
describe('samplerFromEnv', () => {
  it('takes OTEL_TRACES_SAMPLER by the specification names', () => {
    expect(samplerFromEnv({ OTEL_TRACES_SAMPLER: 'always_on' }, false)).toBeInstanceOf(AlwaysOnSampler);
    expect(samplerFromEnv({ OTEL_TRACES_SAMPLER: 'always_off' }, true)).toBeInstanceOf(AlwaysOffSampler);
    expect(samplerFromEnv({ OTEL_TRACES_SAMPLER: 'parentbased_always_on' }, false).toString()).toBe(
      'ParentBased{root=AlwaysOnSampler, ' +
        'remoteParentSampled=AlwaysOnSampler, ' +
        'remoteParentNotSampled=AlwaysOffSampler, ' +
        'localParentSampled=AlwaysOnSampler, ' +
        'localParentNotSampled=AlwaysOffSampler}',
    );
    expect(samplerFromEnv({ OTEL_TRACES_SAMPLER: 'parentbased_always_off' }, true).toString()).toContain(
      'root=AlwaysOffSampler',
    );
    expect(
      samplerFromEnv({ OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.25' }, true).toString(),
    ).toBe('TraceIdRatioBased{0.25}');
    expect(
      samplerFromEnv(
        { OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.5' },
        true,
      ).toString(),
    ).toContain('root=TraceIdRatioBased{0.5}');
  });

  it('reads a missing or out-of-range ratio as 1', () => {
    expect(samplerFromEnv({ OTEL_TRACES_SAMPLER: 'traceidratio' }, true).toString()).toBe('TraceIdRatioBased{1}');
    expect(samplerFromEnv({ OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '7' }, true)).toBeInstanceOf(
      TraceIdRatioBasedSampler,
    );
    expect(samplerFromEnv({ OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '7' }, true).toString()).toBe(
      'TraceIdRatioBased{1}',
    );
  });

  it('unset (or unknown) while exporting: every request, and TRACES_BACKGROUND_RATIO (1 %) of the rest', () => {
    expect(samplerFromEnv({}, true)).toBeInstanceOf(RequestsKeptSampler);
    expect(samplerFromEnv({}, true).toString()).toBe('RequestsKept{background=0.01}');
    expect(samplerFromEnv({ TRACES_BACKGROUND_RATIO: '0.2' }, true).toString()).toBe('RequestsKept{background=0.2}');
    expect(samplerFromEnv({ TRACES_BACKGROUND_RATIO: '2' }, true).toString()).toBe('RequestsKept{background=0.01}');
  });

  it('unset (or unknown) with nowhere to export: parent-based, recording no new trace', () => {
    const quiet = samplerFromEnv({ OTEL_TRACES_SAMPLER: 'no_such_sampler' }, false);
    expect(quiet).toBeInstanceOf(ParentBasedSampler);
    expect(quiet.toString()).toContain('root=AlwaysOffSampler');
  });
});

describe('traceExporters', () => {
  it('exports to the trace viewer (Zipkin) and to an OTLP receiver, each when its endpoint is set', async () => {
    expect(await traceExporters({})).toEqual([]);
    expect(await traceExporters({ OTEL_EXPORTER_ZIPKIN_ENDPOINT: ' ' })).toEqual([]);
    const [zipkin] = await traceExporters({ OTEL_EXPORTER_ZIPKIN_ENDPOINT: 'http://127.0.0.1:9411/api/v2/spans' });
    expect(zipkin).toBeInstanceOf(ZipkinExporter);
    const both = await traceExporters({
      OTEL_EXPORTER_ZIPKIN_ENDPOINT: 'http://127.0.0.1:9411/api/v2/spans',
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318',
    });
    expect(both.map((e) => e.constructor)).toEqual([ZipkinExporter, OTLPTraceExporter]);
    await Promise.all(both.map((e) => e.shutdown()));
  });
});
