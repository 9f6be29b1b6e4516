/**
 * How long a SIGKILLed consumer's successor takes to get its partitions back, as a static member
 * (the same `groupInstanceId`, what every service does when INSTANCE_ID is set) beside a dynamic
 * one (no id: the coordinator waits for the dead member's session to expire). Each round runs a
 * member in a child process that joins and is SIGKILLed, then times a fresh child from its start
 * to its GROUP_JOIN, with the services' session settings (libs/kafka). Needs only a broker.
 *
 *   npm run up                                   # or any broker; the dev stack's is 19092
 *   KAFKA_BROKERS=127.0.0.1:26092 BENCH_ROUNDS=5 npm run bench -- rejoin
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Kafka, logLevel } from 'kafkajs';
import { CONSUMER_HEARTBEAT_INTERVAL_MS, CONSUMER_SESSION_TIMEOUT_MS } from '@jobs/kafka';
import { percentile } from './stack.js';

const brokers = (process.env['KAFKA_BROKERS'] ?? '127.0.0.1:19092').split(',');
const rounds = Number(process.env['BENCH_ROUNDS'] ?? 3);
const TOPIC = 'bench.rejoin';

interface Joined {
  joinedAfterMs: number;
  partitions: number;
}

/** Child: join `group` (as `instance` unless '-'), report the join, then die by SIGKILL or leave. */
async function member(group: string, instance: string, then: 'kill' | 'leave'): Promise<void> {
  const started = Date.now();
  const kafka = new Kafka({ clientId: 'bench-rejoin', brokers, logLevel: logLevel.NOTHING });
  const consumer = kafka.consumer({
    groupId: group,
    sessionTimeout: CONSUMER_SESSION_TIMEOUT_MS,
    heartbeatInterval: CONSUMER_HEARTBEAT_INTERVAL_MS,
    ...(instance === '-' ? {} : { groupInstanceId: instance }),
  });
  consumer.on(consumer.events.GROUP_JOIN, ({ payload }) => {
    const joined: Joined = {
      joinedAfterMs: Date.now() - started,
      partitions: Object.values(payload.memberAssignment).flat().length,
    };
    process.stdout.write(`${JSON.stringify(joined)}\n`);
    if (then === 'kill') process.kill(process.pid, 'SIGKILL');
    else void consumer.disconnect().then(() => process.exit(0));
  });
  await consumer.connect();
  await consumer.subscribe({ topics: [TOPIC] });
  await consumer.run({ eachMessage: async () => undefined });
}

function child(group: string, instance: string, then: 'kill' | 'leave'): Promise<Joined> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [fileURLToPath(import.meta.url), 'member', group, instance, then], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    proc.stdout.on('data', (d) => (out += d));
    proc.on('exit', () => {
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve(JSON.parse(line) as Joined);
      else reject(new Error(`member of ${group} exited without joining`));
    });
  });
}

async function main(): Promise<void> {
  const admin = new Kafka({ clientId: 'bench-rejoin', brokers, logLevel: logLevel.NOTHING }).admin();
  await admin.connect();
  await admin.createTopics({ topics: [{ topic: TOPIC, numPartitions: 3 }] });
  await admin.disconnect();
  const rows: string[] = [];
  for (const kind of ['static', 'dynamic'] as const) {
    const times: number[] = [];
    let partitions = 0;
    for (let round = 0; round < rounds; round++) {
      const group = `bench-rejoin-${kind}-${process.pid}-${round}`;
      const instance = kind === 'static' ? 'bench-rejoin-1' : '-';
      await child(group, instance, 'kill');
      const again = await child(group, instance, 'leave');
      times.push(again.joinedAfterMs);
      partitions = again.partitions;
    }
    const sorted = [...times].sort((a, b) => a - b);
    rows.push(
      `| ${kind} | ${rounds} | ${percentile(sorted, 50).toFixed(0)} ` +
        `ms | ${sorted.at(-1)!.toFixed(0)} ms | ${partitions} of 3 |`,
    );
  }
  process.stdout.write(
    [
      `Rejoin after SIGKILL (session ${CONSUMER_SESSION_TIMEOUT_MS} ` +
        `ms, heartbeat ${CONSUMER_HEARTBEAT_INTERVAL_MS} ms), from ` +
        `the successor's start to its GROUP_JOIN:`,
      '',
      '| member | rounds | p50 | max | partitions |',
      '|---|---:|---:|---:|---:|',
      ...rows,
      '',
    ].join('\n'),
  );
}

const [mode, group, instance, then] = process.argv.slice(2);
if (mode === 'member') void member(group!, instance!, then as 'kill' | 'leave');
else
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      process.stderr.write(`${String(error)}\n`);
      process.exit(1);
    },
  );
