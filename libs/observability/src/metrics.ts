import { metrics, ValueType, type Histogram, type Meter } from '@opentelemetry/api';
import { PrometheusExporter, PrometheusSerializer } from '@opentelemetry/exporter-prometheus';
import type { ResourceMetrics } from '@opentelemetry/sdk-metrics';
import { shownResource } from './process-resource.js';

/** Prometheus' text exposition format (0.0.4), what `GET /metrics` answers. */
export const PROMETHEUS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

/** Bucket bounds (seconds) of every stage latency histogram: 5 ms to 30 s. */
export const LATENCY_BUCKETS_SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

let reader: PrometheusExporter | undefined;

/**
 * The SDK's metric reader. Pull only: no server of its own (preventServerStart); every service
 * serves it from the HTTP server it already has (`scrapeMetrics` behind `GET /metrics`).
 */
export function prometheusReader(): PrometheusExporter {
  reader ??= new PrometheusExporter({ preventServerStart: true });
  return reader;
}

// The exporter's defaults: no prefix, no timestamps, target_info and scope labels kept.
const serializer = new PrometheusSerializer();

/**
 * Collects every instrument now and renders the Prometheus text. Empty when telemetry was not
 * started (unit tests): there is no meter provider, so nothing was measured.
 */
export async function scrapeMetrics(): Promise<string> {
  if (!reader) return '';
  const { resourceMetrics } = await reader.collect();
  return renderMetrics(resourceMetrics);
}

/** The Prometheus text of collected metrics, `target_info` limited to SHOWN_RESOURCE_ATTRIBUTES. */
export function renderMetrics(resourceMetrics: ResourceMetrics): string {
  return serializer.serialize({ ...resourceMetrics, resource: shownResource(resourceMetrics.resource) });
}

/**
 * The meter of our own instruments. The metrics API hands out no-op meters until the SDK has
 * registered its provider and never upgrades them, so call this when a service builds its
 * providers (constructors), never at import time.
 */
export function jobsMeter(): Meter {
  return metrics.getMeter('@jobs/metrics');
}

/** A latency histogram in seconds with the shared buckets. */
export function secondsHistogram(meter: Meter, name: string, description: string): Histogram {
  return meter.createHistogram(name, {
    description,
    unit: 's',
    valueType: ValueType.DOUBLE,
    advice: { explicitBucketBoundaries: LATENCY_BUCKETS_SECONDS },
  });
}

/** Seconds since `start` (a `performance.now()` reading). */
export function secondsSince(start: number): number {
  return (performance.now() - start) / 1000;
}
