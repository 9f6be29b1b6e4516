import { examples, Topics } from '@jobs/contracts';
import type { TopicSpec } from '@jobs/kafka';
import type { KafkaPublisher } from '@jobs/nest-kafka';
import { AnswerPartlySent, SearchAnswers } from './search-answers.js';

/** Publishes as told per topic: refused topics reject (the first `times` publishes of each, or all). */
function answers(refused: readonly TopicSpec[], times = Infinity) {
  const sent: string[] = [];
  const refusals = new Map<string, number>();
  const publisher = {
    async publish(topic: TopicSpec) {
      const count = refusals.get(topic.name) ?? 0;
      if (refused.includes(topic) && count < times) {
        refusals.set(topic.name, count + 1);
        throw new Error(`${topic.name} refused`);
      }
      sent.push(topic.name);
    },
  } as unknown as KafkaPublisher;
  return { answers: new SearchAnswers(publisher), sent };
}

const page = (answers: SearchAnswers) => {
  const gathered = examples.searchPageGathered();
  return answers.publishPage(examples.searchRequested(), gathered.response.data, gathered.response.metadata, {}, null);
};

describe('SearchAnswers.publishPage', () => {
  it('sends the page and its charge, the charge with the search’s answer_by', async () => {
    const sent: Array<[string, Record<string, unknown>]> = [];
    const publisher = {
      publish: async (topic: TopicSpec, value: Record<string, unknown>) => void sent.push([topic.name, value]),
    } as unknown as KafkaPublisher;
    await page(new SearchAnswers(publisher));
    expect(sent.map(([topic]) => topic).sort()).toEqual(
      [Topics.BillingPageChargeRequested.name, Topics.SearchPageGathered.name].sort(),
    );
    const charge = sent.find(([topic]) => topic === Topics.BillingPageChargeRequested.name)![1];
    expect(charge['answer_by']).toBe(examples.searchRequested().answer_by);
  });

  it('sends the half that failed again once the other left: a charge never goes without its page', async () => {
    for (const topic of [Topics.SearchPageGathered, Topics.BillingPageChargeRequested]) {
      const once = answers([topic], 1);
      await page(once.answers);
      expect(once.sent.sort()).toEqual([Topics.BillingPageChargeRequested.name, Topics.SearchPageGathered.name].sort());
    }
  });

  it('says when half the answer left, and passes the error on as it is when none of it did', async () => {
    const half = answers([Topics.SearchPageGathered]);
    await expect(page(half.answers)).rejects.toBeInstanceOf(AnswerPartlySent);
    expect(half.sent).toEqual([Topics.BillingPageChargeRequested.name]);

    const none = answers([Topics.SearchPageGathered, Topics.BillingPageChargeRequested]);
    const error = await page(none.answers).catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(AnswerPartlySent);
    expect(String(error)).toMatch(/refused/);
  });

  it('sends a page of long descriptions first and alone, and its charge only once it left', async () => {
    const gathered = examples.searchPageGathered();
    const long = gathered.response.data.map((job) => ({ ...job, description: 'x'.repeat(200 * 1024) }));
    const publishLong = (publisher: ReturnType<typeof answers>) =>
      publisher.answers.publishPage(examples.searchRequested(), long, gathered.response.metadata, {}, null);

    const refusedPage = answers([Topics.SearchPageGathered]);
    const error = await publishLong(refusedPage).catch((e: unknown) => e);
    // nothing left: no charge for a page nobody got, and the search may be answered again
    expect(refusedPage.sent).toEqual([]);
    expect(error).not.toBeInstanceOf(AnswerPartlySent);

    const fine = answers([]);
    await publishLong(fine);
    expect(fine.sent).toEqual([Topics.SearchPageGathered.name, Topics.BillingPageChargeRequested.name]);

    const refusedCharge = answers([Topics.BillingPageChargeRequested]);
    await expect(publishLong(refusedCharge)).rejects.toBeInstanceOf(AnswerPartlySent);
  });
});
