import type { ReactNode } from 'react';

/** A column heading: its label and, when it differs from the default padding, its classes (e.g. `px-3 py-2 text-right`). */
export type Column = ReactNode | { label: ReactNode; className?: string };

const columnClass = 'px-3 py-2';

/**
 * The one data table: a bordered, scrollable card with a small-caps header row and divided
 * body rows. Rows (`<tr>`) are the children.
 */
export function DataTable({ columns, children, label }: { columns: Column[]; children: ReactNode; label?: string }) {
  return (
    <div className="overflow-x-auto rounded-xl border border-zinc-200 bg-white shadow-sm">
      <table className="w-full text-left text-sm" aria-label={label}>
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
        <tbody className="divide-y divide-zinc-100">{children}</tbody>
      </table>
    </div>
  );
}
