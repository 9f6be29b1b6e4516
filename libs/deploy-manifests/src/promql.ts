import { parser } from '@prometheus-io/lezer-promql';

/** A PromQL expression as Prometheus' own editor grammar reads it: its syntax errors and the metrics it names. */
export interface ParsedPromQL {
  /** Where the grammar found no valid continuation (empty: the expression parses). */
  readonly errors: readonly string[];
  /** Every metric name a selector names (`name{...}` or `{__name__="name"}`), once each. */
  readonly metrics: readonly string[];
}

/**
 * Parses `expr` with @prometheus-io/lezer-promql (the grammar of Prometheus' web UI). The parser
 * recovers from errors instead of throwing: each error node is reported with the text around it.
 */
export function parsePromQL(expr: string): ParsedPromQL {
  const tree = parser.parse(expr);
  const errors: string[] = [];
  const metrics = new Set<string>();
  tree.iterate({
    enter: (node) => {
      if (node.type.isError) errors.push(`at ${node.from}: "${expr.slice(Math.max(0, node.from - 20), node.to + 20)}"`);
      if (node.name !== 'VectorSelector') return;
      const name = node.node.getChild('Identifier');
      if (name) metrics.add(expr.slice(name.from, name.to));
      // {__name__="x"}: the name given as a label matcher
      for (const matcher of node.node.getChild('LabelMatchers')?.getChildren('UnquotedLabelMatcher') ?? []) {
        const label = matcher.getChild('LabelName');
        const op = matcher.getChild('MatchOp');
        const value = matcher.getChild('StringLiteral');
        if (
          label &&
          value &&
          op &&
          expr.slice(label.from, label.to) === '__name__' &&
          expr.slice(op.from, op.to) === '='
        )
          metrics.add(expr.slice(value.from + 1, value.to - 1));
      }
    },
  });
  return { errors, metrics: [...metrics] };
}

/**
 * The series a metric name stands for in an exposition: a histogram's `_bucket`, `_sum` and `_count` are its own
 * name's.
 */
export function exposedFamily(series: string): string {
  return series.replace(/_(bucket|sum|count)$/, '');
}
