import { Injectable } from '@nestjs/common';
import {
  type AdminProviderSettings,
  type AdminProviderUpdateRequest,
  PROVIDER_SLUGS,
  type ProviderSlug,
} from '@jobs/contracts';
import { ApiError } from '../http/api-error.js';
import { ProviderHealthMonitor } from '../providers/provider-health.monitor.js';
import { ProviderSimClient, toSettings } from '../providers/provider-sim.client.js';
import { expectSimAnswer } from './sim-answer.js';

/** Provider behaviour (latency, injected failures, reported status), set in the simulator. */
@Injectable()
export class ProviderControlsUseCase {
  constructor(
    private readonly sim: ProviderSimClient,
    private readonly health: ProviderHealthMonitor,
  ) {}

  list(): Promise<AdminProviderSettings[]> {
    return this.sim.settings();
  }

  async update(slug: string, change: AdminProviderUpdateRequest): Promise<AdminProviderSettings> {
    if (!isProviderSlug(slug))
      throw new ApiError('not_found', `No provider ${slug}; the providers are ${PROVIDER_SLUGS.join(', ')}.`);
    const settings = toSettings(expectSimAnswer(await this.sim.control('PUT', `/providers/${slug}`, change), 200));
    await this.health.settingsChanged([settings]);
    return settings;
  }

  async reset(): Promise<void> {
    expectSimAnswer(await this.sim.control('POST', '/providers/reset'), 204);
    await this.health.settingsChanged(await this.sim.settings());
  }
}

function isProviderSlug(slug: string): slug is ProviderSlug {
  return (PROVIDER_SLUGS as readonly string[]).includes(slug);
}
