import type { ReactNode } from 'react';

/**
 * A column heading: its label and, when it differs from the default padding, its classes (e.g. `py-1 pr-2`),
 * or its alignment (`right` for numbers) on the default padding.
 */
export type Column = ReactNode | { label: ReactNode; className?: string; align?: 'right' | 'center' };

const columnClass = 'px-3 py-2';
/** the first and last columns of a table with `edges` (their cells are padded `px-4` to the card's edge) */
const edgeClass = 'px-4 py-2';
const alignClass = { right: 'text-right', center: 'text-center' } as const;

/** A heading aligned right, over numbers. */
export const right = (label: ReactNode): Column => ({ label, align: 'right' });
/** A heading centred, over badges. */
export const center = (label: ReactNode): Column => ({ label, align: 'center' });

/**
 * The one data table: a bordered, scrollable card with a small-caps header row and divided
 * body rows. Rows (`<tr>`) are the children, or `<tbody>` row groups with `groups`.
 */
export function DataTable({
  columns,
  children,
  label,
  testId,
  groups = false,
  frame = 'card',
  className = '',
  size = 'sm',
  edges = false,
  columnClassName = columnClass,
}: {
  columns: Column[];
  children: ReactNode;
  label?: string;
  /** the table's `data-testid` (browser tests find tables by it) */
  testId?: string;
  /** the children are `<tbody>` row groups (a row with its detail rows), not rows */
  groups?: boolean;
  /** `card`: its own bordered card; `none`: inside a panel that already is one */
  frame?: 'card' | 'none';
  /** extra classes for the scrolling wrapper (margins) */
  className?: string;
  /** `xs` for small tables inside a form or panel (a plan, a criteria grid) */
  size?: 'sm' | 'xs';
  /** the first and last headings are padded `px-4`, as the rows' first and last cells */
  edges?: boolean;
  /** the headings' padding where a column names no classes of its own (`px-3 py-2`; e.g. `py-1` in a panel) */
  columnClassName?: string;
}) {
  return (
    <div className={`overflow-x-auto ${frame === 'card' ? 'rounded-xl border border-zinc-200 bg-white shadow-sm' : ''} ${className}`}>
      <table className={`w-full text-left ${size === 'xs' ? 'text-xs' : 'text-sm'}`} aria-label={label} data-testid={testId}>
        <thead className="border-b border-zinc-200 bg-zinc-50 text-xs uppercase tracking-wide text-zinc-500">
          <tr>
            {columns.map((c, i) => {
              const { label: text, className, align } = c && typeof c === 'object' && 'label' in c ? c : { label: c as ReactNode };
              const pad = edges && (i === 0 || i === columns.length - 1) ? edgeClass : columnClassName;
              const classes = className ?? (align ? `${pad} ${alignClass[align]}` : pad);
              return (
                <th key={i} scope="col" className={`${classes} font-medium`}>
                  {text}
                </th>
              );
            })}
          </tr>
        </thead>
        {groups ? children : <tbody className="divide-y divide-zinc-100">{children}</tbody>}
      </table>
    </div>
  );
}
