export * from './kafka.options.js';
export * from './kafka-publisher.js';
export * from './kafka-topology.transport.js';
export * from './kafka.module.js';
export * from './run-kafka-service.js';
export * from './query-answers.js';
