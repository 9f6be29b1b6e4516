/**
 * The fault specs' hands on the stack's infrastructure: scripts/faults.mjs started a private
 * PostgreSQL, Redis and Kafka for this run and passes its own path as FAULTS_SCRIPT; its
 * control commands stop and start them (nobody else uses them).
 */
import { execFileSync } from 'node:child_process';

type Control =
  ['pg-restart', 'fast' | 'immediate'] | ['kafka-stop'] | ['kafka-start'] | ['redis-stop'] | ['redis-start'];

export function infrastructure(...control: Control): void {
  const script = process.env['FAULTS_SCRIPT'];
  if (!script)
    throw new Error('FAULTS_SCRIPT is not set: run the fault specs through `npm run test:faults` (scripts/faults.mjs)');
  execFileSync(process.execPath, [script, ...control], { stdio: 'inherit' });
}
