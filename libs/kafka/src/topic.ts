import type { z } from 'zod';

/**
 * What the Kafka helpers need to know about a topic. The declared topology in
 * `@jobs/contracts` satisfies this shape; nothing here names a concrete topic.
 */
export interface TopicSpec<S extends z.ZodType = z.ZodType> {
  readonly name: string;
  readonly value: S;
  readonly partitions: number;
  /**
   * The message key: the entity whose order matters. Declared as a method so that a list of
   * differently typed topics is still a list of TopicSpec (method parameters are bivariant).
   */
  keyOf(value: z.infer<S>): string;
}

export type ValueOf<T extends TopicSpec> = z.infer<T['value']>;
