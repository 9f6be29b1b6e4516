import { replicaCounts } from '@jobs/e2e-support';
import { CONSUMERS, expectExact, runScenario, writeBaseline } from './replica-scenario.js';

/**
 * The replica scenario on the stack as it runs for the e2e phase (one replica of each consumer
 * under `npm test`): its exact expectations, and its outcome left for the two-replica phase
 * (scripts/stack.mjs), which must give the same (replicas.replicas-spec.ts).
 */
describe('the replica scenario on one replica of each consumer', () => {
  it('gives one job per opening with exactly its providers, one charge per job, every event once', async () => {
    const outcome = await runScenario();
    expectExact(outcome);
    // Only a run on one replica each is the baseline "what one replica gives".
    const counts = replicaCounts();
    if (CONSUMERS.every((name) => counts[name] === 1)) writeBaseline(outcome);
  }, 300_000);
});
