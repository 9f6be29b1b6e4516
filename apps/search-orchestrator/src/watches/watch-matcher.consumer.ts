import { EventPattern, Payload } from '@nestjs/microservices';
import { KafkaConsumer } from '@jobs/service-kit';
import { Topics, type CompanyHiringChanged, type JobLifecycleChanged } from '@jobs/contracts';
import { MatchChangesUseCase } from './match-changes.usecase.js';

@KafkaConsumer()
export class WatchMatcherConsumer {
  constructor(private readonly match: MatchChangesUseCase) {}

  @EventPattern(Topics.JobLifecycleChanged.name)
  onJobLifecycleChanged(@Payload() change: JobLifecycleChanged.Value): Promise<void> {
    return this.match.onJobChange(change);
  }

  @EventPattern(Topics.CompanyHiringChanged.name)
  onCompanyHiringChanged(@Payload() change: CompanyHiringChanged.Value): Promise<void> {
    return this.match.onHiringChange(change);
  }
}
