import { EventPattern, Payload } from '@nestjs/microservices';
import { KafkaConsumer, LiveWorkGate } from '@jobs/service-kit';
import { Topics, type OwnIndexQueryRequested } from '@jobs/contracts';
import { AnswerOwnIndexQueryUseCase } from './answer-own-index-query.usecase.js';

@KafkaConsumer()
export class OwnIndexQueryConsumer {
  constructor(
    private readonly answer: AnswerOwnIndexQueryUseCase,
    private readonly gate: LiveWorkGate,
  ) {}

  @EventPattern(Topics.OwnIndexQueryRequested.name)
  onOwnIndexQuery(@Payload() message: OwnIndexQueryRequested.Value): Promise<void> {
    return this.gate.live(() => this.answer.execute(message));
  }
}
