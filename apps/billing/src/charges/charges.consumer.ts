import { Controller } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { Topics, type BillingChargeRequested } from '@jobs/contracts';
import { ChargeSearchPageUseCase } from './charge-search-page.usecase.js';

@Controller()
export class ChargesConsumer {
  constructor(private readonly chargeSearchPage: ChargeSearchPageUseCase) {}

  @EventPattern(Topics.BillingChargeRequested.name)
  onChargeRequested(@Payload() message: BillingChargeRequested.Value): Promise<void> {
    return this.chargeSearchPage.execute(message);
  }
}
