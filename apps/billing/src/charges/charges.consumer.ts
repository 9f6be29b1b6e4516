import { EventPattern, Payload } from '@nestjs/microservices';
import { KafkaConsumer } from '@jobs/service-kit';
import { Topics, type BillingChargeRequested } from '@jobs/contracts';
import { ChargeSearchPageUseCase } from './charge-search-page.usecase.js';

@KafkaConsumer()
export class ChargesConsumer {
  constructor(private readonly chargeSearchPage: ChargeSearchPageUseCase) {}

  @EventPattern(Topics.BillingChargeRequested.name)
  onChargeRequested(@Payload() message: BillingChargeRequested.Value): Promise<void> {
    return this.chargeSearchPage.execute(message);
  }
}
