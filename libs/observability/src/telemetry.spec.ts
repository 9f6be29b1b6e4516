import { AlwaysOffSampler, AlwaysOnSampler, ParentBasedSampler, TraceIdRatioBasedSampler } from '@opentelemetry/sdk-trace';
import { samplerFromEnv } from './telemetry.js';

// The sampler NodeSDK chose before the preload built the providers itself (README "Recovery after a SIGKILL").
describe('samplerFromEnv', () => {
  it('takes OTEL_TRACES_SAMPLER by the specification names', () => {
    expect(samplerFromEnv({ OTEL_TRACES_SAMPLER: 'always_on' }, false)).toBeInstanceOf(AlwaysOnSampler);
    expect(samplerFromEnv({ OTEL_TRACES_SAMPLER: 'always_off' }, true)).toBeInstanceOf(AlwaysOffSampler);
    expect(samplerFromEnv({ OTEL_TRACES_SAMPLER: 'parentbased_always_on' }, false).toString()).toBe('ParentBased{root=AlwaysOnSampler, remoteParentSampled=AlwaysOnSampler, remoteParentNotSampled=AlwaysOffSampler, localParentSampled=AlwaysOnSampler, localParentNotSampled=AlwaysOffSampler}');
    expect(samplerFromEnv({ OTEL_TRACES_SAMPLER: 'parentbased_always_off' }, true).toString()).toContain('root=AlwaysOffSampler');
    expect(samplerFromEnv({ OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.25' }, true).toString()).toBe('TraceIdRatioBased{0.25}');
    expect(samplerFromEnv({ OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.5' }, true).toString()).toContain('root=TraceIdRatioBased{0.5}');
  });

  it('reads a missing or out-of-range ratio as 1', () => {
    expect(samplerFromEnv({ OTEL_TRACES_SAMPLER: 'traceidratio' }, true).toString()).toBe('TraceIdRatioBased{1}');
    expect(samplerFromEnv({ OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '7' }, true)).toBeInstanceOf(TraceIdRatioBasedSampler);
    expect(samplerFromEnv({ OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '7' }, true).toString()).toBe('TraceIdRatioBased{1}');
  });

  it('unset (or unknown): parent-based, recording new traces only while exporting', () => {
    const exporting = samplerFromEnv({}, true);
    const quiet = samplerFromEnv({ OTEL_TRACES_SAMPLER: 'no_such_sampler' }, false);
    expect(exporting).toBeInstanceOf(ParentBasedSampler);
    expect(exporting.toString()).toContain('root=AlwaysOnSampler');
    expect(quiet).toBeInstanceOf(ParentBasedSampler);
    expect(quiet.toString()).toContain('root=AlwaysOffSampler');
  });
});
