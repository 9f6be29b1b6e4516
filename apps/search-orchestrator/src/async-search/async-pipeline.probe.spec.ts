import { Partitioners, type Kafka } from 'kafkajs';
import { PROVIDER_SLUGS, Topics } from '@jobs/contracts';
import { AsyncPipelineProbe, backlog } from './async-pipeline.probe.js';

describe('backlog', () => {
  it('counts the messages from the group’s committed offset to the end of the partition', () => {
    expect(backlog({ offset: '8', low: '0' }, '5')).toBe(3);
    expect(backlog({ offset: '8', low: '0' }, '8')).toBe(0);
  });

  it('counts from the log’s start for a group that never committed there', () => {
    expect(backlog({ offset: '8', low: '2' }, '-1')).toBe(6);
    expect(backlog({ offset: '8', low: '2' }, undefined)).toBe(6);
    expect(backlog({ offset: '0', low: '0' }, '-1')).toBe(0);
  });
});

describe('AsyncPipelineProbe.partitionOf', () => {
  it('names the partition the producers’ default partitioner sends a key to', () => {
    const probe = new AsyncPipelineProbe({} as Kafka);
    const producerSide = Partitioners.DefaultPartitioner();
    const topic = Topics.AsyncChunkRequested;
    const partitionMetadata = Array.from({ length: topic.partitions }, (_, partitionId) => ({
      partitionId,
      leader: 0,
      replicas: [0],
      isr: [0],
      partitionErrorCode: 0,
    }));
    const keys = ['srch_a:provider_a', 'srch_a:provider_b', 'srch_b:own_index', 'acc_1'];
    for (const key of keys)
      expect(probe.partitionOf(topic, key)).toBe(
        producerSide({ topic: topic.name, partitionMetadata, message: { key, value: null } }),
      );
    // one search's providers land on more than one partition (read side by side)
    expect(new Set(PROVIDER_SLUGS.map((p) => probe.partitionOf(topic, `srch_a:${p}`))).size).toBeGreaterThan(1);
  });
});
