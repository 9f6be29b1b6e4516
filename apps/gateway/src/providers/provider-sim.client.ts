import { Inject, Injectable } from '@nestjs/common';
import {
  type AdminProviderSettings,
  AdminProviderSettingsSchema,
  PROVIDERS,
  type ProviderProbe,
  type ProviderSlug,
} from '@jobs/contracts';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config/gateway.config.js';
import type { ProbeOutcome } from './provider-status.js';

export interface SimAnswer {
  status: number;
  body: unknown;
}

/** How long a control call may take; the simulator answers those at once. */
const CONTROL_TIMEOUT_MS = 5_000;

/**
 * HTTP to the provider simulator (PROVIDER_SIM_URL): its internal control API, which the admin
 * API fronts, and the providers' own endpoints, which the health checks call.
 */
@Injectable()
export class ProviderSimClient {
  private readonly baseUrl: string;
  /** The simulator's control routes take the admin API's own token. */
  private readonly controlAuthorization: string;

  constructor(@Inject(GATEWAY_CONFIG) config: GatewayConfig) {
    this.baseUrl = config.PROVIDER_SIM_URL.replace(/\/+$/, '');
    this.controlAuthorization = `Bearer ${config.ADMIN_TOKEN}`;
  }

  /** One call to `/_control/...`; network failures throw. */
  async control(method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, body?: unknown): Promise<SimAnswer> {
    const res = await fetch(`${this.baseUrl}/_control${path}`, {
      method,
      headers: {
        authorization: this.controlAuthorization,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(CONTROL_TIMEOUT_MS),
    });
    const text = await res.text();
    return { status: res.status, body: text ? parseJson(text) : null };
  }

  /** Every provider's operator settings (latency, failure mode, reported status). */
  async settings(): Promise<AdminProviderSettings[]> {
    const answer = await this.control('GET', '/providers');
    if (answer.status !== 200) throw new Error(`provider-sim GET /_control/providers answered ${answer.status}`);
    const providers = (answer.body as { providers?: unknown[] } | null)?.providers ?? [];
    return providers.map((p) => toSettings(p));
  }

  /** One real request to the provider's search endpoint; anything but a 2xx in time is a failure. */
  async probe(slug: ProviderSlug, timeoutMs: number): Promise<ProbeOutcome> {
    const { method, path, body }: ProviderProbe = PROVIDERS[slug].probe;
    const started = performance.now();
    try {
      const res = await fetch(`${this.baseUrl}${path}`, {
        method,
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
      await res.arrayBuffer();
      if (!res.ok) return { kind: 'failed', reason: 'error' };
      return { kind: 'answered', latencyMs: Math.round(performance.now() - started) };
    } catch (error) {
      const name = (error as { name?: string } | null)?.name;
      return { kind: 'failed', reason: name === 'TimeoutError' || name === 'AbortError' ? 'timeout' : 'error' };
    }
  }
}

/** The simulator's settings minus its bookkeeping fields (`latency_overridden`, `updated_at`). */
export function toSettings(raw: unknown): AdminProviderSettings {
  const { slug, latency_ms, fail, status } = (raw ?? {}) as Record<string, unknown>;
  return AdminProviderSettingsSchema.parse({ slug, latency_ms, fail, status });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
