import { Recoveries } from './faults-recovery.js';
import { quiescedTests } from './faults-quiesced.js';
import { faultScenarioTests } from './faults-scenarios.js';
import { FaultWorld, RECOVERY_MS, report } from './faults-world.js';

/**
 * Faults under load: while sync searches, async searches and watch deliveries run,
 * every service is SIGKILLed in turn (the stack's supervisor starts it again), the Kafka broker
 * is stopped and started, PostgreSQL restarted (fast, then immediate: a crash and recovery),
 * and Redis goes away and comes back. After the load stops and the stack quiesces: no async
 * search lost or stuck, no charge lost or doubled (ledger = balance = paid jobs, over HTTP and
 * in PostgreSQL), no event lost (each delivered, signed, or still in retry), and every sync
 * search answered 200 has its charges in the ledger.
 *
 * Run by scripts/faults.mjs (`npm run test:faults`), which owns the infrastructure it breaks.
 *
 * The faults and the checks share one world (faults-world.ts) and run in order in this one file:
 * the checks judge what the faults did to the load.
 */
const world = new FaultWorld();
const recoveries = new Recoveries(world);

beforeAll(() => world.start(), RECOVERY_MS);

afterAll(async () => {
  const table = recoveries.table();
  if (table) report(table);
  await world.stop();
});

describe('faults under load', () => {
  faultScenarioTests(world, recoveries);
  quiescedTests(world);
});
