import { execFile } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ZIPKIN_SCRIPT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'deploy', 'zipkin', 'zipkin.sh');

/** A span as the trace viewer's API (Zipkin v2) gives it. */
export interface ViewerSpan {
  traceId: string;
  id: string;
  parentId?: string;
  name: string;
  kind?: 'CLIENT' | 'SERVER' | 'PRODUCER' | 'CONSUMER';
  localEndpoint?: { serviceName?: string };
  tags?: Record<string, string>;
}

export interface TraceViewer {
  readonly url: string;
  /** Every span of the trace the viewer holds (none yet: []). */
  trace(traceId: string): Promise<ViewerSpan[]>;
  /** The trace ids whose spans carry the tag `key=value`. */
  tracesTagged(key: string, value: string): Promise<string[]>;
  /** Stops the viewer if this process started it. */
  release(): Promise<void>;
}

async function answers(url: string): Promise<boolean> {
  const res = await fetch(`${url}/health`, { signal: AbortSignal.timeout(2000) }).catch(() => null);
  return res?.status === 200;
}

/**
 * The test stack's trace viewer (TRACE_VIEWER_URL, set by scripts/stack.mjs), started here with
 * deploy/zipkin/zipkin.sh (its port and instance from ZIPKIN_PORT and ZIPKIN_INSTANCE) when the
 * stack did not start it (`npm test` starts it only when asked: TRACE_VIEWER=1). The services
 * export to it whether or not it runs, so a viewer started now receives what they record next.
 */
export async function traceViewer(): Promise<TraceViewer> {
  const url = process.env['TRACE_VIEWER_URL'];
  if (!url) throw new Error('TRACE_VIEWER_URL is not set: run the e2e tests through scripts/stack.mjs');
  const env = {
    ...process.env,
    ZIPKIN_PORT: process.env['ZIPKIN_PORT'] ?? new URL(url).port,
    ZIPKIN_INSTANCE: process.env['ZIPKIN_INSTANCE'] ?? 'test',
  };
  let startedHere = false;
  if (!(await answers(url))) {
    await run('bash', [ZIPKIN_SCRIPT, 'start'], { env, timeout: 180_000 });
    startedHere = true;
  }
  const json = async <T>(path: string): Promise<T> => {
    const res = await fetch(`${url}${path}`);
    if (res.status === 404) return [] as T;
    if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}: ${await res.text()}`);
    return (await res.json()) as T;
  };
  return {
    url,
    trace: (traceId) => json<ViewerSpan[]>(`/api/v2/trace/${traceId}`),
    tracesTagged: async (key, value) => {
      const traces = await json<ViewerSpan[][]>(
        `/api/v2/traces?annotationQuery=${encodeURIComponent(`${key}=${value}`)}&lookback=3600000&limit=10`,
      );
      return traces.map((spans) => spans[0]!.traceId);
    },
    release: async () => {
      if (!startedHere) return;
      await run('bash', [ZIPKIN_SCRIPT, 'stop'], { env, timeout: 30_000 });
    },
  };
}

/** The services that made a trace's spans. */
export function servicesOf(spans: ViewerSpan[]): Set<string> {
  return new Set(spans.map((span) => span.localEndpoint?.serviceName ?? '').filter(Boolean));
}
