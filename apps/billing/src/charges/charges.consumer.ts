import { EventPattern, Payload } from '@nestjs/microservices';
import { KafkaConsumer } from '@jobs/service-kit';
import { Topics, type BillingPageChargeRequested } from '@jobs/contracts';
import { ChargeSearchPageUseCase } from './charge-search-page.usecase.js';

@KafkaConsumer()
export class ChargesConsumer {
  constructor(private readonly chargeSearchPage: ChargeSearchPageUseCase) {}

  @EventPattern(Topics.BillingPageChargeRequested.name)
  onPageChargeRequested(@Payload() message: BillingPageChargeRequested.Value): Promise<void> {
    return this.chargeSearchPage.execute(message);
  }
}
