import net from 'node:net';
import tls from 'node:tls';
import { Kafka, logLevel, type ISocketFactory, type LogEntry, type logCreator } from 'kafkajs';
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
      const target =
        level === logLevel.INFO
          ? 'debug'
          : level === logLevel.ERROR && RETRIED.test(message)
            ? 'warn'
            : (LEVELS[level] ?? 'debug');
      logger[target]({ kafka: extra }, `kafka: ${message}`);
    };
}

/** As kafkajs's own: TCP keep-alive probes after a minute idle. */
const KEEP_ALIVE_DELAY_MS = 60_000;

/**
 * kafkajs's own socket factory with Nagle's algorithm off (TCP_NODELAY). kafkajs leaves it on, so
 * a small request written while an earlier one on the same connection is not yet acknowledged
 * (a commit or a heartbeat behind a long-poll fetch, a produce behind another) waits for that
 * ACK, which the peer may hold for its delayed-ACK timer (40 ms on Linux). Every request here is
 * one write of a whole frame, so there is nothing for Nagle to merge; librdkafka (since 2.10)
 * and kafka-python send with TCP_NODELAY by default, and the broker sets it on its side.
 */
export const noDelaySocketFactory: ISocketFactory = ({ host, port, ssl, onConnect }) => {
  const socket = ssl
    ? tls.connect({ host, port, ...(net.isIP(host) ? {} : { servername: host }), ...ssl }, onConnect)
    : net.connect({ host, port }, onConnect);
  socket.setNoDelay(true);
  socket.setKeepAlive(true, KEEP_ALIVE_DELAY_MS);
  return socket;
};

export function createKafkaClient({ clientId, brokers, logger }: KafkaClientSettings): Kafka {
  return new Kafka({
    clientId,
    brokers,
    logLevel: logLevel.INFO,
    logCreator: pinoLogCreator(logger.child({ component: 'kafkajs' })),
    socketFactory: noDelaySocketFactory,
    connectionTimeout: 3000,
    requestTimeout: 30000,
    // Reconnect patiently: a broker restart must not take the service down with it.
    retry: { initialRetryTime: 300, retries: 10, maxRetryTime: 10000 },
  });
}
