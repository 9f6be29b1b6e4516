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

/** kafkajs logs through the service's pino logger; its chatty INFO lines become debug. */
function pinoLogCreator(logger: Logger): logCreator {
  return () =>
    ({ level, log }: LogEntry) => {
      const { message, timestamp: _timestamp, logger: _name, ...extra } = log;
      const target = level === logLevel.INFO ? 'debug' : (LEVELS[level] ?? 'debug');
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
