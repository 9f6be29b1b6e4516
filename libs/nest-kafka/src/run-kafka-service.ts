import type { DynamicModule } from '@nestjs/common';
import type { SharedEnv } from '@jobs/config';
import { runService, type RunningService } from '@jobs/service-kit';
import { KafkaTopologyTransport } from './kafka-topology.transport.js';

/**
 * Starts a service whose work arrives over Kafka: the kit's bootstrap with the topology
 * transport attached, health on HEALTH_PORT (each service's config sets its default).
 */
export function runKafkaService(
  name: string,
  config: Readonly<SharedEnv & { HEALTH_PORT: number }>,
  module: DynamicModule,
): Promise<RunningService> {
  return runService({
    name,
    module,
    port: config.HEALTH_PORT,
    host: config.LISTEN_HOST,
    logLevel: config.LOG_LEVEL,
    instanceId: config.INSTANCE_ID,
    replicaId: config.INSTANCE_ID,
    shutdownTimeoutMs: config.SHUTDOWN_TIMEOUT_MS,
    microservices: (app) => [app.get(KafkaTopologyTransport)],
  });
}
