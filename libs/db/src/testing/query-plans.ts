// For integration specs: what PostgreSQL does with a statement, node by node.
import { Prisma, type SqlReader } from '../prisma-client.js';

export interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  /** With `analyze`: the rows the node gave, per loop, and its loops. */
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  /** With `analyze`: the rows the node read and dropped by its filter, per loop. */
  'Rows Removed by Filter'?: number;
  Plans?: PlanNode[];
}

/**
 * Every node of `sql`'s plan, outermost first. With `analyze` the statement runs (EXPLAIN ANALYZE),
 * so each node carries the rows it read.
 */
export async function planNodes(db: SqlReader, sql: Prisma.Sql, { analyze = false } = {}): Promise<PlanNode[]> {
  const explain = analyze
    ? Prisma.sql`EXPLAIN (ANALYZE, FORMAT JSON) ${sql}`
    : Prisma.sql`EXPLAIN (FORMAT JSON) ${sql}`;
  const [explained] = await db.$queryRaw<Array<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>>(explain);
  return nodesOf(explained!['QUERY PLAN'][0].Plan);
}

const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];
