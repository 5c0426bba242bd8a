import type { ReactNode } from 'react';

/** A column heading: its label and, when it differs from the default padding, its classes (e.g. `px-3 py-2 text-right`). */
export type Column = ReactNode | { label: ReactNode; className?: string };

const columnClass = 'px-3 py-2';

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
}) {
  return (
    <div className={`overflow-x-auto ${frame === 'card' ? 'rounded-xl border border-zinc-200 bg-white shadow-sm' : ''} ${className}`}>
      <table className={`w-full text-left ${size === 'xs' ? 'text-xs' : 'text-sm'}`} aria-label={label} data-testid={testId}>
        <thead className="border-b border-zinc-200 bg-zinc-50 text-xs uppercase tracking-wide text-zinc-500">
          <tr>
            {columns.map((c, i) => {
              const { label: text, className = columnClass } =
                c && typeof c === 'object' && 'label' in c ? c : { label: c as ReactNode, className: columnClass };
              return (
                <th key={i} scope="col" className={`${className} font-medium`}>
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
