import { Injectable } from '@nestjs/common';
import { Topics, type SearchRequested } from '@jobs/contracts';
import { KafkaPublisher } from '@jobs/nest-kafka';
import { planRequiredRefusal } from '@jobs/plans';
import { planWaterfall, ProviderNotOnPlanError } from '@jobs/waterfall';
import { FanOutUseCase } from './fan-out.usecase.js';
import { NextPageUseCase } from './next-page.usecase.js';
import { SearchMetrics } from './search-metrics.js';

/** Plans the waterfall of a new search and asks the provider-fetcher for each provider. */
@Injectable()
export class StartSearchUseCase {
  private readonly metrics = new SearchMetrics();

  constructor(
    private readonly fanOut: FanOutUseCase,
    private readonly nextPage: NextPageUseCase,
    private readonly publisher: KafkaPublisher,
  ) {}

  async execute(message: SearchRequested.Value): Promise<void> {
    if (message.request.cursor) return this.nextPage.execute(message, message.request.cursor);
    let plan;
    try {
      plan = planWaterfall(message.request, message.providers_enabled);
    } catch (error) {
      if (!(error instanceof ProviderNotOnPlanError)) throw error;
      this.metrics.searchAnswered(message.request.waterfall.strategy, 'plan_required');
      await this.publisher.publish(Topics.SearchResponded, {
        v: 1,
        search_id: message.search_id,
        request_id: message.search_id,
        outcome: 'error',
        error: { code: 'plan_required', ...planRequiredRefusal(error.providers) },
        credits_charged: 0,
        credits_remaining: null,
      });
      return;
    }
    // A dry run asks every planned provider at once, whatever the strategy's waves: its estimate
    // counts every page (the store's count, each partner's total), so it must not depend on
    // whether a first wave happened to fill `limit`.
    if (message.request.dry_run) plan = { ...plan, waves: [plan.providers] };
    const started = await this.fanOut.firstWave(
      { request: message, plan, wave: 0, startedAt: Date.now() },
      { onlyIfNew: true },
    );
    if (started) this.metrics.searchStarted(message.request.waterfall.strategy);
  }
}
