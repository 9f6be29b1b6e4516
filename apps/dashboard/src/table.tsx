import { createContext, type ComponentChildren, type HTMLAttributes } from 'preact';
import { useContext } from 'preact/hooks';

/** A column's heading; `{ muted }` for a column of controls (a row's buttons, its toggle). */
export type Column = string | { muted: string };

const headingOf = (column: Column) => (typeof column === 'string' ? column : column.muted);

/** The columns of the table a row is in: each cell is labelled by its column on a narrow screen. */
const Columns = createContext<readonly Column[]>([]);

/** A table that scrolls sideways in its own box when it is wider than the page, instead of widening it. */
function TableScroll({ label, children }: { label?: string; children: ComponentChildren }) {
  return (
    // a scrollable region must be reachable by keyboard (axe: scrollable-region-focusable)
    <div class="table-scroll" tabIndex={0} role={label ? 'region' : undefined} aria-label={label}>
      {children}
    </div>
  );
}

/**
 * A table with a heading over each column and `children` as its rows (`Row`, `FullRow`). On a
 * narrow screen each row is a card of its cells, each cell under its column's heading, so nothing
 * is cut off and every button stays on screen. The explicit roles keep the table's semantics for
 * assistive technology once its parts are laid out as blocks. With `region` it scrolls sideways in
 * a box of that name on a screen too narrow for it but wide enough for the table layout.
 */
export function Table({
  region,
  testId,
  caption,
  columns,
  children,
}: {
  region?: string;
  testId?: string;
  caption?: ComponentChildren;
  columns: Column[];
  children: ComponentChildren;
}) {
  const table = (
    <table class="cards" role="table" data-testid={testId}>
      {caption !== undefined && <caption class="muted">{caption}</caption>}
      <thead role="rowgroup">
        <tr role="row">
          {columns.map((column) => (
            <th key={headingOf(column)} scope="col" role="columnheader">
              {typeof column === 'string' ? column : <span class="muted">{column.muted}</span>}
            </th>
          ))}
        </tr>
      </thead>
      <tbody role="rowgroup">
        <Columns.Provider value={columns}>{children}</Columns.Provider>
      </tbody>
    </table>
  );
  return region === undefined ? table : <TableScroll label={region}>{table}</TableScroll>;
}

type RowAttributes = Omit<HTMLAttributes<HTMLTableRowElement>, 'children' | 'role'>;

/** A row of `Table`: one cell per column, in the columns' order. */
export function Row({ cells, ...attributes }: RowAttributes & { cells: ComponentChildren[] }) {
  const columns = useContext(Columns);
  return (
    <tr role="row" {...attributes}>
      {cells.map((cell, index) => {
        const column = columns[index];
        // a column of controls needs no label over its buttons
        const label = typeof column === 'string' ? column : undefined;
        return (
          <td key={index} role="cell" data-label={label}>
            {cell}
          </td>
        );
      })}
    </tr>
  );
}

/** A row of `Table` that is one cell across every column (what a row opens, e.g. its lines). */
export function FullRow({ children, ...attributes }: RowAttributes & { children: ComponentChildren }) {
  const columns = useContext(Columns);
  return (
    <tr role="row" class="full-row" {...attributes}>
      <td role="cell" colSpan={columns.length}>
        {children}
      </td>
    </tr>
  );
}
