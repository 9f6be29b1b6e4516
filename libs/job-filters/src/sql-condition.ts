/**
 * A SQL condition with its values bound as parameters, written beside each filter's in-memory
 * test without depending on a database client (this library is pure domain logic): the own
 * index turns it into its client's SQL (`Prisma.sql`) when it builds a query. Values are never
 * spliced into the text, so nothing a caller sends can change the statement.
 */
export type SqlValue = string | number | boolean | Date | readonly string[] | SqlCondition;

export class SqlCondition {
  constructor(
    /** The text around the values: one more string than values, as a template literal has. */
    readonly strings: readonly string[],
    readonly values: readonly SqlValue[],
  ) {
    if (strings.length !== values.length + 1) throw new Error('SqlCondition: one more string than values');
  }
}

/** A condition from a template literal: `sql\`j.remote = ${true}\``. */
export function sql(strings: TemplateStringsArray, ...values: SqlValue[]): SqlCondition {
  return new SqlCondition([...strings], values);
}

/** The conditions one after the other, `separator` between them (e.g. `' AND '`). */
export function joinSql(parts: readonly SqlCondition[], separator: string): SqlCondition {
  if (parts.length === 0) throw new Error('joinSql: nothing to join');
  return new SqlCondition(['', ...parts.slice(1).map(() => separator), ''], parts);
}
