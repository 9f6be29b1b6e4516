// How long each fault of the fault specs took to heal: timed per scenario, printed per scenario
// and as a table at the end of the run.
import { eventually, waitForStackReady } from '../src/index.js';
import { RECOVERY_MS, type FaultWorld } from './faults-world.js';

/**
 * How long each fault took to heal, counted from the fault itself (the wait for a request under
 * way comes before it): a new process (SIGKILL only), `/readyz` 200, the first sync answer after
 * the fault, and serving again (three sync answers and an async 202). Figures, not assertions:
 * printed per scenario and as a table at the end.
 */
interface Recovery {
  scenario: string;
  busy: number;
  restartedMs?: number;
  readyMs?: number;
  firstAnswerMs?: number;
  servingMs?: number;
}
const ms = (value: number | undefined) => (value === undefined ? '-' : `${(value / 1000).toFixed(1)} s`);

export class Recoveries {
  private readonly recoveries: Recovery[] = [];

  constructor(private readonly world: FaultWorld) {}

  /** Times the healing of a fault injected at `since`: `steps` wait for readiness (and a new process). */
  async time(
    scenario: string,
    busy: number,
    since: number,
    answeredBefore: number,
    steps: { restarted?: () => Promise<unknown> } = {},
  ): Promise<Recovery> {
    const { load } = this.world;
    const recovery: Recovery = { scenario, busy };
    this.recoveries.push(recovery);
    const firstAnswer = eventually(
      () => (load.answered > answeredBefore ? Date.now() - since : undefined),
      RECOVERY_MS,
      'a sync answer after the fault',
      50,
    )
      .then((elapsed) => (recovery.firstAnswerMs = elapsed))
      .catch(() => undefined); // servesAgain below fails the scenario with the reason
    if (steps.restarted) {
      await steps.restarted();
      recovery.restartedMs = Date.now() - since;
    }
    await waitForStackReady(RECOVERY_MS);
    recovery.readyMs = Date.now() - since;
    await this.world.servesAgain();
    recovery.servingMs = Date.now() - since;
    await firstAnswer;
    return recovery;
  }

  /** The table of every scenario timed so far; undefined before the first. */
  table(): string | undefined {
    if (this.recoveries.length === 0) return undefined;
    return [
      'time to serve again, from the fault:',
      '',
      '| scenario | requests under way | new process | /readyz 200 | first sync answer | serving again |',
      '|---|---:|---:|---:|---:|---:|',
    ]
      .concat(
        this.recoveries.map(
          (r) =>
            `| ${r.scenario} | ${r.busy} | ${ms(r.restartedMs)} | ` +
            `${ms(r.readyMs)} | ${ms(r.firstAnswerMs)} | ` +
            `${ms(r.servingMs)} |`,
        ),
      )
      .join('\n');
  }
}

export function recoveryLine(r: Recovery): string {
  return (
    `new process after ${ms(r.restartedMs)}, ready after ` +
    `${ms(r.readyMs)}, first sync answer after ` +
    `${ms(r.firstAnswerMs)}, serving again after ` +
    `${ms(r.servingMs)}`
  );
}
