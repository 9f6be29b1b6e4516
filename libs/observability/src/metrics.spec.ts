import { metrics } from '@opentelemetry/api';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import { jobsMeter, prometheusReader, renderMetrics, scrapeMetrics, secondsHistogram } from './metrics.js';

describe('metrics', () => {
  it('is empty before telemetry registered the reader', async () => {
    await expect(scrapeMetrics()).resolves.toBe('');
  });

  describe('with the reader bound to a meter provider', () => {
    let provider: MeterProvider;
    beforeAll(() => {
      provider = new MeterProvider({ readers: [prometheusReader()] });
      metrics.setGlobalMeterProvider(provider);
    });
    afterAll(async () => {
      metrics.disable();
      await provider.shutdown();
    });

    it('renders our counters and second histograms in Prometheus text, with their labels and buckets', async () => {
      const meter = jobsMeter();
      meter.createCounter('demo_things_total', { description: 'Things.' }).add(3, { outcome: 'ok' });
      secondsHistogram(meter, 'demo_step_seconds', 'A step.').record(0.2, { topic: 'a' });
      const text = await scrapeMetrics();
      expect(text).toContain('# TYPE demo_things_total counter');
      expect(text).toMatch(/^demo_things_total\{outcome="ok",[^}]*\} 3$/m);
      expect(text).toContain('# TYPE demo_step_seconds histogram');
      // 0.2 s falls in the 0.25 bucket and not in the 0.1 one: the shared second buckets apply.
      expect(text).toMatch(/^demo_step_seconds_bucket\{topic="a",[^}]*le="0.1"\} 0$/m);
      expect(text).toMatch(/^demo_step_seconds_bucket\{topic="a",[^}]*le="0.25"\} 1$/m);
    });
  });
});

describe('target_info', () => {
  it('names the process and shows nothing of its command line, paths or user', () => {
    const resource = resourceFromAttributes({
      'service.name': 'gateway',
      'service.instance.id': 'b5c7',
      'host.name': 'node-1',
      'process.pid': 42,
      'process.runtime.version': '24.0.0',
      'process.command_args': ['node', '--inspect-port=127.0.0.1:9229', 'main.mjs', '--token=s3cret'],
      'process.command': 'main.mjs',
      'process.executable.path': '/opt/node/bin/node',
      'process.owner': 'root',
      'os.version': '6.18.44',
    });
    const text = renderMetrics({ resource, scopeMetrics: [] });
    expect(text).toMatch(/^target_info\{[^}]*service_name="gateway"[^}]*\} 1$/m);
    expect(text).toContain('host_name="node-1"');
    expect(text).toContain('process_pid="42"');
    for (const hidden of ['inspect-port', 's3cret', 'main.mjs', '/opt/node', 'process_owner', 'root', '6.18.44'])
      expect(text).not.toContain(hidden);
  });
});
