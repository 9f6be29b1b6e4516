export * from './topic.js';
export * from './headers.js';
export * from './kafka-client.js';
export * from './topic-provisioner.js';
export * from './typed-producer.js';
export * from './typed-consumer.js';
export * from './consumer-metrics.js';
export * from './json-bytes.js';
