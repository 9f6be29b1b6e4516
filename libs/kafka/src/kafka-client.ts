import { Kafka, logLevel, type LogEntry, type logCreator } from 'kafkajs';
import type { Logger } from '@jobs/observability';

export interface KafkaClientSettings {
  clientId: string;
  brokers: string[];
  logger: Logger;
}

const LEVELS: Record<number, 'error' | 'warn' | 'info' | 'debug'> = {
  [logLevel.ERROR]: 'error',
  [logLevel.WARN]: 'warn',
  [logLevel.INFO]: 'info',
  [logLevel.DEBUG]: 'debug',
};

/**
 * kafkajs errors it retries by itself: a broker answer that failed (a coordinator still
 * loading after a start, a leader moving) and the consumer restart that follows. They are
 * warnings; what kafkajs gives up on still reaches the service as a thrown error.
 */
const RETRIED = /^(Response |Crash: |Restarting the consumer)/;

/** kafkajs logs through the service's pino logger; its chatty INFO lines become debug. */
function pinoLogCreator(logger: Logger): logCreator {
  return () =>
    ({ level, log }: LogEntry) => {
      const { message, timestamp: _timestamp, logger: _name, ...extra } = log;
      const target = level === logLevel.INFO ? 'debug' : level === logLevel.ERROR && RETRIED.test(message) ? 'warn' : (LEVELS[level] ?? 'debug');
      logger[target]({ kafka: extra }, `kafka: ${message}`);
    };
}

export function createKafkaClient({ clientId, brokers, logger }: KafkaClientSettings): Kafka {
  return new Kafka({
    clientId,
    brokers,
    logLevel: logLevel.INFO,
    logCreator: pinoLogCreator(logger.child({ component: 'kafkajs' })),
    connectionTimeout: 3000,
    requestTimeout: 30000,
    // Reconnect patiently: a broker restart must not take the service down with it.
    retry: { initialRetryTime: 300, retries: 10, maxRetryTime: 10000 },
  });
}
